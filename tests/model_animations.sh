#!/bin/bash
# Models with their animations (doc/j3danim.md, "With their model"; CMB's: doc/grezzo_anim.md)
# on the corpus archives
# and folders: each model takes the animations that fit it (info.txt), model.glb has one
# glTF animation per name, and every joint's world in the glb, at frames 0, 10 and the
# last of every animation of WaddleDoo (21 BCKs, INF1's Softimage rule), equals the one
# tests/anim_worlds.py computes from the tree alone (JNT1's joints, INF1's rule, each
# animation's sampled.csv) and tests/gltf_anim_check.js reads back from the glb.
# The glbs' validity is tests/gltf.sh's (it validates every corpus model's).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "python3 is not installed (scripts/deps installs it)"
need_gltf_validator

taken() { "$NMODEL" cat "$1" "$2/info.txt" | grep -c '^animation: '; }
# The glTF animations' names in a glb, one a line.
glb_animations() {
	python3 -c 'import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<I", b[12:16])[0]
for a in json.loads(b[20:20 + n]).get("animations", []): print(a["name"])' "$1"
}
# The fixture archive (tests/mkfixture animated): Wait.bck and Wait.bva fit the model and
# are one glTF animation; other.bck, of more joints than the model has, is left out.
"$top_builddir/tests/mkfixture" animated "$WORK/object.arc"
obj=archive/object/object.bdl
check "the fixture model takes Wait.bck and Wait.bva" test "$(taken "$WORK/object.arc" $obj)" = 2
check "... and says why other.bck is left out" grep -q \
	'^animation_left_out: archive/object/other.bck: it has more joint entries than the model has joints$' \
	<("$NMODEL" cat "$WORK/object.arc" $obj/info.txt)
"$NMODEL" cat "$WORK/object.arc" $obj/model.glb >"$WORK/object.glb"
node "$(dirname "$0")/gltf_check.js" "$VALIDATOR" "$WORK/object.glb" >"$WORK/object.report" 2>&1
check "its glb is valid" grep -q ' errors 0 ' "$WORK/object.report"
check "... with one animation, Wait" test "$(glb_animations "$WORK/object.glb")" = Wait
check "... that hides a shape (KHR_node_visibility)" grep -q KHR_node_visibility "$WORK/object.glb"
# A CMB beside its CSAB in a folder (no real CSAB exists: the fixture writers' CMB of two
# bones and the CSAB v5 sample, FORMATS.md 10.11): the model takes it, and bone 1's
# translation x in the glb is the track's value per frame, raw x 0.5 - 1 of the stored
# 2, 4, 6: 0, 1, 2 at frames 0, 1, 2.
mkdir -p "$WORK/grezzo"
"$top_builddir/tests/mkfixture" cmb 6 "$WORK/grezzo/model.cmb"
"$top_builddir/tests/mkfixture" grezzo csab5 "$WORK/grezzo/model_walk.csab"
check "a CMB takes the CSAB beside it" \
	grep -q '^animation: model_walk.csab$' <("$NMODEL" cat "$WORK/grezzo" model.cmb/info.txt)
"$NMODEL" cat "$WORK/grezzo" model.cmb/model.glb >"$WORK/grezzo.glb"
node "$(dirname "$0")/gltf_check.js" "$VALIDATOR" "$WORK/grezzo.glb" >"$WORK/grezzo.report" 2>&1
check "... and its glb is valid" grep -q ' errors 0 ' "$WORK/grezzo.report"
check "... bone 1 moving 0, 1, 2 along x at frames 0, 1, 2" test "$(python3 -c 'import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<I", b[12:16])[0]
j = json.loads(b[20:20 + n])
a = j["animations"][0]
c = next(c for c in a["channels"] if c["target"] == {"node": 1, "path": "translation"})
acc = j["accessors"][a["samplers"][c["sampler"]]["output"]]
v = j["bufferViews"][acc["bufferView"]]
at = 20 + n + 8 + v.get("byteOffset", 0) + acc.get("byteOffset", 0)
print(" ".join("%g" % struct.unpack_from("<f", b, at + 12 * k)[0] for k in range(3)))' "$WORK/grezzo.glb")" = "0 1 2"
if [ ! -d "$CORPUS" ]; then
	echo "not run: the corpus checks (no corpus at $CORPUS)"
	finish
fi

while read -r file model want; do
	f=$CORPUS/$file
	[ -e "$f" ] || { not_ok "$file is missing from the corpus"; continue; }
	check "$file $model takes its $want animations" test "$(taken "$f" "$model")" = "$want"
done <<'LIST'
rarc/smg2mod_WaddleDoo.arc WaddleDoo/WaddleDoo.bdl 21
rarc/smg2mod_MogucchiShooter.arc mogucchishooter/mogucchishooter.bdl 18
rarc/smg2mod_WaterBazooka.arc waterbazooka/waterbazooka.bdl 15
rarc/fin_pikmin2_pikis.yaz0 designer/piki_model/piki_p2_red.bmd 68
folder/sms_sky sky.bmd 1
gar/mm3dr_zelda2_mag.gar.lzs Model/title_logo.cmb 4
LIST
# Majora's Mask 3D's title logo: of its 4 CMABs one moves the texture the glb shows
# (title_logo_loop: texture translation); the others swap textures or set colours.
"$NMODEL" cat "$CORPUS/gar/mm3dr_zelda2_mag.gar.lzs" Model/title_logo.cmb/model.glb \
	>"$WORK/logo.glb"
check "title_logo.cmb: one glTF animation, title_logo_loop" \
	test "$(glb_animations "$WORK/logo.glb")" = title_logo_loop
check "... through KHR_texture_transform" grep -q 'KHR_texture_transform/offset' "$WORK/logo.glb"
# Pikmin 2: the cursor's BRKs name the cursor's materials only; a leaf takes none.
pikis=$CORPUS/rarc/fin_pikmin2_pikis.yaz0
check "pikis: cursor.bmd takes the 4 cursor BRKs" \
	test "$(taken "$pikis" designer/cursor/cursor.bmd)" = 4
check "pikis: leaf.bmd takes none" test "$(taken "$pikis" designer/happa_model/leaf.bmd)" = 0

# One glTF animation per name (swingstop.bck + swingstop.bpk: one), for every name with
# a file glTF can express (BRK's TEV registers have no glTF form: damage.brk alone is
# none).
bz=$CORPUS/rarc/smg2mod_WaterBazooka.arc
"$NMODEL" cat "$bz" waterbazooka/waterbazooka.bdl/model.glb >"$WORK/bz.glb"
names=$("$NMODEL" cat "$bz" waterbazooka/waterbazooka.bdl/info.txt |
	sed -n 's|^animation: .*/\(.*\)\.b[cp][ak]$|\1|p' | sort -u)
check "WaterBazooka: one glTF animation per name ($(wc -l <<<"$names"))" \
	test "$(glb_animations "$WORK/bz.glb" | sort)" = "$names"
"$NMODEL" cat "$CORPUS/folder/sms_sky" sky.bmd/model.glb >"$WORK/sky.glb"
check "sky.btk drives the sky's texture transform" \
	grep -q 'KHR_texture_transform/offset' "$WORK/sky.glb"

# WaddleDoo: the game's joint worlds, from the tree, against the glb's.
"$NMODEL" extract "$CORPUS/rarc/smg2mod_WaddleDoo.arc" "$WORK/wd" 2>"$WORK/extract.err"
check "WaddleDoo extracts without a warning" test ! -s "$WORK/extract.err"
dir=$WORK/wd/WaddleDoo
python3 "$(dirname "$0")/anim_worlds.py" "$dir/WaddleDoo.bdl" "$dir"/*.bck >"$WORK/wd.expect"
node "$(dirname "$0")/gltf_anim_check.js" "$dir/WaddleDoo.bdl/model.glb" "$WORK/wd.expect" \
	>"$WORK/wd.check" 2>&1
n=$(grep -c '^ok' "$WORK/wd.check")
want=$(($(wc -l <"$WORK/wd.expect") + 2))
check "WaddleDoo: $n of $want joint worlds (21 animations x 3 frames x 30 joints) and layout checks agree" \
	test "$n" = "$want" -a "$want" -gt 1000 || grep -v '^ok' "$WORK/wd.check" | head -5
finish
