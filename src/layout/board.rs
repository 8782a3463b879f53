//! The board sheet: the board at 100% scale on a landscape page, with the labeled sowing
//! circuit.
//!
//! Geometry (hole numbering as in [`crate::engine`]): side 0's pits run left to right along the
//! bottom row, its store at the right end; side 1's pits run right to left along the top row,
//! its store at the left end, so the circuit order (side 0's pits, store 0, side 1's pits,
//! store 1) goes counter-clockwise round the board and pit `i` of side 0 sits under its
//! opposite pit `n-1-i` of side 1. Numbered arrows hop outside the rows from each sown hole to
//! the next; a store one player passes by gets a dashed bypass arrow and a ⊘ note; stores no one
//! sows stand apart as capture stores. Side 1's pits and store carry a double ring, so the
//! sides differ by pattern and by the names on their rows, never by colour alone.
/// Smallest pit diameter, mm, the board may ever be shrunk to: a 10 mm pit still holds a small
/// paper counter and its label. [`min_fit_pit`] is the floor for a given game.
const MIN_PLAYABLE_PIT: f64 = 10.0;

/// Smallest pit `--fit` may shrink the board of `rs` (as printed) to, mm, and the counter that
/// floor is worked out for: a pit must hold the seeds a pit starts with
/// ([`crate::geometry::flat_count`]) as counters lying flat, counters that shrink with the
/// board no smaller than [`crate::geometry::MIN_FIT_COUNTER`] (or the ruleset's own smaller
/// counter; child-safe counters do not shrink at all), never under [`MIN_PLAYABLE_PIT`] nor
/// over the pits asked for. Kalah with four seeds a pit and 13 mm counters: four 8 mm
/// counters need `8 · (1 + √2) + 4` → 23.4 mm.
pub fn min_fit_pit(rs: &Ruleset) -> (f64, f64) {
    let asked = rs.layout.counter_diameter;
    let c = if rs.layout.child_safe {
        asked
    } else {
        asked.min(crate::geometry::MIN_FIT_COUNTER)
    };
    let k = crate::geometry::flat_count(rs.board.seeds_per_pit);
    let d = crate::geometry::pit_holding(c, k)
        .max(MIN_PLAYABLE_PIT)
        .min(rs.layout.pit_diameter);
    (d, c)
}

use super::page::{self, MARGIN};
use super::phrases::{join_and, Phrases};
use super::{centred, centred_mid, para, sheet_title, tile, KitOptions, Paper};
use crate::doc::pt as p;
use crate::doc::{circle, line, rect, rounded_rect, Color, Page, Pt, Seg, Stroke, Weight};
use crate::ruleset::{CaptureKind, Chain, Direction, Ruleset};
use crate::text;

/// Stroke of circuit arrows, mm.
const ARROW_W: f64 = 0.45;

use super::style::Sizes;
use super::style::SIDE_INK;
pub use crate::geometry::{circuit, hole_label, store_sown_by, BoardGeometry as Geometry};
use crate::geometry::{Hop, ARC_SPACE, OUTLINE, RING};

fn unit(dx: f64, dy: f64) -> (f64, f64) {
    let l = (dx * dx + dy * dy).sqrt();
    if l < 1e-9 {
        (1.0, 0.0)
    } else {
        (dx / l, dy / l)
    }
}

/// A filled arrowhead with its tip at `tip`, pointing along (`dx`, `dy`).
pub(crate) fn arrowhead(page: &mut Page, tip: Pt, dx: f64, dy: f64, len: f64) {
    let (ux, uy) = unit(dx, dy);
    let (bx, by) = (tip.x - ux * len, tip.y - uy * len);
    let hw = len * 0.45;
    page.shape(
        vec![
            Seg::MoveTo(tip),
            Seg::LineTo(p(bx - uy * hw, by + ux * hw)),
            Seg::LineTo(p(bx + uy * hw, by - ux * hw)),
            Seg::Close,
        ],
        Some(Color::BLACK),
        None,
    );
}

/// Draws a hop as a curve with an arrowhead at `b` (and at `a` when `both`).
fn draw_hop(page: &mut Page, h: &Hop, stroke: Stroke, both: bool) {
    let head = 2.4;
    let (ux, uy) = unit(h.b.x - h.c2.x, h.b.y - h.c2.y);
    let b = p(h.b.x - ux * head * 0.8, h.b.y - uy * head * 0.8);
    let (vx, vy) = unit(h.a.x - h.c1.x, h.a.y - h.c1.y);
    let a = if both {
        p(h.a.x - vx * head * 0.8, h.a.y - vy * head * 0.8)
    } else {
        h.a
    };
    page.shape(
        vec![Seg::MoveTo(a), Seg::CubicTo(h.c1, h.c2, b)],
        None,
        Some(stroke),
    );
    arrowhead(page, h.b, ux, uy, head);
    if both {
        arrowhead(page, h.a, vx, vy, head);
    }
}

/// The board sheet(s) for `opts` (the ruleset as [`super::as_printed`] gives it):
///
/// * the board at true size on one page when it fits, portrait or landscape, whichever leaves
///   more room;
/// * with `opts.fit`, a board too big for one page shrunk onto one landscape page, which says so;
/// * otherwise the board at true size split into tiles ([`super::tile`]) on the fewest pages,
///   after an assembly page with a map of the tiles (named `board-map`, then `board-1`, …).
///
/// Errors: no pits; a pit label that does not fit its pit; with `fit`, pits that would shrink
/// below 10 mm; without it, a board that cannot be split between its pits.
pub fn pages(rs: &Ruleset, opts: &KitOptions, ph: &Phrases) -> Result<Vec<Page>, String> {
    pages_scaled(rs, opts, ph).map(|(pages, _)| pages)
}

/// [`pages`], with the scale the board is printed at (1 unless `--fit` shrank it): the kit
/// cuts counters for the pits printed ([`Geometry::counter_d`] at that scale).
pub fn pages_scaled(
    rs: &Ruleset,
    opts: &KitOptions,
    ph: &Phrases,
) -> Result<(Vec<Page>, f64), String> {
    if rs.board.pits_per_side == 0 {
        return Err("the board has no pits".into());
    }
    let paper = opts.paper;
    let sz = &opts.sizes();
    let mut best: Option<(f64, Vec<Page>)> = None;
    // With --fit the stores are kept wide enough for their words at true size too, as on a
    // shrunk board: a larger paper that holds the board at true size then lays out whatever
    // a smaller one, which shrinks it, does.
    let widen = if opts.fit { Widen::Stores } else { Widen::No };
    // A board that misses one sheet only by the lines of a long name's title is printed on one
    // sheet under that title cut to one line, as a tile's heading is, not split into one tile
    // (a break-it pass got "the board in 1 tiles" and "cut tiles 2 to 1").
    let title_wraps = |landscape: bool| {
        let pg = if landscape {
            page::landscape("board", paper)
        } else {
            page::portrait("board", paper)
        };
        let title = ph.fmt("board.title", &[("name", &rs.name)]);
        super::title_lines(&title, sz.sheet_title, pg.width - 2.0 * MARGIN).len() > 1
    };
    // A board that misses one sheet only by the row caption above it: both captions on one
    // line below it (as a tiled board may have them). Tried only when the board so drawn is
    // no larger than the sheet's margins and its captions fit there.
    let below = Sizes {
        wrap_row_captions: false,
        captions_below: true,
        captions_board_wide: true,
        ..*sz
    };
    let below_fits = || {
        let g = Geometry::new(rs, rs.layout.child_safe).with_caption(below.board_caption, 1);
        let (cw, ch) = g.with_captions_below().cut_size();
        let room = |a: f64, b: f64| cw <= a - 2.0 * MARGIN && ch <= b - 2.0 * MARGIN;
        (room(paper.width, paper.height) || room(paper.height, paper.width))
            && captions_fit_below(rs, ph, &below, &g)
    };
    let mut below_checked: Option<bool> = None;
    // The ways one sheet may hold the board, tried in turn until one does (each in landscape
    // and portrait, the larger slack kept): (captions below, legend apart, title on one line).
    // 1. as drawn; 2. with a long name's title cut to one line; 3. the legend on a sheet of
    // its own rather than one tile and an assembly map (a break-it pass got "the board in 1
    // tiles" and "cut tiles 2 to 1" for a 2-pit board); 4. that with the title on one line
    // (Spanish large print's six-pit board on landscape A4: its two-line title left the board
    // 4 mm short); 5 to 7: the row captions below the board, the legend under it, then on a
    // sheet of its own, then with the title on one line. With --fit only 1 and 2 (a board
    // that does not fit is shrunk, below).
    const WAYS: [(bool, bool, bool); 7] = [
        (false, false, false),
        (false, false, true),
        (false, true, false),
        (false, true, true),
        (true, false, false),
        (true, true, false),
        (true, true, true),
    ];
    for (captions_below, apart, one_line_title) in WAYS {
        if best.is_some() {
            break;
        }
        if opts.fit && (apart || captions_below) {
            continue;
        }
        if captions_below && !*below_checked.get_or_insert_with(below_fits) {
            break;
        }
        let way_sz = if captions_below { &below } else { sz };
        for landscape in [true, false] {
            if one_line_title && !title_wraps(landscape) {
                continue;
            }
            let tried = single(
                rs,
                opts,
                way_sz,
                ph,
                landscape,
                widen,
                apart,
                one_line_title,
                &mut 0.0,
            );
            // A captions-below drawing that cannot be laid out is only a way not taken.
            let tried = if captions_below {
                tried.ok().flatten()
            } else {
                tried?
            };
            if let Some((slack, _, pg)) = tried {
                if best.as_ref().is_none_or(|(b, _)| slack > *b) {
                    best = Some((slack, pg));
                }
            }
        }
    }
    if let Some((_, pg)) = best {
        return Ok((pg, 1.0));
    }
    if opts.fit {
        // The largest pits on one sheet: landscape or portrait, the legend under the board or,
        // when it leaves the board too little room (large print), on a sheet of its own.
        let mut fitted: Option<(f64, Vec<Page>)> = None;
        let mut why = None;
        for apart in [false, true] {
            for landscape in [true, false] {
                let mut d = 0.0;
                match single(
                    rs,
                    opts,
                    sz,
                    ph,
                    landscape,
                    Widen::Shrink,
                    apart,
                    false,
                    &mut d,
                ) {
                    Ok(Some((_, s, pg))) => {
                        if fitted.as_ref().is_none_or(|(b, _)| s > *b + 1e-9) {
                            fitted = Some((s, pg));
                        }
                    }
                    Ok(None) => {}
                    // The reason given is the one of the largest pits tried.
                    Err(e) => {
                        if why.as_ref().is_none_or(|(b, _)| d > *b) {
                            why = Some((d, e));
                        }
                    }
                }
            }
            if fitted.is_some() {
                break;
            }
        }
        return match (fitted, why) {
            (Some((s, pg)), _) => Ok((pg, s)),
            (None, Some((_, e))) => Err(format!(
                "with --fit the board does not fit one {} sheet with its labels readable ({e}): leave out --fit to print it in tiles at true size, or use a larger paper",
                paper.name
            )),
            (None, None) => Err(format!(
                "the board does not fit one {} sheet at any size: leave out --fit to print it in tiles at true size",
                paper.name
            )),
        };
    }
    tiled(rs, opts, sz, ph).map(|pg| (pg, 1.0))
}

/// The board drawn once at 1:1 for tiling: the cut-out board with a [`tile::BAND`] round it
/// for registration marks, and its geometry (board-local plus the band). Arrow numbers are
/// moved along their arrows out of the `keep_clear` x intervals (drawing mm), so a seam there
/// has its band free.
pub fn drawing(
    rs: &Ruleset,
    ph: &Phrases,
    keep_clear: &[(f64, f64)],
) -> Result<(tile::Drawing, Geometry), String> {
    drawing_sized(rs, ph, &Sizes::NORMAL, keep_clear)
}

/// [`drawing`] in the type sizes `sz` (large print: larger labels, numbers and row captions;
/// the pits and stores keep their true size).
pub fn drawing_sized(
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    keep_clear: &[(f64, f64)],
) -> Result<(tile::Drawing, Geometry), String> {
    let g = Geometry::new(rs, rs.layout.child_safe);
    let mut g = g.with_caption(sz.board_caption, caption_lines(rs, ph, sz, &g));
    if sz.captions_below && !sz.wrap_row_captions {
        g = g.with_captions_below();
    }
    let (w, h) = g.cut_size();
    let b = tile::BAND;
    g.place_cut_at(b, b);
    let mut pg = Page::new("board", w + 2.0 * b, h + 2.0 * b);
    draw_board(&mut pg, rs, ph, sz, &g, &circuit(rs), keep_clear)?;
    Ok((
        tile::Drawing {
            w: w + 2.0 * b,
            h: h + 2.0 * b,
            items: pg.items,
            part: (b, b, w, h),
        },
        g,
    ))
}

/// The tiling plan of the board of `rs` on `paper` (see [`pages`]) and the drawing the tiles
/// show. Seams are chosen by [`tile::plan`] on the board drawn with every arrow number moved
/// out of the gaps between pit columns (and between the end columns and the stores), so each
/// gap's whole width counts as its free band; the board is then drawn again with only the
/// numbers at the chosen seams moved. Errors when a seam would come within
/// [`tile::SEAM_CLEAR`] of a solid item in that drawing.
pub fn plan(
    rs: &Ruleset,
    paper: Paper,
    ph: &Phrases,
) -> Result<(tile::Drawing, tile::Plan), String> {
    plan_sized(rs, paper, &Sizes::NORMAL, ph)
}

/// [`plan`] in the type sizes `sz` (large print: [`drawing_sized`], larger tile headings).
/// Large print's row captions wrap over the store and the first pit column (two lines above
/// the board and two below); when they make the board too tall for any tiling (a child-safe
/// board's 73 mm pits with its 18 pt two-line captions and headings on Letter), or when one
/// line each, over the pit columns with the seams kept out of them, needs fewer tiles (Kalah
/// 6×3 on landscape Letter: 15 mm lower, 2 tiles instead of 3), the captions go on one line.
/// Then both captions on one line below the board ([`Sizes::captions_below`]) are tried
/// where they fit the pit columns' width and the board so drawn could take fewer tiles
/// ([`tile::fewest_tiles`]), or where the board cannot be tiled otherwise, and kept when they
/// need fewer tiles: the caption band above the board alone may cost a row of tiles that hold
/// nothing else (a 5-pit board of 50 mm pits on A4: 4 tiles, two of them only the top
/// caption; 2 with it below). The captions below go over the first and last pit columns,
/// then, where that leaves no seam within a tile's width, out to the stores' outer edges
/// ([`Sizes::captions_board_wide`]; Oware with 75 mm pits in large print on Letter: 8 tiles
/// with the caption above, 4 with them below out to the stores).
pub fn plan_sized(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
) -> Result<(tile::Drawing, tile::Plan), String> {
    let one_line = Sizes {
        wrap_row_captions: false,
        ..*sz
    };
    let first = if !sz.wrap_row_captions {
        plan_once(rs, paper, sz, ph)
    } else {
        match plan_once(rs, paper, sz, ph) {
            Err(e) => plan_once(rs, paper, &one_line, ph).map_err(|_| e),
            Ok(wrapped) => match plan_once(rs, paper, &one_line, ph) {
                Ok(flat) if flat.1.count() < wrapped.1.count() => Ok(flat),
                _ => Ok(wrapped),
            },
        }
    };
    let g = Geometry::new(rs, rs.layout.child_safe);
    let g = g.with_caption(one_line.board_caption, 1);
    let below = Sizes {
        captions_below: true,
        ..one_line
    };
    // Drawn and planned only when its size could save a sheet (under one-line headings, the
    // least they take).
    if let Ok((d, p)) = &first {
        let h = d.h - d.part.3 + g.with_captions_below().cut_size().1;
        let head = text::line_height_mm(sz.tile_head) + 2.0;
        if tile::fewest_tiles(d.w, h, paper, &below, head).is_none_or(|n| n >= p.count()) {
            return first;
        }
    }
    // The captions below from the first and to the last pit column, keeping the middle free
    // for a seam; then out to the stores' outer edges, keeping the pit columns free (large
    // type's captions over the first and last columns left no seam within a tile's width: a
    // 75 mm Oware in large print on Letter took 8 tiles, 4 of them only its top caption).
    let wide = Sizes {
        captions_board_wide: true,
        ..below
    };
    let mut kept = first;
    for way in [below, wide] {
        if !captions_fit_below(rs, ph, &way, &g) {
            continue;
        }
        match (kept, plan_once(rs, paper, &way, ph)) {
            (Ok(k), Ok(low)) if low.1.count() < k.1.count() => kept = Ok(low),
            (Err(_), Ok(low)) => kept = Ok(low),
            (k, _) => kept = k,
        }
    }
    kept
}

/// [`plan_sized`] with the row captions as `sz` has them.
fn plan_once(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
) -> Result<(tile::Drawing, tile::Plan), String> {
    let (_, g) = drawing_sized(rs, ph, sz, &[])?;
    let gaps = g.free_columns();
    let (open, _) = drawing_sized(rs, ph, sz, &gaps)?;
    let title = ph.fmt("tile.board", &[("name", &rs.name)]);
    let sample = ph.fmt(
        "tile.title",
        &[
            ("title", &title),
            ("n", "99"),
            ("total", "99"),
            ("where", "top middle"),
        ],
    );
    let short = paper.width.min(paper.height) - 2.0 * MARGIN;
    let lines = super::wrap(&sample, sz.tile_head, Weight::Bold, short)
        .len()
        .max(1);
    let head_h = |lines: usize| lines as f64 * text::line_height_mm(sz.tile_head) + 2.0;
    let plan = if sz.large {
        // Large print: room for the real headings of the plan, not for a sample, so a tile
        // keeps every millimetre the larger type leaves. Start from one line; plan again with
        // as many as the headings then need, until they fit.
        // When the room for more lines leaves no tiling, the plan keeps the lines it has and
        // the headings shorten the board's name to fit them ([`tile_title`]).
        let mut have = 1;
        let mut plan = tile::plan(&open, paper, sz, head_h(have))?;
        for _ in 0..4 {
            let need = tile::heading_lines(&plan, &title, sz.tile_head, ph);
            if need <= have {
                break;
            }
            match tile::plan(&open, paper, sz, head_h(need)) {
                Ok(p) => {
                    have = need;
                    plan = p;
                }
                Err(_) => break,
            }
        }
        plan
    } else {
        tile::plan(&open, paper, sz, head_h(lines))?
    };
    // Keep clear the gap each seam falls in.
    let keep: Vec<(f64, f64)> = plan
        .seams_x
        .iter()
        .filter_map(|s| gaps.iter().find(|(a, b)| a <= s && s <= b).copied())
        .collect();
    let (d, _) = drawing_sized(rs, ph, sz, &keep)?;
    let solid = tile::solid_boxes(&d.items);
    let xs: Vec<(f64, f64)> = solid.iter().map(|b| (b.0, b.2)).collect();
    let ys: Vec<(f64, f64)> = solid.iter().map(|b| (b.1, b.3)).collect();
    for (seams, blocked) in [(&plan.seams_x, &xs), (&plan.seams_y, &ys)] {
        for s in seams {
            if tile::clearance(*s, blocked) < tile::SEAM_CLEAR {
                return Err(format!(
                    "the board cannot be split over {} sheets with every seam {} mm clear of the pits, stores and labels: use a larger paper or --fit",
                    paper.name,
                    tile::SEAM_CLEAR
                ));
            }
        }
    }
    Ok((d, plan))
}

/// The title the tiles of `plan` carry in their headings: "{name} board", or, when the
/// headings would need more lines than the plan keeps for them (large print on a paper just
/// tall enough for the board under a one-line heading), the name cut short with "…" until
/// every heading fits those lines.
pub fn tile_title(rs: &Ruleset, ph: &Phrases, plan: &tile::Plan, sz: &Sizes) -> String {
    let lh = text::line_height_mm(sz.tile_head);
    let room = ((plan.area.1 - MARGIN - 2.0) / lh + 1e-6).floor().max(1.0) as usize;
    title_that_fits(rs, ph, "tile.board", |t| {
        tile::heading_lines(plan, t, sz.tile_head, ph) <= room
    })
}

/// The phrase `key` with the ruleset's name, the name cut as little as lets `fits` accept the
/// title: a closing bracketed aside dropped whole ("Kalah (seis casas, cuatro semillas)" →
/// "Kalah"); else cut after whole words, ending in "…" ("Siembra en seis…", not "Siembra en
/// seis c…"); else after any letter; a cut never inside brackets ("Kalah…", not "Kalah
/// (seis…"); the full title if nothing does.
fn title_that_fits(rs: &Ruleset, ph: &Phrases, key: &str, fits: impl Fn(&str) -> bool) -> String {
    let full = ph.fmt(key, &[("name", &rs.name)]);
    if fits(&full) {
        return full;
    }
    // A name ending in a bracketed aside ("Kalah (seis casas, cuatro semillas)") first loses
    // the aside whole (nested ones included), then is cut after a word, else after a letter,
    // never inside brackets: "Kalah (seis…" read as a bracket never closed.
    if let Some(at) = closing_aside(&rs.name) {
        let short = rs.name[..at].trim_end();
        if !short.is_empty() {
            let t = ph.fmt(key, &[("name", short)]);
            if fits(&t) {
                return t;
            }
        }
    }
    let words: Vec<&str> = rs.name.split_whitespace().collect();
    for k in (1..words.len()).rev() {
        let cut = words[..k].join(" ");
        let cut = outside_brackets(&cut);
        if cut.is_empty() {
            continue;
        }
        let t = ph.fmt(key, &[("name", &format!("{cut}…"))]);
        if fits(&t) {
            return t;
        }
    }
    let chars: Vec<char> = rs.name.chars().collect();
    for k in (1..chars.len()).rev() {
        let cut: String = chars[..k].iter().collect();
        let cut = outside_brackets(&cut);
        if cut.is_empty() {
            continue;
        }
        let t = ph.fmt(key, &[("name", &format!("{cut}…"))]);
        if fits(&t) {
            return t;
        }
    }
    full
}

/// Where the bracketed aside that ends `name` opens (its `(` or `[`, matched through any
/// brackets nested in it), when it ends with one and something comes before it.
fn closing_aside(name: &str) -> Option<usize> {
    let last = name.trim_end().chars().last()?;
    if last != ')' && last != ']' {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in name.char_indices().rev() {
        match c {
            ')' | ']' => depth += 1,
            '(' | '[' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (i > 0).then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `s` cut before its first bracket left open (`(` or `[`), without trailing spaces: a cut
/// name that leaves no bracket open.
fn outside_brackets(s: &str) -> &str {
    let mut open: Vec<usize> = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => open.push(i),
            ')' | ']' => {
                open.pop();
            }
            _ => {}
        }
    }
    match open.first() {
        Some(&i) => s[..i].trim_end(),
        None => s.trim_end(),
    }
}

/// The assembly page and the tile pages of a board too big for one sheet.
fn tiled(rs: &Ruleset, opts: &KitOptions, sz: &Sizes, ph: &Phrases) -> Result<Vec<Page>, String> {
    let paper = opts.paper;
    let (d, plan) = plan_sized(rs, paper, sz, ph)?;
    let g = Geometry::new(rs, rs.layout.child_safe);
    let title = tile_title(rs, ph, &plan, sz);
    let mut pg = Page::new("board-map", plan.page.0, plan.page.1);
    let (w, h) = (pg.width, pg.height);
    let content_w = w - 2.0 * MARGIN;
    let mut y = sheet_title(
        &mut pg,
        sz,
        &ph.fmt(
            "tile.map_title",
            &[("name", &rs.name), ("total", &plan.count().to_string())],
        ),
    );
    y += 2.0;
    y = para(
        &mut pg,
        MARGIN,
        y,
        sz.caption,
        Weight::Regular,
        content_w,
        &ph.fmt(
            "tile.map_steps",
            &[
                ("total", &plan.count().to_string()),
                ("paper", &ph.paper(&paper.name)),
                ("overlap", &ph.mm(tile::OVERLAP)),
            ],
        ),
    );
    y += 3.0;
    // The map takes the room the legend and the size note leave (measured first).
    let legend_pt = sz.note;
    let (strong_pt, _) = strong(sz, legend_pt);
    let lh = text::line_height_mm(strong_pt);
    let below: usize = legend_lines(rs, ph, opts.colour)
        .iter()
        .map(|l| super::wrap(l, legend_pt, Weight::Regular, content_w).len())
        .sum::<usize>()
        + 3;
    let room = page::content_bottom(w, h, sz) - y - 3.0 - below as f64 * lh - 2.0;
    let room = room.max(30.0);
    // Centred across the page when the height limits it.
    let k = (content_w / d.w).min(room / d.h).min(1.0);
    let mx = MARGIN + (content_w - d.w * k) / 2.0;
    // Many tiles in a row on a narrow page (large print's numbers): the numbers would run
    // into each other. Said as it is, not as texts to shorten.
    if !tile::map_numbers_apart(&d, &plan, sz, content_w, room) {
        return Err(format!(
            "on the board-map sheet the assembly map ({} mm wide) is too small for its {} tile numbers ({} pt) to stand apart: use larger paper or smaller pits",
            fmt_mm(d.w * k),
            plan.count(),
            sz.map_number.0,
        ));
    }
    let map_h = tile::draw_map(&mut pg, &d, &plan, sz, mx, y, content_w, room);
    y += map_h + 3.0;
    for l in legend_lines(rs, ph, opts.colour) {
        y = para(
            &mut pg,
            MARGIN,
            y,
            legend_pt,
            Weight::Regular,
            content_w,
            &l,
        );
    }
    // The board as the tiles draw it (large print's captions, or both below, change its
    // height).
    let (_, _, bw, bh) = d.part;
    para(
        &mut pg,
        MARGIN,
        y + 1.0,
        strong_pt,
        Weight::Bold,
        content_w,
        &ph.fmt(
            "tile.actual",
            &[
                ("d", &ph.mm(g.d)),
                ("w", &ph.mm(bw)),
                ("h", &ph.mm(bh)),
                ("total", &plan.count().to_string()),
            ],
        ),
    );
    let mut out = vec![pg];
    out.extend(tile::pages(&d, &plan, sz, "board", &title, ph));
    Ok(out)
}

/// `label` cut to `k` characters by dropping its widest characters first (of equal width, the
/// earlier first, so a pit's number at the end stays), the rest kept in order: the narrowest
/// `k`-character label made from it.
fn narrowest_chars(label: &str, k: usize) -> String {
    let chars: Vec<char> = label.chars().collect();
    let mut order: Vec<usize> = (0..chars.len()).collect();
    let w = |c: char| text::width_mm(&c.to_string(), 10.0, Weight::Bold);
    // Narrowest first; of equal width, the later one (a pit's number) first.
    order.sort_by(|&a, &b| w(chars[a]).total_cmp(&w(chars[b])).then(b.cmp(&a)));
    let mut keep: Vec<usize> = order.into_iter().take(k).collect();
    keep.sort_unstable();
    keep.into_iter().map(|i| chars[i]).collect()
}

/// How [`single`] may change a board to fit one sheet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Widen {
    /// True size, as the ruleset asks.
    No,
    /// True size, with stores at least as wide as their labels' words need
    /// ([`store_width_for_words`]), as `--fit` keeps them.
    Stores,
    /// Stores as [`Widen::Stores`], and the whole board scaled down to fit if need be; large
    /// print's row captions run across the board.
    Shrink,
}

/// The board on one page, landscape or portrait; `widen` says whether its stores are widened
/// for their words and whether it is scaled down to fit if need be (see [`Widen`]);
/// with `apart` the legend goes on a page of its own after the board (`board-legend`, same
/// orientation), leaving the board sheet to the board and its size note. Returns the room to
/// spare (mm, the smaller of across and down), the scale and the page(s), or `None` when the
/// board does not fit at true size and `widen` is not [`Widen::Shrink`]. Errors when even a much smaller board
/// does not fit; `shrunk_to` is then the pit diameter it would have needed (mm, 0 if none).
#[allow(clippy::too_many_arguments)]
fn single(
    rs: &Ruleset,
    opts: &KitOptions,
    sz: &Sizes,
    ph: &Phrases,
    landscape: bool,
    widen: Widen,
    apart: bool,
    one_line_title: bool,
    shrunk_to: &mut f64,
) -> Result<Option<(f64, f64, Vec<Page>)>, String> {
    let paper = opts.paper;
    let shrink = widen == Widen::Shrink;
    // One sheet has no tile seam: large print's row captions may run across the board, at
    // true size as when shrunk (kept over the store and first column, they took a line more
    // above and below and pushed large print's six-pit board off one landscape A4 sheet).
    let sz = &Sizes {
        captions_board_wide: true,
        ..*sz
    };
    // A shrunk board (or any with --fit) keeps its stores wide enough for their labels' words.
    let store_w = if widen != Widen::No {
        store_width_for_words(rs, ph, sz)
    } else {
        0.0
    };
    let geom = |s: f64| {
        let g = Geometry::scaled(rs, false, s).with_store_w_at_least(store_w);
        let g = g.with_caption(sz.board_caption, caption_lines(rs, ph, sz, &g));
        if sz.captions_below && !sz.wrap_row_captions {
            g.with_captions_below()
        } else {
            g
        }
    };
    if store_w >= MAX_PIT {
        // A store word wider than the widest store: refused naming the field and the word
        // (the board drawn at true size on a scratch page says which), not shrunk to nothing.
        let mut scratch = Page::new("board", 4000.0, 4000.0);
        draw_board(&mut scratch, rs, ph, sz, &geom(1.0), &circuit(rs), &[])?;
    }
    let mut pg = if landscape {
        page::landscape("board", paper)
    } else {
        page::portrait("board", paper)
    };
    let (w, h) = (pg.width, pg.height);
    let content_w = w - 2.0 * MARGIN;
    // Title: with `one_line_title`, the name cut (with "…") until the title takes one line.
    let title = if one_line_title {
        title_that_fits(rs, ph, "board.title", |t| {
            super::title_lines(t, sz.sheet_title, content_w).len() <= 1
        })
    } else {
        ph.fmt("board.title", &[("name", &rs.name)])
    };
    let mut y = sheet_title(&mut pg, sz, &title);
    // Room above the cut line for the scissors.
    y += 3.0;

    let circ = circuit(rs);

    // Legend lines, below the board; measured first so the board gets what is left.
    let legend = legend_lines(rs, ph, opts.colour);
    let legend_pt = sz.note;
    let (strong_pt, _) = strong(sz, legend_pt);
    let lh = text::line_height_mm(legend_pt);
    let legend_wrapped: Vec<Vec<String>> = legend
        .iter()
        .map(|l| super::wrap(l, legend_pt, Weight::Regular, content_w))
        .collect();
    let legend_lines_n: usize = if apart {
        0
    } else {
        legend_wrapped.iter().map(|v| v.len()).sum()
    };
    // The size note as long as it can get (three-digit sizes), wrapped as it will be.
    let note_sample = if shrink {
        ph.fmt(
            "board.shrunk",
            &[
                ("d", "99.9"),
                ("asked", &ph.mm(rs.layout.pit_diameter)),
                ("store", "999.9"),
                ("paper", &ph.paper(&paper.name)),
            ],
        )
    } else {
        ph.fmt("board.actual", &[("d", &ph.mm(rs.layout.pit_diameter))])
    };
    // Only the lines it takes: two kept for a one-line note pushed large print's six-pit
    // board (139 mm tall under a 154 mm band on landscape A4) onto two tiles and a map.
    let note_lines = super::wrap(&note_sample, strong_pt, Weight::Bold, content_w)
        .len()
        .max(1);
    let scale_note_h = text::line_height_mm(strong_pt) * note_lines as f64 + 1.0;
    let bottom = page::content_bottom(w, h, sz);
    let avail_h = bottom - y - legend_lines_n as f64 * lh - scale_note_h - 2.0;
    let slack = |s: f64| {
        let (cw, ch) = geom(s).cut_size();
        (content_w - 1.0 - cw).min(avail_h - ch)
    };
    let fits = |s: f64| slack(s) >= 0.0;
    let mut s = 1.0;
    if !fits(1.0) {
        if !shrink {
            return Ok(None);
        }
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // Round down to a tenth of a millimetre of pit diameter.
        let d = (rs.layout.pit_diameter * lo * 10.0).floor() / 10.0;
        s = d / rs.layout.pit_diameter;
        *shrunk_to = d;
        if d <= 0.0 {
            return Err(format!(
                "the board does not fit one {} page at any size (its arrows, row names and notes leave too little room): leave out --fit to print it in tiles at true size, or use a larger paper",
                paper.name
            ));
        }
        let (floor, c) = min_fit_pit(rs);
        if d < floor - 1e-9 || !fits(s) {
            let k = crate::geometry::flat_count(rs.board.seeds_per_pit);
            let needed = crate::geometry::pit_holding(c, k);
            // The floor is the pits asked for when they are smaller than what holds the
            // counters: --fit may not shrink them at all.
            let below = if floor < needed - 1e-9 {
                // With --child-safe the pits were grown for its counters, not set by the file.
                let asked = if rs.layout.child_safe {
                    "--child-safe grew them to hold its counters"
                } else {
                    "layout.pit_diameter"
                };
                format!(
                    "below the {} mm pits asked for ({asked}), which --fit may not shrink: a pit needs {} mm",
                    fmt_mm(floor),
                    fmt_mm(needed)
                )
            } else {
                format!("below the {} mm a pit needs", fmt_mm(floor))
            };
            return Err(format!(
                "to fit the {} page the pits would shrink to {} mm across, {below} to hold {} as counters of at least {} mm lying flat",
                paper.name,
                fmt_mm(d),
                match (k, rs.board.seeds_per_pit) {
                    (1, 1) => "its 1 starting seed (board.seeds_per_pit)".to_string(),
                    (k, n) if n == k => format!("its {k} starting seeds (board.seeds_per_pit)"),
                    // More seeds heap up: a pit is sized for the most that lie flat.
                    (k, n) => format!("{k} of its {n} starting seeds (board.seeds_per_pit = {n}; more heap up)"),
                },
                fmt_mm(c),
            ));
        }
    }
    let spare = slack(s);
    let mut g = geom(s);
    let (cw, _) = g.cut_size();
    g.place_cut_at((w - cw) / 2.0, y);

    draw_board(&mut pg, rs, ph, sz, &g, &circ, &[])?;

    // Legend, under the board or on its own page.
    let (_, cy0, _, chh) = g.cut_rect();
    let mut ly = cy0 + chh + 2.0;
    let mut legend_page = None;
    if apart {
        let mut lp = if landscape {
            page::landscape("board-legend", paper)
        } else {
            page::portrait("board-legend", paper)
        };
        let mut y = sheet_title(
            &mut lp,
            sz,
            &ph.fmt("board.legend_title", &[("name", &rs.name)]),
        );
        y += 3.0;
        for lines in &legend_wrapped {
            y = super::set_lines(&mut lp, MARGIN, y, lines, legend_pt, Weight::Regular);
        }
        if y > page::content_bottom(lp.width, lp.height, sz) {
            return Ok(None);
        }
        legend_page = Some(lp);
    } else {
        for lines in &legend_wrapped {
            ly = super::set_lines(&mut pg, MARGIN, ly, lines, legend_pt, Weight::Regular);
        }
    }
    let note = if s < 1.0 {
        ph.fmt(
            "board.shrunk",
            &[
                ("d", &ph.mm(g.d)),
                ("asked", &ph.mm(rs.layout.pit_diameter)),
                ("store", &ph.mm(g.store_h)),
                ("paper", &ph.paper(&paper.name)),
            ],
        )
    } else {
        ph.fmt("board.actual", &[("d", &ph.mm(g.d))])
    };
    para(
        &mut pg,
        MARGIN,
        ly + 1.0,
        strong_pt,
        Weight::Bold,
        content_w,
        &note,
    );
    // A shrunk board whose labels no longer fit (or a sheet that runs off its paper) is not
    // a layout: say why, and let the caller try another.
    if let Some(e) = super::fit::problem(&pg) {
        return if shrink { Err(e) } else { Ok(None) };
    }
    let mut out = vec![pg];
    out.extend(legend_page);
    Ok(Some((spare, s, out)))
}

/// The two row captions of the board ("North's row, N1 to N6 (single rings)"), as lines: one
/// line each in normal print; in large print wrapped to [`caption_span`], so a tile seam may
/// fall in any gap between pit columns but the first store's.
fn row_captions(rs: &Ruleset, ph: &Phrases, sz: &Sizes, g: &Geometry) -> [Vec<String>; 2] {
    [0, 1].map(|side| {
        let labels = &rs.board.pit_labels[side];
        let first = labels.first().cloned().unwrap_or_default();
        let last = labels.last().cloned().unwrap_or_default();
        // One pit a row: "S1", not "S1 to S1".
        let key = match (side == 0, labels.len() == 1) {
            (true, false) => "board.row_single",
            (false, false) => "board.row_double",
            (true, true) => "board.row_single_one",
            (false, true) => "board.row_double_one",
        };
        let s = ph.fmt(
            key,
            &[
                ("player", &rs.board.players[side]),
                ("first", &first),
                ("last", &last),
            ],
        );
        if sz.wrap_row_captions {
            let (x0, x1) = caption_span(sz, g);
            super::wrap(&s, sz.board_caption, Weight::Bold, x1 - x0)
        } else {
            vec![s]
        }
    })
}

/// Where the row captions start and, in large print, where they must end (x, mm): from the
/// first pit column's left edge (normal print, one line); in large print from the left
/// store's left edge to the first pit column's right edge, over the store, its gap and the
/// first column.
fn caption_span(sz: &Sizes, g: &Geometry) -> (f64, f64) {
    let pit_left = g.pit_centre(0).x - g.d / 2.0;
    if sz.wrap_row_captions && sz.captions_board_wide {
        let (x, _, w, _) = g.store_rect(0);
        (g.store_rect(1).0, x + w)
    } else if sz.wrap_row_captions {
        (g.store_rect(1).0, pit_left + g.d)
    } else {
        (pit_left, f64::INFINITY)
    }
}

/// Lines of the longer row caption of the board (see [`row_captions`]).
fn caption_lines(rs: &Ruleset, ph: &Phrases, sz: &Sizes, g: &Geometry) -> usize {
    row_captions(rs, ph, sz, g)
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(1)
}

/// The size and weight of a short emphasised note at body size `pt`: bold at `pt`, or in large
/// print bold at the label size (every bold text of a large-print kit is a label).
pub(crate) fn strong(sz: &Sizes, pt: f64) -> (f64, Weight) {
    if sz.large {
        (sz.head.max(pt), Weight::Bold)
    } else {
        (pt, Weight::Bold)
    }
}

/// A length in mm with at most one decimal, no trailing `.0`.
pub(crate) fn fmt_mm(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if (r - r.round()).abs() < 1e-9 {
        format!("{}", r.round() as i64)
    } else {
        format!("{r:.1}")
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_board(
    pg: &mut Page,
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    g: &Geometry,
    circ: &[u8],
    keep_clear: &[(f64, f64)],
) -> Result<(), String> {
    // The circuit numbers' discs at the size of the type (large print: larger).
    let g = &g.with_number_r(sz.number_r);
    let n = g.n;
    let r = g.d / 2.0;
    // Cut line and scissors.
    let (x0, y0, cw, ch) = g.cut_rect();
    pg.shape(
        rect(x0, y0, cw, ch),
        None,
        Some(Stroke::dashed(0.25, Color::BLACK, &[3.0, 2.0])),
    );
    // Scissors sitting on the top cut line, near its left end, small enough to stay in the
    // 3 mm left above the line.
    let sc = if sz.large { sz.body } else { 12.0 };
    pg.text(
        x0 + 8.0,
        y0 + text::ascent_mm(sc) * 0.4,
        sc,
        Weight::Regular,
        "✂",
    );

    // Opposite pairs: dotted lines across the row gap.
    for i in 0..n {
        let a = g.pit_centre(i);
        let b = g.pit_centre(2 * n - 1 - i);
        pg.shape(
            line(p(a.x, a.y - r - 0.8), p(b.x, b.y + r + 0.8)),
            None,
            Some(Stroke::dashed(0.3, Color::BLACK, &[0.5, 0.8])),
        );
    }

    // Pits. A long label gets smaller type so it stays inside the ring (the text's edge
    // farthest from the centre must fit the circle's chord there); all pit labels share the
    // size the longest one needs, so the rows look even.
    let label_pt = if g.d >= 24.0 {
        sz.pit_label
    } else {
        sz.pit_label_small
    };
    let min_pt = sz.pit_label_min;
    // Baseline of pit `h`'s label at `pt` moved `inward` mm from its place by the rim, and how
    // far the text's outer edge then is from the centre.
    let place = |h: usize, pt: f64, inward: f64| {
        let c = g.pit_centre(h);
        if h < n {
            let base = c.y + r - 1.6 - text::descent_mm(pt) - 1.0 - inward;
            (base, base + text::descent_mm(pt) - c.y)
        } else {
            let base = c.y - r + RING + 1.2 + text::ascent_mm(pt) + 1.0 + inward;
            (base, c.y - (base - text::ascent_mm(pt)))
        }
    };
    let fits = |h: usize, pt: f64, inward: f64| {
        let inner_r = if h >= n { r - RING - 0.4 } else { r - 0.6 };
        let (_, far) = place(h, pt, inward);
        let chord = 2.0 * (inner_r * inner_r - far * far).max(0.0).sqrt();
        text::width_mm(&hole_label(rs, h), pt, Weight::Bold) <= chord - 0.8
    };
    // Smaller type first, then closer to the centre (at most a third of the radius, so the
    // middle of the pit stays free for seeds).
    let mut choice = None;
    'size: for step in 0..=((label_pt - min_pt) * 2.0) as usize {
        let pt = label_pt - 0.5 * step as f64;
        for k in 0..=((r / 3.0) / 0.5) as usize {
            let inward = 0.5 * k as f64;
            if (0..2 * n).all(|h| fits(h, pt, inward)) {
                choice = Some((pt, inward));
                break 'size;
            }
        }
    }
    let (pt, inward) = choice.unwrap_or((min_pt, 0.0));
    if let Some(h) = (0..2 * n).find(|&h| !fits(h, pt, inward)) {
        let label = hole_label(rs, h);
        // What would work: the most characters of this label that fit at `min_pt`, and
        // whether any pit up to the loader's 80 mm limit would hold the whole label (the
        // widest text across a pit's label line is under its diameter).
        // The room is the narrower of the two rows' (the double-ringed row has less), as
        // every label of both rows must fit.
        let room = [0, n]
            .iter()
            .map(|&hh| {
                // As far in from the rim as labels may go (a third of the radius).
                let (_, far) = place(hh, min_pt, ((r / 3.0) / 0.5).floor() * 0.5);
                let inner_r = if hh >= n { r - RING - 0.4 } else { r - 0.6 };
                2.0 * (inner_r * inner_r - far * far).max(0.0).sqrt() - 0.8
            })
            .fold(f64::INFINITY, f64::min);
        // The most characters every label keeps and still fits: each shortened by dropping
        // its widest characters first (so "MMMM1" keeps "MMM1", not "MMMM"): that many build,
        // one more does not, however the characters are chosen.
        let labels: Vec<String> = (0..2 * n).map(|hh| hole_label(rs, hh)).collect();
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let fits_chars = (0..=longest)
            .rev()
            .find(|&k| {
                labels
                    .iter()
                    .all(|l| text::width_mm(&narrowest_chars(l, k), min_pt, Weight::Bold) <= room)
            })
            .unwrap_or(0);
        let example = narrowest_chars(&label, fits_chars);
        let example = if fits_chars > 0 && example != label {
            format!(" (such as {example:?})")
        } else {
            String::new()
        };
        let need = text::width_mm(&label, min_pt, Weight::Bold) + 0.8;
        let bigger = if need + 2.0 * (RING + 1.0) < MAX_PIT * 0.9 && g.d < MAX_PIT {
            format!(", or set layout.pit_diameter larger (at most {MAX_PIT} mm)")
        } else {
            String::new()
        };
        let normal = if sz.large {
            ", or print without large print (its labels are at least 18 pt)"
        } else {
            ""
        };
        let chars = if fits_chars == 1 {
            "character"
        } else {
            "characters"
        };
        return Err(format!(
            "{}: the pit label {label:?} ({} characters) does not fit inside a {:.1} mm pit even at {min_pt} pt: shorten the pit labels to at most {fits_chars} {chars}{example}{bigger}{normal}",
            field_place(rs, "pit_labels"),
            label.chars().count(),
            g.d
        ));
    }
    for h in 0..2 * n {
        let c = g.pit_centre(h);
        pg.shape(
            circle(c, r),
            Some(Color::WHITE),
            Some(Stroke::solid(OUTLINE, SIDE_INK[h / n])),
        );
        if h >= n {
            pg.shape(
                circle(c, r - RING),
                None,
                Some(Stroke::solid(0.3, SIDE_INK[1])),
            );
        }
        let (base, _) = place(h, pt, inward);
        centred(pg, c.x, base, pt, Weight::Bold, &hole_label(rs, h));
    }

    // Stores.
    for (side, ink) in SIDE_INK.into_iter().enumerate() {
        let (x, y, w, hh) = g.store_rect(side);
        let rad = (w / 2.0).min(8.0);
        pg.shape(
            rounded_rect(x, y, w, hh, rad),
            Some(Color::WHITE),
            Some(Stroke::solid(OUTLINE, ink)),
        );
        if side == 1 {
            pg.shape(
                rounded_rect(
                    x + RING,
                    y + RING,
                    w - 2.0 * RING,
                    hh - 2.0 * RING,
                    rad - RING,
                ),
                None,
                Some(Stroke::solid(0.3, SIDE_INK[1])),
            );
        }
        let inner = w - 4.0 - RING;
        // On a narrow store, shrink the type until every word fits rather than break words.
        let name = &rs.board.stores[side];
        let label_pt = super::size_for_words(name, sz.store_label, min_pt, Weight::Bold, inner);
        let notes = store_notes(rs, ph, side);
        let (note_max, note_min) = sz.store_note;
        let note_pt = notes
            .iter()
            .map(|n| super::size_for_words(n, note_max, note_min, Weight::Regular, inner))
            .fold(note_max, f64::min)
            .min(label_pt - 1.0)
            .max(note_min);
        // A word wider than the store at the smallest size would be broken inside it, or run
        // out of the store's outline: not a layout.
        let wide = |t: &str, pt: f64, wt: Weight| {
            t.split_whitespace()
                .map(|word| (word.to_string(), text::width_mm(word, pt, wt)))
                .find(|(_, ww)| *ww > inner)
        };
        if let Some((word, ww)) = wide(name, label_pt, Weight::Bold) {
            return Err(format!(
                "{}: the store label {name:?} would be broken inside the word {word:?}: at {label_pt} pt it is {} mm wide, but the {} mm store holds {} mm of text across; shorten the label",
                field_place(rs, "stores"),
                fmt_mm(ww),
                fmt_mm(w),
                fmt_mm(inner)
            ));
        }
        if let Some((note, (word, ww))) = notes
            .iter()
            .find_map(|n| wide(n, note_pt, Weight::Regular).map(|x| (n, x)))
        {
            return Err(format!(
                "{}: the store note {note:?} would be broken inside the word {word:?}: at {note_pt} pt it is {} mm wide, but the {} mm store holds {} mm of text across; shorten the player names",
                field_place(rs, "players"),
                fmt_mm(ww),
                fmt_mm(w),
                fmt_mm(inner)
            ));
        }
        let lines = super::wrap(name, label_pt, Weight::Bold, inner);
        let note_lines: Vec<String> = notes
            .iter()
            .flat_map(|s| super::wrap(s, note_pt, Weight::Regular, inner))
            .collect();
        let lh9 = text::line_height_mm(label_pt);
        let lh7 = text::line_height_mm(note_pt);
        let total = lines.len() as f64 * lh9 + note_lines.len() as f64 * lh7;
        // The text's height inside the outline (and the double ring), with 1 mm to spare at
        // each end.
        let room_h = hh - 2.0 * RING - 2.0;
        if total > room_h + 1e-9 {
            return Err(format!(
                "{}: the store label {name:?} and its notes take {} lines, {} mm, but the {} mm store holds {} mm of text: use a larger layout.store_length, or a shorter label",
                field_place(rs, "stores"),
                lines.len() + note_lines.len(),
                fmt_mm(total),
                fmt_mm(hh),
                fmt_mm(room_h)
            ));
        }
        let ty = y + hh / 2.0 - total / 2.0;
        let ty = super::set_lines_centred(pg, x + w / 2.0, ty, &lines, label_pt, Weight::Bold);
        super::set_lines_centred(pg, x + w / 2.0, ty, &note_lines, note_pt, Weight::Regular);
    }

    // Circuit arrows, numbered in sowing order.
    let either = rs.sowing.direction == Direction::Either;
    let cwise = rs.sowing.direction == Direction::Clockwise;
    let k = circ.len();
    for i in 0..k {
        let (a, b) = (circ[i] as usize, circ[(i + 1) % k] as usize);
        let ccw_from = if cwise { b } else { a };
        let hp = g.hop(a, b, ccw_from);
        draw_hop(pg, &hp, Stroke::solid(ARROW_W, Color::BLACK), either);
        // Clear of the pits, the stores and the seam bands; failing the bands, clear of the
        // pits and stores (the tiler then keeps its seam out of that band).
        let m = g
            .number_spot(&hp, keep_clear)
            .or_else(|| g.number_spot(&hp, &[]))
            .ok_or_else(|| {
                format!(
                    "the circuit arrow numbered {} has no room clear of the pits and stores (its number needs a {} mm disc): use a larger layout.pit_gap",
                    i + 1,
                    fmt_mm(2.0 * g.number_r)
                )
            })?;
        pg.shape(
            circle(m, sz.number_r),
            Some(Color::WHITE),
            Some(Stroke::solid(0.3, Color::BLACK)),
        );
        centred_mid(pg, m.x, m.y, sz.number, Weight::Bold, &(i + 1).to_string());
    }
    // Bypass arrows where one player passes a store by.
    for side in 0..2 {
        let by = store_sown_by(rs, side);
        if by[0] == by[1] {
            continue;
        }
        let s_hole = 2 * n + side;
        let Some(pos) = circ.iter().position(|&x| x as usize == s_hole) else {
            continue;
        };
        let before = circ[(pos + k - 1) % k] as usize;
        let after = circ[(pos + 1) % k] as usize;
        let ccw_from = if cwise { after } else { before };
        let hp = g.hop(before, after, ccw_from);
        draw_hop(
            pg,
            &hp,
            Stroke::dashed(0.35, Color::BLACK, &[1.2, 0.9]),
            either,
        );
    }

    // Row captions, outside the arrows.
    let cap_gap = ARC_SPACE + 1.0;
    let core_half = g.core_h() / 2.0;
    let cap_pt = g.caption_pt;
    let lh = text::line_height_mm(cap_pt);
    let captions = row_captions(rs, ph, sz, g);
    if g.captions_below {
        // One line under the board: side 0's caption at its left end, side 1's at its right
        // end (over the pit columns on tiles, so the middle stays free for a seam; out to
        // the stores on one sheet: [`below_caption_places`]).
        let base = g.cy + core_half + cap_gap + text::ascent_mm(cap_pt);
        let [(x0, _), (x1, _)] = below_caption_places(rs, ph, sz, g);
        let [a, b] = captions.map(|l| l.concat());
        pg.text(x0, base, cap_pt, Weight::Bold, &a);
        pg.text(x1, base, cap_pt, Weight::Bold, &b);
        return Ok(());
    }
    for (side, lines) in captions.iter().enumerate() {
        // The line nearest the row first: side 0's lines run down from below its arrows, side
        // 1's run up from above them.
        let k = lines.len();
        for (j, l) in lines.iter().enumerate() {
            let base = if side == 0 {
                g.cy + core_half + cap_gap + text::ascent_mm(cap_pt) + j as f64 * lh
            } else {
                g.cy - core_half - cap_gap - text::descent_mm(cap_pt) - (k - 1 - j) as f64 * lh
            };
            // Left-aligned over the first pit column (not centred), so the middle of the board
            // stays free for a tile seam.
            let x = caption_span(sz, g).0;
            pg.text(x, base, cap_pt, Weight::Bold, l);
        }
    }
    Ok(())
}

/// Where the two row captions go on one line below the board ([`Geometry::captions_below`]):
/// each one's (start, end) x, mm. Side 0's starts at the first pit column's left edge, side
/// 1's ends at the last column's right edge (normal print's one-line captions); on one sheet
/// ([`Sizes::captions_board_wide`]: no seam to keep clear) at the stores' outer edges.
fn below_caption_places(rs: &Ruleset, ph: &Phrases, sz: &Sizes, g: &Geometry) -> [(f64, f64); 2] {
    let [a, b] = row_captions(rs, ph, sz, g).map(|l| l.concat());
    let pt = g.caption_pt;
    let (left, right) = if sz.captions_board_wide {
        let (x, _, w, _) = g.store_rect(0);
        (g.store_rect(1).0, x + w)
    } else {
        (
            g.pit_centre(0).x - g.d / 2.0,
            g.pit_centre(g.n - 1).x + g.d / 2.0,
        )
    };
    let wb = text::width_mm(&b, pt, Weight::Bold);
    [
        (left, left + text::width_mm(&a, pt, Weight::Bold)),
        (right - wb, right),
    ]
}

/// Whether both row captions of `rs` fit on one line below the board (see
/// [`below_caption_places`]): three ems of the captions' size apart at least. Normal print's
/// one-line captions only.
fn captions_fit_below(rs: &Ruleset, ph: &Phrases, sz: &Sizes, g: &Geometry) -> bool {
    if sz.wrap_row_captions {
        return false;
    }
    let [(_, a_end), (b_start, _)] = below_caption_places(rs, ph, sz, g);
    b_start - a_end >= 3.0 * g.caption_pt * 25.4 / 72.0
}

/// The notes printed in store `side` under its label: that no one sows it, or which player
/// skips it.
fn store_notes(rs: &Ruleset, ph: &Phrases, side: usize) -> Vec<String> {
    let by = store_sown_by(rs, side);
    if !by[0] && !by[1] {
        // Without captures either, a store takes seeds only at the end (the sweep).
        return vec![ph.get(if rs.no_seed_reaches_a_store() {
            "board.end_store"
        } else {
            "board.capture_store"
        })];
    }
    (0..2)
        .filter(|&pl| !by[pl])
        .map(|pl| ph.fmt("board.skip_mark", &[("player", &rs.board.players[pl])]))
        .collect()
}

/// The narrowest store (mm along the rows) whose label and notes keep every word whole at the
/// smallest sizes of `sz` (the label at [`Sizes::pit_label_min`], the notes at the smaller
/// [`Sizes::store_note`]), as [`draw_board`] sets them; at most [`MAX_PIT`], the widest
/// store a ruleset can ask for (a word wider than that is refused by [`draw_board`], naming
/// the field, as it is without `--fit`).
fn store_width_for_words(rs: &Ruleset, ph: &Phrases, sz: &Sizes) -> f64 {
    let widest = |t: &str, pt: f64, wt: Weight| {
        t.split_whitespace()
            .map(|w| text::width_mm(w, pt, wt))
            .fold(0.0, f64::max)
    };
    ((0..2)
        .map(|side| {
            let label = widest(&rs.board.stores[side], sz.pit_label_min, Weight::Bold);
            let notes = store_notes(rs, ph, side)
                .iter()
                .map(|n| widest(n, sz.store_note.1, Weight::Regular))
                .fold(0.0, f64::max);
            label.max(notes)
        })
        .fold(0.0, f64::max)
        + 4.0
        + RING
        + 0.01)
        .min(MAX_PIT)
}

/// Largest pit diameter a ruleset may ask for (`layout.pit_diameter`), mm.
const MAX_PIT: f64 = 80.0;

/// `path:line: field` of the board word `key` (`stores`, `players`, `pit_labels`) that the
/// kit of `rs` prints (a ruleset as [`Ruleset::in_lang`] gives it): in a kit in another
/// language than the ruleset's own, the `[text.<lang>]` table's key when it sets it
/// (`text.es.stores`), else `[board]`'s (`board.stores`, where pit labels not translated come
/// from). The line is left out when the file cannot be read again or the key is not in it
/// (a store label that defaults to the player names).
pub(crate) fn field_place(rs: &Ruleset, key: &str) -> String {
    // The file as loaded (a bundled ruleset's own text), else as it is now on disk (the
    // layout advice lays out edited copies of it).
    let src = crate::advice::source_of(rs).or_else(|| std::fs::read_to_string(&rs.path).ok());
    // The line of `key = …` in table `table`, if any.
    let line_in = |table: &str| {
        let src = src.as_deref()?;
        let mut current = String::new();
        src.lines().enumerate().find_map(|(i, l)| {
            let t = l.trim();
            if let Some(h) = t.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
                current = h.trim().to_string();
                return None;
            }
            (current == table && t.starts_with(key) && t[key.len()..].trim_start().starts_with('='))
                .then_some(i + 1)
        })
    };
    let text_table = format!("text.{}", rs.lang);
    let (table, line) = match line_in(&text_table) {
        Some(n) => (text_table, Some(n)),
        None => ("board".to_string(), line_in("board")),
    };
    match line {
        Some(n) => format!("{}:{n}: {table}.{key}", rs.path),
        None => format!("{}: {table}.{key}", rs.path),
    }
}

/// The legend under the board: direction, bypasses, opposite pairs, sides, with `colour` the
/// side colours by name, capture chains; one string a line, capitalised.
pub fn legend_lines(rs: &Ruleset, ph: &Phrases, colour: bool) -> Vec<String> {
    let n = rs.board.pits_per_side;
    let mut out = Vec::new();
    // Where no one sows into a store (Oware), the arrows reach pits only, and the sentence says so.
    let stores_sown = (0..2).any(|s| store_sown_by(rs, s).iter().any(|b| *b));
    let dir = match (rs.sowing.direction, stores_sown) {
        (Direction::Counterclockwise, true) => ph.get("board.legend.ccw"),
        (Direction::Counterclockwise, false) => ph.get("board.legend.ccw_pits"),
        (Direction::Clockwise, true) => ph.get("board.legend.cw"),
        (Direction::Clockwise, false) => ph.get("board.legend.cw_pits"),
        (Direction::Either, _) => ph.get("board.legend.either"),
    };
    out.push(dir);
    for side in 0..2 {
        let by = store_sown_by(rs, side);
        let store = &rs.board.stores[side];
        if !by[0] && !by[1] {
            continue;
        }
        for (pl, sows) in by.iter().enumerate() {
            if !sows {
                out.push(ph.fmt(
                    "board.legend.skip",
                    &[("player", &rs.board.players[pl]), ("store", store)],
                ));
            }
        }
    }
    if !stores_sown {
        out.push(ph.fmt(
            if rs.no_seed_reaches_a_store() {
                "board.legend.stores_apart_end"
            } else {
                "board.legend.stores_apart"
            },
            &[("a", &rs.board.stores[0]), ("b", &rs.board.stores[1])],
        ));
    }
    let pairs: Vec<String> = (0..n)
        .map(|i| format!("{} ↔ {}", hole_label(rs, i), hole_label(rs, 2 * n - 1 - i)))
        .collect();
    out.push(ph.fmt("board.legend.opposite", &[("pairs", &join_and(ph, &pairs))]));
    out.push(ph.fmt(
        "board.legend.sides",
        &[
            ("a", &rs.board.players[0]),
            ("b", &rs.board.players[1]),
            ("sb", &rs.board.stores[1]),
        ],
    ));
    if colour {
        // With side colours the key names them (never the only cue: the outlines above).
        out.push(ph.fmt(
            "board.legend.colours",
            &[
                ("a", &rs.board.players[0]),
                ("b", &rs.board.players[1]),
                ("sa", &rs.board.stores[0]),
                ("sb", &rs.board.stores[1]),
            ],
        ));
    }
    if rs.capture.kind != CaptureKind::None {
        // The chain runs along the row the capture is made in (`capture.side`), as the engine
        // steps along the last pit's row.
        let side = match rs.capture.side {
            crate::ruleset::RowSide::Own => "own",
            crate::ruleset::RowSide::Opponent => "opponent",
        };
        match rs.capture.chain {
            Chain::Backward => out.push(ph.fmt("board.legend.chain_backward", &[("side", side)])),
            // Relay sowing that turns back: the chain runs the way the last handful went.
            Chain::FollowingEmpty => out.push(ph.fmt(
                if rs.sowing.relay == crate::ruleset::Relay::Reverse {
                    "board.legend.chain_following_last_handful"
                } else {
                    "board.legend.chain_following"
                },
                &[("side", side)],
            )),
            Chain::None => {}
        }
    }
    out.push(ph.get("board.legend.cut"));
    out.into_iter().map(|s| capitalise(&s)).collect()
}

/// `s` with its first letter in upper case (a sentence may start with a store label).
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name cut to fit a heading never leaves a bracket open: its closing aside goes whole
    /// ("Tablero de Kalah (seis…: pieza 1 de 4" was a new user's Spanish tile heading), and
    /// a name without one is cut after a word. Widths here are counted in characters.
    #[test]
    fn a_name_cut_to_fit_leaves_no_bracket_open() {
        let ph = Phrases::load("es").unwrap();
        let mut rs = crate::ruleset::load_str(
            "kalah-6x4.toml",
            include_str!("../../rulesets/kalah-6x4.toml"),
        )
        .expect("bundled ruleset");
        // (name, most characters, heading): the aside dropped whole; a cut after a word; an
        // aside in the middle, never cut inside; a helper's names (an aside inside the aside,
        // square brackets, no spaces at all).
        for (name, most, want) in [
            (
                "Kalah (seis casas, cuatro semillas)",
                100,
                "Tablero de Kalah (seis casas, cuatro semillas)",
            ),
            (
                "Kalah (seis casas, cuatro semillas)",
                40,
                "Tablero de Kalah",
            ),
            ("Siembra en seis casas", 30, "Tablero de Siembra en seis…"),
            (
                "Kalah (seis casas) rápido",
                33,
                "Tablero de Kalah (seis casas)…",
            ),
            ("Kalah (seis casas) rápido", 29, "Tablero de Kalah…"),
            (
                "Juego largo (dos (muy) pequeñas)",
                30,
                "Tablero de Juego largo",
            ),
            ("Juego largo [dos casas]", 30, "Tablero de Juego largo"),
            (
                "Kalahconnombrelargo(seis-casas)",
                36,
                "Tablero de Kalahconnombrelargo",
            ),
            (
                "Kalahconnombrelargo(seis-casas-y-mas)x",
                36,
                "Tablero de Kalahconnombrelargo…",
            ),
            (
                "Kalahconnombrelargo(seis-casas-y-mas)x",
                25,
                "Tablero de Kalahconnombr…",
            ),
        ] {
            rs.name = name.into();
            let fits = |t: &str| t.chars().count() <= most;
            assert_eq!(
                title_that_fits(&rs, &ph, "tile.board", fits),
                want,
                "{name}, {most}"
            );
        }
    }
}
