//! The 3D kit: every mesh closed, manifold and outward (also after an STL round trip through
//! f32), parts within the bed, small meshes free of self-intersection, and the parts placed by
//! their joiners' pegs reassembling the board within 0.1 mm of the paper board's geometry.
use sowkit::mesh::board::{self, Design, Part, CLEARANCE, JOINER_T, PEG_H};
use sowkit::mesh::{seed, Bed, Mesh};
use sowkit::ruleset::Ruleset;
use std::path::Path;

fn load(id: &str) -> Ruleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml"));
    let src = std::fs::read_to_string(&path).unwrap();
    sowkit::ruleset::load_str(&format!("rulesets/{id}.toml"), &src)
        .unwrap_or_else(|d| panic!("{}", d[0].rendered))
}

/// Checks a mesh and the mesh read back from its STL bytes (corners welded by their f32 bits).
fn sound(m: &Mesh, what: &str) -> sowkit::mesh::Stats {
    let st = m.check().unwrap_or_else(|e| panic!("{what}: {e}"));
    let back = Mesh::from_stl(&m.to_stl(what)).unwrap();
    let st2 = back
        .check()
        .unwrap_or_else(|e| panic!("{what} as STL: {e}"));
    assert_eq!(st.triangles, st2.triangles, "{what}");
    assert_eq!(
        st.vertices, st2.vertices,
        "{what}: f32 welding merged vertices"
    );
    assert!((st.volume - st2.volume).abs() < 1e-3 * st.volume, "{what}");
    st
}

fn parts(id: &str, bed: Bed) -> (Design, Vec<Part>) {
    let d = Design::new(&load(id), false).unwrap();
    let p = board::parts(&d, bed).unwrap();
    (d, p)
}

#[test]
fn giuthi_and_kalah_parts_are_sound_and_fit_a_200_mm_bed() {
    for id in ["giuthi", "kalah-6x4"] {
        let (d, ps) = parts(id, Bed::DEFAULT);
        // Each board is longer than the bed: at least as many parts as its length needs.
        let (hx, _) = d.half_size();
        assert!(ps.len() >= (2.0 * hx / 200.0).ceil() as usize, "{id}");
        assert!(ps.len() > 1, "{id}");
        let mut total = 0.0;
        for (i, p) in ps.iter().enumerate() {
            let st = sound(&p.mesh, &format!("{id} part {}", i + 1));
            assert_eq!(st.shells, 1);
            let (lo, hi) = p.mesh.bbox();
            assert!(
                lo.iter().all(|v| v.abs() < 1e-9),
                "{id}: part not on the bed origin"
            );
            assert!(hi[0] <= 200.0 && hi[1] <= 200.0, "{id}: {hi:?}");
            assert!((hi[2] - d.thick - 0.6).abs() < 0.01, "top of the rims");
            total += st.volume;
        }
        // Volume against the block minus bowls, worked independently: the block is
        // 2·hx × 2·hy × thick, each pit removes a spherical cap π h²(3R − h)/3 with
        // R = (r² + h²)/(2h). Pockets, stores, engraving and rims change it by a few percent.
        let (hx, hy) = d.half_size();
        let h = d.pit_depth;
        let big = (d.r * d.r + h * h) / (2.0 * h);
        let cap = std::f64::consts::PI * h * h * (3.0 * big - h) / 3.0;
        let est = 4.0 * hx * hy * d.thick - 2.0 * d.n as f64 * cap;
        assert!(
            (total - est).abs() < 0.08 * est,
            "{id}: volume {total:.0} vs block minus pits {est:.0}"
        );
    }
}

#[test]
fn a_small_bed_gets_more_parts_and_a_tiny_one_a_clear_error() {
    let (_, big) = parts("giuthi", Bed::DEFAULT);
    let (_, ps) = parts("giuthi", Bed { w: 150.0, h: 150.0 });
    assert!(ps.len() > big.len(), "{} vs {}", ps.len(), big.len());
    for p in &ps {
        let (_, hi) = p.mesh.bbox();
        assert!(hi[0] <= 150.0 && hi[1] <= 150.0, "{hi:?}");
    }
    let d = Design::new(&load("giuthi"), false).unwrap();
    let e = board::parts(&d, Bed { w: 80.0, h: 80.0 }).unwrap_err();
    assert!(e.contains("--bed"), "{e}");
}

#[test]
fn bed_sizes_parse_and_bad_ones_are_explained() {
    assert_eq!(Bed::parse("220x250").unwrap(), Bed { w: 220.0, h: 250.0 });
    assert_eq!(Bed::parse("200×200").unwrap(), Bed::DEFAULT);
    assert_eq!(
        Bed::parse("220.5x220mm").unwrap(),
        Bed { w: 220.5, h: 220.0 }
    );
    // Inches, as --paper takes them: 9 × 25.4 = 228.6 mm, 8.5 × 25.4 = 215.9 mm. "9x9in" was
    // read as a 9 mm side ("9 mm is outside 60 to 2000 mm").
    assert_eq!(Bed::parse("9x9in").unwrap(), Bed { w: 228.6, h: 228.6 });
    assert_eq!(Bed::parse("8.5x10IN").unwrap(), Bed { w: 215.9, h: 254.0 });
    let e = Bed::parse("250x250in").unwrap_err();
    assert!(
        e.contains("250 in (6350 mm) is outside 60 to 2000 mm"),
        "{e}"
    );
    // A side out of range is quoted as typed, not as its rounded float (a tester's
    // 99999999999999999999 came back as 100000000000000000000).
    let e = Bed::parse("99999999999999999999x200").unwrap_err();
    assert!(
        e.contains(": 99999999999999999999 mm is outside 60 to 2000 mm"),
        "{e}"
    );
    // The inch mark too; and a side that is not a number is named before any side's size is
    // judged ("9x9in2" was "9 mm is outside 60 to 2000 mm").
    assert_eq!(Bed::parse("9x9\"").unwrap(), Bed { w: 228.6, h: 228.6 });
    let e = Bed::parse("9x9in2").unwrap_err();
    assert!(e.contains("\"9in2\" is not a number"), "{e}");
    let e = Bed::parse("9inx9in").unwrap_err();
    assert!(e.contains("write the unit once, at the end"), "{e}");
    let e = Bed::parse("3.543x3.543in").unwrap_err();
    assert!(e.contains("at most two decimals"), "{e}");
    // Another unit is named as one sowkit does not take, not read as millimetres.
    let e = Bed::parse("20x20cm").unwrap_err();
    assert!(e.contains("cm is not a unit sowkit takes"), "{e}");
    // Plain digits, as a --paper size: no exponent, sign or bare point.
    for bad in [
        "200",
        "axb",
        "10x10",
        "200x200x200",
        "2e2x2e2",
        "+200x200",
        "200.x200",
        ".5x200",
        "200x200in",
    ] {
        let e = Bed::parse(bad).unwrap_err();
        assert!(e.contains("--bed"), "{e}");
    }
}

/// Centroids of clusters of points (points closer than `gap` join a cluster).
fn clusters(pts: &[(f64, f64)], gap: f64) -> Vec<(f64, f64, usize)> {
    let mut out: Vec<(f64, f64, usize, f64, f64)> = Vec::new(); // sum x, sum y, n, last x, last y
    'p: for &(x, y) in pts {
        for c in &mut out {
            if (c.0 / c.2 as f64 - x).hypot(c.1 / c.2 as f64 - y) < gap {
                c.0 += x;
                c.1 += y;
                c.2 += 1;
                continue 'p;
            }
        }
        out.push((x, y, 1, x, y));
    }
    out.into_iter()
        .map(|c| (c.0 / c.2 as f64, c.1 / c.2 as f64, c.2))
        .collect()
}

/// The lowest point of the paraboloid `z = a + b·x + c·y + e·(x² + y²)` fitted (least
/// squares) to `pts`, coordinates taken from `origin`; `None` unless it opens upwards and
/// fits every point within 0.01 mm.
fn paraboloid_bottom(pts: &[(f64, f64, f64)], origin: (f64, f64)) -> Option<(f64, f64)> {
    let row = |p: &(f64, f64, f64)| {
        let (x, y) = (p.0 - origin.0, p.1 - origin.1);
        [1.0, x, y, x * x + y * y]
    };
    // Normal equations A·k = r, solved by Gaussian elimination with partial pivoting.
    let mut a = [[0.0f64; 5]; 4];
    for p in pts {
        let f = row(p);
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] += f[i] * f[j];
            }
            a[i][4] += f[i] * p.2;
        }
    }
    for col in 0..4 {
        let piv = (col..4).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        a.swap(col, piv);
        if a[col][col].abs() < 1e-12 {
            return None;
        }
        for r in 0..4 {
            if r != col {
                let k = a[r][col] / a[col][col];
                let pivot = a[col];
                for (x, p) in a[r][col..].iter_mut().zip(&pivot[col..]) {
                    *x -= k * p;
                }
            }
        }
    }
    let k: Vec<f64> = (0..4).map(|i| a[i][4] / a[i][i]).collect();
    let fits = pts.iter().all(|p| {
        let f = row(p);
        ((0..4).map(|i| k[i] * f[i]).sum::<f64>() - p.2).abs() < 0.01
    });
    (k[3] > 0.0 && fits).then(|| {
        (
            origin.0 - k[1] / (2.0 * k[3]),
            origin.1 - k[2] / (2.0 * k[3]),
        )
    })
}

/// The part's mesh turned back to the board's orientation.
fn unturned(p: &Part) -> Mesh {
    let mut m = p.mesh.clone();
    if p.turned {
        for _ in 0..3 {
            m.rotate_quarter();
        }
    }
    m
}

/// Peg-hole centres of a part, found from its mesh: the flat ceilings of the peg holes are the
/// only bottom surface at pocket depth + peg height + 0.5 mm.
fn peg_holes(m: &Mesh) -> Vec<(f64, f64)> {
    let z = JOINER_T + CLEARANCE + PEG_H + 0.5;
    let pts: Vec<(f64, f64)> = m
        .vertices
        .iter()
        .filter(|v| (v[2] - z).abs() < 1e-6)
        .map(|v| (v[0], v[1]))
        .collect();
    clusters(&pts, 3.0)
        .into_iter()
        .map(|c| (c.0, c.1))
        .collect()
}

#[test]
fn parts_placed_by_their_pegs_reassemble_the_board_within_a_tenth_of_a_millimetre() {
    for (id, bed) in [
        ("giuthi", Bed::DEFAULT),
        ("kalah-6x4", Bed::DEFAULT),
        ("giuthi", Bed { w: 150.0, h: 150.0 }),
    ] {
        let (d, ps) = parts(id, bed);
        // The joiner's pegs, from its mesh: the flat peg tips.
        let j = board::joiner(&d);
        sound(&j, "joiner");
        let tip = JOINER_T + PEG_H;
        let tips: Vec<(f64, f64)> = j
            .vertices
            .iter()
            .filter(|v| (v[2] - tip).abs() < 1e-6)
            .map(|v| (v[0], v[1]))
            .collect();
        let mut pegs = clusters(&tips, 3.0);
        pegs.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert_eq!(pegs.len(), 2, "{id}: joiner pegs");
        // Laid under the board upside down (turned about x), a peg keeps its x and its y
        // changes sign.
        let peg_dx = pegs[1].0 - pegs[0].0;
        let peg_dy = -(pegs[1].1 - pegs[0].1);
        // Place part 0 where it lies; then each next part so that a joiner's left peg sits in
        // the previous part's hole and its right peg in this part's hole.
        let meshes: Vec<Mesh> = ps.iter().map(unturned).collect();
        let mut offset = vec![(0.0, 0.0)];
        for i in 1..meshes.len() {
            let prev = &meshes[i - 1];
            let (_, phi) = prev.bbox();
            let (plo, _) = meshes[i].bbox();
            // Holes near the seam: the previous part's right end, this part's left end.
            let mut left: Vec<(f64, f64)> = peg_holes(prev)
                .into_iter()
                .filter(|h| phi[0] - h.0 < 20.0)
                .collect();
            let mut right: Vec<(f64, f64)> = peg_holes(&meshes[i])
                .into_iter()
                .filter(|h| h.0 - plo[0] < 20.0)
                .collect();
            assert_eq!(left.len(), 2, "{id}: two joiners per seam");
            assert_eq!(right.len(), 2, "{id}: two joiners per seam");
            left.sort_by(|a, b| a.1.total_cmp(&b.1));
            right.sort_by(|a, b| a.1.total_cmp(&b.1));
            let o = offset[i - 1];
            let mut placed = Vec::new();
            for (l, r) in left.iter().zip(&right) {
                placed.push((l.0 + o.0 + peg_dx - r.0, l.1 + o.1 + peg_dy - r.1));
            }
            // Both joiners agree on where the part goes.
            assert!(
                (placed[0].0 - placed[1].0).hypot(placed[0].1 - placed[1].1) < 0.1,
                "{id}: the two joiners disagree: {placed:?}"
            );
            let here = placed[0];
            // The seam faces meet: no gap, no overlap.
            let gap = (plo[0] + here.0) - (phi[0] + o.0);
            assert!(gap.abs() < 0.1, "{id}: seam gap {gap} mm");
            offset.push(here);
        }
        // The pit floors, found in the placed meshes: the vertices up to 0.5 mm above the
        // pit floor gather round each pit's centre (within √(2·R·0.5) of it for a bowl of
        // radius R); a paraboloid z = a + b·x + c·y + e·(x² + y²) fitted to each gathering
        // has its lowest point at the centre (every vertex lies on the sampled bowl, but the
        // faces that follow a bowl within grid::TOLERANCE keep only some of them, unevenly,
        // so their mean is not the centre). A store's steep side crosses that height only in
        // thin strips, with lower points beside them: dropped here. (Gathered 20 mm apart: a
        // pit's points lie within 8 mm of its centre, pits are 45 mm or more apart.)
        let bowl_floor = d.thick - d.pit_depth;
        let mut deep = Vec::new();
        let mut lower = Vec::new();
        for (m, o) in meshes.iter().zip(&offset) {
            for v in &m.vertices {
                let dz = v[2] - bowl_floor;
                if (-1e-6..0.5).contains(&dz) {
                    deep.push((v[0] + o.0, v[1] + o.1, v[2]));
                } else if dz < -0.02 && v[2] > 0.5 {
                    lower.push((v[0] + o.0, v[1] + o.1));
                }
            }
        }
        let xy: Vec<(f64, f64)> = deep.iter().map(|p| (p.0, p.1)).collect();
        let found: Vec<(f64, f64, usize)> = clusters(&xy, 20.0)
            .into_iter()
            .filter_map(|c| {
                let pts: Vec<(f64, f64, f64)> = deep
                    .iter()
                    .copied()
                    .filter(|p| (p.0 - c.0).hypot(p.1 - c.1) < 9.0)
                    .collect();
                let (x, y) = paraboloid_bottom(&pts, (c.0, c.1))?;
                let clear = lower.iter().all(|p| (p.0 - x).hypot(p.1 - y) > 3.0);
                (pts.len() >= 6 && clear).then_some((x, y, pts.len()))
            })
            .collect();
        assert_eq!(found.len(), d.pits.len(), "{id}: pit floors found");
        // Every pit centre of the paper geometry, relative to pit 0, is found there.
        let rel = |p: (f64, f64)| (p.0 - d.pits[0].0, p.1 - d.pits[0].1);
        // Anchor: the found cluster whose relative layout matches pit 0 (the lowest-left).
        let anchor = found
            .iter()
            .filter(|c| {
                // A pit of the lower row, leftmost.
                found.iter().all(|o| o.1 >= c.1 - 1.0)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap();
        for (h, &p) in d.pits.iter().enumerate() {
            let want = rel(p);
            let best = found
                .iter()
                .map(|c| (c.0 - anchor.0 - want.0).hypot(c.1 - anchor.1 - want.1))
                .fold(f64::INFINITY, f64::min);
            assert!(
                best < 0.1,
                "{id} on {bed:?}: pit {h} is {best:.3} mm from where the paper board has it"
            );
        }
    }
}

/// Whether segment `p`–`q` passes through the interior of triangle `t` (Möller–Trumbore).
fn seg_hits(p: [f64; 3], q: [f64; 3], t: [[f64; 3]; 3]) -> bool {
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let dir = sub(q, p);
    let e1 = sub(t[1], t[0]);
    let e2 = sub(t[2], t[0]);
    let h = cross(dir, e2);
    let a = dot(e1, h);
    if a.abs() < 1e-12 {
        return false;
    }
    let f = 1.0 / a;
    let s = sub(p, t[0]);
    let u = f * dot(s, h);
    let qv = cross(s, e1);
    let v = f * dot(dir, qv);
    let w = f * dot(e2, qv);
    let eps = 1e-9;
    u > eps && v > eps && u + v < 1.0 - eps && w > eps && w < 1.0 - eps
}

/// Pairs of triangles sharing no vertex where an edge of one pierces the other, found through
/// a uniform grid of cells over their bounding boxes.
fn self_intersections(m: &Mesh) -> usize {
    let (lo, hi) = m.bbox();
    let cell = 1.0f64;
    let dims: Vec<usize> = (0..3)
        .map(|k| (((hi[k] - lo[k]) / cell).floor() as usize) + 1)
        .collect();
    let mut grid: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    let bb = |t: &[u32; 3]| {
        let mut a = [f64::MAX; 3];
        let mut b = [f64::MIN; 3];
        for &i in t {
            for k in 0..3 {
                a[k] = a[k].min(m.vertices[i as usize][k]);
                b[k] = b[k].max(m.vertices[i as usize][k]);
            }
        }
        (a, b)
    };
    for (n, t) in m.triangles.iter().enumerate() {
        let (a, b) = bb(t);
        let c0: Vec<usize> = (0..3).map(|k| ((a[k] - lo[k]) / cell) as usize).collect();
        let c1: Vec<usize> = (0..3).map(|k| ((b[k] - lo[k]) / cell) as usize).collect();
        for x in c0[0]..=c1[0] {
            for y in c0[1]..=c1[1] {
                for z in c0[2]..=c1[2] {
                    grid.entry((z * dims[1] + y) * dims[0] + x)
                        .or_default()
                        .push(n);
                }
            }
        }
    }
    let mut hits = std::collections::BTreeSet::new();
    for list in grid.values() {
        for (ai, &a) in list.iter().enumerate() {
            for &b in &list[ai + 1..] {
                let (ta, tb) = (m.triangles[a], m.triangles[b]);
                if ta.iter().any(|i| tb.contains(i)) {
                    continue;
                }
                let pa = ta.map(|i| m.vertices[i as usize]);
                let pb = tb.map(|i| m.vertices[i as usize]);
                let edge_hits = |x: [[f64; 3]; 3], y: [[f64; 3]; 3]| {
                    (0..3).any(|k| seg_hits(x[k], x[(k + 1) % 3], y))
                };
                if edge_hits(pa, pb) || edge_hits(pb, pa) {
                    hits.insert((a.min(b), a.max(b)));
                }
            }
        }
    }
    hits.len()
}

#[test]
fn the_intersection_check_finds_two_crossing_boxes() {
    // Two unit cubes, the second pushed half into the first: their faces cross.
    let cube = |o: [f64; 3]| {
        let mut m = Mesh::default();
        for k in 0..8 {
            m.vertex([
                o[0] + (k & 1) as f64,
                o[1] + ((k >> 1) & 1) as f64,
                o[2] + ((k >> 2) & 1) as f64,
            ]);
        }
        m.triangles = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        m
    };
    let mut m = cube([0.0; 3]);
    m.check().unwrap();
    assert!((m.signed_volume() - 1.0).abs() < 1e-12);
    assert_eq!(self_intersections(&m), 0);
    m.append(&cube([0.5, 0.25, 0.25]));
    assert!(self_intersections(&m) > 0);
}

#[test]
fn seeds_joiner_and_a_seed_plate_do_not_intersect_themselves() {
    let d = Design::new(&load("giuthi"), false).unwrap();
    let j = board::joiner(&d);
    assert_eq!(self_intersections(&j), 0);
    let s = seed::lens(12.0);
    assert_eq!(self_intersections(&s), 0);
    let plate = &seed::plates(12.0, 20, Bed::DEFAULT).unwrap()[0];
    assert_eq!(self_intersections(&plate.mesh), 0);
}

#[test]
fn a_seed_is_a_lens_of_the_counter_diameter() {
    for dia in [8.0, 12.0, 20.0] {
        let s = seed::lens(dia);
        let st = sound(&s, "seed");
        assert_eq!(st.shells, 1);
        let (lo, hi) = s.bbox();
        assert!((hi[0] - lo[0] - dia).abs() < 1e-9, "{dia}: {lo:?} {hi:?}");
        assert!((hi[2] - seed::thickness(dia)).abs() < 1e-9);
        assert!(lo[2].abs() < 1e-12, "flat base on the bed");
        // Thinner than a coin-shaped cylinder of that size, thicker than a cone on it.
        let cyl = std::f64::consts::PI * dia * dia / 4.0 * seed::thickness(dia);
        assert!(
            st.volume < cyl && st.volume > cyl / 3.0,
            "{dia}: {}",
            st.volume
        );
    }
}

#[test]
fn seed_plates_hold_what_the_game_needs_and_fit_the_bed() {
    let rs = load("giuthi");
    // Giuthi allows up to 9 seeds in each of its 12 pits: 108, plus a tenth rounded up
    // (10.8 → 11) for spares, as the paper counters sheet counts them.
    assert_eq!(seed::game_needs(&rs), 108);
    assert_eq!(seed::needed(&rs), 119);
    // Kalah 6×4: 48 + 5 = 53, the paper sheet's "53 to cut (48 for play, 5 spare)".
    let kalah = load("kalah-6x4");
    assert_eq!(seed::needed(&kalah), 53);
    assert_eq!(sowkit::layout::counters::count(&kalah), (48, 5));
    for bed in [Bed::DEFAULT, Bed { w: 100.0, h: 100.0 }] {
        let plates = seed::plates(12.0, 119, bed).unwrap();
        assert_eq!(plates.iter().map(|p| p.count).sum::<usize>(), 119);
        for p in &plates {
            let st = p.mesh.check().unwrap();
            assert_eq!(st.shells, p.count);
            let (lo, hi) = p.mesh.bbox();
            assert!(lo[0] >= 0.0 && lo[1] >= 0.0 && hi[0] <= bed.w && hi[1] <= bed.h);
        }
        if bed.w < 150.0 {
            assert!(plates.len() > 1);
        }
    }
    // Shared evenly (a new user's child-safe Kalah printed 25, 25 and 3): 53 seeds of 32 mm
    // on the default 200 mm bed, which holds 25 of them (5 mm margins and 2 mm gaps: a 34 mm
    // pitch, (200 − 10 + 2) / 34 = 5.6, so 5 × 5), take 3 plates of 18, 18 and 17.
    let counts: Vec<usize> = seed::plates(32.0, 53, Bed::DEFAULT)
        .unwrap()
        .iter()
        .map(|p| p.count)
        .collect();
    assert_eq!(counts, [18, 18, 17]);
}

#[test]
fn the_3d_files_are_deterministic_and_complete() {
    let rs = load("kalah-6x4");
    let a = sowkit::mesh::kit_files(&rs, false, Bed::DEFAULT).unwrap();
    let b = sowkit::mesh::kit_files(&rs, false, Bed::DEFAULT).unwrap();
    assert_eq!(a, b);
    let names: Vec<&str> = a.iter().map(|f| f.name.as_str()).collect();
    for want in [
        "board-1.stl",
        "board-2.stl",
        "board-1.png",
        "joiner.stl",
        "seed.stl",
        "seeds-1.stl",
        "seeds-1.png",
        "3d.txt",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    for f in &a {
        if f.name.ends_with(".stl") {
            let n = u32::from_le_bytes(f.bytes[80..84].try_into().unwrap()) as usize;
            assert_eq!(f.bytes.len(), 84 + 50 * n, "{}", f.name);
        }
        if f.name.ends_with(".png") {
            assert_eq!(&f.bytes[..8], b"\x89PNG\r\n\x1a\n");
        }
    }
}

#[test]
fn a_plug_fills_a_pit_of_the_board_with_clearance() {
    use sowkit::mesh::plug;
    for id in ["giuthi", "kalah-6x4"] {
        let d = Design::new(&load(id), false).unwrap();
        let m = plug::plug(&d);
        let st = sound(&m, "plug");
        assert_eq!(st.shells, 1);
        assert_eq!(self_intersections(&m), 0, "{id}");
        // Lid down on the bed, as wide as the pit plus the overhang.
        let (lo, hi) = m.bbox();
        assert!(lo[2].abs() < 1e-12);
        let lid_r = d.r + plug::LID_OVER;
        assert!((hi[0] - lo[0] - 2.0 * lid_r).abs() < 1e-9, "{id}");
        // Placed in the first pit (print height z' is board height t + lift + lid - z'),
        // every point of the dome stays at least 0.3 mm above the board's own top surface
        // (Design::top, the surface the board parts are built from), and the lid's underside
        // clears the rim beads.
        let (cx, cy) = d.pits[0];
        let lid_under = d.thick + plug::LID_LIFT;
        for v in &m.vertices {
            let z = lid_under + plug::LID - v[2];
            let (x, y) = (cx + v[0], cy + v[1]);
            if z < lid_under - 1e-9 {
                let gap = z - d.top(x, y);
                assert!(
                    gap >= 0.3,
                    "{id}: vertex {v:?} is {gap:.3} mm above the bowl"
                );
            }
        }
        for k in 0..72 {
            let a = k as f64 / 72.0 * std::f64::consts::TAU;
            for f in [0.95, 1.0, 1.05, 1.1, 1.15] {
                let rho = (d.r + 0.1) * f;
                if rho <= lid_r {
                    let top = d.top(cx + rho * a.cos(), cy + rho * a.sin());
                    assert!(
                        top < lid_under,
                        "{id}: the lid sits on {top:.2} mm at {rho:.1}"
                    );
                }
            }
        }
        // Volume: between the pit's cap less clearance and that cap plus the lid disc and
        // the wall up to it (hand estimate: cap π h (3a² + h²)/6 with a = r, h = depth).
        let (a, h) = (d.r, d.pit_depth);
        let cap = std::f64::consts::PI * h * (3.0 * a * a + h * h) / 6.0;
        let lid = std::f64::consts::PI * lid_r * lid_r * plug::LID;
        let wall = std::f64::consts::PI * a * a * plug::LID_LIFT;
        assert!(st.volume < cap + lid + wall, "{id}: {}", st.volume);
        assert!(st.volume > 0.85 * cap + lid, "{id}: {}", st.volume);
    }
}

#[test]
fn the_giuthi_3d_kit_has_plugs_for_the_next_round() {
    let files = sowkit::mesh::kit_files(&load("giuthi"), false, Bed::DEFAULT).unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"plug.stl") && names.contains(&"plug.png"));
    let notes = files.iter().find(|f| f.name == "3d.txt").unwrap();
    // 6 pits a row, at least 3 left: three pairs may be closed.
    assert!(String::from_utf8_lossy(&notes.bytes).contains("plug.stl  print 6,"));
    // Kalah has no next round: no plugs.
    let k = sowkit::mesh::kit_files(&load("kalah-6x4"), false, Bed::DEFAULT).unwrap();
    assert!(!k.iter().any(|f| f.name.starts_with("plug")));
}

/// `3d.txt` says where each board part goes. Kalah 6×4 on the default bed is three parts;
/// South sits at the front (its row of pits nearer, as on the paper board) and sows
/// counter-clockwise, so S1 is at South's left: the part said to be the left end holds S1.
#[test]
fn the_3d_notes_say_where_each_part_goes() {
    let rs = load("kalah-6x4");
    let files = sowkit::mesh::kit_files(&rs, false, Bed::DEFAULT).unwrap();
    let notes = String::from_utf8_lossy(&files.iter().find(|f| f.name == "3d.txt").unwrap().bytes)
        .into_owned();
    let line = |n: usize| {
        notes
            .lines()
            .find(|l| l.starts_with(&format!("board-{n}.stl ")))
            .unwrap_or_else(|| panic!("{notes}"))
            .to_string()
    };
    assert!(
        line(1).ends_with("; the left end, seen from South's side"),
        "{notes}"
    );
    assert!(
        line(2).ends_with("; between board-1.stl and board-3.stl"),
        "{notes}"
    );
    assert!(line(3).ends_with("; the right end"), "{notes}");
    assert!(!notes.contains("board-4.stl"), "{notes}");
    let d = Design::new(&rs, false).unwrap();
    let parts = sowkit::mesh::board::parts(&d, Bed::DEFAULT).unwrap();
    let s1 = d.pits[0];
    assert!(s1.1 < d.pits[d.n].1, "South's row is the nearer one");
    assert!(parts[0].x_range.0 <= s1.0 && s1.0 <= parts[0].x_range.1);
    // One part: nothing to place.
    let one = sowkit::mesh::kit_files(&rs, false, Bed::parse("600x400").unwrap()).unwrap();
    let one = String::from_utf8_lossy(&one.iter().find(|f| f.name == "3d.txt").unwrap().bytes)
        .into_owned();
    assert!(
        one.contains("board-1.stl ") && !one.contains("board-2.stl"),
        "{one}"
    );
    assert!(!one.contains("left end"), "{one}");
}

/// The relay ruleset of `tools/bench-hostile.sh` (16 pits a side of 50 seeds, play sizes),
/// with `layout` appended (a `[layout]` table or nothing).
fn relay_16x50(layout: &str) -> Ruleset {
    let src = format!(
        "id = \"relay-16x50\"\nname = \"Relay\"\nsource = \"generated\"\n[board]\npits_per_side = 16\nseeds_per_pit = 50\nplayers = [\"A\", \"B\"]\n[sowing]\ndirection = \"counterclockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\norigin_on_lap = \"skip\"\nmin_seeds = 1\nrelay = \"same\"\n[extra_turn]\non = [\"empty-pit-before-crossing\"]\n[capture]\nkind = \"none\"\nafter_crossing_only = true\ncrossing = \"sown\"\n[grand_slam]\npolicy = \"illegal-unless-only\"\n[feeding]\nmust_feed = true\n[end]\nwhen = [\"either-side-empty\", \"threshold\", \"repetition\"]\nthreshold = 801\nno_legal_move = \"pass\"\nremaining_seeds = \"owner\"\n{layout}"
    );
    sowkit::ruleset::load_str("relay-16x50.toml", &src)
        .unwrap_or_else(|d| panic!("{}", d[0].rendered))
}

#[test]
fn a_board_over_the_3d_area_limit_is_refused_at_once_naming_the_fields() {
    // The largest board a ruleset may give (16 pits a side of 80 mm, 40 mm apart, 200 mm
    // stores) stays under the limit: pits and stores span 15·120 + 80 + 2·(14 + 80) = 2068 mm,
    // + 2·(2.4 + 0.55 + 2 + 3.5 + 4) beads, store label and band: 2092.9 mm; rows
    // 2·(60 + 40 + 2.4 + 0.55 + 3.5 + 2 + 2 + 4) = 228.9 mm: 0.48 m².
    let big = relay_16x50("[layout]\npit_diameter = 80\npit_gap = 40\nstore_length = 200\n");
    let d = Design::new(&big, false).unwrap();
    let (hx, hy) = d.half_size();
    assert!(
        (4.0 * hx * hy - 2092.9 * 228.9).abs() < 0.01 * 2092.9 * 228.9,
        "{hx} {hy}"
    );
    // Child-safe counters of 60 mm grow the pits to 60·(1 + 2/√3) + 4 = 133.3 → 134 mm and the
    // stores to both rows, 2·134 + 12 = 280 mm: 15·146 + 134 + 2·(14 + 134) = 2620 mm,
    // + 2·12.45 = 2644.9 mm; rows 2·(73 + 67 + 2.4 + 0.55 + 3.5 + 2 + 2 + 4) = 308.9 mm:
    // 2644.9 × 308.9 mm = 0.82 m².
    let rs = relay_16x50("[layout]\ncounter_diameter = 60\n");
    let t0 = std::time::Instant::now();
    let e = sowkit::mesh::kit_files(
        &rs,
        true,
        Bed {
            w: 2000.0,
            h: 2000.0,
        },
    )
    .unwrap_err();
    assert!(t0.elapsed().as_secs_f64() < 1.0, "{:?}", t0.elapsed());
    assert!(e.contains("2645 × 309 mm (0.82 m²)"), "{e}");
    // 1.1 million grid points at most 0.7 mm apart: 0.54 m².
    assert!((board::MAX_BOARD_AREA - 1.1e6 * 0.49).abs() < 1.0);
    assert!(e.contains("0.54 m²"), "{e}");
    assert!(
        e.contains("layout.pit_diameter (now 80 mm, grown to 134 mm to hold three 60 mm child-safe counters: a smaller layout.counter_diameter, at least 32, shrinks them)"),
        "{e}"
    );
    assert!(e.contains("board.pits_per_side (now 16)"), "{e}");
}

#[test]
fn a_kit_with_more_seed_triangles_than_the_budget_is_refused_before_the_board_is_made() {
    // 24 mm pits keep the board small; its 1600 seeds (1760 with spares) are what is too much.
    let rs = relay_16x50("[layout]\npit_diameter = 24\npit_gap = 4\nstore_length = 200\n");
    let lens = seed::lens(Design::new(&rs, false).unwrap().counter_d)
        .triangles
        .len();
    assert_eq!(seed::needed(&rs), 1760);
    assert!(1760 * lens > sowkit::mesh::MAX_TRIANGLES, "{lens}");
    let t0 = std::time::Instant::now();
    let e = sowkit::mesh::kit_files(
        &rs,
        false,
        Bed {
            w: 2000.0,
            h: 2000.0,
        },
    )
    .unwrap_err();
    assert!(t0.elapsed().as_secs_f64() < 1.0, "{:?}", t0.elapsed());
    assert!(
        e.contains(&format!("1760 seeds would have {} triangles", 1760 * lens)),
        "{e}"
    );
    assert!(e.contains("board.seeds_per_pit (now 50)"), "{e}");
    // The same 50 seeds a pit as the largest option of a game that starts with 1 (a break-it
    // pass got "use fewer board.seeds_per_pit (now 1)"): the option is what to make smaller.
    let mut opts = rs.clone();
    opts.board.seeds_per_pit = 1;
    opts.board.seeds_per_pit_options = vec![50, 49];
    assert_eq!(seed::needed(&opts), 1760);
    let e = sowkit::mesh::kit_files(
        &opts,
        false,
        Bed {
            w: 2000.0,
            h: 2000.0,
        },
    )
    .unwrap_err();
    assert!(
        e.contains("use a smaller largest board.seeds_per_pit_options (now 50) or board.pits_per_side (now 16)"),
        "{e}"
    );
}

#[test]
fn a_large_board_gets_a_coarser_grid_within_the_grid_point_bound() {
    // Kalah 6×4 with 80 mm pits: 745 × 202 mm, 1.22 million points at 0.35 mm.
    let mut src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/kalah-6x4.toml"),
    )
    .unwrap();
    src = src
        .lines()
        .filter(|l| !l.starts_with("store_length") && !l.starts_with("counter_diameter"))
        .map(|l| {
            if l.starts_with("pit_diameter") {
                "pit_diameter = 80"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let rs = sowkit::ruleset::load_str("k80.toml", &src).unwrap();
    let d = Design::new(&rs, false).unwrap();
    let (hx, hy) = d.half_size();
    let at_step = 4.0 * hx * hy / (board::STEP * board::STEP);
    assert!(at_step > board::MAX_GRID_POINTS, "{at_step}");
    let points = ((2 * d.ix + 1) * (2 * d.iy + 1)) as f64;
    // The steps are rounded to divide the pit pitch and row spacing: within 1% of the bound.
    assert!(points <= 1.01 * board::MAX_GRID_POINTS, "{points}");
    assert!(d.sx > board::STEP && d.sx < board::MAX_STEP, "{}", d.sx);
    // Every bundled board, child-safe too, keeps the fine step (its kit is unchanged).
    for id in [
        "giuthi",
        "kalah-6x3",
        "kalah-6x4",
        "oware-abapa",
        "six-pit-sowing",
    ] {
        for cs in [false, true] {
            let d = Design::new(&load(id), cs).unwrap();
            let (hx, hy) = d.half_size();
            assert!(
                4.0 * hx * hy / (board::STEP * board::STEP) < board::MAX_GRID_POINTS,
                "{id}"
            );
            assert!((d.sx - board::STEP).abs() < 0.01, "{id}: {}", d.sx);
        }
    }
}

/// A board too deep for the bed names what makes it deep, and says how deep it is. Half the
/// depth is the larger of two terms, rounded up to the y grid step (`sy`, the half row spacing
/// over a whole number of steps near [`board::STEP`], larger for a big board):
/// - the stores: `store_length / 2 + 2.4` (outer rim bead) ` + 4` (margin);
/// - the pit rows: `(d + row_gap) / 2 + d / 2` (outer edge of a row) ` + 2.4 + 0.55` (rim
///   bead and its half-width) ` + 3.5` (band inset) ` + 4` (a 4 mm label's cap height)
///   ` + 4` (band margin); labels as short as "S1" keep the 4 mm cap.
///
/// 4 pits of 50 seeds on 12 mm pits (12 mm gap) with a 200 mm store: stores
/// `100 + 6.4 = 106.4`, rows `12 + 6 + 2.95 + 3.5 + 4 + 4 = 32.45`: the stores. `sy = 12 /
/// round(12 / 0.35) = 12 / 34`; `106.4 / sy = 301.5`, so 302 steps: `2 · 302 · 12 / 34 =
/// 213.18` mm.
///
/// Kalah 6×4 at 80 mm pits, 12 mm gap, 178 mm stores (the testers' file): stores `89 + 6.4 =
/// 95.4`, rows `46 + 40 + 2.95 + 3.5 + 4 + 4 = 100.45`: the pits, though the stores are longer
/// than the rows' `2·80 + 12 = 172` mm span (the old message blamed the stores). The block is
/// `2 · 372.45` mm wide (end gap 10 mm, as one store is skipped by the other player: store
/// centre `5·92/2 + 40 + 10 + 40 = 320`, then `40 + 2.95 + 2` to the label, 3.5 cap, 4
/// margin), so `4 · 372.45 · 100.45 = 149,650` mm² over 1.1 M grid points gives a step of
/// `√0.13605 = 0.3689` mm; `sy = 46 / round(46 / 0.3689) = 46 / 125`; `100.45 / sy = 272.96`,
/// 273 steps: `2 · 273 · 46 / 125 = 200.93` mm, 1 mm more than the 200 mm bed. Shrinking the
/// stores to 102 mm leaves the depth as it is.
#[test]
fn too_deep_for_the_bed_names_what_sets_the_depth() {
    let mut rs = load("kalah-6x4");
    rs.board.pits_per_side = 4;
    rs.board.seeds_per_pit = 50;
    rs.layout.pit_diameter = 12.0;
    rs.layout.pit_gap = 12.0;
    rs.layout.store_length = 200.0;
    let d = Design::new(&rs, false).unwrap();
    let depth = 2.0 * d.half_size().1;
    assert!((depth - 2.0 * 302.0 * 12.0 / 34.0).abs() < 1e-9, "{depth}");
    let e = board::seams(&d, Bed::DEFAULT).unwrap_err();
    assert!(
        e.contains("the board is 213 mm deep")
            && e.contains("a smaller layout.store_length (the stores set the depth)"),
        "{e}"
    );
    for store in [178.0, 102.0] {
        let mut rs = load("kalah-6x4");
        rs.layout.pit_diameter = 80.0;
        rs.layout.pit_gap = 12.0;
        rs.layout.store_length = store;
        let d = Design::new(&rs, false).unwrap();
        let depth = 2.0 * d.half_size().1;
        assert!(
            (depth - 2.0 * 273.0 * 46.0 / 125.0).abs() < 1e-9,
            "{store}: {depth}"
        );
        let e = board::seams(&d, Bed::DEFAULT).unwrap_err();
        assert!(
            e.contains("the board is 201 mm deep")
                && e.contains("a smaller layout.pit_diameter or layout.pit_gap"),
            "{store}: {e}"
        );
    }
    let mut rs = load("kalah-6x4");
    rs.layout.pit_diameter = 80.0;
    let e = board::seams(
        &Design::new(&rs, false).unwrap(),
        Bed { w: 150.0, h: 150.0 },
    )
    .unwrap_err();
    assert!(
        e.contains("a smaller layout.pit_diameter or layout.pit_gap"),
        "{e}"
    );
    // Deep enough only turned (132 mm on a 140 × 100 bed), and then too wide: the widest part
    // and its depth are named, the bed fitting it neither way round.
    let rs = load("kalah-6x4");
    let d = Design::new(&rs, false).unwrap();
    let depth = 2.0 * d.half_size().1;
    assert!(depth > 100.0 && depth <= 140.0, "{depth}");
    let e = board::seams(&d, Bed { w: 140.0, h: 100.0 }).unwrap_err();
    assert!(
        e.contains(&format!(
            " × {depth:.0} mm, which fits the 140x100 mm bed neither way round"
        )),
        "{e}"
    );
}
