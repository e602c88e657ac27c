"""Texture edits as a user makes them, for tests/apply.sh (Pillow: Debian python3-pil).

  png_edit.py paint IN OUT MODE   a red 16x16 square at the top left (or the whole image
                                  when smaller), saved as MODE: RGB, RGBA, P (a palette),
                                  L, LA, or I16 (16-bit grey, no alpha: each value v * 257)
  png_edit.py same IN OUT MODE    the image unchanged, saved again as MODE
  png_edit.py size IN OUT W H     the image scaled to W x H
  png_edit.py psnr A B            PSNR of B against A over RGBA, in dB ("inf" when equal)
  png_edit.py maxdiff A B         the largest difference of one channel of one texel
"""
import math
import sys

from PIL import Image


def rgba(path):
    return Image.open(path).convert("RGBA")


def save(im, out, mode):
    if mode == "I16":
        im.convert("L").convert("I").point(lambda v: v * 257).convert("I;16").save(out)
    elif mode == "P":
        im.convert("RGB").quantize(256).save(out)
    else:
        im.convert(mode).save(out)


def paint(src, out, mode):
    im = rgba(src)
    for y in range(min(16, im.height)):
        for x in range(min(16, im.width)):
            im.putpixel((x, y), (255, 0, 0, 255))
    save(im, out, mode)


def diffs(a, b):
    pa, pb = rgba(a), rgba(b)
    assert pa.size == pb.size, (pa.size, pb.size)
    return [abs(x - y) for p, q in zip(pa.getdata(), pb.getdata()) for x, y in zip(p, q)]


def main(argv):
    cmd = argv[1]
    if cmd == "paint":
        paint(argv[2], argv[3], argv[4])
    elif cmd == "same":
        save(rgba(argv[2]), argv[3], argv[4])
    elif cmd == "size":
        rgba(argv[2]).resize((int(argv[4]), int(argv[5]))).save(argv[3])
    elif cmd == "psnr":
        d = diffs(argv[2], argv[3])
        se = sum(x * x for x in d)
        print("inf" if se == 0 else "%.2f" % (10 * math.log10(255 * 255 * len(d) / se)))
    elif cmd == "maxdiff":
        print(max(diffs(argv[2], argv[3])))
    else:
        sys.exit("png_edit.py: unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
