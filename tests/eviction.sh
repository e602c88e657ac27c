#!/bin/bash
# The daemon under a cache too small for what is listed (-o cache_size=1: archive
# members' parses and nodes are evicted and made again as they are asked for): every
# file of a 1,500-asset PAK and of a folder of archives reads the same bytes as
# `nmodel extract`, on a first pass and on a second after the kernel dropped its
# caches (so that inode numbers of evicted nodes come back to the daemon), and the
# inode numbers do not change. Run under the sanitizers, a use of evicted memory is
# found here.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3 here: mount tests cannot run"

sums() { (cd "$1" && find . -type f | sort | xargs -d '\n' sha1sum) 2>&1; }
inodes() { (cd "$1" && find . -printf '%i %p\n' | sort -k2) 2>&1; }
drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; }

check_source() { # check_source NAME SOURCE
	local name=$1 src=$2 mnt=$WORK/m.$1
	"$NMODEL" extract "$src" "$WORK/x.$name" >/dev/null 2>&1
	sums "$WORK/x.$name" > "$WORK/want.$name"
	check "$name: mounts with cache_size=1" mount_model "$src" "$mnt" -o cache_size=1
	inodes "$mnt" > "$WORK/ino1.$name"
	sums "$mnt" > "$WORK/got1.$name"
	check "$name: every file equals nmodel extract" cmp -s "$WORK/want.$name" "$WORK/got1.$name"
	if drop_caches; then
		sums "$mnt" > "$WORK/got2.$name"
		check "$name: ... again after the kernel dropped its caches" \
			cmp -s "$WORK/want.$name" "$WORK/got2.$name"
		inodes "$mnt" > "$WORK/ino2.$name"
		check "$name: ... with the same inode numbers" cmp -s "$WORK/ino1.$name" "$WORK/ino2.$name"
	else
		echo "not run: cannot drop the kernel's caches here (needs root): second pass skipped"
	fi
	check "$name: the daemon is alive" mountpoint -q "$mnt"
	unmount_model "$mnt"
}

"$top_builddir/tests/mkpak" "$WORK/big.pak" 1500 >/dev/null
check_source pak "$WORK/big.pak"

mkdir -p "$WORK/folder"
for f in "$CORPUS"/rarc/* "$CORPUS"/gar/* "$CORPUS"/zar/* "$(sample)"; do
	[ -f "$f" ] && cp "$f" "$WORK/folder/"
done
check_source folder "$WORK/folder"
finish
