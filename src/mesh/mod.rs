//! 3D-printable kit: the board as closed, manifold triangle meshes in millimetres, split into
//! parts that fit a printer bed, with joiners, seeds and preview pictures.
//!
//! Every solid is built so that it is closed and manifold by construction (see [`grid`] for
//! the board and joiners, [`seed`] for the counters) and is checked again by [`Mesh::check`]
//! before it is written. Binary STL is written by [`Mesh::to_stl`] (84 bytes of header and
//! count, then 50 bytes a triangle, little-endian `f32`).

pub mod board;
pub mod grid;
pub mod plug;
pub mod preview;
pub mod seed;

use crate::kit::File;
use crate::ruleset::Ruleset;
use rayon::prelude::*;
use std::collections::HashMap;

/// Most triangles in all the STL files of one 3D kit together (board parts, joiner, seeds and
/// their plates, plug): 125 MB of binary STL. With the board's grid bound
/// ([`board::MAX_GRID_POINTS`]) this keeps `build --3d` of one ruleset under 256 MB; the
/// largest bundled kit (giuthi with `--child-safe`) has 0.68 million (2.41 million before its
/// board's surfaces were merged into squares, [`grid::solid`]). A kit over it is refused,
/// naming the field to change.
pub const MAX_TRIANGLES: usize = 2_500_000;

/// An indexed triangle mesh: vertex positions (mm) and triangles of vertex indices,
/// counter-clockwise seen from outside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions, millimetres.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles: three indices into `vertices`, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

/// What [`Mesh::check`] found on a sound mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Number of triangles.
    pub triangles: usize,
    /// Number of vertices used.
    pub vertices: usize,
    /// Number of connected shells.
    pub shells: usize,
    /// Enclosed volume, mm³ (positive: normals point outward).
    pub volume: f64,
}

impl Mesh {
    /// Adds a vertex and returns its index.
    pub fn vertex(&mut self, p: [f64; 3]) -> u32 {
        self.vertices.push(p);
        (self.vertices.len() - 1) as u32
    }

    /// A solid of revolution round the z axis: `profile` is a list of (radius, z) points in
    /// millimetres from the bottom pole (radius 0) to the top pole (radius 0), turned in
    /// `segments` steps. Neighbouring rings are joined by quads (two triangles) and each pole by a
    /// fan, all facing outward when the profile runs bottom to top. Needs at least 3 points
    /// (two poles and one ring); the result is closed and manifold.
    pub fn lathe(profile: &[(f64, f64)], segments: usize) -> Mesh {
        assert!(
            profile.len() >= 3 && segments >= 3,
            "a lathe needs a ring and two poles"
        );
        let mut m = Mesh::default();
        let bottom = m.vertex([0.0, 0.0, profile[0].1]);
        let rings: Vec<Vec<u32>> = profile[1..profile.len() - 1]
            .iter()
            .map(|&(rho, z)| {
                (0..segments)
                    .map(|k| {
                        let a = k as f64 / segments as f64 * std::f64::consts::TAU;
                        m.vertex([rho * a.cos(), rho * a.sin(), z])
                    })
                    .collect()
            })
            .collect();
        let top = m.vertex([0.0, 0.0, profile[profile.len() - 1].1]);
        for k in 0..segments {
            let k1 = (k + 1) % segments;
            // Bottom fan, facing down.
            m.triangles.push([bottom, rings[0][k1], rings[0][k]]);
            for w in rings.windows(2) {
                let (lo, hi) = (&w[0], &w[1]);
                m.triangles.push([lo[k], lo[k1], hi[k1]]);
                m.triangles.push([lo[k], hi[k1], hi[k]]);
            }
            let last = &rings[rings.len() - 1];
            m.triangles.push([top, last[k], last[k1]]);
        }
        m
    }

    /// Appends another mesh (its own shells, untouched).
    pub fn append(&mut self, other: &Mesh) {
        let off = self.vertices.len() as u32;
        self.vertices.extend_from_slice(&other.vertices);
        self.triangles.extend(
            other
                .triangles
                .iter()
                .map(|t| [t[0] + off, t[1] + off, t[2] + off]),
        );
    }

    /// Moves every vertex by `d` mm.
    pub fn translate(&mut self, d: [f64; 3]) {
        for v in &mut self.vertices {
            for k in 0..3 {
                v[k] += d[k];
            }
        }
    }

    /// Turns the mesh a quarter turn counter-clockwise about the z axis (keeps orientation).
    pub fn rotate_quarter(&mut self) {
        for v in &mut self.vertices {
            *v = [-v[1], v[0], v[2]];
        }
    }

    /// Smallest and largest coordinates, mm (zeros for an empty mesh).
    pub fn bbox(&self) -> ([f64; 3], [f64; 3]) {
        if self.vertices.is_empty() {
            return ([0.0; 3], [0.0; 3]);
        }
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for v in &self.vertices {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        (lo, hi)
    }

    /// Moves the mesh so its bounding box starts at the origin (sits on the bed at x, y ≥ 0).
    pub fn to_origin(&mut self) {
        let (lo, _) = self.bbox();
        self.translate([-lo[0], -lo[1], -lo[2]]);
    }

    /// Signed enclosed volume, mm³ (divergence theorem; positive when normals point out).
    pub fn signed_volume(&self) -> f64 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize]);
                dot(a, cross(b, c)) / 6.0
            })
            .sum()
    }

    /// Checks that the mesh is a closed, consistently oriented 2-manifold (every directed edge
    /// appears once and its reverse once, so every edge is shared by exactly two triangles
    /// wound the same way), has no zero-area triangle and encloses a positive volume.
    /// Errors: a description of the first defect found.
    pub fn check(&self) -> Result<Stats, String> {
        if self.triangles.is_empty() {
            return Err("the mesh has no triangles".into());
        }
        if self.vertices.len() > 1 << 31 {
            return Err(format!(
                "the mesh has {} vertices, more than the 2^31 the edge check can index",
                self.vertices.len()
            ));
        }
        // Each directed edge p→q as its undirected key (smaller index, larger index) and one
        // bit for its direction; sorted, every key must come exactly twice, once each way.
        let mut edges: Vec<u64> = Vec::with_capacity(self.triangles.len() * 3);
        for (n, t) in self.triangles.iter().enumerate() {
            if t.iter().any(|&i| i as usize >= self.vertices.len()) {
                return Err(format!("triangle {n} refers to a missing vertex"));
            }
            if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                return Err(format!("triangle {n} repeats a vertex"));
            }
            let [a, b, c] = t.map(|i| self.vertices[i as usize]);
            let area2 = norm(cross(sub(b, a), sub(c, a)));
            if area2 < 1e-9 {
                return Err(format!("triangle {n} has no area"));
            }
            for k in 0..3 {
                let (p, q) = (t[k], t[(k + 1) % 3]);
                let (lo, hi, dir) = if p < q { (p, q, 0) } else { (q, p, 1) };
                edges.push((u64::from(lo) << 33) | (u64::from(hi) << 1) | dir);
            }
        }
        edges.par_sort_unstable();
        let directed = |e: u64| {
            let (lo, hi) = (e >> 33, (e >> 1) & 0xffff_ffff);
            if e & 1 == 0 {
                (lo, hi)
            } else {
                (hi, lo)
            }
        };
        let mut k = 0;
        while k < edges.len() {
            let e = edges[k];
            let same = |f: u64| f >> 1 == e >> 1;
            if k + 1 < edges.len() && edges[k + 1] == e {
                let (p, q) = directed(e);
                return Err(format!(
                    "edge {p}→{q} is used twice in the same direction (inconsistent winding or more than two triangles)"
                ));
            }
            if k + 1 >= edges.len() || !same(edges[k + 1]) {
                let (p, q) = directed(e);
                return Err(format!(
                    "edge {p}→{q} has no triangle on its other side (the mesh is open)"
                ));
            }
            // e and edges[k + 1] are the two directions; a third use repeats one of them.
            if k + 2 < edges.len() && same(edges[k + 2]) {
                let (p, q) = directed(edges[k + 2]);
                return Err(format!(
                    "edge {p}→{q} is used twice in the same direction (inconsistent winding or more than two triangles)"
                ));
            }
            k += 2;
        }
        // Shells: union-find over triangle vertices.
        let mut parent: Vec<u32> = (0..self.vertices.len() as u32).collect();
        fn find(p: &mut [u32], mut x: u32) -> u32 {
            while p[x as usize] != x {
                p[x as usize] = p[p[x as usize] as usize];
                x = p[x as usize];
            }
            x
        }
        let mut used = vec![false; self.vertices.len()];
        for t in &self.triangles {
            for &i in t {
                used[i as usize] = true;
            }
            let a = find(&mut parent, t[0]);
            for &i in &t[1..] {
                let b = find(&mut parent, i);
                parent[b as usize] = a;
            }
        }
        let mut roots = std::collections::BTreeSet::new();
        for (i, u) in used.iter().enumerate() {
            if *u {
                roots.insert(find(&mut parent, i as u32));
            }
        }
        let volume = self.signed_volume();
        if volume <= 0.0 {
            return Err(format!(
                "the enclosed volume is {volume:.1} mm³: the normals point inward"
            ));
        }
        Ok(Stats {
            triangles: self.triangles.len(),
            vertices: used.iter().filter(|u| **u).count(),
            shells: roots.len(),
            volume,
        })
    }

    /// Binary STL: an 80-byte header naming `solid`, the triangle count, then each triangle's
    /// unit normal and three corners as little-endian `f32` millimetres, and a zero attribute.
    pub fn to_stl(&self, solid: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(84 + 50 * self.triangles.len());
        let mut header = format!("sowkit {solid} (binary STL, millimetres)").into_bytes();
        header.resize(80, b' ');
        out.extend_from_slice(&header);
        out.extend_from_slice(&(self.triangles.len() as u32).to_le_bytes());
        // Each vertex rounded to f32 once; the records are filled in parallel in place.
        let v32: Vec<[f32; 3]> = self
            .vertices
            .par_iter()
            .map(|p| p.map(|x| x as f32))
            .collect();
        out.resize(84 + 50 * self.triangles.len(), 0);
        out[84..]
            .par_chunks_mut(50)
            .zip(self.triangles.par_iter())
            .for_each(|(rec, t)| {
                let [pa, pb, pc] = t.map(|i| v32[i as usize]);
                // The normal is computed from the f32 corners as written, so readers agree
                // with it.
                let [a, b, c] = [pa, pb, pc].map(|p| p.map(f64::from));
                let n = cross(sub(b, a), sub(c, a));
                let l = norm(n).max(1e-30);
                let mut o = 0;
                let mut put = |x: f32| {
                    rec[o..o + 4].copy_from_slice(&x.to_le_bytes());
                    o += 4;
                };
                for x in n {
                    put((x / l) as f32);
                }
                for p in [pa, pb, pc] {
                    for x in p {
                        put(x);
                    }
                }
                // The 2-byte attribute stays zero.
            });
        out
    }

    /// Reads a binary STL, welding corners with identical `f32` coordinates into one vertex.
    /// Errors: the data is not binary STL of the size its count says.
    pub fn from_stl(bytes: &[u8]) -> Result<Mesh, String> {
        if bytes.len() < 84 {
            return Err("shorter than an STL header".into());
        }
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if bytes.len() != 84 + 50 * n {
            return Err(format!(
                "{} bytes, but {n} triangles need {}",
                bytes.len(),
                84 + 50 * n
            ));
        }
        let mut mesh = Mesh::default();
        let mut ids: HashMap<[u32; 3], u32> = HashMap::new();
        for k in 0..n {
            let rec = &bytes[84 + 50 * k..84 + 50 * (k + 1)];
            let mut t = [0u32; 3];
            for (c, slot) in t.iter_mut().enumerate() {
                let mut key = [0u32; 3];
                let mut p = [0.0; 3];
                for a in 0..3 {
                    let o = 12 + 12 * c + 4 * a;
                    let bits = u32::from_le_bytes([rec[o], rec[o + 1], rec[o + 2], rec[o + 3]]);
                    key[a] = bits;
                    p[a] = f64::from(f32::from_bits(bits));
                }
                *slot = *ids.entry(key).or_insert_with(|| {
                    mesh.vertices.push(p);
                    (mesh.vertices.len() - 1) as u32
                });
            }
            mesh.triangles.push(t);
        }
        Ok(mesh)
    }
}

pub(crate) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(crate) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// A printer bed, millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bed {
    /// Width, mm.
    pub w: f64,
    /// Depth, mm.
    pub h: f64,
}

impl Bed {
    /// The default bed, 200 × 200 mm.
    pub const DEFAULT: Bed = Bed { w: 200.0, h: 200.0 };

    /// Parses `WxH` in millimetres (`200x200`, `220X220`, `250×210`, `220.5x220mm`) or in
    /// inches (`9x9in`, `8.5x8.5IN`, as `--paper` takes them; rounded to 0.01 mm), each side in
    /// plain digits with at most two decimals. Errors: the text is not two such numbers of 60 to
    /// 2000 mm (an exponent, a sign or a bare point is refused; another unit, such as `cm`, is
    /// named as one sowkit does not take).
    pub fn parse(s: &str) -> Result<Bed, String> {
        let t = s.trim().replace(['X', '×'], "x");
        let lower = t.to_ascii_lowercase();
        let (t, unit) = match crate::paper::size_unit(&lower, true) {
            crate::paper::SizeUnit::Given(n, unit) => (n, unit),
            crate::paper::SizeUnit::Other(letters) => {
                let given = &t[t.len() - letters..];
                return Err(format!(
                    "--bed {s:?}: {given} is not a unit sowkit takes; use mm (the default) or in, such as 200x200 or 9x9in"
                ));
            }
            // No unit: millimetres.
            crate::paper::SizeUnit::None => (lower.as_str(), 1.0),
        };
        let mut it = t.split('x');
        let (Some(a), Some(b), None) = (it.next(), it.next(), it.next()) else {
            return Err(format!(
                "--bed {s:?}: expected the bed size as WIDTHxDEPTH in millimetres (or inches with in), e.g. 200x200 or 9x9in"
            ));
        };
        // Both sides read before either is judged by its size: "9x9in2" was "9 mm is outside".
        let read = |v: &str| -> Result<f64, String> {
            let v = v.trim();
            Some(v)
                .filter(|v| crate::paper::plain_decimal(v))
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| {
                    if v.ends_with(|c: char| c.is_ascii_alphabetic()) {
                        format!(
                            "--bed {s:?}: {v:?} is not a number: write the unit once, at the end (e.g. 9x9in or 200x200mm)"
                        )
                    } else {
                        format!(
                            "--bed {s:?}: {v:?} is not a number in digits with at most two decimals (e.g. 200x200, 220.5x220 or 9x9in)"
                        )
                    }
                })
        };
        let (xa, xb) = (read(a)?, read(b)?);
        // A side out of range is quoted as typed ("99999999999999999999", not its float's
        // "100000000000000000000").
        let num = |x: f64, typed: &str| -> Result<f64, String> {
            let mm = (x * unit * 100.0).round() / 100.0;
            if !(60.0..=2000.0).contains(&mm) {
                let typed = typed.trim();
                let said = if unit == 1.0 {
                    format!("{typed} mm")
                } else if mm.abs() < 1e9 {
                    format!("{typed} in ({mm} mm)")
                } else {
                    format!("{typed} in")
                };
                return Err(format!(
                    "--bed {s:?}: {said} is outside 60 to 2000 mm, the beds sowkit plans for"
                ));
            }
            Ok(mm)
        };
        Ok(Bed {
            w: num(xa, a)?,
            h: num(xb, b)?,
        })
    }

    /// Whether a footprint of `w` × `h` mm fits, as is or turned a quarter.
    pub fn fits(&self, w: f64, h: f64) -> bool {
        (w <= self.w && h <= self.h) || (w <= self.h && h <= self.w)
    }
}

/// Every 3D file of a ruleset's kit: `board-N.stl` parts, `joiner.stl`, `seed.stl`,
/// `seeds-N.stl` plates, `plug.stl` (and `plug.png`) when a next round may shorten the board, a `board-N.png`/`seeds-N.png` preview of each, and `3d.txt` (what to
/// print and how the parts join). Sizes are the paper board's ([`crate::geometry::BoardGeometry`]
/// with `child_safe` as for the paper kit). Errors: the board or a part cannot fit `bed`
/// (message says which measurement), the board is over [`board::MAX_BOARD_AREA`] or the kit
/// over [`MAX_TRIANGLES`] (message names the field to change), or a mesh fails its check.
///
/// `3d.txt` and the engraved labels are in the ruleset's own language; see [`kit_files_in`]
/// for another.
pub fn kit_files(rs: &Ruleset, child_safe: bool, bed: Bed) -> Result<Vec<File>, String> {
    kit_files_in(rs, child_safe, bed, None)
}

/// What to make smaller for fewer printed seeds: the field giving the most seeds a pit may
/// start with ([`seed::game_needs`]), "fewer board.seeds_per_pit (now 4)", or, when an option
/// is larger, "a smaller largest board.seeds_per_pit_options (now 50)" (a break-it pass got
/// "fewer board.seeds_per_pit (now 1)", already the least there is).
fn fewer_seeds(rs: &Ruleset) -> String {
    let b = &rs.board;
    match b.seeds_per_pit_options.iter().copied().max() {
        Some(most) if most > b.seeds_per_pit => {
            format!("a smaller largest board.seeds_per_pit_options (now {most})")
        }
        _ => format!("fewer board.seeds_per_pit (now {})", b.seeds_per_pit),
    }
}

/// As [`kit_files`], with `3d.txt` and the board's engraved pit and store labels in `lang`
/// (`None`: the ruleset's own `lang`), the notes worded from the catalogue's `three_d` table. Errors: also no catalogue or no ruleset text in that language.
pub fn kit_files_in(
    rs: &Ruleset,
    child_safe: bool,
    bed: Bed,
    lang: Option<&str>,
) -> Result<Vec<File>, String> {
    let opts = crate::layout::KitOptions {
        lang: lang.map(str::to_string),
        ..crate::layout::KitOptions::default()
    };
    let (lrs, ph) = opts.localise(rs)?;
    let dec = ph.get("number.decimal");
    let d1 = |v: f64| format!("{v:.1}").replace('.', &dec);
    // The board engraves its pit and store labels in the kit's language, as the paper board
    // prints them (the ruleset's own words only when no other language is asked for).
    let design = board::Design::new(&lrs, child_safe)?;
    let counter = design.counter_d;
    // The seeds' share of the triangle budget is known before any work: refuse at once.
    let need = seed::needed(rs);
    let seed_tris = need * seed::lens(counter).triangles.len();
    if seed_tris > MAX_TRIANGLES {
        return Err(format!(
            "the 3D kit's {need} seeds would have {seed_tris} triangles, more than the {MAX_TRIANGLES} a 3D kit may have in all (limit on all its STL files together): use {} or board.pits_per_side (now {})",
            fewer_seeds(rs), rs.board.pits_per_side
        ));
    }
    let parts = board::parts(&design, bed)?;
    let board_tris: usize = parts.iter().map(|p| p.mesh.triangles.len()).sum();
    if board_tris + seed_tris > MAX_TRIANGLES {
        return Err(format!(
            "the 3D kit would have {} triangles (board {board_tris}, {need} seeds {seed_tris}), more than the {MAX_TRIANGLES} a 3D kit may have in all (limit on all its STL files together): use {} or a smaller layout.pit_diameter (now {} mm)",
            board_tris + seed_tris,
            fewer_seeds(rs),
            rs.layout.pit_diameter
        ));
    }
    let mut files = Vec::new();
    let mut notes = String::new();
    notes.push_str(&ph.fmt("three_d.head", &[("name", &lrs.name)]));
    notes.push('\n');
    notes.push_str(&ph.fmt("three_d.bed", &[("w", &ph.mm(bed.w)), ("h", &ph.mm(bed.h))]));
    notes.push_str("\n\n");
    // Each part's check, STL and preview in parallel; the notes and files in part order.
    /// A part's check, STL bytes and preview PNG bytes.
    type Made = (Stats, Vec<u8>, Vec<u8>);
    let done: Vec<Result<Made, String>> = parts
        .par_iter()
        .enumerate()
        .map(|(i, p)| {
            let st = p
                .mesh
                .check()
                .map_err(|e| format!("board part {}: {e}", i + 1))?;
            let (stl, png) = rayon::join(
                || p.mesh.to_stl(&format!("{} board part {}", rs.id, i + 1)),
                || preview::png(&p.mesh),
            );
            Ok((st, stl, png))
        })
        .collect();
    // The side whose row is nearer the front (lower y): the one the parts are seen from.
    let n = design.n;
    let mean_y = |side: usize| {
        design.pits[side * n..(side + 1) * n]
            .iter()
            .map(|p| p.1)
            .sum::<f64>()
    };
    let near_side = &lrs.board.players[if mean_y(0) <= mean_y(1) { 0 } else { 1 }];
    for (i, (p, d)) in parts.iter().zip(done).enumerate() {
        let (st, stl, png) = d?;
        let (lo, hi) = p.mesh.bbox();
        notes.push_str(&ph.fmt(
            "three_d.part",
            &[
                ("n", &(i + 1).to_string()),
                ("x", &d1(hi[0] - lo[0])),
                ("y", &d1(hi[1] - lo[1])),
                ("z", &d1(hi[2] - lo[2])),
                ("tri", &st.triangles.to_string()),
            ],
        ));
        if p.turned {
            notes.push_str(&ph.get("three_d.turned"));
        }
        // Where the part goes: parts are in order of x, left to right as seen from the side
        // whose row of pits is nearer (lower y in the board's coordinates).
        if parts.len() > 1 {
            if i == 0 {
                notes.push_str(&ph.fmt("three_d.place_left", &[("a", near_side)]));
            } else if i + 1 == parts.len() {
                notes.push_str(&ph.get("three_d.place_right"));
            } else {
                notes.push_str(&ph.fmt(
                    "three_d.place_between",
                    &[("p", &i.to_string()), ("q", &(i + 2).to_string())],
                ));
            }
        }
        notes.push('\n');
        files.push(File {
            name: format!("board-{}.stl", i + 1),
            bytes: stl,
        });
        files.push(File {
            name: format!("board-{}.png", i + 1),
            bytes: png,
        });
    }
    // The board's meshes are written; the seed plates come next, so they are not held beside
    // them (a 16-pit board of 27 seeds went over 256 MB: break-it pass).
    let joints = parts.len().saturating_sub(1);
    drop(parts);
    if joints > 0 {
        let mut j = board::joiner(&design);
        j.to_origin();
        j.check().map_err(|e| format!("joiner: {e}"))?;
        notes.push_str(&ph.fmt(
            "three_d.joiner",
            &[
                ("count", &(2 * joints).to_string()),
                ("joints", &joints.to_string()),
            ],
        ));
        notes.push('\n');
        files.push(File {
            name: "joiner.stl".into(),
            bytes: j.to_stl(&format!("{} joiner", rs.id)),
        });
    }
    let mut s = seed::lens(counter);
    s.to_origin();
    s.check().map_err(|e| format!("seed: {e}"))?;
    files.push(File {
        name: "seed.stl".into(),
        bytes: s.to_stl(&format!("{} seed", rs.id)),
    });
    let plates = seed::plates(counter, need, bed)?;
    notes.push_str(&ph.fmt("three_d.seed", &[("d", &ph.mm(counter))]));
    notes.push('\n');
    let all_seeds: usize = plates.iter().map(|p| p.count).sum();
    // Each plate's mesh is dropped once its STL and preview are made.
    for (i, pl) in plates.into_iter().enumerate() {
        pl.mesh
            .check()
            .map_err(|e| format!("seed plate {}: {e}", i + 1))?;
        notes.push_str(&ph.fmt(
            "three_d.plate",
            &[
                ("n", &(i + 1).to_string()),
                ("count", &pl.count.to_string()),
            ],
        ));
        notes.push('\n');
        files.push(File {
            name: format!("seeds-{}.stl", i + 1),
            bytes: pl.mesh.to_stl(&format!("{} seeds plate {}", rs.id, i + 1)),
        });
        files.push(File {
            name: format!("seeds-{}.png", i + 1),
            bytes: preview::png(&pl.mesh),
        });
    }
    let plugs = crate::layout::markers::count(rs);
    if plugs > 0 {
        let pl = plug::plug(&design);
        pl.check().map_err(|e| format!("plug: {e}"))?;
        notes.push_str(&ph.fmt("three_d.plug", &[("count", &plugs.to_string())]));
        notes.push('\n');
        files.push(File {
            name: "plug.stl".into(),
            bytes: pl.to_stl(&format!("{} plug", rs.id)),
        });
        files.push(File {
            name: "plug.png".into(),
            bytes: preview::png(&pl),
        });
    }
    notes.push('\n');
    for line in [
        ph.fmt(
            "three_d.total",
            &[
                ("all", &all_seeds.to_string()),
                ("need", &seed::game_needs(rs).to_string()),
            ],
        ),
        ph.get("three_d.colour"),
        ph.fmt(
            "three_d.sides",
            &[
                ("a", &lrs.board.players[1 - design.ring_side.min(1)]),
                ("b", &lrs.board.players[design.ring_side.min(1)]),
            ],
        ),
    ] {
        notes.push_str(&line);
        notes.push('\n');
    }
    ph.check()?;
    files.push(File {
        name: "3d.txt".into(),
        bytes: notes.into_bytes(),
    });
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tetrahedron with corners at the origin and on the three axes, wound outward.
    fn tetra() -> Mesh {
        Mesh {
            vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        }
    }

    #[test]
    fn a_closed_tetrahedron_passes_with_its_volume() {
        let st = tetra().check().unwrap();
        assert_eq!((st.triangles, st.vertices, st.shells), (4, 4, 1));
        // Volume of the unit right tetrahedron: 1/6 mm³.
        assert!((st.volume - 1.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn a_missing_face_is_an_open_edge() {
        let mut m = tetra();
        m.triangles.pop(); // face 1-2-3: its edges 1→2, 2→3, 3→1 lose their partners
        let e = m.check().unwrap_err();
        assert!(e.contains("has no triangle on its other side"), "{e}");
    }

    #[test]
    fn a_flipped_face_uses_edges_twice_the_same_way() {
        let mut m = tetra();
        m.triangles[3] = [1, 3, 2];
        let e = m.check().unwrap_err();
        assert!(e.contains("used twice in the same direction"), "{e}");
    }

    #[test]
    fn a_third_face_on_an_edge_is_refused() {
        let mut m = tetra();
        // A second tetrahedron sharing edge 0-1 (wound outward), so 0→1 or 1→0 is used twice.
        m.vertices.push([0.5, -1.0, 0.0]);
        m.vertices.push([0.5, -0.5, -1.0]);
        m.triangles
            .extend([[0, 1, 4], [0, 4, 5], [1, 5, 4], [0, 5, 1]]);
        let e = m.check().unwrap_err();
        assert!(e.contains("used twice in the same direction"), "{e}");
    }
}
