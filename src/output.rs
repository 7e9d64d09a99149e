//! The one buffered writer for standard output.
//!
//! It counts bytes (for `--dired` offsets), remembers the first write error
//! instead of failing every call (GNU reports one `write error` at exit),
//! and is flushed before any diagnostic so that stdout and stderr interleave
//! as GNU's do when both go to the same place.
#![forbid(unsafe_code)]

use std::io::{self, Write};

use crate::sys::signals::{self, Pending};
use crate::sys::stdout::RawStdout;

pub struct Output {
    buf: Vec<u8>,
    /// With colours on: whether a colour was written (shared with the
    /// painter) and what restores the terminal if a signal interrupts us.
    color_restore: Option<(std::rc::Rc<std::cell::Cell<bool>>, Vec<u8>)>,
    /// Bytes handed to `write` so far plus those buffered: the dired offset.
    written: usize,
    error: Option<io::Error>,
}

/// The buffer never grows past this unless a single piece is larger: a
/// piece that would overflow it is preceded by a flush.
const CAPACITY: usize = 32 * 1024;

/// Where layouts write: the [`Output`] (flushing between lines, so memory
/// stays bounded however large a directory is) or, in tests, a `Vec`.
pub trait Sink {
    fn put(&mut self, bytes: &[u8]);
    fn put_byte(&mut self, b: u8);
    /// A line is complete: a good moment to flush.
    fn end_line(&mut self) {}
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    fn put_byte(&mut self, b: u8) {
        self.push(b);
    }
}

impl Sink for Output {
    fn put(&mut self, bytes: &[u8]) {
        if self.buf.len() + bytes.len() > CAPACITY {
            self.flush();
        }
        self.buf.extend_from_slice(bytes);
    }
    fn put_byte(&mut self, b: u8) {
        if self.buf.len() == CAPACITY {
            self.flush();
        }
        self.buf.push(b);
    }
    fn end_line(&mut self) {
        self.write(&[]);
    }
}

/// Room kept for one line appended directly to the buffer: longer lines
/// (names are at most 255 bytes, 1020 once quoted) make the buffer grow.
const LINE_ROOM: usize = 4 * 1024;

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

    /// Absolute offset of the start of `buffer()`.
    pub fn buffer_base(&self) -> usize {
        self.written
    }

    /// Appends `bytes`; flushes once the buffer is nearly full (so that the
    /// next line, appended directly through [`Output::buffer`], still fits)
    /// and acts on pending signals.
    pub fn write(&mut self, bytes: &[u8]) {
        self.put(bytes);
        if self.buf.len() >= CAPACITY - LINE_ROOM {
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
            if let Err(e) = RawStdout.write_all(&self.buf) {
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
