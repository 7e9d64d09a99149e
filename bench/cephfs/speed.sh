#!/usr/bin/env bash
# GNU ls against statls on a real CephFS (bench/cephfs/cluster.sh, ceph-fuse
# client b): -l and --color=always of 1 000 files, -lR of 50 x 100 files,
# warm (the client's caches hold the directory) and cold (client b
# unmounted, page cache and dentries dropped, mounted again before every
# run). Issue 32.
#
# usage: bench/cephfs/speed.sh [path/to/statls/ls]   (default target/release/ls,
#                                                     built if missing)
# environment:
#   CEPH_DIR=dir          use (and keep) that cluster; default a new one in a
#                         temporary directory, taken down at exit
#   LOCALES="C"           e.g. "C en_US.UTF-8" (a locale not generated is left out)
#   CASES="l color lR"    -l, --color=always (flat), -lR (tree)
#   MODES="warm cold"
#   RUNS_WARM=21 RUNS_COLD=5   timed GNU/statls pairs per cell
#   OUT=dir               table and logs (default bench/out/cephfs-speed-<stamp>)
#   KEEP=1                keep the temporary cluster
#
# The fixture (bench/mkmixed.py's names) is written through client a, which
# is then remounted so that it holds no caps: client b's listings recall
# nothing. Each command runs in the listed directory with no operand,
# stdout to /dev/null, GNU and statls in turn (A B A B ...); a cell reports
# each one's median wall seconds and the median of the per-pair ratios
# statls/GNU with their 10th-90th percentile, and whether the two outputs
# are the same. A benchmark: nothing fails on a slow figure.
set -euo pipefail
# shellcheck source=bench/cephfs/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOCALES=${LOCALES:-C}
CASES=${CASES:-l color lR}
MODES=${MODES:-warm cold}
export RUNS_WARM=${RUNS_WARM:-21} RUNS_COLD=${RUNS_COLD:-5}
OUT=${OUT:-$repo/bench/out/cephfs-speed-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

pick_ours "${1:-}"
have_locales=()
for l in $LOCALES; do
    norm=$(printf '%s' "$l" | tr '[:upper:]' '[:lower:]' | tr -d '-')
    if [[ $l == C || $l == POSIX ]] || locale -a 2>/dev/null | tr '[:upper:]' '[:lower:]' | grep -qx "$norm"; then
        have_locales+=("$l")
    else
        echo "note: locale $l is not generated: left out" >&2
    fi
done
cluster_up

say "fixture: 1 000 files (mixed), 50 x 100 files (mixedtree), written through client a"
rm -rf "$CEPH/a/speed"
python3 "$repo/bench/mkmixed.py" "$CEPH/a/speed" 1000 50 100
# client a lets go of every cap it got creating the files
fusermount3 -u "$CEPH/a"
"$here/cluster.sh" up "$CEPH" 2>/dev/null

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "host: $(uname -srm), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "ceph: $(ceph --version | cut -d' ' -f1-3), ceph-fuse client b, memstore OSD"
    echo "gnu:  $GNU ($("$GNU" --version | head -1))"
    echo "ours: $OURS"
    echo "runs: warm $RUNS_WARM, cold $RUNS_COLD pairs"
} | tee "$OUT/meta.txt" >&2

say "timing (progress on stderr; the table on stdout and in $OUT/table.md)"
unset LS_COLORS COLUMNS TIME_STYLE QUOTING_STYLE BLOCK_SIZE LS_BLOCK_SIZE TABSIZE
export TERM=xterm TZ=UTC
python3 - "$GNU" "$OURS" "$CEPH" "$OUT" "$MODES" "${have_locales[*]}" "$CASES" "$here" <<'EOF'
import os, statistics, subprocess, sys, time

gnu, ours, ceph, out, modes, locales, cases, here = sys.argv[1:]
CASES = {"l": (["-l"], "mixed"), "color": (["--color=always"], "mixed"),
         "lR": (["-lR"], "mixedtree")}
RUNS = {"warm": int(os.environ["RUNS_WARM"]), "cold": int(os.environ["RUNS_COLD"])}


def remount_b():
    subprocess.run(["bash", "-c", f"source {here}/lib.sh; CEPH={ceph}; remount_b"], check=True)


def run(prog, args, cwd, env, cold):
    """Wall seconds of one run, stdout to /dev/null."""
    if cold:
        remount_b()
    with open(os.devnull, "wb") as null:
        start = time.monotonic()
        proc = subprocess.Popen([prog, *args], cwd=cwd, env=env, stdout=null, stderr=null)
        os.wait4(proc.pid, 0)
        return time.monotonic() - start


def output(prog, args, cwd, env):
    return subprocess.run([prog, *args], cwd=cwd, env=env, capture_output=True).stdout


def pct(values, p):
    s = sorted(values)
    k = (len(s) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


rows = []
for mode in modes.split():
    cold = mode == "cold"
    for loc in locales.split():
        env = dict(os.environ, LC_ALL=loc)
        for case in cases.split():
            args, sub = CASES[case]
            cwd = os.path.join(ceph, "b", "speed", sub)
            cmd = "ls " + " ".join(args) + (" (50 x 100)" if sub == "mixedtree" else " (1 000)")
            same = output(gnu, args, cwd, env) == output(ours, args, cwd, env)
            if not cold:  # the outputs just compared filled the caches
                run(gnu, args, cwd, env, False)
                run(ours, args, cwd, env, False)
            g, o, ratios = [], [], []
            for _ in range(RUNS[mode]):
                g.append(run(gnu, args, cwd, env, cold))
                o.append(run(ours, args, cwd, env, cold))
                ratios.append(o[-1] / g[-1])
            row = (mode, loc, cmd, statistics.median(g), statistics.median(o),
                   statistics.median(ratios), pct(ratios, 0.1), pct(ratios, 0.9), same)
            rows.append(row)
            print(f"{mode} {loc} {cmd}: GNU {row[3]:.4f} s, statls {row[4]:.4f} s, "
                  f"ratio {row[5]:.2f}{'' if same else ' (OUTPUT DIFFERS)'}", file=sys.stderr)

lines = ["| cache | locale | command | GNU s | statls s | statls/GNU | p10-p90 | same output |",
         "|---|---|---|---:|---:|---:|---|---|"]
for m, loc, cmd, g, o, r, lo, hi, same in rows:
    lines.append(f"| {m} | {loc} | `{cmd}` | {g:.3f} | {o:.3f} | {r:.2f} | {lo:.2f}-{hi:.2f} | "
                 f"{'yes' if same else 'NO'} |")
text = "\n".join(lines) + "\n"
with open(os.path.join(out, "table.md"), "w") as f:
    f.write(text)
print(text, end="")
EOF
echo "results in $OUT" >&2
