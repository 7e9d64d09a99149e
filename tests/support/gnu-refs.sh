#!/usr/bin/env bash
# gnu-refs.sh VERSION DEST                  GNU ls VERSION, ready to run, as DEST/ls
# gnu-refs.sh --patch VERSION DEST BIN OUT  a copy of BIN at OUT that runs on
#                                           the same C library as DEST/ls
#
# The reference `ls` of each GNU coreutils version statls emulates, taken
# from Debian's package archive with the C library it was built against:
#
#   8.32  bullseye   runs on the host's C library (see HOST_LIBC below)
#   9.1   the host's /bin/ls (Debian 12), checked to be 9.1
#   9.7   trixie     runs on trixie's C library
#   9.10  sid        runs on sid's C library
#
# The packages are fetched with `apt-get download` from a private apt state
# (tests/support/apt-private.sh)
# under DEST (own sources list, lists, cache, an empty dpkg status so that
# the suite's version is the candidate; the host's apt state is neither
# read nor written), unpacked with `dpkg-deb -x` into DEST/root, and a copy
# of the ls is pointed at the unpacked loader and library directory with
# patchelf (DT_RPATH, which also covers libselinux's own dependencies).
# Locale archives, message catalogs and time zones stay the host's.
#
# DEST (e.g. target/gnu-refs/9.7) is a cache: a complete one is reused at
# once; it is built under a lock (DEST.lock), so concurrent callers do not
# race.  Prints DEST/ls (or OUT) on stdout.
#
# Exit status: 0 done; 2 usage; 3 the archive could not be reached (or no
# longer carries VERSION); 4 a tool is missing (apt-get, dpkg-deb,
# patchelf, flock); 1 anything else.
set -euo pipefail
export LC_ALL=C

# The private apt state (apt_private, need_tool, ...): shared with gnu-suite.sh.
. "$(dirname "${BASH_SOURCE[0]}")/apt-private.sh"
PACKAGES=(coreutils libc6 libselinux1 libpcre2-8-0 libcap2)
# Versions whose ls runs on the host's C library rather than its own.
# 8.32: bullseye's glibc 2.31 is older than what the Rust standard library
# links against (GLIBC_2.34+ symbols), so statls cannot run on it; GNU ls
# 8.32 runs unchanged on the host's newer glibc, and both are compared there.
HOST_LIBC=" 8.32 "

trap 'echo "gnu-refs: line $LINENO failed: $BASH_COMMAND" >&2' ERR

die() { local rc=$1; shift; echo "gnu-refs: $*" >&2; exit "$rc"; }
usage() { die 2 "usage: gnu-refs.sh VERSION DEST | gnu-refs.sh --patch VERSION DEST BINARY OUT"; }

suite_of() {
  case $1 in
    8.32) echo bullseye ;;
    9.7) echo trixie ;;
    9.10) echo sid ;;
    9.1) echo host ;;
    *) die 2 "unsupported version '$1' (8.32, 9.1, 9.7 or 9.10)" ;;
  esac
}

# fetch SUITE DIR — downloads the packages into DIR/debs.
fetch() {
  local suite=$1 dir=$2 a=$2/apt
  mkdir -p "$dir/debs"
  apt_private_update "$a" deb "$suite"
  apt_private_coreutils "$a" "$suite" "$VERSION" show >/dev/null
  if ! (cd "$dir/debs" && apt_private apt-get "$a" download "${PACKAGES[@]}") >"$a/download.log" 2>&1; then
    tail -n 5 "$a/download.log" >&2
    die 3 "cannot download ${PACKAGES[*]} from Debian $suite: GNU ls $VERSION not fetched"
  fi
}

# unpack DIR — DIR/debs into DIR/root; prints the ls found there.
unpack() {
  local dir=$1 deb ls
  mkdir -p "$dir/root"
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
  for ls in "$dir/root/usr/bin/ls" "$dir/root/bin/ls"; do
    [ -f "$ls" ] && { echo "$ls"; return; }
  done
  die 1 "no ls in the unpacked coreutils package ($dir/root)"
}

# libc_of ROOT — "LOADER LIBDIRS" of the unpacked C library (final paths).
libc_of() {
  local root=$1 d loader='' dirs=''
  for d in "$root/usr/lib/x86_64-linux-gnu" "$root/lib/x86_64-linux-gnu"; do
    [ -d "$d" ] || continue
    dirs=${dirs:+$dirs:}$d
    [ -z "$loader" ] && [ -e "$d/ld-linux-x86-64.so.2" ] && loader=$d/ld-linux-x86-64.so.2
  done
  [ -n "$loader" ] || die 1 "no ld-linux-x86-64.so.2 unpacked under $root"
  echo "$loader $dirs"
}

# relink BIN OUT LIBC — OUT is BIN running on LIBC ("host" or "LOADER DIRS").
relink() {
  local bin=$1 out=$2 libc=$3 tmp=$2.tmp.$$
  cp -- "$bin" "$tmp"
  chmod 0755 "$tmp"
  if [ "$libc" != host ]; then
    patchelf --set-interpreter "${libc%% *}" --force-rpath --set-rpath "${libc#* }" "$tmp"
    # The loader reports missing libraries and too old a C library
    # (`version GLIBC_2.34 not found`) without running the program.
    local trace
    if ! trace=$(LD_TRACE_LOADED_OBJECTS=1 "$tmp" 2>&1) || grep -q 'not found' <<<"$trace"; then
      rm -f -- "$tmp"
      die 1 "$bin cannot run on the C library of GNU ls $VERSION: $(grep 'not found' <<<"$trace" | head -n 3)"
    fi
  fi
  mv -f -- "$tmp" "$out"
}

# prepare DEST — builds DEST (unless complete) and prints DEST/ls.  The
# marker DEST/complete is written last: a build cut short is redone.
prepare() {
  local dest=$1 suite ls libc first own_libc
  suite=$(suite_of "$VERSION")
  if [ -f "$dest/complete" ]; then echo "$dest/ls"; return; fi
  need_tool flock util-linux
  mkdir -p "$(dirname "$dest")"
  exec 9>"$dest.lock"
  flock 9
  if [ -f "$dest/complete" ]; then echo "$dest/ls"; return; fi
  rm -rf -- "$dest"
  mkdir -p "$dest"
  libc=host
  if [ "$suite" = host ]; then
    /bin/ls --version 2>/dev/null | head -n 1 | grep -qx "ls (GNU coreutils) $VERSION" ||
      die 1 "/bin/ls is not GNU ls $VERSION"
    ls=/bin/ls
  else
    need_tool apt-get
    need_tool dpkg-deb
    case $HOST_LIBC in *" $VERSION "*) own_libc=0 ;; *) own_libc=1 ;; esac
    [ "$own_libc" = 0 ] || need_tool patchelf "apt-get install patchelf"
    [ "$(uname -m)" = x86_64 ] || die 1 "only x86_64 is supported"
    fetch "$suite" "$dest"
    rm -rf -- "$dest/apt"
    ls=$(unpack "$dest")
    printf '%s\n' "$dest"/debs/*.deb | sed 's|.*/||' >"$dest/packages"
    rm -rf -- "$dest/debs"
    if [ "$own_libc" = 1 ]; then libc=$(libc_of "$dest/root"); fi
  fi
  relink "$ls" "$dest/ls" "$libc"
  echo "$libc" >"$dest/libc"
  first=$("$dest/ls" --version | head -n 1)
  [ "$first" = "ls (GNU coreutils) $VERSION" ] ||
    die 1 "$dest/ls --version says '$first', not GNU ls $VERSION"
  echo "$VERSION" >"$dest/complete"
  echo "$dest/ls"
}

abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

if [ "${1:-}" = --patch ]; then
  [ $# -eq 5 ] || usage
  VERSION=$2
  APT_WHAT="GNU ls $VERSION"
  dest=$(abs "$3")
  prepare "$dest" >/dev/null
  [ -f "$4" ] || die 1 "no binary $4 to patch"
  libc=$(<"$dest/libc")
  [ "$libc" = host ] || need_tool patchelf "apt-get install patchelf"
  relink "$4" "$5" "$libc"
  echo "$5"
else
  [ $# -eq 2 ] || usage
  VERSION=$1
  APT_WHAT="GNU ls $VERSION"
  prepare "$(abs "$2")"
fi
