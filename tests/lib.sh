# Shared by the shell tests: where things are, assertions, and mounting with cleanup.
set -u
top_builddir=${top_builddir:-$(cd "$(dirname "$0")/.." && pwd)}
top_srcdir=${top_srcdir:-$top_builddir}
NMODEL=$top_builddir/nmodel
MOUNT=$top_builddir/mount.nmodel
CORPUS=$top_srcdir/../shared/corpus
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nmodelfs-test.XXXXXX")
# Where a daemon without syslog logs (mount.nmodel(8)): here, not in the user's home.
export XDG_STATE_HOME=$WORK/state
MOUNTS=""
passed=0
failed=0

cleanup() {
	for m in $MOUNTS; do
		mountpoint -q "$m" 2>/dev/null && fusermount3 -u "$m" 2>/dev/null
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

ok() { passed=$((passed + 1)); printf 'ok   %s\n' "$*"; }
not_ok() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
skip_all() { echo "SKIP: $*"; exit 77; }

# fails STATUS EXPECTED COMMAND...: COMMAND exits STATUS and prints EXPECTED (one line,
# exactly) on stderr and nothing on stdout. What it prints is also added to $WORK/errors,
# for all_errors_start_with.
fails() {
	local want_rc=$1 want=$2 out err rc
	shift 2
	out=$("$@" 2>"$WORK/err"); rc=$?
	err=$(cat "$WORK/err")
	cat "$WORK/err" >> "$WORK/errors"
	[ "$rc" -eq "$want_rc" ] && [ "$err" = "$want" ] && [ -z "$out" ] && return 0
	echo "  exit $rc, stderr: $err"
	return 1
}
# all_errors_start_with PREFIX: every line fails saw starts with PREFIX (and there were some).
all_errors_start_with() {
	[ -s "$WORK/errors" ] && ! grep -v "^$1" "$WORK/errors"
}

# What a file that no driver reads is told to be instead: the drivers' names, as
# `nmodel formats` lists them.
expected_formats() {
	"$NMODEL" formats | awk '{ printf "%s%s", (NR > 1 ? ", " : "expected one of "), $1 }
		END { printf ": nmodel formats" }'
}

# The sample model the project writes itself.
sample() {
	[ -f "$WORK/sample.cmod" ] || "$top_builddir/tests/mkfixture" cmod "$WORK/sample.cmod"
	echo "$WORK/sample.cmod"
}

# Corpus folders whose format has a driver (so a new driver is tested as soon as it lands).
corpus_files() {
	[ -d "$CORPUS" ] || return 0
	local formats
	formats=$("$NMODEL" formats | awk '{print $1}')
	for f in $formats; do
		case $f in
		cmod) ls "$CORPUS"/cmod/*.cmod "$CORPUS"/cmod_ascii/*.cmod ;;
		cmb) ls "$CORPUS"/cmb/*.cmb ;;
		j3d) ls "$CORPUS"/bmd/*.bmd "$CORPUS"/bdl/*.bdl ;;
		rfrm) ls "$CORPUS"/cmdl/* "$CORPUS"/txtr/*.txtr ;;
		rarc) ls "$CORPUS"/rarc/* ;;
		zar) ls "$CORPUS"/zar/* ;;
		gar) ls "$CORPUS"/gar/* ;;
		esac
	done 2>/dev/null
}

fuse_usable() {
	[ -c /dev/fuse ] && command -v fusermount3 >/dev/null 2>&1
}

# mount_model FILE DIR [OPTION...]: mount in the background (the real daemon path); 0 on
# success.
mount_model() {
	mkdir -p "$2"
	"$MOUNT" "$@" || return 1
	MOUNTS="$MOUNTS $2"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		mountpoint -q "$2" && return 0
		sleep 0.1
	done
	return 1
}

# daemon_pid FILE DIR: the pid of the mount.nmodel serving FILE on DIR.
daemon_pid() { pgrep -n -f "mount.nmodel $1 $2"; }

unmount_model() {
	fusermount3 -u "$1"
}

# The Khronos glTF-Validator (npm gltf-validator), installed once into the build tree:
# sets VALIDATOR to its module's folder, or skips the test saying why.
need_gltf_validator() {
	local version=2.0.0-dev.3.10 cache=$top_builddir/tests/.cache/gltf-validator
	command -v node >/dev/null || skip_all "node is not installed (scripts/deps installs nodejs and npm)"
	if [ ! -f "$cache/node_modules/gltf-validator/package.json" ]; then
		command -v npm >/dev/null || skip_all "npm is not installed (scripts/deps installs it)"
		mkdir -p "$cache"
		npm install --silent --no-audit --no-fund --prefix "$cache" "gltf-validator@$version" \
			>"$WORK/npm.log" 2>&1 ||
			skip_all "npm could not install gltf-validator@$version: $(tail -1 "$WORK/npm.log")"
	fi
	VALIDATOR=$cache/node_modules/gltf-validator
}

# Edits of $WORK/t, the tree of model $F as extracted (tests/apply*.sh). OUT is named
# for NAME with F's extension.
# edit NAME FILE-IN-TREE SED: DIR $WORK/e-NAME holds only that file, edited.
edit() {
	mkdir -p "$WORK/e-$1/$(dirname "$2")"
	sed "$3" "$WORK/t/$2" > "$WORK/e-$1/$2"
}
# applied NAME: apply, extract OUT, and list the files that differ from FILE's tree.
applied() {
	"$NMODEL" apply "$F" "$WORK/e-$1" "$WORK/o-$1.${F##*.}" || return 1
	"$NMODEL" extract "$WORK/o-$1.${F##*.}" "$WORK/x-$1" >/dev/null || return 1
	diff -rq "$WORK/t" "$WORK/x-$1" | sed "s|^Files $WORK/t/\([^ ]*\) and .*|\1|" | sort | tr '\n' ' '
}
# refused NAME EXPECTED-PREFIX: apply exits 1, writes no OUT, and its message begins
# with "nmodel: EXPECTED-PREFIX" (a grep pattern).
refused() {
	local out="$WORK/r-$1.${F##*.}"
	"$NMODEL" apply "$F" "$WORK/e-$1" "$out" 2>"$WORK/err-$1" >/dev/null
	local rc=$?
	[ $rc -eq 1 ] && [ ! -e "$out" ] && grep -q "^nmodel: $2" "$WORK/err-$1" && return 0
	echo "  exit $rc: $(cat "$WORK/err-$1")"
	return 1
}
