//! Preview pictures of a mesh: a small software rasteriser (orthographic, depth buffer,
//! Lambert shading) drawing the mesh's own triangles from above, from the front-left at a
//! slant and from below, side by side, written as an 8-bit grey PNG.

use super::{cross, norm, Mesh};
use std::io::Write;

/// Width of each of the two views, pixels.
const VIEW_W: usize = 560;

/// Renders the top, slanted and bottom views of `m` side by side as PNG bytes.
pub fn png(m: &Mesh) -> Vec<u8> {
    let (w, h, px) = render(m);
    encode_png(w, h, &px)
}

/// Renders the three views: (width, height, grey pixels row by row).
pub fn render(m: &Mesh) -> (usize, usize, Vec<u8>) {
    // The three views in parallel (each is independent of the others).
    let (a, (b, c)) = rayon::join(
        || view(m, 0.0, 0.0),
        || rayon::join(|| view(m, -0.5, 1.0), || view(m, 0.0, std::f64::consts::PI)),
    );
    let views = [a, b, c];
    let h = views.iter().map(|v| v.1).max().unwrap_or(10);
    let w: usize = views.iter().map(|v| v.0).sum();
    let mut px = vec![255u8; w * h];
    let mut off = 0;
    for (vw, vh, p) in &views {
        for y in 0..*vh {
            px[y * w + off..y * w + off + vw].copy_from_slice(&p[y * vw..(y + 1) * vw]);
        }
        off += vw;
    }
    (w, h, px)
}

/// One view: turn the mesh `yaw` radians about z, then tilt it `tilt` radians about x
/// (0, 0: seen from straight above), project orthographically, fit to [`VIEW_W`] pixels.
fn view(m: &Mesh, yaw: f64, tilt: f64) -> (usize, usize, Vec<u8>) {
    let (cy, sy) = (yaw.cos(), yaw.sin());
    let (ct, st) = (tilt.cos(), tilt.sin());
    let tf = |p: [f64; 3]| {
        let (x, y, z) = (cy * p[0] - sy * p[1], sy * p[0] + cy * p[1], p[2]);
        // Tilt: the far side (y) rises on the screen, z stays up.
        (x, ct * y + st * z, -st * y + ct * z)
    };
    // Each vertex turned where it is used, not kept: a list of them took 23 MB a view for a
    // seed plate of 1.9 million triangles, and the three views run side by side (the same
    // numbers either way, so the same picture).
    if m.vertices.is_empty() {
        return (VIEW_W, 10, vec![255; VIEW_W * 10]);
    }
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for p in m.vertices.iter().map(|&p| tf(p)) {
        x0 = x0.min(p.0);
        x1 = x1.max(p.0);
        y0 = y0.min(p.1);
        y1 = y1.max(p.1);
    }
    let margin = 8.0;
    let scale = (VIEW_W as f64 - 2.0 * margin) / (x1 - x0).max(1e-9);
    let h = (((y1 - y0) * scale + 2.0 * margin).ceil() as usize).clamp(10, 4 * VIEW_W);
    let w = VIEW_W;
    let mut depth = vec![f64::NEG_INFINITY; w * h];
    let mut px = vec![255u8; w * h];
    let light = {
        let l = [-0.4, 0.5, 0.77];
        let n = norm(l);
        l.map(|v| v / n)
    };
    for t in &m.triangles {
        let v = t.map(|i| tf(m.vertices[i as usize]));
        let a = [v[0].0, v[0].1, v[0].2];
        let b = [v[1].0, v[1].1, v[1].2];
        let c = [v[2].0, v[2].1, v[2].2];
        let n = cross(
            [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
            [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        );
        if n[2] <= 0.0 {
            continue; // faces away
        }
        let ln = norm(n);
        let lum =
            0.25 + 0.75 * ((n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / ln).max(0.0);
        let shade = (lum * 235.0).round().clamp(0.0, 255.0) as u8;
        let sp = |p: [f64; 3]| {
            (
                (p[0] - x0) * scale + margin,
                (y1 - p[1]) * scale + margin,
                p[2],
            )
        };
        let (pa, pb, pc) = (sp(a), sp(b), sp(c));
        // Only pixels whose centre (x + 0.5) lies within the triangle's box can pass the test
        // below; 1e-5 px spare covers its 1e-9 tolerance (1e-9 of a triangle's height, which
        // is under 4 · VIEW_W pixels).
        let lo = |v: f64| (v - 0.5 - 1e-5).ceil().max(0.0) as usize;
        let hi =
            |v: f64, n: usize| ((v - 0.5 + 1e-5).floor().max(-1.0) as isize).min(n as isize - 1);
        let minx = lo(pa.0.min(pb.0).min(pc.0));
        let miny = lo(pa.1.min(pb.1).min(pc.1));
        let (maxx, maxy) = (
            hi(pa.0.max(pb.0).max(pc.0), w),
            hi(pa.1.max(pb.1).max(pc.1), h),
        );
        if maxx < minx as isize || maxy < miny as isize {
            continue;
        }
        let (maxx, maxy) = (maxx as usize, maxy as usize);
        let area = (pb.0 - pa.0) * (pc.1 - pa.1) - (pc.0 - pa.0) * (pb.1 - pa.1);
        if area.abs() < 1e-12 {
            continue;
        }
        for y in miny..=maxy {
            for x in minx..=maxx {
                let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
                let w0 = ((pb.0 - fx) * (pc.1 - fy) - (pc.0 - fx) * (pb.1 - fy)) / area;
                let w1 = ((pc.0 - fx) * (pa.1 - fy) - (pa.0 - fx) * (pc.1 - fy)) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < -1e-9 || w1 < -1e-9 || w2 < -1e-9 {
                    continue;
                }
                let z = w0 * pa.2 + w1 * pb.2 + w2 * pc.2;
                let k = y * w + x;
                if z > depth[k] {
                    depth[k] = z;
                    px[k] = shade;
                }
            }
        }
    }
    (w, h, px)
}

/// CRC-32 (ISO-HDLC) as PNG chunks use it.
fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xffff_ffffu32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// An 8-bit greyscale PNG of `w × h` pixels.
pub fn encode_png(w: usize, h: usize, px: &[u8]) -> Vec<u8> {
    let mut raw = Vec::with_capacity((w + 1) * h);
    for row in px.chunks(w) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = z.write_all(&raw);
    let data = z.finish().unwrap_or_default();
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], body: &[u8]| {
        out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        let mut c = kind.to_vec();
        c.extend_from_slice(body);
        out.extend_from_slice(&c);
        out.extend_from_slice(&crc32(&c).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &data);
    chunk(b"IEND", &[]);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc_matches_the_png_check_value() {
        // The standard CRC-32 check value of "123456789".
        assert_eq!(super::crc32(b"123456789"), 0xcbf4_3926);
    }
}
