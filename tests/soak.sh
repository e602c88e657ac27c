#!/bin/bash
# The short soak (30 s) of scripts/soak.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3 here: the soak cannot run"
# ASan's shadow memory and quarantine make RSS meaningless in a sanitizer build.
[ -n "${ASAN_OPTIONS:-}" ] && export SOAK_CHECK_RSS=0 && echo "sanitizer build: RSS is not checked"
out=$("$top_srcdir/scripts/soak" 0.5 2>&1); rc=$?
echo "$out"
check "30 s soak: identical bytes, daemons alive, RSS within cache_size + 16 MiB" test $rc -eq 0
finish
