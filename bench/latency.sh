#!/usr/bin/env bash
# Latency testbed: GNU ls vs statls on a FUSE filesystem that adds a delay to
# every request and counts them (bench/latfs/latfs.c). See bench/README.md,
# section "Latency testbed".
#
# usage: bench/latency.sh [path/to/statls/ls]   (default: target/release/ls,
#                                                built if missing)
#
# environment:
#   DELAY_US=1000   delay latfs adds before answering each request
#   N_FLAT=2000     entries in the flat directory
#   READDIRPLUS=1   let latfs answer READDIRPLUS (off by default)
#   GNU=/bin/ls     the reference ls
#   OUT=dir         latfs binary, outputs, counters, table
#                   (default bench/out/latency-<stamp>)
#   KEEP=1          keep the fixture directory
#   ONLY=REGEX      run only the cases whose name matches (grep -E), e.g.
#                   ONLY='^ls -l( \(ours --cached|$)' N_FLAT=1000 for the
#                   --cached table of issue 23
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
GNU=${GNU:-/bin/ls}
DELAY_US=${DELAY_US:-1000}
N_FLAT=${N_FLAT:-2000}
READDIRPLUS=${READDIRPLUS:-0}
plus=
[[ $READDIRPLUS == 1 ]] && plus=,readdirplus
stamp=$(date +%Y%m%d-%H%M%S)
OUT=${OUT:-$here/out/latency-$stamp}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

say() { printf '\n== %s\n' "$*" >&2; }
is_root() { [[ $(id -u) -eq 0 ]]; }
apt_install() { # apt_install TEST-COMMAND PACKAGE: install PACKAGE unless TEST-COMMAND succeeds
    eval "$1" >/dev/null 2>&1 && return 0
    if is_root && command -v apt-get >/dev/null 2>&1; then
        say "installing $2"
        "$here/apt-install.sh" "$2" || true
    fi
    eval "$1" >/dev/null 2>&1 || {
        echo "error: '$1' failed; install $2 (e.g. 'sudo apt-get install $2')" >&2
        return 1
    }
}

# --- tools -----------------------------------------------------------------
apt_install 'command -v gcc' gcc
apt_install 'command -v pkg-config' pkg-config
apt_install 'pkg-config --exists fuse3' libfuse3-dev
apt_install 'command -v fusermount3' fuse3
[[ -c /dev/fuse ]] || { echo "error: /dev/fuse is missing (modprobe fuse?)" >&2; exit 1; }

# --- binaries --------------------------------------------------------------
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

say "building latfs"
LATFS=$OUT/latfs
# shellcheck disable=SC2046 # pkg-config output is meant to split
gcc -O2 -Wall -Wextra -o "$LATFS" "$here/latfs/latfs.c" $(pkg-config --cflags --libs fuse3)

# --- fixtures --------------------------------------------------------------
FIX=$(mktemp -d "${TMPDIR:-/tmp}/statls-latency.XXXXXX")
MNT=$(mktemp -d "${TMPDIR:-/tmp}/statls-latfs-mnt.XXXXXX")
LATFS_PID=
unmount() {
    if grep -q " $MNT " /proc/self/mountinfo; then
        fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT" || true
    fi
    if [[ -n $LATFS_PID ]]; then
        wait "$LATFS_PID" 2>/dev/null || true
        LATFS_PID=
    fi
}
cleanup() {
    cd /
    unmount
    rmdir "$MNT" 2>/dev/null || true
    if [[ ${KEEP:-0} == 1 ]]; then echo "fixtures kept in $FIX" >&2; else rm -rf "$FIX"; fi
}
trap cleanup EXIT

say "building fixtures in $FIX"
# flat: N_FLAT entries, all but ~1 % regular files (every 10th non-empty);
# 1 of 200 a directory, 1 of 200 a symlink. tree: 50 dirs x 20 files.
mkdir "$FIX/flat" "$FIX/tree"
(
    cd "$FIX/flat"
    for ((i = 0; i < N_FLAT; i++)); do
        name=$(printf 'f%05d' "$i")
        case $((i % 200)) in
        7) mkdir "$name.d" ;;
        8) ln -s "f$(printf '%05d' $((i - 8)))" "$name.l" ;;
        *) if ((i % 10 == 3)); then printf '%*s' $((i % 4096)) '' >"$name"; else echo -n "$name "; fi ;;
        esac
    done | xargs -r touch
)
for ((d = 0; d < 50; d++)); do
    dir=$FIX/tree/$(printf 'd%02d' "$d")
    mkdir "$dir"
    (cd "$dir" && touch $(printf 'f%02d ' $(seq 0 19)))
done

# Same environment for both programs, as in run.sh.
unset LS_COLORS COLUMNS TIME_STYLE QUOTING_STYLE BLOCK_SIZE LS_BLOCK_SIZE TABSIZE
export TERM=xterm TZ=UTC LC_ALL=C

# --- latfs control -----------------------------------------------------------
STATS=$OUT/stats.cur
mount_latfs() { # mount_latfs DELAY_US TIMEOUT
    unmount
    "$LATFS" "$FIX" "$MNT" -f -o "ro,fsname=latfs,subtype=latfs,delay_us=$1,timeout=$2,stats=$STATS$plus" \
        >>"$OUT/latfs.log" 2>&1 &
    LATFS_PID=$!
    local i
    for ((i = 0; i < 100; i++)); do
        grep -q " $MNT .* fuse.latfs " /proc/self/mountinfo && return 0
        kill -0 "$LATFS_PID" 2>/dev/null || break
        sleep 0.05
    done
    echo "error: latfs did not mount (see $OUT/latfs.log)" >&2
    exit 1
}
dump_stats() { # dump_stats FILE: SIGUSR1, wait for the (atomically renamed) file
    rm -f "$STATS"
    kill -USR1 "$LATFS_PID"
    local i
    for ((i = 0; i < 200; i++)); do
        [[ -e $STATS ]] && { mv "$STATS" "$1"; return 0; }
        sleep 0.01
    done
    echo "error: latfs wrote no counters" >&2
    exit 1
}
reset_stats() {
    # Signals are handled asynchronously and a pending SIGUSR1 would be
    # taken before SIGUSR2: reset until a dump says the counters are zero.
    local i
    for ((i = 0; i < 50; i++)); do
        kill -USR2 "$LATFS_PID"
        sleep 0.02
        dump_stats "$OUT/stats.reset"
        grep -qx 'total 0' "$OUT/stats.reset" && return 0
    done
    echo "error: latfs counters do not reset" >&2
    exit 1
}
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# --- cases -------------------------------------------------------------------
# name | args | working directory (in the mount) | cache | env for statls
# Each command lists its working directory, no operand, as when a user
# types `ls -l` in the directory: GNU then stats bare names (`f00001`, or
# `./d00/f00` under -R). An operand `flat` would add one LOOKUP per probe.
CASES=(
    "ls||flat|cold|"
    "ls --color=always|--color=always|flat|cold|"
    "ls -i|-i|flat|cold|"
    "ls -l|-l|flat|cold|"
    "ls -l (ours sequential)|-l|flat|cold|STATLS_THREADS=1"
    "ls -l (ours --cached=always)|-l|flat|cold|LS_CACHED=always"
    "ls -l (ours --cached=never)|-l|flat|cold|LS_CACHED=never"
    "ls -lR tree|-lR|tree|cold|"
    "ls -l|-l|flat|warm|"
    "ls -R tree|-R|tree|warm|"
    "ls -lR tree|-lR|tree|warm|"
    "ls -l (ours --cached=always)|-l|flat|warm|LS_CACHED=always"
    "ls -l (ours --cached=never)|-l|flat|warm|LS_CACHED=never"
)
# --cached=MODE variants run through LS_CACHED (the option's variable), so
# that GNU, which has no such option, is measured by the plain case.
if [[ -n ${ONLY:-} ]]; then
    kept=()
    for c in "${CASES[@]}"; do
        grep -qE -- "$ONLY" <<<"${c%%|*}" && kept+=("$c")
    done
    CASES=("${kept[@]}")
fi
slug() { printf '%s' "$*" | tr -c 'A-Za-z0-9.-' '_'; }
run_ls() { # run_ls ENV PROG ARGS DIR OUTFILE: run PROG ARGS in $MNT/DIR
    # shellcheck disable=SC2086 # ENV and ARGS are word lists
    (cd "$MNT/$4" && exec env $1 "$2" $3 >"$5" 2>"$5.err")
}

n_flat=$(find "$FIX/flat" -mindepth 1 -maxdepth 1 | wc -l)
n_tree=$(find "$FIX/tree" -mindepth 1 | wc -l)
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "host: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
    echo "source fs: $(df -T "$FIX" | awk 'NR==2{print $2}') ($FIX)"
    echo "gnu:  $GNU ($("$GNU" --version | head -1))"
    echo "ours: $OURS"
    echo "latfs: delay_us=$DELAY_US, readdirplus $([[ -n $plus ]] && echo on || echo off), timeout 0 (cold) / 60 (warm)"
    echo "fixtures: flat=$n_flat entries, tree=$n_tree entries"
} | tee "$OUT/meta.txt" >&2

# 1. Same output? Checked first on a mount without delay (cheap), then again
#    on every measured run below.
say "checking that both programs print the same bytes (latfs, no delay)"
mount_latfs 0 0
: >"$OUT/warnings.txt"
for c in "${CASES[@]}"; do
    IFS='|' read -r name args dir cache env <<<"$c"
    run_ls "" "$GNU" "$args" "$dir" "$OUT/check-gnu.txt" || true
    run_ls "$env" "$OURS" "$args" "$dir" "$OUT/check-ours.txt" || true
    if ! cmp -s "$OUT/check-gnu.txt" "$OUT/check-ours.txt"; then
        echo "WARNING: stdout differs for $name (in $dir)" | tee -a "$OUT/warnings.txt" >&2
    fi
done

# 2. Measure: per run, reset the counters, time the command, dump them. The
#    cd into the directory (LOOKUP, GETATTR, ACCESS) happens before the reset.
measure() { # measure SLUG ENV PROG ARGS DIR -> prints "ms total max_inflight"
    (
        st=$OUT/$1.stats
        cd "$MNT/$5"
        reset_stats
        t0=$(date +%s%N)
        # shellcheck disable=SC2086 # ENV and ARGS are word lists
        env $2 "$3" $4 >"$OUT/$1.out" 2>"$OUT/$1.out.err" ||
            echo "note: $1 exited with status $?" >>"$OUT/warnings.txt"
        t1=$(date +%s%N)
        dump_stats "$st"
        echo "$(((t1 - t0) / 1000000)) $(stat_of "$st" total) $(stat_of "$st" max_inflight)"
    )
}

# results.txt: cache|name|args|dir|GNU "ms req infl"|ours "ms req infl"|same
: >"$OUT/results.txt"
for cache in cold warm; do
    timeout=0
    [[ $cache == warm ]] && timeout=60
    say "$cache cache: latfs delay_us=$DELAY_US timeout=$timeout"
    mount_latfs "$DELAY_US" "$timeout"
    # What the harness itself costs (starting `env` and `date` in a
    # directory of the mount): the "harness" row of the by-type table.
    measure "$cache-harness" "" "$(command -v true)" "" flat >/dev/null
    for c in "${CASES[@]}"; do
        IFS='|' read -r name args dir ccache env <<<"$c"
        [[ $ccache == "$cache" ]] || continue
        s=$(slug "$cache-$name")
        if [[ -n $env ]]; then
            # A variant of statls only: GNU's numbers are the plain case's run.
            gnu=$(awk -F'|' -v c="$cache" -v a="$args" -v d="$dir" \
                '$1 == c && $3 == a && $4 == d { print $5; exit }' "$OUT/results.txt")
            cp "$OUT/$(slug "$cache-${name% (*}")-gnu.out" "$OUT/$s-gnu.out"
        else
            # Warm: a first run fills the kernel's caches (60 s lifetime).
            if [[ $cache == warm ]]; then run_ls "" "$GNU" "$args" "$dir" /dev/null || true; fi
            gnu=$(measure "$s-gnu" "" "$GNU" "$args" "$dir")
        fi
        if [[ $cache == warm ]]; then run_ls "$env" "$OURS" "$args" "$dir" /dev/null || true; fi
        ours=$(measure "$s-ours" "$env" "$OURS" "$args" "$dir")
        same=yes
        cmp -s "$OUT/$s-gnu.out" "$OUT/$s-ours.out" || {
            same=NO
            echo "WARNING: stdout differs for $cache $name" | tee -a "$OUT/warnings.txt" >&2
        }
        printf '%s|%s|%s|%s|%s|%s|%s\n' "$cache" "$name" "$args" "$dir" "$gnu" "$ours" "$same" >>"$OUT/results.txt"
        printf '%s %-26s GNU %s | ours %s (ms requests max_inflight)\n' "$cache" "$name" "$gnu" "$ours" >&2
    done
done
unmount

# 3. Table.
say "results (wall ms, latfs requests, max requests in flight; speedup = GNU ms / ours ms)"
{
    printf '%-5s %-30s %9s %8s %5s %9s %8s %5s %8s %5s\n' cache case "GNU ms" "GNU req" "infl" "ours ms" "ours req" "infl" speedup same
    while IFS='|' read -r cache name args dir gnu ours same; do
        read -r gms greq ginf <<<"$gnu"
        read -r oms oreq oinf <<<"$ours"
        printf '%-5s %-30s %9d %8d %5d %9d %8d %5d %7.1fx %5s\n' "$cache" "$name" "$gms" "$greq" "$ginf" \
            "$oms" "$oreq" "$oinf" "$(awk -v g="$gms" -v o="$oms" 'BEGIN { print (o > 0 ? g / o : 0) }')" "$same"
    done <"$OUT/results.txt"
} | tee "$OUT/table.txt"

# Where the requests go, per type (from the saved counters).
say "requests by type (the harness row is in every other row too)"
{
    types="LOOKUP GETATTR GETXATTR READLINK OPENDIR READDIR READDIRPLUS RELEASEDIR"
    printf '%-42s' run
    for t in $types; do printf ' %11s' "$t"; done
    printf ' %8s\n' other
    for f in "$OUT"/cold-*.stats "$OUT"/warm-*.stats; do
        [[ -e $f ]] || continue
        printf '%-42s' "$(basename "$f" .stats)"
        sum=0
        for t in $types; do n=$(stat_of "$f" "$t"); sum=$((sum + n)); printf ' %11d' "$n"; done
        printf ' %8d\n' $(($(stat_of "$f" total) - sum))
    done
} | tee "$OUT/by-type.txt"

if [[ -s $OUT/warnings.txt ]]; then
    say "warnings"
    cat "$OUT/warnings.txt" >&2
fi
echo >&2
echo "results in $OUT" >&2
