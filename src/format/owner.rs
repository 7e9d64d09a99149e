//! User and group names for the long format, looked up once per id.
#![forbid(unsafe_code)]

use std::collections::HashMap;

/// Caches id → name lookups (`None`: no passwd/group entry, print the id).
#[derive(Clone, Default)]
pub struct Names {
    users: HashMap<u32, Option<Vec<u8>>>,
    groups: HashMap<u32, Option<Vec<u8>>>,
}

impl Names {
    /// Takes over the lookups another copy made.
    pub fn absorb(&mut self, other: Names) {
        for (id, name) in other.users {
            self.users.entry(id).or_insert(name);
        }
        for (id, name) in other.groups {
            self.groups.entry(id).or_insert(name);
        }
    }

    pub fn user(&mut self, uid: u32) -> Option<&[u8]> {
        self.users
            .entry(uid)
            .or_insert_with(|| uzers::get_user_by_uid(uid).map(|u| os_bytes(u.name())))
            .as_deref()
    }

    pub fn group(&mut self, gid: u32) -> Option<&[u8]> {
        self.groups
            .entry(gid)
            .or_insert_with(|| uzers::get_group_by_gid(gid).map(|g| os_bytes(g.name())))
            .as_deref()
    }
}

fn os_bytes(s: &std::ffi::OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes().to_vec()
}
