//! The specialised single-lap core (Kalah-like rules; `src/engine/rules.rs`, `SingleLap`):
//! when the rules choose it, moves worked by hand, the same games as the plain C reference loop
//! (`../shared/bench/kalah_ceiling.c`), and move-by-move agreement with the general core over
//! every rule parameter the single-lap core reads.

use crate::common;

use sowkit::engine::{Dir, EndReason, EngineError, Game, Move, MoveList, Position, Report, Rules};
use sowkit::ruleset::{
    CaptureKind, Chain, Direction, GrandSlam, Include, NoLegalMove, Relay, Remaining, RowSide,
    Ruleset,
};

/// A named change to a ruleset.
type Tweak = (&'static str, fn(&mut Ruleset));

fn pos(holes: &[u16], to_move: u8) -> Position {
    Position {
        holes: holes.to_vec(),
        to_move,
    }
}

fn ccw(pit: u8) -> Move {
    Move { pit, dir: Dir::Ccw }
}

#[test]
fn single_lap_core_is_chosen_from_the_rules_parameters() {
    assert!(Rules::new(&common::kalah(6, 4)).has_single_lap_core());
    assert!(Rules::new(&common::kalah(16, 6)).has_single_lap_core());
    assert!(Rules::new(&common::kalah_empty_capture(6, 4)).has_single_lap_core());
    assert!(!Rules::new(&common::oware()).has_single_lap_core());
    assert!(!Rules::new(&common::kalah(6, 4))
        .with_general_core()
        .has_single_lap_core());
    // Each parameter outside the single-lap core's reach turns it off on Kalah.
    let offs: Vec<Tweak> = vec![
        ("either direction", |r| {
            r.sowing.direction = Direction::Either
        }),
        ("relay", |r| r.sowing.relay = Relay::Same),
        ("origin skipped", |r| r.sowing.origin_on_lap = Include::Skip),
        ("two seeds to move", |r| r.sowing.min_seeds = 2),
        ("count capture", |r| {
            r.capture.kind = CaptureKind::Count;
            r.capture.counts = vec![2, 3];
        }),
        ("following-empty chain", |r| {
            r.capture.chain = Chain::FollowingEmpty
        }),
        ("after crossing", |r| r.capture.after_crossing_only = true),
        ("grand slam illegal", |r| r.grand_slam = GrandSlam::Illegal),
        ("feeding", |r| r.feeding.must_feed = true),
        ("no side-empty end", |r| r.end.either_side_empty = false),
        ("threshold", |r| r.end.threshold = Some(25)),
        ("repetition", |r| r.end.repetition = true),
        ("extra turn before crossing", |r| {
            r.extra_turn.empty_pit_before_crossing = true
        }),
    ];
    for (what, f) in offs {
        let mut rs = common::kalah(6, 4);
        f(&mut rs);
        assert!(!Rules::new(&rs).has_single_lap_core(), "{what}");
    }
}

// Kalah(6,4) holes: A1..A6 = 0..5, B1..B6 = 6..11, store A = 12, store B = 13; A1 is opposite
// B6 (hole 11), A2 opposite B5 (hole 10).

#[test]
fn hand_worked_extra_turn_from_the_start() {
    // A3 (hole 2) lifts 4 and sows A4, A5, A6, store A: the last seed in A's store, A again.
    let rules = Rules::new(&common::kalah(6, 4));
    let mut g = Game::new(&rules, rules.initial());
    let o = g.play_fast(ccw(2)).unwrap();
    assert_eq!(o.last, 12);
    assert!(o.extra_turn);
    assert_eq!(o.captured, 0);
    assert_eq!(o.next, Some(0));
    assert_eq!(
        g.position(),
        &pos(&[4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4, 1, 0], 0)
    );
}

#[test]
fn hand_worked_capture_of_the_opposite_pit() {
    // A1 (1 seed) sows into the empty A2; B5 opposite holds 5: 5 + the capturing seed = 6 go
    // to A's store. B's row keeps 8 seeds, so no grand slam; B moves next.
    let rules = Rules::new(&common::kalah(6, 4));
    let start = pos(&[1, 0, 0, 0, 0, 3, 2, 2, 2, 2, 5, 2, 0, 0], 0);
    let mut g = Game::new(&rules, start.clone());
    let o = g.play_fast(ccw(0)).unwrap();
    assert_eq!(
        (o.last, o.captured, o.grand_slam, o.extra_turn),
        (1, 6, false, false)
    );
    assert_eq!(o.next, Some(1));
    assert_eq!(
        g.position(),
        &pos(&[0, 0, 0, 0, 0, 3, 2, 2, 2, 2, 0, 2, 6, 0], 1)
    );
    // The full report lists the opposite pit, then the capturing seed.
    let mut g = Game::new(&rules, start);
    let r = g.play(ccw(0)).unwrap();
    assert_eq!(r.captures, vec![(10, 5), (1, 1)]);
    assert_eq!(r.laps.len(), 1);
    assert_eq!(r.laps[0].sown, vec![1]);
}

#[test]
fn hand_worked_grand_slam_both_policies() {
    // B's only seeds are the 5 in B5, opposite A2: A1 -> A2 takes them all (a grand slam).
    let start = pos(&[1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0], 0);
    // Capture-all: 6 to A's store, B's row is empty, the game ends and A's 3 go to A.
    let rules = Rules::new(&common::kalah(6, 4));
    let mut g = Game::new(&rules, start.clone());
    let o = g.play_fast(ccw(0)).unwrap();
    assert!(o.grand_slam);
    assert_eq!((o.captured, o.next), (6, None));
    let e = g.ending().unwrap();
    assert_eq!(e.reason, EndReason::SideEmpty);
    assert_eq!((e.swept, e.scores), ([3, 0], [9, 0]));
    // No-capture: the seeds stay, B moves.
    let mut rs = common::kalah(6, 4);
    rs.grand_slam = GrandSlam::NoCapture;
    let rules = Rules::new(&rs);
    assert!(rules.has_single_lap_core());
    let mut g = Game::new(&rules, start);
    let o = g.play_fast(ccw(0)).unwrap();
    assert!(o.grand_slam);
    assert_eq!((o.captured, o.next), (0, Some(1)));
    assert_eq!(
        g.position(),
        &pos(&[0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0], 1)
    );
}

#[test]
fn hand_worked_whole_laps() {
    // A1 holds 30; A sows 13 holes a lap (6 own pits, own store, 6 of B's; the origin too).
    // 30 = 2 laps (26) + 4: every sown hole +2, then A2..A5 +1; the last seed in A5 (now 3,
    // not empty: no capture). 30 + 6 = 36 seeds before and after.
    let rules = Rules::new(&common::kalah(6, 4));
    let start = pos(&[30, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0], 0);
    let mut g = Game::new(&rules, start.clone());
    let o = g.play_fast(ccw(0)).unwrap();
    assert_eq!((o.last, o.captured, o.next), (4, 0, Some(1)));
    let after = pos(&[2, 3, 3, 3, 3, 2, 3, 3, 3, 3, 3, 3, 2, 0], 1);
    assert_eq!(g.position(), &after);
    // Seed by seed (the full report) gives the same, and lists all 30 holes.
    let mut g = Game::new(&rules, start);
    let r = g.play(ccw(0)).unwrap();
    assert_eq!(g.position(), &after);
    assert_eq!(r.laps[0].sown.len(), 30);
    assert_eq!(
        &r.laps[0].sown[..14],
        &[1, 2, 3, 4, 5, 12, 6, 7, 8, 9, 10, 11, 0, 1]
    );
}

#[test]
fn illegal_moves_are_refused_with_the_general_reasons() {
    let rules = Rules::new(&common::kalah(6, 4));
    let general = rules.with_general_core();
    let start = pos(&[0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0], 0);
    for mv in [
        ccw(0),
        ccw(7),
        ccw(12),
        ccw(40),
        Move {
            pit: 1,
            dir: Dir::Cw,
        },
    ] {
        let a = Game::new(&rules, start.clone()).play_fast(mv);
        let b = Game::new(&general, start.clone()).play_fast(mv);
        assert!(
            matches!(a, Err(EngineError::IllegalMove(_))),
            "{mv:?}: {a:?}"
        );
        assert_eq!(a, b, "{mv:?}");
    }
    // After the end: game over on both.
    let over = pos(&[0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 24, 0], 0);
    let mut g = Game::new(&rules, over);
    assert!(g.is_over());
    assert_eq!(g.play_fast(ccw(0)), Err(EngineError::GameOver));
}

/// The C reference loop's generator and move choice (xorshift64 13/7/17 from its seed,
/// `next % moves`), so that the engine plays the C loop's very games.
struct CRng(u64);
impl CRng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Whole random games from the start until at least `min_plies`: (plies, games, side 0's
/// final scores summed), as the C loop counts them.
fn c_loop_games(rules: &Rules, min_plies: u64) -> (u64, u64, u64) {
    let start = rules.initial();
    let mut g = Game::new(rules, start.clone());
    let mut moves = MoveList::new();
    let mut rng = CRng(88_172_645_463_325_252);
    let (mut plies, mut games, mut sum) = (0, 0, 0);
    while plies < min_plies {
        g.reset(&start).unwrap();
        loop {
            g.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play_fast(moves.as_slice()[rng.below(moves.len())])
                .unwrap();
            plies += 1;
        }
        sum += g.ending().unwrap().scores[0] as u64;
        games += 1;
    }
    (plies, games, sum)
}

#[test]
fn the_c_reference_loops_games() {
    // `../shared/bench/kalah_ceiling.c` (an independent plain-array Kalah(6,4) with standard
    // capture and the sweep at the end), its ply bound set to 100000, printed
    // "100026 plies, 2247 games ... (checksum 54191)"; the checksum is South's final score
    // summed over the games. Both cores must play exactly those games.
    let rules = Rules::new(&common::kalah(6, 4));
    assert_eq!(c_loop_games(&rules, 100_000), (100_026, 2_247, 54_191));
    assert_eq!(
        c_loop_games(&rules.with_general_core(), 100_000),
        (100_026, 2_247, 54_191)
    );
}

/// Rulesets over every parameter the single-lap core reads, each with the core chosen.
fn variants() -> Vec<(String, Ruleset)> {
    let mut v = Vec::new();
    // 7 pits: the largest board of the sowing tables (16 holes); 8: the largest row of the
    // legal-move table, sown seed by seed.
    for n in [1usize, 2, 3, 6, 7, 8, 9, 16] {
        for seeds in [1u16, 3, 4, 6, 12] {
            v.push((format!("kalah({n},{seeds})"), common::kalah(n, seeds)));
        }
    }
    let tweaks: Vec<Tweak> = vec![
        ("empty capture", |r| {
            r.capture.opposite_must_have_seeds = false
        }),
        ("clockwise", |r| r.sowing.direction = Direction::Clockwise),
        ("opponent store sown", |r| {
            r.sowing.opponent_store = Include::Sow
        }),
        ("own store skipped", |r| r.sowing.own_store = Include::Skip),
        ("no capture", |r| r.capture.kind = CaptureKind::None),
        ("capture on the opponent's row", |r| {
            r.capture.side = RowSide::Opponent
        }),
        ("capturing seed kept", |r| {
            r.capture.take_capturing_seed = false
        }),
        ("landing anywhere captures", |r| {
            r.capture.last_pit_was_empty = false
        }),
        ("backward chain (ignored by opposite)", |r| {
            r.capture.chain = Chain::Backward
        }),
        ("grand slam no capture", |r| {
            r.grand_slam = GrandSlam::NoCapture
        }),
        ("sweep to the mover", |r| {
            r.end.remaining_seeds = Remaining::Mover
        }),
        ("sweep to the opponent", |r| {
            r.end.remaining_seeds = Remaining::Opponent
        }),
        ("no extra turn", |r| r.extra_turn.last_in_own_store = false),
        ("pass rule", |r| r.end.no_legal_move = NoLegalMove::Pass),
    ];
    for (what, f) in tweaks {
        for (n, seeds) in [(6usize, 4u16), (4, 3), (7, 5)] {
            let mut rs = common::kalah(n, seeds);
            f(&mut rs);
            v.push((format!("kalah({n},{seeds}) {what}"), rs));
        }
    }
    let mut mixed = common::kalah(5, 4);
    mixed.sowing.direction = Direction::Clockwise;
    mixed.sowing.opponent_store = Include::Sow;
    mixed.capture.side = RowSide::Opponent;
    mixed.capture.opposite_must_have_seeds = false;
    mixed.grand_slam = GrandSlam::NoCapture;
    v.push(("mixed".into(), mixed));
    v
}

/// Plays `games` random games on `fast` and `general` side by side, checking at every ply
/// the legal moves, the fast outcome, the full report, the position and the ending. Kalah-like
/// games end within 2000 plies; count-capture games without a capture, threshold or empty-row
/// end may not (`agree_count`), and are compared for their first 2000.
fn agree(what: &str, fast: &Rules, general: &Rules, start: Position, games: usize, seed: u64) {
    agree_plies(what, fast, general, start, games, seed, true)
}

/// [`agree`] for the count core's variants, some of which run past 2000 plies.
fn agree_count(
    what: &str,
    fast: &Rules,
    general: &Rules,
    start: Position,
    games: usize,
    seed: u64,
) {
    agree_plies(what, fast, general, start, games, seed, false)
}

fn agree_plies(
    what: &str,
    fast: &Rules,
    general: &Rules,
    start: Position,
    games: usize,
    seed: u64,
    must_end: bool,
) {
    let mut rng = common::Rng::new(seed);
    for _ in 0..games {
        let mut a = Game::new(fast, start.clone());
        let mut b = Game::new(general, start.clone());
        let mut c = Game::new(fast, start.clone());
        for ply in 0..2000 {
            let moves = a.legal_moves();
            assert_eq!(moves, b.legal_moves(), "{what}, ply {ply}");
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let oa = a.play_fast(mv).unwrap();
            let ob = b.play_fast(mv).unwrap();
            let rc = c.play(mv).unwrap();
            assert_eq!(oa, ob, "{what}, ply {ply}, {mv:?}");
            assert_eq!(a.position(), b.position(), "{what}, ply {ply}");
            assert_eq!(a.position(), c.position(), "{what}, ply {ply}");
            assert_eq!(
                (rc.last, rc.captured, rc.grand_slam, rc.extra_turn, rc.next),
                (oa.last, oa.captured, oa.grand_slam, oa.extra_turn, oa.next),
                "{what}, ply {ply}"
            );
            assert_eq!(a.ending(), b.ending(), "{what}, ply {ply}");
            assert_eq!(a.ending(), c.ending(), "{what}, ply {ply}");
        }
        assert!(!must_end || a.is_over(), "{what}: a game of 2000 plies");
    }
}

#[test]
fn single_lap_core_plays_as_the_general_core() {
    for (i, (what, rs)) in variants().into_iter().enumerate() {
        let fast = Rules::new(&rs);
        assert!(fast.has_single_lap_core(), "{what}");
        let general = fast.with_general_core();
        agree(&what, &fast, &general, fast.initial(), 30, i as u64 + 1);
    }
}

#[test]
fn single_lap_core_plays_as_the_general_core_on_shortened_boards() {
    // Kalah(6,4) with A1/B6, or A3/B4 and A6/B1, closed: sowing passes the closed pits.
    on_shortened_boards(&common::kalah(6, 4), Rules::has_single_lap_core, agree);
}

#[test]
fn single_lap_core_agrees_from_random_positions() {
    // Positions off the usual paths: big piles (whole laps), empty rows, either side to move.
    from_random_positions(2026, variants(), agree);
}

// ---- the count core (Oware-like rules; `src/engine/rules.rs`, `CountLap`) -----------------

/// Oware abapa on `n` pits a side with `seeds` a pit: the threshold is more than half the
/// seeds, as 25 of Oware's 48.
fn oware(n: usize, seeds: u16) -> Ruleset {
    let mut rs = common::oware_with_threshold(n as u16 * seeds + 1);
    rs.board.pits_per_side = n;
    rs.board.seeds_per_pit = seeds;
    rs.board.pit_labels = [
        (1..=n).map(|i| format!("A{i}")).collect(),
        (1..=n).map(|i| format!("B{i}")).collect(),
    ];
    rs
}

#[test]
fn count_core_is_chosen_from_the_rules_parameters() {
    assert!(Rules::new(&common::oware()).has_count_core());
    assert!(Rules::new(&oware(16, 3)).has_count_core());
    assert!(!Rules::new(&common::kalah(6, 4)).has_count_core());
    assert!(!Rules::new(&common::giuthi()).has_count_core());
    assert!(!Rules::new(&common::oware())
        .with_general_core()
        .has_count_core());
    let offs: Vec<Tweak> = vec![
        ("either direction", |r| {
            r.sowing.direction = Direction::Either
        }),
        ("relay", |r| r.sowing.relay = Relay::Same),
        ("two seeds to move", |r| r.sowing.min_seeds = 2),
        ("opposite capture", |r| {
            r.capture.kind = CaptureKind::Opposite
        }),
        ("following-empty chain", |r| {
            r.capture.chain = Chain::FollowingEmpty
        }),
        ("a count of 64", |r| r.capture.counts = vec![2, 64]),
        ("capture after crossing only", |r| {
            r.capture.after_crossing_only = true
        }),
        ("extra turn before crossing", |r| {
            r.extra_turn.empty_pit_before_crossing = true
        }),
    ];
    for (what, f) in offs {
        let mut rs = common::oware();
        f(&mut rs);
        assert!(!Rules::new(&rs).has_count_core(), "{what}");
    }
}

// Oware holes: A1..A6 = 0..5, B1..B6 = 6..11, the stores 12 and 13 (never sown).

#[test]
fn count_core_hand_worked_whole_laps_skip_the_origin() {
    // A1 holds 25: the origin is skipped, so a lap is the 11 other pits. 25 = 2 laps + 3:
    // every other pit +2, then A2, A3, A4 +1; the last seed in A4 (own row: no capture).
    let rules = Rules::new(&common::oware());
    assert!(rules.has_count_core());
    let start = pos(&[25, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0], 0);
    let after = pos(&[0, 3, 3, 3, 2, 2, 3, 3, 3, 3, 3, 3, 0, 0], 1);
    let mut g = Game::new(&rules, start.clone());
    let o = g.play_fast(ccw(0)).unwrap();
    assert_eq!((o.last, o.captured, o.next), (3, 0, Some(1)));
    assert_eq!(g.position(), &after);
    // Seed by seed, recorded: the same board, and A1 never in the sown list.
    let mut g = Game::new(&rules, start);
    let r = g.play(ccw(0)).unwrap();
    assert_eq!(g.position(), &after);
    assert_eq!(r.laps[0].sown.len(), 25);
    assert!(!r.laps[0].sown.contains(&0));
    assert_eq!(
        &r.laps[0].sown[..12],
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1]
    );
}

#[test]
fn count_core_hand_worked_backward_chain_and_grand_slam() {
    let rules = Rules::new(&common::oware());
    // A6 (3 seeds) makes B1 2, B2 3, B3 2: B3, B2 and B1 are captured (7), backward to the
    // row's start. B keeps B4's 4, so no grand slam.
    let start = pos(&[1, 1, 1, 1, 1, 3, 1, 2, 1, 4, 0, 0, 10, 10], 0);
    let mut g = Game::new(&rules, start.clone());
    let o = g.play_fast(ccw(5)).unwrap();
    assert_eq!((o.last, o.captured, o.grand_slam), (8, 7, false));
    assert_eq!(
        g.position(),
        &pos(&[1, 1, 1, 1, 1, 0, 0, 0, 0, 4, 0, 0, 17, 10], 1)
    );
    let r = Game::new(&rules, start).play(ccw(5)).unwrap();
    assert_eq!(r.captures, vec![(8, 2), (7, 3), (6, 2)]);
    // Without B4's seeds the same capture takes all of B's row: a grand slam, nothing taken.
    let start = pos(&[1, 1, 1, 1, 1, 3, 1, 2, 1, 0, 0, 0, 12, 12], 0);
    let mut g = Game::new(&rules, start);
    let o = g.play_fast(ccw(5)).unwrap();
    assert_eq!((o.captured, o.grand_slam, o.next), (0, true, Some(1)));
    assert_eq!(
        g.position(),
        &pos(&[1, 1, 1, 1, 1, 0, 2, 3, 2, 0, 0, 0, 12, 12], 1)
    );
}

#[test]
fn count_core_refuses_a_move_that_does_not_feed_with_the_general_reason() {
    // B's row is empty: A must sow into it. A1's one seed stays home; A6's reaches B1.
    let rules = Rules::new(&common::oware());
    let general = rules.with_general_core();
    let start = pos(&[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 23, 23], 0);
    let mut fast = Game::new(&rules, start.clone());
    assert_eq!(fast.legal_moves(), vec![ccw(5)]);
    let a = fast.play_fast(ccw(0));
    let b = Game::new(&general, start).play_fast(ccw(0));
    assert!(matches!(a, Err(EngineError::IllegalMove(_))), "{a:?}");
    assert_eq!(a, b);
    assert!(fast.play_fast(ccw(5)).is_ok());
}

/// Rulesets of the count core's class over every parameter it reads, each with the core chosen.
fn count_variants() -> Vec<(String, Ruleset)> {
    let mut v = Vec::new();
    // 7 pits: the largest board of the sowing tables (16 holes); 8: the largest row of the
    // legal-move table, sown seed by seed.
    for n in [2usize, 3, 5, 6, 7, 8, 12, 16] {
        for seeds in [1u16, 3, 4, 6] {
            v.push((format!("oware({n},{seeds})"), oware(n, seeds)));
        }
    }
    let tweaks: Vec<Tweak> = vec![
        ("origin sown", |r| r.sowing.origin_on_lap = Include::Sow),
        ("clockwise", |r| r.sowing.direction = Direction::Clockwise),
        ("grand slam captures", |r| {
            r.grand_slam = GrandSlam::CaptureAll
        }),
        ("grand slam illegal", |r| r.grand_slam = GrandSlam::Illegal),
        ("grand slam illegal unless only", |r| {
            r.grand_slam = GrandSlam::IllegalUnlessOnly
        }),
        ("no feeding", |r| r.feeding.must_feed = false),
        ("no chain", |r| r.capture.chain = Chain::None),
        ("capture on the own row", |r| r.capture.side = RowSide::Own),
        ("counts 1, 2, 3", |r| r.capture.counts = vec![1, 2, 3]),
        ("count 4", |r| r.capture.counts = vec![4]),
        ("no capture", |r| r.capture.kind = CaptureKind::None),
        ("no threshold", |r| r.end.threshold = None),
        ("no repetition, ends on an empty row", |r| {
            r.end.repetition = false;
            r.end.either_side_empty = true;
        }),
        ("pass rule", |r| r.end.no_legal_move = NoLegalMove::Pass),
        ("sweep to the mover", |r| {
            r.end.remaining_seeds = Remaining::Mover
        }),
        ("sweep to the opponent", |r| {
            r.end.remaining_seeds = Remaining::Opponent
        }),
        ("own store sown, extra turn there", |r| {
            r.sowing.own_store = Include::Sow;
            r.extra_turn.last_in_own_store = true;
        }),
        ("both stores sown", |r| {
            r.sowing.own_store = Include::Sow;
            r.sowing.opponent_store = Include::Sow;
        }),
    ];
    for (what, f) in tweaks {
        for (n, seeds) in [(6usize, 4u16), (4, 3), (7, 5), (9, 2)] {
            let mut rs = oware(n, seeds);
            f(&mut rs);
            v.push((format!("oware({n},{seeds}) {what}"), rs));
        }
    }
    let mut mixed = oware(5, 4);
    mixed.sowing.direction = Direction::Clockwise;
    mixed.sowing.origin_on_lap = Include::Sow;
    mixed.capture.side = RowSide::Own;
    mixed.capture.counts = vec![1, 4, 5];
    mixed.grand_slam = GrandSlam::IllegalUnlessOnly;
    mixed.end.no_legal_move = NoLegalMove::Pass;
    v.push(("mixed".into(), mixed));
    v
}

#[test]
fn count_core_plays_as_the_general_core() {
    for (i, (what, rs)) in count_variants().into_iter().enumerate() {
        let fast = Rules::new(&rs);
        assert!(fast.has_count_core(), "{what}");
        let general = fast.with_general_core();
        agree_count(&what, &fast, &general, fast.initial(), 30, i as u64 + 1);
    }
}

#[test]
fn count_core_plays_as_the_general_core_on_shortened_boards() {
    on_shortened_boards(&common::oware(), Rules::has_count_core, agree_count);
}

#[test]
fn count_core_agrees_from_random_positions() {
    // Big piles (whole laps skipping the origin), empty rows (feeding), either side to move.
    from_random_positions(2027, count_variants(), agree_count);
}

#[test]
fn repetition_is_found_however_long_the_history() {
    // Two lone seeds chase each other round an Oware board of 16 pits a side without a capture
    // (a pit never holds 2): A's seed walks A1 .. A16 and into B1 while B's walks B1 .. B16,
    // then B must feed, B16 into A1, and the start position is back after 16 + 16 plies, with
    // one legal move at every ply. The history outgrows its first index (32 positions).
    let mut rs = oware(16, 1);
    rs.end.threshold = None;
    let rules = Rules::new(&rs);
    for r in [rules.clone(), rules.with_general_core()] {
        let mut holes = vec![0u16; 34];
        holes[0] = 1;
        holes[16] = 1;
        let mut g = Game::new(&r, pos(&holes, 0));
        let mut plies = 0;
        while !g.is_over() {
            let moves = g.legal_moves();
            assert_eq!(moves.len(), 1, "ply {plies}");
            g.play_fast(moves[0]).unwrap();
            plies += 1;
        }
        assert_eq!(plies, 32);
        assert_eq!(g.ending().unwrap().reason, EndReason::Repetition);
    }
}

#[test]
fn play_into_one_report_gives_the_reports_of_play() {
    // One report kept across every move of every game (its laps, sown lists and captures
    // reused: Giuthi's relay moves leave more laps behind than the next move has), compared
    // field for field with a fresh `play` report of the same move on a twin game.
    for (what, rs) in [
        ("kalah", common::kalah(6, 4)),
        ("kalah empty capture", common::kalah_empty_capture(6, 4)),
        ("oware", common::oware()),
        ("giuthi", common::giuthi()),
    ] {
        let rules = Rules::new(&rs);
        let mut rng = common::Rng::new(11);
        let mut report = Report::default();
        let (mut plies, mut multi_lap) = (0, 0);
        for _ in 0..40 {
            let mut a = Game::new(&rules, rules.initial());
            let mut b = a.clone();
            for _ in 0..400 {
                let moves = a.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let fresh = a.play(mv);
                let into = b.play_into(mv, &mut report);
                match fresh {
                    Ok(r) => {
                        assert_eq!(into, Ok(()), "{what} {mv:?}");
                        assert_eq!(r, report, "{what} {mv:?}");
                        multi_lap += (r.laps.len() > 1) as usize;
                    }
                    Err(e) => {
                        assert_eq!(into, Err(e), "{what} {mv:?}");
                        break;
                    }
                }
                assert_eq!(a.position(), b.position(), "{what}");
                plies += 1;
            }
        }
        assert!(plies > 1000, "{what}: {plies} plies");
        if what == "giuthi" {
            assert!(multi_lap > 100, "giuthi: {multi_lap} relay moves");
        }
    }
}

/// Plays one game with `check` (a fast core against the general one) from each of 20 random
/// positions of every third of `variants` (a xorshift sequence from `seed`): big piles
/// (whole laps), empty rows, either side to move; the two cores must first agree on the
/// position and whether the game is over there.
fn from_random_positions(
    seed: u64,
    variants: Vec<(String, Ruleset)>,
    check: fn(&str, &Rules, &Rules, Position, usize, u64),
) {
    let mut rng = common::Rng::new(seed);
    for (what, rs) in variants.into_iter().step_by(3) {
        let fast = Rules::new(&rs);
        let general = fast.with_general_core();
        let h = fast.holes();
        for _ in 0..20 {
            let holes: Vec<u16> = (0..h)
                .map(|_| match rng.below(4) {
                    0 => 0,
                    1 => rng.below(40) as u16,
                    _ => rng.below(5) as u16,
                })
                .collect();
            let start = pos(&holes, rng.below(2) as u8);
            let a = Game::new(&fast, start.clone());
            let b = Game::new(&general, start.clone());
            assert_eq!(a.ending(), b.ending(), "{what} {start:?}");
            assert_eq!(a.position(), b.position(), "{what} {start:?}");
            check(&what, &fast, &general, start, 1, 7);
        }
    }
}

/// Plays 40 games with `check` (a fast core against the general one) on `rs`'s board with
/// A1/B6, or A3/B4 and A6/B1, closed (sowing passes the closed pits); `has_core` must say the
/// fast core is still chosen there.
fn on_shortened_boards(
    rs: &Ruleset,
    has_core: fn(&Rules) -> bool,
    check: fn(&str, &Rules, &Rules, Position, usize, u64),
) {
    for closed in [vec![0u8, 11], vec![2, 9, 5, 6]] {
        let fast = Rules::new(rs).shortened(&closed).unwrap();
        assert!(
            has_core(&fast),
            "closed {closed:?}: the fast core is not chosen"
        );
        let general = fast.with_general_core();
        check(
            &format!("closed {closed:?}"),
            &fast,
            &general,
            fast.initial(),
            40,
            99,
        );
    }
}
