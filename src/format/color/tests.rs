//! Specifications of GNU ls 9.1 colour behaviour; expected values were
//! obtained by running `/bin/ls --color=always` (coreutils 9.1).

use super::*;
use crate::sys::FileType as T;

fn table(ls_colors: &str) -> ColorTable {
    match ColorTable::parse(ls_colors.as_bytes()) {
        Ok(t) => t,
        Err(w) => panic!("unparsable {ls_colors:?}: {w:?}"),
    }
}

fn warnings(ls_colors: &str) -> Vec<String> {
    match ColorTable::parse(ls_colors.as_bytes()) {
        Ok(_) => Vec::new(),
        Err(w) => w
            .iter()
            .map(|w| String::from_utf8_lossy(&w.message(false)).into_owned())
            .collect(),
    }
}

/// A stat'ed entry.
fn st(name: &str, mode: u32, nlink: u64) -> ColorSubject<'_> {
    ColorSubject {
        mode: Some(mode),
        nlink: Some(nlink),
        ..ColorSubject::new(name.as_bytes(), T::from_mode(mode))
    }
}

fn style<'t>(t: &'t ColorTable, s: &ColorSubject) -> Option<&'t str> {
    t.style(s)
        .map(|b| std::str::from_utf8(b).unwrap_or("<bin>"))
}

const REG: u32 = 0o100644;
const EXE: u32 = 0o100755;
const DIR: u32 = 0o040755;
const LNK: u32 = 0o120777;

#[test]
fn builtin_defaults() {
    let t = ColorTable::builtin();
    let cases: [(u32, Option<&str>); 14] = [
        (REG, None),
        (EXE, Some("01;32")),
        (0o104644, Some("37;41")),
        (0o102644, Some("30;43")),
        (DIR, Some("01;34")),
        (0o041755, Some("37;44")),
        (0o040757, Some("34;42")),
        (0o041777, Some("30;42")),
        (LNK, Some("01;36")),
        (0o010644, Some("33")),
        (0o140755, Some("01;35")),
        (0o060644, Some("01;33")),
        (0o020644, Some("01;33")),
        (0o000644, None), // unknown type: `or`, unset by default
    ];
    for (mode, want) in cases {
        assert_eq!(style(&t, &st("f", mode, 1)), want, "mode {mode:o}");
    }
    // mh is off by default; orphan links stay `ln` since `or` is unset.
    assert_eq!(style(&t, &st("hl", REG, 2)), None);
    assert_eq!(style(&t, &st("orphan", LNK, 1)), Some("01;36"));
    assert_eq!(t.get(Ind::Cl), Some(&b"\x1b[K"[..]));
}

#[test]
fn env_decision() {
    let on = |lc: Option<&str>, ct: Option<&str>, term: Option<&str>| {
        let (lc, ct, term) = (
            lc.map(str::as_bytes),
            ct.map(str::as_bytes),
            term.map(str::as_bytes),
        );
        ColorTable::from_env(lc, ct, term).0.is_some()
    };
    assert!(on(None, None, Some("xterm")));
    assert!(on(None, None, Some("xterm-256color")));
    assert!(on(None, None, Some("linux")));
    assert!(on(None, None, Some("Eterm")));
    assert!(!on(None, None, Some("eterm")));
    assert!(on(None, None, Some("st")));
    assert!(!on(None, None, Some("st-256")));
    assert!(on(None, None, Some("con80x25")));
    assert!(!on(None, None, Some("con80x")));
    assert!(!on(None, None, Some("dumb")));
    assert!(!on(None, None, Some("foo")));
    assert!(!on(None, None, None));
    assert!(on(None, Some("x"), None));
    assert!(!on(None, Some(""), None));
    assert!(on(Some(""), Some("1"), Some("dumb")));
    assert!(!on(Some(""), None, None));
    // A non-empty LS_COLORS needs no TERM at all.
    assert!(on(Some("di=32"), None, Some("dumb")));
    assert!(!on(Some("zz=1"), None, Some("xterm")));
    assert!(!auto_wants_color(
        false,
        Some(b"di=32"),
        None,
        Some(b"xterm")
    ));
    assert!(auto_wants_color(true, Some(b"di=32"), None, None));
}

#[test]
fn unparsable_values() {
    let unp = "unparsable value for LS_COLORS environment variable";
    assert_eq!(warnings("di=32:zz=1"), ["unrecognized prefix: 'zz'", unp]);
    assert_eq!(warnings("di=^"), ["unrecognized prefix: 'di'", unp]);
    assert_eq!(warnings("di=3\\"), ["unrecognized prefix: 'di'", unp]);
    assert_eq!(warnings("LC=1"), ["unrecognized prefix: 'LC'", unp]);
    for bad in [
        "di=32:d=1",
        "di=32:dii=1",
        "di",
        "di=32:rs",
        "*.c",
        "*",
        "*.c:x=1",
        "d",
    ] {
        assert_eq!(warnings(bad), [unp], "{bad}");
    }
    for good in [
        "di=32:",
        ":di=32",
        "di=32::ex=31",
        "*=31",
        "di=\\x",
        "ex=\\q",
        "di=^?",
    ] {
        assert!(warnings(good).is_empty(), "{good}");
    }
    let up = |l: &[u8; 2], utf8: bool| {
        String::from_utf8_lossy(&ColorWarning::UnrecognizedPrefix(*l).message(utf8)).into_owned()
    };
    assert_eq!(up(b"zz", true), "unrecognized prefix: \u{2018}zz\u{2019}");
    assert_eq!(up(b"a'", false), "unrecognized prefix: 'a\\''");
    assert_eq!(up(b"a'", true), "unrecognized prefix: \u{2018}a'\u{2019}");
    assert_eq!(up(b"a\\", false), "unrecognized prefix: 'a\\\\'");
    assert_eq!(
        up(b"a\x01", true),
        "unrecognized prefix: \u{2018}a\\001\u{2019}"
    );
    assert_eq!(
        up(b"a\xc3", true),
        "unrecognized prefix: \u{2018}a\\303\u{2019}"
    );
    assert_eq!(up(b"\xc3\xa9", false), "unrecognized prefix: '\\303\\251'");
    assert_eq!(
        up(b"\xc3\xa9", true),
        "unrecognized prefix: \u{2018}\u{e9}\u{2019}"
    );
}

#[test]
fn escapes_in_values() {
    let di = |v: &str| table(&format!("di={v}")).get(Ind::Di).map(<[u8]>::to_vec);
    assert_eq!(di("\\x"), Some(vec![0]));
    assert_eq!(di("\\xZ1"), Some(b"\0Z1".to_vec()));
    assert_eq!(di("\\q"), Some(b"q".to_vec()));
    // GNU leaves the `?` of `^?` to be read again (verified with /bin/ls).
    assert_eq!(di("^?"), Some(vec![0x7f, b'?']));
    assert_eq!(di("^["), Some(vec![0x1b]));
    assert_eq!(di("^a"), Some(vec![1]));
    assert_eq!(di("\\e[1"), Some(b"\x1b[1".to_vec()));
    assert_eq!(
        di("\\033\\x1B\\a\\_\\?"),
        Some(b"\x1b\x1b\x07 \x7f".to_vec())
    );
    assert_eq!(di("\\777"), Some(vec![0xff]));
    assert_eq!(di("\\1234"), Some(vec![156]));
    assert_eq!(di("a=b"), Some(b"a=b".to_vec()));
    assert_eq!(di(""), Some(Vec::new()));
    // Suffix keys use the same escapes and end at `=`.
    // `\x2Ec` is one hex escape (0x2EC wraps to 0xEC), `\056c` is `.c`.
    assert_eq!(style(&table("*\\x2Ec=31"), &st("x.c", REG, 1)), None);
    assert_eq!(style(&table("*\\056c=31"), &st("x.c", REG, 1)), Some("31"));
    assert_eq!(
        style(&table("*\\x2e\\x63=31"), &st("x.c", REG, 1)),
        Some("31")
    );
}

#[test]
fn suffixes_case_insensitive_latest_wins() {
    let s = |lc: &str, name: &str| style(&table(lc), &st(name, REG, 1)).map(str::to_owned);
    assert_eq!(s("*.C=31", "x.c").as_deref(), Some("31"));
    assert_eq!(s("*.c=31:*.C=32", "x.c").as_deref(), Some("32"));
    assert_eq!(s("*.C=32:*.c=31", "X.C").as_deref(), Some("31"));
    assert_eq!(s("*.c=31:*c=32", "x.c").as_deref(), Some("32"));
    assert_eq!(s("*c=32:*.c=31", "X.C").as_deref(), Some("31"));
    assert_eq!(s("*.c=:*.C=32", "x.c").as_deref(), Some("32"));
    assert_eq!(s("*.c=31:*=33", "x.c").as_deref(), Some("33"));
    assert_eq!(s("*=33:*.c=31", "x.c").as_deref(), Some("31"));
    assert_eq!(s("*=33:*.c=31", "reg").as_deref(), Some("33"));
    assert_eq!(s("*.c=31", ".c").as_deref(), Some("31"));
    assert_eq!(s("*.c=31", "c").as_deref(), None);
    assert_eq!(s("*.tar.gz=31:*.gz=32", "a.tar.gz").as_deref(), Some("32"));
    assert_eq!(s("*.gz=32:*.tar.gz=31", "a.TAR.GZ").as_deref(), Some("31"));
    // Suffixes apply only to plain regular files: not to dirs, links,
    // fifos, or files coloured su/sg/ex.
    let t = table("*.c=31:*x=32");
    assert_eq!(style(&t, &st("x.c", DIR, 2)), Some("01;34"));
    assert_eq!(style(&t, &st("lnk.c", LNK, 1)), Some("01;36"));
    assert_eq!(style(&t, &st("p.c", 0o010644, 1)), Some("33"));
    assert_eq!(style(&t, &st("suidx.c", 0o104755, 1)), Some("37;41"));
    let t = table("ex=00:*.c=31:*x=32");
    assert_eq!(style(&t, &st("hx", EXE, 1)), Some("32"));
}

#[test]
fn regular_and_directory_precedence() {
    let t = table("su=00:*.c=31");
    assert_eq!(style(&t, &st("suidsg", 0o106644, 1)), Some("30;43"));
    assert_eq!(style(&t, &st("suidx.c", 0o104755, 1)), Some("01;32"));
    let t = table("su=0:sg=:*.c=31");
    assert_eq!(style(&t, &st("sgx", 0o102755, 1)), Some("01;32"));
    assert_eq!(style(&t, &st("suidsg", 0o106644, 1)), None);
    let t = table("mh=44:ex=0");
    assert_eq!(style(&t, &st("hx", EXE, 2)), Some("44"));
    let t = table("mh=44");
    assert_eq!(style(&t, &st("hx", EXE, 2)), Some("01;32"));
    assert_eq!(style(&t, &st("hl", REG, 2)), Some("44"));
    let tw = 0o041777;
    assert_eq!(style(&table("tw=00"), &st("tw", tw, 2)), Some("34;42"));
    assert_eq!(style(&table("tw=:ow="), &st("tw", tw, 2)), Some("37;44"));
    assert_eq!(
        style(&table("tw=0:ow=00:st="), &st("tw", tw, 2)),
        Some("01;34")
    );
    // Empty values are still emitted (as `\e[m`), `0`/`00` as given.
    assert_eq!(style(&table("fi="), &st("reg", REG, 1)), Some(""));
    assert_eq!(style(&table("fi=00"), &st("reg", REG, 1)), Some("00"));
    assert_eq!(
        style(&table("pi=:*.c=31"), &st("p.c", 0o010644, 1)),
        Some("")
    );
}

#[test]
fn unstated_entries_use_d_type() {
    // `ex=:su=:sg=:mh=44`: regular files are not stat'ed, so mh never applies.
    let t = table("ex=:su=:sg=:mh=44");
    assert!(!t.needs_stat(T::Regular));
    assert!(t.needs_nlink());
    assert_eq!(style(&t, &ColorSubject::new(b"hl", T::Regular)), None);
    let t = table("fi=35:or=33");
    assert_eq!(style(&t, &ColorSubject::new(b"f", T::Regular)), Some("35"));
    assert_eq!(
        style(&t, &ColorSubject::new(b"sub", T::Directory)),
        Some("01;34")
    );
    // An unstat'able symlink is an orphan when `or` is coloured.
    assert_eq!(style(&t, &ColorSubject::new(b"l", T::Symlink)), Some("33"));
    let t = table("mi=32");
    assert_eq!(
        style(&t, &ColorSubject::new(b"l", T::Symlink)),
        Some("01;36")
    );
}

#[test]
fn what_to_stat() {
    let t = ColorTable::builtin();
    assert!(t.needs_stat(T::Regular) && t.needs_stat(T::Directory));
    assert!(!t.needs_stat(T::Symlink) && !t.needs_stat(T::Fifo));
    assert!(t.needs_stat(T::Unknown));
    assert!(!t.needs_nlink() && !t.needs_capability());
    assert!(!t.needs_link_target(false) && !t.needs_link_target(true));
    let t = table("ex=:su=:sg=00:tw=:ow=0:st=");
    assert!(!t.needs_stat(T::Regular) && !t.needs_stat(T::Directory));
    assert!(table("or=31").needs_link_target(false));
    assert!(table("or=31").needs_stat(T::Symlink));
    assert!(table("ln=target").needs_link_target(false));
    assert!(table("ln=target:ex=").needs_stat(T::Symlink));
    assert!(!table("ln=target:ex=").needs_link_target(true));
    assert!(!table("mi=32").needs_link_target(false));
    assert!(table("mi=32").needs_link_target(true));
    assert!(!table("ca=45").needs_capability());
}

fn link(name: &str, target_mode: Option<u32>) -> ColorSubject<'_> {
    ColorSubject {
        target_mode,
        ..st(name, LNK, 1)
    }
}

#[test]
fn symlinks() {
    let t = table("ln=target:*.c=31");
    assert_eq!(style(&t, &link("bar.c", Some(REG))), Some("31"));
    assert_eq!(style(&t, &link("toexe", Some(EXE))), Some("01;32"));
    assert_eq!(style(&t, &link("tolc", Some(REG))), None);
    assert_eq!(style(&t, &link("totw", Some(0o041777))), Some("30;42"));
    assert_eq!(style(&t, &link("orphan", None)), None);
    // Targets in -l: colour of the target, suffixes matching its name.
    assert_eq!(
        t.target_style(&link("tolc", Some(REG)), b"x.c"),
        Some(&b"31"[..])
    );
    assert_eq!(t.target_style(&link("bar.c", Some(REG)), b"reg"), None);
    // Without a target stat, the target is `or` (unset: plain).
    let t = table("*.c=31");
    assert_eq!(t.target_style(&link("tolc", None), b"x.c"), None);
    assert_eq!(
        t.target_style(&link("tolc", Some(REG)), b"x.c"),
        Some(&b"31"[..])
    );
    let t = table("or=31:mi=32:*.c=33");
    assert_eq!(style(&t, &link("orphan", None)), Some("31"));
    assert_eq!(
        t.target_style(&link("orphan", None), b"nowhere"),
        Some(&b"32"[..])
    );
    assert_eq!(style(&t, &link("tolc", Some(REG))), Some("01;36"));
    let t = table("or=31");
    assert_eq!(
        t.target_style(&link("orphan", None), b"nowhere"),
        Some(&b"31"[..])
    );
}

fn paint(t: &ColorTable, items: &[(Option<&str>, &str)]) -> String {
    let mut out = Vec::new();
    let p = Painter::new(t);
    for (style, name) in items {
        p.entry_start(&mut out);
        p.write_name(&mut out, style.map(str::as_bytes), name.as_bytes(), 0, 80);
        out.push(b'\n');
    }
    p.finish(&mut out);
    String::from_utf8_lossy(&out).replace('\x1b', "^[")
}

#[test]
fn emitting() {
    let items = [(Some("01;32"), "exe"), (None, "reg")];
    let t = ColorTable::builtin();
    assert_eq!(paint(&t, &items), "^[[0m^[[01;32mexe^[[0m\nreg\n");
    assert_eq!(paint(&t, &[(None, "reg")]), "reg\n");
    let t = table("no=44");
    assert_eq!(
        paint(&t, &items),
        "^[[0m^[[44m^[[m^[[01;32mexe^[[0m\n^[[44mreg^[[0m\n"
    );
    assert_eq!(
        paint(&table("rs=1"), &items),
        "^[[1m^[[01;32mexe^[[1m\nreg\n"
    );
    assert_eq!(paint(&table("ec=E"), &items), "E^[[01;32mexeE\nreg\n");
    assert_eq!(
        paint(&table("lc=L:rc=R"), &items),
        "L0RL01;32RexeL0R\nreg\nLR"
    );
    assert_eq!(paint(&table("lc=L"), &items), "L0mL01;32mexeL0m\nreg\nLm");
    assert_eq!(paint(&table("lc=L"), &[(None, "reg")]), "reg\n");
}

#[test]
fn clear_to_eol() {
    let t = ColorTable::builtin();
    let run = |start: usize, name: &str, width: usize| {
        let mut out = Vec::new();
        let p = Painter::new(&t);
        p.write_name(&mut out, Some(b"01;34"), name.as_bytes(), start, width);
        out.ends_with(b"\x1b[K")
    };
    let long = "averyverylongdirname"; // 20 bytes
    assert!(run(0, long, 10));
    assert!(!run(0, long, 20));
    assert!(!run(0, long, 25)); // `-i` prefix not counted: start is 0
    assert!(!run(0, long, 0));
    assert!(run(10, long, 25));
    let t = table("no=44");
    let mut out = Vec::new();
    let p = Painter::new(&t);
    for (style, name) in [
        (Some("01;34"), long),
        (Some("01;34"), "b"),
        (None, "plainlongname12345"),
    ] {
        p.entry_start(&mut out);
        p.write_name(&mut out, style.map(str::as_bytes), name.as_bytes(), 0, 10);
        out.push(b'\n');
    }
    p.finish(&mut out);
    let want = "\x1b[0m\x1b[44m\x1b[m\x1b[01;34maveryverylongdirname\x1b[0m\x1b[K\n\
                \x1b[44m\x1b[m\x1b[01;34mb\x1b[0m\n\
                \x1b[44mplainlongname12345\x1b[0m\x1b[K\n";
    assert_eq!(String::from_utf8_lossy(&out), want);
}

#[test]
fn subject_from_metadata() {
    use crate::sys::stat::{Need, StatFields};
    use crate::sys::Metadata;
    let link = Metadata::new(
        Need::TYPE | Need::MODE | Need::NLINK,
        StatFields {
            mode: LNK,
            nlink: 1,
            ..StatFields::default()
        },
    );
    let target = Metadata::new(
        Need::TYPE | Need::MODE,
        StatFields {
            mode: DIR,
            ..StatFields::default()
        },
    );
    let t = table("ln=target");
    let s = ColorSubject::from_metadata(b"lnkdir", T::Symlink, Some(&link), Some(&target));
    assert_eq!(style(&t, &s), Some("01;34"));
    let s = ColorSubject::from_metadata(b"lnkdir", T::Symlink, Some(&link), None);
    assert_eq!(style(&t, &s), None);
    let s = ColorSubject::from_metadata(b"d", T::Directory, None, None);
    assert_eq!(style(&t, &s), Some("01;34"));
}
#[test]
fn dircolors_style_database() {
    // Excerpt of `dircolors -b`: `mi=00` is not "coloured", so a dangling
    // target in -l falls back to `or` (GNU: `-> \e[40;31;01mnowhere`).
    let t = table("rs=0:di=01;34:ln=01;36:mh=00:or=40;31;01:mi=00:ca=00:*.tar=01;31:*.jpg=01;35");
    assert_eq!(style(&t, &st("a.TAR", REG, 1)), Some("01;31"));
    assert_eq!(style(&t, &st("a.jpg", REG, 1)), Some("01;35"));
    assert_eq!(style(&t, &link("orphan", None)), Some("40;31;01"));
    let target = t.target_style(&link("orphan", None), b"nowhere");
    assert_eq!(target, Some(&b"40;31;01"[..]));
    assert!(t.needs_link_target(false) && !t.needs_nlink());
}
