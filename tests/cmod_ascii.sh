#!/bin/bash
# ASCII CMOD (doc/cmod.md "ASCII CMOD"): the corpus's ASCII files mount with the tree of
# their binary form; model.ascii.cmod, edited, is written back (as binary for a binary
# file, as ASCII for an ASCII one); binary -> ASCII -> binary is the identity over the
# corpus; a line that does not parse is refused by file, line and token.
. "$(dirname "$0")/lib.sh"
[ -d "$CORPUS/cmod" ] && [ -d "$CORPUS/cmod_ascii" ] || skip_all "no CMOD corpus at $CORPUS"

# binary_of FILE OUT: the binary an ASCII file is mounted through, from its tree: the
# header, then the materials' and the meshes' raw.bin (the records, in file order).
binary_of() {
	{
		printf '#celmodel_binary'
		"$NMODEL" cat "$1" materials/raw.bin 2>/dev/null
		local n i
		n=$("$NMODEL" ls "$1" meshes | wc -l)
		for ((i = 0; i < n; i++)); do "$NMODEL" cat "$1" "meshes/$i/raw.bin"; done
	} >"$2"
}
# same_tree A B: two extracted trees are the same but for info.txt (format and source).
same_tree() {
	diff -r -x info.txt "$1" "$2" >"$WORK/diff" && return 0
	head -5 "$WORK/diff"
	return 1
}

for f in "$CORPUS"/cmod_ascii/*.cmod; do
	b=$(basename "$f" .cmod)
	"$NMODEL" extract "$f" "$WORK/a-$b" >/dev/null
	check "$b: extracts with no error.txt, as ASCII CMOD" \
		bash -c "[ -z \"\$(find '$WORK/a-$b' -name error.txt)\" ] && grep -qx 'format: Celestia ASCII CMOD' '$WORK/a-$b/info.txt' && grep -qx 'errors: 0' '$WORK/a-$b/info.txt'"
	binary_of "$f" "$WORK/$b.bin.cmod"
	"$NMODEL" extract "$WORK/$b.bin.cmod" "$WORK/b-$b" >/dev/null
	check "$b: its tree is the tree of its binary form" same_tree "$WORK/a-$b" "$WORK/b-$b"
	check "$b: the binary form shows every file (model.glb, mesh.obj, vertices.csv...)" \
		test "$(cd "$WORK/a-$b" && find . | sort)" = "$(cd "$WORK/b-$b" && find . | sort)"
	"$NMODEL" cat "$f" model.ascii.cmod >"$WORK/$b.ours.cmod"
	"$NMODEL" extract "$WORK/$b.ours.cmod" "$WORK/o-$b" >/dev/null
	check "$b: our model.ascii.cmod of it reads back to the same tree" \
		same_tree "$WORK/a-$b" "$WORK/o-$b"
	if fuse_usable && mount_model "$f" "$WORK/m-$b"; then
		check "$b: mounted, the tree is what extract writes" diff -r "$WORK/m-$b" "$WORK/a-$b"
		unmount_model "$WORK/m-$b"
	else
		echo "no FUSE mount here: $b checked through extract only"
	fi
done

# Binary -> ASCII -> binary: model.ascii.cmod given back (with a comment, so it is an
# edit) is written as the very bytes of the file.
for f in "$CORPUS"/cmod/*.cmod; do
	b=$(basename "$f" .cmod)
	mkdir -p "$WORK/id-$b"
	"$NMODEL" cat "$f" model.ascii.cmod >"$WORK/id-$b/model.ascii.cmod"
	echo "# read back" >>"$WORK/id-$b/model.ascii.cmod"
	check "$b: binary -> ASCII -> binary is byte-identical" \
		bash -c "'$NMODEL' apply '$f' '$WORK/id-$b' '$WORK/id-$b.cmod' && cmp '$f' '$WORK/id-$b.cmod'"
done

# applied NAME FILE: apply $WORK/e-NAME to FILE into $WORK/out-NAME, extract it.
applied() {
	"$NMODEL" apply "$2" "$WORK/e-$1" "$WORK/out-$1" &&
		"$NMODEL" extract "$WORK/out-$1" "$WORK/x-$1" >/dev/null
}
# edit NAME FILE AWK: DIR $WORK/e-NAME holds FILE's model.ascii.cmod through AWK.
edit() {
	mkdir -p "$WORK/e-$1"
	"$NMODEL" cat "$2" model.ascii.cmod | awk "$3" >"$WORK/e-$1/model.ascii.cmod"
}
S=$CORPUS/cmod/squannit.cmod
edit colour "$S" '/^diffuse 1 1 1$/ { print "diffuse 0.5 0.25 1"; next } { print }'
applied colour "$S"
check "a material colour: OUT is binary CMOD with the new colour" \
	bash -c "head -c 16 '$WORK/out-colour' | grep -q '#celmodel_binary' && grep -qx 'diffuse: 0.5 0.25 1' '$WORK/x-colour/materials/0.txt'"
"$NMODEL" extract "$S" "$WORK/s" >/dev/null
check "... and only the material and what is made from it differ" \
	test "$(diff -rq "$WORK/s" "$WORK/x-colour" | awk '{print $2}' | sed "s|$WORK/s/||" | sort | tr '\n' ' ')" = \
	"info.txt materials/0.txt materials/raw.bin mesh.mtl model.ascii.cmod model.glb "
# A vertex more: the count, one row after the last, and a triangle that uses it.
edit vertex "$S" '
	/^vertices [0-9]+$/ { n = $2; print "vertices " n + 1; rows = n; next }
	rows > 0 { print; if (--rows == 0) print "+1.00000000e+00 +2.00000000e+00 +3.00000000e+00 +0.00000000e+00 +0.00000000e+00 +1.00000000e+00 +5.00000000e-01 +2.50000000e-01"; next }
	/^trilist 0 [0-9]+$/ { print "trilist 0 " $3 + 3; printf "%4d %4d %4d\n", 0, 1, n; next }
	{ print }'
applied vertex "$S"
check "a vertex added to a mesh: OUT extracts to it" \
	bash -c "grep -qx 'vertex_count: 1241' '$WORK/x-vertex/meshes/0/header.txt' && tail -1 '$WORK/x-vertex/meshes/0/vertices.csv' | grep -qx '+1.00000000e+00,+2.00000000e+00,+3.00000000e+00,+0.00000000e+00,+0.00000000e+00,+1.00000000e+00,+5.00000000e-01,+2.50000000e-01' && grep -q '^   0    1 1240$' '$WORK/x-vertex/meshes/0/primitives/0.txt'"
check "... and its model.ascii.cmod is the edited file" \
	bash -c "'$NMODEL' cat '$WORK/out-vertex' model.ascii.cmod | cmp - '$WORK/e-vertex/model.ascii.cmod'"
check "--dry-run says the model is written again whole" \
	bash -c "'$NMODEL' apply --dry-run '$S' '$WORK/e-vertex' | grep -q '^$WORK/e-vertex/model.ascii.cmod: squannit.cmod model written again whole: [0-9]* bytes, was $(stat -c %s "$S"):'"

# An ASCII file edited stays ASCII: OUT is the edited model in our spelling.
P=$CORPUS/cmod_ascii/phobos_2004.cmod
edit ascii "$P" '/^diffuse 1 1 1$/ { print "diffuse 0.5 0.25 1"; next } { print }'
applied ascii "$P"
check "an ASCII file's edit: OUT is ASCII, the edited file itself" \
	bash -c "cmp '$WORK/out-ascii' '$WORK/e-ascii/model.ascii.cmod' && grep -qx 'diffuse: 0.5 0.25 1' '$WORK/x-ascii/materials/0.txt'"

# refused NAME FILE REGEX: exit 1, no OUT, stderr one line matching.
refused() {
	"$NMODEL" apply "$2" "$WORK/e-$1" "$WORK/out-$1" 2>"$WORK/err-$1"
	local rc=$?
	[ $rc -eq 1 ] && [ ! -e "$WORK/out-$1" ] && [ "$(wc -l <"$WORK/err-$1")" -eq 1 ] &&
		grep -Eq "$3" "$WORK/err-$1" && return 0
	echo "  exit $rc: $(cat "$WORK/err-$1")"
	return 1
}
edit bad "$S" '/^diffuse 1 1 1$/ { print "specular 1 x 1"; next } { print }'
L=$(grep -n '^specular 1 x 1$' "$WORK/e-bad/model.ascii.cmod" | cut -d: -f1)
check "a line that does not parse: refused by file, line and token, no OUT" \
	refused bad "$S" "^nmodel: $WORK/e-bad/model.ascii.cmod:$L: expected a number after 'specular', found 'x'\$"
edit idx "$S" '/^trilist 0 [0-9]+$/ { print "trilist 0 " $3 + 3; print "0 1 99999"; next } { print }'
check "an index past the vertices: refused" \
	refused idx "$S" "model.ascii.cmod:[0-9]+: index 99999 of a trilist group is not below the vertex count 1240\$"
edit bad2 "$P" '/^vertices / { print "vertices many"; next } { print }'
check "an ASCII file's bad edit: refused too" \
	refused bad2 "$P" "model.ascii.cmod:[0-9]+: expected a vertex count after 'vertices', found 'many'\$"

# A broken ASCII file does not mount: the message names it, the line and the token.
sed '20s/.*/0.5 oops 1/' "$P" >"$WORK/broken.cmod"
check "a broken ASCII file: nmodel says file, line and token" \
	fails 1 "nmodel: $WORK/broken.cmod:20: expected a number after 'position of mesh 0 vertex 4', found 'oops'" \
	"$NMODEL" info "$WORK/broken.cmod"
finish
