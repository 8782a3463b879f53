//! Engine speed: random playouts (plies per second, one core) for Kalah(6,4) and Oware abapa
//! through the allocation-free path (`legal_moves_into` + `play_fast`), the full `play` for
//! comparison, and perft depth 6 (checked against the OpenSpiel-verified counts).
//!
//! Run: `cargo bench --bench engine`. Targets (issue 10): Kalah(6,4) random playouts at least as
//! fast as the plain C loop `../shared/bench/kalah_ceiling.c` (same xorshift, same rules) run in
//! the same minutes — printed as a ratio when `../shared` and `gcc` exist, skipped otherwise;
//! Oware >= 15 M plies/s on a quiet core; the full-report `play` at least half the fast path.

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

/// Compiles `../shared/bench/kalah_ceiling.c` with `gcc -O2` in a temporary folder and runs it;
/// returns its M plies/s, or `None` (saying why) when the file or gcc is missing.
fn c_ceiling() -> Option<f64> {
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/kalah_ceiling.c");
    if !src.exists() {
        println!("C ceiling: {} not found; ratio skipped", src.display());
        return None;
    }
    let dir = std::env::temp_dir().join(format!("sowkit-ceiling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let exe = dir.join("kalah_ceiling");
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        println!("C ceiling: gcc missing or failed; ratio skipped");
        let _ = std::fs::remove_dir_all(&dir);
        return None;
    }
    let out = std::process::Command::new(&exe).output().ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    // "... in 3.21 s: 62.3 M plies/s (checksum ...)"
    let rate = text
        .split(": ")
        .nth(1)?
        .split(" M plies/s")
        .next()?
        .trim()
        .parse()
        .ok();
    println!("C ceiling (gcc -O2): {}", text.trim());
    rate
}

fn main() {
    let budget = Duration::from_secs(2);
    for (name, rs, target, depth6) in [
        ("Kalah(6,4)", common::kalah(6, 4), 10.0, 23233u64),
        ("Oware abapa", common::oware(), 15.0, 27332),
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
        if name.starts_with("Kalah") {
            // The C loop right after, so both run in the same minutes on a shared machine.
            if let Some(c) = c_ceiling() {
                let ratio = rate / c;
                println!(
                    "{name}: play_fast / C loop = {ratio:.2} (target >= 1.00) {}",
                    if ratio >= 1.0 { "OK" } else { "BELOW TARGET" }
                );
            }
        }
        let (plies, el) = playouts_full(&rules, Duration::from_millis(700));
        let full = plies as f64 / el.as_secs_f64() / 1e6;
        println!(
            "{name}: play (full reports): {full:.2} M plies/s = {:.2} x play_fast (target >= 0.50) {}",
            full / rate,
            if full / rate >= 0.5 { "OK" } else { "BELOW TARGET" }
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
