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

/// The print look as the command line gives it (`--style contrast,colour`, …): one ink style
/// ([`Style`]), side colours or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Look {
    /// Default, contrast or low-ink.
    pub ink: Style,
    /// The two sides also differ by colour (`colour`, [`SIDE_COLOURS`]).
    pub colour: bool,
}

impl Look {
    /// Reads a comma-separated list of style names (`default`, `contrast`, `low-ink`,
    /// `colour` or `color`), e.g. `contrast,colour`. Errors: an unknown name, or both `contrast`
    /// and `low-ink` (a message naming them).
    pub fn parse(s: &str) -> Result<Look, String> {
        let mut look = Look::default();
        for name in s.split(',').map(str::trim) {
            match name {
                "colour" | "color" => look.colour = true,
                _ => {
                    let ink = Style::parse(name).map_err(|_| {
                        format!(
                            "unknown style {name:?}: use default, contrast, low-ink or colour, or several joined by commas (e.g. contrast,colour)"
                        )
                    })?;
                    if ink != Style::Default && look.ink != Style::Default && ink != look.ink {
                        return Err(format!(
                            "styles {:?} and {name:?} cannot be combined: choose one ink style (contrast or low-ink)",
                            look.ink.name()
                        ));
                    }
                    if ink != Style::Default {
                        look.ink = ink;
                    }
                }
            }
        }
        Ok(look)
    }
}

impl Style {
    /// The name as given on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Style::Default => "default",
            Style::Contrast => "contrast",
            Style::LowInk => "low-ink",
        }
    }
}

/// How layout draws the outlines and rings of side 0's and side 1's pits and stores: two
/// near-black marks (indistinguishable from black on paper) that [`apply`] always turns into
/// black, or, with side colours, into [`SIDE_COLOURS`]. Only finished pages are resolved; the
/// board drawing before [`apply`] still carries the marks.
pub const SIDE_INK: [Color; 2] = [Color::rgb(1, 0, 0), Color::rgb(0, 0, 1)];
/// Side colours (`--style colour`), from the Okabe–Ito colour-blind-safe palette: side 0
/// vermillion (#D55E00), side 1 blue (#0072B2). Both keep at least 3:1 against white (WCAG
/// non-text contrast) and are told apart with every common colour-vision deficiency. They are
/// only ever added to the single/double rings and the letters that already tell the sides apart.
pub const SIDE_COLOURS: [Color; 2] = [Color::rgb(0xD5, 0x5E, 0x00), Color::rgb(0x00, 0x72, 0xB2)];
/// Light tints of [`SIDE_COLOURS`] (a quarter of the colour on white) that fill the sides' pits
/// and stores with side colours, except in low-ink; text on them keeps far above 4.5:1.
pub const SIDE_TINTS: [Color; 2] = [Color::rgb(245, 215, 191), Color::rgb(191, 220, 236)];

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

/// Gives every page of `doc` the look of `style` (see the module doc), and resolves the side
/// marks [`SIDE_INK`]: black, or with `colour` the side colours ([`SIDE_COLOURS`] on the
/// outlines, [`SIDE_TINTS`] in white-filled pits and stores unless low-ink). `Default` without
/// colour changes nothing else.
pub fn apply(doc: &mut Document, style: Style, colour: bool) {
    for page in &mut doc.pages {
        restyle(&mut page.items, style, colour);
    }
}

/// Restyles `items`, and the items inside clip regions.
fn restyle(items: &mut [Item], style: Style, colour: bool) {
    {
        for item in items.iter_mut() {
            if let Item::Shape(s) = item {
                let side = s
                    .stroke
                    .as_ref()
                    .and_then(|st| SIDE_INK.iter().position(|c| *c == st.color));
                if let (Some(side), Some(st)) = (side, &mut s.stroke) {
                    st.color = Color::BLACK;
                    if colour {
                        st.color = SIDE_COLOURS[side];
                        if style != Style::LowInk && s.fill == Some(Color::WHITE) {
                            s.fill = Some(SIDE_TINTS[side]);
                        }
                    }
                }
            }
            let side_colour = |c: Color| colour && SIDE_COLOURS.contains(&c);
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
                            if !side_colour(st.color) {
                                st.color = Color::BLACK;
                            }
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
                            if !side_colour(st.color) {
                                st.color = grey_of(st.color);
                            }
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
                Item::Clip(c) => restyle(&mut c.items, style, colour),
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
        assert_eq!(
            Look::parse("contrast,colour"),
            Ok(Look {
                ink: Style::Contrast,
                colour: true
            })
        );
        assert_eq!(
            Look::parse("color, low-ink").map(|l| (l.ink, l.colour)),
            Ok((Style::LowInk, true))
        );
        assert!(Look::parse("contrast,low-ink")
            .unwrap_err()
            .contains("cannot be combined"));
        assert!(Look::parse("colour,loud").unwrap_err().contains("\"loud\""));
    }

    #[test]
    fn side_colours_are_okabe_ito_and_keep_non_text_contrast() {
        // Okabe & Ito (2008), "Color Universal Design": vermillion (213, 94, 0), blue (0, 114, 178).
        assert_eq!(SIDE_COLOURS[0], Color::rgb(213, 94, 0));
        assert_eq!(SIDE_COLOURS[1], Color::rgb(0, 114, 178));
        for c in SIDE_COLOURS {
            assert!(contrast_ratio(c, Color::WHITE) >= 3.0);
        }
        for t in SIDE_TINTS {
            assert!(contrast_ratio(Color::BLACK, t) >= 4.5);
        }
    }
}
