// Validates .glb files with the Khronos glTF-Validator and prints, per file, one line:
//   PATH errors N triangles N dropped N skin_joints N bind_error X
// triangles: the validator's count; dropped: those written as (0, 0, 0), which is how
// model.glb writes a triangle mesh.obj leaves out (src/export/gltf.h).
// skin_joints: the joints of the first skin, 0 without one. bind_error: how far the
// skin moves the mesh at rest, as a fraction of the model's size or of its farthest
// vertex or joint from the origin, whichever is larger (float32 rounding grows with
// that distance, and a one-triangle sword has almost no size): every skinned vertex
// is put through sum(weight * joint world * inverse bind) with the joint worlds composed
// from the nodes' TRS hierarchy, and compared with its stored position (which is
// mesh.obj's bind pose); 0 when the skeleton's TRS reproduce the inverse binds.
// Messages of error severity follow, indented. Used by tests/gltf.sh.
'use strict';
const fs = require('fs');
const validator = require(process.argv[2]);

function parse(bytes) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const len = view.getUint32(12, true);
	const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
	const bin = 20 + len + 8;
	return { json, view, bin };
}

function skinJoints(json) {
	return json.skins && json.skins.length ? json.skins[0].joints.length : 0;
}

// 4x4 column-major helpers.
function mul(a, b) {
	const r = new Array(16).fill(0);
	for (let c = 0; c < 4; c++)
		for (let i = 0; i < 4; i++)
			for (let k = 0; k < 4; k++)
				r[c * 4 + i] += a[k * 4 + i] * b[c * 4 + k];
	return r;
}

function trs(n) {
	const [x, y, z, w] = n.rotation || [0, 0, 0, 1];
	const [sx, sy, sz] = n.scale || [1, 1, 1];
	const t = n.translation || [0, 0, 0];
	return [
		(1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
		2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
		2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
		t[0], t[1], t[2], 1];
}

function floats(g, acc, comps) {
	const a = g.json.accessors[acc], v = g.json.bufferViews[a.bufferView];
	const out = [];
	for (let i = 0; i < a.count * comps; i++) {
		const at = g.bin + v.byteOffset + 4 * i;
		out.push(a.componentType === 5126 ? g.view.getFloat32(at, true) : 0);
	}
	return out;
}

function ushorts(g, acc) {
	const a = g.json.accessors[acc], v = g.json.bufferViews[a.bufferView];
	const out = [];
	for (let i = 0; i < a.count * 4; i++)
		out.push(g.view.getUint16(g.bin + v.byteOffset + 2 * i, true));
	return out;
}

function dropped(g) {
	let n = 0;
	for (const mesh of g.json.meshes || [])
		for (const prim of mesh.primitives) {
			const a = g.json.accessors[prim.indices], v = g.json.bufferViews[a.bufferView];
			for (let t = 0; t < a.count; t += 3) {
				const at = g.bin + v.byteOffset + 4 * t;
				n += g.view.getUint32(at, true) === 0 && g.view.getUint32(at + 4, true) === 0 &&
				     g.view.getUint32(at + 8, true) === 0;
			}
		}
	return n;
}

function bindError(g) {
	const j = g.json;
	if (!j.skins || !j.skins.length)
		return 0;
	const parent = new Array(j.nodes.length).fill(-1);
	j.nodes.forEach((n, i) => (n.children || []).forEach((c) => { parent[c] = i; }));
	const world = [];
	const worldOf = (i) => world[i] || (world[i] = parent[i] < 0 ? trs(j.nodes[i])
		: mul(worldOf(parent[i]), trs(j.nodes[i])));
	const skin = j.skins[0];
	const ibm = floats(g, skin.inverseBindMatrices, 16);
	const skinMat = skin.joints.map((n, k) => mul(worldOf(n), ibm.slice(16 * k, 16 * k + 16)));
	let far = 0;
	for (const n of skin.joints)
		for (let r = 12; r < 15; r++)
			far = Math.max(far, Math.abs(worldOf(n)[r]));
	let worst = 0, lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
	for (const mesh of j.meshes) {
		const at = mesh.primitives[0].attributes;
		if (at.JOINTS_0 === undefined)
			continue;
		const pos = floats(g, at.POSITION, 3), jt = ushorts(g, at.JOINTS_0);
		const wt = floats(g, at.WEIGHTS_0, 4);
		for (let v = 0; v < pos.length / 3; v++) {
			const p = [pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]], q = [0, 0, 0];
			for (let k = 0; k < 4; k++) {
				const m = skinMat[jt[4 * v + k]], w = wt[4 * v + k];
				for (let r = 0; r < 3; r++)
					q[r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
			}
			for (let r = 0; r < 3; r++) {
				worst = Math.max(worst, Math.abs(q[r] - p[r]));
				lo[r] = Math.min(lo[r], p[r]);
				hi[r] = Math.max(hi[r], p[r]);
				far = Math.max(far, Math.abs(p[r]));
			}
		}
	}
	const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], far);
	return size > 0 ? worst / size : worst;
}

(async () => {
	for (const path of process.argv.slice(3)) {
		const bytes = new Uint8Array(fs.readFileSync(path));
		// No cap on issues: past the cap the validator stops and gives no info (no
		// triangle count), and a large real model can have more infos than any cap (unused
		// texcoords: 34 in one Luigi's Mansion 3D room).
		const r = await validator.validateBytes(bytes, { maxIssues: 0 });
		const g = parse(bytes);
		console.log(`${path} errors ${r.issues.numErrors} triangles ` +
			    `${r.info.totalTriangleCount || 0} dropped ${dropped(g)} ` +
			    `skin_joints ${skinJoints(g.json)} ` +
			    `bind_error ${bindError(g).toExponential(2)}`);
		for (const m of r.issues.messages.filter((m) => m.severity === 0).slice(0, 20))
			console.log(`    ${m.code}: ${m.message} (${m.pointer || ''})`);
	}
})().catch((e) => { console.log(`validator failed: ${e}`); process.exit(2); });
