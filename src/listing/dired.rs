//! `--dired`: byte offsets of every listed name and directory heading,
//! printed after the listing for Emacs.
#![forbid(unsafe_code)]

use crate::options::QuotingStyle;
use crate::output::Output;

#[derive(Default)]
pub struct Dired {
    names: Vec<(usize, usize)>,
    subdirs: Vec<(usize, usize)>,
}

fn write_offsets(out: &mut Output, label: &[u8], offsets: &[(usize, usize)]) {
    let mut line = label.to_vec();
    for (start, end) in offsets {
        line.extend_from_slice(format!(" {start} {end}").as_bytes());
    }
    line.push(b'\n');
    out.write(&line);
}

impl Dired {
    /// Records the byte range of a name in a long listing.
    pub fn record(&mut self, start: usize, end: usize) {
        self.names.push((start, end));
    }

    /// Records the byte range of a directory name in a heading.
    pub fn record_subdir(&mut self, start: usize, end: usize) {
        self.subdirs.push((start, end));
    }

    /// Prints the trailer: `//DIRED//`, `//SUBDIRED//` (when headings were
    /// printed) and `//DIRED-OPTIONS//`.
    pub fn finish(&self, out: &mut Output, quoting_style_name: &str) {
        if !self.names.is_empty() {
            write_offsets(out, b"//DIRED//", &self.names);
        }
        if !self.subdirs.is_empty() {
            write_offsets(out, b"//SUBDIRED//", &self.subdirs);
        }
        out.write(format!("//DIRED-OPTIONS// --quoting-style={quoting_style_name}\n").as_bytes());
    }
}

/// The `--quoting-style` word for a style, as the trailer names it.
pub fn style_name(style: QuotingStyle) -> &'static str {
    match style {
        QuotingStyle::Literal => "literal",
        QuotingStyle::Shell => "shell",
        QuotingStyle::ShellAlways => "shell-always",
        QuotingStyle::ShellEscape => "shell-escape",
        QuotingStyle::ShellEscapeAlways => "shell-escape-always",
        QuotingStyle::C => "c",
        QuotingStyle::CMaybe => "c-maybe",
        QuotingStyle::Escape => "escape",
        QuotingStyle::Locale => "locale",
        QuotingStyle::CLocale => "clocale",
    }
}
