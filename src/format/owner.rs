//! User and group names for the long format, looked up once per id.
//!
//! Under `--timeout` the lookups (the C library's NSS: files, LDAP, sssd,
//! ...) may never answer: they are then run by whoever owns the threads
//! ([`RunLookups`], given by `listing`), a batch's ids at once, and an id
//! whose lookup was given up is printed as its number for the rest of the
//! run and recorded once ([`Names::take_given_up`]) for its diagnostic.
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::Arc;

/// Which database an id is looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    User,
    Group,
}

/// One lookup to run: the name, `None` when the id has none.
pub type Lookup = Box<dyn FnOnce() -> std::io::Result<Option<Vec<u8>>> + Send>;

/// Runs lookups that may never answer, all at once, and gives each its
/// answer in order, or the error it was given up with (ETIMEDOUT).
pub type RunLookups =
    Arc<dyn Fn(Vec<Lookup>) -> Vec<std::io::Result<Option<Vec<u8>>>> + Send + Sync>;

/// An id whose lookup was given up: printed as its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GivenUp {
    pub kind: Kind,
    pub id: u32,
    /// The error it was given up with (an errno).
    pub errno: i32,
}

/// Caches id → name lookups (`None`: no passwd/group entry, or a lookup
/// given up: print the id).
#[derive(Clone, Default)]
pub struct Names {
    users: HashMap<u32, Option<Vec<u8>>>,
    groups: HashMap<u32, Option<Vec<u8>>>,
    /// With `--timeout`: how lookups are run and given up.
    run: Option<RunLookups>,
    /// Lookups given up and not yet reported.
    given_up: Vec<GivenUp>,
}

/// The C library's answer for one id (blocking: on a dead name service
/// this is where a thread waits).
pub fn look_up(kind: Kind, id: u32) -> Option<Vec<u8>> {
    match kind {
        Kind::User => uzers::get_user_by_uid(id).map(|u| os_bytes(u.name())),
        Kind::Group => uzers::get_group_by_gid(id).map(|g| os_bytes(g.name())),
    }
}

impl Names {
    /// Names whose lookups `run` runs (and may give up).
    pub fn with_deadline(run: RunLookups) -> Names {
        Names {
            run: Some(run),
            ..Names::default()
        }
    }

    /// Takes over the lookups another copy made.
    pub fn absorb(&mut self, other: Names) {
        for (id, name) in other.users {
            self.users.entry(id).or_insert(name);
        }
        for (id, name) in other.groups {
            self.groups.entry(id).or_insert(name);
        }
        for g in other.given_up {
            if !self.given_up.contains(&g) {
                self.given_up.push(g);
            }
        }
    }

    fn cache(&mut self, kind: Kind) -> &mut HashMap<u32, Option<Vec<u8>>> {
        match kind {
            Kind::User => &mut self.users,
            Kind::Group => &mut self.groups,
        }
    }

    /// With a deadline, looks up every id of `ids` not known yet, all at
    /// once: a batch whose name service is dead costs one limit, not one
    /// per id. Without, nothing (each is looked up when first printed, as
    /// GNU does).
    pub fn prefetch(&mut self, ids: impl IntoIterator<Item = (Kind, u32)>) {
        let Some(run) = self.run.clone() else {
            return;
        };
        let mut todo: Vec<(Kind, u32)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (kind, id) in ids {
            if !self.cache(kind).contains_key(&id) && seen.insert((kind, id)) {
                todo.push((kind, id));
            }
        }
        if todo.is_empty() {
            return;
        }
        let lookups = todo
            .iter()
            .map(|&(kind, id)| Box::new(move || Ok(look_up(kind, id))) as Lookup)
            .collect();
        for ((kind, id), answer) in todo.into_iter().zip(run(lookups)) {
            self.record(kind, id, answer);
        }
    }

    fn record(&mut self, kind: Kind, id: u32, answer: std::io::Result<Option<Vec<u8>>>) {
        let name = answer.unwrap_or_else(|err| {
            let errno = err.raw_os_error().unwrap_or(0);
            self.given_up.push(GivenUp { kind, id, errno });
            None
        });
        self.cache(kind).insert(id, name);
    }

    fn name(&mut self, kind: Kind, id: u32) -> Option<&[u8]> {
        if !self.cache(kind).contains_key(&id) {
            match self.run.clone() {
                Some(run) => {
                    let answer = run(vec![Box::new(move || Ok(look_up(kind, id)))]);
                    let answer = answer.into_iter().next().unwrap_or(Ok(None));
                    self.record(kind, id, answer);
                }
                None => {
                    let name = look_up(kind, id);
                    self.cache(kind).insert(id, name);
                }
            }
        }
        self.cache(kind).get(&id).and_then(|n| n.as_deref())
    }

    pub fn user(&mut self, uid: u32) -> Option<&[u8]> {
        self.name(Kind::User, uid)
    }

    pub fn group(&mut self, gid: u32) -> Option<&[u8]> {
        self.name(Kind::Group, gid)
    }

    /// The lookups given up since the last call, each id once.
    pub fn take_given_up(&mut self) -> Vec<GivenUp> {
        std::mem::take(&mut self.given_up)
    }
}

fn os_bytes(s: &std::ffi::OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing_out() -> RunLookups {
        Arc::new(|lookups: Vec<Lookup>| {
            lookups
                .into_iter()
                .map(|_| Err(std::io::Error::from_raw_os_error(110)))
                .collect()
        })
    }

    #[test]
    fn an_id_given_up_is_a_number_for_the_rest_of_the_run_and_reported_once() {
        let mut names = Names::with_deadline(timing_out());
        names.prefetch([(Kind::User, 0), (Kind::User, 0), (Kind::Group, 0)]);
        assert_eq!(names.user(0), None);
        assert_eq!(names.group(0), None);
        let given_up = names.take_given_up();
        assert_eq!(given_up.len(), 2, "{given_up:?}");
        assert!(names.take_given_up().is_empty());
        // Asked again: the cached number, no second report.
        assert_eq!(names.user(0), None);
        assert!(names.take_given_up().is_empty());
    }

    #[test]
    fn copies_report_an_id_given_up_in_both_once() {
        let mut a = Names::with_deadline(timing_out());
        let mut b = a.clone();
        a.user(7);
        b.user(7);
        a.absorb(b);
        assert_eq!(a.take_given_up().len(), 1);
    }
}
