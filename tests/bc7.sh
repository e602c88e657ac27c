#!/bin/bash
# BC7 (src/codec/bc7.c) bit for bit against an independent decoder, Pillow's (Debian
# python3-pil, which scripts/deps installs): blocks of every mode, with every partition
# of the modes that have them and random fields otherwise (rotations, index selectors,
# p-bits, endpoints, indices), decoded by both. Reserved blocks (first byte 0) are
# left out of the comparison: Direct3D has them decode to all zeros, which ours gives
# and is checked here, Pillow gives opaque black.
. "$(dirname "$0")/lib.sh"
# Debian's python3 has python3-pil; another python3 first in PATH (pyenv) may not.
PY=""
for p in python3 /usr/bin/python3; do
	"$p" -c 'from PIL import Image' 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] ||
	skip_all "python3 with Pillow is needed as the reference decoder (Debian: python3-pil; scripts/deps installs it)"
DECODE=$top_builddir/tests/bcn_decode

# blocks W H SEED > FILE: ceil(W/4) x ceil(H/4) random blocks. Block i has mode i % 8
# and, in a mode with partitions, partition i / 8 (modulo their count), so 4,096 blocks
# give each partition 8 times; one block in 97 is reserved instead.
blocks() {
	"$PY" - "$@" <<'PY'
import random, sys
w, h, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
partition_bits = [4, 6, 6, 6, 0, 0, 0, 6]
out = bytearray()
for i in range(((w + 3) // 4) * ((h + 3) // 4)):
    v = rng.getrandbits(128)
    if i % 97 == 96:
        v &= ~0xff                       # reserved: no mode bit
    else:
        mode = i % 8
        v = (v >> (mode + 1) << (mode + 1)) | 1 << mode
        pb = partition_bits[mode]
        if pb:
            p = (i // 8) % (1 << pb)     # every partition in turn
            v = v & ~(((1 << pb) - 1) << (mode + 1)) | p << (mode + 1)
    out += v.to_bytes(16, "little")
sys.stdout.buffer.write(out)
PY
}

# compare W H BLOCKS: ours and Pillow's RGBA agree outside reserved blocks, which are 0.
compare() {
	"$DECODE" 7 "$1" "$2" < "$3" > "$WORK/ours.rgba" || return 1
	"$PY" - "$1" "$2" "$3" "$WORK/ours.rgba" <<'PY'
import sys
from PIL import Image
w, h = int(sys.argv[1]), int(sys.argv[2])
blocks = open(sys.argv[3], "rb").read()
ours = open(sys.argv[4], "rb").read()
ref = Image.frombytes("RGBA", (w, h), blocks, "bcn", (7, "BC7")).tobytes()
bw = (w + 3) // 4
bad = 0
for y in range(h):
    for x in range(w):
        b = (y // 4) * bw + x // 4
        k = 4 * (y * w + x)
        if blocks[16 * b] == 0:
            want = bytes(4)
        else:
            want = ref[k:k + 4]
        if ours[k:k + 4] != want:
            if bad < 5:
                print("texel (%d, %d), block %d (mode byte %02x): ours %s, expected %s" %
                      (x, y, b, blocks[16 * b], ours[k:k + 4].hex(), want.hex()))
            bad += 1
if bad:
    print("%d texels differ" % bad)
sys.exit(1 if bad else 0)
PY
}

blocks 256 256 1 > "$WORK/a.bc7"
check "BC7: 4,096 blocks, every mode and partition, equal to Pillow's" compare 256 256 "$WORK/a.bc7"
blocks 254 130 2 > "$WORK/b.bc7"
check "BC7: a 254 x 130 image (blocks cut at the right and bottom) equal to Pillow's" compare 254 130 "$WORK/b.bc7"
finish
