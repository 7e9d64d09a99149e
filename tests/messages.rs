//! Differential specification of diagnostics that the shared fixture
//! cannot provoke: a symbolic link that can be stat'ed but not read
//! (`/proc/1/cwd` for another user) is reported as GNU ls 9.1 does —
//! `cannot read symbolic link` in the catalog's words, status 2 for an
//! operand and 1 inside a directory — and still listed. Skipped, with a
//! note, without root, GNU ls 9.1, or a user `nobody` who can run our
//! binary.

mod util;

use std::path::Path;
use std::process::Command;

/// stderr and exit status of `ls ARGS` run as nobody with `LC_ALL=locale`.
fn as_nobody(program: &Path, locale: &str, args: &[&str]) -> Option<(Vec<u8>, Option<i32>)> {
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .args(["/bin/bash", "-c", "exec -a ls \"$0\" \"$@\""])
        .arg(program)
        .args(args)
        .env_clear()
        .env("LC_ALL", locale)
        .env("TZ", "UTC")
        .env("PATH", "/usr/bin:/bin")
        .current_dir("/")
        .output()
        .ok()?;
    Some((out.stderr, out.status.code()))
}

#[test]
fn unreadable_symlinks_are_reported_in_the_catalogs_words() {
    let Some(gnu) = util::gnu() else {
        eprintln!("skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let probe = as_nobody(&util::ours(), "C", &["-d", "/"]);
    if !matches!(probe, Some((_, Some(0)))) {
        eprintln!("skipping: nobody cannot run {}", util::ours().display());
        return;
    }
    let gnu_probe = as_nobody(&gnu, "C", &["-l", "/proc/1/cwd"]);
    if !gnu_probe.is_some_and(|(err, _)| err.windows(8).any(|w| w == b"symbolic")) {
        eprintln!("skipping: /proc/1/cwd is readable here");
        return;
    }
    for locale in ["C", "de_DE.UTF-8", "ru_RU.KOI8-R", "zh_CN.GB18030"] {
        for args in [
            &["-l", "/proc/1/cwd", "/proc/1/exe"][..],
            &["-l", "/proc/1"][..],
            &["-lU", "/proc/1"][..],
        ] {
            let ours = as_nobody(&util::ours(), locale, args);
            let theirs = as_nobody(&gnu, locale, args);
            assert_eq!(
                ours.as_ref().map(|(e, c)| (String::from_utf8_lossy(e), c)),
                theirs
                    .as_ref()
                    .map(|(e, c)| (String::from_utf8_lossy(e), c)),
                "LC_ALL={locale} ls {args:?}"
            );
        }
    }
}
