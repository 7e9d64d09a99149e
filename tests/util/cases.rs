//! The shared compat corpora as this machine can run them: a case run as
//! another user (`AS=nobody`) needs that user to reach our binary, which a
//! checkout in a private directory does not allow.

use std::path::Path;
use std::process::Command;

use super::ours;

/// The user of an `AS=user` case prefix.
pub fn case_user(line: &str) -> Option<&str> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    line.split_whitespace()
        .find_map(|word| word.strip_prefix("AS="))
        .filter(|u| !u.is_empty())
}

/// Whether `user` can execute our binary (every parent directory must let
/// them through), asked the way the runner starts it: with setpriv.
pub fn can_execute_ours(user: &str) -> bool {
    let id = |flag: &str| {
        Command::new("id")
            .args([flag, user])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let (Some(uid), Some(gid)) = (id("-u"), id("-g")) else {
        return false;
    };
    Command::new("setpriv")
        .arg(format!("--reuid={uid}"))
        .arg(format!("--regid={gid}"))
        .args(["--clear-groups", "--", "test", "-x"])
        .arg(ours())
        .status()
        .is_ok_and(|s| s.success())
}

/// The text of the case list `corpus`, less the cases whose user cannot
/// reach our binary (each left out is noted on stderr).
pub fn runnable_here(corpus: &Path) -> String {
    let text = std::fs::read_to_string(corpus).expect("read the case list");
    let mut kept = String::new();
    let mut skipped: Vec<&str> = Vec::new();
    for line in text.lines() {
        match case_user(line) {
            Some(user) if !can_execute_ours(user) => skipped.push(line),
            _ => {
                kept.push_str(line);
                kept.push('\n');
            }
        }
    }
    if !skipped.is_empty() {
        eprintln!(
            "note: skipping {} case(s) run as another user, who cannot execute {}:",
            skipped.len(),
            ours().display()
        );
        for line in &skipped {
            eprintln!("  {line}");
        }
    }
    kept
}

/// Whether the tests run as root (cases as other users need it).
pub fn is_root() -> bool {
    rustix::process::getuid().is_root()
}
