//! The shared differential corpora (../shared/compat/cases-public.txt,
//! cases-edges.txt: details that hold in every locale, cases-locales.txt)
//! and our own (tests/cases/locale-*.txt, colors.txt) run
//! through the shared runner: every case must be identical to GNU ls 9.1 in
//! stdout, stderr and exit status, in pipe and tty mode, the first time.
//! Skipped, with a SKIPPED line on stderr that the test harness does not
//! capture, when the corpus, root or GNU ls 9.1 is not available. Cases run as
//! another user (`AS=nobody`) are left out, with a note, when that user
//! cannot execute the binary under test (a checkout in a private directory).

mod util;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn public_corpus_is_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    run_corpus(&root.join("../shared/compat/cases-public.txt"), &[]);
}

#[test]
fn edge_corpus_is_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    run_corpus(&root.join("../shared/compat/cases-edges.txt"), &[]);
}

/// The locales the locale corpora need (`locale -a` spelling).
const LOCALES: &[&str] = &[
    "de_DE.utf8",
    "fr_FR.utf8",
    "ja_JP.utf8",
    "zh_CN.utf8",
    "ru_RU.utf8",
    "en_US.utf8",
    "de_DE.iso88591",
    "ru_RU.koi8r",
    "zh_CN.gb18030",
];

#[test]
fn locale_corpus_is_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    run_corpus(&root.join("../shared/compat/cases-locales.txt"), LOCALES);
}

/// Our own cases for messages, locale quotes and character sets in the
/// 11 locales (tests/cases/locale-words.txt).
#[test]
fn words_quotes_and_charsets_are_identical_to_gnu_in_every_locale() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    run_corpus(&root.join("tests/cases/locale-words.txt"), LOCALES);
}

/// `LS_COLORS` suffixes that differ only in case (tests/cases/colors.txt).
#[test]
fn suffix_colours_that_differ_in_case_are_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    run_corpus(&root.join("tests/cases/colors.txt"), &[]);
}

/// Dates (LC_TIME), numbers (LC_NUMERIC), `-I`/`--hide` patterns and time
/// zones in the 11 locales (tests/cases/locale-dates.txt).
#[test]
fn locale_dates_numbers_patterns_and_zones_are_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    run_corpus(&root.join("tests/cases/locale-dates.txt"), LOCALES);
}

/// Runs one case file through lsdiff.sh against GNU ls; skipped, with a
/// note, when the runner, root, GNU ls 9.1 or a needed locale is missing.
fn run_corpus(corpus: &std::path::Path, locales: &[&str]) {
    let compat = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/compat");
    let runner = compat.join("lsdiff.sh");
    if !runner.exists() || !corpus.exists() {
        util::skipped(&format!(
            "{} or {} not found: that differential corpus was NOT run",
            runner.display(),
            corpus.display()
        ));
        return;
    }
    if util::gnu().is_none() {
        util::skipped("/bin/ls is not GNU ls 9.1: the shared corpus was NOT run");
        return;
    }
    if !util::cases::is_root() {
        util::skipped("the fixture builder needs root: the shared corpus was NOT run");
        return;
    }
    if let Some(missing) = missing_locale(locales) {
        util::skipped(&format!(
            "locale {missing} is not generated (../shared/compat/README.md): {} was NOT run",
            corpus.display()
        ));
        return;
    }
    let cases = cases_runnable_here(corpus);
    let (ok, text) = lsdiff(&runner, &cases);
    let last = text.lines().last().unwrap_or("").to_string();
    eprintln!("{}: {last}", corpus.display());
    // No second chance: the runner reads a pty up to a marker written
    // after the child exits, so a TTY case loses nothing, and a difference
    // seen once is a failure.
    if ok {
        return;
    }
    panic!("differential corpus {} failed:\n{text}", corpus.display());
}

/// Runs lsdiff.sh on `cases`: whether every case was identical, and what
/// it printed (stdout, then stderr).
fn lsdiff(runner: &std::path::Path, cases: &CaseFile) -> (bool, String) {
    let out = Command::new("bash")
        .arg(runner)
        .arg("-v")
        .arg(cases.path())
        .arg("/bin/ls")
        .arg(util::ours())
        .output()
        .expect("run lsdiff.sh");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// The first of `locales` that `locale -a` does not list.
fn missing_locale<'a>(locales: &[&'a str]) -> Option<&'a str> {
    if locales.is_empty() {
        return None;
    }
    let have = util::generated_locales();
    locales
        .iter()
        .copied()
        .find(|l| !have.iter().any(|h| h == l))
}

/// The corpus, less the cases whose user cannot reach our binary.
fn cases_runnable_here(corpus: &std::path::Path) -> CaseFile {
    CaseFile::new(&util::cases::runnable_here(corpus))
}

/// A case list written for one run, removed on drop.
struct CaseFile(util::TempDir);

impl CaseFile {
    fn new(text: &str) -> CaseFile {
        let dir = util::TempDir::new("cases");
        std::fs::write(dir.path().join("cases.txt"), text).expect("write the case list");
        CaseFile(dir)
    }

    fn path(&self) -> PathBuf {
        self.0.path().join("cases.txt")
    }
}
