//! Shell patterns through the C library's `fnmatch`, as GNU ls matches
//! `-I`/`--hide` (`FNM_PERIOD`): LC_COLLATE's ranges, equivalence classes
//! and collating symbols, LC_CTYPE's classes and characters.

use std::ffi::{CStr, CString};

/// A pattern ready for `fnmatch`.
#[derive(Clone, Debug)]
pub struct Pattern(CString);

impl Pattern {
    /// `None` for a pattern holding a NUL byte (one cannot come from the
    /// command line).
    pub fn new(pattern: &[u8]) -> Option<Pattern> {
        CString::new(pattern).ok().map(Pattern)
    }

    /// `fnmatch(pattern, name, FNM_PERIOD) == 0`.
    pub fn matches_period(&self, name: &[u8]) -> bool {
        let mut stack = [0u8; 256];
        let heap;
        let c_name: &CStr = if name.len() < stack.len() {
            stack[..name.len()].copy_from_slice(name);
            match CStr::from_bytes_until_nul(&stack) {
                Ok(s) => s,
                Err(_) => return false,
            }
        } else {
            heap = match CString::new(name) {
                Ok(s) => s,
                Err(_) => return false,
            };
            &heap
        };
        if c_name.to_bytes().len() != name.len() {
            // A NUL inside the name: not a file name.
            return false;
        }
        // SAFETY: both are valid NUL-terminated strings.
        unsafe { libc::fnmatch(self.0.as_ptr(), c_name.as_ptr(), libc::FNM_PERIOD) == 0 }
    }
}
