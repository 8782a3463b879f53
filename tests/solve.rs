//! The solver against positions worked by hand and against an independent, plain memoised
//! minimax (written here from the engine's `Game::play`, with none of the solver's code: no
//! windows, no bounds, no ordering, absolute scores rather than future gains).

use crate::common;

use std::collections::HashMap;

use crate::common::*;
use sowkit::engine::{EngineError, Game, Move, Position, Rules};
use sowkit::notation::{format_move, parse_position};
use sowkit::ruleset::{Include, NoLegalMove, Remaining, Ruleset};
use sowkit::solve::{solve, Limits, SolveError, Stop};

/// Side 0's final score minus side 1's under perfect play, by plain minimax memoised on the
/// whole position together with the positions seen since the last capture (kept here, from
/// each move's report), so that it is exact under a repetition end as well.
fn minimax(g: &Game, memo: &mut HashMap<(Position, Vec<Position>), i32>) -> i32 {
    minimax_from(g, Vec::new(), memo)
}

/// [`minimax`] of `g` when the positions `seen` came before it since the last capture.
fn minimax_from(
    g: &Game,
    seen: Vec<Position>,
    memo: &mut HashMap<(Position, Vec<Position>), i32>,
) -> i32 {
    fn go(g: &Game, seen: &[Position], memo: &mut HashMap<(Position, Vec<Position>), i32>) -> i32 {
        if let Some(e) = g.ending() {
            return e.scores[0] as i32 - e.scores[1] as i32;
        }
        let repetition = g.rules().ruleset().end.repetition;
        let key = {
            let mut h = if repetition {
                seen.to_vec()
            } else {
                Vec::new()
            };
            h.sort_by(|a, b| (&a.holes, a.to_move).cmp(&(&b.holes, b.to_move)));
            (g.position().clone(), h)
        };
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let maxing = g.to_move() == 0;
        let mut best: Option<i32> = None;
        for mv in g.legal_moves() {
            let mut c = g.clone();
            let r = match c.play(mv) {
                Ok(r) => r,
                Err(EngineError::NonTerminating(_)) => continue,
                Err(e) => panic!("{e}"),
            };
            let mut next_seen = if r.captured > 0 {
                Vec::new()
            } else {
                seen.to_vec()
            };
            next_seen.push(g.position().clone());
            let v = go(&c, &next_seen, memo);
            best = Some(match best {
                None => v,
                Some(b) if maxing => b.max(v),
                Some(b) => b.min(v),
            });
        }
        let v = best.expect("a position not over has a playable move");
        memo.insert(key, v);
        v
    }
    go(g, &seen, memo)
}

/// Value and best moves by the independent minimax.
fn reference(rules: &Rules, pos: &Position) -> (i32, Vec<Move>) {
    let mut table = HashMap::new();
    let g = Game::new(rules, pos.clone());
    let v = minimax(&g, &mut table);
    let mut best = Vec::new();
    for mv in g.legal_moves() {
        let mut c = g.clone();
        let Ok(r) = c.play(mv) else { continue };
        // The child's history: the root (unless the move captured), then the child.
        let seen = if r.captured > 0 {
            Vec::new()
        } else {
            vec![pos.clone()]
        };
        let cv = minimax_from(&c, seen, &mut table);
        if cv == v {
            best.push(mv);
        }
    }
    (v, best)
}

fn solved(rules: &Rules, pos: &Position) -> (i32, Vec<Move>) {
    let s = solve(rules, pos, Limits::default()).unwrap();
    assert!(s.proven, "{s:?}");
    (s.value().unwrap(), s.best_moves)
}

fn pos(rules: &Rules, s: &str) -> Position {
    parse_position(rules, s).unwrap().0
}

fn names(rules: &Rules, m: &[Move]) -> Vec<String> {
    m.iter().map(|&m| format_move(rules, m)).collect()
}

// ---- positions worked by hand --------------------------------------------------------------

#[test]
fn kalah_2_pits_hand_worked_capture_line_wins_by_four() {
    // A 1 1 (0) / B 2 0 (0); A. Opposites: A1-B2, A2-B1.
    // A2: its seed reaches store A (extra turn): A 1 0 (1). Then A1: one seed into the empty A2,
    //   opposite B1 holds 2: A takes 2 + 1, store A = 4. Both rows are empty: 4 - 0 = +4.
    // A1 instead: A 0 2 (0) / B 2 0, B to move. B1 (its only move): B2, store B (extra turn);
    //   B2: store B, B's row empty, game over, A sweeps 2: 2 - 2 = 0.
    // So the value is +4 and A2 is the only best move.
    let rules = Rules::new(&kalah(2, 1));
    let p = pos(&rules, "A 1 1 (0) / B 2 0 (0); A");
    let (v, best) = solved(&rules, &p);
    assert_eq!(v, 4);
    assert_eq!(names(&rules, &best), ["A2"]);
}

#[test]
fn value_is_side_0_minus_side_1_when_side_1_moves() {
    // The mirror of the position above with B to move: B wins by 4 (value -4), B2 best; the
    // stores already held (3 for A) count in the value: 3 - 4 = -1.
    let rules = Rules::new(&kalah(2, 1));
    let p = pos(&rules, "A 2 0 (3) / B 1 1 (0); B");
    let (v, best) = solved(&rules, &p);
    assert_eq!(v, 3 - 4);
    assert_eq!(names(&rules, &best), ["B2"]);
}

#[test]
fn kalah_1_pit_last_seed_in_store_ends_the_game_with_the_sweep() {
    // A 1 (0) / B 1 (0); A: A1 sows store A; A's row is empty, so the game ends before the
    // extra turn and B sweeps its seed: 1 - 1 = 0. One move, value 0.
    let rules = Rules::new(&kalah(1, 1));
    let (v, best) = solved(&rules, &rules.initial());
    assert_eq!(v, 0);
    assert_eq!(names(&rules, &best), ["A1"]);
}

#[test]
fn a_finished_position_has_its_stores_as_value_and_no_best_move() {
    let rules = Rules::new(&kalah(2, 1));
    let p = pos(&rules, "A 0 0 (1) / B 0 2 (1); A");
    // A's row is empty at the start: B sweeps 2: 1 - 3 = -2.
    let (v, best) = solved(&rules, &p);
    assert_eq!(v, -2);
    assert!(best.is_empty());
}

#[test]
fn empty_capture_takes_the_lone_seed() {
    // A 1 0 (0) / B 0 1 (0); A, Kalah(2, ·). A1 sows into the empty A2; opposite B1 is empty.
    // Standard rule: no capture; B moves B2 -> store B, B's row empty, A sweeps 1: 1 - 1 = 0.
    // Empty capture: A takes the lone seed (store A 1), A's row is empty, game over, B sweeps
    // 1: 1 - 1 = 0 as well, so use a position where it matters:
    // A 1 0 (0) / B 0 2 (0); A. Standard: A1 -> A2, B to move: B2 (2 seeds): store B, A1;
    //   B's row is empty: A sweeps 2 (A1 1 + A2 1): 2 - 1 = +1.
    // Empty capture: A1 -> A2 captured alone (store A 1); A's row empty: B sweeps 2: 1 - 2 = -1.
    let std_rules = Rules::new(&kalah(2, 1));
    let p = pos(&std_rules, "A 1 0 (0) / B 0 2 (0); A");
    assert_eq!(solved(&std_rules, &p).0, 1);
    let empty = Rules::new(&kalah_empty_capture(2, 1));
    assert_eq!(solved(&empty, &p).0, -1);
}

/// One pit a side, stores never sown, no capture: seeds only go round.
fn ring_game(repetition: bool) -> Ruleset {
    let mut r = kalah(1, 1);
    r.sowing.own_store = Include::Skip;
    r.sowing.opponent_store = Include::Skip;
    r.extra_turn.last_in_own_store = false;
    r.capture.kind = sowkit::ruleset::CaptureKind::None;
    r.end.either_side_empty = false;
    r.end.repetition = repetition;
    r.end.no_legal_move = NoLegalMove::Pass;
    r.end.remaining_seeds = Remaining::Owner;
    r
}

#[test]
fn repetition_end_is_solved_with_the_history() {
    // A 1 (0) / B 0 (0); A, pass rule, repetition end. A1 -> B1 (A 0 / B 1; B). B1 -> A1: back
    // to the start, which is in the history (the root counts), so the game ends by repetition
    // and each side keeps its own pits: A 1, B 0, value +1.
    let rules = Rules::new(&ring_game(true));
    let p = pos(&rules, "A 1 (0) / B 0 (0); A");
    assert_eq!(solved(&rules, &p).0, 1);
    // From B's turn with the seed on B's side the same loop gives B the seed: value -1.
    let p = pos(&rules, "A 0 (0) / B 1 (0); B");
    assert_eq!(solved(&rules, &p).0, -1);
}

#[test]
fn endless_play_without_a_repetition_end_is_refused() {
    let rules = Rules::new(&ring_game(false));
    let p = pos(&rules, "A 1 (0) / B 0 (0); A");
    match solve(&rules, &p, Limits::default()) {
        Err(SolveError::EndlessPlay(at)) => assert!(at.contains("A 1 (0) / B 0 (0)"), "{at}"),
        other => panic!("expected EndlessPlay, got {other:?}"),
    }
}

#[test]
fn a_node_budget_stops_with_sound_bounds() {
    let rules = Rules::new(&kalah(4, 3));
    let s = solve(
        &rules,
        &rules.initial(),
        Limits {
            nodes: Some(500),
            ..Limits::default()
        },
    )
    .unwrap();
    assert!(!s.proven);
    assert_eq!(s.stopped, Some(Stop::Nodes));
    assert!(s.best_moves.is_empty());
    // The exact value (README table, checked by the release test below) lies in the bounds.
    let full = solve(&rules, &rules.initial(), Limits::default()).unwrap();
    let v = full.value().unwrap();
    assert!(s.bounds.0 <= v && v <= s.bounds.1, "{:?} vs {v}", s.bounds);
    // Deterministic: the same budget gives the same answer.
    let again = solve(
        &rules,
        &rules.initial(),
        Limits {
            nodes: Some(500),
            ..Limits::default()
        },
    )
    .unwrap();
    assert_eq!(s, again);
}

/// A solver renewed between positions ([`sowkit::solve::Solver::renew`]) gives, position for
/// position, the very solution a new solver gives: value, best moves, why it stopped, and the
/// positions visited and table entries used (so the search itself was the same). Small budgets
/// on midgame and endgame positions of random games, so that many solves stop on the budget
/// (the way that once dropped the reused child lists) and some are proven; rules with and
/// without a repetition end.
#[test]
fn a_renewed_solver_solves_as_a_new_one() {
    let limits = Limits {
        nodes: Some(200),
        seconds: None,
        memory_mb: 4,
    };
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut all_proven = 0;
    for id in ["oware-abapa", "giuthi", "kalah-6x4"] {
        let rs = common::bundled().into_iter().find(|r| r.id == id).unwrap();
        let rules = Rules::new(&rs);
        let mut renewed = sowkit::solve::within(&rules, 200);
        let (mut stopped, mut proven) = (0, 0);
        for _ in 0..12 {
            let mut g = Game::new(&rules, rules.initial());
            let plies = 10 + next(70);
            for _ in 0..plies {
                let moves = g.legal_moves();
                if g.is_over() || moves.is_empty() {
                    break;
                }
                if g.play(moves[next(moves.len())]).is_err() {
                    break;
                }
            }
            if g.is_over() {
                continue;
            }
            let p = g.position().clone();
            let fresh = sowkit::solve::within(&rules, 200).solve(&p).unwrap();
            renewed.renew();
            let again = renewed.solve(&p).unwrap();
            assert_eq!(
                fresh,
                again,
                "{id}: {}",
                sowkit::notation::format_position(&rules, &p)
            );
            // A solver with the whole 4 MiB table (its first 1.5 MiB) searches the same
            // positions (200 of them fill no bucket of the smaller table).
            let whole = solve(&rules, &p, limits).unwrap();
            assert_eq!(whole.table_bytes, 65_536 * 24);
            assert_eq!(again.table_bytes, sowkit::solve::HINT_TABLE_SLOTS * 24);
            assert_eq!(
                sowkit::solve::Solution {
                    table_bytes: again.table_bytes,
                    ..whole
                },
                again
            );
            assert_eq!(
                sowkit::solve::proven_best_by(&mut renewed, &p),
                sowkit::solve::proven_best_within(&rules, &p, 200)
            );
            if fresh.stopped.is_some() {
                stopped += 1;
            } else {
                proven += 1;
            }
        }
        assert!(
            stopped >= 2,
            "{id}: only {stopped} solves stopped on the budget"
        );
        all_proven += proven;
    }
    assert!(all_proven >= 2, "only {all_proven} solves proven");
}

#[test]
fn no_table_gives_the_same_values() {
    let rules = Rules::new(&kalah(3, 2));
    let with = solve(&rules, &rules.initial(), Limits::default()).unwrap();
    let without = solve(
        &rules,
        &rules.initial(),
        Limits {
            memory_mb: 0,
            ..Limits::default()
        },
    )
    .unwrap();
    assert_eq!(with.value(), without.value());
    assert_eq!(with.best_moves, without.best_moves);
}

// ---- against the independent minimax -------------------------------------------------------

fn agree(rs: &Ruleset) -> i32 {
    let rules = Rules::new(rs);
    let start = rules.initial();
    let (v, best) = solved(&rules, &start);
    let (rv, rbest) = reference(&rules, &start);
    assert_eq!(
        (v, &best),
        (rv, &rbest),
        "{} pits {} seeds",
        rs.board.pits_per_side,
        rs.board.seeds_per_pit
    );
    v
}

#[test]
fn small_kalah_boards_agree_with_plain_minimax_both_capture_rules() {
    for (m, n) in [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 1),
        (2, 2),
        (2, 3),
        (3, 1),
        (3, 2),
        (4, 1),
    ] {
        agree(&kalah(m, n));
        agree(&kalah_empty_capture(m, n));
    }
}

#[test]
fn solver_and_minimax_agree_on_reachable_midgame_positions() {
    // Positions along a seeded random game of Kalah(3,3) (sides to move both ways).
    let rules = Rules::new(&kalah(3, 3));
    let mut g = Game::new(&rules, rules.initial());
    let mut rng = sowkit::rng::XorShift::new(7);
    let mut table = HashMap::new();
    while !g.is_over() {
        let p = g.position().clone();
        let (v, _) = solved(&rules, &p);
        assert_eq!(v, minimax(&g, &mut table), "{p:?}");
        let moves = g.legal_moves();
        g.play(moves[rng.below(moves.len())]).unwrap();
    }
}

/// Oware-like rules on a tiny board (repetition end, feeding, grand slam, count capture),
/// checked against the minimax memoised on the position and its history.
#[test]
fn repetition_rules_agree_with_minimax() {
    for (n, seeds, threshold) in [(2, 1, 3), (1, 2, 3), (1, 3, 4)] {
        let mut rs = oware_with_threshold(threshold);
        rs.board.pits_per_side = n;
        rs.board.seeds_per_pit = seeds;
        rs.board.pit_labels = [
            (1..=n).map(|i| format!("A{i}")).collect(),
            (1..=n).map(|i| format!("B{i}")).collect(),
        ];
        agree(&rs);
    }
}

/// Giuthi's rules (either direction, relay sowing in reverse, extra turn before crossing,
/// pass rule, repetition end) on a tiny board, against the minimax.
#[test]
fn relay_and_pass_rules_agree_with_minimax() {
    for (n, seeds) in [(2, 1), (2, 2)] {
        let mut rs = giuthi();
        rs.board.pits_per_side = n;
        rs.board.seeds_per_pit = seeds;
        rs.board.pit_labels = [
            (1..=n).map(|i| format!("A{i}")).collect(),
            (1..=n).map(|i| format!("B{i}")).collect(),
        ];
        agree(&rs);
    }
}

/// The larger boards of the README table, both checks (release only: `cargo test --release
/// -- --ignored`, run by .ci/run through tools/ci-solve.sh).
#[test]
#[ignore]
fn readme_table_boards_agree_with_minimax() {
    for (m, n) in [(2, 4), (3, 3), (3, 4), (4, 2), (4, 3), (5, 1), (6, 1)] {
        agree(&kalah(m, n));
        agree(&kalah_empty_capture(m, n));
    }
}

// ---- balance report --------------------------------------------------------------------------

#[test]
fn wilson_interval_of_5_in_10() {
    // p = 0.5, z = 1.959964: centre (0.5 + z²/20) / (1 + z²/10) = 0.5; half-width
    // z·sqrt(0.025 + z²/400) / (1 + z²/10) = 0.26341 (worked on paper).
    let r = sowkit::solve::balance::wilson(5, 10);
    assert!((r.lo - 0.23659).abs() < 1e-4, "{r:?}");
    assert!((r.hi - 0.76341).abs() < 1e-4, "{r:?}");
    let r = sowkit::solve::balance::wilson(0, 10);
    assert_eq!(r.lo, 0.0);
    // 0 of 10: upper end z²/10 / (1 + z²/10) = 0.27753.
    assert!((r.hi - 0.27753).abs() < 1e-4, "{r:?}");
    // 0 of n and n of n: the bound at that end is exactly 0 and 1 (a JSON "lo" of 1.08e-19
    // was printed for a count of 0).
    for n in 1..=4000 {
        assert_eq!(sowkit::solve::balance::wilson(0, n).lo, 0.0, "0 of {n}");
        assert_eq!(sowkit::solve::balance::wilson(n, n).hi, 1.0, "{n} of {n}");
    }
}

#[test]
fn balance_report_runs_for_every_bundled_ruleset() {
    use sowkit::solve::balance::{playouts, Policy};
    let mut files: Vec<_> = std::fs::read_dir("rulesets")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for f in files {
        let rs = sowkit::ruleset::load::load_file(&f).unwrap();
        let rules = Rules::new(&rs);
        let limits = Limits {
            nodes: Some(20_000),
            seconds: None,
            memory_mb: 16,
        };
        let text = sowkit::solve::report::balance_report_games(&rules, limits, 100, false).unwrap();
        assert!(text.contains("Random playouts (100 games"), "{text}");
        assert!(text.contains("Greedy playouts (100 games"), "{text}");
        // Byte-identical on a second run (node budget, seeded playouts).
        let again =
            sowkit::solve::report::balance_report_games(&rules, limits, 100, false).unwrap();
        assert_eq!(text, again);
        for policy in [Policy::Random, Policy::Greedy] {
            let p = playouts(&rules, policy, 100);
            assert_eq!(
                p.win.count + p.draw.count + p.loss.count + p.unfinished,
                100,
                "{f:?}"
            );
            assert!(p.win.lo <= p.win.rate && p.win.rate <= p.win.hi);
        }
    }
}

#[test]
fn six_pit_sowing_start_is_solved_in_the_balance_report() {
    // The bundled 3-pit ruleset is small: its start is proven within the default budget, and
    // the value agrees with the independent minimax.
    let rs = sowkit::ruleset::load::load_file(std::path::Path::new("rulesets/six-pit-sowing.toml"))
        .unwrap();
    let rules = Rules::new(&rs);
    let (v, _) = reference(&rules, &rules.initial());
    let text = sowkit::solve::report::balance_report_games(
        &rules,
        Limits {
            nodes: Some(sowkit::solve::report::BALANCE_NODES),
            ..Limits::default()
        },
        50,
        true,
    )
    .unwrap();
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(j["proven"], true);
    assert_eq!(j["value"], v);
    assert_eq!(j["random"]["games"], 50);
}

/// A repetition end without captures lets lines of play run for thousands of moves, each
/// position carrying the game's history: the solver stops at its depth limit with sound
/// bounds instead of growing memory with the square of the depth (a fuzz input once took
/// 24 GB here through the host key's hints).
#[test]
fn endless_lines_stop_at_the_depth_limit_with_sound_bounds() {
    let mut r = kalah(8, 4);
    r.sowing.own_store = Include::Skip;
    r.sowing.opponent_store = Include::Skip;
    r.extra_turn.last_in_own_store = false;
    r.capture.kind = sowkit::ruleset::CaptureKind::None;
    r.end.either_side_empty = true;
    r.end.repetition = true;
    r.end.no_legal_move = NoLegalMove::Pass;
    r.end.remaining_seeds = Remaining::Owner;
    let rules = Rules::try_new(&r).unwrap();
    let limits = Limits {
        nodes: Some(30_000),
        ..Limits::default()
    };
    let s = solve(&rules, &rules.initial(), limits).unwrap();
    assert!(!s.proven);
    assert_eq!(s.stopped, Some(Stop::Depth));
    // 64 seeds in all: the value lies in [-64, 64].
    assert!(s.bounds.0 >= -64 && s.bounds.1 <= 64, "{:?}", s.bounds);
    // The solver runs on the caller's thread and grows its own stack: the same 400-move
    // lines on a thread with a 128 KiB stack give the same answer (without the growth this
    // overflowed the stack and aborted the test run, checked by hand).
    let small = std::thread::scope(|sc| {
        std::thread::Builder::new()
            .stack_size(128 << 10)
            .spawn_scoped(sc, || solve(&rules, &rules.initial(), limits).unwrap())
            .unwrap()
            .join()
            .expect("the solver thread overflowed its stack")
    });
    assert_eq!(small, s);
}

/// The "find the best move" exercises of the bundled kits without a repetition end: each has
/// exactly one best move, and it and the value printed in the host key are those of the
/// independent minimax (the position taken as newly set up, as the exercise says). The choice
/// is the same on every call. Under a repetition end (Oware, Giuthi: set-up endgames) the
/// minimax memoised on position and history has no pruning and follows every line until a
/// position recurs, which on those boards is too deep for a test thread's stack and too long
/// for a test; one Oware exercise is worked by hand instead
/// (`tests/extras.rs::every_bundled_kit_has_proven_best_move_exercises`).
#[test]
fn best_move_exercises_are_unique_and_agree_with_minimax() {
    use sowkit::layout::practice::{exercises, Kind};
    let mut found = 0;
    for rs in common::bundled_en() {
        if rs.end.repetition {
            continue;
        }
        let rules = Rules::try_new(&rs).unwrap();
        let list = exercises(&rs).unwrap();
        assert_eq!(list, exercises(&rs).unwrap(), "{}", rs.id);
        for e in list.iter().filter(|e| e.kind == Some(Kind::BestMove)) {
            let (v, best) = reference(&rules, &e.start);
            assert_eq!(best.len(), 1, "{} exercise {}", rs.id, e.number);
            assert_eq!(
                names(&rules, &best),
                e.moves,
                "{} exercise {}",
                rs.id,
                e.number
            );
            assert_eq!(Some(v), e.value, "{} exercise {}", rs.id, e.number);
            found += 1;
        }
    }
    // Kalah 6×3, Kalah 6×4 and six-pit sowing each get them.
    assert!(found >= 6, "{found}");
}

// ---- repetition ends: the history-safe table against plain searches --------------------------

/// `rs` on `n` pits a side with `seeds` seeds a pit.
fn small(mut rs: Ruleset, n: usize, seeds: u16) -> Ruleset {
    rs.board.pits_per_side = n;
    rs.board.seeds_per_pit = seeds;
    rs.board.pit_labels = [
        (1..=n).map(|i| format!("A{i}")).collect(),
        (1..=n).map(|i| format!("B{i}")).collect(),
    ];
    rs
}

/// A plain search that is *wrong* under a repetition end: memoised on the position alone, so a
/// value found under one history is reused under another (the unsound reuse a history-safe
/// table must avoid). Used only to show that the positions below are ones where the history
/// changes the value.
fn history_blind(g: &Game, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(e) = g.ending() {
        return e.scores[0] as i32 - e.scores[1] as i32;
    }
    if let Some(&v) = memo.get(g.position()) {
        return v;
    }
    let maxing = g.to_move() == 0;
    let mut best: Option<i32> = None;
    for mv in g.legal_moves() {
        let mut c = g.clone();
        match c.play(mv) {
            Ok(_) => {}
            Err(EngineError::NonTerminating(_)) => continue,
            Err(e) => panic!("{e}"),
        }
        let v = history_blind(&c, memo);
        best = Some(match best {
            None => v,
            Some(b) if maxing => b.max(v),
            Some(b) => b.min(v),
        });
    }
    let v = best.expect("a position not over has a playable move");
    memo.insert(g.position().clone(), v);
    v
}

/// Exact value by plain minimax with the history, memoised on the position together with the
/// part of the history that play from it can reach again: the positions since the last
/// capture that are reachable from it by moves that capture nothing and sow no store (any
/// other position of the history can never recur, so it cannot change the value). The
/// reachable sets come from a breadth-first search with the engine; nothing of the solver's.
struct Exact<'r> {
    rules: &'r Rules,
    reach: HashMap<Position, std::collections::HashSet<Position>>,
    memo: HashMap<(Position, Vec<Position>), i32>,
}

impl<'r> Exact<'r> {
    fn new(rules: &'r Rules) -> Self {
        Exact {
            rules,
            reach: HashMap::new(),
            memo: HashMap::new(),
        }
    }

    /// Positions reachable from `p` without a capture or a store changing (`p` included).
    fn reach(&mut self, p: &Position) -> &std::collections::HashSet<Position> {
        if !self.reach.contains_key(p) {
            let n = 2 * self.rules.pits_per_side();
            let mut seen = std::collections::HashSet::from([p.clone()]);
            let mut todo = vec![p.clone()];
            while let Some(q) = todo.pop() {
                let g = Game::new(self.rules, q.clone());
                for mv in g.legal_moves() {
                    let mut c = Game::new(self.rules, q.clone());
                    let Ok(r) = c.play(mv) else { continue };
                    let next = c.position().clone();
                    if r.captured == 0
                        && next.holes[n..] == q.holes[n..]
                        && seen.insert(next.clone())
                        && !c.is_over()
                    {
                        todo.push(next);
                    }
                }
            }
            self.reach.insert(p.clone(), seen);
        }
        &self.reach[p]
    }

    /// Side 0 minus side 1 at `g`, the positions `seen` having come before it since the last
    /// capture.
    fn value(&mut self, g: &Game, seen: &[Position]) -> i32 {
        if let Some(e) = g.ending() {
            return e.scores[0] as i32 - e.scores[1] as i32;
        }
        let p = g.position().clone();
        let reach = self.reach(&p);
        let mut h: Vec<Position> = seen.iter().filter(|q| reach.contains(q)).cloned().collect();
        h.sort_by(|a, b| (&a.holes, a.to_move).cmp(&(&b.holes, b.to_move)));
        let key = (p.clone(), h);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let maxing = g.to_move() == 0;
        let mut best: Option<i32> = None;
        for mv in g.legal_moves() {
            let mut c = g.clone();
            let r = match c.play(mv) {
                Ok(r) => r,
                Err(EngineError::NonTerminating(_)) => continue,
                Err(e) => panic!("{e}"),
            };
            let mut next_seen = if r.captured > 0 {
                Vec::new()
            } else {
                seen.to_vec()
            };
            next_seen.push(p.clone());
            let v = self.value(&c, &next_seen);
            best = Some(match best {
                None => v,
                Some(b) if maxing => b.max(v),
                Some(b) => b.min(v),
            });
        }
        let v = best.expect("a position not over has a playable move");
        self.memo.insert(key, v);
        v
    }

    /// Value and best moves of `pos` taken as newly set up.
    fn best(&mut self, pos: &Position) -> (i32, Vec<Move>) {
        let g = Game::new(self.rules, pos.clone());
        let v = self.value(&g, &[]);
        let mut best = Vec::new();
        for mv in g.legal_moves() {
            let mut c = g.clone();
            let Ok(r) = c.play(mv) else { continue };
            let seen = if r.captured > 0 {
                Vec::new()
            } else {
                vec![pos.clone()]
            };
            if self.value(&c, &seen) == v {
                best.push(mv);
            }
        }
        (v, best)
    }
}

/// Oware-like and Giuthi-like rules on small boards, at every position of seeded random games
/// (each taken as newly set up): the solver (its table and its history-checked mid-segment
/// table, and again with no table) gives the value and best moves of the exact minimax
/// memoised on position and history. At least one of these positions is one where the history
/// decides the value (the history-blind search gets it wrong), so an unsound reuse of a
/// mid-segment result would show here.
#[test]
fn repetition_table_agrees_with_exact_history_search_on_small_boards() {
    let boards: Vec<Ruleset> = vec![
        small(oware_with_threshold(3), 2, 1),
        small(oware_with_threshold(4), 1, 3),
        small(giuthi(), 2, 1),
        small(oware_with_threshold(4), 2, 1),
        small(ring_game(true), 1, 2),
        small(ring_game(true), 1, 3),
        small(ring_game(true), 2, 1),
    ];
    let mut history_decides = 0;
    let mut checked = 0;
    for (b, rs) in boards.iter().enumerate() {
        let rules = Rules::try_new(rs).unwrap();
        let mut exact_search = Exact::new(&rules);
        let mut rng = sowkit::rng::XorShift::new(11 + b as u64);
        for _game in 0..3 {
            let mut g = Game::new(&rules, rules.initial());
            for _ply in 0..30 {
                if g.is_over() {
                    break;
                }
                let p = g.position().clone();
                let exact = exact_search.best(&p);
                let with = solve(&rules, &p, Limits::default()).unwrap();
                assert!(with.proven, "{p:?}");
                assert_eq!(
                    (with.value().unwrap(), &with.best_moves),
                    (exact.0, &exact.1),
                    "board {b} at {p:?}"
                );
                let without = solve(
                    &rules,
                    &p,
                    Limits {
                        memory_mb: 0,
                        ..Limits::default()
                    },
                )
                .unwrap();
                assert_eq!(without.value(), Some(exact.0), "board {b} at {p:?}");
                let blind = history_blind(&Game::new(&rules, p.clone()), &mut HashMap::new());
                if blind != exact.0 {
                    history_decides += 1;
                }
                checked += 1;
                let moves = g.legal_moves();
                let playable: Vec<_> = moves
                    .iter()
                    .filter(|&&m| g.clone().play(m).is_ok())
                    .copied()
                    .collect();
                if playable.is_empty() {
                    break;
                }
                g.play(playable[rng.below(playable.len())]).unwrap();
            }
        }
    }
    assert!(checked >= 30, "{checked}");
    assert!(
        history_decides >= 1,
        "no position where the history decides"
    );
    eprintln!("{checked} positions, {history_decides} decided by the history");
}

/// `solve --balance` stays bounded on any ruleset (issue 8): its playouts stop once relay
/// sowing has sown `PLAYOUT_SOWN` seeds. Giuthi, the bundled ruleset with relay sowing, plays
/// its 2,000 games of each policy well within that; a 16-pit board of 50 seeds with reverse
/// relay sowing, no store and no capture (each move goes round for thousands of seeds; it ran
/// over a minute before the bound) stops early and says so, having sown at most the budget and
/// the one move that crossed it.
#[test]
fn balance_playouts_fit_the_relay_sowing_budget() {
    use sowkit::engine::SowBudget;
    use sowkit::solve::balance::{playouts, playouts_within, Policy, PLAYOUT_SOWN};
    let rs =
        sowkit::ruleset::load::load_file(std::path::Path::new("rulesets/giuthi.toml")).unwrap();
    let rules = Rules::new(&rs);
    for policy in [Policy::Random, Policy::Greedy] {
        let meter = SowBudget::new(u64::MAX);
        let p = playouts(&rules, policy, sowkit::solve::report::BALANCE_GAMES);
        let sown = meter.spent();
        eprintln!("giuthi {policy:?}: {sown} seeds sown by relay sowing");
        assert!(!p.budget_spent && p.games == sowkit::solve::report::BALANCE_GAMES);
        assert!(sown > 0 && sown * 4 < PLAYOUT_SOWN, "{sown}");
    }

    let src = "id = \"relay\"\nname = \"Relay\"\nsource = \"generated\"\n[board]\n\
        pits_per_side = 16\nseeds_per_pit = 50\nplayers = [\"A\", \"B\"]\n[sowing]\n\
        direction = \"counterclockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\n\
        origin_on_lap = \"sow\"\nmin_seeds = 1\nrelay = \"reverse\"\n[extra_turn]\non = []\n\
        [capture]\nkind = \"none\"\n[end]\nwhen = [\"either-side-empty\"]\n\
        remaining_seeds = \"owner\"\nno_legal_move = \"pass\"\n";
    let rs = sowkit::ruleset::load_str("relay.toml", src).unwrap();
    let rules = Rules::new(&rs);
    let cap = u64::from(sowkit::engine::relay_cap(16 * 2 * 50));
    for sown_budget in [1_000_000, PLAYOUT_SOWN] {
        let meter = SowBudget::new(u64::MAX);
        let p = playouts_within(&rules, Policy::Random, 2000, sown_budget);
        let sown = meter.spent();
        assert!(p.budget_spent && p.games < 2000, "{p:?}");
        assert!(p.unfinished >= 1);
        assert!(
            sown >= sown_budget && sown <= sown_budget + cap,
            "{sown} of {sown_budget}"
        );
    }
    let text = sowkit::solve::report::balance_report(&rules, Limits::default(), false).unwrap();
    assert!(text.contains("relay sowing used up its budget"), "{text}");
}

/// Greedy playouts as `solve --balance` played them before its tries went on a copy with a
/// short history: every legal move tried on a whole copy of the game (the move gaining most at
/// once, an extra turn breaking ties, then the seeded generator), for comparing with
/// [`sowkit::solve::balance::playouts`]. Returns (wins, draws, losses, unfinished) of side 0.
fn greedy_by_whole_copies(rules: &Rules, games: u32) -> (u32, u32, u32, u32) {
    use sowkit::engine::MoveList;
    use sowkit::solve::balance::MOVE_CAP;
    let mut rng = sowkit::rng::XorShift::seeded(&format!("{}/Greedy", rules.ruleset().id));
    let start = rules.initial();
    let mut g = Game::new(rules, start.clone());
    let mut list = MoveList::new();
    let (mut w, mut d, mut l, mut unf) = (0, 0, 0, 0);
    for _ in 0..games {
        g.reset(&start).unwrap();
        let mut moves = 0;
        while !g.is_over() && moves < MOVE_CAP {
            g.legal_moves_into(&mut list);
            let all = list.as_slice();
            if all.is_empty() {
                break;
            }
            let me = g.to_move();
            let margin = |p: &Position| {
                i32::from(p.holes[rules.store(me) as usize])
                    - i32::from(p.holes[rules.store(1 - me) as usize])
            };
            let mut best: Vec<Move> = Vec::new();
            let mut best_score = (i32::MIN, false);
            for &mv in all {
                let mut c = g.clone();
                let Ok(o) = c.play_fast(mv) else { continue };
                let sc = (margin(c.position()), o.extra_turn);
                if sc > best_score {
                    best_score = sc;
                    best.clear();
                }
                if sc == best_score {
                    best.push(mv);
                }
            }
            let mv = if best.is_empty() {
                all[rng.below(all.len())]
            } else {
                best[rng.below(best.len())]
            };
            if g.play_fast(mv).is_err() {
                break;
            }
            moves += 1;
        }
        match g.ending() {
            Some(e) => match e.scores[0].cmp(&e.scores[1]) {
                std::cmp::Ordering::Greater => w += 1,
                std::cmp::Ordering::Equal => d += 1,
                std::cmp::Ordering::Less => l += 1,
            },
            None => unf += 1,
        }
    }
    (w, d, l, unf)
}

/// Greedy playouts try each move on a copy whose history is the position alone, and try it
/// again on a whole copy only where the history could decide (the try ends the game, or
/// reaches a position seen since the last capture): the same games as trying every move on a
/// whole copy, under rules where repetitions end games (Oware abapa, Giuthi, and a small board
/// with no capture and no store sown, whose games go round until a position recurs).
#[test]
fn greedy_playouts_on_short_copies_play_the_same_games() {
    use sowkit::solve::balance::{playouts, Policy};
    let small = "id = \"round\"\nname = \"Round\"\nsource = \"generated\"\n[board]\n\
        pits_per_side = 3\nseeds_per_pit = 2\nplayers = [\"A\", \"B\"]\n[sowing]\n\
        direction = \"counterclockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\n\
        [extra_turn]\non = []\n[capture]\nkind = \"none\"\n[end]\n\
        when = [\"repetition\", \"either-side-empty\"]\nremaining_seeds = \"owner\"\n\
        no_legal_move = \"pass\"\n";
    let mut rulesets = vec![
        common::load_path(&common::bundled_path("oware-abapa")),
        common::load_path(&common::bundled_path("giuthi")),
    ];
    rulesets.push(sowkit::ruleset::load_str("round.toml", small).unwrap());
    for rs in &rulesets {
        let rules = Rules::new(rs);
        let p = playouts(&rules, Policy::Greedy, 300);
        let want = greedy_by_whole_copies(&rules, 300);
        assert_eq!(
            (p.win.count, p.draw.count, p.loss.count, p.unfinished),
            want,
            "{}",
            rs.id
        );
        assert!(!p.moves_spent && !p.budget_spent, "{}", rs.id);
        if rs.id == "round" {
            // Its games end by repetition, so the history decides there.
            assert!(want.3 < 300, "{want:?}");
        }
    }
}

/// `solve --balance` stays bounded where games never end (a break-it pass: 12 to 16 pits a
/// side, nothing ever captured or stored, every game to the 10,000-move cap; 46 s to over 5
/// minutes before): the playouts stop at their move budget, greedy play's tries counted, and
/// the report says so. The bundled rulesets play their 2,000 games of each policy within a
/// quarter of that budget.
#[test]
fn balance_playouts_stay_within_the_move_budget() {
    use sowkit::solve::balance::{playouts_bounded, Policy, PLAYOUT_MOVES, PLAYOUT_SOWN};
    for rs in common::bundled() {
        let rules = Rules::new(&rs);
        for policy in [Policy::Random, Policy::Greedy] {
            let p = playouts_bounded(&rules, policy, 2000, PLAYOUT_SOWN, PLAYOUT_MOVES / 4);
            assert!(
                !p.moves_spent && p.games == 2000,
                "{} {policy:?}: {p:?}",
                rs.id
            );
        }
    }
    let src = "id = \"still\"\nname = \"Still\"\nsource = \"generated\"\n[board]\n\
        pits_per_side = 12\nseeds_per_pit = 8\nplayers = [\"A\", \"B\"]\n[sowing]\n\
        direction = \"clockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\n\
        origin_on_lap = \"skip\"\nmin_seeds = 2\n[extra_turn]\non = []\n\
        [capture]\nkind = \"none\"\n[end]\nwhen = [\"either-side-empty\"]\n\
        remaining_seeds = \"owner\"\nno_legal_move = \"pass\"\n";
    let rs = sowkit::ruleset::load_str("still.toml", src).unwrap();
    let rules = Rules::new(&rs);
    // 50 games of 10,000 moves: each move costs at least 1 of the budget of 100,000, so the
    // budget stops the random games in the 10th at the latest; greedy play's tries (up to 24
    // a move) stop it sooner.
    let random = playouts_bounded(&rules, Policy::Random, 50, PLAYOUT_SOWN, 100_000);
    assert!(random.moves_spent && random.games <= 10, "{random:?}");
    let greedy = playouts_bounded(&rules, Policy::Greedy, 50, PLAYOUT_SOWN, 100_000);
    assert!(greedy.moves_spent && greedy.games <= 2, "{greedy:?}");
    // All games run to the cap with budget to spare: not stopped by the budget.
    let whole = playouts_bounded(&rules, Policy::Random, 2, PLAYOUT_SOWN, 100_000);
    assert!(!whole.moves_spent && whole.unfinished == 2, "{whole:?}");
}

/// `sowkit solve` of the bundled Giuthi from `from` with `extra` arguments: its standard output,
/// after checking that it succeeded.
fn solve_giuthi(from: &str, extra: &[&str]) -> String {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .args([
            "solve",
            &common::bundled_path("giuthi").display().to_string(),
            "--from",
            from,
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `solve --from` takes a next round's position with closed pits (x), as `replay --from`
/// does: it said "on this board the closed pits are none". Giuthi, A6 and B1 closed; A to
/// move: A1 with its 2 seeds either way is all A may play, so the best move is one of those.
#[test]
fn solve_from_a_shortened_board() {
    let out = solve_giuthi("A 2 0 0 0 0 x (20) / B x 0 0 0 0 2 (24); A", &[]);
    assert!(
        out.contains("Position: A 2 0 0 0 0 x (20) / B x 0 0 0 0 2 (24); A"),
        "{out}"
    );
    assert!(out.contains("proven"), "{out}");
    assert!(
        out.contains("Best move for A: A1>") || out.contains("Best move for A: A1<"),
        "{out}"
    );
    // The value is the independent minimax's on the shortened board.
    let full = Rules::new(&common::load_path(&common::bundled_path("giuthi")));
    let from = "A 2 0 0 0 0 x (20) / B x 0 0 0 0 2 (24); A";
    let short = sowkit::replay::board_for(&full, Some(from))
        .unwrap()
        .unwrap();
    let (v, _) = reference(&short, &pos(&short, from));
    assert!(out.contains(&format!("Value: {v} ")), "{v}: {out}");
}

/// When the player to move has no legal move and passes, the best moves are the other
/// player's, and the report says so (it named B for A's moves). Giuthi, worked by hand: B's
/// only seeds are one in B4, under the two a pit needs, so B passes; A's A1 holds one seed, so
/// A3 (two seeds, either way) is A's only pit.
#[test]
fn solve_names_the_player_who_moves_after_a_pass() {
    let out = solve_giuthi("A 1 0 2 0 0 0 (20) / B 0 0 0 1 0 0 (24); B", &[]);
    assert!(
        out.contains("B cannot move and passes.\nBest move"),
        "{out}"
    );
    assert!(
        out.contains("Best moves for A: A3>, A3<") || out.contains("Best move for A: A3"),
        "{out}"
    );
    let out = solve_giuthi(
        "A 1 0 2 0 0 0 (20) / B 0 0 0 1 0 0 (24); B",
        &["--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (&v["mover"], &v["passed"]),
        (&serde_json::json!("A"), &serde_json::json!("B"))
    );
}
