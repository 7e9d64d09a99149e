//! The one buffered writer for standard output.
//!
//! It counts bytes (for `--dired` offsets), remembers the first write error
//! instead of failing every call (GNU reports one `write error` at exit),
//! and is flushed before any diagnostic so that stdout and stderr interleave
//! as GNU's do when both go to the same place.
#![forbid(unsafe_code)]

use std::io::{self, Write};

use crate::sys::signals;
use crate::sys::stdout::{PendingBuffer, RawStdout};

pub struct Output {
    /// Reachable by `sys::alloc`, which writes it out before `memory
    /// exhausted` as GNU's error() flushes stdout.
    buf: PendingBuffer,
    /// With colours on: whether a colour was produced (shared with the
    /// painter), and whether the signal handlers were set up for it.
    color: Option<ColorState>,
    /// Bytes handed to `write` so far plus those buffered: the dired offset.
    written: usize,
    /// Stdout is a terminal: every complete line is written at once, as
    /// C stdio does (GNU's lines appear as they are listed, and a signal
    /// that ends ls loses no finished line).
    line_buffered: bool,
    error: Option<io::Error>,
}

struct ColorState {
    used: std::rc::Rc<std::cell::Cell<bool>>,
    catching: bool,
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
            buf: PendingBuffer::with_capacity(CAPACITY),
            color: None,
            written: 0,
            line_buffered: crate::sys::term::stdout_is_tty(),
            error: None,
        }
    }

    /// Absolute offset of the start of `buffer()`.
    pub fn buffer_base(&self) -> usize {
        self.written
    }

    /// Appends `bytes`; flushes once the buffer is nearly full (so that the
    /// next line, appended directly through [`Output::buffer`], still fits).
    pub fn write(&mut self, bytes: &[u8]) {
        self.put(bytes);
        if self.buf.len() >= CAPACITY - LINE_ROOM
            || (self.line_buffered && self.buf.last() == Some(&b'\n'))
        {
            self.flush();
        }
    }

    /// Colours are on: once the first colour is written, signals that
    /// would leave the terminal coloured restore it first (when stdout is
    /// the controlling terminal; see `sys::signals`).
    pub fn restore_color_on_signals(
        &mut self,
        used: std::rc::Rc<std::cell::Cell<bool>>,
        restore: Vec<u8>,
    ) {
        signals::set_restore_sequence(&restore);
        self.color = Some(ColorState {
            used,
            catching: false,
        });
    }

    /// Whether a colour sequence was written: GNU then flushes stdout
    /// itself before closing it, so that a write error is reported as a
    /// plain `write error` (the close that reports it has nothing left to
    /// write, and no errno), except for a descriptor that cannot be closed.
    pub fn color_used(&self) -> bool {
        self.color.as_ref().is_some_and(|c| c.used.get())
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
        // The first colour is about to be written: GNU sets up its
        // handlers there.
        // The first colour is about to be written (part of it may reach
        // the terminal before a signal): GNU sets up its handlers there.
        if let Some(c) = self.color.as_mut() {
            if c.used.get() && !c.catching {
                c.catching = true;
                signals::catch_for_color_restore();
                signals::note_color_written();
            }
        }
        if self.error.is_none() {
            if let Err(e) = RawStdout.write_all(&self.buf) {
                self.error = Some(e);
            }
        }
        self.written += self.buf.len();
        self.buf.clear();
    }

    /// Flushes and returns the first write error, if any. Signals take
    /// their default actions from here on.
    pub fn finish(&mut self) -> Option<io::Error> {
        self.flush();
        if self.color.as_ref().is_some_and(|c| c.catching) {
            signals::restore_defaults();
        }
        self.error.take()
    }
}
