//! How the walk gets each directory open: the result a read-ahead worker
//! prepared for it, or an open of its own (relative to its parent's
//! descriptor, retried when the descriptors held for speed run out); and
//! which subdirectories it submits next for reading ahead.
#![forbid(unsafe_code)]

use std::ffi::CString;
use std::sync::Arc;

use super::ahead::ReadAhead;
use super::dir_read::{self, DirRead, Outcome};
use super::job::{DirJob, DirTask, JobContext};
use super::{Pending, Walker, Work};
use crate::parallel;
use crate::sys::limits::is_descriptor_exhaustion;
use crate::sys::stat::Base;

impl Walker<'_> {
    /// Opens a directory the walk reaches unread. Meeting the descriptor
    /// limit here is the doing of what is held for speed (GNU holds one
    /// directory at a time): the read-ahead and then the path give their
    /// descriptors back, and the open is tried again, relative to the
    /// parent, then by the path.
    fn open_reached(&mut self, pending: &Pending, ahead: &mut ReadAhead) -> Option<Outcome> {
        let exhausted = |o: &Outcome| matches!(o, Err(e) if is_descriptor_exhaustion(e));
        let mut outcome = self.open_listed(pending)?;
        if exhausted(&outcome) {
            ahead.release();
            self.chain.release(true);
            outcome = self.open_listed(pending)?;
        }
        if exhausted(&outcome) {
            self.chain.release(false);
            outcome = self.open_listed(pending)?;
        }
        Some(outcome)
    }

    /// The directory read ahead, or opened now; `None` once its failure is
    /// reported.
    pub(super) fn open_dir(&mut self, pending: &Pending, ahead: &mut ReadAhead) -> Option<DirRead> {
        let mean = self.mean_entries;
        let opened = match pending.ahead.and_then(|id| ahead.take(id, mean)) {
            Some(outcome) => outcome,
            None => self.open_reached(pending, ahead)?,
        };
        match opened {
            Ok(read) => Some(read),
            Err(err) => {
                self.status.file_error(
                    &mut self.out,
                    "cannot open directory %s",
                    &pending.path,
                    &err,
                    pending.operand,
                );
                None
            }
        }
    }

    /// Opens a directory that was not read ahead: relative to its parent's
    /// descriptor when it has one, else by its path; with `-R` also the
    /// loop-detection stat. `None` for a path that cannot be a C string.
    fn open_listed(&self, pending: &Pending) -> Option<Outcome> {
        if self.deadline.is_some() {
            return self.read_watched(pending);
        }
        let recursive = self.config.recursive;
        Some(match self.chain.parent().filter(|_| !pending.operand) {
            Some(parent) => {
                let name = CString::new(pending.name()).ok()?;
                dir_read::open_identified(Base::Dir(parent), &name, recursive)
            }
            None => {
                let path = CString::new(pending.path.clone()).ok()?;
                dir_read::open_identified(Base::Cwd, &path, recursive)
            }
        })
    }

    /// Submits the next subdirectories to be listed for reading ahead, as
    /// far as the window allows: those at the top of the work stack that
    /// belong to the directory on top of the `-R` path.
    pub(super) fn read_ahead(&self, work: &mut [Work], ahead: &mut ReadAhead) {
        ahead.expire();
        let probed = self.plan.probes_files();
        let beside = ahead.runs_beside();
        let sizes = (self.mean_entries, beside);
        let pays =
            parallel::read_ahead_pays(self.config, self.remote, probed, sizes, self.deadline);
        let window = ahead.window(self.mean_entries);
        if window == 0 || !pays {
            return;
        }
        let Some(parent) = self.chain.parent_shared() else {
            return;
        };
        let mut wanted: Vec<(&mut Pending, usize)> = Vec::with_capacity(window);
        let top = work.len().saturating_sub(1);
        // The window is the jobs outstanding at once: one already submitted
        // takes its place as much as one submitted now (wanting `window`
        // more past them withdrew, and submitted again, a window of jobs
        // for every directory listed).
        let mut room = window;
        for (i, item) in work.iter_mut().rev().enumerate() {
            let Work::List(p) = item else {
                break;
            };
            if p.operand || room == 0 {
                break;
            }
            match p.ahead {
                // The walk lists the top one next: a job it would race for
                // (and wait on, once a thread woke for it) unless one was
                // under way already; under a deadline it starts one anyway.
                _ if i == 0
                    && self.deadline.is_none()
                    && !p.ahead.is_some_and(|id| ahead.is_submitted(id)) =>
                {
                    continue
                }
                Some(id) if ahead.is_submitted(id) => {}
                // Read ahead twice and gone stale waiting both times: the
                // walk reads it when its turn comes (a directory is read
                // three times at most).
                Some(id) if ahead.went_stale(id) && p.stale_once => continue,
                Some(id) => {
                    p.stale_once |= ahead.went_stale(id);
                    ahead.forget(id);
                    p.ahead = None;
                    wanted.push((p, top - i));
                }
                None => wanted.push((p, top - i)),
            }
            room -= 1;
        }
        if wanted.is_empty() {
            return;
        }
        let dirs = wanted
            .iter()
            .map(|(p, place)| {
                let name = CString::new(p.name()).unwrap_or_default();
                (name, p.path.clone(), *place)
            })
            .collect();
        let ids = ahead.submit(&parent, dirs);
        for ((p, _), id) in wanted.into_iter().zip(ids) {
            p.ahead = Some(id);
        }
    }

    /// What every directory's job shares, made once.
    pub(super) fn job_context(&self) -> &Arc<JobContext> {
        self.jobs.get_or_init(|| {
            Arc::new(JobContext {
                plan: Arc::clone(&self.plan),
                xattrs: Arc::clone(&self.xattrs),
                config: Arc::new(self.config.clone()),
                collate_bytes: self.collate_bytes,
                deadline: self.deadline,
                buffers: Default::default(),
            })
        })
    }

    /// Under `--timeout`: opens, identifies (`-R`) and reads the directory
    /// as a job of its own (`job`), so that the walk makes no request that
    /// may hang; `None` for a path that cannot be a C string.
    fn read_watched(&self, pending: &Pending) -> Option<Outcome> {
        let parent = self.chain.parent_shared().filter(|_| !pending.operand);
        let name = match parent {
            Some(_) => CString::new(pending.name()).ok()?,
            None => CString::new(pending.path.clone()).ok()?,
        };
        let job = DirJob::start(DirTask {
            parent,
            name,
            path: pending.path.clone(),
            identify: self.config.recursive,
            first_child: false,
            context: Arc::clone(self.job_context()),
        });
        Some(job.wait(true).0)
    }
}
