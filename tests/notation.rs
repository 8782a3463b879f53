//! Notation: round trips, lenient whitespace, strict counts/names/labels with messages that
//! say what was expected, and a small fuzz (random strings never panic).

use crate::common;

use crate::common::*;
use sowkit::engine::{Dir, Move, Position, Rules};
use sowkit::notation::*;

#[test]
fn formats_and_parses_positions() {
    let rules = Rules::new(&kalah(3, 3));
    let p = Position {
        holes: vec![0, 4, 4, 3, 3, 3, 1, 0],
        to_move: 0,
    };
    assert_eq!(format_position(&rules, &p), "A 0 4 4 (1) / B 3 3 3 (0); A");
    assert_eq!(format_board(&rules, &p), "A 0 4 4 (1) / B 3 3 3 (0)");
    assert_eq!(
        parse_position(&rules, "A 0 4 4 (1) / B 3 3 3 (0); A").unwrap(),
        (p.clone(), true)
    );
    assert_eq!(
        parse_position(&rules, "A 0 4 4 (1) / B 3 3 3 (0)").unwrap(),
        (p.clone(), false)
    );
    let q = Position {
        to_move: 1,
        ..p.clone()
    };
    assert_eq!(
        parse_position(&rules, "A 0 4 4 (1) / B 3 3 3 (0); B").unwrap(),
        (q, true)
    );
    // Whitespace is free.
    for s in [
        "  A 0 4 4 (1)/B 3 3 3 (0) ;A ",
        "A\t0  4 4(1) /  B 3 3 3( 0 )",
        "A 0 4 4 ( 1 ) / B 3 3 3 (0);   A",
    ] {
        assert_eq!(parse_position(&rules, s).unwrap().0, p, "{s}");
    }
}

#[test]
fn position_errors_say_what_was_expected() {
    let rules = Rules::new(&kalah(6, 4));
    let msg = |s: &str| parse_position(&rules, s).unwrap_err().message;
    assert_eq!(
        msg("A 4 4 4 4 4 4 (0) / B 4 4 4 4 4 (0)"),
        "expected 6 pit counts for side B, found 5"
    );
    assert!(msg("X 4 4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0)").contains("expected player name 'A'"));
    assert!(msg("A 4 4 4 4 4 4 (0) / A 4 4 4 4 4 4 (0)").contains("expected player name 'B'"));
    assert!(msg("A 4 4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0); C").contains("expected the player to move"));
    assert!(msg("A 4 4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0);").contains("expected the player to move"));
    assert!(msg("A 4 4 4 4 4 4 (0) B 4 4 4 4 4 4 (0)").contains("separated by '/'"));
    assert!(msg("A 4 4 4 4 4 4 / B 4 4 4 4 4 4 (0)").contains("in parentheses"));
    assert!(msg("A 4 4 4 4 4 4 (0 / B 4 4 4 4 4 4 (0)").contains("')'"));
    assert!(msg("A 4 4 4 4 4 4 (0) x / B 4 4 4 4 4 4 (0)").contains("nothing after"));
    assert!(msg("A 4 -4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0)").contains("expected a seed count for A2"));
    assert!(msg("A 4 4 4 4 4 4 (x) / B 4 4 4 4 4 4 (0)").contains("store A"));
    assert!(msg("A 4 4 4 4 4 70000 (0) / B 4 4 4 4 4 4 (0)").contains("too large"));
    assert!(msg("A 4 4 4 4 4 65535 (0) / B 4 4 4 4 4 4 (0)").contains("at most 65535"));
    assert!(msg("A4 4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0)").contains("followed by a space"));
    assert!(msg("").contains("expected two sides"));
}

#[test]
fn moves_fixed_direction_and_either() {
    let kalah = Rules::new(&kalah(6, 4));
    assert_eq!(
        parse_move(&kalah, " A3 ").unwrap(),
        Move {
            pit: 2,
            dir: Dir::Ccw
        }
    );
    assert_eq!(
        parse_move(&kalah, "B1").unwrap(),
        Move {
            pit: 6,
            dir: Dir::Ccw
        }
    );
    assert_eq!(
        format_move(
            &kalah,
            Move {
                pit: 2,
                dir: Dir::Ccw
            }
        ),
        "A3"
    );
    assert!(parse_move(&kalah, "A3>")
        .unwrap_err()
        .message
        .contains("one direction only"));
    assert!(parse_move(&kalah, "store A")
        .unwrap_err()
        .message
        .contains("store"));
    assert!(parse_move(&kalah, "A7")
        .unwrap_err()
        .message
        .contains("expected a pit label (A1…A6, B1…B6)"));
    assert!(parse_move(&kalah, "").is_err());
    // Two direction marks are named as such (the message used to quote "A1<" as the label).
    for two in ["A1<>", "A1><", "A1 > >"] {
        let m = parse_move(&kalah, two).unwrap_err().message;
        assert!(
            m.contains("one direction mark") && m.contains("found two") && m.contains("'A1'"),
            "{two}: {m}"
        );
    }

    let mut cw = common::kalah(6, 4);
    cw.sowing.direction = sowkit::ruleset::Direction::Clockwise;
    let cw = Rules::new(&cw);
    assert_eq!(
        parse_move(&cw, "A3").unwrap(),
        Move {
            pit: 2,
            dir: Dir::Cw
        }
    );

    let g = Rules::new(&giuthi());
    assert_eq!(
        parse_move(&g, "A3>").unwrap(),
        Move {
            pit: 2,
            dir: Dir::Ccw
        }
    );
    assert_eq!(
        parse_move(&g, "B2 <").unwrap(),
        Move {
            pit: 7,
            dir: Dir::Cw
        }
    );
    assert_eq!(
        format_move(
            &g,
            Move {
                pit: 7,
                dir: Dir::Cw
            }
        ),
        "B2<"
    );
    assert_eq!(
        format_move(
            &g,
            Move {
                pit: 2,
                dir: Dir::Ccw
            }
        ),
        "A3>"
    );
    assert!(parse_move(&g, "A3")
        .unwrap_err()
        .message
        .contains("expected '>'"));
}

#[test]
fn random_positions_round_trip() {
    let rules = Rules::new(&giuthi());
    let mut rng = Rng::new(5);
    for _ in 0..500 {
        let holes: Vec<u16> = (0..rules.holes()).map(|_| rng.below(60) as u16).collect();
        let p = Position {
            holes,
            to_move: rng.below(2) as u8,
        };
        let s = format_position(&rules, &p);
        assert_eq!(
            parse_position(&rules, &s).unwrap(),
            (p.clone(), true),
            "{s}"
        );
        let b = format_board(&rules, &p);
        assert_eq!(parse_position(&rules, &b).unwrap().0.holes, p.holes);
    }
}

#[test]
fn fuzz_never_panics() {
    let rules = Rules::new(&kalah(3, 3));
    let pieces = [
        "A",
        "B",
        " ",
        "0",
        "1",
        "3",
        "65535",
        "99999",
        "(",
        ")",
        "/",
        ";",
        "<",
        ">",
        "A1",
        "B3",
        "store A",
        "é",
        "\u{1F600}",
        "\t",
        "-",
        "+",
        "x",
        "\n",
        "((",
        "))",
        "//",
        ";;",
    ];
    let mut rng = Rng::new(42);
    for _ in 0..20_000 {
        let mut s = String::new();
        for _ in 0..rng.below(24) {
            s.push_str(pieces[rng.below(pieces.len())]);
        }
        let _ = parse_position(&rules, &s);
        let _ = parse_move(&rules, &s);
        // Mutations of a valid position too.
        let mut v = "A 0 4 4 (1) / B 3 3 3 (0); A".to_string();
        let at = rng.below(v.len());
        if v.is_char_boundary(at) {
            v.insert_str(at, pieces[rng.below(pieces.len())]);
        }
        if let Ok((p, _)) = parse_position(&rules, &v) {
            // Whatever parses formats back to something that parses to the same position.
            let again = parse_position(&rules, &format_position(&rules, &p)).unwrap();
            assert_eq!(again.0, p);
        }
    }
    // Random bytes interpreted as (lossy) UTF-8.
    for _ in 0..5_000 {
        let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.below(256) as u8).collect();
        let s = String::from_utf8_lossy(&bytes);
        let _ = parse_position(&rules, &s);
        let _ = parse_move(&rules, &s);
    }
}
