//! SVG backend (svg crate): one file per page, `width`/`height` in mm with a mm `viewBox`
//! (one user unit = 1 mm, origin top-left, y down — the page model's own convention), text as
//! glyph outlines so it looks the same without the font installed. Every length is rounded
//! to 0.001 mm.
//!
//! Text: each glyph the page uses is defined once in `<defs>` as a `<path>` in font units
//! (y down); a line of text is a `<g transform="translate(x y) scale(k)">` (baseline start in
//! mm, k = mm per font unit) holding one `<use>` per visible glyph at its advance. A full A4
//! page of 9 pt text is about 200 KB this way instead of several MB of repeated outlines; it
//! renders the same without any font. The group's `aria-label` carries the text for search
//! and screen readers without affecting rendering.
use super::{clean_segs, clean_side, clean_stroke, finite};
use crate::doc::{Color, Document, Item, Page, Seg, Shape, Text, Weight};
use crate::text::{self, GlyphSeg};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use svg::node::element::{ClipPath, Definitions, Group, Path, Rectangle, Title, Use};
use svg::Node;

/// Nodes for `items`; each clip becomes a `<g clip-path="url(#clipN)">` whose `<clipPath>`
/// (a rectangle, numbered in page order) goes into `clips` for the `<defs>`.
fn item_nodes(
    items: &[Item],
    used: &mut BTreeMap<String, String>,
    clips: &mut Vec<ClipPath>,
) -> Vec<Box<dyn Node>> {
    let mut body: Vec<Box<dyn Node>> = Vec::new();
    for item in items {
        match item {
            Item::Shape(s) => {
                if let Some(n) = shape_node(s) {
                    body.push(Box::new(n));
                }
            }
            Item::Text(t) => {
                if let Some(n) = text_node(t, used) {
                    body.push(Box::new(n));
                }
            }
            Item::Clip(c) => {
                let id = format!("clip{}", clips.len() + 1);
                clips.push(
                    ClipPath::new().set("id", id.clone()).add(
                        Rectangle::new()
                            .set("x", num(c.x))
                            .set("y", num(c.y))
                            .set("width", num(c.w.max(0.0)))
                            .set("height", num(c.h.max(0.0))),
                    ),
                );
                let mut g = Group::new().set("clip-path", format!("url(#{id})"));
                for n in item_nodes(&c.items, used, clips) {
                    g = g.add(n);
                }
                body.push(Box::new(g));
            }
        }
    }
    body
}

/// Rounds to 0.001 mm and prints the shortest form (`12.5`, `-0.001`, never `-0`).
fn num(v: f64) -> String {
    let r = (finite(v) * 1000.0).round() / 1000.0;
    if r == 0.0 {
        "0".to_string()
    } else {
        format!("{r}")
    }
}

/// `#rrggbb`.
fn hex(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// SVG path data for the segments, absolute commands, coordinates in mm.
fn path_data(segs: &[Seg]) -> String {
    let mut d = String::new();
    for s in segs {
        // Writing to a String cannot fail.
        let _ = match s {
            Seg::MoveTo(p) => write!(d, "M{} {}", num(p.x), num(p.y)),
            Seg::LineTo(p) => write!(d, "L{} {}", num(p.x), num(p.y)),
            Seg::CubicTo(a, b, p) => write!(
                d,
                "C{} {} {} {} {} {}",
                num(a.x),
                num(a.y),
                num(b.x),
                num(b.y),
                num(p.x),
                num(p.y)
            ),
            Seg::Close => write!(d, "Z"),
        };
    }
    d
}

fn shape_node(s: &Shape) -> Option<Path> {
    let stroke = s
        .stroke
        .as_ref()
        .and_then(|st| clean_stroke(st).map(|c| (st.color, c)));
    let segs = clean_segs(&s.segs);
    if segs.is_empty() || (s.fill.is_none() && stroke.is_none()) {
        return None;
    }
    let mut p = Path::new().set("d", path_data(segs));
    p = p.set("fill", s.fill.map_or("none".to_string(), hex));
    if let Some((color, (width, dash))) = stroke {
        p = p.set("stroke", hex(color)).set("stroke-width", num(width));
        if !dash.is_empty() {
            let pattern: Vec<String> = dash.iter().map(|d| num(*d)).collect();
            p = p.set("stroke-dasharray", pattern.join(" "));
        }
    }
    Some(p)
}

/// Prints a font-unit coordinate: to 0.01 unit (under 0.00002 mm at 10 pt), shortest form.
fn unit(v: f32) -> String {
    let r = (f64::from(v) * 100.0).round() / 100.0;
    if r == 0.0 || !r.is_finite() {
        "0".to_string()
    } else {
        format!("{r}")
    }
}

/// `id` of the `<path>` in `<defs>` holding glyph `gid` of `weight`.
fn glyph_id(weight: Weight, gid: u16) -> String {
    match weight {
        Weight::Regular => format!("r{gid}"),
        Weight::Bold => format!("b{gid}"),
    }
}

/// Path data of a glyph in font units with y pointing down (y negated), so a `<use>` of it
/// only needs a uniform positive scale.
fn glyph_data(weight: Weight, gid: u16) -> String {
    let mut d = String::new();
    for s in text::glyph_outline(weight, gid) {
        let _ = match s {
            GlyphSeg::MoveTo(x, y) => write!(d, "M{} {}", unit(x), unit(-y)),
            GlyphSeg::LineTo(x, y) => write!(d, "L{} {}", unit(x), unit(-y)),
            GlyphSeg::QuadTo(a, b, x, y) => {
                write!(d, "Q{} {} {} {}", unit(a), unit(-b), unit(x), unit(-y))
            }
            GlyphSeg::CubicTo(a, b, c, e, x, y) => write!(
                d,
                "C{} {} {} {} {} {}",
                unit(a),
                unit(-b),
                unit(c),
                unit(-e),
                unit(x),
                unit(-y)
            ),
            GlyphSeg::Close => write!(d, "Z"),
        };
    }
    d
}

/// A line of text: a group placed at the baseline start and scaled from font units to mm,
/// holding one `<use>` of a glyph definition per visible glyph, at the same quantised advances
/// the PDF uses. `used` collects the glyph definitions the page needs.
fn text_node(t: &Text, used: &mut BTreeMap<String, String>) -> Option<Group> {
    if !(t.size_pt.is_finite() && t.size_pt > 0.0) {
        return None;
    }
    let upem = f64::from(text::units_per_em(t.weight).max(1));
    let mut group = Group::new();
    let mut pen_milli = 0u64;
    let mut any = false;
    for g in text::glyphs(&t.text, t.weight) {
        let id = glyph_id(t.weight, g.gid);
        let known = match used.get(&id) {
            Some(d) => !d.is_empty(),
            None => {
                let d = glyph_data(t.weight, g.gid);
                let visible = !d.is_empty();
                used.insert(id.clone(), d);
                visible
            }
        };
        if known {
            let x = pen_milli as f64 * upem / 1000.0;
            let mut u = Use::new().set("xlink:href", format!("#{id}"));
            if x != 0.0 {
                u = u.set("x", format!("{}", (x * 1000.0).round() / 1000.0));
            }
            group = group.add(u);
            any = true;
        }
        pen_milli += u64::from(g.advance_milli_em);
    }
    if !any {
        return None;
    }
    // Font units → mm at this size; printed to 9 decimals (the scale is not a length).
    let k = t.size_pt * crate::text::MM_PER_PT / upem;
    let k = format!("{k:.9}");
    let k = k.trim_end_matches('0').trim_end_matches('.');
    Some(
        group
            .set(
                "transform",
                format!("translate({} {}) scale({k})", num(t.x), num(t.y)),
            )
            .set("fill", hex(t.color))
            .set("aria-label", t.text.as_str()),
    )
}

/// Draws one page as a standalone SVG document string: root `width`/`height` in mm, a
/// `viewBox` in mm, a `<title>`, then every item as a `<path>` in painting order (text as
/// filled glyph outlines). Deterministic: the same page gives the same string.
pub fn render_page(page: &Page, title: &str) -> String {
    let (w, h) = (clean_side(page.width), clean_side(page.height));
    let mut doc = svg::Document::new()
        .set("width", format!("{}mm", num(w)))
        .set("height", format!("{}mm", num(h)))
        .set("viewBox", format!("0 0 {} {}", num(w), num(h)))
        // PDF's default miter limit, so sharp corners are cut the same way in both backends.
        .set("stroke-miterlimit", "10")
        .set("xmlns:xlink", "http://www.w3.org/1999/xlink")
        .add(Title::new(title));
    let mut used = BTreeMap::new();
    let mut clips = Vec::new();
    let body = item_nodes(&page.items, &mut used, &mut clips);
    let glyphs: Vec<(String, String)> = used.into_iter().filter(|(_, d)| !d.is_empty()).collect();
    if !glyphs.is_empty() || !clips.is_empty() {
        let mut defs = Definitions::new();
        for (id, d) in glyphs {
            defs = defs.add(Path::new().set("id", id).set("d", d));
        }
        for c in clips {
            defs = defs.add(c);
        }
        doc = doc.add(defs);
    }
    for n in body {
        doc = doc.add(n);
    }
    let mut out = doc.to_string();
    out.push('\n');
    out
}

/// Draws every page of `doc`: `(file name, SVG text)` in page order, the file name being
/// `NN-<page name>.svg` with `NN` the 1-based page number zero-padded to two digits
/// (`01-board.svg`). Each page's `<title>` is the document title.
pub fn render_all(doc: &Document) -> Vec<(String, String)> {
    use rayon::prelude::*;
    // Pages render independently, in parallel; `collect` keeps their order.
    doc.pages
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!("{:02}-{}.svg", i + 1, p.name),
                render_page(p, &doc.title),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_to_micrometres() {
        assert_eq!(num(12.3456), "12.346");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(100.0), "100");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(hex(Color::rgb(255, 0, 16)), "#ff0010");
    }

    #[test]
    fn markup_in_text_is_escaped() {
        let mut p = Page::new("x", 50.0, 20.0);
        p.text(1.0, 10.0, 10.0, Weight::Regular, "a<b & \"c\"");
        let s = render_page(&p, "t<i>tle & co");
        assert!(s.contains("<title>t&lt;i&gt;tle &amp; co</title>"), "{s}");
        assert!(
            s.contains(r#"aria-label="a&lt;b &amp; &quot;c&quot;""#),
            "{s}"
        );
    }
}
