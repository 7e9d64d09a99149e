#!/usr/bin/env bash
# What one listing asks the MDS (issue 32): ls --color=always and ls -l of a
# directory of 100 files through ceph-fuse client b, GNU and statls, warm
# (listed once just before) and cold (client b remounted, caches dropped).
# Per run: client b's requests by type and caps mask, from the MDS's log
# (debug_mds 4 logs every client_request), the MDS's cap revokes and grants,
# and the run's syscalls under strace -f (stat, xattr, readlink, open and
# getdents calls). bench/cephfs/writer.sh gives the same request counts per
# listing while another client writes in the directory.
#
# usage: bench/cephfs/requests.sh [path/to/statls/ls]   (default target/release/ls)
# environment:
#   CEPH_DIR=dir    use (and keep) that cluster; default a new one, down at exit
#   ARGS="--color=always|-l|-l --cached=always"   the listings, |-separated
#   OUT=dir         per-run logs (default bench/out/cephfs-requests-<stamp>)
#   KEEP=1          keep the temporary cluster
set -euo pipefail
# shellcheck source=bench/cephfs/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ARGS=${ARGS:---color=always|--color=always --cached=always|-l|-l --cached=always}
OUT=${OUT:-$repo/bench/out/cephfs-requests-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
pick_ours "${1:-}"
command -v strace >/dev/null || { echo "error: strace is not installed" >&2; exit 1; }
cluster_up

say "fixture: $CEPH/a/req: 90 files (every 10th executable), 5 directories, 5 symlinks"
rm -rf "$CEPH/a/req"
mkdir -p "$CEPH/a/req"
for ((i = 0; i < 90; i++)); do
    f=$CEPH/a/req/$(printf 'f%03d' "$i")
    printf '%d\n' "$i" >"$f"
    ((i % 10)) || chmod +x "$f"
done
for ((i = 0; i < 5; i++)); do
    mkdir "$CEPH/a/req/d$i"
    ln -s "f00$i" "$CEPH/a/req/l$i"
done
# client a lets go of the caps it got creating them
fusermount3 -u "$CEPH/a"
"$here/cluster.sh" up "$CEPH" 2>/dev/null
mds_asok config set debug_mds 4 >/dev/null
on_exit() {
    mds_asok config set debug_mds 1/5 >/dev/null 2>&1 || true
    [[ -n ${CEPH_DIR:-} ]] || cluster_cleanup
}
trap on_exit EXIT

export LC_ALL=C TZ=UTC TERM=xterm
unset LS_COLORS
n=0
IFS='|' read -r -a cases <<<"$ARGS"
printf '| cache | program | args | MDS requests (client b) | revokes | syscalls |\n|---|---|---|---|---|---|\n' |
    tee "$OUT/table.md"
for mode in cold warm; do
    for args in "${cases[@]}"; do
        for prog in "$GNU" "$OURS"; do
            # GNU ls has no --cached
            [[ $prog == "$GNU" && $args == *--cached* ]] && continue
            n=$((n + 1))
            name=$([[ $prog == "$GNU" ]] && echo GNU || echo statls)
            if [[ $mode == cold ]]; then
                remount_b
            else
                # shellcheck disable=SC2086
                (cd "$CEPH/b/req" && "$prog" $args >/dev/null 2>&1) || true
            fi
            bid=$(client_id b)
            mds_asok perf dump >"$OUT/$n.perf0.json"
            line0=$(($(mds_log_lines) + 1))
            # shellcheck disable=SC2086
            (cd "$CEPH/b/req" && strace -f -qq -o "$OUT/$n.strace" "$prog" $args >"$OUT/$n.out" 2>&1) || true
            sleep 0.5
            mds_asok perf dump >"$OUT/$n.perf1.json"
            mds_requests_since "$line0" "$bid" >"$OUT/$n.requests"
            python3 - "$OUT" "$n" "$mode" "$name" "$args" <<'EOF' | tee -a "$OUT/table.md"
import collections, json, re, sys
out, n, mode, name, args = sys.argv[1:]
p0 = json.load(open(f"{out}/{n}.perf0.json"))
p1 = json.load(open(f"{out}/{n}.perf1.json"))
revokes = p1["mds"]["ceph_cap_op_revoke"] - p0["mds"]["ceph_cap_op_revoke"]
reqs = collections.Counter(l.strip() for l in open(f"{out}/{n}.requests") if l.strip())
calls = collections.Counter()
for line in open(f"{out}/{n}.strace"):
    m = re.match(r"\d+\s+(?:<\.\.\. )?(\w+)", line)
    if not m:
        continue
    call = m.group(1)
    if "resumed" in line and line.lstrip("0123456789 ").startswith("<..."):
        continue  # the second half of a call counted where it started
    if call == "syscall_0x1d0":
        call = "getxattrat"
    if re.search(r"stat|xattr|readlink|getdents|^open", call):
        calls[call] += 1
fmt = lambda c: ", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "none"
print(f"| {mode} | {name} | `{args}` | {fmt(reqs)} | {revokes} | {fmt(calls)} |")
EOF
        done
    done
done
echo "logs in $OUT" >&2
