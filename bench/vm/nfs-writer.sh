#!/usr/bin/env bash
# bench/vm/nfs-writer.sh OUT [OURS] — the seed experiment on the kernel's
# NFS client (v4.2, default attribute cache): fio writes a file, buffered,
# while a lister lists its directory (100 small files and the written one)
# 5 times a second on the same client. The Linux client writes a regular
# file's dirty pages back before a stat that asks for its size or times
# (nfs_getattr), so what a lister's statx mask holds decides whether the
# writer is made to flush. Run on the host, as root: boots the guest
# (bench/vm/run.sh), writes OUT/writer.tsv and prints its table.
#
# Per lister run (RUNTIME s, default 15; ROUNDS rounds, default 2, every
# lister once a round, in turn): the writer's MiB/s (fio), the listings
# made, and per listing the NFS operations of the mount (mountstats
# deltas: GETATTR, WRITE, COMMIT) — the WRITEs of a run with no lister are
# the writer's own background writeback, the baseline.
#
# Listers: none; gnu-color, ours-color, ours-color-cached (statls
# --cached=always), gnu-l, ours-l, ours-l-cached; stat-color and stat-l:
# busybox ls --color=always / -l, which stats with lstat(2) (every basic
# field: the pre-statx baseline).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} != --guest ]]; then
    [[ $# -ge 1 ]] || { echo "usage: $0 OUT [OURS]" >&2; exit 2; }
    command -v fio >/dev/null || "$root/bench/apt-install.sh" fio
    command -v busybox >/dev/null || "$root/bench/apt-install.sh" busybox-static
    mkdir -p "$1"
    out=$(realpath "$1")
    ours=$(realpath "${2:-$root/target/release/ls}")
    echo "host load before: $(cat /proc/loadavg)" >"$out/load.txt"
    rc=0
    # The guest gets no environment of the host's: what it needs goes by env.
    "$here/run.sh" --rwdir "$out" -- env RUNTIME="${RUNTIME:-15}" ROUNDS="${ROUNDS:-2}" \
        LISTERS="${LISTERS:-}" bash "$here/nfs-writer.sh" --guest "$out" "$ours" || rc=$?
    echo "host load after: $(cat /proc/loadavg)" >>"$out/load.txt"
    cat "$out/load.txt" >&2
    exit "$rc"
fi

# --- in the guest -----------------------------------------------------------
OUT=$2 OURS=$3
NFS=$here/nfs.sh
RUNTIME=${RUNTIME:-15}
ROUNDS=${ROUNDS:-2}
export LC_ALL=C TZ=UTC
say() { printf 'writer: %s\n' "$*" >&2; }

bash "$NFS" server
bash "$NFS" mount 4.2 warm /mnt/nfs
D=/mnt/nfs/exp
mkdir -p /srv/export/exp
for i in $(seq -w 100); do echo >"/srv/export/exp/f$i"; done
ls "$D" >/dev/null

lister() { # NAME: the command line of a lister
    case $1 in
        gnu-color) echo "/bin/ls --color=always $D" ;;
        ours-color) echo "$OURS --color=always $D" ;;
        ours-color-cached) echo "$OURS --color=always --cached=always $D" ;;
        gnu-l) echo "/bin/ls -l $D" ;;
        ours-l) echo "$OURS -l $D" ;;
        ours-l-cached) echo "$OURS -l --cached=always $D" ;;
        stat-color) echo "busybox ls --color=always $D" ;;
        stat-l) echo "busybox ls -l $D" ;;
    esac
}
ops() { bash "$NFS" ops /mnt/nfs | awk -v op="$1" '$1 == op { print $2 }'; }

printf 'lister\tround\tMiBps\tlistings\tGETATTR\tWRITE\tCOMMIT\n' >"$OUT/writer.tsv"
LISTERS=${LISTERS:-}
LISTERS=${LISTERS:-none gnu-color ours-color ours-color-cached gnu-l ours-l ours-l-cached stat-color stat-l}
for r in $(seq "$ROUNDS"); do
    for name in $LISTERS; do
        rm -f "$D/big"
        g0=$(ops GETATTR) w0=$(ops WRITE) c0=$(ops COMMIT)
        fio --name=w --filename="$D/big" --rw=write --bs=1M --size=256M --time_based \
            --runtime="$RUNTIME" --end_fsync=0 --output-format=terse --terse-version=3 \
            >/tmp/fio.out 2>/tmp/fio.err &
        fio=$!
        n=0
        if [[ $name != none ]]; then
            read -r -a cmd <<<"$(lister "$name")"
            sleep 0.5
            while kill -0 "$fio" 2>/dev/null; do
                t0=$(date +%s%N)
                "${cmd[@]}" >/dev/null 2>&1 || true
                n=$((n + 1))
                # 5 listings a second at most
                left=$((200000000 - ($(date +%s%N) - t0)))
                ((left <= 0)) || sleep "0.$(printf '%09d' "$left")"
            done
        fi
        wait "$fio" || true
        # terse v3: field 7 is the write bandwidth in KiB/s... of the read
        # group; the write group's starts at 48 (bandwidth = field 48).
        kib=$(awk -F';' '{ print $48 }' /tmp/fio.out)
        g=$(($(ops GETATTR) - g0)) w=$(($(ops WRITE) - w0)) c=$(($(ops COMMIT) - c0))
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$r" "$((kib / 1024))" "$n" "$g" "$w" "$c" >>"$OUT/writer.tsv"
        say "$name round $r: $((kib / 1024)) MiB/s, $n listings, GETATTR $g WRITE $w COMMIT $c"
    done
done
rm -f "$D/big"
