#!/bin/bash
# Replay every input kept in tests/fuzz/regressions/TARGET/ (inputs that once crashed a
# fuzz target, plus a few seeds) through the same target functions.
. "$(dirname "$0")/../lib.sh"
dir=$top_srcdir/tests/fuzz/regressions
for t in "$dir"/*/; do
	[ -d "$t" ] || continue
	name=$(basename "$t")
	case $name in
	pica|gx|lzss|inflate|gpu|tegra|astc|bcn|yaz0|yay0|lz_cx|lzs) out=$("$top_builddir/tests/fuzz/replay_codecs" "$name" "$t" 2>&1) ;;
	j3d_struct) out=$("$top_builddir/tests/fuzz/replay_j3d_struct" "$name" "$t" 2>&1) ;;
	txtr_struct) out=$("$top_builddir/tests/fuzz/replay_txtr_struct" "$name" "$t" 2>&1) ;;
	apply) out=$("$top_builddir/tests/fuzz/replay_apply" "$name" "$t" 2>&1) ;;
	*) out=$("$top_builddir/tests/fuzz/replay_drivers" "$name" "$t" 2>&1) ;;
	esac
	rc=$?
	# A sanitizer build stops at the first report (a crash, a leak, undefined
	# behaviour): the status fails the check, the report follows it.
	check "fuzz regressions of $name ($(printf '%s\n' "$out" | tail -1))" test $rc -eq 0
	[ $rc -eq 0 ] || printf '%s\n' "$out"
done
[ $((passed + failed)) -gt 0 ] || echo "no kept fuzz inputs yet"
finish
