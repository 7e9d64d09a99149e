//! Diagnostics and the exit status, in one place.
//!
//! GNU ls exits 0 when all went well, 1 for minor trouble (e.g. a
//! subdirectory it cannot open) and 2 for serious trouble (e.g. an operand
//! it cannot access, bad usage, a write error).
#![forbid(unsafe_code)]

use std::io::Write;

use crate::format::quote::{quote_diagnostic, quote_when_needed};
use crate::output::Output;

pub const EXIT_MINOR: i32 = 1;
pub const EXIT_SERIOUS: i32 = 2;

/// The C library's text for an error, without Rust's ` (os error N)`.
pub fn strerror(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Writes `ls: MESSAGE\n` to stderr after flushing stdout.
pub fn print_diagnostic(out: &mut Output, message: &[u8]) {
    out.flush();
    let mut line = Vec::with_capacity(message.len() + 8);
    line.extend_from_slice(crate::cli::program_name());
    line.extend_from_slice(b": ");
    line.extend_from_slice(message);
    line.push(b'\n');
    let _ = std::io::stderr().lock().write_all(&line);
}

/// Tracks the worst trouble seen, which becomes the exit status.
#[derive(Debug, Default)]
pub struct Status {
    code: i32,
    /// The locale is UTF-8 (names in messages keep printable UTF-8).
    pub utf8: bool,
}

impl Status {
    pub fn new(utf8: bool) -> Status {
        Status { code: 0, utf8 }
    }

    pub fn code(&self) -> i32 {
        self.code
    }

    pub fn raise(&mut self, code: i32) {
        self.code = self.code.max(code);
    }

    /// Reports `NAME: ERRNO-TEXT` (GNU's form for a failed ACL or context
    /// probe), leaving the status as it is.
    pub fn probe_error(&mut self, out: &mut Output, name: &[u8], err: &std::io::Error) {
        let mut msg = quote_when_needed(name, self.utf8);
        msg.extend_from_slice(b": ");
        msg.extend_from_slice(strerror(err).as_bytes());
        print_diagnostic(out, &msg);
    }

    /// Reports `WHAT 'NAME': ERRNO-TEXT` (e.g. `cannot access`), serious
    /// for command-line operands, minor otherwise.
    pub fn file_error(
        &mut self,
        out: &mut Output,
        what: &str,
        name: &[u8],
        err: &std::io::Error,
        operand: bool,
    ) {
        let mut msg = Vec::new();
        msg.extend_from_slice(what.as_bytes());
        msg.push(b' ');
        msg.extend_from_slice(&quote_diagnostic(name, self.utf8));
        msg.extend_from_slice(b": ");
        msg.extend_from_slice(strerror(err).as_bytes());
        print_diagnostic(out, &msg);
        self.raise(if operand { EXIT_SERIOUS } else { EXIT_MINOR });
    }
}
