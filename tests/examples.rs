//! The worked-example checker: what it accepts, and how it words what it refuses.
//! Expected values are worked by hand on the 3-pit board (18 seeds; opposite pits A1/B3,
//! A2/B2, A3/B1; circuit A1 A2 A3 store A B1 B2 B3 store B).
use crate::common;

use sowkit::ruleset::load::Diagnostic;

const BASE: &str = include_str!("../rulesets/six-pit-sowing.toml");

/// The bundled six-pit ruleset's header with one example appended (the bundled examples dropped).
fn with_example(example: &str) -> String {
    let head = &BASE[..BASE.find("[[example]]").unwrap()];
    format!("{head}[[example]]\n{example}")
}

fn check(src: &str) -> Vec<Diagnostic> {
    let rs =
        sowkit::ruleset::load_str("t.toml", src).unwrap_or_else(|d| panic!("{}", d[0].rendered));
    sowkit::examples::check(&rs, src)
}

fn line_of(src: &str, needle: &str) -> usize {
    src.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn a_correct_hand_worked_example_passes() {
    // A2 (3 seeds) sows A3, store A, B1: the last seed lands in B1, B moves next.
    let src = with_example(
        "title = \"t\"\nstart = \"initial\"\nmoves = [\"A2\"]\n[example.expect]\nposition = \"A 3 0 4 (1) / B 4 3 3 (0); B\"\nlast = \"B1\"\nsown = [\"A3\", \"store A\", \"B1\"]\nnext = \"B\"\nextra_turn = false\ncaptured = 0\n",
    );
    assert!(check(&src).is_empty(), "{}", check(&src)[0].rendered);
}

#[test]
fn each_wrong_field_is_named_with_its_line_and_both_values() {
    // Same move; three claims are wrong: last (B1), captured (0), and the position.
    let src = with_example(
        "title = \"t\"\nstart = \"initial\"\nmoves = [\"A2\"]\n[example.expect]\nposition = \"A 3 0 4 (1) / B 3 4 3 (0)\"\nlast = \"B2\"\ncaptured = 2\n",
    );
    let d = check(&src);
    assert_eq!(
        d.len(),
        3,
        "{:?}",
        d.iter().map(|d| d.short()).collect::<Vec<_>>()
    );
    let by = |f: &str| {
        d.iter()
            .find(|x| x.field == format!("example[1].expect.{f}"))
            .unwrap()
    };
    assert_eq!(by("last").line, line_of(&src, "last = "));
    assert!(by("last")
        .message
        .contains("expected last = B2, but the engine gives B1"));
    assert!(by("captured")
        .message
        .contains("expected captured = 2, but the engine gives 0"));
    assert!(
        by("position").message.contains("A 3 0 4 (1) / B 4 3 3 (0)"),
        "{}",
        by("position").message
    );
}

#[test]
fn a_start_position_without_every_seed_is_refused() {
    let src = with_example("title = \"t\"\nstart = \"A 1 0 0 (0) / B 0 0 1 (0); A\"\nmoves = [\"A1\"]\n[example.expect]\nnext = \"B\"\n");
    let d = check(&src);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].field, "example[1].start");
    assert!(
        d[0].message.contains("holds 2 seeds, but this game has 18"),
        "{}",
        d[0].message
    );
}

#[test]
fn a_start_position_that_is_already_over_is_explained() {
    // A's row is empty: the game is over before A1 could be played.
    let src = with_example("title = \"t\"\nstart = \"A 0 0 0 (9) / B 3 3 3 (0); A\"\nmoves = [\"A1\"]\n[example.expect]\nnext = \"B\"\n");
    let d = check(&src);
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message
            .contains("already a finished game (a row of pits is empty)"),
        "{}",
        d[0].message
    );
}

#[test]
fn names_that_do_not_exist_are_reported_as_such() {
    let src = with_example("title = \"t\"\nstart = \"initial\"\nmoves = [\"A2\"]\n[example.expect]\nlast = \"Z9\"\nnext = \"Carol\"\nlegal = [\"Q\"]\n");
    let d = check(&src);
    let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("\"Z9\" is not a pit or store label")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("\"Carol\" is not a player")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("\"Q\" is not a move")),
        "{msgs:?}"
    );
}

#[test]
fn an_illegal_move_names_the_move_and_the_position_before_it() {
    // B1 is not A's pit.
    let src = with_example(
        "title = \"t\"\nstart = \"initial\"\nmoves = [\"B1\"]\n[example.expect]\nnext = \"B\"\n",
    );
    let d = check(&src);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].field, "example[1].moves[1]");
    assert!(
        d[0].message.contains("move 1 \"B1\" is not legal"),
        "{}",
        d[0].message
    );
    assert!(
        d[0].message.contains("A 3 3 3 (0) / B 3 3 3 (0); A"),
        "{}",
        d[0].message
    );
}

/// A relay rule with nothing to stop it: 2 pits a side, 2 seeds each, stores never sown, relay
/// in the same direction. Worked by hand from "A 2 3 / B 2 1; A", A1: A2 4, B1 3 (lift 3);
/// B2 2, A1 1, A2 5 (lift 5); B1 1, B2 3, A1 2, A2 1, B1 2 (lift 2); B2 4, A1 3 (lift 3);
/// A2 2, B1 1, B2 5 (lift 5); A1 1, A2 3, B1 2, B2 1, A1 2 (lift 2); A2 4, B1 3 (lift 3);
/// B2 2, A1 1, A2 5: the board of the second handful again, so the move goes round for ever.
/// The sanity playouts must find such a move and say so, at `relay`.
#[test]
fn rules_that_allow_an_endless_move_are_refused() {
    let src = "id = \"loop\"\nname = \"Loop\"\nsource = \"test\"\n[board]\npits_per_side = 2\nseeds_per_pit = 2\nplayers = [\"A\", \"B\"]\n[sowing]\ndirection = \"counterclockwise\"\nown_store = \"skip\"\nopponent_store = \"skip\"\nrelay = \"same\"\n[end]\nwhen = [\"either-side-empty\"]\n";
    let rs =
        sowkit::ruleset::load_str("loop.toml", src).unwrap_or_else(|d| panic!("{}", d[0].rendered));
    let d = sowkit::examples::sanity(&rs, src);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].field, "sowing.relay");
    assert_eq!(d[0].line, line_of(src, "relay ="));
    assert!(d[0].message.contains("never ends"), "{}", d[0].message);
    // The bundled rulesets have no such move.
    for path in common::bundled_paths() {
        let text = std::fs::read_to_string(&path).unwrap();
        let rs = sowkit::ruleset::load_str(&path.display().to_string(), &text).unwrap();
        assert!(
            sowkit::examples::sanity(&rs, &text).is_empty(),
            "{}",
            path.display()
        );
    }
}

#[test]
fn labels_and_moves_in_expectations_match_ignoring_case() {
    // A2 (3 seeds) sows A3, store A, B1; from the start, A's legal moves are A1, A2, A3.
    let src = with_example(
        "title = \"t\"\nstart = \"initial\"\nmoves = [\"a2\"]\n[example.expect]\nsown = [\"a3\", \"STORE A\", \"b1\"]\nlast = \"b1\"\n",
    );
    assert!(check(&src).is_empty(), "{}", check(&src)[0].rendered);
    // A3 (3 seeds) sows store A, B1, B2; then B may play B1, B2 or B3.
    let src = with_example("title = \"t\"\nstart = \"initial\"\nmoves = [\"A3\"]\n[example.expect]\nlegal = [\"b3\", \"B1\", \"b2\"]\n");
    assert!(check(&src).is_empty(), "{}", check(&src)[0].rendered);
}
