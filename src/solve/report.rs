//! What `sowkit solve` prints: the solve and balance reports, as text or JSON.

use super::balance::{playouts, Playouts, Policy, Rate};
use super::{solve, Limits, SolveError, Stop};
use crate::engine::{Position, Rules};
use crate::notation::{format_move, format_position};

/// Playouts per policy in the balance report.
pub const BALANCE_GAMES: u32 = 2000;

/// Node budget of the balance report's exact value when no time budget is given.
pub const BALANCE_NODES: u64 = 5_000_000;

fn value_words(rules: &Rules, v: i32) -> String {
    let (a, b) = (rules.player_name(0), rules.player_name(1));
    match v.cmp(&0) {
        std::cmp::Ordering::Greater => format!("{a} (first player) wins by {v}"),
        std::cmp::Ordering::Less => format!("{b} (second player) wins by {}", -v),
        std::cmp::Ordering::Equal => "a draw".to_string(),
    }
}

/// A number of seconds as `solve` echoes a `--budget`: the shortest digits that read back as
/// the same number, as a plain decimal from 0.0001 up to a billion ("2.5", "60", "0.001"),
/// else in exponent form ("1e-300", "1.5e12"), so a budget is never echoed as hundreds of
/// digits (`1e-300` was printed as a 302-character decimal). At most 24 characters.
pub fn seconds_text(s: f64) -> String {
    if s == 0.0 || !s.is_finite() || (1e-4..1e9).contains(&s.abs()) {
        format!("{s}")
    } else {
        format!("{s:e}")
    }
}

/// The JSON reports' word for why a solve stopped (`"stopped"`).
fn stop_key(s: Stop) -> &'static str {
    match s {
        Stop::Nodes => "nodes",
        Stop::Time => "time",
        Stop::Depth => "depth",
    }
}

fn stop_words(s: Option<Stop>, limits: &Limits) -> String {
    match s {
        Some(Stop::Nodes) => format!(
            "the node budget ({} positions) ran out",
            limits.nodes.unwrap_or(0)
        ),
        Some(Stop::Time) => format!(
            "the time budget ({} s) ran out",
            seconds_text(limits.seconds.unwrap_or(0.0))
        ),
        Some(Stop::Depth) => format!("a line of play grew past {} moves", super::MAX_DEPTH),
        None => String::new(),
    }
}

/// The solve report for `pos`: text, or JSON (`json`). `Err` when the game has no value.
pub fn solve_report(
    rules: &Rules,
    pos: &Position,
    limits: Limits,
    json: bool,
) -> Result<String, SolveError> {
    let t = std::time::Instant::now();
    let s = solve(rules, pos, limits)?;
    let secs = t.elapsed().as_secs_f64();
    let best: Vec<String> = s
        .best_moves
        .iter()
        .map(|&m| format_move(rules, m))
        .collect();
    // The player who moves: the one given, unless they have no legal move and pass (the
    // engine settles that before the first move, as `replay` shows it).
    let game = crate::engine::Game::try_new(rules, pos.clone()).ok();
    let mover = game.as_ref().map_or(pos.to_move, |g| g.to_move());
    let passed = game.as_ref().and_then(|g| g.start_passed());
    if json {
        let v = serde_json::json!({
            "value": s.value().filter(|_| s.proven),
            "mover": rules.player_name(mover),
            "passed": passed.map(|p| rules.player_name(p)),
            "best_moves": best,
            "proven": s.proven,
            "bounds": [s.bounds.0, s.bounds.1],
            "nodes": s.nodes,
            "seconds": (secs * 1000.0).round() / 1000.0,
            // Why an unproven solve stopped, as the text report says it.
            "stopped": s.stopped.map(stop_key),
            "reason": s.stopped.map(|_| stop_words(s.stopped, &limits)),
        });
        return Ok(format!("{v}\n"));
    }
    let mut out = format!("Position: {}\n", format_position(rules, pos));
    if s.proven {
        let v = s.bounds.0;
        out += &format!(
            "Value: {v:+} ({}) with perfect play, proven\n",
            value_words(rules, v)
        );
        if let Some(p) = passed {
            out += &format!("{} cannot move and passes.\n", rules.player_name(p));
        }
        if best.is_empty() {
            out += "Best moves: none (the game is over)\n";
        } else {
            out += &format!(
                "Best move{} for {}: {}\n",
                if best.len() == 1 { "" } else { "s" },
                rules.player_name(mover),
                best.join(", ")
            );
        }
    } else {
        out += &format!(
            "Not proven: {}. Proven bounds on the value: [{:+}, {:+}]\n",
            stop_words(s.stopped, &limits),
            s.bounds.0,
            s.bounds.1
        );
    }
    // A table under a mebibyte (`--memory 1` asks for one; the table is a power of two
    // below it) in kibibytes: "0 MiB" read as no table.
    let table_size = if s.table_bytes >= 1 << 20 {
        format!("{} MiB", s.table_bytes >> 20)
    } else {
        format!("{} KiB", s.table_bytes >> 10)
    };
    out += &format!(
        "Searched {} positions in {:.2} s (table: {} entries, {table_size})\n",
        s.nodes, secs, s.table_entries,
    );
    Ok(out)
}

fn rate_json(r: &Rate) -> serde_json::Value {
    serde_json::json!({"count": r.count, "rate": r.rate, "lo": r.lo, "hi": r.hi})
}

fn playouts_json(p: &Playouts) -> serde_json::Value {
    serde_json::json!({
        "games": p.games,
        "win": rate_json(&p.win),
        "draw": rate_json(&p.draw),
        "loss": rate_json(&p.loss),
        "unfinished": p.unfinished,
        "sow_budget_spent": p.budget_spent,
        "move_budget_spent": p.moves_spent,
    })
}

fn pct(r: &Rate) -> String {
    format!(
        "{:5.1}% [{:.1}, {:.1}]",
        100.0 * r.rate,
        100.0 * r.lo,
        100.0 * r.hi
    )
}

/// The balance report of the start position: exact value when the solver proves it within
/// `limits`, and the playout rates. Deterministic under a node budget (no `seconds` field is
/// printed in text; JSON carries none either).
pub fn balance_report(rules: &Rules, limits: Limits, json: bool) -> Result<String, String> {
    balance_report_games(rules, limits, BALANCE_GAMES, json)
}

/// [`balance_report`] with `games` playouts per policy.
pub fn balance_report_games(
    rules: &Rules,
    limits: Limits,
    games: u32,
    json: bool,
) -> Result<String, String> {
    let start = rules.initial();
    let solved = solve(rules, &start, limits);
    let random = playouts(rules, Policy::Random, games);
    let greedy = playouts(rules, Policy::Greedy, games);
    if json {
        let (value, proven, bounds, nodes, note) = match &solved {
            Ok(s) => (
                s.value().filter(|_| s.proven),
                s.proven,
                Some([s.bounds.0, s.bounds.1]),
                Some(s.nodes),
                None,
            ),
            Err(e) => (None, false, None, None, Some(e.to_string())),
        };
        // Why an unproven solve stopped, as in `solve`'s JSON.
        let stopped = solved.as_ref().ok().and_then(|s| s.stopped);
        let v = serde_json::json!({
            "ruleset": rules.ruleset().id,
            "value": value,
            "proven": proven,
            "bounds": bounds,
            "nodes": nodes,
            "note": note,
            "stopped": stopped.map(stop_key),
            "reason": stopped.map(|_| stop_words(stopped, &limits)),
            "random": playouts_json(&random),
            "greedy": playouts_json(&greedy),
        });
        return Ok(format!("{v}\n"));
    }
    let rs = rules.ruleset();
    let first = rules.player_name(0);
    let mut out = format!("Balance of {} ({}): {first} moves first\n", rs.name, rs.id);
    match &solved {
        Ok(s) if s.proven => {
            out += &format!(
                "Exact value of the start: {:+} ({}), proven in {} positions\n",
                s.bounds.0,
                value_words(rules, s.bounds.0),
                s.nodes
            );
        }
        Ok(s) => {
            out += &format!(
                "Exact value: not proven ({}); proven bounds [{:+}, {:+}]\n",
                stop_words(s.stopped, &limits),
                s.bounds.0,
                s.bounds.1
            );
        }
        Err(e) => out += &format!("Exact value: none ({e})\n"),
    }
    for p in [&random, &greedy] {
        out += &format!(
            "{} playouts ({} {}, 95% Wilson intervals): {first} wins {}, draws {}, loses {}{}\n",
            match p.policy {
                Policy::Random => "Random",
                Policy::Greedy => "Greedy",
            },
            p.games,
            if p.games == 1 { "game" } else { "games" },
            pct(&p.win),
            pct(&p.draw),
            pct(&p.loss),
            if p.budget_spent {
                format!(
                    "; stopped after {} of {games} games, {} unfinished: relay sowing used up \
                     its budget of {} seeds",
                    p.games,
                    p.unfinished,
                    super::balance::PLAYOUT_SOWN
                )
            } else if p.moves_spent {
                format!(
                    "; stopped after {} of {games} games, {} unfinished: the playouts used up \
                     their budget of {} moves (greedy play's tries included, a move of many \
                     seeds counting as several)",
                    p.games,
                    p.unfinished,
                    super::balance::PLAYOUT_MOVES
                )
            } else if p.unfinished > 0 {
                format!(
                    "; {} unfinished after {} moves",
                    p.unfinished,
                    super::balance::MOVE_CAP
                )
            } else {
                String::new()
            }
        );
    }
    Ok(out)
}

/// The options of `sowkit solve`.
#[derive(Clone, Debug)]
pub struct Args {
    /// Ruleset file.
    pub file: std::path::PathBuf,
    /// Position (notation form); `None` for the start.
    pub from: Option<String>,
    /// JSON output.
    pub json: bool,
    /// Time budget in seconds.
    pub seconds: Option<f64>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Table cap in MiB.
    pub memory_mb: usize,
    /// Balance report instead of a solve.
    pub balance: bool,
    /// The ruleset's text when it was read already (`-`: standard input); `file` names it.
    pub source: Option<String>,
}

/// Runs `sowkit solve`: loads the ruleset, reads the position, and returns the report, or an
/// error message naming the file and what is wrong.
pub fn run(a: &Args) -> Result<String, String> {
    let loaded = match &a.source {
        Some(src) => crate::ruleset::load::load_str(&a.file.display().to_string(), src),
        None => crate::ruleset::load::load_file(&a.file),
    };
    let rs = loaded.map_err(|d| {
        d.iter()
            .map(|d| d.rendered.clone())
            .collect::<Vec<_>>()
            .join("\n\n")
    })?;
    // A start with the seeds of another starting count the ruleset offers is solved under it.
    let rs = crate::replay::for_start(&rs, a.from.as_deref()).unwrap_or(rs);
    let rules = Rules::try_new(&rs).map_err(|e| format!("error: {}: {e}", a.file.display()))?;
    if let Some(s) = a.seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(format!(
                "error: --budget is {}; give a number of seconds above 0",
                seconds_text(s)
            ));
        }
    }
    let mut limits = Limits {
        nodes: a.nodes,
        seconds: a.seconds,
        memory_mb: a.memory_mb,
    };
    if a.balance {
        if a.from.is_some() {
            return Err("error: --balance reports on the start position; drop --from".into());
        }
        if limits.nodes.is_none() && limits.seconds.is_none() {
            limits.nodes = Some(BALANCE_NODES);
        }
        return balance_report(&rules, limits, a.json);
    }
    // A position with closed pits (x) is solved on the board its next round shortens, as
    // `replay --from` plays it.
    let short = crate::replay::board_for(&rules, a.from.as_deref()).map_err(|e| {
        format!(
            "error: --from {:?} is not a position of {}: {} (write it like \"{}\")",
            a.from.as_deref().unwrap_or_default(),
            a.file.display(),
            e.message,
            format_position(&rules, &rules.initial())
        )
    })?;
    let rules = short.as_ref().unwrap_or(&rules);
    let pos = match &a.from {
        None => rules.initial(),
        Some(s) => {
            let (p, _) = crate::notation::parse_position(rules, s).map_err(|e| {
                format!(
                    "error: --from {s:?} is not a position of {}: {e} (write it like \"{}\")",
                    a.file.display(),
                    format_position(rules, &rules.initial())
                )
            })?;
            if let Some(m) = crate::examples::seed_total_mismatch(rules, &p) {
                return Err(format!(
                    "error: --from {s:?} {m}: give a position of {} with every seed",
                    a.file.display()
                ));
            }
            p
        }
    };
    solve_report(rules, &pos, limits, a.json)
        .map_err(|e| format!("error: {}: cannot solve: {e}", a.file.display()))
}

#[cfg(test)]
mod tests {
    use super::seconds_text;

    /// Shortest round-trip digits: plain between 0.0001 and a billion, exponent form outside;
    /// each reads back as the same number.
    #[test]
    fn seconds_are_short_and_read_back() {
        for (s, want) in [
            (2.5, "2.5"),
            (60.0, "60"),
            (0.001, "0.001"),
            (0.0001, "0.0001"),
            (0.1 + 0.2, "0.30000000000000004"),
            (999_999_999.5, "999999999.5"),
            (1e9, "1e9"),
            (1e-300, "1e-300"),
            (0.00005, "5e-5"),
            (1.5e-7, "1.5e-7"),
            (1e300, "1e300"),
            (2.5e-310, "2.5e-310"),
            (-1e-300, "-1e-300"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
        ] {
            let t = seconds_text(s);
            assert_eq!(t, want, "{s:e}");
            assert!(t.len() <= 24, "{t}");
            if s.is_finite() {
                assert_eq!(t.parse::<f64>().unwrap(), s, "{t}");
            }
        }
    }
}
