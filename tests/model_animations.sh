#!/bin/bash
# Models with their animations (doc/j3danim.md, "With their model") on the corpus archives
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
LIST
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
