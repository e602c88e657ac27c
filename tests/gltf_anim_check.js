// Checks an animated model.glb against what the game shows (tests/mkanimglb's .expect
// files), reading the glb as a viewer would: node TRS from the JSON, animation samplers
// from their accessors, worlds composed up the node hierarchy (helper nodes included).
//   node gltf_anim_check.js GLB EXPECT
// Prints one "ok ..." or "FAIL ..." line per check:
//  - every "rest J m..." line: skin joint J's world from the nodes at rest;
//  - every "world ANIM F J m..." line: skin joint J's world at frame F (t = F / 30) with
//    every node channel of ANIM sampled there;
//  - every "value ANIM F WHAT v..." line: the pointer channel's sample at frame F;
//  - rotations: unit quaternions, consecutive ones on one hemisphere;
//  - time accessors: min and max exactly the first and last time, none stored twice.
// Matrices agree within 1e-5 of their largest entry, values within 1e-6.
'use strict';
const fs = require('fs');

function parse(bytes) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const len = view.getUint32(12, true);
	const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
	return { json, view, bin: 20 + len + 8 };
}

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

function values(g, index) {
	const a = g.json.accessors[index], v = g.json.bufferViews[a.bufferView];
	const n = COMPONENTS[a.type], out = [];
	for (let i = 0; i < a.count; i++) {
		const row = [];
		for (let c = 0; c < n; c++) {
			const at = g.bin + v.byteOffset + (i * n + c) *
				   (a.componentType === 5126 ? 4 : 1);
			row.push(a.componentType === 5126 ? g.view.getFloat32(at, true)
				 : g.view.getUint8(at));
		}
		out.push(row);
	}
	return out;
}

// 3x4 row-major helpers.
function mul(a, b) {
	const r = [];
	for (let i = 0; i < 3; i++)
		for (let j = 0; j < 4; j++) {
			let s = j === 3 ? a[4 * i + 3] : 0;
			for (let k = 0; k < 3; k++)
				s += a[4 * i + k] * b[4 * k + j];
			r.push(s);
		}
	return r;
}

function trs(t, q, s) {
	const [x, y, z, w] = q;
	return [
		(1 - 2 * (y * y + z * z)) * s[0], 2 * (x * y - z * w) * s[1], 2 * (x * z + y * w) * s[2], t[0],
		2 * (x * y + z * w) * s[0], (1 - 2 * (x * x + z * z)) * s[1], 2 * (y * z - x * w) * s[2], t[1],
		2 * (x * z - y * w) * s[0], 2 * (y * z + x * w) * s[1], (1 - 2 * (x * x + y * y)) * s[2], t[2]];
}

// A sampler's value at time t (LINEAR: lerp, a quaternion normalised after; STEP).
function sample(g, sampler, t) {
	const times = values(g, sampler.input).map((r) => r[0]);
	const out = values(g, sampler.output);
	if (t <= times[0])
		return out[0];
	const last = times.length - 1;
	if (t >= times[last])
		return out[last];
	let k = 0;
	while (times[k + 1] <= t)
		k++;
	if (times[k] === t || sampler.interpolation === 'STEP')
		return out[k];
	const u = (t - times[k]) / (times[k + 1] - times[k]);
	return out[k].map((v, c) => v + u * (out[k + 1][c] - v));
}

function worlds(g, anim, t) {
	const j = g.json, nodes = j.nodes.map((n) => ({
		t: n.translation || [0, 0, 0], r: n.rotation || [0, 0, 0, 1], s: n.scale || [1, 1, 1],
	}));
	if (anim)
		anim.channels.forEach((c) => {
			if (c.target.node === undefined)
				return;
			const v = sample(g, anim.samplers[c.sampler], t);
			nodes[c.target.node][{ translation: 't', rotation: 'r', scale: 's' }[c.target.path]] = v;
		});
	const parent = new Array(j.nodes.length).fill(-1);
	j.nodes.forEach((n, i) => (n.children || []).forEach((c) => { parent[c] = i; }));
	const w = [];
	const worldOf = (i) => w[i] || (w[i] = parent[i] < 0
		? trs(nodes[i].t, nodes[i].r, nodes[i].s)
		: mul(worldOf(parent[i]), trs(nodes[i].t, nodes[i].r, nodes[i].s)));
	return j.skins[0].joints.map(worldOf);
}

let failed = 0;
function report(good, what) {
	console.log(`${good ? 'ok  ' : 'FAIL'} ${what}`);
	failed += !good;
}

function close(got, want, tol) {
	const size = Math.max(1, ...want.map(Math.abs));
	const err = Math.max(...got.map((v, k) => Math.abs(v - want[k])));
	return { good: err <= tol * size, err };
}

const [glbPath, expectPath] = process.argv.slice(2);
const g = parse(new Uint8Array(fs.readFileSync(glbPath)));
const anims = {};
(g.json.animations || []).forEach((a) => { anims[a.name] = a; });
const pointerOf = { color: 'baseColorFactor', offset: 'offset', rotation: '/rotation',
		    scale: '/scale', visible: '/visible' };

for (const line of fs.readFileSync(expectPath, 'utf8').split('\n').filter((l) => l)) {
	const f = line.split(' ');
	if (f[0] === 'rest') {
		const r = close(worlds(g, null, 0)[+f[1]], f.slice(2).map(Number), 1e-5);
		report(r.good, `${glbPath}: joint ${f[1]} at rest (error ${r.err.toExponential(2)})`);
	} else if (f[0] === 'world') {
		const a = anims[f[1]], t = Math.fround(+f[2] / 30);
		const r = a ? close(worlds(g, a, t)[+f[3]], f.slice(4).map(Number), 1e-5) : { good: false, err: NaN };
		report(r.good, `${glbPath}: ${f[1]} frame ${f[2]} joint ${f[3]} (error ${r.err.toExponential(2)})`);
	} else if (f[0] === 'value') {
		const a = anims[f[1]], t = Math.fround(+f[2] / 30);
		const c = a && a.channels.find((ch) => ch.target.extensions &&
			ch.target.extensions.KHR_animation_pointer.pointer.endsWith(pointerOf[f[3]]));
		const want = f.slice(4).map(Number);
		const got = c ? sample(g, a.samplers[c.sampler], t) : [];
		const r = c ? close(got, want, 1e-6) : { good: false, err: NaN };
		report(r.good && got.length === want.length,
		       `${glbPath}: ${f[1]} frame ${f[2]} ${f[3]} = ${got.join(' ')} (want ${want.join(' ')})`);
	}
}

// Rotations: unit length, and each sample on the previous one's hemisphere.
let worst = 0, flips = 0;
for (const a of g.json.animations || [])
	for (const c of a.channels)
		if (c.target.path === 'rotation') {
			const q = values(g, a.samplers[c.sampler].output);
			q.forEach((v, k) => {
				worst = Math.max(worst, Math.abs(Math.hypot(...v) - 1));
				if (k && v.reduce((s, x, i) => s + x * q[k - 1][i], 0) < 0)
					flips++;
			});
		}
report(worst < 1e-6 && flips === 0,
       `${glbPath}: rotations unit (worst ${worst.toExponential(2)}), ${flips} hemisphere flips`);

// Time accessors: exact bounds, each distinct.
const inputs = new Set();
for (const a of g.json.animations || [])
	a.samplers.forEach((s) => inputs.add(s.input));
const seen = new Set();
let bounds = true, twice = false;
for (const i of inputs) {
	const acc = g.json.accessors[i], t = values(g, i).map((r) => r[0]);
	bounds = bounds && acc.min[0] === t[0] && acc.max[0] === t[t.length - 1];
	const key = t.join(',');
	twice = twice || seen.has(key);
	seen.add(key);
}
report(bounds && !twice && inputs.size > 0,
       `${glbPath}: ${inputs.size} time accessors, bounds exact, none twice`);
process.exit(failed ? 1 : 0);
