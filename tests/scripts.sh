#!/bin/bash
# The scripts people run by hand or CI runs (bench, bench-peers, sweep, soak, fuzz, demo,
# deps, test, .ci/run, .clusterfuzzlite/build.sh, the glb renderer) and those a file
# manager runs (src/desktop) parse: a broken one fails only at the line it breaks, after
# minutes of work, and scripts/bench did so unnoticed for a day (the tail of a moved
# function was left behind).
. "$(dirname "$0")/lib.sh"
n=0
for s in "$top_srcdir"/scripts/* "$top_srcdir"/.ci/run "$top_srcdir"/.clusterfuzzlite/build.sh \
	"$top_srcdir"/src/desktop/*.in; do
	[ -f "$s" ] || continue
	name=${s#"$top_srcdir"/}
	case "$(head -1 "$s")" in
	'#!'*bash*) check "$name parses (bash -n)" bash -n "$s" ;;
	'#!'*/sh) check "$name parses (sh -n)" sh -n "$s" ;;
	*) case $s in
	   *.py) if command -v python3 >/dev/null; then
			check "$name parses (python3's ast)" \
				python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$s"
		 else
			echo "not run: $name (no python3 here)"
		 fi ;;
	   *) not_ok "$name: no shell or Python to check it with" ;;
	   esac ;;
	esac
	n=$((n + 1))
done
check "there were scripts to check ($n)" test "$n" -ge 10
finish
