//! Top level: resolve the configuration, list the operands, report status.
pub fn run(_args: Vec<std::ffi::OsString>) -> i32 { 0 }
