#!/bin/bash
# The extract stamp (src/cli/stamp.c): nmodel apply skips the files of DIR that are as
# nmodel extract wrote them, and still sees every edit, however its times were set.
. "$(dirname "$0")/lib.sh"
F=$WORK/r.cmb
"$top_builddir/tests/mkfixture" cmb-records 10 "$F" || { echo "mkfixture failed"; exit 1; }
"$NMODEL" extract "$F" "$WORK/t" >/dev/null

getfattr -n user.nmodel.extract "$WORK/t" >/dev/null 2>&1 || python3 -c "import os, sys; os.getxattr(sys.argv[1], 'user.nmodel.extract')" "$WORK/t" 2>/dev/null ||
	skip_all "$WORK's file system keeps no user attributes: no extract stamp, apply compares every file"
check "a whole extract leaves a stamp naming FILE" \
	python3 -c "import os, sys; assert os.getxattr(sys.argv[1], 'user.nmodel.extract').startswith(b'source: ')" "$WORK/t"
check "the tree as extracted, with its stamp: OUT is FILE" \
	bash -c "'$NMODEL' apply '$F' '$WORK/t' '$WORK/o0.cmb' && cmp '$F' '$WORK/o0.cmb'"
if command -v strace >/dev/null; then
	opened() { # how many files of DIR apply read as edits
		# LeakSanitizer cannot run under ptrace (the sanitizer build): leaks are
		# checked by every other run of apply
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -e trace=openat -o "$WORK/trace" "$NMODEL" apply --dry-run "$F" "$1" >/dev/null || return 1
		# a file opened by name under its directory's descriptor: DIR's files
		grep -Ec '^[0-9]+ +openat\([0-9]+, "[^"]*", O_RDONLY\|O_CLOEXEC\) = [0-9]' "$WORK/trace"
	}
	check "files as extracted are not read" test "$(opened "$WORK/t")" = 0
fi

sed -i 's/^diffuse_color: .*/diffuse_color: 10 20 30 40/' "$WORK/t/mats/0.txt"
check "an edit after the extract is one (sed -i: a new file renamed in)" \
	bash -c "'$NMODEL' apply --dry-run '$F' '$WORK/t' | grep -q '^$WORK/t/mats/0.txt:[0-9]*: diffuse_color: '"
if command -v strace >/dev/null; then
	check "... and the only file read" test "$(opened "$WORK/t")" = 1
else
	echo "SKIP the checks that apply reads only edited files: strace is missing"
fi
"$NMODEL" extract "$F" "$WORK/u" >/dev/null
cp "$WORK/u/mats/0.txt" "$WORK/m0"
sed -i 's/^diffuse_color: .*/diffuse_color: 1 2 3 4/' "$WORK/m0"
cat "$WORK/m0" > "$WORK/u/mats/0.txt"     # written in place, same size
touch -r "$WORK/u/info.txt" "$WORK/u/mats/0.txt" # its mtime set back
check "an edit in place whose mtime was set back is still one (ctime)" \
	bash -c "'$NMODEL' apply --dry-run '$F' '$WORK/u' | grep -q 'diffuse_color: .*: 01 02 03 04$'"
cp -a "$WORK/u" "$WORK/copy"
if command -v strace >/dev/null; then
	check "a copied DIR (new ctimes): every file is read" test "$(opened "$WORK/copy")" -gt 10
fi
check "a copied DIR (new ctimes) is compared whole: the edit is there, the rest is not one" \
	bash -c "'$NMODEL' apply '$F' '$WORK/copy' '$WORK/oc.cmb' && '$NMODEL' apply '$F' '$WORK/u' '$WORK/ou.cmb' && cmp '$WORK/oc.cmb' '$WORK/ou.cmb' && ! cmp -s '$F' '$WORK/oc.cmb'"
"$top_builddir/tests/mkfixture" cmb-records 11 "$WORK/other.cmb" || { echo "mkfixture failed"; exit 1; }
check "a stamp of another model vouches for nothing: every file of it is an edit of this one" \
	bash -c "! '$NMODEL' apply '$WORK/other.cmb' '$WORK/t' '$WORK/ox.cmb' 2>/dev/null && test ! -e '$WORK/ox.cmb'"
finish
