#!/bin/bash
# nmodel apply on real J3D files (doc/apply.md, doc/j3d.md): one edit of each kind
# (a material colour, an enum, a joint translation, a vertex position, a texture) on a
# BMD, only that file and the files made from it differ in OUT's tree; the same inside
# a Yaz0 RARC, and in a folder's BMT; refusals of each kind exit 1, write no OUT and
# name the file, the line and the field.
. "$(dirname "$0")/lib.sh"
F=$CORPUS/bmd/fin_sms_kinopio_body.bmd
[ -f "$F" ] || skip_all "no corpus at $CORPUS: J3D edits on real files not checked"
"$NMODEL" extract "$F" "$WORK/t" >/dev/null

# A solid-colour RGBA PNG of w x h (python's zlib: no image tool needed).
png() { # png W H R G B A OUT
	python3 - "$@" <<'PY'
import struct, sys, zlib
w, h, r, g, b, a = map(int, sys.argv[1:7])
raw = b''.join(b'\0' + bytes([r, g, b, a]) * w for _ in range(h))
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
open(sys.argv[7], 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0))
	+ chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
PY
}
# The materials a --dry-run note says share the edited entry, as mat3/N.txt names.
sharing() {
	"$NMODEL" apply --dry-run "$F" "$WORK/e-$1" | sed -n 's/.*also changes materials\{0,1\} \([0-9, ]*\).*/\1/p' |
		tr ',' '\n' | sed 's/ //g; /^$/d; s|.*|mat3/&.txt|'
}
# Sorted list of words, as applied prints them.
words() { printf '%s\n' "$@" | sort | tr '\n' ' '; }

edit colour mat3/0.txt 's/^material_color0: .*/material_color0: 10 20 30 40/'
check "a colour: the material, those sharing its entry (--dry-run names them), raw.bin, mesh.mtl, model.glb" \
	test "$(applied colour)" = "$(words info.txt mat3/0.txt mat3/raw.bin mesh.mtl model.glb $(sharing colour))"
check "the colour reads back" grep -qx 'material_color0: 10 20 30 40' "$WORK/x-colour/mat3/0.txt"
edit enum mat3/2.txt 's/^mode: .*/mode: TRANSLUCENT/'
check "an enum by name: only the material and raw.bin" \
	test "$(applied enum)" = "$(words info.txt mat3/2.txt mat3/raw.bin $(sharing enum))"
check "the enum reads back" grep -qx 'mode: TRANSLUCENT (0x4)' "$WORK/x-enum/mat3/2.txt"
edit joint jnt1/joints/1.txt 's/^translation: .*/translation: 0.5 31 0.125/'
j=$(applied joint)
check "a joint translation: the joint (both names), its descendants' matrices, EVP1's inverse binds, the meshes" \
	bash -c "case '$j' in *jnt1/joints/1.txt*jnt1/raw.bin*) ;; *) exit 1;; esac; for f in $j; do case \$f in info.txt|mesh.obj|model.glb|jnt1/joints/*|jnt1/by_name/*|jnt1/raw.bin|evp1/inverse_bind/*|evp1/raw.bin) ;; *) echo \"  unexpected: \$f\"; exit 1;; esac; done; case '$j' in *evp1/inverse_bind/1.txt*) ;; *) exit 1;; esac"
check "--dry-run says the inverse binds were recomputed" \
	bash -c "'$NMODEL' apply --dry-run '$F' '$WORK/e-joint' | grep -q 'note: EVP1 inverse bind matrices of joints 1, .* recomputed'"
check "the translation reads back" grep -qx 'translation: 0.5 31 0.125' "$WORK/x-joint/jnt1/joints/1.txt"
edit pos vtx1/positions.csv '2s/.*/+1.5,-0.25,+0.001953125/'
check "a vertex position: the CSV, vtx1's raw.bin and the meshes" \
	test "$(applied pos)" = "info.txt mesh.obj model.glb vtx1/positions.csv vtx1/raw.bin "
check "the position reads back" grep -qx '+1.50000000e+00,-2.50000000e-01,+1.95312500e-03' "$WORK/x-pos/vtx1/positions.csv"
T=$(cd "$WORK/t/tex1" && ls *.png | head -1)
read -r w h < <(sed -n 's/^width: //p; s/^height: //p' "$WORK/t/tex1/${T%.png}.txt" | tr '\n' ' ')
mkdir -p "$WORK/e-tex/tex1"
png "$w" "$h" 255 255 255 255 "$WORK/e-tex/tex1/$T"
tex=$(applied tex)
check "a texture ($T, ${w}x$h): its PNG and .bin, those sharing its image, raw.bin (and model.glb when a material shows it)" \
	bash -c "case '$tex' in *tex1/${T%.png}.bin*tex1/$T*tex1/raw.bin*) ;; *) exit 1;; esac; for f in $tex; do case \$f in info.txt|model.glb|tex1/*.png|tex1/*.bin) ;; *) echo \"  unexpected: \$f\"; exit 1;; esac; done"

# Refusals: exit 1, no OUT, file:line: field (refused, tests/lib.sh).
edit range mat3/0.txt 's/^material_color0: .*/material_color0: 300 0 0 0/'
check "a colour out of range: refused, naming file, line and field" \
	refused range "$WORK/e-range/mat3/0.txt:10: material_color0: 300 is out of range 0..255 (u8)"
edit ro jnt1/joints/1.txt 's/^parent: .*/parent: 3/'
check "a derived joint line: refused as read-only" refused ro "$WORK/e-ro/jnt1/joints/1.txt:[0-9]*: parent: is derived"
edit bad mat3/0.txt 's/^cull_mode: .*/cull_mode BACK/'
check "a line that does not parse: refused" refused bad "$WORK/e-bad/mat3/0.txt:6: "
edit layout "tex1/${T%.png}.txt" 's/^width: .*/width: 4/'
check "a texture size: refused as a layout change" refused layout "$WORK/e-layout/tex1/${T%.png}.txt:[0-9]*: width: says where"
edit near vtx1/positions.csv '2s/.*/+1.001,-0.25,+0.001953125/'
check "a position the array cannot hold: refused with the nearest" \
	refused near "$WORK/e-near/vtx1/positions.csv:2: x: +1.001 is not a value this array holds (s16 x 0.001953125, shift 9): the nearest is 1.0019531"
mkdir -p "$WORK/e-size/tex1"
png 3 5 0 0 0 255 "$WORK/e-size/tex1/$T"
check "a texture of another size: refused" refused size "$WORK/e-size/tex1/$T: is 3x5"

# Inside a Yaz0 RARC: a material of a member, OUT of the same kind.
A=$CORPUS/rarc/fin_pikmin2_pikis.yaz0
if [ -f "$A" ]; then
	"$NMODEL" extract "$A" "$WORK/a" >/dev/null 2>&1
	m=$(cd "$WORK/a" && find . -path '*/mat3/0.txt' | head -1 | sed 's|^\./||')
	mkdir -p "$WORK/ea/$(dirname "$m")"
	sed 's/^material_color0: .*/material_color0: 1 2 3 4/' "$WORK/a/$m" > "$WORK/ea/$m"
	"$NMODEL" apply "$A" "$WORK/ea" "$WORK/a.out" >/dev/null
	check "a material inside a Yaz0 RARC member ($m): OUT opens and shows it" \
		bash -c "'$NMODEL' cat '$WORK/a.out' '/$m' | grep -qx 'material_color0: 1 2 3 4'"
	check "OUT is Yaz0 again, within 5 % of the original's size" \
		bash -c "head -c 4 '$WORK/a.out' | grep -q Yaz0 && test \$(( \$(stat -c %s '$WORK/a.out') * 100 )) -le \$(( \$(stat -c %s '$A') * 105 ))"
fi

# A folder's BMT (sms_sky): its materials and textures are the file's own.
S=$CORPUS/folder/sms_sky/sky.bmt
if [ -f "$S" ]; then
	"$NMODEL" extract "$S" "$WORK/s" >/dev/null
	T=$(cd "$WORK/s/tex1" && ls *.png | head -1)
	read -r w h < <(sed -n 's/^width: //p; s/^height: //p' "$WORK/s/tex1/${T%.png}.txt" | tr '\n' ' ')
	mkdir -p "$WORK/es/tex1"
	png "$w" "$h" 0 0 0 255 "$WORK/es/tex1/$T"
	"$NMODEL" apply "$S" "$WORK/es" "$WORK/s.out" >/dev/null
	"$NMODEL" extract "$WORK/s.out" "$WORK/xs" >/dev/null
	check "a BMT texture ($T): OUT shows the new texels, the rest as it was" \
		bash -c "! cmp -s '$WORK/s/tex1/$T' '$WORK/xs/tex1/$T' && test \"\$(diff -rq '$WORK/s' '$WORK/xs' | grep -v 'tex1/' | grep -vc info.txt)\" = 0"
fi
finish
