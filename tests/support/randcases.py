#!/usr/bin/env python3
"""Random GNU ls command lines over the lsdiff fixture tree, as an lsdiff
case file (syntax: ../shared/compat/README.md) on stdout.

usage: randcases.py --seed N --count M [--locales L1,L2,...]

The same seed gives the same lines.  Each line has 1 to 5 options drawn
from the options of every GNU ls from 8.32 to 9.10 (short clusters, long
names and abbreviations of them, `--opt=val` and `--opt val`, good and bad
option arguments), 0 to 3 operands (fixture directories and files, missing
names, symlinks, loops), and sometimes an environment (LC_ALL in one of
--locales, COLUMNS, TABSIZE, QUOTING_STYLE, TIME_STYLE, LS_COLORS,
*BLOCK_SIZE, POSIXLY_CORRECT, TERM, TZ), a terminal, `AS=nobody`, a
subdirectory to run in or /dev/full as stdout.

Every line lists the same bytes twice in a row (`lsdiff.sh FILE /bin/ls
/bin/ls` prints N/N), and does not depend on when the fixture was built:
access times are listed only for files whose atime the fixture fixes,
change and birth times (the build time) are neither shown nor sorted by,
and the fixture's parent (`..` of its root) is not listed long.
Not for: --help and --version (their text is statls's own).
"""

import argparse
import random
import re

# ---- option arguments -------------------------------------------------------
# A table maps each word an option takes to the tags it brings: "long" (a
# long listing), "atime", "ctime" (change or birth time).

FORMATS = {"across": (), "commas": (), "horizontal": (), "long": ("long",),
           "single-column": (), "verbose": ("long",), "vertical": ()}
SORTS = {w: () for w in ("none", "size", "time", "version", "extension", "width", "name")}
TIMES = {"atime": ("atime",), "access": ("atime",), "use": ("atime",),
         "ctime": ("ctime",), "status": ("ctime",), "birth": ("ctime",),
         "creation": ("ctime",), "mtime": (), "modification": ()}
WHENS = {w: () for w in ("always", "yes", "force", "never", "no", "none",
                         "auto", "tty", "if-tty")}
INDICATORS = {w: () for w in ("none", "slash", "file-type", "classify")}
QUOTINGS = {w: () for w in ("literal", "locale", "shell", "shell-always", "shell-escape",
                            "shell-escape-always", "c", "c-maybe", "escape", "clocale")}
BAD_WORDS = ["", "x", "bogus", "ALWAYS", "Long", "none ", "-1", "=", "always,never"]

TIME_STYLES = [
    "full-iso", "long-iso", "iso", "locale", "posix-full-iso", "posix-long-iso",
    "posix-iso", "posix-locale", "full", "long", "l", "f", "i", "posix-", "posix-bogus",
    "bogus", "", "+%Y-%m-%d %H:%M", "+%s", "+%c", "+%x %X", "+%-d/%-m %-H", "+%_H|%^b|%#Z",
    "+%010Y", "+%Ey %Od %EC %OH", "+%:z %::z %:::z", "+%q %G %V %u %j", "+%3N", "+%N",
    "+%%", "+", "+%", "+%E", "+%O", "+%E%", "+%O%", "+%-%", "+%_%", "+%^%", "+%05%",
    "+%Ex|%EX", "+%Y\n%m-%d %H:%M", "+<%b %e>\n<%H:%M>", "+a\nb\nc", "+%A %B", "+%p %P %r",
    "+%a %e %k %l", "+%Z %z", "+%D %T %R", "+%n%t", "+%C%y %h %U %W", "posix-+%Y",
]
BLOCK_SIZES = [
    "K", "M", "G", "1", "1K", "1k", "KB", "kB", "KiB", "MiB", "1000", "512", "4096",
    "human-readable", "si", "'K", "'1", "'1000", "0", "-1", "x", "1x", "", "1E", "1Y",
    "1R", "1Q", "99999999999999999999999", "10KB", "0x10", "human", "h",
]
COLS = ["0", "1", "2", "7", "40", "80", "120", "500", "x", "-1", "", "1x",
        "99999999999999999999", "0x10", "010", " 5", "65536"]
PATTERNS = ["*.c", "*", "?", "[a-m]*", "*[0-9]", ".*", "*~", "f*", "[", "\\", "é*",
            "*[[:upper:]]*", "*.tar.*", "", "file1*", "-*", "s1*", "[!a-z]*", "*\\*",
            "d*", "*.txt", "日*"]


def pick_word(rng, table):
    """An argument for an argmatch option: a word, an abbreviation or a bad word."""
    r = rng.random()
    words = list(table)
    if r < 0.75:
        return rng.choice(words)
    if r < 0.9:
        w = rng.choice(words)
        return w[:rng.randint(1, max(1, len(w) - 1))]
    return rng.choice(BAD_WORDS)


def word_tags(value, table):
    """The tags `value` may bring: an exact word's, else (conservatively)
    those of every word it abbreviates."""
    if value in table:
        return set(table[value])
    if not value:
        return set()
    return {t for w, tags in table.items() if w.startswith(value) for t in tags}


class Opt:
    """One GNU ls option: its short letter and long name (either may be
    missing), whether it takes an argument ("req" or "opt"), how to draw
    one (a table of words, or a list of values), the tags it brings, and
    how often it is drawn."""

    def __init__(self, short=None, long=None, arg=None, values=None, tags=(), weight=1.0):
        self.short, self.long, self.arg = short, long, arg
        self.values, self.tags, self.weight = values, set(tags), weight

    def draw_value(self, rng):
        if isinstance(self.values, dict):
            v = pick_word(rng, self.values)
            return v, word_tags(v, self.values)
        return rng.choice(self.values), set()


OPTIONS = [
    Opt("a", "all", tags=("all",), weight=3), Opt("A", "almost-all", weight=2),
    Opt(None, "author"), Opt("b", "escape"), Opt("B", "ignore-backups"),
    Opt("c", tags=("ctime",), weight=0.5), Opt("C", weight=1.5),
    Opt("d", "directory", weight=1.5), Opt("D", "dired", tags=("long",)),
    Opt("f", tags=("all",), weight=1.5), Opt("F", "classify", weight=1.5),
    Opt(None, "classify", "opt", WHENS), Opt(None, "file-type"),
    Opt(None, "format", "req", FORMATS, weight=1.5), Opt(None, "full-time", tags=("long",)),
    Opt("g", tags=("long",)), Opt(None, "group-directories-first"),
    Opt("G", "no-group"), Opt("h", "human-readable", weight=1.5), Opt(None, "si"),
    Opt("H", "dereference-command-line"),
    Opt(None, "dereference-command-line-symlink-to-dir", weight=0.5),
    Opt(None, "hide", "req", PATTERNS), Opt(None, "hyperlink", "opt", WHENS),
    Opt(None, "indicator-style", "req", INDICATORS), Opt("i", "inode"),
    Opt("I", "ignore", "req", PATTERNS), Opt("k", "kibibytes"),
    Opt("l", tags=("long",), weight=5), Opt("L", "dereference"), Opt("m", weight=1.5),
    Opt("n", "numeric-uid-gid", tags=("long",)), Opt("N", "literal"),
    Opt("o", tags=("long",)), Opt("p", weight=1), Opt("q", "hide-control-chars"),
    Opt(None, "show-control-chars"), Opt("Q", "quote-name"),
    Opt(None, "quoting-style", "req", QUOTINGS, weight=2), Opt("r", "reverse", weight=1.5),
    Opt("R", "recursive", weight=1), Opt("s", "size", weight=1.5), Opt("S", weight=1.5),
    Opt(None, "sort", "req", SORTS, weight=2.5), Opt(None, "time", "req", TIMES, weight=1.5),
    Opt(None, "time-style", "req", TIME_STYLES, weight=2.5), Opt("t", weight=1.5),
    Opt("T", "tabsize", "req", COLS), Opt("u", tags=("atime",), weight=0.5),
    Opt("U", weight=1), Opt("v", weight=1), Opt("w", "width", "req", COLS, weight=2),
    Opt("x", weight=1), Opt("X", weight=1), Opt("Z", "context", weight=0.5),
    Opt(None, "zero", weight=1), Opt("1", weight=1),
    Opt(None, "color", "opt", WHENS, weight=3), Opt(None, "block-size", "req", BLOCK_SIZES, weight=2),
]
LONG_NAMES = sorted(o.long for o in OPTIONS if o.long)
BAD_OPTIONS = ["-y", "-j", "-e", "-E", "-K", "-P", "-V", "-W", "-Y", "-z", "-0", "-2",
               "--bogus", "--bogus=x", "--colour", "--si=3", "--zero=1", "--all=x",
               "--no-such-option", "--sort-by=size", "---l", "--full-time=x"]

# ---- operands (shell text, relative to the fixture root) --------------------

DIRS = ["cols", "sizes", "perms", "links", "special", "names", "version", "ext", "owners",
        "times", "empty", "deep", "loopdir", "links/realdir", "perms/d000", "perms/d300",
        "perms/sticky-dir", "perms/ow-sticky", "perms/acl-dir", "'names/dir with space'",
        "$'names/dir\\nnewline'", "names/dir:colon", "sizes/subdir", "deep/d01/d02",
        "owners/d-numeric", "times/tdir", "."]
BIG_DIRS = ["many"]
FILES = ["README", "a.txt", "Zeta", "_under", "sizes/s1024", "sizes/sparse-5G",
         "sizes/s1048577", "sizes/partial", "perms/exe", "perms/suid", "perms/f000",
         "perms/cap-file", "perms/acl-file", "perms/sticky-file", "perms/only-suid",
         "special/fifo", "special/sock", "special/chr", "special/blk", "special/chr-big",
         "ext/x.tar.gz", "ext/.hidden.c", "version/foo.~10~", "names/plain",
         "$'names/new\\nline'", "$'names/esc\\e[31mred'", "$'names/\\xff\\xfe'",
         "names/café", "names/日本語", "'names/with space'", "\"names/it's\"",
         "names/-dash", "names/.hidden", "names/ＦＵＬＬ", "$'names/tab\\there'",
         "owners/o-big", "owners/o-numeric", "times/epoch", "times/far-2400",
         "cols/00a", "links/hard1", "deep/d01/f01"]
LINKS = ["dirlink", "filelink", "brokenlink", "links/sym-dir", "links/sym-file",
         "links/broken", "links/loop1", "links/self", "links/chain1", "links/chainb1",
         "links/sym-sym-dir", "links/sym-weird-target", "links/sym-abs-chr", "links/sym-names",
         "links/sym-exe", "links/sym-fifo", "links/sym-ow-sticky", "loopdir/self",
         "loopdir/sub/up", "links/sym-into-dir"]
MISSING = ["nonexistent", "missing/x", "'no such'", "''", "a.txt/x", "links/loop1/x",
           "perms/d000/inside", "links/broken/x", "'-'", "names/nothing"]
ABSOLUTE = ['"$FIX"/cols', '"$FIX"/links/sym-dir', '"$FIX"', '"$FIX"/links/loop1']
# Subdirectories to run in (`CD=`), with names inside each.
CD_DIRS = {
    "cols": ["00a", "01bbbbbbbbbbbb", "."],
    "names": ["plain", "-", "--double-dash", "-dash", "'with space'", "$'new\\nline'", "."],
    "links": ["sym-dir", "loop1", "self", "broken", "target", "realdir"],
    "version": ["file1", "foo.~10~", "."],
    "times": ["epoch", "tdir"],
    "ext": ["a.c", "dir.d"],
}
# Files whose access time the fixture fixes (the others' follow the build).
ATIME_FIXED = ["times/recent-30d", "times/future-2030", "times/epoch", "times/pre-epoch",
               "times/ns-a", "times/ns-b", "times/same-1", "times/same-2", "times/same-3",
               "times/y2038", "times/far-2400", "times/midnight", "times/last-ns", "times/leap"]
TOP = {".", '"$FIX"'}

# ---- environment -------------------------------------------------------------

LS_COLORS_ITEMS = [
    "di=01;34", "ln=01;36", "ln=target", "or=40;31;01", "mi=01;05;37;41", "ex=01;32",
    "*.c=01;35", "*.C=32", "*.tar.gz=01;31", "*README=4", "*~=90", ".txt=33", "fi=", "fi=0",
    "no=0", "rs=0", "lc=\\e[", "rc=m", "ec=", "ca=30;41", "su=37;41", "sg=30;43", "st=37;44",
    "tw=30;42", "ow=34;42", "pi=40;33", "so=01;35", "bd=40;33;01", "cd=40;33;01",
    "do=01;35", "mh=44;37", "cl=", "*=1", "xx=1", "di=\\e[1m", "di=^[[7m", "di=38;5;196",
    "di=38;2;10;20;30", "di", "", "*.c", "di=01;3\\x", "*.TXT=07", "*.txt=36", "*.Tar.GZ=35",
    "ex=", "ln=", "or=", "*.h=1;33", "*=", "rs=\\e[0m\\e[K", "lc=\\033[", "*.sh=^?",
    "*.c=01;35;46", "*.C=01;35;46", "*.Txt=36", "*.c=",
]
TZS = ["America/New_York", "Asia/Tokyo", "Europe/Berlin", "Australia/Lord_Howe", "UTC0",
       "EST5EDT", ":Europe/London", "Invalid/Zone", "", "XXX-3", "<+0545>-5:45", "Asia/Kolkata"]
TERMS = ["xterm", "xterm-256color", "dumb", "vt100", "linux", "", "unknown"]
QUOTING_ENV = list(QUOTINGS) + ["bogus", "", "C", "Shell"]


def ls_colors(rng):
    items = [rng.choice(LS_COLORS_ITEMS) for _ in range(rng.randint(1, 4))]
    return ":".join(items) + rng.choice(["", "", ":"])


def environment(rng, locales):
    """ENV assignments: a locale most of the time, else 0-3 other variables."""
    env = []
    if locales and rng.random() < 0.7:
        loc = rng.choice(locales)
        if rng.random() < 0.1:
            env += ["-LC_ALL", "LANG=" + loc, rng.choice(["LC_MESSAGES=C", "LC_TIME=C", "LC_CTYPE=C", "LC_COLLATE=C"])]
        else:
            env.append("LC_ALL=" + loc)
    makers = [
        lambda: "COLUMNS=" + rng.choice(COLS + ["80", "40", "132"]),
        lambda: "TABSIZE=" + rng.choice(COLS),
        lambda: "QUOTING_STYLE=" + rng.choice(QUOTING_ENV),
        lambda: "TIME_STYLE=" + rng.choice(TIME_STYLES),
        lambda: "LS_COLORS=" + ls_colors(rng),
        lambda: "BLOCK_SIZE=" + rng.choice(BLOCK_SIZES),
        lambda: "LS_BLOCK_SIZE=" + rng.choice(BLOCK_SIZES),
        lambda: "POSIXLY_CORRECT=" + rng.choice(["1", ""]),
        lambda: "TERM=" + rng.choice(TERMS),
        lambda: "TZ=" + rng.choice(TZS),
    ]
    n = rng.choices([0, 1, 2, 3], [0.45, 0.3, 0.17, 0.08])[0]
    env += [make() for make in rng.sample(makers, n)]
    return [e if e.startswith("-") else quote_assignment(e) for e in env]


# ---- shell quoting -------------------------------------------------------------

SAFE = re.compile(r"[A-Za-z0-9_./:,+%@=-]+")


def q(s):
    """`s` as one bash word."""
    if SAFE.fullmatch(s):
        return s
    if "'" not in s and all(c >= " " and c != "\x7f" for c in s):
        return "'" + s + "'"
    out = []
    for c in s:
        if c in "\\'":
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c < " " or c == "\x7f":
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return "$'" + "".join(out) + "'"


def quote_assignment(a):
    name, _, value = a.partition("=")
    return name + "=" + q(value)


# ---- one command line ------------------------------------------------------------


def abbreviate(rng, name):
    """A prefix of a long option name, unique or not."""
    return name[:rng.randint(1, len(name) - 1)] if len(name) > 1 else name


def render(rng, picks):
    """argv words for the drawn options: short ones alone or clustered,
    long ones whole or abbreviated, arguments attached or separate."""
    words, cluster = [], None
    for opt, value, _ in picks:
        use_short = opt.short and (not opt.long or rng.random() < 0.6) and opt.arg != "opt"
        if use_short:
            if opt.arg == "req":
                text = "-" + opt.short
                if cluster is not None and rng.random() < 0.5:
                    words.pop()
                    text = cluster + opt.short
                if rng.random() < 0.5 and value != "":
                    words.append(q(text + value))
                else:
                    words += [q(text), q(value)]
                cluster = None
            elif cluster is not None and rng.random() < 0.6:
                cluster += opt.short
                words[-1] = q(cluster)
            else:
                cluster = "-" + opt.short
                words.append(q(cluster))
            continue
        cluster = None
        name = opt.long if rng.random() < 0.9 else abbreviate(rng, opt.long)
        if opt.arg is None:
            words.append("--" + name)
        elif opt.arg == "opt":
            r = rng.random()
            if value is None or r < 0.35:
                words.append("--" + name)
            elif r < 0.95:
                words.append(q("--" + name + "=" + value))
            else:  # the word after is an operand, not the argument
                words += ["--" + name, q(value)]
        elif rng.random() < 0.6:
            words.append(q("--" + name + "=" + value))
        else:
            words += ["--" + name, q(value)]
    return words


def draw_options(rng):
    """1-5 options: (option, argument or None, tags) each."""
    picks = []
    weights = [o.weight for o in OPTIONS]
    for _ in range(rng.choices([1, 2, 3, 4, 5], [0.25, 0.3, 0.22, 0.14, 0.09])[0]):
        opt = rng.choices(OPTIONS, weights)[0]
        value, tags = None, set(opt.tags)
        if opt.arg == "req" or (opt.arg == "opt" and rng.random() < 0.7):
            value, vtags = opt.draw_value(rng)
            tags |= vtags
        picks.append((opt, value, tags))
    return picks


def draw_operands(rng, cd):
    n = rng.choices([0, 1, 2, 3], [0.35, 0.4, 0.18, 0.07])[0]
    if cd:
        return [rng.choice(CD_DIRS[cd] + ["..", "nonexistent"]) for _ in range(n)]
    pools = [DIRS, FILES, LINKS, MISSING, ABSOLUTE, BIG_DIRS]
    out = []
    for _ in range(n):
        pool = rng.choices(pools, [0.4, 0.25, 0.2, 0.08, 0.04, 0.03])[0]
        out.append(rng.choice(pool))
    return out


def keep_build_time_out(rng, picks, operands, cd):
    """Options, operands and subdirectory such that nothing printed depends
    on when the fixture was built: no change or birth time (the build
    time), no access time but the fixed ones, no time of the root's `..`
    (the fixture's parent)."""
    tags = set().union(*(t for _, _, t in picks))
    if "ctime" in tags:
        # Shown only by long listings; sorted by only among several entries.
        picks = [p for p in picks if "long" not in p[2]]
        return picks, [rng.choice(FILES[:4] + ATIME_FIXED)], None
    if "atime" in tags:
        return picks, rng.sample(ATIME_FIXED, rng.randint(1, 3)), None
    if cd:
        lists_root = ".." in operands
    else:
        lists_root = not operands or any(o in TOP for o in operands)
    if "long" in tags and "all" in tags and lists_root:
        operands = [o for o in operands if o not in TOP and o != ".."]
        if cd:
            operands = operands or ["."]
        else:
            operands.append(rng.choice(DIRS[:13]))
    return picks, operands, cd


def case(rng, locales):
    prefix = []
    cd = rng.choice(sorted(CD_DIRS)) if rng.random() < 0.06 else None
    operands = draw_operands(rng, cd)
    picks, operands, cd = keep_build_time_out(rng, draw_options(rng), operands, cd)
    if not picks:
        picks = [(OPTIONS[1], None, set())]  # -A
    if rng.random() < 0.15:
        prefix.append(rng.choice(["TTY"] * 4 + ["TTY=0x24", "TTY=40x10", "TTY=200x50", "TTY=1x24"]))
    elif rng.random() < 0.02:
        prefix.append("FULL")
    if rng.random() < 0.07:
        prefix.append("AS=nobody")
    if cd:
        prefix.append("CD=" + cd)
    env = environment(rng, locales)
    if env:
        prefix += ["ENV"] + env + [";"]

    words = render(rng, picks)
    if rng.random() < 0.04:
        words.insert(rng.randint(0, len(words)), rng.choice(BAD_OPTIONS))
    args = list(operands)
    if any(a.lstrip("'\"$").startswith("-") for a in args) or rng.random() < 0.04:
        args.insert(0, "--")
    elif args and rng.random() < 0.15:
        # GNU permutes options after operands (not with POSIXLY_CORRECT)
        k = rng.randint(1, len(words))
        words, tail = words[:-k], words[-k:]
        args += tail
    line = words + args
    if rng.random() < 0.02:
        line.append(rng.choice(["-w", "-T", "-I", "--sort", "--time-style", "--block-size"]))
    return " ".join(prefix + line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--locales", default="", help="comma-separated LC_ALL values")
    a = ap.parse_args()
    locales = [l for l in a.locales.split(",") if l]
    rng = random.Random(a.seed)
    print("# randcases.py --seed %d --count %d --locales %s" % (a.seed, a.count, ",".join(locales)))
    for _ in range(a.count):
        print(case(rng, locales))


if __name__ == "__main__":
    main()
