//! Specification tests: every expected value was read from GNU ls 9.1
//! (`LC_ALL=C /bin/ls -l/-s …` on files of these exact sizes).

use super::*;

fn p(spec: &str) -> SizeFormat {
    SizeFormat::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

const SIZES: [u64; 30] = [
    0,
    1,
    999,
    1000,
    1001,
    1023,
    1024,
    1025,
    1535,
    1536,
    1537,
    2047,
    2048,
    4095,
    4096,
    4097,
    9999,
    10000,
    10239,
    10240,
    10241,
    99999,
    999_999,
    1_000_000,
    1_000_001,
    1_048_575,
    1_048_576,
    1_048_577,
    5 << 30,
    1 << 40,
];

/// Columns: -lh, -l --si, --block-size=K, KB, KiB, M, 1048576.
const TABLE: [[&str; 7]; 30] = [
    ["0", "0", "0K", "0kB", "0KiB", "0M", "0"],
    ["1", "1", "1K", "1kB", "1KiB", "1M", "1"],
    ["999", "999", "1K", "1kB", "1KiB", "1M", "1"],
    ["1000", "1.0k", "1K", "1kB", "1KiB", "1M", "1"],
    ["1001", "1.1k", "1K", "2kB", "1KiB", "1M", "1"],
    ["1023", "1.1k", "1K", "2kB", "1KiB", "1M", "1"],
    ["1.0K", "1.1k", "1K", "2kB", "1KiB", "1M", "1"],
    ["1.1K", "1.1k", "2K", "2kB", "2KiB", "1M", "1"],
    ["1.5K", "1.6k", "2K", "2kB", "2KiB", "1M", "1"],
    ["1.5K", "1.6k", "2K", "2kB", "2KiB", "1M", "1"],
    ["1.6K", "1.6k", "2K", "2kB", "2KiB", "1M", "1"],
    ["2.0K", "2.1k", "2K", "3kB", "2KiB", "1M", "1"],
    ["2.0K", "2.1k", "2K", "3kB", "2KiB", "1M", "1"],
    ["4.0K", "4.1k", "4K", "5kB", "4KiB", "1M", "1"],
    ["4.0K", "4.1k", "4K", "5kB", "4KiB", "1M", "1"],
    ["4.1K", "4.1k", "5K", "5kB", "5KiB", "1M", "1"],
    ["9.8K", "10k", "10K", "10kB", "10KiB", "1M", "1"],
    ["9.8K", "10k", "10K", "10kB", "10KiB", "1M", "1"],
    ["10K", "11k", "10K", "11kB", "10KiB", "1M", "1"],
    ["10K", "11k", "10K", "11kB", "10KiB", "1M", "1"],
    ["11K", "11k", "11K", "11kB", "11KiB", "1M", "1"],
    ["98K", "100k", "98K", "100kB", "98KiB", "1M", "1"],
    ["977K", "1.0M", "977K", "1000kB", "977KiB", "1M", "1"],
    ["977K", "1.0M", "977K", "1000kB", "977KiB", "1M", "1"],
    ["977K", "1.1M", "977K", "1001kB", "977KiB", "1M", "1"],
    ["1.0M", "1.1M", "1024K", "1049kB", "1024KiB", "1M", "1"],
    ["1.0M", "1.1M", "1024K", "1049kB", "1024KiB", "1M", "1"],
    ["1.1M", "1.1M", "1025K", "1049kB", "1025KiB", "2M", "2"],
    [
        "5.0G",
        "5.4G",
        "5242880K",
        "5368710kB",
        "5242880KiB",
        "5120M",
        "5120",
    ],
    [
        "1.0T",
        "1.1T",
        "1073741824K",
        "1099511628kB",
        "1073741824KiB",
        "1048576M",
        "1048576",
    ],
];

#[test]
fn size_column() {
    let formats = [
        SizeFormat::human_1024(),
        SizeFormat::human_si(),
        p("K"),
        p("KB"),
        p("KiB"),
        p("M"),
        p("1048576"),
    ];
    for (size, row) in SIZES.iter().zip(TABLE) {
        assert_eq!(SizeFormat::bytes().format_bytes(*size), size.to_string());
        // A leading ' groups thousands: no separator in the C locale.
        assert_eq!(p("'1").format_bytes(*size), size.to_string());
        for (f, want) in formats.iter().zip(row) {
            assert_eq!(f.format_bytes(*size), want, "{size} with {f:?}");
        }
    }
    // Digits before the unit: no unit shown, still rounded up.
    assert_eq!(p("1K").format_bytes(1025), "2");
    assert_eq!(p("'1K").format_bytes(1_000_001), "977");
    assert_eq!(p("KD").format_bytes(1_048_577), "1049K");
    assert_eq!(p("0x10").format_bytes(1_048_577), "65537");
    assert_eq!(p("010").format_bytes(1_048_577), "131073");
}

#[test]
fn blocks_column() {
    // (st_blocks, -s, -sh, --block-size=1 -s, -s --si, --block-size=M,
    //  KB, 1000, 512, 100)
    let rows: [(u64, [&str; 9]); 6] = [
        (0, ["0", "0", "0", "0", "0M", "0kB", "0", "0", "0"]),
        (
            8,
            ["4", "4.0K", "4096", "4.1k", "1M", "5kB", "5", "8", "41"],
        ),
        (
            16,
            ["8", "8.0K", "8192", "8.2k", "1M", "9kB", "9", "16", "82"],
        ),
        (
            2056,
            [
                "1028", "1.1M", "1052672", "1.1M", "2M", "1053kB", "1053", "2056", "10527",
            ],
        ),
        (
            32,
            ["16", "16K", "16384", "17k", "1M", "17kB", "17", "32", "164"],
        ),
        (
            6144,
            [
                "3072", "3.0M", "3145728", "3.2M", "3M", "3146kB", "3146", "6144", "31458",
            ],
        ),
    ];
    let formats = [
        SizeFormat::kib(),
        SizeFormat::human_1024(),
        SizeFormat::bytes(),
        SizeFormat::human_si(),
        p("M"),
        p("KB"),
        p("1000"),
        p("512"),
        p("100"),
    ];
    for (blocks, want) in rows {
        for (f, w) in formats.iter().zip(want) {
            assert_eq!(f.format_blocks(blocks), w, "{blocks} blocks with {f:?}");
        }
    }
    assert_eq!(SizeFormat::blocks_512().format_blocks(8), "8");
    // `total` lines: 18656 blocks.
    assert_eq!(SizeFormat::human_1024().format_blocks(18656), "9.2M");
    assert_eq!(SizeFormat::human_si().format_blocks(18656), "9.6M");
    assert_eq!(p("K").format_blocks(18656), "9328K");
    // No overflow: st_blocks * 512 exceeds u64.
    let max = u128::from(u64::MAX) * 512;
    assert_eq!(p("1").format_blocks(u64::MAX), max.to_string());
    assert_eq!(SizeFormat::human_1024().format_blocks(u64::MAX), "8.0Z");
    assert_eq!(p("18446744073709551615").format_blocks(u64::MAX), "512");
}

#[test]
fn accepted_specs() {
    for s in [
        "k",
        "kB",
        "kiB",
        "M",
        "MB",
        "MiB",
        "2k",
        "+1",
        " 1",
        "\t1",
        "'K",
        "1KiB",
        "16EB",
        "8E",
        "1EiB",
        "18446744073709551615",
        "1m",
        "1g",
        "1t",
        "MD",
    ] {
        assert!(SizeFormat::parse(s).is_ok(), "{s}");
    }
    for s in ["human-readable", "human", "h", "hu", "'h", "si", "s", "'si"] {
        assert!(SizeFormat::parse(s).unwrap().is_human(), "{s}");
    }
    assert_eq!(p("s").format_bytes(1000), "1.0k");
    assert_eq!(p("h").format_bytes(1000), "1000");
}

#[test]
fn rejected_specs() {
    let invalid = [
        "0",
        "",
        "-1",
        "'",
        "''1",
        "HUMAN-READABLE",
        "0K",
        "R",
        "Q",
        "b",
        "B",
        "c",
        "w",
        "x1",
        "++1",
        "sii",
        "0x",
        "0xK",
        "08",
        "00",
    ];
    for s in invalid {
        assert_eq!(
            SizeFormat::parse(s).unwrap_err().0,
            format!("invalid --block-size argument '{s}'")
        );
    }
    let suffix = [
        "3x",
        "Ki",
        "1.5K",
        "1 ",
        "K0",
        "1e3",
        "1b",
        "1B",
        "2w",
        "1p",
        "1e",
        "1z",
        "1y",
        "e",
        "p",
        "y",
        "z",
        "1Kib",
        "Ki B",
        "1KiBx",
        "K'",
        "99999999999999999999999x",
    ];
    for s in suffix {
        assert_eq!(
            SizeFormat::parse(s).unwrap_err().0,
            format!("invalid suffix in --block-size argument '{s}'")
        );
    }
    for s in [
        "99999999999999999999999",
        "Y",
        "YB",
        "1Y",
        "16E",
        "17E",
        "18446744073709551616",
        "99999999999999999999999K",
    ] {
        assert_eq!(
            SizeFormat::parse(s).unwrap_err().0,
            format!("--block-size argument '{s}' too large")
        );
    }
    // The argument is quoted raw, even with a quote or newline inside.
    assert_eq!(
        SizeFormat::parse("a'b").unwrap_err().0,
        "invalid --block-size argument 'a'b'"
    );
}

#[test]
fn environment_values() {
    let env = |s| SizeFormat::parse_env(s, false);
    assert_eq!(env("K").format_blocks(8), "4K");
    assert_eq!(env("bogus").format_blocks(8), "4");
    assert_eq!(SizeFormat::parse_env("bogus", true).format_blocks(8), "8");
    assert_eq!(env("").format_bytes(1000), "1");
    assert_eq!(env("0").format_blocks(8), "4");
    // BLOCK_SIZE=3x: the 3 is kept (4096 bytes -> 1366 blocks).
    assert_eq!(env("3x").format_blocks(8), "1366");
    assert_eq!(env("Kx").format_blocks(2056), "1028");
    // BLOCK_SIZE=Y overflows to the largest block size.
    assert_eq!(env("Y").format_blocks(8), "1");
    assert_eq!(env("Y").format_bytes(0), "0");
}

fn resolve(events: &[SizeOption], env: SizeEnv) -> (String, String) {
    let (b, f) = resolve_size_formats(events, &env);
    (b.format_blocks(8), f.format_bytes(1000))
}

fn r(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn option_and_environment_resolution() {
    use SizeOption::*;
    let none = SizeEnv::default;
    // f1000: 8 blocks, 1000 bytes.
    assert_eq!(resolve(&[], none()), r("4", "1000"));
    let bs = |s| SizeEnv {
        block_size: Some(s),
        ..none()
    };
    assert_eq!(resolve(&[], bs("K")), r("4K", "1K"));
    assert_eq!(
        resolve(
            &[],
            SizeEnv {
                blocksize: Some("K"),
                ..none()
            }
        ),
        r("4K", "1000")
    );
    let ls = |s| SizeEnv {
        ls_block_size: Some(s),
        ..none()
    };
    assert_eq!(resolve(&[], ls("human-readable")), r("4.0K", "1000"));
    assert_eq!(
        resolve(
            &[],
            SizeEnv {
                ls_block_size: Some("1"),
                block_size: Some("K"),
                ..none()
            }
        ),
        r("4096", "1000")
    );
    assert_eq!(
        resolve(
            &[],
            SizeEnv {
                ls_block_size: Some(""),
                block_size: Some("K"),
                ..none()
            }
        ),
        r("4", "1")
    );
    assert_eq!(resolve(&[], bs("bogus")), r("4", "1"));
    let posix = SizeEnv {
        posixly_correct: true,
        ..none()
    };
    assert_eq!(resolve(&[], posix.clone()), r("8", "1000"));
    assert_eq!(resolve(&[Kibibytes], posix.clone()), r("4", "1000"));
    assert_eq!(resolve(&[Human], posix.clone()), r("4.0K", "1000"));
    assert_eq!(
        resolve(
            &[],
            SizeEnv {
                block_size: Some("bogus"),
                ..posix.clone()
            }
        ),
        r("8", "2")
    );
    assert_eq!(
        resolve(
            &[],
            SizeEnv {
                block_size: Some("1"),
                ..posix
            }
        ),
        r("4096", "1000")
    );
    let m = || BlockSize(p("M"));
    assert_eq!(resolve(&[Kibibytes, m()], none()), r("1M", "1M"));
    assert_eq!(resolve(&[m(), Kibibytes], none()), r("1M", "1M"));
    assert_eq!(resolve(&[Human, Kibibytes], none()), r("4.0K", "1000"));
    assert_eq!(resolve(&[Kibibytes, Human], none()), r("4.0K", "1000"));
    assert_eq!(resolve(&[Si, Human], none()), r("4.0K", "1000"));
    assert_eq!(resolve(&[Human, Si], none()), r("4.1k", "1.0k"));
    assert_eq!(
        resolve(&[Human, BlockSize(p("1"))], none()),
        r("4096", "1000")
    );
    assert_eq!(resolve(&[Kibibytes], bs("M")), r("4", "1M"));
    assert_eq!(resolve(&[Human], bs("M")), r("4.0K", "1000"));
    assert_eq!(resolve(&[BlockSize(p("K"))], bs("1")), r("4K", "1K"));
    assert_eq!(resolve(&[Human, Kibibytes], bs("K")), r("4.0K", "1000"));
}

fn punct(point: &str, sep: &str, grouping: &[u8]) -> Numeric {
    Numeric {
        decimal_point: point.as_bytes().to_vec(),
        thousands_sep: sep.as_bytes().to_vec(),
        grouping: grouping.to_vec(),
    }
}

fn render_with(f: &SizeFormat, bytes: u128, n: &Numeric) -> String {
    let mut out = Vec::new();
    f.render_into(bytes, n, &mut out);
    String::from_utf8(out).unwrap()
}

/// GNU's `group_number`: sizes from the right, the last repeated, CHAR_MAX
/// leaving the rest whole; the separator may be multibyte (ru_RU: U+202F).
#[test]
fn thousands_grouping_follows_localeconv() {
    let ru = punct(",", "\u{202f}", &[3, 3]);
    assert_eq!(
        render_with(&p("'1"), 6_397_952, &ru),
        "6\u{202f}397\u{202f}952"
    );
    assert_eq!(render_with(&p("'1"), 999, &ru), "999");
    let de = punct(",", ".", &[3, 3]);
    assert_eq!(render_with(&p("'kB"), 100_000_000, &de), "100.000kB");
    let india = punct(".", ",", &[3, 2]);
    assert_eq!(render_with(&p("'1"), 123_456_789, &india), "12,34,56,789");
    let once = punct(".", ",", &[3, 127]);
    assert_eq!(render_with(&p("'1"), 123_456_789, &once), "123456,789");
    // No grouping in the C locale, even with `'`.
    assert_eq!(
        render_with(&p("'1"), 123_456_789, &Numeric::c()),
        "123456789"
    );
}

/// `-h`/`--si` use LC_NUMERIC's decimal point (`4,0K` in de_DE); `'`
/// groups their integer part too.
#[test]
fn human_sizes_use_the_locale_decimal_point() {
    let de = punct(",", ".", &[3, 3]);
    assert_eq!(render_with(&SizeFormat::human_1024(), 4096, &de), "4,0K");
    assert_eq!(render_with(&SizeFormat::human_si(), 1_500_000, &de), "1,5M");
    assert_eq!(
        render_with(&SizeFormat::human_1024(), 1_047_552, &de),
        "1023K"
    );
    assert_eq!(render_with(&p("'h"), 1_047_552, &de), "1.023K");
}

/// Columns of a grouped size are display columns in a UTF-8 locale (U+202F
/// is one) and bytes in the C locale (GNU's mbswidth).
#[test]
fn separator_widths_are_display_columns() {
    for (locale, want) in [("ru_RU.UTF-8", 9), ("C", 13)] {
        if crate::tests::in_child(
            "format::size::tests::separator_widths_in_child",
            &[("LC_ALL", locale), ("WANT_COLUMNS", &want.to_string())],
        ) {
            unreachable!("the parent is not the child");
        }
    }
}

#[test]
fn separator_widths_in_child() {
    let Some(want) = std::env::var_os("STATLS_TEST_CHILD").and(std::env::var_os("WANT_COLUMNS"))
    else {
        return;
    };
    crate::sys::locale::init();
    let text = "6\u{202f}397\u{202f}952";
    let cols = crate::sys::mbwidth::text_columns(text.as_bytes());
    assert_eq!(cols.to_string(), want.to_string_lossy());
    if cols == 9 && crate::sys::mbwidth::multibyte() {
        // The locale is there: its separator is U+202F.
        let n = crate::sys::numeric::numeric();
        assert_eq!(n.thousands_sep, "\u{202f}".as_bytes());
        assert_eq!(n.decimal_point, b",");
    }
}
