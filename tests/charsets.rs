//! Differential specification of characters in every charset (issue 19,
//! LC_CTYPE): names made of the bytes that matter in ISO-8859-1, KOI8-R,
//! GB18030 and UTF-8 (printable letters, controls, characters `iswprint`
//! accepts but `wcwidth` does not measure, invalid and unfinished
//! sequences, bytes that spell the locale's quotes) are listed in each
//! locale with each quoting switch and layout, byte for byte as GNU ls
//! 9.1. Skipped, with a note, without GNU ls or the locale.

mod util;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::Command;

use util::{compare, TempDir};

const NAMES: &[&[u8]] = &[
    b"plain",
    b"caf\xe9",                  // é in ISO-8859-1
    b"\x85ctl",                  // a C1 control in ISO-8859-1
    b"\xd0\xd2\xc9\xd7\xc5\xd4", // привет in KOI8-R
    b"\x9a\xbf",                 // KOI8-R: NBSP and ©
    b"\xa6\xd9",                 // GB18030 two-byte, printable and measured
    b"\x90\x30\xd5\x38",         // GB18030 U+10350: printable, no width
    b"a\x90\x30\xa8\x35x",       // another one inside a name
    b"\x81\x30",                 // GB18030 unfinished four-byte sequence
    b"\x81\x30\x81\x30",         // GB18030 U+0080
    b"\xa1\xae\xa1\xaf",         // GB18030's own curved quotes
    b"x\xa1\xafy",
    b"a>>b<<c",                   // KOI8-R's transliterated quotes
    b"\xbbq\xab",                 // « » in ISO-8859-1
    b"\xc3\xa9t\xc3\xa9",         // été in UTF-8
    b"\xe2\x80\x9cq\xe2\x80\x9d", // “q”
    b"\xf0\x9f\x98\x80",          // emoji
    b"\xe4\xb8\xad\xe6\x96\x87",  // 中文
    b"\xff\xfe",
    b"it's",
    b"sp ace",
    b"tab\there",
];

const LOCALES: &[(&str, &str)] = &[
    ("de_DE.ISO-8859-1", "de_DE.iso88591"),
    ("ru_RU.KOI8-R", "ru_RU.koi8r"),
    ("zh_CN.GB18030", "zh_CN.gb18030"),
    ("zh_CN.UTF-8", "zh_CN.utf8"),
    ("ja_JP.UTF-8", "ja_JP.utf8"),
    ("C", "C"),
];

const SWITCHES: &[&[&str]] = &[
    &[],
    &["-q"],
    &["-b"],
    &["-N", "-C", "-w", "40"],
    &["-q", "-C", "-w", "40"],
    &["-x", "-w", "30"],
    &["-m", "-w", "50"],
    &["--quoting-style=shell-escape", "-C", "-w", "60"],
    &["--quoting-style=shell"],
    &["--quoting-style=c-maybe"],
    &["--quoting-style=locale", "-C", "-w", "60"],
    &["--quoting-style=clocale"],
    &["--quoting-style=escape", "-x"],
    &["-Q", "-F"],
    // What a terminal gets by default.
    &["-q", "--quoting-style=shell-escape", "-C", "-w", "80"],
    &["-l", "--time-style=+%s", "-q"],
    &["-l", "--time-style=+%s", "--quoting-style=locale"],
];

fn tree() -> TempDir {
    let t = TempDir::new("charsets");
    for name in NAMES {
        t.file(OsStr::from_bytes(name), 1, 1_600_000_000);
    }
    t
}

fn locale_generated(spelled: &str) -> bool {
    let listed = Command::new("locale")
        .arg("-a")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    spelled == "C" || listed.lines().any(|l| l == spelled)
}

#[test]
fn names_in_every_charset_are_quoted_and_measured_as_gnu_ls() {
    let t = tree();
    for (locale, spelled) in LOCALES {
        if !locale_generated(spelled) {
            eprintln!("skipping {locale}: not generated");
            continue;
        }
        for args in SWITCHES {
            if !compare(t.path(), args, &[("LC_ALL", locale)]) {
                return;
            }
        }
    }
}

/// Every quoting style with and without `-q`, in columns (widths matter).
#[test]
fn every_style_with_and_without_hidden_control_chars() {
    let t = tree();
    let styles = [
        "literal",
        "shell",
        "shell-always",
        "shell-escape",
        "shell-escape-always",
        "c",
        "c-maybe",
        "escape",
        "locale",
        "clocale",
    ];
    for (locale, spelled) in LOCALES {
        if !locale_generated(spelled) {
            continue;
        }
        for style in styles {
            for hide in ["-q", "--show-control-chars"] {
                let style = format!("--quoting-style={style}");
                let args = [style.as_str(), hide, "-C", "-w", "70"];
                if !compare(t.path(), &args, &[("LC_ALL", locale)]) {
                    return;
                }
            }
        }
    }
}

#[test]
fn diagnostics_quote_names_in_the_locale_charset() {
    let t = tree();
    for (locale, spelled) in LOCALES {
        if !locale_generated(spelled) {
            continue;
        }
        let env = [("LC_ALL", *locale)];
        let args = ["--sort=\u{e9}", "plain"];
        if !compare(t.path(), &args, &env) {
            return;
        }
        compare(t.path(), &["-d", "missing", "plain"], &env);
        compare(
            t.path(),
            &["--quoting-style=locale", "-d", "x>>y", "plain"],
            &env,
        );
    }
}
