//! Engine speed: random playouts (plies per second, one core) for Kalah(6,4) and Oware abapa
//! through the allocation-free path (`legal_moves_into` + `play_fast`), the full `play` for
//! comparison, and perft depth 6 (checked against the OpenSpiel-verified counts).
//!
//! Run: `cargo bench --bench engine`. Targets: Kalah >= 10 M plies/s, Oware >= 5 M plies/s.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use sowkit::engine::{perft, Game, MoveList, Rules};

/// Random playouts for at least `budget`; returns (plies, games, elapsed).
fn playouts_fast(rules: &Rules, budget: Duration) -> (u64, u64, Duration) {
    let start_pos = rules.initial();
    let mut g = Game::new(rules, start_pos.clone());
    let mut moves = MoveList::new();
    let mut rng = common::Rng::new(12345);
    let (mut plies, mut games) = (0u64, 0u64);
    let t = Instant::now();
    loop {
        for _ in 0..256 {
            g.reset(&start_pos).unwrap();
            loop {
                g.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                black_box(g.play_fast(m).unwrap());
                plies += 1;
            }
            games += 1;
        }
        if t.elapsed() >= budget {
            return (plies, games, t.elapsed());
        }
    }
}

fn playouts_full(rules: &Rules, budget: Duration) -> (u64, Duration) {
    let mut rng = common::Rng::new(777);
    let mut plies = 0u64;
    let t = Instant::now();
    while t.elapsed() < budget {
        let mut g = Game::new(rules, rules.initial());
        loop {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            black_box(g.play(moves[rng.below(moves.len())]).unwrap());
            plies += 1;
        }
    }
    (plies, t.elapsed())
}

fn main() {
    let budget = Duration::from_secs(2);
    for (name, rs, target, depth6) in [
        ("Kalah(6,4)", common::kalah(6, 4), 10.0, 23233u64),
        ("Oware abapa", common::oware(), 5.0, 27332),
    ] {
        let rules = Rules::new(&rs);
        // Warm up.
        playouts_fast(&rules, Duration::from_millis(200));
        let (plies, games, el) = playouts_fast(&rules, budget);
        let rate = plies as f64 / el.as_secs_f64() / 1e6;
        println!(
            "{name}: play_fast random playouts: {plies} plies in {games} games, {:.2} s: {rate:.2} M plies/s (target {target} M) {}",
            el.as_secs_f64(),
            if rate >= target { "OK" } else { "BELOW TARGET" }
        );
        let (plies, el) = playouts_full(&rules, Duration::from_millis(700));
        println!(
            "{name}: play (full reports): {:.2} M plies/s",
            plies as f64 / el.as_secs_f64() / 1e6
        );
        let g = Game::new(&rules, rules.initial());
        let t = Instant::now();
        let n = perft(&g, 6);
        println!(
            "{name}: perft(6) = {n} ({}) in {:.1} ms",
            if n == depth6 {
                "matches OpenSpiel"
            } else {
                "MISMATCH"
            },
            t.elapsed().as_secs_f64() * 1e3
        );
        assert_eq!(n, depth6);
    }
}
