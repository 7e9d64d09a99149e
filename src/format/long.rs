//! The long format (`-l`, `-g`, `-o`, `-n`, `--author`, with `-i`/`-s`):
//! one line per entry, columns aligned over the batch as GNU aligns them,
//! `?` for whatever could not be known, and `--dired` offsets.
#![forbid(unsafe_code)]

use std::fmt::Write as _;

use crate::config::Config;
use crate::entry::{time_of, Entry};
use crate::format::dired::Dired;
use crate::format::listing::{block_text, context_text, inode_text, pad_left};
use crate::format::name::NameRenderer;
use crate::format::owner::Names;
use crate::format::time::TimeFormatter;
use crate::fs::xattr::AccessMarker;
use crate::fs::FileType;
use crate::output::Output;

/// The columns of one line before alignment. One `Row` is refilled for
/// every line (both passes), so a listing allocates no text per entry.
#[derive(Default)]
struct Row {
    inode: String,
    blocks: String,
    mode: [u8; 11],
    nlink: String,
    owner: IdText,
    group: IdText,
    author: IdText,
    /// `-Z`: the security context, `?` when there is none.
    context: IdText,
    /// The size, or the device numbers of a special file.
    size: String,
    device: Option<(u32, u32)>,
    time: Vec<u8>,
}

/// An owner, group or context column.
#[derive(Default)]
struct IdText {
    text: Vec<u8>,
    /// A name (left-aligned), not a number or `?` (right-aligned).
    is_name: bool,
}

impl IdText {
    fn width(&self) -> usize {
        if self.is_name {
            crate::format::width::text_width(&self.text)
        } else {
            self.text.len()
        }
    }

    fn set(&mut self, text: &[u8], is_name: bool) {
        self.text.clear();
        self.text.extend_from_slice(text);
        self.is_name = is_name;
    }
}

/// Builds `-rwxr-xr-x`-style strings (the last byte is the ACL marker).
pub fn mode_string(file_type: FileType, mode: Option<u32>, marker: AccessMarker) -> [u8; 11] {
    let mut s = [b'?'; 11];
    s[0] = match file_type {
        FileType::Regular => b'-',
        FileType::Directory => b'd',
        FileType::Symlink => b'l',
        FileType::Fifo => b'p',
        FileType::Socket => b's',
        FileType::CharDevice => b'c',
        FileType::BlockDevice => b'b',
        FileType::Door => b'D',
        FileType::Unknown => b'?',
    };
    s[10] = match marker {
        AccessMarker::None => b' ',
        AccessMarker::Context => b'.',
        AccessMarker::Acl => b'+',
    };
    let Some(m) = mode else { return s };
    let bit = |mask: u32, c: u8| if m & mask != 0 { c } else { b'-' };
    let special = |x: bool, flag: bool, set_x: u8, set_no_x: u8| match (flag, x) {
        (true, true) => set_x,
        (true, false) => set_no_x,
        (false, true) => b'x',
        (false, false) => b'-',
    };
    s[1] = bit(0o400, b'r');
    s[2] = bit(0o200, b'w');
    s[3] = special(m & 0o100 != 0, m & 0o4000 != 0, b's', b'S');
    s[4] = bit(0o040, b'r');
    s[5] = bit(0o020, b'w');
    s[6] = special(m & 0o010 != 0, m & 0o2000 != 0, b's', b'S');
    s[7] = bit(0o004, b'r');
    s[8] = bit(0o002, b'w');
    s[9] = special(m & 0o001 != 0, m & 0o1000 != 0, b't', b'T');
    s
}

pub struct LongPrinter<'a> {
    config: &'a Config,
    names: Names,
    times: TimeFormatter,
    /// Width of a formatted time, for the `?` of an unknown time.
    time_width: usize,
    pub dired: Dired,
}

impl<'a> LongPrinter<'a> {
    pub fn new(config: &'a Config) -> LongPrinter<'a> {
        let times = TimeFormatter::new(&config.long.time_style);
        let time_width = times.unknown_width();
        LongPrinter {
            config,
            names: Names::default(),
            times,
            time_width,
            dired: Dired::default(),
        }
    }

    fn id_text(&mut self, id: Option<u32>, user: bool, out: &mut IdText) {
        // An unknown owner is a `?` aligned like a name.
        let Some(id) = id else {
            out.set(b"?", true);
            return;
        };
        if !self.config.long.numeric_ids {
            let name = if user {
                self.names.user(id)
            } else {
                self.names.group(id)
            };
            if let Some(n) = name {
                out.set(n, true);
                return;
            }
        }
        out.set(b"", false);
        let _ = write!(NumberText(&mut out.text), "{id}");
    }

    /// Fills `r` with the columns of one line; the time only when
    /// `with_time` (times are not aligned, so measuring widths does not
    /// need them).
    fn row(&mut self, e: &Entry, with_time: bool, r: &mut Row) {
        let meta = e.meta.as_ref().filter(|_| !e.stat_failed);
        let long = &self.config.long;
        let (show_owner, show_group, show_author) = (long.owner, long.group, long.author);
        r.time.clear();
        if with_time {
            match meta.and_then(|m| time_of(m, self.config.time)) {
                Some(t) => self.times.format(t, &mut r.time),
                None => pad_left(&mut r.time, b"?", self.time_width),
            }
        }
        r.size.clear();
        r.device = None;
        match (meta, e.file_type) {
            (Some(m), FileType::CharDevice | FileType::BlockDevice) => {
                r.device = Some(m.rdev());
            }
            (Some(m), _) => match m.size() {
                Some(s) => self.config.file_size.format_bytes_into(s, &mut r.size),
                None => r.size.push('?'),
            },
            (None, _) => r.size.push('?'),
        }
        let uid = meta.and_then(|m| m.uid());
        let gid = meta.and_then(|m| m.gid());
        r.inode.clear();
        if self.config.inode {
            r.inode.push_str(&inode_text(e));
        }
        r.blocks.clear();
        if self.config.size_blocks {
            r.blocks.push_str(&block_text(self.config, e));
        }
        r.mode = mode_string(e.file_type, meta.and_then(|m| m.mode()), e.access);
        r.nlink.clear();
        match meta.and_then(|m| m.nlink()) {
            Some(n) => {
                let _ = write!(r.nlink, "{n}");
            }
            None => r.nlink.push('?'),
        }
        if show_owner {
            self.id_text(uid, true, &mut r.owner);
        }
        if show_group {
            self.id_text(gid, false, &mut r.group);
        }
        if show_author {
            self.id_text(uid, true, &mut r.author);
        }
        if self.config.context {
            r.context.set(context_text(e), true);
        }
    }

    /// Prints one batch in the long format. `also_measured` are entries
    /// not printed here whose columns still count for the widths (GNU
    /// sizes the file operands' columns over the directory operands too).
    pub fn print(
        &mut self,
        out: &mut Output,
        entries: &[Entry],
        also_measured: &[Entry],
        names: &NameRenderer,
    ) {
        // Two passes, one line in memory at a time: widths first, then
        // each line formatted again and written (GNU keeps no more either).
        let mut w = Widths::default();
        let mut row = Row::default();
        for e in entries.iter().chain(also_measured) {
            self.row(e, false, &mut row);
            w.add(&row);
        }
        w.finish();
        let any_marker = entries
            .iter()
            .chain(also_measured)
            .any(|e| e.access != AccessMarker::None);
        let eol = if self.config.zero { 0 } else { b'\n' };
        for e in entries {
            self.row(e, true, &mut row);
            let r = &row;
            let buf = out.buffer();
            names.entry_start(buf);
            // Columns for the colour's clear-to-end-of-line rule count the
            // line's text, not the escape sequences before it.
            let mut line_start = buf.len();
            if self.config.dired && self.config.format == crate::options::Format::Long {
                buf.extend_from_slice(b"  ");
            }
            if self.config.inode {
                pad_left(buf, r.inode.as_bytes(), w.inode);
                buf.push(b' ');
            }
            if self.config.size_blocks {
                pad_left(buf, r.blocks.as_bytes(), w.blocks);
                buf.push(b' ');
            }
            buf.extend_from_slice(&r.mode[..if any_marker { 11 } else { 10 }]);
            buf.push(b' ');
            pad_left(buf, r.nlink.as_bytes(), w.nlink);
            buf.push(b' ');
            if self.config.long.owner {
                write_id(buf, &r.owner, w.owner);
            }
            if self.config.long.group {
                write_id(buf, &r.group, w.group);
            }
            if self.config.long.author {
                write_id(buf, &r.author, w.author);
            }
            if self.config.context {
                write_id(buf, &r.context, w.context);
            }
            let long = &self.config.long;
            if long.owner || long.group || long.author || self.config.context {
                // GNU measures the colour's clear-to-end-of-line column from
                // after the owner columns (its line buffer restarts there).
                line_start = buf.len();
            }
            match r.device {
                None => pad_left(buf, r.size.as_bytes(), w.size),
                Some((major, minor)) => {
                    let text =
                        format!("{:>mw$}, {:>nw$}", major, minor, mw = w.major, nw = w.minor);
                    pad_left(buf, text.as_bytes(), w.size);
                }
            }
            buf.push(b' ');
            buf.extend_from_slice(&r.time);
            buf.push(b' ');
            let base = out.buffer_base();
            let buf = out.buffer();
            let col = buf.len() - line_start;
            let r = names.render(e, col, buf);
            if self.config.dired {
                let start = base + r.name_start - r.escapes_before;
                self.dired
                    .record(start, start + (r.name_end - r.name_start));
            }
            if e.file_type == FileType::Symlink {
                if let Some(target) = e.link.as_ref().and_then(|l| l.path.as_ref()) {
                    buf.extend_from_slice(b" -> ");
                    names.render_link_target(e, target, col + r.width + 4, buf);
                }
            }
            buf.push(eol);
            out.write(&[]);
        }
    }
}

fn write_id(buf: &mut Vec<u8>, id: &IdText, width: usize) {
    if id.is_name {
        buf.extend_from_slice(&id.text);
        let w = crate::format::width::text_width(&id.text);
        buf.resize(buf.len() + width.saturating_sub(w), b' ');
    } else {
        pad_left(buf, &id.text, width);
    }
    buf.push(b' ');
}

/// `write!` into a byte buffer (numbers are ASCII).
struct NumberText<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for NumberText<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Column widths over a batch.
#[derive(Default)]
struct Widths {
    inode: usize,
    blocks: usize,
    nlink: usize,
    owner: usize,
    group: usize,
    author: usize,
    context: usize,
    size: usize,
    major: usize,
    minor: usize,
}

impl Widths {
    fn add(&mut self, r: &Row) {
        let w = self;
        {
            w.inode = w.inode.max(r.inode.len());
            w.blocks = w.blocks.max(r.blocks.len());
            w.nlink = w.nlink.max(r.nlink.len());
            w.owner = w.owner.max(r.owner.width());
            w.group = w.group.max(r.group.width());
            w.author = w.author.max(r.author.width());
            w.context = w.context.max(r.context.width());
            match r.device {
                None => {
                    w.size = w
                        .size
                        .max(crate::format::width::text_width(r.size.as_bytes()))
                }
                Some((major, minor)) => {
                    w.major = w.major.max(major.to_string().len());
                    w.minor = w.minor.max(minor.to_string().len());
                }
            }
        }
    }

    /// Device numbers share the size column.
    fn finish(&mut self) {
        if self.major + self.minor > 0 {
            self.size = self.size.max(self.major + 2 + self.minor);
        }
    }
}
