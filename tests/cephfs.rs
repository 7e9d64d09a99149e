//! The shared corpora (../shared/compat: public, locales, edges) listed
//! through a real CephFS: a single-node cluster on 127.0.0.1
//! (bench/cephfs/cluster.sh, Debian's Ceph packages, a memstore OSD), the
//! fixture written through one ceph-fuse client and listed through the
//! other, GNU ls 9.1 and statls on the same mount, case by case.
//!
//! Opt-in: the packages are large and the cluster takes a minute to build
//! and tear down, so it runs only with `STATLS_TEST_CEPH=1` (not in
//! .ci/run); otherwise, and where root, FUSE, GNU ls 9.1, the corpus or a
//! locale is missing, a SKIPPED line says what was not run. The cluster
//! lives in a temporary directory and is taken down by a guard, also when
//! the test panics.

mod util;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The locales cases-locales.txt needs (`locale -a` spelling).
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
fn shared_corpora_on_cephfs_are_identical_to_gnu() {
    if std::env::var_os("STATLS_TEST_CEPH").is_none_or(|v| v != "1") {
        util::skipped(
            "STATLS_TEST_CEPH=1 not set: the shared corpora were NOT run on CephFS \
             (STATLS_TEST_CEPH=1 cargo test --release --test cephfs)",
        );
        return;
    }
    let compat = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/compat");
    if !compat.join("lsdiff.sh").exists() {
        util::skipped(&format!(
            "{} not found: the CephFS differential corpora were NOT run",
            compat.display()
        ));
        return;
    }
    if util::gnu().is_none() {
        util::skipped("/bin/ls is not GNU ls 9.1: the CephFS differential corpora were NOT run");
        return;
    }
    if !util::cases::is_root() {
        util::skipped("the cluster and the fixture need root: the CephFS corpora were NOT run");
        return;
    }
    let cluster = match Cluster::up() {
        Ok(cluster) => cluster,
        Err(why) => {
            util::skipped(&format!(
                "no CephFS here ({why}): the CephFS differential corpora were NOT run"
            ));
            return;
        }
    };

    let mut failures = Vec::new();
    for (name, locales) in [
        ("public", &[][..]),
        ("locales", LOCALES),
        ("edges", &[][..]),
    ] {
        let corpus = compat.join(format!("cases-{name}.txt"));
        if !corpus.exists() {
            util::skipped(&format!(
                "{} not found: NOT run on CephFS",
                corpus.display()
            ));
            continue;
        }
        let have = util::generated_locales();
        if let Some(missing) = locales.iter().find(|l| !have.iter().any(|h| h == *l)) {
            util::skipped(&format!(
                "locale {missing} is not generated: {} was NOT run on CephFS",
                corpus.display()
            ));
            continue;
        }
        let (ok, text) = run_corpus(&cluster, name, &corpus);
        eprintln!(
            "{} on CephFS: {}",
            corpus.display(),
            text.lines().last().unwrap_or("")
        );
        if !ok {
            failures.push(text);
        }
    }
    assert!(
        failures.is_empty(),
        "GNU ls and statls differ on CephFS:\n{}",
        failures.join("\n")
    );
}

/// Builds a fresh fixture through client a (each corpus its own, so that
/// none is older than lsdiff likes) and runs `corpus` on it through client
/// b: whether every case was identical, and what lsdiff printed.
fn run_corpus(cluster: &Cluster, name: &str, corpus: &Path) -> (bool, String) {
    let compat = corpus.parent().expect("the corpus's directory");
    // A directory of its own above the fixture: `ls -la` shows `..`, whose
    // size on CephFS is the bytes below it.
    let parent = cluster.dir().join("a").join(name);
    std::fs::create_dir_all(&parent).expect("make the fixture's parent on CephFS");
    let built = Command::new("bash")
        .arg(compat.join("mkfixtures.sh"))
        .arg(parent.join("fx"))
        .output()
        .expect("run mkfixtures.sh");
    assert!(
        built.status.success(),
        "mkfixtures.sh failed on CephFS:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let cases = util::TempDir::new("cephfs-cases");
    let case_file = cases.path().join("cases.txt");
    std::fs::write(&case_file, util::cases::runnable_here(corpus)).expect("write the case list");
    let out = Command::new("bash")
        .arg(compat.join("lsdiff.sh"))
        .arg("-v")
        .arg(&case_file)
        .arg("/bin/ls")
        .arg(util::ours())
        .arg(cluster.dir().join("b").join(name).join("fx"))
        .output()
        .expect("run lsdiff.sh");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// bench/cephfs/cluster.sh's cluster in a temporary directory, mounted on
/// DIR/a and DIR/b. Taken down on drop, also when the test panics; the
/// directory is removed only once nothing is mounted in it (removing
/// through a live mount would empty the file system, or hang on a dead
/// one).
struct Cluster {
    dir: Option<util::TempDir>,
}

impl Cluster {
    /// Brings the cluster up; Err(why) where this machine cannot (the
    /// script's status 3: /dev/fuse, root or a package missing). Any other
    /// failure is a test failure.
    fn up() -> Result<Cluster, String> {
        let cluster = Cluster {
            dir: Some(util::TempDir::new("cephfs")),
        };
        let out = Command::new("bash")
            .arg(script())
            .arg("up")
            .arg(cluster.dir())
            .output()
            .expect("run bench/cephfs/cluster.sh");
        let said = String::from_utf8_lossy(&out.stderr).trim().to_string();
        match out.status.code() {
            Some(0) => Ok(cluster),
            Some(3) => Err(said),
            _ => panic!(
                "bench/cephfs/cluster.sh up failed ({}):\n{said}",
                out.status
            ),
        }
    }

    fn dir(&self) -> &Path {
        self.dir.as_ref().expect("the cluster's directory").path()
    }

    /// The mounts still in the directory.
    fn mounted(&self) -> Vec<String> {
        let prefix = format!("{}/", self.dir().display());
        std::fs::read_to_string("/proc/self/mountinfo")
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split(' ').nth(4))
            .filter(|m| m.starts_with(&prefix))
            .map(str::to_string)
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("down")
            .arg(self.dir())
            .output();
        for mount in self.mounted() {
            let _ = Command::new("umount").arg("-l").arg(&mount).status();
        }
        let left = self.mounted();
        if !left.is_empty() {
            eprintln!("NOTE: still mounted, left in place: {}", left.join(" "));
            std::mem::forget(self.dir.take());
        }
    }
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/cephfs/cluster.sh")
}
