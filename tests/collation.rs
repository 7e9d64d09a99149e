//! Differential specification of the name order: GNU ls sorts names with
//! strcoll in a stable merge sort, so names strcoll calls equal (invalid
//! UTF-8 bytes, names differing only where the locale ignores a character)
//! keep the order the directory was read in, `-r` included, and names on
//! which glibc's strxfrm and strcoll disagree (`000a`, `00-0a`) follow
//! strcoll. Checked in byte-order and collating locales, on small
//! directories (compared with strcoll) and large ones (keyed, split over
//! threads), with every sort that falls back to the name.

mod util;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use util::{compare, gnu, set_mtime, TempDir};

const LOCALES: [&str; 8] = [
    "C",
    "en_US.UTF-8",
    "de_DE.UTF-8",
    "ja_JP.UTF-8",
    "fr_FR.UTF-8",
    "zh_CN.GB18030",
    "de_DE.ISO-8859-1",
    "C.UTF-8",
];

/// Names that collate equal or nearly so in en_US.UTF-8 and its kin.
const TRICKY: [&[u8]; 40] = [
    b"\xff",
    b"\xfe",
    b"\x80",
    b"\xc3",
    b"a\xff",
    b"a\xfe",
    b"a\x80b",
    b"a\xc3b",
    b"ab",
    b"a-b",
    b"a_b",
    b"a b",
    b"a.b",
    b"A-b",
    b"Ab",
    b"aB",
    b"AB",
    b"-ab",
    b"ab-",
    b"000a",
    b"00-0a",
    b"0-00a",
    b"001.0b",
    b"0010b",
    b"1-1",
    b"11",
    b"1.1",
    b"\xc3\xa9",
    b"e",
    b"E",
    b"\xc3\x89",
    b"\xef\xac\x81",
    b"fi",
    b"a\xe2\x80\x8bb",
    b"stra\xc3\x9fe",
    b"strasse",
    b"\xe3\x81\x82",
    b"\xe3\x82\xa2",
    b"~a",
    b"#a",
];

/// A seeded generator (no dependency): the same names on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % below
    }
}

/// The tricky names and `n` distinct others made of pieces that collate very differently from
/// byte order: case, ignorable punctuation, digits, accents, kana,
/// ligatures, zero-width spaces and invalid UTF-8.
fn generated_names(n: usize, seed: u64) -> Vec<Vec<u8>> {
    const PIECES: [&[u8]; 34] = [
        b"a",
        b"A",
        b"b",
        b"B",
        b"z",
        b"Z",
        b"report",
        b"Report",
        b"0",
        b"1",
        b"9",
        b"2023",
        b"-",
        b"_",
        b".",
        b" ",
        b"~",
        b"#",
        b".txt",
        b".c",
        b"\xc3\xa9",
        b"\xc3\x89",
        b"e",
        b"\xc3\x9f",
        b"ss",
        b"\xef\xac\x81",
        b"fi",
        b"\xe3\x81\x82",
        b"\xe3\x82\xa2",
        b"\xe2\x80\x8b",
        b"\xff",
        b"\x80",
        b"\xc3",
        b"\xe2\x91\xa0",
    ];
    let mut rng = Lcg(seed);
    let mut names: Vec<Vec<u8>> = TRICKY.iter().map(|n| n.to_vec()).collect();
    let mut seen: std::collections::HashSet<Vec<u8>> = names.iter().cloned().collect();
    while names.len() < n + TRICKY.len() {
        let len = 1 + rng.next(5);
        let name: Vec<u8> = (0..len)
            .flat_map(|_| PIECES[rng.next(PIECES.len())].iter().copied())
            .collect();
        if name == b"." || name == b".." || !seen.insert(name.clone()) {
            continue;
        }
        names.push(name);
    }
    names
}

/// A directory of `names`: a few directories among them, sizes and
/// mtimes from small sets so that `-S` and `-t` have many ties to break.
fn populate(names: &[Vec<u8>]) -> TempDir {
    let t = TempDir::new("collation");
    for (i, name) in names.iter().enumerate() {
        let name = OsStr::from_bytes(name);
        let path = t.path().join(name);
        if i % 17 == 3 {
            std::fs::create_dir(&path).unwrap();
        } else {
            std::fs::write(&path, vec![b'x'; i % 3]).unwrap();
        }
        set_mtime(&path, 1_600_000_000 + (i % 4) as i64 * 60);
    }
    t
}

/// Every name-ordered listing, in every locale.
fn same_order_everywhere(t: &TempDir, option_sets: &[&[&str]]) {
    if gnu().is_none() {
        eprintln!("skipping: /bin/ls is not GNU ls 9.1");
        return;
    }
    for locale in LOCALES {
        for options in option_sets {
            compare(t.path(), options, &[("LC_ALL", locale)]);
        }
    }
}

const NAME_SORTS: [&[&str]; 12] = [
    &["-1a"],
    &["-1r"],
    &["-1t"],
    &["-1tr"],
    &["-1S"],
    &["-1Sr"],
    &["-1X"],
    &["-1Xr"],
    &["-1v"],
    &["-1", "--sort=width"],
    &["-1", "--group-directories-first"],
    &["-1r", "--group-directories-first"],
];

#[test]
fn names_that_collate_equal_keep_the_order_they_were_read_in() {
    let names: Vec<Vec<u8>> = TRICKY.iter().map(|n| n.to_vec()).collect();
    same_order_everywhere(&populate(&names), &NAME_SORTS);
}

#[test]
fn a_large_directory_of_tricky_names_sorts_as_gnu_does() {
    // Above the sizes where keys, the ASCII table and a second thread
    // come in.
    same_order_everywhere(&populate(&generated_names(6_000, 21)), &NAME_SORTS);
}

#[test]
fn directories_of_every_size_around_the_thresholds() {
    for (n, seed) in [
        (2, 1),
        (47, 2),
        (48, 3),
        (300, 4),
        (999, 5),
        (1_000, 6),
        (4_100, 7),
    ] {
        let mut names = generated_names(n, seed);
        names.drain(..TRICKY.len());
        let t = populate(&names);
        same_order_everywhere(&t, &[&["-1"], &["-1r"]]);
    }
}

#[test]
fn operands_sort_as_gnu_does() {
    let names = generated_names(80, 9);
    let t = populate(&names);
    if gnu().is_none() {
        return;
    }
    let args: Vec<&str> = names
        .iter()
        .filter_map(|n| std::str::from_utf8(n).ok())
        .collect();
    for locale in LOCALES {
        for options in [["-1d"], ["-1dr"]] {
            let mut all: Vec<&str> = options.to_vec();
            all.push("--");
            all.extend(&args);
            compare(t.path(), &all, &[("LC_ALL", locale)]);
        }
    }
}

#[test]
fn a_directory_large_enough_to_split_in_byte_order_sorts_as_gnu_does() {
    let t = TempDir::new("collation-big");
    let mut rng = Lcg(77);
    for i in 0..31_000 {
        // Shared prefixes longer than the inline key part, some invalid UTF-8.
        let name = match rng.next(4) {
            0 => format!("report_2023-01-{:05}", rng.next(100_000)),
            1 => format!("Report_2023-01-{i}"),
            2 => format!("{i}"),
            _ => format!("x{}", rng.next(1000)),
        };
        let mut name = name.into_bytes();
        if i % 97 == 0 {
            name.push(0xff);
        }
        let _ = std::fs::File::create(t.path().join(OsStr::from_bytes(&name)));
    }
    if gnu().is_none() {
        return;
    }
    for locale in ["C", "C.UTF-8", "en_US.UTF-8"] {
        for options in [["-1"], ["-1r"]] {
            compare(t.path(), &options, &[("LC_ALL", locale)]);
        }
    }
}
