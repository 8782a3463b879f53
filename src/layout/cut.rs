//! Cutting: the cut lines of a set of pieces and the crop marks at their corners.
//!
//! Pieces are rectangles (mm) that touch and share their cut lines, so every edge is drawn once
//! (research print-and-play §5.3: never a box around each part). A cut line runs only along
//! pieces: it stops where the pieces stop, never out into the margin and never round an empty
//! cell. Where a cut line ends at the outside of the pieces, a crop mark carries it on outward:
//! a short line [`MARK_GAP`] mm clear of the piece, [`MARK_LEN`] mm long, so the cut can be
//! lined up with a ruler after the line itself has been cut away. Crop marks stand only outside
//! the block of pieces (its bounding box, edges included): a mark inside it, in the empty slot
//! beside a short last row or in the gap between two blocks, would outline a cell that is not
//! there; nor does
//! a mark stand where its own cut line carries on further along (the line itself guides the
//! ruler).
use super::page::CUT_W;
use crate::doc::{line, pt as p, Color, Page, Stroke};

/// Gap between the end of a cut line and its crop mark, mm.
pub const MARK_GAP: f64 = 1.0;
/// Length of a crop mark, mm.
pub const MARK_LEN: f64 = 4.0;
/// Room to keep free round a block of pieces for the crop marks, mm.
pub const MARK_ROOM: f64 = MARK_GAP + MARK_LEN;

/// A piece to cut out: (x, y, width, height), mm, top-left origin.
pub type Piece = (f64, f64, f64, f64);

/// Same coordinate, to a micrometre.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// Maximal segments along one family of lines: for each edge (position, from, to), merged with
/// the touching or overlapping edges at the same position. Sorted by position, then start.
fn merge(mut edges: Vec<(f64, f64, f64)>) -> Vec<(f64, f64, f64)> {
    edges.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    });
    let mut out: Vec<(f64, f64, f64)> = Vec::new();
    for (c, a, b) in edges {
        match out.last_mut() {
            Some(last) if same(last.0, c) && a <= last.2 + 1e-6 => last.2 = last.2.max(b),
            _ => out.push((c, a, b)),
        }
    }
    out
}

/// Whether the open interval (`a`, `b`) along the line at `c` enters a piece's inside; for
/// horizontal lines (`horizontal`) `c` is a y and the interval runs in x, else the reverse.
fn enters(pieces: &[Piece], horizontal: bool, c: f64, a: f64, b: f64) -> bool {
    pieces.iter().any(|&(x, y, w, h)| {
        let (c0, c1, s0, s1) = if horizontal {
            (y, y + h, x, x + w)
        } else {
            (x, x + w, y, y + h)
        };
        c > c0 + 1e-6 && c < c1 - 1e-6 && a < s1 - 1e-6 && b > s0 + 1e-6
    })
}

/// The cut lines of `pieces` as segments ((x0, y0), (x1, y1)), and the crop marks, mm.
#[allow(clippy::type_complexity)]
pub fn lines(pieces: &[Piece]) -> (Vec<[(f64, f64); 2]>, Vec<[(f64, f64); 2]>) {
    let mut hs = Vec::new();
    let mut vs = Vec::new();
    for &(x, y, w, h) in pieces {
        hs.push((y, x, x + w));
        hs.push((y + h, x, x + w));
        vs.push((x, y, y + h));
        vs.push((x + w, y, y + h));
    }
    let (hs, vs) = (merge(hs), merge(vs));
    // The block's bounding box: no crop mark inside it.
    let bx = pieces.iter().fold(
        (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ),
        |(x0, y0, x1, y1), &(x, y, w, h)| (x0.min(x), y0.min(y), x1.max(x + w), y1.max(y + h)),
    );
    // Closed: a mark along the box's own edge (over an empty slot) is inside too; a real
    // crop mark stands at least MARK_GAP outside it.
    let inside_box = |(x, y): (f64, f64)| {
        x > bx.0 - 1e-6 && x < bx.2 + 1e-6 && y > bx.1 - 1e-6 && y < bx.3 + 1e-6
    };
    let mut cuts = Vec::new();
    let mut marks = Vec::new();
    for (horizontal, family, others) in [(true, &hs, &vs), (false, &vs, &hs)] {
        for &(c, a, b) in family {
            let at = |s: f64, c: f64| if horizontal { (s, c) } else { (c, s) };
            cuts.push([at(a, c), at(b, c)]);
            // Each end: a crop mark beyond it unless a piece or another cut line is there.
            for (end, dir) in [(a, -1.0), (b, 1.0)] {
                let (m0, m1) = (end + dir * MARK_GAP, end + dir * MARK_ROOM);
                let (lo, hi) = (m0.min(m1), m0.max(m1));
                let (lo_all, hi_all) = (end.min(m1), end.max(m1));
                let blocked = enters(pieces, horizontal, c, lo_all, hi_all)
                    || family
                        .iter()
                        .any(|&(c2, a2, b2)| same(c2, c) && a2 < hi + 1e-6 && b2 > lo - 1e-6)
                    || others.iter().any(|&(c2, a2, b2)| {
                        // A crossing line inside the mark's run (not the one it ends on).
                        c2 > lo_all + 1e-6 && c2 < hi_all - 1e-6 && a2 <= c + 1e-6 && b2 >= c - 1e-6
                    })
                    // The same cut line carries on beyond the mark (a gap between blocks).
                    || family.iter().any(|&(c2, a2, b2)| {
                        same(c2, c) && if dir > 0.0 { a2 > end + 1e-6 } else { b2 < end - 1e-6 }
                    })
                    || inside_box(at((m0 + m1) / 2.0, c));
                if !blocked {
                    marks.push([at(m0, c), at(m1, c)]);
                }
            }
        }
    }
    (cuts, marks)
}

/// Draws the cut lines and crop marks of `pieces` (see [`lines`]) as thin solid black lines.
pub fn draw(page: &mut Page, pieces: &[Piece]) {
    let stroke = Stroke::solid(CUT_W, Color::BLACK);
    let (cuts, marks) = lines(pieces);
    for [(x0, y0), (x1, y1)] in cuts.into_iter().chain(marks) {
        page.shape(line(p(x0, y0), p(x1, y1)), None, Some(stroke.clone()));
    }
}

/// Pieces of a grid of `count` cells of `cw` × `ch` mm filled row by row, `cols` to a row,
/// from the top-left (`x0`, `y0`): a short last row has only its cells.
pub fn grid(x0: f64, y0: f64, cw: f64, ch: f64, cols: usize, count: usize) -> Vec<Piece> {
    (0..count)
        .map(|k| {
            let (row, col) = (k / cols.max(1), k % cols.max(1));
            (x0 + col as f64 * cw, y0 + row as f64 * ch, cw, ch)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_grid_has_one_line_per_grid_line_and_marks_only_outside() {
        // 3 × 2 cells of 10 mm at (20, 20): 3 horizontal lines, 4 vertical, each 2 marks.
        let (cuts, marks) = lines(&grid(20.0, 20.0, 10.0, 10.0, 3, 6));
        assert_eq!(cuts.len(), 7);
        assert_eq!(marks.len(), 14);
        for [(x0, y0), (x1, y1)] in &marks {
            let inside = |x: f64, y: f64| x > 20.0 && x < 50.0 && y > 20.0 && y < 40.0;
            assert!(!inside(*x0, *y0) && !inside(*x1, *y1));
            let len = (x1 - x0).hypot(y1 - y0);
            assert!((len - MARK_LEN).abs() < 1e-9);
        }
        // Outer lines run exactly along the grid, not past it.
        assert!(cuts.contains(&[(20.0, 20.0), (50.0, 20.0)]));
        assert!(cuts.contains(&[(20.0, 20.0), (20.0, 40.0)]));
    }

    #[test]
    fn a_short_last_row_outlines_only_its_cells() {
        // 3 columns, 4 cells: the second row has one cell at (20..30, 30..40).
        let (cuts, marks) = lines(&grid(20.0, 20.0, 10.0, 10.0, 3, 4));
        // Bottom line of the short row stops at x = 30; the line under the full row is whole.
        assert!(cuts.contains(&[(20.0, 40.0), (30.0, 40.0)]));
        assert!(cuts.contains(&[(20.0, 30.0), (50.0, 30.0)]));
        // Verticals at x = 40 and 50 stop at y = 30 (no empty cell below them).
        assert!(cuts.contains(&[(40.0, 20.0), (40.0, 30.0)]));
        assert!(cuts.contains(&[(50.0, 20.0), (50.0, 30.0)]));
        assert!(cuts.contains(&[(30.0, 20.0), (30.0, 40.0)]));
        // No mark stands in the empty slot beside the short row (inside the block's box,
        // 20..50 × 20..40): not under x = 40 or 50, not right of the short row's foot.
        let in_box = |x: f64, y: f64| x > 20.0 && x < 50.0 && y > 20.0 && y < 40.0;
        for [(x0, y0), (x1, y1)] in &marks {
            assert!(
                !in_box((x0 + x1) / 2.0, (y0 + y1) / 2.0),
                "a mark in the empty slot: {:?}",
                ((x0, y0), (x1, y1))
            );
        }
        assert!(!marks.contains(&[(40.0, 31.0), (40.0, 35.0)]));
        assert!(!marks.contains(&[(31.0, 40.0), (35.0, 40.0)]));
        // The marks outside the box stay: left of the short row's foot, below x = 20 and 30,
        // and right of the full row's foot at y = 30.
        assert!(marks.contains(&[(19.0, 40.0), (15.0, 40.0)]));
        assert!(marks.contains(&[(20.0, 41.0), (20.0, 45.0)]));
        assert!(marks.contains(&[(30.0, 41.0), (30.0, 45.0)]));
        assert!(marks.contains(&[(51.0, 30.0), (55.0, 30.0)]));
        // No mark ends inside a piece.
        for [(x0, y0), (x1, y1)] in &marks {
            for &(x, y, w, h) in &grid(20.0, 20.0, 10.0, 10.0, 3, 4) {
                for (mx, my) in [(*x0, *y0), (*x1, *y1)] {
                    assert!(!(mx > x && mx < x + w && my > y && my < y + h));
                }
            }
        }
    }

    #[test]
    fn no_mark_between_two_blocks_or_where_a_line_carries_on() {
        // A short row of 2 cells (0..20 × 0..10, of 3 columns: 0..30) and, 10 mm below, one
        // piece the width of 3 cells (0..30 × 20..35), as the labels sheet sets its circuit
        // label under a short row.
        let mut pieces = grid(0.0, 0.0, 10.0, 10.0, 3, 2);
        pieces.push((0.0, 20.0, 30.0, 15.0));
        let (_, marks) = lines(&pieces);
        let mid = |m: &[(f64, f64); 2]| ((m[0].0 + m[1].0) / 2.0, (m[0].1 + m[1].1) / 2.0);
        // Nothing in the gap 10..20 (the verticals at 0 carry on below; at 10, 20 and 30
        // the marks would stand inside the box 0..30 × 0..35).
        for m in &marks {
            let (_, y) = mid(m);
            assert!(
                !(y > 10.0 + 1e-9 && y < 20.0 - 1e-9),
                "a mark in the gap: {m:?}"
            );
        }
        // The outside marks stay: above the row's three verticals, left of the row's two
        // horizontals and both ends of the wide piece's, below its two verticals.
        assert!(marks.contains(&[(0.0, -1.0), (0.0, -5.0)]));
        assert!(marks.contains(&[(20.0, -1.0), (20.0, -5.0)]));
        assert!(marks.contains(&[(-1.0, 10.0), (-5.0, 10.0)]));
        assert!(marks.contains(&[(31.0, 20.0), (35.0, 20.0)]));
        assert!(marks.contains(&[(30.0, 36.0), (30.0, 40.0)]));
        // And nothing else, worked by hand: the box is 0..30 × 0..35. Horizontals: y = 0 and
        // y = 10 keep their left marks only (the right ones stand on the box's top edge over
        // the empty slot, or inside it); y = 20 and y = 35 keep both. Verticals: the tops of
        // x = 0, 10, 20 and the bottoms of the lines at x = 0 (20..35) and x = 30; not the
        // bottoms of x = 10 and 20 (inside), x = 0 (0..10) and the top of x = 0 (20..35) (the
        // line carries on), or the top of x = 30 (on the box's edge, above the empty slot).
        let want = (1 + 1 + 2 + 2) + (3 + 2);
        assert_eq!(marks.len(), want, "{marks:?}");
    }

    #[test]
    fn a_line_ending_against_a_piece_gets_no_mark() {
        // A 2-cell row on top of one wide piece: the middle vertical ends on the wide piece.
        let mut pieces = grid(0.0, 0.0, 10.0, 10.0, 2, 2);
        pieces.push((0.0, 10.0, 20.0, 15.0));
        let (_, marks) = lines(&pieces);
        assert!(!marks.iter().any(|m| same(m[0].0, 10.0) && m[0].1 > 5.0));
        // Both ends of the three horizontal lines (6), both ends of the two outer verticals
        // (4), the top of the middle vertical (1).
        assert_eq!(marks.len(), 11, "{marks:?}");
    }
}
