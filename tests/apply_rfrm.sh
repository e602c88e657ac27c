#!/bin/bash
# nmodel apply on a real Tropical Freeze model (doc/apply.md, doc/rfrm.md): a material
# value and a vertex position (in a zlib GPU buffer placed by the walk: the model is
# laid out again when the stream changes length), each changing only its file and the
# files made from it in OUT's tree; refusals (out of range, read-only, a bad line, a
# value the vertex format cannot hold) exit 1, write no OUT and name file, line, field.
. "$(dirname "$0")/lib.sh"
F=$CORPUS/cmdl/dkctf_146f7fe8-457a-42c3-b112-f52ac8ec5ce0.cmdl
[ -f "$F" ] || skip_all "no corpus at $CORPUS: RFRM edits on real files not checked"
"$NMODEL" extract "$F" "$WORK/t" >/dev/null

edit colour mtrl/0.txt 's/^difc_color: .*/difc_color: 0.5 0.25 1 1/'
check "a material colour: the material, MTRL's raw.bin, mesh.mtl's Kd and model.glb" \
	test "$(applied colour)" = "info.txt mesh.mtl model.glb mtrl/0.txt mtrl/raw.bin "
check "the colour reads back" grep -qx 'difc_color: 0.5 0.25 1 1' "$WORK/x-colour/mtrl/0.txt"
edit pos vbuf/0/positions.csv '2s/.*/+5.00000000e-01,-2.50000000e-01,+1.25000000e-01/'
check "a vertex position: the CSV, its buffer, the GPU chunk (whose size changed), the meshes" \
	test "$(applied pos)" = "gpu/buffers.csv gpu/header.txt gpu/raw.bin gpu/vertex/0.bin info.txt mesh.obj model.glb vbuf/0/positions.csv "
check "the position reads back" \
	bash -c "sed -n 2p '$WORK/x-pos/vbuf/0/positions.csv' | grep -qx '+5.00000000e-01,-2.50000000e-01,+1.25000000e-01'"
check "the other vertices read as they were" \
	bash -c "cmp -s <(sed 2d '$WORK/t/vbuf/0/positions.csv') <(sed 2d '$WORK/x-pos/vbuf/0/positions.csv')"

# Refusals: exit 1, no OUT, file:line: field (refused, tests/lib.sh).
edit range mesh/0.txt 's/^field_12: .*/field_12: 256/'
check "a mesh field out of range: refused, naming file, line and field" \
	refused range "$WORK/e-range/mesh/0.txt:10: field_12: 256 is out of range 0..255 (u8)"
edit ro mesh/0.txt 's/^index_count: .*/index_count: 3/'
check "a derived mesh line: refused as read-only" refused ro "$WORK/e-ro/mesh/0.txt:7: index_count: is derived"
edit bad mtrl/0.txt 's/^flags: .*/flags 0x1/'
check "a line that does not parse: refused" refused bad "$WORK/e-bad/mtrl/0.txt:6: "
edit near vbuf/0/texcoords0.csv '2s/^[^,]*,/0.1,/'
check "a texture coordinate its half float cannot hold: refused with the nearest" \
	refused near "$WORK/e-near/vbuf/0/texcoords0.csv:2: u: 0.1 is not a value this component holds (RG16_FLOAT): the nearest is 0.099975586"
finish
