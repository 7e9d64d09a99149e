//! Diagnostics and the exit status, in one place.
//!
//! GNU ls exits 0 when all went well, 1 for minor trouble (e.g. a
//! subdirectory it cannot open) and 2 for serious trouble (e.g. an operand
//! it cannot access, bad usage, a write error).
#![forbid(unsafe_code)]

use std::io::Write;

use crate::format::owner::{GivenUp, Kind};
use crate::format::quote::{quote_diagnostic, quote_when_needed};
use crate::output::Output;
use crate::sys::charset::Charset;
use crate::sys::intl;

pub const EXIT_MINOR: i32 = 1;
pub const EXIT_SERIOUS: i32 = 2;

/// The C library's text for an error (`strerror`, in the locale's
/// language and codeset), without Rust's ` (os error N)`.
pub fn strerror(err: &std::io::Error) -> Vec<u8> {
    if let Some(errno) = err.raw_os_error() {
        return intl::strerror(errno);
    }
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(i) => text.as_bytes()[..i].to_vec(),
        None => text.into_bytes(),
    }
}

/// GNU's `write error` diagnostic (translated) with the error's text.
pub fn write_error(err: &std::io::Error) -> Vec<u8> {
    let mut m = intl::tr_gnulib("write error");
    m.extend_from_slice(b": ");
    m.extend_from_slice(&strerror(err));
    m
}

/// Writes `ls: MESSAGE\n` to stderr after flushing stdout.
pub fn print_diagnostic(out: &mut Output, message: &[u8]) {
    out.flush();
    let mut line = Vec::with_capacity(message.len() + 8);
    line.extend_from_slice(crate::cli::error_name());
    line.extend_from_slice(b": ");
    line.extend_from_slice(message);
    line.push(b'\n');
    let _ = std::io::stderr().lock().write_all(&line);
}

/// Tracks the worst trouble seen, which becomes the exit status.
#[derive(Debug, Default)]
pub struct Status {
    code: i32,
    /// The locale's character set (names in messages keep what is
    /// printable in it).
    pub charset: Charset,
}

impl Status {
    pub fn new(charset: impl Into<Charset>) -> Status {
        Status {
            code: 0,
            charset: charset.into(),
        }
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
        let mut msg = quote_when_needed(name, self.charset);
        msg.extend_from_slice(b": ");
        msg.extend_from_slice(&strerror(err));
        print_diagnostic(out, &msg);
    }

    /// Reports an owner or group whose name lookup was given up
    /// (`--timeout`; its number was printed) in coreutils' words for an id
    /// without a name (`cannot find name for user ID %lu`, as `id` says
    /// it, translated), then `: ERRNO-TEXT`; minor trouble.
    pub fn lookup_given_up(&mut self, out: &mut Output, given_up: GivenUp) {
        let key = match given_up.kind {
            Kind::User => "cannot find name for user ID %lu",
            Kind::Group => "cannot find name for group ID %lu",
        };
        let mut msg = intl::msg(key, &[given_up.id.to_string().as_bytes()]);
        msg.extend_from_slice(b": ");
        msg.extend_from_slice(&intl::strerror(given_up.errno));
        print_diagnostic(out, &msg);
        self.raise(EXIT_MINOR);
    }

    /// Reports GNU's message `key` (e.g. `cannot access %s`, translated)
    /// about the quoted `name`, then `: ERRNO-TEXT`; serious for
    /// command-line operands, minor otherwise.
    pub fn file_error(
        &mut self,
        out: &mut Output,
        key: &str,
        name: &[u8],
        err: &std::io::Error,
        operand: bool,
    ) {
        let mut msg = intl::msg(key, &[&quote_diagnostic(name, self.charset)]);
        msg.extend_from_slice(b": ");
        msg.extend_from_slice(&strerror(err));
        print_diagnostic(out, &msg);
        self.raise(if operand { EXIT_SERIOUS } else { EXIT_MINOR });
    }
}
