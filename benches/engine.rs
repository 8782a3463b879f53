//! Engine speed: random playouts (plies per second, one core) for Kalah(6,4) and Oware abapa
//! through the allocation-free path (`legal_moves_into` + `play_fast`), the full `play` for
//! comparison, and perft depth 6 (checked against the OpenSpiel-verified counts).
//!
//! Run: `cargo bench --bench engine`. Targets (issue 10): Kalah(6,4) random playouts at least as
//! fast as the plain C loop `../shared/bench/kalah_ceiling.c` (same xorshift, same rules) run in
//! the same minutes; Oware >= 15 M plies/s on a quiet core; the full-report `play` at least half
//! the fast path.
//!
//! The C comparison runs when the C file and `gcc` exist (skipped otherwise, saying why). The
//! file is looked for at `$SOWKIT_SHARED/bench/kalah_ceiling.c`, else `../shared/bench/` beside
//! the crate. It is measured two ways:
//! * wall clock: the C loop (its own 200 M plies) and ours (the same number of plies, the same
//!   xorshift stream, so the very same games) alternate `SOWKIT_BENCH_ROUNDS` times (default 3);
//!   each ratio is printed with the median;
//! * instructions per ply, when `valgrind` exists: callgrind counts both programs at 1 M and
//!   2 M plies and the difference is divided by 1 M, so start-up costs cancel. The C loop's
//!   ply count is changed in a copy in a temporary folder (the project holds no copy).
//!
//! Both loops print a checksum (side 0's final score summed over the games); equal checksums
//! mean the engine played exactly the C loop's games.
//!
//! `cargo bench --bench engine -- --plies N` plays only the Kalah loop for N plies and prints
//! its plies, games and checksum (used for the callgrind counts; `--plies N oware` Oware abapa);
//! `-- --full-plies N [oware]` plays whole games of at least N plies in all through
//! `legal_moves_into` + `play_into` into one report (for profiling the full reports).
//!
//! The full-report figure plays every move through `Game::play_into` into one report kept
//! across the moves (it reuses the report's buffers, so no allocation once warm); `Game::play`,
//! a new report each move, is printed beside it without a target.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use sowkit::engine::{perft, Game, MoveList, Report, Rules};

/// The C loop's generator: xorshift64 (13, 7, 17) from the C file's seed, `next() % n` for a
/// move, so that both loops play the same games.
struct Xs(u64);

impl Xs {
    fn c_seed() -> Xs {
        Xs(88_172_645_463_325_252)
    }
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x % n as u64) as usize
    }
}

/// The C loop's shape: whole games until at least `min_plies` plies. Returns (plies, games,
/// checksum = side 0's final score summed over the games, elapsed).
fn playouts_count(rules: &Rules, min_plies: u64) -> (u64, u64, u64, Duration) {
    let start_pos = rules.initial();
    let mut g = Game::new(rules, start_pos.clone());
    let mut moves = MoveList::new();
    let mut rng = Xs::c_seed();
    let (mut plies, mut games, mut checksum) = (0u64, 0u64, 0u64);
    let t = Instant::now();
    while plies < min_plies {
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
        checksum += g.ending().map_or(0, |e| e.scores[0] as u64);
        games += 1;
    }
    (plies, games, checksum, t.elapsed())
}

/// Random playouts for at least `budget`; returns (plies, elapsed).
fn playouts_fast(rules: &Rules, budget: Duration) -> (u64, Duration) {
    let mut plies = 0u64;
    let t = Instant::now();
    while t.elapsed() < budget {
        plies += playouts_count(rules, 200_000).0;
    }
    (plies, t.elapsed())
}

/// Random playouts with full reports for at least `budget`: every move through
/// [`Game::play_into`] into one report kept across the moves (`reuse`), or through
/// [`Game::play`], a new report each move. Returns (plies, elapsed).
fn playouts_full(rules: &Rules, budget: Duration, reuse: bool) -> (u64, Duration) {
    let mut rng = Xs::c_seed();
    let start = rules.initial();
    let mut g = Game::new(rules, start.clone());
    let mut moves = MoveList::new();
    let mut report = Report::default();
    let mut plies = 0u64;
    let t = Instant::now();
    while t.elapsed() < budget {
        g.reset(&start).unwrap();
        loop {
            g.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            if reuse {
                g.play_into(m, &mut report).unwrap();
                black_box(&report);
            } else {
                black_box(g.play(m).unwrap());
            }
            plies += 1;
        }
    }
    (plies, t.elapsed())
}

/// The C file, or `None` (saying why).
fn c_source() -> Option<PathBuf> {
    let shared = std::env::var_os("SOWKIT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let src = shared.join("bench/kalah_ceiling.c");
    if src.exists() {
        Some(src)
    } else {
        println!(
            "C loop: {} not found (set SOWKIT_SHARED); C comparison skipped",
            src.display()
        );
        None
    }
}

/// Compiles the C loop with `gcc -O2`, its ply count replaced by `plies` when given (in a copy
/// in `dir`). `None` when gcc fails.
fn c_build(src: &Path, dir: &Path, plies: Option<u64>) -> Option<PathBuf> {
    let (file, exe) = match plies {
        None => (src.to_path_buf(), dir.join("kalah_ceiling")),
        Some(p) => {
            let text = std::fs::read_to_string(src).ok()?;
            if !text.contains("200000000") {
                return None;
            }
            let copy = dir.join(format!("kalah_{p}.c"));
            std::fs::write(&copy, text.replace("200000000", &p.to_string())).ok()?;
            (copy, dir.join(format!("kalah_{p}")))
        }
    };
    let ok = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&file)
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(exe)
}

/// Runs a C loop; returns (plies, M plies/s, checksum) from its line
/// "P plies, G games in T s: R M plies/s (checksum C)".
fn c_run(exe: &Path) -> Option<(u64, f64, u64)> {
    let out = Command::new(exe).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let plies = text.split(' ').next()?.parse().ok()?;
    let rate = text
        .split(": ")
        .nth(1)?
        .split(" M plies/s")
        .next()?
        .trim()
        .parse()
        .ok()?;
    let sum = text
        .split("checksum ")
        .nth(1)?
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()?;
    Some((plies, rate, sum))
}

/// Instructions counted by callgrind for `cmd args`, or `None`.
fn callgrind(cmd: &Path, args: &[&str], dir: &Path) -> Option<u64> {
    let out = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!(
            "--callgrind-out-file={}",
            dir.join("cg.out").display()
        ))
        .arg(cmd)
        .args(args)
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err.lines().find(|l| l.contains("Collected :"))?;
    line.split("Collected :").nth(1)?.trim().parse().ok()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Both ways of comparing with the C loop (see the module docs).
fn compare_with_c(rules: &Rules) {
    let Some(src) = c_source() else { return };
    let dir = std::env::temp_dir().join(format!("sowkit-ceiling-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        println!("C loop: cannot create {}; skipped", dir.display());
        return;
    }
    let Some(exe) = c_build(&src, &dir, None) else {
        println!("C loop: gcc missing or failed; comparison skipped");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    let rounds: usize = std::env::var("SOWKIT_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        let Some((c_plies, c_rate, c_sum)) = c_run(&exe) else {
            println!("C loop: no result; comparison skipped");
            break;
        };
        let (plies, games, sum, el) = playouts_count(rules, 200_000_000);
        let rate = plies as f64 / el.as_secs_f64() / 1e6;
        println!(
            "Kalah(6,4) vs C, round {round}: C {c_rate:.1} M plies/s, sowkit {rate:.1} M plies/s \
             ({plies} plies, {games} games): ratio {:.2}; checksums {c_sum} / {sum} {}",
            rate / c_rate,
            if c_plies == plies && c_sum == sum {
                "(same games)"
            } else {
                "DIFFER"
            }
        );
        ratios.push(rate / c_rate);
    }
    if !ratios.is_empty() {
        let m = median(&mut ratios);
        println!(
            "Kalah(6,4): play_fast / C loop, wall clock, median of {}: {m:.2} (target >= 1.00) {}",
            ratios.len(),
            if m >= 1.0 { "OK" } else { "BELOW TARGET" }
        );
    }
    // Instructions per ply: callgrind at 1 M and 2 M plies, the difference over 1 M.
    let have_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_valgrind {
        println!("instructions per ply: valgrind not found; skipped");
    } else {
        let me = std::env::current_exe().expect("bench path");
        let (a, b) = (1_000_000u64, 2_000_000u64);
        let c = |p| c_build(&src, &dir, Some(p)).and_then(|e| callgrind(&e, &[], &dir));
        let ours = |p: u64| callgrind(&me, &["--plies", &p.to_string()], &dir);
        match (c(a), c(b), ours(a), ours(b)) {
            (Some(ca), Some(cb), Some(oa), Some(ob)) => {
                let cp = (cb as f64 - ca as f64) / (b - a) as f64;
                let op = (ob as f64 - oa as f64) / (b - a) as f64;
                println!(
                    "Kalah(6,4): instructions per ply (callgrind, 2 M - 1 M plies): C {cp:.1}, \
                     sowkit {op:.1}; C / sowkit = {:.2} (target >= 1.00) {}",
                    cp / op,
                    if cp >= op { "OK" } else { "BELOW TARGET" }
                );
            }
            _ => println!("instructions per ply: callgrind gave no count; skipped"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--full-plies") {
        let n: u64 = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .expect("--full-plies N");
        // `--full-plies N oware`: Oware abapa instead.
        let rs = if args.get(i + 2).is_some_and(|a| a == "oware") {
            common::oware()
        } else {
            common::kalah(6, 4)
        };
        let rules = Rules::new(&rs);
        let mut rng = Xs::c_seed();
        let mut plies = 0u64;
        let mut report = Report::default();
        let mut moves = MoveList::new();
        let start = rules.initial();
        let mut g = Game::new(&rules, start.clone());
        while plies < n {
            g.reset(&start).unwrap();
            loop {
                g.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                g.play_into(m, &mut report).unwrap();
                black_box(&report);
                plies += 1;
            }
        }
        println!("{plies} plies with full reports (play_into)");
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--plies") {
        let n: u64 = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .expect("--plies N");
        // `--plies N oware`: Oware abapa instead (its checksum is not the C loop's).
        let rs = if args.get(i + 2).is_some_and(|a| a == "oware") {
            common::oware()
        } else {
            common::kalah(6, 4)
        };
        let rules = Rules::new(&rs);
        let (plies, games, sum, el) = playouts_count(&rules, n);
        println!(
            "{plies} plies, {games} games in {:.2} s (checksum {sum})",
            el.as_secs_f64()
        );
        return;
    }
    let budget = Duration::from_secs(2);
    for (name, rs, target, depth6) in [
        ("Kalah(6,4)", common::kalah(6, 4), 10.0, 23233u64),
        ("Oware abapa", common::oware(), 15.0, 27332),
    ] {
        let rules = Rules::new(&rs);
        // Warm up.
        playouts_fast(&rules, Duration::from_millis(200));
        let (plies, el) = playouts_fast(&rules, budget);
        let rate = plies as f64 / el.as_secs_f64() / 1e6;
        println!(
            "{name}: play_fast random playouts: {plies} plies, {:.2} s: {rate:.2} M plies/s (target {target} M) {}",
            el.as_secs_f64(),
            if rate >= target { "OK" } else { "BELOW TARGET" }
        );
        let (plies, el) = playouts_full(&rules, Duration::from_millis(700), true);
        let full = plies as f64 / el.as_secs_f64() / 1e6;
        println!(
            "{name}: play (full reports, play_into one report): {full:.2} M plies/s = {:.2} x play_fast (target >= 0.50) {}",
            full / rate,
            if full / rate >= 0.5 { "OK" } else { "BELOW TARGET" }
        );
        let (plies, el) = playouts_full(&rules, Duration::from_millis(700), false);
        let fresh = plies as f64 / el.as_secs_f64() / 1e6;
        println!(
            "{name}: play (a new report each move): {fresh:.2} M plies/s = {:.2} x play_fast (no target)",
            fresh / rate
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
        if name.starts_with("Kalah") {
            // The C loop in the same minutes, alternating with ours.
            compare_with_c(&rules);
        }
    }
}
