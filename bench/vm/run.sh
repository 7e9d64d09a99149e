#!/usr/bin/env bash
# bench/vm/run.sh [--rwdir DIR]... [--] COMMAND [ARG...]
#
# Boots Debian 12's own kernel (linux-image-amd64, 6.1: nfs, nfsd, ceph and
# sch_netem as modules, none of which this machine's kernel has) in an
# emulated guest whose root is this machine's userspace, read-only, and
# runs COMMAND there as root; its output comes back on stdout, its exit
# status is run.sh's.
#
#   - The kernel package is fetched from Debian's archive with a private
#     apt state (own sources list, lists, cache; the host's apt state is
#     neither read nor written, as tests/support/gnu-refs.sh does) and
#     unpacked into the cache, with its modules; depmod runs on the copy.
#   - The guest is booted by virtme-ng (from PyPI, in a venv in the cache),
#     under TCG emulation: KVM hangs on this machine (no nested
#     virtualisation). Emulated CPUs are several times slower than the
#     host's: compare times measured in the same guest, never absolute ones.
#   - The root is the host's, read-only (9p); /tmp, /run and /var/tmp are
#     the guest's tmpfs; /etc, /var/lib/nfs and /var/lib/ceph are tmpfs
#     overlays (writable in the guest, untouched on the host); each
#     --rwdir DIR (default: none) is writable through to the host. That is
#     how results come out. The guest's network is its loopback only.
#   - What the guest needs on the host is installed first, as root,
#     without a question (bench/apt-install.sh): qemu-system-x86, kmod,
#     nfs-kernel-server, iproute2, python3-venv.
#
# environment:
#   STATLS_VM_CACHE=DIR   the cache (default: target/vm in this checkout)
#   STATLS_VM_CPUS=2      vCPUs (this machine has 2 cores, shared)
#   STATLS_VM_MEMORY=3G   guest memory
#   STATLS_VM_MIRROR=URL  Debian archive (default: the public one)
#   STATLS_VM_NO_INSTALL=1  never apt-get/pip: exit 3 when something is missing
#
# Only one guest runs at a time (a lock in the cache): a second caller
# waits. The guest is killed when run.sh is (it is run.sh's child).
#
# Exit status: COMMAND's; 3 the guest cannot be made here (missing tool,
# archive unreachable, not root); 2 usage.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CACHE=${STATLS_VM_CACHE:-$root/target/vm}
MIRROR=${STATLS_VM_MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
SUITE=bookworm

say() { printf 'vm: %s\n' "$*" >&2; }
cannot() { say "$*"; exit 3; }

rwdirs=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --rwdir) rwdirs+=("$(realpath "$2")"); shift 2 ;;
        --rwdir=*) rwdirs+=("$(realpath "${1#--rwdir=}")"); shift ;;
        --) shift; break ;;
        -*) echo "usage: $0 [--rwdir DIR]... [--] COMMAND [ARG...]" >&2; exit 2 ;;
        *) break ;;
    esac
done
[[ $# -gt 0 ]] || { echo "usage: $0 [--rwdir DIR]... [--] COMMAND [ARG...]" >&2; exit 2; }

# --- host tools ------------------------------------------------------------
install_host_tools() {
    local need=()
    command -v qemu-system-x86_64 >/dev/null 2>&1 || need+=(qemu-system-x86)
    command -v depmod >/dev/null 2>&1 || [[ -x /usr/sbin/depmod || -x /sbin/depmod ]] || need+=(kmod)
    [[ -x /usr/sbin/rpc.nfsd ]] || need+=(nfs-kernel-server)
    [[ -x /usr/sbin/tc || -x /sbin/tc ]] || need+=(iproute2)
    command -v dpkg-deb >/dev/null 2>&1 || need+=(dpkg)
    # virtme-ng builds an initramfs (9p and virtio are modules in this kernel)
    command -v busybox >/dev/null 2>&1 || need+=(busybox-static)
    [[ -r $KEYRING ]] || need+=(debian-archive-keyring)
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
    [[ ${#need[@]} -eq 0 ]] && return 0
    [[ ${STATLS_VM_NO_INSTALL:-0} != 1 ]] || cannot "missing ${need[*]} (STATLS_VM_NO_INSTALL=1)"
    say "installing ${need[*]}"
    "$root/bench/apt-install.sh" "${need[@]}" || cannot "could not install ${need[*]}"
}

# --- virtme-ng ---------------------------------------------------------------
VNG_VERSION=1.42
install_vng() {
    [[ -x $CACHE/venv/bin/vng ]] && return 0
    [[ ${STATLS_VM_NO_INSTALL:-0} != 1 ]] || cannot "no virtme-ng in $CACHE/venv (STATLS_VM_NO_INSTALL=1)"
    say "installing virtme-ng $VNG_VERSION (PyPI) into $CACHE/venv"
    rm -rf "$CACHE/venv"
    python3 -m venv "$CACHE/venv" >"$CACHE/pip.log" 2>&1 &&
        "$CACHE/venv/bin/pip" install -q "virtme-ng==$VNG_VERSION" >>"$CACHE/pip.log" 2>&1 || {
        tail -n 15 "$CACHE/pip.log" | sed 's/^/    /' >&2
        rm -rf "$CACHE/venv"
        cannot "could not install virtme-ng from PyPI"
    }
}

# --- the kernel --------------------------------------------------------------
apt_private() {
    local prog=$1 a=$2; shift 2
    "$prog" -q \
        -o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State="$a/state" -o Dir::State::Lists="$a/lists" \
        -o Dir::State::status="$a/status" -o Dir::Cache="$a/cache" \
        -o Debug::NoLocking=1 -o APT::Sandbox::User=root -o Acquire::Languages=none \
        -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false \
        -o Acquire::Retries=2 -o Acquire::http::Timeout=30 "$@"
}

# Prints the path of the unpacked vmlinuz (fetching it the first time).
kernel() {
    local k=$CACHE/kernel a=$CACHE/kernel/apt pkg img
    img=$(ls "$k"/root/boot/vmlinuz-* 2>/dev/null | head -n 1 || true)
    if [[ -n $img && -e $k/complete ]]; then echo "$img"; return; fi
    rm -rf "$k"
    mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/state" "$k/debs" "$k/root"
    : >"$a/status"
    echo "deb [signed-by=$KEYRING] $MIRROR $SUITE main" >"$a/sources.list"
    say "fetching Debian $SUITE's linux-image-amd64 ($MIRROR)"
    apt_private apt-get "$a" update --error-on=any >"$k/update.log" 2>&1 || {
        tail -n 5 "$k/update.log" >&2
        cannot "cannot reach the Debian archive ($MIRROR)"
    }
    # linux-image-amd64 is a metapackage: the image is its dependency.
    pkg=$(apt_private apt-cache "$a" depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
    [[ -n $pkg ]] || cannot "linux-image-amd64 in Debian $SUITE names no kernel package"
    (cd "$k/debs" && apt_private apt-get "$a" download "$pkg") >"$k/download.log" 2>&1 || {
        tail -n 5 "$k/download.log" >&2
        cannot "cannot download $pkg"
    }
    dpkg-deb -x "$k"/debs/*.deb "$k/root"
    img=$(ls "$k"/root/boot/vmlinuz-* | head -n 1)
    local ver=${img##*/vmlinuz-}
    PATH=$PATH:/usr/sbin:/sbin depmod -a -b "$k/root" "$ver"
    rm -rf "$k/debs" "$a/cache"
    touch "$k/complete"
    say "kernel $ver unpacked into $k/root"
    echo "$img"
}

# --- boot ----------------------------------------------------------------------
[[ $(id -u) -eq 0 ]] || cannot "needs root (packages, and nfsd/mounts in the guest run as root)"
mkdir -p "$CACHE"
install_host_tools
exec 9>"$CACHE/lock"
flock 9
install_vng
img=$(kernel)

# The command runs through a small script in the guest so that its
# arguments survive the trip (vng --exec takes one shell string). Its
# stdout, stderr and exit status go to files in a directory the guest
# writes through to the host: without udev in the guest, virtme-ng finds
# no script ports and would mix the command's output with the kernel's on
# the console and lose the exit status. The files are followed live.
io=$(mktemp -d "$CACHE/io.XXXXXX")
trap 'rm -rf "$io"' EXIT
: >"$io/stdout"
: >"$io/stderr"
{
    echo '#!/bin/bash'
    echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
    printf 'exec >>%q 2>>%q\n' "$io/stdout" "$io/stderr"
    printf 'cd %q || exit 1\n' "$PWD"
    printf '%q ' "$@"
    echo
    printf 'echo $? >%q\n' "$io/rc"
} >"$io/cmd"
chmod 755 "$io/cmd"

args=(--run "$img" --disable-kvm --cpus "${STATLS_VM_CPUS:-2}" --memory "${STATLS_VM_MEMORY:-3G}"
    --user root --force-9p --rwdir "$io"
    --overlay-rwdir /etc --overlay-rwdir /var/lib --overlay-rwdir /srv --overlay-rwdir /mnt)
[[ ${STATLS_VM_VERBOSE:-0} != 1 ]] || args+=(--verbose)
for d in "${rwdirs[@]}"; do args+=(--rwdir "$d"); done
PATH=$CACHE/venv/bin:$PATH "$CACHE/venv/bin/vng" "${args[@]}" --exec "$io/cmd" </dev/null >&2 &
vng=$!
tail -n +1 -s 0.2 -f --pid=$vng "$io/stdout" &
out=$!
tail -n +1 -s 0.2 -f --pid=$vng "$io/stderr" >&2 &
err=$!
wait $vng || true
wait $out $err || true
[[ -s $io/rc ]] || cannot "the guest ended without the command's exit status (STATLS_VM_VERBOSE=1 shows its console)"
exit "$(cat "$io/rc")"
