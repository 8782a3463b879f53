//! The page model: what layout produces and both backends draw.
//!
//! All lengths are millimetres, origin at the page's top-left corner, y growing downward
//! (the SVG convention; the PDF backend flips y once). Text sizes are in points (pt), because
//! that is how type is specified; everything else is millimetres. Items are drawn in order.
//! Nothing here knows about mancala or about PDF/SVG syntax.

/// A point in millimetres from the page's top-left corner, y down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    /// Millimetres from the left edge.
    pub x: f64,
    /// Millimetres from the top edge.
    pub y: f64,
}

/// Shorthand for [`Pt`].
pub fn pt(x: f64, y: f64) -> Pt {
    Pt { x, y }
}

/// An sRGB colour, 8 bits a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

impl Color {
    /// Pure black (K only when printed): text, cut lines, the calibration bar.
    pub const BLACK: Color = Color { r: 0, g: 0, b: 0 };
    /// White.
    pub const WHITE: Color = Color {
        r: 255,
        g: 255,
        b: 255,
    };
    /// Builds a colour from 0–255 channels.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b }
    }
    /// A neutral grey; `level` 0 = black, 255 = white.
    pub const fn grey(level: u8) -> Color {
        Color {
            r: level,
            g: level,
            b: level,
        }
    }
}

/// One segment of a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    /// Starts a new subpath at the point.
    MoveTo(Pt),
    /// Straight line to the point.
    LineTo(Pt),
    /// Cubic Bézier: two control points, then the end point.
    CubicTo(Pt, Pt, Pt),
    /// Closes the current subpath.
    Close,
}

/// How a path's outline is stroked.
#[derive(Clone, Debug, PartialEq)]
pub struct Stroke {
    /// Line width in millimetres.
    pub width: f64,
    /// Stroke colour.
    pub color: Color,
    /// Dash pattern in millimetres (on, off, on, off, …); empty for a solid line.
    pub dash: Vec<f64>,
}

impl Stroke {
    /// A solid stroke of `width` mm.
    pub fn solid(width: f64, color: Color) -> Stroke {
        Stroke {
            width,
            color,
            dash: Vec::new(),
        }
    }
    /// A dashed stroke of `width` mm with the given on/off pattern in mm.
    pub fn dashed(width: f64, color: Color, dash: &[f64]) -> Stroke {
        Stroke {
            width,
            color,
            dash: dash.to_vec(),
        }
    }
}

/// A vector shape: segments plus how to paint them (fill uses the non-zero rule).
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// The outline, in page millimetres.
    pub segs: Vec<Seg>,
    /// Fill colour, or `None` for no fill.
    pub fill: Option<Color>,
    /// Stroke, or `None` for no outline.
    pub stroke: Option<Stroke>,
}

/// Font weight of the bundled family (DejaVu Sans).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weight {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
}

/// One line of text, already positioned by layout: `x` is where the first glyph starts
/// (left edge of its advance), `y` is the baseline. Layout measures with [`crate::text`],
/// so backends never measure or align.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    /// Left end of the baseline, millimetres.
    pub x: f64,
    /// Baseline, millimetres from the top.
    pub y: f64,
    /// Font size in points.
    pub size_pt: f64,
    /// Regular or bold.
    pub weight: Weight,
    /// Fill colour of the glyphs.
    pub color: Color,
    /// The characters; a single line (no `\n`).
    pub text: String,
}

/// Items drawn only inside a rectangle (a board tile shows its part of a larger drawing).
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Left edge of the visible rectangle, mm.
    pub x: f64,
    /// Top edge, mm.
    pub y: f64,
    /// Width, mm.
    pub w: f64,
    /// Height, mm.
    pub h: f64,
    /// What is drawn, in page millimetres and painting order; ink outside the rectangle is not
    /// printed.
    pub items: Vec<Item>,
}

/// Something drawn on a page.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A vector shape.
    Shape(Shape),
    /// A line of text.
    Text(Text),
    /// Items clipped to a rectangle.
    Clip(Clip),
}

impl Item {
    /// This item moved by (`dx`, `dy`) mm (a clip's rectangle and contents alike).
    pub fn translated(&self, dx: f64, dy: f64) -> Item {
        let mv = |p: &Pt| pt(p.x + dx, p.y + dy);
        match self {
            Item::Shape(s) => Item::Shape(Shape {
                segs: s
                    .segs
                    .iter()
                    .map(|g| match g {
                        Seg::MoveTo(p) => Seg::MoveTo(mv(p)),
                        Seg::LineTo(p) => Seg::LineTo(mv(p)),
                        Seg::CubicTo(a, b, c) => Seg::CubicTo(mv(a), mv(b), mv(c)),
                        Seg::Close => Seg::Close,
                    })
                    .collect(),
                ..s.clone()
            }),
            Item::Text(t) => Item::Text(Text {
                x: t.x + dx,
                y: t.y + dy,
                ..t.clone()
            }),
            Item::Clip(c) => Item::Clip(Clip {
                x: c.x + dx,
                y: c.y + dy,
                w: c.w,
                h: c.h,
                items: c.items.iter().map(|i| i.translated(dx, dy)).collect(),
            }),
        }
    }
}

/// Every shape and text of `items`, clipped or not, depth first in painting order.
pub fn leaves(items: &[Item]) -> Vec<&Item> {
    let mut out = Vec::new();
    for i in items {
        match i {
            Item::Clip(c) => out.extend(leaves(&c.items)),
            other => out.push(other),
        }
    }
    out
}

/// One page of the kit.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// Page width in millimetres (landscape pages are wider than tall).
    pub width: f64,
    /// Page height in millimetres.
    pub height: f64,
    /// Short file-name-safe name, unique within the document, e.g. `board`, `log`, `rules-1`;
    /// the SVG backend writes `<NN>-<name>.svg`.
    pub name: String,
    /// What is drawn, in painting order.
    pub items: Vec<Item>,
}

/// A whole kit (or any multi-page document): pages in print order.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// Document title (PDF metadata, SVG `<title>`).
    pub title: String,
    /// The pages in print order.
    pub pages: Vec<Page>,
}

impl Page {
    /// An empty page of `width` × `height` mm.
    pub fn new(name: &str, width: f64, height: f64) -> Page {
        Page {
            width,
            height,
            name: name.to_string(),
            items: Vec::new(),
        }
    }

    /// The text items outside clips, in painting order (see [`leaves`] for all).
    pub fn texts(&self) -> impl Iterator<Item = &Text> {
        self.items.iter().filter_map(|i| match i {
            Item::Text(t) => Some(t),
            _ => None,
        })
    }

    /// The shapes outside clips, in painting order (see [`leaves`] for all).
    pub fn shapes(&self) -> impl Iterator<Item = &Shape> {
        self.items.iter().filter_map(|i| match i {
            Item::Shape(s) => Some(s),
            _ => None,
        })
    }

    /// Adds a shape.
    pub fn shape(&mut self, segs: Vec<Seg>, fill: Option<Color>, stroke: Option<Stroke>) {
        self.items.push(Item::Shape(Shape { segs, fill, stroke }));
    }

    /// Adds a line of text whose advance starts at `x` with its baseline at `y`.
    pub fn text(&mut self, x: f64, y: f64, size_pt: f64, weight: Weight, text: &str) {
        self.items.push(Item::Text(Text {
            x,
            y,
            size_pt,
            weight,
            color: Color::BLACK,
            text: text.to_string(),
        }));
    }
}

/// Magic number for approximating a quarter circle with one cubic Bézier.
const KAPPA: f64 = 0.552_284_749_830_793_4;

/// A closed circle centred at `c` with radius `r` mm, as four cubic Béziers.
pub fn circle(c: Pt, r: f64) -> Vec<Seg> {
    ellipse(c, r, r)
}

/// A closed axis-aligned ellipse centred at `c` with radii `rx`, `ry` mm.
pub fn ellipse(c: Pt, rx: f64, ry: f64) -> Vec<Seg> {
    ellipse_segs(c, rx, ry).to_vec()
}

/// The segments of [`ellipse`], on the stack: for comparing a path with an ellipse (the SVG
/// backend does for every six-segment shape) without allocating one.
pub(crate) fn ellipse_segs(c: Pt, rx: f64, ry: f64) -> [Seg; 6] {
    let (kx, ky) = (rx * KAPPA, ry * KAPPA);
    [
        Seg::MoveTo(pt(c.x + rx, c.y)),
        Seg::CubicTo(
            pt(c.x + rx, c.y + ky),
            pt(c.x + kx, c.y + ry),
            pt(c.x, c.y + ry),
        ),
        Seg::CubicTo(
            pt(c.x - kx, c.y + ry),
            pt(c.x - rx, c.y + ky),
            pt(c.x - rx, c.y),
        ),
        Seg::CubicTo(
            pt(c.x - rx, c.y - ky),
            pt(c.x - kx, c.y - ry),
            pt(c.x, c.y - ry),
        ),
        Seg::CubicTo(
            pt(c.x + kx, c.y - ry),
            pt(c.x + rx, c.y - ky),
            pt(c.x + rx, c.y),
        ),
        Seg::Close,
    ]
}

/// A closed rectangle with top-left corner (`x`, `y`) and size `w` × `h` mm.
pub fn rect(x: f64, y: f64, w: f64, h: f64) -> Vec<Seg> {
    vec![
        Seg::MoveTo(pt(x, y)),
        Seg::LineTo(pt(x + w, y)),
        Seg::LineTo(pt(x + w, y + h)),
        Seg::LineTo(pt(x, y + h)),
        Seg::Close,
    ]
}

/// A rectangle with rounded corners of radius `r` mm (clamped to half the shorter side).
pub fn rounded_rect(x: f64, y: f64, w: f64, h: f64, r: f64) -> Vec<Seg> {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    let k = r * (1.0 - KAPPA);
    vec![
        Seg::MoveTo(pt(x + r, y)),
        Seg::LineTo(pt(x + w - r, y)),
        Seg::CubicTo(pt(x + w - k, y), pt(x + w, y + k), pt(x + w, y + r)),
        Seg::LineTo(pt(x + w, y + h - r)),
        Seg::CubicTo(
            pt(x + w, y + h - k),
            pt(x + w - k, y + h),
            pt(x + w - r, y + h),
        ),
        Seg::LineTo(pt(x + r, y + h)),
        Seg::CubicTo(pt(x + k, y + h), pt(x, y + h - k), pt(x, y + h - r)),
        Seg::LineTo(pt(x, y + r)),
        Seg::CubicTo(pt(x, y + k), pt(x + k, y), pt(x + r, y)),
        Seg::Close,
    ]
}

/// An open polyline through `points` (at least one point).
pub fn polyline(points: &[Pt]) -> Vec<Seg> {
    let mut segs = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        segs.push(if i == 0 {
            Seg::MoveTo(*p)
        } else {
            Seg::LineTo(*p)
        });
    }
    segs
}

/// A straight line from `a` to `b`.
pub fn line(a: Pt, b: Pt) -> Vec<Seg> {
    vec![Seg::MoveTo(a), Seg::LineTo(b)]
}

/// The axis-aligned bounding box (min x, min y, max x, max y) of the drawn path itself: each
/// cubic Bézier segment by its end points and the points where its x or y turns (the roots of
/// the derivative in 0 < t < 1), so a steep arc whose control points reach far past it is
/// boxed where it is drawn. `None` for an empty path. Contained in [`bounds`].
pub fn ink_bounds(segs: &[Seg]) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    let mut add = |x: f64, y: f64| {
        b = Some(match b {
            None => (x, y, x, y),
            Some((a, c, d, e)) => (a.min(x), c.min(y), d.max(x), e.max(y)),
        });
    };
    // Where one coordinate of a cubic from p0 (controls p1, p2, to p3) turns: the roots in
    // (0, 1) of its derivative / 3, a·t² + b·t + c.
    fn turns(p0: f64, p1: f64, p2: f64, p3: f64) -> [Option<f64>; 2] {
        let a = -p0 + 3.0 * p1 - 3.0 * p2 + p3;
        let b = 2.0 * (p0 - 2.0 * p1 + p2);
        let c = p1 - p0;
        let inside = |t: f64| (t > 0.0 && t < 1.0).then_some(t);
        if a.abs() < 1e-12 {
            return [
                if b.abs() < 1e-12 {
                    None
                } else {
                    inside(-c / b)
                },
                None,
            ];
        }
        let disc = b * b - 4.0 * a * c;
        if disc < 0.0 {
            return [None, None];
        }
        let r = disc.sqrt();
        [inside((-b + r) / (2.0 * a)), inside((-b - r) / (2.0 * a))]
    }
    let at = |p0: f64, p1: f64, p2: f64, p3: f64, t: f64| {
        let u = 1.0 - t;
        u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t * p3
    };
    let mut cur: Option<Pt> = None;
    for s in segs {
        match s {
            Seg::MoveTo(p) | Seg::LineTo(p) => {
                add(p.x, p.y);
                cur = Some(*p);
            }
            Seg::CubicTo(p1, p2, p3) => {
                let p0 = cur.unwrap_or(*p1);
                add(p3.x, p3.y);
                for t in turns(p0.x, p1.x, p2.x, p3.x).into_iter().flatten() {
                    add(at(p0.x, p1.x, p2.x, p3.x, t), at(p0.y, p1.y, p2.y, p3.y, t));
                }
                for t in turns(p0.y, p1.y, p2.y, p3.y).into_iter().flatten() {
                    add(at(p0.x, p1.x, p2.x, p3.x, t), at(p0.y, p1.y, p2.y, p3.y, t));
                }
                cur = Some(*p3);
            }
            Seg::Close => {}
        }
    }
    b
}

/// The axis-aligned bounding box (min x, min y, max x, max y) of a shape's control points,
/// or `None` for an empty path. Control points bound a Bézier curve, so this box contains the
/// drawn curve (the stroke adds half its width).
pub fn bounds(segs: &[Seg]) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    let mut add = |p: &Pt| {
        b = Some(match b {
            None => (p.x, p.y, p.x, p.y),
            Some((a, c, d, e)) => (a.min(p.x), c.min(p.y), d.max(p.x), e.max(p.y)),
        });
    };
    for s in segs {
        match s {
            Seg::MoveTo(p) | Seg::LineTo(p) => add(p),
            Seg::CubicTo(p1, p2, p3) => {
                add(p1);
                add(p2);
                add(p3);
            }
            Seg::Close => {}
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ink_bounds_box_the_curve_not_its_control_points() {
        // From (0, 0) with controls (0, 10) and (10, 10) to (10, 0): y = 30·t·(1 − t), at most
        // 7.5 at t = ½; x = 10·t²·(3 − 2t) runs from 0 to 10 without turning.
        let arc = vec![
            Seg::MoveTo(pt(0.0, 0.0)),
            Seg::CubicTo(pt(0.0, 10.0), pt(10.0, 10.0), pt(10.0, 0.0)),
        ];
        assert_eq!(bounds(&arc), Some((0.0, 0.0, 10.0, 10.0)));
        let (x0, y0, x1, y1) = ink_bounds(&arc).unwrap();
        assert!(
            (x0, y0, x1) == (0.0, 0.0, 10.0) && (y1 - 7.5).abs() < 1e-12,
            "{y1}"
        );
        // A quarter of a circle of radius 10 (the usual κ controls) stays within its corner
        // box; a straight line is its end points.
        let k = 10.0 * KAPPA;
        let quarter = vec![
            Seg::MoveTo(pt(10.0, 0.0)),
            Seg::CubicTo(pt(10.0, k), pt(k, 10.0), pt(0.0, 10.0)),
        ];
        let b = ink_bounds(&quarter).unwrap();
        assert!(
            b.0.abs() < 1e-9
                && b.1.abs() < 1e-9
                && (b.2 - 10.0).abs() < 1e-9
                && (b.3 - 10.0).abs() < 1e-9,
            "{b:?}"
        );
        assert_eq!(
            ink_bounds(&line(pt(3.0, 4.0), pt(-1.0, 2.0))),
            Some((-1.0, 2.0, 3.0, 4.0))
        );
        assert_eq!(ink_bounds(&[]), None);
    }
}
