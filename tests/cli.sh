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
mkdir -p "$WORK/folder" && cp "$S" "$WORK/folder/"
check "info of a folder says where its info.txt files are" \
	bash -c "'$NMODEL' info '$WORK/folder' 2>&1 | grep -q 'a folder: each model in it has its own info.txt'"
# Every description starts in the same column, however long the driver's name.
check "formats lines its descriptions up" \
	test "$("$NMODEL" formats | awk '{ match($0, /^[^ ]+ +/); print RLENGTH }' | sort -u | wc -l)" = 1
check "ls of a subdirectory" test "$("$NMODEL" ls "$S" /meshes/0/primitives | wc -l)" = 5

check "extract creates DIR's missing parents" \
	bash -c "'$NMODEL' extract '$S' '$WORK/new/parents/x' && diff -r '$WORK/x' '$WORK/new/parents/x'"
check "info.txt's source: is the base name, however the file was named" \
	test "$(cd "$WORK" && "$NMODEL" info sample.cmod)" = "$("$NMODEL" info "$WORK/sample.cmod")" -a \
	-n "$("$NMODEL" info "$WORK/sample.cmod" | grep -x 'source: sample.cmod')"
# A model with a broken chunk: its error.txt names the file by its base name too, so
# trees extracted through different spellings of the path are identical.
head -c 200 "$S" > "$WORK/cut.cmod"
check "error.txt is the same however the file was named" \
	bash -c "cd '$WORK' && '$NMODEL' extract cut.cmod '$WORK/cut-rel' >/dev/null 2>&1; \
		'$NMODEL' extract '$WORK/cut.cmod' '$WORK/cut-abs' >/dev/null 2>&1; \
		grep -rq '^cut.cmod: ' '$WORK/cut-abs' && diff -r '$WORK/cut-rel' '$WORK/cut-abs'"
# extract is not silent about it: one warning per error.txt, its first line and where it
# is; the broken chunk is part of the tree, so the status stays 0.
"$NMODEL" extract "$WORK/cut.cmod" "$WORK/cut-warn" >/dev/null 2>"$WORK/cut.err"
check "extract of a model with a broken chunk exits 0" test $? -eq 0
check "and warns once per error.txt, with its first line and its path" \
	test "$(cat "$WORK/cut.err")" = "nmodel: warning: $(head -1 "$WORK/cut-warn/error.txt") ($WORK/cut-warn/error.txt)" \
	-a "$(find "$WORK/cut-warn" -name error.txt | wc -l)" = 1

# Errors: exit status and the exact line (fails, lib.sh).
printf 'not a model at all' > "$WORK/junk.bin"
: > "$WORK/empty.bin"
check "a non-model: exit 1, one line naming the full path" \
	fails 1 "nmodel: $WORK/junk.bin: at 0x0: not a model this tool reads (starts with \"not a mo\"; $(expected_formats))" \
	"$NMODEL" info "$WORK/junk.bin"
check "an empty file says it is empty" \
	fails 1 "nmodel: $WORK/empty.bin: empty file, not a model ($(expected_formats))" "$NMODEL" info "$WORK/empty.bin"
check "/dev/null is named /dev/null" \
	fails 1 "nmodel: /dev/null: not a regular file" "$NMODEL" info /dev/null
check "a missing file" \
	fails 1 "nmodel: $WORK/none.cmod: cannot open: No such file or directory" "$NMODEL" info "$WORK/none.cmod"
check "a missing path exits 1, naming the model and the path" \
	fails 1 "nmodel: $S: /no/such: no such file or directory" "$NMODEL" cat "$S" /no/such
check "cat of a directory" \
	fails 1 "nmodel: $S: /meshes: is a directory" "$NMODEL" cat "$S" /meshes
check "ls of a missing path" \
	fails 1 "nmodel: $S: /nope: no such file or directory" "$NMODEL" ls "$S" /nope
check "extract below a regular file: exit 1, naming it" \
	fails 1 "nmodel: $WORK/junk.bin: cannot create directory: Not a directory" \
	"$NMODEL" extract "$S" "$WORK/junk.bin/x"
check "an unknown command exits 2 and says so" \
	fails 2 "nmodel: frobnicate: unknown command (see nmodel --help)" "$NMODEL" frobnicate "$S"
check "no command" fails 2 "nmodel: no command given (see nmodel --help)" "$NMODEL"
check "an unknown option" \
	fails 2 "nmodel: --bogus=1: unknown option (see nmodel --help)" "$NMODEL" info "$S" --bogus=1
check "an unknown option as the command word" \
	fails 2 "nmodel: --bogus: unknown option (see nmodel --help)" "$NMODEL" --bogus info "$S"
check "an unknown ls flag" \
	fails 2 "nmodel: ls: unknown option -x (usage: nmodel [OPTIONS] ls [-l] [-R] FILE [PATH])" \
	"$NMODEL" ls -x "$S"
check "a command with the wrong number of arguments" \
	fails 2 "nmodel: cat: wrong number of arguments (usage: nmodel [OPTIONS] cat FILE PATH)" \
	"$NMODEL" cat "$S"
check "every error line starts with nmodel:" all_errors_start_with "nmodel: "
"$NMODEL" --version | grep -q nmodelfs
check "--version" test $? -eq 0
finish
