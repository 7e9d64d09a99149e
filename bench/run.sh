#!/usr/bin/env bash
# Benchmark statls against GNU ls (/bin/ls). See bench/README.md.
#
# usage: bench/run.sh [path/to/statls/ls]
#
# environment:
#   BIG=1            also build a 200 000-entry tree (used for -R/-lR timing
#                    and as the "biggest tree" of the RSS section) and a
#                    100 000-entry flat directory (ls, --color, -l timing)
#   SECTIONS="..."   any of: timing rss strace (default: all three)
#   GNU=/bin/ls      the reference ls
#   OUT=dir          where JSON exports and logs go (default bench/out/<stamp>)
#   RUNS=N           exact number of hyperfine runs per command (default:
#                    hyperfine's own, >= 10 runs and >= 3 s)
#   RSS_RUNS=N       runs per peak-RSS measurement, median reported (11)
#   KEEP=1           keep the fixture directory
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
GNU=${GNU:-/bin/ls}
BIG=${BIG:-0}
SECTIONS=${SECTIONS:-timing rss strace}
stamp=$(date +%Y%m%d-%H%M%S)
OUT=${OUT:-$here/out/$stamp}
mkdir -p "$OUT"

say() { printf '\n== %s\n' "$*" >&2; }
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

is_root() { [[ $(id -u) -eq 0 ]]; }
apt_install() { # apt_install CMD PACKAGE
    command -v "$1" >/dev/null 2>&1 && return 0
    if is_root && command -v apt-get >/dev/null 2>&1; then
        say "installing $2"
        "$here/apt-install.sh" "$2" || true
    fi
    command -v "$1" >/dev/null 2>&1 || {
        echo "error: $1 not found; install it (e.g. 'sudo apt-get install $2')" >&2
        return 1
    }
}

# --- tools -----------------------------------------------------------------
want timing && apt_install hyperfine hyperfine
want rss && { [[ -x /usr/bin/time ]] || apt_install /usr/bin/time time; }
want strace && apt_install strace strace
command -v python3 >/dev/null || { echo "error: python3 is needed for the fixtures and the report" >&2; exit 1; }

# --- binary ----------------------------------------------------------------
if [[ $# -ge 1 ]]; then
    OURS=$(realpath "$1")
else
    say "building release binary"
    (cd "$repo" && cargo build --release --quiet)
    OURS=${CARGO_TARGET_DIR:-$repo/target}/release/ls
    OURS=$(realpath "$OURS")
fi
[[ -x $OURS ]] || { echo "error: $OURS is not executable" >&2; exit 1; }
[[ -x $GNU ]] || { echo "error: $GNU is not executable" >&2; exit 1; }

# hyperfine -N (no intermediate shell) needs hyperfine >= 1.13.
HF=(hyperfine --warmup 3 --style basic --output null)
if want timing; then
    if hyperfine --help 2>&1 | grep -q -- '--shell=none'; then HF+=(-N); else
        echo "note: this hyperfine has no -N; shell start-up is subtracted instead" >&2
    fi
    [[ -n ${RUNS:-} ]] && HF+=(--runs "$RUNS")
fi

# --- fixtures --------------------------------------------------------------
FIX=$(mktemp -d "${TMPDIR:-/tmp}/statls-bench.XXXXXX")
cleanup() { [[ ${KEEP:-0} == 1 ]] && echo "fixtures kept in $FIX" >&2 || rm -rf "$FIX"; }
trap cleanup EXIT
say "building fixtures in $FIX"
if [[ $BIG == 1 ]]; then
    python3 "$here/mkfixtures.py" "$FIX" --big
else
    python3 "$here/mkfixtures.py" "$FIX"
fi
FLAT=$FIX/flat TREE=$FIX/tree BIGT=$FIX/big
BIGGEST=$TREE
[[ $BIG == 1 ]] && BIGGEST=$BIGT
n_flat=$(find "$FLAT" -mindepth 1 -maxdepth 1 | wc -l)
n_tree=$(find "$TREE" -mindepth 1 | wc -l)
n_biggest=$(find "$BIGGEST" -mindepth 1 | wc -l)
# ls -l without -a lists the non-hidden entries only: syscalls are per
# listed entry.
n_listed=$(LC_ALL=C "$GNU" -1 "$FLAT" | wc -l)

# Same environment for both programs: no LS_COLORS (built-in colour
# database), no COLUMNS/TIME_STYLE/QUOTING_STYLE/BLOCK_SIZE from the caller.
unset LS_COLORS COLUMNS TIME_STYLE QUOTING_STYLE BLOCK_SIZE LS_BLOCK_SIZE TABSIZE
export TERM=xterm TZ=UTC

locales=(C)
if locale -a 2>/dev/null | grep -qix 'en_US\.utf-\?8'; then
    locales+=(en_US.UTF-8)
else
    echo "note: en_US.UTF-8 not available; only LC_ALL=C is measured" >&2
fi

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "host: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
    echo "fs:   $(df -T "$FIX" | awk 'NR==2{print $2}') ($FIX)"
    echo "gnu:  $GNU ($("$GNU" --version | head -1))"
    echo "ours: $OURS"
    echo "hyperfine: $(hyperfine --version 2>/dev/null || echo n/a)"
    echo "fixtures: flat=$n_flat entries, tree=$n_tree entries, biggest=$(basename "$BIGGEST") $n_biggest entries"
} | tee "$OUT/meta.txt" >&2

# --- timing ----------------------------------------------------------------
# case name | args | directory
CASES=(
    "ls||$FLAT"
    "ls -l|-l|$FLAT"
    "ls --color=always|--color=always|$FLAT"
    "ls -la|-la|$FLAT"
    "ls -lR|-lR|$TREE"
    "ls -R|-R|$TREE"
    "ls -1U|-1U|$FLAT"
    "ls -t|-t|$FLAT"
    "ls -i|-i|$FLAT"
)
if [[ $BIG == 1 ]]; then
    CASES+=("ls -R (big)|-R|$BIGT" "ls -lR (big)|-lR|$BIGT"
        "ls (huge)||$FIX/huge" "ls --color=always (huge)|--color=always|$FIX/huge"
        "ls -l (huge)|-l|$FIX/huge")
fi

if want timing; then
    for loc in "${locales[@]}"; do
        for c in "${CASES[@]}"; do
            IFS='|' read -r title args dir <<<"$c"
            slug=$(printf '%s' "$loc-$title" | tr -c 'A-Za-z0-9.-' '_')
            # Sanity check: same bytes on stdout, else the timing compares
            # different work.
            if ! cmp -s <(LC_ALL=$loc "$GNU" $args "$dir" 2>&1) <(LC_ALL=$loc "$OURS" $args "$dir" 2>&1); then
                echo "WARNING: outputs differ for LC_ALL=$loc $title" | tee -a "$OUT/warnings.txt" >&2
            fi
            say "LC_ALL=$loc $title  ($dir)"
            LC_ALL=$loc "${HF[@]}" --export-json "$OUT/$slug.json" \
                -n "gnu" "$GNU $args $dir" \
                -n "statls" "$OURS $args $dir" >"$OUT/$slug.log" 2>&1 ||
                { cat "$OUT/$slug.log" >&2; exit 1; }
            grep -E 'Time \(mean|faster than|±' "$OUT/$slug.log" | head -4 >&2 || true
            printf '%s\t%s\t%s\n' "$loc" "$title" "$OUT/$slug.json" >>"$OUT/index.tsv"
        done
    done

    say "ratios (statls / GNU, same hyperfine run; < 1 means statls is faster)"
    python3 - "$OUT/index.tsv" <<'EOF' | tee "$OUT/ratios.txt"
import json, math, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
print(f"{'locale':<12} {'case':<18} {'GNU ms':>8} {'statls ms':>9} {'ratio mean':>15} {'median':>7}"
      f"  {'GNU usr/sys':>11}  {'ours usr/sys':>12}")
geo = {}
for loc, title, path in rows:
    r = {x["command"]: x for x in json.load(open(path))["results"]}
    g, o = r["gnu"], r["statls"]
    ratio = o["mean"] / g["mean"]
    err = ratio * math.hypot(g["stddev"] / g["mean"], o["stddev"] / o["mean"])
    med = o["median"] / g["median"]
    geo.setdefault(loc, []).append(ratio)
    print(f"{loc:<12} {title:<18} {g['mean']*1e3:8.1f} {o['mean']*1e3:9.1f} "
          f"{ratio:7.2f} ± {err:5.2f} {med:7.2f}"
          f"  {g['user']*1e3:5.1f}/{g['system']*1e3:5.1f}  {o['user']*1e3:6.1f}/{o['system']*1e3:5.1f}")
for loc, rs in geo.items():
    print(f"{loc:<12} {'geometric mean':<18} {'':>8} {'':>9} {math.exp(statistics.fmean(map(math.log, rs))):7.2f}")
EOF
fi

# --- peak RSS --------------------------------------------------------------
if want rss; then
    rss_runs=${RSS_RUNS:-11}
    say "peak RSS (KiB, median [min-max] of $rss_runs runs, LC_ALL=C): -R/-lR on $(basename "$BIGGEST") ($n_biggest entries), the flat dir, an empty dir"
    # Peak RSS varies by ~±150 KiB from run to run for both programs (ASLR
    # moves the 64 KiB fault-around windows over the mapped libraries), so
    # the median of several runs is compared, never a single run.
    peak() { # peak PROG ARGS... -> "median min max" of %M
        local i
        for ((i = 0; i < rss_runs; i++)); do
            LC_ALL=C /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
        done | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)], v[1], v[NR]}'
    }
    empty=$(mktemp -d)
    {
        printf '%-10s %-6s %20s %20s %8s\n' case dir "GNU med [min-max]" "statls med [min-max]" ratio
        rss_cases=("-R|$BIGGEST" "-lR|$BIGGEST" "|$FLAT" "-l|$FLAT" "|$empty" "-l|$empty")
        [[ $BIG == 1 ]] && rss_cases+=("-l|$FIX/huge")
        for c in "${rss_cases[@]}"; do
            IFS='|' read -r a dir <<<"$c"
            read -r g gmin gmax <<<"$(peak "$GNU" $a "$dir")"
            read -r o omin omax <<<"$(peak "$OURS" $a "$dir")"
            name=$(basename "$dir")
            [[ $dir == "$empty" ]] && name=empty
            printf '%-10s %-6s %20s %20s %8.2f\n' "ls $a" "$name" "$g [$gmin-$gmax]" "$o [$omin-$omax]" \
                "$(echo "$o $g" | awk '{print $1/$2}')"
        done
    } | tee "$OUT/rss.txt"
    rmdir "$empty"
fi

# --- syscalls --------------------------------------------------------------
if want strace; then
    say "syscalls for ls -l of the flat dir ($n_listed listed entries of $n_flat, LC_ALL=C), strace -f"
    # A full trace, not strace -c: strace before 6.13 does not know
    # getxattrat (Linux 6.13) by name and -c leaves such calls out; the
    # trace prints it as syscall_0x1d0.
    count() { # count PROG -> "statx newfstatat lgetxattr getxattr getxattrat getdents64 total_all"
        local f=$OUT/strace-$1.txt
        LC_ALL=C strace -f -qq -o "$f" "$2" -l "$FLAT" >/dev/null
        awk '
            { line = $0; sub(/^[0-9]+ +/, "", line); if (line !~ /^[a-z_0-9]+\(/) next
              name = line; sub(/\(.*/, "", name); if (name == "syscall_0x1d0") name = "getxattrat"
              n[name]++; all++ }
            END { printf "%d %d %d %d %d %d %d\n", n["statx"], n["newfstatat"], n["lgetxattr"], n["getxattr"], n["getxattrat"], n["getdents64"], all }' "$f"
    }
    {
        printf '%-7s %7s %10s %9s %8s %10s %10s %7s %9s %9s\n' prog statx newfstatat lgetxattr getxattr getxattrat getdents64 sum "sum/entry" "all/entry"
        for p in gnu statls; do
            bin=$GNU; [[ $p == statls ]] && bin=$OURS
            read -r sx nf lg gx ga gd all < <(count "$p" "$bin")
            sum=$((sx + nf + lg + gx + ga + gd))
            printf '%-7s %7d %10d %9d %8d %10d %10d %7d %9.3f %9.3f\n' "$p" "$sx" "$nf" "$lg" "$gx" "$ga" "$gd" "$sum" \
                "$(awk -v a="$sum" -v n="$n_listed" 'BEGIN{print a/n}')" \
                "$(awk -v a="$all" -v n="$n_listed" 'BEGIN{print a/n}')"
        done
    } | tee "$OUT/syscalls.txt"
fi

echo >&2
echo "results in $OUT" >&2
