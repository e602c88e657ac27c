#!/bin/bash
# Every J3D animation of the corpus (the RARC archives, the Pikmin 2 Yaz0 archive, the
# sms_sky folder) read by the j3danim driver: info.txt says errors: 0, and for every BCK
# BCA, BTK, BRK, BPK and BTP a second reader written here in Python, from the block's
# raw.bin alone and FORMATS.md 10.1-10.7 (double-precision Hermite, a linear key
# search), agrees with every target's sampled.csv and finds every stored key in the key
# CSVs.
. "$(dirname "$0")/lib.sh"
[ -d "$CORPUS" ] || skip_all "no corpus at $CORPUS"
PY=""
for p in python3 /usr/bin/python3; do
	"$p" -c 'import struct' 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] || skip_all "python3 is needed for the independent reader"

n=0
for src in "$CORPUS"/rarc/*.arc "$CORPUS"/rarc/*.yaz0 "$CORPUS"/folder/sms_sky; do
	[ -e "$src" ] || continue
	n=$((n + 1))
	check "extract $(basename "$src")" "$NMODEL" extract "$src" "$WORK/x/$n" >/dev/null
done
[ "$n" -gt 0 ] || skip_all "no archives in $CORPUS/rarc and no $CORPUS/folder/sms_sky"

"$PY" - "$WORK/x" <<'PY'
import math, os, struct, sys

root = sys.argv[1]
fails = 0
def bad(msg):
    global fails
    fails += 1
    if fails <= 30:
        print("  " + msg)

def u16(b, o): return struct.unpack_from(">H", b, o)[0]
def u32(b, o): return struct.unpack_from(">I", b, o)[0]
def f32(b, o): return struct.unpack_from(">f", b, o)[0]
def s16(b, o): return struct.unpack_from(">h", b, o)[0]

def read_csv(path):
    with open(path) as f:
        lines = f.read().split("\n")
    return lines[0].split(","), [[float(x) for x in l.split(",")] for l in lines[1:] if l]

def wrap16(x):
    return (x + 0x8000) % 0x10000 - 0x8000

def hermite(keys, f):
    """FORMATS.md 10.1: clamp outside, the last key with time <= f starts the segment,
    tangents per frame times the segment length."""
    if f < keys[0][0]:
        return keys[0][1]
    if f >= keys[-1][0]:
        return keys[-1][1]
    i = max(k for k in range(len(keys) - 1) if keys[k][0] <= f)
    t0, v0, _, o0 = keys[i]
    t1, v1, i1, _ = keys[i + 1]
    L = t1 - t0
    s = (f - t0) / L
    return ((2*s**3 - 3*s**2 + 1) * v0 + (s**3 - 2*s**2 + s) * o0 * L +
            (-2*s**3 + 3*s**2) * v1 + (s**3 - s**2) * i1 * L)

COMP = ["scale", "rotation", "translation"]
AXES = "xyz"
boundary = 0
checked_anims = 0
checked_values = 0

def joint_tracks(b, full):
    """Per joint, {name: (count, first, mode)}: ANK1 key tables of 6 bytes in the order
    sx rx tx sy ry ty sz rz tz, ANF1 (count, first) pairs of 4."""
    nj, table = u16(b, 0x0C), u32(b, 0x14)
    step = 4 if full else 6
    out = []
    for j in range(nj):
        d = {}
        for a in range(3):
            for c in range(3):
                o = table + j * 9 * step + (a * 3 + c) * step
                d[COMP[c] + "_" + AXES[a]] = (u16(b, o), u16(b, o + 2), 0 if full else u16(b, o + 4))
        out.append(d)
    return out

def elements(b, comp, first, n):
    base = u32(b, 0x18 + 4 * COMP.index(comp))
    if comp == "rotation":
        return [s16(b, base + 2 * (first + k)) for k in range(n)]
    return [f32(b, base + 4 * (first + k)) for k in range(n)]

def keys_of(b, comp, count, first, mode):
    if count == 1:
        return [(0.0, elements(b, comp, first, 1)[0], 0.0, 0.0)]
    per = 3 if mode == 0 else 4
    e = elements(b, comp, first, count * per)
    ks = []
    for k in range(count):
        t, v, ti = e[k*per], e[k*per+1], e[k*per+2]
        to = e[k*per+3] if per == 4 else ti
        ks.append((t, v, ti, to))
    return ks

def check_anim(d, kind, block):
    global boundary, checked_values
    b = open(os.path.join(d, block, "raw.bin"), "rb").read()
    full = kind == "BCA"
    shift = 0 if full else b[9]
    duration = s16(b, 0x0A)
    deg = (180.0 / 32768.0) * (1 << shift)
    for j, tracks in enumerate(joint_tracks(b, full)):
        jd = os.path.join(d, "joints", str(j))
        header, rows = read_csv(os.path.join(jd, "sampled.csv"))
        if len(rows) != max(duration, 0):
            bad(f"{jd}/sampled.csv: {len(rows)} rows, duration {duration}")
            continue
        for name, (count, first, mode) in tracks.items():
            comp = name.split("_")[0]
            col = header.index(name)
            rest = 1.0 if comp == "scale" else 0.0
            # The stored keys, in the track's CSV.
            if count:
                if full:
                    vals = elements(b, comp, first, count)
                    kk = [(float(i), v, 0.0, 0.0) for i, v in enumerate(vals)]
                else:
                    kk = keys_of(b, comp, count, first, mode)
                _, krows = read_csv(os.path.join(jd, name + ".csv"))
                scale = (180.0 / 32768.0 if full else deg) if comp == "rotation" else 1.0
                if len(krows) != count:
                    bad(f"{jd}/{name}.csv: {len(krows)} rows for {count} keys")
                for (t, v, ti, to), r in zip(kk, krows):
                    want = [t, v * scale] if full else [t, v * scale, ti * scale, to * scale]
                    for w, got in zip(want, r):
                        if abs(w - got) > 1e-6 * max(1.0, abs(w)):
                            bad(f"{jd}/{name}.csv: key {r} is not the stored {want}")
                            break
            elif os.path.exists(os.path.join(jd, name + ".csv")):
                bad(f"{jd}/{name}.csv exists for an empty track")
            # The sampled values.
            mag = 1.0
            if count >= 2 and not full:
                for k in range(count):
                    L = kk[min(k + 1, count - 1)][0] - kk[k][0]
                    mag = max(mag, abs(kk[k][1]), abs(kk[k][2] * L), abs(kk[k][3] * L))
            for f, row in enumerate(rows):
                got = row[col]
                checked_values += 1
                if count == 0:
                    want = rest
                elif full:
                    want = kk[f if f < count else count - 1][1]
                    if comp == "rotation":
                        want *= 180.0 / 32768.0
                elif count == 1:
                    want = kk[0][1]
                    if comp == "rotation":
                        want = wrap16(int(want) << shift) * 180.0 / 32768.0
                else:
                    v = hermite(kk, float(f))
                    if comp == "rotation":
                        want = wrap16(math.trunc(v) << shift) * 180.0 / 32768.0
                        if abs(got - want) > 1e-4:
                            # Within float rounding of an integer, the game's single-
                            # precision sum may truncate to the neighbour.
                            near = abs(v - round(v)) < 1e-5 * mag + 1e-6
                            one = (1 << shift) * 180.0 / 32768.0
                            if near and min(abs(abs(got - want) - one),
                                            abs(abs(got - want) - 360 + one)) < 1e-4:
                                boundary += 1
                                continue
                        else:
                            continue
                    else:
                        if abs(got - v) > 1e-5 * mag:
                            bad(f"{jd}/sampled.csv frame {f} {name}: {got}, expected {v}")
                        continue
                if abs(got - want) > 1e-5 * max(1.0, abs(want)):
                    bad(f"{jd}/sampled.csv frame {f} {name}: {got}, expected {want}")

def cstr(b, o):
    return b[o:b.index(b"\0", o)].decode("latin-1")

def names_at(b, off):
    return [cstr(b, off + u16(b, off + 6 + 4 * i)) for i in range(u16(b, off))]

def trunc_close(v, got, want, mag, unit):
    """got may be one unit from want where v is within float rounding of an integer."""
    global boundary
    if abs(got - want) <= 1e-4:
        return True
    if abs(v - round(v)) < 1e-5 * mag + 1e-6 and abs(abs(got - want) - unit) < 1e-4:
        boundary += 1
        return True
    return False

def track_mag(kk):
    mag = 1.0
    for k in range(len(kk)):
        L = kk[min(k + 1, len(kk) - 1)][0] - kk[k][0]
        mag = max(mag, abs(kk[k][1]), abs(kk[k][2] * L), abs(kk[k][3] * L))
    return mag

def read_keys(b, arr, is_f32, count, first, mode):
    per = 1 if count == 1 else 3 if mode == 0 else 4
    if is_f32:
        e = [f32(b, arr + 4 * (first + k)) for k in range(count * per)]
    else:
        e = [s16(b, arr + 2 * (first + k)) for k in range(count * per)]
    if per == 1:
        return [(0.0, e[0], 0.0, 0.0)]
    return [(e[k*per], e[k*per+1], e[k*per+2], e[k*per+3] if per == 4 else e[k*per+2])
            for k in range(count)]

def check_key_csv(path, kk, scale):
    _, rows = read_csv(path)
    if len(rows) != len(kk):
        bad(f"{path}: {len(rows)} rows for {len(kk)} keys")
    for (t, v, ti, to), r in zip(kk, rows):
        want = [t, v * scale, ti * scale, to * scale]
        if any(abs(w - g) > 1e-6 * max(1.0, abs(w)) for w, g in zip(want, r)):
            bad(f"{path}: key {r} is not the stored {want}")
            return

def colour_tracks(b, e, arrays, clamp):
    """R, G, B, A key tables at e (6 bytes each), their s16 arrays' offsets at `arrays`
    of the block header."""
    tracks = []
    for c, cn in enumerate(("red", "green", "blue", "alpha")):
        cnt, first, mode = u16(b, e + 6*c), u16(b, e + 6*c + 2), u16(b, e + 6*c + 4)
        kk = read_keys(b, u32(b, arrays + 4 * c), False, cnt, first, mode) if cnt else []
        tracks.append((cn, kk, clamp))
    return tracks

def material_dir(d, seen, name, sub):
    base = os.path.join(d, "materials", name, sub)
    path, n = base, 1
    while path in seen:
        n += 1
        path = f"{base}~{n}"
    seen.add(path)
    return path

def check_material(d, kind):
    """BTK, BRK, BPK: keys and sampled values; BTP: values and steps."""
    global checked_values
    block = {"BTK": "ttk1", "BRK": "trk1", "BPK": "pak1", "BTP": "tpt1"}[kind]
    b = open(os.path.join(d, block, "raw.bin"), "rb").read()
    duration = s16(b, 0x0C if kind == "BPK" else 0x0A)
    seen = set()
    targets = []   # (dir, [(name, keys or values, unit, array is f32)], sampled columns)
    if kind == "BRK":
        for r, prefix, lo, hi in ((0, "tev_color", -1024, 1023), (1, "tev_konst", 0, 255)):
            n, table, names = u16(b, 0x0C + 2 * r), u32(b, 0x20 + 4 * r), u32(b, 0x30 + 4 * r)
            nm = names_at(b, names) if n else []
            for i in range(n):
                e = table + 0x1C * i
                tracks = colour_tracks(b, e, 0x38 + 0x10 * r, (lo, hi))
                targets.append((material_dir(d, seen, nm[i], f"{prefix}{b[e + 0x18]}"), tracks))
    elif kind == "BPK":
        n, table, names = u16(b, 0x0E), u32(b, 0x18), u32(b, 0x20)
        nm = names_at(b, names) if n else []
        for i in range(n):
            tracks = colour_tracks(b, table + 0x18 * i, 0x24, (0, 255))
            targets.append((material_dir(d, seen, nm[i], "mat_color0"), tracks))
    elif kind == "BTK":
        shift = b[9]
        n, table, names, slots = u16(b, 0x0C) // 3, u32(b, 0x14), u32(b, 0x1C), u32(b, 0x20)
        nm = names_at(b, names) if n else []
        for i in range(n):
            tracks = []
            for u, un in enumerate("stq"):
                for c, cn in enumerate(("scale", "rotation", "translation")):
                    o = table + 0x36 * i + (u * 3 + c) * 6
                    cnt, first, mode = u16(b, o), u16(b, o + 2), u16(b, o + 4)
                    kk = read_keys(b, u32(b, 0x28 + 4 * c), c != 1, cnt, first, mode) if cnt else []
                    tracks.append((f"{cn}_{un}", kk, ("rot", shift) if c == 1 else None))
            targets.append((material_dir(d, seen, nm[i], f"tex_matrix{b[slots + i]}"), tracks))
    else:
        n, table, arr, names = u16(b, 0x0C), u32(b, 0x10), u32(b, 0x14), u32(b, 0x1C)
        nm = names_at(b, names) if n else []
        for i in range(n):
            e = table + 8 * i
            cnt, first = u16(b, e), u16(b, e + 2)
            vals = [u16(b, arr + 2 * (first + k)) for k in range(cnt)]
            td = material_dir(d, seen, nm[i], f"texture{b[e + 4]}")
            _, rows = read_csv(os.path.join(td, "texture.csv"))
            if [r[1] for r in rows] != vals:
                bad(f"{td}/texture.csv is not the stored {vals}")
            header, rows = read_csv(os.path.join(td, "sampled.csv"))
            for f, r in enumerate(rows):
                checked_values += 1
                if r[1] != vals[min(f, cnt - 1)]:
                    bad(f"{td}/sampled.csv frame {f}: {r[1]}, expected {vals[min(f, cnt - 1)]}")
        return
    for td, tracks in targets:
        header, rows = read_csv(os.path.join(td, "sampled.csv"))
        if len(rows) != max(duration, 0):
            bad(f"{td}/sampled.csv: {len(rows)} rows, duration {duration}")
            continue
        for name, kk, unit in tracks:
            rot = isinstance(unit, tuple) and unit[0] == "rot"
            scale = (180.0 / 32768.0) * (1 << unit[1]) if rot else 1.0
            if kk:
                check_key_csv(os.path.join(td, name + ".csv"), kk, scale)
            if name not in header:
                continue
            col = header.index(name)
            mag = track_mag(kk) if len(kk) >= 2 else 1.0
            for f, r in enumerate(rows):
                got = r[col]
                checked_values += 1
                empty = 1.0 if name.startswith("scale") else 0.0
                if not kk:
                    ok = abs(got - empty) < 1e-6
                elif len(kk) == 1:
                    v = kk[0][1]
                    if rot:
                        want = wrap16(int(v) << unit[1]) * 180.0 / 32768.0
                    elif unit == (0, 255):
                        want = int(v) & 0xFF
                    else:
                        want = v
                    ok = abs(got - want) <= 1e-6 * max(1.0, abs(want))
                else:
                    v = hermite(kk, float(f))
                    if rot:
                        want = wrap16(math.trunc(v) << unit[1]) * 180.0 / 32768.0
                        ok = trunc_close(v, got, want, mag, (1 << unit[1]) * 180.0 / 32768.0)
                    elif unit:
                        lo, hi = unit
                        want = lo if v < lo else hi if v > hi else math.trunc(v)
                        ok = trunc_close(v, got, want, mag, 1.0)
                    else:
                        want = v
                        ok = abs(got - v) <= 1e-5 * mag
                if not ok:
                    bad(f"{td}/sampled.csv frame {f} {name}: {got}, expected {want}")

kinds = {}
for dirpath, dirnames, filenames in os.walk(root):
    if "info.txt" not in filenames:
        continue
    info = open(os.path.join(dirpath, "info.txt")).read()
    if not info.startswith("format: J3D animation"):
        continue
    kind = info.split("kind: ")[1].split(" ")[0]
    kinds[kind] = kinds.get(kind, 0) + 1
    if "\nerrors: 0\n" not in info:
        bad(f"{dirpath}/info.txt: {info.strip().splitlines()[-1]}")
    if kind in ("BCK", "BCA"):
        check_anim(dirpath, kind, "ank1" if kind == "BCK" else "anf1")
        checked_anims += 1
    elif kind in ("BTK", "BRK", "BPK", "BTP"):
        check_material(dirpath, kind)
        checked_anims += 1

print("  animations: " + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())))
print(f"  {checked_anims} animations, {checked_values} sampled values compared; {boundary} "
      f"truncated values (rotations, colours) one unit apart where the value is within "
      f"float rounding of an integer")
if kinds.get("BCA", 0) < 68 or kinds.get("BRK", 0) < 4 or kinds.get("BTK", 0) < 1:
    bad(f"fewer animations than the corpus holds (68 BCA and 4 BRK in the Pikmin 2 archive, sky.btk): {kinds}")
sys.exit(1 if fails else 0)
PY
check "every corpus animation reads with errors: 0; samples and keys agree with an independent reader" test $? -eq 0
finish
