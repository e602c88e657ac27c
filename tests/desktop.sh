#!/bin/bash
# Opening a model from a file manager (data/, src/desktop/), for real: `make install`
# into a temporary prefix; file types by xdg-mime for every corpus and fixture file, by
# content alone for their first bytes under no name, and none for look-alikes; then under
# Xvfb with pcmanfm: `gio open FILE` leaves a mount and a file-manager window on it, a
# second open reuses the mount, a file that is not a model is said and mounts nothing,
# the idle unmount happens (2 s), pcmanfm makes thumbnails through our thumbnailer (f3d),
# and the end of the X session unmounts what is left. `make uninstall` removes it all.
# Skips, saying so, without Xvfb, pcmanfm, xdg-utils, xdotool, f3d or Pillow
# (scripts/deps --clients installs them).
. "$(dirname "$0")/lib.sh"
fuse_usable || skip_all "no /dev/fuse or fusermount3 here: mount tests cannot run"
missing=""
for tool in Xvfb pcmanfm xdg-mime xdg-open gio update-mime-database xdotool f3d findmnt; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
PY=""
for p in python3 /usr/bin/python3; do
	"$p" -c 'from PIL import Image' 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] || missing="$missing python3-pil"
[ -z "$missing" ] || skip_all "not installed:$missing (Debian: xvfb pcmanfm xdg-utils libglib2.0-bin shared-mime-info xdotool f3d util-linux python3-pil; scripts/deps --clients)"

# A desktop user of our own: everything under $WORK. LXDE: xdg-mime asks GIO (the
# shared-mime-info database) and xdg-open opens folders with pcmanfm.
P=$WORK/prefix
mkdir -p "$WORK/home" "$WORK/run"
chmod 700 "$WORK/run"
export HOME=$WORK/home XDG_CONFIG_HOME=$WORK/home/.config XDG_CACHE_HOME=$WORK/home/.cache
export XDG_DATA_HOME=$WORK/home/.local/share XDG_RUNTIME_DIR=$WORK/run
export XDG_DATA_DIRS=$P/share:/usr/local/share:/usr/share XDG_CURRENT_DESKTOP=LXDE
export GIO_USE_VFS=local PATH=$P/bin:$PATH
unset XDG_SESSION_ID WAYLAND_DISPLAY DISPLAY
# Not the make check's jobserver: this make runs on its own.
make_here() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@" prefix="$P"; }
make_here install >"$WORK/install.log" 2>&1
check "make install into a temporary prefix" test $? -eq 0
for f in bin/nmodel-open bin/nmodel-thumbnail share/mime/packages/nmodelfs.xml \
	share/applications/nmodelfs.desktop share/thumbnailers/nmodelfs.thumbnailer share/mime/mime.cache; do
	check "... installs $f" test -s "$P/$f"
done
check "... the desktop entry points at the installed script" \
	grep -qx "Exec=$P/bin/nmodel-open %F" "$P/share/applications/nmodelfs.desktop"
check "... and the script at the installed mount.nmodel" grep -qx "MOUNT=$P/sbin/mount.nmodel" "$P/bin/nmodel-open"
command -v desktop-file-validate >/dev/null &&
	check "... a valid desktop entry" desktop-file-validate "$P/share/applications/nmodelfs.desktop"

# ---- file types ----
# Every driver's files have a type, and the desktop entry opens it (a new driver adds its
# magic to data/nmodelfs.xml and a line here). Wrappers have none of their own: a
# wrapped file has its content's type.
types_of_driver() {
	case $1 in
	cmod) echo model/x-celestia-cmod model/x-celestia-cmod-ascii ;;
	cmb) echo model/x-grezzo-cmb ;;
	j3d) echo model/x-j3d-bmd model/x-j3d-bdl application/x-j3d-bmt ;;
	pak) echo application/x-rfrm-pak ;;
	rfrm) echo application/x-rfrm model/x-rfrm-model image/x-rfrm-texture ;;
	rarc) echo application/x-rarc ;;
	zar) echo application/x-zar ;;
	gar) echo application/x-gar ;;
	bti) echo image/x-j3d-bti ;;
	ctxb) echo image/x-grezzo-ctxb ;;
	j3danim) echo application/x-j3d-animation ;;
	grezzo_anim) echo application/x-grezzo-animation ;;
	*_wrap) echo wrapper ;;
	esac
}
entry_types=$(sed -n 's/^MimeType=//p' "$P/share/applications/nmodelfs.desktop")
for d in $("$NMODEL" formats | awk '{print $1}'); do
	types=$(types_of_driver "$d")
	[ "$types" = wrapper ] && continue
	check "driver $d has file types (${types:-none: add its magic to data/nmodelfs.xml})" test -n "$types"
	for t in $types; do
		check "... $t is defined" grep -q "<mime-type type=\"$t\">" "$P/share/mime/packages/nmodelfs.xml"
		check "... and opened by nmodelfs.desktop" bash -c "[[ ';$entry_types' == *';$t;'* ]]"
		# A model has a model.glb to preview.
		[[ $t == model/* ]] && check "... and previewed by nmodelfs.thumbnailer" \
			grep -q "^MimeType=.*$t;" "$P/share/thumbnailers/nmodelfs.thumbnailer"
	done
done
type_of() { xdg-mime query filetype "$1" 2>/dev/null; }
# named FILE TYPE: xdg-mime names TYPE for FILE, and GIO for its first 4 KiB under no
# name (content alone; BTI has no magic and is known by name only).
named() {
	local got
	got=$(type_of "$1")
	check "$(basename "$1"): $2" test "$got" = "$2"
	[ "$2" = image/x-j3d-bti ] && return
	head -c 4096 "$1" >"$WORK/noname"
	got=$(gio info -a standard::content-type "$WORK/noname" | sed -n 's/^ *standard::content-type: //p')
	check "... and by content alone" test "$got" = "$2"
}
F=$WORK/fixtures
mkdir -p "$F"
MK=$top_builddir/tests/mkfixture
"$MK" cmod "$F/sample.cmod" && named "$F/sample.cmod" model/x-celestia-cmod
"$MK" bmd "$F/fixture.bmd" && named "$F/fixture.bmd" model/x-j3d-bmd
"$MK" bmt "$F/fixture.bmt" && named "$F/fixture.bmt" application/x-j3d-bmt
"$MK" grezzo cmab "$F/fixture.cmab" && named "$F/fixture.cmab" application/x-grezzo-animation
"$MK" bti i4 "$F/fixture.bti" && named "$F/fixture.bti" image/x-j3d-bti
"$MK" ctxb "$F/fixture.ctxb" && named "$F/fixture.ctxb" image/x-grezzo-ctxb
"$MK" txtr 12 8 "$F/fixture.txtr" && named "$F/fixture.txtr" image/x-rfrm-texture
"$MK" bigtex 8 "$F/fixture.cmb" && named "$F/fixture.cmb" model/x-grezzo-cmb
"$top_builddir/tests/mkpak" "$F/fixture.pak" 5 >/dev/null && named "$F/fixture.pak" application/x-rfrm-pak
for k in rarc:application/x-rarc rarc-yaz0:application/x-rarc zar:application/x-zar \
	gar2:application/x-gar gar5:application/x-gar gar2-lzs:application/x-gar \
	lz10:model/x-celestia-cmod lz11:model/x-celestia-cmod; do
	"$MK" archive "${k%%:*}" "$F/${k%%:*}.bin" && named "$F/${k%%:*}.bin" "${k#*:}"
done
if [ -d "$CORPUS" ]; then
	for f in "$CORPUS"/*/* "$CORPUS"/folder/*/*; do
		# By the path under the corpus: the checkout's own path may hold "/cmod/".
		case /${f#"$CORPUS"/} in
		*/bmd/* | */sms_sky/*.bmd) named "$f" model/x-j3d-bmd ;;
		*/bdl/*) named "$f" model/x-j3d-bdl ;;
		*/sms_sky/*.bmt) named "$f" application/x-j3d-bmt ;;
		*/cmb/*) named "$f" model/x-grezzo-cmb ;;
		*/cmdl/*) named "$f" model/x-rfrm-model ;;
		*/txtr/*.txtr) named "$f" image/x-rfrm-texture ;;
		*/cmod/*) named "$f" model/x-celestia-cmod ;;
		*/cmod_ascii/*) named "$f" model/x-celestia-cmod-ascii ;;
		*/rarc/*) named "$f" application/x-rarc ;;
		*/zar/*) named "$f" application/x-zar ;;
		*/gar/*) named "$f" application/x-gar ;;
		esac
	done
else
	echo "no corpus at $CORPUS: its files are not typed (the fixtures above are)"
fi
# Look-alikes are not ours: a Wii U8 archive named .arc, a Yaz0 SARC named .szs, a Quake
# PAK, an unknown RFRM-like Yaz0.
printf 'U\252\070-\0\0\0\040' >"$WORK/u8.arc"
printf 'Yaz0\0\0\1\0\0\0\0\0\0\0\0\0\377SARC\0\024\376\377' >"$WORK/sarc.szs"
printf 'PACK\0\0\0\014\0\0\0\0' >"$WORK/quake.pak"
for f in u8.arc sarc.szs quake.pak; do
	got=$(type_of "$WORK/$f")
	case $got in
	model/x-* | application/x-rarc | application/x-zar | application/x-gar | application/x-rfrm* | application/x-j3d*)
		not_ok "$f is not ours, yet named $got" ;;
	*) ok "$f is not ours ($got)" ;;
	esac
done

# ---- a session: Xvfb and pcmanfm ----
Xvfb -displayfd 5 -screen 0 1024x768x24 -nolisten tcp 5>"$WORK/display" 2>"$WORK/xvfb.log" &
xvfb=$!
for _ in $(seq 50); do [ -s "$WORK/display" ] && break; sleep 0.1; done
[ -s "$WORK/display" ] || { not_ok "Xvfb starts"; finish; }
export DISPLAY=:$(cat "$WORK/display")
x_cleanup() {
	kill "$xvfb" 2>/dev/null # and with it the pcmanfm windows
	for m in "$WORK"/run/nmodelfs/*; do fusermount3 -u -z "$m" 2>/dev/null; done
	cleanup
}
trap x_cleanup EXIT
# window NAME: a top-level window of that title appears within 20 s (pcmanfm's first
# start on a loaded machine once took over 5 s; a window that comes sooner returns sooner).
window() {
	for _ in $(seq 200); do
		xdotool search --name "^$1\$" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
# mounts_of FILE: how many mounts show FILE.
mounts_of() { findmnt -n -o SOURCE -t fuse.nmodel | grep -cx "$1"; }
until_gone() { # until_gone DIR SECONDS
	for _ in $(seq $(($2 * 10))); do
		mountpoint -q "$1" || return 0
		sleep 0.1
	done
	return 1
}

cp "$F/sample.cmod" "$WORK/home/sample.cmod"
M=$XDG_RUNTIME_DIR/nmodelfs/sample.cmod
export NMODEL_IDLE_TIMEOUT=2 NMODEL_SESSION_POLL=1
gio open "$WORK/home/sample.cmod" >/dev/null 2>"$WORK/open.err"
check "gio open FILE: a file-manager window on the folder" window sample.cmod
check "... which is a mount of FILE at \$XDG_RUNTIME_DIR/nmodelfs/NAME" \
	test "$(findmnt -n -o SOURCE --mountpoint "$M")" = "$WORK/home/sample.cmod"
check "... read-only" test "$(findmnt -n -o VFS-OPTIONS --mountpoint "$M" | cut -d, -f1)" = ro
check "... showing the model" grep -q '^format: ' "$M/info.txt"
gio open "$WORK/home/sample.cmod" >/dev/null 2>>"$WORK/open.err"
sleep 0.5
check "opened again: the mount is reused" test "$(mounts_of "$WORK/home/sample.cmod")" = 1
mkdir -p "$WORK/home/other"
cp "$F/fixture.cmb" "$WORK/home/other/sample.cmod"
gio open "$WORK/home/other/sample.cmod" >/dev/null 2>>"$WORK/open.err"
check "another file of the same name: its own mount beside it (NAME~2)" window "sample.cmod~2"
check "... of that file" test "$(findmnt -n -o SOURCE --mountpoint "$M~2")" = "$WORK/home/other/sample.cmod"
check "... and nothing said" test ! -s "$WORK/open.err"
printf 'J3D2bmd3 but nothing after' >"$WORK/home/broken.bmd"
gio open "$WORK/home/broken.bmd" >/dev/null 2>"$WORK/broken.err"
sleep 1
check "a broken file: nothing mounted" test ! -e "$XDG_RUNTIME_DIR/nmodelfs/broken.bmd"
check "... and the reason said, naming the file" grep -q "^nmodel-open: $WORK/home/broken.bmd: " "$WORK/broken.err"
# The idle timeout: nothing reads the mounts now (the windows stay open).
check "unused for 2 s, the mount goes by itself" until_gone "$M" 6
check "... and so does the other" until_gone "$M~2" 3
sleep 1.5
check "... and their folders" test ! -e "$M" -a ! -e "$M~2"

# Thumbnails: pcmanfm runs data/nmodelfs.thumbnailer for the models in a folder; they
# land in the cache the thumbnail spec names (MD5 of the file's URI).
mkdir -p "$WORK/home/models"
# (Not the J3D fixture: its triangles are slivers along a line, made to exercise the
# parser, and show nothing.)
cp "$F/sample.cmod" "$WORK/home/models/"
if [ -d "$CORPUS" ]; then
	cp "$CORPUS/cmb/fin_oot3d_zelda_cow.cmb" "$WORK/home/models/cow.cmb"
	cp "$CORPUS/bmd/fin_sms_kinopio_body.bmd" "$WORK/home/models/kinopio.bmd"
fi
pcmanfm "$WORK/home/models" >/dev/null 2>&1 &
for f in "$WORK"/home/models/*; do
	thumb=$XDG_CACHE_HOME/thumbnails/normal/$(printf 'file://%s' "$f" | md5sum | cut -d' ' -f1).png
	for _ in $(seq 300); do [ -s "$thumb" ] && break; sleep 0.1; done
	check "pcmanfm shows a thumbnail of $(basename "$f")" test -s "$thumb"
	# A picture, not a blank: part of it opaque, in more than a few colours.
	check "... which shows something" "$PY" - "$thumb" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGBA")
px = list(im.getdata())
opaque = [p for p in px if p[3] > 0]
print(f"  {im.size[0]}x{im.size[1]}, {len(opaque) * 100 // len(px)}% opaque, "
      f"{len(set(opaque))} colours")
sys.exit(0 if len(opaque) * 20 > len(px) and len(set(opaque)) > 8 else 1)
PY
done
# The thumbnailer as a file manager runs it (its Exec line), large: kept in
# tests/desktop-thumbnail.png for a person to look at.
model=$WORK/home/models/sample.cmod
[ -f "$WORK/home/models/cow.cmb" ] && model=$WORK/home/models/cow.cmb
exec_line=$(sed -n 's/^Exec=//p' "$P/share/thumbnailers/nmodelfs.thumbnailer")
cmd=${exec_line//%s/256}
cmd=${cmd//%i/$model}
cmd=${cmd//%o/$WORK/thumb.png}
# shellcheck disable=SC2086 # the Exec line's words, as a file manager splits them
check "the thumbnailer's Exec line writes a PNG" $cmd
check "... 256 pixels square" "$PY" -c "
from PIL import Image; import sys
sys.exit(0 if Image.open('$WORK/thumb.png').size == (256, 256) else 1)"
cp "$WORK/thumb.png" "$top_builddir/tests/desktop-thumbnail.png" 2>/dev/null
cmd=${exec_line//%s/128}
cmd=${cmd//%i/$F/rarc.bin}
cmd=${cmd//%o/$WORK/archive.png}
# shellcheck disable=SC2086
check "... and fails, writing none, for an archive (no model.glb)" \
	bash -c "! $cmd 2>/dev/null && test ! -e '$WORK/archive.png'"

# The end of the session: a mount still in use is unmounted when the X display goes.
export NMODEL_IDLE_TIMEOUT=600
gio open "$F/sample.cmod" >/dev/null 2>>"$WORK/open.err"
M=$XDG_RUNTIME_DIR/nmodelfs/sample.cmod
check "a mount that idle_timeout would keep for 10 minutes" window sample.cmod
kill "$xvfb"
wait "$xvfb" 2>/dev/null
check "... goes when the X session ends" until_gone "$M" 4
sleep 1.5
check "... with its folder" test ! -e "$M"

make_here uninstall >"$WORK/uninstall.log" 2>&1
check "make uninstall" test $? -eq 0
left=$(find "$P" -type f | sed "s|^$P/||")
check "... leaves none of it (left: ${left:-nothing})" test -z "$left"
finish
