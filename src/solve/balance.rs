//! The balance report: is going first an advantage? The exact value of the start when the
//! solver proves it within a node budget, and in any case the first player's win/draw/loss
//! rates over seeded random playouts and over greedy playouts, each with a 95% Wilson interval.

use crate::engine::{EngineError, Game, Move, MoveList, Rules};
use crate::rng::XorShift;

/// How the playouts choose moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Any legal move, uniformly.
    Random,
    /// The move that most increases the mover's store margin at once (an extra turn breaks
    /// ties, then a seeded random choice).
    Greedy,
}

/// A rate with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Games counted.
    pub count: u32,
    /// `count / games`.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials (z = 1.959964).
pub fn wilson(k: u32, n: u32) -> Rate {
    if n == 0 {
        return Rate {
            count: k,
            rate: 0.0,
            lo: 0.0,
            hi: 1.0,
        };
    }
    let z = 1.959_964f64;
    let nf = n as f64;
    let p = k as f64 / nf;
    let den = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / den;
    let half = z * ((p * (1.0 - p) / nf) + z * z / (4.0 * nf * nf)).sqrt() / den;
    Rate {
        count: k,
        rate: p,
        // At k = 0 (k = n) the bound is exactly 0 (1): centre and half are equal there, but
        // their floats differ by rounding (a JSON "lo" of 1.08e-19).
        lo: if k == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        hi: if k == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// First player's results over playouts from the start.
#[derive(Clone, Debug, PartialEq)]
pub struct Playouts {
    /// The policy both players used.
    pub policy: Policy,
    /// Games played.
    pub games: u32,
    /// First player (side 0) won, drew, lost.
    pub win: Rate,
    /// Draws.
    pub draw: Rate,
    /// Losses.
    pub loss: Rate,
    /// Games stopped unfinished at the move cap, or when the relay-sowing budget ran out
    /// (counted in none of the rates' numerators).
    pub unfinished: u32,
    /// Whether the relay-sowing budget ([`PLAYOUT_SOWN`]) ran out: then `games` counts only
    /// the games begun, the last of them unfinished.
    pub budget_spent: bool,
    /// Whether the move budget ([`PLAYOUT_MOVES`]) ran out: then `games` counts only the games
    /// begun, the last of them unfinished.
    pub moves_spent: bool,
}

/// Largest number of moves in one playout; a game still going is counted unfinished.
pub const MOVE_CAP: u32 = 10_000;

/// Seeds one set of playouts may sow by relay sowing, at most ([`crate::engine::SowBudget`];
/// issue 8: no unbounded time on any input). Without it a 16-pit board of 50 seeds with
/// relay sowing and no store (each move goes round for thousands of seeds) ran `solve
/// --balance` for over a minute. The count is deterministic, so the report stays the same on
/// every run. Giuthi, the bundled ruleset with relay sowing, sows far less (see the test
/// `bundled_playouts_fit_the_sowing_budget`).
pub const PLAYOUT_SOWN: u64 = 20_000_000;

/// Moves one set of playouts may play, at most, counting every move greedy play tries before
/// choosing one, and a move as one more for every 8 seeds it lifts ([`move_cost`]; issue 8:
/// no unbounded time on any input). A break-it pass found rulesets of 12 to 16 pits a side
/// where nothing is ever captured or stored, so games run to [`MOVE_CAP`], on which `solve
/// --balance` took 46 s to over 5 minutes; a second, moves of 50 seeds that took 12 s to
/// spend a budget of plain moves. Deterministic, so the report is the same on every run. The
/// bundled rulesets play far fewer (the test `balance_playouts_stay_within_the_move_budget`).
pub const PLAYOUT_MOVES: u64 = 20_000_000;

/// What playing `mv` at `g` costs of [`PLAYOUT_MOVES`]: 1, plus 1 for every 8 seeds it lifts
/// (a sowing's time grows with its seeds; relay sowing's further laps are counted apart, by
/// [`PLAYOUT_SOWN`]).
fn move_cost(g: &Game, mv: Move) -> u64 {
    let lifted = g
        .position()
        .holes
        .get(mv.pit as usize)
        .copied()
        .unwrap_or(0);
    1 + u64::from(lifted) / 8
}

/// Plays `games` playouts from the start of `rules` with `policy` for both sides, the generator
/// seeded from the ruleset id and the policy (so the report is the same on every run). Stops
/// early, saying so in [`Playouts::budget_spent`] or [`Playouts::moves_spent`], once relay
/// sowing has sown [`PLAYOUT_SOWN`] seeds or [`PLAYOUT_MOVES`] moves were played.
pub fn playouts(rules: &Rules, policy: Policy, games: u32) -> Playouts {
    playouts_bounded(rules, policy, games, PLAYOUT_SOWN, PLAYOUT_MOVES)
}

/// [`playouts`] with a relay-sowing budget of `sown` seeds.
pub fn playouts_within(rules: &Rules, policy: Policy, games: u32, sown: u64) -> Playouts {
    playouts_bounded(rules, policy, games, sown, PLAYOUT_MOVES)
}

/// [`playouts`] with a relay-sowing budget of `sown` seeds and a budget of `moves_budget`
/// moves played (greedy play's tries included, each at its [`move_cost`]).
pub fn playouts_bounded(
    rules: &Rules,
    policy: Policy,
    games: u32,
    sown: u64,
    moves_budget: u64,
) -> Playouts {
    let seed = format!("{}/{:?}", rules.ruleset().id, policy);
    let mut rng = XorShift::seeded(&seed);
    let (mut w, mut d, mut l, mut unf) = (0u32, 0u32, 0u32, 0u32);
    let start = rules.initial();
    let mut g = Game::new(rules, start.clone());
    let mut list = MoveList::new();
    let budget = crate::engine::SowBudget::new(sown);
    // Moves played so far, greedy play's tries included; a copy of the game to try them on.
    let mut played: u64 = 0;
    let mut scratch = g.clone();
    let mut begun = 0;
    // Whether the move budget stopped a game, or the games before their number.
    let mut cut = false;
    for _ in 0..games {
        if !budget.left() {
            break;
        }
        if played >= moves_budget {
            cut = true;
            break;
        }
        begun += 1;
        if g.reset(&start).is_err() {
            unf += 1;
            continue;
        }
        let mut moves = 0;
        while !g.is_over() && moves < MOVE_CAP && budget.left() && played < moves_budget {
            g.legal_moves_into(&mut list);
            let mv = match pick(
                rules,
                &g,
                &list,
                policy,
                &mut rng,
                &mut scratch,
                &mut played,
            ) {
                Some(m) => m,
                None => break,
            };
            played += move_cost(&g, mv);
            match g.play_fast(mv) {
                Ok(_) => {}
                Err(EngineError::NonTerminating(_)) => break,
                Err(_) => break,
            }
            moves += 1;
        }
        cut |= !g.is_over() && moves < MOVE_CAP && played >= moves_budget;
        match g.ending() {
            Some(e) => match e.scores[0].cmp(&e.scores[1]) {
                std::cmp::Ordering::Greater => w += 1,
                std::cmp::Ordering::Equal => d += 1,
                std::cmp::Ordering::Less => l += 1,
            },
            None => unf += 1,
        }
    }
    let n = w + d + l;
    Playouts {
        policy,
        games: begun,
        win: wilson(w, n),
        draw: wilson(d, n),
        loss: wilson(l, n),
        unfinished: unf,
        budget_spent: !budget.left(),
        moves_spent: budget.left() && cut,
    }
}

/// The move `policy` plays at `g` from its legal moves `list`. Greedy play tries each move on
/// `scratch` set to `g` ([`Game::reset_to`]: its history is `g`'s position alone, so a try
/// costs the same however long the game), adding each try's [`move_cost`] to `played`; a
/// try that ends the game, or reaches a position `g` has seen since its last capture, is
/// played again on a copy of `g` with its whole history, which decides a repetition end. So the choice is what
/// trying every move on a copy of `g` chose (that copied the history once a try: a game with
/// no capture in 10,000 moves took minutes).
fn pick<'r>(
    rules: &Rules,
    g: &Game<'r>,
    list: &MoveList,
    policy: Policy,
    rng: &mut XorShift,
    scratch: &mut Game<'r>,
    played: &mut u64,
) -> Option<Move> {
    let moves = list.as_slice();
    if moves.is_empty() {
        return None;
    }
    match policy {
        Policy::Random => Some(moves[rng.below(moves.len())]),
        Policy::Greedy => {
            let me = g.to_move();
            let margin = |p: &crate::engine::Position| {
                p.holes[rules.store(me) as usize] as i32
                    - p.holes[rules.store(1 - me) as usize] as i32
            };
            let mut best: Vec<Move> = Vec::new();
            let mut best_score = (i32::MIN, false);
            for &mv in moves {
                *played += move_cost(g, mv);
                scratch.reset_to(g);
                let Ok(mut o) = scratch.play_fast(mv) else {
                    continue;
                };
                let whole;
                let mut c: &Game = scratch;
                if c.is_over() || g.has_seen(c) {
                    let mut full = g.clone();
                    let Ok(p) = full.play_fast(mv) else { continue };
                    o = p;
                    whole = full;
                    c = &whole;
                }
                let s = (margin(c.position()), o.extra_turn);
                if s > best_score {
                    best_score = s;
                    best.clear();
                }
                if s == best_score {
                    best.push(mv);
                }
            }
            if best.is_empty() {
                Some(moves[rng.below(moves.len())])
            } else {
                Some(best[rng.below(best.len())])
            }
        }
    }
}
