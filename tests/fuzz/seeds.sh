#!/bin/bash
# tests/fuzz/seeds.sh OUT [BUILDDIR]: writes OUT/TARGET/ for every fuzz target, the inputs
# its runs start from: the kept inputs of tests/fuzz/regressions/TARGET/ and files the
# fixture writers make (tests/mkfixture, tests/mkpak of BUILDDIR, default the top of the
# tree). Never anything from ../shared/corpus: these seeds ship with the fuzz targets
# (.clusterfuzzlite/build.sh zips them) and scripts/fuzz starts from them too.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
build=${2:-$top}
fix=$build/tests/mkfixture
[ -x "$fix" ] && [ -x "$build/tests/mkpak" ] ||
	{ echo "seeds.sh: build tests/mkfixture and tests/mkpak first (make tests/mkfixture tests/mkpak)" >&2; exit 1; }
targets="cmod cmod_full cmod_ascii cmb cmb_full j3d j3d_full j3d_struct j3danim grezzo_anim apply rfrm rfrm_full pak pica
	gx lzss inflate gpu tegra
	astc bcn txtr_struct yaz0 yay0 lz_cx lzs rarc zar gar yaz0_wrap lzs_wrap lz_cx_wrap bti ctxb"
for t in $targets; do
	mkdir -p "$out/$t"
	kept=$top/tests/fuzz/regressions/${t%_full}
	[ -d "$kept" ] && find "$kept" -maxdepth 1 -type f ! -name '*.md' -exec cp {} "$out/$t/" \;
done
# A driver's _full target starts from the same files as the driver's own.
for t in cmod cmb j3d rfrm; do
	case $t in
	cmod) "$fix" cmod "$out/$t/sample.cmod" ;;
	cmb) for v in 6 10 12 15; do "$fix" cmb "$v" "$out/$t/v$v.cmb"; done
	     "$fix" bigtex 16 "$out/$t/bigtex-16.cmb" ;;
	j3d) for v in bmd3 bdl4 bmd2; do "$fix" j3d "$v" "$out/$t/fixture-$v.${v%?}"; done
	     "$fix" bmt "$out/$t/fixture.bmt" ;;
	rfrm) for c in 0 3 6 9 12 13; do "$fix" cmdl "$c" "$out/$t/codec-$c.cmdl"; done
	      # R8, RGBA8, BC1, RG8, ASTC 8x5 and BC7 textures (Switch format codes)
	      for f in 0 12 20 32 58 83; do "$fix" txtr "$f" 16 "$out/$t/format-$f.txtr"; done ;;
	esac
	[ -d "$out/${t}_full" ] && cp "$out/$t"/* "$out/${t}_full/"
done
"$fix" cmod-ascii "$out/cmod_ascii/sample.cmod"
"$fix" ctxb "$out/ctxb/sample.ctxb"
# Every texture of the J3D fixture as a standalone BTI (mkfixture names them).
for name in $("$fix" bti '?' /dev/null 2>&1 | sed -n 's/.*one of: *//p'); do
	"$fix" bti "$name" "$out/bti/$name.bti"
done
"$build/tests/mkpak" "$out/pak/mkpak-12.pak" 12 > /dev/null
"$build/tests/mkpak" "$out/pak/mkpak-3.pak" 3 > /dev/null
for k in rarc rarc-cycle; do "$fix" archive "$k" "$out/rarc/$k.arc"; done
"$fix" archive rarc-yaz0 "$out/yaz0_wrap/sample.szs"
"$fix" archive zar "$out/zar/sample.zar"
"$fix" archive gar2 "$out/gar/sample-v2.gar"
"$fix" archive gar5 "$out/gar/sample-v5.gar"
"$fix" archive gar2-lzs "$out/lzs_wrap/sample.gar.lzs"
for k in lz10 lz11; do "$fix" archive "$k" "$out/lz_cx_wrap/sample.$k"; done
# The codec targets without kept inputs: their first 4 bytes (tests/fuzz/fuzz_codec.c),
# then data of the right size, written here (python3, which the OSS-Fuzz image has too).
python3 - "$out" <<'PY'
import sys, zlib
out = sys.argv[1]
ramp = bytes((i * 37 + 11) & 0xFF for i in range(4096))
def put(target, name, params, data):
    with open(f"{out}/{target}/{name}", "wb") as f:
        f.write(bytes(params) + data)
# PICA: every format of 8 x 8 texels (bytes 1-2 are width - 1, height - 1)
for fmt in range(14):
    put("pica", f"format-{fmt}-8x8", [fmt, 7, 7, 0], ramp[:256])
# GX: every format of 8 x 8 with a 32-colour palette ahead of the texels (over 64 bytes)
for fmt in range(15):
    put("gx", f"format-{fmt}-8x8", [fmt, 7, 7, fmt % 4], ramp[:64 + 256])
# inflate: a zlib stream of 1 KiB (byte 1 is the output cap in KiB), stored and compressed
put("inflate", "zlib-stored", [0, 1, 0, 0], zlib.compress(ramp[:1024], 0))
put("inflate", "zlib-best", [0, 1, 0, 0], zlib.compress(ramp[:512] * 2, 9))
# LZSS (Retro): literals behind all-ones flag bytes, 64 bytes out (bytes 1-2)
put("lzss", "literals-64", [0, 0, 64, 0], b"".join(b"\xff" + ramp[i:i + 8] for i in range(0, 64, 8)))
# GPU buffer: byte 0 the tag (0, stored), bytes 1-2 the size
put("gpu", "stored-256", [0, 1, 0, 0], ramp[:256])
PY
