//! Output faults behave as in GNU ls: a full disk is reported once as a
//! write error (status 2); a closed pipe kills ls with SIGPIPE unless the
//! parent ignored that signal, in which case it is a write error too; a
//! closed stdout is `Bad file descriptor` once there is something to write.

mod util;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use util::{gnu, ours, TempDir};

fn big_tree() -> TempDir {
    let t = TempDir::new("faults");
    for i in 0..3000 {
        t.file(
            format!("d/file-with-a-longish-name-{i:05}"),
            0,
            1_600_000_000,
        );
    }
    t
}

/// Runs `ls -1 d` through `sh` (so the shell can set up SIGPIPE), reads
/// 100 bytes of its output, closes the pipe and returns how it ended.
fn close_early(
    program: &std::path::Path,
    cwd: &std::path::Path,
    ignore_sigpipe: bool,
) -> (Option<i32>, Option<i32>, String) {
    let trap = if ignore_sigpipe { "trap '' PIPE; " } else { "" };
    let script = format!("{trap}exec -a ls \"$0\" -1 d");
    let mut child = util::shell(program, cwd, &script)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), status.signal(), err)
}

#[test]
fn closed_pipe_kills_with_sigpipe_by_default() {
    let t = big_tree();
    let (code, signal, err) = close_early(&ours(), t.path(), false);
    assert_eq!(
        (code, signal, err.as_str()),
        (None, Some(libc_sigpipe()), "")
    );
    if let Some(g) = gnu() {
        let (gcode, gsignal, gerr) = close_early(&g, t.path(), false);
        assert_eq!((code, signal, err), (gcode, gsignal, gerr));
    }
}

#[test]
fn closed_pipe_with_sigpipe_ignored_is_a_write_error() {
    let t = big_tree();
    let (code, signal, err) = close_early(&ours(), t.path(), true);
    assert_eq!(
        (code, signal, err.as_str()),
        (Some(2), None, "ls: write error: Broken pipe\n")
    );
    if let Some(g) = gnu() {
        assert_eq!((code, signal, err), close_early(&g, t.path(), true));
    }
}

#[test]
fn full_disk_is_a_write_error() {
    let t = big_tree();
    let run = |p: &std::path::Path| {
        let out = Command::new(p)
            .arg0_ls()
            .arg("d")
            .current_dir(t.path())
            .env_clear()
            .env("LC_ALL", "C")
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let ours = run(&ours());
    assert_eq!(
        ours,
        (
            Some(2),
            "ls: write error: No space left on device\n".to_string()
        )
    );
    if let Some(g) = gnu() {
        assert_eq!(ours, run(&g));
    }
}

/// Runs `bash -c 'exec ls ARGS >&-'`: ls starts with descriptor 1 closed.
fn with_stdout_closed(
    program: &std::path::Path,
    cwd: &std::path::Path,
    args: &str,
) -> (Option<i32>, String) {
    let out = util::in_shell(program, cwd, &format!("exec -a ls \"$0\" {args} >&-"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn closed_stdout_is_a_write_error_once_something_is_written() {
    let t = big_tree();
    std::fs::create_dir(t.path().join("empty")).unwrap();
    let bad_fd = (
        Some(2),
        "ls: write error: Bad file descriptor\n".to_string(),
    );
    let cases = [
        ("d", bad_fd.clone()),
        ("-l empty", bad_fd.clone()),
        ("--help", bad_fd.clone()),
        ("--version", bad_fd.clone()),
        // Nothing to write, nothing to report.
        ("empty", (Some(0), String::new())),
    ];
    for (args, expected) in cases {
        let ours = with_stdout_closed(&ours(), t.path(), args);
        assert_eq!(ours, expected, "ls {args} >&-");
        if let Some(g) = gnu() {
            assert_eq!(
                ours,
                with_stdout_closed(&g, t.path(), args),
                "ls {args} >&-"
            );
        }
    }
}

trait Arg0 {
    fn arg0_ls(&mut self) -> &mut Self;
}

impl Arg0 for Command {
    fn arg0_ls(&mut self) -> &mut Self {
        std::os::unix::process::CommandExt::arg0(self, "ls")
    }
}

fn libc_sigpipe() -> i32 {
    13
}
