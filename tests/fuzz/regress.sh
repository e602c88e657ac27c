#!/bin/bash
# Replay every input kept in tests/fuzz/regressions/TARGET/ (inputs that once crashed a
# fuzz target, plus a few seeds) through the same target functions.
. "$(dirname "$0")/../lib.sh"
# replay TARGET DIR: runs DIR's inputs through TARGET's function; prints what it said.
replay() {
	case $1 in
	pica|gx|lzss|inflate|gpu|tegra|astc|bcn|yaz0|yay0|lz_cx|lzs) "$top_builddir/tests/fuzz/replay_codecs" "$1" "$2" 2>&1 ;;
	j3d_struct) "$top_builddir/tests/fuzz/replay_j3d_struct" "$1" "$2" 2>&1 ;;
	txtr_struct) "$top_builddir/tests/fuzz/replay_txtr_struct" "$1" "$2" 2>&1 ;;
	apply) "$top_builddir/tests/fuzz/replay_apply" "$1" "$2" 2>&1 ;;
	cmod_ascii) "$top_builddir/tests/fuzz/replay_cmod_ascii" "$1" "$2" 2>&1 ;;
	*) "$top_builddir/tests/fuzz/replay_drivers" "$1" "$2" 2>&1 ;;
	esac
}
dir=$top_srcdir/tests/fuzz/regressions
for t in "$dir"/*/; do
	[ -d "$t" ] || continue
	name=$(basename "$t")
	out=$(replay "$name" "$t")
	rc=$?
	# A sanitizer build stops at the first report (a crash, a leak, undefined
	# behaviour): the status fails the check, the report follows it.
	check "fuzz regressions of $name ($(printf '%s\n' "$out" | tail -1))" test $rc -eq 0
	[ $rc -eq 0 ] || printf '%s\n' "$out"
done
[ $((passed + failed)) -gt 0 ] || echo "no kept fuzz inputs yet"

# The seeds the fuzz targets ship with (tests/fuzz/seeds.sh: the fixture writers' files),
# every target's through its function: the writers still make them, and none crashes.
if "$top_srcdir/tests/fuzz/seeds.sh" "$WORK/seeds" "$top_builddir" > "$WORK/seeds.log" 2>&1; then
	ok "tests/fuzz/seeds.sh writes every target's seeds"
	for t in "$WORK"/seeds/*/; do
		name=$(basename "$t")
		n=$(find "$t" -type f | wc -l)
		[ "$n" -gt 0 ] || continue
		out=$(replay "$name" "$t")
		rc=$?
		check "seeds of $name ($n, $(printf '%s\n' "$out" | tail -1))" test $rc -eq 0
		[ $rc -eq 0 ] || printf '%s\n' "$out"
	done
else
	not_ok "tests/fuzz/seeds.sh writes every target's seeds"
	cat "$WORK/seeds.log"
fi
finish
