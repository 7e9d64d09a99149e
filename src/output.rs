//! The one buffered writer for standard output.
//!
//! It counts bytes (for `--dired` offsets), remembers the first write error
//! instead of failing every call (GNU reports one `write error` at exit),
//! and is flushed before any diagnostic so that stdout and stderr interleave
//! as GNU's do when both go to the same place.
#![forbid(unsafe_code)]

use std::io::{self, Write};

use crate::fs::signals::{self, Pending};

pub struct Output {
    buf: Vec<u8>,
    /// With colours on: whether a colour was written (shared with the
    /// painter) and what restores the terminal if a signal interrupts us.
    color_restore: Option<(std::rc::Rc<std::cell::Cell<bool>>, Vec<u8>)>,
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
            color_restore: None,
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
        self.process_signals();
    }

    /// Colours are on: catch interrupting signals and restore the
    /// terminal's colour (once any was written) before acting on them.
    pub fn restore_color_on_signals(
        &mut self,
        used: std::rc::Rc<std::cell::Cell<bool>>,
        restore: Vec<u8>,
    ) {
        self.color_restore = Some((used, restore));
        signals::catch_for_color_restore();
    }

    /// Acts on signals caught since the last call, GNU's way: what was
    /// produced so far is written, then the colour reset, then the signal
    /// takes its default action (for SIGTSTP: stop, and go on when
    /// continued).
    fn process_signals(&mut self) {
        if !signals::any_pending() {
            return;
        }
        let Some((used, restore)) = &self.color_restore else {
            return;
        };
        let (used, restore) = (used.clone(), restore.clone());
        while let Pending::Signal(sig) = signals::take_pending() {
            if used.get() {
                self.buf.extend_from_slice(&restore);
            }
            self.flush();
            signals::deliver(sig);
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
