//! Hand-worked rule cases (every expected value worked out on paper from the rules text, see
//! the comment of each test), perft counts from the research notes (§3, OpenSpiel-verified),
//! and relay non-termination.

use crate::common::*;
use sowkit::engine::{perft, Dir, EndReason, EngineError, Game, Move, Rules};
use sowkit::notation::{format_position, parse_move, parse_position};
use sowkit::ruleset::{Include, Relay, Remaining};

fn game<'r>(rules: &'r Rules, pos: &str) -> Game<'r> {
    let (p, _) = parse_position(rules, pos).unwrap();
    Game::new(rules, p)
}

fn mv(rules: &Rules, s: &str) -> Move {
    parse_move(rules, s).unwrap()
}

fn labels(rules: &Rules, holes: &[u8]) -> Vec<String> {
    holes.iter().map(|&h| rules.label(h).to_string()).collect()
}

#[test]
fn kalah_3_3_opening_a1_reaches_store_and_moves_again() {
    // Source 000: "A1 containing three sends one each to A2, A3 and store A"; last in own store.
    let rules = Rules::new(&kalah(3, 3));
    let mut g = Game::new(&rules, rules.initial());
    let r = g.play(mv(&rules, "A1")).unwrap();
    assert_eq!(labels(&rules, &r.laps[0].sown), ["A2", "A3", "store A"]);
    assert_eq!(rules.label(r.last), "store A");
    assert!(r.extra_turn);
    assert_eq!(r.next, Some(0));
    assert_eq!(r.captured, 0);
    assert_eq!(
        format_position(&rules, g.position()),
        "A 0 4 4 (1) / B 3 3 3 (0); A"
    );
}

#[test]
fn kalah_3_3_sowing_skips_the_opponent_store_both_seats() {
    // A3's 5 seeds: store A, B1, B2, B3, (store B skipped), A1, which held 1: no capture.
    let rules = Rules::new(&kalah(3, 3));
    let mut g = game(&rules, "A 1 0 5 (0) / B 1 1 1 (0); A");
    let r = g.play(mv(&rules, "A3")).unwrap();
    assert_eq!(
        labels(&rules, &r.laps[0].sown),
        ["store A", "B1", "B2", "B3", "A1"]
    );
    assert!(!r.extra_turn);
    assert_eq!(r.captured, 0);
    assert_eq!(
        format_position(&rules, g.position()),
        "A 2 0 0 (1) / B 2 2 2 (0); B"
    );
    // The same from B's seat: store B, A1, A2, A3, (store A skipped), B1.
    let mut g = game(&rules, "A 1 1 1 (0) / B 1 0 5 (0); B");
    let r = g.play(mv(&rules, "B3")).unwrap();
    assert_eq!(
        labels(&rules, &r.laps[0].sown),
        ["store B", "A1", "A2", "A3", "B1"]
    );
    assert_eq!(
        format_position(&rules, g.position()),
        "A 2 2 2 (0) / B 2 0 0 (1); A"
    );
}

#[test]
fn kalah_3_3_seven_seed_lap_returns_to_the_emptied_origin_and_captures() {
    // A3's 7 seeds: store A, B1, B2, B3, A1, A2, A3 (the emptied origin is sown). A3 now holds
    // 1, opposite B1 holds 2: 2 + 1 go to store A (1 + 3 = 4).
    let rules = Rules::new(&kalah(3, 3));
    let mut g = game(&rules, "A 0 0 7 (0) / B 1 1 1 (0); A");
    let r = g.play(mv(&rules, "A3")).unwrap();
    assert_eq!(
        labels(&rules, &r.laps[0].sown),
        ["store A", "B1", "B2", "B3", "A1", "A2", "A3"]
    );
    assert_eq!(rules.label(r.last), "A3");
    assert_eq!(r.captured, 3);
    let b1 = rules.hole_by_label("B1").unwrap();
    let a3 = rules.hole_by_label("A3").unwrap();
    assert_eq!(r.captures, vec![(b1, 2), (a3, 1)]);
    assert_eq!(
        format_position(&rules, g.position()),
        "A 1 1 0 (4) / B 0 2 2 (0); B"
    );
}

#[test]
fn kalah_empty_capture_variant_takes_the_lone_seed() {
    // A1's seed lands in empty A2; opposite B2 is empty.
    let pos = "A 1 0 1 (0) / B 3 0 3 (0); A";
    let standard = Rules::new(&kalah(3, 3));
    let mut g = game(&standard, pos);
    let r = g.play(mv(&standard, "A1")).unwrap();
    assert_eq!(r.captured, 0);
    assert_eq!(
        format_position(&standard, g.position()),
        "A 0 1 1 (0) / B 3 0 3 (0); B"
    );
    let empty = Rules::new(&kalah_empty_capture(3, 3));
    let mut g = game(&empty, pos);
    let r = g.play(mv(&empty, "A1")).unwrap();
    assert_eq!(r.captured, 1);
    assert_eq!(
        format_position(&empty, g.position()),
        "A 0 0 1 (1) / B 3 0 3 (0); B"
    );
}

#[test]
fn remaining_seeds_owner_mover_opponent() {
    // A3's seed ends in store A and empties A's row: the game ends, no extra turn.
    // The 3 seeds left are in B's row. Owner: B sweeps them; Mover: A (who moved last) takes
    // them; Opponent: B takes them.
    for (remaining, scores, swept) in [
        (Remaining::Owner, [1, 3], [0, 3]),
        (Remaining::Mover, [4, 0], [3, 0]),
        (Remaining::Opponent, [1, 3], [0, 3]),
    ] {
        let mut rs = kalah(3, 3);
        rs.end.remaining_seeds = remaining;
        let rules = Rules::new(&rs);
        let mut g = game(&rules, "A 0 0 1 (0) / B 1 1 1 (0); A");
        let r = g.play(mv(&rules, "A3")).unwrap();
        assert!(!r.extra_turn);
        assert_eq!(r.next, None);
        let e = r.ending.unwrap();
        assert_eq!(e.reason, EndReason::SideEmpty);
        assert_eq!(e.scores, scores, "{remaining:?}");
        assert_eq!(e.swept, swept, "{remaining:?}");
        assert_eq!(g.position().holes[..6], [0; 6]);
        assert!(g.legal_moves().is_empty());
        assert_eq!(g.play(mv(&rules, "A1")), Err(EngineError::GameOver));
    }
}

#[test]
fn illegal_moves_say_why_and_leave_the_game_unchanged() {
    let rules = Rules::new(&kalah(3, 3));
    let mut g = game(&rules, "A 0 2 2 (0) / B 3 3 3 (0); A");
    let before = g.position().clone();
    let e = g.play(mv(&rules, "A1")).unwrap_err();
    assert_eq!(e, EngineError::IllegalMove("A1 is empty".into()));
    let e = g.play(mv(&rules, "B1")).unwrap_err();
    assert_eq!(
        e,
        EngineError::IllegalMove("B1 belongs to B; A moves".into())
    );
    let e = g
        .play(Move {
            pit: 1,
            dir: Dir::Cw,
        })
        .unwrap_err();
    assert!(matches!(e, EngineError::IllegalMove(ref s) if s.contains("counter-clockwise")));
    let e = g
        .play(Move {
            pit: 7,
            dir: Dir::Ccw,
        })
        .unwrap_err();
    assert!(matches!(e, EngineError::IllegalMove(_)));
    assert_eq!(g.position(), &before);
}

// ---- Giuthi ---------------------------------------------------------------------------------

#[test]
fn giuthi_relay_reverses_captures_following_empty_pits_then_b_passes() {
    // A2< : 2 seeds clockwise to A1 (0→1) and B6 (1→2). B6 now holds 2: relay, reversed
    // (counter-clockwise): A1 (1→2), A2 (0→1). A2 was empty: the sowing ends. A seed went into
    // B's row, so A captures: opposite B5 (1) plus the capturing seed, then the following pits
    // A3 and A4 are empty with B4 and B3 holding 1 each: captured too; A5 holds seeds: stop.
    // B is left with single seeds only (min 2 to move) and passes; A moves again.
    let rules = Rules::new(&giuthi());
    let mut g = game(&rules, "A 0 2 0 0 3 0 (0) / B 1 1 1 1 1 1 (0); A");
    let r = g.play(mv(&rules, "A2<")).unwrap();
    assert_eq!(r.laps.len(), 2);
    assert_eq!(
        (rules.label(r.laps[0].from), r.laps[0].dir, r.laps[0].lifted),
        ("A2", Dir::Cw, 2)
    );
    assert_eq!(labels(&rules, &r.laps[0].sown), ["A1", "B6"]);
    assert_eq!(
        (rules.label(r.laps[1].from), r.laps[1].dir, r.laps[1].lifted),
        ("B6", Dir::Ccw, 2)
    );
    assert_eq!(labels(&rules, &r.laps[1].sown), ["A1", "A2"]);
    assert_eq!(rules.label(r.last), "A2");
    let h = |l: &str| rules.hole_by_label(l).unwrap();
    assert_eq!(
        r.captures,
        vec![(h("B5"), 1), (h("A2"), 1), (h("B4"), 1), (h("B3"), 1)]
    );
    assert_eq!(r.captured, 4);
    assert!(!r.extra_turn);
    assert_eq!(r.passed, vec![1]);
    assert_eq!(r.next, Some(0));
    assert!(r.ending.is_none());
    assert_eq!(
        format_position(&rules, g.position()),
        "A 2 0 0 0 3 0 (4) / B 1 1 0 0 0 0 (0); A"
    );
}

#[test]
fn giuthi_empty_pit_before_crossing_gives_another_move() {
    // A2> : 2 seeds to A3 (1→2) and A4 (0→1); A4 was empty and no seed reached B's row.
    let rules = Rules::new(&giuthi());
    let mut g = game(&rules, "A 0 2 1 0 0 0 (0) / B 1 1 1 1 1 1 (0); A");
    let r = g.play(mv(&rules, "A2>")).unwrap();
    assert_eq!(r.laps.len(), 1);
    assert!(r.extra_turn);
    assert_eq!(r.captured, 0);
    assert_eq!(r.next, Some(0));
    assert_eq!(
        format_position(&rules, g.position()),
        "A 0 0 2 1 0 0 (0) / B 1 1 1 1 1 1 (0); A"
    );
    // Both directions are legal from every pit with 2+ seeds, sorted by pit then > before <.
    let legal: Vec<String> = g
        .legal_moves()
        .into_iter()
        .map(|m| sowkit::notation::format_move(&rules, m))
        .collect();
    assert_eq!(legal, ["A3>", "A3<"]);
}

#[test]
fn giuthi_no_moves_for_both_ends_the_game() {
    // A1 is the only pit with 2 seeds; after it neither side has a pit with 2: the game ends
    // (before the extra move) and each side keeps its own seeds.
    let rules = Rules::new(&giuthi());
    let mut g = game(&rules, "A 2 0 0 0 0 0 (0) / B 1 0 0 0 0 0 (0); A");
    // A1> : A2 (0→1), A3 (0→1): last in empty A3 before crossing.
    let r = g.play(mv(&rules, "A1>")).unwrap();
    let e = r.ending.unwrap();
    assert_eq!(e.reason, EndReason::NoMovesForBoth);
    assert!(!r.extra_turn);
    assert_eq!(e.scores, [2, 1]);
    assert_eq!(e.swept, [2, 1]);
}

#[test]
fn relay_that_never_ends_is_reported_not_hung() {
    // 2 pits a side, stores not sown, relay in the same direction: from A 0 1 / B 2 3 with B to
    // move, B2's 3 seeds go A1, A2, B1 (2→3): relay; B1's 3: B2, A1, A2 (1→3): relay; A2's 3:
    // B1, B2, A1 (2→3): relay; A1's 3: A2, B1, B2 (0→3): relay from B2 with the board back to
    // A 0 1 / B 2 3: it repeats forever.
    let mut rs = kalah(2, 2);
    rs.sowing.own_store = Include::Skip;
    rs.sowing.opponent_store = Include::Skip;
    rs.sowing.relay = Relay::Same;
    rs.extra_turn.last_in_own_store = false;
    rs.capture.kind = sowkit::ruleset::CaptureKind::None;
    let rules = Rules::new(&rs);
    let mut g = game(&rules, "A 0 1 (0) / B 2 3 (0); B");
    let before = g.position().clone();
    match g.play(mv(&rules, "B2")) {
        Err(EngineError::NonTerminating(m)) => {
            assert!(m.contains("A 0 1 (0) / B 2 3 (0); B"), "{m}");
            assert!(m.contains("B2"), "{m}");
        }
        other => panic!("expected NonTerminating, got {other:?}"),
    }
    assert_eq!(g.position(), &before);
    // Legal-move generation does not hang on it either.
    assert!(g.legal_moves().contains(&mv(&rules, "B2")));
}

#[test]
fn crossing_landed_differs_from_sown() {
    // Giuthi with "crossed" = a lap ended in B's row. A5> : 2 seeds to A6 (0→1) and B1 (0→1):
    // sown into B's row but the lap ends in empty B1: under Sown that is crossed (no extra
    // move); under Landed it is crossed too (the lap ended in B's row). A6< : 2 seeds to A5
    // and A4 (empty): no crossing either way: extra move.
    let rules = Rules::new(&giuthi());
    let mut g = game(&rules, "A 0 0 0 0 2 0 (0) / B 0 2 1 1 1 1 (0); A");
    let r = g.play(mv(&rules, "A5>")).unwrap();
    assert!(!r.extra_turn);
    let mut rs = giuthi();
    rs.capture.crossing = sowkit::ruleset::Crossing::Landed;
    let landed = Rules::new(&rs);
    // A6> : 8 seeds go round B1..B6 (1→2 each), A1 (0→1), A2 (0→1): the only lap ends in
    // empty A2. Sown: a seed went into B's row, so A captures B5 (2) and the capturing seed,
    // then A3, A4, A5, A6 (all empty) take B4, B3, B2, B1 (2 each): 11; B6 is left.
    // Landed: no lap ended in B's row: not crossed, no capture, and an extra move.
    let pos = "A 0 0 0 0 0 8 (0) / B 1 1 1 1 1 1 (0); A";
    let mut g = game(&rules, pos);
    let r = g.play(mv(&rules, "A6>")).unwrap();
    assert_eq!(rules.label(r.last), "A2");
    assert_eq!(r.captured, 11);
    assert!(!r.extra_turn);
    assert_eq!(
        format_position(&rules, g.position()),
        "A 1 0 0 0 0 0 (11) / B 0 0 0 0 0 2 (0); B"
    );
    let mut g = game(&landed, pos);
    let r = g.play(mv(&landed, "A6>")).unwrap();
    assert_eq!(r.captured, 0);
    assert!(r.extra_turn);
    // ... but A now holds single seeds only, so A passes the extra move and B moves.
    assert_eq!(r.passed, vec![0]);
    assert_eq!(
        format_position(&landed, g.position()),
        "A 1 1 0 0 0 0 (0) / B 2 2 2 2 2 2 (0); B"
    );
}

// ---- perft ----------------------------------------------------------------------------------

#[test]
fn perft_kalah_6_4_depth_1_to_5() {
    let rules = Rules::new(&kalah(6, 4));
    let g = Game::new(&rules, rules.initial());
    let want = [6, 35, 185, 942, 4690];
    for (d, &w) in want.iter().enumerate() {
        assert_eq!(perft(&g, d as u32 + 1), w, "depth {}", d + 1);
    }
}

#[test]
fn perft_oware_depth_1_to_5() {
    let rules = Rules::new(&oware());
    let g = Game::new(&rules, rules.initial());
    let want = [6, 36, 190, 1014, 5219];
    for (d, &w) in want.iter().enumerate() {
        assert_eq!(perft(&g, d as u32 + 1), w, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "depth 6: run in release (cargo test --release -- --ignored)"]
fn perft_depth_6() {
    let rules = Rules::new(&kalah(6, 4));
    assert_eq!(perft(&Game::new(&rules, rules.initial()), 6), 23233);
    let rules = Rules::new(&oware());
    assert_eq!(perft(&Game::new(&rules, rules.initial()), 6), 27332);
}

#[test]
fn grand_slam_policies() {
    use sowkit::ruleset::GrandSlam;
    // B's only move, B6, sows its seed into A1 (1→2): a capture of 2 that would empty A's row.
    let pos = "A 1 0 0 0 0 0 (23) / B 0 0 0 0 0 1 (23); B";
    let with = |policy| {
        let mut rs = oware();
        rs.grand_slam = policy;
        Rules::new(&rs)
    };
    // Capture all / illegal unless only: it is played and captures; B reaches 25: game over.
    for policy in [GrandSlam::CaptureAll, GrandSlam::IllegalUnlessOnly] {
        let rules = with(policy);
        let mut g = game(&rules, pos);
        assert_eq!(g.legal_moves(), vec![mv(&rules, "B6")]);
        let r = g.play(mv(&rules, "B6")).unwrap();
        assert!(r.grand_slam);
        assert_eq!(r.captured, 2);
        let e = r.ending.unwrap();
        assert_eq!((e.reason, e.scores), (EndReason::Threshold, [23, 25]));
    }
    // No capture: played, capture forfeited; A (A1 = 2) cannot reach B's empty row: A has no
    // legal move and the game ends, A collecting its 2 seeds.
    let rules = with(GrandSlam::NoCapture);
    let mut g = game(&rules, pos);
    let r = g.play(mv(&rules, "B6")).unwrap();
    assert!(r.grand_slam);
    assert_eq!(r.captured, 0);
    let e = r.ending.unwrap();
    assert_eq!(
        (e.reason, e.scores, e.swept),
        (EndReason::NoLegalMove, [25, 23], [2, 0])
    );
    // Illegal: B has no legal move at the start: the game is over, each side keeps its seeds.
    let rules = with(GrandSlam::Illegal);
    let g = game(&rules, pos);
    assert!(g.legal_moves().is_empty());
    let e = g.ending().unwrap();
    assert_eq!((e.reason, e.scores), (EndReason::NoLegalMove, [24, 24]));
    // With another move available (B5 → B6, no capture), the grand slam is illegal under both
    // illegal policies and legal under the others.
    let pos2 = "A 1 0 0 0 0 0 (23) / B 0 0 0 0 1 1 (22); B";
    for (policy, legal) in [
        (GrandSlam::Illegal, vec!["B5"]),
        (GrandSlam::IllegalUnlessOnly, vec!["B5"]),
        (GrandSlam::NoCapture, vec!["B5", "B6"]),
        (GrandSlam::CaptureAll, vec!["B5", "B6"]),
    ] {
        let rules = with(policy);
        let mut g = game(&rules, pos2);
        let got: Vec<String> = g
            .legal_moves()
            .into_iter()
            .map(|m| sowkit::notation::format_move(&rules, m))
            .collect();
        assert_eq!(got, legal, "{policy:?}");
        if legal.len() == 1 {
            let e = g.play(mv(&rules, "B6")).unwrap_err();
            assert!(
                matches!(e, EngineError::IllegalMove(ref s) if s.contains("grand slam")),
                "{e:?}"
            );
        }
    }
}

#[test]
fn threshold_and_half_each_end_the_game() {
    let rules = Rules::new(&oware());
    // 24 each of 48: a draw at once.
    let g = game(&rules, "A 0 0 0 0 0 0 (24) / B 0 0 0 0 0 0 (24); A");
    assert_eq!(g.ending().unwrap().reason, EndReason::Threshold);
    // 23 + 2 seeds left each side: goes on.
    let g = game(&rules, "A 0 0 0 0 1 1 (23) / B 0 0 0 0 1 1 (21); A");
    assert!(g.ending().is_none());
}

#[test]
fn oware_feeding_error_message() {
    // B's row is empty; A5's one seed stays in A's row, A6's reaches B1: only A6 is legal.
    let rules = Rules::new(&oware());
    let mut g = game(&rules, "A 0 0 0 0 1 1 (23) / B 0 0 0 0 0 0 (23); A");
    assert_eq!(g.legal_moves(), vec![mv(&rules, "A6")]);
    let e = g.play(mv(&rules, "A5")).unwrap_err();
    assert!(
        matches!(e, EngineError::IllegalMove(ref s) if s.contains("without seeds")),
        "{e:?}"
    );
}

/// The ring and who sows where, by hand for Kalah(3,3): holes 0–2 are A1–A3, 3–5 B1–B3,
/// 6 store A, 7 store B. Counter-clockwise: A1 A2 A3 storeA B1 B2 B3 storeB; clockwise from
/// A1: storeB B3 B2 B1 storeA A3 A2. A sows store A, not store B; B the other way round. In
/// Oware nobody sows a store.
#[test]
fn ring_and_sows_into() {
    let rules = Rules::new(&kalah(3, 3));
    assert_eq!(rules.ring(Dir::Ccw), vec![0, 1, 2, 6, 3, 4, 5, 7]);
    assert_eq!(rules.ring(Dir::Cw), vec![0, 7, 5, 4, 3, 6, 2, 1]);
    assert!(rules.sows_into(0, 6) && !rules.sows_into(0, 7));
    assert!(rules.sows_into(1, 7) && !rules.sows_into(1, 6));
    assert!(rules.sows_into(0, 4) && rules.sows_into(1, 1));
    let ow = Rules::new(&oware());
    assert!(!ow.sows_into(0, 12) && !ow.sows_into(1, 12) && !ow.sows_into(0, 13));
}

/// A handful that goes round the board more than once, played by `play` (seed by seed) and by
/// `play_fast` (whole laps at once): both give the board worked by hand.
///
/// Kalah(6,4): 30 seeds from A1 (hole 0). A lap is the 13 holes Kalah sows (both rows, the
/// mover's store, the origin included): 2 whole laps (26 seeds) put 2 in each, then 4 more go
/// to holes 1–4, the last in hole 4 (3 seeds: no capture). Hole 11 held 1 before.
///
/// Oware abapa: 30 seeds from hole 0. A lap is the 11 other pits (no stores, the origin
/// skipped): 2 laps (22) put 2 in each, then 8 more go to holes 1–8. The last lands in hole 8,
/// on the opponent's row, making 3: captured, then backward 7 (3) and 6 (3); hole 5 is the
/// mover's own. 9 seeds to store 0.
#[test]
fn whole_laps_sown_at_once_match_seed_by_seed() {
    let mut start = vec![0u16; 14];
    start[0] = 30;
    start[11] = 1;
    let cases = [
        (
            Rules::new(&kalah(6, 4)),
            vec![2, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 3, 2, 0],
            4u8,
            0u16,
        ),
        (
            Rules::new(&oware()),
            vec![0, 3, 3, 3, 3, 3, 0, 0, 0, 2, 2, 3, 9, 0],
            8,
            9,
        ),
    ];
    for (rules, want, last, captured) in cases {
        let pos = sowkit::engine::Position {
            holes: start.clone(),
            to_move: 0,
        };
        let m = Move {
            pit: 0,
            dir: Dir::Ccw,
        };
        let mut full = Game::new(&rules, pos.clone());
        let report = full.play(m).unwrap();
        let mut fast = Game::new(&rules, pos);
        let outcome = fast.play_fast(m).unwrap();
        assert_eq!(full.position().holes, want, "{}", rules.ruleset().id);
        assert_eq!(fast.position().holes, want, "{}", rules.ruleset().id);
        assert_eq!((report.last, report.captured), (last, captured));
        assert_eq!((outcome.last, outcome.captured), (last, captured));
    }
}

/// The rule sheet's capture sentences follow `capture.side` and the engine (a break-it pass
/// found three that did not). Each engine result is worked by hand in the comment; the sheet
/// must say what a player needs to reach it.
#[test]
fn capture_sentences_follow_the_side_and_the_engine() {
    use sowkit::layout::phrases::Phrases;
    use sowkit::layout::rules::{blocks, Block};
    use sowkit::ruleset::{CaptureKind, Chain, RowSide};
    let ph = Phrases::load("en").unwrap();
    let text = rules_text;
    let legend = |rs: &sowkit::ruleset::Ruleset| {
        sowkit::layout::board::legend_lines(rs, &ph, false).join("\n")
    };

    // (a) Opposite capture into an empty own pit, the last seed left where it lands, seeds not
    // required across. A1's one seed lands in the empty A2; across is B3, empty: nothing is
    // taken and the seed stays (A 0 1 3 0 (8)). The sheet said the lone seed went to the store.
    let mut a = kalah(4, 3);
    a.capture.opposite_must_have_seeds = false;
    a.capture.take_capturing_seed = false;
    let rules = Rules::new(&a);
    let mut g = game(&rules, "A 1 0 3 0 (8) / B 0 3 0 3 (6); A");
    let r = g.play(mv(&rules, "A1")).unwrap();
    assert_eq!(r.captured, 0);
    assert_eq!(
        format_position(&rules, g.position()),
        "A 0 1 3 0 (8) / B 0 3 0 3 (6); B"
    );
    let t = text(&a);
    assert!(
        t.contains("Nothing happens if the pit across is empty."),
        "{t}"
    );
    assert!(!t.contains("lone last seed"), "{t}");

    // (b) Count capture in the mover's own row, chain backward. A3's 5 seeds: store A, B1, B2,
    // B3, A1 (B's store skipped); A1 now holds 2: captured. Stepping back from A1 leaves A's
    // row, so the chain stops: 2 taken, not B3, B2 and B1 as "the end of your opponent's row"
    // had a player go on.
    let mut b = kalah(3, 3);
    b.capture.kind = CaptureKind::Count;
    b.capture.counts = vec![2, 3];
    b.capture.chain = Chain::Backward;
    b.capture.last_pit_was_empty = false;
    let rules = Rules::new(&b);
    let mut g = game(&rules, "A 1 0 5 (2) / B 1 1 2 (6); A");
    let r = g.play(mv(&rules, "A3")).unwrap();
    assert_eq!(
        labels(&rules, &r.laps[0].sown),
        ["store A", "B1", "B2", "B3", "A1"]
    );
    assert_eq!(r.captured, 2);
    let t = text(&b);
    // Captures in your own row never take from the opponent's: no grand slam to speak of.
    let headings = |rs: &sowkit::ruleset::Ruleset| -> Vec<String> {
        blocks(rs, &ph)
            .into_iter()
            .filter_map(|b| match b {
                Block::Heading(h) => Some(h),
                _ => None,
            })
            .collect()
    };
    assert!(
        !headings(&b).iter().any(|h| h == "Grand slam"),
        "{:?}",
        headings(&b)
    );
    assert!(
        headings(&a).iter().any(|h| h == "Grand slam"),
        "{:?}",
        headings(&a)
    );
    assert!(t.contains("or at the end of your own row."), "{t}");
    assert!(!t.contains("your opponent's row."), "{t}");
    assert!(
        legend(&b).contains("while your own pits still qualify"),
        "{}",
        legend(&b)
    );

    // (c) Opposite capture in the opponent's row, the last seed left, chain following empty
    // pits. A2's 4 seeds: A3, A4, store A, B1; B1 (was empty) faces A4 (1): taken. The chain
    // steps on along B's row: B2 is empty and faces A3 (2): taken; B3 faces A2, empty: stop.
    // 3 captured. The sheet said "each following pit of your own".
    let mut c = kalah(4, 3);
    c.capture.side = RowSide::Opponent;
    c.capture.last_pit_was_empty = false;
    c.capture.opposite_must_have_seeds = false;
    c.capture.take_capturing_seed = false;
    c.capture.chain = Chain::FollowingEmpty;
    c.extra_turn.empty_pit_before_crossing = true;
    let rules = Rules::new(&c);
    let mut g = game(&rules, "A 0 4 1 0 (8) / B 0 0 0 5 (6); A");
    let r = g.play(mv(&rules, "A2")).unwrap();
    assert_eq!(r.captured, 3);
    let t = text(&c);
    assert!(
        t.contains("each following pit in your opponent's row that is empty"),
        "{t}"
    );
    assert!(
        t.contains("Even when the pit across is empty, go on to the pits that follow"),
        "{t}"
    );
    assert!(
        !t.contains("Nothing happens if the pit across is empty."),
        "{t}"
    );
    assert!(
        legend(&c).contains("through your opponent's empty pits"),
        "{}",
        legend(&c)
    );

    // (d) Relay sowing with the mover's store sown: a handful ending in the store ends the
    // move too (A1's 3 seeds: A2, A3, store A; the store is not a pit to relay from).
    let mut d = kalah(3, 3);
    d.sowing.relay = sowkit::ruleset::Relay::Same;
    let rules = Rules::new(&d);
    let mut g = game(&rules, "A 3 0 0 (0) / B 3 3 3 (6); A");
    let r = g.play(mv(&rules, "A1")).unwrap();
    assert_eq!(r.laps.len(), 1);
    assert_eq!(rules.label(r.last), "store A");
    let t = text(&d);
    assert!(t.contains("lands in an empty pit or in a store."), "{t}");
}

/// Who passes under `no_legal_move = "pass"`: feeding and a grand-slam ban remove moves as
/// well as pits too poor to play, so a player holding seeds can have none, and the sheet must
/// say so (a break-it pass found it saying "no pit of theirs holds 1 seed or more"). Kalah
/// 3×3 with a threshold end and passing; each position worked by hand.
#[test]
fn the_pass_sentence_names_every_way_to_have_no_move() {
    use sowkit::ruleset::{GrandSlam, NoLegalMove};
    let text = rules_text;
    let mut base = kalah(3, 3);
    base.end.either_side_empty = false;
    base.end.threshold = Some(10);
    base.end.no_legal_move = NoLegalMove::Pass;

    // Grand slam banned. A1's one seed lands in the empty A2; across is B2 with 4, the only
    // seeds in B's row: capturing them (and the lone seed) would empty B's row, a grand slam,
    // so A1 is not allowed, and A has no other pit with seeds: A passes, B moves.
    let mut slam = base.clone();
    slam.grand_slam = GrandSlam::Illegal;
    let rules = Rules::new(&slam);
    let g = game(&rules, "A 1 0 0 (8) / B 0 4 0 (5); A");
    assert_eq!(
        format_position(&rules, g.position()),
        "A 1 0 0 (8) / B 0 4 0 (5); B"
    );
    let t = text(&slam);
    assert!(
        t.contains(
            "no pit of theirs holds 1 seed or more, or every move of theirs would be a grand slam"
        ),
        "{t}"
    );

    // Feeding. B's row is empty; A1's seed goes to A2 and A2's to A3: neither reaches B's row,
    // so A has no legal move, passes, and B (no seeds) cannot move either: the game ends.
    let mut feed = base.clone();
    feed.feeding.must_feed = true;
    let rules = Rules::new(&feed);
    let g = game(&rules, "A 1 1 0 (8) / B 0 0 0 (8); A");
    assert!(g.legal_moves().is_empty());
    assert!(g.ending().is_some());
    let t = text(&feed);
    assert!(
        t.contains("no pit of theirs holds 1 seed or more, or no move of theirs can feed their opponent's empty row"),
        "{t}"
    );
    assert!(t.contains("if no move does, you have no legal move"), "{t}");

    // Neither: seeds are the only reason, as before.
    let t = text(&base);
    assert!(
        t.contains("A player with no legal move (no pit of theirs holds 1 seed or more) passes."),
        "{t}"
    );
    // A ban that never removes the last move (unless it is the only kind) changes nothing.
    let mut only = base.clone();
    only.grand_slam = GrandSlam::IllegalUnlessOnly;
    assert!(text(&only).contains("(no pit of theirs holds 1 seed or more) passes."));
}

/// Seeds reach a store by being sown into one or by a capture (the rules text); without
/// either, none does. Worked by hand for each combination: Kalah sows its own store and
/// captures; Oware and Giuthi sow no store but capture; Kalah with captures turned off
/// still sows its store; only both stores skipped and no captures gives true, and sowing
/// either store (own or opponent's) alone makes it false again.
#[test]
fn no_seed_reaches_a_store_only_without_sowing_into_stores_or_captures() {
    use sowkit::ruleset::CaptureKind;
    assert!(!kalah(6, 4).no_seed_reaches_a_store());
    assert!(!oware().no_seed_reaches_a_store());
    assert!(!giuthi().no_seed_reaches_a_store());
    let mut r = kalah(6, 4);
    r.capture.kind = CaptureKind::None;
    assert!(!r.no_seed_reaches_a_store());
    r.sowing.own_store = Include::Skip;
    r.sowing.opponent_store = Include::Skip;
    assert!(r.no_seed_reaches_a_store());
    r.sowing.opponent_store = Include::Sow;
    assert!(!r.no_seed_reaches_a_store());
    let mut o = oware();
    o.capture.kind = CaptureKind::None;
    assert!(o.no_seed_reaches_a_store());
}
