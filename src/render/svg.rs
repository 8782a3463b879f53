//! SVG backend (svg crate): one file per page, `width`/`height` in mm with a mm `viewBox`
//! (one user unit = 1 mm, origin top-left, y down — the page model's own convention), text as
//! glyph outlines so it looks the same without the font installed. Every number is rounded
//! to 0.001 mm. Text stays searchable through an `aria-label` on its path, which does not
//! affect rendering.
use super::{clean_segs, clean_side, clean_stroke, finite};
use crate::doc::{Color, Document, Item, Page, Seg, Shape, Text};
use std::fmt::Write as _;
use svg::node::element::{Path, Title};

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
    let stroke = s.stroke.as_ref().and_then(|st| clean_stroke(st).map(|c| (st.color, c)));
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

fn text_node(t: &Text) -> Option<Path> {
    let segs = crate::text::outline(t);
    if segs.is_empty() {
        return None;
    }
    Some(
        Path::new()
            .set("d", path_data(&segs))
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
        .add(Title::new(title));
    for item in &page.items {
        let node = match item {
            Item::Shape(s) => shape_node(s),
            Item::Text(t) => text_node(t),
        };
        if let Some(n) = node {
            doc = doc.add(n);
        }
    }
    let mut out = doc.to_string();
    out.push('\n');
    out
}

/// Draws every page of `doc`: `(file name, SVG text)` in page order, the file name being
/// `NN-<page name>.svg` with `NN` the 1-based page number zero-padded to two digits
/// (`01-board.svg`). Each page's `<title>` is the document title.
pub fn render_all(doc: &Document) -> Vec<(String, String)> {
    doc.pages
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("{:02}-{}.svg", i + 1, p.name), render_page(p, &doc.title)))
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
}
