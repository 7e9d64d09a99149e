//! Signals while colours are written, as GNU ls takes them. On the
//! controlling terminal, once colour output has started, ls first restores
//! the terminal's default colour (`\e[m`), then takes the signal's default
//! action: dies on SIGINT, stops on SIGTSTP and carries on when continued.
//! Anywhere else (a pipe, a file) it installs no handler: the signal's
//! default action, and not a byte more.

mod util;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use util::pty::{available, run_on_tty, When};
use util::{gnu, ours, TempDir};

fn coloured_tree() -> TempDir {
    let t = TempDir::new("signals");
    for i in 0..1000 {
        t.dir(&format!("top/dir{i:04}/a"))
            .dir(&format!("top/dir{i:04}/b"));
    }
    t
}

const ARGS: [&str; 3] = ["--color=always", "-R", "top"];

fn spawn(program: &std::path::Path, t: &TempDir) -> Child {
    Command::new(program)
        .args(ARGS)
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
fn drain(child: &mut Child) -> (Arc<Mutex<Vec<u8>>>, std::thread::JoinHandle<()>) {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let mut out = child.stdout.take().unwrap();
    let sink = Arc::clone(&buf);
    let reader = std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = out.read(&mut chunk) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    (buf, reader)
}

fn tail(out: &[u8]) -> String {
    String::from_utf8_lossy(&out[out.len().saturating_sub(40)..]).into_owned()
}

/// `ls --color=always -R top` on the controlling terminal, signalled
/// (SIGTSTP for `None`) while blocked on a full terminal mid-output.
fn coloured_listing_on_tty(signal: Option<i32>) -> Option<util::pty::TtyRun> {
    if !available() {
        eprintln!("NOTE: skipping: python3 with pty is not available");
        return None;
    }
    let t = coloured_tree();
    let delay = Duration::from_millis(100);
    Some(run_on_tty(
        &ours(),
        t.path(),
        &ARGS,
        &[],
        delay,
        When::AfterOutput,
        signal,
    ))
}

#[test]
fn sigint_on_the_terminal_restores_the_colour_then_dies() {
    let Some(run) = coloured_listing_on_tty(Some(2)) else {
        return;
    };
    assert_eq!(run.ended, "sig 2", "killed by SIGINT");
    assert!(
        run.output.ends_with(b"\x1b[m"),
        "ends with the colour reset: {:?}",
        tail(&run.output)
    );
}

#[test]
fn sigtstp_on_the_terminal_restores_the_colour_stops_and_continues() {
    let Some(run) = coloured_listing_on_tty(None) else {
        return;
    };
    assert!(
        run.at_stop.ends_with(b"\x1b[m"),
        "colour reset before stopping: {:?}",
        tail(&run.at_stop)
    );
    assert_eq!(run.ended, "exit 0");
    // Continued, it finished the listing.
    let listed = |o: &[u8]| o.windows(8).filter(|w| w == b"dir0999:").count();
    assert_eq!(listed(&run.output), 1);
}

/// `ls --color=always -R > pipe`: SIGINT kills it at once, with no colour
/// reset added, as it kills GNU ls.
#[test]
fn sigint_with_colour_to_a_pipe_takes_the_default_action_and_adds_nothing() {
    let t = coloured_tree();
    let mut programs = vec![ours()];
    programs.extend(gnu());
    for program in programs {
        let mut child = spawn(&program, &t);
        // Let it fill the pipe and block, so it is surely mid-output.
        std::thread::sleep(Duration::from_millis(200));
        send(&child, "INT");
        let (buf, reader) = drain(&mut child);
        let status = child.wait().unwrap();
        reader.join().unwrap();
        let out = buf.lock().unwrap().clone();
        assert_eq!(status.signal(), Some(2), "{program:?} killed by SIGINT");
        assert!(
            !out.ends_with(b"\x1b[m"),
            "{program:?}: no colour reset: {:?}",
            tail(&out)
        );
    }
}
