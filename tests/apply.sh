#!/bin/bash
# nmodel apply: edits of an extracted tree written back into a new model file
# (doc/apply.md). A records-only CMB fixture for every kind of edit and refusal; the
# corpus for identity over every file and for an edit inside a compressed archive.
. "$(dirname "$0")/lib.sh"
F=$WORK/r.cmb
"$top_builddir/tests/mkfixture" cmb-records 10 "$F" || { echo "mkfixture failed"; exit 1; }
"$NMODEL" extract "$F" "$WORK/t" >/dev/null
mkdir -p "$WORK/empty"

check "an empty DIR gives OUT byte-identical to FILE" \
	bash -c "'$NMODEL' apply '$F' '$WORK/empty' '$WORK/o0.cmb' && cmp '$F' '$WORK/o0.cmb'"
# A copy of the extracted tree: its new ctimes keep apply from trusting the extract's
# stamp (tests/apply_stamp.sh), so every file is compared with the tree's.
cp -r "$WORK/t" "$WORK/t-copy"
check "the tree as extracted gives OUT byte-identical to FILE" \
	bash -c "'$NMODEL' apply '$F' '$WORK/t-copy' '$WORK/o1.cmb' && cmp '$F' '$WORK/o1.cmb'"

# Derived files that follow any record edit: the chunk's raw.bin and the model's own
# (info.txt names OUT as its source).
edit colour mats/0.txt 's/^diffuse_color: .*/diffuse_color: 10 20 30 40/'
check "a colour: only the material, its raw.bin and the files made from it differ" \
	test "$(applied colour)" = "info.txt mats/0.txt mats/raw.bin mesh.mtl model.glb "
check "the colour reads back" grep -qx 'diffuse_color: 10 20 30 40' "$WORK/x-colour/mats/0.txt"
edit enum mats/0.txt 's/^texture0_wrap_s: .*/texture0_wrap_s: MIRRORED_REPEAT/; s/^cull_mode: .*/cull_mode: 3/'
check "an enum by name and one by number: the material, raw.bin, model.glb (cull: doubleSided)" \
	test "$(applied enum)" = "info.txt mats/0.txt mats/raw.bin model.glb "
check "the enums read back" bash -c "grep -qx 'texture0_wrap_s: MIRRORED_REPEAT (0x8370)' '$WORK/x-enum/mats/0.txt' && grep -qx 'cull_mode: NONE (0x3)' '$WORK/x-enum/mats/0.txt'"
edit bone skl/bones/1.txt 's/^translation: .*/translation: 0.25 -3 1e+10/; s/^id_flags: .*/id_flags: 0xf/'
check "a bone translation: the bone, raw.bin and model.glb's skeleton" \
	test "$(applied bone)" = "info.txt model.glb skl/bones/1.txt skl/raw.bin "
check "the bone reads back, with its new world matrix" \
	bash -c "grep -qx 'translation: 0.25 -3 1e+10' '$WORK/x-bone/skl/bones/1.txt' && grep -qx 'id_flags: 0xf' '$WORK/x-bone/skl/bones/1.txt' && grep -q '^world_matrix_row0: .* 0.25$' '$WORK/x-bone/skl/bones/1.txt'"
edit comb mats/combiners/0.txt 's/^combine_rgb: .*/combine_rgb: ADD (0x104)/'
check "a combiner: only it and the materials' raw.bin" \
	test "$(applied comb)" = "info.txt mats/combiners/0.txt mats/raw.bin "
edit pos sepd/0/positions.csv '3s/.*/+2.50000000e-01,-3.00000000e+00,+7.00000000e+00/'
check "a vertex position: the CSV, vatr's raw.bin and the meshes made from it" \
	test "$(applied pos)" = "info.txt mesh.obj model.glb sepd/0/positions.csv vatr/raw.bin "
check "--dry-run says what depends on a position and stays as it was" \
	bash -c "'$NMODEL' apply --dry-run '$F' '$WORK/e-pos' | grep -qx '$WORK/e-pos/sepd/0/positions.csv: note: the shape.s center and qtrs. boxes stay as they were: apply does not compute bounds again'"
check "the position reads back" grep -qx '+2.50000000e-01,-3.00000000e+00,+7.00000000e+00' "$WORK/x-pos/sepd/0/positions.csv"
edit uv sepd/0/texcoords0.csv '4s/.*/0.75,-1/'
check "a texture coordinate (SHORT x 1/256), written in any spelling" \
	test "$(applied uv)" = "info.txt mesh.obj model.glb sepd/0/texcoords0.csv vatr/raw.bin "
check "the texture coordinate reads back" grep -qx '+7.50000000e-01,-1.00000000e+00' "$WORK/x-uv/sepd/0/texcoords0.csv"
mkdir -p "$WORK/e-raw/skl"
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[-1] ^= 0xff; open(sys.argv[2], 'wb').write(b)" \
	"$WORK/t/skl/raw.bin" "$WORK/e-raw/skl/raw.bin"
check "raw.bin of the same length: a patch (the bone table's last bytes)" \
	bash -c "'$NMODEL' apply '$F' '$WORK/e-raw' '$WORK/o-raw.cmb' && '$NMODEL' cat '$WORK/o-raw.cmb' /skl/raw.bin | cmp - '$WORK/e-raw/skl/raw.bin'"
check "--dry-run names file, line, field, chunk, byte range and bytes" \
	bash -c "'$NMODEL' apply --dry-run '$F' '$WORK/e-colour' | grep -Eq '^$WORK/e-colour/mats/0.txt:[0-9]+: diffuse_color: r.cmb mats bytes 0x[0-9a-f]+\.\.0x[0-9a-f]+: 0a 14 1e 28$'"

# refused NAME EXPECTED-REGEX: exit 1, every line of stderr matches, no OUT.
refused() {
	"$NMODEL" apply "$F" "$WORK/e-$1" "$WORK/o-$1.cmb" 2>"$WORK/err-$1"
	local rc=$?
	[ $rc -eq 1 ] && [ ! -e "$WORK/o-$1.cmb" ] && grep -Eq "$2" "$WORK/err-$1" &&
		! grep -v '^nmodel: ' "$WORK/err-$1" && ! ls "$WORK"/.nmodel-apply-* 2>/dev/null && return 0
	echo "  exit $rc: $(cat "$WORK/err-$1")"
	return 1
}
L=$(grep -n '^diffuse_color:' "$WORK/t/mats/0.txt" | cut -d: -f1)
edit range mats/0.txt 's/^diffuse_color: .*/diffuse_color: 300 20 30 40/'
check "a value out of its field's range is refused, naming file, line and field" \
	refused range "^nmodel: $WORK/e-range/mats/0.txt:$L: diffuse_color: 300 is out of range 0\.\.255 \(u8\)$"
edit float mats/0.txt 's/^blend_color: .*/blend_color: 0.1234567891 0 0 1/'
check "a float that is no f32 is refused, not rounded" \
	refused float "mats/0.txt:[0-9]+: blend_color: 0.1234567891 is not a float \(f32\): the nearest is 0.12345679$"
edit name mats/0.txt 's/^cull_mode: .*/cull_mode: SIDEWAYS/'
check "an enum name the field does not have is refused" refused name "mats/0.txt:[0-9]+: cull_mode: SIDEWAYS is not a name"
edit both mats/0.txt 's/^cull_mode: .*/cull_mode: NONE (0x1)/'
check "an enum whose name and number disagree is refused" refused both "cull_mode: NONE is 0x3, not 0x1$"
edit derived mats/0.txt 's/^offset: .*/offset: 0x10/'
check "a changed derived value (an offset) is refused" refused derived "mats/0.txt:2: offset: is derived from the model"
edit count mats/0.txt 's/^combiner_count: .*/combiner_count: 5/'
check "a changed count is refused" refused count "mats/0.txt:[0-9]+: combiner_count: is derived"
edit header mats/header.txt 's/^material_count: .*/material_count: 9/'
check "a changed header value (no inverse: all derived) is refused by line and key" \
	refused header "mats/header.txt:[0-9]+: material_count: read-only"
edit world skl/bones/1.txt 's/^world_matrix_row3: .*/world_matrix_row3: 0 0 0 2/'
check "a changed world matrix (computed) is refused" refused world "bones/1.txt:[0-9]+: world_matrix_row3: is derived"
edit parse skl/bones/0.txt '3a this line does not parse'
check "a line that does not parse is refused (a faulty DIR)" refused parse "bones/0.txt:4: does not parse"
edit few skl/bones/0.txt 's/^scale: .*/scale: 1 1/'
check "too few numbers are refused" refused few "bones/0.txt:[0-9]+: scale: expects 3 numbers, found 2$"
edit bits skl/bones/0.txt 's/^id_flags: .*/id_flags: 0x10/'
check "a bit field past its width is refused" refused bits "id_flags: 0x10 is out of range 0\.\.15 \(4 bits\)$"
edit quant sepd/0/texcoords0.csv '4s/.*/0.001,0/'
check "a value the stored type cannot hold is refused with the nearest it can" \
	refused quant "texcoords0.csv:4: u: 0.001 is not a value this attribute holds \(SHORT x 0.00390625\): the nearest is 0$"
edit rows sepd/0/positions.csv '$a 1,2,3'
check "a vertex row added is refused as a layout change" refused rows "positions.csv:5: a row past the 3 rows the shape has"
edit cols sepd/0/positions.csv '2s/.*/1,2/'
check "a row of too few values is refused" refused cols "positions.csv:2: 2 values where a row has 3"
mkdir -p "$WORK/e-len/skl" && { cat "$WORK/t/skl/raw.bin"; echo x; } > "$WORK/e-len/skl/raw.bin"
check "raw.bin of another length is refused as a layout change" refused len "skl/raw.bin: .* changes the model's layout"
mkdir -p "$WORK/e-extra" && echo hi > "$WORK/e-extra/notes.txt"
check "a file the tree does not have is refused" refused extra "notes.txt: the model's tree has no file notes.txt"
mkdir -p "$WORK/e-mesh" && echo "# mine" > "$WORK/e-mesh/mesh.obj"
check "a derived file apply cannot write back is refused" refused mesh "mesh.obj: made from the model, and apply cannot write"
edit conflict mats/0.txt 's/^diffuse_color: .*/diffuse_color: 10 20 30 40/'
cp "$WORK/t/mats/raw.bin" "$WORK/e-conflict/mats/raw.bin"
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[0xA8] ^= 1; b[0xA8 + 0x2C] = 99; open(sys.argv[1], 'wb').write(b)" "$WORK/e-conflict/mats/raw.bin"
check "two files setting the same bytes differently are refused as a conflict" \
	refused conflict "conflicts with .*: both set bytes"
check "two problems give two lines" test "$(cat "$WORK/err-few" "$WORK/err-range" | wc -l)" = 2
mkdir -p "$WORK/e-loop" && ln -s .. "$WORK/e-loop/up"
check "a link to a directory in DIR is not followed (it could loop)" refused loop "e-loop/up: a link to a directory: not followed"
cp "$F" "$WORK/same.cmb"
check "OUT naming FILE is refused, FILE untouched" \
	bash -c "! '$NMODEL' apply '$WORK/same.cmb' '$WORK/e-colour' '$WORK/same.cmb' 2>/dev/null && cmp '$F' '$WORK/same.cmb'"
ln "$WORK/same.cmb" "$WORK/hardlink.cmb"
check "OUT naming FILE through a hard link is refused" \
	bash -c "! '$NMODEL' apply '$WORK/same.cmb' '$WORK/e-colour' '$WORK/hardlink.cmb' 2>/dev/null && cmp '$F' '$WORK/same.cmb'"

# Archives and wrappers (the fixtures' own): an edit inside gives an OUT of the same
# kind showing it; compressed streams are compressed again in their own codec.
wrappers_ok=1
for k in lz10 lz11 gar2 gar2-lzs gar5 zar rarc rarc-yaz0; do
	A=$WORK/$k.bin
	"$top_builddir/tests/mkfixture" archive $k "$A"
	rm -rf "$WORK/w"
	case $k in
	lz*) p=decompressed.bin ;;
	gar5) p="read me.txt" ;;
	rarc*) p="archive/misc/read me.txt" ;;
	*) p="misc/read me.txt" ;;
	esac
	mkdir -p "$WORK/w/$(dirname "$p")"
	"$NMODEL" cat "$A" "/$p" > "$WORK/w/$p"
	# a text member's first letter; the CMOD's first material colour's lowest byte
	python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); i = 0x17 if sys.argv[2] == 'decompressed.bin' else 0; b[i] ^= 0x21 if i == 0 else 1; open(sys.argv[1], 'wb').write(b)" "$WORK/w/$p" "$(basename "$p")"
	if ! "$NMODEL" apply "$A" "$WORK/w" "$WORK/w.out" ||
	   ! "$NMODEL" cat "$WORK/w.out" "/$p" | cmp -s - "$WORK/w/$p" ||
	   [ "$("$NMODEL" info "$WORK/w.out" | grep '^format:\|^compression\|^compressed_members')" != \
	     "$("$NMODEL" info "$A" | grep '^format:\|^compression\|^compressed_members')" ]; then
		echo "  $k: $p"
		wrappers_ok=0
	fi
done
check "an edit inside every archive and wrapper kind: OUT of the same kind shows it" test $wrappers_ok = 1

# Textures (PNG -> the texture's own format): a fixture TXTR with a stored GPU buffer and
# every level, then the corpus. Edits are made as a user makes them, with Pillow.
PY=
for p in python3 /usr/bin/python3; do
	"$p" -c 'from PIL import Image' 2>/dev/null && { PY=$p; break; }
done
PE="$top_srcdir/tests/png_edit.py"
# tex_applied NAME FILE: apply DIR $WORK/e-NAME to FILE, extract OUT into $WORK/x-NAME,
# list the files that differ from FILE's tree ($WORK/t-NAME).
tex_applied() {
	rm -rf "$WORK/t-$1" "$WORK/x-$1"
	"$NMODEL" extract "$2" "$WORK/t-$1" >/dev/null || return 1
	"$NMODEL" apply "$2" "$WORK/e-$1" "$WORK/o-$1" || return 1
	"$NMODEL" extract "$WORK/o-$1" "$WORK/x-$1" >/dev/null || return 1
	diff -rq "$WORK/t-$1" "$WORK/x-$1" | sed "s|^Files $WORK/t-$1/\([^ ]*\) and .*|\1|" | sort | tr '\n' ' '
}
# tex_edit NAME FILE PNG MODE: $WORK/e-NAME/PNG is FILE's PNG painted and saved as MODE.
tex_edit() {
	mkdir -p "$WORK/e-$1/$(dirname "$3")"
	"$NMODEL" cat "$2" "/$3" > "$WORK/e-$1/src.png" &&
		"$PY" "$PE" paint "$WORK/e-$1/src.png" "$WORK/e-$1/$3" "$4" && rm "$WORK/e-$1/src.png"
}
# tex_refused NAME FILE EXPECTED-REGEX: exit 1, the message, no OUT.
tex_refused() {
	"$NMODEL" apply "$2" "$WORK/e-$1" "$WORK/o-$1" 2>"$WORK/err-$1"
	local rc=$?
	[ $rc -eq 1 ] && [ ! -e "$WORK/o-$1" ] && grep -Eq "$3" "$WORK/err-$1" && return 0
	echo "  exit $rc: $(cat "$WORK/err-$1")"
	return 1
}
if [ -z "$PY" ]; then
	echo "SKIP: python3 with Pillow is needed to edit PNGs as a user does (Debian: python3-pil): texture edits not checked"
else
	T=$WORK/s.txtr
	"$top_builddir/tests/mkfixture" txtr 12 32 "$T" 0
	tex_edit tl0 "$T" tex/0.png RGB
	check "TXTR level 0 (RGBA8, stored): the level, every level below, the surface and GPU chunk differ" \
		test "$(tex_applied tl0 "$T")" = "gpu/raw.bin gpu/surface.bin info.txt tex/0.png tex/1.png tex/2.png tex/3.png tex/4.png tex/5.png "
	check "TXTR RGBA8 level 0 reads back as edited, exactly" \
		test "$("$PY" "$PE" maxdiff "$WORK/e-tl0/tex/0.png" "$WORK/x-tl0/tex/0.png")" = 0
	"$PY" -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).convert("RGBA").reduce(2).save(sys.argv[2])' \
		"$WORK/e-tl0/tex/0.png" "$WORK/half.png"
	check "level 1 is made from it by the box filter (Pillow's reduce(2), the same mean)" \
		test "$("$PY" "$PE" maxdiff "$WORK/half.png" "$WORK/x-tl0/tex/1.png")" -le 1
	tex_edit tl1 "$T" tex/1.png RGBA
	check "TXTR level 1 alone: only it changes" \
		test "$(tex_applied tl1 "$T")" = "gpu/raw.bin gpu/surface.bin info.txt tex/1.png "
	cp "$WORK/e-tl0/tex/0.png" "$WORK/e-tl1/tex/0.png"
	check "TXTR level 0 and level 1 edited together: level 1 keeps its own edit" \
		bash -c "'$NMODEL' apply '$T' '$WORK/e-tl1' '$WORK/o-both' && '$NMODEL' cat '$WORK/o-both' /tex/1.png > '$WORK/both1.png' && test \"\$('$PY' '$PE' maxdiff '$WORK/e-tl1/tex/1.png' '$WORK/both1.png')\" = 0 && ! '$NMODEL' cat '$WORK/o-both' /tex/2.png | cmp -s - '$WORK/t-tl0/tex/2.png'"
	mkdir -p "$WORK/e-same/tex" && "$PY" "$PE" same "$WORK/t-tl0/tex/0.png" "$WORK/e-same/tex/0.png" RGBA
	check "a PNG saved again by Pillow with the same texels (other bytes) is no edit: OUT is FILE" \
		bash -c "! cmp -s '$WORK/t-tl0/tex/0.png' '$WORK/e-same/tex/0.png' && '$NMODEL' apply '$T' '$WORK/e-same' '$WORK/o-same' && cmp '$T' '$WORK/o-same'"
	mkdir -p "$WORK/e-size/tex" && "$PY" "$PE" size "$WORK/t-tl0/tex/0.png" "$WORK/e-size/tex/0.png" 64 32
	check "a PNG of another size is refused as a layout change, naming the file" \
		tex_refused size "$T" "^nmodel: $WORK/e-size/tex/0.png: is 64x32, the texture level is 32x32: a texture of another size changes the model's layout, which apply does not do$"
	mkdir -p "$WORK/e-notpng/tex" && echo "not an image" > "$WORK/e-notpng/tex/0.png"
	check "a file that is not a PNG is refused, naming it" \
		tex_refused notpng "$T" "^nmodel: $WORK/e-notpng/tex/0.png: is not a PNG"
	"$top_builddir/tests/mkfixture" txtr 83 32 "$WORK/bc7.txtr" 0
	tex_edit bc7 "$WORK/bc7.txtr" tex/0.png RGBA
	check "a BC7 texture is refused by name (no encoder)" \
		tex_refused bc7 "$WORK/bc7.txtr" "^nmodel: $WORK/e-bc7/tex/0.png: .*BC7_UNORM: BC7 has no encoder here"
	if [ -z "$(corpus_files)" ]; then
		echo "SKIP: no corpus at $CORPUS: texture edits of real files not checked"
	else
		B=$CORPUS/cmb/fin_lm3d_baby.cmb
		tex_edit etc1 "$B" tex/baby_00.png P
		check "CMB ETC1 texture from a palette PNG: only it, its bytes and model.glb differ" \
			test "$(tex_applied etc1 "$B")" = "info.txt model.glb tex/baby_00.bin tex/baby_00.png "
		check "the ETC1 texture reads back near the edit (PSNR at least 30 dB)" \
			"$PY" -c "import sys; v = sys.argv[1]; sys.exit(not (v == 'inf' or float(v) >= 30))" \
			"$("$PY" "$PE" psnr "$WORK/e-etc1/tex/baby_00.png" "$WORK/x-etc1/tex/baby_00.png")"
		tex_edit la8 "$B" tex/sp_00.png I16
		"$PY" "$PE" paint "$WORK/t-etc1/tex/sp_00.png" "$WORK/la8.png" L
		check "CMB LA8 texture from a 16-bit grey PNG: exact" \
			bash -c "'$NMODEL' apply '$B' '$WORK/e-la8' '$WORK/o-la8' && '$NMODEL' cat '$WORK/o-la8' /tex/sp_00.png > '$WORK/la8-out.png' && test \"\$('$PY' '$PE' maxdiff '$WORK/la8.png' '$WORK/la8-out.png')\" = 0"
		G=$CORPUS/gar/mm3dr_zelda2_mag.gar.lzs
		# title_sub_00: a texture no other one's data runs into (copy_nintendo_G's does
		# into the five after it: an edit of those shows in its PNG too)
		tex_edit gar "$G" Model/title_logo.cmb/tex/title_sub_00.png RGBA
		check "a CMB texture (RGBA4) inside the LzS GAR: OUT opens and shows it, nothing else changes" \
			test "$(tex_applied gar "$G")" = "Model/title_logo.cmb/model.glb Model/title_logo.cmb/raw.bin Model/title_logo.cmb/tex/title_sub_00.bin Model/title_logo.cmb/tex/title_sub_00.png decompressed.bin info.txt "
		check "RGBA4 reads back to within its rounding (4 bits: at most 8)" \
			test "$("$PY" "$PE" maxdiff "$WORK/e-gar/Model/title_logo.cmb/tex/title_sub_00.png" "$WORK/x-gar/Model/title_logo.cmb/tex/title_sub_00.png")" -le 8
		check "the LzS GAR compressed again is within 5 % of the original's size" \
			test $(( $(stat -c %s "$WORK/o-gar") * 100 )) -le $(( $(stat -c %s "$G") * 105 ))
		W=$CORPUS/rarc/smg2mod_WaddleDoo.arc
		w=WaddleDoo/WaddleDoo.bdl
		tex_edit rarc "$W" $w/tex1/ChDooBody.png RGBA
		check "a J3D texture (RGB565) inside the Yaz0 RARC: OUT opens and shows it, nothing else changes" \
			test "$(tex_applied rarc "$W")" = "$w/model.glb $w/raw.bin $w/tex1/ChDooBody.bin $w/tex1/ChDooBody.png $w/tex1/raw.bin decompressed.bin info.txt "
		check "RGB565 reads back to within its rounding (5 bits: at most 4)" \
			test "$("$PY" "$PE" maxdiff "$WORK/e-rarc/$w/tex1/ChDooBody.png" "$WORK/x-rarc/$w/tex1/ChDooBody.png")" -le 4
		check "the Yaz0 RARC compressed again is within 5 % of the original's size" \
			test $(( $(stat -c %s "$WORK/o-rarc") * 100 )) -le $(( $(stat -c %s "$W") * 105 ))
		Z=$CORPUS/zar/oot3dr_zelda_gi_melody.zar
		tex_edit zar "$Z" misc/zelda_gi_ocarina.cmab/txpt/BOLERO.png RGBA
		check "a CMAB's ETC1 texture inside the ZAR: only it and its animation's bytes differ" \
			test "$(tex_applied zar "$Z")" = "info.txt misc/zelda_gi_ocarina.cmab/raw.bin misc/zelda_gi_ocarina.cmab/txpt/BOLERO.png "
		X=$CORPUS/txtr/phong1__spcttxtr__9f67a65b99e84d53bdf3779b19f5d419.txtr
		tex_edit lzss "$X" tex/0.png RGBA
		check "a TXTR whose LZSS buffer compresses again to its size: it and the GPU chunk differ" \
			test "$(tex_applied lzss "$X")" = "gpu/raw.bin gpu/surface.bin info.txt tex/0.png "
		check "the RGBA8 texel reads back as edited" \
			test "$("$PY" "$PE" maxdiff "$WORK/e-lzss/tex/0.png" "$WORK/x-lzss/tex/0.png")" = 0
		X=$CORPUS/txtr/phong1__difttxtr__7b35970a4d1d4989ad0dcb0c8f368941.txtr
		tex_edit astc "$X" tex/0.png RGBA
		check "a TXTR whose zlib buffer compresses again to another size: the RFRM chunk and form sizes are rewritten" \
			test "$(tex_applied astc "$X")" = "gpu/header.txt gpu/raw.bin gpu/surface.bin info.txt tex/0.png tex/1.png tex/2.png tex/3.png tex/4.png tex/5.png tex/6.png tex/7.png "
		check "the ASTC texture reads back near the edit (PSNR at least 30 dB)" \
			"$PY" -c "import sys; v = sys.argv[1]; sys.exit(not (v == 'inf' or float(v) >= 30))" \
			"$("$PY" "$PE" psnr "$WORK/e-astc/tex/0.png" "$WORK/x-astc/tex/0.png")"
	fi
fi

# The corpus: identity for every file (models and archives), and a record edit inside
# an LzS-compressed GAR.
files=$(corpus_files)
if [ -z "$files" ]; then
	echo "SKIP: no corpus at $CORPUS: identity over real files not checked"
else
	bad=0
	for c in $files; do
		"$NMODEL" info "$c" >/dev/null 2>&1 || continue
		rm -rf "$WORK/c"
		"$NMODEL" extract "$c" "$WORK/c0" >/dev/null 2>&1
		cp -r "$WORK/c0" "$WORK/c" && rm -rf "$WORK/c0" # every file compared (no stamp)
		"$NMODEL" apply "$c" "$WORK/c" "$WORK/c.out" && cmp -s "$c" "$WORK/c.out" || { echo "  extracted tree: $c"; bad=1; }
		"$NMODEL" apply "$c" "$WORK/empty" "$WORK/c.out" && cmp -s "$c" "$WORK/c.out" || { echo "  empty DIR: $c"; bad=1; }
	done
	check "identity over every corpus file: extracted tree and empty DIR give FILE" test $bad = 0
	G=$CORPUS/gar/mm3dr_zelda2_mag.gar.lzs
	if [ -f "$G" ]; then
		"$NMODEL" extract "$G" "$WORK/g" >/dev/null 2>&1
		m=Model/title_logo.cmb/mats/0.txt
		mkdir -p "$WORK/eg/$(dirname $m)"
		sed 's/^diffuse_color: .*/diffuse_color: 1 2 3 4/' "$WORK/g/$m" > "$WORK/eg/$m"
		"$NMODEL" apply "$G" "$WORK/eg" "$WORK/g.out" >/dev/null
		check "an edit inside an LzS GAR: OUT opens and the member shows it" \
			bash -c "'$NMODEL' cat '$WORK/g.out' /$m | grep -qx 'diffuse_color: 1 2 3 4'"
		check "the LzS stream compressed again is within 5 % of the original's size" \
			test $(( $(stat -c %s "$WORK/g.out") * 100 )) -le $(( $(stat -c %s "$G") * 105 ))
	fi
fi
finish
