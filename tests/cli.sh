#!/bin/bash
# nmodel: info, ls, cat, extract and their exit codes, on the project's sample model.
. "$(dirname "$0")/lib.sh"
S=$(sample)

check "info names the format on its first line" \
	test "$("$NMODEL" info "$S" | head -1)" = "format: Celestia binary CMOD"
"$NMODEL" extract "$S" "$WORK/x" >/dev/null 2>&1
check "extract exits 0" test $? -eq 0
check "cat equals the extracted file" \
	cmp -s <("$NMODEL" cat "$S" /meshes/0/vertices.csv) "$WORK/x/meshes/0/vertices.csv"
check "ls -R lists what extract wrote" \
	test "$("$NMODEL" ls -R "$S" | grep -v '/$' | sort)" = "$(cd "$WORK/x" && find . -type f | sed 's|^\.||' | sort)"
sizes_ok=1
while read -r kind size path; do
	[ "$kind" = "-" ] || continue
	[ "$(stat -c %s "$WORK/x$path")" = "$size" ] || { sizes_ok=0; echo "size differs: $path"; }
done < <("$NMODEL" ls -l -R "$S")
check "ls -l sizes equal the extracted sizes" test $sizes_ok = 1
check "ls of a subdirectory" test "$("$NMODEL" ls "$S" /meshes/0/primitives | wc -l)" = 5

printf 'not a model at all' > "$WORK/junk.bin"
err=$("$NMODEL" info "$WORK/junk.bin" 2>&1 >/dev/null); rc=$?
check "a non-model exits 1" test $rc -eq 1
check "with one line naming the file" test "$(echo "$err" | wc -l)" = 1 -a -n "$(echo "$err" | grep 'junk.bin')"
"$NMODEL" cat "$S" /no/such 2>/dev/null
check "a missing path exits 1" test $? -eq 1
"$NMODEL" frobnicate 2>/dev/null
check "a bad command exits 2" test $? -eq 2
"$NMODEL" --version | grep -q nmodelfs
check "--version" test $? -eq 0
finish
