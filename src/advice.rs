//! Advice for a kit whose board cannot be laid out (it cannot be tiled, or does not fit with
//! `--fit`): which size in the ruleset file to change, where it is (file and line), and to what
//! value. Every change offered has been tried: the file is edited in memory, loaded again (so
//! sizes that follow from the changed one, such as a default store length, follow too) and the
//! whole kit and host key laid out on the same paper with the same options.
//!
//! Work is bounded: at most [`TRIES_PER_SIZE`] values of each size are laid out (nearest to
//! the ruleset's own value first), the board sheets alone, then the whole kit for a value
//! whose board lays out.

use crate::layout::{self, KitOptions, Paper};
use crate::ruleset::{self, Ruleset};
use std::ops::Range;

/// Most values of one size laid out while looking for one that works.
pub const TRIES_PER_SIZE: usize = 10;

/// A `[layout]` size the advice may change: its key, the range `check` accepts (mm) and the
/// step between the values tried (mm).
struct Size {
    key: &'static str,
    lo: f64,
    hi: f64,
    step: f64,
    now: fn(&Ruleset) -> f64,
}

const SIZES: [Size; 3] = [
    Size {
        key: "pit_gap",
        lo: 0.0,
        hi: 40.0,
        step: 2.0,
        now: |rs| rs.layout.pit_gap,
    },
    Size {
        key: "pit_diameter",
        lo: crate::geometry::PIT_DIAMETER_RANGE.0,
        hi: crate::geometry::PIT_DIAMETER_RANGE.1,
        step: 2.0,
        now: |rs| rs.layout.pit_diameter,
    },
    Size {
        key: "store_length",
        lo: crate::geometry::STORE_LENGTH_RANGE.0,
        hi: crate::geometry::STORE_LENGTH_RANGE.1,
        step: 4.0,
        now: |rs| rs.layout.store_length,
    },
];

/// The ruleset file's text: read again from `rs.path` (or the bundled copy), used only if it is
/// still the file `rs` was loaded from (same SHA-256).
pub fn source_of(rs: &Ruleset) -> Option<String> {
    let src = crate::bundled::ALL
        .iter()
        .find(|b| crate::bundled::display_path(b) == rs.path)
        .map(|b| b.source.to_string())
        .or_else(|| std::fs::read_to_string(&rs.path).ok())?;
    (ruleset::load::sha256_hex(src.as_bytes()) == rs.sha256).then_some(src)
}

/// Whether the board sheets of `rs` lay out with `opts` (the step of [`crate::layout::kit`] that
/// tiles or fits the board).
fn board_lays_out(rs: &Ruleset, opts: &KitOptions) -> Result<(), String> {
    let (lrs, ph) = opts.localise(rs)?;
    let lrs = layout::as_printed(&lrs, opts);
    layout::board::pages(&lrs, opts, &ph).map(|_| ())
}

/// Whether the whole kit and host key of `rs` lay out with `opts` (what `check` and `build` do).
fn kit_lays_out(rs: &Ruleset, opts: &KitOptions) -> bool {
    kit_problem(rs, opts).is_ok()
}

/// Why the whole kit and host key of `rs` do not lay out with `opts`, if they do not.
fn kit_problem(rs: &Ruleset, opts: &KitOptions) -> Result<(), String> {
    layout::kit(rs, opts)
        .and_then(|_| layout::host_key(rs, opts))
        .map(|_| ())
}

/// Values of one size tried whose kit fails with the very message of the ruleset's own value
/// before that size is given up (the failing sheet does not depend on it).
const SAME_FAILURE_TRIES: usize = 2;

/// 1-based line of byte `at` in `src`.
fn line_of(src: &str, at: usize) -> usize {
    src[..at.min(src.len())].matches('\n').count() + 1
}

/// A number as a ruleset would give it (`12`, `12.5`).
fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Where `[layout]` `key` is, or where it would go: how to set it in `src`.
enum Place {
    /// The key is there: the byte range of its value.
    Value(Range<usize>),
    /// The `[layout]` header is there, without the key: the byte offset just after its line.
    After(usize),
    /// No `[layout]` table: one is appended at the end.
    NoTable,
}

fn place(src: &str, key: &str) -> Option<Place> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(src).ok()?;
    let Some((k, v)) = doc.get_ref().iter().find(|(k, _)| k.get_ref() == "layout") else {
        return Some(Place::NoTable);
    };
    let DeValue::Table(t) = v.get_ref() else {
        return None;
    };
    if let Some((_, val)) = t.iter().find(|(k, _)| k.get_ref() == key) {
        return Some(Place::Value(val.span()));
    }
    // Only a `[layout]` header line can take a new key after it.
    let start = src[..k.span().start].rfind('\n').map_or(0, |i| i + 1);
    if !src[start..].trim_start().starts_with("[layout]") {
        return None;
    }
    let end = src[start..].find('\n').map_or(src.len(), |i| start + i + 1);
    Some(Place::After(end))
}

/// `src` with `[layout]` `key` set to `v`.
fn with_size(src: &str, key: &str, v: f64) -> Option<String> {
    let mut s = src.to_string();
    match place(src, key)? {
        Place::Value(r) => s.replace_range(r, &num(v)),
        Place::After(at) => s.insert_str(at, &format!("{key} = {}\n", num(v))),
        Place::NoTable => {
            if !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(&format!("\n[layout]\n{key} = {}\n", num(v)));
        }
    }
    Some(s)
}

/// The values of `size` to try, nearest to `now` first (at most [`TRIES_PER_SIZE`]).
fn candidates(size: &Size, now: f64) -> Vec<f64> {
    let mut v: Vec<f64> = (0..)
        .map(|k| size.lo + k as f64 * size.step)
        .take_while(|x| *x <= size.hi + 1e-9)
        .filter(|x| (x - now).abs() > 1e-6)
        .collect();
    v.sort_by(|a, b| {
        (a - now)
            .abs()
            .total_cmp(&(b - now).abs())
            .then(b.total_cmp(a))
    });
    v.truncate(TRIES_PER_SIZE);
    v
}

/// Lines of advice (each starting `help: `) for the kit of `rs` that does not lay out with
/// `opts` (its board, or another sheet): each size of `[layout]` changed to the nearest value
/// whose whole kit lays out, naming the file, line and field; then a larger paper, and `--fit`
/// (or leaving it out), if they lay out. Empty when the kit lays out as it is.
pub fn layout_advice(rs: &Ruleset, opts: &KitOptions) -> Vec<String> {
    // A board that lays out on a kit that does not (a store too short for the diagrams'
    // labels, say): the same sizes are tried, for the whole kit.
    let board_ok = board_lays_out(rs, opts).is_ok();
    let own_failure = if board_ok {
        match kit_problem(rs, opts) {
            Ok(()) => return Vec::new(),
            Err(e) => Some(e),
        }
    } else {
        None
    };
    let what = if board_ok { "kit" } else { "board" };
    let mut out = Vec::new();
    let src = source_of(rs);
    let paper = opts.paper.name.to_string();
    if let Some(src) = &src {
        let mut tried = Vec::new();
        for size in &SIZES {
            let now = (size.now)(rs);
            let field = format!("layout.{}", size.key);
            let Some(at) = place(src, size.key) else {
                continue;
            };
            let mut found = None;
            let mut same = 0;
            for v in candidates(size, now) {
                let Some(edited) = with_size(src, size.key, v) else {
                    break;
                };
                let Ok(rs2) = ruleset::load_str(&rs.path, &edited) else {
                    continue;
                };
                if board_lays_out(&rs2, opts).is_err() {
                    continue;
                }
                match kit_problem(&rs2, opts) {
                    Ok(()) => {
                        found = Some(v);
                        break;
                    }
                    Err(e) if own_failure.as_ref() == Some(&e) => {
                        same += 1;
                        if same >= SAME_FAILURE_TRIES {
                            break;
                        }
                    }
                    Err(_) => {}
                }
            }
            let Some(v) = found else {
                tried.push(field);
                continue;
            };
            let way = if v > now { "larger" } else { "smaller" };
            out.push(match at {
                Place::Value(r) => format!(
                    "help: {}:{}: {field} = {} → {field} = {} (a {way} value; tried: the kit then lays out on {paper})",
                    rs.path,
                    line_of(src, r.start),
                    num(now),
                    num(v)
                ),
                Place::After(a) => format!(
                    "help: {}:{}: add {} = {} under [layout] ({field} is {} mm by default; a {way} value; tried: the kit then lays out on {paper})",
                    rs.path,
                    line_of(src, a) - 1,
                    size.key,
                    num(v),
                    num(now)
                ),
                Place::NoTable => format!(
                    "help: {}: add a [layout] table with {} = {} ({field} is {} mm by default; a {way} value; tried: the kit then lays out on {paper})",
                    rs.path,
                    size.key,
                    num(v),
                    num(now)
                ),
            });
        }
        if out.is_empty() {
            out.push(format!(
                "help: no value of {} near the ruleset's own lays the {what} out on {paper} (tried up to {TRIES_PER_SIZE} of each)",
                tried.join(", ")
            ));
        }
    }
    // Larger papers (by area, or with a wider short side: a long narrow custom paper), in the
    // order of [`crate::paper::NAMED`], then --fit.
    let area = |p: &Paper| p.width * p.height;
    let short = |p: &Paper| p.width.min(p.height);
    for p in crate::paper::NAMED {
        if area(&p) > area(&opts.paper) + 1.0 || short(&p) > short(&opts.paper) + 1.0 {
            let o = KitOptions {
                paper: p,
                ..opts.clone()
            };
            if board_lays_out(rs, &o).is_ok() && kit_lays_out(rs, &o) {
                out.push(format!(
                    "help: or build with --paper {} (tried: the kit lays out on {})",
                    p.name.to_string().to_ascii_lowercase(),
                    p.name
                ));
                break;
            }
        }
    }
    let o = KitOptions {
        fit: !opts.fit,
        ..opts.clone()
    };
    if board_lays_out(rs, &o).is_ok() && kit_lays_out(rs, &o) {
        out.push(if o.fit {
            format!("help: or build with --fit (tried: the board is shrunk onto one {paper} sheet)")
        } else {
            format!("help: or build without --fit (tried: the board is printed at true size in tiles of {paper})")
        });
    }
    if !out
        .iter()
        .any(|l| l.contains("--paper") || l.contains("--fit") || l.contains(" → "))
        && !out.iter().any(|l| l.contains("add "))
    {
        out.push(format!(
            "help: nothing tried lays this kit out on {paper} or any larger or wider named paper, with or without --fit: shorten the texts named above"
        ));
    }
    out
}
