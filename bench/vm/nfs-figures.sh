#!/usr/bin/env bash
# bench/vm/nfs-figures.sh OUT [OURS] — GNU ls (/bin/ls) against statls
# (OURS, default target/release/ls) on the kernel's own NFS client; run it
# on the host, as root: it boots the guest (bench/vm/run.sh) and writes
# OUT/ops.tsv, OUT/times.tsv and OUT/report.md.
#
#   ops    NFS operations per listing, from /proc/self/mountstats (deltas
#          around the listing; the lease's SEQUENCE/RENEW left out): ls,
#          --color=always, -l, -i on 200 files, -lR on 10 x 20, and -l and
#          --color with statls --cached=always; v3 and v4.2, warm
#          (actimeo=60, see below) and cold (actimeo=0). Each
#          counted listing follows an uncounted one of the same command,
#          so both start from the same client state (names cached; cold:
#          attributes expired at once); GNU and statls alternate which
#          goes first.
#   times  cold (actimeo=0) wall time with netem delaying lo by 0.5 ms
#          (each packet; a round trip of about 1 ms): -l of 1 000 files
#          (v4.2 and v3) and -lR of 50 x 100 (v4.2: GNU takes minutes
#          there), ROUNDS (default 2) rounds of GNU then statls, after one
#          uncounted listing. Emulated CPU: compare the ratio, not the
#          seconds.
#
# SECTIONS="ops times" (the default) chooses the parts; ROUNDS the rounds.
#
# The fixtures are made on the server's side of the export (its tmpfs),
# regular files of 1 byte; the client lists them through the mount.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} != --guest ]]; then
    [[ $# -ge 1 ]] || { echo "usage: $0 OUT [OURS]" >&2; exit 2; }
    mkdir -p "$1"
    out=$(realpath "$1")
    ours=$(realpath "${2:-$root/target/release/ls}")
    echo "host load before: $(cat /proc/loadavg)" >"$out/load.txt"
    rc=0
    # The guest gets no environment of the host's: what it needs goes by env.
    "$here/run.sh" --rwdir "$out" -- env SECTIONS="${SECTIONS:-ops times}" ROUNDS="${ROUNDS:-2}" \
        bash "$here/nfs-figures.sh" --guest "$out" "$ours" || rc=$?
    echo "host load after: $(cat /proc/loadavg)" >>"$out/load.txt"
    cat "$out/load.txt" >&2
    exit "$rc"
fi

# --- in the guest -----------------------------------------------------------
OUT=$2 OURS=$3
NFS=$here/nfs.sh
ROUNDS=${ROUNDS:-2}
SECTIONS=${SECTIONS:-ops times}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
export LC_ALL=C TZ=UTC
say() { printf 'figures: %s\n' "$*" >&2; }
ms() { echo $(($(date +%s%N) / 1000000)); }

bash "$NFS" server
E=/srv/export
mkfiles() { # DIR N
    mkdir -p "$1"
    (cd "$1" && for i in $(seq -w "$2"); do echo >"f$i"; done)
}
mkfiles $E/f200 200
for d in $(seq -w 10); do mkfiles "$E/t10/d$d" 20; done
mkfiles $E/g200 200
mkfiles $E/d1000 1000
for d in $(seq -w 50); do mkfiles "$E/t50/d$d" 100; done
# v4 sees the export as /, v3 as /srv/export: the same tree either way.
# Warm: attributes kept 60 s (actimeo=60, the default's upper bound, which
# the client reaches for files that do not change). The default starts a
# new file at 3 s, shorter than the emulated guest can be relied on to take
# between two listings on a loaded machine: a counted listing would then
# find expired what the uncounted one had just found valid.
bash "$NFS" mount 4.2 warm /mnt/v4w actimeo=60
bash "$NFS" mount 4.2 cold /mnt/v4c
bash "$NFS" mount 3 warm /mnt/v3w actimeo=60
bash "$NFS" mount 3 cold /mnt/v3c
bash "$NFS" mount 4.2 warm /mnt/v4d

# /proc/self/mountstats is copied whole around a listing (cat: fast even
# emulated), and parsed afterwards: on a warm mount the counted listing
# must follow the uncounted one well within the attribute cache's 3 s.
ops_of() { # MNT FILE: "OP COUNT" lines of MNT's per-op statistics in FILE
    awk -v m="$1" '
        $1 == "device" { on = ($5 == m) }
        on && /per-op statistics/ { inops = 1; next }
        on && inops && NF >= 2 && $1 ~ /:$/ { sub(":", "", $1); print $1, $2 }
        on && inops && NF == 0 { inops = 0 }
    ' "$2" | grep -vE '^(SEQUENCE|RENEW) '
}
# delta MNT BEFORE AFTER: "OP=N ..." for the operations that changed, and the total
delta() {
    join -j 1 <(ops_of "$1" "$2" | sort) <(ops_of "$1" "$3" | sort) |
        awk '{ d = $3 - $2; if (d) { printf "%s=%d ", $1, d; t += d } } END { printf "total=%d\n", t }'
}

ops_cell() { # MNT WHO ARGS...: one uncounted listing, then one counted
    local mnt=$1 who=$2 ls
    shift 2
    [[ $who == gnu ]] && ls=/bin/ls || ls=$OURS
    "$ls" "$@" >/dev/null 2>&1 || true
    cat /proc/self/mountstats >/tmp/before
    "$ls" "$@" >/dev/null 2>&1 || true
    cat /proc/self/mountstats >/tmp/after
    delta "$mnt" /tmp/before /tmp/after
}

if want ops; then
say "operations per listing"
printf 'mount\tcache\tcommand\twho\tops\n' >"$OUT/ops.tsv"
flip=0
for m in v4w v4c v3w v3c; do
    case $m in v4*) vers=4.2 ;; *) vers=3 ;; esac
    case $m in *w) cache=warm ;; *) cache=cold ;; esac
    mnt=/mnt/$m
    for cmd in "ls f200" "ls --color=always f200" "ls -l f200" "ls -i f200" "ls -lR t10" \
        "ls -l --cached=always f200" "ls --color=always --cached=always f200"; do
        read -r -a words <<<"$cmd"
        args=("${words[@]:1}")
        args=("${args[@]/#f200/$mnt/f200}")
        args=("${args[@]/#t10/$mnt/t10}")
        if [[ $cmd == *--cached* ]]; then order=(ours)
        elif [[ $flip == 0 ]]; then order=(gnu ours)
        else order=(ours gnu); fi
        flip=$((1 - flip))
        for who in "${order[@]}"; do
            printf '%s\t%s\t%s\t%s\t%s\n' "v$vers" "$cache" "$cmd" "$who" \
                "$(ops_cell "$mnt" "$who" "${args[@]}")" >>"$OUT/ops.tsv"
        done
    done
done

# The default attribute cache (a new file's attributes kept 3 s): --color
# on a directory the client has only read, each tool first once.
for cell in "f200 gnu ours" "g200 ours gnu"; do
    read -r dir first second <<<"$cell"
    /bin/ls /mnt/v4d/$dir >/dev/null
    for who in $first $second; do
        printf '%s\t%s\t%s\t%s\t%s\n' v4.2 "default, $first first" "ls --color=always $dir" "$who" \
            "$(ops_cell /mnt/v4d "$who" --color=always "/mnt/v4d/$dir")" >>"$OUT/ops.tsv"
    done
done

fi

want times || exit 0
say "cold wall times, lo delayed 0.5 ms"
bash "$NFS" delay 0.5
printf 'mount\tcommand\twho\tround\tms\n' >"$OUT/times.tsv"
for cell in "v4c ls -l d1000" "v4c ls -lR t50" "v3c ls -l d1000"; do
    read -r m cmd <<<"$cell"
    case $m in v4*) vers=4.2 ;; *) vers=3 ;; esac
    read -r -a words <<<"$cmd"
    args=("${words[@]:1}")
    args=("${args[@]/#d1000//mnt/$m/d1000}")
    args=("${args[@]/#t50//mnt/$m/t50}")
    # One uncounted listing first (by statls: it is the client's state,
    # names cached, that matters, not who made it).
    "$OURS" "${args[@]}" >/dev/null
    for r in $(seq "$ROUNDS"); do
        for who in gnu ours; do
            [[ $who == gnu ]] && ls=/bin/ls || ls=$OURS
            t0=$(ms)
            "$ls" "${args[@]}" >/dev/null
            printf '%s\t%s\t%s\t%s\t%s\n' "v$vers" "$cmd" "$who" "$r" "$(($(ms) - t0))" >>"$OUT/times.tsv"
        done
    done
done
bash "$NFS" delay 0
say "done"
