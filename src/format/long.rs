//! The long format (`-l`, `-g`, `-o`, `-n`): placeholder until issue 4.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::entry::Entry;
use crate::format::name::NameRenderer;
use crate::output::Output;

pub struct LongPrinter<'a> {
    pub config: &'a Config,
}

impl<'a> LongPrinter<'a> {
    pub fn new(config: &'a Config) -> LongPrinter<'a> {
        LongPrinter { config }
    }

    pub fn print(&mut self, out: &mut Output, entries: &[Entry], names: &NameRenderer) {
        for e in entries {
            let buf = out.buffer();
            names.render(e, buf);
            buf.push(b'\n');
        }
        out.write(&[]);
    }
}
