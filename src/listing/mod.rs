//! Printing one batch of entries (the file operands, or one directory's
//! contents) in the configured layout, or as `--json` records: the
//! layouts, over the value formatters of `format`.
#![forbid(unsafe_code)]

pub mod columns;
pub mod dired;
mod fields;
pub mod json;
mod links;
pub mod long;
pub mod name;

use crate::config::Config;
use crate::entry::Entry;
use crate::format::quote::listing_aligns_quotes;
use crate::gnu::Behaviour;
use crate::options::Format;
use crate::output::{Output, Sink};
use crate::sys::cache::prefetch;
use columns::Cell;
use fields::{
    block_text, context_text, fetching_ahead, inode_text, number_columns, pad_left,
    pad_left_columns, FETCH_AHEAD,
};
use json::JsonWriter;
use long::LongPrinter;
use name::NameRenderer;

/// Formats batches of entries; holds what is computed once per run.
pub struct Printer<'a> {
    pub config: &'a Config,
    pub names: NameRenderer<'a>,
    pub layout: Layout<'a>,
    /// The catalog's word for `total`, translated once (when a listing
    /// can have a total line).
    total: Vec<u8>,
    scratch: Vec<u8>,
}

/// The one layout a run prints in, with what it computes once.
pub enum Layout<'a> {
    /// `-1`: one name per line, streamed.
    OneLine,
    /// `-C`: columns filled top to bottom.
    Vertical,
    /// `-x`: columns filled across.
    Horizontal,
    /// `-m`: names separated by commas, wrapped at the width.
    Commas,
    /// `-l` and its variants (built only here: it loads the time zone).
    Long(LongPrinter<'a>),
    /// `--json`, which replaces every text layout.
    Json(JsonWriter<'a>),
}

impl<'a> Layout<'a> {
    pub fn new(config: &'a Config) -> Layout<'a> {
        if config.json {
            return Layout::Json(JsonWriter::new(config));
        }
        match config.format {
            Format::OneLine => Layout::OneLine,
            Format::Vertical => Layout::Vertical,
            Format::Horizontal => Layout::Horizontal,
            Format::Commas => Layout::Commas,
            Format::Long => Layout::Long(LongPrinter::new(config)),
        }
    }
}

impl<'a> Printer<'a> {
    pub fn new(config: &'a Config) -> Printer<'a> {
        Printer {
            config,
            names: NameRenderer::new(config),
            layout: Layout::new(config),
            total: if config.format == Format::Long || config.size_blocks {
                crate::sys::intl::tr("total")
            } else {
                Vec::new()
            },
            scratch: Vec::new(),
        }
    }

    pub fn eol(&self) -> u8 {
        if self.config.zero {
            0
        } else {
            b'\n'
        }
    }

    /// GNU shifts unquoted names right by one column when another name of
    /// the same listing starts with a quote (shell styles, `-l`/`-C`/`-x`).
    fn needs_quote_alignment(&mut self, entries: &[Entry], quoted_elsewhere: bool) -> bool {
        let c = self.config;
        if !listing_aligns_quotes(c.quoting, c.format, c.width) {
            return false;
        }
        if quoted_elsewhere {
            return true;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let any = entries.iter().any(|e| {
            self.names
                .measure(e.name_bytes(), &mut scratch)
                .starts_with_quote
        });
        self.scratch = scratch;
        any
    }

    /// Prints `total N` for a directory listing in long or `-s` format.
    pub fn print_total(&self, out: &mut Output, entries: &[Entry]) {
        let blocks: u64 = entries
            .iter()
            .filter_map(|e| e.meta.as_ref().and_then(|m| m.blocks()))
            .sum();
        let mut line = if self.dired() {
            b"  ".to_vec()
        } else {
            Vec::new()
        };
        line.extend_from_slice(&self.total);
        line.push(b' ');
        self.config.block_size.blocks_text(blocks, &mut line);
        line.push(self.eol());
        out.write(&line);
    }

    /// Owner and group lookups given up (`--timeout`) since the last call:
    /// their ids were printed as numbers.
    pub fn take_given_up(&mut self) -> Vec<crate::format::owner::GivenUp> {
        match &mut self.layout {
            Layout::Long(long) => long.take_given_up(),
            Layout::Json(json) => json.take_given_up(),
            _ => Vec::new(),
        }
    }

    /// Prints a batch of entries in the configured format.
    pub fn print(&mut self, out: &mut Output, entries: &[Entry]) {
        self.print_measuring(out, entries, &[], false);
    }

    /// Prints `entries`, sizing the metadata columns over `also_measured`
    /// as well (the directory operands, when printing the file operands);
    /// `quoted_elsewhere`: a name outside `entries` (another operand, even
    /// a missing one) needs quotes, which aligns these too.
    pub fn print_measuring(
        &mut self,
        out: &mut Output,
        entries: &[Entry],
        also_measured: &[Entry],
        quoted_elsewhere: bool,
    ) {
        if !matches!(self.layout, Layout::Json(_)) {
            self.names.align_quotes = self.needs_quote_alignment(entries, quoted_elsewhere);
        }
        let eol = self.eol();
        let width = self.config.width;
        let tabsize = self.config.tabsize;
        match &mut self.layout {
            // Without a width limit GNU writes the columns layouts as one
            // line of names two spaces apart, measuring nothing.
            Layout::Vertical | Layout::Horizontal if width == 0 => {
                let cells = self.cells(entries, also_measured);
                columns::separated(out, &cells, 0, b' ', eol);
            }
            Layout::Json(json) => return json.print(out, entries),
            Layout::Long(long) => return long.print(out, entries, also_measured, &self.names),
            // Nothing to measure across entries but the prefixes: stream.
            Layout::OneLine => self.print_one_per_line(out, entries, also_measured),
            Layout::Vertical => {
                let (cells, prelude) = self.vertical_cells(entries, also_measured);
                columns::vertical(out, &cells, width, tabsize, eol, prelude);
            }
            Layout::Horizontal => {
                let cells = self.cells(entries, also_measured);
                columns::horizontal(out, &cells, width, tabsize, eol);
            }
            Layout::Commas => {
                columns::separated(out, &self.cells(entries, also_measured), width, b',', eol)
            }
        }
        out.write(&[]);
    }

    /// The cells for `-C`, and the colours' one-time reset: `-C` prints
    /// entries in another order than they are rendered, so the layout
    /// places the reset before the first colour it writes.
    fn vertical_cells(
        &self,
        entries: &[Entry],
        also_measured: &[Entry],
    ) -> (Vec<Cell>, Option<Vec<u8>>) {
        let painter = self.names.painter.as_ref().filter(|p| !p.used());
        // Marked used first, so that rendering does not emit it itself.
        let prelude = painter.map(|p| {
            p.set_used(true);
            p.reset_sequence()
        });
        let cells = self.cells(entries, also_measured);
        let any_color = cells.iter().any(|c| c.color_at.is_some());
        if let (false, Some(p)) = (any_color, painter) {
            p.set_used(false);
        }
        (cells, prelude.filter(|_| any_color))
    }

    /// The widths of the `-i`, `-s` and `-Z` prefixes over this batch.
    fn prefixes(&self, entries: &[Entry], also_measured: &[Entry]) -> Prefixes {
        let config = self.config;
        let commas = config.format == Format::Commas;
        // GNU sizes these columns from the entries it could stat: a `?` is
        // printed but not measured. `-m` pads nothing.
        // Widths are display columns (GNU's mbswidth): a grouped size may
        // hold a multibyte separator.
        let widest = |on: bool, text: &dyn Fn(&Entry) -> Vec<u8>| {
            if !on || commas {
                return 0;
            }
            entries
                .iter()
                .chain(also_measured)
                .map(|e| match text(e) {
                    t if t == b"?" => 0,
                    t => number_columns(&t),
                })
                .max()
                .unwrap_or(0)
        };
        // The context column is as wide as the longest context in bytes
        // (GNU's strlen), and printed right-aligned by bytes (`%*s`).
        let context = if config.context && !commas {
            entries
                .iter()
                .map(|e| context_text(config, e).len())
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        Prefixes {
            inode: widest(config.inode, &|e| inode_text(e).into_bytes()),
            blocks: widest(config.size_blocks, &|e| block_text(config, e)),
            context,
        }
    }

    /// Renders one entry with its `-i`, `-s` and `-Z` prefixes into `cell`.
    fn render_cell(&self, e: &Entry, p: &Prefixes, cell: &mut Cell) {
        let config = self.config;
        cell.bytes.clear();
        cell.color_at = self.names.entry_start(&mut cell.bytes);
        let prefix = cell.bytes.len();
        if config.inode {
            pad_left(&mut cell.bytes, inode_text(e).as_bytes(), p.inode);
            cell.bytes.push(b' ');
        }
        if config.size_blocks {
            // Padded by bytes, as GNU's printf("%*s"), until 9.8 padded by
            // display width (a grouped count may hold a multibyte
            // separator).
            let text = block_text(config, e);
            if config.gnu.has(Behaviour::BlockColumnByDisplayWidth) {
                pad_left_columns(&mut cell.bytes, &text, p.blocks);
            } else {
                pad_left(&mut cell.bytes, &text, p.blocks);
            }
            cell.bytes.push(b' ');
        }
        if config.context {
            pad_left(&mut cell.bytes, context_text(config, e), p.context);
            cell.bytes.push(b' ');
        }
        // The layout uses the column widths, not what was printed (they
        // differ for a `?` wider than its column, as in GNU).
        cell.width = if config.format == Format::Commas {
            cell.bytes.len() - prefix
        } else {
            usize::from(config.inode) * (p.inode + 1)
                + usize::from(config.size_blocks) * (p.blocks + 1)
                + usize::from(config.context) * (p.context + 1)
        };
        let r = self.names.render(e, 0, &mut cell.bytes);
        cell.width = cell.width.wrapping_add(r.width);
        cell.color_at = cell.color_at.or(r.color_at);
    }

    /// Names are printed bare: no prefix column, no colour, no link, no
    /// indicator (one name per line, this is the common `ls | …`).
    fn bare_names(&self) -> bool {
        let (c, n) = (self.config, &self.names);
        !(c.inode || c.size_blocks || c.context)
            && n.painter.is_none()
            && n.hyperlink.is_none()
            && n.indicator == crate::options::IndicatorStyle::None
    }

    /// A batch is printed one bare name per line: it can then be printed in
    /// its sorted order without being sorted in place.
    pub fn prints_bare_lines(&self) -> bool {
        matches!(self.layout, Layout::OneLine) && self.bare_names()
    }

    /// Prints the quoted names of `entries` one per line, as they are or
    /// in `order` (the indices of the entries in the order listed). The
    /// names are written straight into the output buffer; in `order`, the
    /// entries and their names are fetched a few lines ahead.
    pub fn print_bare_lines(&self, out: &mut Output, entries: &[Entry], order: Option<&[usize]>) {
        let eol = self.eol();
        let mut line = |e: &Entry| {
            let buf = out.buffer();
            self.names.quoter.quote_bytes(e.name_bytes(), buf);
            buf.push(eol);
            out.end_line();
        };
        match order {
            None => entries.iter().for_each(line),
            Some(order) => {
                for (k, &i) in order.iter().enumerate() {
                    if let Some(&ahead) = order.get(k + 2 * FETCH_AHEAD) {
                        prefetch(&entries[ahead]);
                    }
                    if let Some(&ahead) = order.get(k + FETCH_AHEAD) {
                        prefetch(entries[ahead].name_bytes());
                    }
                    line(&entries[i]);
                }
            }
        }
        out.write(&[]);
    }

    /// Every entry rendered, for the layouts that need all widths first.
    fn cells(&self, entries: &[Entry], also_measured: &[Entry]) -> Vec<Cell> {
        let p = self.prefixes(entries, also_measured);
        entries
            .iter()
            .map(|e| {
                let mut cell = Cell::default();
                self.render_cell(e, &p, &mut cell);
                cell
            })
            .collect()
    }

    /// One entry per line, each written as soon as it is rendered: memory
    /// does not grow with the directory.
    fn print_one_per_line(&self, out: &mut Output, entries: &[Entry], also_measured: &[Entry]) {
        if self.bare_names() {
            self.print_bare_lines(out, entries, None);
            return;
        }
        let p = self.prefixes(entries, also_measured);
        let eol = self.eol();
        let mut cell = Cell::default();
        for e in fetching_ahead(entries) {
            self.render_cell(e, &p, &mut cell);
            out.put(&cell.bytes);
            out.put_byte(eol);
            out.end_line();
        }
    }
}

/// Widths of the columns before the name in the short formats.
struct Prefixes {
    inode: usize,
    blocks: usize,
    context: usize,
}

impl Printer<'_> {
    /// Prints `DIR:` before a directory's listing.
    pub fn print_heading(&mut self, out: &mut Output, path: &[u8]) {
        if let Layout::Json(json) = &mut self.layout {
            json.set_dir(path);
            return;
        }
        let dired = self.dired();
        let base = out.buffer_base();
        let buf = out.buffer();
        if dired {
            buf.extend_from_slice(b"  ");
        }
        let link = self.names.hyperlink.as_ref();
        let link = link.and_then(|h| Some(h).zip(h.target(path)));
        if let Some((h, abs)) = &link {
            h.open(buf, abs);
        }
        let start = buf.len();
        self.names.quoter.for_heading().quote(path, buf);
        let end = buf.len();
        if let Some((h, _)) = &link {
            h.close(buf);
        }
        if let (true, Layout::Long(long)) = (dired, &mut self.layout) {
            let escapes = self.names.escapes_written();
            long.dired
                .record_subdir(base + start - escapes, base + end - escapes);
        }
        buf.push(b':');
        buf.push(b'\n');
        out.write(&[]);
    }
}

impl Printer<'_> {
    /// `--dired` is in effect (GNU ignores it outside the long format).
    fn dired(&self) -> bool {
        self.config.dired && self.config.format == Format::Long
    }

    /// The `--dired` trailer, after everything else.
    pub fn finish(&mut self, out: &mut Output) {
        if let (true, Layout::Long(long)) = (self.dired(), &self.layout) {
            let style = dired::style_name(self.config.quoting);
            long.dired.finish(out, style);
        }
    }
}
