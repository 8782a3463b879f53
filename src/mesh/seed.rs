//! Seeds: a lens-shaped counter (a domed top over a flat-based, rounded underside, so it
//! prints without supports) and plates of them that fit the bed.
//!
//! A seed is a surface of revolution: a profile from the bottom pole to the top pole turned
//! round the z axis in [`SEGMENTS`] steps. Neighbouring rings are joined by quads and each
//! pole by a fan, so every edge is shared by exactly two triangles by construction; the
//! profile's radius is positive between the poles, so no two rings touch (no
//! self-intersection).

use super::{Bed, Mesh};
use crate::ruleset::Ruleset;

/// Steps round the axis.
pub const SEGMENTS: usize = 48;
/// Space between seeds on a plate, and round the plate's edge, mm.
const PLATE_GAP: f64 = 2.0;
const PLATE_MARGIN: f64 = 5.0;

/// Thickness of a seed `diameter` mm across, mm.
pub fn thickness(diameter: f64) -> f64 {
    (diameter * 0.38).max(2.4)
}

/// The profile (radius, height) from the bottom pole to the top pole, mm.
fn profile(diameter: f64) -> Vec<(f64, f64)> {
    let r = diameter / 2.0;
    let t = thickness(diameter);
    let z_rim = 0.35 * t;
    let rb = 0.55 * r;
    let mut p = vec![(0.0, 0.0), (rb / 2.0, 0.0), (rb, 0.0)];
    // Underside: a quarter ellipse from the flat base up to the rim.
    for k in 1..=8 {
        let a = k as f64 / 8.0 * std::f64::consts::FRAC_PI_2;
        p.push((rb + (r - rb) * a.sin(), z_rim * (1.0 - a.cos())));
    }
    // Top: a spherical cap from the rim to the top pole.
    let h = t - z_rim;
    let big = (r * r + h * h) / (2.0 * h);
    for k in 1..12 {
        let rho = r * (1.0 - k as f64 / 12.0);
        p.push((rho, z_rim + (big * big - rho * rho).sqrt() - (big - h)));
    }
    p.push((0.0, t));
    p
}

/// One seed `diameter` mm across, its base centred on the origin.
pub fn lens(diameter: f64) -> Mesh {
    Mesh::lathe(&profile(diameter), SEGMENTS)
}

/// Seeds the game needs: every pit filled with the most seeds a pit may start with.
pub fn game_needs(rs: &Ruleset) -> usize {
    let per = rs
        .board
        .seeds_per_pit_options
        .iter()
        .copied()
        .chain([rs.board.seeds_per_pit])
        .max()
        .unwrap_or(0) as usize;
    2 * rs.board.pits_per_side * per
}

/// Seeds to print: what the game needs plus spares as the paper counters have them
/// ([`crate::layout::counters::spares`]: a tenth, rounded up, at least two).
pub fn needed(rs: &Ruleset) -> usize {
    let need = game_needs(rs);
    need + crate::layout::counters::spares(u32::try_from(need).unwrap_or(u32::MAX)) as usize
}

/// A plate of seeds.
#[derive(Clone, Debug)]
pub struct Plate {
    /// All its seeds, one shell each, on the bed from the origin.
    pub mesh: Mesh,
    /// How many seeds it holds.
    pub count: usize,
}

/// Plates holding `count` seeds `diameter` mm across: as few plates as fit `bed`, the seeds
/// shared evenly between them (plates differ by one seed at most), in rows from the origin.
/// Errors: not even one seed fits.
pub fn plates(diameter: f64, count: usize, bed: Bed) -> Result<Vec<Plate>, String> {
    let pitch = diameter + PLATE_GAP;
    let per_row = ((bed.w - 2.0 * PLATE_MARGIN + PLATE_GAP) / pitch)
        .floor()
        .max(0.0) as usize;
    let rows = ((bed.h - 2.0 * PLATE_MARGIN + PLATE_GAP) / pitch)
        .floor()
        .max(0.0) as usize;
    let per_plate = per_row * rows;
    if per_plate == 0 {
        return Err(format!(
            "a {diameter} mm seed does not fit the {}x{} mm bed",
            bed.w, bed.h
        ));
    }
    let one = lens(diameter);
    // As few plates as the bed allows, the seeds shared as evenly as whole seeds can be (53
    // seeds at 25 a plate: 18, 18 and 17, not 25, 25 and 3): each plate prints in about the
    // same time.
    let n_plates = count.div_ceil(per_plate);
    let mut out = Vec::new();
    for i in 0..n_plates {
        let here = count / n_plates + usize::from(i < count % n_plates);
        // Sized once: growing by doubling held up to twice a large plate's mesh at a time.
        let mut mesh = Mesh {
            vertices: Vec::with_capacity(here * one.vertices.len()),
            triangles: Vec::with_capacity(here * one.triangles.len()),
        };
        for k in 0..here {
            let mut s = one.clone();
            s.translate([
                (k % per_row) as f64 * pitch + diameter / 2.0,
                (k / per_row) as f64 * pitch + diameter / 2.0,
                0.0,
            ]);
            mesh.append(&s);
        }
        out.push(Plate { mesh, count: here });
    }
    Ok(out)
}
