#!/usr/bin/env bash
# libc-sysroot.sh SUITE ARCH DEST
#
# Unpacks Debian SUITE's C library (libc6) for ARCH into DEST, a sysroot
# (DEST/lib/..., DEST/usr/lib/...), for running a release binary on another
# C library or architecture (tests/release.rs). The package comes from
# Debian's archive by apt-get download with a private apt state in DEST.apt:
# the system's sources, lists and package state are neither read nor
# changed. Done once: a DEST with a .complete marker is left as it is.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: libc-sysroot.sh SUITE ARCH DEST" >&2; exit 2; }
suite=$1 arch=$2 dest=$3
mkdir -p "$(dirname "$dest")"
exec 9>"$dest.lock"
flock 9  # one fetch at a time: tests running side by side share DEST
[ -e "$dest/.complete" ] && exit 0

apt="$dest.apt"
rm -rf "$dest" "$apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" "$apt/prefs" "$apt/download"
: >"$apt/status"
echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
    "http://deb.debian.org/debian $suite main" >"$apt/sources.list"
opts=(
    -o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/parts"
    -o "Dir::Etc::Preferences=$apt/prefs/none" -o "Dir::Etc::PreferencesParts=$apt/prefs"
    -o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
    -o "Dir::Cache=$apt/cache" -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
    -o "Acquire::Languages=none" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
)
apt-get "${opts[@]}" -qq update
(cd "$apt/download" && apt-get "${opts[@]}" -qq download "libc6:$arch")
mkdir -p "$dest"
dpkg-deb -x "$apt"/download/libc6_*.deb "$dest"
touch "$dest/.complete"
