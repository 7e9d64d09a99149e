# apt-private.sh — sourced, not run (`. tests/support/apt-private.sh`).
#
# apt-get and apt-cache with all of their state in a private directory, for
# the scripts that take GNU coreutils from Debian's archive: gnu-refs.sh
# (binary packages) and gnu-suite.sh (source packages).  The host's apt
# state is neither read nor written: an own sources list (one suite, signed
# by the Debian archive keyring), lists, cache, and an empty dpkg status so
# that the suite's version is the candidate; no lock is taken (callers hold
# their own flock on the directory that holds the state).
#
# The sourcing script defines `die RC MESSAGE...` and sets APT_WHAT (what is
# being prepared, for messages, e.g. "GNU ls 9.7").  These functions leave
# through die with status 3 (the archive cannot be reached, or its suite no
# longer carries the version) or 4 (apt-get or the keyring is missing).
#
# GNU_REFS_MIRROR overrides the mirror (default http://deb.debian.org/debian).

APT_MIRROR=${GNU_REFS_MIRROR:-http://deb.debian.org/debian}
APT_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# need_tool PROGRAM [HINT] — dies (4) unless PROGRAM is on PATH.
need_tool() {
  command -v "$1" >/dev/null 2>&1 ||
    die 4 "$1 is not installed${2:+ ($2)}: cannot prepare $APT_WHAT"
}

# apt_private PROGRAM DIR ARGS... — apt-get or apt-cache with all of its
# state under DIR.
apt_private() {
  local prog=$1 a=$2; shift 2
  "$prog" -q \
    -o Dir::Etc::SourceList="$a/sources.list" \
    -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State="$a/state" \
    -o Dir::State::Lists="$a/lists" \
    -o Dir::State::status="$a/status" \
    -o Dir::Cache="$a/cache" \
    -o Debug::NoLocking=1 \
    -o APT::Sandbox::User=root \
    -o Acquire::Languages=none \
    -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false \
    -o Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false \
    -o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false \
    -o Acquire::IndexTargets::deb::DEP-11-icons-hidpi::DefaultEnabled=false \
    -o Acquire::Retries=2 \
    -o Acquire::http::Timeout=30 \
    "$@"
}

# apt_private_update DIR TYPE SUITE — a fresh private state in DIR whose
# only source is `TYPE ... SUITE main` (TYPE deb or deb-src), its lists
# fetched.
apt_private_update() {
  local a=$1 type=$2 suite=$3
  need_tool apt-get
  [ -r "$APT_KEYRING" ] || die 4 "$APT_KEYRING is missing (apt-get install debian-archive-keyring)"
  mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/state"
  : >"$a/status"
  echo "$type [signed-by=$APT_KEYRING] $APT_MIRROR $suite main" >"$a/sources.list"
  echo "${0##*/}: fetching $APT_WHAT from Debian $suite ($APT_MIRROR)" >&2
  if ! apt_private apt-get "$a" update --error-on=any >"$a/update.log" 2>&1; then
    tail -n 5 "$a/update.log" >&2
    die 3 "cannot reach the Debian archive ($APT_MIRROR, suite $suite): $APT_WHAT not fetched"
  fi
}

# apt_private_coreutils DIR SUITE VERSION QUERY — prints the suite's
# coreutils version (QUERY: show for the binary package, showsrc for the
# source); dies (3) unless it is VERSION-something (sid moves on).
apt_private_coreutils() {
  local a=$1 suite=$2 want=$3 query=$4 v
  v=$(apt_private apt-cache "$a" "$query" coreutils 2>/dev/null | sed -n 's/^Version: //p' | head -n 1) || true
  case $v in
    "$want"-*) echo "$v" ;;
    '') die 3 "Debian $suite lists no coreutils: $APT_WHAT not fetched" ;;
    *) die 3 "Debian $suite now carries coreutils $v, not $want: update the table in $0 (snapshot.debian.org keeps old versions)" ;;
  esac
}
