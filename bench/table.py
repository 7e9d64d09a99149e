#!/usr/bin/env python3
"""The speed table of issue 21: statls against GNU ls on ordinary names.

usage: bench/table.py [--ours PATH] [--gnu /bin/ls] [--runs N] [--locales L,L]
                      [--cells plain,color,l,R,lR,R400x500,R400x120,R2000x20] [--fixture DIR] [--keep]
                      [--ours-args ARGS]

Builds the mixed-names fixtures (bench/mkmixed.py: 100 000 names in one
directory, 200 directories of 1 000 for -R) in a temporary directory, then
for every cell of the table (locale x case) runs GNU ls and statls in turn,
A B A B ..., stdout to /dev/null, and reports per cell:

- the median of the per-pair time ratios statls/GNU (pairs keep the ratio
  meaningful when a shared machine's speed drifts), with the 10th-90th
  percentile range of those ratios as the spread;
- the median of the per-pair CPU-time ratios (user + system): on a busy
  machine, where a second thread may find no free CPU, this shows the work
  done, the wall ratio what a user waits;
- the median wall ms of each program;
- the median peak RSS (KiB) of each, from separate runs under GNU time
  (`/usr/bin/time -f %M`: a small parent, so its own memory does not set a
  floor under the child's figure, as a Python parent's would).

Needs python3 and /usr/bin/time (Debian: `apt-get install time`). Before timing a cell, both
outputs are compared and a difference is reported (the timing then compares
different work). A benchmark, not a test: nothing fails on a slow figure.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mkmixed  # noqa: E402
REPO = os.path.dirname(HERE)

# case name -> (arguments, fixture)
CASES = {
    "plain": ([], "mixed"),
    "color": (["--color=always"], "mixed"),
    "l": (["-l"], "mixed"),
    "R": (["-R"], "mixedtree"),
    "lR": (["-lR"], "mixedtree"),
    # Mid-size trees (mkmixed.TREES), built when first asked for.
    "R400x500": (["-R"], "tree400x500"),
    "R400x120": (["-R"], "tree200x120"),
    "R2000x20": (["-R"], "tree2000x20"),
}
# The goals (ratio to GNU); None: not asked for.
GOALS = {
    "C": {"plain": 0.50, "color": 0.50, "l": 0.40, "R": 0.50, "lR": 0.45,
          "R400x500": 0.45, "R400x120": 0.60},
    "en_US.UTF-8": {"plain": 0.50, "color": 0.55, "l": 0.45, "R": 0.60, "lR": 0.50},
    "de_DE.UTF-8": {"plain": 0.55, "l": 0.50},
    "ja_JP.UTF-8": {"plain": 0.55, "l": 0.50},
}


def run_once(argv, env):
    """Wall and CPU (user + system) seconds of one run, output thrown away."""
    with open(os.devnull, "wb") as null:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=null, stderr=null, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime


def peak_rss(argv, env, runs):
    """Median peak RSS (KiB) of `runs` runs under /usr/bin/time."""
    values = []
    with tempfile.NamedTemporaryFile("r") as out, open(os.devnull, "wb") as null:
        for _ in range(runs):
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, *argv],
                           stdout=null, stderr=null, env=env)
            out.seek(0)
            values.append(int(out.read().split()[-1]))
    return statistics.median(values)


def percentile(values, p):
    s = sorted(values)
    k = (len(s) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def measure(gnu, ours, args, path, env, runs, warmup, rss_runs):
    """`ours` is the statls command: its binary and its own arguments."""
    for _ in range(warmup):
        run_once([gnu, *args, path], env)
        run_once([*ours, *args, path], env)
    ratios, cpu_ratios, g_ms, o_ms = [], [], [], []
    for _ in range(runs):
        gw, gc = run_once([gnu, *args, path], env)
        ow, oc = run_once([*ours, *args, path], env)
        ratios.append(ow / gw)
        cpu_ratios.append(oc / gc)
        g_ms.append(gw * 1e3)
        o_ms.append(ow * 1e3)
    return {
        "ratio": statistics.median(ratios),
        "cpu": statistics.median(cpu_ratios),
        "p10": percentile(ratios, 0.1),
        "p90": percentile(ratios, 0.9),
        "gnu_ms": statistics.median(g_ms),
        "ours_ms": statistics.median(o_ms),
        "gnu_rss": peak_rss([gnu, *args, path], env, rss_runs),
        "ours_rss": peak_rss([*ours, *args, path], env, rss_runs),
    }


def same_output(gnu, ours, args, path, env):
    def out(command):
        return subprocess.run([*command, *args, path], env=env, capture_output=True).stdout

    return out([gnu]) == out(ours)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", help="statls binary (default: cargo build --release)")
    ap.add_argument("--gnu", default="/bin/ls")
    ap.add_argument("--ours-args", default="",
                    help="arguments for statls alone, before each case's: with --gnu set to "
                         "the same statls, e.g. --ours-args=--timeout=30 measures what the "
                         "option costs (its listing runs in a child process, whose CPU time "
                         "the cpu column then leaves out)")
    ap.add_argument("--runs", type=int, default=21, help="measured pairs per cell (21)")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--rss-runs", type=int, default=5, help="peak-RSS runs per program (5)")
    ap.add_argument("--locales", default=",".join(GOALS))
    ap.add_argument("--cells", default=",".join(CASES), help="which cases (all)")
    ap.add_argument("--all-cells", action="store_true",
                    help="every case in every locale (default: the cells with a goal)")
    ap.add_argument("--fixture", help="an existing fixture root (mixed/, mixedtree/)")
    ap.add_argument("--keep", action="store_true", help="keep the generated fixture")
    opts = ap.parse_args()

    ours = opts.ours
    if not ours:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=REPO, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
        ours = os.path.join(target, "release", "ls")
    ours = os.path.realpath(ours)

    root = opts.fixture
    made = None
    if not root:
        made = root = tempfile.mkdtemp(prefix="statls-table.")
        print(f"building the fixtures in {root}", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(HERE, "mkmixed.py"), root], check=True)

    base_env = {k: v for k, v in os.environ.items()
                if k not in ("LS_COLORS", "COLUMNS", "TIME_STYLE", "QUOTING_STYLE",
                             "BLOCK_SIZE", "LS_BLOCK_SIZE", "TABSIZE", "LANG", "LANGUAGE")
                and not k.startswith("LC_")}
    base_env.update(TERM="xterm", TZ="UTC")

    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}; {opts.runs} pairs a cell, GNU and statls in turn")
    print(f"# gnu: {opts.gnu}; ours: {ours} {opts.ours_args}".rstrip())
    ours = [ours, *opts.ours_args.split()]
    head = (f"{'locale':<12} {'case':<6} {'ratio':>6} {'p10-p90':>11} {'goal':>5} {'cpu':>5} "
            f"{'GNU ms':>7} {'ours ms':>7} {'GNU KiB':>8} {'ours KiB':>8}")
    print(head)
    try:
        for loc in opts.locales.split(","):
            env = dict(base_env, LC_ALL=loc)
            for cell in opts.cells.split(","):
                goal = GOALS.get(loc, {}).get(cell)
                if goal is None and not opts.all_cells:
                    continue
                args, fixture = CASES[cell]
                path = os.path.join(root, fixture)
                if fixture in mkmixed.TREES:
                    mkmixed.trees(root, fixture)
                note = "" if same_output(opts.gnu, ours, args, path, env) else "  (outputs differ)"
                r = measure(opts.gnu, ours, args, path, env, opts.runs, opts.warmup, opts.rss_runs)
                print(f"{loc:<12} {cell:<6} {r['ratio']:6.2f} {r['p10']:5.2f}-{r['p90']:<5.2f} "
                      f"{goal if goal else '':>5} {r['cpu']:5.2f} {r['gnu_ms']:7.1f} {r['ours_ms']:7.1f} "
                      f"{r['gnu_rss']:8.0f} {r['ours_rss']:8.0f}{note}", flush=True)
    finally:
        if made and not opts.keep:
            shutil.rmtree(made, ignore_errors=True)
        elif made:
            print(f"fixtures kept in {made}", file=sys.stderr)


if __name__ == "__main__":
    main()
