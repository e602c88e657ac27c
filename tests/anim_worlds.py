#!/usr/bin/env python3
"""The game's joint worlds of a J3D model under its animations, computed from the tree
alone (independent of the C code that writes model.glb): JNT1's joints/N.txt (rest pose,
parent, the scale-compensate byte), INF1's scaling rule (inf1/header.txt) and each
animation's joints/N/sampled.csv (the local scale, rotation in degrees and translation
per frame). The rules are J3DJoint.cpp's as FORMATS.md 10.14 gives them.

    anim_worlds.py MODEL_DIR ANIM_DIR... > EXPECT

MODEL_DIR and each ANIM_DIR are directories as `nmodel extract` writes them. Prints, for
frames 0, 10 and the last of each animation, one line per joint in the form
tests/gltf_anim_check.js reads: "world NAME FRAME JOINT" and the 12
numbers of its 3x4 matrix, row-major."""
import math
import os
import sys


def fields(path):
    out = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip('\n').partition(': ')
            out.setdefault(key, value)
    return out


def rest_pose(model):
    joints = []
    d = os.path.join(model, 'jnt1', 'joints')
    n = len([x for x in os.listdir(d) if x.endswith('.txt')])
    for i in range(n):
        f = fields(os.path.join(d, f'{i}.txt'))
        joints.append({
            'parent': int(f.get('parent', '-1')),
            'compensate': int(f.get('calc_flags', '0'), 16) == 1,
            'srt': [float(v) for v in f['scale'].split()] +
                   [float(v) for v in f['rotation_degrees'].split()] +
                   [float(v) for v in f['translation'].split()],
        })
    return joints


def rule(model):
    text = fields(os.path.join(model, 'inf1', 'header.txt')).get('matrix_scaling_rule', '')
    return text.split(' ')[0]


def matmul(a, b):  # 3x4 row-major affine, composed as 4x4
    r = []
    for i in range(3):
        row = []
        for j in range(4):
            v = sum(a[i][k] * b[k][j] for k in range(3))
            row.append(v + (a[i][3] if j == 3 else 0))
        r.append(row)
    return r


def rotation(deg):
    x, y, z = (math.radians(d) for d in deg)
    cx, sx, cy, sy, cz, sz = math.cos(x), math.sin(x), math.cos(y), math.sin(y), math.cos(z), math.sin(z)
    # Rz * Ry * Rx
    return [[cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
            [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
            [-sy, cy * sx, cy * cx]]


def affine(r, t, s=(1, 1, 1)):
    return [[r[i][j] * s[j] for j in range(3)] + [t[i]] for i in range(3)]


def worlds(joints, rule_name, local):
    """local[j] = (scale, rotation degrees, translation) of joint j at one frame."""
    w = [None] * len(joints)
    chain = [None] * len(joints)   # Softimage: rotation and translation without scale
    acc = [None] * len(joints)     # Softimage: the product of the ancestors' scales
    for j in range(len(joints)):   # JNT1 lists parents before children
        s, deg, t = local[j]
        p = joints[j]['parent']
        p = p if 0 <= p < j else -1
        r = rotation(deg)
        if rule_name == 'SOFTIMAGE':
            sa = [1, 1, 1] if p < 0 else [acc[p][k] * local[p][0][k] for k in range(3)]
            own = affine(r, [t[k] * sa[k] for k in range(3)])
            chain[j] = own if p < 0 else matmul(chain[p], own)
            acc[j] = sa
            w[j] = matmul(chain[j], affine(rotation((0, 0, 0)), (0, 0, 0),
                                           [sa[k] * s[k] for k in range(3)]))
        else:
            if rule_name == 'MAYA' and joints[j]['compensate'] and p >= 0:
                sp = local[p][0]
                loc = matmul(affine(rotation((0, 0, 0)), t, [1 / v for v in sp]), affine(r, (0, 0, 0), s))
            else:
                loc = affine(r, t, s)
            w[j] = loc if p < 0 else matmul(w[p], loc)
    return w


def row_major(m):
    return [v for row in m for v in row]


def sampled(anim, joint):
    path = os.path.join(anim, 'joints', str(joint), 'sampled.csv')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        next(f)
        rows = [[float(v) for v in line.split(',')] for line in f]
    return [(r[1:4], r[4:7], r[7:10]) for r in rows]


def main():
    model, anims = sys.argv[1], sys.argv[2:]
    joints = rest_pose(model)
    rule_name = rule(model)
    for anim in anims:
        name = os.path.basename(anim.rstrip('/')).rsplit('.', 1)[0]
        tables = [sampled(anim, j) for j in range(len(joints))]
        frames = max(len(t) for t in tables if t)
        for frame in sorted({0, min(10, frames - 1), frames - 1}):
            local = []
            for j, jt in enumerate(joints):
                srt = jt['srt']
                local.append(tables[j][frame] if tables[j] else (srt[0:3], srt[3:6], srt[6:9]))
            for j, m in enumerate(worlds(joints, rule_name, local)):
                print('world', name, frame, j, ' '.join(repr(v) for v in row_major(m)))


main()
