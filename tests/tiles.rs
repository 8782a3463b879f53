//! Boards at true size: tiling, sizes, --fit, --child-safe and papers, checked on the page
//! model. Expected values come from the ruleset sizes and paper sizes worked by hand (see the
//! comments), or from the board drawn once untiled.
use crate::common;

use sowkit::doc::{bounds, leaves, Color, Document, Item, Page, Shape};
use sowkit::geometry::{self, BoardGeometry};
use sowkit::layout::{self, board, tile, KitOptions, Paper, A3, A4, LEGAL, LETTER, TABLOID};
use sowkit::ruleset::Ruleset;
use sowkit::text;

/// A printed feature: centre and size, mm.
type Feature = ((f64, f64), (f64, f64));

fn bundled(id: &str) -> Ruleset {
    common::bundled()
        .into_iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no bundled {id}"))
}

fn kit(rs: &Ruleset, opts: &KitOptions) -> Document {
    layout::kit(rs, opts).unwrap_or_else(|e| panic!("{}: {e}", rs.id))
}

fn tile_pages(doc: &Document) -> Vec<&Page> {
    doc.pages
        .iter()
        .filter(|p| {
            p.name
                .strip_prefix("board-")
                .is_some_and(|n| n.parse::<usize>().is_ok())
        })
        .collect()
}

/// The one clip of a tile page.
fn clip(p: &Page) -> &sowkit::doc::Clip {
    let clips: Vec<_> = p
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Clip(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(clips.len(), 1, "{}", p.name);
    clips[0]
}

/// Centre of a shape's control-point box.
fn centre(s: &Shape) -> (f64, f64) {
    let (a, b, c, d) = bounds(&s.segs).unwrap();
    ((a + c) / 2.0, (b + d) / 2.0)
}

fn size(s: &Shape) -> (f64, f64) {
    let (a, b, c, d) = bounds(&s.segs).unwrap();
    (c - a, d - b)
}

/// Registration marks: unfilled circles of radius `tile::MARK_R` (their box is 2R square).
fn marks(items: &[Item]) -> Vec<(f64, f64)> {
    leaves(items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Shape(s)
                if s.fill.is_none()
                    && (size(s).0 - 2.0 * tile::MARK_R).abs() < 1e-6
                    && (size(s).1 - 2.0 * tile::MARK_R).abs() < 1e-6 =>
            {
                Some(centre(s))
            }
            _ => None,
        })
        .collect()
}

/// Pits, stores and arrow numbers: white-filled shapes, as (centre, size).
fn features(items: &[Item]) -> Vec<Feature> {
    leaves(items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Shape(s) if s.fill == Some(Color::WHITE) => Some((centre(s), size(s))),
            _ => None,
        })
        .collect()
}

/// The tiles of a kit put back together by their registration marks: each feature of each
/// tile (whose centre is printed, inside the tile's clip) in the frame of tile 1's page.
fn assemble(doc: &Document, cols: usize) -> Vec<Feature> {
    let tiles = tile_pages(doc);
    // Offset of each tile's page frame in tile 1's frame.
    let mut off = vec![(0.0, 0.0); tiles.len()];
    for k in 1..tiles.len() {
        let (prev, dir) = if k % cols != 0 {
            (k - 1, 0)
        } else {
            (k - cols, 1)
        };
        let a = marks(&clip(tiles[prev]).items);
        let b = marks(&clip(tiles[k]).items);
        // The marks of the seam between them: the last ones across (or down) on the earlier
        // tile, the first ones on the later.
        let key = |m: &(f64, f64)| if dir == 0 { m.0 } else { m.1 };
        let amax = a.iter().map(key).fold(f64::MIN, f64::max);
        let bmin = b.iter().map(key).fold(f64::MAX, f64::min);
        let mut sa: Vec<_> = a.iter().filter(|m| (key(m) - amax).abs() < 1e-6).collect();
        let mut sb: Vec<_> = b.iter().filter(|m| (key(m) - bmin).abs() < 1e-6).collect();
        let other = |m: &&(f64, f64)| if dir == 0 { m.1 } else { m.0 };
        sa.sort_by(|x, y| other(x).total_cmp(&other(y)));
        sb.sort_by(|x, y| other(x).total_cmp(&other(y)));
        assert_eq!(sa.len(), 2, "two marks per seam");
        assert_eq!(sb.len(), 2, "two marks per seam");
        let d0 = (sa[0].0 - sb[0].0, sa[0].1 - sb[0].1);
        let d1 = (sa[1].0 - sb[1].0, sa[1].1 - sb[1].1);
        // Both marks agree on the shift: the tile is not turned.
        assert!((d0.0 - d1.0).abs() < 1e-6 && (d0.1 - d1.1).abs() < 1e-6);
        off[k] = (off[prev].0 + d0.0, off[prev].1 + d0.1);
    }
    let mut out = Vec::new();
    for (k, t) in tiles.iter().enumerate() {
        let c = clip(t);
        for ((x, y), s) in features(&c.items) {
            if x > c.x && x < c.x + c.w && y > c.y && y < c.y + c.h {
                out.push(((x + off[k].0, y + off[k].1), s));
            }
        }
    }
    out
}

/// Tiles put back by their registration marks give every pit, store and arrow number where
/// the board drawn once untiled has it, within 0.1 mm, and the pits sit the ruleset's pitch
/// apart.
#[test]
fn tiles_reassemble_by_their_registration_marks() {
    let ph = layout::phrases::Phrases::load("en").unwrap();
    for rs in common::bundled() {
        for (paper, child_safe) in [(A4, false), (LETTER, false), (A4, true), (A3, true)] {
            let opts = KitOptions {
                child_safe,
                ..KitOptions::new(paper)
            };
            let doc = kit(&rs, &opts);
            if tile_pages(&doc).is_empty() {
                continue;
            }
            let prs = layout::as_printed(&rs, &opts);
            let (d, plan) = board::plan(&prs, paper, &ph).unwrap();
            assert_eq!(tile_pages(&doc).len(), plan.count());
            let got = assemble(&doc, plan.cols());
            let want = features(&d.items);
            // The untiled drawing and the assembly differ by one translation: tile 1's.
            let first = |v: &[Feature]| {
                v.iter()
                    .map(|f| f.0)
                    .min_by(|a, b| (a.0 + a.1).total_cmp(&(b.0 + b.1)))
                    .unwrap()
            };
            let (g0, w0) = (first(&got), first(&want));
            let (dx, dy) = (g0.0 - w0.0, g0.1 - w0.1);
            for (c, s) in &want {
                let hit = got.iter().any(|(gc, gs)| {
                    (gc.0 - dx - c.0).abs() < 0.1
                        && (gc.1 - dy - c.1).abs() < 0.1
                        && (gs.0 - s.0).abs() < 0.1
                        && (gs.1 - s.1).abs() < 0.1
                });
                assert!(
                    hit,
                    "{} {} cs={child_safe}: feature at {c:?} lost",
                    rs.id, paper.name
                );
            }
            for (gc, _) in &got {
                assert!(
                    want.iter().any(
                        |(c, _)| (gc.0 - dx - c.0).abs() < 0.1 && (gc.1 - dy - c.1).abs() < 0.1
                    ),
                    "{} {}: stray feature at {gc:?}",
                    rs.id,
                    paper.name
                );
            }
            // Pits in the assembly: circles the printed pit diameter across; each row's
            // centres are pit diameter + gap apart (hand: 45 + 12 = 57 mm for Oware).
            let pd = prs.layout.pit_diameter;
            let mut pits: Vec<(f64, f64)> = got
                .iter()
                .filter(|(_, s)| (s.0 - pd).abs() < 1e-6 && (s.1 - pd).abs() < 1e-6)
                .map(|(c, _)| *c)
                .collect();
            pits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)));
            pits.dedup_by(|a, b| (a.0 - b.0).abs() < 0.1 && (a.1 - b.1).abs() < 0.1);
            let n = rs.board.pits_per_side;
            assert_eq!(pits.len(), 2 * n, "{} {}", rs.id, paper.name);
            for row in pits.chunks(n) {
                for w in row.windows(2) {
                    let pitch = w[1].0 - w[0].0;
                    assert!((pitch - (pd + prs.layout.pit_gap)).abs() < 0.1, "{pitch}");
                }
            }
            let across = pits[n].1 - pits[0].1;
            let row_gap = prs.layout.pit_gap.max(8.0);
            assert!((across - (pd + row_gap)).abs() < 0.1, "{across}");
        }
    }
}

/// Spans across the board (x from, x to, what) that no seam may come near, in the drawing's
/// mm: pit circles and store rectangles from the geometry (plus half the 0.5 mm outline), and
/// from the drawing itself the arrow number circles (wherever they were put), the filled
/// arrowheads and every line of text.
fn solid_spans(d: &tile::Drawing, g: &BoardGeometry) -> Vec<(f64, f64, String)> {
    let mut spans: Vec<(f64, f64, String)> = Vec::new();
    let r = g.d / 2.0 + geometry::OUTLINE / 2.0;
    for h in 0..2 * g.n {
        let c = g.pit_centre(h);
        spans.push((c.x - r, c.x + r, format!("pit {h}")));
    }
    for side in 0..2 {
        let (x, _, w, _) = g.store_rect(side);
        let o = geometry::OUTLINE / 2.0;
        spans.push((x - o, x + w + o, format!("store {side}")));
    }
    for i in leaves(&d.items) {
        match i {
            Item::Shape(s) if s.fill == Some(Color::WHITE) => {
                let (w, h) = size(s);
                if (w - 2.0 * geometry::NUM_R).abs() < 1e-6 && (h - w).abs() < 1e-6 {
                    // Ink reaches half the circle's stroke past its radius.
                    let (cx, _) = centre(s);
                    let o = w / 2.0 + s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                    spans.push((cx - o, cx + o, "arrow number".into()));
                }
            }
            Item::Shape(s) if s.fill == Some(Color::BLACK) => {
                let (a, _, c, _) = bounds(&s.segs).unwrap();
                spans.push((a, c, "arrowhead".into()));
            }
            Item::Text(t) => {
                let w = text::width_mm(&t.text, t.size_pt, t.weight);
                spans.push((t.x, t.x + w, format!("text {:?}", t.text)));
            }
            _ => {}
        }
    }
    spans
}

/// Every seam (the cut line) lies in the middle of a free band (play-size boards), at least
/// `tile::SEAM_CLEAR` (2 mm) from every pit rim, store, arrow number, arrowhead and line of text, checked against
/// the board geometry and the drawing the tiles show; every overlap is at least 10 mm and
/// every tile fits its page area.
#[test]
fn seams_run_mid_band_clear_of_pits_and_labels() {
    let ph = layout::phrases::Phrases::load("en").unwrap();
    for rs in common::bundled() {
        for (paper, child_safe) in [
            (A4, false),
            (LETTER, false),
            (A3, false),
            (TABLOID, false),
            (A4, true),
            (A3, true),
        ] {
            let opts = KitOptions {
                child_safe,
                ..KitOptions::new(paper)
            };
            let prs = layout::as_printed(&rs, &opts);
            if tile_pages(&kit(&rs, &opts)).is_empty() {
                continue;
            }
            let (d, plan) = board::plan(&prs, paper, &ph).unwrap();
            let (_, g) = board::drawing(&prs, &ph, &[]).unwrap();
            let spans = solid_spans(&d, &g);
            for s in &plan.seams_x {
                let left = spans
                    .iter()
                    .filter(|(_, b, _)| b <= s)
                    .map(|(_, b, _)| s - b)
                    .fold(f64::INFINITY, f64::min);
                let right = spans
                    .iter()
                    .filter(|(a, _, _)| a >= s)
                    .map(|(a, _, _)| a - s)
                    .fold(f64::INFINITY, f64::min);
                for (a, b, what) in &spans {
                    assert!(
                        *s <= a - tile::SEAM_CLEAR || *s >= b + tile::SEAM_CLEAR,
                        "{} {} cs={child_safe}: seam at {s} within {} mm of {what} ({a:.2}..{b:.2})",
                        rs.id,
                        paper.name,
                        tile::SEAM_CLEAR
                    );
                }
                // In the middle of its band: as far from the nearest item on the left as on
                // the right (0.1 mm rounding). Child-safe boards (73 mm pits, 85 mm pitch) on A4
                // may need a seam off the middle to keep to four tiles: 2 mm is then the floor.
                assert!(
                    child_safe || (left - right).abs() <= 0.1 + 1e-9,
                    "{} {} cs={child_safe}: seam at {s} is {left:.2} mm from the left, {right:.2} mm from the right",
                    rs.id,
                    paper.name
                );
            }
            for c in 0..plan.cols() {
                let (x0, y0, x1, y1) = plan.region(&d, c, 0);
                assert!(x1 - x0 <= plan.area.2 + 1e-9 && y1 - y0 <= plan.area.3 + 1e-9);
                if c + 1 < plan.cols() {
                    // The next tile starts at the seam; this one runs 10 mm or more past it.
                    let (nx0, _, _, _) = plan.region(&d, c + 1, 0);
                    assert_eq!(nx0, plan.seams_x[c]);
                    assert!(x1 - nx0 >= 10.0, "overlap {}", x1 - nx0);
                }
            }
        }
    }
}

/// Tile widths along the board, mm: each tile runs from the seam before it to the overlap past
/// the seam after it (the last to the drawing's end).
fn widths(len: f64, seams: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    let mut start = 0.0;
    for s in seams {
        out.push(s + tile::OVERLAP - start);
        start = *s;
    }
    out.push(len - start);
    out
}

/// At the fewest tiles, the seams make the tiles as even as the free bands allow: no other
/// choice of seams (each in the middle of a gap between pit columns, or between an end column
/// and a store, 2 mm clear of everything) with the same count and every tile fitting the page
/// has a narrower widest tile. Checked by trying every choice, on every bundled board × A4,
/// Letter, A3 and Tabloid, plus hand-worked seams:
///
/// * Kalah 6×4 (drawing 470 mm wide: 11 mm band, 4 mm pad, store 15–60, end gap 60–70, pit
///   columns at 70 + 57·i … 115 + 57·i): the gaps' middles are 121, 178, 235, 292, 349 (and
///   65, 405 at the ends). Two tiles need `s + 12 ≤ area` and `470 − s ≤ area`: on A4 (area
///   277) 193 ≤ s ≤ 265, so s = 235 (tiles 247 and 235 mm); on Tabloid (411.8) 58.2 ≤ s ≤
///   399.8, and even tiles want s + 12 = 470 − s, s = 229: the nearest gap is 235 again, where
///   178 would give 190 and 292 mm. (The old greedy seam sat by the rim of a pit.)
/// * Oware (drawing 478: end gaps 14 mm, columns at 74 + 57·i): gaps' middles 125, 182, 239,
///   296, 353; even tiles want s = 233, so s = 239 (tiles 251 and 239 mm) on A4 and Tabloid.
#[test]
fn seams_balance_the_tiles() {
    let ph = layout::phrases::Phrases::load("en").unwrap();
    let hand = [
        ("kalah-6x4", A4, 235.0),
        ("kalah-6x4", TABLOID, 235.0),
        ("oware-abapa", A4, 239.0),
        ("oware-abapa", TABLOID, 239.0),
    ];
    for (id, paper, s) in hand {
        let (d, plan) = board::plan(&bundled(id), paper, &ph).unwrap();
        assert_eq!(plan.seams_x, vec![s], "{id} on {}", paper.name);
        let w = widths(d.w, &plan.seams_x);
        assert!((w[0] - (s + 12.0)).abs() < 1e-9 && (w[1] - (d.w - s)).abs() < 1e-9);
    }
    for rs in common::bundled() {
        for paper in [A4, LETTER, A3, TABLOID] {
            if tile_pages(&kit(&rs, &KitOptions::new(paper))).is_empty() {
                continue;
            }
            let (d, plan) = board::plan(&rs, paper, &ph).unwrap();
            // Candidate seams by hand: the middle of each gap between neighbouring columns
            // (pits, stores), kept when 2 mm clear of everything in the board drawn with the
            // arrow numbers moved out of the gaps.
            let (_, g) = board::drawing(&rs, &ph, &[]).unwrap();
            let (open, _) = board::drawing(&rs, &ph, &g.free_columns()).unwrap();
            let spans = solid_spans(&open, &g);
            let r = g.d / 2.0;
            let mut cols: Vec<(f64, f64)> = (0..g.n)
                .map(|i| (g.pit_centre(i).x - r, g.pit_centre(i).x + r))
                .collect();
            for side in 0..2 {
                let (x, _, w, _) = g.store_rect(side);
                cols.push((x, x + w));
            }
            cols.sort_by(|a, b| a.0.total_cmp(&b.0));
            let cands: Vec<f64> = cols
                .windows(2)
                .map(|w| ((w[0].1 + w[1].0) / 2.0 * 10.0).round() / 10.0)
                .filter(|s| {
                    spans
                        .iter()
                        .all(|(a, b, _)| *s <= a - tile::SEAM_CLEAR || *s >= b + tile::SEAM_CLEAR)
                })
                .collect();
            let k = plan.cols() - 1;
            let span = plan.area.2;
            let mut best = f64::INFINITY;
            let mut tried = 0;
            // Every increasing choice of k candidates (k ≤ 3 here; at most 7 candidates).
            let m = cands.len();
            for mask in 0u32..(1 << m) {
                if mask.count_ones() as usize != k {
                    continue;
                }
                let pick: Vec<f64> = (0..m)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| cands[i])
                    .collect();
                let w = widths(d.w, &pick);
                if w.iter().all(|w| *w <= span + 1e-9) {
                    tried += 1;
                    best = best.min(w.iter().cloned().fold(0.0, f64::max));
                }
            }
            assert!(tried > 0, "{} {}", rs.id, paper.name);
            for s in &plan.seams_x {
                assert!(
                    cands.iter().any(|c| (c - s).abs() < 1e-9),
                    "{} {}: seam {s} is not the middle of a free gap {cands:?}",
                    rs.id,
                    paper.name
                );
            }
            let got = widths(d.w, &plan.seams_x).into_iter().fold(0.0, f64::max);
            assert!(
                (got - best).abs() < 1e-9,
                "{} {}: widest tile {got} mm, {best} mm possible",
                rs.id,
                paper.name
            );
        }
    }
}

/// Tile counts for each bundled board on each paper, worked out by hand.
///
/// Board widths (cut outline, mm; `W = 5·(d + gap) + d + 2·(end gap + store) + 2·4` pad):
/// * Oware, Giuthi (capture stores, end gap 14): `5·57 + 45 + 2·(14 + 45) + 8 = 456`;
/// * Kalah 6×4 (a store passed by, end gap 10): `285 + 45 + 110 + 8 = 448`;
/// * Kalah 6×3 (40 mm pits): `5·52 + 40 + 2·(10 + 40) + 8 = 408`;
/// * Six-pit (3 pits of 40): `2·52 + 40 + 100 + 8 = 252`.
///
/// Printable width (landscape, 10 mm margins): A4 277, Letter 259.4, A3 400, Tabloid 411.8;
/// the board sheet needs the board plus 1 mm. So six-pit fits one sheet everywhere (252), and
/// Kalah 6×3 fits Tabloid (408 ≤ 410.8) but not A3 (408 > 399). Every other board is tiled; the
/// drawing adds an 11 mm band each side (Oware 478, Kalah 6×4 470, Kalah 6×3 430), and two tiles
/// cover up to `2·width − 12` (A4 542, Letter 506.8, A3 788, Tabloid 811.6), each seam in the
/// middle of a gap between pit columns: e.g. Oware on Letter needs a seam in
/// `[478 − 259.4, 259.4 − 12] = [218.6, 247.4]`, and the gap between its 3rd and 4th columns
/// spans 233–245 (middle 239; its arrow numbers move aside). So two tiles each.
#[test]
fn tile_counts_per_board_and_paper() {
    let want: [(&str, [usize; 4]); 5] = [
        ("giuthi", [2, 2, 2, 2]),
        ("kalah-6x3", [2, 2, 2, 0]),
        ("kalah-6x4", [2, 2, 2, 2]),
        ("oware-abapa", [2, 2, 2, 2]),
        ("six-pit-sowing", [0, 0, 0, 0]),
    ];
    let widths = [
        ("giuthi", 456.0),
        ("kalah-6x3", 408.0),
        ("kalah-6x4", 448.0),
        ("oware-abapa", 456.0),
        ("six-pit-sowing", 252.0),
    ];
    for (id, counts) in want {
        let rs = bundled(id);
        let g = BoardGeometry::new(&rs, false);
        let w = widths.iter().find(|(i, _)| *i == id).unwrap().1;
        assert!(
            (g.cut_size().0 - w).abs() < 1e-6,
            "{id}: {}",
            g.cut_size().0
        );
        for (paper, n) in [A4, LETTER, A3, TABLOID].into_iter().zip(counts) {
            let doc = kit(&rs, &KitOptions::new(paper));
            assert_eq!(tile_pages(&doc).len(), n, "{id} on {}", paper.name);
            let names: Vec<&str> = doc.pages.iter().map(|p| p.name.as_str()).collect();
            if n == 0 {
                // A board that fits is never split.
                assert!(names.contains(&"board") && !names.contains(&"board-map"));
            } else {
                assert!(names.contains(&"board-map") && !names.contains(&"board"));
            }
        }
    }
}

/// Tiles along one axis of a drawing `len` mm long when a tile may be at most `span` mm and
/// neighbours overlap by `overlap`: n tiles cover n·span − (n − 1)·overlap, so the fewest is
/// ⌈(len − overlap) / (span − overlap)⌉ (one when it fits whole). `None`: not even a tile a
/// seam's overlap wide fits.
fn fewest_along(len: f64, span: f64, overlap: f64) -> Option<usize> {
    if len <= span + 1e-9 {
        Some(1)
    } else if span <= overlap {
        None
    } else {
        Some(((len - overlap) / (span - overlap) - 1e-9).ceil() as usize)
    }
}

/// Whether every text of board drawing `d` ends at least [`geometry::PAD`] inside its cut
/// outline's right edge (widths measured with the kit's own font metrics).
fn texts_end_inside(d: &tile::Drawing) -> bool {
    let (x, _, w, _) = d.part;
    leaves(&d.items).iter().all(|i| match i {
        Item::Text(t) => {
            t.x + text::width_mm(&t.text, t.size_pt, t.weight) <= x + w - geometry::PAD
        }
        _ => true,
    })
}

/// Every bundled board, in normal and large print, on A4 and Letter, in English and Spanish,
/// takes the fewest sheets its size allows: one when the board's cut-out part fits the
/// paper's printable area (inside the margins, above the calibration bar's band) in either
/// orientation, else the fewest tiles of the board drawn with its registration-mark bands,
/// each tile at most the printable area less a one-line tile heading, neighbours overlapping
/// by the glue strip (worked per axis by [`fewest_along`]). Large print may set its row
/// captions on one line instead of two, and any board both captions on one line below it
/// where that line fits, so the lower bound is the least over those drawings.
#[test]
fn boards_take_the_fewest_sheets_their_size_allows() {
    use sowkit::layout::page::{self, MARGIN};
    use sowkit::layout::phrases::Phrases;
    use sowkit::layout::style::Sizes;
    for base in common::bundled() {
        for lang in ["en", "es"] {
            let rs = base.in_lang(lang).unwrap();
            let ph = Phrases::load(lang).unwrap();
            for large in [false, true] {
                for paper in [A4, LETTER] {
                    let opts = KitOptions {
                        lang: Some(lang.into()),
                        large,
                        ..KitOptions::new(paper)
                    };
                    let sz = opts.sizes();
                    let sheets = board::pages(&rs, &opts, &ph)
                        .unwrap()
                        .iter()
                        .filter(|p| {
                            p.name == "board"
                                || p.name
                                    .strip_prefix("board-")
                                    .is_some_and(|n| n.parse::<usize>().is_ok())
                        })
                        .count();
                    let mut forms = vec![sz];
                    if large {
                        forms.push(Sizes {
                            wrap_row_captions: false,
                            ..sz
                        });
                    }
                    // Both row captions on one line below the board, where that line ends
                    // inside the cut outline by its pad.
                    let below = Sizes {
                        wrap_row_captions: false,
                        captions_below: true,
                        ..sz
                    };
                    let (d, _) = board::drawing_sized(&rs, &ph, &below, &[]).unwrap();
                    if texts_end_inside(&d) {
                        forms.push(below);
                    }
                    let head = text::line_height_mm(sz.tile_head) + 2.0;
                    let mut fewest = usize::MAX;
                    for form in &forms {
                        let (d, _) = board::drawing_sized(&rs, &ph, form, &[]).unwrap();
                        let (_, _, part_w, part_h) = d.part;
                        for (w, h) in [(paper.width, paper.height), (paper.height, paper.width)] {
                            let across = w - 2.0 * MARGIN;
                            let down = page::content_bottom(w, h, &sz) - MARGIN;
                            if part_w <= across && part_h <= down {
                                fewest = 1;
                            }
                            if let (Some(c), Some(r)) = (
                                fewest_along(d.w, across, tile::OVERLAP),
                                fewest_along(d.h, down - head, tile::OVERLAP),
                            ) {
                                fewest = fewest.min(c * r);
                            }
                        }
                    }
                    assert_eq!(
                        sheets, fewest,
                        "{} ({lang}, large {large}) on {}: {sheets} board sheets, {fewest} would do",
                        rs.id, paper.name
                    );
                }
            }
        }
    }
}

/// The English row captions ("South's row, …") among `items`, in drawing order.
fn row_captions(items: &[Item]) -> Vec<&sowkit::doc::Text> {
    leaves(items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Text(t) if t.text.contains("'s row") => Some(t),
            _ => None,
        })
        .collect()
}

/// A board split across its rows only by the caption band above it gets both captions on one
/// line below instead, and no tile holds a caption alone (found by a helper trying a 5-pit,
/// 5-seed Oware variant at its default sizes: 4 tiles on A4, two of them only the caption
/// "North's row, N1 to N5"). By hand: pits 10·√(3·5 / 0.7) + 4 = 50.3 → 50 mm, rows
/// 2·50 + 12 = 112 mm, arrows 11 mm and pad 4 mm above and below, and a 9 pt caption line
/// (1.2 × 9 pt = 3.81 mm, + 1 mm) above and below: 151.6 mm tall, 146.8 mm with one caption
/// band. A landscape A4 tile has 190 mm less the bar band and a one-line heading; the drawing
/// adds its registration-mark bands: two rows of tiles with the band above, one without.
#[test]
fn a_caption_band_alone_does_not_cost_a_row_of_tiles() {
    use sowkit::layout::page::{self, MARGIN};
    use sowkit::layout::phrases::Phrases;
    use sowkit::layout::style::Sizes;
    let mut rs = bundled("oware-abapa");
    rs.board.pits_per_side = 5;
    rs.board.seeds_per_pit = 5;
    rs.board.pit_labels = [0, 1].map(|side| {
        (1..=5)
            .map(|i| format!("{}{i}", ["S", "N"][side]))
            .collect()
    });
    rs.layout.pit_diameter = geometry::play_pit_diameter(5);
    assert_eq!(rs.layout.pit_diameter, 50.0);
    rs.layout.store_length = 2.0 * 50.0 + 12.0;
    let ph = Phrases::load("en").unwrap();
    let sz = Sizes::NORMAL;
    let line = 1.2 * 9.0 * 25.4 / 72.0 + 1.0;
    let (above, _) = board::drawing_sized(&rs, &ph, &sz, &[]).unwrap();
    let below_sz = Sizes {
        captions_below: true,
        ..sz
    };
    let (below, _) = board::drawing_sized(&rs, &ph, &below_sz, &[]).unwrap();
    assert!(
        (above.part.3 - (112.0 + 2.0 * 15.0 + 2.0 * line)).abs() < 0.01,
        "{}",
        above.part.3
    );
    assert!(
        (below.part.3 - (112.0 + 2.0 * 15.0 + line)).abs() < 0.01,
        "{}",
        below.part.3
    );
    let down = page::content_bottom(297.0, 210.0, &sz)
        - MARGIN
        - (text::line_height_mm(sz.tile_head) + 2.0);
    assert_eq!(fewest_along(above.h, down, tile::OVERLAP), Some(2));
    assert_eq!(fewest_along(below.h, down, tile::OVERLAP), Some(1));

    let (d, plan) = board::plan(&rs, A4, &ph).unwrap();
    assert_eq!(
        plan.count(),
        2,
        "seams x {:?} y {:?}",
        plan.seams_x,
        plan.seams_y
    );
    assert!(plan.seams_y.is_empty());
    assert_eq!(d.part, below.part);
    // Both captions on one baseline below the lowest pit, South's first, each left whole.
    let texts = row_captions(&d.items);
    assert_eq!(texts.len(), 2);
    assert!(
        texts[0].text.starts_with("South's row, S1 to S5"),
        "{}",
        texts[0].text
    );
    assert!(
        texts[1].text.starts_with("North's row, N1 to N5"),
        "{}",
        texts[1].text
    );
    assert_eq!(texts[0].y, texts[1].y);
    let g = BoardGeometry::new(&rs, false);
    let lowest_pit = d.part.1 + 15.0 + 112.0;
    assert!(texts[0].y > lowest_pit, "{} above {lowest_pit}", texts[0].y);
    assert!(
        texts[1].x > texts[0].x + text::width_mm(&texts[0].text, 9.0, sowkit::doc::Weight::Bold)
    );
    assert!(texts_end_inside(&d));
    assert_eq!(g.cut_size().1, above.part.3);

    // The kit's board sheets: the map and two tiles, each holding pits.
    let opts = KitOptions::new(A4);
    let pages = board::pages(&rs, &opts, &ph).unwrap();
    let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["board-map", "board-1", "board-2"]);
}

/// A board that misses one sheet only by the row caption above it goes on one sheet with both
/// captions on one line below it (at the stores' outer edges: one sheet has no seam), not on
/// a map and two tiles. A 2-pit board of 57 mm pits (the six-pit ruleset cut to 2 pits a
/// side, stores spanning both rows, 2·57 + 12 = 126 mm): 2·57 + 12 + 2·15 + 2·4.81 = 165.6 mm
/// tall with a caption band above and below, 160.8 mm with both below; the 55 mm board
/// (161.6 mm with both bands) is the largest that fit one landscape A4 sheet before.
#[test]
fn a_caption_band_alone_does_not_split_a_board_off_one_sheet() {
    use sowkit::layout::phrases::Phrases;
    let ph = Phrases::load("en").unwrap();
    let two = |d: f64| {
        let mut rs = bundled("six-pit-sowing");
        rs.board.pits_per_side = 2;
        rs.board.pit_labels = [0, 1].map(|side| {
            (1..=2)
                .map(|i| format!("{}{i}", ["A", "B"][side]))
                .collect()
        });
        rs.layout.pit_diameter = d;
        rs.layout.store_length = 2.0 * d + 12.0;
        rs
    };
    let names = |rs: &Ruleset| -> Vec<String> {
        board::pages(rs, &KitOptions::new(A4), &ph)
            .unwrap()
            .iter()
            .map(|p| p.name.clone())
            .collect()
    };
    // Both fit one sheet (the legend on a sheet of its own); 55 mm with a caption above.
    assert_eq!(names(&two(55.0)), ["board", "board-legend"]);
    let pages = board::pages(&two(57.0), &KitOptions::new(A4), &ph).unwrap();
    let got: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(got, ["board", "board-legend"]);
    let captions = row_captions(&pages[0].items);
    assert_eq!(captions.len(), 2);
    assert_eq!(captions[0].y, captions[1].y);
    assert!(captions[0].text.starts_with("A's row") && captions[1].text.starts_with("B's row"));
    // Below every pit: the lowest pit's bottom edge is the lowest circle's.
    let lowest = leaves(&pages[0].items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Shape(s)
                if (size(s).0 - 57.0).abs() < 0.01 && (size(s).1 - 57.0).abs() < 0.01 =>
            {
                Some(centre(s).1 + 28.5)
            }
            _ => None,
        })
        .fold(f64::MIN, f64::max);
    assert!(
        lowest > 0.0 && captions[0].y > lowest,
        "{} {lowest}",
        captions[0].y
    );
    // 60 mm pits do not fit even so: tiled as before.
    assert_eq!(names(&two(60.0))[0], "board-map");
    // A name long enough to take the title to two lines: cut to one line as well (found by a
    // helper trying to break the one-sheet case: a map and 3 tiles).
    let mut long = two(57.0);
    long.name = "Very long ruleset name for a mancala board game of the sowing family V".into();
    assert_eq!(long.name.chars().count(), 70);
    assert_eq!(names(&long), ["board", "board-legend"]);
}

/// A row of one pit is captioned by that pit alone ("A's row, A1 (single outline)"), not
/// "A1 to A1", in both languages.
#[test]
fn a_row_of_one_pit_is_captioned_by_that_pit() {
    use sowkit::layout::phrases::Phrases;
    use sowkit::layout::style::Sizes;
    let mut rs = bundled("six-pit-sowing");
    rs.board.pits_per_side = 1;
    rs.board.pit_labels = [vec!["A1".to_string()], vec!["B1".to_string()]];
    for (lang, want) in [
        (
            "en",
            [
                "A's row, A1 (single outline)",
                "B's row, B1 (double outline)",
            ],
        ),
        (
            "es",
            [
                "fila de A, A1 (borde sencillo)",
                "fila de B, B1 (borde doble)",
            ],
        ),
    ] {
        let ph = Phrases::load(lang).unwrap();
        let (d, _) = board::drawing_sized(&rs, &ph, &Sizes::NORMAL, &[]).unwrap();
        let texts: Vec<String> = leaves(&d.items)
            .into_iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect();
        for w in want {
            assert!(
                texts.iter().any(|t| t == w),
                "{lang}: {w:?} not in {texts:?}"
            );
        }
        assert!(!texts
            .iter()
            .any(|t| t.contains("A1 to A1") || t.contains("de A1 a A1")));
    }
}

/// Each tile page names itself, shows the join arrows and the glue strip, and carries the
/// calibration bar.
#[test]
fn tiles_are_named_and_carry_the_bar() {
    let rs = bundled("oware-abapa");
    let doc = kit(&rs, &KitOptions::new(A4));
    let tiles = tile_pages(&doc);
    assert_eq!(tiles.len(), 2);
    let all = |p: &Page| -> String {
        leaves(&p.items)
            .into_iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let t1 = all(tiles[0]);
    let t2 = all(tiles[1]);
    assert!(t1.contains("tile 1 of 2, left"), "{t1}");
    assert!(t2.contains("tile 2 of 2, right"), "{t2}");
    assert!(t1.contains("tile 2 ▶") && t1.contains("glue"), "{t1}");
    assert!(t2.contains("◀ tile 1"), "{t2}");
    for t in &tiles {
        let bar = t.shapes().any(|s| {
            s.fill == Some(Color::BLACK)
                && bounds(&s.segs).is_some_and(|(a, b, c, d)| {
                    ((c - a) - 100.0).abs() < 1e-6 && ((d - b) - 3.0).abs() < 1e-6
                })
        });
        assert!(bar, "{}: no calibration bar", t.name);
    }
    // The glue strip: a grey rectangle OVERLAP wide on tile 1 only.
    let grey = |p: &Page| {
        leaves(&clip(p).items)
            .into_iter()
            .filter(|i| matches!(i, Item::Shape(s) if s.fill.is_some_and(|c| c != Color::WHITE && c != Color::BLACK) && (size(s).0 - tile::OVERLAP).abs() < 1e-6))
            .count()
    };
    assert_eq!(grey(tiles[0]), 1);
    assert_eq!(grey(tiles[1]), 0);
    // Where the glue strip lies, and why: tile 2 is cut at the seam and laid over the strip,
    // so the strip must be (a) at least 10 mm wide, (b) wholly on paper tile 2 covers (from
    // the seam to the end of tile 1, inside tile 2's part), and (c) plain: drawn over the
    // board, so no pit, store, number or word of the board shows on it (nothing is printed
    // twice, and glue goes on grey, not on a pit rim). The registration marks sit on it, in
    // the band outside the board.
    let ph = layout::phrases::Phrases::load("en").unwrap();
    let (d, plan) = board::plan(&rs, A4, &ph).unwrap();
    let c1 = clip(tiles[0]);
    let items = leaves(&c1.items);
    let at = items
        .iter()
        .position(|i| matches!(i, Item::Shape(s) if s.fill.is_some_and(|c| c != Color::WHITE && c != Color::BLACK)))
        .unwrap();
    let Item::Shape(strip) = items[at] else {
        unreachable!()
    };
    let (sx0, _, sx1, _) = bounds(&strip.segs).unwrap();
    assert!(sx1 - sx0 >= 10.0);
    let (dx, _) = plan.offset(&d, 0, 0);
    let s = plan.seams_x[0];
    assert!((sx0 - dx - s).abs() < 1e-6, "strip starts at the seam");
    let (t2x0, _, t2x1, _) = plan.region(&d, 1, 0);
    assert!(s >= t2x0 - 1e-9 && sx1 - dx <= t2x1 + 1e-9);
    for i in &items[at + 1..] {
        match i {
            Item::Shape(sh) => {
                // Only the marks and the cut line: nothing filled.
                assert!(sh.fill.is_none(), "a filled shape over the glue strip");
            }
            Item::Text(t) => {
                assert!(
                    t.text == "glue" || t.text.contains("tile 2"),
                    "{:?}",
                    t.text
                );
            }
            _ => {}
        }
    }
    let (_, py, _, phh) = d.part;
    let (_, dy) = plan.offset(&d, 0, 0);
    for (mx, my) in marks(&c1.items) {
        assert!(mx > sx0 && mx < sx1, "mark off the strip");
        assert!(my < py + dy || my > py + phh + dy, "mark on the board");
    }
    // The how-to sheet opens the kit and lists the tiles; the map page names them.
    assert_eq!(doc.pages[0].name, "howto");
    let howto = all(&doc.pages[0]);
    assert!(howto.contains("2 tiles"), "{howto}");
    assert!(howto.contains("A4"), "{howto}");
}

/// The ruleset's sizes are printed exactly, and --fit shrinks the board onto one sheet and
/// says so.
#[test]
fn fit_shrinks_onto_one_sheet_and_says_so() {
    let rs = bundled("oware-abapa");
    let doc = kit(
        &rs,
        &KitOptions {
            fit: true,
            ..KitOptions::new(A4)
        },
    );
    let b = doc
        .pages
        .iter()
        .find(|p| p.name == "board")
        .expect("one board sheet");
    assert!(tile_pages(&doc).is_empty());
    let pits: Vec<f64> = b
        .shapes()
        .filter(|s| s.fill == Some(Color::WHITE))
        .map(size)
        .filter(|(w, h)| (w - h).abs() < 1e-6 && *w > 10.0)
        .map(|(w, _)| w)
        .collect();
    assert_eq!(pits.len(), 12);
    // A4 landscape holds 276 mm of board: 456 mm at 45 mm pits shrinks by about 276/456, so
    // the pits are near 27 mm and certainly under the 45 asked.
    assert!(pits.iter().all(|d| *d < 30.0 && *d > 20.0), "{pits:?}");
    let all: String = b
        .texts()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(all.contains("--fit") && all.contains("45\u{a0}mm"), "{all}");
}

/// Child-safe counters: at least 32 mm, pits grown to hold three of them (73 mm), and the
/// counters sheet reads the flag from the ruleset it is given.
#[test]
fn child_safe_grows_counters_and_pits() {
    let rs = bundled("kalah-6x4");
    let opts = KitOptions {
        child_safe: true,
        ..KitOptions::new(A3)
    };
    let prs = layout::as_printed(&rs, &opts);
    assert!(prs.layout.child_safe);
    assert_eq!(prs.layout.counter_diameter, 32.0);
    assert_eq!(prs.layout.pit_diameter, 73.0);
    // Store: both rows, 2·73 + 12 = 158 mm.
    assert_eq!(prs.layout.store_length, 158.0);
    let g = BoardGeometry::new(&rs, true);
    assert_eq!(g.d, 73.0);
    assert!(g.child_safe && g.counter_d >= geometry::CHILD_SAFE_COUNTER);
    kit(&rs, &opts);
}

/// The play-size formulas against values worked by hand.
#[test]
fn play_sizes_match_hand_values() {
    // 4 seeds: 12 seeds of 10 mm at 0.7 packing: 10·√(12/0.7) = 41.40, + 4 = 45.4 → 45.
    assert_eq!(geometry::play_pit_diameter(4), 45.0);
    // 3 seeds: 10·√(9/0.7) = 35.86, + 4 = 39.86 → 40.
    assert_eq!(geometry::play_pit_diameter(3), 40.0);
    // 2 seeds: 10·√(6/0.7) + 4 = 33.3 → 33, raised to the 35 mm floor.
    assert_eq!(geometry::play_pit_diameter(2), 35.0);
    // 6 seeds: 10·√(18/0.7) + 4 = 54.7 → 55.
    assert_eq!(geometry::play_pit_diameter(6), 55.0);
    // Oware store: half of 48 seeds = 24·78.54/0.7 = 2692.8 mm² over 45 mm = 59.8 → 60, but
    // both rows need 2·45 + 12 = 102.
    assert_eq!(geometry::play_store_length(48, 45.0, 12.0), 102.0);
    // A 200-seed game on 45 mm pits: 100·78.54/0.7/45 = 249.3 → 250, over the 200 mm most
    // store_length takes, so 200 (more than both rows, 102): 200·45·0.7/78.54 = 80.2 seeds lie
    // flat in it, so its 100 lie two deep.
    assert_eq!(geometry::play_store_length(200, 45.0, 12.0), 200.0);
    // 80 mm pits 40 mm apart: 1600 seeds need 800·112.2/80 = 1122 mm → 200; both rows
    // 2·80 + 40 = 200: 200, the longest a ruleset may give.
    assert_eq!(geometry::play_store_length(1600, 80.0, 40.0), 200.0);
    // Child-safe 134 mm pits (three 60 mm counters): both rows, 2·134 + 12 = 280, win over
    // the 200 mm cap (the store still spans both rows).
    assert_eq!(geometry::play_store_length(1600, 134.0, 12.0), 280.0);
    // 13 seeds: 10·√(39/0.7) + 4 = 78.6 → 79; 14 seeds: 10·√(42/0.7) + 4 = 81.5 → 81, over the
    // 80 mm most pit_diameter takes: 80; 50 seeds (10·√(150/0.7) + 4 = 150.4): 80.
    assert_eq!(geometry::play_pit_diameter(13), 79.0);
    assert_eq!(geometry::play_pit_diameter(14), 80.0);
    assert_eq!(geometry::play_pit_diameter(50), 80.0);
    // Counters: (45 − 4)/3 = 13.67 → 13; (40 − 4)/3 = 12.
    assert_eq!(geometry::play_counter_diameter(45.0), 13.0);
    assert_eq!(geometry::play_counter_diameter(40.0), 12.0);
    // Three 32 mm counters: 16·(1 + 2/√3) = 34.48 radius → 68.95 + 4 = 72.95 → 73.
    assert_eq!(geometry::pit_for_counters(32.0), 73.0);
    // The bundled rulesets print these sizes.
    for rs in common::bundled() {
        let d = geometry::play_pit_diameter(rs.board.seeds_per_pit);
        assert_eq!(rs.layout.pit_diameter, d, "{}", rs.id);
        assert_eq!(
            rs.layout.counter_diameter,
            geometry::play_counter_diameter(d)
        );
    }
}

#[test]
fn papers_parse_by_name_and_size() {
    assert_eq!(Paper::parse("a4").unwrap(), A4);
    assert_eq!(Paper::parse("Letter").unwrap(), LETTER);
    assert_eq!(Paper::parse("A3").unwrap(), A3);
    assert_eq!(Paper::parse("tabloid").unwrap(), TABLOID);
    assert_eq!(Paper::parse("LEGAL").unwrap(), LEGAL);
    // Hand values: A3 is 297 × 420 mm; Tabloid 11 × 17 in = 279.4 × 431.8 mm; Legal 8.5 × 14 in
    // = 215.9 × 355.6 mm.
    assert_eq!((A3.width, A3.height), (297.0, 420.0));
    assert_eq!((TABLOID.width, TABLOID.height), (279.4, 431.8));
    assert_eq!((LEGAL.width, LEGAL.height), (215.9, 355.6));
    let p = Paper::parse("420x594mm").unwrap();
    assert_eq!((p.width, p.height), (420.0, 594.0));
    assert_eq!(&*p.name, "420x594mm");
    // Landscape-written sizes are stored portrait.
    let p = Paper::parse("594x420mm").unwrap();
    assert_eq!((p.width, p.height), (420.0, 594.0));
    let p = Paper::parse("11x17in").unwrap();
    assert_eq!((p.width, p.height), (279.4, 431.8));
    let p = Paper::parse("8.5×14in").unwrap();
    assert_eq!((p.width, p.height), (215.9, 355.6));
    let err = |s: &str| Paper::parse(s).unwrap_err();
    assert!(err("b5").contains("unknown paper"), "{}", err("b5"));
    assert!(err("b5").contains("a4, letter, a3, tabloid or legal"));
    assert!(err("420x594").contains("no unit"), "{}", err("420x594"));
    assert!(err("420mm").contains("WIDTHxHEIGHT"), "{}", err("420mm"));
    assert!(
        err("axbmm").contains("positive numbers"),
        "{}",
        err("axbmm")
    );
    assert!(err("0x300mm").contains("positive numbers"));
    assert!(
        err("100x300mm").contains("at least 140 mm"),
        "{}",
        err("100x300mm")
    );
    assert!(err("300x3000mm").contains("at most 2000 mm"));
}

/// A custom size written with an exponent (`1e3x200mm`) was taken and printed as written in
/// every footer and in the how-to's "Print kit.pdf on 1e3x200mm paper". A side is digits with
/// at most two decimals; anything else Rust would read as a number is refused with the form
/// to use, and a size written oddly but plainly is named in its plainest form.
#[test]
fn custom_papers_take_plain_digits_and_are_named_plainly() {
    for (s, bad) in [
        ("1e3x200mm", "\"1e3\" is written with an exponent"),
        ("200x2E2MM", "\"2e2\" is written with an exponent"),
        ("8.5x1.1e1in", "\"1.1e1\" is written with an exponent"),
        ("+210x297mm", "\"+210\" is not written in plain digits"),
        ("210.x297mm", "\"210.\" is not written in plain digits"),
        ("210x.297e3mm", "\".297e3\" is written with an exponent"),
        ("210x297.125mm", "\"297.125\" has more than two decimals"),
    ] {
        let e = Paper::parse(s).unwrap_err();
        assert!(e.contains(bad), "{s}: {e}");
        assert!(e.contains("such as 210x297mm or 8.5x11in"), "{s}: {e}");
    }
    // Leading zeros, trailing decimal zeros, spaces, a capital unit and × are written the
    // plain way: 210.5 × 297 mm; 8.5 × 11 in = 215.9 × 279.4 mm.
    let p = Paper::parse("0210.50 × 297.00MM").unwrap();
    assert_eq!((&*p.name, p.width, p.height), ("210.5x297mm", 210.5, 297.0));
    let p = Paper::parse("11.0x08.50IN").unwrap();
    assert_eq!((&*p.name, p.width, p.height), ("11x8.5in", 215.9, 279.4));
    // On the command line it is a wrong argument (exit 2) naming the form to use.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .args(["check", "--paper", "1e3x200mm"])
        .arg(common::bundled_path("six-pit-sowing"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--paper") && err.contains("210x297mm"),
        "{err}"
    );
}

/// A side written with an exponent or a sign is refused for how it is written, whatever its
/// value: `1e400` (read as infinity) is no "not a number", `1e-400` (read as 0) and `-210`
/// are no "not above 0" (as `+210` was already refused). A unit other than mm or in is named
/// as a unit sowkit does not take, not as a missing one.
#[test]
fn custom_paper_exponents_signs_and_other_units_are_named_for_what_they_are() {
    for (s, bad) in [
        ("1e400x200mm", "\"1e400\" is written with an exponent"),
        ("210x1e-400mm", "\"1e-400\" is written with an exponent"),
        ("-210x297mm", "\"-210\" is not written in plain digits"),
        ("210x-297mm", "\"-297\" is not written in plain digits"),
        ("+210x297mm", "\"+210\" is not written in plain digits"),
    ] {
        let e = Paper::parse(s).unwrap_err();
        assert!(e.contains(bad), "{s}: {e}");
        assert!(e.contains("such as 210x297mm or 8.5x11in"), "{s}: {e}");
        assert!(
            !e.contains("not a number") && !e.contains("above 0"),
            "{s}: {e}"
        );
    }
    // Plain digits that are not a size keep their own words.
    let e = Paper::parse("0x297mm").unwrap_err();
    assert!(e.contains("\"0\" is not above 0"), "{e}");
    let e = Paper::parse("abcx297mm").unwrap_err();
    assert!(e.contains("\"abc\" is not a number"), "{e}");
    // A unit sowkit does not take.
    assert_eq!(
        Paper::parse("210x297cm").unwrap_err(),
        "paper \"210x297cm\": 297cm: cm is not a unit sowkit takes; use mm or in, such as 210x297mm or 8.5x11in"
    );
    let e = Paper::parse("8.5 x 11 PT").unwrap_err();
    assert!(
        e.contains("11PT: PT is not a unit sowkit takes; use mm or in"),
        "{e}"
    );
    // A size with no letters after it still has no unit.
    let e = Paper::parse("210x297").unwrap_err();
    assert!(e.contains("has no unit: end it with mm or in"), "{e}");
    // On the command line, a leading minus is read as the size, not as an option.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .args(["check", "--paper=-210x297mm"])
        .arg(common::bundled_path("six-pit-sowing"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("\"-210\" is not written in plain digits") && err.contains("210x297mm"),
        "{err}"
    );
}

/// A ruleset may name its paper; a bad one is a located error.
#[test]
fn ruleset_names_its_paper() {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/kalah-6x4.toml"),
    )
    .unwrap();
    let with = src.replace(
        "counter_diameter = 13",
        "counter_diameter = 13\npaper = \"a3\"",
    );
    assert_ne!(with, src);
    let rs = sowkit::ruleset::load_str("k.toml", &with).unwrap();
    assert_eq!(rs.layout.paper, Some(A3));
    let bad = src.replace(
        "counter_diameter = 13",
        "counter_diameter = 13\npaper = \"b5\"",
    );
    let d = sowkit::ruleset::load_str("k.toml", &bad).unwrap_err();
    let msg = &d[0].rendered;
    assert!(
        msg.contains("layout.paper") && msg.contains("unknown paper"),
        "{msg}"
    );
    assert!(msg.contains("k.toml"), "{msg}");
}

/// Custom and named papers all lay out, every tile page the paper's size either way round.
#[test]
fn every_paper_lays_out() {
    let rs = bundled("oware-abapa");
    for paper in [
        A4,
        LETTER,
        A3,
        TABLOID,
        LEGAL,
        Paper::parse("420x594mm").unwrap(),
    ] {
        let doc = kit(&rs, &KitOptions::new(paper));
        for p in &doc.pages {
            let turn = (p.width, p.height);
            assert!(
                turn == (paper.width, paper.height) || turn == (paper.height, paper.width),
                "{} {}: {turn:?}",
                paper.name,
                p.name
            );
        }
    }
    // A2 (420 × 594) holds the 456 mm Oware board on one landscape sheet (574 mm across).
    let doc = kit(&rs, &KitOptions::new(Paper::parse("420x594mm").unwrap()));
    assert!(doc.pages.iter().any(|p| p.name == "board"));
}

/// The word on the glue strip stays on the strip in every language (Spanish "pegamento" was
/// 13.5 mm even at 6 pt, wider than the 12 mm strip; the sheet says "pegar"). A longer word
/// is set smaller, never under 6 pt.
#[test]
fn the_glue_word_stays_on_the_strip() {
    for (id, word) in [("kalah-6x4", "glue"), ("kalah-6x3", "pegar")] {
        let rs = bundled(id);
        let ph = layout::phrases::Phrases::load(&rs.lang).unwrap();
        let doc = kit(&rs, &KitOptions::new(A4));
        let (d, plan) = board::plan(&rs, A4, &ph).unwrap();
        let (dx, _) = plan.offset(&d, 0, 0);
        let s = plan.seams_x[0] + dx;
        let t = leaves(&clip(tile_pages(&doc)[0]).items)
            .into_iter()
            .find_map(|i| match i {
                Item::Text(t) if t.text == word => Some(t.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{id}: no {word:?} on tile 1"));
        let w = text::width_mm(&t.text, t.size_pt, t.weight);
        assert!(t.size_pt >= 6.0);
        assert!(
            t.x >= s && t.x + w <= s + tile::OVERLAP,
            "{id}: {word:?} at {:.2}..{:.2}, strip {s:.2}..{:.2}",
            t.x,
            t.x + w,
            s + tile::OVERLAP
        );
    }
}

#[test]
fn large_print_fit_finds_one_sheet_for_every_bundled_board() {
    // `--style large --fit` on A4, Letter and Legal: one board sheet (and at most a legend
    // sheet of its own), every sheet passing the page check; or, where the 18 pt store names
    // need wider stores than a shrunk board keeps, refused with a message that says what
    // works. The six-pit board fits on all three.
    for rs in common::bundled() {
        for paper in [A4, LETTER, LEGAL] {
            let opts = KitOptions {
                fit: true,
                large: true,
                ..KitOptions::new(paper)
            };
            match layout::kit(&rs, &opts) {
                Ok(doc) => {
                    let boards: Vec<&Page> = doc
                        .pages
                        .iter()
                        .filter(|p| p.name == "board" || p.name.starts_with("board-"))
                        .collect();
                    assert!(
                        boards.len() <= 2 && boards[0].name == "board",
                        "{} {}: {:?}",
                        rs.id,
                        paper.name,
                        boards.iter().map(|p| &p.name).collect::<Vec<_>>()
                    );
                    for p in &doc.pages {
                        assert_eq!(layout::fit::problem(p), None);
                    }
                }
                Err(e) => {
                    assert!(rs.id != "six-pit-sowing", "{} {}: {e}", rs.id, paper.name);
                    assert!(e.contains("leave out --fit"), "{e}");
                }
            }
        }
    }
    // The six-pit board, which failed on all three before: the legend under it, portrait.
    let six = bundled("six-pit-sowing");
    for paper in [A4, LETTER, LEGAL] {
        let doc = kit(
            &six,
            &KitOptions {
                fit: true,
                large: true,
                ..KitOptions::new(paper)
            },
        );
        assert!(doc.pages.iter().any(|p| p.name == "board"));
    }
}

#[test]
fn child_safe_kalah_6x3_tiles_on_letter_in_large_print() {
    // Child-safe pits of 73 mm: the drawing is 227.2 mm tall with its registration band; a
    // portrait Letter tile keeps 279.4 − 10 − 31.5 − (7.6 + 2) = 228.3 mm under a one-line 18 pt
    // heading and 220.7 mm under two, and no seam can cross the rows (the stores span both),
    // so the headings must stay on one line.
    let rs = bundled("kalah-6x3");
    let opts = KitOptions {
        child_safe: true,
        large: true,
        ..KitOptions::new(LETTER)
    };
    let doc = kit(&rs, &opts);
    let tiles = tile_pages(&doc);
    assert!(tiles.len() >= 2);
    for t in tiles {
        assert!(t.width < t.height, "portrait");
        // The heading is the first text: one line, so every text above the drawing shares
        // its baseline.
        let first = t.texts().next().unwrap();
        // Shortened: the name's bracketed aside dropped whole, no bracket left open.
        assert!(
            !first.text.contains(&rs.name),
            "name shortened: {:?}",
            first.text
        );
        assert_eq!(
            first.text.matches('(').count(),
            first.text.matches(')').count(),
            "{:?}",
            first.text
        );
        let heading_lines = t
            .texts()
            .filter(|x| x.y < first.y + 5.0 && x.size_pt == first.size_pt && x.x < 15.0)
            .count();
        assert_eq!(heading_lines, 1, "{}", t.name);
    }
}

/// A box (x0, y0, x1, y1), mm.
type Box4 = (f64, f64, f64, f64);

/// Every shape of `items` (clips opened) with its own bounds (half its stroke added), the
/// clip rectangle it prints in, if any, and whether it is a glue strip (OVERLAP across).
fn shapes_with_clips(
    items: &[Item],
    clip: Option<Box4>,
    out: &mut Vec<(Box4, Option<Box4>, bool)>,
) {
    for it in items {
        match it {
            Item::Clip(c) => {
                let r = (c.x, c.y, c.x + c.w, c.y + c.h);
                let r = match clip {
                    Some(o) => (r.0.max(o.0), r.1.max(o.1), r.2.min(o.2), r.3.min(o.3)),
                    None => r,
                };
                shapes_with_clips(&c.items, Some(r), out);
            }
            Item::Shape(s) => {
                if let Some(b) = bounds(&s.segs) {
                    let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                    let strip = (b.2 - b.0 - tile::OVERLAP).abs() < 1e-6 && b.3 - b.1 > 20.0
                        || (b.3 - b.1 - tile::OVERLAP).abs() < 1e-6 && b.2 - b.0 > 20.0;
                    out.push(((b.0 - hw, b.1 - hw, b.2 + hw, b.3 + hw), clip, strip));
                }
            }
            Item::Text(_) => {}
        }
    }
}

/// No part of the board's drawing (a pit, store, arrow or line that reaches past a glue
/// strip's edge) prints on a glue strip, in every print style and in large print: the strip
/// is plain (before, low-ink's outlined strip showed the pits under it, and in large
/// contrast print the widened strokes left a sliver of ink at its far edge). Shapes wholly
/// inside the strip (registration marks) are its own marks.
#[test]
fn nothing_of_the_board_prints_on_a_glue_strip() {
    let rs = bundled("kalah-6x3");
    for style in [
        "default",
        "contrast",
        "low-ink",
        "large",
        "large,contrast",
        "large,low-ink",
    ] {
        let look = layout::style::Look::parse(style).unwrap();
        let opts = KitOptions {
            style: look.ink,
            colour: look.colour,
            large: look.large,
            ..KitOptions::new(A4)
        };
        let doc = layout::kit(&rs, &opts).unwrap();
        let mut strips_seen = 0;
        for pg in doc.pages.iter().filter(|p| p.name.starts_with("board-")) {
            let mut all = Vec::new();
            shapes_with_clips(&pg.items, None, &mut all);
            let strips: Vec<(f64, f64, f64, f64)> = all
                .iter()
                .filter(|(_, _, strip)| *strip)
                .map(|(b, _, _)| *b)
                .collect();
            strips_seen += strips.len();
            for s in &strips {
                // The strip's inside, less its outline.
                let inner = (s.0 + 0.3, s.1 + 0.3, s.2 - 0.3, s.3 - 0.3);
                for (b, clip, strip) in &all {
                    if *strip {
                        continue;
                    }
                    let shown = match clip {
                        Some(c) => (b.0.max(c.0), b.1.max(c.1), b.2.min(c.2), b.3.min(c.3)),
                        None => *b,
                    };
                    let on_strip = shown.0 < inner.2
                        && shown.2 > inner.0
                        && shown.1 < inner.3
                        && shown.3 > inner.1
                        && shown.0 < shown.2
                        && shown.1 < shown.3;
                    let vertical = (s.2 - s.0 - tile::OVERLAP).abs() < 1.0;
                    let wholly_inside = if vertical {
                        b.0 >= s.0 - 1e-6 && b.2 <= s.2 + 1e-6
                    } else {
                        b.1 >= s.1 - 1e-6 && b.3 <= s.3 + 1e-6
                    };
                    assert!(
                        !on_strip || wholly_inside,
                        "{style} {}: a shape {b:?} (printed {shown:?}) on the glue strip {s:?}",
                        pg.name
                    );
                }
            }
        }
        assert!(strips_seen > 0, "{style}: no glue strip found");
    }
}

/// Issue 9, large print on the narrowest paper allowed (140 × 297 mm): a tile joined on both
/// sides has about 140 − 2·margin − 12 mm overlap of band for "◀ tile 2" and "tile 4 ▶" at the
/// 18 pt join size, which does not always hold both. There both labels shorten to the arrow and the
/// number, and no join label crosses another; where the words fit (A4) they stay.
#[test]
fn join_labels_of_a_narrow_tile_shorten_to_arrow_and_number() {
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    let ph = layout::phrases::Phrases::load("en").unwrap();
    let joins = |paper: Paper| -> Vec<Vec<(String, f64, f64)>> {
        let opts = KitOptions {
            large: true,
            ..KitOptions::new(paper)
        };
        board::pages(&rs, &opts, &ph)
            .unwrap()
            .iter()
            .filter(|p| p.name.starts_with("board-") && p.name != "board-map")
            .map(|p| {
                leaves(&p.items)
                    .into_iter()
                    .filter_map(|i| match i {
                        Item::Text(t) if t.text.contains('▶') || t.text.contains('◀') => {
                            Some((
                                t.text.clone(),
                                t.x,
                                t.x + text::width_mm(&t.text, t.size_pt, t.weight),
                            ))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    };
    let thin = joins(Paper::parse("140x297mm").unwrap());
    assert!(thin.len() >= 3, "{} tiles", thin.len());
    let mut short = 0;
    for (k, tile) in thin.iter().enumerate() {
        // A first and last tile have one join label, the others two.
        let want = if k == 0 || k + 1 == thin.len() { 1 } else { 2 };
        assert_eq!(tile.len(), want, "tile {}: {tile:?}", k + 1);
        if let [a, b] = &tile[..] {
            let (l, r) = if a.1 < b.1 { (a, b) } else { (b, a) };
            assert!(l.2 <= r.1, "tile {}: {l:?} crosses {r:?}", k + 1);
            // Both in words, or both short (a tile's own width decides).
            if r.0 == format!("{} ▶", k + 2) {
                assert_eq!(l.0, format!("◀ {k}"), "tile {}", k + 1);
                short += 1;
            } else {
                assert_eq!(r.0, format!("tile {} ▶", k + 2), "tile {}", k + 1);
                assert_eq!(l.0, format!("◀ tile {k}"), "tile {}", k + 1);
            }
        }
    }
    assert!(short > 0);
    for tile in joins(A4) {
        for (t, _, _) in tile {
            assert!(t.contains("tile "), "{t} shortened on A4");
        }
    }
}

/// The white number circles (radius `r` mm) of a page's assembly map: their centres, from the
/// drawn shapes' bounds.
fn number_circles(p: &Page, r: f64) -> Vec<(f64, f64)> {
    p.shapes()
        .filter(|s| s.fill == Some(Color::WHITE))
        .filter_map(|s| bounds(&s.segs))
        .filter(|b| ((b.2 - b.0) - 2.0 * r).abs() < 0.01 && ((b.3 - b.1) - 2.0 * r).abs() < 0.01)
        .map(|b| ((b.0 + b.2) / 2.0, (b.1 + b.3) / 2.0))
        .collect()
}

/// 16 pits a side of 50 seeds, relay sowing, no stores in the circuit, at play sizes.
const LONG_BOARD: &str = include_str!("fixtures/long-board.toml");

/// A 16-pit board of 50 seeds a pit (pits and stores at play size) is drawn 1.4 m long: on
/// Letter in normal print its map is one row of narrow tiles whose 10 mm number circles stand
/// apart (on the board-map sheet and on the how-to sheet's copy, when it has one); in large
/// print (more tiles, larger numbers) the numbers cannot, and the error says so instead of
/// blaming labels or notes.
#[test]
fn assembly_map_numbers_stand_apart_or_the_error_says_why() {
    let rs = sowkit::ruleset::load::load_str("long.toml", LONG_BOARD).unwrap();
    let normal = kit(&rs, &KitOptions::new(LETTER));
    let count = tile_pages(&normal).len();
    assert!(count >= 8, "{count} tiles");
    for name in ["board-map", "howto", "howto-2"] {
        let Some(p) = normal.pages.iter().find(|p| p.name == name) else {
            continue;
        };
        // Each number inside its tile (or its circle reaching into a thin one) on its own
        // circle, no two circles overlapping: the 10 mm circles where they fit, smaller on the
        // board's thin first row of tiles.
        let maps = map_numbers_in_tiles(p, "long board on Letter");
        if name == "board-map" {
            assert_eq!(maps, 1, "{name}");
            assert_eq!(number_circles(p, 5.0).len(), count / 2, "{name}");
        }
    }
    let large = KitOptions {
        large: true,
        ..KitOptions::new(LETTER)
    };
    let e = layout::kit(&rs, &large).unwrap_err();
    assert!(
        e.contains("tile numbers (") && e.contains("to stand apart"),
        "{e}"
    );
    assert!(!e.contains("shorten the labels"), "{e}");
}

/// A board that fits its sheet only without the legend under it is printed whole on one sheet,
/// with the legend on a sheet of its own, never as "1 tiles" with an assembly map. Kalah, 2
/// pits of 4 seeds: default sizes, 45 mm pits, 12 mm gap, store `2·45 + 12 = 102` mm; the cut
/// board is about 220 × 142 mm, within A4 landscape's 277 mm but, with the legend's lines
/// under it, taller than the sheet holds.
#[test]
fn a_board_that_fits_a_sheet_is_never_one_tile() {
    let mut rs = common::kalah(2, 4);
    rs.layout.pit_diameter = 45.0;
    rs.layout.pit_gap = 12.0;
    rs.layout.store_length = 102.0;
    let doc = kit(&rs, &KitOptions::new(A4));
    let names: Vec<&str> = doc.pages.iter().map(|p| p.name.as_str()).collect();
    assert!(
        names.contains(&"board") && names.contains(&"board-legend"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"board-map") && tile_pages(&doc).is_empty(),
        "{names:?}"
    );
    // The legend's sheet has nothing to cut, and its title says what it is.
    let legend = doc.pages.iter().find(|p| p.name == "board-legend").unwrap();
    let texts: Vec<&str> = leaves(&legend.items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("how to read the board")),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t.contains("cut along")), "{texts:?}");
    let board = doc.pages.iter().find(|p| p.name == "board").unwrap();
    assert!(board.width > board.height, "landscape");
    // The pits are printed at true size: 45 mm circles.
    let circles = leaves(&board.items)
        .into_iter()
        .filter_map(|i| match i {
            Item::Shape(s) => bounds(&s.segs),
            _ => None,
        })
        .filter(|b| ((b.2 - b.0) - 45.0).abs() < 0.01 && ((b.3 - b.1) - 45.0).abs() < 0.01)
        .count();
    assert!(circles >= 4, "{circles} pit circles of 45 mm");
}

/// A steep arrow's Bézier control points reach past the board, but the arrow does not: a
/// 4-pit board of 35 mm pits with 200 mm stores is laid out on one sheet of a large paper,
/// with or without --fit (the check boxed the control points, so a 1 m sheet refused what
/// A3 took, against "a larger paper lays out whatever a smaller one does").
#[test]
fn tall_stores_lay_out_on_a_large_sheet() {
    let mut rs = common::kalah(4, 1);
    rs.layout.pit_diameter = 35.0;
    rs.layout.pit_gap = 0.0;
    rs.layout.store_length = 200.0;
    let big = Paper::parse("1000x1000mm").unwrap();
    for fit in [false, true] {
        let opts = KitOptions {
            fit,
            ..KitOptions::new(big)
        };
        let doc = kit(&rs, &opts);
        assert!(
            doc.pages.iter().any(|p| p.name == "board") && tile_pages(&doc).is_empty(),
            "fit {fit}: {:?}",
            doc.pages.iter().map(|p| &p.name).collect::<Vec<_>>()
        );
    }
    let a3 = KitOptions {
        fit: true,
        ..KitOptions::new(A3)
    };
    kit(&rs, &a3);
}

/// The tile numbers of every assembly map (the board-map sheet's and the how-to sheet's copy)
/// over every bundled ruleset, papers from 140 mm wide to A3, both languages, normal and large
/// print: each number's ink (its glyph outlines, boxed) lies inside the outline of its own tile
/// on the map and on its own white circle, no two numbers' ink boxes meet and no two circles
/// overlap (a later circle hides part of an earlier number). On paper 190 mm wide in Spanish large print
/// Kalah's map was drawn about 25 mm wide with its numbers over each other. A kit that does not
/// lay out must say that its map is too small for its numbers (or fail for another reason
/// that names no map).
#[test]
fn assembly_map_numbers_lie_apart_inside_their_tiles() {
    let papers = [
        A4,
        LETTER,
        A3,
        Paper::parse("190x280mm").unwrap(),
        Paper::parse("140x216mm").unwrap(),
        Paper::parse("170x240mm").unwrap(),
        Paper::parse("297x210mm").unwrap(),
    ];
    let mut maps = 0;
    for rs in common::bundled() {
        for paper in papers {
            for lang in ["en", "es"] {
                for large in [false, true] {
                    let opts = KitOptions {
                        lang: Some(lang.to_string()),
                        large,
                        ..KitOptions::new(paper)
                    };
                    let at = format!("{} on {} in {lang}, large {large}", rs.id, paper.name);
                    let doc = match layout::kit(&rs, &opts) {
                        Ok(d) => d,
                        Err(e) => {
                            assert!(
                                !e.contains("assembly map") || e.contains("tile numbers"),
                                "{at}: {e}"
                            );
                            eprintln!("{at}: {e}");
                            continue;
                        }
                    };
                    for p in &doc.pages {
                        maps += map_numbers_in_tiles(p, &at);
                    }
                }
            }
        }
    }
    // Every bundled board is tiled on most of these papers.
    assert!(maps > 100, "only {maps} maps checked");
}

/// Checks one page's assembly map, if it has one; returns 1 if it had. A map draws each
/// tile's outline (an unfilled rectangle stroked 0.6 mm black), then, tile by tile in the same
/// order, a white number circle and its number.
fn map_numbers_in_tiles(p: &Page, at: &str) -> usize {
    if p.name != "board-map" && !p.name.starts_with("howto") {
        return 0;
    }
    let items: Vec<&Item> = leaves(&p.items);
    let mut outlines = Vec::new();
    let mut numbers = Vec::new();
    let mut circles = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let Item::Shape(s) = it else { continue };
        let outline = s.fill.is_none()
            && s.stroke.as_ref().is_some_and(|st| {
                st.width == 0.6 && st.color == Color::BLACK && st.dash.is_empty()
            })
            && s.segs.len() == 5;
        if outline {
            outlines.push(bounds(&s.segs).unwrap());
            continue;
        }
        let Some(Item::Text(t)) = items.get(i + 1).copied() else {
            continue;
        };
        if s.fill == Some(Color::WHITE) && t.text.parse::<usize>().is_ok() && !outlines.is_empty() {
            numbers.push((bounds(&text::outline(t)).unwrap(), t.text.clone()));
            circles.push(bounds(&s.segs).unwrap());
        }
    }
    let found: Vec<_> = outlines
        .iter()
        .zip(&numbers)
        .map(|(o, (ink, text))| (*o, *ink, text.clone()))
        .collect();
    if !found.is_empty() {
        assert_eq!(
            outlines.len(),
            numbers.len(),
            "{at}: {}: a number a tile",
            p.name
        );
    }
    if found.is_empty() {
        return 0;
    }
    let name = &p.name;
    for (n, ((tile, ink, text), circle)) in found.iter().zip(&circles).enumerate() {
        assert_eq!(*text, (n + 1).to_string(), "{at}: {name}: numbers in order");
        let (cx, cy, r) = (
            (circle.0 + circle.2) / 2.0,
            (circle.1 + circle.3) / 2.0,
            (circle.2 - circle.0) / 2.0,
        );
        // Along each axis the number's ink lies inside its tile's outline, or, across a tile
        // thinner than the digits (a board's thin strip), its circle reaches into the tile.
        for (lo, hi, a, b, c) in [
            (tile.0, tile.2, ink.0, ink.2, cx),
            (tile.1, tile.3, ink.1, ink.3, cy),
        ] {
            if b - a <= hi - lo {
                assert!(
                    a >= lo - 1e-6 && b <= hi + 1e-6,
                    "{at}: {name}: number {text} ({ink:?}) is not inside its tile ({tile:?})"
                );
            } else {
                assert!(
                    (c - (lo + hi) / 2.0).abs() < r + (hi - lo) / 2.0,
                    "{at}: {name}: number {text}'s circle ({circle:?}) misses its thin tile ({tile:?})"
                );
            }
        }
        // On its own white circle, clear of the circle's 0.5 mm line (which the number's
        // digits, their outlines boxed, must not touch).
        let reach = (ink.0 - cx)
            .abs()
            .max((ink.2 - cx).abs())
            .hypot((ink.1 - cy).abs().max((ink.3 - cy).abs()));
        assert!(
            reach <= r - 0.25,
            "{at}: {name}: number {text} ({ink:?}) reaches past its circle ({circle:?})"
        );
    }
    for (i, (_, a, ta)) in found.iter().enumerate() {
        for (_, b, tb) in &found[i + 1..] {
            let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
            assert!(
                apart,
                "{at}: {name}: numbers {ta} {a:?} and {tb} {b:?} meet"
            );
        }
    }
    // A white circle drawn over another covers part of its number: they may only touch.
    for (i, a) in circles.iter().enumerate() {
        for b in &circles[i + 1..] {
            let (ra, rb) = ((a.2 - a.0) / 2.0, (b.2 - b.0) / 2.0);
            let gap =
                ((a.0 + a.2 - b.0 - b.2) / 2.0).hypot((a.1 + a.3 - b.1 - b.3) / 2.0) - ra - rb;
            assert!(gap > -0.01, "{at}: {name}: circles {a:?} and {b:?} overlap");
        }
    }
    1
}

/// Oware abapa with 75 mm pits (its stores at their play length for them), large print on
/// Letter: the ruleset, the kit options and the English phrases.
fn oware_75_large_letter() -> (Ruleset, KitOptions, layout::phrases::Phrases) {
    let mut rs = bundled("oware-abapa");
    rs.layout.pit_diameter = 75.0;
    rs.layout.store_length = geometry::play_store_length(rs.total_seeds(), 75.0, rs.layout.pit_gap);
    let opts = KitOptions {
        large: true,
        ..KitOptions::new(LETTER)
    };
    let ph = layout::phrases::Phrases::load(&rs.lang).unwrap();
    (rs, opts, ph)
}

/// Oware abapa with 75 mm pits, large print on Letter (a helper's teacher, for a class): before,
/// 8 tiles, the 4 of the top row holding only North's row caption, and a build error ("the
/// texts … and \"▼ tile 5\" overlap"). The row captions go below the board out to the stores'
/// outer edges, leaving the pit columns free for seams: 4 tiles in one row, the fewest. By
/// hand: portrait Letter tiles are 215.9 − 2·10 = 195.9 mm wide, so 3 tiles cover at most
/// 3·195.9 − 2·12 = 563.7 mm of a drawing 718 mm wide and 4 cover 747.6; one row when the
/// drawing (222.6 mm) is within the 227.4 mm a tile holds under its heading.
#[test]
fn a_large_board_in_large_print_takes_one_row_of_tiles() {
    let (rs, opts, ph) = oware_75_large_letter();
    let (d, plan) = board::plan_sized(&rs, LETTER, &opts.sizes(), &ph).unwrap();
    assert_eq!((plan.cols(), plan.rows()), (4, 1), "{plan:?}");
    assert!(
        (d.w - 718.0).abs() < 0.5 && d.h <= plan.area.3,
        "{} × {}",
        d.w,
        d.h
    );
    assert!(4.0 * plan.area.2 - 3.0 * tile::OVERLAP >= d.w);
    assert!(3.0 * plan.area.2 - 2.0 * tile::OVERLAP < d.w);
    assert_eq!(tile_pages(&kit(&rs, &opts)).len(), 4);
}

/// Tiles in two rows (the same board, its plan given a row seam through the middle): each
/// upper tile names the tile below on its glue strip, clear of the registration marks; each
/// lower tile names its side neighbours in the band below the board. Before, "▼ tile 5" stood
/// centred in the 11 mm band left of the board, about 17 mm of large type, across a row
/// caption beside the seam (a build error), and the lower tiles had no side labels (their band
/// above the board is on the upper tiles).
#[test]
fn tiles_in_two_rows_name_their_joins_on_the_strip_and_below_the_board() {
    let (rs, opts, ph) = oware_75_large_letter();
    let (d, plan) = board::plan_sized(&rs, LETTER, &opts.sizes(), &ph).unwrap();
    let two = tile::Plan {
        seams_y: vec![(d.part.1 + d.part.3 / 2.0).round()],
        ..plan
    };
    let pages = tile::pages(&d, &two, &opts.sizes(), "board", "Club board", &ph);
    let tiles: Vec<&Page> = pages.iter().collect();
    let texts = |p: &Page| -> Vec<(String, f64, f64, f64)> {
        leaves(&clip(p).items)
            .into_iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some((
                    t.text.clone(),
                    t.x,
                    t.x + text::width_mm(&t.text, t.size_pt, t.weight),
                    t.y,
                )),
                _ => None,
            })
            .collect()
    };
    let downs: Vec<usize> = (0..tiles.len())
        .filter(|&k| texts(tiles[k]).iter().any(|t| t.0.starts_with('▼')))
        .collect();
    let cols = downs.len();
    assert!(
        cols >= 2 && tiles.len() == 2 * cols,
        "{} tiles, {downs:?}",
        tiles.len()
    );
    assert_eq!(
        downs,
        (0..cols).collect::<Vec<_>>(),
        "the upper row names the lower"
    );
    for (k, p) in tiles.iter().enumerate() {
        let ts = texts(p);
        let n = k + 1;
        if k < cols {
            // The strip below: a grey band OVERLAP mm tall across the tile.
            let strip = leaves(&clip(p).items)
                .into_iter()
                .find_map(|i| match i {
                    Item::Shape(s)
                        if s.fill
                            .is_some_and(|c| c != Color::WHITE && c != Color::BLACK)
                            && (size(s).1 - tile::OVERLAP).abs() < 1e-6
                            && size(s).0 > tile::OVERLAP + 1.0 =>
                    {
                        bounds(&s.segs)
                    }
                    _ => None,
                })
                .unwrap_or_else(|| panic!("tile {n}: no strip below"));
            let down = ts.iter().find(|t| t.0.starts_with('▼')).unwrap();
            assert!(
                down.0 == format!("▼ tile {}", n + cols) || down.0 == format!("▼ {}", n + cols),
                "tile {n}: {down:?}"
            );
            assert!(
                down.1 >= strip.0 && down.2 <= strip.2 && down.3 > strip.1 && down.3 < strip.3,
                "tile {n}: {down:?} not on the strip {strip:?}"
            );
            for (mx, my) in marks(&clip(p).items) {
                let clear = mx + tile::MARK_ARM <= down.1 || mx - tile::MARK_ARM >= down.2;
                assert!(
                    clear || (my - down.3).abs() > 8.0,
                    "tile {n}: {down:?} on the mark at ({mx:.1}, {my:.1})"
                );
            }
        } else {
            // Side labels below the board: the tile before and the tile after in the row.
            let col = k - cols;
            let mut want = Vec::new();
            if col > 0 {
                want.push((format!("◀ tile {}", n - 1), format!("◀ {}", n - 1)));
            }
            if col + 1 < cols {
                want.push((format!("tile {} ▶", n + 1), format!("{} ▶", n + 1)));
            }
            let sides: Vec<&(String, f64, f64, f64)> = ts
                .iter()
                .filter(|t| t.0.contains('◀') || t.0.contains('▶'))
                .collect();
            assert_eq!(sides.len(), want.len(), "tile {n}: {sides:?}");
            for (long, short) in &want {
                assert!(
                    sides.iter().any(|t| t.0 == *long || t.0 == *short),
                    "tile {n}: no {long:?} in {sides:?}"
                );
            }
            // Below every pit and store of the tile.
            let lowest = features(&clip(p).items)
                .iter()
                .map(|((_, y), (_, h))| y + h / 2.0)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                sides.iter().all(|t| t.3 > lowest),
                "tile {n}: {sides:?} above {lowest:.1}"
            );
        }
    }
}
