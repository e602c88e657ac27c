#!/bin/bash
# The writable mount (doc/writable.md), real mounts over corpus files: each save
# pattern of real programs (cp, sed -i, vim's swap-and-rename and backup-and-write,
# GIO's replace, Python) on an edit of each kind in the table below; OUT equals nmodel
# apply of the same edit, and the mount shows the new model (the file as encoded, its
# model.glb). A bad edit: EINVAL at close, /edits.txt, OUT unchanged, then fixed. Files
# that are no edits live in the overlay; an overlay on disk resumes at the next mount
# and nmodel apply of it gives OUT. Two writers and readers at once (-s and threaded),
# and kill -9 during saves.
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3"
[ -d "$CORPUS" ] || skip_all "no corpus at $CORPUS"

# One row per kind of edit: name, model file under the corpus, the file edited, the
# model.glb that shows it, and the edit: "text OLD NEW" (the first OLD line's text
# becomes NEW), "flip" (one bit of the byte in the middle) or "png" (the middle row of
# pixels inverted, written back as a valid PNG). A kind whose edit the
# branch cannot encode yet (nmodel apply refuses it) is said and skipped.
ROWS='
cmb record|cmb/fin_oot3d_zelda_cow.cmb|mats/0.txt|model.glb|text|emission_color: 0 0 0 0|emission_color: 10 20 30 0
cmb texture|cmb/fin_oot3d_zelda_cow.cmb|tex/cow_00.png|model.glb|png||
J3D raw bytes in a Yaz0 RARC|rarc/fin_pikmin2_pikis.yaz0|designer/cursor/cursor.bmd/vtx1/raw.bin|designer/cursor/cursor.bmd/model.glb|flip||
J3D record in a Yaz0 RARC|rarc/fin_pikmin2_pikis.yaz0|designer/cursor/cursor.bmd/jnt1/joints/0.txt|designer/cursor/cursor.bmd/model.glb|text|translation: 0 0 0|translation: 1 0 0
J3D texture in a Yaz0 RARC|rarc/fin_pikmin2_pikis.yaz0|designer/orima_model/orima1.bmd/tex1/orima_565.png|designer/orima_model/orima1.bmd/model.glb|png||
TXTR record|txtr/phong1__difttxtr__7b35970a4d1d4989ad0dcb0c8f368941.txtr|head/header.txt|-|text|wrap_x: WRAP (0x1)|wrap_x: CLAMP (0x0)
TXTR texture|txtr/phong1__difttxtr__7b35970a4d1d4989ad0dcb0c8f368941.txtr|tex/0.png|-|png||
CMOD record (the ASCII model)|cmod/squannit.cmod|model.ascii.cmod|model.glb|text|diffuse 1 1 1|diffuse 1 0.5 0.25
CMOD material|cmod/galileo.cmod|materials/1.txt|model.glb|text|diffuse: 0.447 0.447 0.447|diffuse: 1 0.5 0.25
CMOD vertex in an ASCII file|cmod_ascii/phobos_2004.cmod|meshes/0/vertices.csv|model.glb|text|+7.38300025e-01|+2.50000000e-01
'

# The save patterns: save_NAME MOUNT PATH EDITED; the status is the writer's.
save_cp() { cp "$3" "$1/$2"; }
save_sed() { sed -i -n "\$r $3" "$1/$2"; } # sed's temporary renamed over; its output: EDITED
save_vim() { # swap file, the new file written beside, renamed over, swap removed
	local d f
	d=$(dirname "$1/$2") f=$(basename "$2")
	printf 'b0VIM swap' > "$d/.$f.swp" && cp "$3" "$d/4913" && rm "$d/4913" &&
		cp "$3" "$d/$f.new" && mv "$d/$f.new" "$1/$2" && rm "$d/.$f.swp"
}
save_vimbackup() { # the original renamed to a backup, written anew, backup removed
	mv "$1/$2" "$1/$2~" && cp "$3" "$1/$2" && rm "$1/$2~"
}
save_gio() { gio save "$1/$2" < "$3"; }
save_python() { python3 -c 'import sys; f = open(sys.argv[1], "w", encoding="latin-1", newline=""); f.write(open(sys.argv[2], encoding="latin-1", newline="").read()); f.close()' "$1/$2" "$3"; }
PATTERNS="cp sed vim vimbackup gio python"
command -v gio >/dev/null || { echo "gio not installed (libglib2.0-bin): its row is skipped"; PATTERNS=${PATTERNS/gio/}; }

ran=0 rows=0
while IFS='|' read -r -u 3 name file path glb mode old new; do
	[ -n "$name" ] || continue
	model=$CORPUS/$file
	[ -f "$model" ] || { echo "skip $name: no $file in the corpus"; continue; }
	rows=$((rows + 1))
	w=$WORK/row$rows
	mkdir -p "$w/edit/$(dirname "$path")"
	"$NMODEL" cat "$model" "$path" > "$w/orig" || { not_ok "$name: nmodel cat $path"; continue; }
	edit_bytes "$mode" "$old" "$new" < "$w/orig" > "$w/edit/$path" || { not_ok "$name: edit"; continue; }
	if ! "$NMODEL" apply "$model" "$w/edit" "$w/ref" 2> "$w/apply.err"; then
		echo "skip $name: this branch cannot encode it yet: $(head -1 "$w/apply.err")"
		continue
	fi
	ran=$((ran + 1))
	"$NMODEL" cat "$w/ref" "$path" > "$w/ref.file"
	[ "$glb" = - ] || "$NMODEL" cat "$w/ref" "$glb" > "$w/ref.glb"
	for p in $PATTERNS; do
		m=$w/m.$p
		out=$w/out.$p
		mount_model "$model" "$m" -o "rw,save=$out" || { not_ok "$name, $p: mounts"; continue; }
		"save_$p" "$m" "$path" "$w/edit/$path" 2> "$w/err"
		check "$name, $p: the save succeeds" test $? = 0 -a ! -s "$w/err"
		check "$name, $p: OUT equals nmodel apply's" cmp -s "$out" "$w/ref"
		check "$name, $p: the file reads back as encoded" cmp -s "$m/$path" "$w/ref.file"
		[ "$glb" = - ] || check "$name, $p: model.glb is the new model's" cmp -s "$m/$glb" "$w/ref.glb"
		check "$name, $p: /edits.txt says encoded" grep -qx "$path: encoded" "$m/edits.txt"
		check "$name, $p: nothing else left beside it" \
			test -z "$(ls -A "$(dirname "$m/$path")" | grep -E '^\.|~$|\.new$|^4913$')"
		unmount_model "$m"
	done
done 3<<<"$ROWS"
check "at least one kind of edit ran (the cmb record)" test $ran -ge 1

# --- options ---------------------------------------------------------------------------
cmb=$CORPUS/cmb/fin_oot3d_zelda_cow.cmb
check "save= without rw: refused" fails 1 "mount.nmodel: -o save=: only for a writable mount (add -o rw)" \
	"$MOUNT" "$cmb" "$WORK/m" -o "save=$WORK/x.cmb"
ln -s "$cmb" "$WORK/link.cmb"
mkdir -p "$WORK/m"
check "save= naming the model (a link to it): refused" fails 1 "mount.nmodel: -o save=$WORK/link.cmb: is $cmb itself: a save never writes the model it reads" \
	"$MOUNT" "$cmb" "$WORK/m" -o "rw,save=$WORK/link.cmb"
check "... and mounts nothing" bash -c "! mountpoint -q '$WORK/m'"
check "save= inside the mount point: refused" fails 1 \
	"mount.nmodel: -o save=$WORK/m/x.cmb: inside the mount point $WORK/m: the daemon would write into its own mount" \
	"$MOUNT" "$cmb" "$WORK/m" -o "rw,save=$WORK/m/x.cmb"

# --- a bad edit, then fixed; files that are no edits ----------------------------------
m=$WORK/bad
mount_model "$cmb" "$m" -o "rw,save=$WORK/bad.cmb,overlay=$WORK/ov"
check "a fresh mount: /edits.txt is empty" test -f "$m/edits.txt" -a ! -s "$m/edits.txt"
sed 's/^emission_color: 0 0 0 0$/emission_color: 10 20 30 0/' "$m/mats/0.txt" > "$WORK/good.txt"
cp "$WORK/good.txt" "$m/mats/0.txt"
cp "$WORK/bad.cmb" "$WORK/bad.before"
sed 's/^diffuse_color: 127 127 127 255$/diffuse_color: 300 127 127 255/' "$m/mats/1.txt" > "$WORK/bad.txt"
err=$(python3 -c 'import sys; f = open(sys.argv[1], "w"); f.write(open(sys.argv[2]).read()); f.close()' \
	"$m/mats/1.txt" "$WORK/bad.txt" 2>&1)
check "a bad edit: EINVAL at close" grep -q "Errno 22" <<<"$err"
check "... /edits.txt names file, line, field and why, as nmodel apply does" \
	grep -qx "mats/1.txt: refused: mats/1.txt:63: diffuse_color: 300 is out of range 0..255 (u8)" "$m/edits.txt"
check "... and keeps the other edit encoded" grep -qx "mats/0.txt: encoded" "$m/edits.txt"
check "... OUT unchanged" cmp -s "$WORK/bad.cmb" "$WORK/bad.before"
check "... the file keeps the user's bytes" cmp -s "$m/mats/1.txt" "$WORK/bad.txt"
echo "a note" > "$m/mats/notes.txt" && mkdir "$m/mine" && echo x > "$m/mine/todo" && chmod 600 "$m/mine/todo"
check "files that are no edits: written, listed, kept" test "$(cat "$m/mine/todo")" = x -a \
	"$(stat -c %a "$m/mine/todo")" = 600 -a -n "$(ls "$m/mats" | grep -x notes.txt)"
check "... and change nothing" cmp -s "$WORK/bad.cmb" "$WORK/bad.before"
err=$(truncate -s 0 "$m/mats/0.txt" 2>&1)
check "truncate(1) of a model's file is saved at once: here refused, EINVAL" grep -q "Invalid argument" <<<"$err"
check "... OUT unchanged" cmp -s "$WORK/bad.cmb" "$WORK/bad.before"
cp "$WORK/good.txt" "$m/mats/0.txt"
check "... written again: encoded" grep -qx "mats/0.txt: encoded" "$m/edits.txt"
rm "$m/mine/todo" && rmdir "$m/mine"
check "rmdir of an overlay folder" test ! -e "$m/mine"
err=$(rmdir "$m/mats" 2>&1)
check "rmdir of a model's folder: not empty" grep -q "not empty" <<<"$err"
sed 's/^diffuse_color: 127 127 127 255$/diffuse_color: 200 127 127 255/' "$WORK/good.txt" > "$WORK/fixed1.txt"
cp "$m/mats/1.txt" "$WORK/fixed.txt" && sed -i 's/^diffuse_color: 300 /diffuse_color: 200 /' "$WORK/fixed.txt"
cp "$WORK/fixed.txt" "$m/mats/1.txt"
check "fixed: encoded" grep -qx "mats/1.txt: encoded" "$m/edits.txt"
mkdir -p "$WORK/both/mats" && cp "$WORK/good.txt" "$WORK/both/mats/0.txt" && cp "$WORK/fixed.txt" "$WORK/both/mats/1.txt"
"$NMODEL" apply "$cmb" "$WORK/both" "$WORK/both.cmb"
check "... OUT is nmodel apply of both edits" cmp -s "$WORK/bad.cmb" "$WORK/both.cmb"
unmount_model "$m"
"$NMODEL" apply "$cmb" "$WORK/ov" "$WORK/ov.cmb"
check "nmodel apply of the overlay gives OUT" cmp -s "$WORK/ov.cmb" "$WORK/both.cmb"
mount_model "$cmb" "$m" -o "rw,overlay=$WORK/ov"
check "the overlay resumes: both edits encoded at the next mount" \
	test "$(sort "$m/edits.txt" | tr '\n' ' ')" = "mats/0.txt: encoded mats/1.txt: encoded "
check "... the mount shows them (without save=)" cmp -s "$m/model.glb" <("$NMODEL" cat "$WORK/both.cmb" model.glb)
check "... and the other files" test "$(cat "$m/mats/notes.txt")" = "a note"
unmount_model "$m"

# The models of the edits of mats/0.txt and mats/1.txt: neither, one, the other, both.
orig0=$WORK/orig0.txt orig1=$WORK/orig1.txt
"$NMODEL" cat "$cmb" mats/0.txt > "$orig0"
"$NMODEL" cat "$cmb" mats/1.txt > "$orig1"
for combo in none 0 1 both; do
	mkdir -p "$WORK/c.$combo/mats"
	case $combo in 0|both) cp "$WORK/good.txt" "$WORK/c.$combo/mats/0.txt" ;; esac
	case $combo in 1|both) cp "$WORK/fixed.txt" "$WORK/c.$combo/mats/1.txt" ;; esac
	"$NMODEL" apply "$cmb" "$WORK/c.$combo" "$WORK/c.$combo.cmb"
	"$NMODEL" cat "$WORK/c.$combo.cmb" model.glb | sha1sum | cut -c1-40
done > "$WORK/allowed"

# --- removing an edited file undoes its edit -------------------------------------------
m=$WORK/undo
mount_model "$cmb" "$m" -o "rw,save=$WORK/undo.cmb"
cp "$WORK/good.txt" "$m/mats/0.txt"
check "undo: the edit is saved" cmp -s "$WORK/undo.cmb" "$WORK/c.0.cmb"
rm "$m/mats/0.txt"
check "undo: rm hides the model's file" test ! -e "$m/mats/0.txt" -a -z "$(ls "$m/mats" | grep -x 0.txt)"
check "... and undoes its edit: OUT is the model again, /edits.txt empty" \
	bash -c "cmp -s '$WORK/undo.cmb' '$cmb' && test ! -s '$m/edits.txt'"
cp "$WORK/good.txt" "$m/mats/0.txt"
check "... made again: the edit is back" cmp -s "$WORK/undo.cmb" "$WORK/c.0.cmb"
unmount_model "$m"

# --- two writers and readers at once ---------------------------------------------------
# Each writer saves its file six times, its edit and the original in turn, ending on its
# edit; four readers read model.glb meanwhile. Every glb read must be one of the four
# models (neither edit, one, both): a torn read would be none of them.
for mode in threaded single; do
	m=$WORK/conc.$mode
	opt=""; [ $mode = single ] && opt=-s
	mount_model "$cmb" "$m" -o "rw,save=$WORK/conc.$mode.cmb" $opt
	two_writers "$m" model.glb mats/0.txt "$WORK/good.txt" "$orig0" mats/1.txt "$WORK/fixed.txt" "$orig1"
	check "$mode: two writers finish, every save accepted (no deadlock)" test $WRITERS_OK = 0
	check "$mode: OUT is both edits" cmp -s "$WORK/conc.$mode.cmb" "$WORK/c.both.cmb"
	check "$mode: $READS reads of model.glb during the saves ($(wc -l < "$WORK/seen") models seen), each a whole model" \
		test -s "$WORK/seen" -a -z "$(grep -vxFf "$WORK/allowed" "$WORK/seen")"
	unmount_model "$m"
done

# --- kill -9 during saves --------------------------------------------------------------
# A model whose save takes longest (a Yaz0 RARC, compressed again each time): one edit
# saved, then saves of another file in a loop and the daemon killed at some point in
# one. OUT is a whole model, one of those the saves made; the overlay on disk still has
# the edit whose close returned, and the next mount resumes it.
rarc=$CORPUS/rarc/fin_pikmin2_pikis.yaz0
raw=designer/cursor/cursor.bmd/vtx1/raw.bin
kept=designer/cursor/marker.bmd/vtx1/raw.bin
if [ -f "$rarc" ]; then
	"$NMODEL" cat "$rarc" "$raw" > "$WORK/raw.orig"
	edit_bytes flip "" "" < "$WORK/raw.orig" > "$WORK/raw.edit"
	"$NMODEL" cat "$rarc" "$kept" | edit_bytes flip "" "" > "$WORK/kept.edit"
	mkdir -p "$WORK/kk/$(dirname "$kept")" && cp "$WORK/kept.edit" "$WORK/kk/$kept"
	"$NMODEL" apply "$rarc" "$WORK/kk" "$WORK/kk.arc"
	mkdir -p "$WORK/kk/$(dirname "$raw")" && cp "$WORK/raw.edit" "$WORK/kk/$raw"
	"$NMODEL" apply "$rarc" "$WORK/kk" "$WORK/kk2.arc"
	for trial in 1 2 3; do
		m=$WORK/kill.$trial ov=$WORK/kill.$trial.ov out=$WORK/kill.$trial.arc
		mount_model "$rarc" "$m" -o "rw,save=$out,overlay=$ov"
		pid=$(daemon_pid "$rarc" "$m")
		cp "$WORK/kept.edit" "$m/$kept"
		(for i in $(seq 1 40); do cp "$WORK/raw.edit" "$m/$raw"; cp "$WORK/raw.orig" "$m/$raw"; done) 2>/dev/null &
		sleep "0.$((trial * 3))"
		kill -9 "$pid"
		wait
		fusermount3 -u "$m" 2>/dev/null
		check "kill -9 $trial: OUT is a whole model the saves made" \
			bash -c "cmp -s '$out' '$WORK/kk.arc' || cmp -s '$out' '$WORK/kk2.arc'"
		mount_model "$rarc" "$m" -o "rw,overlay=$ov"
		check "kill -9 $trial: the next mount resumes the saved edit" \
			bash -c "grep -qx '$kept: encoded' '$m/edits.txt' && cmp -s '$m/$kept' '$WORK/kept.edit'"
		unmount_model "$m"
	done
fi
finish
