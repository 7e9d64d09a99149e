//! Support for unit tests across the crate: tests that need process-wide C
//! library state (`TZ`, which the C library reads once; the locale) run again
//! in a child process of the test binary with that environment.

const CHILD: &str = "STATLS_TEST_CHILD";

/// Whether this process is the child run for `test` (full path below the
/// crate, e.g. `format::time::tests::six_months_rule`): then the caller
/// does its checks. Otherwise runs that test in a child with `env` (and
/// `LC_ALL=C` unless `env` sets it), asserts that it passed, and returns
/// false.
pub fn in_child(test: &str, env: &[(&str, &str)]) -> bool {
    let tag = format!("{test} {env:?}");
    if std::env::var_os(CHILD).is_some_and(|v| v == tag.as_str()) {
        return true;
    }
    let exe = std::env::current_exe().expect("test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args([test, "--exact", "--test-threads=1"])
        .env(CHILD, &tag)
        .env("LC_ALL", "C");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{tag}:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "the child ran no test {test}");
    false
}
