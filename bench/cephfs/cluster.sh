#!/usr/bin/env bash
# A single-node CephFS on 127.0.0.1, from Debian's Ceph packages, mounted by
# two ceph-fuse clients: the real thing statls is written for (issue 32).
#
# usage: bench/cephfs/cluster.sh up|down|status DIR
#
#   up      installs what is missing (ceph-mon ceph-osd ceph-mds ceph-fuse
#           ceph-common fio; as root, bench/apt-install.sh), then starts
#           one mon, one OSD (memstore: the objects live in memory), one MDS,
#           makes the file system `cephfs` (pools of size 1) and mounts it
#           twice: DIR/a (client.a) and DIR/b (client.b). What already runs
#           is kept, the rest (re)started. The OSD keeps its objects in
#           memory, so a cluster whose OSD stopped is gone: up then wipes
#           DIR/state and makes a new one (DIR/a starts empty).
#   down    unmounts DIR/a and DIR/b, stops the daemons by the pid files in
#           DIR/run (SIGTERM, SIGKILL after 5 s: nothing they hold outlives
#           them anyway); removes no file.
#   status  one line per daemon and mount; exit 0 when all are up.
#
# Everything is under DIR: ceph.conf, state/ (the daemons' data), run/ (pid
# files, admin sockets), log/. No cephx (auth none), no mgr (nothing here
# needs one: the health warns about it), messenger v2 on a free port of
# 127.0.0.1 only. Exit status 3: this machine cannot run it (no /dev/fuse,
# not root, or a package missing with CEPH_NO_INSTALL=1).
#
# environment:
#   CEPH_MEMSTORE_GIB=6     the OSD's memstore size (RAM it may take)
#   CEPH_CLIENT_OPTS="..."  more ceph-fuse options for both mounts
#   CEPH_NO_INSTALL=1       never apt-get: exit 3 when a package is missing
#
# The admin socket of a daemon: ceph --admin-daemon DIR/run/mds.a.asok perf dump
# The CLI:                      ceph -c DIR/ceph.conf -s
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() { echo "usage: $0 up|down|status DIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
cmd=$1
mkdir -p "$2"
DIR=$(realpath "$2")
CONF=$DIR/ceph.conf
RUN=$DIR/run
say() { printf 'cephfs: %s\n' "$*" >&2; }
cannot() { say "$*"; exit 3; }

ceph_() { ceph -c "$CONF" --connect-timeout 15 "$@"; }

# pid of a daemon or client by its pid file, when it is alive
alive() {
    local f=$RUN/$1.pid pid
    [[ -s $f ]] || return 1
    pid=$(cat "$f")
    kill -0 "$pid" 2>/dev/null || return 1
    # a recycled pid is not ours
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$CONF" || return 1
    echo "$pid"
}

mounted() { grep -qF " $1 " /proc/self/mountinfo; }

# The mount answers (a hung ceph-fuse leaves the mount in place).
answers() { mounted "$1" && timeout 10 stat -f "$1" >/dev/null 2>&1; }

install_packages() {
    local need=() p
    for p in ceph-mon ceph-osd ceph-mds ceph-fuse ceph-common fio; do
        dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || need+=("$p")
    done
    [[ ${#need[@]} -eq 0 ]] && return 0
    [[ ${CEPH_NO_INSTALL:-0} == 1 ]] && cannot "missing packages: ${need[*]} (CEPH_NO_INSTALL=1)"
    say "installing ${need[*]}"
    # Never a question (conffiles included); on failure the log's last
    # lines go to stderr, which the SKIPPED line of tests/cephfs.rs shows.
    "$here/../apt-install.sh" --no-recommends "${need[@]}" ||
        cannot "apt-get install ${need[*]} failed"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

write_conf() {
    local port fsid
    port=$(free_port)
    fsid=$(cat /proc/sys/kernel/random/uuid)
    cat >"$CONF" <<EOF
# made by bench/cephfs/cluster.sh: a throwaway single-node cluster on loopback
[global]
fsid = $fsid
mon_initial_members = a
mon_host = v2:127.0.0.1:$port
public_addr = 127.0.0.1
cluster_addr = 127.0.0.1
ms_bind_msgr1 = false
ms_bind_msgr2 = true
ms_bind_ipv6 = false
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
auth_supported = none
keyring = /dev/null
run_dir = $RUN
pid_file = $RUN/\$name.pid
admin_socket = $RUN/\$name.asok
log_file = $DIR/log/\$name.log
mon_data = $DIR/state/\$name
osd_data = $DIR/state/\$name
mds_data = $DIR/state/\$name
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
mon_allow_pool_size_one = true
mon_allow_pool_delete = true
mon_warn_on_pool_no_redundancy = false
osd_crush_chooseleaf_type = 0
mon_osd_down_out_interval = 0

[mon]
mon_data_avail_warn = 1
mon_data_avail_crit = 0

[osd]
osd_objectstore = memstore
memstore_device_bytes = $(( ${CEPH_MEMSTORE_GIB:-6} * 1024 * 1024 * 1024 ))
osd_op_num_shards = 2
osd_op_num_threads_per_shard = 2

[client]
admin_socket = $RUN/\$name.\$pid.asok
pid_file = $RUN/\$name.pid
log_file = $DIR/log/\$name.log
EOF
}

wait_for() { # seconds description command...
    local t=$1 what=$2; shift 2
    local end=$((SECONDS + t))
    until "$@" >/dev/null 2>&1; do
        if ((SECONDS > end)); then say "timed out waiting for $what (logs in $DIR/log)"; return 1; fi
        sleep 1
    done
}

start_mon() {
    alive mon.a >/dev/null && return 0
    if [[ ! -e $DIR/state/mon.a/store.db ]]; then
        local fsid port
        fsid=$(ceph-conf -c "$CONF" --lookup fsid)
        port=$(ceph-conf -c "$CONF" --lookup mon_host | sed 's/.*://')
        monmaptool --create --clobber --fsid "$fsid" --addv a "[v2:127.0.0.1:$port]" "$DIR/state/monmap" >/dev/null
        mkdir -p "$DIR/state/mon.a"
        ceph-mon -c "$CONF" -i a --mkfs --monmap "$DIR/state/monmap" >>"$DIR/log/mkfs.log" 2>&1
    fi
    ceph-mon -c "$CONF" -i a >>"$DIR/log/daemons.log" 2>&1
    wait_for 60 "the monitor" ceph_ mon stat
}

start_osd() {
    alive osd.0 >/dev/null && return 0
    if [[ ! -e $DIR/state/osd.0/whoami ]]; then
        local uuid
        uuid=$(cat /proc/sys/kernel/random/uuid)
        mkdir -p "$DIR/state/osd.0"
        ceph_ osd new "$uuid" 0 >/dev/null
        ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$uuid" >>"$DIR/log/mkfs.log" 2>&1
    fi
    ceph-osd -c "$CONF" -i 0 >>"$DIR/log/daemons.log" 2>&1
    wait_for 60 "the OSD" sh -c "ceph -c '$CONF' --connect-timeout 15 osd dump | grep -q '^osd.0 up'"
}

start_mds() {
    alive mds.a >/dev/null && return 0
    mkdir -p "$DIR/state/mds.a"
    if ! ceph_ fs ls | grep -q 'name: cephfs'; then
        ceph_ osd pool create cephfs_metadata 8 >/dev/null 2>&1
        ceph_ osd pool create cephfs_data 8 >/dev/null 2>&1
        ceph_ osd pool set cephfs_metadata size 1 --yes-i-really-mean-it >/dev/null 2>&1
        ceph_ osd pool set cephfs_data size 1 --yes-i-really-mean-it >/dev/null 2>&1
        ceph_ fs new cephfs cephfs_metadata cephfs_data >/dev/null 2>&1
    fi
    # the fixture's sparse 1 TiB file (the default limit is 1 TiB exactly)
    ceph_ fs set cephfs max_file_size 4398046511104 >/dev/null
    ceph-mds -c "$CONF" -i a >>"$DIR/log/daemons.log" 2>&1
    wait_for 120 "the MDS" sh -c "ceph -c '$CONF' --connect-timeout 15 mds stat | grep -q 'up:active'"
}

mount_client() { # a|b
    local mnt=$DIR/$1
    if answers "$mnt" && alive "client.$1" >/dev/null; then return 0; fi
    unmount_client "$1"
    mkdir -p "$mnt"
    # posix_acl: ACLs are enforced and shown as on a local disk;
    # fuse_default_permissions=0: ceph-fuse checks permissions itself (with
    # the ACLs), not the kernel from the mode alone. allow_other is
    # ceph-fuse's default, so other users (the AS=nobody cases) get in.
    # shellcheck disable=SC2086
    ceph-fuse -c "$CONF" -n "client.$1" --client_acl_type=posix_acl \
        --fuse_default_permissions=0 ${CEPH_CLIENT_OPTS:-} "$mnt" >>"$DIR/log/fuse-$1.log" 2>&1
    wait_for 60 "the mount $mnt" answers "$mnt"
}

unmount_client() { # a|b
    local mnt=$DIR/$1 pid
    if mounted "$mnt"; then
        fusermount3 -u "$mnt" 2>/dev/null || fusermount -u "$mnt" 2>/dev/null ||
            umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
    fi
    if pid=$(alive "client.$1"); then
        stop_pid "$pid"
    fi
}

stop_pid() {
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

up() {
    [[ $(id -u) == 0 ]] || cannot "needs root (daemons, mounts, packages)"
    [[ -c /dev/fuse ]] || cannot "no /dev/fuse"
    mkdir -p "$DIR/state" "$RUN" "$DIR/log"
    install_packages
    command -v fusermount3 >/dev/null || command -v fusermount >/dev/null ||
        [[ ${CEPH_NO_INSTALL:-0} == 1 ]] || "$here/../apt-install.sh" fuse3 || true
    if ! alive osd.0 >/dev/null; then
        # a new cluster: what ran of the old one goes, its state with it
        down 2>/dev/null
        rm -rf "$DIR/state" "$CONF" "$RUN"
        mkdir -p "$DIR/state" "$RUN"
        write_conf
    fi
    start_mon
    start_osd
    start_mds
    mount_client a
    mount_client b
    say "up: $DIR/a and $DIR/b (ceph -c $CONF -s)"
}

down() {
    [[ -d $RUN ]] || return 0
    local c d pid
    for c in a b; do unmount_client "$c"; done
    # All at once: a memstore cluster keeps nothing across a stop, so there
    # is no journal worth an orderly shutdown.
    local pids=()
    for d in mds.a osd.0 mon.a; do
        if pid=$(alive "$d"); then pids+=("$pid"); fi
    done
    for pid in "${pids[@]}"; do stop_pid "$pid" & done
    wait
    say "down: $DIR"
}

status() {
    local ok=0 d pid
    for d in mon.a osd.0 mds.a client.a client.b; do
        if pid=$(alive "$d"); then echo "$d running (pid $pid)"; else echo "$d stopped"; ok=1; fi
    done
    for d in a b; do
        if answers "$DIR/$d"; then echo "$DIR/$d mounted"; else echo "$DIR/$d not mounted"; ok=1; fi
    done
    return $ok
}

case $cmd in
up) up ;;
down) down ;;
status) status ;;
*) usage ;;
esac
