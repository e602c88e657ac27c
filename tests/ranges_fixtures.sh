#!/bin/bash
# Range producers on models the suite writes itself, so that they are checked without
# ../shared too and on layouts the corpus lacks: every kind tests/mkfixture writes, and
# Tropical Freeze textures of each format family at sides no block or GOB divides
# (1 to 515), in every GPU codec. tests/test_ranges reads each ranged file by ranges
# (head, tail, random, one byte) and whole, from separate trees: the bytes must agree.
# (Productions in pieces need files over 1 MiB that only the corpus has: test_ranges.)
. "$(dirname "$0")/lib.sh"
mk=$top_builddir/tests/mkfixture
d=$WORK/fx
mkdir -p "$d"
made() { # made FILE ARGS...: write a fixture; a writer that fails is a failure of its own
	local f=$1
	shift
	"$mk" "$@" "$d/$f" || not_ok "mkfixture $* writes $f"
}
made sample.cmod cmod
made sample.ascii.cmod cmod-ascii
made big.cmb bigtex 1024        # a 4 MiB PNG, 128 ETC1 tile rows
made animated.arc animated
made bmt.bmt bmt
for v in bmd3 bdl4 bmd2; do made j3d_$v.bmd j3d $v; done
for t in $("$mk" bti none /dev/null 2>&1 | sed -n 's/.*one of: //p'); do
	made "bti_${t//\~/_}.bti" bti "$t"
done
for v in 6 10 12 15; do made cmb_$v.cmb cmb $v; made records_$v.cmb cmb-records $v; done
for c in 0 1 3 5 8 12 13; do made codec_$c.cmdl cmdl $c; done
for k in cmab csab3 csab5; do made $k.$k grezzo $k; done
for k in rarc rarc-yaz0 zar gar2 gar5 gar2-lzs lz10 lz11; do made archive_$k archive $k; done
# R8, RGBA8, RGBA16F, RG8, BC1 to BC5, BC7 (random blocks), ASTC 4x4, 5x4, 8x8, 12x12
for f in 0 12 14 32 20 22 24 26 28 84 53 54 60 66; do
	for s in 1 3 13 67 130 257 515; do made txtr_${f}_$s.txtr txtr $f $s; done
done
for c in 0 1 2 3 4 5 6 7 8 9 10 11 12 13; do # OUT before CODEC here
	"$mk" txtr 20 130 "$d/txtr_codec_$c.txtr" $c || not_ok "mkfixture txtr 20 130 in codec $c"
done

n=0 closed=""
for f in "$d"/*; do
	n=$((n + 1))
	"$NMODEL" ls "$f" >/dev/null 2>&1 || closed="$closed $(basename "$f")"
done
check "all $n fixtures open${closed:+ (not:$closed)}" test -z "$closed"
out=$("$top_builddir/tests/test_ranges" "$d"/* 2>&1)
rc=$?
echo "$out" | grep -v '^ok' | tail -5
check "$n fixtures: every ranged file's ranges equal its whole production" test $rc -eq 0
files=$(echo "$out" | sed -n 's/^\([0-9]*\) files with a range producer.*/\1/p')
check "$files ranged files over $n fixtures (at least one a fixture on average)" test "${files:-0}" -ge "$n"
finish
