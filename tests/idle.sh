#!/bin/bash
# -o idle_timeout=SECONDS (src/fuse/idle.h): the daemon unmounts itself and ends once
# nothing has used the mount for that long, and not while a file is open, a process
# works inside the mount, or requests keep coming. One-second timeouts: a few seconds.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3 here: mount tests cannot run"

S=$(sample)
m=$WORK/m
mkdir -p "$m"
check "a bad idle_timeout is refused" \
	fails 1 "mount.nmodel: idle_timeout: must be a whole number from 0 to 31622400, not \"1s\"" \
	"$MOUNT" "$S" "$m" -o idle_timeout=1s
check "... and so is one past a year" \
	fails 1 "mount.nmodel: idle_timeout: must be a whole number from 0 to 31622400, not \"31622401\"" \
	"$MOUNT" "$S" "$m" -o idle_timeout=31622401

# until_gone DIR SECONDS: DIR is no mount point within SECONDS.
until_gone() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		mountpoint -q "$1" || return 0
		sleep 0.1
	done
	return 1
}
# The daemon's parent may be a PID 1 that does not reap: a zombie has ended too.
ended() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }

# Four mounts side by side, 1 s timeouts: one unused; one with a file open; one with a
# process working inside (the daemon cannot see it: the kernel refuses the unmount and
# it is tried again); one read every 0.4 s (its timeout 2 s, so that a slow machine's
# gaps between reads stay shorter).
for i in 1 2 3 4; do
	check "idle_timeout mounts ($i)" mount_model "$S" "$WORK/m$i" -o idle_timeout=$((1 + i / 4))
done
pid=$(daemon_pid "$S" "$WORK/m1")
(cd "$WORK/m3/materials" && exec sleep 60) &
inside=$!
exec 3< "$WORK/m2/info.txt" # after the fork: the process above must not hold it
for _ in 1 2 3 4 5 6 7 8; do cat "$WORK/m4/info.txt" > /dev/null; sleep 0.4; done
check "an unused mount unmounts itself once unused for 1 s" until_gone "$WORK/m1" 1
check "... and its daemon ends" ended "$pid"
check "an open file keeps it mounted past the timeout" mountpoint -q "$WORK/m2"
check "a process working inside keeps it mounted past the timeout" mountpoint -q "$WORK/m3"
check "requests keep it mounted past the timeout" mountpoint -q "$WORK/m4"
exec 3<&-
check "... the file closed, it goes" until_gone "$WORK/m2" 3
kill "$inside"
wait "$inside" 2>/dev/null
check "... the process gone, it goes" until_gone "$WORK/m3" 3
check "... the requests over, it goes" until_gone "$WORK/m4" 3

# In the foreground, the idle unmount is a clean end: status 0.
"$MOUNT" -f "$S" "$m" -o idle_timeout=1 2>"$WORK/fg.err" &
fg=$!
sleep 0.3
MOUNTS="$MOUNTS $m"
wait "$fg"
check "mount.nmodel -f ends with status 0 after its idle unmount" test $? -eq 0
check "... having said nothing" test ! -s "$WORK/fg.err"
check "... and left nothing mounted" bash -c "! mountpoint -q '$m'"
finish
