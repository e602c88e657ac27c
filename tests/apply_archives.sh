#!/bin/bash
# nmodel apply inside archives (doc/apply.md, "Archives and wrappers"): a member of each
# corpus archive kind (Yaz0 RARC, plain RARC, LzS GAR, ZAR) and of a generated PAK
# replaced by longer bytes: OUT opens, the member reads back as given, every other file
# of the tree is byte-identical, the archive's tables say the new layout, and a wrapper
# compressed again stays within 5 % of the original's size; no edit gives FILE itself.
. "$(dirname "$0")/lib.sh"
[ -d "$CORPUS" ] || skip_all "no corpus at $CORPUS: archives of real files not checked"
mkdir -p "$WORK/empty"

# grow FILE MEMBER-FILE EXTRA: DIR $WORK/d holds MEMBER-FILE (a member's raw.bin, or a
# plain member) with EXTRA bytes of a pattern appended; OUT is $WORK/o.
grow() {
	rm -rf "$WORK/d" "$WORK/o"
	mkdir -p "$WORK/d/$(dirname "$2")"
	{ "$NMODEL" cat "$1" "/$2"; head -c "$3" /dev/zero | tr '\0' 'Z'; } > "$WORK/d/$2"
	"$NMODEL" apply "$1" "$WORK/d" "$WORK/o"
}
# others_same FILE MEMBER-DIR: the trees of FILE and OUT differ in the archive's
# info.txt, decompressed.bin and the member's own files only.
others_same() {
	rm -rf "$WORK/x" "$WORK/y"
	"$NMODEL" extract "$1" "$WORK/x" >/dev/null && "$NMODEL" extract "$WORK/o" "$WORK/y" >/dev/null || return 1
	local d
	d=$(diff -rq "$WORK/x" "$WORK/y" | sed "s|^Files $WORK/x/\([^ ]*\) and .*|\1|; s|^Only in $WORK/[xy]/*|only: |" |
		grep -v -x -e info.txt -e decompressed.bin | grep -v "^$2/")
	[ -z "$d" ] || { echo "  also differ: $d"; return 1; }
}
# tables_say FILE EXTRA: read by their tables alone (Python, not our reader), OUT's
# members are FILE's, all but one the same bytes and that one EXTRA bytes longer with
# the old bytes first; RARC members 32-byte aligned, its header's file and data sizes
# the file's; a ZAR/GAR's size field off from the file's size by what FILE's was.
tables_say() {
	local a=$WORK/tables_a b=$WORK/tables_b
	if "$NMODEL" ls "$1" / | grep -qx decompressed.bin; then
		"$NMODEL" cat "$1" /decompressed.bin > "$a" && "$NMODEL" cat "$WORK/o" /decompressed.bin > "$b" || return 1
	else
		cp "$1" "$a" && cp "$WORK/o" "$b"
	fi
	python3 - "$a" "$b" "$2" <<'PY'
import struct, sys
def members(d):
    if d[:4] == b'RARC':
        doff = struct.unpack_from('>I', d, 0x0C)[0] + 0x20
        ne, eoff = struct.unpack_from('>II', d, 0x28)
        out = []
        for i in range(ne):
            w, off, size = struct.unpack_from('>III', d, 0x20 + eoff + i * 0x14 + 4)
            if not (w >> 24) & 2:
                assert (doff + off) % 32 == 0, 'RARC member %d at 0x%x: not 32-byte aligned' % (i, doff + off)
                out.append(d[doff + off:doff + off + size])
        fsize, dsize = struct.unpack_from('>I', d, 4)[0], struct.unpack_from('>I', d, 0x10)[0]
        assert fsize == len(d) and dsize == len(d) - doff, 'RARC sizes %d %d of %d' % (fsize, dsize, len(d))
        return out, 0
    ver = 1 if d[:1] == b'Z' else d[3]
    size, types, files, toff, foff, doff = struct.unpack_from('<IHHIII', d, 4)
    stride = 8 if ver == 1 else 12
    out = []
    for i in range(files):
        n = struct.unpack_from('<I', d, foff + i * stride)[0]
        o = struct.unpack_from('<I', d, doff + 4 * i)[0]
        out.append(d[o:o + n])
    return out, len(d) - size
a, b = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
(ma, sa), (mb, sb) = members(a), members(b)
extra = int(sys.argv[3])
assert len(ma) == len(mb), 'member counts %d, %d' % (len(ma), len(mb))
changed = [i for i in range(len(ma)) if ma[i] != mb[i]]
assert len(changed) == 1, 'members changed: %s' % changed
i = changed[0]
assert len(mb[i]) == len(ma[i]) + extra and mb[i][:len(ma[i])] == ma[i], 'member %d: %d bytes, was %d' % (i, len(mb[i]), len(ma[i]))
assert sa == sb, 'size field off by %d, was %d' % (sb, sa)
PY
}
# within5 A B: B's size is at most 105 % of A's.
within5() { [ $(( $(stat -c %s "$2") * 100 )) -le $(( $(stat -c %s "$1") * 105 )) ]; }

cases=(
	"rarc/smg2mod_WaddleDoo.arc WaddleDoo/Wait1.bck 100 Yaz0"
	"rarc/fin_pikmin2_pikis.yaz0 designer/orima_model/orima3.bmd 77 Yaz0"
	"rarc/wwrando_Vscroll.arc archive/bdl/vscroll.bdl 45 -"
	"gar/mm3dr_zelda2_mag.gar.lzs Misc/title_logo_in.cmab 200 LzS"
	"zar/oot3dr_zelda_gi_melody.zar misc/link_body.cmab 37 -"
)
for c in "${cases[@]}"; do
	read -r rel member extra codec <<< "$c"
	F=$CORPUS/$rel
	[ -f "$F" ] || { echo "  $rel: not in the corpus, skipped"; continue; }
	n=$(basename "$rel")
	check "$n: no edit gives FILE itself" \
		bash -c "'$NMODEL' apply '$F' '$WORK/empty' '$WORK/same' && cmp '$F' '$WORK/same'"
	was=$("$NMODEL" cat "$F" "/$member/raw.bin" | wc -c)
	check "$n: $member $extra bytes longer: applied" grow "$F" "$member/raw.bin" "$extra"
	check "$n: OUT opens as the same kind, the member reads back as given" \
		bash -c "'$NMODEL' cat '$WORK/o' '/$member/raw.bin' | cmp - '$WORK/d/$member/raw.bin' &&
			 [ \"\$('$NMODEL' info '$WORK/o' | grep '^format:\|^compression:')\" = \"\$('$NMODEL' info '$F' | grep '^format:\|^compression:')\" ]"
	check "$n: the member's tree has no error the original's had not" \
		bash -c "[ \"\$('$NMODEL' cat '$WORK/o' '/$member/info.txt' | grep '^errors:')\" = \"\$('$NMODEL' cat '$F' '/$member/info.txt' | grep '^errors:')\" ]"
	check "$n: every other file of the tree is byte-identical" others_same "$F" "$member"
	check "$n: the tables alone say so (read by Python): one member longer, the rest the same" \
		tables_say "$F" "$extra"
	check "$n: the member grew by $extra bytes, the file by at least as much" \
		bash -c "[ \$('$NMODEL' cat '$WORK/o' '/$member/raw.bin' | wc -c) = $((was + extra)) ] &&
			 [ \$('$NMODEL' info '$WORK/o' | sed -n 's/^source_size: //p') -ge \$(( \$('$NMODEL' info '$F' | sed -n 's/^source_size: //p') + $extra )) ]"
	if [ "$codec" != - ]; then
		check "$n: $codec compressed again within 5 % of the original's size" within5 "$F" "$WORK/o"
		# One byte changed in place: the table stays, the stream within 5 % too.
		rm -rf "$WORK/d1"
		mkdir -p "$WORK/d1/$member"
		"$NMODEL" cat "$F" "/$member/raw.bin" | python3 -c "import sys; b = bytearray(sys.stdin.buffer.read()); b[len(b) // 2] ^= 0x5a; sys.stdout.buffer.write(b)" > "$WORK/d1/$member/raw.bin"
		check "$n: a one-byte edit: OUT within 5 % of FILE's size, the member as given" \
			bash -c "'$NMODEL' apply '$F' '$WORK/d1' '$WORK/o1' && within5() { [ \$(( \$(stat -c %s \"\$2\") * 100 )) -le \$(( \$(stat -c %s \"\$1\") * 105 )) ]; }; within5 '$F' '$WORK/o1' &&
				 '$NMODEL' cat '$WORK/o1' '/$member/raw.bin' | cmp - '$WORK/d1/$member/raw.bin'"
	fi
done

# A member's bytes inside a chunk of a model (not a whole member) of another length stays
# refused: only archives' tables say where bytes are.
F=$CORPUS/gar/mm3dr_zelda2_mag.gar.lzs
if [ -f "$F" ]; then
	m=Model/title_logo.cmb/mats/raw.bin
	rm -rf "$WORK/d" && mkdir -p "$WORK/d/$(dirname $m)"
	{ "$NMODEL" cat "$F" "/$m"; echo x; } > "$WORK/d/$m"
	check "a chunk's raw.bin of another length inside a GAR member is refused, no OUT" \
		bash -c "! '$NMODEL' apply '$F' '$WORK/d' '$WORK/no' 2>'$WORK/err' && [ ! -e '$WORK/no' ] && grep -q 'changes the model.s layout' '$WORK/err'"
fi
finish
