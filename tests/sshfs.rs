//! The shared public corpus (../shared/compat/cases-public.txt) listed
//! through a real network filesystem client: sshfs over loopback with every
//! cache off (bench/sshfs/sshfs.sh), GNU ls 9.1 and statls on the same
//! mount, case by case.
//!
//! The fixture is built in the exported directory, on the local filesystem
//! (through sshfs there would be no device nodes, sockets, hard links, ACLs
//! or files given to other users), and listed through the mount, where it
//! looks as sftp shows it: one link each, device numbers 0, 0, times in
//! whole seconds of 32 bits, ctime equal to mtime (so lsdiff warns that the
//! fixture looks old), no ACLs or capabilities, FUSE's inode numbers. Those
//! differ from a local listing for GNU as well; what is compared here is
//! GNU and statls on the same mount. Without caches, because sshfs answers
//! a readdir from its directory cache with DT_UNKNOWN entries: a GNU run
//! that fills the cache and a statls run that reads it would see different
//! directories. Skipped, loudly, where sshd, sshfs or FUSE cannot run, and
//! where root, GNU ls 9.1 or the corpus is missing.

mod util;

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn public_corpus_on_sshfs_without_caches_is_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let compat = root.join("../shared/compat");
    let (runner, corpus) = (compat.join("lsdiff.sh"), compat.join("cases-public.txt"));
    if !runner.exists() || !corpus.exists() {
        util::skipped(&format!(
            "{} not found: the sshfs differential corpus was NOT run",
            compat.display()
        ));
        return;
    }
    if util::gnu().is_none() {
        util::skipped("/bin/ls is not GNU ls 9.1: the sshfs differential corpus was NOT run");
        return;
    }
    if !util::cases::is_root() {
        util::skipped("the fixture builder needs root: the sshfs differential corpus was NOT run");
        return;
    }
    let mount = match Sshfs::up() {
        Ok(mount) => mount,
        Err(why) => {
            util::skipped(&format!(
                "no sshfs over loopback here ({why}): the sshfs differential corpus was NOT run"
            ));
            return;
        }
    };

    let built = Command::new("bash")
        .arg(compat.join("mkfixtures.sh"))
        .arg(mount.export().join("fx"))
        .output()
        .expect("run mkfixtures.sh");
    assert!(
        built.status.success(),
        "mkfixtures.sh failed on the export:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );

    let cases = util::TempDir::new("sshfs-cases");
    let case_file = cases.path().join("cases.txt");
    std::fs::write(&case_file, util::cases::runnable_here(&corpus)).expect("write the case list");
    let out = Command::new("bash")
        .arg(&runner)
        .arg("-v")
        .arg(&case_file)
        .arg("/bin/ls")
        .arg(util::ours())
        .arg(mount.cold().join("fx"))
        .output()
        .expect("run lsdiff.sh");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    eprintln!(
        "{} on sshfs: {}",
        corpus.display(),
        text.lines().last().unwrap_or("")
    );
    assert!(
        out.status.success(),
        "GNU ls and statls differ on sshfs without caches:\n{text}"
    );
}

/// bench/sshfs/sshfs.sh's no-cache mount in a temporary directory: a
/// private sshd on 127.0.0.1, DIR/export mounted on DIR/cold. Taken down
/// on drop, also when the test panics; the directory is removed only once
/// nothing is mounted in it (removing through a live mount would reach
/// into the export by way of sshfs).
struct Sshfs {
    dir: Option<util::TempDir>,
}

impl Sshfs {
    /// Brings the mount up; Err(why) where this machine cannot (the
    /// script's status 3: a package, /dev/fuse or the right to mount is
    /// missing, or sshd cannot run). Any other failure is a test failure.
    fn up() -> Result<Sshfs, String> {
        let mount = Sshfs {
            dir: Some(util::TempDir::new("sshfs")),
        };
        // allow_other and default_permissions: the AS=nobody cases reach
        // the mount and meet the same permission checks as on a local
        // disk. noforget: FUSE's inode numbers stay the same between the
        // GNU run and the statls run of a case, whatever the kernel evicts.
        let out = Command::new("bash")
            .arg(script())
            .arg("up")
            .arg(mount.dir())
            .env("SSHFS_MOUNTS", "cold")
            .env("SSHFS_OPTS", "allow_other,default_permissions,noforget")
            .env("SSHFS_NO_INSTALL", "1")
            .output()
            .expect("run bench/sshfs/sshfs.sh");
        let said = String::from_utf8_lossy(&out.stderr).trim().to_string();
        match out.status.code() {
            Some(0) => Ok(mount),
            Some(3) => Err(said),
            _ => panic!("bench/sshfs/sshfs.sh up failed ({}):\n{said}", out.status),
        }
    }

    fn dir(&self) -> &Path {
        self.dir.as_ref().expect("the mount's directory").path()
    }

    fn export(&self) -> PathBuf {
        self.dir().join("export")
    }

    fn cold(&self) -> PathBuf {
        self.dir().join("cold")
    }

    /// Whether anything is still mounted in the directory.
    fn anything_mounted(&self) -> bool {
        let prefix = format!("{}/", self.dir().display());
        std::fs::read_to_string("/proc/self/mountinfo")
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split(' ').nth(4))
            .any(|m| m.starts_with(&prefix))
    }
}

impl Drop for Sshfs {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("down")
            .arg(self.dir())
            .output();
        if self.anything_mounted() {
            let _ = Command::new("fusermount3")
                .arg("-uz")
                .arg(self.cold())
                .status();
        }
        if self.anything_mounted() {
            eprintln!(
                "NOTE: {} is still mounted: left in place",
                self.cold().display()
            );
            std::mem::forget(self.dir.take());
        }
    }
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/sshfs/sshfs.sh")
}
