#!/usr/bin/env bash
# GNU ls against statls on sshfs over loopback (bench/sshfs/sshfs.sh): -l of
# 1 000 files, --color=always of the same, -lR of 50 x 100 files, on a mount
# with sshfs's default caches (warm), one without caches (cold) and the cold
# one over a link that delays each packet (cold-lat: netem, or a TUN delay
# line where the kernel has no netem; see sshfs.sh). See bench/README.md,
# section "sshfs over loopback".
#
# usage: bench/sshfs/bench.sh [path/to/statls/ls]   (default: target/release/ls,
#                                                    built if missing)
# environment:
#   MOUNTS="warm cold cold-lat"   which mounts (warm-lat too, if you like)
#   LOCALES="C en_US.UTF-8"       a locale that is not generated is left out
#   CASES="l color lR"            -l, --color=always (flat dir), -lR (tree)
#   RUNS_WARM=21 RUNS_COLD=7 RUNS_LAT=3   timed GNU/statls pairs per cell on
#                                 warm (and warm-lat), cold, cold-lat
#   RUNS_LAT_TREE=1               pairs for -lR on cold-lat (GNU takes about
#                                 35 s a run there)
#   SSHFS_DELAY_MS=0.5            the link's delay, each way
#   SSHFS_DELAY_VIA=auto          how: netem, tun or relay (sshfs.sh)
#   GNU=/bin/ls                   the reference ls
#   OUT=dir                       tables and logs (default bench/out/sshfs-<stamp>)
#   KEEP=1                        leave the mounts up and the fixture in place
#
# Each command runs in the listed directory with no operand, stdout to
# /dev/null, GNU and statls in turn (A B A B ...); a cell reports each one's
# median wall seconds and the median of the per-pair ratios statls/GNU, with
# their 10th-90th percentile. Warm cells first run each program once, so
# that sshfs's caches hold the directory; cold mounts keep nothing between
# runs (sshfs's dir_cache off, the kernel's attribute and entry timeouts 0),
# so every run is cold. A benchmark: nothing fails on a slow figure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$(dirname "$here")")
GNU=${GNU:-/bin/ls}
MOUNTS=${MOUNTS:-warm cold cold-lat}
LOCALES=${LOCALES:-C en_US.UTF-8}
CASES=${CASES:-l color lR}
export RUNS_WARM=${RUNS_WARM:-21} RUNS_COLD=${RUNS_COLD:-7} RUNS_LAT=${RUNS_LAT:-3} RUNS_LAT_TREE=${RUNS_LAT_TREE:-1}
OUT=${OUT:-$repo/bench/out/sshfs-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
say() { printf '\n== %s\n' "$*" >&2; }

if [[ $# -ge 1 ]]; then
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

have_locales=()
for l in $LOCALES; do
    norm=$(printf '%s' "$l" | tr '[:upper:]' '[:lower:]' | tr -d '-')
    if [[ $l == C || $l == POSIX ]] || locale -a 2>/dev/null | tr '[:upper:]' '[:lower:]' | grep -qx "$norm"; then
        have_locales+=("$l")
    else
        echo "note: locale $l is not generated (localedef -i ${l%%.*} -f ${l#*.} $l): left out" >&2
    fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/statls-sshfs-bench.XXXXXX")
chmod 755 "$WORK"
cleanup() {
    if [[ ${KEEP:-0} == 1 ]]; then
        echo "mounts and fixture kept in $WORK (bench/sshfs/sshfs.sh down $WORK)" >&2
        return
    fi
    "$here/sshfs.sh" down "$WORK" || true
    # Only once nothing is mounted under it.
    if ! grep -qF " $WORK/" /proc/self/mountinfo; then rm -rf "$WORK"; fi
}
trap cleanup EXIT

say "sshfs over loopback in $WORK (delay ${SSHFS_DELAY_MS:-0.5} ms each way for -lat)"
SSHFS_MOUNTS=$MOUNTS "$here/sshfs.sh" up "$WORK" 2>&1 | tee "$OUT/mounts.txt" >&2

say "fixture: 1 000 files (mixed), 50 x 100 files (mixedtree), built on the export"
python3 "$repo/bench/mkmixed.py" "$WORK/export/fix" 1000 50 100

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "host: $(uname -srm), $(nproc) cores"
    echo "export fs: $(df -T "$WORK/export" | awk 'NR==2{print $2}')"
    echo "sshfs: $(sshfs --version 2>&1 | grep -i '^sshfs version'), $(ssh -V 2>&1)"
    echo "gnu:  $GNU ($("$GNU" --version | head -1))"
    echo "ours: $OURS"
    [[ ! -s $WORK/state/lat.conf ]] ||
        echo "delayed link: $(awk '{ print $2 ", " $1 " ms each way" }' "$WORK/state/lat.conf")"
    echo "runs: warm $RUNS_WARM, cold $RUNS_COLD, cold-lat $RUNS_LAT (-lR: $RUNS_LAT_TREE) pairs"
} | tee "$OUT/meta.txt" >&2

say "timing (progress on stderr; the table on stdout and in $OUT/table.md)"
unset LS_COLORS COLUMNS TIME_STYLE QUOTING_STYLE BLOCK_SIZE LS_BLOCK_SIZE TABSIZE
export TERM=xterm TZ=UTC
python3 - "$GNU" "$OURS" "$WORK" "$OUT" "$MOUNTS" "${have_locales[*]}" "$CASES" <<'EOF'
import os, statistics, subprocess, sys, time

gnu, ours, work, out, mounts, locales, cases = sys.argv[1:]
CASES = {"l": (["-l"], "mixed"), "color": (["--color=always"], "mixed"),
         "lR": (["-lR"], "mixedtree")}
RUNS = {"warm": int(os.environ["RUNS_WARM"]), "cold": int(os.environ["RUNS_COLD"]),
        "cold-lat": int(os.environ["RUNS_LAT"])}
RUNS["warm-lat"] = RUNS["warm"]
RUNS_LAT_TREE = int(os.environ["RUNS_LAT_TREE"])


def run(prog, args, cwd, env):
    """Wall seconds of one run, stdout to /dev/null."""
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
for mount in mounts.split():
    for loc in locales.split():
        env = dict(os.environ, LC_ALL=loc)
        for case in cases.split():
            args, sub = CASES[case]
            cwd = os.path.join(work, mount, "fix", sub)
            cmd = "ls " + " ".join(args) + (" (50 x 100)" if sub == "mixedtree" else " (1 000)")
            if mount.startswith("warm"):  # fill the caches once
                run(gnu, args, cwd, env)
                run(ours, args, cwd, env)
            # The outputs are compared once per cell; for a -lat mount on the
            # mount without the delay when it is up (the same export, and
            # GNU's cold -lR over the delayed link takes some 35 s).
            check = cwd
            if mount.endswith("-lat") and os.path.isdir(os.path.join(work, mount[:-4], "fix")):
                check = os.path.join(work, mount[:-4], "fix", sub)
            same = output(gnu, args, check, env) == output(ours, args, check, env)
            g, o, ratios = [], [], []
            runs = RUNS_LAT_TREE if mount == "cold-lat" and sub == "mixedtree" else RUNS[mount]
            for _ in range(runs):
                g.append(run(gnu, args, cwd, env))
                o.append(run(ours, args, cwd, env))
                ratios.append(o[-1] / g[-1])
            row = (mount, loc, cmd, statistics.median(g), statistics.median(o),
                   statistics.median(ratios), pct(ratios, 0.1), pct(ratios, 0.9), same)
            rows.append(row)
            print(f"{mount} {loc} {cmd}: GNU {row[3]:.4f} s, statls {row[4]:.4f} s, "
                  f"ratio {row[5]:.2f}{'' if same else ' (OUTPUT DIFFERS)'}", file=sys.stderr)

lines = ["| mount | locale | command | GNU s | statls s | statls/GNU | p10-p90 | same output |",
         "|---|---|---|---:|---:|---:|---|---|"]
for m, loc, cmd, g, o, r, lo, hi, same in rows:
    lines.append(f"| {m} | {loc} | `{cmd}` | {g:.4f} | {o:.4f} | {r:.2f} | {lo:.2f}-{hi:.2f} | "
                 f"{'yes' if same else 'NO'} |")
text = "\n".join(lines) + "\n"
with open(os.path.join(out, "table.md"), "w") as f:
    f.write(text)
print(text, end="")
EOF
echo "results in $OUT" >&2
