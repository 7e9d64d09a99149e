//! One file name with its frills: quoting, colour, hyperlink and the
//! `-F`/`-p` indicator character.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::entry::Entry;
use crate::format::color::{ColorSubject, ColorTable, Painter};
use crate::format::hyperlink::Hyperlinker;
use crate::format::quote::{Quoted, Quoter};
use crate::options::{Format, IndicatorStyle};
use crate::sys::FileType;

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
        FileType::Regular
            if style == IndicatorStyle::Classify && mode.is_some_and(|m| m & 0o111 != 0) =>
        {
            Some(b'*')
        }
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
    /// Where the first colour escape was written, if any.
    pub color_at: Option<usize>,
    /// Colour escape bytes written in the whole output before the name
    /// (dired offsets do not count them).
    pub escapes_before: usize,
}

/// Renders names for one listing.
pub struct NameRenderer<'a> {
    pub quoter: Quoter,
    pub colors: Option<&'a ColorTable>,
    /// Tracks the colour escapes written so far (one per run).
    pub painter: Option<Painter<'a>>,
    /// Output width, for the `cl` (clear to end of line) rule.
    line_length: usize,
    pub indicator: IndicatorStyle,
    pub hyperlink: Option<Hyperlinker>,
    long: bool,
    /// Directory of the current batch (empty for operands), for links.
    pub dir: Vec<u8>,
    /// Names that need no quotes get one leading space when other names in
    /// the same listing start with a quote (GNU's alignment).
    pub align_quotes: bool,
    /// Where a name is quoted before it is written: one buffer reused for
    /// every name, not an allocation per entry.
    scratch: std::cell::RefCell<Vec<u8>>,
}

impl<'a> NameRenderer<'a> {
    pub fn new(config: &'a Config) -> NameRenderer<'a> {
        NameRenderer {
            quoter: Quoter {
                unmeasurable: config
                    .gnu
                    .has(crate::gnu::Behaviour::UnmeasurableNamesHaveNoWidth),
                ..Quoter::for_names(
                    config.quoting,
                    config.hide_control_chars,
                    config.locale.charset,
                    config.indicator,
                )
            },
            colors: config.color.as_ref(),
            painter: config.color.as_ref().map(Painter::new),
            line_length: config.width,
            indicator: config.indicator,
            hyperlink: config
                .hyperlink
                .then(|| Hyperlinker::new(config.link_style)),
            long: config.format == Format::Long,
            dir: Vec::new(),
            align_quotes: false,
            scratch: Default::default(),
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
        let target = entry.link.as_ref().and_then(|l| l.meta.as_ref());
        let meta = entry.meta.as_ref().filter(|_| !entry.stat_failed);
        ColorSubject {
            capability: entry.capability,
            ..ColorSubject::from_metadata(
                entry.name_bytes(),
                entry.file_type,
                meta.map(|m| &**m),
                target,
            )
        }
    }

    /// Appends `name` quoted, in colour `style` and, with `--hyperlink`,
    /// linked to `link_path`. `start_col` is where the entry began on its
    /// line (for the colour's clear-to-end-of-line rule). `align`: the
    /// listing aligns quotes, which keeps a quoted name's outer quotes
    /// outside its hyperlink; `pad`: an unquoted name then gets a space
    /// (names do, link targets do not).
    #[allow(clippy::too_many_arguments)]
    fn write_name(
        &self,
        style: Option<&[u8]>,
        name: &[u8],
        link_path: Option<&[u8]>,
        start_col: usize,
        align: bool,
        pad: bool,
        out: &mut Vec<u8>,
    ) -> Rendered {
        let mut width: usize = 0;
        let mut scratch = self.scratch.borrow_mut();
        scratch.clear();
        let quoted = self.quoter.quote(name, &mut scratch);
        let pad = pad && align && !quoted.starts_with_quote;
        if pad {
            out.push(b' ');
            width += 1;
        }
        let before = out.len();
        let open = self
            .painter
            .as_ref()
            .is_some_and(|p| p.name_start(out, style));
        let color_at = (out.len() > before).then_some(before);
        let escapes_before = self.escapes_written();
        let link = self
            .hyperlink
            .as_ref()
            .zip(link_path)
            .and_then(|(h, p)| Some(h).zip(h.target(p)));
        // With aligned quotes GNU keeps a quoted name's outer quotes outside
        // the hyperlink.
        let outer =
            usize::from(link.is_some() && align && quoted.starts_with_quote && scratch.len() >= 2);
        out.extend_from_slice(&scratch[..outer]);
        if let Some((h, abs)) = &link {
            h.open(out, abs);
        }
        let name_start = out.len();
        out.extend_from_slice(&scratch[outer..scratch.len() - outer]);
        let name_end = out.len();
        if let Some((h, _)) = &link {
            h.close(out);
        }
        out.extend_from_slice(&scratch[scratch.len() - outer..]);
        if let Some(p) = &self.painter {
            p.name_end(
                out,
                open,
                start_col,
                scratch.len() + pad as usize,
                self.line_length,
            );
        }
        Rendered {
            width: width.wrapping_add(quoted.width),
            name_start,
            name_end,
            color_at,
            escapes_before,
        }
    }

    /// Marks the start of an entry (GNU colours the whole entry with `no`
    /// when that is set).
    /// Returns where a colour escape was written, if one was.
    pub fn entry_start(&self, out: &mut Vec<u8>) -> Option<usize> {
        let before = out.len();
        if let Some(p) = &self.painter {
            p.entry_start(out);
        }
        (out.len() > before).then_some(before)
    }

    /// Colour escape bytes written so far in the whole output.
    pub fn escapes_written(&self) -> usize {
        self.painter.as_ref().map_or(0, |p| p.written())
    }

    /// Writes what the colours need after all output.
    pub fn finish(&self, out: &mut Vec<u8>) {
        if let Some(p) = &self.painter {
            p.finish(out);
        }
    }

    /// The entry's path relative to the working directory.
    fn entry_path(&self, entry: &Entry) -> Vec<u8> {
        if self.dir.is_empty() {
            entry.name_bytes().to_vec()
        } else {
            crate::sys::path::entry_path(&self.dir, entry.name_bytes())
        }
    }

    /// Appends the entry's name (coloured, quoted) and its indicator.
    pub fn render(&self, entry: &Entry, start_col: usize, out: &mut Vec<u8>) -> Rendered {
        let path = self.hyperlink.as_ref().map(|_| self.entry_path(entry));
        let style = self.colors.and_then(|c| c.style(&Self::subject(entry)));
        let mut r = self.write_name(
            style,
            entry.name_bytes(),
            path.as_deref(),
            start_col,
            self.align_quotes,
            true,
            out,
        );
        // In the long format a symlink never shows its own `@`: after
        // `-> target` comes the target's indicator, and a link whose target
        // could not be read (or that could not be stat'ed) shows none.
        let link_in_long = self.long && entry.file_type == FileType::Symlink;
        if !link_in_long {
            if let Some(c) = indicator_char(self.indicator, entry.file_type, entry.mode()) {
                out.push(c);
                r.width = r.width.wrapping_add(1);
            }
        }
        r
    }

    /// Appends a symlink's target as `-l` shows it after ` -> `.
    pub fn render_link_target(
        &self,
        entry: &Entry,
        target: &[u8],
        start_col: usize,
        out: &mut Vec<u8>,
    ) {
        let style = self
            .colors
            .and_then(|c| c.target_style(&Self::subject(entry), target));
        // GNU links the target text to the same (resolved) file as the link.
        let path = self.hyperlink.as_ref().map(|_| self.entry_path(entry));
        // Its quotes stay outside the link as a name's do, without the pad.
        let align = self.align_quotes;
        self.write_name(style, target, path.as_deref(), start_col, align, false, out);
        let meta = entry.link.as_ref().and_then(|l| l.meta.as_ref());
        // The target's indicator, when the target was stat'ed: `-p` stats
        // it only where links are checked anyway (colours, grouping).
        if let Some(m) = meta {
            if let Some(t) = m.file_type() {
                if let Some(c) = indicator_char(self.indicator, t, m.mode()) {
                    out.push(c);
                }
            }
        }
    }
}
