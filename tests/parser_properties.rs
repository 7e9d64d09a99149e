//! Property tests of every parser that reads user input: the command line
//! (with its environment), LS_COLORS, TIME_STYLE/--time-style,
//! QUOTING_STYLE, the block sizes and `--timeout` durations. For thousands of generated inputs,
//! built from the pieces that make these syntaxes tricky, none may panic,
//! and every rejection must be a GNU-shaped diagnostic with status 1 or 2.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use statls::config::resolve::{load_with, Environment, Streams};
use statls::format::color::ColorTable;
use statls::format::size::SizeFormat;
use statls::format::time::{parse_time_style, TimeFormatter};
use statls::sys::locale::LocaleInfo;
use statls::sys::Timestamp;

/// xorshift64*: deterministic, so a failure names a reproducible seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A string of 0..max pieces drawn from `pieces`, plus random bytes.
    fn text(&mut self, pieces: &[&[u8]], max: usize) -> Vec<u8> {
        let mut s = Vec::new();
        for _ in 0..self.below(max + 1) {
            if self.below(5) == 0 {
                s.push(self.next() as u8);
            } else {
                s.extend_from_slice(pieces[self.below(pieces.len())]);
            }
        }
        s
    }
}

const CASES: u64 = 3000;

#[test]
fn ls_colors_never_panics() {
    let pieces: &[&[u8]] = &[
        b"di",
        b"ln",
        b"or",
        b"mi",
        b"ex",
        b"*.c",
        b"*",
        b"=",
        b":",
        b";",
        b"01",
        b"38;5;208",
        b"\\",
        b"\\e",
        b"\\x",
        b"\\x1",
        b"\\0",
        b"\\777",
        b"^",
        b"^[",
        b"^?",
        b"target",
        b"rs",
        b"lc",
        b"rc",
        b"ec",
        b"no",
        b"fi",
        b".",
        b"zz",
        b"\\_",
        b"\\^",
    ];
    for seed in 1..=CASES {
        let mut rng = Rng(seed);
        let value = rng.text(pieces, 12);
        let _ = ColorTable::parse(&value);
        let _ = ColorTable::from_env(Some(&value), None, Some(b"xterm"));
    }
}

#[test]
fn time_styles_never_panic_and_render_safely() {
    let pieces: &[&[u8]] = &[
        b"+",
        b"%",
        b"%N",
        b"%-N",
        b"%_3N",
        b"%Y",
        b"%10Y",
        b"%-d",
        b"%^b",
        b"%#Z",
        b"%z",
        b"%:z",
        b"%::z",
        b"%:::z",
        b"%E",
        b"%O",
        b"%s",
        b"%99999999999d",
        b"\n",
        b"posix-",
        b"full-iso",
        b"long-iso",
        b"iso",
        b"locale",
        b"%q",
        b"%G",
        b"%V",
        b"%+4Y",
        b"%",
    ];
    let times = [
        Timestamp { sec: 0, nsec: 0 },
        Timestamp {
            sec: -1,
            nsec: 999_999_999,
        },
        Timestamp {
            sec: i64::MAX,
            nsec: 0,
        },
        Timestamp {
            sec: i64::MIN,
            nsec: 0,
        },
        Timestamp {
            sec: 13_569_465_600,
            nsec: 5,
        },
    ];
    for seed in 1..=CASES {
        let mut rng = Rng(seed);
        let arg = rng.text(pieces, 8);
        for posix in [false, true] {
            match parse_time_style(&arg, posix) {
                Ok(style) => {
                    let f = TimeFormatter::new(&style, !posix);
                    for t in times {
                        let mut out = Vec::new();
                        f.format(t, &mut out);
                    }
                }
                Err(e) => {
                    let msg = e.to_string();
                    assert!(
                        msg.starts_with("invalid") || msg.starts_with("ambiguous"),
                        "seed {seed}: {msg:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn block_sizes_never_panic() {
    let pieces: &[&[u8]] = &[
        b"1",
        b"0",
        b"9",
        b"99999999999999999999",
        b"K",
        b"k",
        b"M",
        b"G",
        b"T",
        b"P",
        b"E",
        b"Z",
        b"Y",
        b"R",
        b"Q",
        b"B",
        b"iB",
        b"D",
        b"KiB",
        b"'",
        b"-",
        b"+",
        b" ",
        b"0x",
        b"human-readable",
        b"si",
        b"h",
    ];
    for seed in 1..=CASES {
        let mut rng = Rng(seed);
        let spec = String::from_utf8_lossy(&rng.text(pieces, 5)).into_owned();
        match SizeFormat::parse(&spec) {
            Ok(f) => {
                for n in [0, 1, 511, 512, 1023, 1024, u64::MAX / 2, u64::MAX] {
                    let mut out = Vec::new();
                    f.bytes_text(n, &mut out);
                    f.blocks_text(n, &mut out);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("--block-size argument"),
                    "seed {seed}: {msg:?}"
                );
            }
        }
        let _ = SizeFormat::parse_env(&spec, seed % 2 == 0);
    }
}

/// `--timeout` durations: never a panic; an accepted one is no limit or
/// a limit from 1 ns to the longest; the C and the German decimal point.
#[test]
fn durations_never_panic() {
    use statls::cli::duration::{decode_timeout, LONGEST};
    let pieces: &[&[u8]] = &[
        b"1", b"0", b"9", b".", b",", b"e", b"E", b"p", b"-", b"+", b" ", b"\t", b"0x", b"f",
        b"inf", b"inity", b"nan", b"(", b")", b"s", b"m", b"h", b"d", b"999", b"e308",
    ];
    for seed in 1..=CASES {
        let mut rng = Rng(seed);
        let arg = rng.text(pieces, 6);
        for point in [&b"."[..], b","] {
            if let Ok(Some(limit)) = decode_timeout(&arg, point) {
                assert!(
                    limit > std::time::Duration::ZERO && limit <= LONGEST,
                    "seed {seed}: {:?} {limit:?}",
                    String::from_utf8_lossy(&arg)
                );
            }
        }
    }
}

/// The whole command line with a generated environment: every outcome is
/// a configuration or a diagnostic on stderr with status 1 or 2.
#[test]
fn command_lines_and_environment_never_panic() {
    let pieces: &[&[u8]] = &[
        b"-",
        b"--",
        b"-l",
        b"-w",
        b"-T",
        b"-I",
        b"--co",
        b"--col",
        b"--color=",
        b"--color=n",
        b"--sort=",
        b"--time=c",
        b"--format=",
        b"--block-size=",
        b"--time-style=",
        b"--quoting-style=",
        b"--indicator-style=",
        b"--hyperlink",
        b"--classify=",
        b"--zero",
        b"--dired",
        b"--timeout=",
        b"--tim",
        b"1.5s",
        b"-D",
        b"--width=",
        b"--tabsize=",
        b"-f",
        b"-Z",
        b"x",
        b"0",
        b"99999999999999999999",
        b"-1",
        b"=",
    ];
    let env_values: &[&[u8]] = &[
        b"",
        b"x",
        b"80",
        b"0",
        b"-1",
        b"c",
        b"shell",
        b"sh",
        b"K",
        b"human",
        b"posix-iso",
        b"+%s",
        b"di=01",
    ];
    for seed in 1..=CASES {
        let mut rng = Rng(seed);
        let mut args: Vec<OsString> = vec![OsString::from("ls")];
        for _ in 0..rng.below(6) {
            args.push(OsString::from_vec(rng.text(pieces, 3)));
        }
        let mut env: Vec<(&str, Vec<u8>)> = Vec::new();
        for name in [
            "COLUMNS",
            "TABSIZE",
            "QUOTING_STYLE",
            "TIME_STYLE",
            "LS_BLOCK_SIZE",
            "BLOCK_SIZE",
            "LS_COLORS",
            "POSIXLY_CORRECT",
        ] {
            if rng.below(3) == 0 {
                env.push((name, env_values[rng.below(env_values.len())].to_vec()));
            }
        }
        let var = |name: &str| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from_vec(v.clone()))
        };
        let stdout_tty = rng.below(2) == 0;
        let utf8 = rng.below(2) == 0;
        let environment = Environment {
            var: &var,
            stdout_tty,
            terminal_width: Some(80),
            locale: LocaleInfo {
                utf8,
                charset: utf8.into(),
                collate_bytes: true,
                time_posix: true,
            },
            // Every release's option table and words hold the same
            // properties.
            gnu: statls::gnu::Gnu::new(
                statls::gnu::SUPPORTED[rng.below(statls::gnu::SUPPORTED.len())],
            ),
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = load_with(
            &args,
            &environment,
            &mut Streams {
                out: &mut out,
                err: &mut err,
            },
        );
        match result {
            Ok(_) => {}
            Err(0) => {}
            Err(status) => {
                assert!(status == 1 || status == 2, "seed {seed}: status {status}");
                assert!(
                    err.starts_with(b"ls: "),
                    "seed {seed} {args:?}: {:?}",
                    String::from_utf8_lossy(&err)
                );
            }
        }
    }
}
