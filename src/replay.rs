//! Replaying moves through the engine: the text board of `sowkit replay`, its versioned JSON
//! shape (also the play-test page's API answer), and a ready `[[example]]` from a replay.
//!
//! # JSON shape, version 1 (`"format": "sowkit-replay"`, `"version": 1`)
//!
//! ```text
//! {
//!   "format": "sowkit-replay", "version": 1,
//!   "ruleset": {"id": "kalah-6x4", "name": "Kalah (six pits, four seeds)"},
//!   "players": ["A", "B"],
//!   "pit_labels": [["A1", …], ["B1", …]],   // each side in its own sowing order
//!   "store_labels": ["store A", "store B"],
//!   "direction_choice": false,               // true: moves need ">" or "<"
//!   "closed_pits": [],                       // pits closed (x) on a shortened board; their
//!                                            // counts in "pits" are 0
//!   "start": STATE,
//!   "plies": [PLY, …],
//!   "final": STATE
//! }
//! STATE = {
//!   "position": "A 4 4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0); A",   // crate::notation form
//!   "pits": [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]],         // each side in sowing order
//!   "stores": [0, 0],
//!   "next": "A",              // who moves next; null once the game is over
//!   "legal": ["A1", …],       // legal moves of "next" in notation form; [] once over
//!   "game_over": false,
//!   "end": null | {"reason": "side-empty" | "threshold" | "repetition" | "no-legal-move"
//!                  | "no-moves-for-both", "swept": [0, 3], "scores": [25, 23]},
//!   "scores": null | [25, 23]  // final scores (after the sweep) once the game is over
//! }
//! PLY = STATE (the position after the move) plus {
//!   "ply": 1, "player": "A", "move": "A3",
//!   "laps": [{"from": "A3", "direction": "ccw" | "cw", "lifted": 4,
//!             "sown": ["A4", "A5", "A6", "store A"]}],
//!   "sown": ["A4", "A5", "A6", "store A"],   // every lap's holes, in order
//!   "last": "store A",                       // hole of the last seed
//!   "captures": [{"hole": "B2", "seeds": 5}],
//!   "captured": 5, "grand_slam": false, "extra_turn": true,
//!   "passed": ["B"]                          // players who passed after this move
//! }
//! ```
//!
//! Fields are only ever added within a version; a change to a field's meaning raises it.

use crate::engine::{Dir, EndReason, Game, Position, Report, Rules};
use crate::notation;
use crate::ruleset::load::{MAX_EXAMPLE_MOVES, MAX_LIST_ITEMS};
use serde::Serialize;

/// The JSON shape's version number (see the module docs).
pub const JSON_VERSION: u32 = 1;

/// A replayed game: where it started, each ply, and the game after the last one.
#[derive(Clone, Debug)]
pub struct Replay<'r> {
    /// The rules played.
    pub rules: &'r Rules,
    /// The start, as given (`None`: the ruleset's initial position).
    pub from: Option<String>,
    /// The game at the start (before any move).
    pub start: Game<'r>,
    /// One entry per move: its notation, the engine's report, the game after it.
    pub plies: Vec<(String, Report, Game<'r>)>,
}

/// A move that could not be played: which (1-based; 0 for the start) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based number of the move that failed, 0 when the start position is wrong.
    pub ply: usize,
    /// What was wrong, with the position before the move.
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Splits a move list as typed on the command line: moves separated by spaces or commas.
pub fn split_moves(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The ruleset a game from `from` is played under: `rs` itself, or, when `from` holds the
/// seeds of one of `board.seeds_per_pit_options` (every pit starting with that many: 2 ·
/// pits_per_side · option seeds in all), `rs` starting with that many seeds a pit, so the
/// other starting counts the rule sheet offers can be replayed, solved and play-tested. `None`
/// when `rs` itself is the one (or `from` cannot be read: the caller says why).
pub fn for_start(
    rs: &crate::ruleset::Ruleset,
    from: Option<&str>,
) -> Option<crate::ruleset::Ruleset> {
    let from = from.map(str::trim).filter(|f| *f != "initial")?;
    let rules = Rules::try_new(rs).ok()?;
    let (pos, _) = notation::parse_position(&rules, from).ok()?;
    let total: u32 = pos.holes.iter().map(|&h| u32::from(h)).sum();
    if total == rs.total_seeds() {
        return None;
    }
    let pits = 2 * rs.board.pits_per_side as u32;
    let o = *rs
        .board
        .seeds_per_pit_options
        .iter()
        .find(|&&o| pits * u32::from(o) == total)?;
    let mut other = rs.clone();
    other.board.seeds_per_pit = o;
    Some(other)
}

/// The board a replay from `from` is played on: `None` for `rules`' own board (the initial
/// position, or a position without closed pits), or `rules` shortened by the pits `from`
/// marks closed (`x`), as the ruleset's `[next_round]` shortens a board: pass it to [`run`] so
/// any position the engine can reach, a next round's too, replays. Errors (at ply 0): the
/// position cannot be read, or the ruleset does not let the board be shortened so
/// ([`crate::examples::board_for_position`]).
pub fn board_for(rules: &Rules, from: Option<&str>) -> Result<Option<Rules>, ReplayError> {
    match from.map(str::trim).filter(|f| *f != "initial") {
        None => Ok(None),
        Some(s) => crate::examples::board_for_position(rules, s)
            .map_err(|message| ReplayError { ply: 0, message }),
    }
}

/// Holes a replay may list as sown, over all its moves, at most (limit on sown holes). Every
/// sown hole is kept and printed (text or JSON, and the play-test page's answer): a relay game
/// of 2,000 moves on 16 pits of 50 seeds listed 9 million, a 74 MB answer that took the
/// server to 1 GB. Giuthi's whole games sow about a thousand.
pub const REPLAY_SOWN: usize = 200_000;

/// Replays `moves` (notation form, e.g. `A3`, `B2<`) from `from` (a position in notation
/// form; `None` or `"initial"` for the ruleset's start) on `rules`; a position with closed
/// pits (`x`) is replayed on the board [`board_for`] gives. Errors: an unreadable start, the
/// first move that cannot be read or is not legal (with the position before it), or the move
/// by which the moves sow more than [`REPLAY_SOWN`] holes.
pub fn run<'r>(
    rules: &'r Rules,
    from: Option<&str>,
    moves: &[String],
) -> Result<Replay<'r>, ReplayError> {
    let from = from.map(str::trim).filter(|f| *f != "initial");
    let start_pos = match from {
        None => rules.initial(),
        Some(s) => {
            notation::parse_position(rules, s)
                .map_err(|e| ReplayError {
                    ply: 0,
                    message: crate::examples::unreadable_start(s, e),
                })?
                .0
        }
    };
    if let (Some(s), Some(m)) = (
        from,
        crate::examples::seed_total_mismatch(rules, &start_pos),
    ) {
        return Err(ReplayError {
            ply: 0,
            message: format!("the start position {s:?} {m}: give a position with every seed"),
        });
    }
    let start = Game::try_new(rules, start_pos).map_err(|e| ReplayError {
        ply: 0,
        message: format!("the start position cannot be played: {e}"),
    })?;
    let mut game = start.clone();
    let mut plies = Vec::with_capacity(moves.len());
    let mut sown = 0usize;
    for (i, m) in moves.iter().enumerate() {
        let before = notation::format_position(rules, game.position());
        let fail = |why: String| ReplayError {
            ply: i + 1,
            message: format!("move {} {m:?} {why} (position before it: {before})", i + 1),
        };
        let mv =
            notation::parse_move(rules, m).map_err(|e| fail(format!("cannot be read: {e}")))?;
        let report = game
            .play(mv)
            .map_err(|e| fail(format!("cannot be played: {e}")))?;
        sown += report.laps.iter().map(|l| l.sown.len()).sum::<usize>();
        if sown > REPLAY_SOWN {
            return Err(ReplayError {
                ply: i + 1,
                message: format!(
                    "by move {} the moves sow {sown} holes, and a replay lists at most {REPLAY_SOWN} (limit on sown holes): replay fewer moves, or start later with a position",
                    i + 1
                ),
            });
        }
        plies.push((notation::format_move(rules, mv), report, game.clone()));
    }
    Ok(Replay {
        rules,
        from: from.map(str::to_string),
        start,
        plies,
    })
}

impl<'r> Replay<'r> {
    /// The game after the last move (the start if there were none).
    pub fn last_game(&self) -> &Game<'r> {
        self.plies.last().map_or(&self.start, |p| &p.2)
    }

    /// The text shown by `sowkit replay`: the start board, then per ply what happened and the
    /// board after it, then the result if the game is over.
    pub fn text(&self) -> String {
        let r = self.rules;
        let mut out = format!(
            "{} — start ({})\n{}",
            r.ruleset().name,
            self.from.as_deref().unwrap_or("initial position"),
            board_text(r, self.start.position())
        );
        out.push_str(&next_line(r, &self.start));
        for (i, (mv, rep, g)) in self.plies.iter().enumerate() {
            out.push_str(&format!(
                "\nply {}: {} plays {mv}\n",
                i + 1,
                r.player_name(rep.player)
            ));
            for line in happened(r, rep) {
                out.push_str(&format!("  {line}\n"));
            }
            out.push_str(&board_text(r, g.position()));
            out.push_str(&next_line(r, g));
        }
        out
    }

    /// The versioned JSON value (module docs, version [`JSON_VERSION`]).
    pub fn json(&self) -> ReplayJson {
        let r = self.rules;
        let rs = r.ruleset();
        ReplayJson {
            format: "sowkit-replay",
            version: JSON_VERSION,
            ruleset: RulesetJson {
                id: rs.id.clone(),
                name: rs.name.clone(),
            },
            players: [r.player_name(0).to_string(), r.player_name(1).to_string()],
            pit_labels: rs.board.pit_labels.clone(),
            store_labels: rs.board.stores.clone(),
            direction_choice: r.directions().len() > 1,
            closed_pits: r
                .closed_pits()
                .iter()
                .map(|&h| r.label(h).to_string())
                .collect(),
            start: state(r, &self.start),
            plies: self
                .plies
                .iter()
                .enumerate()
                .map(|(i, (mv, rep, g))| ply_json(r, i + 1, mv, rep, g))
                .collect(),
            final_state: state(r, self.last_game()),
        }
    }

    /// A ready `[[example]]` table (TOML) for this replay, every expectation filled in from the
    /// engine: position, next, extra_turn, captured, last, sown, game_over, and legal (while
    /// the game goes on) or scores (once over), grand_slam and passed when they happened.
    /// `check` accepts it appended to the ruleset (see [`Replay::example_toml_noted`] for what
    /// is cut so that it does). Errors: no moves (an example needs one).
    pub fn example_toml(&self, title: &str) -> Result<String, String> {
        self.example_toml_noted(title).map(|(t, _)| t)
    }

    /// As [`Replay::example_toml`], with a note (for stderr) on each thing cut so that `check`
    /// accepts the example:
    ///
    /// - more than [`MAX_EXAMPLE_MOVES`] moves: the example starts from the position before the
    ///   last [`MAX_EXAMPLE_MOVES`] of them, written out as `start`, and its expectations are
    ///   those of replaying from there; the earlier positions are not carried, so if that
    ///   replay does not reach the game's own final position and ending (a repetition end that
    ///   counts positions from before the cut), the example is refused;
    /// - a `sown` list of more than [`MAX_LIST_ITEMS`] holes (a long relay): `sown` is left out
    ///   (`last` still says where the last seed fell).
    ///
    /// Errors: no moves; the cut replay cannot be played from its written start (a bug), or
    /// does not end as the game did.
    pub fn example_toml_noted(&self, title: &str) -> Result<(String, Vec<String>), String> {
        let mut notes = Vec::new();
        if self.plies.len() > MAX_EXAMPLE_MOVES {
            // The example starts from the position before the last MAX_EXAMPLE_MOVES moves.
            // Its start cannot carry the positions seen before it, which a repetition end
            // counts (those since the last capture): so the cut replay must reach the same
            // final position and ending, or the example is refused.
            let len = self.plies.len();
            let cut = len - MAX_EXAMPLE_MOVES;
            let from = notation::format_position(self.rules, self.plies[cut - 1].2.position());
            let moves: Vec<String> = self.plies[cut..].iter().map(|p| p.0.clone()).collect();
            let sub = run(self.rules, Some(&from), &moves).map_err(|e| {
                format!("the last {MAX_EXAMPLE_MOVES} moves cannot be replayed from the position before them: {e}")
            })?;
            let (want, got) = (
                outcome(self.rules, self.last_game()),
                outcome(self.rules, sub.last_game()),
            );
            if want != got {
                return Err(format!(
                    "the game has {len} moves and a worked example may have at most {MAX_EXAMPLE_MOVES}, but replayed from the position after move {cut} it does not end as the game did ({} instead of {}): the end depends on positions from before move {}, which an example's start cannot carry (a repetition end counts the positions since the last capture); replay a shorter game, or one whose last {MAX_EXAMPLE_MOVES} moves include a capture",
                    got.1, want.1, cut + 1
                ));
            }
            notes.push(format!(
                "the game has {len} moves and a worked example may have at most {MAX_EXAMPLE_MOVES}: the example starts from the position after move {cut} ({from}) and holds moves {} to {len}",
                cut + 1,
            ));
            let (t, more) = sub.example_body(title)?;
            notes.extend(more);
            return Ok((t, notes));
        }
        self.example_body(title)
    }

    /// The example of [`Replay::example_toml_noted`] for a replay of at most
    /// [`MAX_EXAMPLE_MOVES`] moves.
    fn example_body(&self, title: &str) -> Result<(String, Vec<String>), String> {
        let mut notes = Vec::new();
        let Some((_, rep, g)) = self.plies.last() else {
            return Err("a worked example needs at least one move: give --moves".to_string());
        };
        let r = self.rules;
        let q = toml_string;
        let list = |v: &[String]| {
            format!(
                "[{}]",
                v.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ")
            )
        };
        let moves: Vec<String> = self.plies.iter().map(|p| p.0.clone()).collect();
        // A blank line first, so the table can be appended (`>> ruleset.toml`) even to a file
        // whose last line has no newline.
        let mut t = format!("\n[[example]]\ntitle = {}\n", q(title));
        match &self.from {
            None => t.push_str("start = \"initial\"\n"),
            Some(_) => t.push_str(&format!(
                "start = {}\n",
                q(&notation::format_position(r, self.start.position()))
            )),
        }
        t.push_str(&format!("moves = {}\n[example.expect]\n", list(&moves)));
        t.push_str(&format!(
            "position = {}\n",
            q(&notation::format_board(r, g.position()))
        ));
        let next = match g.ending() {
            Some(_) => "none".to_string(),
            None => r.player_name(g.to_move()).to_string(),
        };
        t.push_str(&format!("next = {}\n", q(&next)));
        t.push_str(&format!("extra_turn = {}\n", rep.extra_turn));
        t.push_str(&format!("captured = {}\n", rep.captured));
        t.push_str(&format!("last = {}\n", q(r.label(rep.last))));
        let sown = sown_labels(r, rep);
        if sown.len() > MAX_LIST_ITEMS {
            notes.push(format!(
                "the last move sows into {} holes and a list in an example may have at most {MAX_LIST_ITEMS}: expect.sown is left out (expect.last still says where the last seed fell)",
                sown.len()
            ));
        } else {
            t.push_str(&format!("sown = {}\n", list(&sown)));
        }
        t.push_str(&format!("game_over = {}\n", g.is_over()));
        match g.ending() {
            Some(end) => t.push_str(&format!(
                "scores = [{}, {}]\n",
                end.scores[0], end.scores[1]
            )),
            None => t.push_str(&format!("legal = {}\n", list(&legal(r, g)))),
        }
        if rep.grand_slam {
            t.push_str("grand_slam = true\n");
        }
        if !rep.passed.is_empty() {
            let p: Vec<String> = rep
                .passed
                .iter()
                .map(|&s| r.player_name(s).to_string())
                .collect();
            t.push_str(&format!("passed = {}\n", list(&p)));
        }
        Ok((t, notes))
    }
}

/// `s` as one word of a POSIX shell command line: as it is when it holds only letters, digits
/// and `_ . / - + , = : @ %`, else in single quotes (a `'` in it written `'\''`), so a
/// command printed for the user to copy works as printed ("Club Oware.toml" was two words).
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./-+,=:@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The `sowkit replay` command that prints a worked example of `moves` from `from` (`None`:
/// the ruleset's start) with every expectation filled in by the engine, for the ruleset file
/// `path` (`<stdin>` is written `-`): `sowkit replay my.toml --from "…" --moves "S3 N2"
/// --title "…" --emit-example` (`--title` when `title` is given: the old example's, so the
/// new one keeps it), each value one shell word ([`shell_word`]).
pub fn emit_example_command(
    path: &str,
    from: Option<&str>,
    moves: &[String],
    title: Option<&str>,
) -> String {
    let file = if path == "<stdin>" { "-" } else { path };
    let mut c = format!("sowkit replay {}", shell_word(file));
    if let Some(f) = from {
        c.push_str(&format!(" --from {}", shell_word(f)));
    }
    c.push_str(&format!(" --moves {}", shell_word(&moves.join(" "))));
    if let Some(t) = title {
        c.push_str(&format!(" --title {}", shell_word(t)));
    }
    c.push_str(" --emit-example");
    c
}

/// The title of a worked example written from `moves` (`replay --emit-example`, the play-test
/// page's "copy as worked example") when the user gives none, in `lang`: "Replay of S3 N3"
/// (catalogue `example.replay_title`, given the moves and their count `n`, so Spanish says
/// "Jugada S3" for one move and "Jugadas S3 N3" for more), or "Replay of 120 moves"
/// (`example.replay_title_many`) when that is longer than
/// [`MAX_TITLE_CHARS`](crate::ruleset::load::MAX_TITLE_CHARS). A language with no catalogue
/// gets the English words.
pub fn example_title(lang: &str, moves: &[String]) -> String {
    let all = match phrases_or_en(lang) {
        Some(ph) => ph.count(
            "example.replay_title",
            moves.len() as u64,
            &[("moves", &moves.join(" "))],
        ),
        None => format!("Replay of {}", moves.join(" ")),
    };
    if all.chars().count() <= crate::ruleset::load::MAX_TITLE_CHARS {
        all
    } else {
        title_of_many(lang, moves.len() as u64)
    }
}

/// The catalogue of `lang`, else the English one (`None` only if neither loads).
fn phrases_or_en(lang: &str) -> Option<crate::layout::phrases::Phrases> {
    use crate::layout::phrases::Phrases;
    Phrases::load(lang).or_else(|_| Phrases::load("en")).ok()
}

/// [`example_title`]'s form for a game too long to list: "Replay of 120 moves" in `lang`.
fn title_of_many(lang: &str, n: u64) -> String {
    match phrases_or_en(lang) {
        Some(ph) => ph.count("example.replay_title_many", n, &[]),
        None => format!("Replay of {n} moves"),
    }
}

/// Whether `title` is the placeholder [`example_title`] gives in `lang` for an example whose
/// moves are `moves`, as `replay --emit-example` writes it into an `[example.text.<lang>]`
/// table when `--title` was given in the ruleset's own language (the title to translate stands
/// in a comment above). Also recognised: the "Replay of 700 moves" form of a game longer than
/// an example may be, which `--emit-example` cuts to its last moves, so the count is at least
/// the example's.
pub fn is_example_title_placeholder(lang: &str, title: &str, moves: &[String]) -> bool {
    if moves.is_empty() {
        return false;
    }
    // Every catalogue's placeholder holds the moves as given, or the count in digits (checked
    // for each catalogue by a test): a title with neither is no placeholder, which is told
    // without loading a catalogue (the loader asks for each translated example, before any
    // kit needs the catalogue).
    if !title.contains(&moves.join(" ")) && !holds_one_number(title) {
        return false;
    }
    if title == example_title(lang, moves) {
        return true;
    }
    // The count as the catalogue writes it (grouped in threes from 10 000: digits only).
    let digits: String = title.chars().filter(char::is_ascii_digit).collect();
    match digits.parse::<u64>() {
        Ok(n) if n >= moves.len() as u64 && n <= 1 << 40 => title == title_of_many(lang, n),
        _ => false,
    }
}

/// Whether `title` holds digits that can be one number as a catalogue writes a count
/// ([`crate::layout::phrases::Phrases::int`]): from its first digit to its last, nothing but
/// digits and the group separator, which is never a letter or digit (checked for each
/// catalogue by a test). So "Una captura de 2 o 3" holds none, and
/// [`is_example_title_placeholder`] tells it is no placeholder without loading the catalogue
/// (a build in English loaded the Spanish one for it, 4.5 M instructions).
fn holds_one_number(title: &str) -> bool {
    let (Some(first), Some(last)) = (
        title.find(|c: char| c.is_ascii_digit()),
        title.rfind(|c: char| c.is_ascii_digit()),
    ) else {
        return false;
    };
    title[first..=last]
        .chars()
        .all(|c| c.is_ascii_digit() || !c.is_alphanumeric())
}

/// The `[example.text.<lang>]` tables a worked example from `moves` needs in `rs` (one for
/// each of its translations, `rs.texts`), to append after the example's `[example.expect]`:
/// without them `check` warns and `build --lang <lang>` refuses the ruleset. Each holds the
/// default title in that language ([`example_title`]); when the user gave `title` (in the
/// ruleset's own language), a comment above it asks for that title's translation. Empty for a
/// ruleset with no translations.
pub fn example_translations(
    rs: &crate::ruleset::Ruleset,
    moves: &[String],
    title: Option<&str>,
) -> String {
    let mut t = String::new();
    for lang in rs.texts.keys() {
        t.push_str(&format!("[example.text.{lang}]\n"));
        // A title given in one language is not copied into another (pasted in as it was, it
        // printed an English heading in a Spanish kit): that language's own default stands,
        // with the given title in a comment to translate.
        if let Some(given) = title {
            t.push_str(&format!(
                "# UPDATE: translate {} into \"{lang}\" here\n",
                toml_string(given).replace('\n', " ")
            ));
        }
        t.push_str(&format!(
            "title = {}\n",
            toml_string(&example_title(lang, moves))
        ));
    }
    t
}

/// What an example checks of a game's final state: the position and next player, and the
/// ending (or "not over") in words.
fn outcome(r: &Rules, g: &Game) -> (String, String) {
    let end = match g.ending() {
        Some(e) => format!("{:?}, scores {} and {}", e.reason, e.scores[0], e.scores[1]),
        None => "not over".to_string(),
    };
    (notation::format_position(r, g.position()), end)
}

/// A TOML basic string: quotes, backslashes and control characters escaped.
pub fn toml_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if c.is_control() => o.push_str(&format!("\\u{:04X}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Labels of every hole a move sowed, in order (relay laps concatenated).
fn sown_labels(r: &Rules, rep: &Report) -> Vec<String> {
    rep.laps
        .iter()
        .flat_map(|l| l.sown.iter().map(|&h| r.label(h).to_string()))
        .collect()
}

/// The legal moves of `g` in notation form.
fn legal(r: &Rules, g: &Game) -> Vec<String> {
    g.legal_moves()
        .into_iter()
        .map(|m| notation::format_move(r, m))
        .collect()
}

/// The ending reason as written in JSON.
fn reason_key(e: EndReason) -> &'static str {
    match e {
        EndReason::SideEmpty => "side-empty",
        EndReason::Threshold => "threshold",
        EndReason::Repetition => "repetition",
        EndReason::NoLegalMove => "no-legal-move",
        EndReason::NoMovesForBoth => "no-moves-for-both",
    }
}

/// The ending reason in words.
fn reason_words(e: EndReason) -> &'static str {
    match e {
        EndReason::SideEmpty => "a row of pits is empty",
        EndReason::Threshold => "a store reached the count that ends the game",
        EndReason::Repetition => "the position repeated",
        EndReason::NoLegalMove => "the player to move has no legal move",
        EndReason::NoMovesForBoth => "neither player can move",
    }
}

/// What a move did, one sentence a line.
fn happened(r: &Rules, rep: &Report) -> Vec<String> {
    let mut v = Vec::new();
    for (i, lap) in rep.laps.iter().enumerate() {
        let sown: Vec<&str> = lap.sown.iter().map(|&h| r.label(h)).collect();
        v.push(format!(
            "{} {} seed{} from {} {}: {}",
            if i == 0 { "lifts" } else { "relay: lifts" },
            lap.lifted,
            if lap.lifted == 1 { "" } else { "s" },
            r.label(lap.from),
            match lap.dir {
                Dir::Ccw => "counter-clockwise",
                Dir::Cw => "clockwise",
            },
            sown.join(" ")
        ));
    }
    v.push(format!("last seed in {}", r.label(rep.last)));
    if rep.captured > 0 {
        let from: Vec<String> = rep
            .captures
            .iter()
            .map(|&(h, n)| format!("{n} from {}", r.label(h)))
            .collect();
        v.push(format!(
            "captures {} seed{} ({})",
            rep.captured,
            if rep.captured == 1 { "" } else { "s" },
            from.join(", ")
        ));
    }
    if rep.grand_slam {
        v.push("grand slam".to_string());
    }
    if rep.extra_turn {
        v.push(format!("extra turn for {}", r.player_name(rep.player)));
    }
    for &p in &rep.passed {
        v.push(format!("{} cannot move and passes", r.player_name(p)));
    }
    if let Some(end) = &rep.ending {
        v.push(format!("game over: {}", reason_words(end.reason)));
        if end.swept != [0, 0] {
            v.push(format!(
                "sweep: {} to {}'s store, {} to {}'s store",
                end.swept[0],
                r.player_name(0),
                end.swept[1],
                r.player_name(1)
            ));
        }
    }
    v
}

/// The line after a board: who moves, or the final score.
fn next_line(r: &Rules, g: &Game) -> String {
    match g.ending() {
        None => format!(
            "next: {} (legal: {})\n",
            r.player_name(g.to_move()),
            legal(r, g).join(" ")
        ),
        Some(end) => {
            let (a, b) = (end.scores[0], end.scores[1]);
            let verdict = match a.cmp(&b) {
                std::cmp::Ordering::Greater => format!("{} wins", r.player_name(0)),
                std::cmp::Ordering::Less => format!("{} wins", r.player_name(1)),
                std::cmp::Ordering::Equal => "a draw".to_string(),
            };
            format!(
                "game over ({}): {} {a}, {} {b}: {verdict}\n",
                reason_words(end.reason),
                r.player_name(0),
                r.player_name(1)
            )
        }
    }
}

/// A text board: side 1's pits on top (right to left, so each pit faces its opposite), side
/// 0's below (left to right), store 1 on the left and store 0 on the right, labels outside;
/// a closed pit of a shortened board shows `x`.
pub fn board_text(r: &Rules, p: &Position) -> String {
    let n = r.pits_per_side();
    let w = (0..2 * n)
        .map(|h| {
            r.label(h as u8)
                .chars()
                .count()
                .max(p.holes[h].to_string().len())
        })
        .max()
        .unwrap_or(2)
        + 1;
    let cell = |s: &str| format!("{s:>w$}");
    let store = |side: usize| format!("[{}]", p.holes[2 * n + side]);
    let s1 = store(1);
    let pad = " ".repeat(s1.chars().count() + 1);
    let top: Vec<usize> = (n..2 * n).rev().collect();
    let bottom: Vec<usize> = (0..n).collect();
    let row = |holes: &[usize], f: &dyn Fn(usize) -> String| {
        holes.iter().map(|&h| cell(&f(h))).collect::<String>()
    };
    let label = |h: usize| r.label(h as u8).to_string();
    // A closed pit of a shortened board shows `x`, as the notation writes it.
    let count = |h: usize| {
        if r.is_closed(h as u8) {
            "x".to_string()
        } else {
            p.holes[h].to_string()
        }
    };
    format!(
        "{pad}{}\n{s1} {}\n{pad}{}  {}   ({}: {}, {}: {})\n{pad}{}\n",
        row(&top, &label),
        row(&top, &count),
        row(&bottom, &count),
        store(0),
        r.label(r.store(1)),
        p.holes[2 * n + 1],
        r.label(r.store(0)),
        p.holes[2 * n],
        row(&bottom, &label),
    )
}

/// The JSON document of a replay (module docs).
#[derive(Clone, Debug, Serialize)]
pub struct ReplayJson {
    /// Always `sowkit-replay`.
    pub format: &'static str,
    /// [`JSON_VERSION`].
    pub version: u32,
    /// Which ruleset.
    pub ruleset: RulesetJson,
    /// Player names, side 0 first.
    pub players: [String; 2],
    /// Pit labels of each side in sowing order.
    pub pit_labels: [Vec<String>; 2],
    /// Store labels, side 0 first.
    pub store_labels: [String; 2],
    /// Whether moves choose a direction (`>` / `<`).
    pub direction_choice: bool,
    /// Labels of the pits closed on a shortened board (a next round's start written with
    /// `x`), in hole order; empty on the full board.
    pub closed_pits: Vec<String>,
    /// The start.
    pub start: StateJson,
    /// One entry per move.
    pub plies: Vec<PlyJson>,
    /// The state after the last move.
    #[serde(rename = "final")]
    pub final_state: StateJson,
}

/// The ruleset named in a replay.
#[derive(Clone, Debug, Serialize)]
pub struct RulesetJson {
    /// Id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A position and what follows from it (module docs, STATE).
#[derive(Clone, Debug, Serialize)]
pub struct StateJson {
    /// Notation form, with the player to move.
    pub position: String,
    /// Seeds in each side's pits, in that side's sowing order.
    pub pits: [Vec<u16>; 2],
    /// Seeds in each store.
    pub stores: [u16; 2],
    /// Who moves next; `None` once over.
    pub next: Option<String>,
    /// Legal moves of `next`, notation form.
    pub legal: Vec<String>,
    /// Whether the game is over.
    pub game_over: bool,
    /// How it ended.
    pub end: Option<EndJson>,
    /// Final scores once over.
    pub scores: Option<[u16; 2]>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct EndJson {
    /// `side-empty`, `threshold`, `repetition`, `no-legal-move`, `no-moves-for-both`.
    pub reason: &'static str,
    /// Seeds swept into each store at the end.
    pub swept: [u16; 2],
    /// Final scores.
    pub scores: [u16; 2],
}

/// One handful of a move.
#[derive(Clone, Debug, Serialize)]
pub struct LapJson {
    /// Pit lifted from.
    pub from: String,
    /// `ccw` or `cw`.
    pub direction: &'static str,
    /// Seeds lifted.
    pub lifted: u16,
    /// Holes sown, in order.
    pub sown: Vec<String>,
}

/// Seeds taken from one hole.
#[derive(Clone, Debug, Serialize)]
pub struct CaptureJson {
    /// The hole.
    pub hole: String,
    /// Seeds taken.
    pub seeds: u16,
}

/// One ply (module docs, PLY).
#[derive(Clone, Debug, Serialize)]
pub struct PlyJson {
    /// 1-based ply number.
    pub ply: usize,
    /// Who moved.
    pub player: String,
    /// The move, notation form.
    #[serde(rename = "move")]
    pub mv: String,
    /// The handfuls.
    pub laps: Vec<LapJson>,
    /// Every hole sown, in order.
    pub sown: Vec<String>,
    /// Hole of the last seed.
    pub last: String,
    /// Captures in order.
    pub captures: Vec<CaptureJson>,
    /// Seeds captured in all.
    pub captured: u16,
    /// Grand slam.
    pub grand_slam: bool,
    /// The mover moves again.
    pub extra_turn: bool,
    /// Players who passed after this move.
    pub passed: Vec<String>,
    /// The state after the move.
    #[serde(flatten)]
    pub after: StateJson,
}

fn state(r: &Rules, g: &Game) -> StateJson {
    let n = r.pits_per_side();
    let h = &g.position().holes;
    StateJson {
        position: notation::format_position(r, g.position()),
        pits: [h[..n].to_vec(), h[n..2 * n].to_vec()],
        stores: [h[2 * n], h[2 * n + 1]],
        next: (!g.is_over()).then(|| r.player_name(g.to_move()).to_string()),
        legal: legal(r, g),
        game_over: g.is_over(),
        end: g.ending().map(|e| EndJson {
            reason: reason_key(e.reason),
            swept: e.swept,
            scores: e.scores,
        }),
        scores: g.ending().map(|e| e.scores),
    }
}

fn ply_json(r: &Rules, ply: usize, mv: &str, rep: &Report, g: &Game) -> PlyJson {
    PlyJson {
        ply,
        player: r.player_name(rep.player).to_string(),
        mv: mv.to_string(),
        laps: rep
            .laps
            .iter()
            .map(|l| LapJson {
                from: r.label(l.from).to_string(),
                direction: match l.dir {
                    Dir::Ccw => "ccw",
                    Dir::Cw => "cw",
                },
                lifted: l.lifted,
                sown: l.sown.iter().map(|&h| r.label(h).to_string()).collect(),
            })
            .collect(),
        sown: sown_labels(r, rep),
        last: r.label(rep.last).to_string(),
        captures: rep
            .captures
            .iter()
            .map(|&(h, s)| CaptureJson {
                hole: r.label(h).to_string(),
                seeds: s,
            })
            .collect(),
        captured: rep.captured,
        grand_slam: rep.grand_slam,
        extra_turn: rep.extra_turn,
        passed: rep
            .passed
            .iter()
            .map(|&p| r.player_name(p).to_string())
            .collect(),
        after: state(r, g),
    }
}

#[cfg(test)]
mod tests {
    use super::{example_title, holds_one_number, is_example_title_placeholder, title_of_many};

    fn moves(n: usize) -> Vec<String> {
        (0..n).map(|k| format!("A{}", k % 6 + 1)).collect()
    }

    /// The made-up titles, from the catalogues' words: Spanish "Jugada" for one move and
    /// "Jugadas" for more; a list too long for a title (100 characters) becomes a count.
    #[test]
    fn made_up_titles_agree_with_the_number_of_moves() {
        assert_eq!(example_title("es", &moves(1)), "Jugada A1");
        assert_eq!(example_title("es", &moves(2)), "Jugadas A1 A2");
        assert_eq!(example_title("en", &moves(1)), "Replay of A1");
        assert_eq!(example_title("en", &moves(2)), "Replay of A1 A2");
        // 33 moves of 2 characters with spaces: 98 characters after "Replay of ".
        assert_eq!(example_title("en", &moves(33)), "Replay of 33 moves");
        assert_eq!(example_title("es", &moves(40)), "Partida de 40 jugadas");
    }

    /// A placeholder is recognised from the example's moves: exactly the made-up title, or
    /// the count form for at least as many moves (a game cut to its last 500 moves is titled
    /// with all of them); a title the user wrote, or made up for other moves, is not one.
    #[test]
    fn placeholders_are_recognised_from_the_moves() {
        assert!(is_example_title_placeholder("es", "Jugada A1", &moves(1)));
        assert!(!is_example_title_placeholder("es", "Jugadas A1", &moves(1)));
        assert!(!is_example_title_placeholder("es", "Jugada A1", &moves(2)));
        assert!(!is_example_title_placeholder("es", "Apertura", &moves(1)));
        assert!(is_example_title_placeholder(
            "en",
            "Replay of 700 moves",
            &moves(500)
        ));
        assert!(is_example_title_placeholder(
            "en",
            "Replay of 12,000 moves",
            &moves(500)
        ));
        assert!(!is_example_title_placeholder(
            "en",
            "Replay of 400 moves",
            &moves(500)
        ));
        assert!(!is_example_title_placeholder(
            "en",
            "Replay of 700 turns",
            &moves(500)
        ));
        assert!(!is_example_title_placeholder("en", "Replay of A1", &[]));
    }

    /// What lets `is_example_title_placeholder` skip loading a catalogue: in every language,
    /// the made-up title of a short example holds its moves as given, and that of a long one
    /// its count in digits. (Moves named without digits, so only the count can bring one.)
    #[test]
    fn every_made_up_title_holds_its_moves_or_a_count() {
        let named = |n: usize| -> Vec<String> { (0..n).map(|_| "bc".to_string()).collect() };
        for lang in crate::layout::phrases::languages() {
            for n in [1, 2, 5] {
                let t = example_title(lang, &named(n));
                assert!(t.contains(&named(n).join(" ")), "{lang}: {t:?}");
            }
            for n in [60, 700, 12_000] {
                let t = example_title(lang, &named(n));
                let digits: String = t.chars().filter(char::is_ascii_digit).collect();
                assert_eq!(digits, n.to_string(), "{lang}: {t:?}");
            }
            // The count form, whatever the count (the placeholder check reads it from the
            // title): one number, its digits broken only by a separator that is no letter.
            for n in [1, 9_999, 10_000, 123_456, 12_345_678_901] {
                let t = title_of_many(lang, n);
                assert!(holds_one_number(&t), "{lang}: {t:?}");
                let digits: String = t.chars().filter(char::is_ascii_digit).collect();
                assert_eq!(digits, n.to_string(), "{lang}: {t:?}");
            }
        }
    }

    /// Titles with digits that no count as a catalogue writes it can be, and some that can.
    #[test]
    fn one_number_is_told_from_several() {
        for t in [
            "Una captura de 2 o 3",
            "Replay of A1 and B2",
            "3 seeds, 4 pits",
        ] {
            assert!(!holds_one_number(t), "{t:?}");
        }
        for t in [
            "Replay of 700 moves",
            "Partida de 12\u{a0}000 jugadas",
            "12,000",
            "7",
        ] {
            assert!(holds_one_number(t), "{t:?}");
        }
        assert!(!holds_one_number("No digits here"));
        // The Oware title above is no placeholder, in Spanish or English.
        let moves = vec!["S6".to_string()];
        assert!(!is_example_title_placeholder(
            "es",
            "Una captura de 2 o 3",
            &moves
        ));
        assert!(!is_example_title_placeholder(
            "en",
            "Una captura de 2 o 3",
            &moves
        ));
    }
}
