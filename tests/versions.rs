//! statls as each GNU ls it emulates: with `STATLS_GNU_VERSION=V` it is
//! GNU ls V in stdout, stderr and exit status. The references are Debian's
//! own builds of 8.32 (bullseye), 9.7 (trixie) and 9.10 (sid), fetched once
//! by tests/support/gnu-refs.sh into target/gnu-refs/V with the C library
//! each was built against (8.32 runs on the host's: bullseye's is older than
//! the one statls needs), and 9.1 is the host's /bin/ls; statls runs on the
//! reference's C library (a patchelf'd copy), so only coreutils' behaviour
//! can differ. Every version runs the shared corpora (../shared/compat), our
//! corpora (tests/cases/locale-*.txt, colors.txt) and random command lines
//! (tests/support/randcases.py, fixed seeds) through lsdiff.sh; 9.1 runs the
//! random lines only, tests/compat.rs runs the rest. A case that does not
//! apply to a version is listed, with the reason, in
//! tests/cases/version-exceptions.txt. Skipped, with a SKIPPED line, when
//! Debian's archive cannot be reached, patchelf is missing or we are not root.

mod util;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[test]
fn gnu_ls_8_32_is_emulated_on_every_corpus() {
    check_version("8.32", Corpora::All);
}

#[test]
fn gnu_ls_9_7_is_emulated_on_every_corpus() {
    check_version("9.7", Corpora::All);
}

#[test]
fn gnu_ls_9_10_is_emulated_on_every_corpus() {
    check_version("9.10", Corpora::All);
}

#[test]
fn gnu_ls_9_1_is_still_emulated_on_random_command_lines() {
    check_version("9.1", Corpora::RandomOnly);
}

/// Seeds of the random corpus, and lines per seed. The figures of the
/// closing notes come from other seeds (tests/support/versions-report.sh).
const SEEDS: &[u32] = &[11, 12, 13];
const LINES_PER_SEED: u32 = 100;

/// The locales of the locale corpora, as `LC_ALL` spells them and as
/// `locale -a` lists them; the random lines take those generated here.
const LOCALES: &[(&str, &str)] = &[
    ("C.UTF-8", "C.utf8"),
    ("en_US.UTF-8", "en_US.utf8"),
    ("de_DE.UTF-8", "de_DE.utf8"),
    ("fr_FR.UTF-8", "fr_FR.utf8"),
    ("ja_JP.UTF-8", "ja_JP.utf8"),
    ("zh_CN.UTF-8", "zh_CN.utf8"),
    ("ru_RU.UTF-8", "ru_RU.utf8"),
    ("de_DE.ISO-8859-1", "de_DE.iso88591"),
    ("ru_RU.KOI8-R", "ru_RU.koi8r"),
    ("zh_CN.GB18030", "zh_CN.gb18030"),
];

#[derive(PartialEq)]
enum Corpora {
    All,
    RandomOnly,
}

/// Runs every corpus against GNU ls `version`, then fails with every
/// difference found.
fn check_version(version: &str, which: Corpora) {
    let start = Instant::now();
    let Some(bench) = Bench::new(version) else {
        return;
    };
    let exceptions = Exceptions::load();
    let (corpora, complete) = corpora(&bench, &which);
    let mut failures = String::new();
    for corpus in &corpora {
        let (cases, left_out) = exceptions.apply(version, &corpus.text);
        bench.refresh_fixture();
        let report = bench.lsdiff(&bench.runnable(cases));
        let last = report.lines().last().unwrap_or("");
        let note = match left_out {
            0 => String::new(),
            n => format!(" ({n} left out: tests/cases/version-exceptions.txt)"),
        };
        eprintln!("GNU ls {version}, {}: {last}{note}", corpus.name);
        if !all_identical(&report) {
            failures.push_str(&format!(
                "==== {} (all of it: bash ../shared/compat/lsdiff.sh -v {} {} {})\n{}",
                corpus.name,
                corpus.path.display(),
                bench.reference.display(),
                bench.wrapper.display(),
                shorten(&report, 200)
            ));
        }
    }
    if let Some(stale) = exceptions.unmatched(version, &corpora).filter(|_| complete) {
        failures.push_str(&format!(
            "==== tests/cases/version-exceptions.txt lists for {version} a case that no corpus holds: {stale}\n"
        ));
    }
    eprintln!("GNU ls {version}: {:.0} s", start.elapsed().as_secs_f64());
    assert!(
        failures.is_empty(),
        "statls with STATLS_GNU_VERSION={version} differs from GNU ls {version}:\n{failures}"
    );
}

/// Whether lsdiff.sh's last line says `P/N identical` with P = N.
fn all_identical(report: &str) -> bool {
    let last = report.lines().last().unwrap_or("");
    let counts = last
        .strip_prefix("lsdiff: ")
        .and_then(|l| l.strip_suffix(" identical"))
        .and_then(|l| l.split_once('/'));
    matches!(counts, Some((p, n)) if p == n)
}

/// A case file: its name in reports, its path, its lines.
struct Corpus {
    name: String,
    path: PathBuf,
    text: String,
}

/// The corpora to run, and whether none was left out.
fn corpora(bench: &Bench, which: &Corpora) -> (Vec<Corpus>, bool) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut complete = true;
    let files = [
        ("../shared/compat/cases-public.txt", false),
        ("../shared/compat/cases-edges.txt", false),
        ("../shared/compat/cases-locales.txt", true),
        ("tests/cases/locale-words.txt", true),
        ("tests/cases/locale-dates.txt", true),
        ("tests/cases/colors.txt", false),
    ];
    for (name, needs_locales) in files.into_iter().filter(|_| *which == Corpora::All) {
        if needs_locales && bench.locales.len() < LOCALES.len() {
            util::skipped(&format!(
                "not every locale of tests/versions.rs is generated (../shared/compat/README.md): {name} was NOT run for GNU ls {}",
                bench.version
            ));
            complete = false;
            continue;
        }
        let path = root.join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => out.push(Corpus {
                name: name.to_string(),
                path,
                text,
            }),
            Err(e) => {
                util::skipped(&format!(
                    "{name}: {e}: it was NOT run for GNU ls {}",
                    bench.version
                ));
                complete = false;
            }
        }
    }
    let seeds: Vec<String> = SEEDS.iter().map(u32::to_string).collect();
    let path = bench.wrapper.with_file_name("random.txt");
    let text = random_lines(&bench.locales);
    std::fs::write(&path, &text).expect("write the random lines");
    out.push(Corpus {
        name: format!("random lines (randcases.py, seeds {})", seeds.join(" ")),
        path,
        text,
    });
    (out, complete)
}

/// The random corpus: LINES_PER_SEED lines of each seed.
fn random_lines(locales: &[&str]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/randcases.py");
    let mut text = String::new();
    for seed in SEEDS {
        let out = Command::new("python3")
            .arg(&script)
            .args(["--seed", &seed.to_string()])
            .args(["--count", &LINES_PER_SEED.to_string()])
            .args(["--locales", &locales.join(",")])
            .output()
            .expect("run python3 tests/support/randcases.py");
        assert!(out.status.success(), "randcases.py failed: {out:?}");
        text.push_str(&String::from_utf8(out.stdout).expect("case lines are UTF-8"));
    }
    text
}

/// One version's test bench: the reference; statls on its C library behind
/// a wrapper that selects the version (both kept in
/// target/gnu-refs/V/under-test, with the random lines, to rerun a corpus
/// by hand); a fixture; the locales generated here.
struct Bench {
    version: String,
    reference: PathBuf,
    wrapper: PathBuf,
    fixture: util::TempDir,
    built: Cell<Option<Instant>>,
    locales: Vec<&'static str>,
    nobody_can_run: bool,
}

impl Bench {
    /// Prepares the bench, or says SKIPPED and why there is none.
    fn new(version: &str) -> Option<Bench> {
        let runner = compat().join("lsdiff.sh");
        if !runner.exists() {
            util::skipped(&format!(
                "{} not found: GNU ls {version} was NOT compared",
                runner.display()
            ));
            return None;
        }
        if !rustix::process::getuid().is_root() {
            util::skipped(&format!(
                "the fixture builder needs root: GNU ls {version} was NOT compared"
            ));
            return None;
        }
        let dest = gnu_refs_dir().join(version);
        let reference = gnu_refs(&[version, path_str(&dest)])?;
        let dir = dest.join("under-test");
        std::fs::create_dir_all(&dir).expect("create target/gnu-refs/V/under-test");
        let statls = dir.join("statls");
        let ours = util::ours();
        let patch = [
            "--patch",
            version,
            path_str(&dest),
            path_str(&ours),
            path_str(&statls),
        ];
        gnu_refs(&patch)?;
        let wrapper = dir.join("ls");
        write_wrapper(&wrapper, version, &statls);
        let nobody_can_run = [&reference, &wrapper].iter().all(|p| runs_as_nobody(p));
        Some(Bench {
            version: version.to_string(),
            reference,
            wrapper,
            fixture: util::TempDir::new(&format!("versions-{version}")),
            built: Cell::new(None),
            locales: generated_locales(),
            nobody_can_run,
        })
    }

    fn fixture(&self) -> PathBuf {
        self.fixture.path().join("fx")
    }

    /// Builds the fixture anew when it is 5 minutes old: its "recent"
    /// times are relative to its build, with 10-minute margins.
    fn refresh_fixture(&self) {
        if self
            .built
            .get()
            .is_some_and(|t| t.elapsed().as_secs() < 300)
        {
            return;
        }
        let built = Command::new("bash")
            .arg(compat().join("mkfixtures.sh"))
            .arg(self.fixture())
            .output()
            .expect("run mkfixtures.sh");
        assert!(built.status.success(), "mkfixtures.sh failed: {built:?}");
        self.built.set(Some(Instant::now()));
    }

    /// Runs lsdiff.sh on `cases` in the bench's fixture: what it printed.
    fn lsdiff(&self, cases: &str) -> String {
        let file = self.fixture.path().join("cases.txt");
        std::fs::write(&file, cases).expect("write the case list");
        let out = Command::new("bash")
            .arg(compat().join("lsdiff.sh"))
            .arg("-v")
            .arg(&file)
            .arg(&self.reference)
            .arg(&self.wrapper)
            .arg(self.fixture())
            .output()
            .expect("run lsdiff.sh");
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
    }

    /// `cases` less those run as another user, when that user cannot run
    /// both programs (a checkout in a private directory), with a note.
    fn runnable(&self, cases: String) -> String {
        if self.nobody_can_run {
            return cases;
        }
        let (other, kept): (Vec<&str>, Vec<&str>) = cases
            .lines()
            .partition(|l| l.split_whitespace().any(|w| w.starts_with("AS=")));
        if !other.is_empty() {
            eprintln!(
                "note: {} case(s) run as another user left out: nobody cannot run {} or {}",
                other.len(),
                self.reference.display(),
                self.wrapper.display()
            );
        }
        kept.iter().map(|l| format!("{l}\n")).collect()
    }
}

/// ../shared/compat: lsdiff.sh and mkfixtures.sh.
fn compat() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/compat")
}

/// Where gnu-refs.sh keeps the references: target/gnu-refs, beside the
/// binary under test.
fn gnu_refs_dir() -> PathBuf {
    let ours = util::ours();
    let target = ours
        .parent()
        .and_then(Path::parent)
        .expect("the binary under test is in target/PROFILE");
    target.join("gnu-refs")
}

/// Runs tests/support/gnu-refs.sh with `args`: the path it printed, or
/// None after a SKIPPED line when the archive cannot be reached or a tool
/// is missing (its exit statuses 3 and 4). Any other failure fails.
fn gnu_refs(args: &[&str]) -> Option<PathBuf> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/gnu-refs.sh");
    let out = Command::new("bash")
        .arg(script)
        .args(args)
        .output()
        .expect("run tests/support/gnu-refs.sh");
    let said = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => Some(PathBuf::from(
            String::from_utf8_lossy(&out.stdout).trim_end(),
        )),
        Some(3 | 4) => {
            let why = said
                .lines()
                .last()
                .unwrap_or("")
                .trim_start_matches("gnu-refs: ");
            util::skipped(&format!("{why}: statls was NOT compared with it"));
            None
        }
        _ => panic!(
            "gnu-refs.sh {} failed: {:?}\n{said}",
            args.join(" "),
            out.status
        ),
    }
}

/// A script that runs `statls` as `ls` with STATLS_GNU_VERSION=`version`
/// (lsdiff.sh clears the environment: absolute paths only). Written aside
/// and renamed: another test run may be executing the one in place.
/// The program lsdiff runs as "ours": `statls` with `STATLS_GNU_VERSION`
/// set and `argv[0]` `ls`. A small C program, not a shell script: a shell
/// would warn about an unknown `LC_ALL` on stderr before `ls` even starts.
fn write_wrapper(path: &Path, version: &str, statls: &Path) {
    let source = format!(
        "#include <stdlib.h>\n#include <unistd.h>\n\
         int main(int argc, char **argv) {{\n\
           (void) argc;\n\
           setenv(\"STATLS_GNU_VERSION\", \"{version}\", 1);\n\
           argv[0] = \"ls\";\n\
           execv(\"{}\", argv);\n\
           return 127;\n\
         }}\n",
        statls.display()
    );
    let aside = path.with_extension(format!("tmp{}", std::process::id()));
    let c_file = aside.with_extension("c");
    std::fs::write(&c_file, source).expect("write the wrapper's source");
    let built = Command::new("cc")
        .args(["-O", "-o"])
        .arg(&aside)
        .arg(&c_file)
        .status()
        .expect("run cc for the wrapper");
    assert!(built.success(), "cc could not build the wrapper");
    let _ = std::fs::remove_file(&c_file);
    std::fs::rename(&aside, path).expect("put the wrapper in place");
}

/// Whether user nobody can run `program` (its directories, loader and
/// libraries), started as lsdiff.sh starts it.
fn runs_as_nobody(program: &Path) -> bool {
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The `LC_ALL` spellings of LOCALES that `locale -a` lists.
fn generated_locales() -> Vec<&'static str> {
    let have = util::generated_locales();
    LOCALES
        .iter()
        .filter(|(_, name)| have.iter().any(|h| h == name))
        .map(|(spelling, _)| *spelling)
        .collect()
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The first `max` lines of `report`, and how many more there were.
fn shorten(report: &str, max: usize) -> String {
    let lines: Vec<&str> = report.lines().collect();
    let mut out: String = lines.iter().take(max).map(|l| format!("{l}\n")).collect();
    if lines.len() > max {
        out.push_str(&format!(
            "  ... {} more lines; the last: {}\n",
            lines.len() - max,
            lines[lines.len() - 1]
        ));
    }
    out
}

/// tests/cases/version-exceptions.txt: lines `VERSIONS: CASE` (VERSIONS
/// comma-separated, CASE exactly as in its corpus), each under `#` lines
/// that say why the case does not apply to those versions.
struct Exceptions(Vec<(Vec<String>, String)>);

impl Exceptions {
    fn load() -> Exceptions {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases/version-exceptions.txt");
        let text = std::fs::read_to_string(&path).expect("read tests/cases/version-exceptions.txt");
        let mut list = Vec::new();
        let mut reason = false;
        for line in text.lines() {
            if line.starts_with('#') {
                reason = true;
                continue;
            }
            if line.trim().is_empty() {
                reason = false;
                continue;
            }
            let (versions, case) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("version-exceptions.txt: not `VERSIONS: CASE`: {line}"));
            assert!(
                reason,
                "version-exceptions.txt: no reason (`#` lines) above: {line}"
            );
            let versions = versions.split(',').map(|v| v.trim().to_string()).collect();
            list.push((versions, case.trim().to_string()));
        }
        Exceptions(list)
    }

    fn cases_for<'a>(&'a self, version: &'a str) -> impl Iterator<Item = &'a str> {
        self.0
            .iter()
            .filter(move |(vs, _)| vs.iter().any(|v| v == version))
            .map(|(_, case)| case.as_str())
    }

    /// The corpus `text` less the cases listed for `version`, and how many
    /// those were.
    fn apply(&self, version: &str, text: &str) -> (String, usize) {
        let mut kept = String::new();
        let mut left_out = 0;
        for line in text.lines() {
            if self.cases_for(version).any(|c| c == line.trim()) {
                left_out += 1;
            } else {
                kept.push_str(line);
                kept.push('\n');
            }
        }
        (kept, left_out)
    }

    /// A case listed for `version` that none of the `corpora` holds.
    fn unmatched(&self, version: &str, corpora: &[Corpus]) -> Option<String> {
        self.cases_for(version)
            .find(|case| {
                !corpora
                    .iter()
                    .any(|c| c.text.lines().any(|l| l.trim() == *case))
            })
            .map(str::to_string)
    }
}
