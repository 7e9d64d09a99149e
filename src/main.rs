//! The `ls` binary: everything lives in the library; this only hands over
//! the arguments and turns the outcome into an exit status.
#![forbid(unsafe_code)]

fn main() {
    let code = statls::app::run(std::env::args_os().collect());
    std::process::exit(code);
}
