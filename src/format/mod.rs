//! Turning entries into bytes: names (quoting, colours, indicators,
//! hyperlinks), metadata columns (sizes, times, owners) and layouts
//! (columns, commas, long format, dired offsets), or `--json` records.

pub mod color;
pub mod columns;
pub mod dired;
pub mod hyperlink;
pub mod json;
pub mod listing;
pub mod long;
pub mod name;
pub mod owner;
pub mod quote;
pub mod size;
pub mod time;
pub mod width;
