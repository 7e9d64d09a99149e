//! `-R` is iterative and bounded: a 10 000-deep chain lists exactly as GNU
//! does (including where the path grows too long for the kernel) with
//! only 64 descriptors allowed and no stack overflow.

mod util;

use util::{gnu, ours, TempDir};

fn deep_chain(levels: usize) -> TempDir {
    use rustix::fs::{mkdirat, openat, Mode, OFlags, CWD};
    let t = TempDir::new("deep");
    // Built through directory descriptors: the full path is too long for
    // the kernel after about 2 000 levels.
    let mut fd = openat(
        CWD,
        t.path(),
        OFlags::DIRECTORY | OFlags::RDONLY,
        Mode::empty(),
    )
    .unwrap();
    for _ in 0..levels {
        mkdirat(&fd, "d", Mode::from_raw_mode(0o755)).unwrap();
        fd = openat(&fd, "d", OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty()).unwrap();
    }
    t
}

fn run_limited(
    program: &std::path::Path,
    cwd: &std::path::Path,
) -> (Vec<u8>, Vec<u8>, Option<i32>) {
    let out = util::in_shell(program, cwd, "ulimit -n 64 && exec -a ls \"$0\" -R d");
    (out.stdout, out.stderr, out.status.code())
}

#[test]
fn ten_thousand_deep_chain_with_64_descriptors() {
    let t = deep_chain(10_000);
    let ours = run_limited(&ours(), t.path());
    // The listing goes as deep as the kernel accepts the path, then says so.
    assert!(
        ours.0.len() > 1_000_000,
        "listed only {} bytes",
        ours.0.len()
    );
    assert!(String::from_utf8_lossy(&ours.1).ends_with(": File name too long\n"));
    assert_eq!(ours.2, Some(1));
    if let Some(g) = gnu() {
        let theirs = run_limited(&g, t.path());
        assert!(
            ours == theirs,
            "differs from GNU ls (stdout {} vs {} bytes)",
            ours.0.len(),
            theirs.0.len()
        );
    }
}
