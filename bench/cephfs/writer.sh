#!/usr/bin/env bash
# The upstream statx patch's experiment on a real CephFS (issue 32): fio
# writes a file on client A while client B lists its directory in a tight
# loop. To tell B the file's size and mtime the MDS recalls A's caps, and
# A has to flush what it buffered: the writer slows down. Per lister: the
# writer's MiB/s, the MDS's cap revokes and client requests per listing.
#
# usage: bench/cephfs/writer.sh [path/to/statls/ls]   (default target/release/ls)
# environment:
#   CEPH_DIR=dir     use (and keep) that cluster (bench/cephfs/cluster.sh up dir);
#                    default: a new one in a temporary directory, down at exit
#   REPS=3           rounds; each round runs every lister once, in turn
#   RUNTIME=20       seconds fio writes per run
#   SIZE=1G BS=1M    fio's file size (rewritten in a loop: --time_based) and block
#   DIRECT=0         1: O_DIRECT writes (default buffered: the client's cache)
#   FILES=100        small files beside the written one
#   PACE=0           0: each listing starts as the one before ends (a tight
#                    loop: a faster ls lists more often); N: N listings a
#                    second at most, as a monitoring loop would
#   LISTERS="..."    which listers, by name (see below); default all
#   OUT=dir          table and raw results (default bench/out/cephfs-writer-<stamp>)
#   KEEP=1           keep the temporary cluster
#
# Listers (B runs the command in DIR/b/exp, stdout to /dev/null, again and
# again until fio ends): none, gnu-color (GNU --color=always), ours-color,
# ours-color-cached (--color=always --cached=always), gnu-l (GNU -l), ours-l,
# ours-l-cached (-l --cached=always); ours-color-t1 and ours-l-t1 (statls
# with STATLS_THREADS=1: one request at a time, as GNU). The MDS logs each client request
# (debug_mds 4) during the runs: the table gives B's requests per listing
# by type and caps mask. A benchmark: nothing fails on a slow figure.
set -euo pipefail
# shellcheck source=bench/cephfs/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

REPS=${REPS:-3}
RUNTIME=${RUNTIME:-20}
SIZE=${SIZE:-1G}
BS=${BS:-1M}
DIRECT=${DIRECT:-0}
FILES=${FILES:-100}
PACE=${PACE:-0}
LISTERS=${LISTERS:-none gnu-color ours-color ours-color-cached gnu-l ours-l ours-l-cached}
OUT=${OUT:-$repo/bench/out/cephfs-writer-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

pick_ours "${1:-}"
command -v fio >/dev/null || { echo "error: fio is not installed (apt-get install fio)" >&2; exit 1; }
cluster_up

lister_cmd() {
    case $1 in
    none) ;;
    gnu-color) echo "$GNU --color=always" ;;
    ours-color) echo "$OURS --color=always" ;;
    ours-color-cached) echo "$OURS --color=always --cached=always" ;;
    gnu-l) echo "$GNU -l" ;;
    ours-l) echo "$OURS -l" ;;
    ours-l-cached) echo "$OURS -l --cached=always" ;;
    ours-color-t1) echo "env STATLS_THREADS=1 $OURS --color=always" ;;
    ours-l-t1) echo "env STATLS_THREADS=1 $OURS -l" ;;
    *) echo "unknown lister $1" >&2; exit 2 ;;
    esac
}

say "fixture: $CEPH/a/exp: $FILES files and big ($SIZE, written first)"
mkdir -p "$CEPH/a/exp"
for ((i = 0; i < FILES; i++)); do printf '%d\n' "$i" >"$CEPH/a/exp/$(printf 'f%03d' "$i")"; done
fio --name=layout --rw=write --bs="$BS" --size="$SIZE" --filename="$CEPH/a/exp/big" \
    --output=/dev/null
mds_asok config set debug_mds 4 >/dev/null
bid=$(client_id b)

# CPU ticks (user + system) of the clients and daemons: "name ticks" lines
daemon_cpu() {
    local d
    for d in client.a client.b mds.a osd.0; do
        echo "$d $(awk '{print $14 + $15}' "/proc/$(cat "$CEPH/run/$d.pid")/stat")"
    done
}

# one run: lister $1, round $2 -> a line of results in $OUT/runs.tsv
run_one() {
    local name=$1 rep=$2 cmd lister_pid="" stop count
    stop=$OUT/stop.$name.$rep count=$OUT/count.$name.$rep
    cmd=$(lister_cmd "$name")
    rm -f "$stop" "$count"
    # one listing first, not counted: the client's cache as the loop keeps it
    # shellcheck disable=SC2086
    [[ -z $cmd ]] || (cd "$CEPH/b/exp" && $cmd >/dev/null 2>&1) || true
    mds_asok perf dump >"$OUT/perf0.$name.$rep.json"
    daemon_cpu >"$OUT/cpu0.$name.$rep"
    local line0
    line0=$(($(mds_log_lines) + 1))
    if [[ -n $cmd ]]; then
        # shellcheck disable=SC2086
        (
            cd "$CEPH/b/exp"
            n=0 t0=${EPOCHREALTIME/./}
            while [[ ! -e $stop ]]; do
                $cmd >/dev/null 2>&1 || true
                n=$((n + 1))
                if ((PACE > 0)); then
                    # the n-th listing starts n/PACE s after the first
                    wait_us=$((t0 + n * 1000000 / PACE - ${EPOCHREALTIME/./}))
                    ((wait_us > 0)) && sleep "$(printf '%d.%06d' $((wait_us / 1000000)) $((wait_us % 1000000)))"
                fi
            done
            # the listings' CPU seconds (user, system): times' second line
            times >"$count.times"
            echo "$n $(tail -1 "$count.times")" >"$count"
        ) &
        lister_pid=$!
    fi
    fio --name=w --rw=write --bs="$BS" --size="$SIZE" --time_based --runtime="$RUNTIME" \
        --direct="$DIRECT" --filename="$CEPH/a/exp/big" --output-format=json \
        --output="$OUT/fio.$name.$rep.json"
    touch "$stop"
    [[ -n $lister_pid ]] && wait "$lister_pid"
    sleep 1
    mds_asok perf dump >"$OUT/perf1.$name.$rep.json"
    daemon_cpu >"$OUT/cpu1.$name.$rep"
    mds_requests_since "$line0" "$bid" >"$OUT/requests.$name.$rep.txt"
    rm -f "$stop"
}

say "runs: $REPS rounds x ($LISTERS), $RUNTIME s each, pace $PACE/s (0: tight loop); fio $( ((DIRECT)) && echo direct || echo buffered), bs $BS, file $SIZE"
for ((rep = 1; rep <= REPS; rep++)); do
    for name in $LISTERS; do
        printf '%s round %d: %s\n' "$(date +%T)" "$rep" "$name" >&2
        run_one "$name" "$rep"
    done
done
mds_asok config set debug_mds 1/5 >/dev/null

python3 - "$OUT" "$REPS" "$LISTERS" "$GNU" "$OURS" <<'EOF' | tee "$OUT/table.md"
import json, os, statistics, sys, collections
out, reps, listers = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
def load(p): return json.load(open(os.path.join(out, p)))
rows = {}
for name in listers:
    r = []
    for rep in range(1, reps + 1):
        fio = load(f"fio.{name}.{rep}.json")["jobs"][0]["write"]
        p0, p1 = load(f"perf0.{name}.{rep}.json"), load(f"perf1.{name}.{rep}.json")
        d = lambda sec, k: p1[sec][k] - p0[sec][k]
        n, cpu = 0, 0.0
        cp = os.path.join(out, f"count.{name}.{rep}")
        if os.path.exists(cp):
            words = open(cp).read().split()
            n = int(words[0])
            # times prints "0m1.234s": minutes and seconds
            cpu = sum(int(w.split("m")[0]) * 60 + float(w.split("m")[1].rstrip("s"))
                      for w in words[1:3])
        ticks = os.sysconf("SC_CLK_TCK")
        c0 = dict(l.split() for l in open(os.path.join(out, f"cpu0.{name}.{rep}")))
        c1 = dict(l.split() for l in open(os.path.join(out, f"cpu1.{name}.{rep}")))
        dcpu = {k: (int(c1[k]) - int(c0[k])) / ticks for k in c0}
        reqs = collections.Counter(l.strip() for l in open(os.path.join(out, f"requests.{name}.{rep}.txt")) if l.strip())
        r.append(dict(mib=fio["bw_bytes"] / 2**20, n=n, cpu=cpu, fuse_b=dcpu["client.b"],
                      fuse_a=dcpu["client.a"], revoke=d("mds", "ceph_cap_op_revoke"),
                      grant=d("mds", "ceph_cap_op_grant"), reqs=reqs))
    rows[name] = r
def med(xs): return statistics.median(xs)
def spread(xs, f="%.0f"): return (f + "–" + f) % (min(xs), max(xs))
base = med([x["mib"] for x in rows["none"]]) if "none" in rows else None
print("| lister | writer MiB/s median (min–max) | vs none | listings a run | cap revokes a listing median (min–max) | B's MDS requests a listing | CPU ms a listing: ls, ceph-fuse b | ceph-fuse a CPU s a run |")
print("|---|---|---|---|---|---|---|---|")
for name in listers:
    r = rows[name]
    mib = [x["mib"] for x in r]
    rel = "" if base is None or name == "none" else "%+.0f %%" % (100 * (med(mib) / base - 1))
    if name == "none":
        rv = "%s a run (%s)" % (med([x["revoke"] for x in r]), spread([x["revoke"] for x in r]))
        req, n = "", "–"
    else:
        per = [x["revoke"] / x["n"] for x in r if x["n"]]
        rv = "%.1f (%s)" % (med(per), spread(per, "%.1f"))
        tot = collections.Counter()
        for x in r: tot.update(x["reqs"])
        ntot = sum(x["n"] for x in r)
        req = ", ".join("%s %.2f" % (k, v / ntot) for k, v in tot.most_common()) if ntot else ""
        n = "%d (%s)" % (med([x["n"] for x in r]), spread([x["n"] for x in r]))
    cpu = "–" if name == "none" else "%.1f, %.1f" % (
        med([1000 * x["cpu"] / x["n"] for x in r if x["n"]]),
        med([1000 * x["fuse_b"] / x["n"] for x in r if x["n"]]))
    fa = "%.1f" % med([x["fuse_a"] for x in r])
    print(f"| {name} | {med(mib):.0f} ({spread(mib)}) | {rel} | {n} | {rv} | {req} | {cpu} | {fa} |")
EOF
echo "raw results in $OUT" >&2
