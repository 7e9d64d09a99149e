//! The long format (`-l`, `-g`, `-o`, `-n`, `--author`, with `-i`/`-s`):
//! one line per entry, columns aligned over the batch as GNU aligns them,
//! `?` for whatever could not be known, and `--dired` offsets.
#![forbid(unsafe_code)]

use std::fmt::Write as _;

use crate::config::Config;
use crate::entry::{time_of, Entry};
use crate::format::owner::{GivenUp, Names};
use crate::format::time::TimeFormatter;
use crate::listing::dired::Dired;
use crate::listing::fields::{
    block_text, context_text, fetching_ahead, inode_text, mode_string, number_columns, owner_names,
    pad_left, pad_left_columns, printed_ids,
};
use crate::listing::name::NameRenderer;
use crate::output::Output;
use crate::parallel;
use crate::sys::xattr::AccessMarker;
use crate::sys::FileType;

/// The columns of one line before alignment. One `Row` is refilled for
/// every line (both passes), so a listing allocates no text per entry.
#[derive(Default)]
struct Row {
    inode: String,
    blocks: Vec<u8>,
    mode: [u8; 11],
    nlink: String,
    owner: IdText,
    group: IdText,
    author: IdText,
    /// `-Z`: the security context, `?` when there is none.
    context: IdText,
    /// The size, or the device numbers of a special file.
    size: Vec<u8>,
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
    /// Columns as GNU's mbswidth counts them, in LC_CTYPE's charset.
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
        let times = TimeFormatter::new(&config.long.time_style, !config.locale.time_posix);
        let time_width = times.unknown_width();
        LongPrinter {
            config,
            names: owner_names(config),
            times,
            time_width,
            dired: Dired::default(),
        }
    }

    /// Owner and group lookups given up since the last call.
    pub fn take_given_up(&mut self) -> Vec<GivenUp> {
        self.names.take_given_up()
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
                Some(s) => self.config.file_size.bytes_text(s, &mut r.size),
                None => r.size.push(b'?'),
            },
            (None, _) => r.size.push(b'?'),
        }
        let uid = meta.and_then(|m| m.uid());
        let gid = meta.and_then(|m| m.gid());
        r.inode.clear();
        if self.config.inode {
            r.inode.push_str(&inode_text(e));
        }
        r.blocks.clear();
        if self.config.size_blocks {
            r.blocks.extend_from_slice(&block_text(self.config, e));
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
            r.context.set(context_text(self.config, e), true);
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
        // With `--timeout`, the batch's names are looked up together
        // first (a dead name service costs one limit).
        let ids = printed_ids(self.config, &[entries, also_measured]);
        self.names.prefetch(ids);
        // Two passes, one line in memory at a time: widths first, then
        // each line formatted again and written (GNU keeps no more either).
        let mut row = Row::default();
        let mut w = if self.renders_in_parallel(entries, names) {
            self.measure_in_parallel(entries, also_measured)
        } else {
            let mut w = Widths::default();
            for e in fetching_ahead(entries).chain(also_measured) {
                self.row(e, false, &mut row);
                w.add(&row);
            }
            w
        };
        w.finish();
        let any_marker = entries
            .iter()
            .chain(also_measured)
            .any(|e| e.access != AccessMarker::None);
        let layout = Layout {
            widths: w,
            any_marker,
            eol: if self.config.zero { 0 } else { b'\n' },
        };
        if self.renders_in_parallel(entries, names) {
            self.print_in_parallel(out, entries, &layout, names);
            return;
        }
        for e in fetching_ahead(entries) {
            let base = out.buffer_base();
            let name = self.line(e, &layout, names, &mut row, out.buffer());
            if self.config.dired {
                let start = base + name.0;
                self.dired.record(start, start + name.1);
            }
            out.write(&[]);
        }
    }

    /// Appends the line of `e` to `buf`; returns where its name starts in
    /// `buf` (escape sequences not counted) and its length, for `--dired`.
    fn line(
        &mut self,
        e: &Entry,
        layout: &Layout,
        names: &NameRenderer,
        row: &mut Row,
        buf: &mut Vec<u8>,
    ) -> (usize, usize) {
        let w = &layout.widths;
        self.row(e, true, row);
        let r = &*row;
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
            pad_left_columns(buf, &r.blocks, w.blocks);
            buf.push(b' ');
        }
        buf.extend_from_slice(&r.mode[..if layout.any_marker { 11 } else { 10 }]);
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
            None => pad_left_columns(buf, &r.size, w.size),
            Some((major, minor)) => {
                let text = format!("{:>mw$}, {:>nw$}", major, minor, mw = w.major, nw = w.minor);
                pad_left(buf, text.as_bytes(), w.size);
            }
        }
        buf.push(b' ');
        buf.extend_from_slice(&r.time);
        buf.push(b' ');
        let col = buf.len() - line_start;
        let rendered = names.render(e, col, buf);
        if e.file_type == FileType::Symlink {
            if let Some(target) = e.link.as_ref().and_then(|l| l.path.as_ref()) {
                buf.extend_from_slice(b" -> ");
                names.render_link_target(e, target, col + rendered.width + 4, buf);
            }
        }
        buf.push(layout.eol);
        (
            rendered.name_start - rendered.escapes_before,
            rendered.name_end - rendered.name_start,
        )
    }

    /// Large listings without state carried from line to line (no
    /// colours, whose escapes are counted; no `--dired` offsets; no
    /// hyperlinks) are formatted on two threads where that pays: the lines
    /// are independent once the widths are known.
    fn renders_in_parallel(&self, entries: &[Entry], names: &NameRenderer) -> bool {
        let independent =
            !self.config.dired && names.painter.is_none() && names.hyperlink.is_none();
        parallel::long_format_on_two_threads(self.config, entries.len(), independent)
    }

    /// The widths pass split in two: the helper measures the second half
    /// with its own caches, which then join the main ones.
    fn measure_in_parallel(&mut self, entries: &[Entry], also_measured: &[Entry]) -> Widths {
        let (first, second) = entries.split_at(entries.len() / 2);
        let mut helper = self.helper();
        let measure_second = || {
            let mut row = Row::default();
            let mut w = Widths::default();
            for e in fetching_ahead(second) {
                helper.row(e, false, &mut row);
                w.add(&row);
            }
            w
        };
        let (mine, theirs) = parallel::with_helper(measure_second, |started| {
            let mut row = Row::default();
            let mut w = Widths::default();
            let rest: &[Entry] = if started { &[] } else { second };
            for e in fetching_ahead(first).chain(rest).chain(also_measured) {
                self.row(e, false, &mut row);
                w.add(&row);
            }
            w
        });
        let mut w = mine;
        if let Some(theirs) = theirs {
            w.merge(&theirs);
            self.names.absorb(helper.names);
        }
        w
    }

    /// A printer for a helper thread: the same options, copies of the
    /// caches.
    fn helper(&self) -> LongPrinter<'a> {
        LongPrinter {
            config: self.config,
            names: self.names.clone(),
            times: self.times.clone(),
            time_width: self.time_width,
            dired: Dired::default(),
        }
    }

    /// Every other block of lines is formatted by a helper thread (with
    /// its own copies of the caches, warm from the widths pass) and handed
    /// over in order; at most two blocks wait, so memory stays bounded.
    fn print_in_parallel(
        &mut self,
        out: &mut Output,
        entries: &[Entry],
        layout: &Layout,
        names: &NameRenderer,
    ) {
        let blocks: Vec<&[Entry]> = entries.chunks(parallel::tuning::PARALLEL_BLOCK).collect();
        let mut helper = self.helper();
        // The renderer's colour state is not shared across threads; this
        // path has none, so the helper makes its own from the same options.
        let (dir, align_quotes) = (names.dir.clone(), names.align_quotes);
        let config = self.config;
        let (send, receive) = std::sync::mpsc::sync_channel::<Vec<u8>>(1);
        let odd = blocks.iter().skip(1).step_by(2);
        let format_odd = move || {
            let mut helper_names = NameRenderer::new(config);
            helper_names.dir = dir;
            helper_names.align_quotes = align_quotes;
            let mut row = Row::default();
            for block in odd {
                let mut buf = Vec::with_capacity(block.len() * 80);
                for e in fetching_ahead(block) {
                    helper.line(e, layout, &helper_names, &mut row, &mut buf);
                }
                if send.send(buf).is_err() {
                    return;
                }
            }
        };
        parallel::with_helper(format_odd, |started| {
            let mut row = Row::default();
            for (k, block) in blocks.iter().enumerate() {
                let handed = (k % 2 == 1 && started)
                    .then(|| receive.recv().ok())
                    .flatten();
                match handed {
                    Some(buf) => out.write(&buf),
                    None => {
                        for e in fetching_ahead(block) {
                            self.line(e, layout, names, &mut row, out.buffer());
                            out.write(&[]);
                        }
                    }
                }
            }
            drop(receive);
        });
    }
}

/// What every line of a batch shares.
struct Layout {
    widths: Widths,
    any_marker: bool,
    eol: u8,
}

fn write_id(buf: &mut Vec<u8>, id: &IdText, width: usize) {
    if id.is_name {
        buf.extend_from_slice(&id.text);
        buf.resize(buf.len() + width.saturating_sub(id.width()), b' ');
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
            w.blocks = w.blocks.max(number_columns(&r.blocks));
            w.nlink = w.nlink.max(r.nlink.len());
            w.owner = w.owner.max(r.owner.width());
            w.group = w.group.max(r.group.width());
            w.author = w.author.max(r.author.width());
            // GNU sizes the context column by bytes (strlen), and pads
            // each context by its columns, as a name.
            w.context = w.context.max(r.context.text.len());
            match r.device {
                None => w.size = w.size.max(number_columns(&r.size)),
                Some((major, minor)) => {
                    w.major = w.major.max(major.to_string().len());
                    w.minor = w.minor.max(minor.to_string().len());
                }
            }
        }
    }

    /// The widths of two parts of one batch.
    fn merge(&mut self, other: &Widths) {
        self.inode = self.inode.max(other.inode);
        self.blocks = self.blocks.max(other.blocks);
        self.nlink = self.nlink.max(other.nlink);
        self.owner = self.owner.max(other.owner);
        self.group = self.group.max(other.group);
        self.author = self.author.max(other.author);
        self.context = self.context.max(other.context);
        self.size = self.size.max(other.size);
        self.major = self.major.max(other.major);
        self.minor = self.minor.max(other.minor);
    }

    /// Device numbers share the size column.
    fn finish(&mut self) {
        if self.major + self.minor > 0 {
            self.size = self.size.max(self.major + 2 + self.minor);
        }
    }
}
