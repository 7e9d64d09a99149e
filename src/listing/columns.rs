//! Layouts for pre-rendered cells: one per line, columns filled down (`-C`)
//! or across (`-x`), and comma-separated (`-m`), with GNU's column-fitting
//! rule and its tab/space padding.
#![forbid(unsafe_code)]

use crate::output::Sink;

/// One rendered name with its frills (inode, blocks, colour, indicator).
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub bytes: Vec<u8>,
    /// Display width in columns (escape sequences excluded).
    pub width: usize,
    /// Offset in `bytes` of the first colour escape, if any.
    pub color_at: Option<usize>,
}

/// Every column is at least one character plus two spaces wide.
const MIN_COLUMN_WIDTH: usize = 3;

/// Pads from column `from` to column `to` with tabs (when `tabsize` > 0
/// and a tab stop lies in between) and spaces, as GNU does.
///
/// Widths and positions are GNU's `size_t` arithmetic, wrapping: a name
/// that `mbsnwidth` (9.5 on) cannot measure counts `SIZE_MAX` columns, and
/// GNU's sums then wrap (see `Quoter::unmeasurable`).
pub fn indent(out: &mut impl Sink, mut from: usize, to: usize, tabsize: usize) {
    while from < to {
        if tabsize != 0 && to / tabsize > from.wrapping_add(1) / tabsize {
            out.put_byte(b'\t');
            from = from.wrapping_add(tabsize - from % tabsize);
        } else {
            out.put_byte(b' ');
            from = from.wrapping_add(1);
        }
    }
}

/// The widest layout that fits: the number of columns and their widths.
/// `vertical` fills columns top to bottom (`-C`), else left to right.
fn fit_columns(cells: &[Cell], line_width: usize, vertical: bool) -> Vec<usize> {
    let n = cells.len();
    let line_width = if line_width == 0 {
        usize::MAX
    } else {
        line_width
    };
    // The last column needs no separator: c columns can fit in 3c - 2.
    let max_cols = line_width.div_ceil(MIN_COLUMN_WIDTH).max(1).min(n.max(1));
    // For each candidate column count c (index c-1): its widths, total
    // line length, and whether it still fits.
    let mut widths: Vec<Vec<usize>> = (1..=max_cols).map(|c| vec![MIN_COLUMN_WIDTH; c]).collect();
    let mut line_len: Vec<usize> = (1..=max_cols).map(|c| c * MIN_COLUMN_WIDTH).collect();
    let mut valid = vec![true; max_cols];
    for (i, cell) in cells.iter().enumerate() {
        for c in 1..=max_cols {
            if !valid[c - 1] {
                continue;
            }
            let rows = n.div_ceil(c);
            let idx = if vertical { i / rows } else { i % c };
            let real = cell.width.wrapping_add(if idx == c - 1 { 0 } else { 2 });
            let col = &mut widths[c - 1][idx];
            if *col < real {
                line_len[c - 1] = line_len[c - 1].wrapping_add(real - *col);
                *col = real;
                valid[c - 1] = line_len[c - 1] < line_width;
            }
        }
    }
    let best = (1..=max_cols).rev().find(|&c| valid[c - 1]).unwrap_or(1);
    widths.swap_remove(best - 1)
}

/// `-C`: rows of columns, filled top to bottom. `prelude` (the colours'
/// one-time reset) goes before the first colour escape in output order.
pub fn vertical(
    out: &mut impl Sink,
    cells: &[Cell],
    line_width: usize,
    tabsize: usize,
    eol: u8,
    mut prelude: Option<Vec<u8>>,
) {
    if cells.is_empty() {
        return;
    }
    let widths = fit_columns(cells, line_width, true);
    let cols = widths.len();
    let rows = cells.len().div_ceil(cols);
    for row in 0..rows {
        let mut pos: usize = 0;
        let mut i = row;
        let mut col = 0;
        loop {
            let cell = &cells[i];
            match (cell.color_at, &prelude) {
                (Some(at), Some(p)) => {
                    out.put(&cell.bytes[..at]);
                    out.put(p);
                    out.put(&cell.bytes[at..]);
                    prelude = None;
                }
                _ => out.put(&cell.bytes),
            }
            i += rows;
            if i >= cells.len() {
                break;
            }
            indent(
                out,
                pos.wrapping_add(cell.width),
                pos.wrapping_add(widths[col]),
                tabsize,
            );
            pos = pos.wrapping_add(widths[col]);
            col += 1;
        }
        out.put_byte(eol);
        out.end_line();
    }
}

/// `-x`: rows of columns, filled left to right.
pub fn horizontal(out: &mut impl Sink, cells: &[Cell], line_width: usize, tabsize: usize, eol: u8) {
    if cells.is_empty() {
        return;
    }
    let widths = fit_columns(cells, line_width, false);
    let cols = widths.len();
    let mut pos: usize = 0;
    for (i, cell) in cells.iter().enumerate() {
        if i != 0 {
            if i % cols == 0 {
                out.put_byte(eol);
                out.end_line();
                pos = 0;
            } else {
                let prev = &cells[i - 1];
                let w = widths[(i - 1) % cols];
                indent(
                    out,
                    pos.wrapping_add(prev.width),
                    pos.wrapping_add(w),
                    tabsize,
                );
                pos = pos.wrapping_add(w);
            }
        }
        out.put(&cell.bytes);
    }
    out.put_byte(eol);
    out.end_line();
}

/// `-m`: names separated by `, ` (`sep` and a space), wrapping before a
/// name that would reach the line width; `-C` and `-x` without a width
/// limit (`sep` a space, never wrapping).
pub fn separated(out: &mut impl Sink, cells: &[Cell], line_width: usize, sep: u8, eol: u8) {
    if cells.is_empty() {
        return;
    }
    let mut pos = 0usize;
    for (i, cell) in cells.iter().enumerate() {
        if i != 0 {
            let len = cell.width;
            let fits = line_width == 0
                || (pos.wrapping_add(len).wrapping_add(2) < line_width
                    && pos <= usize::MAX.wrapping_sub(len).wrapping_sub(2));
            if fits {
                out.put(&[sep, b' ']);
                pos = pos.wrapping_add(2);
            } else {
                out.put(&[sep]);
                out.put_byte(eol);
                out.end_line();
                pos = 0;
            }
        }
        out.put(&cell.bytes);
        pos = pos.wrapping_add(cell.width);
    }
    out.put_byte(eol);
    out.end_line();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(names: &[&str]) -> Vec<Cell> {
        names
            .iter()
            .map(|n| Cell {
                bytes: n.as_bytes().to_vec(),
                width: n.len(),
                color_at: None,
            })
            .collect()
    }

    #[test]
    fn indent_uses_tabs_at_tab_stops() {
        let mut v = Vec::new();
        indent(&mut v, 3, 16, 8);
        assert_eq!(v, b"\t\t");
        v.clear();
        indent(&mut v, 3, 16, 0);
        assert_eq!(v, b"             ");
    }

    #[test]
    fn vertical_fills_columns_first() {
        let mut v = Vec::new();
        vertical(
            &mut v,
            &cells(&["a", "b", "c", "d", "e"]),
            8,
            0,
            b'\n',
            None,
        );
        assert_eq!(String::from_utf8(v).unwrap(), "a  c  e\nb  d\n");
    }

    #[test]
    fn commas_wrap_before_the_width() {
        let mut v = Vec::new();
        separated(&mut v, &cells(&["aaa", "bbb", "ccc"]), 10, b',', b'\n');
        assert_eq!(String::from_utf8(v).unwrap(), "aaa, bbb,\nccc\n");
    }
}
