//! Writing colour escape sequences around names, the way GNU ls brackets
//! them, including the one-time reset before the first sequence and the
//! final restore.
//!
//! Protocol for the caller (one [`Painter`] per `ls` run, shared by all
//! directories listed):
//!
//! 1. At the start of every entry call [`Painter::entry_start`]: at the
//!    start of its line in `-l`, before any `-i`/`-s`/`-Z` columns. It
//!    writes `lc no rc` only when `no` is coloured (nothing by default).
//! 2. For each name (the entry's name, and in `-l` the symlink target after
//!    ` -> `), with `style` from [`ColorTable::style`] or
//!    [`ColorTable::target_style`]:
//!    - write the quoting pad space (shell-escape alignment) *first*, uncoloured;
//!    - `let open = painter.name_start(out, style);`
//!    - the hyperlink start (OSC 8), the quoted name, the hyperlink end;
//!    - `painter.name_end(out, open, start_col, len, line_length)` where
//!      `len` is the byte length of the quoted name plus the pad (0 or 1),
//!      `start_col` the column where the *entry* began (before `-i`/`-s`
//!      columns; in `-l` the byte length of the line written so far before
//!      the name / before the target name), `line_length` the output width
//!      (0: unlimited).
//!    - then the `-F` indicator character, uncoloured (after the reset).
//! 3. Once at the very end of all output call [`Painter::finish`].
//!
//! Nothing is ever written for uncoloured names when `no` is uncoloured, and
//! directory headers, `total` lines and separators are never coloured. While
//! colours are on, GNU also forces the tab size to 0 (no tabs in `-C`/`-x`).
#![forbid(unsafe_code)]

use super::{ColorTable, Ind};

/// Tracks whether any colour sequence was written yet.
#[derive(Clone, Debug)]
pub struct Painter<'t> {
    table: &'t ColorTable,
    used: std::rc::Rc<std::cell::Cell<bool>>,
    /// Escape bytes written so far (GNU's dired offsets leave them out).
    written: std::cell::Cell<usize>,
}

impl<'t> Painter<'t> {
    pub fn new(table: &'t ColorTable) -> Painter<'t> {
        Painter {
            table,
            used: std::rc::Rc::new(std::cell::Cell::new(false)),
            written: std::cell::Cell::new(0),
        }
    }

    /// Whether anything has been written (GNU's `used_color`).
    pub fn used(&self) -> bool {
        self.used.get()
    }

    /// Writes `bytes`, preceded the very first time by the reset sequence
    /// (`ec` if set, else `lc rs rc`: `\e[0m` by default).
    fn put(&self, out: &mut Vec<u8>, bytes: &[u8]) {
        if !self.used.get() {
            self.used.set(true);
            self.reset(out);
        }
        out.extend_from_slice(bytes);
        self.written.set(self.written.get() + bytes.len());
    }

    fn put_ind(&self, out: &mut Vec<u8>, ind: Ind) {
        let t = self.table;
        self.put(out, t.get(ind).unwrap_or_default());
    }

    /// GNU's end-of-name text: `ec` when defined, else `lc rs rc`.
    fn reset(&self, out: &mut Vec<u8>) {
        if self.table.get(Ind::Ec).is_some() {
            self.put_ind(out, Ind::Ec);
        } else {
            self.put_ind(out, Ind::Lc);
            self.put_ind(out, Ind::Rs);
            self.put_ind(out, Ind::Rc);
        }
    }

    /// Marks the one-time reset as written (or not). Layouts that print
    /// entries in another order than they were rendered (`-C`) suspend it
    /// while rendering and insert [`Painter::reset_sequence`] themselves
    /// before the first coloured entry they print.
    pub fn set_used(&self, used: bool) {
        self.used.set(used);
    }

    /// The reset GNU writes before its first colour sequence.
    pub fn reset_sequence(&self) -> Vec<u8> {
        let was = self.used.replace(true);
        let count = self.written.get();
        let mut seq = Vec::new();
        self.reset(&mut seq);
        self.used.set(was);
        self.written.set(count);
        seq
    }

    /// The flag telling whether any colour was written (for the signal
    /// handling in `output`).
    pub fn used_flag(&self) -> std::rc::Rc<std::cell::Cell<bool>> {
        std::rc::Rc::clone(&self.used)
    }

    /// Escape bytes written so far.
    pub fn written(&self) -> usize {
        self.written.get()
    }

    /// Start of an entry: `lc no rc` when `no` is coloured.
    pub fn entry_start(&self, out: &mut Vec<u8>) {
        if self.table.is_colored(Ind::No) {
            self.put_ind(out, Ind::Lc);
            self.put_ind(out, Ind::No);
            self.put_ind(out, Ind::Rc);
        }
    }

    /// Opens the colour of a name: `lc style rc`, preceded by `lc rc` when
    /// `no` is coloured. Returns whether [`Painter::name_end`] must close
    /// it (a style was given, or `no` is coloured).
    pub fn name_start(&self, out: &mut Vec<u8>, style: Option<&[u8]>) -> bool {
        let normal = self.table.is_colored(Ind::No);
        if let Some(style) = style {
            if normal {
                self.put_ind(out, Ind::Lc);
                self.put_ind(out, Ind::Rc);
            }
            self.put_ind(out, Ind::Lc);
            self.put(out, style);
            self.put_ind(out, Ind::Rc);
        }
        style.is_some() || normal
    }

    /// Closes a name opened by [`Painter::name_start`] (when `open`): the
    /// reset, then `cl` (`\e[K`) when `line_length > 0` and the `len` bytes
    /// starting at column `start_col` cross a multiple of `line_length`.
    pub fn name_end(
        &self,
        out: &mut Vec<u8>,
        open: bool,
        start_col: usize,
        len: usize,
        line_length: usize,
    ) {
        if !open {
            return;
        }
        self.reset(out);
        let last = start_col.wrapping_add(len).wrapping_sub(1);
        let first_row = start_col.checked_div(line_length);
        if first_row.is_some() && first_row != last.checked_div(line_length) {
            self.put_ind(out, Ind::Cl);
        }
    }

    /// `name_start`, the name bytes, `name_end` (no pad, no hyperlink).
    pub fn write_name(
        &self,
        out: &mut Vec<u8>,
        style: Option<&[u8]>,
        name: &[u8],
        start_col: usize,
        line_length: usize,
    ) {
        let open = self.name_start(out, style);
        out.extend_from_slice(name);
        self.name_end(out, open, start_col, name.len(), line_length);
    }

    /// After all output: `lc rc` if anything was coloured and `lc`/`rc` are
    /// not the defaults `\e[` and `m` (then nothing is needed).
    pub fn finish(&self, out: &mut Vec<u8>) {
        let t = self.table;
        let default = t.get(Ind::Lc) == Some(b"\x1b[") && t.get(Ind::Rc) == Some(b"m");
        if self.used.get() && !default {
            self.put_ind(out, Ind::Lc);
            self.put_ind(out, Ind::Rc);
        }
    }

    /// What GNU writes to leave the terminal's default colour when a
    /// signal interrupts coloured output: `lc rc`.
    pub fn restore_sequence(&self) -> Vec<u8> {
        let t = self.table;
        let mut seq = t.get(Ind::Lc).unwrap_or_default().to_vec();
        seq.extend_from_slice(t.get(Ind::Rc).unwrap_or_default());
        seq
    }
}
