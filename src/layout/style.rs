//! Print styles (`--style`): one place that turns a laid-out document into its printed look, so
//! the sheet modules never ask which style is wanted.
//!
//! - [`Style::Default`]: as laid out, black on white.
//! - [`Style::Contrast`]: every stroke at least [`CONTRAST_MIN_STROKE`] mm and
//!   [`CONTRAST_STROKE_FACTOR`] times as wide, every grey line and text pure black; light fills
//!   stay light, so text on them keeps its contrast.
//! - [`Style::LowInk`]: greyscale, and no large fills: a filled shape larger than
//!   [`LOW_INK_MAX_FILL`] mm² (the calibration bar, a table head, a glue strip) keeps only its
//!   outline, drawn in its fill's grey, so it is still there to see and to measure.
//!
//! Nothing is ever told by colour alone: every style keeps the rings, dashes and words that
//! tell the sides and marks apart. [`contrast_ratio`] is the WCAG 2.x formula the tests use.
use crate::doc::{bounds, Color, Document, Item, Stroke};

/// A print style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// Black on white, as laid out.
    #[default]
    Default,
    /// High contrast: heavier strokes, pure black lines and text.
    Contrast,
    /// Greyscale with no large fills.
    LowInk,
}

impl Style {
    /// Reads a style name as given on the command line (`default`, `contrast`, `low-ink`).
    /// Errors: any other name (a message listing the names).
    pub fn parse(s: &str) -> Result<Style, String> {
        match s {
            "default" => Ok(Style::Default),
            "contrast" => Ok(Style::Contrast),
            "low-ink" => Ok(Style::LowInk),
            _ => Err(format!(
                "unknown style {s:?}: use default, contrast or low-ink"
            )),
        }
    }
}

/// Contrast style: strokes are this many times wider …
pub const CONTRAST_STROKE_FACTOR: f64 = 1.6;
/// … and at least this wide, mm.
pub const CONTRAST_MIN_STROKE: f64 = 0.35;
/// Low-ink style: largest filled area kept, mm² (a 12 × 12 mm square).
pub const LOW_INK_MAX_FILL: f64 = 144.0;
/// Low-ink style: width of the outline that replaces a large fill, mm.
pub const LOW_INK_OUTLINE: f64 = 0.4;

/// Relative luminance of an sRGB colour (WCAG 2.x).
pub fn luminance(c: Color) -> f64 {
    let ch = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b)
}

/// WCAG 2.x contrast ratio of two colours, 1 to 21.
pub fn contrast_ratio(a: Color, b: Color) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// The grey of the same luminance as `c` (for greyscale printing).
fn grey_of(c: Color) -> Color {
    if c.r == c.g && c.g == c.b {
        return c;
    }
    let l = luminance(c);
    let s = if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    Color::grey((s * 255.0).round().clamp(0.0, 255.0) as u8)
}

/// Gives every page of `doc` the look of `style` (see the module doc). `Default` changes
/// nothing.
pub fn apply(doc: &mut Document, style: Style) {
    if style == Style::Default {
        return;
    }
    for page in &mut doc.pages {
        restyle(&mut page.items, style);
    }
}

/// Restyles `items`, and the items inside clip regions.
fn restyle(items: &mut [Item], style: Style) {
    {
        for item in items.iter_mut() {
            match item {
                Item::Text(t) => {
                    t.color = match style {
                        Style::Contrast => Color::BLACK,
                        _ => grey_of(t.color),
                    }
                }
                Item::Shape(s) => match style {
                    Style::Contrast => {
                        if let Some(st) = &mut s.stroke {
                            st.width = (st.width * CONTRAST_STROKE_FACTOR).max(CONTRAST_MIN_STROKE);
                            st.color = Color::BLACK;
                        }
                        // Dark fills become black; light ones (behind text) stay as they are.
                        if let Some(f) = s.fill {
                            if luminance(f) < 0.4 {
                                s.fill = Some(Color::BLACK);
                            }
                        }
                    }
                    Style::LowInk => {
                        if let Some(st) = &mut s.stroke {
                            st.color = grey_of(st.color);
                        }
                        if let Some(f) = s.fill {
                            let f = grey_of(f);
                            s.fill = Some(f);
                            let area = bounds(&s.segs)
                                .map(|(x0, y0, x1, y1)| (x1 - x0) * (y1 - y0))
                                .unwrap_or(0.0);
                            if area > LOW_INK_MAX_FILL && f != Color::WHITE {
                                s.fill = None;
                                if s.stroke.is_none() {
                                    s.stroke = Some(Stroke::solid(LOW_INK_OUTLINE, f));
                                }
                            }
                        }
                    }
                    Style::Default => {}
                },
                // A clip region paints nothing itself: its items are restyled.
                Item::Clip(c) => restyle(&mut c.items, style),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wcag_contrast_of_known_pairs() {
        // Black on white is 21:1, a colour on itself 1:1 (WCAG 2.x definition).
        assert!((contrast_ratio(Color::BLACK, Color::WHITE) - 21.0).abs() < 1e-9);
        assert!((contrast_ratio(Color::grey(128), Color::grey(128)) - 1.0).abs() < 1e-9);
        // #777777 on white: L = 0.184, (1.05)/(0.234) = 4.48, just short of 4.5 (a pair often
        // quoted as failing AA).
        let r = contrast_ratio(Color::grey(0x77), Color::WHITE);
        assert!((r - 4.48).abs() < 0.01, "{r}");
    }

    #[test]
    fn styles_parse() {
        assert_eq!(Style::parse("low-ink"), Ok(Style::LowInk));
        assert!(Style::parse("loud").unwrap_err().contains("contrast"));
    }
}
