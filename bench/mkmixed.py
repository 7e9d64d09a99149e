#!/usr/bin/env python3
"""Build the mixed-names fixtures for bench/table.sh, deterministically.

usage: mkmixed.py ROOT [N_FLAT] [N_DIRS] [N_PER_DIR]

ROOT/mixed      N_FLAT (100 000) empty regular files in one directory
ROOT/mixedtree  N_DIRS (200) directories of N_PER_DIR (1 000) files each

bench/table.py also asks `trees(ROOT, name)` for the mid-size `-R` trees:
tree400x500 (400 directories of 500 files), tree200x120 (200 directories
of 120 files, each with a subdirectory of 120: 400 directories of 120) and
tree2000x20 (2 000 directories of 20 files).

Names are the ordinary kind: words in lower case, Capitalized or UPPER,
joined by `_`, `-`, `.` or nothing, with digits (counters, dates, versions),
a few accented or non-Latin names (about 3 %) and several extensions. In
en_US.UTF-8 they collate very differently from byte order (case and
punctuation are ignored at the first level), which is what the sort must
handle. Files are empty: the listing, not the disk, is measured.
"""
import os
import random
import sys

WORDS = """report data image photo backup config test main index notes draft final
summary invoice budget meeting project readme changelog release build debug
module server client cache temp log archive export import schema model view
widget helper util parser lexer render update install setup license package
video music track album cover page chapter section table figure""".split()
ACCENTED = ["café", "résumé", "naïve", "Übersicht", "Ärger", "straße", "façade",
            "Ångström", "élève", "niño", "Ørsted", "smörgåsbord", "日本語", "テスト",
            "Ésprit", "über"]
EXTS = ["", "", "", ".txt", ".c", ".h", ".rs", ".py", ".md", ".jpg", ".png",
        ".tar.gz", ".json", ".o", ".log", ".csv", ".html"]
SEPS = ["_", "_", "-", "-", ".", ""]


def word(rng):
    if rng.random() < 0.03:
        return rng.choice(ACCENTED)
    w = rng.choice(WORDS)
    r = rng.random()
    if r < 0.30:
        return w.capitalize()
    if r < 0.36:
        return w.upper()
    return w


def digits(rng):
    r = rng.random()
    if r < 0.4:
        return str(rng.randint(0, 999))
    if r < 0.6:
        return f"{rng.randint(0, 9999):04d}"
    if r < 0.8:
        return f"{rng.randint(2000, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    return f"v{rng.randint(0, 12)}.{rng.randint(0, 30)}"


def name(rng):
    parts = [word(rng) for _ in range(rng.choice([1, 1, 2, 2, 3]))]
    if rng.random() < 0.6:
        parts.insert(rng.randint(0, len(parts)), digits(rng))
    sep = rng.choice(SEPS)
    return sep.join(parts) + rng.choice(EXTS)


def fill(d, n, rng):
    os.makedirs(d)
    seen = set()
    while len(seen) < n:
        nm = name(rng)
        if nm in seen:
            nm = f"{nm}{len(seen)}" if rng.random() < 0.5 else f"{len(seen)}{nm}"
            if nm in seen:
                continue
        seen.add(nm)
        os.close(os.open(os.path.join(d, nm), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))


# name -> (directories, files in each, each with a subdirectory of as many)
TREES = {
    "tree400x500": (400, 500, False),
    "tree200x120": (200, 120, True),
    "tree2000x20": (2000, 20, False),
}


def trees(root, tree):
    """Builds the mid-size tree `tree` of TREES under root, once."""
    dirs, files, sub = TREES[tree]
    if os.path.isdir(os.path.join(root, tree)):
        return
    rng = random.Random(39)
    for k in range(dirs):
        d = os.path.join(root, tree, f"{word(rng)}-{k:04d}")
        fill(d, files, rng)
        if sub:
            fill(os.path.join(d, "sub"), files, rng)


def main():
    # An option is never a ROOT: `--help` once built 300 000 files in ./--help.
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        help_asked = sys.argv[1:2] in (["-h"], ["--help"])
        print(__doc__.strip(), file=sys.stdout if help_asked else sys.stderr)
        sys.exit(0 if help_asked else 2)
    root = sys.argv[1]
    n_flat = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    n_dirs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    n_per = int(sys.argv[4]) if len(sys.argv) > 4 else 1_000
    rng = random.Random(21)
    fill(os.path.join(root, "mixed"), n_flat, rng)
    for k in range(n_dirs):
        fill(os.path.join(root, "mixedtree", f"{word(rng)}-{k:03d}"), n_per, rng)


if __name__ == "__main__":
    main()
