//! Property tests with a small xorshift RNG (no proptest): random playouts from random legal
//! positions for Kalah 6×4, 6×3, 3×3, Oware abapa and Giuthi built in code, and for every
//! bundled ruleset file.
//!
//! Properties: seeds are conserved every ply; a game that is not over always offers a legal
//! move and every legal move is playable; playing is deterministic (the same seed gives the
//! same reports); every game ends within 2000 plies.

use crate::common::*;
use sowkit::engine::{EngineError, Game, Position, Report, Rules};
use sowkit::ruleset::Ruleset;

const MAX_PLIES: usize = 2000;

/// The rulesets built in code, then every bundled `rulesets/*.toml` as shipped.
fn rulesets() -> Vec<(String, Ruleset)> {
    let mut out: Vec<(String, Ruleset)> = vec![
        ("kalah 6x4".into(), kalah(6, 4)),
        ("kalah 6x3".into(), kalah(6, 3)),
        ("kalah 3x3".into(), kalah(3, 3)),
        ("oware".into(), oware()),
        ("giuthi".into(), giuthi()),
    ];
    for rs in bundled() {
        out.push((format!("bundled {}", rs.id), rs));
    }
    out
}

fn total(p: &Position) -> u32 {
    p.holes.iter().map(|&x| x as u32).sum()
}

/// A random legal start: the initial position after 0..30 random moves, or (every third game)
/// the ruleset's seeds thrown at random into the pits and stores, with a random side to move.
fn random_start<'r>(rules: &'r Rules, rng: &mut Rng) -> Game<'r> {
    if rng.below(3) == 0 {
        let seeds = rules.ruleset().total_seeds();
        let mut holes = vec![0u16; rules.holes()];
        for _ in 0..seeds {
            holes[rng.below(rules.holes())] += 1;
        }
        let to_move = rng.below(2) as u8;
        return Game::try_new(rules, Position { holes, to_move }).unwrap();
    }
    let mut g = Game::new(rules, rules.initial());
    for _ in 0..rng.below(31) {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        if g.play(m).is_err() {
            break;
        }
    }
    g
}

/// Plays one random game; returns the reports and the number of moves that were legal but
/// whose relay sowing never ends (NonTerminating, relay rulesets only).
fn playout(name: &str, rules: &Rules, seed: u64) -> (Vec<Report>, usize) {
    let mut rng = Rng::new(seed);
    let mut g = random_start(rules, &mut rng);
    let seeds = total(g.position());
    let mut reports = Vec::new();
    let mut endless = 0;
    for ply in 0..MAX_PLIES {
        assert_eq!(
            total(g.position()),
            seeds,
            "{name} seed {seed} ply {ply}: seeds"
        );
        if g.ending().is_some() {
            assert!(g.legal_moves().is_empty());
            let e = g.ending().unwrap();
            let n = rules.pits_per_side();
            assert!(
                g.position().holes[..2 * n].iter().all(|&x| x == 0),
                "{name}: swept"
            );
            assert_eq!(
                e.scores[0] as u32 + e.scores[1] as u32,
                seeds,
                "{name}: scores"
            );
            return (reports, endless);
        }
        let moves = g.legal_moves();
        assert!(
            !moves.is_empty(),
            "{name} seed {seed} ply {ply}: a live game has a move"
        );
        let mut playable = Vec::new();
        for &m in &moves {
            let mut c = g.clone();
            match c.play(m) {
                Ok(r) => {
                    assert_eq!(total(c.position()), seeds, "{name}: seeds after {m:?}");
                    assert_eq!(r.next.is_none(), r.ending.is_some());
                    if let Some(nx) = r.next {
                        assert_eq!(c.position().to_move, nx);
                    }
                    playable.push(m);
                }
                Err(EngineError::NonTerminating(_)) => endless += 1,
                Err(e) => panic!("{name} seed {seed} ply {ply}: legal move {m:?} failed: {e}"),
            }
        }
        if playable.is_empty() {
            return (reports, endless);
        }
        let m = playable[rng.below(playable.len())];
        reports.push(g.play(m).unwrap());
    }
    panic!("{name} seed {seed}: no end within {MAX_PLIES} plies");
}

#[test]
fn random_playouts_conserve_seeds_end_and_offer_playable_moves() {
    for (name, rs) in rulesets() {
        let rules = Rules::new(&rs);
        let mut plies = 0;
        let mut endless = 0;
        for seed in 1..=120u64 {
            let (r, e) = playout(&name, &rules, seed);
            plies += r.len();
            endless += e;
        }
        eprintln!("{name}: 120 games, {plies} plies, {endless} endless relay moves seen");
        assert!(plies > 120, "{name}: games were played ({plies} plies)");
        if rs.sowing.relay == sowkit::ruleset::Relay::None {
            assert_eq!(endless, 0, "{name}");
        }
    }
}

#[test]
fn playing_is_deterministic() {
    for (name, rs) in rulesets() {
        let rules = Rules::new(&rs);
        for seed in [7u64, 99, 2024] {
            let a = playout(&name, &rules, seed);
            let b = playout(&name, &rules, seed);
            assert_eq!(a, b, "{name} seed {seed}");
        }
    }
}

#[test]
fn play_fast_agrees_with_play() {
    for (name, rs) in rulesets() {
        let rules = Rules::new(&rs);
        for seed in 1..=30u64 {
            let mut rng = Rng::new(seed);
            let mut a = random_start(&rules, &mut rng);
            let mut b = a.clone();
            while a.ending().is_none() {
                let moves = a.legal_moves();
                let m = moves[rng.below(moves.len())];
                let ra = a.play(m);
                let rb = b.play_fast(m);
                match (ra, rb) {
                    (Ok(r), Ok(o)) => {
                        assert_eq!(
                            (r.last, r.captured, r.grand_slam, r.extra_turn, r.next),
                            (o.last, o.captured, o.grand_slam, o.extra_turn, o.next),
                            "{name}"
                        );
                        assert_eq!(r.passed, o.passed.into_iter().collect::<Vec<_>>());
                    }
                    (Err(x), Err(y)) => {
                        assert_eq!(x, y);
                        break;
                    }
                    (x, y) => panic!("{name}: {x:?} vs {y:?}"),
                }
                assert_eq!(a.position(), b.position(), "{name}");
                assert_eq!(a.ending(), b.ending(), "{name}");
            }
        }
    }
}
