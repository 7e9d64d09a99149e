//! The Linux kernel's own NFS client, which this machine's kernel does not
//! have: Debian 12's kernel booted in an emulated guest (bench/vm/run.sh)
//! with this machine's userspace, nfsd on the guest's loopback
//! (bench/vm/nfs.sh), and tests/support/vm-kernel-nfs.sh run there once
//! for all the tests below; each test reads its part of what it wrote.
//!
//! Runs with `STATLS_TEST_VM=1`, which .ci/run sets: the guest's CPU is
//! emulated (TCG; KVM hangs on this machine), and the whole run takes
//! about 3.5 minutes on this 2-CPU machine at a load of 1 (4.5 to 7 when
//! other work loads it), most of it the shared corpus. Without it, and
//! where root, GNU ls 9.1 or the corpus is missing, or the guest cannot be
//! made (bench/vm/run.sh's status 3), a SKIPPED line says what was not
//! run.

mod util;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// What the guest wrote (file name to contents), or why there is nothing
/// to read.
type Outcome = Result<HashMap<String, String>, String>;

/// Boots the guest once, runs the three checks there, and keeps what they
/// wrote; `Err` says why it was not run.
fn guest() -> &'static Outcome {
    static GUEST: OnceLock<Outcome> = OnceLock::new();
    GUEST.get_or_init(|| {
        if std::env::var_os("STATLS_TEST_VM").is_none_or(|v| v != "1") {
            return Err(
                "STATLS_TEST_VM=1 not set (STATLS_TEST_VM=1 cargo test --release \
                        --test kernel_clients; about 3.5 minutes)"
                    .into(),
            );
        }
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let compat = root.join("../shared/compat");
        if !compat.join("cases-public.txt").exists() {
            return Err(format!("{} has no cases-public.txt", compat.display()));
        }
        if util::gnu().is_none() {
            return Err("/bin/ls is not GNU ls 9.1".into());
        }
        if !util::cases::is_root() {
            return Err("the guest, nfsd and the mounts need root".into());
        }
        let out = util::TempDir::new("kernel-nfs");
        let run = Command::new("bash")
            .arg(root.join("bench/vm/run.sh"))
            .arg("--rwdir")
            .arg(out.path())
            .arg("--")
            .arg("bash")
            .arg(root.join("tests/support/vm-kernel-nfs.sh"))
            .arg(out.path())
            .arg(util::ours())
            .arg(
                compat
                    .canonicalize()
                    .expect("the shared corpus's directory"),
            )
            .output()
            .expect("run bench/vm/run.sh");
        let stderr = String::from_utf8_lossy(&run.stderr);
        if run.status.code() == Some(3) {
            return Err(format!("no guest here: {}", stderr.trim()));
        }
        assert!(
            out.path().join("done").exists(),
            "the guest did not finish its checks ({}):\n{stderr}",
            run.status
        );
        let files = std::fs::read_dir(out.path())
            .expect("the guest's results")
            .map(|e| e.expect("a result file").path())
            .filter(|p| p.is_file())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap_or_default())
            })
            .collect::<HashMap<_, _>>();
        if let Some(times) = files.get("times.txt") {
            eprintln!("in the guest: {}", times.trim());
        }
        Ok(files)
    })
}

/// The guest's file `name`, or None (with a SKIPPED line) when there is
/// no guest.
fn read(name: &str, what: &str) -> Option<String> {
    match guest() {
        Ok(files) => Some(
            files
                .get(name)
                .unwrap_or_else(|| panic!("the guest wrote no {name}"))
                .clone(),
        ),
        Err(why) => {
            util::skipped(&format!("{why}: {what} was NOT checked on kernel NFS"));
            None
        }
    }
}

#[test]
fn public_corpus_on_kernel_nfs_v42_is_identical_to_gnu() {
    let Some(report) = read("corpus.txt", "the shared public corpus") else {
        return;
    };
    let rc = read("corpus.rc", "the corpus's status").unwrap_or_default();
    eprintln!(
        "cases-public.txt on kernel NFS v4.2: {}",
        report.lines().last().unwrap_or("")
    );
    assert_eq!(
        rc.trim(),
        "0",
        "GNU ls and statls differ on kernel NFS v4.2:\n{report}"
    );
}

#[test]
fn color_on_a_warm_v42_mount_sends_no_getattr_beyond_gnus() {
    let Some(counts) = read("color.txt", "--color's GETATTRs") else {
        return;
    };
    // "gnu N" / "ours N", alternating, two of each.
    let of = |who: &str| -> Vec<u64> {
        counts
            .lines()
            .filter_map(|l| l.strip_prefix(who)?.trim().parse().ok())
            .collect()
    };
    let (gnu, ours) = (of("gnu "), of("ours "));
    assert_eq!((gnu.len(), ours.len()), (2, 2), "color.txt: {counts}");
    eprintln!("GETATTRs for --color of 100 files, warm: GNU {gnu:?}, statls {ours:?}");
    for (g, o) in gnu.iter().zip(&ours) {
        assert!(o <= g, "statls sent {o} GETATTRs, GNU {g}");
    }
    // Not one per regular file: the cached attributes answered for them.
    assert!(
        ours.iter().all(|&o| o < 10),
        "statls asked per file: {ours:?}"
    );
}

#[test]
fn dead_hard_nfs_mount_gives_up_after_the_timeout_with_etimedout() {
    let Some(facts) = read("dead.txt", "the dead-server --timeout case") else {
        return;
    };
    let err = read("dead.err", "the dead-server diagnostics").unwrap_or_default();
    let field = |who: &str, n: usize| -> u64 {
        let line = facts.lines().find(|l| l.starts_with(who)).expect(who);
        line.split(' ')
            .nth(n)
            .and_then(|f| f.parse().ok())
            .expect(line)
    };
    eprintln!("dead hard mount: {facts}");
    // GNU waits on the hard mount until it is killed (timeout -s KILL 10).
    assert_eq!(field("gnu ", 1), 137, "GNU ls did not wait: {facts}");
    // statls: --timeout=2 plus 4 s of slack for an emulated CPU on a
    // shared machine (measured: 2.3 s at a load of 1, 2.4 s at 12); GNU is
    // still waiting at 10 s.
    assert_eq!(field("ours ", 1), 2, "statls's exit status: {facts}\n{err}");
    let wall = field("ours ", 2);
    assert!(wall < 6_000, "statls took {wall} ms with --timeout=2");
    // Each diagnostic is the one of any other hung request.
    assert!(
        !err.is_empty() && err.lines().all(|l| l.ends_with(": Connection timed out")),
        "statls's diagnostics: {err}"
    );
}
