//! The long format (`-l`, `-g`, `-o`, `-n`, `--author`, with `-i`/`-s`):
//! one line per entry, columns aligned over the batch as GNU aligns them,
//! `?` for whatever could not be known, and `--dired` offsets.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::entry::{time_of, Entry};
use crate::format::dired::Dired;
use crate::format::listing::{block_text, context_text, inode_text, pad_left};
use crate::format::name::NameRenderer;
use crate::format::owner::Names;
use crate::format::time::TimeFormatter;
use crate::fs::xattr::AccessMarker;
use crate::fs::{FileType, Timestamp};
use crate::output::Output;

/// The columns of one line before alignment.
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
    size: SizeText,
    time: Vec<u8>,
}

enum IdText {
    /// A name: left-aligned.
    Name(Vec<u8>),
    /// A number or `?`: right-aligned.
    Number(String),
}

impl IdText {
    fn width(&self) -> usize {
        match self {
            IdText::Name(n) => crate::format::width::text_width(n),
            IdText::Number(s) => s.len(),
        }
    }
}

enum SizeText {
    Plain(String),
    Device(u32, u32),
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

    fn id_text(&mut self, id: Option<u32>, user: bool) -> IdText {
        // An unknown owner is a `?` aligned like a name.
        let Some(id) = id else {
            return IdText::Name(b"?".to_vec());
        };
        if !self.config.long.numeric_ids {
            let name = if user {
                self.names.user(id)
            } else {
                self.names.group(id)
            };
            if let Some(n) = name {
                return IdText::Name(n.to_vec());
            }
        }
        IdText::Number(id.to_string())
    }

    /// The columns of one line; the time only when `with_time` (times are
    /// not aligned, so measuring widths does not need them).
    fn row(&mut self, e: &Entry, with_time: bool) -> Row {
        let meta = e.meta.as_ref().filter(|_| !e.stat_failed);
        let long = &self.config.long;
        let (show_owner, show_group, show_author) = (long.owner, long.group, long.author);
        let time: Option<Timestamp> = meta.and_then(|m| time_of(m, self.config.time));
        let mut time_text = Vec::new();
        match time {
            _ if !with_time => {}
            Some(t) => self.times.format(t, &mut time_text),
            None => pad_left(&mut time_text, b"?", self.time_width),
        }
        let size = match (meta, e.file_type) {
            (Some(m), FileType::CharDevice | FileType::BlockDevice) => {
                SizeText::Device(m.rdev().0, m.rdev().1)
            }
            (Some(m), _) => match m.size() {
                Some(s) => SizeText::Plain(self.config.file_size.format_bytes(s)),
                None => SizeText::Plain("?".into()),
            },
            (None, _) => SizeText::Plain("?".into()),
        };
        let uid = meta.and_then(|m| m.uid());
        let gid = meta.and_then(|m| m.gid());
        Row {
            inode: if self.config.inode {
                inode_text(e)
            } else {
                String::new()
            },
            blocks: if self.config.size_blocks {
                block_text(self.config, e)
            } else {
                String::new()
            },
            mode: mode_string(e.file_type, meta.and_then(|m| m.mode()), e.access),
            nlink: meta
                .and_then(|m| m.nlink())
                .map_or_else(|| "?".into(), |n| n.to_string()),
            owner: if show_owner {
                self.id_text(uid, true)
            } else {
                IdText::Number(String::new())
            },
            group: if show_group {
                self.id_text(gid, false)
            } else {
                IdText::Number(String::new())
            },
            author: if show_author {
                self.id_text(uid, true)
            } else {
                IdText::Number(String::new())
            },
            context: IdText::Name(context_text(e).to_vec()),
            size,
            time: time_text,
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
        for e in entries.iter().chain(also_measured) {
            let row = self.row(e, false);
            w.add(&row);
        }
        w.finish();
        let any_marker = entries
            .iter()
            .chain(also_measured)
            .any(|e| e.access != AccessMarker::None);
        let eol = if self.config.zero { 0 } else { b'\n' };
        for e in entries {
            let row = self.row(e, true);
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
            match &r.size {
                SizeText::Plain(s) => pad_left(buf, s.as_bytes(), w.size),
                SizeText::Device(major, minor) => {
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
    match id {
        IdText::Name(n) => {
            buf.extend_from_slice(n);
            let w = crate::format::width::text_width(n);
            buf.resize(buf.len() + width.saturating_sub(w), b' ');
        }
        IdText::Number(s) => pad_left(buf, s.as_bytes(), width),
    }
    buf.push(b' ');
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
            match &r.size {
                SizeText::Plain(s) => {
                    w.size = w.size.max(crate::format::width::text_width(s.as_bytes()))
                }
                SizeText::Device(major, minor) => {
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
