# shellcheck shell=bash
# Shared by bench/cephfs/{speed,writer,requests}.sh: the cluster (CEPH_DIR
# kept as it is, else a new one in a temporary directory, taken down at
# exit), the statls binary, and the MDS's counters and request log.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$(dirname "$here")")
GNU=${GNU:-/bin/ls}
say() { printf '\n== %s\n' "$*" >&2; }

# OURS: $1 if given, else target/release/ls (built if missing).
pick_ours() {
    if [[ -n ${1:-} ]]; then
        OURS=$1
    else
        OURS=${CARGO_TARGET_DIR:-$repo/target}/release/ls
        if [[ ! -x $OURS ]]; then
            say "building release binary"
            (cd "$repo" && cargo build --release --quiet)
        fi
    fi
    OURS=$(realpath "$OURS")
    [[ -x $OURS ]] || { echo "error: $OURS is not executable" >&2; exit 1; }
    [[ -x $GNU ]] || { echo "error: $GNU is not executable" >&2; exit 1; }
}

# CEPH: the cluster's directory (DIR/a, DIR/b, DIR/run, DIR/log).
cluster_up() {
    if [[ -n ${CEPH_DIR:-} ]]; then
        CEPH=$(realpath "$CEPH_DIR")
        "$here/cluster.sh" up "$CEPH"
        return
    fi
    CEPH=$(mktemp -d "${TMPDIR:-/tmp}/statls-cephfs.XXXXXX")
    chmod 755 "$CEPH"
    trap cluster_cleanup EXIT
    "$here/cluster.sh" up "$CEPH"
}

cluster_cleanup() {
    if [[ ${KEEP:-0} == 1 ]]; then
        echo "cluster kept in $CEPH (bench/cephfs/cluster.sh down $CEPH)" >&2
        return
    fi
    "$here/cluster.sh" down "$CEPH" || true
    if ! grep -qF " $CEPH/" /proc/self/mountinfo; then rm -rf "$CEPH"; fi
}

ceph_() { ceph -c "$CEPH/ceph.conf" --connect-timeout 15 "$@"; }
mds_asok() { ceph --admin-daemon "$CEPH/run/mds.a.asok" "$@"; }
client_asok() { # a|b command...
    local c=$1; shift
    ceph --admin-daemon "$CEPH/run/client.$c.$(cat "$CEPH/run/client.$c.pid").asok" "$@"
}

# The MDS's global id for a client's session (the MDS log names it client.N).
client_id() {
    client_asok "$1" status | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'
}

# Client b made cold: unmounted (its cache and caps go with its process),
# the page cache and the kernel's dentries dropped, mounted again.
remount_b() {
    fusermount3 -u "$CEPH/b" 2>/dev/null || umount "$CEPH/b"
    local i
    for ((i = 0; i < 50; i++)); do
        if ! [[ -s $CEPH/run/client.b.pid ]] || ! kill -0 "$(cat "$CEPH/run/client.b.pid")" 2>/dev/null; then break; fi
        sleep 0.1
    done
    sync
    echo 3 >/proc/sys/vm/drop_caches
    "$here/cluster.sh" up "$CEPH" 2>/dev/null
}

# The MDS's log from line $1 on, client $2's requests: "op [caps]" per line.
mds_requests_since() {
    tail -n "+$1" "$CEPH/log/mds.a.log" |
        sed -nE "s/.*handle_client_request client_request\(client\.$2:[0-9]+ ([a-z]+)( [^ #]+)? [#0-9a-fx].*/\1\2/p"
}

mds_log_lines() { wc -l <"$CEPH/log/mds.a.log"; }
