//! A solid between two height fields over a rectangular grid: the board parts and joiners.
//!
//! The solid is every point `(x, y, z)` with `(x, y)` in a present grid cell and
//! `bottom(x, y) ≤ z ≤ top(x, y)`, both surfaces interpolated linearly on the same triangles.
//! Its boundary is closed and manifold by construction: each present cell gives a top and a
//! bottom face; each cell edge between a present cell and an absent cell (or the outside)
//! gives a vertical wall whose corners are the same top and bottom vertices, so every edge is
//! shared by exactly two triangles wound the same way.
//!
//! Flat, level cells (all four corners at one height) of each surface are merged greedily into
//! rectangles of one height, each one face. A rectangle's border keeps, besides its corners,
//! every grid vertex where something else meets its edge: a cell not in a rectangle, a wall
//! (an absent cell or the outside beyond), or where the rectangle beyond changes; a vertex
//! inside an edge that two rectangles share along it is dropped by both, so neighbours always
//! meet edge to edge (no T-junctions). A rectangle with two neighbouring edges that keep no
//! inner vertex is a fan from the corner between them (`n − 2` triangles for `n` border
//! vertices, none flat); any other a fan from its centre. The surfaces cannot cross (no self-intersection)
//! because [`solid`] demands `top > bottom` by a margin at every cell's corners, and both are
//! linear on the same triangle (or the top is flat over the cell); the walls are vertical
//! and lie on distinct cell edges. A digital disk of absent cells has no two cells meeting
//! only at a corner, so no vertex is pinched.

use super::Mesh;

/// A regular grid of `nx × ny` cells of `sx × sy` mm whose corner `(0, 0)` is at `(x0, y0)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// x of the first grid line, mm.
    pub x0: f64,
    /// y of the first grid line, mm.
    pub y0: f64,
    /// Cell width, mm.
    pub sx: f64,
    /// Cell depth, mm.
    pub sy: f64,
    /// Cells along x.
    pub nx: usize,
    /// Cells along y.
    pub ny: usize,
}

impl Grid {
    /// Position of grid vertex `(i, j)`, mm.
    pub fn xy(&self, i: usize, j: usize) -> (f64, f64) {
        (self.x0 + i as f64 * self.sx, self.y0 + j as f64 * self.sy)
    }

    /// Index of vertex `(i, j)` in a vertex array.
    pub fn v(&self, i: usize, j: usize) -> usize {
        j * (self.nx + 1) + i
    }
}

/// Heights at every grid vertex and which cells are present.
#[derive(Clone, Debug)]
pub struct Field {
    /// The grid.
    pub grid: Grid,
    /// Top surface height at each vertex (index [`Grid::v`]), mm.
    pub top: Vec<f64>,
    /// Bottom surface height at each vertex, mm.
    pub bottom: Vec<f64>,
    /// Whether cell `(i, j)` (index `j * nx + i`) is part of the solid.
    pub present: Vec<bool>,
}

impl Field {
    /// Samples `top` and `bottom` (functions of x, y in mm) at every vertex; every cell present.
    pub fn sample(
        grid: Grid,
        top: impl Fn(f64, f64) -> f64,
        bottom: impl Fn(f64, f64) -> f64,
    ) -> Field {
        let mut t = Vec::with_capacity((grid.nx + 1) * (grid.ny + 1));
        let mut b = Vec::with_capacity(t.capacity());
        for j in 0..=grid.ny {
            for i in 0..=grid.nx {
                let (x, y) = grid.xy(i, j);
                t.push(top(x, y));
                b.push(bottom(x, y));
            }
        }
        Field {
            grid,
            top: t,
            bottom: b,
            present: vec![true; grid.nx * grid.ny],
        }
    }

    fn is_present(&self, i: isize, j: isize) -> bool {
        i >= 0
            && j >= 0
            && (i as usize) < self.grid.nx
            && (j as usize) < self.grid.ny
            && self.present[j as usize * self.grid.nx + i as usize]
    }
}

/// Side of the largest square of cells one face may cover (a power of two).
pub const MAX_LEAF: usize = 64;
/// Most a square's face may stand off the sampled height at any grid vertex it covers, mm,
/// before the vertices its neighbours add to its border; with them, at most twice this.
/// (0.05 mm: a quarter of a 0.2 mm print layer, an eighth of a 0.4 mm nozzle.)
pub const TOLERANCE: f64 = 0.025;

/// One face of a surface: the square of `s × s` cells from cell `(i0, j0)`; `flat` when every
/// vertex it covers has one height.
#[derive(Clone, Copy, Debug)]
struct Leaf {
    i0: usize,
    j0: usize,
    s: usize,
    flat: bool,
}

/// Counts of absent cells in every rectangle from cell (0, 0), for a constant-time "is this
/// square all present".
struct Absent {
    nx: usize,
    sum: Vec<u32>,
}

impl Absent {
    fn new(f: &Field) -> Absent {
        let (nx, ny) = (f.grid.nx, f.grid.ny);
        let mut sum = vec![0u32; (nx + 1) * (ny + 1)];
        for j in 0..ny {
            for i in 0..nx {
                let a = u32::from(!f.present[j * nx + i]);
                sum[(j + 1) * (nx + 1) + i + 1] =
                    a + sum[j * (nx + 1) + i + 1] + sum[(j + 1) * (nx + 1) + i]
                        - sum[j * (nx + 1) + i];
            }
        }
        Absent { nx, sum }
    }

    /// Whether every cell of the `s × s` square from `(i0, j0)` is present.
    fn all_present(&self, i0: usize, j0: usize, s: usize) -> bool {
        let w = self.nx + 1;
        let at = |i: usize, j: usize| self.sum[j * w + i];
        at(i0 + s, j0 + s) + at(i0, j0) == at(i0, j0 + s) + at(i0 + s, j0)
    }
}

/// Whether the four triangles from the centre of the `s × s` square at `(i0, j0)` (`s` even)
/// to its corners lie within [`TOLERANCE`] of heights `h` at every grid vertex they cover;
/// `Some(true)` when all those heights are one (the square is flat).
fn fits(g: &Grid, h: &[f64], i0: usize, j0: usize, s: usize) -> Option<bool> {
    let z = |i: usize, j: usize| h[g.v(i, j)];
    let (za, zb, zc, zd) = (z(i0, j0), z(i0 + s, j0), z(i0 + s, j0 + s), z(i0, j0 + s));
    let zm = z(i0 + s / 2, j0 + s / 2);
    let mut flat = true;
    let sf = s as f64;
    for j in j0..=j0 + s {
        for i in i0..=i0 + s {
            let zh = z(i, j);
            flat &= zh == za;
            let (u, v) = ((i - i0) as f64 / sf, (j - j0) as f64 / sf);
            // The triangle of the edge nearest (u, v): `d` is the distance from that edge
            // and `t` the position along it from its first corner, both in sides.
            let (d, t, p, q) = [
                (v, u, za, zb),
                (1.0 - u, v, zb, zc),
                (1.0 - v, 1.0 - u, zc, zd),
                (u, 1.0 - v, zd, za),
            ]
            .into_iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap();
            let at = (1.0 - t - d) * p + (t - d) * q + 2.0 * d * zm;
            if (at - zh).abs() > TOLERANCE {
                return None;
            }
        }
    }
    Some(flat)
}

/// The faces of one surface (heights `h`) of `f`: the grid cut into squares of [`MAX_LEAF`]
/// cells, each square kept whole where it is all present and [`fits`], else split in four,
/// down to single cells (absent cells get none).
fn leaves(f: &Field, h: &[f64], absent: &Absent) -> Vec<Leaf> {
    fn split(
        f: &Field,
        h: &[f64],
        absent: &Absent,
        i0: usize,
        j0: usize,
        s: usize,
        out: &mut Vec<Leaf>,
    ) {
        let g = &f.grid;
        if i0 >= g.nx || j0 >= g.ny {
            return;
        }
        if s == 1 {
            if f.present[j0 * g.nx + i0] {
                out.push(Leaf {
                    i0,
                    j0,
                    s,
                    flat: false,
                });
            }
            return;
        }
        if i0 + s <= g.nx && j0 + s <= g.ny && absent.all_present(i0, j0, s) {
            if let Some(flat) = fits(g, h, i0, j0, s) {
                out.push(Leaf { i0, j0, s, flat });
                return;
            }
        }
        let t = s / 2;
        for (di, dj) in [(0, 0), (t, 0), (0, t), (t, t)] {
            split(f, h, absent, i0 + di, j0 + dj, t, out);
        }
    }
    let g = &f.grid;
    let mut out = Vec::new();
    for j0 in (0..g.ny).step_by(MAX_LEAF) {
        for i0 in (0..g.nx).step_by(MAX_LEAF) {
            split(f, h, absent, i0, j0, MAX_LEAF, &mut out);
        }
    }
    out
}

/// Least thickness the solid must have at every present cell's corners, mm.
pub const MIN_THICKNESS: f64 = 0.4;

/// Builds the boundary mesh of the solid of `f`, each surface in squares that follow it within
/// [`TOLERANCE`] (see the module docs). Errors: the grid is empty, or the top comes within
/// [`MIN_THICKNESS`] of the bottom somewhere (the message gives the place).
pub fn solid(f: &Field) -> Result<Mesh, String> {
    let g = f.grid;
    if g.nx == 0 || g.ny == 0 || !f.present.iter().any(|p| *p) {
        return Err("the solid has no cells".into());
    }
    for j in 0..g.ny {
        for i in 0..g.nx {
            if !f.present[j * g.nx + i] {
                continue;
            }
            let c = [g.v(i, j), g.v(i + 1, j), g.v(i + 1, j + 1), g.v(i, j + 1)];
            let tmin = c.iter().map(|&v| f.top[v]).fold(f64::INFINITY, f64::min);
            let bmax = c
                .iter()
                .map(|&v| f.bottom[v])
                .fold(f64::NEG_INFINITY, f64::max);
            if tmin - bmax < MIN_THICKNESS || tmin.is_nan() || bmax.is_nan() {
                let (x, y) = g.xy(i, j);
                return Err(format!(
                    "the solid is only {:.2} mm thick at ({x:.1}, {y:.1}) mm, under {MIN_THICKNESS} mm",
                    tmin - bmax
                ));
            }
        }
    }
    let nv = (g.nx + 1) * (g.ny + 1);
    let absent = Absent::new(f);
    let faces = [leaves(f, &f.top, &absent), leaves(f, &f.bottom, &absent)];
    // The vertices each surface keeps: every face's corners, every corner of an absent cell
    // (its walls run cell edge by cell edge), and on the grid's outer edge those either surface
    // keeps (the walls there run between them, top and bottom alike).
    let mut used = [vec![false; nv], vec![false; nv]];
    for (u, fs) in used.iter_mut().zip(&faces) {
        for l in fs {
            for (i, j) in [
                (l.i0, l.j0),
                (l.i0 + l.s, l.j0),
                (l.i0 + l.s, l.j0 + l.s),
                (l.i0, l.j0 + l.s),
            ] {
                u[g.v(i, j)] = true;
            }
        }
    }
    for j in 0..g.ny {
        for i in 0..g.nx {
            if !f.present[j * g.nx + i] {
                for (a, b) in [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)] {
                    used[0][g.v(a, b)] = true;
                    used[1][g.v(a, b)] = true;
                }
            }
        }
    }
    let rim: Vec<(usize, usize)> = (0..g.nx)
        .map(|i| (i, 0))
        .chain((0..g.ny).map(|j| (g.nx, j)))
        .chain((1..=g.nx).rev().map(|i| (i, g.ny)))
        .chain((1..=g.ny).rev().map(|j| (0, j)))
        .collect();
    for &(i, j) in &rim {
        let v = g.v(i, j);
        let either = used[0][v] || used[1][v];
        used[0][v] = either;
        used[1][v] = either;
    }
    let mut mesh = Mesh::default();
    let mut top_id = vec![u32::MAX; nv];
    let mut bot_id = vec![u32::MAX; nv];
    let mut id = |mesh: &mut Mesh, top: bool, i: usize, j: usize| -> u32 {
        let v = g.v(i, j);
        let slot = if top { &mut top_id[v] } else { &mut bot_id[v] };
        if *slot == u32::MAX {
            let (x, y) = g.xy(i, j);
            *slot = mesh.vertex([x, y, if top { f.top[v] } else { f.bottom[v] }]);
        }
        *slot
    };
    for (k, top) in [true, false].into_iter().enumerate() {
        let u = &used[k];
        for l in &faces[k] {
            let (i0, j0, i1, j1) = (l.i0, l.j0, l.i0 + l.s, l.j0 + l.s);
            // Border vertices counter-clockwise seen from above: the corners and the kept
            // vertices inside each edge; which ring index each corner has, and whether its
            // edge (corner k to corner k + 1) keeps any inside.
            let mut ring: Vec<(usize, usize)> = Vec::new();
            let mut corner = [0usize; 4];
            let mut inner = [false; 4];
            let edges: [Vec<(usize, usize)>; 4] = [
                (i0 + 1..i1).map(|i| (i, j0)).collect(),
                (j0 + 1..j1).map(|j| (i1, j)).collect(),
                (i0 + 1..i1).rev().map(|i| (i, j1)).collect(),
                (j0 + 1..j1).rev().map(|j| (i0, j)).collect(),
            ];
            let corners = [(i0, j0), (i1, j0), (i1, j1), (i0, j1)];
            for e in 0..4 {
                corner[e] = ring.len();
                ring.push(corners[e]);
                for &(i, j) in &edges[e] {
                    if u[g.v(i, j)] {
                        ring.push((i, j));
                        inner[e] = true;
                    }
                }
            }
            let ids: Vec<u32> = ring
                .iter()
                .map(|&(i, j)| id(&mut mesh, top, i, j))
                .collect();
            let n = ids.len();
            let tri = |mesh: &mut Mesh, c: u32, p: u32, q: u32| {
                mesh.triangles.push(if top { [c, p, q] } else { [c, q, p] });
            };
            // A single cell, or a flat square with two neighbouring edges that keep no
            // vertex inside: a fan from the corner between those edges (every other pair of
            // neighbours lies on an edge away from it, so no triangle is flat; n − 2
            // triangles). Otherwise a fan from the square's centre vertex (n triangles), the
            // surface [`fits`] checked.
            let from_corner = if l.s == 1 || l.flat {
                (0..4).find(|&e| !inner[e] && !inner[(e + 3) % 4])
            } else {
                None
            };
            match from_corner {
                Some(e) => {
                    let s0 = corner[e];
                    for m in 1..n - 1 {
                        tri(&mut mesh, ids[s0], ids[(s0 + m) % n], ids[(s0 + m + 1) % n]);
                    }
                }
                None => {
                    let c = id(&mut mesh, top, i0 + l.s / 2, j0 + l.s / 2);
                    for m in 0..n {
                        tri(&mut mesh, c, ids[m], ids[(m + 1) % n]);
                    }
                }
            }
        }
    }
    // Walls on every cell edge between a present cell and an absent one. The cell's border
    // runs counter-clockwise p → q; the wall faces out (to the right of p → q).
    let mut wall = |mesh: &mut Mesh, p: (usize, usize), q: (usize, usize)| {
        let pb = id(mesh, false, p.0, p.1);
        let qb = id(mesh, false, q.0, q.1);
        let qt = id(mesh, true, q.0, q.1);
        let pt = id(mesh, true, p.0, p.1);
        mesh.triangles.push([pb, qb, qt]);
        mesh.triangles.push([pb, qt, pt]);
    };
    for j in 0..g.ny {
        for i in 0..g.nx {
            if !f.present[j * g.nx + i] {
                continue;
            }
            let (ii, jj) = (i as isize, j as isize);
            let sides = [
                ((i, j), (i + 1, j), (ii, jj - 1)),
                ((i + 1, j), (i + 1, j + 1), (ii + 1, jj)),
                ((i + 1, j + 1), (i, j + 1), (ii, jj + 1)),
                ((i, j + 1), (i, j), (ii - 1, jj)),
            ];
            for (p, q, n) in sides {
                let outside = n.0 < 0 || n.1 < 0 || n.0 as usize >= g.nx || n.1 as usize >= g.ny;
                if outside || f.is_present(n.0, n.1) {
                    continue;
                }
                wall(&mut mesh, p, q);
            }
        }
    }
    // Walls round the grid's outer edge, counter-clockwise: one quad from each kept vertex to
    // the next along a run of present cells (both surfaces keep the same vertices there).
    let cell_out = |k: usize| -> usize {
        // The cell inside the rim edge from rim[k] to rim[k + 1].
        let (i, j) = rim[k];
        if k < g.nx {
            j * g.nx + i
        } else if k < g.nx + g.ny {
            j * g.nx + i - 1
        } else if k < 2 * g.nx + g.ny {
            (j - 1) * g.nx + i - 1
        } else {
            (j - 1) * g.nx + i
        }
    };
    let m = rim.len();
    let mut start: Option<(usize, usize)> = None;
    for k in 0..m {
        let q = rim[(k + 1) % m];
        if !f.present[cell_out(k)] {
            start = None;
            continue;
        }
        let p = *start.get_or_insert(rim[k]);
        if used[0][g.v(q.0, q.1)] {
            wall(&mut mesh, p, q);
            start = Some(q);
        }
    }
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(nx: usize, ny: usize) -> Grid {
        Grid {
            x0: 0.0,
            y0: 0.0,
            sx: 1.0,
            sy: 1.0,
            nx,
            ny,
        }
    }

    #[test]
    fn a_flat_box_is_closed_with_the_box_volume() {
        // 10 × 6 × 2 mm box: volume 120 mm³ worked by hand, with and without fans.
        let f = Field::sample(grid(10, 6), |_, _| 3.0, |_, _| 1.0);
        let m = solid(&f).unwrap();
        let st = m.check().unwrap();
        assert!((st.volume - 120.0).abs() < 1e-9, "{}", st.volume);
        assert_eq!(st.shells, 1);
        // An 8 × 8 × 2 box is one square a surface, two triangles each (a fan from a corner),
        // its rim keeps only the four corners, so four walls of two triangles: 12 triangles,
        // volume 128 mm³.
        let m = solid(&Field::sample(grid(8, 8), |_, _| 3.0, |_, _| 1.0)).unwrap();
        let st = m.check().unwrap();
        assert_eq!(m.triangles.len(), 12);
        assert!((st.volume - 128.0).abs() < 1e-9, "{}", st.volume);
    }

    #[test]
    fn fans_meet_fine_cells_without_cracks() {
        // A bump in one corner forces fine cells there; the rest are fans.
        let f = Field::sample(
            grid(12, 12),
            |x, y| if x < 3.5 && y < 3.5 { 4.0 } else { 3.0 },
            |_, _| 0.0,
        );
        let m = solid(&f).unwrap();
        m.check().unwrap();
        // Fewer triangles than all fine cells (2 × 144 top + 2 × 144 bottom + walls).
        assert!(m.triangles.len() < 2 * 144 * 2);
    }

    /// The height of `m`'s upward-facing surface over `(x, y)`, if a triangle covers it.
    fn top_at(m: &Mesh, x: f64, y: f64) -> Option<f64> {
        for t in &m.triangles {
            let [a, b, c] = t.map(|k| m.vertices[k as usize]);
            let det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
            if det <= 1e-12 {
                continue; // a wall, or a face turned down
            }
            let wb = ((x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1])) / det;
            let wc = ((b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1])) / det;
            let wa = 1.0 - wb - wc;
            if wa >= -1e-9 && wb >= -1e-9 && wc >= -1e-9 {
                return Some(wa * a[2] + wb * b[2] + wc * c[2]);
            }
        }
        None
    }

    #[test]
    fn a_curved_top_is_followed_within_twice_the_tolerance_with_fewer_triangles() {
        // z = 2 + r²/400 over 32 × 32 one-millimetre cells, r from (16, 16): the volume is
        // 2·1024 + (2·32·(2·16³/3))/400 = 2048 + 436.9 = 2484.9 mm³; the cell-by-cell
        // interpolation adds 2·1024/(6·400) = 0.9 mm³, and faces within 2·TOLERANCE of every
        // vertex change it by at most 1024·2·TOLERANCE = 51.2 mm³.
        let top = |x: f64, y: f64| 2.0 + ((x - 16.0).powi(2) + (y - 16.0).powi(2)) / 400.0;
        let f = Field::sample(grid(32, 32), top, |_, _| 0.0);
        let m = solid(&f).unwrap();
        let st = m.check().unwrap();
        assert_eq!(st.shells, 1);
        assert!((st.volume - 2484.9).abs() < 0.9 + 51.2, "{}", st.volume);
        for j in 0..=32 {
            for i in 0..=32 {
                let (x, y) = (i as f64, j as f64);
                let z = top_at(&m, x, y).expect("covered");
                assert!(
                    (z - top(x, y)).abs() <= 2.0 * TOLERANCE + 1e-9,
                    "({x}, {y}): {z}"
                );
            }
        }
        // The cells one by one would take 2·1024 triangles for the top alone; squares of 4
        // cells fit (a fan from the centre is off by at most 2²/400 = 0.01 mm at an edge's
        // middle), 8 do not (4²/400 = 0.04 mm): 64 squares of 4 to 12 triangles.
        let tops = m
            .triangles
            .iter()
            .filter(|t| {
                let [a, b, c] = t.map(|k| m.vertices[k as usize]);
                (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]) > 1e-12
            })
            .count();
        assert!((64 * 4..=64 * 12).contains(&tops), "{tops}");
    }

    #[test]
    fn a_hole_of_absent_cells_gets_walls() {
        // 8 × 8 × 1 plate with a 2 × 2 hole: 64 − 4 = 60 mm³; two shells would be wrong.
        let mut f = Field::sample(grid(8, 8), |_, _| 1.0, |_, _| 0.0);
        for (i, j) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
            f.present[j * 8 + i] = false;
        }
        let st = solid(&f).unwrap().check().unwrap();
        assert!((st.volume - 60.0).abs() < 1e-9);
        assert_eq!(st.shells, 1);
    }

    #[test]
    fn too_thin_is_an_error() {
        let f = Field::sample(
            grid(4, 4),
            |x, _| if x > 2.0 { 0.2 } else { 2.0 },
            |_, _| 0.0,
        );
        let e = solid(&f).unwrap_err();
        assert!(e.contains("thick"), "{e}");
    }
}
