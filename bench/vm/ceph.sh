#!/usr/bin/env bash
# bench/vm/ceph.sh [--] COMMAND... — the Linux kernel's own CephFS client,
# in a guest booted by bench/vm/run.sh (run it there, as root):
#
#   bench/vm/run.sh bench/vm/ceph.sh -- COMMAND...
#
# brings up bench/cephfs/cluster.sh's single-node cluster inside the guest
# (its ceph-fuse clients at /tmp/ceph/a and /tmp/ceph/b; memstore OSD of
# CEPH_MEMSTORE_GIB, default 1 here), mounts it with the kernel client
# (`mount -t ceph`, client.k) at /mnt/ceph, mounts debugfs (the client's
# caps: /sys/kernel/debug/ceph/*/caps) and runs COMMAND in /mnt/ceph with
# CEPH_DIR=/tmp/ceph and CEPH_MNT=/mnt/ceph in its environment.
#
# Why inside the guest: the guest's network is its own loopback (nothing
# leaves it, nothing else reaches it), and the host's kernel has no ceph
# module anyway; the cluster's daemons are this machine's own Debian
# packages (installed on the host by cluster.sh, before the guest boots:
# the guest's root is read-only). Under emulation the cluster takes about
# 2.5 minutes to come up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ ${1:-} == -- ]] && shift
[[ $# -gt 0 ]] || { echo "usage: ceph.sh [--] COMMAND..." >&2; exit 2; }

export CEPH_MEMSTORE_GIB=${CEPH_MEMSTORE_GIB:-1} CEPH_NO_INSTALL=1
DIR=/tmp/ceph
mkdir -p "$DIR"
chmod 755 "$DIR"
modprobe ceph
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
"$here/../cephfs/cluster.sh" up "$DIR" >&2
port=$(sed -n 's/^mon_host = v2:127.0.0.1:\([0-9]*\)$/\1/p' "$DIR/ceph.conf")
mkdir -p /mnt/ceph
# auth none: mount.ceph's complaints about a missing ceph.conf and keyring
# are harmless.
mount -t ceph "127.0.0.1:$port:/" /mnt/ceph -o name=k,ms_mode=prefer-crc 2>/dev/null ||
    mount -t ceph "127.0.0.1:$port:/" /mnt/ceph -o name=k,ms_mode=prefer-crc
echo "ceph: kernel CephFS at /mnt/ceph, ceph-fuse at $DIR/a and $DIR/b" >&2
rc=0
(cd /mnt/ceph && CEPH_DIR=$DIR CEPH_MNT=/mnt/ceph "$@") || rc=$?
umount /mnt/ceph || umount -l /mnt/ceph || true
"$here/../cephfs/cluster.sh" down "$DIR" >&2 || true
exit "$rc"
