#!/bin/bash
# Animated model.glb (src/export/gltf_anim.h, gltf_rig.h) on the J3D fixture under each
# scaling rule, two synthetic animations each (tests/fixtures/anim_glb.h, written by
# tests/mkanimglb): the Khronos glTF-Validator finds no error in it nor in the model's
# own glb, the skin leaves the mesh in place at rest, and tests/gltf_anim_check.js finds
# every joint's world, at rest and at frames of the animation, equal to the game's
# (computed by the game's recursion from the same per-frame S/R/T), the material and
# visibility samples equal to the values given, quaternions on one hemisphere and time
# accessors shared with exact bounds. The validator is installed as tests/gltf.sh does.
. "$(dirname "$0")/lib.sh"
need_gltf_validator

check "mkanimglb writes the fixtures" "$top_builddir/tests/mkanimglb" "$WORK"
node "$(dirname "$0")/gltf_check.js" "$VALIDATOR" "$WORK"/rule*.glb \
	>"$WORK/report" 2>&1
for rule in 0 1 2; do
	for glb in "$WORK/rule$rule.glb" "$WORK/rule${rule}_static.glb"; do
		read -r _ _ errors _ _ _ _ _ joints _ bind < <(grep "^$glb errors " "$WORK/report")
		check "rule $rule $(basename "$glb"): 0 errors" test "${errors:-x}" = 0 ||
			sed -n "\|^$glb |,\|^[^ ]|p" "$WORK/report" | grep '^    '
		check "rule $rule $(basename "$glb"): a skin of 3 joints" test "${joints:-x}" = 3
		check "rule $rule $(basename "$glb"): at rest the skin moves no vertex ($bind)" \
			awk -v e="${bind:-1}" 'BEGIN { exit !(e < 1e-5) }'
	done
	node "$(dirname "$0")/gltf_anim_check.js" "$WORK/rule$rule.glb" "$WORK/rule$rule.expect" \
		>"$WORK/check$rule" 2>&1
	# One check per line of the .expect file, and two on rotations and times.
	n=$(grep -c '^ok' "$WORK/check$rule")
	want=$(($(wc -l <"$WORK/rule$rule.expect") + 2))
	check "rule $rule: $n of $want world, value and layout checks agree with the game" \
		test "$n" = "$want" ||
		grep -v '^ok' "$WORK/check$rule"
	# The static glb's joints at rest are the game's too (rest lines only).
	grep '^rest ' "$WORK/rule$rule.expect" >"$WORK/rest$rule"
	node "$(dirname "$0")/gltf_anim_check.js" "$WORK/rule${rule}_static.glb" "$WORK/rest$rule" \
		>"$WORK/static$rule" 2>&1
	check "rule $rule: the model's own glb has the game's joints at rest" \
		test "$(grep -c '^ok.*at rest' "$WORK/static$rule")" = 3 ||
		grep -v '^ok' "$WORK/static$rule"
done
# Each production gives the same bytes.
mkdir -p "$WORK/again"
"$top_builddir/tests/mkanimglb" "$WORK/again"
for rule in 0 1 2; do
	check "rule $rule: the same bytes on every production" cmp -s "$WORK/rule$rule.glb" \
		"$WORK/again/rule$rule.glb"
done
finish
