//! Cutting: the cut lines of a set of pieces and the crop marks at their corners.
//!
//! Pieces are rectangles (mm) that touch and share their cut lines, so every edge is drawn once
//! (research print-and-play §5.3: never a box around each part). A cut line runs only along
//! pieces: it stops where the pieces stop, never out into the margin and never round an empty
//! cell. Where a cut line ends at the outside of the pieces, a crop mark carries it on outward:
//! a short line [`MARK_GAP`] mm clear of the piece, [`MARK_LEN`] mm long, so the cut can be
//! lined up with a ruler after the line itself has been cut away.
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
                    });
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
        // The mark under x = 40 starts 1 mm below the row it ends at.
        assert!(marks.contains(&[(40.0, 31.0), (40.0, 35.0)]));
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
