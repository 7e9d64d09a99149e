//! A signal during a hung server request (issue 20): SIGINT or SIGTERM is
//! obeyed at once however ls waits — one thread blocked in the request, or
//! overlapped probe threads blocked in theirs — with colour or without, to
//! a pipe, a file or the controlling terminal, and nothing is written that
//! GNU ls would not write (no colour reset where GNU installs no handler,
//! no `cannot access ...: Interrupted system call`). The server is the
//! project's FUSE test filesystem (latfs) holding every lookup of one name
//! for 10 s, answering the kernel's INTERRUPT (`hang_intr`); and where the
//! server ignores interrupts, no later than GNU ls dies. Skipped, with
//! a loud note, where FUSE is not available.
//!
//! The goal is death within 50 ms of the signal; what is asserted is a
//! generous bound (1 s) that a loaded machine still meets. The times are
//! printed (`--nocapture`).

mod util;

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use util::latfs::Latfs;
use util::pty::{available, run_on_tty, When};
use util::{gnu, ours, TempDir};

fn source() -> TempDir {
    let t = TempDir::new("hang-src");
    for name in ["a", "b", "c", "hang-me", "x", "y"] {
        t.file(name, 1, 1_600_000_000);
    }
    t
}

/// When the signal goes: the request has surely reached the server.
const SIGNAL_AFTER: Duration = Duration::from_millis(300);
/// What is asserted (the goal is 50 ms).
const BOUND: Duration = Duration::from_secs(1);

/// Where the output goes.
#[derive(Clone, Copy, Debug)]
enum Sink {
    Pipe,
    File,
    Terminal,
}

struct Outcome {
    to_death: Duration,
    signal: Option<i32>,
    output: Vec<u8>,
}

/// Runs `program ARGS` in `cwd` with `env`, sends `sig` after
/// [`SIGNAL_AFTER`] and measures the time to its death.
fn run_and_signal(
    program: &Path,
    cwd: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    sink: Sink,
    sig: i32,
) -> Outcome {
    if let Sink::Terminal = sink {
        let run = run_on_tty(
            program,
            cwd,
            args,
            env,
            SIGNAL_AFTER,
            When::AfterStart,
            Some(sig),
        );
        return Outcome {
            to_death: run.to_death.unwrap_or(Duration::MAX),
            signal: run.ended.strip_prefix("sig ").and_then(|s| s.parse().ok()),
            output: run.output,
        };
    }
    let dir = TempDir::new("hang-out");
    let file = dir.path().join("out");
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .env_clear()
        .env("LC_ALL", "C")
        .env("TERM", "xterm")
        .envs(env.iter().copied())
        .stderr(Stdio::piped());
    match sink {
        Sink::Pipe => cmd.stdout(Stdio::piped()),
        _ => cmd.stdout(std::fs::File::create(&file).unwrap()),
    };
    let child = cmd.spawn().unwrap();
    std::thread::sleep(SIGNAL_AFTER);
    let sent = Instant::now();
    let killed = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(child.id().to_string())
        .status();
    assert!(killed.unwrap().success());
    let to_death = sent.elapsed();
    let out = child.wait_with_output().unwrap();
    let mut output = out.stdout;
    if let Sink::File = sink {
        output = std::fs::read(&file).unwrap();
    }
    output.extend_from_slice(&out.stderr);
    Outcome {
        to_death,
        signal: out.status.signal(),
        output,
    }
}

const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

/// A program to run: its name in messages, its path, its environment.
type Program = (
    String,
    std::path::PathBuf,
    Vec<(&'static str, &'static str)>,
);

/// Programs and modes: ours overlapped (the default on FUSE) and one
/// thread at a time, and GNU's.
fn programs() -> Vec<Program> {
    let mut all = vec![
        ("ours, overlapped".to_string(), ours(), vec![]),
        (
            "ours, one thread".to_string(),
            ours(),
            vec![("STATLS_THREADS", "1")],
        ),
    ];
    if let Some(g) = gnu() {
        all.push(("GNU".to_string(), g, vec![]));
    } else {
        eprintln!("NOTE: /bin/ls is not GNU ls 9.1: no GNU figures");
    }
    all
}

/// The server answers INTERRUPT: whoever waits on it, ls dies at once, by
/// the signal, having written nothing (neither a colour reset nor an
/// error about the interrupted request).
#[test]
fn a_signal_during_a_hung_request_kills_at_once_writing_nothing() {
    let src = source();
    let options = "hang_op=lookup,hang_name=hang-*,hang_ms=10000,hang_intr";
    let Some(fs) = Latfs::mount(src.path(), options) else {
        return;
    };
    let tty = available();
    if !tty {
        eprintln!("NOTE: python3 with pty is not available: no terminal cases");
    }
    for (name, program, env) in programs() {
        for (args, sink, sig) in [
            (&["-l"][..], Sink::Pipe, SIGINT),
            (&["-l", "--color=always"], Sink::Pipe, SIGINT),
            (&["-l", "--color=always"], Sink::File, SIGTERM),
            (&["-l", "--color=always"], Sink::Terminal, SIGINT),
            (&["--color=always"], Sink::Terminal, SIGTERM),
        ] {
            if let (Sink::Terminal, false) = (sink, tty) {
                continue;
            }
            let what = format!("{name}: ls {} > {sink:?}, signal {sig}", args.join(" "));
            let o = run_and_signal(&program, fs.path(), args, &env, sink, sig);
            eprintln!(
                "{what}: dead {} ms after the signal",
                o.to_death.as_millis()
            );
            assert_eq!(o.signal, Some(sig), "{what}");
            assert!(o.to_death < BOUND, "{what}: {:?}", o.to_death);
            if name != "GNU" {
                assert_eq!(String::from_utf8_lossy(&o.output), "", "{what}");
            }
        }
    }
}

/// On the terminal, once colour output has started (the first directory
/// is listed, then a subdirectory hangs), the handlers are in place: the
/// signal still kills at once, and the colour is restored first, as GNU
/// does it, after the lines already listed.
#[test]
fn a_signal_after_colour_output_started_restores_the_colour_and_kills_at_once() {
    if !available() {
        eprintln!("NOTE: skipping: python3 with pty is not available");
        return;
    }
    let src = TempDir::new("hang-src");
    src.file("a/f", 1, 1_600_000_000)
        .file("z/hang-me", 1, 1_600_000_000)
        .file("z/other", 1, 1_600_000_000);
    let options = "hang_op=lookup,hang_name=hang-*,hang_ms=10000,hang_intr";
    let Some(fs) = Latfs::mount(src.path(), options) else {
        return;
    };
    let args = ["-lR", "--color=always"];
    let mut outputs = Vec::new();
    for (name, program, env) in programs() {
        let what = format!("{name}: ls -lR --color=always on the terminal, SIGINT");
        let run = run_on_tty(
            &program,
            fs.path(),
            &args,
            &env,
            SIGNAL_AFTER,
            When::AfterStart,
            Some(SIGINT),
        );
        let to_death = run.to_death.unwrap_or(Duration::MAX);
        eprintln!("{what}: dead {} ms after the signal", to_death.as_millis());
        assert_eq!(run.ended, format!("sig {SIGINT}"), "{what}");
        assert!(to_death < BOUND, "{what}: {to_death:?}");
        assert!(
            run.output.ends_with(b"\x1b[m"),
            "{what}: {:?}",
            String::from_utf8_lossy(&run.output)
        );
        outputs.push((name, run.output));
    }
    // What reached the terminal is GNU's, byte for byte, less the
    // `cannot access ...: Interrupted system call` GNU prints when the
    // interrupted request returns before it acts on the signal.
    if let Some((_, theirs)) = outputs.iter().find(|(n, _)| n == "GNU") {
        let theirs: String = String::from_utf8_lossy(theirs)
            .split_inclusive('\n')
            .filter(|l| !l.ends_with(": Interrupted system call\n"))
            .collect();
        for (name, mine) in outputs.iter().filter(|(n, _)| n != "GNU") {
            assert_eq!(String::from_utf8_lossy(mine), theirs, "{name}");
        }
    }
}

/// The server ignores INTERRUPT: a fatal signal (no handler is set up
/// before colour output starts) still ends ls at once on the kernels
/// tried; in any case no later than GNU ls, and writing nothing.
#[test]
fn a_signal_during_a_request_the_server_will_not_interrupt_kills_when_it_returns() {
    let src = source();
    let hang = Duration::from_millis(1500);
    let options = format!(
        "hang_op=lookup,hang_name=hang-*,hang_ms={}",
        hang.as_millis()
    );
    let Some(fs) = Latfs::mount(src.path(), &options) else {
        return;
    };
    let mut gnu_time = None;
    for (name, program, env) in programs().into_iter().rev() {
        let args = ["-l", "--color=always"];
        let what = format!("{name}: ls -l --color=always > pipe, SIGINT");
        let o = run_and_signal(&program, fs.path(), &args, &env, Sink::Pipe, SIGINT);
        eprintln!(
            "{what}: dead {} ms after the signal",
            o.to_death.as_millis()
        );
        assert_eq!(o.signal, Some(SIGINT), "{what}");
        if name == "GNU" {
            gnu_time = Some(o.to_death);
            continue;
        }
        assert_eq!(String::from_utf8_lossy(&o.output), "", "{what}");
        // The rest of the hang, plus slack.
        let limit = gnu_time.unwrap_or(hang) + Duration::from_millis(500);
        assert!(
            o.to_death < limit,
            "{what}: {:?}, limit {limit:?}",
            o.to_death
        );
    }
}
