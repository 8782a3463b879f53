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

/// Most whole kits (kit and host key, one language each) laid out by one call of
/// [`layout_advice_in`]: a bound on its work (issue 9: on 16 pits with 12-character labels it
/// laid out every candidate, 3 s for `check`). A candidate whose board does not lay out costs
/// no kit layout.
pub const MAX_KIT_TRIES: usize = 24;

/// What one call of the advice may still lay out.
struct Tries {
    /// Whole kits left to lay out.
    left: usize,
    /// Whether a candidate went untried because `left` ran out.
    ran_out: bool,
}

/// The options of `opts` in each of `langs` (`opts` itself when `langs` is empty).
fn in_langs(opts: &KitOptions, langs: &[String]) -> Vec<KitOptions> {
    if langs.is_empty() {
        return vec![opts.clone()];
    }
    langs
        .iter()
        .map(|l| KitOptions {
            lang: Some(l.clone()),
            ..opts.clone()
        })
        .collect()
}

/// Whether the board sheets of `rs` lay out with `opts` (the step of [`crate::layout::kit`] that
/// tiles or fits the board).
fn board_lays_out(rs: &Ruleset, opts: &KitOptions) -> Result<(), String> {
    let (lrs, ph) = opts.localise(rs)?;
    let lrs = layout::as_printed(&lrs, opts);
    layout::board::pages(&lrs, opts, &ph).map(|_| ())
}

/// Why the whole kit and host key of `rs` do not lay out with `opts`, if they do not.
fn kit_problem(rs: &Ruleset, opts: &KitOptions) -> Result<(), String> {
    layout::kit(rs, opts)
        .and_then(|_| layout::host_key(rs, opts))
        .map(|_| ())
}

/// What trying `rs` in every language of `langs` with `opts` gave.
enum Tried {
    /// The whole kit and host key lay out in every language.
    LaysOut,
    /// A board does not lay out (no kit was laid out for it).
    Board,
    /// A kit or host key does not lay out: the first message.
    Kit(String),
    /// The try budget ran out before it was settled.
    Untried,
}

/// Tries `rs` with `opts` in each of `langs` (see [`in_langs`]): every board first (cheap),
/// then every whole kit, each counted against `tries`.
fn try_kit(rs: &Ruleset, opts: &KitOptions, langs: &[String], tries: &mut Tries) -> Tried {
    let all = in_langs(opts, langs);
    if all.iter().any(|o| board_lays_out(rs, o).is_err()) {
        return Tried::Board;
    }
    for o in &all {
        if tries.left == 0 {
            tries.ran_out = true;
            return Tried::Untried;
        }
        tries.left -= 1;
        if let Err(e) = kit_problem(rs, o) {
            return Tried::Kit(e);
        }
    }
    Tried::LaysOut
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

/// The untried change the closing "nothing tried" line of advice asks for, from the layout's
/// own failure `message`: counters that the fitted pits cannot hold need fewer starting seeds
/// or smaller counters (`child_safe`: the counters are child-safe, which sets their least size);
/// a board that cannot be tiled without cutting a pit needs smaller pits,
/// gaps or stores (or a custom paper); any other failure is a text too long for its place.
fn last_resort(message: &str, child_safe: bool) -> &'static str {
    if message.contains("as counters of at least") {
        if child_safe {
            "the pits must still hold their counters: start with fewer seeds a pit (board.seeds_per_pit), or use smaller counters (layout.counter_diameter) and leave out --child-safe"
        } else {
            "the pits must still hold their counters: start with fewer seeds a pit (board.seeds_per_pit) or use smaller counters (layout.counter_diameter)"
        }
    } else if message.contains("without cutting through") {
        "make the pits, gaps or stores smaller than the values tried, or give a custom --paper WxH large enough for one pit and its labels"
    } else {
        "shorten the texts named above"
    }
}

/// Lines of advice (each starting `help: `) for the kit of `rs` that does not lay out with
/// `opts` (its board, or another sheet), as `build` makes it: in `opts`' language. See
/// [`layout_advice_in`].
pub fn layout_advice(rs: &Ruleset, opts: &KitOptions) -> Vec<String> {
    layout_advice_in(rs, opts, &[])
}

/// Lines of advice (each starting `help: `) for the kit of `rs` that does not lay out with
/// `opts`: each size of `[layout]` changed to the nearest value whose whole kit lays out,
/// naming the file, line and field; then a larger or wider paper, `--fit` (or leaving it
/// out), and for large print the normal print. Every change offered was tried and lays the kit and host key out in each language
/// of `langs` (`check` lays out every language a ruleset has text in; empty: `opts`' own),
/// so following any one of them builds. When none was found, one line says what was tried.
/// No line is given twice. Empty when the kit lays out as it is. At most [`MAX_KIT_TRIES`]
/// whole kits are laid out; when they run out, the last line says so.
pub fn layout_advice_in(rs: &Ruleset, opts: &KitOptions, langs: &[String]) -> Vec<String> {
    layout_advice_on(rs, opts, langs, &[])
}

/// [`layout_advice_in`], where a change of size must also lay the kit out on each paper of
/// `also` (`check` lays every ruleset out on A4 and Letter: a size that mends the A4 kit but
/// not the Letter one was offered, and following it, `check` still failed).
pub fn layout_advice_on(
    rs: &Ruleset,
    opts: &KitOptions,
    langs: &[String],
    also: &[Paper],
) -> Vec<String> {
    let mut tries = Tries {
        left: MAX_KIT_TRIES,
        ran_out: false,
    };
    // A board that lays out on a kit that does not (a store too short for the diagrams'
    // labels, say): the same sizes are tried, for the whole kit. The ruleset's own failure
    // is not counted against the tries.
    let board_ok = in_langs(opts, langs)
        .iter()
        .all(|o| board_lays_out(rs, o).is_ok());
    let own_failure = if board_ok {
        match in_langs(opts, langs)
            .iter()
            .find_map(|o| kit_problem(rs, o).err())
        {
            None => return Vec::new(),
            Some(e) => Some(e),
        }
    } else {
        None
    };
    // What the closing line of "nothing tried" asks for, from the ruleset's own failure.
    let own_message = own_failure.clone().or_else(|| {
        in_langs(opts, langs)
            .iter()
            .find_map(|o| board_lays_out(rs, o).err())
    });
    let last_resort = last_resort(own_message.as_deref().unwrap_or(""), opts.child_safe);
    let what = if board_ok { "kit" } else { "board" };
    let mut out: Vec<String> = Vec::new();
    let mut tried_sizes = Vec::new();
    let src = source_of(rs);
    let paper = opts.paper.name.to_string();
    // The papers a size change was tried on: this one and those of `also`.
    let size_papers = {
        let mut names = vec![paper.clone()];
        for p in also.iter().filter(|p| **p != opts.paper) {
            names.push(p.name.to_string());
        }
        names.join(" and ")
    };
    // A bundled ruleset has no file the user can edit: a size change goes into a copy that
    // `sowkit new` writes, named here (its lines differ from the bundled text's).
    let bundled = crate::bundled::ALL
        .iter()
        .find(|b| crate::bundled::display_path(b) == rs.path);
    // A name `new` can write in the current folder (it never overwrites, and a file there
    // with the first name may have other sizes than those advised).
    let copy = bundled.map(|b| crate::bundled::free_copy_name(b, std::path::Path::new(".")));
    if let Some(src) = &src {
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
                // Every other paper's boards first (cheap, no kit counted): a value whose
                // board lays out here but not there spent two kits of the budget for nothing,
                // and a run of them left none for the value that mends every paper.
                let boards_elsewhere = also.iter().filter(|p| **p != opts.paper).all(|p| {
                    let o = KitOptions {
                        paper: *p,
                        ..opts.clone()
                    };
                    in_langs(&o, langs)
                        .iter()
                        .all(|o| board_lays_out(&rs2, o).is_ok())
                });
                if !boards_elsewhere {
                    continue;
                }
                match try_kit(&rs2, opts, langs, &mut tries) {
                    Tried::LaysOut
                        if also.iter().filter(|p| **p != opts.paper).all(|p| {
                            let o = KitOptions {
                                paper: *p,
                                ..opts.clone()
                            };
                            matches!(try_kit(&rs2, &o, langs, &mut tries), Tried::LaysOut)
                        }) =>
                    {
                        found = Some(v);
                        break;
                    }
                    Tried::Kit(e) if own_failure.as_ref() == Some(&e) => {
                        same += 1;
                        if same >= SAME_FAILURE_TRIES {
                            break;
                        }
                    }
                    Tried::Untried => break,
                    // Lays out on this paper, not on another of `also`: a larger step may.
                    Tried::LaysOut | Tried::Board | Tried::Kit(_) => {}
                }
            }
            let Some(v) = found else {
                tried_sizes.push(field);
                continue;
            };
            let way = if v > now { "larger" } else { "smaller" };
            out.push(match (at, &copy) {
                (Place::Value(_), Some(copy)) => format!(
                    "help: in {copy}: {field} = {} → {field} = {} (a {way} value; tried: the kit then lays out on {size_papers})",
                    num(now),
                    num(v)
                ),
                (Place::After(_), Some(copy)) => format!(
                    "help: in {copy}: add {} = {} under [layout] ({field} is {} mm by default; a {way} value; tried: the kit then lays out on {size_papers})",
                    size.key,
                    num(v),
                    num(now)
                ),
                (Place::NoTable, Some(copy)) => format!(
                    "help: in {copy}: add a [layout] table with {} = {} ({field} is {} mm by default; a {way} value; tried: the kit then lays out on {size_papers})",
                    size.key,
                    num(v),
                    num(now)
                ),
                (Place::Value(r), None) => format!(
                    "help: {}:{}: {field} = {} → {field} = {} (a {way} value; tried: the kit then lays out on {size_papers})",
                    rs.path,
                    line_of(src, r.start),
                    num(now),
                    num(v)
                ),
                (Place::After(a), None) => format!(
                    "help: {}:{}: add {} = {} under [layout] ({field} is {} mm by default; a {way} value; tried: the kit then lays out on {size_papers})",
                    rs.path,
                    line_of(src, a) - 1,
                    size.key,
                    num(v),
                    num(now)
                ),
                (Place::NoTable, None) => format!(
                    "help: {}: add a [layout] table with {} = {} ({field} is {} mm by default; a {way} value; tried: the kit then lays out on {size_papers})",
                    rs.path,
                    size.key,
                    num(v),
                    num(now)
                ),
            });
        }
    }
    let sizes_found = !out.is_empty();
    if let (Some(b), Some(copy), true) = (bundled, &copy, sizes_found) {
        out.insert(
            0,
            format!(
                "help: {} is bundled (compiled into sowkit: there is no file of it to edit): to change a size, first write your own copy with `sowkit new {copy} --from {}`, then change it there and build {copy}",
                b.id, b.id
            ),
        );
    }
    // Larger papers (by area, or with a wider short side: a long narrow custom paper), in the
    // order of [`crate::paper::NAMED`], then --fit.
    let area = |p: &Paper| p.width * p.height;
    let short = |p: &Paper| p.width.min(p.height);
    let or = |found: bool| if found { "or " } else { "" };
    let mut papers_tried = Vec::new();
    let mut other_found = false;
    for p in crate::paper::NAMED {
        if area(&p) > area(&opts.paper) + 1.0 || short(&p) > short(&opts.paper) + 1.0 {
            let o = KitOptions {
                paper: p,
                ..opts.clone()
            };
            papers_tried.push(p.name.to_string());
            if let Tried::LaysOut = try_kit(rs, &o, langs, &mut tries) {
                out.push(format!(
                    "help: {}build with --paper {} (tried: the kit lays out on {})",
                    or(sizes_found),
                    p.name.to_string().to_ascii_lowercase(),
                    p.name
                ));
                other_found = true;
                break;
            }
        }
    }
    // No named paper: the ISO sizes above A3, written as custom sizes (a kit too crowded for
    // any named paper still prints on a plotter or at a copy shop; a tester found
    // `--paper 1000x600mm` laid out where no advice said so). Tried only on this path.
    if !other_found {
        for (size, iso) in [("420x594mm", "A2"), ("594x841mm", "A1")] {
            let Ok(p) = Paper::parse(size) else { continue };
            if area(&p) <= area(&opts.paper) + 1.0 && short(&p) <= short(&opts.paper) + 1.0 {
                continue;
            }
            let o = KitOptions {
                paper: p,
                ..opts.clone()
            };
            papers_tried.push(size.to_string());
            if let Tried::LaysOut = try_kit(rs, &o, langs, &mut tries) {
                out.push(format!(
                    "help: {}build with --paper {size} ({iso}; tried: the kit lays out on it)",
                    or(sizes_found)
                ));
                other_found = true;
                break;
            }
        }
    }
    let o = KitOptions {
        fit: !opts.fit,
        ..opts.clone()
    };
    if let Tried::LaysOut = try_kit(rs, &o, langs, &mut tries) {
        let or = or(sizes_found || other_found);
        out.push(if o.fit {
            format!("help: {or}build with --fit (tried: the board is shrunk onto one {paper} sheet)")
        } else {
            format!("help: {or}build without --fit (tried: the board is printed at true size in tiles of {paper})")
        });
        other_found = true;
    }
    // Large print: the same kit in normal print (smaller labels, fewer lines).
    if opts.large {
        let o = KitOptions {
            large: false,
            ..opts.clone()
        };
        if let Tried::LaysOut = try_kit(rs, &o, langs, &mut tries) {
            let or = or(sizes_found || other_found);
            out.push(format!(
                "help: {or}build in normal print (leave large out of --style; tried: the kit lays out on {paper})"
            ));
            other_found = true;
        }
    }
    let no_sizes = (!tried_sizes.is_empty()).then(|| {
        format!(
            "no value of {} near the ruleset's own (up to {TRIES_PER_SIZE} of each)",
            tried_sizes.join(", ")
        )
    });
    if !sizes_found && !other_found {
        // One line that says all that was tried, so it never contradicts another.
        let mut parts: Vec<String> = no_sizes.into_iter().collect();
        parts.push(if papers_tried.is_empty() {
            "no larger or wider named paper to try".to_string()
        } else {
            format!("no larger or wider paper ({})", papers_tried.join(", "))
        });
        parts.push(format!(
            "{}not {} --fit",
            if opts.large { "" } else { "and " },
            if opts.fit { "without" } else { "with" }
        ));
        if opts.large {
            parts.push("and not in normal print".to_string());
        }
        out.push(format!(
            "help: nothing tried lays this kit out on {paper}: {}: {last_resort}",
            parts.join(", ")
        ));
    } else if let (false, Some(no)) = (sizes_found, no_sizes) {
        // Before the paper or --fit that works.
        out.insert(0, format!("help: {no} lays the {what} out on {paper}"));
    }
    if tries.ran_out {
        out.push(format!(
            "help: (the advice stopped after laying out {MAX_KIT_TRIES} kits; other values may work)"
        ));
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|l| seen.insert(l.clone()));
    out
}
