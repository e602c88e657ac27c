#!/bin/bash
# Blender imports model.glb of a CMB, a J3D and a Tropical Freeze SMDL: one armature with
# as many bones as the model's skeleton (CMB skl bones, J3D JNT1 joints, the SMDL's
# SKHD count: its skeleton is another asset, so these bones are placeholders that carry
# the weights, doc/rfrm.md) and every mesh skinned. Skips, saying so, where Blender
# (Debian's blender) is not installed. Its glTF importer needs numpy, which Debian 12's
# blender package does not pull in: python3-numpy.
. "$(dirname "$0")/lib.sh"
command -v blender >/dev/null || skip_all "blender is not installed (Debian: apt-get install blender python3-numpy)"
[ -d "$CORPUS" ] || skip_all "no corpus at $CORPUS"
CMB=$CORPUS/cmb/fin_lm3d_Shadowma.cmb
J3D=$CORPUS/bmd/fin_sms_kinopio_body.bmd
TF=$CORPUS/cmdl/dkctf_271aeb42-de72-4bb6-a823-ddc6ad993a7e.smdl
for f in "$CMB" "$J3D" "$TF"; do
	[ -f "$f" ] || skip_all "$f is not in the corpus"
	"$NMODEL" cat "$f" /model.glb >"$WORK/$(basename "$f").glb"
done
timeout 600 blender -b --factory-startup --python "$(dirname "$0")/blender_import.py" -- \
	"$WORK"/*.glb >"$WORK/blender.log" 2>&1
grep -q '^RESULT ' "$WORK/blender.log" ||
	skip_all "blender runs but its glTF importer does not (python3-numpy missing?): $(grep -m1 Error "$WORK/blender.log")"
result() { grep "^RESULT $WORK/$(basename "$1").glb " "$WORK/blender.log"; }
count() { "$NMODEL" ls -R "$1" | grep -c "$2"; }
for f in "$CMB" "$J3D" "$TF"; do
	case $f in *.cmb) want=$(count "$f" '^/skl/bones/[0-9]*\.txt$') ;;
		*.smdl) want=$("$NMODEL" cat "$f" /skhd/header.txt | sed -n 's/^unknown_u32: //p') ;;
		*) want=$(count "$f" '^/jnt1/joints/[0-9]*\.txt$') ;; esac
	read -r _ _ _ arms _ bones _ meshes _ skinned _ <<<"$(result "$f")"
	check "$(basename "$f"): one armature" test "${arms:-x}" = 1
	check "$(basename "$f"): $want bones" test "${bones:-x}" = "$want"
	check "$(basename "$f"): every mesh skinned ($skinned of $meshes)" \
		test "${skinned:-x}" = "${meshes:-y}" -a "${meshes:-0}" -gt 0
done
# A model with its animations (doc/j3danim.md): WaddleDoo's 21 BCKs are 21 actions, and
# the import stays usable (the time is printed, not asserted).
WD=$CORPUS/rarc/smg2mod_WaddleDoo.arc
if [ -f "$WD" ]; then
	"$NMODEL" cat "$WD" WaddleDoo/WaddleDoo.bdl/model.glb >"$WORK/waddledoo.glb"
	timeout 600 blender -b --factory-startup --python "$(dirname "$0")/blender_import.py" -- \
		"$WORK/waddledoo.glb" >"$WORK/wd.log" 2>&1
	read -r _ _ _ arms _ _ _ _ _ _ _ actions _ seconds < <(grep "^RESULT " "$WORK/wd.log")
	check "WaddleDoo: one armature with 21 actions (imported in ${seconds:-?} s)" \
		test "${arms:-x}" = 1 -a "${actions:-x}" = 21
else
	echo "not run: WaddleDoo's actions ($WD is not in the corpus)"
fi
finish
