#!/bin/bash
# Real mounts: the sample and every corpus model with a driver. For each: st_size equals
# the bytes read, the mount equals `nmodel extract`, writes fail with EROFS, 8 parallel
# readers of every file agree, and the source is unchanged afterwards.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3 here: mount tests cannot run"

# A file that is not a model: one line, non-zero exit, nothing mounted.
printf 'hello' > "$WORK/junk.bin"
mkdir -p "$WORK/m0"
err=$("$MOUNT" "$WORK/junk.bin" "$WORK/m0" 2>&1); rc=$?
check "non-model: non-zero exit" test $rc -ne 0
check "non-model: one line on stderr" test "$(printf '%s\n' "$err" | wc -l)" = 1
check "non-model: nothing mounted" bash -c "! mountpoint -q '$WORK/m0'"
"$MOUNT" "$WORK/missing.cmod" "$WORK/m0" 2>/dev/null
check "missing source: non-zero exit" test $? -ne 0

n=0
for model in $(sample) $(corpus_files); do
	n=$((n + 1))
	name=$(basename "$model")
	mnt=$WORK/m$n
	before=$(sha1sum < "$model")
	if ! mount_model "$model" "$mnt"; then
		not_ok "$name: mounts"
		continue
	fi
	ok "$name: mounts"

	# 8 readers at once on a cold mount: every file, checksums must agree.
	for i in 1 2 3 4 5 6 7 8; do
		(cd "$mnt" && find . -type f | sort | xargs -d '\n' sha1sum > "$WORK/sums.$n.$i" 2>&1) &
	done
	wait
	same=1
	for i in 2 3 4 5 6 7 8; do cmp -s "$WORK/sums.$n.1" "$WORK/sums.$n.$i" || same=0; done
	check "$name: 8 parallel readers get identical bytes" test $same = 1

	bad=$(cd "$mnt" && find . -type f -printf '%s %p\n' | while read -r size path; do
		[ "$(wc -c < "$path")" = "$size" ] || echo "$path"
	done)
	check "$name: every st_size equals the bytes read" test -z "$bad"

	"$NMODEL" extract "$model" "$WORK/x$n" >/dev/null 2>&1
	check "$name: diff -r mount vs nmodel extract is empty" diff -r "$mnt" "$WORK/x$n"

	err=$(sh -c "echo x > '$mnt/info.txt'" 2>&1)
	check "$name: writing fails with EROFS" test -n "$(echo "$err" | grep 'Read-only file system')"
	err=$(mkdir "$mnt/new" 2>&1)
	check "$name: mkdir fails with EROFS" test -n "$(echo "$err" | grep 'Read-only file system')"

	unmount_model "$mnt"
	check "$name: unmounts" bash -c "! mountpoint -q '$mnt'"
	check "$name: source unchanged" test "$before" = "$(sha1sum < "$model")"
done
finish
