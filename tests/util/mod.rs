//! Shared test support: a temporary fixture tree, running our `ls` and GNU's
//! side by side in the same environment, and byte-exact comparisons that
//! print a readable diff on failure.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub mod cases;
pub mod enosys;
pub mod latfs;
pub mod pty;
pub mod strace;

/// The locales `locale -a` lists (its spelling: `de_DE.utf8`).
pub fn generated_locales() -> Vec<String> {
    let listed = Command::new("locale")
        .arg("-a")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    listed.lines().map(str::to_string).collect()
}

/// Path of the binary under test.
pub fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ls"))
}

/// GNU ls 9.1 at /bin/ls, if that is what is installed.
pub fn gnu() -> Option<PathBuf> {
    static GNU: OnceLock<Option<PathBuf>> = OnceLock::new();
    GNU.get_or_init(|| {
        let out = Command::new("/bin/ls").arg("--version").output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.starts_with("ls (GNU coreutils) 9.1")
            .then(|| PathBuf::from("/bin/ls"))
    })
    .clone()
}

/// A temporary directory removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        // A private parent of its own: `ls -a` shows a `..` that no other
        // test changes.
        let outer = std::env::temp_dir().join(format!("statls-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&outer);
        let dir = outer.join("t");
        std::fs::create_dir_all(&dir).unwrap();
        for d in [&outer, &dir] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Creates a file with `len` bytes and an mtime of `mtime` seconds
    /// since the epoch.
    pub fn file(&self, name: impl AsRef<OsStr>, len: usize, mtime: i64) -> &Self {
        let p = self.0.join(name.as_ref());
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, vec![b'x'; len]).unwrap();
        set_mtime(&p, mtime);
        self
    }

    pub fn dir(&self, name: &str) -> &Self {
        std::fs::create_dir_all(self.0.join(name)).unwrap();
        self
    }

    pub fn symlink(&self, target: &str, name: &str) -> &Self {
        symlink(target, self.0.join(name)).unwrap();
        self
    }

    pub fn chmod(&self, name: &str, mode: u32) -> &Self {
        std::fs::set_permissions(self.0.join(name), std::fs::Permissions::from_mode(mode)).unwrap();
        self
    }

    pub fn mtime(&self, name: &str, mtime: i64) -> &Self {
        set_mtime(&self.0.join(name), mtime);
        self
    }

    /// Gives `name` the POSIX ACL `user:nobody:r--` (as `setfacl -m`), or
    /// as a directory's default ACL (`setfacl -d -m`). False when the
    /// filesystem has no ACL support.
    pub fn acl(&self, name: &str, default: bool) -> bool {
        // posix_acl_xattr: version 2, then (tag u16, perm u16, id u32)
        // entries in tag order: user::rw-, user:65534:r--, group::r--,
        // mask::r--, other::r--.
        let mut value = 2u32.to_le_bytes().to_vec();
        for (tag, perm, id) in [
            (0x01u16, 6u16, u32::MAX),
            (0x02, 4, 65534),
            (0x04, 4, u32::MAX),
            (0x10, 4, u32::MAX),
            (0x20, 4, u32::MAX),
        ] {
            value.extend_from_slice(&tag.to_le_bytes());
            value.extend_from_slice(&perm.to_le_bytes());
            value.extend_from_slice(&id.to_le_bytes());
        }
        let attr = if default {
            "system.posix_acl_default"
        } else {
            "system.posix_acl_access"
        };
        rustix::fs::setxattr(
            self.0.join(name),
            attr,
            &value,
            rustix::fs::XattrFlags::empty(),
        )
        .is_ok()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let outer = self.0.parent().unwrap_or(&self.0).to_path_buf();
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("u+rwx")
            .arg(&outer)
            .status();
        let _ = std::fs::remove_dir_all(&outer);
    }
}

/// Sets atime and mtime without opening the file (it may be a fifo).
pub fn set_mtime(path: &Path, secs: i64) {
    use rustix::fs::{utimensat, AtFlags, Timespec, Timestamps, CWD};
    let t = Timespec {
        tv_sec: secs,
        tv_nsec: 0,
    };
    let times = Timestamps {
        last_access: t,
        last_modification: t,
    };
    utimensat(CWD, path, &times, AtFlags::SYMLINK_NOFOLLOW).unwrap();
}

/// How one run went.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: Option<i32>,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            stdout: o.stdout,
            stderr: o.stderr,
            status: o.status.code(),
        }
    }
}

/// Runs `program` (invoked as `ls`, so diagnostics say `ls:`) in `cwd`
/// with a clean environment: `LC_ALL=C`, `TZ=UTC`, plus `env`.
pub fn run(program: &Path, cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(program);
    cmd.current_dir(cwd)
        .env_clear()
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .env("PATH", "/usr/bin:/bin");
    for (k, v) in env {
        cmd.env(k, v);
    }
    {
        use std::os::unix::process::CommandExt;
        cmd.arg0("ls");
    }
    cmd.args(args).stdin(Stdio::null());
    cmd.output().expect("spawn ls").into()
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\x1b', "\\e")
}

/// Asserts identical stdout, stderr and exit status, with a line diff.
pub fn assert_same(what: &str, gnu: &Run, ours: &Run) {
    if gnu == ours {
        return;
    }
    let mut msg = format!("{what}: output differs from GNU ls\n");
    for (label, a, b) in [
        ("stdout", &gnu.stdout, &ours.stdout),
        ("stderr", &gnu.stderr, &ours.stderr),
    ] {
        if a != b {
            msg.push_str(&format!(
                "--- {label} (GNU)\n{}\n+++ {label} (ours)\n{}\n",
                show(a),
                show(b)
            ));
        }
    }
    if gnu.status != ours.status {
        msg.push_str(&format!(
            "status: GNU {:?}, ours {:?}\n",
            gnu.status, ours.status
        ));
    }
    panic!("{msg}");
}

/// Runs both and compares; returns false (after a note) when GNU ls 9.1
/// is not available.
pub fn compare(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> bool {
    let Some(gnu_ls) = gnu() else {
        eprintln!("skipping differential check: /bin/ls is not GNU ls 9.1");
        return false;
    };
    let g = run(&gnu_ls, cwd, args, env);
    let o = run(&ours(), cwd, args, env);
    assert_same(&format!("ls {}", args.join(" ")), &g, &o);
    true
}

/// `bash -c SCRIPT PROGRAM` in `cwd` with only `LC_ALL=C`: the script
/// starts ls as `exec -a ls "$0" ...` after setting up what it needs
/// (limits, closed descriptors, signal dispositions).
pub fn shell(program: &Path, cwd: &Path, script: &str) -> Command {
    let mut cmd = Command::new("/bin/bash");
    cmd.arg("-c")
        .arg(script)
        .arg(program)
        .current_dir(cwd)
        .env_clear()
        .env("LC_ALL", "C");
    cmd
}

/// Runs [`shell`] to completion.
pub fn in_shell(program: &Path, cwd: &Path, script: &str) -> Output {
    shell(program, cwd, script).output().unwrap()
}

/// Whether this process may make a private mount namespace (`unshare -m`,
/// as root), where files can be bind-mounted over /etc for one run.
pub fn private_mounts() -> bool {
    std::process::Command::new("unshare")
        .args(["-m", "true"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Reports a skipped check on the test binary's real stderr: libtest
/// captures `eprintln!` of passing tests, and a skip must not hide in a
/// green run.
pub fn skipped(what: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {what}");
}

/// Threads our `ls ARGS` starts in `cwd` with only `env` (clone calls
/// under strace); None where strace cannot run.
pub fn threads_started(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Option<usize> {
    let log = TempDir::new("strace-threads");
    let log = log.path().join("strace.log");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=clone,clone3", "-o"])
        .arg(&log)
        .arg(ours())
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .status()
        .ok()?;
    assert!(status.success(), "ls {args:?}");
    let text = std::fs::read_to_string(&log).ok()?;
    Some(text.lines().filter(|l| l.contains("clone")).count())
}
