#!/bin/bash
# Limits through both front ends, on sparse models with one huge texture (mkfixture
# bigtex): the same options and messages for nmodel --NAME=VALUE and mount.nmodel -o
# NAME=VALUE; a texture over max_file_size fails with EFBIG while the daemon's peak
# memory stays small; a mount of a 16384 x 16384 texture touches no pixel memory.
. "$(dirname "$0")/lib.sh"
"$top_builddir/tests/mkfixture" bigtex 8192 "$WORK/big8192.cmb" || exit 1
"$top_builddir/tests/mkfixture" bigtex 16384 "$WORK/big16384.cmb" || exit 1

# Limit names as each front end's --help lists them, spelled the same way (mount.nmodel
# lists its limits first, apart from its mount options).
flags=$("$NMODEL" --help | sed -n 's/^ *--\([a-z-]*\)=.*/\1/p' | tr - _)
mopts=$("$MOUNT" --help 2>/dev/null | sed -n '/^limits/,/^$/ s/^ *-o \([a-z_]*\)=.*/\1/p')
check "nmodel and mount.nmodel list the same options" test -n "$flags" -a "$flags" = "$mopts"

err=$("$NMODEL" --max-file-size=0 info "$WORK/big8192.cmb" 2>&1 >/dev/null); rc=$?
check "nmodel: a bad option value exits 2" test $rc -eq 2
check "nmodel: ... with one line naming the option and its range" \
	test "$err" = 'nmodel: --max-file-size: must be a whole number from 1 to 1048576 (MiB), not "0"'
err=$("$NMODEL" --max-file-size=16 --cache-size=8 cat "$WORK/big8192.cmb" /tex/big.png 2>&1 >/dev/null); rc=$?
check "nmodel --max-file-size=16: the 8192^2 PNG fails (exit 1)" test $rc -eq 1
check "... saying which limit" test -n "$(echo "$err" | grep 'more than max_file_size (16 MiB)')"
check "nmodel --max-dimension=4096: no PNG for the 8192^2 texture" \
	test -z "$("$NMODEL" --max-dimension=4096 ls "$WORK/big8192.cmb" /tex | grep png)"
check "nmodel: options after the command work too" \
	test -n "$("$NMODEL" ls "$WORK/big8192.cmb" /tex --max-dimension=4096 | grep -v png)"
cp "$WORK/big8192.cmb" "$WORK/--max-depth=3"
check "nmodel: -- ends the options (a file named like one)" \
	test "$(cd "$WORK" && "$NMODEL" ls -- --max-depth=3 /tex | wc -l)" = 5
size=$("$NMODEL" ls -l "$WORK/big16384.cmb" /tex | awk '$3 == "big.png" { print $2 }')
check "nmodel ls -l: the 16384^2 PNG's size is the formula's" test "$size" = 805531716

fuse_usable || { echo "no /dev/fuse: mount checks skipped"; finish; }

mkdir -p "$WORK/m0"
err=$("$MOUNT" "$WORK/big8192.cmb" "$WORK/m0" -o max_file_size=0 2>&1); rc=$?
check "mount.nmodel: a bad option value exits non-zero" test $rc -ne 0
check "... with the same line as nmodel" \
	test "$err" = 'mount.nmodel: max_file_size: must be a whole number from 1 to 1048576 (MiB), not "0"'
check "... and mounts nothing" bash -c "! mountpoint -q '$WORK/m0'"

# Peak resident memory of the daemon serving $1, in KiB.
daemon_hwm() {
	local pid
	pid=$(pgrep -n -f "mount.nmodel $1 ") || return 1
	awk '/VmHWM/ { print $2 }' "/proc/$pid/status"
}

# What a daemon costs anyway (a sanitizer build costs more), from the sample model.
S=$(sample)
mount_model "$S" "$WORK/m9" || exit 1
base=$(daemon_hwm "$S")
unmount_model "$WORK/m9"

# check_hwm DESCRIPTION FILE KIB: the daemon serving FILE peaked at less than KiB above an
# idle daemon.
check_hwm() {
	local hwm
	hwm=$(daemon_hwm "$2")
	check "$1 (peak RSS ${hwm:-?} KiB; idle ${base} KiB)" test -n "$hwm" -a "${hwm:-0}" -lt $((base + $3))
	unmount_model "$(dirname "$2")/mnt"
}

# Each model in a directory of its own, mounted on DIR/mnt (check_hwm unmounts it).
mkdir -p "$WORK/a" "$WORK/b"
mv "$WORK/big8192.cmb" "$WORK/a/"
mv "$WORK/big16384.cmb" "$WORK/b/"

mount_model "$WORK/a/big8192.cmb" "$WORK/a/mnt" -o max_file_size=16,cache_size=8 ||
	not_ok "mounts with -o max_file_size=16,cache_size=8"
err=$(cat "$WORK/a/mnt/tex/big.png" 2>&1 >/dev/null)
check "-o max_file_size=16: reading the 8192^2 PNG fails with EFBIG" \
	test -n "$(echo "$err" | grep 'File too large')"
check "... stat still gives its exact size" test "$(stat -c %s "$WORK/a/mnt/tex/big.png")" = 201387076
check_hwm "... allocating nothing for it (it was ~300 MiB)" "$WORK/a/big8192.cmb" 16384

mount_model "$WORK/b/big16384.cmb" "$WORK/b/mnt" || not_ok "mounts the 16384^2 model"
ls -lR "$WORK/b/mnt" >/dev/null
check "16384^2 texture: ls -l shows the PNG's exact size" \
	test "$(stat -c %s "$WORK/b/mnt/tex/big.png")" = 805531716
check_hwm "... mount and ls -lR touch no pixel memory" "$WORK/b/big16384.cmb" 8192
finish
