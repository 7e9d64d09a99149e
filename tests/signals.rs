//! Interrupted while writing colours, ls first restores the terminal's
//! default colour (`\e[m` after what it had produced), then takes the
//! signal's default action, as GNU ls does: dies on SIGINT, stops on
//! SIGTSTP and carries on when continued.

mod util;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use util::{ours, TempDir};

fn coloured_tree() -> TempDir {
    let t = TempDir::new("signals");
    for i in 0..3000 {
        t.dir(&format!("top/dir{i:04}/a"))
            .dir(&format!("top/dir{i:04}/b"));
    }
    t
}

fn spawn(t: &TempDir) -> Child {
    Command::new(ours())
        .args(["--color=always", "-R", "top"])
        .current_dir(t.path())
        .env_clear()
        .env("LC_ALL", "C")
        .env("TERM", "xterm")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn send(child: &Child, sig: &str) {
    assert!(Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success());
}

/// Reads stdout in the background into a shared buffer.
fn drain(child: &mut Child) -> Arc<Mutex<Vec<u8>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let mut out = child.stdout.take().unwrap();
    let sink = Arc::clone(&buf);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = out.read(&mut chunk) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    buf
}

fn state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(')').next()?.trim().chars().next()
}

#[test]
fn sigint_restores_the_colour_then_dies() {
    let t = coloured_tree();
    let mut child = spawn(&t);
    // Let it fill the pipe and block, so it is surely mid-output.
    std::thread::sleep(Duration::from_millis(200));
    send(&child, "INT");
    let buf = drain(&mut child);
    let status = child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let out = buf.lock().unwrap().clone();
    assert_eq!(status.signal(), Some(2), "killed by SIGINT");
    assert!(
        out.ends_with(b"\x1b[m"),
        "ends with the colour reset: {:?}",
        String::from_utf8_lossy(&out[out.len().saturating_sub(40)..])
    );
}

#[test]
fn sigtstp_restores_the_colour_stops_and_continues() {
    let t = coloured_tree();
    let mut child = spawn(&t);
    std::thread::sleep(Duration::from_millis(200));
    send(&child, "TSTP");
    let buf = drain(&mut child);
    let start = Instant::now();
    while state(child.id()) != Some('T') {
        assert!(start.elapsed() < Duration::from_secs(10), "never stopped");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(100));
    let at_stop = buf.lock().unwrap().clone();
    assert!(at_stop.ends_with(b"\x1b[m"), "colour reset before stopping");
    send(&child, "CONT");
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}
