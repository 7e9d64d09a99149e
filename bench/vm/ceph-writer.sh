#!/usr/bin/env bash
# bench/vm/ceph-writer.sh OUT [OURS] — the seed experiment on the kernel's
# CephFS client: fio writes a file, buffered, through ceph-fuse client a
# while the kernel client lists its directory (100 small files and the
# written one) 5 times a second. Run on the host, as root: boots the guest
# (bench/vm/run.sh), brings the cluster up there (bench/vm/ceph.sh), writes
# OUT/ceph-writer.tsv. CORPUS=1 first runs the shared public corpus on the
# kernel mount (fixture written through it), GNU 9.1 against OURS, into
# OUT/corpus.txt.
#
# Per lister run (RUNTIME s, default 15; ROUNDS rounds, default 1, every
# lister once a round, in turn): the writer's MiB/s (fio), the listings
# made, and from the MDS's perf counters the cap revokes
# (mds.ceph_cap_op_revoke) and client requests (mds.request) during the
# run. Listers as in bench/vm/nfs-writer.sh: none; gnu-color, ours-color,
# ours-color-cached, gnu-l, ours-l, ours-l-cached; stat-color and stat-l
# (busybox ls, lstat(2): every basic field).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} != --guest ]]; then
    [[ $# -ge 1 ]] || { echo "usage: $0 OUT [OURS]" >&2; exit 2; }
    # The cluster's packages go on the host: the guest's root is read-only.
    for p in ceph-mon ceph-osd ceph-mds ceph-fuse ceph-common fio busybox-static; do
        dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
            "$root/bench/apt-install.sh" --no-recommends "$p"
    done
    mkdir -p "$1"
    out=$(realpath "$1")
    ours=$(realpath "${2:-$root/target/release/ls}")
    echo "host load before: $(cat /proc/loadavg)" >"$out/load.txt"
    rc=0
    "$here/run.sh" --rwdir "$out" -- env RUNTIME="${RUNTIME:-15}" ROUNDS="${ROUNDS:-1}" \
        LISTERS="${LISTERS:-}" CORPUS="${CORPUS:-0}" \
        bash "$here/ceph.sh" -- bash "$here/ceph-writer.sh" --guest "$out" "$ours" || rc=$?
    echo "host load after: $(cat /proc/loadavg)" >>"$out/load.txt"
    cat "$out/load.txt" >&2
    exit "$rc"
fi

# --- in the guest, in /mnt/ceph (bench/vm/ceph.sh) ----------------------------
OUT=$2 OURS=$3
RUNTIME=${RUNTIME:-15}
ROUNDS=${ROUNDS:-1}
export LC_ALL=C TZ=UTC
say() { printf 'ceph-writer: %s\n' "$*" >&2; }
asok() { ceph --admin-daemon "$CEPH_DIR/run/mds.a.asok" "$@"; }
counter() { # NAME: mds.NAME from the MDS's perf dump
    asok perf dump | python3 -c "import json,sys; print(json.load(sys.stdin)['mds']['$1'])"
}

if [[ ${CORPUS:-0} == 1 ]]; then
    compat=$root/../shared/compat
    mkdir -p "$CEPH_MNT/public"
    bash "$compat/mkfixtures.sh" "$CEPH_MNT/public/fx" >"$OUT/mkfixtures.log" 2>&1
    bash "$compat/lsdiff.sh" -v -t 60 "$compat/cases-public.txt" /bin/ls "$OURS" \
        "$CEPH_MNT/public/fx" >"$OUT/corpus.txt" 2>&1 || true
    tail -n 1 "$OUT/corpus.txt" >&2
    rm -rf "$CEPH_MNT/public"
fi

A=$CEPH_DIR/a/exp
D=$CEPH_MNT/exp
mkdir -p "$A"
for i in $(seq -w 100); do echo >"$A/f$i"; done
ls "$D" >/dev/null

lister() {
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

printf 'lister\tround\tMiBps\tlistings\trevokes\trequests\n' >"$OUT/ceph-writer.tsv"
LISTERS=${LISTERS:-}
LISTERS=${LISTERS:-none gnu-color ours-color ours-color-cached gnu-l ours-l ours-l-cached stat-color stat-l}
# One file of 64 MiB, written over and over (never removed between runs):
# the memstore OSD (1 GiB here) does not free a removed file's objects at
# once, and a full OSD stops the writer.
for r in $(seq "$ROUNDS"); do
    for name in $LISTERS; do
        v0=$(counter ceph_cap_op_revoke) q0=$(counter request)
        fio --name=w --filename="$A/big" --rw=write --bs=1M --size=64M --time_based \
            --runtime="$RUNTIME" --output-format=terse --terse-version=3 >/tmp/fio.out 2>/tmp/fio.err &
        fio=$!
        n=0
        if [[ $name != none ]]; then
            read -r -a cmd <<<"$(lister "$name")"
            sleep 0.5
            while kill -0 "$fio" 2>/dev/null; do
                t0=$(date +%s%N)
                "${cmd[@]}" >/dev/null 2>&1 || true
                n=$((n + 1))
                left=$((200000000 - ($(date +%s%N) - t0)))
                ((left <= 0)) || sleep "0.$(printf '%09d' "$left")"
            done
        fi
        wait "$fio" || true
        kib=$(awk -F';' '{ print $48 }' /tmp/fio.out)
        v=$(($(counter ceph_cap_op_revoke) - v0)) q=$(($(counter request) - q0))
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$r" "$((kib / 1024))" "$n" "$v" "$q" >>"$OUT/ceph-writer.tsv"
        say "$name round $r: $((kib / 1024)) MiB/s, $n listings, $v revokes, $q MDS requests"
    done
done
rm -f "$A/big"
