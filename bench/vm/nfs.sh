#!/usr/bin/env bash
# bench/vm/nfs.sh — the Linux kernel's own NFS server and client, on the
# loopback of a guest booted by bench/vm/run.sh (run it there, as root).
#
# One command, one mount:
#   bench/vm/run.sh bench/vm/nfs.sh [--vers 4.2|3] [--cold] [--delay MS] -- COMMAND...
#       starts the server, mounts it at /mnt/nfs and runs COMMAND there
#       (NFS_MNT=/mnt/nfs in its environment); exit status COMMAND's.
#
# Or step by step, in one guest (several mounts of one server):
#   nfs.sh server                 nfsd on 127.0.0.1 exporting a tmpfs,
#                                 /srv/export (v4 root: fsid=0, so v4 sees
#                                 it as /, v3 as /srv/export)
#   nfs.sh mount VERS warm|cold MNT [OPTIONS]
#                                 mounts it at MNT; cold = actimeo=0 (every
#                                 stat asks the server), warm = the
#                                 client's default attribute cache; more
#                                 mount options after MNT
#   nfs.sh delay MS               netem on lo: MS ms each way (0: none), a
#                                 server 2 x MS away
#   nfs.sh stop-server            rpc.nfsd 0: a dead server, mounts stay
#   nfs.sh ops MNT                the mount's per-operation counts from
#                                 /proc/self/mountstats, "OP COUNT" lines
#
# v3 mounts use nolock (no lockd/statd here). The server's v4 grace and
# lease times are 10 s (its minimum) instead of 90 s, so that files can be
# created soon after it starts. Everything stays on the guest's loopback.
set -euo pipefail

say() { printf 'nfs: %s\n' "$*" >&2; }
EXPORT=/srv/export

server() {
    modprobe nfsd
    modprobe nfs
    mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
    mkdir -p "$EXPORT" /var/lib/nfs/rpc_pipefs /run/rpcbind
    mountpoint -q "$EXPORT" || mount -t tmpfs -o mode=0755,size=2g export "$EXPORT"
    mountpoint -q /var/lib/nfs/rpc_pipefs ||
        mount -t rpc_pipefs sunrpc /var/lib/nfs/rpc_pipefs 2>/dev/null || true
    : >/etc/exports
    pgrep -x rpcbind >/dev/null || rpcbind -w 2>/dev/null || rpcbind
    exportfs -i -o rw,sync,no_root_squash,no_subtree_check,insecure,fsid=0 "127.0.0.1:$EXPORT"
    pgrep -x rpc.mountd >/dev/null || rpc.mountd
    echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null || true
    echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null || true
    rpc.nfsd -H 127.0.0.1 4
}

mount_() { # VERS warm|cold MNT [MORE,OPTIONS]
    local vers=$1 cache=$2 mnt=$3 opts
    case $cache in
        warm) opts=hard ;;
        cold) opts=hard,actimeo=0 ;;
        *) say "mount: warm or cold, not $cache"; exit 2 ;;
    esac
    opts+=${4:+,$4}
    mkdir -p "$mnt"
    case $vers in
        3) mount -t nfs -o "vers=3,nolock,$opts" "127.0.0.1:$EXPORT" "$mnt" ;;
        4*) mount -t nfs4 -o "vers=$vers,$opts" 127.0.0.1:/ "$mnt" ;;
        *) say "mount: version 3 or 4.x, not $vers"; exit 2 ;;
    esac
}

delay() { # MS
    modprobe sch_netem
    tc qdisc del dev lo root 2>/dev/null || true
    [[ $1 == 0 ]] || tc qdisc add dev lo root netem delay "${1}ms"
}

ops() { # MNT: "OP COUNT" for each operation sent on MNT's superblock
    awk -v m="$1" '
        $1 == "device" { on = ($5 == m) }
        on && /per-op statistics/ { inops = 1; next }
        on && inops && NF >= 2 && $1 ~ /:$/ { sub(":", "", $1); print $1, $2 }
        on && inops && NF == 0 { inops = 0 }
    ' /proc/self/mountstats
}

case ${1:-} in
    server) server ;;
    mount) shift; mount_ "$@" ;;
    delay) delay "$2" ;;
    stop-server) rpc.nfsd 0 ;;
    ops) ops "$2" ;;
    *)
        vers=4.2 cache=warm ms=0
        while [[ $# -gt 0 ]]; do
            case $1 in
                --vers) vers=$2; shift 2 ;;
                --cold) cache=cold; shift ;;
                --delay) ms=$2; shift 2 ;;
                --) shift; break ;;
                *) break ;;
            esac
        done
        [[ $# -gt 0 ]] || { echo "usage: nfs.sh [--vers 4.2|3] [--cold] [--delay MS] -- COMMAND..." >&2; exit 2; }
        server
        mount_ "$vers" "$cache" /mnt/nfs
        delay "$ms"
        say "NFS v$vers ($cache) at /mnt/nfs, lo delayed $ms ms each way"
        cd /mnt/nfs
        NFS_MNT=/mnt/nfs "$@"
        ;;
esac
