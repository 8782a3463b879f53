//! Plugs that close a pit of the 3D board for a next round on a shortened board
//! (`[next_round]`; Giuthi's second phase after the Giuthi rules page): the 3D counterpart of
//! the paper kit's closed-pit markers ([`crate::layout::markers`]).
//!
//! A plug fills the pit's spherical bowl ([`board::Design`]'s radius and depth) less a
//! clearance of [`CLEARANCE`] mm, and carries a flat lid [`LID`] mm thick, wider than the pit
//! so it rests on the rim beads and shows the pit is closed. It is written lid down: the flat
//! face lies on the bed and the dome rises from it, so it prints without supports.
//!
//! Like a seed it is a surface of revolution: a profile from the bottom pole to the top pole,
//! turned round the z axis in [`SEGMENTS`] steps, rings joined by quads and each pole by a fan;
//! every edge is shared by two triangles by construction, and the profile is a simple curve
//! with a positive radius between the poles, so the surface does not cross itself.

use super::board::Design;
use super::Mesh;

/// Steps round the axis.
pub const SEGMENTS: usize = 64;
/// Gap between the plug and the bowl's surface, and between the plug's side and the pit's
/// edge, mm (a loose fit for FDM printing).
pub const CLEARANCE: f64 = 0.4;
/// Lid thickness, mm.
pub const LID: f64 = 1.6;
/// How far the lid reaches beyond the pit's edge, mm: past the outer rim bead (2.4 mm out,
/// 0.55 mm half-width).
pub const LID_OVER: f64 = 3.5;
/// Height of the rim beads the lid rests on, above the board's top, mm (0.6 mm beads, plus air).
pub const LID_LIFT: f64 = 0.7;

/// Height of the pit's bowl below the board's top at distance `rho` from the pit's centre, for
/// a spherical cap of radius `r` and depth `h`: negative inside the pit, 0 at its edge.
pub fn bowl_z(r: f64, h: f64, rho: f64) -> f64 {
    let big = (r * r + h * h) / (2.0 * h);
    (big - h) - (big * big - rho.min(r) * rho.min(r)).sqrt()
}

/// The profile (radius, height) in print position (lid down), bottom pole to top pole, mm.
/// In the board's frame, print height `z'` is `LID_LIFT + LID - z`.
fn profile(r: f64, h: f64) -> Vec<(f64, f64)> {
    let top = LID_LIFT + LID;
    let r_lid = r + LID_OVER;
    let r_in = r - CLEARANCE;
    let mut p = vec![
        (0.0, 0.0),
        (r_lid / 2.0, 0.0),
        (r_lid, 0.0),
        (r_lid, LID),
        (r_in, LID),
        (r_in, top),
    ];
    // The dome: the bowl raised by the clearance, from the pit's edge to its centre.
    const STEPS: usize = 16;
    for k in 1..STEPS {
        let rho = r_in * (1.0 - k as f64 / STEPS as f64);
        p.push((rho, top - (bowl_z(r, h, rho) + CLEARANCE).min(0.0)));
    }
    p.push((0.0, top - (bowl_z(r, h, 0.0) + CLEARANCE)));
    p
}

/// One plug for the pits of `d`, its lid centred on the origin, lid face on z = 0.
pub fn plug(d: &Design) -> Mesh {
    Mesh::lathe(&profile(d.r, d.pit_depth), SEGMENTS)
}
