//! One file name with its frills: quoting, colour, hyperlink and the
//! `-F`/`-p` indicator character.
#![forbid(unsafe_code)]

use crate::config::{Config, Format, IndicatorStyle};
use crate::entry::Entry;
use crate::format::color::{ColorSubject, ColorTable};
use crate::format::hyperlink::Hyperlinker;
use crate::format::quote::{Quoted, Quoter};
use crate::fs::FileType;

/// The indicator `-F`/`--file-type`/`-p` appends for a file of this type
/// and mode (`mode` only matters for the `*` of executables).
pub fn indicator_char(style: IndicatorStyle, file_type: FileType, mode: Option<u32>) -> Option<u8> {
    if style == IndicatorStyle::None {
        return None;
    }
    if file_type == FileType::Directory {
        return Some(b'/');
    }
    if style == IndicatorStyle::Slash {
        return None;
    }
    match file_type {
        FileType::Symlink => Some(b'@'),
        FileType::Fifo => Some(b'|'),
        FileType::Socket => Some(b'='),
        FileType::Door => Some(b'>'),
        FileType::Regular if style == IndicatorStyle::Classify && mode.is_some_and(|m| m & 0o111 != 0) => Some(b'*'),
        _ => None,
    }
}

/// Where a rendered name landed in the buffer.
#[derive(Clone, Copy, Debug)]
pub struct Rendered {
    /// Display width (escape sequences excluded).
    pub width: usize,
    /// Byte range of the quoted name itself (for `--dired`).
    pub name_start: usize,
    pub name_end: usize,
}

/// Renders names for one listing.
pub struct NameRenderer<'a> {
    pub quoter: Quoter,
    pub colors: Option<&'a ColorTable>,
    pub indicator: IndicatorStyle,
    pub hyperlink: Option<Hyperlinker>,
    long: bool,
    /// Directory of the current batch (empty for operands), for links.
    pub dir: Vec<u8>,
    /// Names that need no quotes get one leading space when other names in
    /// the same listing start with a quote (GNU's alignment).
    pub align_quotes: bool,
}

impl<'a> NameRenderer<'a> {
    pub fn new(config: &'a Config) -> NameRenderer<'a> {
        NameRenderer {
            quoter: Quoter::new(config.quoting, config.hide_control_chars, config.utf8),
            colors: config.color.as_ref(),
            indicator: config.indicator,
            hyperlink: config.hyperlink.then(Hyperlinker::new),
            long: config.format == Format::Long,
            dir: Vec::new(),
            align_quotes: false,
        }
    }

    /// Quotes `name` into a scratch buffer to learn its width and whether it
    /// starts with a quote, without producing output.
    pub fn measure(&self, name: &[u8], scratch: &mut Vec<u8>) -> Quoted {
        scratch.clear();
        self.quoter.quote(name, scratch)
    }

    /// The colour subject of an entry (as the entry itself, not its target).
    fn subject(entry: &Entry) -> ColorSubject<'_> {
        let meta = entry.meta.as_ref();
        let link = entry.link.as_ref();
        ColorSubject {
            name: entry.name_bytes(),
            file_type: entry.file_type,
            mode: meta.and_then(|m| m.mode),
            nlink: meta.and_then(|m| m.nlink),
            orphan: link.is_some_and(|l| l.broken),
            missing: entry.stat_failed,
            capability: false,
        }
    }

    /// Appends `name` quoted, coloured with `subject`'s colour and, with
    /// `--hyperlink`, linked to `link_path`.
    fn write_name(&self, subject: &ColorSubject, name: &[u8], link_path: Option<&[u8]>, out: &mut Vec<u8>) -> Rendered {
        let mut width = 0;
        let style = self.colors.and_then(|c| c.style(subject).map(|s| (c, s)));
        let mut scratch = Vec::new();
        let quoted = self.quoter.quote(name, &mut scratch);
        if self.align_quotes && !quoted.starts_with_quote {
            out.push(b' ');
            width += 1;
        }
        if let Some((colors, params)) = style {
            colors.start(out, params);
        }
        if let (Some(h), Some(p)) = (&self.hyperlink, link_path) {
            h.open(out, p);
        }
        let name_start = out.len();
        out.extend_from_slice(&scratch);
        let name_end = out.len();
        if let (Some(h), Some(_)) = (&self.hyperlink, link_path) {
            h.close(out);
        }
        if let Some((colors, _)) = style {
            colors.end(out);
        }
        Rendered { width: width + quoted.width, name_start, name_end }
    }

    /// Appends the entry's name (coloured, quoted) and its indicator.
    pub fn render(&self, entry: &Entry, out: &mut Vec<u8>) -> Rendered {
        let path = self.hyperlink.as_ref().map(|_| {
            if self.dir.is_empty() {
                entry.name_bytes().to_vec()
            } else {
                crate::walk::child_path(&self.dir, entry.name_bytes())
            }
        });
        let mut r = self.write_name(&Self::subject(entry), entry.name_bytes(), path.as_deref(), out);
        // In the long format a symlink whose target was read shows the
        // target's indicator after `-> target` instead of its own `@`.
        let shows_target = self.long && entry.link.as_ref().is_some_and(|l| l.path.is_some());
        if !shows_target {
            if let Some(c) = indicator_char(self.indicator, entry.file_type, entry.mode()) {
                out.push(c);
                r.width += 1;
            }
        }
        r
    }

    /// Appends a symlink's target as `-l` shows it after ` -> `.
    pub fn render_link_target(&self, entry: &Entry, target: &[u8], out: &mut Vec<u8>) {
        let link = entry.link.as_ref();
        let meta = link.and_then(|l| l.meta.as_ref());
        let subject = ColorSubject {
            name: target,
            file_type: meta.and_then(|m| m.file_type).unwrap_or(FileType::Unknown),
            mode: meta.and_then(|m| m.mode),
            nlink: meta.and_then(|m| m.nlink),
            orphan: false,
            missing: link.is_some_and(|l| l.broken),
            capability: false,
        };
        let saved = self.align_quotes;
        let this = NameRenderer { align_quotes: false, hyperlink: None, ..self.shallow() };
        this.write_name(&subject, target, None, out);
        let _ = saved;
        if let Some(m) = meta {
            if let Some(t) = m.file_type {
                if let Some(c) = indicator_char(self.indicator, t, m.mode) {
                    out.push(c);
                }
            }
        }
    }

    fn shallow(&self) -> NameRenderer<'a> {
        NameRenderer {
            quoter: self.quoter.clone(),
            colors: self.colors,
            indicator: self.indicator,
            hyperlink: None,
            long: self.long,
            dir: Vec::new(),
            align_quotes: self.align_quotes,
        }
    }
}
