//! Terminal queries: is stdout a tty, and how wide is it.

use rustix::termios;

/// Whether standard output is a terminal (GNU's defaults for `-C`, `-q`,
/// shell-escape quoting and `--color=auto` depend on it).
pub fn stdout_is_tty() -> bool {
    termios::isatty(rustix::stdio::stdout())
}

/// The terminal's column count from TIOCGWINSZ, when stdout is a terminal
/// and the kernel reports a non-zero width.
pub fn terminal_width() -> Option<usize> {
    let ws = termios::tcgetwinsize(rustix::stdio::stdout()).ok()?;
    (ws.ws_col > 0).then_some(ws.ws_col as usize)
}
