#!/bin/bash
# A folder's edits (doc/writable.md "Folders", doc/apply.md "Folders"): nmodel apply
# FOLDER DIR OUTDIR and mount.nmodel -o rw,save=OUTDIR FOLDER MNT write each changed
# file of the folder under OUTDIR at its path, byte-equal to nmodel apply of the same
# edit on that file alone, and nothing else. Real mounts: a texture replaced with cp and
# a record changed with sed -i in two different files; the mount shows the new files and
# model.glb; a bad edit fails at close with EINVAL, named in /edits.txt, OUTDIR
# unchanged; removing an edit takes its file out of OUTDIR; overlay=DIR resumes and
# nmodel apply of it gives OUTDIR. On a folder of the project's own fixtures (a CMB, a
# J3D model in a sub-folder, a CMOD), and on the corpus's Sunshine sky folder.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3"

MK=$top_builddir/tests/mkfixture
fixture=$WORK/fixture
mkdir -p "$fixture/sub"
"$MK" cmb-records 10 "$fixture/a.cmb" && "$MK" j3d bmd3 "$fixture/sub/b.bmd" &&
	"$MK" cmod "$fixture/c.cmod" || { echo "mkfixture failed"; exit 1; }

# files FOLDER: the regular files under FOLDER, relative, sorted, one a line.
files() { (cd "$1" && find . -type f ! -path './.nmodel-overlay/*' | sed 's|^\./||' | sort); }
# hashes FOLDER: each file and its SHA-1, to see that nothing in it changed.
hashes() { (cd "$1" && find . -type f -exec sha1sum {} + | sort); }

# member_of FOLDER PATH: the file of FOLDER that PATH of its tree lies in.
member_of() {
	local at=""
	local IFS=/
	for part in $2; do
		at=${at:+$at/}$part
		[ -f "$1/$at" ] && { echo "$at"; return; }
	done
}

# One folder: case NAME FOLDER RECORD OLD NEW TEXTURE GLB BAD BAD_OLD BAD_NEW BAD_SAYS
# RECORD and TEXTURE are files of the folder's tree in two different members (each
# MEMBER/PATH), OLD->NEW the record's edit; GLB the model.glb that shows an edit; BAD a
# record of a third member whose BAD_OLD->BAD_NEW cannot be encoded, refused as BAD_SAYS.
run_case() {
	local name=$1 src=$2 rec=$3 old=$4 new=$5 tex=$6 glb=$7 bad=$8 bad_old=$9 bad_new=${10}
	local bad_says=${11}
	local w=$WORK/$name
	mkdir -p "$w"
	hashes "$src" > "$w/src.hashes"
	local recm texm
	recm=$(member_of "$src" "$rec") texm=$(member_of "$src" "$tex")
	local recin=${rec#"$recm"/} texin=${tex#"$texm"/}

	# The edits, and nmodel apply of each on its member alone.
	mkdir -p "$w/e/$(dirname "$rec")" "$w/e/$(dirname "$tex")" "$w/e1/$(dirname "$recin")" \
		"$w/e2/$(dirname "$texin")"
	"$NMODEL" cat "$src" "$rec" | edit_bytes text "$old" "$new" > "$w/e/$rec" &&
		"$NMODEL" cat "$src" "$tex" | edit_bytes png "" "" > "$w/e/$tex" ||
		{ not_ok "$name: the edits are made"; return; }
	cp "$w/e/$rec" "$w/e1/$recin" && cp "$w/e/$tex" "$w/e2/$texin"
	"$NMODEL" apply "$src/$recm" "$w/e1" "$w/ref.rec" &&
		"$NMODEL" apply "$src/$texm" "$w/e2" "$w/ref.tex" ||
		{ not_ok "$name: nmodel apply of each edit on its file alone"; return; }
	printf '%s\n' "$recm" "$texm" | sort > "$w/want.files"
	# The folder as the game gets it: each changed file replaced (for model.glb).
	mkdir -p "$w/ref"
	cp -r "$src"/. "$w/ref" && chmod -R u+w "$w/ref" &&
		cp "$w/ref.rec" "$w/ref/$recm" && cp "$w/ref.tex" "$w/ref/$texm"
	"$NMODEL" cat "$w/ref" "$glb" > "$w/ref.glb"
	"$NMODEL" cat "$w/ref" "$tex" > "$w/ref.texfile"

	# nmodel apply FOLDER.
	"$NMODEL" apply --dry-run "$src" "$w/e" > "$w/dry" 2>&1
	check "$name: apply --dry-run lists the changes of both files" \
		bash -c "grep -q '^$recm: ' '$w/dry' && grep -q '^$texm: ' '$w/dry'"
	check "$name: apply --dry-run writes nothing" test ! -e "$w/outa"
	"$NMODEL" apply "$src" "$w/e" "$w/outa" 2> "$w/err"
	check "$name: apply FOLDER succeeds" test $? = 0 -a ! -s "$w/err"
	check "$name: ... OUTDIR holds exactly the two changed files" cmp -s <(files "$w/outa") "$w/want.files"
	check "$name: ... each byte-equal to apply of its edit on that file alone" \
		bash -c "cmp -s '$w/outa/$recm' '$w/ref.rec' && cmp -s '$w/outa/$texm' '$w/ref.tex'"
	mkdir -p "$w/eb/$(dirname "$bad")" && cp -r "$w/e"/. "$w/eb"
	"$NMODEL" cat "$src" "$bad" | edit_bytes text "$bad_old" "$bad_new" > "$w/eb/$bad"
	check "$name: apply with one bad edit: refused by file, line and field, exit 1" \
		fails 1 "nmodel: $w/eb/$bad_says" "$NMODEL" apply "$src" "$w/eb" "$w/outb"
	check "$name: ... and no file written, though the other edits are good" test ! -e "$w/outb"
	cp -r "$w/e" "$w/e.same"
	"$NMODEL" apply "$src" "$w/e.same" "$w/e.same" 2> "$w/err"
	check "$name: apply into DIR itself (a folder where each file would go): refused, exit 1" \
		bash -c "test $? = 1 && grep -q 'a folder is there, where the new' '$w/err'"
	check "$name: ... before anything is written (no file, no temporary)" \
		diff <(cd "$w/e" && find . | sort) <(cd "$w/e.same" && find . | sort)

	# The mount: a record with sed -i, a texture with cp.
	local m=$w/m out=$w/out ov=$w/ov
	mount_model "$src" "$m" -o "rw,save=$out,overlay=$ov" || { not_ok "$name: mounts"; return; }
	sed -i "s/^$old\$/$new/" "$m/$rec" && cp "$w/e/$tex" "$m/$tex"
	check "$name: sed -i and cp in two files: both saves succeed" test $? = 0
	check "$name: ... /edits.txt says both encoded" \
		bash -c "grep -qx '$rec: encoded' '$m/edits.txt' && grep -qx '$tex: encoded' '$m/edits.txt'"
	check "$name: ... OUTDIR holds exactly the two changed files at their paths" \
		cmp -s <(files "$out") "$w/want.files"
	check "$name: ... each byte-equal to nmodel apply of its edit on that file alone" \
		bash -c "cmp -s '$out/$recm' '$w/ref.rec' && cmp -s '$out/$texm' '$w/ref.tex'"
	check "$name: ... the texture reads back as encoded" cmp -s "$m/$tex" "$w/ref.texfile"
	check "$name: ... $glb is the new model's, not the old one" \
		bash -c "cmp -s '$m/$glb' '$w/ref.glb' && ! cmp -s '$m/$glb' <('$NMODEL' cat '$src' '$glb')"
	check "$name: ... the files nobody edited read as before" \
		cmp -s "$m/$bad" <("$NMODEL" cat "$src" "$bad")
	hashes "$out" > "$w/out.before"
	"$NMODEL" cat "$src" "$bad" | edit_bytes text "$bad_old" "$bad_new" > "$w/bad"
	err=$(python3 -c 'import sys; f = open(sys.argv[1], "w"); f.write(open(sys.argv[2]).read()); f.close()' \
		"$m/$bad" "$w/bad" 2>&1)
	check "$name: a bad edit in a third file: EINVAL at close" grep -q "Errno 22" <<<"$err"
	check "$name: ... /edits.txt names it as nmodel apply does" \
		grep -qx "$bad: refused: $bad_says" "$m/edits.txt"
	check "$name: ... OUTDIR unchanged" cmp -s "$w/out.before" <(hashes "$out")
	check "$name: ... the other edits stay encoded" grep -qx "$tex: encoded" "$m/edits.txt"
	rm "$m/$bad"
	rm "$m/$rec"
	check "$name: an edit removed: its file leaves OUTDIR, the other stays" \
		bash -c "test '$(files "$out" | tr '\n' ' ')' = '$texm ' && cmp -s '$out/$texm' '$w/ref.tex'"
	cp "$w/e/$rec" "$m/$rec"
	check "$name: ... made again: both files back" cmp -s <(files "$out") "$w/want.files"
	unmount_model "$m"
	check "$name: the folder read is never written" cmp -s <(hashes "$src") "$w/src.hashes"

	# The overlay: nmodel apply of it gives OUTDIR; a new mount resumes it.
	"$NMODEL" apply "$src" "$ov" "$w/outov" 2> "$w/err"
	check "$name: nmodel apply FOLDER of the overlay equals the mount's OUTDIR" \
		bash -c "test ! -s '$w/err' && diff -r '$w/outov' '$out' >/dev/null"
	mount_model "$src" "$m" -o "rw,save=$w/out2,overlay=$ov" || { not_ok "$name: mounts again"; return; }
	check "$name: the overlay resumes: both edits encoded at the next mount" \
		bash -c "grep -qx '$rec: encoded' '$m/edits.txt' && grep -qx '$tex: encoded' '$m/edits.txt'"
	check "$name: ... the mount shows them" cmp -s "$m/$glb" "$w/ref.glb"
	check "$name: ... and writes the same OUTDIR" diff -r "$w/out2" "$out"
	unmount_model "$m"
}

hashes "$fixture" > "$WORK/fixture.hashes"
run_case fixture.case "$fixture" a.cmb/mats/0.txt "render_layer: 0" "render_layer: 1" \
	sub/b.bmd/tex1/i4.png sub/b.bmd/model.glb c.cmod/materials/0.txt \
	"opacity: 1" "opacity: x1" "c.cmod/materials/0.txt:7: opacity: x1 is not a number (f32)"

sky=$CORPUS/folder/sms_sky
if [ -d "$sky" ]; then
	run_case sky "$sky" sky.bmd/jnt1/joints/0.txt "translation: 0 0 0" "translation: 1 0 0" \
		sky.bmt/tex1/B_cloud_s.png sky.bmd/model.glb sky.btk/ttk1/header.txt \
		"loop_mode: 0" "loop_mode: 7" \
		"sky.btk/ttk1/header.txt:4: loop_mode: read-only: this file shows values derived from the model (offsets, counts, sizes), not stored ones"
else
	echo "no corpus folder $sky: only the fixture folder is tested"
fi

# --- two writers in two files, readers meanwhile --------------------------------------
# Each writer saves its file six times, its edit and the original in turn, ending on its
# edit; four readers read the J3D model's model.glb meanwhile: every read is the model
# before or after the texture edit (the record edit is in another file), never a mix.
c=$WORK/fixture.case
"$NMODEL" cat "$fixture" a.cmb/mats/0.txt > "$WORK/rec.orig"
"$NMODEL" cat "$fixture" sub/b.bmd/tex1/i4.png > "$WORK/tex.orig"
{ sha1sum < "$c/ref.glb"; "$NMODEL" cat "$fixture" sub/b.bmd/model.glb | sha1sum; } | cut -c1-40 > "$WORK/allowed"
for mode in threaded single; do
	m=$WORK/conc.$mode
	opt=""; [ $mode = single ] && opt=-s
	mount_model "$fixture" "$m" -o "rw,save=$WORK/conc.$mode.out" $opt
	two_writers "$m" sub/b.bmd/model.glb a.cmb/mats/0.txt "$c/e/a.cmb/mats/0.txt" "$WORK/rec.orig" \
		sub/b.bmd/tex1/i4.png "$c/e/sub/b.bmd/tex1/i4.png" "$WORK/tex.orig"
	check "$mode: two writers in two files finish, every save accepted (no deadlock)" test $WRITERS_OK = 0
	check "$mode: OUTDIR is both edits, each file equal to apply's" \
		bash -c "diff -r '$WORK/conc.$mode.out' '$c/outa' >/dev/null"
	check "$mode: $READS reads of model.glb during the saves, each a whole model" \
		test -s "$WORK/seen" -a -z "$(grep -vxFf "$WORK/allowed" "$WORK/seen")"
	unmount_model "$m"
done

# --- an edited file moved into another file of the folder -----------------------------
# Its first file is itself again (its OUTDIR file goes), the other gets the edit.
twin=$WORK/twin
mkdir -p "$twin" && cp "$fixture/a.cmb" "$twin/a.cmb" && cp "$fixture/a.cmb" "$twin/a2.cmb"
m=$WORK/twin.m
mount_model "$twin" "$m" -o "rw,save=$WORK/twin.out"
cp "$c/e/a.cmb/mats/0.txt" "$m/a.cmb/mats/0.txt"
mv "$m/a.cmb/mats/0.txt" "$m/a2.cmb/mats/0.txt"
check "mv of an edit into another file: OUTDIR holds only that file, as apply writes it" \
	bash -c "test '$(files "$WORK/twin.out" | tr '\n' ' ')' = 'a2.cmb ' && cmp -s '$WORK/twin.out/a2.cmb' '$c/ref.rec'"
unmount_model "$m"

# --- kill -9 during saves --------------------------------------------------------------
# One edit saved, then the texture saved in a loop (its edit and the original in turn:
# OUTDIR's file written, then gone) and the daemon killed at some point. OUTDIR's files
# are whole: the saved edit's, and the texture's as apply writes it or none; the next
# mount resumes the saved edit from the overlay.
for trial in 1 2 3; do
	m=$WORK/kill.$trial ov=$WORK/kill.$trial.ov out=$WORK/kill.$trial.out
	mount_model "$fixture" "$m" -o "rw,save=$out,overlay=$ov"
	pid=$(daemon_pid "$fixture" "$m")
	cp "$c/e/a.cmb/mats/0.txt" "$m/a.cmb/mats/0.txt"
	(for i in $(seq 1 40); do cp "$c/e/sub/b.bmd/tex1/i4.png" "$m/sub/b.bmd/tex1/i4.png"
		cp "$WORK/tex.orig" "$m/sub/b.bmd/tex1/i4.png"; done) 2>/dev/null &
	sleep "0.$((trial * 2))"
	kill -9 "$pid"
	wait
	sleep 0.2
	check "kill -9 $trial: the daemon is gone (or a zombie nobody reaps yet)" \
		bash -c "test -n '$pid' && { ! kill -0 '$pid' 2>/dev/null || ps -o stat= -p '$pid' | grep -q Z; }"
	fusermount3 -u "$m" 2>/dev/null
	check "kill -9 $trial: OUTDIR's files are whole: the saved edit's, the texture's or none" \
		bash -c "cmp -s '$out/a.cmb' '$c/ref.rec' && { test ! -e '$out/sub/b.bmd' || cmp -s '$out/sub/b.bmd' '$c/ref.tex'; }"
	mount_model "$fixture" "$m" -o "rw,overlay=$ov"
	check "kill -9 $trial: the next mount resumes the saved edit" \
		bash -c "grep -qx 'a.cmb/mats/0.txt: encoded' '$m/edits.txt' && cmp -s '$m/a.cmb/mats/0.txt' '$c/e/a.cmb/mats/0.txt'"
	unmount_model "$m"
done

# --- options --------------------------------------------------------------------------
mkdir -p "$WORK/m"
check "save= inside the folder: refused" fails 1 \
	"mount.nmodel: -o save=$fixture/out: inside the folder $fixture: a save never writes into the folder it reads" \
	"$MOUNT" "$fixture" "$WORK/m" -o "rw,save=$fixture/out"
check "overlay= inside the folder: refused" fails 1 \
	"mount.nmodel: -o overlay=$fixture/sub/ov: inside the folder $fixture: a save never writes into the folder it reads" \
	"$MOUNT" "$fixture" "$WORK/m" -o "rw,overlay=$fixture/sub/ov"
touch "$WORK/afile"
check "save= naming a file: refused" fails 1 \
	"mount.nmodel: -o save=$WORK/afile: not a folder: a folder's mount writes each changed file under save=DIR at its path" \
	"$MOUNT" "$fixture" "$WORK/m" -o "rw,save=$WORK/afile"
check "save= inside the mount point: refused" fails 1 \
	"mount.nmodel: -o save=$WORK/m/x: inside the mount point $WORK/m: the daemon would write into its own mount" \
	"$MOUNT" "$fixture" "$WORK/m" -o "rw,save=$WORK/m/x"
check "... and nothing is mounted" bash -c "! mountpoint -q '$WORK/m'"
check "apply: OUTDIR inside the folder: refused" fails 1 \
	"nmodel: $fixture/sub/o: inside $fixture: apply never writes into the folder it reads" \
	"$NMODEL" apply "$fixture" "$WORK/fixture.case/e" "$fixture/sub/o"
cd "$WORK" && mount_model "$fixture" "$WORK/mrel" -o rw,save=relout && cd - >/dev/null
cp "$WORK/fixture.case/e/a.cmb/mats/0.txt" "$WORK/mrel/a.cmb/mats/0.txt"
check "a relative save= is where the mount was started (the daemon works from /)" \
	cmp -s "$WORK/relout/a.cmb" "$WORK/fixture.case/ref.rec"
unmount_model "$WORK/mrel"
check "the fixture folder was never written" cmp -s <(hashes "$fixture") "$WORK/fixture.hashes"
finish
