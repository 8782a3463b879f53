//! Replays every worked example of a ruleset through the engine and compares each expectation.
//!
//! `build` calls [`check`] before anything is laid out: any disagreement between what a
//! ruleset's author worked out by hand and what the engine computes stops the build. Each
//! problem is a [`Diagnostic`] naming the file, the line of the field, the example (number and
//! title), the field, and the expected versus the actual value in [`crate::notation`] form.

use crate::engine::{Game, Report, Rules};
use crate::notation;
use crate::ruleset::load::{line_span, Diagnostic, MAX_LIST_ITEMS};
use crate::ruleset::{Example, Ruleset, Start};

/// What replaying one example produced: the start, each move's report, and the final game.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Position the example starts from.
    pub start: crate::engine::Position,
    /// One report per move, in order.
    pub reports: Vec<Report>,
    /// Position after the last move.
    pub end: crate::engine::Position,
}

/// The board `ex` is played on: `None` for `rules`' own board, or `rules` shortened by the
/// pits its start position marks closed (`x`, see [`crate::notation`]). Errors (for the
/// `start` field): the position cannot be read, or the closed pits cannot shorten this board.
pub fn board_for(rules: &Rules, ex: &Example) -> Result<Option<Rules>, String> {
    let Start::Position(s) = &ex.start else {
        return Ok(None);
    };
    board_for_position(rules, s)
}

/// What is said of a start position `s` that cannot be read (`e`: why), asking about
/// `initial` when `s` is one slip from that word ("intial", "Initial").
pub(crate) fn unreadable_start(s: &str, e: impl std::fmt::Display) -> String {
    let word = s.trim().to_ascii_lowercase();
    let meant = if !word.contains('/') && crate::ruleset::load::edit_distance(&word, "initial") <= 2
    {
        " (did you mean \"initial\", the game's starting position?)"
    } else {
        ""
    };
    format!("the start position {s:?} cannot be read: {e}{meant}")
}

/// The board a game from position `s` (notation form) is played on: `None` for `rules`' own
/// board, or `rules` shortened by the pits `s` marks closed (`x`), as a next round of the
/// ruleset's `[next_round]` shortens it. Errors: the position cannot be read, the ruleset has
/// no `[next_round]` that lets the board be shortened, or the closed pits leave fewer open
/// pits a row than it allows.
pub fn board_for_position(rules: &Rules, s: &str) -> Result<Option<Rules>, String> {
    let closed = notation::closed_pits(rules, s).map_err(|e| unreadable_start(s, e))?;
    if closed.is_empty() {
        return Ok(None);
    }
    let rs = rules.ruleset();
    let Some(nr) = &rs.next_round else {
        return Err(format!(
            "the start position {s:?} closes pits (x), but this ruleset has no [next_round] table that lets the board be shortened"
        ));
    };
    let n = rs.board.pits_per_side;
    let open = n - closed.iter().filter(|&&h| (h as usize) < n).count();
    if nr.shorten_below == 0 || open < nr.min_pits {
        return Err(format!(
            "the start position {s:?} leaves {open} open pits a row, but [next_round] allows {}",
            if nr.shorten_below == 0 {
                "no shortening (shorten_below = 0)".to_string()
            } else {
                format!("no fewer than min_pits = {}", nr.min_pits)
            }
        ));
    }
    rules
        .shortened(&closed)
        .map(Some)
        .map_err(|e| format!("the start position {s:?} cannot shorten the board: {e}"))
}

/// Replays `ex` on `rules`. Errors are plain messages with the field they concern
/// (`start`, `moves[2]`), for [`check`] to place in the file.
pub fn replay<'r>(rules: &'r Rules, ex: &Example) -> Result<(Replay, Game<'r>), (String, String)> {
    let (start, _) = match &ex.start {
        Start::Initial => (rules.initial(), true),
        Start::Position(s) => notation::parse_position(rules, s)
            .map_err(|e| ("start".to_string(), unreadable_start(s, e)))?,
    };
    if let Some(m) = seed_total_mismatch(rules, &start) {
        return Err((
            "start".to_string(),
            format!("the start position {m}: a worked example's position must hold every seed"),
        ));
    }
    let mut game = Game::new(rules, start.clone());
    if let (Some(end), false) = (game.ending(), ex.moves.is_empty()) {
        return Err((
            "start".to_string(),
            format!(
                "the start position is already a finished game ({}), so move 1 cannot be played: start from a position where {} can move",
                reason_words(end.reason),
                rules.player_name(start.to_move)
            ),
        ));
    }
    let mut reports = Vec::with_capacity(ex.moves.len());
    for (i, m) in ex.moves.iter().enumerate() {
        let field = format!("moves[{}]", i + 1);
        let mv = notation::parse_move(rules, m).map_err(|e| {
            (
                field.clone(),
                format!("move {} {m:?} cannot be read: {e}", i + 1),
            )
        })?;
        let before = notation::format_position(rules, game.position());
        let report = game.play(mv).map_err(|e| {
            let why = match e {
                crate::engine::EngineError::IllegalMove(w) => format!("is not legal: {w}"),
                crate::engine::EngineError::GameOver => "comes after the game is over".to_string(),
                crate::engine::EngineError::NonTerminating(w) => format!("never ends: {w}"),
                crate::engine::EngineError::InvalidPosition(w) => format!("cannot be played: {w}"),
            };
            (
                field.clone(),
                format!("move {} {m:?} {why} (position before it: {before})", i + 1),
            )
        })?;
        reports.push(report);
    }
    let end = game.position().clone();
    Ok((
        Replay {
            start,
            reports,
            end,
        },
        game,
    ))
}

/// Why a game ended, in a sentence fragment.
fn reason_words(r: crate::engine::EndReason) -> &'static str {
    use crate::engine::EndReason::*;
    match r {
        SideEmpty => "a row of pits is empty",
        Threshold => "a store already holds the count that ends the game (end.threshold)",
        Repetition => "the position repeats",
        NoLegalMove => "the player to move has no legal move",
        NoMovesForBoth => "neither player can move",
    }
}

/// Checks every worked example of `rs`; `src` is the ruleset's text (for snippets).
/// Returns one diagnostic per disagreement; empty when all examples hold.
///
/// An example that cannot agree because the rules it was worked out for changed gets one
/// diagnostic, not one per expectation that merely follows: its start cannot be read on this
/// board or lacks seeds, a move cannot be played, or its expected position was written for
/// another board size or another `seeds_per_pit` (see [`written_for`]). That diagnostic says
/// which expectations were not compared.
pub fn check(rs: &Ruleset, src: &str) -> Vec<Diagnostic> {
    let rules = Rules::new(rs);
    let mut out = Vec::new();
    for (i, ex) in rs.examples.iter().enumerate() {
        let tag = format!("example {} \"{}\"", i + 1, ex.title);
        let at = |field: &str| -> std::ops::Range<usize> {
            let line = ex.field_lines.get(field).copied().unwrap_or(ex.line);
            line_span(src, line)
        };
        // The one diagnostic of an example that cannot agree: at `field`, saying which of its
        // expectations (all, or all but `position`) were not compared.
        let stop = |field: &str, full_field: String, msg: &str, other: bool| {
            let fields: Vec<&str> = stated(ex)
                .into_iter()
                .filter(|f| !(other && *f == "position"))
                .collect();
            let note = if fields.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} expectation{} ({}) {} not compared",
                    if other { "its other" } else { "its" },
                    if fields.len() == 1 { "" } else { "s" },
                    fields.join(", "),
                    if fields.len() == 1 { "was" } else { "were" },
                )
            };
            Diagnostic::at(
                &rs.path,
                src,
                at(field),
                &full_field,
                &format!("{tag}: {msg}{note}"),
            )
        };
        // A start with closed pits (x) plays on the shortened board.
        let own = match board_for(&rules, ex) {
            Ok(o) => o,
            Err(msg) => {
                let msg = match start_written_for(&rules, ex) {
                    Some(w) => format!("{msg}; {w}"),
                    None => msg,
                };
                out.push(stop(
                    "start",
                    format!("example[{}].start", i + 1),
                    &msg,
                    false,
                ));
                continue;
            }
        };
        let rules = own.as_ref().unwrap_or(&rules);
        // A start that lacks seeds or a move that cannot be played leaves nothing to compare.
        let (replay, game) = match replay(rules, ex) {
            Ok(r) => r,
            Err((field, msg)) => {
                let msg = match (field.as_str(), start_written_for(rules, ex)) {
                    ("start", Some(w)) => format!("{msg}; {w}"),
                    _ => msg,
                };
                out.push(stop(
                    &field,
                    format!("example[{}].{field}", i + 1),
                    &msg,
                    false,
                ));
                continue;
            }
        };
        // An expected position written for another board or starting count: every other
        // expectation differs because of that, not on its own.
        if let Some(p) = &ex.expect.position {
            if let Some(w) = written_for(rules, p) {
                let what = match notation::parse_position(rules, p) {
                    Err(err) => format!("the expected position {p:?} cannot be read: {err}"),
                    Ok(_) => seed_total_wrong(rs, notation_total(rules, p).unwrap_or(0)),
                };
                out.push(stop(
                    "position",
                    format!("example[{}].expect.position", i + 1),
                    &format!("{what}; {w}"),
                    true,
                ));
                continue;
            }
        }
        // Every independent problem in one run: a name the ruleset lacks does not stop the
        // other fields' comparison.
        let unknown = unknown_names(rules, ex);
        let mut unknown_fields: Vec<String> = unknown.iter().map(|(f, _)| f.clone()).collect();
        let compared = compare(rules, ex, &replay, &game);
        // Sowing moves seeds and never adds or removes one: an expected position with another
        // total is miscounted, whatever the moves do. Say that, not just "it differs".
        if let Some(found) = ex
            .expect
            .position
            .as_ref()
            .and_then(|p| notation_total(rules, p))
        {
            let want = rs.total_seeds();
            if found != want {
                // With what the engine gives, hole by hole, as for any other wrong position:
                // the pits to recount.
                let engine = compared
                    .iter()
                    .find(|(f, _, _)| f == "position")
                    .map(|(_, _, actual)| format!("; the engine gives {actual}"))
                    .unwrap_or_default();
                out.push(Diagnostic::at(
                    &rs.path,
                    src,
                    at("position"),
                    &format!("example[{}].expect.position", i + 1),
                    &format!(
                        "{tag}: {}{engine}; recount the pits and stores",
                        seed_total_wrong(rs, found)
                    ),
                ));
                unknown_fields.push("position".to_string());
            }
        }
        for (field, msg) in unknown {
            out.push(Diagnostic::at(
                &rs.path,
                src,
                at(&field),
                &format!("example[{}].expect.{field}", i + 1),
                &format!("{tag}: {msg}"),
            ));
        }
        for (field, expected, actual) in compared
            .into_iter()
            .filter(|(f, _, _)| !unknown_fields.contains(f))
        {
            let msg =
                format!("{tag}: expected {field} = {expected}, but the engine gives {actual}");
            out.push(Diagnostic::at(
                &rs.path,
                src,
                at(&field),
                &format!("example[{}].expect.{field}", i + 1),
                &msg,
            ));
        }
    }
    out
}

/// "the seed total is wrong: expected 48 seeds (6 pits × 2 × 4 seeds; …), found `found`": an
/// expected position holding `found` seeds where `rs`'s game always has its total.
fn seed_total_wrong(rs: &Ruleset, found: u32) -> String {
    format!(
        "the seed total is wrong: expected {} seeds ({} pits × 2 × {} seeds; no move adds or removes one), found {found}",
        rs.total_seeds(),
        rs.board.pits_per_side,
        rs.board.seeds_per_pit
    )
}

/// The expectations `ex` states, in the order [`compare`] compares them.
fn stated(ex: &Example) -> Vec<&'static str> {
    let e = &ex.expect;
    [
        ("position", e.position.is_some()),
        ("next", e.next.is_some()),
        ("extra_turn", e.extra_turn.is_some()),
        ("captured", e.captured.is_some()),
        ("game_over", e.game_over.is_some()),
        ("scores", e.scores.is_some()),
        ("last", e.last.is_some()),
        ("sown", e.sown.is_some()),
        ("legal", e.legal.is_some()),
        ("grand_slam", e.grand_slam.is_some()),
        ("passed", e.passed.is_some()),
    ]
    .into_iter()
    .filter_map(|(f, has)| has.then_some(f))
    .collect()
}

/// The seeds position `p` holds, pits and stores together, when it can be read on `rules`.
fn notation_total(rules: &Rules, p: &str) -> Option<u32> {
    notation::parse_position(rules, p)
        .ok()
        .map(|(pos, _)| pos.holes.iter().map(|&h| u32::from(h)).sum())
}

/// What a worked example's position was worked out for when it is not this ruleset's game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WrittenFor {
    /// Another number of pits a side: each side has this many counts.
    PitsPerSide(usize),
    /// Another starting count: the position holds 2 × pits × this many seeds.
    SeedsPerPit(u32),
}

/// What position `p` (notation form) was worked out for when it is not this ruleset's game:
/// another number of pits a side, or, on this board, a seed total that is another whole
/// number of seeds a pit. `None` when it fits this game or is wrong some other way: a
/// miscount never looks like another starting count unless it is off by a multiple of
/// 2 × pits seeds.
pub fn written_for_kind(rules: &Rules, p: &str) -> Option<WrittenFor> {
    if let Some(k) = notation::other_pits_per_side(rules, p) {
        return Some(WrittenFor::PitsPerSide(k));
    }
    let b = &rules.ruleset().board;
    let total = notation_total(rules, p)?;
    let both_rows = 2 * b.pits_per_side as u32;
    let k = total / both_rows;
    (total > 0 && total % both_rows == 0 && k != u32::from(b.seeds_per_pit))
        .then_some(WrittenFor::SeedsPerPit(k))
}

/// [`written_for_kind`] said in a clause: `it was worked out for pits_per_side = 6, which is
/// now 5`, or `it was worked out for seeds_per_pit = 4 (48 seeds), which is now 5`.
pub fn written_for(rules: &Rules, p: &str) -> Option<String> {
    let b = &rules.ruleset().board;
    Some(match written_for_kind(rules, p)? {
        WrittenFor::PitsPerSide(k) => format!(
            "it was worked out for pits_per_side = {k}, which is now {}",
            b.pits_per_side
        ),
        WrittenFor::SeedsPerPit(k) => format!(
            "it was worked out for seeds_per_pit = {k} ({} seeds), which is now {}",
            k * 2 * b.pits_per_side as u32,
            b.seeds_per_pit
        ),
    })
}

/// The line printed after the errors when several worked examples disagree with the engine:
/// `disagreeing` are their numbers (1-based) among `rs`' examples. It says how many of how
/// many disagree, the likely cause when every position worked out for other rules was
/// worked out for the same other board or starting count (`seeds_per_pit is now 5`), and
/// the `sowkit replay … --emit-example` command that rewrites an example from the engine:
/// for the first disagreeing example whose start and moves still play, its own command; else
/// the command's form. `None` for fewer than two.
pub fn summary(rs: &Ruleset, disagreeing: &[usize]) -> Option<String> {
    if disagreeing.len() < 2 {
        return None;
    }
    let rules = Rules::try_new(rs).ok()?;
    let b = &rs.board;
    let examples: Vec<(usize, &Example)> = disagreeing
        .iter()
        .filter_map(|&n| rs.examples.get(n.checked_sub(1)?).map(|ex| (n, ex)))
        .collect();
    // What each example's positions were worked out for, and which examples still play.
    let mut causes: Vec<WrittenFor> = Vec::new();
    let mut with_cause = 0;
    let mut replayable = None;
    let mut bad_starts = 0;
    for &(n, ex) in &examples {
        let own = board_for(&rules, ex);
        let on = own.as_ref().ok().and_then(|o| o.as_ref()).unwrap_or(&rules);
        let positions = [
            match &ex.start {
                Start::Position(s) => Some(s.as_str()),
                Start::Initial => None,
            },
            ex.expect.position.as_deref(),
        ];
        let found: Vec<WrittenFor> = positions
            .into_iter()
            .flatten()
            .filter_map(|p| written_for_kind(on, p))
            .collect();
        if !found.is_empty() {
            with_cause += 1;
        }
        causes.extend(found);
        match own.as_ref().map(|_| replay(on, ex)) {
            Ok(Ok(_)) => {
                if replayable.is_none() {
                    replayable = Some((n, ex));
                }
            }
            Ok(Err((field, _))) if field != "start" => {}
            _ => bad_starts += 1,
        }
    }
    causes.sort();
    causes.dedup();
    let mut line = format!(
        "{}: {} of {} worked examples disagree with the engine",
        rs.path,
        examples.len(),
        rs.examples.len()
    );
    match causes.as_slice() {
        [WrittenFor::PitsPerSide(k)] => line.push_str(&format!(
            "; likely cause: the board changed: pits_per_side is now {}, and {with_cause} of them were worked out for {k}",
            b.pits_per_side
        )),
        [WrittenFor::SeedsPerPit(k)] => line.push_str(&format!(
            "; likely cause: the opening position changed: seeds_per_pit is now {}, and {with_cause} of them were worked out for {k}",
            b.seeds_per_pit
        )),
        _ => {}
    }
    match replayable {
        Some((n, ex)) => {
            let from = match &ex.start {
                Start::Position(s) => Some(s.as_str()),
                Start::Initial => None,
            };
            line.push_str(&format!(
                ". `{}` prints example {n} as the engine plays it, an [[example]] to put in place of the old one",
                crate::replay::emit_example_command(&rs.path, from, &ex.moves, Some(&ex.title))
            ));
            // What the emitted example does not carry over from the old one (a break-it pass:
            // replacing example 3 of Kalah as told dropped an exercise from the practice page).
            let mut keep = Vec::new();
            if ex.note.is_some() {
                keep.push("its note".to_string());
            }
            if ex.exercise {
                keep.push("exercise = true".to_string());
            }
            if !ex.texts.is_empty() {
                keep.push(if ex.texts.values().any(|t| t.note.is_some()) {
                    "its translated title and note".to_string()
                } else {
                    "its translated title".to_string()
                });
            }
            if !keep.is_empty() {
                line.push_str(&format!(
                    " (copy over {} by hand)",
                    crate::ruleset::load::join_and(&keep)
                ));
            }
            if bad_starts > 0 {
                line.push_str(&format!(
                    "; {bad_starts} of them {} a new start position (--from) that holds {} seeds",
                    if bad_starts == 1 { "needs" } else { "need" },
                    rs.total_seeds()
                ));
            }
        }
        None => line.push_str(&format!(
            ". `{}` prints a worked example as the engine plays it, an [[example]] to put in place of an old one",
            crate::replay::emit_example_command(
                &rs.path,
                Some("POSITION"),
                &["MOVES".to_string()],
                None
            )
        )),
    }
    Some(line)
}

/// [`written_for`] of `ex`'s start position; `None` for the initial position.
fn start_written_for(rules: &Rules, ex: &Example) -> Option<String> {
    match &ex.start {
        Start::Initial => None,
        Start::Position(s) => written_for(rules, s),
    }
}

fn yes_no(b: bool) -> String {
    b.to_string()
}

/// `["S4", "S5"]`: the holes, moves or players of a compared list, quoted, at most
/// [`MAX_LIST_ITEMS`] of them (the rest counted: `[…] and 936 more`). An expected list has
/// at most that many items (the loader's limit), but the engine's can be longer: a move of
/// many seeds sows many holes, and relay sowing thousands.
fn list(v: &[String]) -> String {
    let mut s = format!(
        "[{}]",
        v.iter()
            .take(MAX_LIST_ITEMS)
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if v.len() > MAX_LIST_ITEMS {
        s.push_str(&format!(" and {} more", v.len() - MAX_LIST_ITEMS));
    }
    s
}

/// One side's pit labels in short: `S1–S3` when they are a prefix numbered 1, 2, 3 …,
/// else every label.
fn side_range(labels: &[String]) -> String {
    let numbered = |prefix: &str| {
        labels
            .iter()
            .enumerate()
            .all(|(k, l)| l.strip_prefix(prefix) == Some(&(k + 1).to_string()))
    };
    match (labels.first(), labels.last()) {
        (Some(first), Some(last)) if labels.len() > 2 => {
            let prefix = first.trim_end_matches(|c: char| c.is_ascii_digit());
            if numbered(prefix) {
                format!("{first}–{last}")
            } else {
                labels.join(", ")
            }
        }
        _ => labels.join(", "),
    }
}

/// The most names one message lists; the others are counted ("and 3 more").
const MAX_NAMED: usize = 8;
/// The most characters of one name a message quotes; a longer one is cut with "…".
const MAX_NAME_CHARS: usize = 40;

/// `"S4"` or `"S4", "S5"`: the labels as written, quoted, at most [`MAX_NAMED`] of them (the
/// rest counted: `"X1", …, "X8" and 22 more`) and each cut at [`MAX_NAME_CHARS`] characters,
/// so a file naming many or long things that do not exist gets a message of a few lines.
fn quoted(items: &[&String]) -> String {
    let mut s = items
        .iter()
        .take(MAX_NAMED)
        .map(|s| {
            if s.chars().count() > MAX_NAME_CHARS {
                let cut: String = s.chars().take(MAX_NAME_CHARS).collect();
                format!("{:?}", cut + "…")
            } else {
                format!("{s:?}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_NAMED {
        s.push_str(&format!(" and {} more", items.len() - MAX_NAMED));
    }
    s
}

/// Expectations that name something the ruleset does not have: (field, message), one per
/// field however many of its items are wrong (a board cut from 6 pits to 3 made every `S4`,
/// `S5`, `S6` of every `sown` list its own error).
fn unknown_names(rules: &Rules, ex: &Example) -> Vec<(String, String)> {
    let rs = rules.ruleset();
    let n = rules.pits_per_side();
    let side = |s: usize| -> Vec<String> {
        (s * n..(s + 1) * n)
            .map(|h| rules.label(h as u8).to_string())
            .collect()
    };
    let pits = || format!("{} and {}", side_range(&side(0)), side_range(&side(1)));
    let board = || format!("this {n}-pit board");
    let players = || format!("{} or {}", rs.board.players[0], rs.board.players[1]);
    let is_player = |s: &str| rs.board.players.iter().any(|p| p == s);
    let mut bad = Vec::new();
    let e = &ex.expect;
    for (field, items) in [
        ("last", e.last.iter().collect::<Vec<_>>()),
        ("sown", e.sown.iter().flatten().collect()),
    ] {
        let mut wrong: Vec<&String> = Vec::new();
        for l in items {
            if rules.hole_by_label(l).is_none() && !wrong.contains(&l) {
                wrong.push(l);
            }
        }
        if wrong.is_empty() {
            continue;
        }
        let what = if wrong.len() == 1 {
            "is not a pit or store label"
        } else {
            "are not pit or store labels"
        };
        bad.push((
            field.to_string(),
            format!(
                "{} {what} of {}: the pits are {}, the stores {} and {}",
                quoted(&wrong),
                board(),
                pits(),
                rs.board.stores[0],
                rs.board.stores[1]
            ),
        ));
    }
    if let Some(n) = &e.next {
        if n != "none" && !is_player(n) {
            bad.push((
                "next".to_string(),
                format!(
                    "{n:?} is not a player: write {}, or \"none\" when the game is over",
                    players()
                ),
            ));
        }
    }
    let not_players: Vec<&String> = e
        .passed
        .iter()
        .flatten()
        .filter(|p| !is_player(p))
        .collect();
    if !not_players.is_empty() {
        let what = if not_players.len() == 1 {
            "is not a player"
        } else {
            "are not players"
        };
        bad.push((
            "passed".to_string(),
            format!("{} {what}: write {}", quoted(&not_players), players()),
        ));
    }
    // Moves that name no hole at all are said together; any other wrong move (a store, a
    // direction mark) with its own reason, all in the one `legal` error.
    let mut no_pit: Vec<&String> = Vec::new();
    let mut other: Vec<String> = Vec::new();
    for m in e.legal.iter().flatten() {
        if let Err(err) = notation::parse_move(rules, m) {
            let label = m.trim().trim_end_matches(['<', '>']).trim_end();
            if rules.hole_by_label(label).is_none() {
                if !no_pit.contains(&m) {
                    no_pit.push(m);
                }
            } else {
                let why = format!("{m:?} is not a move: {err}");
                if !other.contains(&why) {
                    other.push(why);
                }
            }
        }
    }
    if !no_pit.is_empty() || !other.is_empty() {
        let mut parts = Vec::new();
        match no_pit.as_slice() {
            [] => {}
            [m] => parts.push(format!(
                "{m:?} is not a move: expected a pit label of {} ({}), found {m:?}",
                board(),
                pits()
            )),
            _ => parts.push(format!(
                "{} are not moves: they are not pits of {} ({})",
                quoted(&no_pit),
                board(),
                pits()
            )),
        }
        // Each with its reason, at most MAX_NAMED of them (the rest counted): a list of 64
        // store labels and direction marks made one message of 64 sentences.
        let more = other.len().saturating_sub(MAX_NAMED);
        parts.extend(other.into_iter().take(MAX_NAMED));
        if more > 0 {
            parts.push(format!(
                "and {more} more {} not {}",
                if more == 1 { "is" } else { "are" },
                if more == 1 { "a move" } else { "moves" }
            ));
        }
        bad.push(("legal".to_string(), parts.join("; ")));
    }
    if let Some(p) = &e.position {
        if let Err(err) = notation::parse_position(rules, p) {
            bad.push((
                "position".to_string(),
                format!("the expected position {p:?} cannot be read: {err}"),
            ));
        }
    }
    bad
}

/// Every stated expectation that does not hold: (field, expected, actual), in field order.
fn compare(
    rules: &Rules,
    ex: &Example,
    r: &Replay,
    game: &Game<'_>,
) -> Vec<(String, String, String)> {
    let e = &ex.expect;
    let mut bad = Vec::new();
    let last = r.reports.last();
    let mut push = |f: &str, exp: String, act: String| {
        if exp != act {
            bad.push((f.to_string(), exp, act));
        }
    };
    if let Some(p) = &e.position {
        match notation::parse_position(rules, p) {
            Err(err) => push("position", format!("{p:?}"), format!("(unreadable: {err})")),
            Ok((pos, with_mover)) => {
                let actual = if with_mover {
                    notation::format_position(rules, &r.end)
                } else {
                    notation::format_board(rules, &r.end)
                };
                let expected = if with_mover {
                    notation::format_position(rules, &pos)
                } else {
                    notation::format_board(rules, &pos)
                };
                // Where they differ, hole by hole ("S3 has 5, not 4"): two long positions are
                // hard to compare by eye.
                let differ: Vec<String> = pos
                    .holes
                    .iter()
                    .zip(&r.end.holes)
                    .enumerate()
                    .filter(|(_, (e, a))| e != a)
                    .map(|(h, (e, a))| format!("{} has {a}, not {e}", rules.label(h as u8)))
                    .collect();
                let actual = if differ.is_empty() || expected == actual {
                    actual
                } else {
                    let shown = differ.len().min(4);
                    let more = match differ.len() - shown {
                        0 => String::new(),
                        m => format!(" and {m} more"),
                    };
                    format!("{actual} ({}{more})", differ[..shown].join("; "))
                };
                push("position", expected, actual);
            }
        }
    }
    if let Some(n) = &e.next {
        let actual = match game.ending() {
            Some(_) => "none".to_string(),
            None => rules.player_name(game.position().to_move).to_string(),
        };
        push("next", n.clone(), actual);
    }
    if let Some(x) = e.extra_turn {
        push(
            "extra_turn",
            yes_no(x),
            yes_no(last.is_some_and(|l| l.extra_turn)),
        );
    }
    if let Some(c) = e.captured {
        push(
            "captured",
            c.to_string(),
            last.map_or(0, |l| l.captured).to_string(),
        );
    }
    if let Some(g) = e.game_over {
        push("game_over", yes_no(g), yes_no(game.ending().is_some()));
    }
    if let Some(s) = e.scores {
        let actual = match game.ending() {
            Some(end) => format!("[{}, {}]", end.scores[0], end.scores[1]),
            None => "no final scores (the game is not over)".to_string(),
        };
        push("scores", format!("[{}, {}]", s[0], s[1]), actual);
    }
    if let Some(l) = &e.last {
        let actual = last.map_or("(no move)".to_string(), |rep| {
            rules.label(rep.last).to_string()
        });
        // Labels are matched as the loader keeps them unique: ignoring case.
        let expected = rules
            .hole_by_label(l)
            .map_or(l.clone(), |h| rules.label(h).to_string());
        push("last", expected, actual);
    }
    if let Some(s) = &e.sown {
        let actual: Vec<String> = last
            .map(|rep| {
                rep.laps
                    .iter()
                    .flat_map(|lap| lap.sown.iter().map(|&h| rules.label(h).to_string()))
                    .collect()
            })
            .unwrap_or_default();
        // Compare holes, not spellings: labels match ignoring case, as in moves.
        let canonical: Vec<String> = s
            .iter()
            .map(|l| {
                rules
                    .hole_by_label(l)
                    .map_or(l.clone(), |h| rules.label(h).to_string())
            })
            .collect();
        push("sown", list(&canonical), list(&actual));
    }
    if let Some(l) = &e.legal {
        let actual: Vec<String> = game
            .legal_moves()
            .into_iter()
            .map(|m| notation::format_move(rules, m))
            .collect();
        // Compare moves, not spellings (unreadable moves were reported before replaying).
        let mut exp_sorted: Vec<String> = l
            .iter()
            .map(|m| {
                notation::parse_move(rules, m)
                    .map_or(m.clone(), |mv| notation::format_move(rules, mv))
            })
            .collect();
        exp_sorted.sort();
        let mut act_sorted = actual.clone();
        act_sorted.sort();
        if exp_sorted != act_sorted {
            push("legal", list(l), list(&actual));
        }
    }
    if let Some(g) = e.grand_slam {
        push(
            "grand_slam",
            yes_no(g),
            yes_no(last.is_some_and(|l| l.grand_slam)),
        );
    }
    if let Some(p) = &e.passed {
        let actual: Vec<String> = last
            .map(|rep| {
                rep.passed
                    .iter()
                    .map(|&s| rules.player_name(s).to_string())
                    .collect()
            })
            .unwrap_or_default();
        push("passed", list(p), list(&actual));
    }
    bad
}

/// Games played by [`sanity`], and the plies each may last.
const SANITY_GAMES: usize = 40;
const SANITY_PLIES: usize = 400;
/// Seeds [`sanity`] may sow by relay sowing, trial moves included ([`crate::engine::SowBudget`]): on a
/// big board where relay sowing goes round many times a move sows thousands of seeds, and
/// 40 × 400 × (legal moves) such plays took 11 to 47 s. Giuthi, the bundled ruleset with
/// relay sowing, sows 115,328.
pub const SANITY_SOWN: u64 = 8_000_000;

/// Plays a fixed set of pseudo-random games (seeded from the ruleset id, so every run is the
/// same) and tries every legal move at every ply, looking for a move the rules allow but that
/// never ends (relay sowing that goes round forever). Such a ruleset cannot be played from its
/// rule sheet, so this is an error pointing at `[sowing]`; `src` is the ruleset's text.
/// Returns at most one diagnostic. Cost: about 40 × 400 × (legal moves) plays, and at most
/// [`SANITY_SOWN`] seeds sown by relay sowing (then it stops, finding nothing: a move that
/// never ends is still refused when it is played).
pub fn sanity(rs: &Ruleset, src: &str) -> Vec<Diagnostic> {
    // Without relay sowing every move is one handful: it always ends.
    if rs.sowing.relay == crate::ruleset::Relay::None {
        return Vec::new();
    }
    let rules = Rules::new(rs);
    let mut rng = crate::rng::XorShift::seeded(&rs.id);
    let budget = crate::engine::SowBudget::new(SANITY_SOWN);
    // One trial game restarted at each position (`reset_to`: the same game as a new one
    // there, without allocating), and moves played without their reports: the same plays,
    // the same errors and the same seeds sown as `Game::new` and `Game::play` each time.
    let mut trial = Game::new(&rules, rules.initial());
    let mut moves = crate::engine::MoveList::new();
    for _ in 0..SANITY_GAMES {
        let mut game = Game::new(&rules, rules.initial());
        for _ in 0..SANITY_PLIES {
            game.legal_moves_into(&mut moves);
            if game.ending().is_some() || moves.is_empty() {
                break;
            }
            for &mv in moves.as_slice() {
                trial.reset_to(&game);
                if let Err(crate::engine::EngineError::NonTerminating(why)) = trial.play_fast(mv) {
                    // Point at the `relay = …` line, else the [sowing] header.
                    let line = line_starting(src, &["relay", "[sowing]"]);
                    let msg = format!(
                        "these rules allow a move that never ends ({why}). Relay sowing can go round for ever with these settings: change sowing.relay, or let a store or the emptied pit end it"
                    );
                    return vec![Diagnostic::at(
                        &rs.path,
                        src,
                        line_span(src, line),
                        "sowing.relay",
                        &msg,
                    )];
                }
                if !budget.left() {
                    return Vec::new();
                }
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            if game.play_fast(mv).is_err() {
                break;
            }
        }
    }
    Vec::new()
}

/// The first line (1-based) of `src` that starts, after its indent, with `starts[0]`; else
/// with `starts[1]`, and so on; else line 1. Where a whole-ruleset finding is pointed at.
fn line_starting(src: &str, starts: &[&str]) -> usize {
    starts
        .iter()
        .find_map(|s| src.lines().position(|l| l.trim().starts_with(s)))
        .map_or(1, |i| i + 1)
}

/// Games played by [`endless`], and the plies each may last.
const ENDLESS_GAMES: usize = 40;
const ENDLESS_PLIES: usize = 400;

/// Rules without a repetition end (`end.when` has no `"repetition"`) under which play can come
/// back to an earlier position: the players could then repeat those moves for ever, and the
/// rule sheet gives no way to end the game (`solve` refuses such rules for the same reason,
/// [`crate::solve::SolveError::EndlessPlay`]). Plays a fixed set of pseudo-random games
/// (seeded from the ruleset id, so every run is the same) and reports the first position that
/// recurs within one game, as a warning at `end.when`. It can miss a cycle that random play
/// does not reach, never reports one that is not there. Cost: at most 40 × 400 plies and a
/// set of the positions of one game; nothing when the rules have the repetition end, or
/// relay sowing that never ends ([`sanity`] reports that).
pub fn endless(rs: &Ruleset, src: &str) -> Vec<Diagnostic> {
    if rs.end.repetition {
        return Vec::new();
    }
    let Ok(rules) = Rules::try_new(rs) else {
        return Vec::new();
    };
    let mut rng = crate::rng::XorShift::seeded(&format!("{}/endless", rs.id));
    let budget = crate::engine::SowBudget::new(SANITY_SOWN);
    // One game's positions (the set is emptied, not dropped, between games).
    let mut seen: rustc_hash::FxHashSet<crate::engine::Position> = Default::default();
    seen.reserve(ENDLESS_PLIES);
    for _ in 0..ENDLESS_GAMES {
        let mut game = Game::new(&rules, rules.initial());
        seen.clear();
        let mut list = crate::engine::MoveList::default();
        for _ in 0..ENDLESS_PLIES {
            if !seen.insert(game.position().clone()) {
                let at = crate::notation::format_position(&rules, game.position());
                let line = line_starting(src, &["when", "[end]"]);
                let msg = format!(
                    "play can come back to an earlier position ({at}), and end.when has no \"repetition\": players could repeat those moves for ever, and the rule sheet gives no way to end such a game; add \"repetition\" to end.when (the sheet then says how it ends)"
                );
                return vec![Diagnostic::warning_at(
                    &rs.path,
                    src,
                    line_span(src, line),
                    "end.when",
                    &msg,
                )];
            }
            game.legal_moves_into(&mut list);
            let moves = list.as_slice();
            if game.ending().is_some() || moves.is_empty() || !budget.left() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            if game.play_fast(mv).is_err() {
                break;
            }
        }
    }
    Vec::new()
}

/// `None` when `pos` holds every seed of the game (pits and stores together: no rule adds or
/// removes seeds, so every reachable position does); else what is wrong, as "holds N seeds,
/// but this game has M (P pits × 2 × S seeds)". Worked examples, `replay --from`, `solve
/// --from` and the play-test page all refuse such a position.
pub fn seed_total_mismatch(rules: &Rules, pos: &crate::engine::Position) -> Option<String> {
    let total: u32 = pos.holes.iter().map(|&h| u32::from(h)).sum();
    let want = rules.ruleset().total_seeds();
    (total != want).then(|| {
        let b = &rules.ruleset().board;
        format!(
            "holds {total} seeds, but this game has {want} ({} pits × 2 × {} seeds)",
            b.pits_per_side, b.seeds_per_pit
        )
    })
}
