#!/bin/bash
# Faults around a real mount: the source changing underneath, unmounting and killing
# readers mid-read, busy or wrong mount points, odd read patterns (1-byte, past EOF,
# reverse, mmap). The daemon must never crash and fusermount3 -u must always work.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3 here: fault tests cannot run"
command -v python3 >/dev/null || skip_all "python3 is needed for the mmap and reverse-read cases"

# A model big enough that reading it takes a while: the sample, or galileo when present.
model=$WORK/model.cmod
if [ -f "$CORPUS/cmod/galileo.cmod" ]; then cp "$CORPUS/cmod/galileo.cmod" "$model"
else cp "$(sample)" "$model"; fi
mnt=$WORK/mnt

daemon_alive() { pgrep -f "mount.nmodel $model $mnt" >/dev/null; }
daemon_gone() { ! daemon_alive; }

# --- the source is truncated while mounted ----------------------------------------------
mount_model "$model" "$mnt" || { not_ok "mounts"; finish; }
cat "$mnt/info.txt" > /dev/null
truncate -s 100 "$model"
err=$(cat "$mnt/meshes/0/vertices.csv" 2>&1 >/dev/null)
check "truncated source: a read fails with EIO" test -n "$(echo "$err" | grep 'Input/output error')"
err=$(cat "$mnt/meshes/0/raw.bin" 2>&1 >/dev/null)
check "truncated source: raw.bin fails with EIO" test -n "$(echo "$err" | grep 'Input/output error')"
check "truncated source: daemon still alive" daemon_alive
check "truncated source: cached files still read" cat "$mnt/info.txt" >/dev/null
check "truncated source: fusermount3 -u works" fusermount3 -u "$mnt"

# --- the source is overwritten in place (same size) -----------------------------------------
[ -f "$CORPUS/cmod/galileo.cmod" ] && cp "$CORPUS/cmod/galileo.cmod" "$model" || cp "$(sample)" "$model"
mount_model "$model" "$mnt"
size=$(stat -c %s "$model")
dd if=/dev/urandom of="$model" bs=1 seek=200 count=64 conv=notrunc status=none
err=$(cat "$mnt/mesh.obj" 2>&1 >/dev/null)
check "overwritten source: a read fails with EIO" test -n "$(echo "$err" | grep 'Input/output error')"
check "overwritten source: size unchanged, daemon alive" test "$(stat -c %s "$model")" = "$size" -a -n "$(pgrep -f "mount.nmodel $model $mnt")"
fusermount3 -u "$mnt"

# --- unmount while 8 readers are mid-read; kill readers with SIGKILL -------------------------
[ -f "$CORPUS/cmod/galileo.cmod" ] && cp "$CORPUS/cmod/galileo.cmod" "$model" || cp "$(sample)" "$model"
mount_model "$model" "$mnt"
exec 3>&2 2>/dev/null   # bash reports the killed jobs: not test output
pids=""
for i in 1 2 3 4 5 6 7 8; do
	(while :; do cat "$mnt"/meshes/0/vertices.csv "$mnt"/mesh.obj >/dev/null 2>&1 || break; done) &
	pids="$pids $!"
done
sleep 0.3
kill -9 $(echo $pids | cut -d' ' -f1-4) 2>/dev/null
sleep 0.2
check "SIGKILLed readers: daemon alive" daemon_alive
fusermount3 -u -z "$mnt"   # lazy: the readers still have files open
wait
exec 2>&3 3>&-
for _ in $(seq 50); do daemon_alive || break; sleep 0.1; done
check "unmount under 8 readers: unmounted" bash -c "! mountpoint -q '$mnt'"
check "unmount under 8 readers: daemon exited once they were done" daemon_gone
check "the next mount works" mount_model "$model" "$mnt"
check "and reads" cmp -s "$mnt/info.txt" <("$NMODEL" cat "$model" /info.txt)

# --- busy and wrong mount points; the same file twice ---------------------------------------
err=$("$MOUNT" "$model" "$mnt" 2>&1); rc=$?
check "busy mount point: refused with one line" test $rc -ne 0 -a "$(echo "$err" | wc -l)" = 1 -a -n "$(echo "$err" | grep busy)"
err=$("$MOUNT" "$model" "$model" 2>&1); rc=$?
check "mount point not a directory: refused with one line" test $rc -ne 0 -a -n "$(echo "$err" | grep 'not a directory')"
check "the same file mounted twice (another directory)" mount_model "$model" "$WORK/mnt2"
check "both mounts agree" diff -r "$mnt" "$WORK/mnt2"
fusermount3 -u "$WORK/mnt2"

# --- odd read patterns --------------------------------------------------------------------
f=$mnt/meshes/0/vertices.csv
"$NMODEL" cat "$model" /meshes/0/vertices.csv > "$WORK/ref.csv"
check "1-byte reads" cmp -s <(dd if="$f" bs=1 count=4096 status=none) <(head -c 4096 "$WORK/ref.csv")
check "a read past EOF returns nothing" test -z "$(dd if="$f" bs=4096 skip=100000 count=1 status=none)"
check "reading in reverse order" python3 -c "
import os, sys
p, ref = sys.argv[1], open(sys.argv[2], 'rb').read()
fd = os.open(p, os.O_RDONLY); n = os.fstat(fd).st_size; out = bytearray(n)
for off in range((n - 1) // 7919 * 7919, -1, -7919):
    out[off:off + 7919] = os.pread(fd, 7919, off)
sys.exit(0 if bytes(out) == ref else 1)" "$f" "$WORK/ref.csv"
check "mmap of a file" python3 -c "
import mmap, sys
with open(sys.argv[1], 'rb') as fh:
    m = mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)
    sys.exit(0 if m[:] == open(sys.argv[2], 'rb').read() else 1)" "$mnt/mesh.obj" <(cat "$mnt/mesh.obj")
fusermount3 -u "$mnt"

# mmap of a PNG: a model with textures (a CMB from the corpus), when there is one.
tex_model=$(ls "$CORPUS"/cmb/*.cmb 2>/dev/null | head -1)
if [ -n "$tex_model" ] && mount_model "$tex_model" "$mnt"; then
	png=$(cd "$mnt" && find tex -name '*.png' | head -1)
	check "mmap of a PNG ($png)" python3 -c "
import mmap, sys
with open(sys.argv[1], 'rb') as fh:
    m = mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)
    sys.exit(0 if m[:8] == b'\x89PNG\r\n\x1a\n' and m[:] == open(sys.argv[2], 'rb').read() else 1)" "$mnt/$png" <("$NMODEL" cat "$tex_model" "/$png")
	fusermount3 -u "$mnt"
else
	echo "no textured model in the corpus: the PNG mmap case is skipped"
fi
finish
