#!/bin/bash
# nmodel extract -j N: files produced on N threads are the files -j1 writes, byte for
# byte, on every corpus model (and the sample), also with a cache of 1 MiB that cannot
# hold what the threads produce at once; the same exit status and the same messages.
. "$(dirname "$0")/lib.sh"

same_extract() { # FILE: -j1 and -j2 (-j4 with --cache_size=1) write the same tree
	local f=$1 a=$WORK/j1 b=$WORK/j2 c=$WORK/j4 ra rb rc
	rm -rf "$a" "$b" "$c"
	"$NMODEL" extract -j1 "$f" "$a" 2>"$WORK/e1"; ra=$?
	"$NMODEL" extract -j2 "$f" "$b" 2>"$WORK/e2"; rb=$?
	"$NMODEL" --cache_size=1 extract -j 4 "$f" "$c" 2>/dev/null; rc=$?
	[ "$ra" = "$rb" ] && [ "$ra" = "$rc" ] || { echo "  exit $ra, $rb, $rc"; return 1; }
	diff -r "$a" "$b" && diff -r "$a" "$c" || return 1
	cmp -s <(sort "$WORK/e1") <(sort "$WORK/e2") || { echo "  messages differ"; return 1; }
}

S=$(sample)
check "extract -j2 of the sample equals -j1" same_extract "$S"
check "extract's default -j equals -j1" \
	bash -c "'$NMODEL' extract '$S' '$WORK/jd' && diff -r '$WORK/j1' '$WORK/jd'"
check "-j0 is a usage error" \
	fails 2 "nmodel: extract: -j takes 1 to 256 threads (usage: nmodel [OPTIONS] extract [-j N] FILE DIR)" \
	"$NMODEL" extract -j0 "$S" "$WORK/j0"
check "-j without a number is a usage error" \
	fails 2 "nmodel: extract: -j takes 1 to 256 threads (usage: nmodel [OPTIONS] extract [-j N] FILE DIR)" \
	"$NMODEL" extract -jx "$S" "$WORK/j0"
check "extract with one operand is a usage error" \
	fails 2 "nmodel: extract: wrong number of arguments (usage: nmodel [OPTIONS] extract [-j N] FILE DIR)" \
	"$NMODEL" extract -j2 "$S"
n=0
for f in $(corpus_files); do
	check "extract -j2 and -j4 equal -j1: ${f#"$CORPUS"/}" same_extract "$f"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || echo "no corpus at $CORPUS: only the sample was extracted"
finish
