//! `--json`: every line of the output is one JSON object, checked by a
//! real parser (Python's `json` module, strict: no duplicate keys, no
//! NaN, UTF-8 only); the records list the entries the text output lists,
//! in its order, with exactly the fields the other flags select; errors
//! keep GNU's text on stderr and GNU's exit status; layout options are a
//! usage error.

mod util;

use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::process::{Command, Stdio};
use util::{ours, run, Run, TempDir};

/// One record: its keys in output order, each value re-serialized by the
/// parser (`"text"`, `123`, `[1, 2]`, `{"nsec": 0, "sec": 1}`).
type Record = Vec<(String, String)>;

const PARSER: &str = r#"
import json, sys
def no_constants(c):
    raise ValueError("not JSON: " + c)
def unique(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key in %r" % keys)
    return dict(pairs)
data = sys.stdin.buffer.read().decode("utf-8", "strict")
if data and not data.endswith("\n"):
    raise ValueError("last record not ended by a newline")
for line in data.split("\n")[:-1]:
    obj = json.loads(line, object_pairs_hook=unique, parse_constant=no_constants)
    if not isinstance(obj, dict):
        raise ValueError("not an object: " + line)
    print("\t".join(k + "\t" + json.dumps(v, sort_keys=True) for k, v in obj.items()))
"#;

/// Parses NDJSON with Python's `json`; panics with the text when invalid.
fn parse(stdout: &[u8]) -> Vec<Record> {
    let mut child = Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(PARSER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 with its json module");
    child.stdin.take().unwrap().write_all(stdout).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "not valid NDJSON: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(stdout)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let parts: Vec<&str> = l.split('\t').collect();
            parts
                .chunks(2)
                .map(|kv| (kv[0].to_string(), kv[1].to_string()))
                .collect()
        })
        .collect()
}

fn get<'r>(r: &'r Record, key: &str) -> Option<&'r str> {
    r.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn keys(r: &Record) -> Vec<&str> {
    r.iter().map(|(k, _)| k.as_str()).collect()
}

fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// The record whose name is `name`.
fn named<'r>(records: &'r [Record], name: &str) -> &'r Record {
    let q = quoted(name);
    records
        .iter()
        .find(|r| get(r, "name") == Some(q.as_str()))
        .unwrap_or_else(|| panic!("no record named {name}: {records:?}"))
}

fn ls(cwd: &std::path::Path, args: &[&str]) -> Run {
    run(&ours(), cwd, args, &[])
}

/// Runs `--json` with `args`: must succeed; returns the parsed records.
fn json(cwd: &std::path::Path, args: &[&str]) -> Vec<Record> {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let r = ls(cwd, &all);
    assert_eq!(
        r.status,
        Some(0),
        "ls {all:?}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert!(r.stderr.is_empty());
    parse(&r.stdout)
}

fn tree() -> TempDir {
    let t = TempDir::new("json");
    let old = 1_600_000_000;
    t.file("d/b.txt", 1234, old + 60)
        .file("d/a", 10, old)
        .file("d/.hidden", 1, old)
        .file("d/backup~", 2, old + 5)
        .file("d/exe", 3, old + 120)
        .chmod("d/exe", 0o755)
        .file("d/sub/inner", 5, old)
        .file("d/sub/deep/f", 1, old)
        .symlink("a", "d/link")
        .symlink("nowhere", "d/dangling")
        .file("top", 7, old);
    t
}

#[test]
fn plain_json_is_name_and_type_from_the_directory() {
    let t = tree();
    let records = json(t.path(), &["d"]);
    let names: Vec<&str> = records.iter().map(|r| get(r, "name").unwrap()).collect();
    assert_eq!(
        names,
        [
            "\"a\"",
            "\"b.txt\"",
            "\"backup~\"",
            "\"dangling\"",
            "\"exe\"",
            "\"link\"",
            "\"sub\""
        ]
    );
    for r in &records {
        assert_eq!(keys(r), ["name", "type"], "{r:?}");
    }
    assert_eq!(get(named(&records, "a"), "type"), Some("\"file\""));
    assert_eq!(get(named(&records, "sub"), "type"), Some("\"dir\""));
    assert_eq!(get(named(&records, "link"), "type"), Some("\"symlink\""));
    assert_eq!(
        get(named(&records, "dangling"), "type"),
        Some("\"symlink\"")
    );
}

/// The names of a text listing (`-1`, literal quoting), as (heading, name)
/// pairs: what the JSON records must list, in the same order.
fn text_entries(cwd: &std::path::Path, args: &[&str]) -> Vec<(Option<String>, String)> {
    let mut all = vec!["-1", "--quoting-style=literal"];
    all.extend_from_slice(args);
    let r = ls(cwd, &all);
    let text = String::from_utf8(r.stdout).unwrap();
    let mut dir = None;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.is_empty() {
            continue;
        }
        match line.strip_suffix(':') {
            Some(heading) => dir = Some(heading.to_string()),
            None => out.push((dir.clone(), line.to_string())),
        }
    }
    out
}

fn json_entries(cwd: &std::path::Path, args: &[&str]) -> Vec<(Option<String>, String)> {
    let unquote = |v: &str| v.trim_matches('"').to_string();
    json(cwd, args)
        .iter()
        .map(|r| {
            (
                get(r, "path").map(unquote),
                unquote(get(r, "name").unwrap()),
            )
        })
        .collect()
}

#[test]
fn records_follow_the_text_listing_order_filtering_and_recursion() {
    let t = tree();
    for args in [
        &["d"][..],
        &["-a", "d"],
        &["-A", "d"],
        &["-B", "d"],
        &["-I", "*.txt", "d"],
        &["--hide=b*", "d"],
        &["-r", "d"],
        &["-t", "d"],
        &["-S", "d"],
        &["-U", "d"],
        &["-X", "d"],
        &["-v", "d"],
        &["--group-directories-first", "d"],
        &["-R", "d"],
        &["-R", "-r", "-a", "d"],
        &["top", "d", "d/sub"],
        &["-d", "d", "top", "d/sub"],
        &["-L", "d"],
        &["-H", "d/link", "d"],
        &["-u", "-t", "d"],
        &["-S", "-R", "top", "d"],
    ] {
        assert_eq!(
            json_entries(t.path(), args),
            text_entries(t.path(), args),
            "ls {args:?}"
        );
    }
}

#[test]
fn path_is_given_exactly_where_text_prints_a_heading() {
    let t = tree();
    // One directory: no heading, no path.
    assert!(json(t.path(), &["d"])
        .iter()
        .all(|r| get(r, "path").is_none()));
    // A file operand and a directory: the file as given, no path.
    let records = json(t.path(), &["-R", "top", "d"]);
    assert_eq!(keys(named(&records, "top")), ["name", "type"]);
    assert_eq!(get(named(&records, "a"), "path"), Some("\"d\""));
    assert_eq!(get(named(&records, "f"), "path"), Some("\"d/sub/deep\""));
    assert_eq!(keys(&records[1]), ["path", "name", "type"]);
}

#[test]
fn long_json_carries_the_long_format_fields() {
    let t = tree();
    let records = json(t.path(), &["-l", "d"]);
    let meta = std::fs::symlink_metadata(t.path().join("d/exe")).unwrap();
    let exe = named(&records, "exe");
    assert_eq!(
        keys(exe),
        [
            "name", "type", "mode", "mode_str", "nlink", "uid", "user", "gid", "group", "size",
            "blocks", "mtime"
        ]
    );
    assert_eq!(get(exe, "mode"), Some(meta.mode().to_string().as_str()));
    assert_eq!(get(exe, "mode_str"), Some("\"-rwxr-xr-x\""));
    assert_eq!(get(exe, "nlink"), Some("1"));
    assert_eq!(get(exe, "uid"), Some(meta.uid().to_string().as_str()));
    assert_eq!(get(exe, "gid"), Some(meta.gid().to_string().as_str()));
    assert_eq!(get(exe, "size"), Some("3"));
    assert_eq!(get(exe, "blocks"), Some(meta.blocks().to_string().as_str()));
    assert_eq!(get(exe, "mtime"), Some(r#"{"nsec": 0, "sec": 1600000120}"#));
    let link = named(&records, "link");
    assert_eq!(get(link, "type"), Some("\"symlink\""));
    assert_eq!(get(link, "mode_str"), Some("\"lrwxrwxrwx\""));
    assert_eq!(get(link, "target"), Some("\"a\""));
    assert_eq!(
        get(named(&records, "dangling"), "target"),
        Some("\"nowhere\"")
    );
    assert_eq!(get(named(&records, "sub"), "type"), Some("\"dir\""));
}

#[test]
fn long_json_operands_carry_the_same_fields() {
    let t = tree();
    let records = json(t.path(), &["-l", "d/exe", "d/link"]);
    assert_eq!(
        keys(&records[0]),
        keys(named(&json(t.path(), &["-l", "d"]), "exe"))
    );
    assert_eq!(get(&records[0], "name"), Some("\"d/exe\""));
    assert_eq!(get(&records[1], "target"), Some("\"a\""));
}

#[test]
fn owner_group_and_time_options_choose_the_fields() {
    let t = tree();
    let cases: &[(&[&str], &[&str])] = &[
        (&["-n"], &["uid", "gid", "mtime"]),
        (&["-g"], &["gid", "group", "mtime"]),
        (&["-o"], &["uid", "user", "mtime"]),
        (&["-lG"], &["uid", "user", "mtime"]),
        (&["-lu"], &["uid", "user", "gid", "group", "atime"]),
        (&["-lc"], &["uid", "user", "gid", "group", "ctime"]),
        (&["-l", "--time=birth"], &["uid", "user", "gid", "group"]),
    ];
    for (args, fields) in cases {
        let mut all = args.to_vec();
        all.push("d");
        let records = json(t.path(), &all);
        let a = named(&records, "a");
        for key in ["uid", "user", "gid", "group", "mtime", "atime", "ctime"] {
            assert_eq!(
                get(a, key).is_some(),
                fields.contains(&key),
                "{args:?}: {key} in {a:?}"
            );
        }
    }
    // Birth times where the filesystem has them: integers, under btime.
    let a = named(&json(t.path(), &["-l", "--time=birth", "d"]), "a").clone();
    if let Some(b) = get(&a, "btime") {
        assert!(
            b.starts_with("{\"nsec\": ") && b.contains("\"sec\": "),
            "{b}"
        );
    }
}

#[test]
fn inode_and_size_add_only_their_field() {
    let t = tree();
    let ino = std::fs::symlink_metadata(t.path().join("d/a"))
        .unwrap()
        .ino();
    let records = json(t.path(), &["-i", "d"]);
    assert_eq!(keys(named(&records, "a")), ["name", "type", "ino"]);
    assert_eq!(
        get(named(&records, "a"), "ino"),
        Some(ino.to_string().as_str())
    );
    let records = json(t.path(), &["-s", "d"]);
    assert_eq!(keys(named(&records, "a")), ["name", "type", "blocks"]);
    let records = json(t.path(), &["-is", "d/a"]);
    assert_eq!(keys(&records[0]), ["name", "type", "ino", "blocks"]);
    // Sizes stay raw whatever the size options say.
    let records = json(t.path(), &["-lh", "--block-size=M", "d"]);
    assert_eq!(get(named(&records, "b.txt"), "size"), Some("1234"));
}

#[test]
fn names_and_targets_that_are_not_utf8_are_byte_arrays() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let t = TempDir::new("json-bytes");
    t.file(OsStr::from_bytes(b"d/bad\xffname"), 1, 1_600_000_000);
    t.file("d/caf\u{e9} \"q\"\n\t\\", 1, 1_600_000_000);
    std::fs::create_dir(t.path().join(OsStr::from_bytes(b"d/dir\xfe"))).unwrap();
    t.file(OsStr::from_bytes(b"d/dir\xfe/in"), 1, 1_600_000_000);
    std::os::unix::fs::symlink(OsStr::from_bytes(b"to\x80"), t.path().join("d/link")).unwrap();
    let records = json(t.path(), &["-l", "-R", "d"]);
    let bad = records
        .iter()
        .find(|r| get(r, "name").is_none() && get(r, "type") == Some("\"file\""))
        .expect("the non-UTF-8 name");
    assert_eq!(
        get(bad, "name_bytes"),
        Some("[98, 97, 100, 255, 110, 97, 109, 101]")
    );
    let link = named(&records, "link");
    assert_eq!(get(link, "target"), None);
    assert_eq!(get(link, "target_bytes"), Some("[116, 111, 128]"));
    let inner = named(&records, "in");
    assert_eq!(
        get(inner, "path_bytes"),
        Some("[100, 47, 100, 105, 114, 254]")
    );
    // Valid UTF-8 with quotes and controls comes back unchanged.
    named(&records, "caf\\u00e9 \\\"q\\\"\\n\\t\\\\");
}

/// The same run as text: stderr and status must not differ.
fn text_run(cwd: &std::path::Path, args: &[&str]) -> Run {
    ls(cwd, args)
}

#[test]
fn a_missing_operand_is_gnus_error_and_status_with_the_rest_listed() {
    let t = tree();
    let r = ls(t.path(), &["--json", "nope", "top"]);
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "ls: cannot access 'nope': No such file or directory\n"
    );
    assert_eq!(r.status, Some(2));
    let records = parse(&r.stdout);
    assert_eq!(records.len(), 1);
    assert_eq!(get(&records[0], "name"), Some("\"top\""));
    let text = text_run(t.path(), &["nope", "top"]);
    assert_eq!((text.stderr, text.status), (r.stderr, r.status));
    if let Some(gnu) = util::gnu() {
        let g = run(&gnu, t.path(), &["nope", "top"], &[]);
        assert_eq!(g.status, Some(2));
        assert_eq!(
            g.stderr,
            b"ls: cannot access 'nope': No such file or directory\n"
        );
    }
}

#[test]
fn a_dangling_link_followed_by_dash_l_is_reported_as_text_reports_it() {
    let t = tree();
    let r = ls(t.path(), &["--json", "-lL", "d"]);
    let text = text_run(t.path(), &["-lL", "d"]);
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        String::from_utf8_lossy(&text.stderr)
    );
    assert_eq!(r.status, text.status);
    assert_eq!(r.status, Some(1));
    let records = parse(&r.stdout);
    // Listed, with only what is known.
    assert_eq!(keys(named(&records, "dangling")), ["name", "type"]);
    assert_eq!(get(named(&records, "link"), "type"), Some("\"file\""));
}

/// As root, an unreadable directory needs another user: `setpriv` runs
/// ls as nobody. None when neither works here.
fn run_unprivileged(cwd: &std::path::Path, args: &[&str]) -> Option<Run> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if !root {
        return Some(ls(cwd, args));
    }
    // Through bash, for `exec -a ls`: diagnostics then say `ls:`.
    let mut all = vec![
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "/bin/bash",
        "-c",
        "exec -a ls \"$0\" \"$@\"",
    ];
    let ours = ours();
    all.push(ours.to_str()?);
    all.extend_from_slice(args);
    let r = run(std::path::Path::new("/usr/bin/setpriv"), cwd, &all, &[]);
    (r.status != Some(127) && !r.stderr.starts_with(b"setpriv")).then_some(r)
}

#[test]
fn an_unreadable_directory_is_status_1_with_the_rest_intact() {
    let t = TempDir::new("json-perm");
    t.file("u/locked/x", 1, 1_600_000_000)
        .file("u/ok", 1, 1_600_000_000)
        .file("u/z/y", 1, 1_600_000_000)
        .chmod("u/locked", 0o000);
    // The fixture's parents must be reachable for nobody.
    let Some(r) = run_unprivileged(t.path(), &["--json", "-R", "u"]) else {
        eprintln!("skipping: cannot run as another user");
        return;
    };
    let text = run_unprivileged(t.path(), &["-R", "u"]).unwrap();
    if text.status == Some(2) {
        eprintln!("skipping: the fixture is not reachable as nobody");
        return;
    }
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "ls: cannot open directory 'u/locked': Permission denied\n"
    );
    assert_eq!(r.stderr, text.stderr);
    assert_eq!(r.status, Some(1));
    let got: Vec<String> = parse(&r.stdout)
        .iter()
        .map(|r| format!("{} {}", get(r, "path").unwrap(), get(r, "name").unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            "\"u\" \"locked\"",
            "\"u\" \"ok\"",
            "\"u\" \"z\"",
            "\"u/z\" \"y\""
        ]
    );
}

#[test]
fn layout_options_are_a_usage_error() {
    let t = tree();
    let cases: &[(&[&str], &str)] = &[
        (&["-C"], "-C (--format=vertical)"),
        (&["--format=vertical"], "-C (--format=vertical)"),
        (&["-x"], "-x (--format=horizontal)"),
        (&["--format=across"], "-x (--format=horizontal)"),
        (&["-m"], "-m (--format=commas)"),
        (&["-l", "-m"], "-m (--format=commas)"),
        (&["--dired"], "--dired"),
        (&["-lD"], "--dired"),
        (&["--zero"], "--zero"),
        (&["-l", "--zero"], "--zero"),
        (&["--hyperlink"], "--hyperlink"),
        (&["--hyperlink=always"], "--hyperlink"),
    ];
    for (args, named_option) in cases {
        for json_first in [true, false] {
            let mut all = args.to_vec();
            if json_first {
                all.insert(0, "--json");
            } else {
                all.push("--json");
            }
            all.push("top");
            let r = ls(t.path(), &all);
            assert_eq!(r.status, Some(2), "{all:?}");
            assert!(r.stdout.is_empty(), "{all:?}");
            assert_eq!(
                String::from_utf8_lossy(&r.stderr),
                format!(
                    "ls: --json cannot be combined with {named_option}\n\
                     Try 'ls --help' for more information.\n"
                ),
                "{all:?}"
            );
        }
    }
}

#[test]
fn options_that_only_decorate_text_are_ignored() {
    let t = tree();
    let plain = ls(t.path(), &["--json", "-l", "d"]).stdout;
    for args in [
        &["-1"][..],
        &["-C", "-l"],
        &["--format=long"],
        &["--color=always"],
        &["--hyperlink=never"],
        &["-F"],
        &["-p"],
        &["--file-type"],
        &["-Q"],
        &["-b"],
        &["-q"],
        &["-w", "10"],
        &["-T", "3"],
        &["--full-time"],
        &["--time-style=+%s"],
        &["-k"],
    ] {
        let mut all = vec!["--json", "-l"];
        all.extend_from_slice(args);
        all.push("d");
        let r = ls(t.path(), &all);
        assert_eq!(r.status, Some(0), "{all:?}");
        assert_eq!(
            String::from_utf8_lossy(&r.stdout),
            String::from_utf8_lossy(&plain),
            "{all:?}"
        );
    }
    // No escape sequences even where colours are forced.
    let r = ls(t.path(), &["--json", "--color=always", "d"]);
    assert!(!r.stdout.contains(&0x1b));
}

#[test]
fn abbreviations_of_json_resolve_and_gnu_abbreviations_keep_their_meaning() {
    // (tests/gnu_releases.rs: no GNU option's prefix reaches --json.)
    let t = tree();
    let r = ls(t.path(), &["--js", "top"]);
    assert_eq!(r.stdout, b"{\"name\":\"top\",\"type\":\"file\"}\n");
}

#[test]
fn help_lists_json() {
    let r = ls(std::path::Path::new("/"), &["--help"]);
    assert!(String::from_utf8_lossy(&r.stdout).contains("\n      --json "));
}

/// No raw control character reaches a terminal: C0, DEL (0x7F) and the C1
/// controls (U+0080–U+009F, e.g. U+009B, a one-character CSI on some
/// terminals) are `\u00XX` escapes in names and link targets.
#[test]
fn del_and_c1_controls_are_escaped() {
    let t = TempDir::new("json");
    t.file("d/a\x7fb", 0, 1_600_000_000)
        .file("d/c\u{9b}31m", 0, 1_600_000_000)
        .symlink("t\u{85}x", "d/l");
    let r = ls(t.path(), &["--json", "-l", "d"]);
    assert_eq!(r.status, Some(0));
    let text = String::from_utf8(r.stdout.clone()).unwrap();
    for raw in ['\u{7f}', '\u{9b}', '\u{85}'] {
        assert!(!text.contains(raw), "raw {raw:?} in {text}");
    }
    for escaped in [r"a\u007fb", r"c\u009b31m", r"t\u0085x"] {
        assert!(text.contains(escaped), "{escaped} not in {text}");
    }
    let records = parse(&r.stdout);
    assert_eq!(get(named(&records, r"a\u007fb"), "type"), Some("\"file\""));
}
