//! Conformance with OpenSpiel 2.0.2 transcripts and unit-test positions (tests/fixtures, copied
//! from the research's conformance folder; layouts in tests/fixtures/CONFORMANCE.md).
//!
//! Index mapping. Kalah ring (14 cells): 0 = north store (side 1, our hole 13), 1..6 = south
//! pits (side 0, our holes 0..5), 7 = south store (our hole 12), 8..13 = north pits (our holes
//! 6..11). Oware houses 0..11 are our holes 0..11 and the two scores are our stores 12, 13.

use crate::common::*;
use sowkit::engine::{Dir, EndReason, Game, Move, Position, Rules};

fn ring_to_hole(r: i64) -> usize {
    match r {
        0 => 13,
        1..=6 => (r - 1) as usize,
        7 => 12,
        8..=13 => (r - 2) as usize,
        _ => panic!("ring index {r}"),
    }
}

fn ring_to_holes(ring: &[i64]) -> Vec<u16> {
    let mut h = vec![0u16; 14];
    for (r, &v) in ring.iter().enumerate() {
        h[ring_to_hole(r as i64)] = v as u16;
    }
    h
}

/// Each row swept into its own store (the Kalah / Oware end rule), for comparing a reference
/// board that OpenSpiel leaves unswept with our swept final position.
fn swept(h: &[u16], n: usize) -> Vec<u16> {
    let mut h = h.to_vec();
    for side in 0..2 {
        let s: u16 = h[side * n..side * n + n].iter().sum();
        for x in &mut h[side * n..side * n + n] {
            *x = 0;
        }
        h[2 * n + side] += s;
    }
    h
}

fn row_empty(h: &[u16], n: usize, side: usize) -> bool {
    h[side * n..side * n + n].iter().all(|&x| x == 0)
}

fn total(p: &Position) -> u32 {
    p.holes.iter().map(|&x| x as u32).sum()
}

#[test]
fn kalah_6_4_random_game_matches_openspiel() {
    let rules = Rules::new(&kalah(6, 4));
    let j = fixture("kalah_6_4_random_1.json");
    let mut g = Game::new(&rules, rules.initial());
    let plies = j.get("plies").arr();
    assert_eq!(plies.len(), 13);
    for p in plies {
        let ply = p.get("ply").num();
        let player = p.get("player").num() as u8;
        assert_eq!(g.position().to_move, player, "ply {ply}: player");
        let pit = ring_to_hole(p.get("action").num()) as u8;
        let mv = Move { pit, dir: Dir::Ccw };
        assert!(g.legal_moves().contains(&mv), "ply {ply}: move legal");
        let rep = g.play(mv).unwrap();
        assert_eq!(rep.laps.len(), 1);
        assert_eq!(
            rep.laps[0].lifted as i64,
            p.get("seeds_lifted").num(),
            "ply {ply}: lifted"
        );
        assert_eq!(
            rep.last as usize,
            ring_to_hole(p.get("last_seed_ring_index").num()),
            "ply {ply}: last"
        );
        assert_eq!(
            rep.captured as i64,
            p.get("captured_to_store").num(),
            "ply {ply}: captured"
        );
        assert_eq!(total(g.position()), 48, "ply {ply}: seeds conserved");
        let reference = ring_to_holes(&p.get("openspiel_ring_after").nums());
        let terminal = p.get("terminal").bool();
        assert_eq!(rep.ending.is_some(), terminal, "ply {ply}: terminal");
        if terminal {
            // The final move ends in the own store, but the game ends before the extra turn.
            assert!(p.get("extra_turn").bool());
            assert_eq!(rep.last, rules.store(player));
            assert!(!rep.extra_turn);
            assert_eq!(rep.next, None);
            let e = rep.ending.unwrap();
            assert_eq!(e.reason, EndReason::SideEmpty);
            let scores = j.get("final_scores_with_sweep").nums();
            assert_eq!(e.scores.map(|x| x as i64).to_vec(), scores);
            assert_eq!(g.position().holes, swept(&reference, 6));
            let rows: Vec<u16> = (0..2)
                .map(|s| reference[s * 6..s * 6 + 6].iter().sum())
                .collect();
            assert_eq!(e.swept.to_vec(), rows);
        } else {
            assert_eq!(g.position().holes, reference, "ply {ply}: board");
            assert_eq!(
                rep.extra_turn,
                p.get("extra_turn").bool(),
                "ply {ply}: extra turn"
            );
            assert_eq!(
                rep.next.map(|x| x as i64),
                Some(p.get("to_move_after").num())
            );
        }
    }
    assert!(g.legal_moves().is_empty());
}

/// Plays a Kalah edge case under `rules`, checking the board after against `after` (an
/// OpenSpiel ring); the game is over exactly when a row of the reference is empty.
fn kalah_case(rules: &Rules, before: &[i64], to_move: u8, action: i64, after: &[i64], id: &str) {
    let pos = Position {
        holes: ring_to_holes(before),
        to_move,
    };
    let mut g = Game::new(rules, pos);
    let t = total(g.position());
    let rep = g
        .play(Move {
            pit: ring_to_hole(action) as u8,
            dir: Dir::Ccw,
        })
        .unwrap();
    let reference = ring_to_holes(after);
    let over = row_empty(&reference, 6, 0) || row_empty(&reference, 6, 1);
    assert_eq!(rep.ending.is_some(), over, "{id}: over");
    if over {
        assert_eq!(g.position().holes, swept(&reference, 6), "{id}: board");
    } else {
        assert_eq!(g.position().holes, reference, "{id}: board");
    }
    assert_eq!(total(g.position()), t, "{id}: seeds conserved");
}

#[test]
fn kalah_edge_cases_match_openspiel_both_capture_rules() {
    let standard = Rules::new(&kalah(6, 4));
    let empty = Rules::new(&kalah_empty_capture(6, 4));
    let cases = fixture("edge_cases.json");
    let mut seen = 0;
    for c in cases.arr() {
        let id_owned = c.get("id");
        let id = id_owned.str();
        if !id.starts_with("kalah_") {
            continue;
        }
        seen += 1;
        if !c.get("ring_before").is_null() {
            let before = c.get("ring_before").nums();
            let to_move = c.get("to_move").num() as u8;
            let action = c.get("action").num();
            kalah_case(
                &standard,
                &before,
                to_move,
                action,
                &c.get("standard_rule_ring_after").nums(),
                id,
            );
            kalah_case(
                &empty,
                &before,
                to_move,
                action,
                &c.get("empty_capture_rule_ring_after").nums(),
                id,
            );
            // The event's last hole is a ring index.
            let mut g = Game::new(
                &standard,
                Position {
                    holes: ring_to_holes(&before),
                    to_move,
                },
            );
            let rep = g
                .play(Move {
                    pit: ring_to_hole(action) as u8,
                    dir: Dir::Ccw,
                })
                .unwrap();
            let ev = c.get("event");
            assert_eq!(
                rep.last as usize,
                ring_to_hole(ev.get("last").num()),
                "{id}"
            );
            assert_eq!(rep.captured as i64, ev.get("captured").num(), "{id}");
            assert_eq!(rep.extra_turn, ev.get("extra_turn").bool(), "{id}");
        } else {
            // A 13-seed lap from the mover's rightmost pit lands in the emptied origin: capture.
            let moves = c.get("moves_from_start").nums();
            let mut g = Game::new(&standard, standard.initial());
            let (last, rest) = moves.split_last().unwrap();
            for &a in rest {
                g.play(Move {
                    pit: ring_to_hole(a) as u8,
                    dir: Dir::Ccw,
                })
                .unwrap();
            }
            assert_eq!(
                g.position().holes,
                ring_to_holes(&c.get("ring_before_last_move").nums()),
                "{id}: before"
            );
            let before = c.get("ring_before_last_move").nums();
            let to_move = g.position().to_move;
            assert_eq!(
                g.position().holes[ring_to_hole(*last)],
                13,
                "{id}: 13 seeds"
            );
            kalah_case(
                &standard,
                &before,
                to_move,
                *last,
                &c.get("openspiel_ring_after").nums(),
                id,
            );
            let rep = g
                .play(Move {
                    pit: ring_to_hole(*last) as u8,
                    dir: Dir::Ccw,
                })
                .unwrap();
            assert_eq!(rep.last, rep.mv.pit, "{id}: lands in the origin");
            assert!(rep.captured > 1, "{id}: captures");
        }
    }
    assert_eq!(seen, 5);
}

fn oware_pos(houses: &[i64], score: &[i64], to_move: u8) -> Position {
    let mut holes: Vec<u16> = houses.iter().map(|&x| x as u16).collect();
    holes.push(score[0] as u16);
    holes.push(score[1] as u16);
    Position { holes, to_move }
}

#[test]
fn oware_edge_cases_match_openspiel() {
    let cases = fixture("edge_cases.json");
    let mut seen = 0;
    for c in cases.arr() {
        let id_owned = c.get("id");
        let id = id_owned.str();
        if !id.starts_with("oware_") {
            continue;
        }
        seen += 1;
        let to_move = c.get("to_move").num() as u8;
        let pos = oware_pos(
            &c.get("houses_before").nums(),
            &c.get("score").nums(),
            to_move,
        );
        // OpenSpiel ends the game when a score exceeds half of the seeds on this board.
        let t = total(&pos);
        let rules = Rules::new(&oware_with_threshold((t / 2 + 1) as u16));
        let exp = c.get("expected");
        let to_hole = |a: i64| (6 * to_move as i64 + a) as u8;
        if !exp.get("legal").is_null() {
            let g = Game::new(&rules, pos.clone());
            let want = oware_moves(&exp.get("legal"), to_move);
            assert_eq!(g.legal_moves(), want, "{id}");
            continue;
        }
        if !c.get("actions_relative").is_null() {
            // Repetition: 12 single-seed moves bring back the start with A to move.
            let mut g = Game::new(&rules, pos.clone());
            let acts = c.get("actions_relative").nums();
            for (i, &a) in acts.iter().enumerate() {
                let p = g.position().to_move as i64;
                let rep = g
                    .play(Move {
                        pit: (6 * p + a) as u8,
                        dir: Dir::Ccw,
                    })
                    .unwrap();
                if i == 9 {
                    let want: Vec<u16> = exp
                        .get("after_10_moves_not_terminal_houses")
                        .nums()
                        .iter()
                        .map(|&x| x as u16)
                        .collect();
                    assert_eq!(&g.position().holes[..12], &want[..], "{id}");
                    assert!(rep.ending.is_none());
                }
                if i < 11 {
                    assert!(rep.ending.is_none(), "{id}: move {i} not terminal");
                }
            }
            let e = g.ending().expect("repetition ends the game");
            assert_eq!(e.reason, EndReason::Repetition);
            let want = exp.get("after_12_moves").get("score").nums();
            assert_eq!(e.scores.map(|x| x as i64).to_vec(), want, "{id}");
            continue;
        }
        let a = c.get("action_relative").num();
        let mut g = Game::new(&rules, pos.clone());
        let rep = g
            .play(Move {
                pit: to_hole(a),
                dir: Dir::Ccw,
            })
            .unwrap();
        let houses: Vec<u16> = exp.get("houses").nums().iter().map(|&x| x as u16).collect();
        let score = exp.get("score").nums();
        assert_eq!(&g.position().holes[..12], &houses[..], "{id}: houses");
        assert_eq!(g.position().holes[12] as i64, score[0], "{id}: score A");
        assert_eq!(g.position().holes[13] as i64, score[1], "{id}: score B");
        assert_eq!(total(g.position()), t, "{id}: conserved");
        let over = houses.iter().all(|&x| x == 0);
        assert_eq!(rep.ending.is_some(), over, "{id}: over");
        if !over {
            assert_eq!(
                rep.next.map(|x| x as i64),
                Some(exp.get("to_move").num()),
                "{id}"
            );
        } else {
            assert_eq!(rep.ending.unwrap().reason, EndReason::Threshold, "{id}");
        }
        if id == "oware_grand_slam_captures_nothing" {
            assert!(rep.grand_slam && rep.captured == 0);
            let mut rs = oware_with_threshold((t / 2 + 1) as u16);
            rs.grand_slam = sowkit::ruleset::GrandSlam::Illegal;
            let illegal = Rules::new(&rs);
            let g = Game::new(&illegal, pos.clone());
            let want = oware_moves(&c.get("legal_if_grand_slam_is_illegal_variant"), to_move);
            assert_eq!(g.legal_moves(), want, "{id}: illegal variant");
        }
    }
    assert_eq!(seen, 8);
}

/// Replays a transcript; returns the number of grand slams.
fn oware_transcript(name: &str, reason: EndReason) -> usize {
    let rules = Rules::new(&oware());
    let j = fixture(name);
    let mut g = Game::new(&rules, rules.initial());
    let plies = j.get("plies").arr();
    let mut slams = 0;
    for p in plies {
        let ply = p.get("ply").num();
        let player = p.get("player").num() as u8;
        assert_eq!(g.position().to_move, player, "{name} ply {ply}: player");
        let hole = p.get("house_index").num() as u8;
        assert_eq!(hole as i64, 6 * player as i64 + p.get("action").num());
        let mv = Move {
            pit: hole,
            dir: Dir::Ccw,
        };
        assert!(g.legal_moves().contains(&mv), "{name} ply {ply}: legal");
        let rep = g.play(mv).unwrap();
        assert_eq!(
            rep.laps[0].lifted as i64,
            p.get("seeds_lifted").num(),
            "{name} ply {ply}"
        );
        assert_eq!(
            rep.last as i64,
            p.get("last_seed_house").num(),
            "{name} ply {ply}: last"
        );
        assert_eq!(
            rep.captured as i64,
            p.get("captured").num(),
            "{name} ply {ply}: captured"
        );
        assert_eq!(
            rep.grand_slam,
            p.get("grand_slam_forfeited").bool(),
            "{name} ply {ply}: grand slam"
        );
        if rep.grand_slam {
            slams += 1;
            assert_eq!(rep.captured, 0);
        }
        if rep.laps[0].lifted >= 12 {
            assert!(
                !rep.laps[0].sown.contains(&hole),
                "{name} ply {ply}: origin skipped"
            );
        }
        assert_eq!(total(g.position()), 48);
        let houses: Vec<u16> = p
            .get("houses_after")
            .nums()
            .iter()
            .map(|&x| x as u16)
            .collect();
        let scores = p.get("scores_after").nums();
        assert_eq!(
            &g.position().holes[..12],
            &houses[..],
            "{name} ply {ply}: houses"
        );
        assert_eq!(
            g.position().holes[12] as i64,
            scores[0],
            "{name} ply {ply}: score A"
        );
        assert_eq!(
            g.position().holes[13] as i64,
            scores[1],
            "{name} ply {ply}: score B"
        );
        let terminal = p.get("terminal").bool();
        assert_eq!(rep.ending.is_some(), terminal, "{name} ply {ply}: terminal");
        if terminal {
            assert_eq!(rep.ending.as_ref().unwrap().reason, reason);
            assert_eq!(
                rep.ending.unwrap().scores.map(|x| x as i64).to_vec(),
                j.get("final_scores").nums()
            );
        } else {
            assert_eq!(
                rep.next.map(|x| x as i64),
                Some(p.get("to_move_after").num())
            );
        }
    }
    assert!(g.ending().is_some());
    slams
}

#[test]
fn oware_random_game_1_matches_openspiel() {
    // Grand slam forfeited at ply 37, origin skipped on 12+ sowings, ends past 24.
    assert_eq!(
        oware_transcript("oware_abapa_random_1.json", EndReason::Threshold),
        1
    );
    let j = fixture("oware_abapa_random_1.json");
    assert!(j.get("plies").arr()[36].get("grand_slam_forfeited").bool());
}

#[test]
fn oware_random_game_3_matches_openspiel() {
    // Ends because the mover cannot feed the empty opponent.
    assert_eq!(
        oware_transcript("oware_abapa_random_3.json", EndReason::NoLegalMove),
        0
    );
}

/// OpenSpiel Oware actions (house 0–5 of the player to move) as our moves: house 6p+a.
fn oware_moves(actions: &Json, to_move: u8) -> Vec<Move> {
    actions
        .nums()
        .into_iter()
        .map(|a| Move {
            pit: (6 * to_move as i64 + a) as u8,
            dir: Dir::Ccw,
        })
        .collect()
}
