//! A solid between two height fields over a rectangular grid: the board parts and joiners.
//!
//! The solid is every point `(x, y, z)` with `(x, y)` in a present grid cell and
//! `bottom(x, y) ≤ z ≤ top(x, y)`, both surfaces interpolated linearly on the same triangles.
//! Its boundary is closed and manifold by construction: each present cell gives a top and a
//! bottom face; each cell edge between a present cell and an absent cell (or the outside)
//! gives a vertical wall whose corners are the same top and bottom vertices, so every edge is
//! shared by exactly two triangles wound the same way. Where a block of `k × k` cells is flat
//! (all its vertices at one height, all present) its face is a fan from a centre vertex to
//! every grid vertex on the block's border, so neighbours still meet edge to edge (no
//! T-junctions) with far fewer triangles. The surfaces cannot cross (no self-intersection)
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

/// Least thickness the solid must have at every present cell's corners, mm.
pub const MIN_THICKNESS: f64 = 0.4;

/// Builds the boundary mesh of the solid of `f`, merging flat `k × k` blocks into fans.
/// Errors: the grid is empty, or the top comes within [`MIN_THICKNESS`] of the bottom
/// somewhere (the message gives the place).
pub fn solid(f: &Field, k: usize) -> Result<Mesh, String> {
    let g = f.grid;
    let k = k.max(1);
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
    let bx = g.nx.div_ceil(k);
    let by = g.ny.div_ceil(k);
    for bj in 0..by {
        for bi in 0..bx {
            let (i0, i1) = (bi * k, ((bi + 1) * k).min(g.nx));
            let (j0, j1) = (bj * k, ((bj + 1) * k).min(g.ny));
            let all_present = (j0..j1).all(|j| (i0..i1).all(|i| f.present[j * g.nx + i]));
            for top in [true, false] {
                let h = if top { &f.top } else { &f.bottom };
                let z0 = h[g.v(i0, j0)];
                let flat = all_present
                    && k > 1
                    && (j0..=j1).all(|j| (i0..=i1).all(|i| h[g.v(i, j)] == z0));
                if flat {
                    // Border vertices counter-clockwise seen from above.
                    let mut ring: Vec<(usize, usize)> = Vec::new();
                    ring.extend((i0..i1).map(|i| (i, j0)));
                    ring.extend((j0..j1).map(|j| (i1, j)));
                    ring.extend((i0 + 1..=i1).rev().map(|i| (i, j1)));
                    ring.extend((j0 + 1..=j1).rev().map(|j| (i0, j)));
                    let (xa, ya) = g.xy(i0, j0);
                    let (xb, yb) = g.xy(i1, j1);
                    let c = mesh.vertex([(xa + xb) / 2.0, (ya + yb) / 2.0, z0]);
                    let ids: Vec<u32> = ring
                        .iter()
                        .map(|&(i, j)| id(&mut mesh, top, i, j))
                        .collect();
                    for m in 0..ids.len() {
                        let (p, q) = (ids[m], ids[(m + 1) % ids.len()]);
                        mesh.triangles.push(if top { [c, p, q] } else { [c, q, p] });
                    }
                } else {
                    for j in j0..j1 {
                        for i in i0..i1 {
                            if !f.present[j * g.nx + i] {
                                continue;
                            }
                            let a = id(&mut mesh, top, i, j);
                            let b = id(&mut mesh, top, i + 1, j);
                            let c = id(&mut mesh, top, i + 1, j + 1);
                            let d = id(&mut mesh, top, i, j + 1);
                            if top {
                                mesh.triangles.push([a, b, c]);
                                mesh.triangles.push([a, c, d]);
                            } else {
                                mesh.triangles.push([a, c, b]);
                                mesh.triangles.push([a, d, c]);
                            }
                        }
                    }
                }
            }
        }
    }
    // Walls on every cell edge between a present cell and an absent one or the outside. The
    // cell's border runs counter-clockwise p → q; the wall faces out (to the right of p → q).
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
                if f.is_present(n.0, n.1) {
                    continue;
                }
                let pb = id(&mut mesh, false, p.0, p.1);
                let qb = id(&mut mesh, false, q.0, q.1);
                let qt = id(&mut mesh, true, q.0, q.1);
                let pt = id(&mut mesh, true, p.0, p.1);
                mesh.triangles.push([pb, qb, qt]);
                mesh.triangles.push([pb, qt, pt]);
            }
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
        for k in [1, 3, 4, 10] {
            let f = Field::sample(grid(10, 6), |_, _| 3.0, |_, _| 1.0);
            let m = solid(&f, k).unwrap();
            let st = m.check().unwrap();
            assert!((st.volume - 120.0).abs() < 1e-9, "k={k}: {}", st.volume);
            assert_eq!(st.shells, 1);
        }
    }

    #[test]
    fn fans_meet_fine_cells_without_cracks() {
        // A bump in one corner forces fine cells there; the rest are fans.
        let f = Field::sample(
            grid(12, 12),
            |x, y| if x < 3.5 && y < 3.5 { 4.0 } else { 3.0 },
            |_, _| 0.0,
        );
        let m = solid(&f, 4).unwrap();
        m.check().unwrap();
        // Fewer triangles than all fine cells (2 × 144 top + 2 × 144 bottom + walls).
        assert!(m.triangles.len() < 2 * 144 * 2);
    }

    #[test]
    fn a_hole_of_absent_cells_gets_walls() {
        // 8 × 8 × 1 plate with a 2 × 2 hole: 64 − 4 = 60 mm³; two shells would be wrong.
        let mut f = Field::sample(grid(8, 8), |_, _| 1.0, |_, _| 0.0);
        for (i, j) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
            f.present[j * 8 + i] = false;
        }
        let st = solid(&f, 4).unwrap().check().unwrap();
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
        let e = solid(&f, 1).unwrap_err();
        assert!(e.contains("thick"), "{e}");
    }
}
