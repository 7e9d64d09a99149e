//! Running a program on a pseudo-terminal that is its controlling
//! terminal (tests/support/ptyrun.py, Python's `pty`), and signalling it
//! there: GNU ls sets up its colour-restoring handlers only in that case.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// How a run on the terminal went.
#[derive(Debug)]
pub struct TtyRun {
    /// Everything written to the terminal (stdout and stderr).
    pub output: Vec<u8>,
    /// What it had written when it stopped (`stop` runs).
    pub at_stop: Vec<u8>,
    /// From the signal to the death (`kill` runs).
    pub to_death: Option<Duration>,
    /// `sig N` or `exit N`.
    pub ended: String,
}

/// Whether the pty driver can run here.
pub fn available() -> bool {
    Command::new("python3")
        .args(["-c", "import pty, tty"])
        .status()
        .is_ok_and(|s| s.success())
}

/// When the signal goes.
#[derive(Clone, Copy, Debug)]
pub enum When {
    /// `delay` after the first output, not reading the terminal meanwhile.
    AfterOutput,
    /// `delay` after the start, reading the terminal all along.
    AfterStart,
}

/// Runs `program ARGS` (as `ls`, LC_ALL=C, TERM=xterm, plus `env`) in
/// `cwd` on a new controlling terminal. Once its first output arrived,
/// the terminal is left unread for `delay` (a long output then blocks the
/// writer mid-way); then sends `signal` (`Some(n)`) and waits for its
/// death, or (`None`) stops it with SIGTSTP, records its output, continues
/// it and waits for the end.
pub fn run_on_tty(
    program: &Path,
    cwd: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    delay: Duration,
    when: When,
    signal: Option<i32>,
) -> TtyRun {
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/ptyrun.py");
    let dir = super::TempDir::new("pty");
    let out = dir.path().join("out");
    let mut cmd = Command::new("python3");
    cmd.arg(&driver)
        .arg(&out)
        .arg(delay.as_millis().to_string());
    match signal {
        Some(sig) => {
            let mode = match when {
                When::AfterOutput => "kill",
                When::AfterStart => "timed",
            };
            cmd.arg(mode).arg(sig.to_string())
        }
        None => cmd.arg("stop"),
    };
    // exec -a: the program calls itself `ls` in its messages.
    cmd.args(["--", "/bin/bash", "-c", "exec -a ls \"$0\" \"$@\""])
        .arg(program)
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("LC_ALL", "C")
        .env("TERM", "xterm")
        .envs(env.iter().copied());
    let result = cmd.output().expect("run the pty driver");
    assert!(result.status.success(), "pty driver: {result:?}");
    let line = String::from_utf8_lossy(&result.stdout).trim().to_string();
    let (first, ended) = line.split_once(' ').unwrap_or((&line, ""));
    TtyRun {
        output: std::fs::read(&out).unwrap_or_default(),
        at_stop: std::fs::read(dir.path().join("out.stop")).unwrap_or_default(),
        to_death: first.parse::<u64>().ok().map(Duration::from_millis),
        ended: ended.to_string(),
    }
}
