//! Solver speed: exact values of Kalah boards from the start (release build, one core).
//!
//! Run: `cargo bench --bench solve` (add `-- all` for every board of the README table, `-- 6x4`
//! for the Kalah(6,4) stretch run with a 20-minute budget). Targets: Kalah(4,4) and Kalah(6,2)
//! each under 10 s, Kalah(6,3) under 5 minutes.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use sowkit::engine::Rules;
use sowkit::solve::{solve, Limits};

fn run(name: &str, rs: &sowkit::ruleset::Ruleset, limits: Limits, target: Option<f64>) {
    let rules = Rules::new(rs);
    let t = Instant::now();
    let s = solve(&rules, &rules.initial(), limits).expect("solvable");
    let secs = t.elapsed().as_secs_f64();
    let verdict = match target {
        Some(tg) if secs <= tg => format!("ok (target {tg} s)"),
        Some(tg) => format!("SLOWER than the {tg} s target"),
        None => String::new(),
    };
    println!(
        "{name:<26} value {:>9} proven {:<5} nodes {:>12} table {:>5} MiB  {secs:8.2} s  {verdict}",
        if s.proven {
            format!("{:+}", s.bounds.0)
        } else {
            format!("[{:+},{:+}]", s.bounds.0, s.bounds.1)
        },
        s.proven,
        s.nodes,
        s.table_bytes >> 20,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let all = args.iter().any(|a| a == "all");
    let big = args.iter().any(|a| a == "6x4");
    let lim = Limits::default();
    if big {
        for (name, rs) in [
            ("Kalah(6,4)", common::kalah(6, 4)),
            (
                "Kalah(6,4) empty capture",
                common::kalah_empty_capture(6, 4),
            ),
        ] {
            run(
                name,
                &rs,
                Limits {
                    seconds: Some(1200.0),
                    ..lim
                },
                None,
            );
        }
        return;
    }
    if all {
        for m in 1..=6usize {
            let max_n = if m <= 4 { 4 } else { 2 };
            for n in 1..=max_n {
                run(&format!("Kalah({m},{n})"), &common::kalah(m, n), lim, None);
                run(
                    &format!("Kalah({m},{n}) empty capture"),
                    &common::kalah_empty_capture(m, n),
                    lim,
                    None,
                );
            }
        }
        return;
    }
    run("Kalah(4,4)", &common::kalah(4, 4), lim, Some(10.0));
    run("Kalah(6,2)", &common::kalah(6, 2), lim, Some(10.0));
    run("Kalah(6,3)", &common::kalah(6, 3), lim, Some(300.0));
}
