#!/bin/bash
# model.glb of every corpus model (and every model inside a corpus archive, and inside a
# fixture PAK) through the
# Khronos glTF-Validator: no error, as many triangles as mesh.obj has faces and info.txt
# counts (one rule for what a triangle is: src/export/triangulate.h), as many
# skin joints as the model has bones (CMB skl), joints (J3D JNT1) or skinned bones
# (Tropical Freeze SMDL: SKHD's count), and a skin that at rest
# leaves the mesh where mesh.obj puts it (tests/gltf_check.js). The validator is the
# npm package gltf-validator, installed once into the build tree; without node and npm,
# or when npm cannot install it, the test says so and skips.
. "$(dirname "$0")/lib.sh"
[ -d "$CORPUS" ] || skip_all "no corpus at $CORPUS"
need_gltf_validator

# Bones or joints a model's tree lists (0 for formats without a skeleton here).
bones() { # FILE [PREFIX]
	local list
	list=$("$NMODEL" ls -R "$1" 2>/dev/null)
	local n
	n=$(grep -c "^$2/skl/bones/[0-9]*\.txt$" <<<"$list")
	[ "$n" -gt 0 ] && { echo "$n"; return; }
	n=$(grep -c "^$2/jnt1/joints/[0-9]*\.txt$" <<<"$list")
	[ "$n" -gt 0 ] && { echo "$n"; return; }
	# Tropical Freeze SMDL: the bones its skin addresses (SKHD's u32).
	n=$("$NMODEL" cat "$1" "$2/skhd/header.txt" 2>/dev/null | sed -n 's/^unknown_u32: //p')
	echo "${n:-0}"
}

# Every model: its glb and its mesh.obj's face count (and bone count) into a manifest.
n=0
: >"$WORK/manifest"
add() { # FILE PREFIX
	n=$((n + 1))
	"$NMODEL" cat "$1" "$2/model.glb" >"$WORK/$n.glb" ||
		{ not_ok "$1$2: model.glb does not read"; return; }
	local faces info
	faces=$("$NMODEL" cat "$1" "$2/mesh.obj" | grep -c '^f ')
	info=$("$NMODEL" cat "$1" "$2/info.txt" | sed -n 's/^triangles: //p')
	echo "$WORK/$n.glb $faces ${info:-none} $(bones "$1" "$2") $1$2" >>"$WORK/manifest"
}
for f in "$CORPUS"/{cmb,cmod,bmd,bdl,cmdl}/*; do
	[ -f "$f" ] && add "$f" ""
done
# Archives, and folders mounted whole (a model beside its animations).
for f in "$CORPUS"/{rarc,gar,zar}/* "$CORPUS"/folder/*; do
	[ -e "$f" ] || continue
	while read -r p; do
		add "$f" "${p%/model.glb}"
	done < <("$NMODEL" ls -R "$f" 2>/dev/null | grep '/model.glb$')
done

# Models inside a PAK (the corpus has none): the fixture PAK scripts/bench mounts.
if [ -x "$top_builddir/tests/mkpak" ] && "$top_builddir/tests/mkpak" "$WORK/fixture.pak" 10 >/dev/null; then
	while read -r p; do
		add "$WORK/fixture.pak" "${p%/model.glb}"
	done < <("$NMODEL" ls -R "$WORK/fixture.pak" | grep '/model.glb$')
fi

node "$(dirname "$0")/gltf_check.js" "$VALIDATOR" \
	$(cut -d' ' -f1 "$WORK/manifest") >"$WORK/report" 2>&1
check "the validator ran on $n models" test "$(grep -c ' errors ' "$WORK/report")" = "$n"
while read -r glb faces info nbones name; do
	line=$(grep "^$glb errors " "$WORK/report")
	read -r _ _ errors _ tris _ drops _ joints _ bind <<<"$line"
	check "$name: 0 errors" test "${errors:-x}" = 0 || sed -n "\|^$glb |,\|^[^ ]|p" "$WORK/report" | grep '^    '
	# Strip joins are kept everywhere; a (0, 0, 0) triangle would be one mesh.obj left
	# out, which only a damaged model has.
	check "$name: $faces triangles in mesh.obj, info.txt and the glb ($info, $tris, $drops left out)" \
		test "$faces" = "$info" -a "${tris:-x}" = "$faces" -a "${drops:-x}" = 0
	if [ "$nbones" -gt 0 ]; then
		check "$name: a skin of its $nbones bones" test "${joints:-x}" = "$nbones"
		# The joints' TRS hierarchy reproduces the inverse binds: at rest the skin
		# leaves every vertex where mesh.obj puts it (within 1e-5 of the model's size, or of
		# its farthest vertex or joint from the origin when that is larger: gltf_check.js).
		check "$name: at rest the skin moves no vertex ($bind)" \
			awk -v e="${bind:-1}" 'BEGIN { exit !(e < 1e-5) }'
	fi
done <"$WORK/manifest"
# Two productions give the same bytes.
first=$(head -1 "$WORK/manifest" | cut -d' ' -f5)
check "model.glb is the same on every read" \
	cmp -s <("$NMODEL" cat "$first" /model.glb) "$WORK/1.glb"
finish
