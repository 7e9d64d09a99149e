//! Turning one value into text: names quoted for the terminal or the
//! shell, colours, hyperlinks, sizes, times, owners, display widths. Below
//! `config` (which resolves their settings) and `listing` (which lays the
//! texts out); nothing here reads the configuration.

pub mod color;
pub mod hyperlink;
pub mod owner;
pub mod quote;
pub mod size;
pub mod time;
pub mod width;
