//! Hostile rulesets (issue 8): inputs up to the 1 MiB file cap that used to make `check` and
//! `build` run for seconds and gigabytes. Each must be refused with a located error naming the
//! limit and its value. (Time and memory are measured by `tools/bench-hostile.sh`, not here.)
use crate::common;

use sowkit::ruleset::load::{
    self, Diagnostic, MAX_DIAGNOSTICS, MAX_EXAMPLES, MAX_FILE_BYTES, MAX_LIST_ITEMS,
    MAX_NOTE_CHARS, MAX_SOURCE_CHARS, MAX_TITLE_CHARS, MAX_TOTAL_MOVES,
};
use std::path::{Path, PathBuf};

const GOOD: &str = include_str!("../rulesets/six-pit-sowing.toml");

/// The bundled six-pit ruleset without its worked examples.
fn head() -> &'static str {
    &GOOD[..GOOD.find("[[example]]").unwrap()]
}

/// The smallest worked example the loader accepts (A1 is legal at the start; B moves next).
const MINIMAL: &str =
    "[[example]]\ntitle = \"t\"\nstart = \"initial\"\nmoves = [\"A1\"]\n[example.expect]\nnext = \"A\"\n";

fn errors(src: &str) -> Vec<Diagnostic> {
    assert!(src.len() as u64 <= MAX_FILE_BYTES, "{} bytes", src.len());
    load::load_str("hostile.toml", src).expect_err("must be refused")
}

/// 1-based line of the `n`-th line of `src` that starts with `prefix`.
fn nth_line(src: &str, prefix: &str, n: usize) -> usize {
    src.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(prefix))
        .nth(n - 1)
        .map(|(i, _)| i + 1)
        .unwrap()
}

#[test]
fn ten_thousand_minimal_examples_are_refused_at_the_first_one_over_the_limit() {
    let mut src = head().to_string();
    let mut n = 0;
    while src.len() + MINIMAL.len() <= MAX_FILE_BYTES as usize {
        src.push_str(MINIMAL);
        n += 1;
    }
    assert!(n > 10_000, "{n} examples");
    let errs = errors(&src);
    assert_eq!(
        errs.len(),
        1,
        "{:?}",
        errs.iter().map(|d| d.short()).collect::<Vec<_>>()
    );
    let d = &errs[0];
    let field = format!("example[{}]", MAX_EXAMPLES + 1);
    assert_eq!(d.field, field);
    assert_eq!(d.line, nth_line(&src, "[[example]]", MAX_EXAMPLES + 1));
    assert!(
        d.message.contains(&format!("limit {MAX_EXAMPLES}")),
        "{}",
        d.message
    );
}

#[test]
fn a_750_kb_note_is_refused_at_the_note_with_the_limit() {
    let note = "seeds ".repeat(125_000);
    let src = format!(
        "{}[[example]]\ntitle = \"t\"\nnote = \"{note}\"\nstart = \"initial\"\nmoves = [\"A1\"]\n[example.expect]\nnext = \"A\"\n",
        head()
    );
    let d = &errors(&src)[0];
    assert_eq!(d.field, "example[1].note");
    assert_eq!(d.line, nth_line(&src, "note = ", 1));
    assert!(
        d.message.contains(&format!("at most {MAX_NOTE_CHARS}")),
        "{}",
        d.message
    );
    assert!(d.message.contains("750000 characters"), "{}", d.message);
}

#[test]
fn long_titles_and_sources_are_refused_with_their_limits() {
    let long = "x".repeat(MAX_SOURCE_CHARS + 1);
    let src = GOOD.replacen("source = \"", &format!("source = \"{long}"), 1);
    let d = &errors(&src)[0];
    assert_eq!(d.field, "source");
    assert!(
        d.message.contains(&format!("at most {MAX_SOURCE_CHARS}")),
        "{}",
        d.message
    );

    let title = "y".repeat(MAX_TITLE_CHARS + 1);
    let src = GOOD.replacen("title = \"", &format!("title = \"{title}"), 1);
    let d = &errors(&src)[0];
    assert_eq!(d.field, "example[1].title");
    assert!(
        d.message.contains(&format!("at most {MAX_TITLE_CHARS}")),
        "{}",
        d.message
    );
}

#[test]
fn moves_in_all_examples_together_are_bounded() {
    // 40 examples of 60 legal-looking moves: 2400 in all, over the 2000 limit. (The moves need
    // not be playable: the loader refuses the file before any replay.)
    let moves = vec!["\"A1\""; 60].join(", ");
    let ex = format!(
        "[[example]]\ntitle = \"t\"\nstart = \"initial\"\nmoves = [{moves}]\n[example.expect]\nnext = \"A\"\n"
    );
    let src = format!("{}{}", head(), ex.repeat(MAX_EXAMPLES));
    let errs = errors(&src);
    // The first example that takes the total over the limit: 2000 / 60 → the 34th.
    let k = MAX_TOTAL_MOVES / 60 + 1;
    let d = errs
        .iter()
        .find(|d| d.message.contains(&format!("at most {MAX_TOTAL_MOVES}")))
        .expect("total moves error");
    assert_eq!(d.field, format!("example[{k}].moves"));
    assert_eq!(d.line, nth_line(&src, "moves = ", k));
}

#[test]
fn a_huge_list_is_one_error_not_a_flood() {
    let when = vec!["\"threshold\""; 70_000].join(",");
    let src = GOOD.replacen("when = [", &format!("when = [{when},"), 1);
    let errs = errors(&src);
    assert!(errs.len() <= MAX_DIAGNOSTICS + 1, "{} errors", errs.len());
    let d = errs.iter().find(|d| d.field == "end.when").unwrap();
    assert!(
        d.message.contains(&format!("at most {MAX_LIST_ITEMS}")),
        "{}",
        d.message
    );
}

#[test]
fn many_problems_are_reported_up_to_a_bound() {
    // 40 examples with an empty title and no moves each: 80 problems, more than are worth
    // rendering (each rendering reads the file).
    let bad = "[[example]]\ntitle = \"\"\nstart = \"initial\"\nmoves = []\n[example.expect]\nnext = \"A\"\n";
    let src = format!("{}{}", head(), bad.repeat(MAX_EXAMPLES));
    let errs = errors(&src);
    assert_eq!(errs.len(), MAX_DIAGNOSTICS + 1);
    let last = &errs[MAX_DIAGNOSTICS].message;
    assert!(
        last.contains(&format!(
            "{} more problem(s)",
            2 * MAX_EXAMPLES - MAX_DIAGNOSTICS
        )),
        "{last}"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for open in ["[", "{ a = "] {
        let src = format!("x = {}", open.repeat(900_000 / open.len()));
        let d = &errors(&src)[0];
        assert_eq!(d.line, 1);
    }
}

#[test]
fn a_document_past_the_page_limit_is_refused() {
    // Built in code, past the loader's limits: the page limit still stops layout.
    let mut rs = common::load_path(&common::bundled_path("kalah-6x4"));
    rs.examples = vec![rs.examples[0].clone(); 250].into();
    let e = sowkit::layout::kit(&rs, &sowkit::layout::KitOptions::default()).unwrap_err();
    assert!(
        e.contains(&format!("at most {}", sowkit::layout::MAX_PAGES)),
        "{e}"
    );
}

fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn the_cli_refuses_the_hostile_file_and_writes_nothing() {
    let dir = scratch("cli");
    let mut src = head().to_string();
    while src.len() + MINIMAL.len() <= MAX_FILE_BYTES as usize {
        src.push_str(MINIMAL);
    }
    let f = dir.join("many.toml");
    std::fs::write(&f, &src).unwrap();
    let out = dir.join("out");
    let r = bin()
        .arg("build")
        .arg(&f)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    let line = nth_line(&src, "[[example]]", MAX_EXAMPLES + 1);
    assert!(err.contains(&format!("many.toml:{line}:1")), "{err}");
    assert!(!Path::new(&out).exists());
}

/// The heaviest board for the engine (issue 8, the kit fuzzer's 0xFF timeout, worked out): 16
/// pits a side of 50 seeds, relay sowing, no store and no capture, so no seed ever leaves the
/// pits and a move relays until it lands in an empty pit — thousands of seeds a move, up to
/// the engine's per-turn cap. Before the bounds `check` took 47 s and `build` 84 s on it.
fn relay_board(pits: usize, seeds: usize) -> String {
    format!(
        "id = \"relay\"\nname = \"Relay\"\nsource = \"generated\"\n[board]\npits_per_side = {pits}\nseeds_per_pit = {seeds}\nplayers = [\"A\", \"B\"]\n[sowing]\ndirection = \"counterclockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\norigin_on_lap = \"skip\"\nmin_seeds = 1\nrelay = \"same\"\n[extra_turn]\non = [\"empty-pit-before-crossing\"]\n[capture]\nkind = \"none\"\nafter_crossing_only = true\ncrossing = \"sown\"\n[grand_slam]\npolicy = \"illegal-unless-only\"\n[feeding]\nmust_feed = true\n[end]\nwhen = [\"either-side-empty\", \"threshold\", \"repetition\"]\nthreshold = {}\nno_legal_move = \"pass\"\nremaining_seeds = \"owner\"\n",
        pits * seeds + 1
    )
}

#[test]
fn relay_sowing_on_the_biggest_board_is_bounded_work() {
    use sowkit::engine::{relay_cap, SowBudget};
    let src = relay_board(16, 50);
    let rs = load::load_str("relay.toml", &src).expect("loads");
    let total = rs.total_seeds();
    assert_eq!(total, 1600);
    // One ply past the budget, at most: a move played or tried, and the legal-move check
    // before it (feeding / grand slam: every one of the 32 candidates simulated), each at
    // most the engine's per-turn cap.
    let ply = 2 * 33 * u64::from(relay_cap(total));
    let spent = SowBudget::new(0);
    let diags = sowkit::examples::sanity(&rs, &src);
    let sanity = spent.spent();
    assert!(diags.is_empty(), "{:?}", diags[0].short());
    assert!(
        sanity <= sowkit::examples::SANITY_SOWN + ply,
        "sanity sowed {sanity}"
    );
    let spent = SowBudget::new(0);
    let ex = sowkit::layout::practice::exercises(&rs).expect("exercises");
    let practice = spent.spent();
    assert!(
        practice <= 2 * (sowkit::layout::practice::PRACTICE_SOWN + ply),
        "practice sowed {practice}"
    );
    // The budget did bind: without it 40 games of 400 plies sow far more.
    assert!(
        practice >= sowkit::layout::practice::PRACTICE_SOWN,
        "{practice}"
    );
    assert!(!ex.is_empty());
    // The solver is not asked about these positions (its moves sow too many seeds for a
    // bounded search) but is about every exercise of the bundled relay ruleset (Giuthi), whose
    // host key keeps its perfect-play lines.
    let rules = sowkit::engine::Rules::new(&rs);
    assert!(ex
        .iter()
        .all(|e| !sowkit::layout::practice::solver_affordable(&rules, &e.start)));
    let giuthi = load::load_str("g.toml", include_str!("../rulesets/giuthi.toml")).unwrap();
    let grules = sowkit::engine::Rules::new(&giuthi);
    for e in sowkit::layout::practice::exercises(&giuthi).unwrap() {
        assert!(sowkit::layout::practice::solver_affordable(
            &grules, &e.start
        ));
    }
    // The whole kit is made: the board in tiles at true size (`--fit` refuses it: on one A4
    // sheet its pits would be 11.7 mm, below the 28 mm that holds seven 8 mm counters).
    let opts = sowkit::layout::KitOptions::new(sowkit::paper::A4);
    let kit = sowkit::kit::make(&rs, &opts).expect("a kit");
    assert!(kit.files.iter().any(|f| f.name == "host-key.pdf"));
}
