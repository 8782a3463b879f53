//! Fuzzing harnesses, shared by the `cargo fuzz` targets in `fuzz/` and the regression test
//! `tests/fuzz_regressions.rs` (which replays `tests/fuzz-regressions/<target>/*`). Each
//! function takes arbitrary bytes and panics only when a property is broken:
//!
//! - [`loader`]: any bytes → a ruleset or located diagnostics (lines inside the file), and a
//!   loaded ruleset's examples replay without panicking (the relay check is in [`kit`]);
//! - [`notation`]: positions and moves read back as they are written (round trip);
//! - [`engine`]: a valid ruleset made from the bytes, then moves chosen by the bytes: every move
//!   returns, seeds are conserved, a finished game's scores add up to every seed, and the fast
//!   path agrees with the full one;
//! - [`kit`]: a valid ruleset made from the bytes passes the relay check (`examples::sanity`:
//!   at most one diagnostic, on a line of the ruleset) and becomes a kit in memory (or a layout error
//!   with a message): a PDF that starts `%PDF`, one SVG per page, at most
//!   [`crate::layout::MAX_PAGES`] pages, the same bytes when made twice (host key without the
//!   solver's best-play lines, which only make it slow).
//!
//! Not part of the stable API.
#![allow(missing_docs)]

use crate::engine::{Game, MoveList, Rules};
use crate::ruleset;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

/// Reads choices from fuzz bytes; zeros once they run out (so every input is a valid choice
/// sequence).
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// A number in `0..n` (`n` ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        let v = u16::from_le_bytes([self.byte(), self.byte()]) as usize;
        v % n.max(1)
    }

    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    pub fn rest(&self) -> &'a [u8] {
        self.data
    }
}

/// The loader on arbitrary bytes.
pub fn loader(data: &[u8]) {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    match ruleset::load_str("fuzz.toml", src) {
        Err(diags) => {
            assert!(!diags.is_empty(), "an error without a diagnostic");
            let lines = src.lines().count() + 1;
            for d in &diags {
                assert!(
                    d.line <= lines,
                    "line {} past the end: {}",
                    d.line,
                    d.short()
                );
                assert!(!d.message.is_empty());
            }
        }
        Ok(rs) => {
            // The worked examples replay; the relay check (`examples::sanity`, up to 40 × 400
            // plies) is left to the kit target, which runs it on every generated ruleset: here
            // it made the loader target 1.7× slower.
            let _ = crate::examples::check(&rs, src);
        }
    }
}

const BUNDLED: [&str; 5] = [
    include_str!("../rulesets/six-pit-sowing.toml"),
    include_str!("../rulesets/kalah-6x4.toml"),
    include_str!("../rulesets/kalah-6x3.toml"),
    include_str!("../rulesets/oware-abapa.toml"),
    include_str!("../rulesets/giuthi.toml"),
];

fn bundled_rules() -> &'static [Rules] {
    static R: OnceLock<Vec<Rules>> = OnceLock::new();
    R.get_or_init(|| {
        BUNDLED
            .iter()
            .map(|s| Rules::new(&ruleset::load_str("bundled.toml", s).expect("bundled loads")))
            .collect()
    })
}

/// Position and move notation on arbitrary text, for each bundled ruleset.
pub fn notation(data: &[u8]) {
    let mut b = Bytes::new(data);
    let rules = &bundled_rules()[b.below(BUNDLED.len())];
    let Ok(s) = std::str::from_utf8(b.rest()) else {
        return;
    };
    if let Ok((p, _)) = crate::notation::parse_position(rules, s) {
        let written = crate::notation::format_position(rules, &p);
        let (again, given) = crate::notation::parse_position(rules, &written)
            .unwrap_or_else(|e| panic!("{written:?} does not read back: {e:?}"));
        assert!(given, "{written:?} lost the player to move");
        assert_eq!(again, p, "{s:?} → {written:?}");
    }
    if let Ok(m) = crate::notation::parse_move(rules, s) {
        let written = crate::notation::format_move(rules, m);
        let again = crate::notation::parse_move(rules, &written)
            .unwrap_or_else(|e| panic!("{written:?} does not read back: {e:?}"));
        assert_eq!(again, m, "{s:?} → {written:?}");
    }
}

/// A ruleset's TOML text with every rule chosen by `b`; sizes kept small enough to fuzz fast
/// (up to 8 pits a side, 12 seeds a pit). The loader may still refuse a combination.
pub fn ruleset_toml(b: &mut Bytes) -> String {
    let n = 1 + b.below(8);
    let seeds = 1 + b.below(12);
    let total = 2 * n * seeds;
    let direction = b.pick(&["counterclockwise", "clockwise", "either"]);
    let own_store = b.pick(&["sow", "skip"]);
    let opponent_store = b.pick(&["sow", "skip"]);
    let origin = b.pick(&["sow", "skip"]);
    let min_seeds = 1 + b.below(seeds.min(3));
    let relay = b.pick(&["none", "none", "reverse", "same"]);
    let mut extra = Vec::new();
    if own_store == "sow" && b.flag() {
        extra.push("\"last-in-own-store\"");
    }
    if b.flag() {
        extra.push("\"empty-pit-before-crossing\"");
    }
    let kind = b.pick(&["none", "opposite", "count"]);
    let mut capture = format!("[capture]\nkind = \"{kind}\"\n");
    match kind {
        "opposite" => {
            capture += &format!(
                "side = \"{}\"\nlast_pit_was_empty = {}\nopposite_must_have_seeds = {}\ntake_capturing_seed = {}\nchain = \"{}\"\n",
                b.pick(&["own", "opponent"]),
                b.flag(),
                b.flag(),
                b.flag(),
                b.pick(&["none", "following-empty"])
            );
        }
        "count" => {
            let a = 1 + b.below(4);
            capture += &format!(
                "side = \"{}\"\ncounts = [{}, {}]\nchain = \"{}\"\ntake_capturing_seed = {}\n",
                b.pick(&["own", "opponent"]),
                a,
                a + 1,
                b.pick(&["none", "backward"]),
                b.flag()
            );
        }
        _ => {}
    }
    if b.flag() {
        capture += &format!(
            "after_crossing_only = true\ncrossing = \"{}\"\n",
            b.pick(&["sown", "landed"])
        );
    }
    let mut when = vec!["\"either-side-empty\""];
    let mut threshold = String::new();
    if b.flag() {
        when.push("\"threshold\"");
        threshold = format!("threshold = {}\n", total / 2 + 1);
    }
    if b.flag() {
        when.push("\"repetition\"");
    }
    format!(
        "id = \"fuzz\"\nname = \"Fuzz\"\nsource = \"generated\"\n[board]\npits_per_side = {n}\nseeds_per_pit = {seeds}\nplayers = [\"A\", \"B\"]\n[sowing]\ndirection = \"{direction}\"\nown_store = \"{own_store}\"\nopponent_store = \"{opponent_store}\"\norigin_on_lap = \"{origin}\"\nmin_seeds = {min_seeds}\nrelay = \"{relay}\"\n[extra_turn]\non = [{}]\n{capture}[grand_slam]\npolicy = \"{}\"\n[feeding]\nmust_feed = {}\n[end]\nwhen = [{}]\n{threshold}no_legal_move = \"{}\"\nremaining_seeds = \"{}\"\n",
        extra.join(", "),
        b.pick(&["capture-all", "no-capture", "illegal", "illegal-unless-only"]),
        b.flag(),
        when.join(", "),
        b.pick(&["end", "pass"]),
        b.pick(&["owner", "mover", "opponent"]),
    )
}

thread_local! {
    /// Compiled rules by generated ruleset text, so that inputs differing only in their moves
    /// (most of what the fuzzer tries) skip the TOML loader. Cleared when it holds
    /// [`RULES_CACHE`] rulesets, so memory stays bounded.
    static RULES: RefCell<HashMap<String, Option<Rc<Rules>>>> = RefCell::new(HashMap::new());
}

/// Most rulesets [`engine_rules`] keeps compiled at once.
const RULES_CACHE: usize = 4096;

/// The rules of the ruleset [`ruleset_toml`] makes from `b`, or `None` when the loader or the
/// engine refuses it. The same text always gives the same answer, so it is kept
/// ([`RULES`]); the loader itself is fuzzed by [`loader`].
fn engine_rules(b: &mut Bytes) -> Option<Rc<Rules>> {
    let src = ruleset_toml(b);
    RULES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(r) = cache.get(&src) {
            return r.clone();
        }
        if cache.len() >= RULES_CACHE {
            cache.clear();
        }
        let r = ruleset::load_str("fuzz.toml", &src)
            .ok()
            .and_then(|rs| Rules::try_new(&rs).ok())
            .map(Rc::new);
        cache.insert(src, r.clone());
        r
    })
}

/// Most moves one engine input plays: enough for most games on the generated boards to end
/// (sweep and scores checked), while one input stays well under a millisecond.
const ENGINE_PLIES: usize = 300;

/// The full path ([`Game::legal_moves`], [`Game::play`], which build the move's report) is
/// compared with the fast one on each of the first `FULL_PLIES` moves of an input, then on
/// every `FULL_EVERY`-th: the fast path, which every move goes through, is what the solver and
/// the practice-page search run, and the full one costs several allocations a move.
const FULL_PLIES: usize = 16;
/// See [`FULL_PLIES`].
const FULL_EVERY: usize = 16;

/// The engine on a valid ruleset and moves chosen by the bytes: every legal move returns (or
/// is refused as endless relay sowing, leaving the game unchanged), seeds are conserved after
/// every move, a finished game's scores add up to every seed, and on the moves of
/// [`FULL_PLIES`] the full path (`legal_moves`, `play`, from the same game) agrees with the
/// fast path (`legal_moves_into`, `play_fast`) on the legal moves, the move's outcome and the
/// position after it.
pub fn engine(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some(rules) = engine_rules(&mut b) else {
        return;
    };
    let rules: &Rules = &rules;
    let total = rules.ruleset().total_seeds();
    let mut fast = Game::new(rules, rules.initial());
    let mut list = MoveList::new();
    for ply in 0..ENGINE_PLIES {
        if fast.is_over() {
            break;
        }
        fast.legal_moves_into(&mut list);
        let full = ply < FULL_PLIES || ply % FULL_EVERY == 0;
        // The full path from the very same game (history included).
        let mut game = if full { Some(fast.clone()) } else { None };
        if let Some(g) = &game {
            assert_eq!(
                list.as_slice(),
                &g.legal_moves()[..],
                "the fast path's legal moves differ"
            );
        }
        if list.is_empty() {
            break;
        }
        let mv = list.as_slice()[b.below(list.len())];
        let sum_before: u32 = fast.position().holes.iter().map(|&h| h as u32).sum();
        let before = fast.position().clone();
        // On the full plies, the solver's way of playing a legal move (no second legality
        // check) from the same game too.
        let mut legal = game.as_ref().map(|_| fast.clone());
        let quick = fast.play_fast(mv);
        if let Some(l) = &mut legal {
            let played = l.play_legal_fast(mv);
            assert_eq!(
                (played, l.position(), l.ending()),
                (quick.clone(), fast.position(), fast.ending()),
                "play_legal_fast and play_fast differ"
            );
        }
        match &quick {
            Ok(o) => {
                if let Some(end) = fast.ending() {
                    assert_eq!(
                        end.scores[0] as u32 + end.scores[1] as u32,
                        total,
                        "scores {:?}",
                        end.scores
                    );
                }
                if let Some(g) = &mut game {
                    let report = g.play(mv).unwrap_or_else(|e| {
                        panic!("play refused {mv:?} that play_fast played: {e:?}")
                    });
                    assert_eq!(
                        (o.last, o.captured, o.grand_slam, o.extra_turn, o.next),
                        (
                            report.last,
                            report.captured,
                            report.grand_slam,
                            report.extra_turn,
                            report.next
                        ),
                        "play_fast and play disagree on {mv:?}"
                    );
                    assert_eq!(report.ending.as_ref(), fast.ending(), "the endings differ");
                }
            }
            Err(crate::engine::EngineError::NonTerminating(_)) => {
                assert_eq!(fast.position(), &before, "a refused move changed the game");
                if let Some(g) = &mut game {
                    assert!(
                        matches!(
                            g.play(mv),
                            Err(crate::engine::EngineError::NonTerminating(_))
                        ),
                        "play played the endless move {mv:?} play_fast refused"
                    );
                }
            }
            Err(e) => panic!("a legal move {mv:?} was refused: {e:?}"),
        }
        if let Some(g) = &game {
            assert_eq!(fast.position(), g.position(), "play_fast and play differ");
        }
        let sum: u32 = fast.position().holes.iter().map(|&h| h as u32).sum();
        assert_eq!(
            sum, total,
            "seeds not conserved (before the move: {sum_before})"
        );
    }
}

/// One input in this many renders its kit to files (see [`kit`]).
const RENDER_EVERY: usize = 8;

/// The whole kit, in memory, from a valid ruleset chosen by the bytes: its layout and host
/// key's layout on every input, the rendered files on some (see [`RENDER_EVERY`]).
pub fn kit(data: &[u8]) {
    let mut b = Bytes::new(data);
    let paper = b.pick(&crate::paper::NAMED);
    let fit = b.flag();
    let child_safe = b.flag();
    let src = ruleset_toml(&mut b);
    let Ok(rs) = ruleset::load_str("fuzz.toml", &src) else {
        return;
    };
    // The relay check of `sowkit check` returns (within `examples::SANITY_SOWN`) with at most
    // one diagnostic, on a line of the ruleset.
    let diags = crate::examples::sanity(&rs, &src);
    assert!(diags.len() <= 1, "{} diagnostics", diags.len());
    for d in &diags {
        assert!(
            d.line >= 1 && d.line <= src.lines().count(),
            "{}",
            d.short()
        );
    }
    let style = match (b.flag(), b.flag()) {
        (true, _) => crate::layout::style::Style::Contrast,
        (false, true) => crate::layout::style::Style::LowInk,
        (false, false) => crate::layout::style::Style::Default,
    };
    // Read last, so the inputs found before large print existed still mean what they did.
    let large = b.flag();
    let opts = crate::layout::KitOptions {
        paper,
        fit,
        child_safe,
        style,
        large,
        ..crate::layout::KitOptions::new(paper)
    };
    // The layout of the kit and of its host key (where the page-making logic is) for every
    // input, made twice to show it is deterministic; without the host key's solver lines:
    // the solver is fuzzed through the engine, and with them one big-board kit took about 2 s.
    let docs = crate::layout::kit(&rs, &opts)
        .and_then(|d| crate::layout::host_key_with(&rs, &opts, false).map(|k| (d, k)));
    let (doc, key) = match docs {
        Err(e) => {
            assert!(!e.trim().is_empty(), "a layout error without a message");
            return;
        }
        Ok(d) => d,
    };
    assert!(
        (1..=crate::layout::MAX_PAGES).contains(&doc.pages.len()),
        "{} pages",
        doc.pages.len()
    );
    assert!(
        key.pages.len() <= crate::layout::MAX_PAGES,
        "{} host-key pages",
        key.pages.len()
    );
    assert!(
        crate::layout::kit(&rs, &opts).as_ref() == Ok(&doc),
        "two layouts of the kit differ"
    );
    // The whole kit in files (PDF and SVG rendering, deflate), twice, on one input in
    // `RENDER_EVERY` (chosen by the input's next byte, so a mutation can reach it): the
    // renderers' own inputs vary little with the ruleset, and rendering is most of a kit's time.
    if !(b.byte() as usize).is_multiple_of(RENDER_EVERY) {
        return;
    }
    match crate::kit::make_with(&rs, &opts, false) {
        Err(e) => assert!(!e.trim().is_empty(), "a layout error without a message"),
        Ok(kit) => {
            let pages = kit.document.pages.len();
            assert!(
                (1..=crate::layout::MAX_PAGES).contains(&pages),
                "{pages} pages"
            );
            let pdf = kit.files.iter().find(|f| f.name == "kit.pdf").unwrap();
            assert!(pdf.bytes.starts_with(b"%PDF"), "kit.pdf is not a PDF");
            let svgs = kit
                .files
                .iter()
                .filter(|f| f.name.ends_with(".svg") && !f.name.starts_with("key-"))
                .count();
            assert_eq!(svgs, pages, "one SVG per page");
            let again = crate::kit::make_with(&rs, &opts, false).expect("made once, so made twice");
            assert!(again.files == kit.files, "two builds differ");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generator must mostly make rulesets the loader accepts, or the engine and kit
    /// targets would test nothing.
    #[test]
    fn generated_rulesets_mostly_load() {
        let mut ok = 0;
        let mut first_err = None;
        for k in 0..300u32 {
            let data: Vec<u8> = (0..64u32)
                .map(|i| (k.wrapping_mul(2_654_435_761).wrapping_add(i * 40_503) >> 13) as u8)
                .collect();
            let src = ruleset_toml(&mut Bytes::new(&data));
            match ruleset::load_str("gen.toml", &src) {
                Ok(_) => ok += 1,
                Err(e) => {
                    first_err.get_or_insert(e[0].short());
                }
            }
        }
        assert!(ok >= 240, "only {ok} of 300 load; e.g. {first_err:?}");
    }
}
