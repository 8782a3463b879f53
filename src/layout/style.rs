//! Print styles (`--style`): one place that turns a laid-out document into its printed look, so
//! the sheet modules never ask which style is wanted.
//!
//! - [`Style::Default`]: as laid out, black on white.
//! - [`Style::Contrast`]: every stroke at least [`CONTRAST_MIN_STROKE`] mm and
//!   [`CONTRAST_STROKE_FACTOR`] times as wide, every grey line and text pure black; light fills
//!   stay light, so text on them keeps its contrast.
//! - [`Style::LowInk`]: greyscale, and no large fills: a filled shape larger than
//!   [`LOW_INK_MAX_FILL`] mm² (a table head, a glue strip) keeps only its outline, drawn in its fill's grey or, for a pale fill, [`LOW_INK_OUTLINE_GREY`], so it is
//!   still there to see and to measure. The sheets' words never name the colour of such a fill
//!   (the glue strip is "the strip marked glue"). The calibration bar stays solid black
//!   ([`is_calibration_bar`]): the sheets tell the user to measure the black bar, and an
//!   outline would leave them to guess which edge; it is 300 mm² of ink a page.
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
    /// Reads a style name as given on the command line (`default`, `contrast`, `low-ink`), in
    /// any case (`LOW-INK`, `Contrast`), as `--paper` reads its names. Errors: any other name
    /// (a message listing the names).
    pub fn parse(s: &str) -> Result<Style, String> {
        match s.to_ascii_lowercase().as_str() {
            "default" => Ok(Style::Default),
            "contrast" => Ok(Style::Contrast),
            "low-ink" => Ok(Style::LowInk),
            _ => Err(format!(
                "unknown style {s:?}: use default, contrast or low-ink"
            )),
        }
    }
}

/// The print look as the command line gives it (`--style large,contrast,colour`, …): one ink
/// style ([`Style`]), side colours or not, large print or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Look {
    /// Default, contrast or low-ink.
    pub ink: Style,
    /// The two sides also differ by colour (`colour`, [`SIDE_COLOURS`]).
    pub colour: bool,
    /// Large print (`large`): a layout input, not a post-pass; every sheet is laid out with
    /// [`Sizes::LARGE`].
    pub large: bool,
}

impl Look {
    /// Reads a comma-separated list of style names (`default`, `contrast`, `low-ink`,
    /// `colour` or `color`, `large`), e.g. `contrast,colour` or `large,low-ink`, each in any
    /// case (`LARGE,Contrast`); an error quotes a name as it was typed. Errors: an
    /// unknown name, a name given twice (`large,large`; `colour,color` is the same name twice),
    /// or both `contrast` and `low-ink` (a message naming the `--style` flag, the names and
    /// what is allowed).
    pub fn parse(s: &str) -> Result<Look, String> {
        let mut look = Look::default();
        let mut seen: Vec<String> = Vec::new();
        for name in s.split(',').map(str::trim) {
            let lower = name.to_ascii_lowercase();
            // `color` is `colour` spelt the American way: the same style.
            let canon = if lower == "color" {
                "colour".to_string()
            } else {
                lower.clone()
            };
            if seen.contains(&canon) {
                return Err(format!(
                    "--style {s}: {name:?} is given twice: name each style once, joined by commas (default, contrast, low-ink, colour, large; at most one of contrast and low-ink), e.g. large,contrast"
                ));
            }
            seen.push(canon);
            match lower.as_str() {
                "colour" | "color" => look.colour = true,
                "large" => look.large = true,
                _ => {
                    let ink = Style::parse(name).map_err(|_| {
                        format!(
                            "unknown style {name:?}: use default, contrast, low-ink, colour or large, or several joined by commas (e.g. large,contrast)"
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

/// The type sizes (pt) and the few sizes of drawn parts (mm) that depend on them, for every
/// sheet: the one place that defines normal and large print. Layout reads these, never a
/// literal size, so large print is re-laid out (wrapped, moved to more pages, larger cells and
/// mini boards), not scaled. Large print follows the brief: body text at least
/// [`LARGE_BODY_MIN`] pt and labels (pit and store labels, headings, titles, the board's row
/// names, the score log's column heads: every bold text with a letter in it) at least
/// [`LARGE_LABEL_MIN`] pt; seed counts in mini boards are set at the label size too; other
/// numbers (sowing order, step and tile numbers) are body
/// text. The board itself stays at its true play size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizes {
    /// Large print or not.
    pub large: bool,
    /// Rule sheet, practice and host key body text, pt.
    pub body: f64,
    /// "How to make this kit" body text, pt.
    pub howto: f64,
    /// Section heading, pt.
    pub head: f64,
    /// Rule sheet, practice and host key title, pt.
    pub title: f64,
    /// Title of the score log, counters, labels and markers sheets, pt.
    pub sheet_title: f64,
    /// Worked example and practice captions, pt.
    pub caption: f64,
    /// Title of a worked example on the rule sheet (bold), pt.
    pub example_title: f64,
    /// Heading of a practice exercise and its host key answer (bold), pt.
    pub sub_head: f64,
    /// Notes under a sheet title (counters, labels, markers, score log), pt.
    pub note: f64,
    /// Footer line, pt.
    pub footer: f64,
    /// The calibration bar's "100 mm" label (bold), pt.
    pub bar_label: f64,
    /// Score log cells, pt.
    pub cell: f64,
    /// Score log column heads (bold), pt.
    pub cell_head: f64,
    /// Score log row height, mm.
    pub row_h: f64,
    /// Seed counts in diagram pits (bold, no box), pt; in large print the label size, and never
    /// shrunk below it (a count is the figure a mini board is read for).
    pub count: f64,
    /// Smallest diagram text, pt: the least size a long mini-board label, a three-digit count
    /// or a store's name shrinks to in normal print.
    pub small: f64,
    /// The sowing-order numbers of a mini board, set in regular type, each in its own small
    /// box, so they never read as a count, pt: never under the sheet's caption size (normal
    /// print's 6 pt digits were 1.5 mm tall, too small for a child or an older player).
    pub order: f64,
    /// Labels in mini boards (pit labels and store names, regular), pt: normal print 7 (a
    /// store's name may shrink to [`Sizes::small`] to fit), large print's label size (they
    /// are labels, not body text).
    pub mini_label: f64,
    /// Board pit labels on pits of 24 mm or more, and below (bold), pt: the largest size tried.
    pub pit_label: f64,
    /// Board pit labels on pits under 24 mm (bold), pt.
    pub pit_label_small: f64,
    /// Smallest board pit and store label (bold), pt.
    pub pit_label_min: f64,
    /// Board store label (bold), pt: the largest size tried.
    pub store_label: f64,
    /// Board store notes, pt, the largest and the smallest.
    pub store_note: (f64, f64),
    /// Sowing-order numbers on the board's circuit arrows, pt.
    pub number: f64,
    /// Radius of the circle behind a sowing-order number, mm.
    pub number_r: f64,
    /// The board's row captions and legend (bold), pt.
    pub board_caption: f64,
    /// The board's row captions are wrapped over the left store and first pit column (large
    /// print), so a tile seam may fall in any other gap; else one line from the first column.
    pub wrap_row_captions: bool,
    /// Large print's wrapped row captions may run across the whole board (from the left
    /// store's left edge to the right store's right edge) instead of the left store and first
    /// pit column: set for a board on one sheet, which has no tile seam to keep clear.
    pub captions_board_wide: bool,
    /// Both row captions on one line below the board (normal print's one-line captions
    /// only): tried by the tiling where the caption band above the board alone costs a row
    /// of tiles ([`crate::geometry::BoardGeometry::with_captions_below`]).
    pub captions_below: bool,
    /// Tile and board-map headings (bold), pt.
    pub tile_head: f64,
    /// Tile join arrows and the glue word (bold), pt.
    pub tile_join: f64,
    /// Tile numbers on the assembly map (bold), pt, and the radius of their circles, mm.
    pub map_number: (f64, f64),
    /// Bowl label cell (width, height), mm.
    pub label_cell: (f64, f64),
    /// Bowl label name (bold), pt: the largest size tried and the smallest allowed.
    pub label_name: (f64, f64),
    /// Bowl label line saying whose pit or store it is, pt.
    pub label_who: f64,
    /// Bowl label circuit text, pt.
    pub circuit: f64,
    /// Bowl label circuit heading (bold), pt.
    pub circuit_head: f64,
    /// Marker words (bold), pt.
    pub marker: f64,
    /// Mini-board pits in diagrams, mm: the smallest at which the before and after boards
    /// stand side by side (else they are stacked), and the largest.
    pub mini_pit: (f64, f64),
    /// Headings over the mini boards ("Before", "After"; bold), pt.
    pub mini_head: f64,
    /// How many times the normal width every stroke of a mini board is drawn (outlines, the
    /// heavy ring of a pit lifted from, inner rings, the dashed capture ring and its dashes,
    /// the boxes round sowing-order numbers), so the lines grow with the larger pits and type.
    pub mini_line: f64,
}

/// Large print: smallest body text, pt.
pub const LARGE_BODY_MIN: f64 = 14.0;
/// Large print: smallest label, pt.
pub const LARGE_LABEL_MIN: f64 = 18.0;

impl Sizes {
    /// Normal print: the sizes every sheet has always used.
    pub const NORMAL: Sizes = Sizes {
        large: false,
        body: 10.0,
        howto: 9.5,
        head: 12.0,
        title: 18.0,
        sheet_title: 14.0,
        caption: 9.0,
        example_title: 10.0,
        sub_head: 11.0,
        note: 8.5,
        footer: 7.0,
        bar_label: 8.0,
        cell: 8.0,
        cell_head: 8.0,
        row_h: 6.5,
        count: 10.0,
        small: 6.0,
        // The captions' size: digits 2.3 mm tall (DejaVu Sans digits are 1493/2048 em).
        order: 9.0,
        mini_label: 7.0,
        pit_label: 10.0,
        pit_label_small: 8.0,
        pit_label_min: 5.0,
        store_label: 9.0,
        store_note: (7.0, 4.5),
        number: 7.0,
        number_r: 2.5,
        board_caption: 9.0,
        wrap_row_captions: false,
        captions_board_wide: false,
        captions_below: false,
        tile_head: 11.0,
        tile_join: 8.0,
        map_number: (12.0, 5.0),
        label_cell: (50.0, 25.0),
        label_name: (16.0, 6.0),
        label_who: 6.5,
        circuit: 9.0,
        circuit_head: 10.0,
        marker: 10.0,
        mini_pit: (12.0, 13.0),
        mini_head: 8.0,
        mini_line: 1.0,
    };
    /// Large print (`--style large`): body at least [`LARGE_BODY_MIN`], labels at least
    /// [`LARGE_LABEL_MIN`] pt.
    pub const LARGE: Sizes = Sizes {
        large: true,
        body: LARGE_BODY_MIN,
        howto: LARGE_BODY_MIN,
        head: LARGE_LABEL_MIN,
        title: 24.0,
        sheet_title: 22.0,
        caption: LARGE_BODY_MIN,
        example_title: LARGE_LABEL_MIN,
        sub_head: LARGE_LABEL_MIN,
        note: LARGE_BODY_MIN,
        footer: LARGE_BODY_MIN,
        bar_label: LARGE_LABEL_MIN,
        cell: LARGE_BODY_MIN,
        cell_head: LARGE_LABEL_MIN,
        row_h: 9.0,
        // Counts are the key figure of a mini board: never smaller than its labels (a reader
        // measured 16 pt counts beside 18 pt labels); the sowing-order numbers stay body text,
        // boxed and regular.
        count: LARGE_LABEL_MIN,
        small: LARGE_BODY_MIN,
        order: LARGE_BODY_MIN,
        mini_label: LARGE_LABEL_MIN,
        pit_label: LARGE_LABEL_MIN,
        pit_label_small: LARGE_LABEL_MIN,
        pit_label_min: LARGE_LABEL_MIN,
        store_label: LARGE_LABEL_MIN,
        store_note: (LARGE_BODY_MIN, LARGE_BODY_MIN),
        number: LARGE_BODY_MIN,
        number_r: 4.0,
        board_caption: LARGE_LABEL_MIN,
        wrap_row_captions: true,
        captions_board_wide: false,
        captions_below: false,
        tile_head: LARGE_LABEL_MIN,
        tile_join: LARGE_LABEL_MIN,
        map_number: (LARGE_LABEL_MIN, 6.5),
        label_cell: (85.0, 45.0),
        label_name: (28.0, LARGE_LABEL_MIN),
        label_who: LARGE_BODY_MIN,
        circuit: LARGE_BODY_MIN,
        circuit_head: LARGE_LABEL_MIN,
        marker: LARGE_LABEL_MIN,
        mini_pit: (20.0, 22.0),
        mini_head: LARGE_LABEL_MIN,
        // The mini pits are 20/12 of the normal ones across.
        mini_line: 1.6,
    };

    /// [`Sizes::LARGE`] when `large`, else [`Sizes::NORMAL`].
    pub fn new(large: bool) -> Sizes {
        if large {
            Sizes::LARGE
        } else {
            Sizes::NORMAL
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
/// The width a stroke laid out `w` mm wide is printed at in the heaviest ink style
/// ([`Style::Contrast`]), mm: layout keeps text clear of a stroke by this, whatever the style.
pub fn widest_stroke(w: f64) -> f64 {
    (w * CONTRAST_STROKE_FACTOR).max(CONTRAST_MIN_STROKE)
}
/// Low-ink style: largest filled area kept, mm² (a 12 × 12 mm square).
pub const LOW_INK_MAX_FILL: f64 = 144.0;
/// Low-ink style: width of the outline that replaces a large fill, mm.
pub const LOW_INK_OUTLINE: f64 = 0.4;
/// Low-ink style: the lightest grey of the outline that replaces a large fill (a fill darker
/// than this keeps its own grey), so a pale glue strip or table head stays easy to see.
pub const LOW_INK_OUTLINE_GREY: Color = Color::grey(150);

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
                            let w = widest_stroke(st.width);
                            // Dashes and gaps grow with the stroke, so a heavier dashed ring
                            // still reads as dashed.
                            let k = if st.width > 0.0 { w / st.width } else { 1.0 };
                            for d in &mut st.dash {
                                *d *= k;
                            }
                            st.width = w;
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
                            if area > LOW_INK_MAX_FILL
                                && f != Color::WHITE
                                && !is_calibration_bar(&s.segs)
                            {
                                s.fill = None;
                                if s.stroke.is_none() {
                                    // A pale fill (a glue strip) keeps an outline dark enough
                                    // to find: at most LOW_INK_OUTLINE_GREY.
                                    let g = f.r.min(LOW_INK_OUTLINE_GREY.r);
                                    s.stroke = Some(Stroke::solid(LOW_INK_OUTLINE, Color::grey(g)));
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

/// Whether `segs` outline the calibration bar: a shape exactly
/// [`super::page::BAR_LENGTH`] × [`super::page::BAR_HEIGHT`] mm at the left margin, the one
/// large fill low-ink keeps (module doc).
pub fn is_calibration_bar(segs: &[crate::doc::Seg]) -> bool {
    bounds(segs).is_some_and(|(x0, y0, x1, y1)| {
        (x0 - super::page::MARGIN).abs() < 1e-6
            && (x1 - x0 - super::page::BAR_LENGTH).abs() < 1e-6
            && (y1 - y0 - super::page::BAR_HEIGHT).abs() < 1e-6
    })
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
                colour: true,
                large: false
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
        let l = Look::parse("large,low-ink").unwrap();
        assert_eq!((l.ink, l.colour, l.large), (Style::LowInk, false, true));
        assert!(!Look::parse("contrast").unwrap().large);
        // A style named twice is refused, naming the flag, the name and what is allowed;
        // `colour` and `color` are one style.
        for twice in [
            "large,large",
            "large, contrast,large",
            "colour,color",
            "low-ink,low-ink",
        ] {
            let e = Look::parse(twice).unwrap_err();
            assert!(e.contains("--style") && e.contains("twice"), "{twice}: {e}");
            assert!(e.contains("low-ink") && e.contains("large"), "{twice}: {e}");
        }
        // Every pair of different styles that may go together still does.
        for ok in [
            "large,contrast",
            "large,low-ink",
            "contrast,large,colour",
            "default,large",
        ] {
            assert!(Look::parse(ok).is_ok(), "{ok}");
        }
        // Any case, as `--paper A4` (a tester's `--style LARGE` was refused); a name in two
        // cases is still one name given twice, and an unknown one is quoted as typed.
        assert_eq!(Style::parse("LOW-INK"), Ok(Style::LowInk));
        assert_eq!(
            Look::parse("LARGE,Contrast,COLOR"),
            Ok(Look {
                ink: Style::Contrast,
                colour: true,
                large: true
            })
        );
        assert_eq!(Look::parse("Default"), Ok(Look::default()));
        let e = Look::parse("Large,large").unwrap_err();
        assert!(e.contains("\"large\" is given twice"), "{e}");
        let e = Look::parse("Colour,COLOR").unwrap_err();
        assert!(e.contains("\"COLOR\" is given twice"), "{e}");
        let e = Look::parse("LARGE,LOUD").unwrap_err();
        assert!(e.starts_with("unknown style \"LOUD\": use default"), "{e}");
        assert!(Look::parse("CONTRAST,low-ink")
            .unwrap_err()
            .contains("cannot be combined"));
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
