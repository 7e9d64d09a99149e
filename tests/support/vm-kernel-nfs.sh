#!/usr/bin/env bash
# vm-kernel-nfs.sh OUT OURS COMPAT [corpus] [color] [dead] — run inside the guest of bench/vm/run.sh
# (tests/kernel_clients.rs): the kernel's NFS server and client on the
# guest's loopback, three checks, each writing its facts under OUT:
#
#   corpus.txt, corpus.rc   COMPAT/cases-public.txt through lsdiff.sh on a
#                           fixture built on a warm v4.2 mount, /bin/ls
#                           (GNU 9.1) against OURS
#   color.txt               "gnu N" and "ours N": GETATTRs that ls
#                           --color=always of 100 regular files sent on a
#                           warm v4.2 mount whose attributes were cached by
#                           the listing just before (mountstats deltas)
#   dead.txt, dead.err      a hard mount whose nfsd is stopped: OURS
#                           --timeout=2 -l (rc, wall ms, stderr), GNU -l
#                           under timeout -s KILL 10 (rc)
#
# With no section named, all three run.
set -uo pipefail
OUT=$1 OURS=$2 COMPAT=$3
shift 3
sections=" $* "
want() { [[ $sections == "  " || $sections == *" $1 "* ]]; }
NFS=$(cd "$(dirname "$0")/../../bench/vm" && pwd)/nfs.sh
export LC_ALL=C TZ=UTC
ms() { echo $(($(date +%s%N) / 1000000)); }
getattrs() { bash "$NFS" ops "$1" | awk '$1 == "GETATTR" { print $2 }'; }

bash "$NFS" server || { echo "nfs server failed" >"$OUT/error"; exit 1; }
# The warm mount keeps attributes 10 minutes (the default is 3 to 60 s):
# an emulated CPU on a shared machine must not let the cache expire
# between the listing that fills it and the one that is counted.
bash "$NFS" mount 4.2 warm /mnt/nfs actimeo=600
bash "$NFS" mount 4.2 cold /mnt/dead

# 1. the shared corpus
if want corpus; then
t0=$(ms)
mkdir -p /mnt/nfs/public
bash "$COMPAT/mkfixtures.sh" /mnt/nfs/public/fx >"$OUT/mkfixtures.log" 2>&1
echo "fixture $(($(ms) - t0)) ms" >>"$OUT/times.txt"
# -t 60: a run limit for an emulated CPU on a shared machine (lsdiff's
# default 10 s is for a real one; a case takes well under 1 s here).
bash "$COMPAT/lsdiff.sh" -v -t 60 "$COMPAT/cases-public.txt" /bin/ls "$OURS" /mnt/nfs/public/fx \
    >"$OUT/corpus.txt" 2>&1
echo $? >"$OUT/corpus.rc"
echo "corpus $(($(ms) - t0)) ms" >>"$OUT/times.txt"
fi

# 2. --color on a warm mount: 100 regular files, made on the server side
# so that the client has cached nothing of them before the first listing.
if want color; then
mkdir -p /srv/export/color
for i in $(seq -w 100); do echo "$i" >"/srv/export/color/f$i"; done
: >"$OUT/color.txt"
for who in gnu ours gnu ours; do
    [[ $who == gnu ]] && ls=/bin/ls || ls=$OURS
    "$ls" -l /mnt/nfs/color >/dev/null
    before=$(getattrs /mnt/nfs)
    "$ls" --color=always /mnt/nfs/color >/dev/null
    echo "$who $(($(getattrs /mnt/nfs) - before))" >>"$OUT/color.txt"
done
fi

# 3. a dead server under a hard mount
if want dead; then
mkdir -p /srv/export/dead/dir
for i in $(seq -w 20); do echo "$i" >"/srv/export/dead/dir/f$i"; done
ls /mnt/dead/dead/dir >/dev/null
rpc.nfsd 0
t0=$(ms)
timeout -s KILL 30 "$OURS" --timeout=2 -l /mnt/dead/dead/dir >/dev/null 2>"$OUT/dead.err"
rc=$?
echo "ours $rc $(($(ms) - t0))" >"$OUT/dead.txt"
t0=$(ms)
timeout -s KILL 10 /bin/ls -l /mnt/dead/dead/dir >/dev/null 2>&1
rc=$?
echo "gnu $rc $(($(ms) - t0))" >>"$OUT/dead.txt"
# Let what still waits on the dead server finish before the guest stops.
rpc.nfsd -H 127.0.0.1 4
sleep 1
umount -f -l /mnt/dead 2>/dev/null
fi
echo done >"$OUT/done"
