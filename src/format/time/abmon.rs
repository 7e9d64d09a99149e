//! GNU ls's alignment of abbreviated month names: when a `-l` date format
//! has a plain `%b`, ls pads LC_TIME's twelve names to one display width
//! (at most 5 columns, wider ones cut), right-aligned when a name starts
//! with a digit (` 3月` in zh_CN), and splices each into the format text:
//! twelve formats, one per month.
#![forbid(unsafe_code)]

use super::strftime::Format;
use crate::sys::mbwidth;

/// GNU's widest month column.
const MAX_MON_WIDTH: usize = 5;
/// GNU's buffer for a month name and for each spliced format: anything
/// that does not fit turns the alignment off.
const ABFORMAT_SIZE: usize = 128;

/// One character of a month name: its bytes and display columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub bytes: Vec<u8>,
    pub cols: usize,
}

/// `name` cut to at most `width` columns and padded with spaces to it
/// (on the left when `right`); returns the text and the columns of the
/// name itself (GNU's `mbsalign`).
fn align(name: &[Cell], width: usize, right: bool) -> (Vec<u8>, usize) {
    let mut cols = 0;
    let mut text = Vec::new();
    for c in name {
        if cols + c.cols > width {
            break;
        }
        cols += c.cols;
        text.extend_from_slice(&c.bytes);
    }
    let pad = vec![b' '; width - cols];
    if right {
        ([pad, text].concat(), cols)
    } else {
        text.extend_from_slice(&pad);
        (text, cols)
    }
}

/// The twelve names padded to one width as GNU's `abmon_init` does, or
/// `None` where GNU gives up (a `%` in a name, a name too long).
pub fn pad_months(names: &[Vec<Cell>; 12]) -> Option<[Vec<u8>; 12]> {
    let mut width = MAX_MON_WIDTH;
    loop {
        let mut required = 0;
        let mut out: [Vec<u8>; 12] = Default::default();
        for (i, name) in names.iter().enumerate() {
            let first = name.first().and_then(|c| c.bytes.first());
            if name.iter().any(|c| c.bytes.contains(&b'%')) {
                return None;
            }
            let (text, cols) = align(name, width, first.is_some_and(u8::is_ascii_digit));
            if text.len() >= ABFORMAT_SIZE {
                return None;
            }
            required = required.max(cols);
            out[i] = text;
        }
        if width <= required {
            return Some(out);
        }
        width = required;
    }
}

/// A month name measured in LC_CTYPE as `mbsalign` measures it: by
/// characters in a multibyte locale (an unprintable one becoming U+FFFD),
/// else (or when the name is not valid there) one column per byte.
pub fn measure(name: &[u8]) -> Vec<Cell> {
    let bytes = || {
        name.iter()
            .map(|b| Cell {
                bytes: vec![*b],
                cols: 1,
            })
            .collect()
    };
    if !mbwidth::multibyte() {
        return bytes();
    }
    let steps = mbwidth::decode(name);
    if steps.iter().any(|s| s.wc.is_none()) {
        return bytes();
    }
    let mut at = 0;
    steps
        .iter()
        .map(|s| {
            let raw = &name[at..at + s.len];
            at += s.len;
            let wc = s.wc.unwrap_or(0);
            match mbwidth::char_width(wc) {
                w if w >= 0 && wc != 0 => Cell {
                    bytes: raw.to_vec(),
                    cols: w as usize,
                },
                _ => Cell {
                    bytes: mbwidth::encode(0xFFFD),
                    cols: 1,
                },
            }
        })
        .collect()
}

/// Where the first plain `%b` of `fmt` is (`%%` skipped), as GNU finds it.
fn first_percent_b(fmt: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i + 1 < fmt.len() {
        if fmt[i] == b'%' {
            match fmt[i + 1] {
                b'b' => return Some(i),
                b'%' => i += 1,
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// The format for each month: twelve formats with the padded names
/// spliced in, or the one format when there is no `%b` in either format
/// or GNU's alignment gives up.
#[derive(Clone, Debug)]
pub enum Template {
    One(Format),
    Monthly(Box<[Format; 12]>),
}

impl Template {
    /// The (recent, old) templates of two formats, given the padded names.
    pub fn pair(recent: &[u8], old: &[u8], months: Option<&[Vec<u8>; 12]>) -> (Template, Template) {
        let one = || {
            (
                Template::One(Format::parse(recent)),
                Template::One(Format::parse(old)),
            )
        };
        if first_percent_b(recent).is_none() && first_percent_b(old).is_none() {
            return one();
        }
        let Some(months) = months else {
            return one();
        };
        match (spliced(recent, months), spliced(old, months)) {
            (Some(r), Some(o)) => (Template::Monthly(r), Template::Monthly(o)),
            _ => one(),
        }
    }

    /// The format for `month` (1..=12).
    pub fn get(&self, month: u8) -> &Format {
        match self {
            Template::One(f) => f,
            Template::Monthly(fs) => &fs[usize::from(month.clamp(1, 12)) - 1],
        }
    }
}

fn spliced(fmt: &[u8], months: &[Vec<u8>; 12]) -> Option<Box<[Format; 12]>> {
    let texts: Vec<Vec<u8>> = match first_percent_b(fmt) {
        None => vec![fmt.to_vec(); 12],
        Some(at) if at <= ABFORMAT_SIZE => months
            .iter()
            .map(|m| [&fmt[..at], m, &fmt[at + 2..]].concat())
            .collect(),
        Some(_) => return None,
    };
    if texts.iter().any(|t| t.len() >= ABFORMAT_SIZE) {
        return None;
    }
    Some(Box::new(std::array::from_fn(|i| Format::parse(&texts[i]))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &str) -> Vec<Cell> {
        s.chars()
            .map(|c| Cell {
                bytes: c.to_string().into_bytes(),
                cols: if c.is_ascii() { 1 } else { 2 },
            })
            .collect()
    }

    fn names(list: &str) -> [Vec<Cell>; 12] {
        let v: Vec<&str> = list.split(';').collect();
        std::array::from_fn(|i| cells(v[i]))
    }

    fn padded(list: &str) -> Vec<String> {
        pad_months(&names(list))
            .unwrap()
            .iter()
            .map(|m| String::from_utf8(m.clone()).unwrap())
            .collect()
    }

    #[test]
    fn c_names_stay_three_columns() {
        let p = padded("Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec");
        assert_eq!(p[0], "Jan");
        assert_eq!(p[11], "Dec");
    }

    #[test]
    fn names_are_left_aligned_to_the_widest() {
        // fr_FR: `mai` becomes `mai  ` next to `janv.`.
        let p = padded("janv.;févr.;mars;avr.;mai;juin;juil.;août;sept.;oct.;nov.;déc.");
        assert_eq!(p[4], "mai  ");
        assert_eq!(p[2], "mars ");
    }

    #[test]
    fn names_starting_with_a_digit_are_right_aligned() {
        // zh_CN: `3月` is 3 columns, `10月` 4 (CJK counts 2 here).
        let p = padded("1月;2月;3月;4月;5月;6月;7月;8月;9月;10月;11月;12月");
        assert_eq!(p[2], " 3月");
        assert_eq!(p[9], "10月");
    }

    #[test]
    fn wider_names_are_cut_to_five_columns() {
        let p = padded("Januar;Feb;Mär;April;Mai;Juni;Juli;August;Sep;Okt;Nov;Dez");
        assert_eq!(p[0], "Janua");
        assert_eq!(p[1], "Feb  ");
    }

    #[test]
    fn a_percent_in_a_name_turns_alignment_off() {
        assert!(pad_months(&names("J%n;b;c;d;e;f;g;h;i;j;k;l")).is_none());
    }

    #[test]
    fn only_the_first_plain_b_is_spliced() {
        assert_eq!(first_percent_b(b"%%b %b %b"), Some(4));
        assert_eq!(first_percent_b(b"%-b %Ob"), None);
        let months: [Vec<u8>; 12] = std::array::from_fn(|i| format!("M{i:<3}").into_bytes());
        let (r, o) = Template::pair(b"%e %b", b"%Y", Some(&months));
        assert!(matches!(
            (&r, &o),
            (Template::Monthly(_), Template::Monthly(_))
        ));
        // Too long for GNU's buffer: no alignment for either format.
        let long = [b"%b".as_slice(), &[b'x'; 126]].concat();
        let (r, _) = Template::pair(&long, b"%b", Some(&months));
        assert!(matches!(r, Template::One(_)));
    }
}
