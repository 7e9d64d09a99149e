#!/usr/bin/env python3
"""Build the benchmark fixtures, deterministically (fixed seed).

usage: mkfixtures.py ROOT [--big]

ROOT/flat   10 000 entries of mixed types and sizes in one directory
ROOT/tree   200 directories x 100 files (20 200 entries with the dirs)
ROOT/big    (--big) 20 x 50 directories x 199 files (200 020 entries)
ROOT/huge   (--big) 100 000 entries of mixed types in one directory

Regular files are sparse (os.truncate), so sizes are varied without
writing data. Mtimes are spread over ~3 years so -t has work to do and -l
prints both the recent and the old time format.
"""
import os
import random
import stat
import sys
import time

rng = random.Random(20240601)
NOW = int(time.time())

# Name parts: mixed case, digits, dot files, spaces, non-ASCII (collation
# in en_US.UTF-8 differs from C), a few characters that need quoting.
WORDS = ["alpha", "Beta", "gamma", "Delta", "épsilon", "zeta", "Éta", "theta",
         "iota", "Kappa", "lambda", "mu", "ñu", "xi", "omicron", "Pi", "rho",
         "sigma", "tau", "upsilon", "phi", "chi", "psi", "Ωmega"]
EXTS = ["", ".txt", ".c", ".rs", ".tar.gz", ".jpg", ".md", ".o", ".sh", ".json"]


def name(i):
    w = rng.choice(WORDS)
    e = rng.choice(EXTS)
    r = rng.random()
    if r < 0.08:
        return f".{w}_{i}{e}"          # hidden
    if r < 0.10:
        return f"{w} {i}{e}"           # needs quoting
    if r < 0.11:
        return f"{w}'{i}{e}"           # needs quoting
    return f"{w}_{i}{e}"


def size():
    r = rng.random()
    if r < 0.10:
        return 0
    if r < 0.60:
        return rng.randint(1, 4096)
    if r < 0.90:
        return rng.randint(4097, 1 << 20)
    if r < 0.99:
        return rng.randint(1 << 20, 1 << 30)
    return rng.randint(1 << 30, 1 << 36)


def mtime():
    # 70% within the last six months, 30% older (the two -l formats).
    if rng.random() < 0.7:
        return NOW - rng.randint(0, 180 * 86400)
    return NOW - rng.randint(200 * 86400, 3 * 365 * 86400)


def regular(path, mode=0o644):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    os.ftruncate(fd, size())
    os.close(fd)
    os.chmod(path, mode)


def touch(path):
    t = mtime()
    os.utime(path, (t, t), follow_symlinks=False)


def flat(d, n=10_000):
    """n entries: ~80% regular (some executable, a few setuid/sgid),
    4% dirs (some sticky/other-writable), 8% symlinks (some dangling,
    some to a dir), 2% fifos, 6% extra hard links to regular files."""
    os.makedirs(d)
    regs = []
    made = 0
    i = 0
    while made < n:
        i += 1
        p = os.path.join(d, name(i))
        if os.path.lexists(p):
            continue
        r = rng.random()
        if r < 0.80 or not regs:
            m = 0o644
            x = rng.random()
            if x < 0.10:
                m = 0o755
            elif x < 0.11:
                m = 0o4755
            elif x < 0.12:
                m = 0o2755
            elif x < 0.14:
                m = 0o600
            regular(p, m)
            regs.append(p)
        elif r < 0.84:
            os.mkdir(p)
            x = rng.random()
            if x < 0.2:
                os.chmod(p, 0o1777)
            elif x < 0.3:
                os.chmod(p, 0o777)
        elif r < 0.92:
            x = rng.random()
            if x < 0.15:
                os.symlink(f"missing_{i}", p)
            elif x < 0.25:
                os.symlink(".", p)
            else:
                os.symlink(os.path.basename(rng.choice(regs)), p)
        elif r < 0.94:
            os.mkfifo(p)
        else:
            os.link(rng.choice(regs), p)
        if not os.path.islink(p):
            touch(p)
        made += 1


def tree(d, ndirs, nfiles, fanout=None):
    """ndirs directories of nfiles files each; with fanout, the dirs are
    grouped under ndirs/fanout parent dirs (two levels)."""
    os.makedirs(d)
    for k in range(ndirs):
        if fanout:
            parent = os.path.join(d, f"group{k // fanout:03d}")
            os.makedirs(parent, exist_ok=True)
            sub = os.path.join(parent, f"dir{k % fanout:03d}")
        else:
            sub = os.path.join(d, f"dir{k:03d}")
        os.mkdir(sub)
        for j in range(nfiles):
            p = os.path.join(sub, f"{rng.choice(WORDS)}_{j}{rng.choice(EXTS)}")
            if os.path.lexists(p):
                p += "_"
            r = rng.random()
            if r < 0.05:
                os.symlink(f"target_{j}", p)
                continue
            regular(p, 0o755 if r < 0.15 else 0o644)
            touch(p)
        touch(sub)


def main():
    root = sys.argv[1]
    big = "--big" in sys.argv[2:]
    flat(os.path.join(root, "flat"))
    tree(os.path.join(root, "tree"), 200, 100)
    if big:
        tree(os.path.join(root, "big"), 1000, 199, fanout=50)
        flat(os.path.join(root, "huge"), 100_000)


if __name__ == "__main__":
    main()
