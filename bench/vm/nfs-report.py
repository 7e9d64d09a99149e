#!/usr/bin/env python3
"""bench/vm/nfs-report.py OUT: the markdown tables of bench/vm/nfs-figures.sh's
OUT/ops.tsv and OUT/times.tsv, and of the writer experiments
(bench/vm/nfs-writer.sh's OUT/writer.tsv, bench/vm/ceph-writer.sh's
OUT/ceph-writer.tsv), on stdout: whichever OUT holds.

Operations: the total per listing, then the operations that make it up
(GETATTR, LOOKUP, ACCESS, READDIR/READDIRPLUS, GETACL/GETXATTR/LISTXATTRS,
others). Times: GNU's over statls's, each round and of the medians (the
seconds of an emulated guest mean nothing elsewhere).
"""
import collections
import statistics
import sys

ABBREV = {"GETATTR": "GA", "LOOKUP": "LU", "ACCESS": "AC", "READDIR": "RD",
          "READDIRPLUS": "RD+", "GETACL": "ACL", "GETXATTR": "XA",
          "LISTXATTRS": "LXA", "FSINFO": "FSI", "PATHCONF": "PC",
          "READLINK": "RL"}


def parse_ops(text):
    ops = dict(w.split("=") for w in text.split())
    total = int(ops.pop("total", 0))
    parts = " ".join(f"{ABBREV.get(k, k)} {v}" for k, v in sorted(ops.items()))
    return total, parts


def writer(path, extra):
    """The writer experiment's table: per lister, the medians over rounds."""
    rows = [l.rstrip("\n").split("\t") for l in open(path)]
    head, rows = rows[0], rows[1:]
    by = collections.OrderedDict()
    for r in rows:
        by.setdefault(r[0], []).append(dict(zip(head, r)))
    # What the writer and the client send with nobody listing (the "none"
    # runs) is taken off each run before dividing by its listings.
    base = {c: statistics.median(int(r[c]) for r in by.get("none", [{c: 0}])) for c in extra}
    cols = " | ".join(f"{c} a listing (runs' total)" for c in extra)
    print(f"| lister | writer MiB/s (runs) | listings a run | {cols} |")
    print("|---|--:|--:|" + "--:|" * len(extra))
    for name, runs in by.items():
        mib = ", ".join(r["MiBps"] for r in runs)
        n = statistics.median(int(r["listings"]) for r in runs)
        per = []
        for c in extra:
            vals = [(int(r[c]) - base[c]) / int(r["listings"]) for r in runs if int(r["listings"])]
            tot = ", ".join(r[c] for r in runs)
            per.append(f"{statistics.median(vals):.2f} ({tot})" if vals else f"– ({tot})")
        print(f"| {name} | {mib} | {n:.0f} | " + " | ".join(per) + " |")
    print()


def main(out):
    import os
    if os.path.exists(f"{out}/writer.tsv"):
        writer(f"{out}/writer.tsv", ["GETATTR", "COMMIT"])
    if os.path.exists(f"{out}/ceph-writer.tsv"):
        writer(f"{out}/ceph-writer.tsv", ["revokes", "requests"])
    if os.path.exists(f"{out}/ops.tsv"):
        ops(out)
    if os.path.exists(f"{out}/times.tsv"):
        times(out)


def ops(out):
    rows = [l.rstrip("\n").split("\t") for l in open(f"{out}/ops.tsv")][1:]
    cells = collections.OrderedDict()
    for mount, cache, cmd, who, ops in rows:
        cells.setdefault((cmd, mount, cache), {})[who] = parse_ops(ops)
    print("| command | mount | cache | GNU 9.1 ops | statls ops | GNU: what | statls: what |")
    print("|---|---|---|--:|--:|---|---|")
    for (cmd, mount, cache), who in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        g = who.get("gnu", ("–", ""))
        o = who.get("ours", ("–", ""))
        print(f"| `{cmd}` | {mount} | {cache} | {g[0]} | {o[0]} | {g[1]} | {o[1]} |")
    print()


def times(out):
    times = collections.OrderedDict()
    for l in list(open(f"{out}/times.tsv"))[1:]:
        mount, cmd, who, _round, ms = l.rstrip("\n").split("\t")
        times.setdefault((cmd, mount), {}).setdefault(who, []).append(int(ms))
    # Guest times are emulated: the ratio is the figure, not the seconds.
    print("| command (cold, lo +0.5 ms) | mount | GNU time / statls time, each round | of the medians |")
    print("|---|---|--:|--:|")
    for (cmd, mount), who in times.items():
        g, o = statistics.median(who["gnu"]), statistics.median(who["ours"])
        each = ", ".join(f"{a / b:.1f}x" for a, b in zip(who["gnu"], who["ours"]))
        print(f"| `{cmd}` | {mount} | {each} | {g / o:.1f}x |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: nfs-report.py OUT")
    main(sys.argv[1])
