//! Paper sizes: the named ones a club prints on and custom `WxHmm` / `WxHin` sizes.

use std::fmt;

/// Longest paper name kept, bytes (custom names are written like `420x594mm`).
const NAME_CAP: usize = 24;

/// A paper's name, stored inline so [`Paper`] stays `Copy`; derefs to `&str` and prints as it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PaperName {
    bytes: [u8; NAME_CAP],
    len: u8,
}

impl PaperName {
    /// `s` cut to at most [`NAME_CAP`] bytes at a character boundary.
    pub const fn new(s: &str) -> PaperName {
        let b = s.as_bytes();
        let mut len = if b.len() < NAME_CAP {
            b.len()
        } else {
            NAME_CAP
        };
        // Back off to a character boundary.
        while len > 0 && len < b.len() && (b[len] & 0xC0) == 0x80 {
            len -= 1;
        }
        let mut bytes = [0u8; NAME_CAP];
        let mut i = 0;
        while i < len {
            bytes[i] = b[i];
            i += 1;
        }
        PaperName {
            bytes,
            len: len as u8,
        }
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl std::ops::Deref for PaperName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for PaperName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for PaperName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<&str> for PaperName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A paper size, millimetres, portrait orientation (width ≤ height).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paper {
    /// Name shown in messages and footers (`A4`, `Letter`, `420x594mm`).
    pub name: PaperName,
    /// Portrait width, mm.
    pub width: f64,
    /// Portrait height, mm.
    pub height: f64,
}

/// ISO A4, 210 × 297 mm (595.276 × 841.890 pt).
pub const A4: Paper = Paper {
    name: PaperName::new("A4"),
    width: 210.0,
    height: 297.0,
};
/// ISO A3, 297 × 420 mm.
pub const A3: Paper = Paper {
    name: PaperName::new("A3"),
    width: 297.0,
    height: 420.0,
};
/// US Letter, 8.5 × 11 in = 215.9 × 279.4 mm (612 × 792 pt).
pub const LETTER: Paper = Paper {
    name: PaperName::new("Letter"),
    width: 215.9,
    height: 279.4,
};
/// US Legal, 8.5 × 14 in = 215.9 × 355.6 mm.
pub const LEGAL: Paper = Paper {
    name: PaperName::new("Legal"),
    width: 215.9,
    height: 355.6,
};
/// US Tabloid (Ledger turned upright), 11 × 17 in = 279.4 × 431.8 mm.
pub const TABLOID: Paper = Paper {
    name: PaperName::new("Tabloid"),
    width: 279.4,
    height: 431.8,
};

/// Every named paper, in the order `--help` lists them.
pub const NAMED: [Paper; 5] = [A4, LETTER, A3, TABLOID, LEGAL];

/// Shortest side a custom paper may have, mm: the 100 mm calibration bar, its label and two
/// margins must fit across.
pub const MIN_SIDE: f64 = 140.0;
/// Longest side a custom paper may have, mm (a 2 m plotter roll).
pub const MAX_SIDE: f64 = 2000.0;

impl Paper {
    /// Parses a paper: a name (`a4`, `letter`, `a3`, `tabloid`, `legal`, any case) or a custom
    /// size `WxHmm` / `WxHin` / `WxH"` (`x` or `×`, e.g. `420x594mm`, `11x17in`, `8.5x14"`),
    /// stored portrait whichever way round it is written, and named as written in its plainest
    /// form (`0210.50 × 297MM` is named `210.5x297mm`, `8.5x11"` is `8.5x11in`).
    ///
    /// Errors: an unknown name, a malformed size, a missing unit, a side not written in
    /// digits with at most two decimals (an exponent such as `1e3`, a sign, a bare point), or
    /// a side under [`MIN_SIDE`] mm or over [`MAX_SIDE`] mm; the message says what would be
    /// right.
    pub fn parse(s: &str) -> Result<Paper, String> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        if let Some(p) = NAMED
            .iter()
            .find(|p| p.name.as_str().eq_ignore_ascii_case(&lower))
        {
            return Ok(*p);
        }
        let help = "use a4, letter, a3, tabloid or legal, or a size such as 420x594mm or 11x17in";
        if t.is_empty() {
            return Err(format!("no paper given: {help}"));
        }
        // `"` is inches as `in` is (`8.5x11"`, as US users write it; named `8.5x11in`).
        let (nums, unit) = match size_unit(&lower, true) {
            SizeUnit::Given(n, unit) => (n, unit),
            _ if !(lower.contains('x') || lower.contains('×')) => {
                return Err(format!("unknown paper {t:?}: {help}"));
            }
            // Letters after the last number are a unit, one sowkit does not take (`cm`, `m`,
            // `pt`): named as such, not as a size with no unit.
            SizeUnit::Other(letters) => {
                let (before, given) = t.split_at(t.len() - letters);
                let side = before.rsplit(['x', 'X', '×']).next().unwrap_or("").trim();
                return Err(format!(
                    "paper {t:?}: {side}{given}: {given} is not a unit sowkit takes; use mm or in, such as 210x297mm or 8.5x11in"
                ));
            }
            SizeUnit::None => {
                return Err(format!(
                    "paper {t:?} has no unit: end it with mm or in (e.g. 420x594mm, 11x17in)"
                ));
            }
        };
        let parts: Vec<&str> = nums.split(['x', '×']).map(str::trim).collect();
        let num = |p: &str| p.parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0);
        // A number Rust reads but a person would not write on a paper size (`1e3`, `1e400`,
        // `+210`, `-210`, `210.`, `.5`, `297.125`), whatever its value: refused with the form
        // to use, so the name printed in every footer is never `1e3x200mm`, and `1e400` is not
        // called "not a number" nor `1e-400` "not above 0".
        let unplain = |p: &str| {
            !plain_decimal(p) && p.bytes().any(|b| b.is_ascii_digit()) && p.parse::<f64>().is_ok()
        };
        let (w, h) = match parts.as_slice() {
            [a, b] => match (num(a), num(b)) {
                _ if unplain(a) || unplain(b) => {
                    let bad = if unplain(a) { a } else { b };
                    let why = if bad.contains(['e', 'E']) {
                        "is written with an exponent"
                    } else if bad.split_once('.').is_some_and(|(_, f)| f.len() > 2) {
                        "has more than two decimals"
                    } else {
                        "is not written in plain digits"
                    };
                    return Err(format!(
                        "paper {t:?}: {bad:?} {why}; write width and height in digits, with at most two decimals after a point, and the unit once at the end, such as 210x297mm or 8.5x11in"
                    ));
                }
                (Some(a), Some(b)) => (a * unit, b * unit),
                _ => {
                    // Name the part that is not a positive number ("200mm" in 200x200mmmm).
                    let bad = if num(a).is_none() { a } else { b };
                    let what = if plain_decimal(bad) {
                        "is not above 0"
                    } else {
                        "is not a number"
                    };
                    return Err(format!(
                        "paper {t:?}: {bad:?} {what}; width and height are positive numbers, the unit once at the end: {help}"
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "paper {t:?} is not WIDTHxHEIGHT with a unit: {help}"
                ))
            }
        };
        let (short, long) = (w.min(h), w.max(h));
        // A side far from any paper is named as "under 0.1" / "over 10000" mm, not with 300
        // digits or as "0.0" (break-it pass: 140x1e308mm, 1e-300x140mm).
        // A side within rounding of its limit is "just under" or "just over" it (139.9999 mm
        // read "140.0 mm … at least 140 mm").
        let side = |v: f64| {
            if v < 0.1 {
                "under 0.1".to_string()
            } else if v > 10_000.0 {
                "over 10000".to_string()
            } else if v < MIN_SIDE
                && format!("{v:.1}")
                    .parse::<f64>()
                    .is_ok_and(|r| r >= MIN_SIDE)
            {
                format!("just under {MIN_SIDE}")
            } else if v > MAX_SIDE
                && format!("{v:.1}")
                    .parse::<f64>()
                    .is_ok_and(|r| r <= MAX_SIDE)
            {
                format!("just over {MAX_SIDE}")
            } else {
                format!("{v:.1}")
            }
        };
        if short < MIN_SIDE {
            return Err(format!(
                "paper {t:?} is {} mm on its short side: at least {MIN_SIDE} mm is needed for the 100 mm calibration bar and the margins",
                side(short)
            ));
        }
        if long > MAX_SIDE {
            return Err(format!(
                "paper {t:?} is {} mm on its long side: at most {MAX_SIDE} mm",
                side(long)
            ));
        }
        // Round to 0.01 mm so a size in inches prints as exactly as a named one.
        let r = |v: f64| (v * 100.0).round() / 100.0;
        // Named as written, in its plainest form: `0210.50 × 297MM` is `210.5x297mm`.
        let name = format!(
            "{}x{}{}",
            plain_name(parts[0]),
            plain_name(parts[1]),
            if unit == 1.0 { "mm" } else { "in" }
        );
        Ok(Paper {
            name: PaperName::new(&name),
            width: r(short),
            height: r(long),
        })
    }
}

/// How a written size ends: the unit `--paper` and `--bed` read it in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SizeUnit<'a> {
    /// A unit sowkit takes: the text before it (trailing spaces trimmed) and millimetres per
    /// unit (1 for `mm`, 25.4 for `in`, or `"` where the caller takes it).
    Given(&'a str, f64),
    /// Letters after the last digit that are no unit sowkit takes (`cm`, `m`, `pt`): how many
    /// bytes they are, at the end of the text.
    Other(usize),
    /// No letters after the last number: no unit written.
    None,
}

/// The unit at the end of `lower` (a size, trimmed and in ASCII lower case): `mm`, `in`, or
/// `"` for inches when `inch_mark` (both `--paper` and `--bed` take `9x9"`). Both
/// `Paper::parse` and `Bed::parse` read their unit here, so they agree on what is a unit,
/// what is a unit sowkit does not take, and what has none; each words its own messages.
pub(crate) fn size_unit(lower: &str, inch_mark: bool) -> SizeUnit<'_> {
    if let Some(n) = lower.strip_suffix("mm") {
        return SizeUnit::Given(n.trim_end(), 1.0);
    }
    let inches = lower
        .strip_suffix("in")
        .or_else(|| lower.strip_suffix('"').filter(|_| inch_mark));
    if let Some(n) = inches {
        return SizeUnit::Given(n.trim_end(), 25.4);
    }
    let letters = lower.len()
        - lower
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    let before = &lower[..lower.len() - letters];
    if letters > 0 && before.trim_end().ends_with(|c: char| c.is_ascii_digit()) {
        SizeUnit::Other(letters)
    } else {
        SizeUnit::None
    }
}

/// Whether `p` is a size as a person writes one: ASCII digits, then at most a point and one
/// or two digits (`210`, `8.5`, `215.90`); not `1e3`, `+210`, `210.`, `.5` or `297.125`.
pub(crate) fn plain_decimal(p: &str) -> bool {
    let (int, frac) = p.split_once('.').unwrap_or((p, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !int.is_empty()
        && digits(int)
        && digits(frac)
        && frac.len() <= 2
        // A point has digits after it (`210.` is not a size).
        && !(p.contains('.') && frac.is_empty())
}

/// A [`plain_decimal`] without leading zeros in its whole part or trailing zeros after its
/// point (`0210.50` is `210.5`, `297.00` is `297`).
fn plain_name(p: &str) -> String {
    let (int, frac) = p.split_once('.').unwrap_or((p, ""));
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    }
}

impl std::str::FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Paper, String> {
        Paper::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::{size_unit, Paper, SizeUnit};
    use crate::mesh::Bed;

    /// The one reading of a size's unit: `mm`, `in`, `"` only where the caller takes it, a unit
    /// sowkit does not take (letters after a digit), or none.
    #[test]
    fn a_sizes_unit_is_read_once_for_paper_and_bed() {
        assert_eq!(
            size_unit("420x594mm", false),
            SizeUnit::Given("420x594", 1.0)
        );
        assert_eq!(size_unit("9x9 in", false), SizeUnit::Given("9x9", 25.4));
        assert_eq!(size_unit("9x9\"", true), SizeUnit::Given("9x9", 25.4));
        assert_eq!(size_unit("9x9\"", false), SizeUnit::None);
        assert_eq!(size_unit("21x29.7cm", false), SizeUnit::Other(2));
        assert_eq!(size_unit("200x200", true), SizeUnit::None);
        // Letters after no digit are no unit: "x cm" ends a side with nothing in it.
        assert_eq!(size_unit("210x cm", false), SizeUnit::None);
        // Both parsers name the same text as a unit sowkit does not take, each in its words.
        assert!(Paper::parse("21x29.7cm")
            .unwrap_err()
            .contains("cm is not a unit sowkit takes"));
        assert!(Bed::parse("21x29.7cm")
            .unwrap_err()
            .contains("cm is not a unit sowkit takes"));
        // `"` is inches for both (a break-it pass typed `--paper '8.5x11"'` and was told it
        // had no unit): 8.5 in = 215.9 mm, 11 in = 279.4 mm, named as `in` is.
        assert_eq!(Bed::parse("9x9\"").unwrap(), Bed { w: 228.6, h: 228.6 });
        let p = Paper::parse("8.5x11\"").unwrap();
        assert_eq!((p.width, p.height), (215.9, 279.4));
        assert_eq!(p.name.as_str(), "8.5x11in");
        assert_eq!(
            Paper::parse(" 11 x 17 \" ").unwrap().name.as_str(),
            "11x17in"
        );
        // Nothing given is said as such, not as an unknown paper "".
        assert!(Paper::parse("  ")
            .unwrap_err()
            .starts_with("no paper given: use a4"));
    }
}
