//! `--json`: one JSON object per entry per line (NDJSON), for the entries
//! and in the order the text output lists them, carrying the fields the
//! other flags select (the schema is documented in README.md and ls(1)).
//!
//! Not a JSON library: it writes the few shapes the schema has (strings,
//! byte arrays for names that are not UTF-8, integers, one nested time
//! object). Names are written as the kernel gave them, never quoted or
//! escaped for a terminal; there is no `total`, no padding, no colour.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::entry::{time_of, Entry};
use crate::format::owner::{GivenUp, Names};
use crate::listing::fields::{mode_string, owner_names, printed_ids};
use crate::options::{Format, TimeField};
use crate::output::Output;
use crate::sys::xattr::AccessMarker;
use crate::sys::{FileType, Timestamp};

/// Writes entries as NDJSON records.
pub struct JsonWriter<'a> {
    config: &'a Config,
    names: Names,
    /// The directory being listed, once the text output would have printed
    /// its `DIR:` heading (several operands, a file operand, or `-R`).
    dir: Option<Vec<u8>>,
}

/// The `type` field.
pub fn type_name(t: FileType) -> &'static str {
    match t {
        FileType::Regular => "file",
        FileType::Directory => "dir",
        FileType::Symlink => "symlink",
        FileType::Fifo => "fifo",
        FileType::Socket => "socket",
        FileType::CharDevice => "char",
        FileType::BlockDevice => "block",
        FileType::Door => "door",
        FileType::Unknown => "unknown",
    }
}

/// The key of the `-l` timestamp: the one `-u`/`-c`/`--time` selected.
fn time_key(t: TimeField) -> &'static str {
    match t {
        TimeField::Modification => "mtime",
        TimeField::Access => "atime",
        TimeField::Change => "ctime",
        TimeField::Birth => "btime",
    }
}

impl<'a> JsonWriter<'a> {
    pub fn new(config: &'a Config) -> JsonWriter<'a> {
        JsonWriter {
            config,
            names: owner_names(config),
            dir: None,
        }
    }

    /// Owner and group lookups given up since the last call.
    pub fn take_given_up(&mut self) -> Vec<GivenUp> {
        self.names.take_given_up()
    }

    /// Where the text output prints `DIR:`: the records that follow carry
    /// `path`.
    pub fn set_dir(&mut self, path: &[u8]) {
        let dir = self.dir.get_or_insert_with(Vec::new);
        dir.clear();
        dir.extend_from_slice(path);
    }

    /// One line per entry, written as it is built.
    pub fn print(&mut self, out: &mut Output, entries: &[Entry]) {
        // With `--timeout`, the batch's names are looked up together first.
        self.names.prefetch(printed_ids(self.config, &[entries]));
        for e in entries {
            let buf = out.buffer();
            self.record(e, buf);
            buf.push(b'\n');
            out.write(&[]);
        }
    }

    fn record(&mut self, e: &Entry, buf: &mut Vec<u8>) {
        let config = self.config;
        let long = config.format == Format::Long;
        let meta = e.meta.as_deref().filter(|_| !e.stat_failed);
        let mut o = Object::new(buf);
        if let Some(dir) = &self.dir {
            o.text("path", dir);
        }
        o.text("name", e.name_bytes());
        o.string("type", type_name(e.file_type));
        // Every other field only when its flag selects it and the kernel
        // returned it: absent, never null or made up.
        let Some(m) = meta else {
            o.close();
            return;
        };
        if let (true, Some(ino)) = (config.inode, m.ino()) {
            o.uint("ino", ino);
        }
        if long {
            if let Some(mode) = m.mode() {
                o.uint("mode", u64::from(mode));
                let s = mode_string(e.file_type, Some(mode), AccessMarker::None);
                o.text("mode_str", &s[..10]);
            }
            if let Some(n) = m.nlink() {
                o.uint("nlink", n);
            }
            if config.long.owner {
                if let Some(uid) = m.uid() {
                    o.uint("uid", u64::from(uid));
                    if let Some(name) = self.user(uid) {
                        o.text("user", name);
                    }
                }
            }
            if config.long.group {
                if let Some(gid) = m.gid() {
                    o.uint("gid", u64::from(gid));
                    if let Some(name) = self.group(gid) {
                        o.text("group", name);
                    }
                }
            }
            if let Some(size) = m.size() {
                o.uint("size", size);
            }
            if matches!(e.file_type, FileType::CharDevice | FileType::BlockDevice) {
                let (major, minor) = m.rdev();
                o.uint("rdev_major", u64::from(major));
                o.uint("rdev_minor", u64::from(minor));
            }
        }
        if let (true, Some(blocks)) = (long || config.size_blocks, m.blocks()) {
            o.uint("blocks", blocks);
        }
        if long {
            if let Some(t) = time_of(m, config.time) {
                o.time(time_key(config.time), t);
            }
            let target = e.link.as_ref().and_then(|l| l.path.as_deref());
            if let (FileType::Symlink, Some(target)) = (e.file_type, target) {
                o.text("target", target);
            }
        }
        if let (true, Some(context)) = (config.context, &e.context) {
            o.text("context", context);
        }
        o.close();
    }

    /// The owner's name, unless `-n` asked for numbers only.
    fn user(&mut self, uid: u32) -> Option<&[u8]> {
        if self.config.long.numeric_ids {
            return None;
        }
        self.names.user(uid)
    }

    fn group(&mut self, gid: u32) -> Option<&[u8]> {
        if self.config.long.numeric_ids {
            return None;
        }
        self.names.group(gid)
    }
}

/// One object being written.
struct Object<'b> {
    buf: &'b mut Vec<u8>,
    empty: bool,
}

impl<'b> Object<'b> {
    fn new(buf: &'b mut Vec<u8>) -> Object<'b> {
        Object { buf, empty: true }
    }

    fn key(&mut self, key: &str, suffix: &str) {
        self.buf.push(if self.empty { b'{' } else { b',' });
        self.empty = false;
        self.buf.push(b'"');
        self.buf.extend_from_slice(key.as_bytes());
        self.buf.extend_from_slice(suffix.as_bytes());
        self.buf.extend_from_slice(b"\":");
    }

    fn string(&mut self, key: &str, value: &str) {
        self.key(key, "");
        write_string(self.buf, value);
    }

    /// Bytes from the kernel: `"key":"text"` when they are UTF-8, else
    /// `"key_bytes":[...]`, so that nothing is lost either way.
    fn text(&mut self, key: &str, value: &[u8]) {
        match std::str::from_utf8(value) {
            Ok(s) => self.string(key, s),
            Err(_) => {
                self.key(key, "_bytes");
                self.buf.push(b'[');
                for (i, b) in value.iter().enumerate() {
                    if i > 0 {
                        self.buf.push(b',');
                    }
                    self.buf.extend_from_slice(b.to_string().as_bytes());
                }
                self.buf.push(b']');
            }
        }
    }

    fn uint(&mut self, key: &str, value: u64) {
        self.key(key, "");
        self.buf.extend_from_slice(value.to_string().as_bytes());
    }

    fn time(&mut self, key: &str, t: Timestamp) {
        self.key(key, "");
        let text = format!("{{\"sec\":{},\"nsec\":{}}}", t.sec, t.nsec);
        self.buf.extend_from_slice(text.as_bytes());
    }

    fn close(self) {
        if self.empty {
            self.buf.push(b'{');
        }
        self.buf.push(b'}');
    }
}

/// A JSON string: `"` and `\` escaped, control characters (C0, DEL and
/// the C1 range U+0080–U+009F) as `\n`-style or `\u00XX` escapes, so that
/// no raw control character reaches a terminal; everything else (valid
/// UTF-8) as it is.
fn write_string(buf: &mut Vec<u8>, s: &str) {
    buf.push(b'"');
    for c in s.chars() {
        match c {
            '"' => buf.extend_from_slice(b"\\\""),
            '\\' => buf.extend_from_slice(b"\\\\"),
            '\n' => buf.extend_from_slice(b"\\n"),
            '\r' => buf.extend_from_slice(b"\\r"),
            '\t' => buf.extend_from_slice(b"\\t"),
            '\u{8}' => buf.extend_from_slice(b"\\b"),
            '\u{c}' => buf.extend_from_slice(b"\\f"),
            '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' => {
                buf.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes())
            }
            _ => buf.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
        }
    }
    buf.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(s: &str) -> String {
        let mut buf = Vec::new();
        write_string(&mut buf, s);
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string("\n\t\r\x08\x0c"), r#""\n\t\r\b\f""#);
        assert_eq!(string("\x01\x1f"), r#""\u0001\u001f""#);
        assert_eq!(string("é→"), "\"é→\"");
    }

    #[test]
    fn strings_escape_del_and_c1_controls() {
        assert_eq!(string("a\x7fb"), r#""a\u007fb""#);
        assert_eq!(string("\u{80}\u{9b}\u{9f}"), r#""\u0080\u009b\u009f""#);
        // The first character past the C1 range is printable.
        assert_eq!(string("\u{a0}"), "\"\u{a0}\"");
    }

    #[test]
    fn bytes_that_are_not_utf8_become_an_array() {
        let mut buf = Vec::new();
        let mut o = Object::new(&mut buf);
        o.text("name", b"a\xffb");
        o.text("path", b"ok");
        o.close();
        assert_eq!(buf, br#"{"name_bytes":[97,255,98],"path":"ok"}"#);
    }
}
