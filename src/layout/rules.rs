//! The rule sheets: portrait pages of rules written from the ruleset's parameters in the
//! catalogue's words (never copied from a source), then the worked examples as diagrams, then
//! the source credit (with the note that the words are sowkit's own). Text is wrapped at real font metrics and flows onto as many pages as it
//! needs (`rules-1`, `rules-2`, …).
use super::diagram::{self, Prepared};
use super::page::{self, MARGIN};
use super::phrases::{join_and, join_or, Phrases};
use super::style::Sizes;
use super::Paper;
use crate::doc::{Page, Weight};
use crate::engine::Rules;
use crate::ruleset::{
    CaptureKind, Chain, Crossing, Direction, GrandSlam, Include, NoLegalMove, Relay, Remaining,
    RowSide, Ruleset,
};
use crate::text;

/// Indent of bullet text, mm.
const BULLET_INDENT: f64 = 4.5;

/// One block of the rule sheet, in reading order.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// The sheet title.
    Title(String),
    /// A section heading.
    Heading(String),
    /// A paragraph.
    Para(String),
    /// A bulleted item.
    Bullet(String),
    /// A worked example (index into the prepared examples).
    Example(usize),
    /// The sources: their heading, then paragraphs and bullets, set as one block that is
    /// never split over a page break.
    Sources(Vec<Block>),
}

/// Whether a move can be a grand slam: only where a capture can take seeds from the
/// opponent's row (the engine counts those); a count capture in your own row, or an opposite
/// capture from the opponent's row that leaves the last seed there, takes from your own row
/// alone, and without captures there is none.
fn grand_slam_possible(rs: &Ruleset) -> bool {
    let c = &rs.capture;
    match (c.kind, c.side) {
        (CaptureKind::None, _) | (CaptureKind::Count, RowSide::Own) => false,
        (CaptureKind::Opposite, RowSide::Opponent) => c.take_capturing_seed,
        _ => true,
    }
}

fn num(v: impl ToString) -> String {
    v.to_string()
}

/// The next round's section (`[next_round]`): who lays out and how, the shorter board and
/// its closed pits, the answer opposite, who starts, the other readings the source names.
fn next_round_blocks(
    rs: &Ruleset,
    nr: &crate::ruleset::NextRound,
    ph: &Phrases,
    out: &mut Vec<Block>,
) {
    use crate::ruleset::{Arrangement, LaysOut, NextGame, Opposite, OtherReading};
    use Block::*;
    out.push(Heading(ph.get("rules.next.heading")));
    out.push(Para(ph.get("rules.next.intro")));
    let all = ph.get(if nr.all_seeds {
        "rules.next.all"
    } else {
        "rules.next.some"
    });
    let lay = match nr.lays_out {
        LaysOut::FewerSeeds => "rules.next.lay_fewer",
        LaysOut::MoreSeeds => "rules.next.lay_more",
    };
    let how = match nr.arrangement {
        Arrangement::Free => "rules.next.free",
        Arrangement::Even => "rules.next.even",
    };
    out.push(Bullet(format!(
        "{} {}",
        ph.fmt(lay, &[("all", &all)]),
        ph.get(how)
    )));
    // Each player starts with one row's seeds.
    let start = rs.board.pits_per_side as u32 * rs.board.seeds_per_pit as u32;
    let pct = nr.shorten_below as u32;
    if pct > 0 {
        // "Fewer than pct% of start": the largest count still under the share, plus one.
        let limit = (start * pct).div_ceil(100);
        out.push(Bullet(ph.fmt(
            "rules.next.shorten",
            &[
                ("limit", &num(limit)),
                ("pct", &num(pct)),
                ("start", &num(start)),
                ("min", &num(nr.min_pits)),
            ],
        )));
        out.push(Bullet(ph.get("rules.next.closed")));
    }
    out.push(Bullet(ph.get(match nr.opposite {
        Opposite::Equal => "rules.next.equal",
        Opposite::Double => "rules.next.double",
    })));
    out.push(Bullet(ph.get("rules.next.aside")));
    if let Some(g) = rs.board.next_game_first {
        out.push(Bullet(ph.get(match g {
            NextGame::Loser => "rules.next.first_loser",
            NextGame::Winner => "rules.next.first_winner",
            NextGame::Alternate => "rules.next.first_alternate",
        })));
    }
    if !nr.other_readings.is_empty() {
        out.push(Para(ph.get("rules.next.other")));
        for o in &nr.other_readings {
            out.push(Bullet(match o {
                OtherReading::NotAllSeeds => ph.get("rules.next.not_all_seeds"),
                OtherReading::DoubleWhenShort => {
                    ph.fmt("rules.next.double_when_short", &[("pct", &num(pct))])
                }
            }));
        }
    }
    out.push(Para(ph.get("rules.next.log")));
}

/// The text of the rule sheet, from the parameters.
pub fn blocks(rs: &Ruleset, ph: &Phrases) -> Vec<Block> {
    use Block::*;
    let b = &rs.board;
    let n = b.pits_per_side;
    let (a, bb) = (&b.players[0], &b.players[1]);
    let total = rs.total_seeds();
    let first_last = |side: usize| {
        let l = &b.pit_labels[side];
        (
            l.first().cloned().unwrap_or_default(),
            l.last().cloned().unwrap_or_default(),
        )
    };
    // "yes" when a store's name holds the language's word for a store ("South store",
    // "almacén Sur"), else "no": a store named otherwise ("South's captures") is then
    // introduced as a store, since every later sentence calls it one.
    let store_word = ph.get("word.store").to_lowercase();
    let named = |name: &str| {
        let lower = name.to_lowercase();
        if lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w == store_word)
        {
            "yes"
        } else {
            "no"
        }
    };
    let (a1, an) = first_last(0);
    let (b1, bn) = first_last(1);
    let mut out = vec![Title(ph.fmt("rules.title", &[("name", &rs.name)]))];
    let mut facts = ph.get("rules.players");
    if let Some(d) = &rs.duration {
        facts = format!("{facts} · {}", ph.fmt("rules.duration", &[("d", d)]));
    }
    out.push(Para(facts));
    out.push(Para(ph.get("rules.aim")));

    // What to bring.
    out.push(Heading(ph.get("rules.h.bring")));
    // A child-safe kit plays with its own large counters, not seeds or beans.
    let safe = rs.layout.child_safe;
    out.push(Bullet(ph.fmt(
        if safe {
            "rules.bring_counters_safe"
        } else {
            "rules.bring_seeds"
        },
        &[
            ("total", &num(total)),
            ("per", &num(b.seeds_per_pit)),
            ("pits", &num(2 * n)),
            ("d", &ph.mm(rs.layout.counter_diameter)),
        ],
    )));
    out.push(Bullet(ph.get("rules.bring_board")));
    out.push(Bullet(ph.get("rules.bring_log")));
    out.push(Bullet(ph.get(if safe {
        "rules.small_parts_safe"
    } else {
        "rules.small_parts"
    })));

    // Setup.
    out.push(Heading(ph.get("rules.h.setup")));
    out.push(Para(ph.fmt(
        "rules.setup_seeds",
        &[("per", &num(b.seeds_per_pit)), ("total", &num(total))],
    )));
    let opts: Vec<String> = b
        .seeds_per_pit_options
        .iter()
        .filter(|&&o| o != b.seeds_per_pit)
        .map(num)
        .collect();
    if !opts.is_empty() {
        // More seeds make a longer game, fewer a quicker one (the sentence says which).
        let others = b
            .seeds_per_pit_options
            .iter()
            .filter(|&&o| o != b.seeds_per_pit);
        let way = if others.clone().all(|&o| o > b.seeds_per_pit) {
            "more"
        } else if others.clone().all(|&o| o < b.seeds_per_pit) {
            "fewer"
        } else {
            "other"
        };
        out.push(Para(ph.fmt(
            "rules.setup_options",
            &[
                ("options", &join_or(ph, &opts)),
                ("way", way),
                // The noun agrees with the number next to it ("1 seed", "1 or 2 seeds").
                ("last", opts.last().map_or("", String::as_str)),
            ],
        )));
    }
    out.push(Para(ph.fmt(
        "rules.setup_sides",
        &[
            ("a", a),
            ("b", bb),
            ("a1", &a1),
            ("an", &an),
            ("b1", &b1),
            ("bn", &bn),
            ("sa", &b.stores[0]),
            ("sb", &b.stores[1]),
            ("sa_named", named(&b.stores[0])),
            ("sb_named", named(&b.stores[1])),
        ],
    )));
    out.push(Para(ph.fmt("rules.setup_first", &[("a", a)])));
    if let Some(g) = rs.board.next_game_first {
        out.push(Para(ph.get(match g {
            crate::ruleset::NextGame::Winner => "rules.next_game_winner",
            crate::ruleset::NextGame::Loser => "rules.next_game_loser",
            crate::ruleset::NextGame::Alternate => "rules.next_game_alternate",
        })));
    }

    // A turn.
    out.push(Heading(ph.get("rules.h.turn")));
    let pick = if rs.sowing.min_seeds <= 1 {
        ph.get("rules.pick_nonempty")
    } else {
        ph.fmt("rules.pick_min", &[("min", &num(rs.sowing.min_seeds))])
    };
    out.push(Bullet(pick));
    out.push(Bullet(match rs.sowing.direction {
        Direction::Counterclockwise => ph.get("rules.dir_ccw"),
        Direction::Clockwise => ph.get("rules.dir_cw"),
        Direction::Either => {
            let row = &rs.board.pit_labels[0];
            ph.fmt(
                "rules.dir_either",
                &[("pit", &row[(row.len() / 2).saturating_sub(1)])],
            )
        }
    }));
    let own = rs.sowing.own_store == Include::Sow;
    let opp = rs.sowing.opponent_store == Include::Sow;
    out.push(Bullet(match (own, opp) {
        (true, true) => ph.get("rules.stores_both"),
        (true, false) => ph.get("rules.stores_own"),
        (false, true) => ph.get("rules.stores_opponent"),
        // Neither sown nor fed by captures, a store takes seeds only at the end.
        (false, false) if rs.no_seed_reaches_a_store() => ph.get("rules.stores_none_no_capture"),
        (false, false) => ph.get("rules.stores_none"),
    }));
    out.push(Bullet(match rs.sowing.origin_on_lap {
        Include::Skip => ph.get("rules.origin_skip"),
        Include::Sow => ph.get("rules.origin_sow"),
    }));
    match rs.sowing.relay {
        Relay::None => {}
        // A handful ending in a store ends the move too, where any store is sown into.
        Relay::Reverse | Relay::Same => {
            let sown_store = rs.sowing.own_store == crate::ruleset::Include::Sow
                || rs.sowing.opponent_store == crate::ruleset::Include::Sow;
            out.push(Bullet(ph.fmt(
                if rs.sowing.relay == Relay::Reverse {
                    "rules.relay_reverse"
                } else {
                    "rules.relay_same"
                },
                &[("store", if sown_store { "yes" } else { "no" })],
            )));
        }
    }
    out.push(Bullet(ph.get("rules.no_partial")));

    // Extra turns.
    let et = &rs.extra_turn;
    out.push(Heading(ph.get("rules.h.extra")));
    if !et.last_in_own_store && !et.empty_pit_before_crossing {
        out.push(Para(ph.get("rules.extra_none")));
    }
    if et.last_in_own_store {
        out.push(Para(ph.get("rules.extra_store")));
    }
    if et.empty_pit_before_crossing {
        out.push(Para(match rs.capture.crossing {
            Crossing::Sown => ph.get("rules.extra_before_crossing_sown"),
            Crossing::Landed => ph.get("rules.extra_before_crossing_landed"),
        }));
    }

    // Captures.
    let c = &rs.capture;
    out.push(Heading(ph.get("rules.h.capture")));
    let row = match c.side {
        RowSide::Own => ph.get("rules.row_own"),
        RowSide::Opponent => ph.get("rules.row_opponent"),
    };
    match c.kind {
        CaptureKind::None => out.push(Para(ph.get(if rs.no_seed_reaches_a_store() {
            "rules.capture_none_no_store"
        } else {
            "rules.capture_none"
        }))),
        CaptureKind::Opposite => {
            let was_empty = if c.last_pit_was_empty {
                ph.get("rules.cap_was_empty")
            } else {
                ph.get("rules.cap_any_pit")
            };
            let key = if c.take_capturing_seed {
                "rules.cap_opposite_take"
            } else {
                "rules.cap_opposite_leave"
            };
            out.push(Para(ph.fmt(key, &[("pit", &was_empty), ("row", &row)])));
            // What an empty pit across does, as the engine plays it: with seeds required there,
            // nothing; else the last seed is still taken (if the rule takes it) and the
            // following-empty chain still runs; leaving the last seed with no chain, nothing.
            if c.opposite_must_have_seeds {
                out.push(Para(ph.get("rules.cap_opposite_needs_seeds")));
            } else if !c.take_capturing_seed {
                out.push(Para(ph.get(if c.chain == Chain::FollowingEmpty {
                    "rules.cap_opposite_empty_chain"
                } else {
                    "rules.cap_opposite_needs_seeds"
                })));
            } else {
                out.push(Para(ph.get("rules.cap_opposite_empty_ok")));
            }
        }
        CaptureKind::Count => {
            let counts: Vec<String> = c.counts.iter().map(num).collect();
            out.push(Para(ph.fmt(
                "rules.cap_count",
                &[("counts", &join_or(ph, &counts)), ("row", &row)],
            )));
        }
    }
    if c.kind != CaptureKind::None {
        match c.chain {
            Chain::None => {}
            Chain::Backward => {
                let counts: Vec<String> = c.counts.iter().map(num).collect();
                out.push(Para(ph.fmt(
                    "rules.chain_backward",
                    &[("counts", &join_or(ph, &counts)), ("row", &row)],
                )));
            }
            // Relay sowing that turns back: the chain runs the way the last handful went
            // (the engine steps on in the last lap's direction).
            // Along the row the capture is made in (`capture.side`), as the engine steps.
            Chain::FollowingEmpty => out.push(Para(ph.fmt(
                if rs.sowing.relay == crate::ruleset::Relay::Reverse {
                    "rules.chain_following_last_handful"
                } else {
                    "rules.chain_following"
                },
                &[("row", &row)],
            ))),
        }
        if c.after_crossing_only {
            out.push(Para(match c.crossing {
                Crossing::Sown => ph.get("rules.cap_after_crossing_sown"),
                Crossing::Landed => ph.get("rules.cap_after_crossing_landed"),
            }));
        }
        let pairs: Vec<String> = (0..n)
            .map(|i| format!("{}–{}", b.pit_labels[0][i], b.pit_labels[1][n - 1 - i]))
            .collect();
        if c.kind == CaptureKind::Opposite || c.chain == Chain::FollowingEmpty {
            out.push(Para(
                ph.fmt("rules.pairs", &[("pairs", &join_and(ph, &pairs))]),
            ));
        }
        out.push(Para(ph.get("rules.cap_to_store")));

        if grand_slam_possible(rs) {
            out.push(Heading(ph.get("rules.h.grand_slam")));
            out.push(Para(match rs.grand_slam {
                GrandSlam::CaptureAll => ph.get("rules.gs_capture_all"),
                GrandSlam::NoCapture => ph.get("rules.gs_no_capture"),
                GrandSlam::Illegal => ph.get("rules.gs_illegal"),
                GrandSlam::IllegalUnlessOnly => ph.get("rules.gs_unless_only"),
            }));
        }
    }

    // Feeding.
    if rs.feeding.must_feed {
        out.push(Heading(ph.get("rules.h.feeding")));
        out.push(Para(ph.get("rules.feeding")));
    }

    // The end.
    let e = &rs.end;
    out.push(Heading(ph.get("rules.h.end")));
    if e.either_side_empty {
        let key = if et.last_in_own_store || et.empty_pit_before_crossing {
            "rules.end_side_empty_extra"
        } else {
            "rules.end_side_empty"
        };
        out.push(Bullet(ph.get(key)));
    }
    if let Some(t) = e.threshold {
        // "More than half" and the draw at half each only where the threshold is over half
        // the seeds; a lower one just ends the game there (the engine's rule is the same).
        out.push(Bullet(ph.fmt(
            if 2 * u32::from(t) > total {
                "rules.end_threshold"
            } else {
                "rules.end_threshold_low"
            },
            &[
                ("n", &num(t)),
                ("total", &num(total)),
                ("half", &num(total / 2)),
            ],
        )));
    }
    if e.repetition {
        out.push(Bullet(ph.get("rules.end_repetition")));
        out.push(Bullet(ph.get("rules.end_agreement")));
    }
    out.push(Bullet(match e.no_legal_move {
        NoLegalMove::End => {
            if rs.feeding.must_feed {
                ph.get("rules.end_no_move_feed")
            } else {
                ph.get("rules.end_no_move")
            }
        }
        NoLegalMove::Pass => {
            // Feeding and a grand-slam ban remove moves too (`Rules::legal_into`): a player
            // with seeds can then have none. `IllegalUnlessOnly` never removes the last move.
            let slam = rs.grand_slam == GrandSlam::Illegal && grand_slam_possible(rs);
            let key = match (rs.feeding.must_feed, slam) {
                (false, false) => "rules.end_pass",
                (true, false) => "rules.end_pass_feed",
                (false, true) => "rules.end_pass_slam",
                (true, true) => "rules.end_pass_feed_slam",
            };
            ph.fmt(key, &[("min", &num(rs.sowing.min_seeds))])
        }
    }));
    out.push(Para(match e.remaining_seeds {
        Remaining::Owner => ph.get("rules.remaining_owner"),
        Remaining::Mover => ph.get("rules.remaining_mover"),
        Remaining::Opponent => ph.get("rules.remaining_opponent"),
    }));
    out.push(Para(ph.fmt("rules.scoring", &[("total", &num(total))])));
    if !rs.board.seeds_per_pit_options.is_empty() {
        let pits = (2 * rs.board.pits_per_side) as u32;
        out.push(Para(
            ph.fmt("rules.scoring_options", &[("pits", &num(pits))]),
        ));
    }

    // Help at the table (`[support]`; source 000, "Practice and support").
    let sup = &rs.support;
    if sup.helper || sup.bowls || sup.small_children {
        out.push(Heading(ph.get("rules.h.support")));
        if sup.helper {
            out.push(Bullet(ph.get("rules.support.helper")));
        }
        if sup.bowls {
            out.push(Bullet(ph.get("rules.support.bowls")));
        }
        if sup.small_children {
            out.push(Bullet(ph.get("rules.support.small_children")));
        }
    }

    // The next round's worked examples (those played on a shortened board) go in its own
    // section, after the first round's.
    let phase_examples: Vec<usize> = match Rules::try_new(rs) {
        Ok(rules) => (0..rs.examples.len())
            .filter(|&i| {
                !rs.examples[i].exercise
                    && matches!(
                        crate::examples::board_for(&rules, &rs.examples[i]),
                        Ok(Some(_))
                    )
            })
            .collect(),
        Err(_) => Vec::new(),
    };

    // Worked examples.
    let worked: Vec<usize> = (0..rs.examples.len())
        .filter(|&i| !rs.examples[i].exercise)
        .filter(|i| rs.next_round.is_none() || !phase_examples.contains(i))
        .collect();
    let exercises: Vec<usize> = (0..rs.examples.len())
        .filter(|&i| rs.examples[i].exercise)
        .collect();
    if !worked.is_empty() {
        out.push(Heading(ph.get("rules.h.examples")));
        out.push(Para(format!(
            "{} {}",
            ph.get("rules.examples_intro"),
            how_to_read(rs, ph)
        )));
        out.extend(worked.into_iter().map(Example));
    }
    if let Some(nr) = &rs.next_round {
        next_round_blocks(rs, nr, ph, &mut out);
        out.extend(phase_examples.iter().map(|&i| Example(i)));
    }
    if !exercises.is_empty() {
        out.push(Heading(ph.get("rules.h.exercises")));
        out.push(Para(ph.get("rules.exercises_intro")));
        out.extend(exercises.into_iter().map(Example));
    }

    // Sources.
    let mut src = vec![Heading(ph.get("rules.h.sources"))];
    // The note that the sheets are sowkit's own words belongs with the credits: one paragraph
    // with the source, so it never stands apart (at the top of the rules, or alone on a page).
    src.push(Para(format!(
        "{} {}",
        ph.fmt("rules.source", &[("source", &rs.source)]),
        ph.get("rules.own_words")
    )));
    for (topic, cite) in &rs.rule_sources {
        // A citation is a sentence on the sheet: end it with a full stop.
        let cite = cite.trim_end();
        let cite = if cite.ends_with(['.', '!', '?']) {
            cite.to_string()
        } else {
            format!("{cite}.")
        };
        src.push(Bullet(ph.fmt(
            "rules.rule_source",
            &[
                ("topic", &ph.get(&format!("rules.topic.{topic}"))),
                ("cite", &cite),
            ],
        )));
    }
    out.push(Sources(src));
    out
}

/// How to read a worked example's before and after boards, in short sentences (the rule
/// sheets' examples and the host key's answers): the counts, the pit lifted from, the
/// sowing-order boxes, and only where `rs` has them the relay's further handfuls and the
/// dashed ring of a capture.
pub(crate) fn how_to_read(rs: &Ruleset, ph: &Phrases) -> String {
    let relay = rs.sowing.relay != Relay::None;
    let mut s = vec![ph.get("read.counts")];
    s.push(ph.get(if relay {
        "read.origin_relay"
    } else {
        "read.origin"
    }));
    s.push(ph.get("read.order"));
    if relay {
        s.push(ph.get("read.order_relay"));
    }
    if rs.capture.kind != CaptureKind::None {
        s.push(ph.get("read.captured"));
    }
    s.join(" ")
}

/// The boards of `prep` as [`diagram::draw_boards`] sets them across `w` mm: the height it
/// uses (its reserved space, which the caption follows) and the height down to its lowest
/// ink (what must fit above a page's content bottom), mm. Drawn on a scratch page.
pub(crate) fn boards_height(
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    prep: &Prepared,
    paper: Paper,
    w: f64,
) -> (f64, f64) {
    part_height(rs, ph, sz, prep, paper, w, diagram::Part::Both)
}

/// [`boards_height`] of `part` of the boards ([`diagram::draw_part`]).
fn part_height(
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    prep: &Prepared,
    paper: Paper,
    w: f64,
    part: diagram::Part,
) -> (f64, f64) {
    let mut scratch = page::portrait("scratch", paper);
    let used = diagram::draw_part(&mut scratch, rs, ph, sz, prep, MARGIN, MARGIN, w, part);
    let ink = ink_bottom(&scratch.items).unwrap_or(MARGIN);
    (used, (ink - MARGIN).min(used))
}

/// Whether the worked example `prep` is split between its stacked boards: its title and both
/// boards are taller than a whole page's content area (above the bottom band), so the "After"
/// board starts the next page rather than run into the calibration bar and footer.
/// `title` is the height of the title above the boards and `ink` the boards' height down to
/// their lowest ink ([`boards_height`]), mm.
pub(crate) fn splits_boards(
    rs: &Ruleset,
    sz: &Sizes,
    prep: &Prepared,
    paper: Paper,
    title: f64,
    ink: f64,
) -> bool {
    let w = paper.width - 2.0 * MARGIN;
    let usable = page::content_bottom(paper.width, paper.height, sz) - MARGIN;
    title + ink > usable + 1e-6 && prep.after.is_some() && diagram::stacked(rs, w, sz)
}

/// Height of the boards of `prep` that must stay on one page with their title, mm: both
/// boards down to their ink (`ink`, from [`boards_height`]), or, when they are `split`
/// ([`splits_boards`]), the first board's (drawn on a scratch page).
pub(crate) fn boards_lead(
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    prep: &Prepared,
    paper: Paper,
    split: bool,
    ink: f64,
) -> f64 {
    if !split {
        return ink;
    }
    let w = paper.width - 2.0 * MARGIN;
    part_height(rs, ph, sz, prep, paper, w, diagram::Part::Before).1
}

/// Draws the boards of `prep` at `f`'s place, across the page: both together, or, when
/// `split` (they are taller than a page with their title, [`splits_boards`]), split between
/// them: the first board ends this page, "After" starts the next. `used` is the height both
/// use together ([`boards_height`]). Moves `f` below them.
pub(crate) fn flow_boards(
    f: &mut Flow,
    rs: &Ruleset,
    ph: &Phrases,
    prep: &Prepared,
    split: bool,
    used: f64,
) {
    use diagram::Part;
    let (sz, paper, w) = (f.sz, f.paper, f.width());
    let y = f.y;
    if !split {
        if !f.dry {
            diagram::draw_boards(f.page(), rs, ph, &sz, prep, MARGIN, y, w);
        }
        f.y += used + 1.0;
        return;
    }
    let used = diagram::draw_part(f.page(), rs, ph, &sz, prep, MARGIN, y, w, Part::Before);
    f.y += used + STACK_GAP;
    let (used, ink) = part_height(rs, ph, &sz, prep, paper, w, Part::After);
    f.room(ink);
    let y = f.y;
    diagram::draw_part(f.page(), rs, ph, &sz, prep, MARGIN, y, w, Part::After);
    f.y += used + 1.0;
}

/// The lowest ink of `items`, mm from the page top: shapes with half their stroke, texts to
/// their descent, a clip's items cut to it; `None` when nothing prints.
fn ink_bottom(items: &[crate::doc::Item]) -> Option<f64> {
    use crate::doc::Item;
    items
        .iter()
        .filter_map(|it| match it {
            Item::Shape(s) => {
                let hw = s.stroke.as_ref().map_or(0.0, |st| st.width / 2.0);
                crate::doc::bounds(&s.segs).map(|b| b.3 + hw)
            }
            Item::Text(t) => Some(t.y + text::descent_mm(t.size_pt)),
            Item::Clip(c) => ink_bottom(&c.items).map(|b| b.min(c.y + c.h)),
        })
        .reduce(f64::max)
}

/// A paginator: places lines top to bottom and opens a new portrait page (named
/// `<prefix>-1`, `<prefix>-2`, …) when one is full. Shared by the rule sheets, the practice page
/// and the host key.
pub(crate) struct Flow {
    paper: Paper,
    /// The type sizes of the sheets it sets (and the bottom band they keep free).
    pub(crate) sz: Sizes,
    prefix: String,
    pub(crate) pages: Vec<Page>,
    /// Top of the free space on the current page, mm.
    pub(crate) y: f64,
    /// Set by [`Flow::place`] when a heading stayed on this page on the promise that the item
    /// after it may be split there: that item's own [`Flow::place`] keeps the promise.
    split_next: bool,
    /// How far down each finished page was set: `y` when the next page was opened, mm.
    ends: Vec<f64>,
    /// A heading set at the top of every page opened while it is set: bold lines at a size,
    /// pt (the host key's "Exercise 1 (continued)" over an answer that runs on).
    pub(crate) running_head: Option<(Vec<String>, f64)>,
    /// Measuring only: pages are opened and `y` moves as when setting, but lines and boards
    /// are not drawn (the rule sheets measure each layout they try, then set the one chosen).
    pub(crate) dry: bool,
    /// The share of a page a heading may leave empty by moving on with its worked example
    /// ([`MOST_LEFT_EMPTY_FOR_A_HEADING`] unless a rule-sheet layout [`Tweak`] lowers it).
    heading_empty: f64,
}

/// Where [`Flow::place`] puts an item (see there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placed {
    /// Whole, on this page.
    Whole,
    /// Its lead on this page; the rest runs on over the page break.
    Split,
    /// Whole, at the top of a new page.
    NextPage,
}

/// The share of a page's content height that moving an item whole to the next page may leave
/// empty; past it, an item whose lead fits is split instead ([`Flow::place`]).
pub(crate) const MOST_LEFT_EMPTY: f64 = 0.25;

/// The share of a page's content height that moving a heading (and the short introduction
/// kept with it) to the next page, with the worked example it introduces, may leave empty;
/// past it the heading and introduction stay and the example moves on alone
/// ([`Flow::place_heading`]). Larger than [`MOST_LEFT_EMPTY`]: a heading at the foot of a page
/// with its example overleaf reads as a stray line (a new user's first look at a large-print
/// kit: "Try it yourself" and its intro alone at the bottom of a page).
pub(crate) const MOST_LEFT_EMPTY_FOR_A_HEADING: f64 = 0.5;

impl Flow {
    pub(crate) fn new(paper: Paper, sz: &Sizes, prefix: &str) -> Flow {
        let mut f = Flow {
            paper,
            sz: *sz,
            prefix: prefix.to_string(),
            pages: Vec::new(),
            y: 0.0,
            split_next: false,
            heading_empty: MOST_LEFT_EMPTY_FOR_A_HEADING,
            ends: Vec::new(),
            running_head: None,
            dry: false,
        };
        f.new_page();
        f
    }
    fn new_page(&mut self) {
        if !self.pages.is_empty() {
            self.ends.push(self.y);
        }
        let name = format!("{}-{}", self.prefix, self.pages.len() + 1);
        self.pages.push(page::portrait(&name, self.paper));
        self.y = MARGIN;
        if let Some((lines, size)) = self.running_head.clone() {
            let lh = text::line_height_mm(size);
            for l in &lines {
                let base = self.y + text::ascent_mm(size);
                self.page().text(MARGIN, base, size, Weight::Bold, l);
                self.y += lh;
            }
            self.y += 1.0;
        }
    }
    fn bottom(&self) -> f64 {
        page::content_bottom(self.paper.width, self.paper.height, &self.sz)
    }
    /// Width between the margins, mm.
    pub(crate) fn width(&self) -> f64 {
        self.paper.width - 2.0 * MARGIN
    }
    /// Free height left on the current page, mm.
    pub(crate) fn free(&self) -> f64 {
        self.bottom() - self.y
    }
    /// Height of a whole page's content area, mm.
    pub(crate) fn usable(&self) -> f64 {
        self.bottom() - MARGIN
    }
    /// Makes room for `h` mm, opening a page if needed (never on an empty page).
    pub(crate) fn room(&mut self, h: f64) {
        if self.y + h > self.bottom() && self.y > MARGIN + 0.01 {
            self.new_page();
        }
    }
    /// How full each page is so far, the last one included: the height set on it over a whole
    /// page's content height ([`Flow::usable`]), 0 to 1 (a little over 1 where the space after
    /// the last line ran past the content bottom).
    pub(crate) fn fills(&self) -> Vec<f64> {
        let u = self.usable();
        self.ends
            .iter()
            .chain(std::iter::once(&self.y))
            .map(|&y| (y - MARGIN) / u)
            .collect()
    }
    /// Whether the current page is still empty (nothing set on it yet).
    pub(crate) fn at_top(&self) -> bool {
        self.y <= MARGIN + 0.01
    }
    /// The one paging rule of the rule sheets, the practice page and the host key, for an item
    /// of `gap` mm of space above it and then `whole` mm of content (ink, without the space
    /// after it), of which the first `lead` mm (heading and boards) must stay on one page and
    /// the rest (caption paragraphs) may run on over a page break (`lead == whole`: never
    /// split). The gap is dropped at the top of a page. The item goes
    /// 1. whole on this page when it fits;
    /// 2. else (large print only) split, its lead here, when the lead fits and moving it whole
    ///    would leave more than [`MOST_LEFT_EMPTY`] of the page empty (or a heading above it
    ///    promised so);
    /// 3. else whole at the top of a new page (split there if taller than a page).
    ///
    /// Sets `y` to where the item's content starts and says which it did.
    pub(crate) fn place(&mut self, gap: f64, whole: f64, lead: f64) -> Placed {
        let promised = std::mem::take(&mut self.split_next);
        let placed = self.decide(gap, whole, lead, promised);
        match placed {
            Placed::NextPage => self.new_page(),
            _ if !self.at_top() => self.y += gap,
            _ => {}
        }
        placed
    }
    /// [`Flow::place`] for a heading `head` mm tall (with `gap` above it) that must stay with
    /// the next item (`whole`, `lead` as there): decides for both, and when the heading stays
    /// on a page the next item may only split on, promises that split to its `place`. When
    /// both would move to a new page, leaving more than [`MOST_LEFT_EMPTY_FOR_A_HEADING`] of this one empty,
    /// the heading stays if it fits with the `least` mm that must follow it (an introduction
    /// before a worked example: the example then moves on by itself).
    pub(crate) fn place_heading(
        &mut self,
        gap: f64,
        head: f64,
        (whole, lead, least): (f64, f64, f64),
    ) -> Placed {
        let mut placed = self.decide(gap, head + whole, head + lead, false);
        if placed == Placed::NextPage
            && self.free() - gap > self.heading_empty * self.usable()
            && self.decide(gap, head + least, head + least, false) == Placed::Whole
        {
            placed = Placed::Whole;
        }

        match placed {
            Placed::NextPage => self.new_page(),
            _ if !self.at_top() => self.y += gap,
            _ => {}
        }
        self.split_next = placed == Placed::Split && lead < whole - 1e-6;
        if placed == Placed::Whole && self.y + head + whole > self.bottom() + 1e-6 {
            // Kept with `least` only.
            self.split_next = false;
        }
        placed
    }
    /// The choice [`Flow::place`] makes, without making it.
    fn decide(&self, gap: f64, whole: f64, lead: f64, promised: bool) -> Placed {
        let gap = if self.at_top() { 0.0 } else { gap };
        let free = self.free() - gap;
        if whole <= free + 1e-6 {
            return Placed::Whole;
        }
        // Normal print keeps an item's caption on the page of its boards; large print, whose
        // items are a page tall, may run the caption on rather than leave a page mostly empty
        // (a worked example's lead holds its caption's first lines: [`example_dims`]).
        let may_split = self.sz.large && lead < whole - 1e-6 && lead <= free + 1e-6;
        if self.at_top() || (may_split && (promised || free > MOST_LEFT_EMPTY * self.usable())) {
            return if whole <= free + 1e-6 {
                Placed::Whole
            } else {
                Placed::Split
            };
        }
        Placed::NextPage
    }
    /// Before a paragraph of `n` lines at `size`: a short one (up to 5 lines) is moved whole to
    /// the next page rather than split; a longer one may split, but not before its first line.
    pub(crate) fn keep_together(&mut self, n: usize, size: f64) {
        let lh = text::line_height_mm(size);
        self.room(if n <= 5 { n as f64 * lh } else { lh });
    }
    /// The current page.
    pub(crate) fn page(&mut self) -> &mut Page {
        let i = self.pages.len() - 1;
        &mut self.pages[i]
    }
    /// Sets wrapped lines at `x`, each line kept whole on a page.
    pub(crate) fn lines(&mut self, x: f64, lines: &[String], size: f64, weight: Weight) {
        let lh = text::line_height_mm(size);
        for l in lines {
            self.room(lh);
            if !self.dry {
                let base = self.y + text::ascent_mm(size);
                self.page().text(x, base, size, weight, l);
            }
            self.y += lh;
        }
    }
    /// Wraps `s` to the full width and sets it, then adds `after` mm.
    pub(crate) fn para(&mut self, s: &str, size: f64, weight: Weight, after: f64) {
        let lines = super::wrap(s, size, weight, self.width());
        self.lines(MARGIN, &lines, size, weight);
        self.y += after;
    }

    /// A sheet title `s` in bold at `size` pt, broken as [`super::title_lines`] breaks it,
    /// then `after` mm more.
    pub(crate) fn title(&mut self, s: &str, size: f64, after: f64) {
        let lines = super::title_lines(s, size, self.width());
        self.lines(MARGIN, &lines, size, Weight::Bold);
        self.y += after;
    }
}

/// One rule-sheet layout: its pages, and how full each is (0 to 1, see [`Flow::fills`]).
pub type Layout = (Vec<Page>, Vec<f64>);

/// The least share of a rule-sheet page after the first that should be filled (see
/// [`layouts`]).
pub const MIN_FILL: f64 = 0.30;

/// Lays out the rule sheet pages (portrait `paper`, type sizes `sz`): of [`layouts`], with
/// the mini boards' pits as `sz` has them and then at their smallest ([`Sizes::mini_pit`]),
/// the one with the fewest pages whose pages after the first are each at least [`MIN_FILL`]
/// full (the first of those in that order), else the first. A worked example a millimetre
/// too tall to share a page went on alone and left half a page empty, and a layout the
/// sheet could choose held the same text on a page fewer. Errors when a worked example
/// cannot be replayed by the engine.
pub fn pages(rs: &Ruleset, paper: Paper, sz: &Sizes, ph: &Phrases) -> Result<Vec<Page>, String> {
    let (least, most) = sz.mini_pit;
    let smallest = Sizes {
        mini_pit: (least, least),
        ..*sz
    };
    // The worked examples replayed, and the text wrapped, once for both pit sizes (neither
    // depends on them).
    let prepared = prepare(rs, ph)?;
    let sheet = Sheet::new(rs, paper, sz, ph, &prepared);
    let mut tried = vec![sheet.sized(sz)];
    if least < most {
        tried.push(sheet.sized(&smallest));
    }
    // Each layout is measured without drawing; only the one chosen is set. Each candidate:
    // (pages, index into `tried`, layout).
    let mut first = None;
    let mut best: Option<(usize, usize, usize)> = None;
    for (i, s) in tried.iter().enumerate() {
        for k in 0..sheet.count() {
            let l = sheet.lay_out(s, k, true);
            let n = l.0.len();
            if full_enough(&l) {
                if best.is_none_or(|b| n < b.0) {
                    best = Some((n, i, k));
                }
            } else if first.is_none() {
                first = Some((n, i, k));
            }
        }
    }
    if let Some((_, i, k)) = best {
        return Ok(sheet.lay_out(&tried[i], k, false).0);
    }
    // No layout leaves every page after the first full enough (a last page holding only the
    // sources, an introduction alone before its example): the same layouts again with a
    // heading kept on a page it would leave over a quarter empty, or a page broken before a
    // heading,
    // so that the page after it holds more. The fewest pages win, then the break latest in
    // the sheet (the least moved); the measuring is done only when it is needed.
    let Some((n_first, i_first, k_first)) = first else {
        return Ok(Vec::new());
    };
    let mut tweaked: Option<(usize, usize, usize, Tweak)> = None;
    for (i, s) in tried.iter().enumerate() {
        for k in 0..sheet.count() {
            for t in sheet.tweaks(k) {
                let l = sheet.lay_out_tweaked(s, k, true, t);
                let n = l.0.len();
                if n <= n_first && full_enough(&l) && tweaked.is_none_or(|b| n < b.0) {
                    tweaked = Some((n, i, k, t));
                }
            }
        }
    }
    Ok(match tweaked {
        Some((_, i, k, t)) => sheet.lay_out_tweaked(&tried[i], k, false, t).0,
        None => sheet.lay_out(&tried[i_first], k_first, false).0,
    })
}

/// A change to a rule-sheet layout tried only when no layout leaves every page after the
/// first at least [`MIN_FILL`] full ([`pages`]).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tweak {
    /// As laid out.
    None,
    /// A heading stays with its introduction on a page it would leave more than this share
    /// of empty by moving on with its worked example ([`Flow::place_heading`]).
    HeadingStays(f64),
    /// A new page before the block at this place in the layout's order (a heading).
    BreakBefore(usize),
}

/// Whether every page of `l` after the first is at least [`MIN_FILL`] full.
fn full_enough(l: &Layout) -> bool {
    l.1.iter().skip(1).all(|&x| x >= MIN_FILL)
}

/// The rule sheet layouts [`pages`] chooses from, in order of preference, each with how full
/// each of its pages is (the height set on it over the page's content height, 0 to 1, from
/// the paginator's own model): the sources at body size after everything else; (normal print
/// only) the same with the sources at caption size; the sources right after the rules text,
/// before the worked examples, at body size and (normal print only) at caption size. The
/// sources are one block, never split over a page break. Errors when a worked example cannot
/// be replayed by the engine.
pub fn layouts(
    rs: &Ruleset,
    paper: Paper,
    sz: &Sizes,
    ph: &Phrases,
) -> Result<Vec<Layout>, String> {
    let prepared = prepare(rs, ph)?;
    let sheet = Sheet::new(rs, paper, sz, ph, &prepared);
    let s = sheet.sized(sz);
    Ok((0..sheet.count())
        .map(|k| sheet.lay_out(&s, k, false))
        .collect())
}

/// Each worked example of `rs` replayed by the engine for its diagrams
/// ([`diagram::prepare`]), in order. Errors when one cannot be replayed.
fn prepare(rs: &Ruleset, ph: &Phrases) -> Result<Vec<Prepared>, String> {
    let rules = Rules::try_new(rs)?;
    rs.examples
        .iter()
        .map(|ex| diagram::prepare(rs, &rules, ex, ph, false))
        .collect()
}

/// The rule sheet ready to be laid out as each of [`layouts`]: its blocks, the orders they are
/// tried in, and all their text wrapped once (the lines are the same in every layout; only
/// the sources' size differs, and both are wrapped).
struct Sheet<'a> {
    rs: &'a Ruleset,
    paper: Paper,
    ph: &'a Phrases,
    /// The worked examples, replayed ([`prepare`]).
    prepared: &'a [Prepared],
    /// The sheet's [`blocks`].
    blocks: Vec<Block>,
    /// Each block's lines as set: the title broken as [`super::title_lines`] breaks it, a
    /// heading at the heading size, a paragraph at body size, a bullet at body size beside its
    /// indent; none for a worked example or the sources.
    lines: Vec<Vec<String>>,
    /// The orders tried, as indices into `blocks`: as written, then (where they differ) with
    /// the sources before the worked examples ([`sources_before_examples`]).
    orders: Vec<Vec<usize>>,
    /// The sources block set at each size tried, body size first ([`source_parts`]).
    sources: Vec<Vec<SourcePart>>,
    /// Each worked example's title lines as set (an exercise numbered instead of titled).
    titles: Vec<Vec<String>>,
    /// Each worked example's caption paragraphs after its title, wrapped at caption size.
    captions: Vec<Vec<Vec<String>>>,
}

/// A [`Sheet`]'s worked examples measured in one set of sizes ([`Sheet::sized`]).
struct SheetSizes {
    sz: Sizes,
    /// [`example_dims`] of each worked example, in order.
    dims: Vec<Dims>,
}

impl<'a> Sheet<'a> {
    /// The rule sheet of `rs` on `paper` with the type sizes of `sz` (the pit sizes do not
    /// matter here) and the worked examples `prepared` by [`prepare`].
    fn new(
        rs: &'a Ruleset,
        paper: Paper,
        sz: &Sizes,
        ph: &'a Phrases,
        prepared: &'a [Prepared],
    ) -> Sheet<'a> {
        let w = paper.width - 2.0 * MARGIN;
        let blocks = blocks(rs, ph);
        let lines = blocks
            .iter()
            .map(|b| match b {
                Block::Title(s) => super::title_lines(s, sz.title, w),
                Block::Heading(s) => super::wrap(s, sz.head, Weight::Bold, w),
                Block::Para(s) => super::wrap(s, sz.body, Weight::Regular, w),
                Block::Bullet(s) => super::wrap(s, sz.body, Weight::Regular, w - BULLET_INDENT),
                Block::Example(_) | Block::Sources(_) => Vec::new(),
            })
            .collect();
        let mut orders = vec![(0..blocks.len()).collect()];
        orders.extend(sources_before_examples(&blocks, ph));
        let mut sizes = vec![sz.body];
        if !sz.large {
            sizes.push(sz.caption);
        }
        let items: &[Block] = blocks
            .iter()
            .find_map(|b| match b {
                Block::Sources(items) => Some(items.as_slice()),
                _ => None,
            })
            .unwrap_or_default();
        let sources = sizes
            .iter()
            .map(|&size| source_parts(items, sz, size, w))
            .collect();
        let titles = prepared
            .iter()
            .enumerate()
            .map(|(k, prep)| {
                // An exercise's own title often gives its answer away: number it instead, the
                // same number it has on the practice page (the ruleset's exercises come first).
                let heading = if rs.examples[k].exercise {
                    let n = rs.examples[..=k].iter().filter(|e| e.exercise).count();
                    ph.fmt("practice.number", &[("n", &n.to_string())])
                } else {
                    prep.caption[0].clone()
                };
                super::wrap(&heading, sz.example_title, Weight::Bold, w)
            })
            .collect();
        let captions = prepared
            .iter()
            .map(|prep| {
                prep.caption[1..]
                    .iter()
                    .map(|c| super::wrap(c, sz.caption, Weight::Regular, w))
                    .collect()
            })
            .collect();
        Sheet {
            rs,
            paper,
            ph,
            prepared,
            blocks,
            lines,
            orders,
            sources,
            titles,
            captions,
        }
    }

    /// How many layouts there are ([`layouts`]).
    fn count(&self) -> usize {
        self.orders.len() * self.sources.len()
    }

    /// The worked examples measured in the sizes `sz` ([`example_dims`]).
    fn sized(&self, sz: &Sizes) -> SheetSizes {
        let dims = self
            .prepared
            .iter()
            .zip(&self.captions)
            .map(|(p, c)| example_dims(self.rs, sz, self.ph, p, self.paper, c))
            .collect();
        SheetSizes { sz: *sz, dims }
    }

    /// Lays out the `k`th of [`layouts`] on rule sheet pages in the sizes of `s`, with each
    /// page's fill ([`Flow::fills`]); when `dry`, only measured: the pages are the same in
    /// number and fill, but nothing is drawn on them.
    fn lay_out(&self, s: &SheetSizes, k: usize, dry: bool) -> Layout {
        self.lay_out_tweaked(s, k, dry, Tweak::None)
    }

    /// The tweaks [`pages`] tries on the `k`th layout when none is full enough: a heading
    /// that stays on a page it would leave a quarter empty; then a new page before each
    /// heading after the first page's title, latest first.
    fn tweaks(&self, k: usize) -> Vec<Tweak> {
        let order = &self.orders[k / self.sources.len()];
        let mut t = vec![Tweak::HeadingStays(MOST_LEFT_EMPTY)];
        t.extend(
            order
                .iter()
                .enumerate()
                .rev()
                .filter(|&(at, &i)| at > 1 && matches!(self.blocks[i], Block::Heading(_)))
                .map(|(at, _)| Tweak::BreakBefore(at)),
        );
        t
    }

    /// [`Sheet::lay_out`] with a [`Tweak`].
    fn lay_out_tweaked(&self, s: &SheetSizes, k: usize, dry: bool, tweak: Tweak) -> Layout {
        let (rs, ph, paper) = (self.rs, self.ph, self.paper);
        let (sz, dims, blocks) = (&s.sz, &s.dims, &self.blocks);
        let order = &self.orders[k / self.sources.len()];
        let sources = &self.sources[k % self.sources.len()];
        let (body, head, title_pt, caption) = (sz.body, sz.head, sz.title, sz.caption);
        let ex_title = sz.example_title;
        let mut f = Flow::new(paper, sz, "rules");
        f.dry = dry;
        if let Tweak::HeadingStays(share) = tweak {
            f.heading_empty = share;
        }
        for (at, &i) in order.iter().enumerate() {
            let lines = &self.lines[i];
            if tweak == Tweak::BreakBefore(at) && !f.at_top() {
                f.new_page();
            }
            match &blocks[i] {
                Block::Title(_) => {
                    f.lines(MARGIN, lines, title_pt, Weight::Bold);
                    f.y += 1.0;
                }
                Block::Heading(_) => {
                    // Keep a heading with the first lines of what follows.
                    // …and when that is a short introduction to examples, with the first
                    // example too. (Large print looks past empty paragraphs, which set nothing.)
                    let ahead = |n: usize| {
                        if sz.large {
                            order[at + 1..]
                                .iter()
                                .filter(|&&j| !matches!(&blocks[j], Block::Para(p) if p.is_empty()))
                                .nth(n)
                                .copied()
                        } else {
                            order.get(at + 1 + n).copied()
                        }
                    };
                    let block = |j: Option<usize>| j.map(|j| (j, &blocks[j]));
                    // What must stay with the heading (`whole`) and what may run on over a
                    // page break (`lead`: up to a worked example's boards).
                    let para_h =
                        |j: usize| self.lines[j].len() as f64 * text::line_height_mm(body) + 1.2;
                    let next = match (block(ahead(0)), block(ahead(1))) {
                        (Some((_, Block::Example(k))), _) => {
                            let (ew, el) = (dims[*k].whole, dims[*k].lead);
                            (EXAMPLE_GAP + ew, EXAMPLE_GAP + el, EXAMPLE_GAP + el)
                        }
                        (Some((j, Block::Para(_))), Some((_, Block::Example(k)))) => {
                            let (ew, el) = (dims[*k].whole, dims[*k].lead);
                            let ph = para_h(j);
                            (ph + EXAMPLE_GAP + ew, ph + EXAMPLE_GAP + el, ph)
                        }
                        // Large print: a short paragraph after the heading moves whole (see
                        // `Flow::keep_together`), so keep the heading with all of it.
                        (Some((j, Block::Para(_) | Block::Bullet(_))), _) if sz.large => {
                            let n = self.lines[j].len();
                            let n = if n <= 5 { n } else { 2 };
                            let h = n as f64 * text::line_height_mm(body);
                            (h, h, h)
                        }
                        _ => {
                            let h = 2.0 * text::line_height_mm(body);
                            (h, h, h)
                        }
                    };
                    let head_h = lines.len() as f64 * text::line_height_mm(head) + 0.8;
                    f.place_heading(2.5, head_h, next);
                    f.lines(MARGIN, lines, head, Weight::Bold);
                    f.y += 0.8;
                }
                Block::Para(_) => {
                    f.keep_together(lines.len(), body);
                    f.lines(MARGIN, lines, body, Weight::Regular);
                    f.y += 1.2;
                }
                Block::Bullet(_) => {
                    f.keep_together(lines.len(), body);
                    if !dry {
                        let base = f.y + text::ascent_mm(body);
                        f.page()
                            .text(MARGIN + 1.0, base, body, Weight::Regular, "•");
                    }
                    f.lines(MARGIN + BULLET_INDENT, lines, body, Weight::Regular);
                    f.y += 0.8;
                }
                Block::Example(k) => {
                    let prep = &self.prepared[*k];
                    let d = dims[*k];
                    let placed = f.place(EXAMPLE_GAP, d.whole, d.lead);
                    let title = &self.titles[*k];
                    f.lines(MARGIN, title, ex_title, Weight::Bold);
                    let title_h = title.len() as f64 * text::line_height_mm(ex_title);
                    let split = splits_boards(rs, sz, prep, paper, title_h, d.ink);
                    flow_boards(&mut f, rs, ph, prep, split, d.used);
                    for (i, lines) in self.captions[*k].iter().enumerate() {
                        if i == 0 && placed == Placed::Split && !split {
                            // Its first lines were placed with the boards ([`example_dims`]);
                            // the rest may run on.
                            f.room(
                                lines.len().min(CAPTION_LEAD) as f64
                                    * text::line_height_mm(caption),
                            );
                        } else if placed == Placed::Split || split {
                            // A split example breaks between its caption's paragraphs where
                            // it can.
                            f.keep_together(lines.len(), caption);
                        }
                        f.lines(MARGIN, lines, caption, Weight::Regular);
                    }
                    f.y += 2.0;
                }
                Block::Sources(_) => {
                    // One block: whole on this page, or whole atop the next.
                    let h: f64 = sources.iter().map(SourcePart::height).sum();
                    f.place(2.5, h, h);
                    for p in sources {
                        let x = if p.bullet {
                            if !dry {
                                let base = f.y + text::ascent_mm(p.size);
                                f.page()
                                    .text(MARGIN + 1.0, base, p.size, Weight::Regular, "•");
                            }
                            MARGIN + BULLET_INDENT
                        } else {
                            MARGIN
                        };
                        f.lines(x, &p.lines, p.size, p.weight);
                        f.y += p.after;
                    }
                }
            }
        }
        let fills = f.fills();
        (f.pages, fills)
    }
}

/// The order of `blocks` (indices into it) with the sources moved to just before the first
/// worked-example section (worked examples, the next round or the exercises); `None` when
/// there is none or they are there already.
fn sources_before_examples(blocks: &[Block], ph: &Phrases) -> Option<Vec<usize>> {
    let heads = [
        ph.get("rules.h.examples"),
        ph.get("rules.next.heading"),
        ph.get("rules.h.exercises"),
    ];
    let at = blocks
        .iter()
        .position(|b| matches!(b, Block::Heading(h) if heads.contains(h)))?;
    let src = blocks.iter().position(|b| matches!(b, Block::Sources(_)))?;
    if src < at {
        return None;
    }
    let mut out: Vec<usize> = (0..blocks.len()).collect();
    let s = out.remove(src);
    out.insert(at, s);
    Some(out)
}

/// One item of the sources block as [`Sheet::lay_out`] sets it: its wrapped lines, their size (pt)
/// and weight, whether it is a bullet, and the space after it, mm.
struct SourcePart {
    lines: Vec<String>,
    size: f64,
    weight: Weight,
    bullet: bool,
    after: f64,
}

impl SourcePart {
    /// Height set, the space after included, mm.
    fn height(&self) -> f64 {
        self.lines.len() as f64 * text::line_height_mm(self.size) + self.after
    }
}

/// The sources block `items` (heading, paragraphs, bullets) wrapped to `w` mm, its text at
/// `size` pt and its heading at the sheet's heading size.
fn source_parts(items: &[Block], sz: &Sizes, size: f64, w: f64) -> Vec<SourcePart> {
    items
        .iter()
        .filter_map(|it| {
            let (s, size, weight, bullet, after) = match it {
                Block::Heading(s) => (s, sz.head, Weight::Bold, false, 0.8),
                Block::Para(s) => (s, size, Weight::Regular, false, 1.2),
                Block::Bullet(s) => (s, size, Weight::Regular, true, 0.8),
                _ => return None,
            };
            let width = if bullet { w - BULLET_INDENT } else { w };
            Some(SourcePart {
                lines: super::wrap(s, size, weight, width),
                size,
                weight,
                bullet,
                after,
            })
        })
        .collect()
}

/// Space above a worked example's title, mm (dropped at the top of a page).
const EXAMPLE_GAP: f64 = 1.0;
/// Space between the two boards of a worked example split over a page break when both stay
/// on one page, mm (as between stacked boards).
const STACK_GAP: f64 = 2.0;

/// A worked example's heights on a rule sheet in the sizes `sz` (see [`example_dims`]), mm.
#[derive(Debug, Clone, Copy)]
struct Dims {
    /// The whole block (title, boards and caption), without the [`EXAMPLE_GAP`] above it.
    whole: f64,
    /// Its lead: title and boards down to their ink, which stay on one page (see
    /// [`Flow::place`]).
    lead: f64,
    /// Both boards' height as set, which the caption follows ([`boards_height`]).
    used: f64,
    /// Both boards down to their lowest ink ([`boards_height`]).
    ink: f64,
}

/// A worked example's heights in the sizes `sz`, mm (see [`Dims`]), its boards drawn on a
/// scratch page once (and their first board alone when they are split); `captions` are its
/// caption's paragraphs after the title, wrapped at caption size.
fn example_dims(
    rs: &Ruleset,
    sz: &Sizes,
    ph: &Phrases,
    prep: &Prepared,
    paper: Paper,
    captions: &[Vec<String>],
) -> Dims {
    let w = paper.width - 2.0 * MARGIN;
    let title = super::wrap(&prep.caption[0], sz.example_title, Weight::Bold, w).len() as f64
        * text::line_height_mm(sz.example_title);
    let (used, ink) = boards_height(rs, ph, sz, prep, paper, w);
    let split = splits_boards(rs, sz, prep, paper, title, ink);
    let cap: usize = captions.iter().map(Vec::len).sum();
    let lh = text::line_height_mm(sz.caption);
    // 1 mm comes between the boards and the caption.
    let whole = title + used + 1.0 + cap as f64 * lh;
    let lead = if split {
        // Split between its boards: only the first must stay with the title.
        title + boards_lead(rs, ph, sz, prep, paper, true, ink)
    } else {
        // The caption's first lines (up to CAPTION_LEAD) stay with the boards: a caption read
        // a page away from its diagram was what a Spanish reader found (Oware in large print
        // on A3: "Captura total" and "Con veinticinco se gana" had their two-line captions at
        // the top of the next page).
        let first = captions.first().map_or(0, Vec::len).min(CAPTION_LEAD);
        (title + used + 1.0 + first as f64 * lh).min(whole)
    };
    Dims {
        whole,
        lead,
        used,
        ink,
    }
}

/// Lines of a worked example's caption, at most, that stay on the page of its boards when
/// the example runs on over a page break (see [`example_dims`]).
const CAPTION_LEAD: usize = 2;

#[cfg(test)]
mod tests {
    use super::*;

    /// A paragraph run over a page break while [`Flow::running_head`] is set: the new page
    /// begins with the head, bold at its size, and the paragraph's next line comes under it
    /// (one head line of 18 pt is 7.62 mm, plus 1 mm, below the top margin).
    #[test]
    fn a_page_opened_under_a_running_head_begins_with_it() {
        let sz = Sizes::LARGE;
        let mut f = Flow::new(super::super::A4, &sz, "answers");
        let lines: Vec<String> = (0..60).map(|i| format!("line {i}")).collect();
        f.running_head = Some((vec!["Exercise 1 (continued)".into()], 18.0));
        f.lines(MARGIN, &lines, 14.0, Weight::Regular);
        assert!(f.pages.len() >= 2);
        let first: Vec<&crate::doc::Text> = f.pages[0].texts().collect();
        assert_eq!(first[0].text, "line 0");
        let second: Vec<&crate::doc::Text> = f.pages[1].texts().collect();
        assert_eq!(second[0].text, "Exercise 1 (continued)");
        assert_eq!(second[0].weight, Weight::Bold);
        assert!((second[0].y - (MARGIN + text::ascent_mm(18.0))).abs() < 1e-9);
        let head_h = 18.0 * 25.4 / 72.0 * 1.2 + 1.0;
        assert!((second[1].y - (MARGIN + head_h + text::ascent_mm(14.0))).abs() < 1e-9);
        assert!(second[1].text.starts_with("line "));
    }
}
