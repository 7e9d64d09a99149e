//! The one buffered writer for standard output.
//!
//! It counts bytes (for `--dired` offsets), remembers the first write error
//! instead of failing every call (GNU reports one `write error` at exit),
//! and is flushed before any diagnostic so that stdout and stderr interleave
//! as GNU's do when both go to the same place.
#![forbid(unsafe_code)]

use std::io::{self, Write};

pub struct Output {
    buf: Vec<u8>,
    /// Bytes handed to `write` so far plus those buffered: the dired offset.
    written: usize,
    error: Option<io::Error>,
}

const CAPACITY: usize = 64 * 1024;

impl Default for Output {
    fn default() -> Self {
        Self::new()
    }
}

impl Output {
    pub fn new() -> Output {
        Output {
            buf: Vec::with_capacity(CAPACITY),
            written: 0,
            error: None,
        }
    }

    /// Byte offset of the next byte in the output (for `--dired`).
    pub fn position(&self) -> usize {
        self.written + self.buf.len()
    }

    /// Absolute offset of the start of `buffer()`.
    pub fn buffer_base(&self) -> usize {
        self.written
    }

    pub fn write(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= CAPACITY {
            self.flush();
        }
    }

    pub fn byte(&mut self, b: u8) {
        self.buf.push(b);
    }

    /// The buffer itself, for formatters that append directly.
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Writes what is buffered. After a failure nothing more is written,
    /// as GNU stops producing output once stdout is broken.
    pub fn flush(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        if self.error.is_none() {
            let mut out = io::stdout().lock();
            let result = out.write_all(&self.buf).and_then(|_| out.flush());
            if let Err(e) = result {
                self.error = Some(e);
            }
        }
        self.written += self.buf.len();
        self.buf.clear();
    }

    /// Flushes and returns the first write error, if any.
    pub fn finish(&mut self) -> Option<io::Error> {
        self.flush();
        self.error.take()
    }
}
