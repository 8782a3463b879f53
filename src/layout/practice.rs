//! Practice exercises and their host key.
//!
//! The exercises are the ruleset's examples marked `exercise = true`, then a few positions
//! found by playing the engine from the initial position with a fixed pseudo-random sequence
//! (a xorshift generator seeded from the ruleset id, so every build picks the same ones). A
//! position is kept when its move does something worth practising, judged from the engine's
//! [`Report`]: a grand slam, relay sowing, a feeding constraint, a capture chain, a capture or
//! an extra turn ([`Kind`]). The practice pages (`practice-1`, …) ask each question over a
//! blank "start" board with space for the answer; the host key (a separate document, pages
//! `answers-1`, …) repeats each number with the before/after boards and the answer worded from
//! the same report, by the caption code of the worked examples ([`diagram::describe`]).
//!
//! Last come up to [`BEST_EXERCISES`] "find the best move" exercises ([`Kind::BestMove`]):
//! positions late in a practice game (few seeds left) whose value and best move the solver
//! proves within its node budget ([`crate::solve::proven_best`]), kept only when exactly one
//! move is best; under a repetition end, set-up endgames with few seeds instead. The position
//! counts as newly set up: under a repetition end, only positions from it on count as repeated
//! (as [`crate::solve`] takes the root).
use super::diagram::{self, Prepared};
use super::page::MARGIN;
use super::phrases::{join_and, Phrases};
use super::rules::{Flow, Placed};
use super::style::Sizes;
use super::Paper;
use crate::doc::{line, pt as p, Color, Page, Stroke, Weight};
use crate::engine::{Game, Move, MoveList, Position, Report, Rules, SowBudget};
use crate::notation;
use crate::rng::XorShift;
use crate::ruleset::{CaptureKind, Example, Ruleset, Start};
use crate::text;

/// Generated exercises aimed for (fewer when the games played offer fewer instructive moves).
pub const GENERATED: usize = 5;
/// Practice games played to look for positions, at most.
const GAMES: usize = 40;
/// Plies per practice game, at most.
const PLIES: usize = 400;
/// Candidates kept per [`Kind`].
const PER_KIND: usize = 3;
/// Seeds the practice games of one kit may sow by relay sowing, at most, in [`generate`] and
/// again in [`best_positions`] ([`crate::engine::SowBudget`]); when it is spent the search
/// stops with what it found. Measured: Giuthi, the bundled ruleset with relay sowing, sows
/// 26,081; a 12-pit board of 12 seeds with relay sowing and no store (each move goes round
/// for thousands of seeds) sowed far more and took 5 to 8 s per kit before this bound.
pub const PRACTICE_SOWN: u64 = 4_000_000;

/// What makes a generated position instructive, strongest first (one kind per position: the
/// first that applies in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The move is a grand slam (the report's `grand_slam`).
    GrandSlam,
    /// The move relays: more than one lap.
    Relay,
    /// The opponent's row is empty and the feeding rule limits the mover's choice.
    Feeding,
    /// The move captures from more than one hole, not counting the mover's own pit where the
    /// last seed landed (in Kalah that pit's seed goes to the store with the opposite pit's
    /// seeds: one capture, not a chain).
    ChainCapture,
    /// The move captures.
    Capture,
    /// The mover moves again.
    ExtraTurn,
    /// Nothing special (used only when too few instructive moves turn up).
    Plain,
    /// "Find the best move": the solver proved that this move, and no other, reaches the value
    /// ([`Exercise::value`]).
    BestMove,
}

/// One numbered exercise, with the engine's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    /// Number printed on the practice page and the host key, from 1.
    pub number: usize,
    /// Title (the ruleset example's, or a neutral one for a generated position).
    pub title: String,
    /// The position the players set up.
    pub start: Position,
    /// The moves to play, in notation form (one for generated exercises).
    pub moves: Vec<String>,
    /// Whether it comes from the ruleset (`exercise = true`) rather than the generator.
    pub from_ruleset: bool,
    /// Why a generated position was picked; `None` for the ruleset's own exercises.
    pub kind: Option<Kind>,
    /// The engine's report of the last move, replayed from `start`: the answer.
    pub report: Report,
    /// With [`Kind::Feeding`]: the mover's legal moves (notation), all of which feed.
    pub legal: Vec<String>,
    /// The ruleset example's note (explains the answer; printed in the host key only).
    pub note: Option<String>,
    /// With [`Kind::BestMove`]: the proven value (side 0's final total minus side 1's) under
    /// perfect play from `start`; the only best move is `moves[0]`.
    pub value: Option<i32>,
}

impl Exercise {
    /// A generated exercise numbered `number`: one move `mv` (notation) from `start`, picked as
    /// `kind`, answered by `report`; no title, note, legal-move list or value.
    fn generated(number: usize, start: Position, mv: String, kind: Kind, report: Report) -> Self {
        Exercise {
            number,
            title: String::new(),
            start,
            moves: vec![mv],
            from_ruleset: false,
            kind: Some(kind),
            report,
            legal: Vec::new(),
            note: None,
            value: None,
        }
    }
}

/// Replays `moves` from `start`; returns the last report (or an error in words).
fn replay(rules: &Rules, start: &Position, moves: &[String]) -> Result<Report, String> {
    let mut g = Game::try_new(rules, start.clone()).map_err(|e| e.to_string())?;
    let mut last = None;
    for m in moves {
        let mv = notation::parse_move(rules, m).map_err(|e| e.to_string())?;
        last = Some(g.play(mv).map_err(|e| format!("move {m}: {e}"))?);
    }
    last.ok_or_else(|| "it has no moves".to_string())
}

/// Whether the opponent of the side to move has an empty row and feeding is compulsory.
fn must_feed_here(rules: &Rules, pos: &Position) -> bool {
    let rs = rules.ruleset();
    let n = rs.board.pits_per_side;
    if !rs.feeding.must_feed {
        return false;
    }
    let opp = 1 - pos.to_move.min(1) as usize;
    pos.holes[opp * n..(opp + 1) * n].iter().all(|&s| s == 0)
}

/// How many holes the move of report `r` (played from `pos`) captures from, not counting the
/// capturing seed's own pit: the mover's pit where the last seed landed.
fn captured_holes(rules: &Rules, pos: &Position, r: &Report) -> usize {
    let n = rules.ruleset().board.pits_per_side;
    let mover = pos.to_move.min(1) as usize;
    let own_last = |h: u8| h == r.last && (h as usize) / n == mover;
    r.captures.iter().filter(|(h, _)| !own_last(*h)).count()
}

fn kind_of(rules: &Rules, pos: &Position, r: &Report) -> Kind {
    if r.grand_slam {
        Kind::GrandSlam
    } else if r.laps.len() > 1 {
        Kind::Relay
    } else if must_feed_here(rules, pos) {
        Kind::Feeding
    } else if captured_holes(rules, pos, r) > 1 {
        Kind::ChainCapture
    } else if r.captured > 0 {
        Kind::Capture
    } else if r.extra_turn {
        Kind::ExtraTurn
    } else {
        Kind::Plain
    }
}

/// Positions found by playing practice games: (position, move, kind, report), at most
/// [`GENERATED`], deterministic for a ruleset. Moves that end the game are left out (their
/// answer is the score, not the next player). With `first_only`, stops at the first position
/// found (all [`has_exercises`] needs to know).
fn generate(
    rules: &Rules,
    avoid: &[(Position, String)],
    first_only: bool,
) -> Vec<(Position, Move, Kind, Report)> {
    let rs = rules.ruleset();
    let mut rng = XorShift::seeded(&rs.id);
    // Buckets in Kind order.
    let mut found: Vec<Vec<(Position, Move, Kind, Report)>> = vec![Vec::new(); 7];
    let idx = |k: Kind| k as usize;
    let budget = SowBudget::new(PRACTICE_SOWN);
    // Buffers kept over the plies (each ply allocated a move list, two positions, a game and
    // a report): the legal moves, the position before the move, the fresh game replaying it
    // and its report (copied only when kept).
    let initial = rules.initial();
    let mut game_buf: Option<Game> = None;
    let mut fresh_buf: Option<Game> = None;
    let mut moves = MoveList::new();
    let mut pos = initial.clone();
    let mut r = Report::default();
    'games: for _ in 0..GAMES {
        let Ok(game) = reset_or_new(&mut game_buf, rules, &initial) else {
            break;
        };
        for ply in 0..PLIES {
            if game.is_over() || !budget.left() {
                break;
            }
            game.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            pos.holes.clone_from(&game.position().holes);
            pos.to_move = game.position().to_move;
            if game.play_fast(mv).is_err() {
                break;
            }
            if ply < 2 {
                continue;
            }
            // The answer comes from a fresh game at this position: what the players replay.
            let Ok(fresh) = reset_or_new(&mut fresh_buf, rules, &pos) else {
                continue;
            };
            if fresh.play_into(mv, &mut r).is_err() {
                continue;
            }
            if r.ending.is_some() {
                continue;
            }
            let k = kind_of(rules, &pos, &r);
            // Both players get positions: a position for the player who already has more is
            // passed over (the same game's next ply is the other's). Taking each game's first
            // position after two plies gave the first player almost every exercise.
            let mover = pos.to_move;
            let has = |side| {
                found
                    .iter()
                    .flatten()
                    .filter(|(q, _, _, _)| q.to_move == side)
                    .count()
            };
            if found[idx(k)].len() >= PER_KIND || has(mover) > has(1 - mover) {
                continue;
            }
            // Two exercises of the same kind lifting the same number of seeds teach the same
            // thing twice: keep the first. (Looked for last: comparing the position with every
            // one found was most of this loop's time, and most plies are passed over above.)
            let lifted = |r: &Report| r.laps.first().map_or(0, |l| l.lifted);
            let dup = found.iter().flatten().any(|(q, _, _, _)| *q == pos)
                || found[idx(k)]
                    .iter()
                    .any(|(_, _, _, q)| lifted(q) == lifted(&r))
                || avoid
                    .iter()
                    .any(|(q, m)| *q == pos && *m == notation::format_move(rules, mv));
            if dup {
                continue;
            }
            found[idx(k)].push((pos.clone(), mv, k, r.clone()));
            if first_only {
                break 'games;
            }
            if found[..idx(Kind::Plain)]
                .iter()
                .all(|b| b.len() >= PER_KIND)
            {
                break 'games;
            }
            // One exercise per game: the next position of the same game would show this one's
            // answer on the practice page.
            continue 'games;
        }
    }
    // One of each instructive kind in order, then seconds, then thirds; plain moves only to
    // reach four.
    let mut out = Vec::new();
    for round in 0..PER_KIND {
        for b in &found[..idx(Kind::Plain)] {
            if out.len() < GENERATED {
                if let Some(c) = b.get(round) {
                    out.push(c.clone());
                }
            }
        }
    }
    for c in &found[idx(Kind::Plain)] {
        if out.len() < 4 {
            out.push(c.clone());
        }
    }
    out
}

/// The game in `slot` restarted at `pos` ([`Game::reset`]), or a new one there when `slot` is
/// empty: the same game as `Game::try_new(rules, pos.clone())`, reusing the buffers.
fn reset_or_new<'s, 'r>(
    slot: &'s mut Option<Game<'r>>,
    rules: &'r Rules,
    pos: &Position,
) -> Result<&'s mut Game<'r>, crate::engine::EngineError> {
    match slot {
        Some(g) => {
            g.reset(pos)?;
            Ok(g)
        }
        None => Ok(slot.insert(Game::try_new(rules, pos.clone())?)),
    }
}

/// Every exercise of `rs`, numbered: the ruleset's own (`exercise = true`) first, then the
/// generated ones, then the "find the best move" ones ([`Kind::BestMove`]). Errors: an exercise the engine cannot replay (a message naming it).
pub fn exercises(rs: &Ruleset) -> Result<Vec<Exercise>, String> {
    let rules = Rules::try_new(rs)?;
    let mut out: Vec<Exercise> = Vec::new();
    for ex in rs.examples.iter().filter(|e| e.exercise) {
        let fail = |e: String| format!("exercise `{}`: {e}", ex.title);
        let start = match &ex.start {
            Start::Initial => rules.initial(),
            Start::Position(s) => {
                notation::parse_position(&rules, s)
                    .map_err(|e| fail(e.to_string()))?
                    .0
            }
        };
        let report = replay(&rules, &start, &ex.moves).map_err(fail)?;
        out.push(Exercise {
            number: out.len() + 1,
            title: ex.title.clone(),
            start,
            moves: ex.moves.clone(),
            from_ruleset: true,
            kind: None,
            report,
            legal: Vec::new(),
            note: ex.note.clone(),
            value: None,
        });
    }
    let avoid: Vec<(Position, String)> = out
        .iter()
        .filter(|e| e.moves.len() == 1)
        .map(|e| (e.start.clone(), e.moves[0].clone()))
        .collect();
    for (pos, mv, kind, report) in generate(&rules, &avoid, false) {
        let legal = if kind == Kind::Feeding {
            Game::try_new(&rules, pos.clone())
                .map(|g| {
                    g.legal_moves()
                        .into_iter()
                        .map(|m| notation::format_move(&rules, m))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        out.push(Exercise {
            legal,
            ..Exercise::generated(
                out.len() + 1,
                pos,
                notation::format_move(&rules, mv),
                kind,
                report,
            )
        });
    }
    let avoid: Vec<Position> = out.iter().map(|e| e.start.clone()).collect();
    for (pos, mv, value, report) in best_positions(&rules, &avoid) {
        out.push(Exercise {
            value: Some(value),
            ..Exercise::generated(
                out.len() + 1,
                pos,
                notation::format_move(&rules, mv),
                Kind::BestMove,
                report,
            )
        });
    }
    Ok(out)
}

/// Whether a kit of `rs` has any practice exercise, that is whether [`exercises`] gives at
/// least one: an exercise of the ruleset's own, a position from the practice games, or a
/// best-move position. Cheap for an ordinary ruleset (the practice games stop at the first
/// position found); on a ruleset whose every game ends within its first three moves (a one-pit
/// board) it plays all [`GAMES`] games and asks for best-move positions. Errors: none (rules
/// the engine refuses have no exercise).
pub fn has_exercises(rs: &Ruleset) -> bool {
    if rs.examples.iter().any(|e| e.exercise) {
        return true;
    }
    let Ok(rules) = Rules::try_new(rs) else {
        return false;
    };
    // With no exercise of its own and none generated, `exercises` asks for best-move
    // positions avoiding none: the same question, remembered for the layout that follows.
    !generate(&rules, &[], true).is_empty() || !best_positions(&rules, &[]).is_empty()
}

/// "Find the best move" exercises per kit, at most.
pub const BEST_EXERCISES: usize = 3;
/// Seeds left in the pits, at most, in a best-move position: late in the game, so that the
/// solver proves it within [`crate::solve::HINT_NODES`] positions.
const BEST_SEEDS: u32 = 12;
/// Positions handed to the solver, at most (bounds the build time: each costs at most
/// [`crate::solve::HINT_NODES`] positions).
const BEST_TRIES: usize = 24;
/// Legal moves, at least, in a best-move position (a real choice).
const BEST_CHOICES: usize = 3;

/// Best-move positions: (position, its only best move, the proven value, the move's report),
/// at most [`BEST_EXERCISES`], deterministic for a ruleset. Practice games (their own
/// pseudo-random sequence) are played until at most [`BEST_SEEDS`] seeds are left in the pits;
/// that position is tried when the side to move has at least [`BEST_CHOICES`] moves and it is
/// not in `avoid`; it is kept when the solver proves exactly one best move, else the game goes
/// on to the next such position. One exercise per game, and at most [`BEST_TRIES`] solves.
/// For rules with a repetition end, set-up endgames instead ([`endgames`]).
fn best_positions(rules: &Rules, avoid: &[Position]) -> Vec<(Position, Move, i32, Report)> {
    // Remembered for the last rulesets asked about: a kit and its host key ask once each per
    // paper and language (from two threads at once: the second waits for the first's answer),
    // `check` lays out every language, `build` lays out several kits at once, and the layout
    // advice lays the kit out again for each change it tries. Each answer is up to 1,500 solver
    // runs (a ruleset found by fuzzing spent 2.5 s of `check` here).
    type Key = (String, String, Vec<Position>);
    type Found = Vec<(Position, Move, i32, Report)>;
    static MEMO: crate::memo::Memo<Key, Found> = crate::memo::Memo::new(8);
    let key: Key = (
        rules.ruleset().id.clone(),
        crate::solve::rules_key(rules.ruleset()),
        avoid.to_vec(),
    );
    MEMO.get_or_compute(key, || best_positions_uncached(rules, avoid))
}

/// [`best_positions`] worked out afresh.
fn best_positions_uncached(
    rules: &Rules,
    avoid: &[Position],
) -> Vec<(Position, Move, i32, Report)> {
    let rs = rules.ruleset();
    // Under a repetition end a value depends on the line of play since the last capture, the
    // table helps little, and late-game positions of practice games were rarely proven within
    // the budget (measured before: 24 tries, 14 s per kit, none proven with one best move):
    // set-up endgames with few seeds are tried instead.
    if rs.end.repetition {
        return endgames(rules, avoid);
    }
    let n = 2 * rs.board.pits_per_side;
    let mut rng = XorShift::seeded(&format!("{}/best-move", rs.id));
    let mut out: Vec<(Position, Move, i32, Report)> = Vec::new();
    let mut tries = 0;
    let budget = SowBudget::new(PRACTICE_SOWN);
    let mut moves = MoveList::new();
    'games: for _ in 0..GAMES {
        if out.len() >= BEST_EXERCISES || tries >= BEST_TRIES || !budget.left() {
            break;
        }
        let Ok(mut game) = Game::try_new(rules, rules.initial()) else {
            break;
        };
        for ply in 0..PLIES {
            if !budget.left() {
                break 'games;
            }
            if game.is_over() {
                continue 'games;
            }
            let seeds: u32 = game.position().holes[..n].iter().map(|&x| x as u32).sum();
            game.legal_moves_into(&mut moves);
            if ply >= 2 && seeds <= BEST_SEEDS && moves.len() >= BEST_CHOICES {
                let pos = game.position().clone();
                let seen = avoid.contains(&pos) || out.iter().any(|(q, ..)| *q == pos);
                if seen {
                    continue 'games;
                }
                tries += 1;
                let proven = if solver_affordable(rules, &pos) {
                    crate::solve::proven_best(rules, &pos)
                } else {
                    None
                };
                if let Some((v, best)) = proven {
                    if let [mv] = best[..] {
                        let Ok(mut fresh) = Game::try_new(rules, pos.clone()) else {
                            continue 'games;
                        };
                        if let Ok(r) = fresh.play(mv) {
                            out.push((pos, mv, v, r));
                            continue 'games;
                        }
                    }
                }
                // Not proven, or more than one best move: try later in the same game.
                if tries >= BEST_TRIES {
                    break 'games;
                }
            }
            if moves.is_empty() {
                continue 'games;
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            if game.play_fast(mv).is_err() {
                continue 'games;
            }
        }
    }
    out
}

/// Seeds in the pits of a set-up endgame ([`endgames`]), at least and at most.
const ENDGAME_SEEDS: (usize, usize) = (4, 8);
/// Set-up endgames drawn, at most (most are dropped before the solver: too few moves).
const ENDGAME_TRIES: usize = 1_500;
/// Positions the solver may visit per set-up endgame. Measured on Oware: of 178 endgames with
/// 4 to 8 seeds and 3 or more moves, 2 were proven with one best move within 1,000 positions,
/// each in under 20; with 5,000 and 30,000 no more (lines of play under a repetition end run
/// past [`crate::solve::MAX_DEPTH`]). So a small budget loses little and keeps each try cheap.
const ENDGAME_NODES: u64 = 200;
/// Set-up endgames solved side by side at a time ([`endgames`], rules without relay sowing).
const ENDGAME_BATCH: usize = 32;

/// Best-move positions for rules with a repetition end, as [`best_positions`] returns them:
/// set-up endgames, deterministic for a ruleset. Each puts 4 to 8 seeds at random
/// ([`ENDGAME_SEEDS`], a xorshift sequence seeded from the ruleset id) in the pits, shares the
/// rest between the stores at random (each below the ruleset's threshold) and gives the move
/// to a random side. It is tried when the game is not over there, the side to move
/// does not pass and has at least [`BEST_CHOICES`] moves, and it is not in `avoid`; kept when
/// the solver proves exactly one best move within [`ENDGAME_NODES`] positions. At most
/// [`ENDGAME_TRIES`] tries. None when seeds can never reach a store (no capture and no sowing
/// into either store: [`crate::ruleset::Ruleset::no_seed_reaches_a_store`]), since such a position could not
/// arise.
fn endgames(rules: &Rules, avoid: &[Position]) -> Vec<(Position, Move, i32, Report)> {
    let rs = rules.ruleset();
    let stores_fill = !rs.no_seed_reaches_a_store();
    let n = 2 * rs.board.pits_per_side;
    let total = rs.total_seeds() as usize;
    if !stores_fill || n == 0 || total <= ENDGAME_SEEDS.0 {
        return Vec::new();
    }
    let mut rng = XorShift::seeded(&format!("{}/endgame", rs.id));
    let mut out: Vec<(Position, Move, i32, Report)> = Vec::new();
    let budget = SowBudget::new(PRACTICE_SOWN);
    // The positions drawn do not depend on what the solver says (each try makes the same
    // draws whatever happened before), so they are drawn first, in order. Without relay
    // sowing the sowing budget never moves, and the tries of a batch are solved side by side
    // on the machine's cores; with it, one at a time on this thread, whose sowing the budget
    // counts. Either way the first tries that prove one best move are kept, in order: the
    // same exercises.
    let relay = rs.sowing.relay != crate::ruleset::Relay::None;
    // With relay sowing one try at a time: the budget is checked before the next is drawn.
    // Without, [`ENDGAME_BATCH`] at a time, and two per thread once one exercise is left to
    // find: a batch is solved whole, and the tries after the one that completes the set are
    // wasted (half a batch on average; a tenth of the Oware kit's endgame solves with 32).
    let last_batch = (2 * rayon::current_num_threads()).clamp(2, ENDGAME_BATCH);
    // A solver for each of the pool's threads (by `rayon::current_thread_index`, plus one for a
    // caller outside the pool), kept over the batches and renewed for each try: a new solver
    // a try, or a batch, spent more on setting its buffers up than on its 200 positions. A
    // thread holds only its own (the solver starts no parallel work, so a thread never waits
    // on one it holds); one found busy is never waited for (a new solver answers instead).
    let solvers: Vec<std::sync::Mutex<Option<crate::solve::Solver>>> = (0
        ..=rayon::current_num_threads())
        .map(|_| Default::default())
        .collect();
    let mut tries = 0;
    while tries < ENDGAME_TRIES && out.len() < BEST_EXERCISES && budget.left() {
        let batch = if relay {
            1
        } else if out.len() + 1 >= BEST_EXERCISES {
            last_batch
        } else {
            ENDGAME_BATCH
        };
        let mut drawn: Vec<(Position, Game)> = Vec::new();
        while drawn.len() < batch && tries < ENDGAME_TRIES && budget.left() {
            tries += 1;
            let (lo, hi) = ENDGAME_SEEDS;
            let k = (lo + rng.below(hi - lo + 1)).min(total);
            let mut holes = vec![0u16; n + 2];
            for _ in 0..k {
                holes[rng.below(n)] += 1;
            }
            // The stores share the rest at random, each below the threshold (if any).
            let rest = total - k;
            let cap = rs
                .end
                .threshold
                .map_or(rest, |t| (t as usize).saturating_sub(1));
            let (lo_store, hi_store) = (rest.saturating_sub(cap), cap.min(rest));
            if lo_store > hi_store {
                continue;
            }
            let s0 = lo_store + rng.below(hi_store - lo_store + 1);
            holes[n] = s0 as u16;
            holes[n + 1] = (rest - s0) as u16;
            let pos = Position {
                holes,
                to_move: rng.below(2) as u8,
            };
            if avoid.contains(&pos) {
                continue;
            }
            let Ok(game) = Game::try_new(rules, pos.clone()) else {
                continue;
            };
            if game.is_over()
                || game.start_passed().is_some()
                || game.legal_moves().len() < BEST_CHOICES
                || !solver_affordable(rules, &pos)
            {
                continue;
            }
            drawn.push((pos, game));
        }
        // Each try by its thread's solver (see `solvers`), renewed: a new solver's answer.
        let solve = |(pos, _): &(Position, Game)| {
            let mine = rayon::current_thread_index().map_or(0, |i| i + 1);
            match solvers.get(mine).and_then(|m| m.try_lock().ok()) {
                Some(mut s) => {
                    let s = s.get_or_insert_with(|| crate::solve::within(rules, ENDGAME_NODES));
                    crate::solve::proven_best_by(s, pos)
                }
                None => crate::solve::proven_best_within(rules, pos, ENDGAME_NODES),
            }
        };
        let solved: Vec<Option<(i32, Vec<Move>)>> = if relay {
            drawn.iter().map(solve).collect()
        } else {
            use rayon::prelude::*;
            drawn.par_iter().map(solve).collect()
        };
        for ((pos, game), proven) in drawn.into_iter().zip(solved) {
            if out.len() >= BEST_EXERCISES {
                break;
            }
            // A position already kept is not tried again.
            if out.iter().any(|(q, ..)| *q == pos) {
                continue;
            }
            let Some((v, best)) = proven else {
                continue;
            };
            if let [mv] = best[..] {
                if let Ok(r) = game.clone().play(mv) {
                    out.push((pos, mv, v, r));
                }
            }
        }
    }
    out
}

/// The heading of exercise `e`: "Exercise 3: title" in the host key, every exercise alike (a
/// generated position is titled by what makes it instructive, phrase `practice.kind.*`); on
/// the practice page just "Exercise 3", since a title often gives the answer away.
fn heading(e: &Exercise, ph: &Phrases, answer: bool) -> String {
    let title = if !e.title.is_empty() {
        e.title.clone()
    } else {
        let key = match e.kind {
            Some(Kind::GrandSlam) => "practice.kind.grand_slam",
            Some(Kind::Relay) => "practice.kind.relay",
            Some(Kind::Feeding) => "practice.kind.feeding",
            Some(Kind::ChainCapture) => "practice.kind.chain_capture",
            Some(Kind::Capture) => "practice.kind.capture",
            Some(Kind::ExtraTurn) => "practice.kind.extra_turn",
            Some(Kind::Plain) | None => "practice.kind.plain",
            Some(Kind::BestMove) => "best.kind",
        };
        ph.get(key)
    };
    // "Find the best move" gives nothing away, and tells the players what to do.
    if !answer && e.kind != Some(Kind::BestMove) {
        ph.fmt("practice.number", &[("n", &e.number.to_string())])
    } else {
        ph.fmt(
            "practice.number_title",
            &[("n", &e.number.to_string()), ("title", &title)],
        )
    }
}

/// The question of exercise `e`.
fn question(rs: &Ruleset, rules: &Rules, e: &Exercise, ph: &Phrases) -> String {
    let who = rules.player_name(e.start.to_move).to_string();
    if e.kind == Some(Kind::BestMove) {
        return ph.fmt("best.question", &[("player", &who)]);
    }
    let key = if rs.capture.kind == CaptureKind::None {
        "practice.question_no_capture"
    } else {
        "practice.question"
    };
    let moves = e.moves.join(", ");
    if e.moves.len() == 1 {
        ph.fmt(key, &[("player", &who), ("moves", &moves)])
    } else {
        ph.fmt(
            &format!("{key}_many"),
            &[("player", &who), ("moves", &moves)],
        )
    }
}

/// The diagram data of exercise `e`: as a question (start board only) or as an answer.
fn prepared(
    rs: &Ruleset,
    rules: &Rules,
    e: &Exercise,
    ph: &Phrases,
    answer: bool,
) -> Result<Prepared, String> {
    let ex = Example {
        title: heading(e, ph, answer),
        note: e.note.clone(),
        start: Start::Position(notation::format_position(rules, &e.start)),
        moves: e.moves.clone(),
        expect: Default::default(),
        exercise: !answer,
        line: 0,
        field_lines: Default::default(),
        texts: Default::default(),
    };
    diagram::prepare(rs, rules, &ex, ph, answer)
}

/// Space added to the line height between large print's answer blank lines (one a line),
/// mm: at 18 pt (7.6 mm lines) an underline still ends about 3.3 mm above the next label's
/// capitals (was 2 mm; 1.2 mm lets two English exercises share an A4 page).
const BLANK_LEAD: f64 = 1.2;

/// Large print: the least length of an answer blank's line, mm (room for "South by 4").
const LARGE_BLANK_LINE: f64 = 50.0;

/// Space between large print's stacked start board and its first answer blank, mm (the
/// board already ends in 1 mm of space).
const BOARD_TO_BLANKS: f64 = 1.0;

/// Height of the lines `s` takes at `size` across `w`, mm.
fn lines_h(s: &str, size: f64, weight: Weight, w: f64) -> f64 {
    super::wrap(s, size, weight, w).len() as f64 * text::line_height_mm(size)
}

/// Lays out the practice pages (portrait `paper`, type sizes `sz`): the intro, then every
/// exercise with its question, start board and answer blanks. Errors as [`exercises`].
pub fn pages(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Result<Vec<Page>, String> {
    let rules = Rules::try_new(rs)?;
    let list = exercises(rs)?;
    let (body, sub_head, caption) = (sz.body, sz.sub_head, sz.caption);
    // The answer blanks' words: bold, and in large print at the label size.
    let (blank_pt, _) = super::board::strong(sz, caption);
    let mut f = Flow::new(paper, sz, "practice");
    let w = f.width();
    f.title(
        &ph.fmt("practice.title", &[("name", &rs.name)]),
        sz.title,
        1.0,
    );
    if list.is_empty() {
        // A ruleset whose every game ends within its first three moves (a one-pit board):
        // the page says why it has no exercises instead of printing empty (`check` warns too).
        f.para(&ph.get("practice.none"), body, Weight::Regular, 1.0);
        return Ok(f.pages);
    }
    // Under a repetition end the "find the best move" exercises are endgames sowkit set up
    // ([`best_positions`]), not positions from its games.
    let set_up = rs.end.repetition && list.iter().any(|e| e.kind == Some(Kind::BestMove));
    // Exercises from the rule sheets come first only when the ruleset has some.
    let own = list.iter().any(|e| e.from_ruleset);
    let intro = match (own, set_up) {
        (true, false) => "practice.intro",
        (true, true) => "practice.intro_setup",
        (false, false) => "practice.intro_games",
        (false, true) => "practice.intro_games_setup",
    };
    f.para(&ph.get(intro), body, Weight::Regular, 1.0);
    if rs.sowing.direction == crate::ruleset::Direction::Either {
        let row = &rs.board.pit_labels[0];
        let i = (row.len() / 2).saturating_sub(1);
        let next = row.get(i + 1).unwrap_or(&rs.board.stores[0]);
        let text = ph.fmt("practice.either", &[("pit", &row[i]), ("next", next)]);
        f.para(&text, body, Weight::Regular, 1.0);
    }
    if list.iter().any(|e| e.kind == Some(Kind::BestMove)) {
        f.para(&ph.get("best.intro"), body, Weight::Regular, 1.0);
    }
    f.y += 1.0;
    let best_blanks = vec![ph.get("best.blank_move"), ph.get("best.blank_result")];
    let blanks: Vec<String> = {
        let mut b = vec![ph.get("practice.blank_last")];
        if rs.capture.kind != CaptureKind::None {
            b.push(ph.get("practice.blank_captured"));
        }
        b.push(ph.get("practice.blank_next"));
        b
    };
    let blanks_of = |e: &Exercise| {
        if e.kind == Some(Kind::BestMove) {
            &best_blanks
        } else {
            &blanks
        }
    };
    for e in &list {
        let prep = prepared(rs, &rules, e, ph, false)?;
        let head = heading(e, ph, false);
        let q = question(rs, &rules, e, ph);
        // Only the start board is drawn: measure that one on a scratch page, with the answer
        // blanks as they follow it, exactly as far as the page advances below (normal print
        // reserved a stacked example's height, "after" board included, which an exercise
        // never draws: an exercise that fitted went to a new page, and the last practice page
        // of Kalah, Oware and Giuthi held one exercise, 24 % full).
        let board_h = {
            let mut scratch = super::page::portrait("scratch", paper);
            let used = diagram::draw_boards(&mut scratch, rs, ph, sz, &prep, MARGIN, MARGIN, w);
            if sz.large && diagram::stacked(rs, w, sz) {
                used + BOARD_TO_BLANKS
                    + blanks_of(e).len() as f64 * (text::line_height_mm(blank_pt) + BLANK_LEAD)
            } else if diagram::stacked(rs, w, sz) {
                used + 4.0 + text::line_height_mm(blank_pt)
            } else {
                used
            }
        };
        // Never split (its blanks belong with its board). In large print the space under the
        // last blank line is not ink, so it may fall past the page's content bottom.
        // Large print's stacked layout keeps 1 mm (not 2) above an exercise and under its
        // board, so two exercises share an A4 page in English too.
        let tall = sz.large && diagram::stacked(rs, w, sz);
        let gap = if tall { 1.0 } else { 2.0 };
        let trail = if tall { BLANK_LEAD } else { 0.0 };
        // A label too long for its slot wraps (never cut): the lines it adds under boards.
        let labels = blank_labels(rs, w, sz, blank_pt, blanks_of(e));
        let blank_lh = text::line_height_mm(blank_pt) + BLANK_LEAD;
        let extra = if tall {
            labels.iter().map(|l| l.len() - 1).sum::<usize>() as f64 * blank_lh
        } else if diagram::stacked(rs, w, sz) {
            labels.iter().map(|l| l.len() - 1).max().unwrap_or(0) as f64
                * text::line_height_mm(blank_pt)
        } else {
            0.0
        };
        let h = lines_h(&head, sub_head, Weight::Bold, w)
            + lines_h(&q, caption, Weight::Regular, w)
            + board_h
            + extra
            - trail;
        f.place(gap, h, h);
        let hl = super::wrap(&head, sub_head, Weight::Bold, w);
        f.lines(MARGIN, &hl, sub_head, Weight::Bold);
        let ql = super::wrap(&q, caption, Weight::Regular, w);
        f.lines(MARGIN, &ql, caption, Weight::Regular);
        let y = f.y;
        // The start board on the left half and the answer blanks where the "after" board would
        // be; under the board, side by side, when the board takes the whole width.
        let used = diagram::draw_boards(f.page(), rs, ph, sz, &prep, MARGIN, y, w);
        let nb = blanks_of(e).len();
        let widths = blank_widths(rs, w, sz, blank_pt, blanks_of(e));
        let label_lh = text::line_height_mm(blank_pt);
        let slots: Vec<(f64, f64, f64)> = if tall {
            // Large print: one blank a line (a wrapped label takes more), across the width.
            let mut base = y + used + BOARD_TO_BLANKS + text::ascent_mm(blank_pt);
            labels
                .iter()
                .zip(&widths)
                .map(|(l, &bw)| {
                    let at = base;
                    base += l.len() as f64 * blank_lh;
                    (MARGIN, at, bw)
                })
                .collect()
        } else if diagram::stacked(rs, w, sz) {
            let sw = w / nb as f64;
            let base = y + used + 2.0 + text::ascent_mm(blank_pt);
            (0..nb)
                .map(|i| (MARGIN + i as f64 * sw, base, widths[i]))
                .collect()
        } else {
            let bx = MARGIN + w / 2.0 + 6.0;
            let step = (used - 4.0) / nb as f64;
            (0..nb)
                .map(|i| (bx, y + 4.0 + step * (i as f64 + 0.6), widths[i]))
                .collect()
        };
        for (lines, &(bx, base, bw)) in labels.iter().zip(&slots) {
            // Every line of the label; the writing line follows its last.
            let lh = if tall { blank_lh } else { label_lh };
            let pg = f.page();
            for (k, l) in lines.iter().enumerate() {
                pg.text(bx, base + k as f64 * lh, blank_pt, Weight::Bold, l);
            }
            let last = lines.last().map_or("", |l| l.as_str());
            let tw = text::width_mm(last, blank_pt, Weight::Bold);
            let yl = base + (lines.len() - 1) as f64 * lh + 0.8;
            pg.shape(
                line(p(bx + tw + 1.5, yl), p(bx + bw - 0.5, yl)),
                None,
                Some(Stroke::solid(0.25, Color::BLACK)),
            );
        }
        if tall {
            f.y += BOARD_TO_BLANKS + nb as f64 * blank_lh;
        } else if diagram::stacked(rs, w, sz) {
            f.y += 4.0 + text::line_height_mm(blank_pt);
        }
        f.y += used + extra;
    }
    Ok(f.pages)
}

/// The width of each answer blank's slot (label and writing line), mm, for a practice page
/// `w` mm wide: large print with stacked boards, one blank a line, three quarters of the width
/// or more where a long label would leave less than [`LARGE_BLANK_LINE`] mm to write on;
/// stacked boards otherwise, the blanks side by side under the board; else down the right
/// half beside the board.
fn blank_widths(rs: &Ruleset, w: f64, sz: &Sizes, blank_pt: f64, blanks: &[String]) -> Vec<f64> {
    let nb = blanks.len().max(1);
    if sz.large && diagram::stacked(rs, w, sz) {
        blanks
            .iter()
            .map(|b| {
                let lw = text::width_mm(b, blank_pt, Weight::Bold) + 1.5 + 0.5;
                (w * 0.75).max(lw + LARGE_BLANK_LINE).min(w)
            })
            .collect()
    } else if diagram::stacked(rs, w, sz) {
        vec![w / nb as f64 - 4.0; blanks.len()]
    } else {
        vec![w / 2.0 - 6.0; blanks.len()]
    }
}

/// Each answer blank's label as printed: wrapped to leave at least 10 mm of writing line in
/// its slot ([`blank_widths`]), so a long label takes more lines rather than being cut.
fn blank_labels(
    rs: &Ruleset,
    w: f64,
    sz: &Sizes,
    blank_pt: f64,
    blanks: &[String],
) -> Vec<Vec<String>> {
    blanks
        .iter()
        .zip(blank_widths(rs, w, sz, blank_pt, blanks))
        .map(|(b, bw)| {
            let l = super::wrap(b, blank_pt, Weight::Bold, bw - 10.0);
            if l.is_empty() {
                vec![String::new()]
            } else {
                l
            }
        })
        .collect()
}

/// Lays out the host key pages (portrait `paper`, named `answers-1`, …): a clear "keep
/// separate" title, then for every exercise its number, the question, the before/after boards
/// and the answer worded from the engine's report. Errors as [`exercises`].
pub fn key_pages(rs: &Ruleset, paper: Paper, ph: &Phrases) -> Result<Vec<Page>, String> {
    key_pages_with(rs, paper, &Sizes::NORMAL, ph, true)
}

/// [`key_pages`], with the solver's best-play lines only when `hints` is set. Only the fuzz
/// harness ([`crate::fuzzing::kit`]) leaves them out, to make a kit in milliseconds; every
/// real host key has them.
pub(crate) fn key_pages_with(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
    hints: bool,
) -> Result<Vec<Page>, String> {
    let rules = Rules::try_new(rs)?;
    let list = exercises(rs)?;
    if hints {
        // Every exercise's best-play line is asked for below, one after another; the solves
        // are independent, so they run first side by side on the machine's cores and the
        // loop finds them remembered ([`crate::solve::proven_best`]). Same answers.
        use rayon::prelude::*;
        list.par_iter().for_each(|e| {
            if solver_affordable(&rules, &e.start) {
                let _ = crate::solve::proven_best(&rules, &e.start);
            }
        });
    }
    let (body, sub_head, cap_pt) = (sz.body, sz.sub_head, sz.caption);
    let mut f = Flow::new(paper, sz, "answers");
    let w = f.width();
    f.title(&ph.fmt("key.title", &[("name", &rs.name)]), sz.title, 1.0);
    let intro = format!(
        "{} {}",
        ph.get("key.intro"),
        super::rules::how_to_read(rs, ph)
    );
    if list.is_empty() {
        f.para(&ph.get("key.none"), body, Weight::Regular, 0.0);
        return Ok(f.pages);
    }
    // The first answer's own 2 mm gap follows ([`Flow::place`]).
    f.para(&intro, body, Weight::Regular, 0.0);
    for e in &list {
        let mut prep = prepared(rs, &rules, e, ph, true)?;
        let head = heading(e, ph, true);
        let best = e.kind == Some(Kind::BestMove);
        let mut caption: Vec<String> = Vec::new();
        if best {
            // Compact: the start board with the best move's sowing marked, and the answer.
            prep.after = None;
            caption.extend(best_play(&rules, &e.start, ph));
            caption.extend(prep.caption[1..].iter().cloned());
        } else {
            caption.push(question(rs, &rules, e, ph));
            caption.extend(prep.caption[1..].iter().cloned());
        }
        if e.kind == Some(Kind::Feeding) && !e.legal.is_empty() {
            let mover = rules.player_name(e.start.to_move).to_string();
            let other = rules.player_name(1 - e.start.to_move.min(1)).to_string();
            let key = if e.legal.len() == 1 {
                "key.feeding_one"
            } else {
                "key.feeding"
            };
            caption.push(ph.fmt(
                key,
                &[
                    ("player", &mover),
                    ("other", &other),
                    ("moves", &join_and(ph, &e.legal)),
                ],
            ));
        }
        if hints && !best {
            caption.extend(best_play(&rules, &e.start, ph));
        }
        // Measured by drawing the boards on a scratch page: one board for a best move, and
        // exactly what is drawn (an estimate a few mm high could push the answer off a page).
        let (board_h, board_ink) = super::rules::boards_height(rs, ph, sz, &prep, paper, w);
        let cap_h: f64 = caption
            .iter()
            .map(|c| lines_h(c, cap_pt, Weight::Regular, w))
            .sum();
        // An exercise stays whole, its answer with its question: one that does not fit the
        // rest of a page starts the next (large print's exercise 1 left its answer alone at
        // the top of page 2, under no heading). Only one taller than a page runs on, its
        // heading and boards together and its caption over the page break, each page it
        // runs onto headed "Exercise 1 (continued)".
        let head_h = lines_h(&head, sub_head, Weight::Bold, w);
        // Boards taller than a page are split between them (`rules::flow_boards`).
        let split = super::rules::splits_boards(rs, sz, &prep, paper, head_h, board_ink);
        let board_ink = board_ink.min(super::rules::boards_lead(
            rs, ph, sz, &prep, paper, split, board_ink,
        ));
        let whole = head_h + board_h + 1.0 + cap_h;
        let lead = if whole <= f.usable() {
            whole
        } else {
            head_h + board_ink
        };
        let placed = f.place(2.0, whole, lead);
        let hl = super::wrap(&head, sub_head, Weight::Bold, w);
        f.lines(MARGIN, &hl, sub_head, Weight::Bold);
        super::rules::flow_boards(&mut f, rs, ph, &prep, split, board_h);
        let number = ph.fmt("key.continued", &[("n", &e.number.to_string())]);
        f.running_head = Some((super::wrap(&number, sub_head, Weight::Bold, w), sub_head));
        for c in &caption {
            let lines = super::wrap(c, cap_pt, Weight::Regular, w);
            if placed == Placed::Split || split {
                f.keep_together(lines.len(), cap_pt);
            }
            f.lines(MARGIN, &lines, cap_pt, Weight::Regular);
        }
        f.running_head = None;
    }
    Ok(f.pages)
}

/// Estimated seeds sown by relay sowing, at most, in one call of the solver
/// ([`crate::solve::proven_best`]) that [`solver_affordable`] allows.
pub const SOLVER_SOWN: u64 = 200_000_000;

/// Whether the solver may be asked about `pos` (issue 8: no unbounded time on any input; the
/// bound is kept here, at the call, not in the solver). Without relay sowing a move is one
/// handful and the solver's [`crate::solve::HINT_NODES`] positions are cheap. With it one move
/// can sow up to [`crate::engine::relay_cap`] seeds: the legal moves of `pos` are played once
/// each and the seeds they sow, `s`, give the estimate `HINT_NODES × moves × s` (every
/// position searched tries each move, and checking a move's legality may sow them all); the
/// solver is asked only when that is at most [`SOLVER_SOWN`]. Measured on a 16-pit board of
/// 50 seeds with relay sowing and no store: 7 s per kit without this bound.
pub fn solver_affordable(rules: &Rules, pos: &Position) -> bool {
    if rules.ruleset().sowing.relay == crate::ruleset::Relay::None {
        return true;
    }
    let Ok(game) = Game::try_new(rules, pos.clone()) else {
        return false;
    };
    let moves = game.legal_moves();
    let probe = SowBudget::new(0);
    for &mv in &moves {
        let _ = game.clone().play_fast(mv);
    }
    let estimate = crate::solve::HINT_NODES
        .saturating_mul(moves.len() as u64)
        .saturating_mul(probe.spent());
    estimate <= SOLVER_SOWN
}

/// The host key's line on perfect play from `start`: the best move(s) and the value, when
/// the solver proves them within its small node budget ([`crate::solve::proven_best`]).
fn best_play(rules: &Rules, start: &Position, ph: &Phrases) -> Option<String> {
    if !solver_affordable(rules, start) {
        return None;
    }
    let (v, best) = crate::solve::proven_best(rules, start)?;
    let moves: Vec<String> = best
        .iter()
        .map(|&m| crate::notation::format_move(rules, m))
        .collect();
    let winner = if v > 0 { 0 } else { 1 };
    let result = match v {
        0 => ph.get("key.result_draw"),
        _ => ph.fmt(
            "key.result_win",
            &[
                ("player", rules.player_name(winner)),
                ("n", &v.abs().to_string()),
            ],
        ),
    };
    // When the mover loses even with the best move, the sentence says "but even so".
    let loses = v != 0 && winner != start.to_move;
    let key = match (moves.len() == 1, loses) {
        (true, false) => "key.best_one",
        (true, true) => "key.best_one_lose",
        (false, false) => "key.best",
        (false, true) => "key.best_lose",
    };
    Some(ph.fmt(
        key,
        &[
            ("player", rules.player_name(start.to_move)),
            ("moves", &join_and(ph, &moves)),
            ("result", &result),
        ],
    ))
}
