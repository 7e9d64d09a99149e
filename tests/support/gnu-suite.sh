#!/usr/bin/env bash
# gnu-suite.sh RELEASE       (RELEASE: 8.32, 9.1, 9.7 or 9.10)
#
# GNU coreutils' own tests of ls, run on GNU's ls and on statls emulating
# it.  The release's source package is taken from Debian's archive
#
#   8.32  bullseye    9.1  bookworm    9.7  trixie    9.10  sid
#
# with a private apt state (tests/support/apt-private.sh, shared with
# gnu-refs.sh), unpacked with `dpkg-source -x` so that Debian's patches are
# applied (users run Debian's builds: 8.32's restore-ls-behavior-8.31.patch
# changes ls), configured with --prefix=/usr and, as Debian builds them,
# with libcap for 9.7 only (--disable-libcap for 8.32, 9.1 and 9.10, else
# configure takes libcap wherever its header is installed), and built with
# `make -j2`, all of src/: the tests take the tree's programs from PATH.
#
# The tests: every test of tests/local.mk under tests/ls/, tests/misc/ls-*,
# tests/misc/usage_vs_refs.sh, tests/*/help-version*, and every other test
# that names ls in its print_ver_ line or runs `ls` (as a helper: statls
# then serves the test of another program).  They run through the tree's
# own harness (make check SUBDIRS=. VERBOSE=no RUN_EXPENSIVE_TESTS=yes
# TESTS=...), once with the release's own src/ls and once with statls in
# its place (tests/support/ls-wrapper.c, compiled here: sets
# STATLS_GNU_VERSION=RELEASE and runs statls with argv[0] "ls"); as root
# and as the unprivileged user statls-suite (created with useradd when
# missing, and put in the group users as a second group; the tree is
# handed to it with chown), or, when not run as root, as the caller only.
# Per test, statls's result must be GNU's in the same environment (a test
# whose results differ is run again both ways, and the second results
# stand: some depend on timing), unless tests/cases/gnu-suite-exceptions.txt
# lists the test for RELEASE with the result statls gives.  The table
# (test, GNU and statls result per user) is printed and written to
# target/gnu-suite/RELEASE/results.txt; every test's log goes to
# target/gnu-suite/RELEASE/logs/USER-LS/.
#
# Cache and lock: the build goes to target/gnu-suite/RELEASE/tree; a
# complete one (marker target/gnu-suite/RELEASE/complete) is reused at once.
# The whole script, build and runs, holds a lock (target/gnu-suite/
# RELEASE.lock), so concurrent callers do not race; they wait.
#
# Environment: STATLS_BIN (default target/release/ls, which must be built),
# GNU_SUITE_DIR (default target/gnu-suite), GNU_SUITE_JOBS (make -j of the
# test runs, default 2), GNU_REFS_MIRROR (see apt-private.sh).  Variables
# STATLS_* other than STATLS_BIN are removed before the tests run.
#
# Exit status: 0 statls's results are GNU's (but for listed exceptions);
# 5 they differ somewhere; 2 usage; 3 the archive could not be reached (or
# no longer carries RELEASE); 4 a tool or header is missing (apt-get,
# dpkg-source, a C compiler, make, flock, setpriv, libcap's header for
# 9.7), or statls is not built; 1 anything else (the build failed, ...).
set -euo pipefail

trap 'echo "gnu-suite: line $LINENO failed: $BASH_COMMAND" >&2' ERR
die() { local rc=$1; shift; echo "gnu-suite: $*" >&2; exit "$rc"; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/apt-private.sh"

[ $# -eq 1 ] || die 2 "usage: gnu-suite.sh RELEASE (8.32, 9.1, 9.7 or 9.10)"
RELEASE=$1
case $RELEASE in
  8.32) SUITE=bullseye CONFIGURE=(--disable-libcap) ;;
  9.1) SUITE=bookworm CONFIGURE=(--disable-libcap) ;;
  9.7) SUITE=trixie CONFIGURE=() ;;
  9.10) SUITE=sid CONFIGURE=(--disable-libcap) ;;
  *) die 2 "unsupported release '$RELEASE' (8.32, 9.1, 9.7 or 9.10)" ;;
esac
APT_WHAT="GNU coreutils $RELEASE's source"
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
BASE=$(abs "${GNU_SUITE_DIR:-$ROOT/target/gnu-suite}")
DEST=$BASE/$RELEASE
TREE=$DEST/tree
STATLS=$(abs "${STATLS_BIN:-$ROOT/target/release/ls}")
EXCEPTIONS=$ROOT/tests/cases/gnu-suite-exceptions.txt
SUITE_USER=statls-suite
JOBS=${GNU_SUITE_JOBS:-2}
for v in $(compgen -e); do
  case $v in STATLS_*) unset "$v" ;; esac
done

[ -x "$STATLS" ] || die 4 "no statls at $STATLS (cargo build --release, or set STATLS_BIN)"
need_tool flock util-linux
need_tool make
need_tool cc "apt-get install build-essential"
need_tool dpkg-source "apt-get install dpkg-dev"

mkdir -p "$BASE"
exec 9>"$DEST.lock"
flock 9

# build — the release's tree, built (unless complete); src/ls.gnu is its ls.
build() {
  local v dsc start=$SECONDS
  [ -f "$DEST/complete" ] && return
  if [ "$RELEASE" = 9.7 ] && [ ! -e /usr/include/sys/capability.h ]; then
    die 4 "libcap's header is missing (apt-get install libcap-dev): GNU coreutils 9.7 is built with libcap"
  fi
  rm -rf -- "$DEST"
  mkdir -p "$DEST/dl"
  apt_private_update "$DEST/apt" deb-src "$SUITE"
  v=$(apt_private_coreutils "$DEST/apt" "$SUITE" "$RELEASE" showsrc)
  if ! (cd "$DEST/dl" && apt_private apt-get "$DEST/apt" source --download-only "coreutils=$v") \
      >"$DEST/apt/source.log" 2>&1; then
    tail -n 5 "$DEST/apt/source.log" >&2
    die 3 "cannot download the source of coreutils $v from Debian $SUITE"
  fi
  dsc=$DEST/dl/coreutils_${v#*:}.dsc
  [ -f "$dsc" ] || die 1 "no $dsc after apt-get source"
  echo "gnu-suite: building coreutils $v (log: $DEST/build.log)" >&2
  dpkg-source -x "$dsc" "$TREE" >"$DEST/build.log" 2>&1 ||
    { tail -n 5 "$DEST/build.log" >&2; die 1 "dpkg-source -x $dsc failed"; }
  # dpkg-source leaves a copy of the upstream tarball beside the tree.
  rm -rf -- "$DEST/dl" "$DEST/apt" "$DEST"/coreutils_*
  # configure refuses root unless told (it probes mknod on fifos).
  if ! (cd "$TREE" && FORCE_UNSAFE_CONFIGURE=1 nice -n 10 ./configure --prefix=/usr \
        "${CONFIGURE[@]}" && nice -n 10 make -j2) >>"$DEST/build.log" 2>&1; then
    tail -n 20 "$DEST/build.log" >&2
    die 1 "building coreutils $v failed (log: $DEST/build.log)"
  fi
  "$TREE/src/ls" --version | head -n 1 | grep -qx "ls (GNU coreutils) $RELEASE" ||
    die 1 "$TREE/src/ls is not GNU ls $RELEASE"
  cp -p -- "$TREE/src/ls" "$TREE/src/ls.gnu"
  echo "coreutils $v built in $((SECONDS - start)) s" >"$DEST/complete"
  cat "$DEST/complete" >&2
}

# select_tests — the tests of ls in the tree (see the header), one a line.
select_tests() {
  local t
  for t in $(grep -oE 'tests/[a-z0-9_-]+/[A-Za-z0-9_.+-]+\.(sh|pl|xpl)' "$TREE/tests/local.mk" | sort -u); do
    [ -f "$TREE/$t" ] || continue
    case $t in
      tests/ls/* | tests/misc/ls-* | tests/misc/usage_vs_refs.sh | tests/*/help-version*)
        echo "$t"; continue ;;
    esac
    if grep -qE 'print_ver_.*[[:space:]]ls([[:space:]]|$)' "$TREE/$t" ||
       grep -qE '(^|[[:space:];|(`])ls([[:space:]]|\)|$)' "$TREE/$t"; then
      echo "$t"
    fi
  done
}

# wrapper — compiles ls-wrapper.c for this release and statls.
wrapper() {
  local out=$DEST/ls-wrapper flags
  flags=(-O2 -Wall -DSTATLS="\"$STATLS\"" -DGNU_VERSION="\"$RELEASE\"")
  if ! cc -static "${flags[@]}" -o "$out" "$HERE/ls-wrapper.c" 2>"$DEST/wrapper.log"; then
    cc "${flags[@]}" -o "$out" "$HERE/ls-wrapper.c" 2>>"$DEST/wrapper.log" ||
      { cat "$DEST/wrapper.log" >&2; die 1 "cannot compile $HERE/ls-wrapper.c"; }
  fi
  "$out" --version | grep -q "GNU ls $RELEASE compatible" ||
    die 1 "statls ($STATLS) with STATLS_GNU_VERSION=$RELEASE does not say it is GNU ls $RELEASE compatible"
}

# unprivileged — whether the tests can run as $SUITE_USER (created if
# missing); says why not on stderr.
unprivileged() {
  need_tool setpriv util-linux
  if ! id -u "$SUITE_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$SUITE_USER" ||
      { echo "gnu-suite: cannot create the user $SUITE_USER" >&2; return 1; }
  fi
  # A second group: the tests of chgrp (which list with ls) need two.
  if [ "$(id -G "$SUITE_USER" | wc -w)" -lt 2 ] && getent group users >/dev/null; then
    usermod -a -G users "$SUITE_USER" || echo "gnu-suite: cannot add $SUITE_USER to the group users" >&2
  fi
  mkdir -p "$DEST/home"
  chown -R "$SUITE_USER:" "$TREE" "$DEST/home"
  as_user test -w "$TREE" -a -x "$STATLS" -a -x "$DEST/ls-wrapper" || {
    echo "gnu-suite: $SUITE_USER cannot reach $TREE or $STATLS (a parent directory closed to others?)" >&2
    return 1
  }
}

as_user() {
  setpriv --reuid="$SUITE_USER" --regid="$SUITE_USER" --init-groups \
    env HOME="$DEST/home" USER="$SUITE_USER" LOGNAME="$SUITE_USER" "$@"
}

# run WHO LS [TEST...] — the selected tests (or the TESTs) as WHO (root,
# user or self) with LS (gnu or statls) as src/ls; results to
# $DEST/runs/WHO-LS (test and result a line; a run of some TESTs replaces
# their lines), logs to $DEST/logs/WHO-LS/.
run() {
  local who=$1 ls=$2 label=$1-$2 start=$SECONDS t r bin tests
  shift 2
  tests=("$@")
  [ $# -gt 0 ] || tests=("${TESTS[@]}")
  local cmd=(nice -n 10 make -j"$JOBS" check SUBDIRS=. VERBOSE=no RUN_EXPENSIVE_TESTS=yes "TESTS=${tests[*]}")
  case $ls in gnu) bin=$TREE/src/ls.gnu ;; statls) bin=$DEST/ls-wrapper ;; esac
  cp -f -- "$bin" "$TREE/src/ls"
  # As old as the built ls: make must not rebuild it.
  touch -r "$TREE/src/ls.gnu" "$TREE/src/ls"
  if [ "$who" = user ]; then chown "$SUITE_USER:" "$TREE/src/ls"; fi
  if [ $# -eq 0 ]; then rm -rf -- "$DEST/logs/$label"; fi
  mkdir -p "$DEST/logs/$label" "$DEST/runs"
  case $who in
    user) (cd "$TREE" && as_user "${cmd[@]}") ;;
    *) (cd "$TREE" && "${cmd[@]}") ;;
  esac >"$DEST/logs/$label/make.log" 2>&1 || true
  cmp -s -- "$bin" "$TREE/src/ls" || die 1 "make replaced src/ls during the $label run"
  for t in "${tests[@]}"; do
    r=$(sed -n 's/^:global-test-result: //p' "$TREE/${t%.*}.trs" 2>/dev/null | head -n 1)
    echo "$t ${r:-NONE}"
    if [ -f "$TREE/${t%.*}.log" ]; then
      cp -- "$TREE/${t%.*}.log" "$DEST/logs/$label/$(echo "${t%.*}" | tr / _).log"
    fi
  done >"$DEST/runs/$label.new"
  if [ $# -gt 0 ]; then
    awk 'NR == FNR { r[$1] = $2; next } { print $1, ($1 in r ? r[$1] : $2) }' \
      "$DEST/runs/$label.new" "$DEST/runs/$label" >"$DEST/runs/$label.merged"
    mv -f -- "$DEST/runs/$label.merged" "$DEST/runs/$label.new"
  fi
  mv -f -- "$DEST/runs/$label.new" "$DEST/runs/$label"
  echo "gnu-suite: $RELEASE as $who with $ls's ls${1:+ (${#tests[@]} again)}: $(summary "$DEST/runs/$label") ($((SECONDS - start)) s)" >&2
}

# result WHO LS TEST — TEST's result in the run WHO-LS.
result() { awk -v t="$3" '$1 == t { print $2 }' "$DEST/runs/$1-$2"; }

# differing WHO — the tests whose results as WHO differ, but for exceptions.
differing() {
  local t s
  for t in "${TESTS[@]}"; do
    s=$(result "$1" statls "$t")
    if [ "$(result "$1" gnu "$t")" != "$s" ] && [ -z "$(exception "$t" "$s")" ]; then
      echo "$t"
    fi
  done
}

# both WHO — every test as WHO with GNU's ls, then with statls; a test
# whose results differ is run once more both ways, and the second results
# stand (a test that depends on timing may fail once on either), with a
# note in $DEST/runs/again.
both() {
  local again
  run "$1" gnu
  run "$1" statls
  mapfile -t again < <(differing "$1")
  [ ${#again[@]} -gt 0 ] || return 0
  echo "gnu-suite: as $1, ${#again[@]} differing: run again both ways: ${again[*]}" >&2
  run "$1" gnu "${again[@]}"
  run "$1" statls "${again[@]}"
  echo "note: as $1, run twice (their first results differed): ${again[*]}" >>"$DEST/runs/again"
}

# summary FILE — counts of the results in FILE.
summary() {
  awk '{ n[$2]++ } END { s = ""; split("PASS FAIL SKIP XFAIL XPASS ERROR NONE", k, " ");
        for (i = 1; i <= 7; i++) if (n[k[i]] || i <= 3) s = s sprintf("%s%d %s", s == "" ? "" : ", ", n[k[i]], k[i]);
        print s }' "$1"
}

# exception TEST RESULT — the reason listed for TEST giving RESULT under
# statls in this release, if any.
exception() {
  [ -f "$EXCEPTIONS" ] || return 0
  awk -v rel="$RELEASE" -v t="$1" -v r="$2" '
    /^[[:space:]]*(#|$)/ { next }
    $1 "" == rel "" && $2 == t && $3 == r { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$EXCEPTIONS"
}

# compare WHO... — prints the table and writes it to $DEST/results.txt;
# returns 5 when statls's results differ from GNU's but for exceptions.
compare() {
  local who t g s r line mark reason excepted differs differ=0 used='' out=$DEST/results.txt
  {
    echo "GNU coreutils $RELEASE's tests of ls: GNU's ls vs statls (STATLS_GNU_VERSION=$RELEASE)"
    printf '%-40s' test
    for who in "$@"; do printf ' %-8s %-8s' "$who:GNU" "statls"; done
    echo
    for t in "${TESTS[@]}"; do
      line=$(printf '%-40s' "$t") excepted='' differs='' reason=''
      for who in "$@"; do
        g=$(result "$who" gnu "$t")
        s=$(result "$who" statls "$t")
        line+=$(printf ' %-8s %-8s' "$g" "$s")
        [ "$g" = "$s" ] && continue
        r=$(exception "$t" "$s")
        if [ -n "$r" ]; then
          excepted+=" $who" reason=$r used+=" $t"
        else
          differs+=" $who" differ=1
        fi
      done
      mark=''
      differs=${differs# } excepted=${excepted# }
      [ -z "$differs" ] || mark+="  DIFFERS (as ${differs// /, })"
      [ -z "$excepted" ] || mark+="  listed exception (as ${excepted// /, }): $reason"
      echo "$line$mark"
    done
    for who in "$@"; do
      echo "as $who: GNU's ls $(summary "$DEST/runs/$who-gnu"); statls $(summary "$DEST/runs/$who-statls")"
    done
    if [ -f "$DEST/runs/again" ]; then cat "$DEST/runs/again"; fi
    if [ -f "$EXCEPTIONS" ]; then
      awk -v rel="$RELEASE" '!/^[[:space:]]*(#|$)/ && $1 "" == rel "" { print $2 }' "$EXCEPTIONS" |
        while read -r t; do
          case " $used " in *" $t "*) ;; *) echo "note: the exception for $t was not needed in this run" ;; esac
        done
    fi
    if [ "$differ" = 1 ]; then
      echo "statls differs from GNU ls $RELEASE (logs: $DEST/logs/)"
    else
      echo "statls gives GNU ls $RELEASE's results"
    fi
  } >"$out"
  cat "$out"
  return $((differ * 5))
}

build
mapfile -t TESTS < <(select_tests)
[ ${#TESTS[@]} -gt 0 ] || die 1 "no tests of ls found in $TREE/tests/local.mk"
printf '%s\n' "${TESTS[@]}" >"$DEST/tests.txt"
echo "gnu-suite: ${#TESTS[@]} tests of ls in coreutils $RELEASE (list: $DEST/tests.txt)" >&2
wrapper
WHO=()
rm -f -- "$DEST/runs/again"
if [ "$(id -u)" = 0 ]; then
  both root
  WHO+=(root)
  if unprivileged; then
    both user
    WHO+=(user)
  else
    echo "gnu-suite: SKIPPED the unprivileged runs of $RELEASE (see above)" >&2
  fi
else
  both self
  WHO+=(self)
fi
cp -f -- "$TREE/src/ls.gnu" "$TREE/src/ls"
touch -r "$TREE/src/ls.gnu" "$TREE/src/ls"
compare "${WHO[@]}" || exit $?
