//! Top level: resolve the configuration, list the operands, report status.
#![forbid(unsafe_code)]

use std::ffi::OsString;

use crate::config::Config;
use crate::error::{print_diagnostic, write_error, EXIT_SERIOUS};
use crate::walk::Walker;

/// Runs `ls` with these arguments (`argv[0]` included) and returns the exit
/// status.
pub fn run(args: Vec<OsString>) -> i32 {
    let config = match Config::load(args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    crate::sys::stat::set_cache_mode(config.cached);
    // With `--timeout`, in a child whose stuck threads cannot hold up the
    // process the shell waits for.
    let detached = config
        .timeout
        .and_then(|_| crate::sys::detach::fork_listing());
    let mut walker = Walker::new(&config, config.locale.collate_bytes);
    walker.run(&config.operands);
    walker.finish();
    let mut status = walker.status.code();
    let flushed_before_close = walker.out.color_used();
    if let Some(err) = walker.out.finish() {
        let bad_fd = err.raw_os_error() == Some(rustix::io::Errno::BADF.raw_os_error());
        let msg = if flushed_before_close && !bad_fd {
            crate::sys::intl::tr_gnulib("write error")
        } else {
            write_error(&err)
        };
        print_diagnostic(&mut walker.out, &msg);
        status = EXIT_SERIOUS;
    }
    // The process ends here: its memory goes with it, without the walk's
    // last listing being freed name by name.
    std::mem::forget(walker);
    if let Some(listing) = detached {
        listing.finish(status);
    }
    status
}
