//! GNU ls 9.1 quoting, as observed with /bin/ls (`ls -d -1
//! --quoting-style=X [-q|--show-control-chars] NAME` in `LC_ALL=C` and
//! `LC_ALL=C.UTF-8`).
use super::*;
use QuotingStyle::*;

fn q(style: QuotingStyle, hide: bool, utf8: bool, name: &[u8]) -> Vec<u8> {
    Quoter::new(style, hide, utf8).quote_to_vec(name)
}

/// Shorthand: C locale, control characters shown.
fn c(style: QuotingStyle, name: &[u8]) -> Vec<u8> {
    q(style, false, false, name)
}

/// Shorthand: C.UTF-8, control characters shown.
fn u(style: QuotingStyle, name: &[u8]) -> Vec<u8> {
    q(style, false, true, name)
}

fn style_named(s: &str) -> QuotingStyle {
    match s {
        "literal" => Literal,
        "shell" => Shell,
        "shell-always" => ShellAlways,
        "shell-escape" => ShellEscape,
        "shell-escape-always" => ShellEscapeAlways,
        "c" => C,
        "c-maybe" => CMaybe,
        "escape" => Escape,
        "locale" => Locale,
        "clocale" => CLocale,
        _ => panic!("unknown style {s}"),
    }
}

/// Undoes the `\xNN` escapes of the vector file.
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut v = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            let hex = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
            v.push(u8::from_str_radix(hex, 16).unwrap());
            i += 4;
        } else {
            v.push(b[i]);
            i += 1;
        }
    }
    v
}

/// Every line of `gnu_vectors.tsv` is `style, settings, name, output` as
/// /bin/ls printed it; settings letters: C = LC_ALL=C, c = LC_ALL=C with
/// -q, U = C.UTF-8, u = C.UTF-8 with -q. The names cover every ASCII
/// character alone, leading, inside and after `it's`, plus invalid,
/// truncated, overlong, unassigned and wide UTF-8.
#[test]
fn matches_gnu_ls_on_every_recorded_name() {
    let mut failures = Vec::new();
    for line in include_str!("gnu_vectors.tsv").lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (style, flags, name, want) = (style_named(f[0]), f[1], unescape(f[2]), unescape(f[3]));
        for flag in flags.chars() {
            let (hide, utf8) = match flag {
                'C' => (false, false),
                'c' => (true, false),
                'U' => (false, true),
                _ => (true, true),
            };
            let got = q(style, hide, utf8, &name);
            if got != want {
                failures.push(format!(
                    "{} {flag} {:?}: got {:?} want {:?}",
                    f[0],
                    String::from_utf8_lossy(&name),
                    String::from_utf8_lossy(&got),
                    String::from_utf8_lossy(&want)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn literal_and_hidden_control_chars() {
    assert_eq!(c(Literal, b"a\nb"), b"a\nb");
    assert_eq!(q(Literal, true, false, b"a\nb\xc3\xa9"), b"a?b??");
    // UTF-8: a valid character is one `?`, invalid bytes one each, an
    // unfinished sequence at the end one.
    assert_eq!(
        q(Literal, true, true, b"c1\xc2\x85\xff\xfe\xe2\x82"),
        b"c1????"
    );
}

#[test]
fn shell_quotes_only_when_needed() {
    assert_eq!(c(Shell, b"plain.txt"), b"plain.txt");
    assert_eq!(c(Shell, b"a b"), b"'a b'");
    assert_eq!(c(Shell, b"eq="), b"'eq='");
    // `#` and `~` only at the start, `{`/`}` only alone.
    assert_eq!(c(Shell, b"h#sh"), b"h#sh");
    assert_eq!(c(Shell, b"#hsh"), b"'#hsh'");
    assert_eq!(c(Shell, b"~t"), b"'~t'");
    assert_eq!(c(Shell, b"{"), b"'{'");
    assert_eq!(c(Shell, b"br{"), b"br{");
    // Tab, newline and CR are quoted; other controls are not.
    assert_eq!(c(Shell, b"a\tb"), b"'a\tb'");
    assert_eq!(c(Shell, b"a\x01b"), b"a\x01b");
    // -q replaces after quoting: `a?b` stays unquoted.
    assert_eq!(q(Shell, true, false, b"a\x01b"), b"a?b");
    assert_eq!(q(Shell, true, false, b"a\nb"), b"'a?b'");
}

#[test]
fn single_quotes_inside() {
    assert_eq!(c(Shell, b"it's"), b"\"it's\"");
    assert_eq!(c(ShellAlways, b"it's"), b"\"it's\"");
    assert_eq!(c(Shell, b"it's$"), b"'it'\\''s$'");
    assert_eq!(c(Shell, b"both'\""), b"'both'\\''\"'");
    assert_eq!(c(Shell, b"a'\nb"), b"'a'\\''\nb'");
    // A leading `#` or `~` still allows the double-quoted form, a later
    // one does not; printable UTF-8 allows it too.
    assert_eq!(c(Shell, b"~'ab"), b"\"~'ab\"");
    assert_eq!(c(Shell, b"#'a"), b"\"#'a\"");
    assert_eq!(c(Shell, b"a~'b"), b"'a~'\\''b'");
    assert_eq!(c(Shell, b"{'"), b"'{'\\'''");
    assert_eq!(u(Shell, "it's é".as_bytes()), "\"it's é\"".as_bytes());
    assert_eq!(c(Shell, "it's é".as_bytes()), "'it'\\''s é'".as_bytes());
    // With -F, the double-quoted form escapes the indicator characters
    // (shell-always), unless they forced the quotes (shell).
    let f = |s| Quoter::for_names(s, false, false, IndicatorStyle::Classify);
    assert_eq!(f(ShellAlways).quote_to_vec(b"a@'b"), b"\"a\\@'b\"");
    assert_eq!(f(Shell).quote_to_vec(b"a@'b"), b"\"a@'b\"");
}

#[test]
fn shell_escape_segments() {
    assert_eq!(c(ShellEscape, b"a\nb"), b"'a'$'\\n''b'");
    assert_eq!(c(ShellEscape, b"\n"), b"''$'\\n'");
    assert_eq!(c(ShellEscape, b"a\n\nb"), b"'a'$'\\n\\n''b'");
    assert_eq!(c(ShellEscape, b"a\n'b"), b"'a'$'\\n'\\''b'");
    assert_eq!(c(ShellEscape, b"lat\xe9"), b"'lat'$'\\351'");
    assert_eq!(u(ShellEscape, b"pre\xc3\xa9"), b"pre\xc3\xa9");
    assert_eq!(u(ShellEscape, b"c1\xc2\x85x"), b"'c1'$'\\302\\205''x'");
    // GNU's stray `''` when a name with `'` ends with an escape.
    assert_eq!(c(ShellEscape, b"it's\x01"), b"'''it'\\''s'$'\\001'");
    assert_eq!(c(ShellEscape, b"\x01'a\x01"), b"'\\001'\\''a'$'\\001'");
}

#[test]
fn c_like_styles() {
    assert_eq!(c(C, b"say\"hi\"\\"), b"\"say\\\"hi\\\"\\\\\"");
    assert_eq!(c(C, b"a\x07\x1b\x7f"), b"\"a\\a\\033\\177\"");
    assert_eq!(c(CMaybe, b"a b"), b"a b");
    assert_eq!(c(CMaybe, b"back\\slash"), b"back\\slash");
    assert_eq!(c(CMaybe, b"back\\slash\n"), b"\"back\\\\slash\\n\"");
    assert_eq!(c(Escape, b"a b\\"), b"a\\ b\\\\");
    assert_eq!(c(Locale, b"it's"), b"'it\\'s'");
    assert_eq!(c(CLocale, b"it's"), b"\"it's\"");
    assert_eq!(u(Locale, b"it's"), "‘it's’".as_bytes());
    assert_eq!(u(CLocale, "q’q".as_bytes()), "‘q\\’q’".as_bytes());
}

#[test]
fn widths() {
    let w = |s, hide, utf8, name: &[u8]| {
        Quoter::new(s, hide, utf8)
            .quote(name, &mut Vec::new())
            .width
    };
    assert_eq!(w(Literal, false, true, b"a\xe4\xb8\xadb"), 4);
    assert_eq!(w(Literal, false, true, b"e\xcc\x81"), 1);
    assert_eq!(w(Literal, false, true, b"a\x01b"), 2);
    assert_eq!(w(Literal, false, false, b"a\xe4\xb8\xadb"), 2);
    assert_eq!(w(Literal, true, false, b"a\xe4\xb8\xadb"), 5);
    assert_eq!(w(Literal, true, true, b"a\xe2\x82"), 2);
    assert_eq!(w(Escape, false, false, b"a\xe2\x82"), 9);
    assert_eq!(w(ShellEscape, false, false, b"a\x01b"), 13);
    assert_eq!(w(ShellEscape, false, true, b"\xf0\x9f\x98\x80"), 2);
    assert_eq!(w(Locale, false, true, b"abc"), 5);
    assert_eq!(w(ShellAlways, false, true, b"abc"), 5);
}

#[test]
fn starts_with_quote() {
    let s = |st, name: &[u8]| {
        Quoter::new(st, false, false)
            .quote(name, &mut Vec::new())
            .starts_with_quote
    };
    assert!(s(Shell, b"a b"));
    assert!(s(Shell, b"it's"));
    assert!(!s(Shell, b"ab"));
    assert!(!s(Shell, b"a\x01b"));
    assert!(s(CMaybe, b"a\"b"));
    assert!(!s(CMaybe, b"a b"));
    assert!(!s(Escape, b"a b"));
}

#[test]
fn indicator_characters() {
    // `ls -F --quoting-style=X`: `=>@|` are special for names; with
    // --file-type `*` too.
    let f = |s, name: &[u8]| {
        Quoter::for_names(s, false, false, IndicatorStyle::Classify).quote_to_vec(name)
    };
    assert_eq!(f(Escape, b"a=b"), b"a\\=b");
    assert_eq!(f(Escape, b"a*b"), b"a*b");
    assert_eq!(f(C, b"a|b"), b"\"a\\|b\"");
    assert_eq!(f(CMaybe, b"a=b"), b"\"a=b\"");
    assert_eq!(f(Shell, b"a@b"), b"'a@b'");
    assert_eq!(f(Locale, b"a>b"), b"'a\\>b'");
    assert_eq!(f(Literal, b"a@b"), b"a@b");
    let t = Quoter::for_names(Escape, false, false, IndicatorStyle::FileType);
    assert_eq!(t.quote_to_vec(b"a*b"), b"a\\*b");
    let p = Quoter::for_names(Shell, false, false, IndicatorStyle::Slash);
    assert_eq!(p.quote_to_vec(b"a@b"), b"a@b");
}

#[test]
fn diagnostics() {
    assert_eq!(quote_diagnostic(b"nonexistent", false), b"'nonexistent'");
    assert_eq!(quote_diagnostic(b"it's", false), b"\"it's\"");
    assert_eq!(quote_diagnostic(b"no\nsuch", true), b"'no'$'\\n''such'");
    assert_eq!(
        quote_diagnostic(b"pre\xc3\xa9", false),
        b"'pre'$'\\303\\251'"
    );
    assert_eq!(quote_diagnostic(b"pre\xc3\xa9", true), b"'pre\xc3\xa9'");
    assert_eq!(quote_diagnostic(b"a'b\"c", true), b"'a'\\''b\"c'");
    assert_eq!(quote_locale(b"abc", false), b"'abc'");
    assert_eq!(quote_locale(b"abc", true), "‘abc’".as_bytes());
    assert_eq!(quote_locale(b"it's\n", false), b"'it\\'s\\n'");
    assert_eq!(
        quote_locale(b"back\\slash", true),
        "‘back\\\\slash’".as_bytes()
    );
}

#[test]
fn headings_quote_colons_but_not_indicators() {
    // `ls -F --quoting-style=X a:b a=b` prints the headings `X:` below.
    let h = |s, name: &[u8]| {
        Quoter::for_names(s, false, false, IndicatorStyle::Classify)
            .for_heading()
            .quote_to_vec(name)
    };
    assert_eq!(h(Literal, b"a:b"), b"a:b");
    assert_eq!(h(Shell, b"a:b"), b"'a:b'");
    assert_eq!(h(ShellEscape, b"a:b"), b"'a:b'");
    assert_eq!(h(C, b"a:b"), b"\"a\\:b\"");
    assert_eq!(h(CMaybe, b"a:b"), b"\"a:b\"");
    assert_eq!(h(Escape, b"a:b"), b"a\\:b");
    assert_eq!(h(Locale, b"a:b"), b"'a\\:b'");
    assert_eq!(h(C, b"a=b"), b"\"a=b\"");
    assert_eq!(h(Shell, b"plain"), b"plain");
    // -q applies to headings too.
    let hq = Quoter::new(Shell, true, false).for_heading();
    assert_eq!(hq.quote_to_vec(b"n\nl"), b"'n?l'");
}

#[test]
fn which_listings_align() {
    use crate::options::Format::*;
    assert!(listing_aligns_quotes(Shell, Vertical, 80));
    assert!(listing_aligns_quotes(ShellEscape, Horizontal, 80));
    assert!(listing_aligns_quotes(CMaybe, Long, 0));
    assert!(!listing_aligns_quotes(Shell, Vertical, 0));
    assert!(!listing_aligns_quotes(Shell, OneLine, 80));
    assert!(!listing_aligns_quotes(Shell, Commas, 80));
    assert!(!listing_aligns_quotes(ShellAlways, Long, 80));
    assert!(!listing_aligns_quotes(Escape, Vertical, 80));
}

#[test]
fn an_empty_name_is_quoted_by_the_shell_styles() {
    for (style, expected) in [
        (QuotingStyle::Shell, "''"),
        (QuotingStyle::ShellEscape, "''"),
        (QuotingStyle::ShellAlways, "''"),
        (QuotingStyle::C, "\"\""),
        (QuotingStyle::CMaybe, ""),
        (QuotingStyle::Literal, ""),
    ] {
        let q = Quoter::new(style, false, true);
        let mut out = Vec::new();
        let quoted = q.quote(b"", &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{style:?}");
        assert_eq!(quoted.starts_with_quote, !expected.is_empty(), "{style:?}");
    }
}

#[test]
fn printable_high_bytes_of_single_byte_charsets_are_not_taken_for_ascii() {
    // ISO-8859-1 (0xa0..=0xff printable): `ls -b` leaves NBSP (0xa0) and
    // 0xba alone, where a space (0x20) and a colon (0x3a) in a heading
    // get a backslash; `-F` makes `@` special, not 0xc0.
    let latin1 = Charset::Unibyte(!0u128 << 32);
    let names = Quoter::for_names(Escape, false, latin1, IndicatorStyle::Classify);
    assert_eq!(names.quote_to_vec(b"a\xa0b c"), b"a\xa0b\\ c");
    assert_eq!(names.quote_to_vec(b"\xc0@"), b"\xc0\\@");
    assert_eq!(names.for_heading().quote_to_vec(b"\xba:"), b"\xba\\:");
}

#[test]
fn bytes_alone_are_the_quoted_bytes_in_every_style() {
    let names: [&[u8]; 5] = [b"plain", b"a b", b"a\nb", b"\xc3\xa9t\xc3\xa9", b"it's\xff"];
    for style in [Literal, Shell, ShellAlways, C, Escape, Locale] {
        for (hide, utf8) in [(false, false), (true, true), (false, true)] {
            let quoter = Quoter::new(style, hide, utf8);
            for name in names {
                let mut bytes = Vec::new();
                quoter.quote_bytes(name, &mut bytes);
                assert_eq!(
                    bytes,
                    quoter.quote_to_vec(name),
                    "{style:?} {hide} {name:?}"
                );
            }
        }
    }
}
