#!/bin/bash
# A sample of the hostile-input sweep (scripts/sweep runs the full one): truncations and
# random byte flips of the sample and of every corpus model with a driver.
. "$(dirname "$0")/lib.sh"
files="$(sample) $(corpus_files)"
[ -d "$CORPUS" ] || echo "corpus not found at $CORPUS: only the sample is swept"
for f in $files; do
	out=$("$top_builddir/tests/sweep" -t 120 -f 120 "$f" 2>&1)
	rc=$?
	echo "$out" | tail -1
	check "$(basename "$f"): 120 truncations and 120 byte flips, no crash or hang" test $rc -eq 0
done
finish
