//! `--hyperlink` under `--timeout`: a batch's link paths resolved before
//! it is printed, each request given up after the limit. The directories
//! the paths are in are resolved first, from the root, so that a dead one
//! costs one limit for the whole batch; a directory given up is not asked
//! again for anything under it. A path given up is printed without its
//! link.
#![forbid(unsafe_code)]

use std::time::Duration;

use super::name::NameRenderer;
use crate::parallel;
use crate::sys::path::lexically_absolute;

/// The directory `abs` (absolute, as [`lexically_absolute`] writes it) is
/// in.
fn parent(abs: &[u8]) -> &[u8] {
    match abs.iter().rposition(|&b| b == b'/') {
        Some(0) | None => b"/",
        Some(cut) => &abs[..cut],
    }
}

impl NameRenderer<'_> {
    /// Resolves `paths` (relative to the working directory, or absolute)
    /// for their links. Returns the paths given up, with the error.
    pub fn resolve_links(
        &mut self,
        limit: Duration,
        paths: Vec<Vec<u8>>,
    ) -> Vec<(Vec<u8>, std::io::Error)> {
        let Some(h) = self.hyperlink.as_mut() else {
            return Vec::new();
        };
        h.clear_resolved();
        let style = h.style();
        let absolute: Vec<Vec<u8>> = paths.iter().map(|p| lexically_absolute(p)).collect();
        let mut parents: Vec<Vec<u8>> = Vec::new();
        for abs in &absolute {
            let dir = parent(abs);
            if !h.under_dead(dir) && !parents.iter().any(|p| p == dir) {
                parents.push(dir.to_vec());
            }
        }
        // Every component of a parent is asked for, as the paths in it
        // will be.
        let answers = parallel::timed_each(limit, parents.clone(), move |p| style.resolve(p));
        for (dir, answer) in parents.into_iter().zip(answers) {
            if answer.is_err() {
                h.set_dead(dir);
            }
        }
        let mut given_up = Vec::new();
        let mut todo = Vec::new();
        for (path, abs) in paths.into_iter().zip(absolute) {
            if h.under_dead(&abs) {
                h.set_resolved(path.clone(), None);
                given_up.push((path, parallel::timed_out()));
            } else {
                todo.push((path, abs));
            }
        }
        let asked = todo.iter().map(|(path, _)| path.clone()).collect();
        let answers = parallel::timed_each(limit, asked, move |p| style.resolve(p));
        for ((path, abs), answer) in todo.into_iter().zip(answers) {
            match answer {
                Ok(resolved) => h.set_resolved(path, Some(resolved)),
                Err(err) => {
                    h.set_dead(abs);
                    h.set_resolved(path.clone(), None);
                    given_up.push((path, err));
                }
            }
        }
        given_up
    }
}
