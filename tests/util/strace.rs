//! Our `ls` under strace: its stat calls (path, flags, mask) and the raw
//! log of any syscalls, for the tests that specify what is asked of the
//! kernel (`tests/syscalls*.rs`).

use std::process::Command;

use super::ours;

/// One traced stat call.
#[derive(Debug)]
pub struct Call {
    pub syscall: String,
    pub path: String,
    pub flags: String,
    pub mask: String,
}

pub fn strace_available() -> bool {
    Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs our ls under strace in `cwd` and returns its statx/newfstatat calls.
pub fn trace(cwd: &std::path::Path, args: &[&str]) -> Vec<Call> {
    trace_with(
        cwd,
        args,
        &[],
        "trace=statx,newfstatat,fstatat64,lstat,stat",
    )
}

/// [`trace`] with extra environment variables and syscalls.
pub fn trace_with(
    cwd: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
    syscalls: &str,
) -> Vec<Call> {
    strace_log(cwd, args, env, syscalls)
        .lines()
        .filter_map(parse_line)
        .filter(|c| !is_libc_fstat(c))
        .collect()
}

/// Runs our ls under `strace -f -e SYSCALLS` in `cwd` (clean environment
/// plus `env`) and returns strace's log.
pub fn strace_log(
    cwd: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
    syscalls: &str,
) -> String {
    strace_log_in(cwd, cwd, args, env, syscalls)
}

/// [`strace_log`] with the log kept in `log_dir` while it is written (a
/// read-only `cwd`, such as a FUSE mount, cannot hold it).
pub fn strace_log_in(
    log_dir: &std::path::Path,
    cwd: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
    syscalls: &str,
) -> String {
    let log = log_dir.join(".strace.log");
    let status = Command::new("strace")
        .arg("-f")
        .arg("-qq")
        .arg("-e")
        .arg(syscalls)
        .arg("-o")
        .arg(&log)
        .arg(ours())
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .env("TERM", "xterm")
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run strace");
    assert!(status.code().is_some());
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    text
}

/// The C library's own fstat (e.g. of /etc/passwd while looking up owner
/// names) is implemented with statx(fd, "", AT_EMPTY_PATH, STATX_ALL) or
/// newfstatat(fd, ""): not a file ls was asked about.
pub fn is_libc_fstat(c: &Call) -> bool {
    c.path.is_empty()
        && !c.flags.contains("AT_NO_AUTOMOUNT")
        && (c.mask == "STATX_ALL" || c.syscall != "statx")
}

pub fn parse_line(line: &str) -> Option<Call> {
    let open = line.find('(')?;
    let syscall = line[..open].rsplit(' ').next()?.to_string();
    let args = &line[open + 1..];
    let q1 = args.find('"')?;
    let q2 = q1 + 1 + args[q1 + 1..].find("\", ")?;
    let path = args[q1 + 1..q2].to_string();
    let rest: Vec<&str> = args[q2 + 3..].splitn(3, ", ").collect();
    let (flags, mask) = match syscall.as_str() {
        "statx" => (rest.first()?.to_string(), rest.get(1)?.to_string()),
        _ => (rest.last()?.to_string(), String::new()),
    };
    Some(Call {
        syscall,
        path,
        flags,
        mask,
    })
}

/// Calls on entries of the listed directory (not the operand, not the
/// C library's own start-up stats).
pub fn entry_calls<'a>(calls: &'a [Call], names: &[&str]) -> Vec<&'a Call> {
    calls
        .iter()
        .filter(|c| names.contains(&c.path.as_str()))
        .collect()
}
