//! GNU ls's alignment of abbreviated month names: when a `-l` date format
//! has a plain `%b`, ls pads LC_TIME's twelve names with spaces to the
//! widest one's display width (on the left when a name starts with a
//! digit: ` 3月` in zh_CN) and splices each into the format text: twelve
//! formats, one per month. A name that is not valid text in LC_CTYPE, or
//! holds a `%`, turns the alignment off.
#![forbid(unsafe_code)]

use super::strftime::Format;

/// GNU's buffer for a month name and for each spliced format: anything
/// that does not fit turns the alignment off.
const ABFORMAT_SIZE: usize = 128;

/// The twelve names (each with its display width, `None` where GNU's
/// `mbswidth` rejects it) padded to one width as GNU's `abmon_init` does,
/// or `None` where GNU gives up.
pub fn pad_months(names: &[(Vec<u8>, Option<usize>); 12]) -> Option<[Vec<u8>; 12]> {
    let mut widest = 0;
    for (name, width) in names {
        if name.len() >= ABFORMAT_SIZE || name.contains(&b'%') {
            return None;
        }
        widest = widest.max((*width)?);
    }
    let mut out: [Vec<u8>; 12] = Default::default();
    for (i, (name, width)) in names.iter().enumerate() {
        let fill = widest - width.unwrap_or(widest);
        if ABFORMAT_SIZE - name.len() <= fill {
            return None;
        }
        let pad = vec![b' '; fill];
        out[i] = if name.first().is_some_and(u8::is_ascii_digit) {
            [pad, name.clone()].concat()
        } else {
            [name.clone(), pad].concat()
        };
    }
    Some(out)
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

/// The format for each month: the format with the padded name spliced in
/// place of its `%b` (parsed the first time that month is asked for), or
/// the one format when it has no `%b` or GNU's alignment gives up.
#[derive(Clone, Debug)]
pub enum Template {
    One(Format),
    Monthly(Box<Monthly>),
}

/// A format split around its first `%b`, and the names to put there.
#[derive(Clone, Debug)]
pub struct Monthly {
    before: Vec<u8>,
    after: Vec<u8>,
    names: [Vec<u8>; 12],
    parsed: [std::cell::OnceCell<Format>; 12],
}

impl Template {
    /// The (recent, old) templates of two formats, given the padded names.
    pub fn pair(recent: &[u8], old: &[u8], months: Option<&[Vec<u8>; 12]>) -> (Template, Template) {
        let one = |fmt: &[u8]| Template::One(Format::parse(fmt));
        if first_percent_b(recent).is_none() && first_percent_b(old).is_none() {
            return (one(recent), one(old));
        }
        // GNU aligns both formats or neither (each must fit its buffer).
        let Some(months) = months.filter(|m| fits(recent, m) && fits(old, m)) else {
            return (one(recent), one(old));
        };
        let monthly = |fmt: &[u8]| match first_percent_b(fmt) {
            None => one(fmt),
            Some(at) => Template::Monthly(Box::new(Monthly {
                before: fmt[..at].to_vec(),
                after: fmt[at + 2..].to_vec(),
                names: months.clone(),
                parsed: Default::default(),
            })),
        };
        (monthly(recent), monthly(old))
    }

    /// The format for `month` (1..=12).
    pub fn get(&self, month: u8) -> &Format {
        match self {
            Template::One(f) => f,
            Template::Monthly(m) => {
                let i = usize::from(month.clamp(1, 12)) - 1;
                m.parsed[i]
                    .get_or_init(|| Format::parse(&[&m.before[..], &m.names[i], &m.after].concat()))
            }
        }
    }
}

/// Whether GNU's buffer holds `fmt` with each name spliced in.
fn fits(fmt: &[u8], months: &[Vec<u8>; 12]) -> bool {
    match first_percent_b(fmt) {
        None => fmt.len() < ABFORMAT_SIZE,
        Some(at) => {
            at <= ABFORMAT_SIZE
                && months
                    .iter()
                    .all(|m| fmt.len() - 2 + m.len() < ABFORMAT_SIZE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names measured as in a UTF-8 locale where CJK takes 2 columns.
    fn names(list: &str) -> [(Vec<u8>, Option<usize>); 12] {
        let v: Vec<&str> = list.split(';').collect();
        std::array::from_fn(|i| {
            let w = v[i]
                .chars()
                .map(|c| if c < '\u{1100}' { 1 } else { 2 })
                .sum();
            (v[i].as_bytes().to_vec(), Some(w))
        })
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
    fn long_names_are_kept_whole() {
        // LC_TIME=fr_FR.UTF-8 under LC_CTYPE=C: `févr.` is 6 bytes, and
        // GNU pads the others to 6 columns without cutting it.
        let p = padded("Januar;Feb;Mär;April;Mai;Juni;Juli;August;Sep;Okt;Nov;Dez");
        assert_eq!(p[0], "Januar");
        assert_eq!(p[1], "Feb   ");
    }

    #[test]
    fn a_name_invalid_in_lc_ctype_turns_alignment_off() {
        let mut n = names("Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec");
        n[4].1 = None;
        assert!(pad_months(&n).is_none());
    }

    /// GNU splices the padded name in place of the first `%b` (the other
    /// format, without one, is used as it is).
    #[test]
    fn padded_names_are_spliced_into_the_formats() {
        let months: [Vec<u8>; 12] = std::array::from_fn(|i| format!("m{i}  ").into_bytes());
        let (recent, old) = Template::pair(b"%e. %b %H:%M", b"%Y-%m", Some(&months));
        assert_eq!(recent.get(3), &Format::parse(b"%e. m2   %H:%M"));
        assert_eq!(recent.get(12), &Format::parse(b"%e. m11   %H:%M"));
        assert_eq!(old.get(3), &Format::parse(b"%Y-%m"));
        // zh_CN's catalog format: `%Y年%b%e日`.
        let zh: [Vec<u8>; 12] = std::array::from_fn(|i| format!("{:>2}月", i + 1).into_bytes());
        let (_, old) = Template::pair(
            "%b%e日 %H:%M".as_bytes(),
            "%Y年%b%e日".as_bytes(),
            Some(&zh),
        );
        assert_eq!(old.get(3), &Format::parse("%Y年 3月%e日".as_bytes()));
        // No names (GNU's alignment gave up): `%b` stays a conversion.
        let (recent, _) = Template::pair(b"%b %e", b"%b", None);
        assert_eq!(recent.get(5), &Format::parse(b"%b %e"));
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
        assert!(matches!((&r, &o), (Template::Monthly(_), Template::One(_))));
        // Too long for GNU's buffer: no alignment for either format.
        let long = [b"%b".as_slice(), &[b'x'; 126]].concat();
        let (r, _) = Template::pair(&long, b"%b", Some(&months));
        assert!(matches!(r, Template::One(_)));
    }
}
