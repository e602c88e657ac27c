// Validates .glb files with the Khronos glTF-Validator and prints, per file, one line:
//   PATH errors N triangles N skin_joints N
// (skin_joints: the joints of the first skin, 0 without one; read from the JSON chunk).
// Messages of error severity follow, indented. Used by tests/gltf.sh.
'use strict';
const fs = require('fs');
const validator = require(process.argv[2]);

function skinJoints(bytes) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const len = view.getUint32(12, true);
	const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
	return json.skins && json.skins.length ? json.skins[0].joints.length : 0;
}

(async () => {
	for (const path of process.argv.slice(3)) {
		const bytes = new Uint8Array(fs.readFileSync(path));
		const r = await validator.validateBytes(bytes, { maxIssues: 20 });
		console.log(`${path} errors ${r.issues.numErrors} triangles ` +
			    `${r.info.totalTriangleCount || 0} skin_joints ${skinJoints(bytes)}`);
		for (const m of r.issues.messages)
			if (m.severity === 0)
				console.log(`    ${m.code}: ${m.message} (${m.pointer || ''})`);
	}
})().catch((e) => { console.log(`validator failed: ${e}`); process.exit(2); });
