//! One file name with its frills: quoting, colour, hyperlink and the
//! `-F`/`-p` indicator character.
#![forbid(unsafe_code)]

use crate::config::{Config, IndicatorStyle};
use crate::entry::Entry;
use crate::format::color::{ColorSubject, ColorTable};
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

/// Renders names for one listing.
pub struct NameRenderer<'a> {
    pub quoter: Quoter,
    pub colors: Option<&'a ColorTable>,
    pub indicator: IndicatorStyle,
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
    fn subject<'e>(entry: &'e Entry) -> ColorSubject<'e> {
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

    /// Appends the entry's name (coloured, quoted) and its indicator.
    /// Returns the display width.
    pub fn render(&self, entry: &Entry, out: &mut Vec<u8>) -> usize {
        let mut width = 0;
        let style = self.colors.and_then(|c| c.style(&Self::subject(entry)).map(|s| (c, s.to_vec())));
        let start = out.len();
        if self.align_quotes {
            out.push(b' ');
            width += 1;
        }
        let name_start = out.len();
        let quoted = self.quoter.quote(entry.name_bytes(), out);
        if self.align_quotes && quoted.starts_with_quote {
            // Quoted names carry their own leading quote instead of a space.
            out.remove(start);
            width -= 1;
        }
        width += quoted.width;
        if let Some((colors, seq)) = style {
            let name_start = if out.len() > name_start && self.align_quotes && !quoted.starts_with_quote {
                name_start
            } else {
                start
            };
            let name = out.split_off(name_start);
            colors.write_colored(out, &seq, &name);
        }
        let mode = entry.mode();
        let file_type = entry.file_type;
        if let Some(c) = indicator_char(self.indicator, file_type, mode) {
            out.push(c);
            width += 1;
        }
        width
    }
}
