//! The second phase's shortened board: closed pits take no seeds, sowing and capture chains pass
//! over them, and the opposite relation is the board's own (closed pits come in opposite pairs).
//!
//! Expected values are worked by hand below, or come from the engine playing the same game on a
//! board that is really that much smaller (a ruleset with fewer pits, no closed pits), which is
//! what a shortened board must be equivalent to.

use crate::common;

use sowkit::engine::{perft, Game, Position, Rules};
use sowkit::notation;
use sowkit::rng::XorShift;
use sowkit::ruleset::Ruleset;

/// `rs` with `n` pits a side (labels renumbered), for the equivalence checks.
fn smaller(rs: &Ruleset, n: usize) -> Ruleset {
    let mut r = rs.clone();
    r.board.pits_per_side = n;
    for (side, p) in ["A", "B"].iter().enumerate() {
        r.board.pit_labels[side] = (1..=n).map(|i| format!("{p}{i}")).collect();
    }
    r
}

/// The open holes of `big` in hole order, then its two stores: the hole of the smaller board's
/// hole `i` is `map[i]`.
fn open_map(big: &Rules) -> Vec<u8> {
    let n = big.pits_per_side() as u8;
    let mut m: Vec<u8> = (0..2 * n).filter(|&h| !big.is_closed(h)).collect();
    m.extend([2 * n, 2 * n + 1]);
    m
}

/// The smaller board's position placed on the big shortened board.
fn widen(big: &Rules, map: &[u8], p: &Position) -> Position {
    let mut holes = vec![0u16; big.holes()];
    for (i, &h) in map.iter().enumerate() {
        holes[h as usize] = p.holes[i];
    }
    Position {
        holes,
        to_move: p.to_move,
    }
}

/// Plays the same pseudo-random games on a shortened board and on a board with that many pits,
/// move for move, and checks every position, report and ending agree.
fn same_as_smaller(rs: &Ruleset, closed: &[u8], games: usize) {
    let base = Rules::new(rs);
    let big = base.shortened(closed).expect("a legal shortening");
    let map = open_map(&big);
    let n_small = (map.len() - 2) / 2;
    let small_rs = smaller(rs, n_small);
    let small = Rules::new(&small_rs);
    let mut rng = XorShift::seeded(&format!("{}-{closed:?}", rs.id));
    for g in 0..games {
        // Random starts as well as the initial one: any legal start.
        let mut start = small.initial();
        if g % 2 == 1 {
            let total: u16 = start.holes.iter().sum();
            start.holes.iter_mut().for_each(|h| *h = 0);
            for _ in 0..total {
                let k = rng.below(2 * n_small);
                start.holes[k] += 1;
            }
            start.to_move = rng.below(2) as u8;
        }
        let mut gs = Game::new(&small, start.clone());
        let mut gb = Game::new(&big, widen(&big, &map, &start));
        for ply in 0..300 {
            assert_eq!(
                gb.position(),
                &widen(&big, &map, gs.position()),
                "{} game {g} ply {ply}",
                rs.id
            );
            let ms = gs.legal_moves();
            let mb: Vec<_> = gb.legal_moves();
            let mapped: Vec<_> = ms.iter().map(|m| (map[m.pit as usize], m.dir)).collect();
            let got: Vec<_> = mb.iter().map(|m| (m.pit, m.dir)).collect();
            assert_eq!(got, mapped, "{} game {g} ply {ply}: legal moves", rs.id);
            assert_eq!(gs.ending(), gb.ending());
            if ms.is_empty() {
                break;
            }
            let k = rng.below(ms.len());
            let rs_ = gs.play(ms[k]);
            let rb = gb.play(mb[k]);
            match (rs_, rb) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(map[a.last as usize], b.last);
                    assert_eq!(a.captured, b.captured);
                    assert_eq!(a.extra_turn, b.extra_turn);
                    assert_eq!(a.next, b.next);
                    let sa: Vec<u8> = a
                        .laps
                        .iter()
                        .flat_map(|l| l.sown.iter().map(|&h| map[h as usize]))
                        .collect();
                    let sb: Vec<u8> = b.laps.iter().flat_map(|l| l.sown.clone()).collect();
                    assert_eq!(sa, sb, "{} game {g} ply {ply}: sown holes", rs.id);
                    assert!(sb.iter().all(|&h| !big.is_closed(h)));
                }
                (Err(_), Err(_)) => break,
                (a, b) => panic!("{} game {g} ply {ply}: {a:?} vs {b:?}", rs.id),
            }
            // Seeds are conserved and the closed pits stay empty.
            let total: u32 = gb.position().holes.iter().map(|&x| x as u32).sum();
            let want: u32 = start.holes.iter().map(|&x| x as u32).sum();
            assert_eq!(total, want);
            assert!(big
                .closed_pits()
                .iter()
                .all(|&h| gb.position().holes[h as usize] == 0));
        }
    }
}

#[test]
fn shortened_boards_play_as_smaller_boards() {
    for rs in common::bundled_en() {
        let n = rs.board.pits_per_side as u8;
        // One pair at the end (A6/B1), both ends, and a pair in the middle.
        let sets: Vec<Vec<u8>> = vec![
            vec![n - 1, n],
            vec![0, 2 * n - 1, n - 1, n],
            vec![2, 2 * n - 3],
        ];
        for closed in &sets {
            same_as_smaller(&rs, closed, 20);
        }
    }
}

#[test]
fn perft_on_a_shortened_board_equals_the_smaller_board() {
    for id in ["giuthi", "kalah-6x4", "oware-abapa"] {
        let rs = common::load_path(&common::bundled_path(id));
        let base = Rules::new(&rs);
        let big = base.shortened(&[0, 11, 5, 6]).unwrap();
        let small_rs = smaller(&rs, 4);
        let small = Rules::new(&small_rs);
        let map = open_map(&big);
        let gs = Game::new(&small, small.initial());
        let gb = Game::new(&big, widen(&big, &map, &small.initial()));
        // The shortened board's own start is the smaller board's.
        assert_eq!(gb.position(), &big.initial());
        for depth in 1..=4 {
            assert_eq!(perft(&gb, depth), perft(&gs, depth), "{id} depth {depth}");
        }
    }
}

#[test]
fn perft_worked_by_hand_on_a_three_pit_giuthi_row() {
    // Giuthi shortened to three pits a row (the source's minimum): A3, A4, A5 / B2, B3, B4
    // open, the circuit A3 A4 A5 B2 B3 B4 (stores skipped). A may play A3 or A5 either way.
    let rs = common::load_path(&common::bundled_path("giuthi"));
    let rules = Rules::new(&rs).shortened(&[0, 1, 5, 6, 10, 11]).unwrap();
    let start = "A x x 2 0 2 x (22) / B x 1 0 0 x x (21); A";
    let (pos, _) = notation::parse_position(&rules, start).unwrap();
    let game = Game::new(&rules, pos);
    assert_eq!(perft(&game, 1), 4);
    // By hand:
    // A3> sows A4, A5; A5 holds 3: relay back (<) A4, A3, then B4 (the next open pit
    //   clockwise); B4 was empty: stop. B has single seeds only and passes; A has A4 (2): 2.
    // A3< sows B4, B3; B3 was empty: stop. B passes; A has A5 (2): 2.
    // A5> sows B2, B3; B3 was empty: stop. B has B2 (2): B2> and B2<: 2.
    // A5< sows A4, A3 (3: relay >) A4, A5, B2 (2: relay <) A5, A4 (3: relay >) A5, B2, B3;
    //   B3 was empty: stop. B passes; A has A5 (3): 2.
    assert_eq!(perft(&game, 2), 8);
    let first = |m: &str| {
        let mut g = game.clone();
        g.play(notation::parse_move(&rules, m).unwrap()).unwrap();
        notation::format_position(&rules, g.position())
    };
    assert_eq!(first("A3>"), "A x x 1 2 0 x (22) / B x 1 0 1 x x (21); A");
    assert_eq!(first("A3<"), "A x x 0 0 2 x (22) / B x 1 1 1 x x (21); A");
    assert_eq!(first("A5>"), "A x x 2 0 0 x (22) / B x 2 1 0 x x (21); B");
    assert_eq!(first("A5<"), "A x x 0 0 3 x (22) / B x 1 1 0 x x (21); A");
}

#[test]
fn sowing_and_a_capture_chain_pass_over_a_closed_pair() {
    // Giuthi with A3/B4 closed. A5's eight seeds go A6, B1, B2, B3, (B4 closed), B5, B6, A1,
    // A2: the last lands in the empty A2 after crossing. A takes B5 (5) opposite and the
    // capturing seed, then the chain steps over the closed A3 to the empty A4 (takes B3, 4)
    // and the emptied A5 (takes B2, 3); A6 holds a seed, so it stops: 5 + 1 + 4 + 3 = 13.
    let rs = common::load_path(&common::bundled_path("giuthi"));
    let rules = Rules::new(&rs).shortened(&[2, 9]).unwrap();
    let (pos, _) =
        notation::parse_position(&rules, "A 0 0 x 0 8 0 (10) / B 1 2 3 x 4 0 (12); A").unwrap();
    let mut g = Game::new(&rules, pos);
    let r = g
        .play(notation::parse_move(&rules, "A5>").unwrap())
        .unwrap();
    let sown: Vec<&str> = r
        .laps
        .iter()
        .flat_map(|l| l.sown.iter().map(|&h| rules.label(h)))
        .collect();
    assert_eq!(sown, ["A6", "B1", "B2", "B3", "B5", "B6", "A1", "A2"]);
    assert_eq!(rules.label(r.last), "A2");
    assert_eq!(r.captured, 13);
    assert!(!r.extra_turn);
    assert_eq!(
        notation::format_position(&rules, g.position()),
        "A 1 0 x 0 0 1 (23) / B 2 0 0 x 0 1 (12); B"
    );
    // On the full board the same seeds end one pit earlier, in A1 (so closing matters).
    let full = Rules::new(&rs);
    let (pos, _) =
        notation::parse_position(&full, "A 0 0 0 0 8 0 (10) / B 1 2 3 0 4 0 (12); A").unwrap();
    let mut g = Game::new(&full, pos);
    let r = g.play(notation::parse_move(&full, "A5>").unwrap()).unwrap();
    assert_eq!(full.label(r.last), "A1");
}

#[test]
fn kalah_sows_its_store_but_not_a_closed_pit() {
    // Kalah 6×4 with A6/B1 closed: A5's three seeds go to store A (A6 is closed), then B2
    // and B3 (B1 is closed).
    let rs = common::kalah(6, 4);
    let rules = Rules::new(&rs).shortened(&[5, 6]).unwrap();
    let (pos, _) =
        notation::parse_position(&rules, "A 4 4 4 4 3 x (0) / B x 4 4 4 4 4 (0); A").unwrap();
    let mut g = Game::new(&rules, pos);
    let r = g.play(notation::parse_move(&rules, "A5").unwrap()).unwrap();
    let sown: Vec<&str> = r.laps[0].sown.iter().map(|&h| rules.label(h)).collect();
    assert_eq!(sown, ["store A", "B2", "B3"]);
    assert_eq!(
        notation::format_position(&rules, g.position()),
        "A 4 4 4 4 0 x (1) / B x 5 5 4 4 4 (0); B"
    );
}

#[test]
fn closed_pits_are_checked() {
    let rs = common::load_path(&common::bundled_path("giuthi"));
    let rules = Rules::new(&rs);
    // Not in opposite pairs.
    let e = rules.shortened(&[5]).unwrap_err();
    assert!(e.contains("A6 is closed but B1 opposite it is open"), "{e}");
    // A store.
    let e = rules.shortened(&[12]).unwrap_err();
    assert!(e.contains("not a pit"), "{e}");
    // A whole row.
    let all: Vec<u8> = (0..12).collect();
    assert!(rules.shortened(&all).unwrap_err().contains("every pit"));
    let short = rules.shortened(&[5, 6]).unwrap();
    // Seeds in a closed pit.
    let p = Position {
        holes: vec![4, 4, 4, 4, 4, 1, 0, 4, 4, 4, 4, 4, 0, 0],
        to_move: 0,
    };
    let e = Game::try_new(&short, p).unwrap_err().to_string();
    assert!(e.contains("A6 is closed but holds 1 seeds"), "{e}");
    // Playing a closed pit.
    let mut g = Game::new(&short, short.initial());
    let e = g
        .play(notation::parse_move(&short, "A6>").unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("A6 is closed"), "{e}");
    // The start holds no seeds in closed pits: 40 seeds on ten pits.
    assert_eq!(short.initial().holes.iter().sum::<u16>(), 40);
}

#[test]
fn notation_marks_closed_pits_and_keeps_the_old_form() {
    let rs = common::load_path(&common::bundled_path("giuthi"));
    let rules = Rules::new(&rs);
    // The old notation is unchanged on a full board.
    let old = "A 4 4 4 4 4 4 (0) / B 4 4 4 4 4 4 (0); A";
    let (p, given) = notation::parse_position(&rules, old).unwrap();
    assert!(given);
    assert_eq!(notation::format_position(&rules, &p), old);
    assert!(notation::closed_pits(&rules, old).unwrap().is_empty());
    // `x` marks a closed pit; read against the full board it names the pits to close.
    let s = "A 2 5 3 0 1 x (20) / B x 1 2 0 4 6 (4); B";
    assert_eq!(notation::closed_pits(&rules, s).unwrap(), vec![5, 6]);
    let e = notation::parse_position(&rules, s).unwrap_err().to_string();
    assert!(e.contains("marks A6, B1 closed"), "{e}");
    let short = rules.shortened(&[5, 6]).unwrap();
    let (p, _) = notation::parse_position(&short, s).unwrap();
    assert_eq!(notation::format_position(&short, &p), s);
    // A count where the board has a closed pit is refused, naming the closed pits.
    let e = notation::parse_position(&short, old)
        .unwrap_err()
        .to_string();
    assert!(e.contains("closed pits are A6, B1"), "{e}");
}

/// The bundled Giuthi text with `from` replaced by `to` (which must be there).
fn giuthi_with(from: &str, to: &str) -> String {
    let src = std::fs::read_to_string(common::bundled_path("giuthi")).unwrap();
    assert!(src.contains(from), "{from}");
    src.replacen(from, to, 1)
}

/// The line (1-based) of the first line of `src` containing `needle`.
fn line_of(src: &str, needle: &str) -> usize {
    src.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn next_round_is_read_from_the_ruleset() {
    let rs = common::load_path(&common::bundled_path("giuthi"));
    let nr = rs.next_round.expect("giuthi has [next_round]");
    use sowkit::ruleset::*;
    assert_eq!(nr.lays_out, LaysOut::FewerSeeds);
    assert_eq!(nr.arrangement, Arrangement::Free);
    assert!(nr.all_seeds);
    assert_eq!(nr.shorten_below, 50);
    assert_eq!(nr.min_pits, 3);
    assert_eq!(nr.opposite, Opposite::Equal);
    assert_eq!(
        nr.other_readings,
        [OtherReading::NotAllSeeds, OtherReading::DoubleWhenShort]
    );
    assert!(rs.rule_sources.contains_key("next_round"));
    // Rulesets without the table have none.
    let k = common::load_path(&common::bundled_path("kalah-6x4"));
    assert!(k.next_round.is_none());
}

#[test]
fn bad_next_round_parameters_are_located() {
    // (replacement, field named, words in the message, line marker)
    let cases = [
        (
            "min_pits = 3 ",
            "next_round.min_pits",
            "1 to 6",
            "min_pits = 7",
        ),
        (
            "shorten_below = 50",
            "next_round.shorten_below",
            "0 to 100",
            "shorten_below = 150",
        ),
        (
            "opposite = \"equal\"",
            "next_round.other_readings",
            "already the rule",
            "other_readings",
        ),
        (
            "all_seeds = true ",
            "next_round.other_readings",
            "already the rule here (all_seeds = false)",
            "other_readings",
        ),
    ];
    let repl = [
        "min_pits = 7 ",
        "shorten_below = 150",
        "opposite = \"double\"",
        "all_seeds = false ",
    ];
    for ((from, field, words, marker), to) in cases.iter().zip(repl) {
        let src = giuthi_with(from, to);
        let errs = sowkit::ruleset::load_str("giuthi.toml", &src).unwrap_err();
        let d = errs
            .iter()
            .find(|d| d.rendered.contains(field))
            .unwrap_or_else(|| panic!("{to}: no error at {field}: {errs:?}"));
        assert!(d.rendered.contains(words), "{}", d.rendered);
        let line = line_of(&src, marker);
        assert!(
            d.rendered.contains(&format!("giuthi.toml:{line}:")),
            "{to}: expected line {line}: {}",
            d.rendered
        );
    }
    // An unknown value names the choices.
    let src = giuthi_with("arrangement = \"free\"", "arrangement = \"random\"");
    let errs = sowkit::ruleset::load_str("giuthi.toml", &src).unwrap_err();
    assert!(errs[0].rendered.contains("free"), "{}", errs[0].rendered);
    assert!(errs[0].rendered.contains("even"), "{}", errs[0].rendered);
    // No first player for the next round.
    let src = giuthi_with("next_game_first = \"loser\"", "");
    let errs = sowkit::ruleset::load_str("giuthi.toml", &src).unwrap_err();
    assert!(
        errs.iter()
            .any(|d| d.rendered.contains("board.next_game_first")),
        "{errs:?}"
    );
}

#[test]
fn the_second_round_example_replays_and_is_checked() {
    // The bundled example replays (the loader and the examples check agree).
    let src = std::fs::read_to_string(common::bundled_path("giuthi")).unwrap();
    let rs = sowkit::ruleset::load_str("giuthi.toml", &src).unwrap();
    assert!(rs
        .examples
        .iter()
        .any(|e| e.title == "The second round on a shortened board"));
    assert!(sowkit::examples::check(&rs, &src).is_empty());
    // A start shorter than min_pits is refused at the example's start.
    let bad = src.replace(
        "A 3 0 4 1 2 x (0) / B x 2 1 4 0 3 (28); A",
        "A x x x x 10 x (0) / B x 10 x x x x (28); A",
    );
    let rs = sowkit::ruleset::load_str("giuthi.toml", &bad).unwrap();
    let d = sowkit::examples::check(&rs, &bad);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].rendered.contains("1 open pits a row"),
        "{}",
        d[0].rendered
    );
    assert!(d[0].rendered.contains("min_pits = 3"), "{}", d[0].rendered);
    // Without [next_round] a start with closed pits is refused.
    let a = bad.find("[next_round]").unwrap();
    let b = bad.find("[layout]").unwrap();
    let none = format!("{}{}", &bad[..a], &bad[b..]).replace(
        "A x x x x 10 x (0) / B x 10 x x x x (28); A",
        "A 3 0 4 1 2 x (0) / B x 2 1 4 0 3 (28); A",
    );
    let none = none.replace(
        "next_round = \"la información",
        "# next_round = \"la información",
    );
    let rs = sowkit::ruleset::load_str("giuthi.toml", &none).unwrap();
    let d = sowkit::examples::check(&rs, &none);
    assert!(
        d.iter()
            .any(|d| d.rendered.contains("no [next_round] table")),
        "{d:?}"
    );
}

/// The text items of the kit page named `name`.
fn page_text(doc: &sowkit::doc::Document, name: &str) -> Vec<String> {
    let pg = doc
        .pages
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no page {name}"));
    pg.texts().map(|t| t.text.clone()).collect()
}

#[test]
fn the_giuthi_kit_explains_and_logs_the_next_round() {
    use sowkit::layout;
    use sowkit::paper::A4;
    let rs = common::load_path(&common::bundled_path("giuthi"));
    let doc = layout::kit(&rs, &common::en(A4)).unwrap();
    let names: Vec<&str> = doc.pages.iter().map(|p| p.name.as_str()).collect();
    // The rule sheet has the next round's heading and its worked example.
    let rules: Vec<String> = names
        .iter()
        .filter(|n| n.starts_with("rules-"))
        .flat_map(|n| page_text(&doc, n))
        .collect();
    assert!(rules.iter().any(|t| t == "The next round"), "{rules:?}");
    assert!(rules
        .iter()
        .any(|t| t == "The second round on a shortened board"));
    // The readings of the first round stay: origin skipped (Pratt 2009 cited) and repetition.
    let all = rules.join(" ");
    assert!(all.contains("never drops a seed back into the pit it was lifted from"));
    assert!(all.contains("Pratt"));
    assert!(all.contains("comes back since the last capture"));
    // The log has a Round column and the carry note.
    let log = page_text(&doc, "log");
    assert!(log.iter().any(|t| t == "Round"), "{log:?}");
    assert!(log.join(" ").contains("“carry”"));
    // One closed-pit marker sheet with six markers (6 pits a row, at least 3 kept).
    assert!(names.contains(&"markers-1"));
    let markers = page_text(&doc, "markers-1");
    assert_eq!(markers.iter().filter(|t| *t == "closed").count(), 6);
    // Kalah has no next round: none of it.
    let k = common::load_path(&common::bundled_path("kalah-6x4"));
    let kd = layout::kit(&k, &common::en(A4)).unwrap();
    assert!(!kd.pages.iter().any(|p| p.name.starts_with("markers")));
    assert!(!page_text(&kd, "log").iter().any(|t| t == "Round"));
}
