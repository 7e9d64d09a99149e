//! Printing one batch of entries (the file operands, or one directory's
//! contents) in the configured format, or as `--json` records.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::entry::Entry;
use crate::format::columns::{self, Cell};
use crate::format::json::JsonWriter;
use crate::format::long::LongPrinter;
use crate::format::name::NameRenderer;
use crate::format::quote::listing_aligns_quotes;
use crate::options::Format;
use crate::output::{Output, Sink};

/// Formats batches of entries; holds what is computed once per run.
pub struct Printer<'a> {
    pub config: &'a Config,
    pub names: NameRenderer<'a>,
    /// Only built for the long format (it loads the time zone).
    pub long: Option<LongPrinter<'a>>,
    /// Only built for `--json`, which replaces every text layout.
    pub json: Option<JsonWriter<'a>>,
    scratch: Vec<u8>,
}

/// Right-aligns `text` in `width` columns.
pub fn pad_left(out: &mut Vec<u8>, text: &[u8], width: usize) {
    out.resize(out.len() + width.saturating_sub(text.len()), b' ');
    out.extend_from_slice(text);
}

impl<'a> Printer<'a> {
    pub fn new(config: &'a Config) -> Printer<'a> {
        Printer {
            config,
            names: NameRenderer::new(config),
            long: (config.format == Format::Long && !config.json).then(|| LongPrinter::new(config)),
            json: config.json.then(|| JsonWriter::new(config)),
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
    fn needs_quote_alignment(&mut self, entries: &[Entry]) -> bool {
        let c = self.config;
        if !listing_aligns_quotes(c.quoting, c.format, c.width) {
            return false;
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
            b"  total ".to_vec()
        } else {
            b"total ".to_vec()
        };
        self.config.block_size.blocks_text(blocks, &mut line);
        line.push(self.eol());
        out.write(&line);
    }

    /// Prints a batch of entries in the configured format.
    pub fn print(&mut self, out: &mut Output, entries: &[Entry]) {
        self.print_measuring(out, entries, &[]);
    }

    /// Prints `entries`, sizing the metadata columns over `also_measured`
    /// as well (the directory operands, when printing the file operands).
    pub fn print_measuring(
        &mut self,
        out: &mut Output,
        entries: &[Entry],
        also_measured: &[Entry],
    ) {
        if let Some(json) = &mut self.json {
            json.print(out, entries);
            return;
        }
        self.names.align_quotes = self.needs_quote_alignment(entries);
        if let Some(long) = &mut self.long {
            long.print(out, entries, also_measured, &self.names);
            return;
        }
        let eol = self.eol();
        let width = self.config.width;
        // Without a width limit everything is on one line: GNU pads with spaces.
        let tabsize = if width == 0 { 0 } else { self.config.tabsize };
        match self.config.format {
            // Nothing to measure across entries but the prefixes: stream.
            Format::OneLine | Format::Long => self.print_one_per_line(out, entries, also_measured),
            Format::Vertical => {
                let (cells, prelude) = self.vertical_cells(entries, also_measured);
                columns::vertical(out, &cells, width, tabsize, eol, prelude);
            }
            Format::Horizontal => {
                let cells = self.cells(entries, also_measured);
                columns::horizontal(out, &cells, width, tabsize, eol);
            }
            Format::Commas => columns::commas(out, &self.cells(entries, also_measured), width, eol),
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
        let context = if config.context && !commas {
            entries
                .iter()
                .map(|e| crate::format::width::text_width(context_text(e)))
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
            // Padded by bytes, as GNU's printf("%*s").
            pad_left(&mut cell.bytes, &block_text(config, e), p.blocks);
            cell.bytes.push(b' ');
        }
        if config.context {
            let c = context_text(e);
            cell.bytes.extend_from_slice(c);
            let w = crate::format::width::text_width(c);
            cell.bytes
                .resize(cell.bytes.len() + p.context.saturating_sub(w), b' ');
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
        cell.width += r.width;
        cell.color_at = cell.color_at.or(r.color_at);
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
        let p = self.prefixes(entries, also_measured);
        let eol = self.eol();
        let mut cell = Cell::default();
        for e in entries {
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

/// The `-Z` text of an entry (`?` when unknown).
pub fn context_text(e: &Entry) -> &[u8] {
    e.context.as_deref().unwrap_or(b"?")
}

/// The `-s` column of an entry.
pub fn block_text(config: &Config, e: &Entry) -> Vec<u8> {
    match e.meta.as_ref().and_then(|m| m.blocks()) {
        Some(b) => {
            let mut out = Vec::new();
            config.block_size.blocks_text(b, &mut out);
            out
        }
        None => b"?".to_vec(),
    }
}

/// Display columns of a number (a size, a block count): its length unless
/// a locale's separator made it non-ASCII.
pub fn number_columns(text: &[u8]) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        crate::sys::mbwidth::text_columns(text)
    }
}

/// Appends the number `text` right-aligned to `width` display columns (GNU
/// pads the `-l` size and block columns by `mbswidth`).
pub fn pad_left_columns(out: &mut Vec<u8>, text: &[u8], width: usize) {
    let cols = number_columns(text);
    out.resize(out.len() + width.saturating_sub(cols), b' ');
    out.extend_from_slice(text);
}

pub fn inode_text(e: &Entry) -> String {
    match e.meta.as_ref().and_then(|m| m.ino()) {
        Some(ino) => ino.to_string(),
        None => "?".to_string(),
    }
}

impl Printer<'_> {
    /// Prints `DIR:` before a directory's listing.
    pub fn print_heading(&mut self, out: &mut Output, path: &[u8]) {
        if let Some(json) = &mut self.json {
            json.set_dir(path);
            return;
        }
        let dired = self.dired();
        let base = out.buffer_base();
        let buf = out.buffer();
        if dired {
            buf.extend_from_slice(b"  ");
        }
        if let Some(h) = &self.names.hyperlink {
            h.open(buf, path);
        }
        let start = buf.len();
        self.names.quoter.for_heading().quote(path, buf);
        let end = buf.len();
        if let Some(h) = &self.names.hyperlink {
            h.close(buf);
        }
        if let (true, Some(long)) = (dired, &mut self.long) {
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
        if let (true, Some(long)) = (self.dired(), &self.long) {
            let style = crate::format::dired::style_name(self.config.quoting);
            long.dired.finish(out, style);
        }
    }
}
