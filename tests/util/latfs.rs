//! The project's FUSE test filesystem (bench/latfs/latfs.c) for tests:
//! built once per test binary, mounted over a source tree with fault and
//! hang injection options and request counters, and always unmounted on
//! drop (even when the test fails). Where /dev/fuse, fusermount3, gcc or the libfuse3 headers
//! are missing, [`Latfs::mount`] says so loudly and returns None.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::TempDir;

/// The latfs binary, built on first use; None (with a note) where it
/// cannot be built or mounted here.
fn binary() -> Option<&'static Path> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        if !Path::new("/dev/fuse").exists() {
            eprintln!("NOTE: skipping FUSE tests: /dev/fuse is missing");
            return None;
        }
        let fusermount = Command::new("fusermount3").arg("-V").output();
        if !fusermount.is_ok_and(|o| o.status.success()) {
            eprintln!("NOTE: skipping FUSE tests: fusermount3 is missing");
            return None;
        }
        let flags = Command::new("pkg-config")
            .args(["--cflags", "--libs", "fuse3"])
            .output()
            .ok()
            .filter(|o| o.status.success());
        let Some(flags) = flags else {
            eprintln!("NOTE: skipping FUSE tests: no libfuse3 headers (pkg-config fuse3)");
            return None;
        };
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/latfs/latfs.c");
        let out =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("latfs-{}", std::process::id()));
        let flags = String::from_utf8_lossy(&flags.stdout).into_owned();
        let built = Command::new("gcc")
            .args(["-O2", "-Wall", "-o"])
            .arg(&out)
            .arg(&src)
            .args(flags.split_whitespace())
            .status();
        if !built.is_ok_and(|s| s.success()) {
            eprintln!(
                "NOTE: skipping FUSE tests: gcc could not build {}",
                src.display()
            );
            return None;
        }
        Some(out)
    })
    .as_deref()
}

/// A mounted latfs; unmounted on drop.
pub struct Latfs {
    child: Child,
    mnt: PathBuf,
    /// Where latfs dumps its request counters on SIGUSR1.
    stats: PathBuf,
    _dir: TempDir,
}

impl Latfs {
    /// Mounts `source` with `-o OPTIONS` (besides read-only and no delay,
    /// added here, and no caching unless OPTIONS sets `timeout=`). None
    /// where FUSE is unavailable.
    pub fn mount(source: &Path, options: &str) -> Option<Latfs> {
        let bin = binary()?;
        let dir = TempDir::new("latfs-mnt");
        let mnt = dir.path().join("mnt");
        std::fs::create_dir(&mnt).unwrap();
        let stats = dir.path().join("stats");
        let timeout = if options.contains("timeout=") {
            ""
        } else {
            "timeout=0,"
        };
        let child = Command::new(bin)
            .arg(source)
            .arg(&mnt)
            .arg("-f")
            .arg("-o")
            .arg(format!(
                "ro,fsname=latfs,subtype=latfs,delay_us=0,{timeout}stats={},{options}",
                stats.display()
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start latfs");
        let fs = Latfs {
            child,
            mnt,
            stats,
            _dir: dir,
        };
        let start = Instant::now();
        while !fs.mounted() {
            if start.elapsed() > Duration::from_secs(10) {
                eprintln!("NOTE: skipping FUSE test: latfs did not mount in 10 s");
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Some(fs)
    }

    pub fn path(&self) -> &Path {
        &self.mnt
    }

    /// Zeroes the counters, and waits until a dump says so: the signals
    /// are taken asynchronously, a pending SIGUSR1 before SIGUSR2.
    pub fn reset(&self) {
        for _ in 0..200 {
            self.signal(rustix::process::Signal::USR2);
            std::thread::sleep(Duration::from_millis(20));
            if self.counts().get("total") == Some(&0) {
                return;
            }
        }
        panic!("latfs counters do not reset");
    }

    fn signal(&self, sig: rustix::process::Signal) {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).expect("latfs pid");
        rustix::process::kill_process(pid, sig).expect("signal latfs");
    }

    /// The counters ("LOOKUP", "GETATTR", ..., "total") since the last reset.
    pub fn counts(&self) -> std::collections::HashMap<String, u64> {
        let _ = std::fs::remove_file(&self.stats);
        self.signal(rustix::process::Signal::USR1);
        let start = Instant::now();
        let text = loop {
            if let Ok(text) = std::fs::read_to_string(&self.stats) {
                break text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "latfs wrote no counters"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        text.lines()
            .filter_map(|l| {
                let (k, v) = l.split_once(' ')?;
                Some((k.to_string(), v.parse().ok()?))
            })
            .collect()
    }

    fn mounted(&self) -> bool {
        let info = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        let point = format!(" {} ", self.mnt.display());
        info.lines()
            .any(|l| l.contains(&point) && l.contains(" fuse.latfs "))
    }
}

impl Drop for Latfs {
    fn drop(&mut self) {
        for args in [&["-u"][..], &["-uz"]] {
            let done = Command::new("fusermount3")
                .args(args)
                .arg(&self.mnt)
                .stderr(Stdio::null())
                .status();
            if done.is_ok_and(|s| s.success()) {
                break;
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
