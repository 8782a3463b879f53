//! Worked-example diagrams: small before/after boards drawn from what the engine reports.
//!
//! The "before" board shows the position before the example's last move, with the pits the
//! seeds were lifted from ringed heavily, with four short rays, and every sown hole numbered in sowing order (relay
//! laps continue the count). The "after" board shows the result with captured pits ringed by a
//! dashed line. The caption tells the move once: the example's own note when it has one, else
//! words built from the engine's [`Report`]: the sowing, where the last seed landed, extra
//! turn, captures, grand slam, passes, and the end with the scores.
//! Exercises show only the starting board and a question; their answers belong to the host key.
use super::phrases::{join_and, Phrases};
use super::style::{widest_stroke, Sizes, SIDE_INK};
use super::{centred, centred_mid};
use crate::doc::{circle, pt as p, rounded_rect, Color, Page, Pt, Stroke, Weight};
use crate::engine::{Dir, EndReason, Game, Report, Rules};
use crate::geometry::BoardGeometry;
use crate::notation;
use crate::ruleset::{Example, GrandSlam, Ruleset, Start};
use crate::text;

// Type and mini-board sizes come from [`Sizes`]: counts [`Sizes::count`], bold and bare,
// alone inside their pit or store (normal print 10 pt); labels [`Sizes::mini_label`], in normal
// print 7 pt (a store's name may shrink to [`Sizes::small`], 6 pt, the smallest type printed
// anywhere: smaller is hard to read on paper; the pit labels are what the practice questions
// are answered with, so they are a size larger; 8 pt made practice pages a page longer); the
// sowing-order numbers [`Sizes::order`], the captions' 9 pt in normal print. The order
// numbers are set in regular type, each in its own small box ([`order_marks`]), in a band
// outside the row between the pit and its label (inside a store, under its count), so "3" and
// "14" dropped in one pit never read as a count, nor as one number such as 3,14. Mini-board
// pits [`Sizes::mini_pit`]: in normal print 12 to 13 mm, large print 20 to 22 mm (boards that
// would be smaller side by side are stacked). Every stroke of a mini board is
// [`Sizes::mini_line`] times its normal width.
/// Radius of the dashed ring round a captured pit, beyond the pit's own radius, mm (times
/// [`Sizes::mini_line`], and never so far that the rings of neighbouring pits touch).
const CAPTURE_RING: f64 = 0.6;
/// Offset of a second-side pit's inner ring from its outline, mm (times [`Sizes::mini_line`]).
const INNER_RING: f64 = 0.9;
/// Gap between a pit and its label outside the row, mm (times [`Sizes::mini_line`]).
const LABEL_GAP: f64 = 1.3;
/// Least gap between a store's name and its inner ring's stroke, mm: 0.35 mm read as the word
/// touching the ring ("almacén" in a Spanish large-print diagram).
const NAME_CLEAR: f64 = 0.8;
/// The rays round a pit seeds were lifted from ([`lifted_rays`]): where they start beyond the
/// pit's radius (clear of its heavy ring as the heaviest ink style prints it), how long they
/// are, and how wide, mm (each times [`Sizes::mini_line`]).
const RAY_START: f64 = 0.9;
/// Length of a ray, mm (times [`Sizes::mini_line`]).
const RAY_LEN: f64 = 1.4;
/// Width of a ray, mm (times [`Sizes::mini_line`]).
const RAY_W: f64 = 0.5;

/// The four rays round a pit of radius `r` seeds were lifted from, on the diagonals, as
/// ((x start, x end), (y start, y end)) offsets from the pit's centre, mm, for strokes `line`
/// times the normal width.
fn lifted_rays(r: f64, line: f64) -> [((f64, f64), (f64, f64)); 4] {
    let k = std::f64::consts::FRAC_1_SQRT_2;
    let (a, b) = (
        (r + RAY_START * line) * k,
        (r + (RAY_START + RAY_LEN) * line) * k,
    );
    [
        ((a, b), (a, b)),
        ((-a, -b), (a, b)),
        ((a, b), (-a, -b)),
        ((-a, -b), (-a, -b)),
    ]
}

/// Gap between the two boards (holds the "→" arrow), mm.
const MID_GAP: f64 = 12.0;

/// One worked example, replayed and ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The example's title.
    pub title: String,
    /// Seeds in every hole on the first board (engine hole order).
    pub before: Vec<u16>,
    /// Seeds in every hole after the moves; `None` for an exercise.
    pub after: Option<Vec<u16>>,
    /// Holes sown by the last move, in order (relay laps concatenated); empty for an exercise.
    pub sown: Vec<u8>,
    /// Holes seeds were lifted from in the last move (one per lap).
    pub origins: Vec<u8>,
    /// Holes captured from by the last move.
    pub captured: Vec<u8>,
    /// Caption paragraphs, the first being the title line.
    pub caption: Vec<String>,
    /// Whether this is an exercise (question only).
    pub exercise: bool,
    /// Closed pits of a shortened board (drawn grey and crossed, no count).
    pub closed: Vec<u8>,
}

/// Replays `ex` with the engine and words what happened. `answer`: the diagram answers a
/// practice question (in the host key), which asks who plays next, so a ruleset's own note,
/// which need not say it, is followed by the engine's sentence naming the next player (none
/// after an extra turn, which the note tells, or the end of the game). Errors name the example
/// and say what the engine refused.
pub fn prepare(
    rs: &Ruleset,
    rules: &Rules,
    ex: &Example,
    ph: &Phrases,
    answer: bool,
) -> Result<Prepared, String> {
    let fail = |e: String| format!("worked example `{}`: {e}", ex.title);
    // A start with closed pits (x) is played on the shortened board.
    let own = crate::examples::board_for(rules, ex).map_err(fail)?;
    let rules = own.as_ref().unwrap_or(rules);
    let start = match &ex.start {
        Start::Initial => rules.initial(),
        Start::Position(s) => {
            notation::parse_position(rules, s)
                .map_err(|e| fail(e.to_string()))?
                .0
        }
    };
    let mut game = Game::try_new(rules, start.clone()).map_err(|e| fail(e.to_string()))?;
    let mut before = start.holes.clone();
    let mut last: Option<Report> = None;
    let mut played: Vec<String> = Vec::new();
    for m in &ex.moves {
        let mv = notation::parse_move(rules, m).map_err(|e| fail(e.to_string()))?;
        before = game.position().holes.clone();
        let r = game.play(mv).map_err(|e| fail(format!("move {m}: {e}")))?;
        played.push(m.clone());
        last = Some(r);
    }
    let moves_text = ex.moves.join(", ");
    let mut caption = vec![ex.title.clone()];
    if ex.exercise {
        let who = rs.board.players[start.to_move.min(1) as usize].clone();
        caption.push(ph.fmt(
            "example.exercise",
            &[("player", &who), ("moves", &moves_text)],
        ));
        // The example's note explains the answer: it belongs to the host key, not here.
        return Ok(Prepared {
            title: ex.title.clone(),
            before: start.holes,
            after: None,
            sown: Vec::new(),
            origins: Vec::new(),
            captured: Vec::new(),
            caption,
            exercise: true,
            closed: rules.closed_pits(),
        });
    }
    let Some(r) = last else {
        return Err(fail("it has no moves to show".into()));
    };
    if played.len() > 1 {
        let earlier = played[..played.len() - 1].join(", ");
        caption.push(ph.fmt(
            "example.earlier",
            &[("earlier", &earlier), ("last", &played[played.len() - 1])],
        ));
    }
    // One telling of the move: the ruleset's own note when it has one (it says what happens
    // and why, as the ruleset's author worked it out), else the engine's account of it; both
    // together told every example twice.
    match &ex.note {
        Some(n) => {
            caption.push(n.clone());
            if answer {
                // Unless the note already says it ("…no se captura nada y juega Norte.").
                caption.extend(next_sentence(rules, &r, ph).filter(|s| !already_told(n, s)));
            }
        }
        None => caption.push(describe(rs, rules, &r, ph)),
    }
    Ok(Prepared {
        title: ex.title.clone(),
        before,
        after: Some(game.position().holes.clone()),
        sown: r.laps.iter().flat_map(|l| l.sown.iter().copied()).collect(),
        origins: r.laps.iter().map(|l| l.from).collect(),
        captured: r.captures.iter().map(|(h, _)| *h).collect(),
        caption,
        exercise: false,
        closed: rules.closed_pits(),
    })
}

/// Holes a lap went past without sowing, in order: skipped stores (of games whose circuit has
/// stores) and, on a long lap, the pit the handful came from. Walks the circuit (side 0's pits, store 0, side 1's pits, store 1, in
/// the lap's direction) from the origin to each sown hole in turn.
pub fn passed_over(rules: &Rules, lap: &crate::engine::Lap) -> Vec<u8> {
    let ring = rules.ring(lap.dir);
    let len = ring.len();
    let Some(mut at) = ring.iter().position(|&h| h == lap.from) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &target in &lap.sown {
        // Each sown hole is reached within one trip round the ring.
        for _ in 0..len {
            at = (at + 1) % len;
            let h = ring[at];
            if h == target {
                break;
            }
            // A store nobody ever sows (Oware's, Giuthi's) is not on the circuit at all.
            let on_circuit = rules.sows_into(0, h) || rules.sows_into(1, h);
            if on_circuit && !out.contains(&h) {
                out.push(h);
            }
        }
    }
    out
}

/// What one move did, in words from the catalogue: the sentences of [`describe_parts`].
pub fn describe(rs: &Ruleset, rules: &Rules, r: &Report, ph: &Phrases) -> String {
    describe_parts(rs, rules, r, ph)
        .into_iter()
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one move did, one sentence of the catalogue at a time, each with what it tells:
/// `sowed` (the first handful), `relay` (each further handful), `last`, `capture`,
/// `no-capture`, `grand-slam`, `extra-turn`, `pass`, `end`, `sweep`, `scores` or `next`.
/// The rule sheets join them ([`describe`]); the play-test page of `sowkit serve` shows them
/// one a line.
pub fn describe_parts(
    rs: &Ruleset,
    rules: &Rules,
    r: &Report,
    ph: &Phrases,
) -> Vec<(&'static str, String)> {
    let who = rules.player_name(r.player).to_string();
    let label = |h: u8| rules.label(h).to_string();
    let mut parts: Vec<(&'static str, String)> = Vec::new();
    for (i, lap) in r.laps.iter().enumerate() {
        let holes: Vec<String> = lap.sown.iter().map(|&h| label(h)).collect();
        let way = match lap.dir {
            Dir::Ccw => ph.get("example.way_ccw"),
            Dir::Cw => ph.get("example.way_cw"),
        };
        // One seed lifted (only ever the first handful: a relay lifts the seeds of a pit that
        // was not empty, with the last seed, so two or more) is dropped, not sown along a way.
        let key = if i == 0 && lap.lifted == 1 && lap.sown.len() == 1 {
            "example.lap_single"
        } else if i == 0 {
            "example.lap_first"
        } else {
            "example.lap_relay"
        };
        let mut sentence = ph.fmt(
            key,
            &[
                ("player", &who),
                ("n", &lap.lifted.to_string()),
                ("pit", &label(lap.from)),
                ("way", &way),
                ("holes", &join_and(ph, &holes)),
            ],
        );
        // Name what the sowing passed over, so nobody miscounts from the list alone.
        let skipped: Vec<String> = passed_over(rules, lap).into_iter().map(label).collect();
        if !skipped.is_empty() {
            let skip = ph.fmt("example.skipping", &[("holes", &join_and(ph, &skipped))]);
            if let Some(stripped) = sentence.strip_suffix('.') {
                sentence = format!("{stripped} {skip}.");
            }
        }
        parts.push((if i == 0 { "sowed" } else { "relay" }, sentence));
    }
    parts.push(("last", ph.fmt("example.last", &[("hole", &label(r.last))])));
    if r.captured > 0 {
        let from: Vec<String> = r
            .captures
            .iter()
            .map(|(h, n)| format!("{} {}", n, ph.fmt("example.from", &[("hole", &label(*h))])))
            .collect();
        match r.captures.as_slice() {
            // One pit captured from: "South captures all 3 seeds from N1", not "…: 3 from N1".
            [(h, n)] if *n == r.captured => parts.push((
                "capture",
                ph.fmt(
                    // One seed: "the only seed from N5", not "the 1 seed"; two: "both
                    // seeds", not "all 2 seeds".
                    match *n {
                        1 => "example.captured_one",
                        2 => "example.captured_both",
                        _ => "example.captured_all",
                    },
                    &[
                        ("player", &who),
                        ("n", &n.to_string()),
                        ("from", &ph.fmt("example.from", &[("hole", &label(*h))])),
                    ],
                ),
            )),
            _ => parts.push((
                "capture",
                ph.fmt(
                    "example.captured",
                    &[
                        ("player", &who),
                        ("n", &r.captured.to_string()),
                        ("from", &join_and(ph, &from)),
                    ],
                ),
            )),
        }
    } else if rs.capture.kind != crate::ruleset::CaptureKind::None
        && !r.grand_slam
        && !rules.is_store(r.last)
    {
        parts.push(("no-capture", ph.get("example.no_capture")));
    }
    if r.grand_slam {
        parts.push((
            "grand-slam",
            match rs.grand_slam {
                GrandSlam::NoCapture => ph.get("example.grand_slam.no_capture"),
                _ => ph.get("example.grand_slam.capture"),
            },
        ));
    }
    if r.extra_turn && r.ending.is_none() {
        // Say why: a store landing explains itself less often than one thinks, and the
        // "before crossing" rule not at all.
        let key = if rules.is_store(r.last) {
            "example.extra_turn_store"
        } else {
            "example.extra_turn_before_crossing"
        };
        let other = rules.player_name(1 - r.player.min(1)).to_string();
        parts.push((
            "extra-turn",
            ph.fmt(key, &[("player", &who), ("other", &other)]),
        ));
    }
    for s in &r.passed {
        parts.push((
            "pass",
            ph.fmt("example.passed", &[("player", rules.player_name(*s))]),
        ));
    }
    if let Some(e) = &r.ending {
        let why = end_words(e.reason, ph);
        parts.push(("end", ph.fmt("example.game_over", &[("why", &why)])));
        if e.swept.iter().any(|&s| s > 0) {
            parts.push((
                "sweep",
                ph.fmt(
                    "example.swept",
                    &[
                        ("a", rules.player_name(0)),
                        ("na", &e.swept[0].to_string()),
                        ("b", rules.player_name(1)),
                        ("nb", &e.swept[1].to_string()),
                    ],
                ),
            ));
        }
        parts.push((
            "scores",
            ph.fmt(
                "example.scores",
                &[
                    ("a", rules.player_name(0)),
                    ("na", &e.scores[0].to_string()),
                    ("b", rules.player_name(1)),
                    ("nb", &e.scores[1].to_string()),
                ],
            ),
        ));
    } else {
        parts.extend(next_sentence(rules, r, ph).map(|s| ("next", s)));
    }
    parts
}

/// Why a game ended, in words from the catalogue ("a row is empty").
pub fn end_words(reason: EndReason, ph: &Phrases) -> String {
    ph.get(match reason {
        EndReason::SideEmpty => "example.end.side_empty",
        EndReason::Threshold => "example.end.threshold",
        EndReason::Repetition => "example.end.repetition",
        EndReason::NoLegalMove => "example.end.no_legal_move",
        EndReason::NoMovesForBoth => "example.end.no_moves_for_both",
    })
}

/// "South plays next." after move `r`, or `None` when the game is over or the mover plays
/// again (an extra turn is told on its own).
/// Whether `note` already holds `sentence` (without its closing full stop), letter case aside:
/// "Juega Norte." is told by a note ending "y juega Norte.", "North moves next." by one
/// ending "and North moves next.".
fn already_told(note: &str, sentence: &str) -> bool {
    let s = sentence.trim().trim_end_matches('.').to_lowercase();
    !s.is_empty() && note.to_lowercase().contains(&s)
}

fn next_sentence(rules: &Rules, r: &Report, ph: &Phrases) -> Option<String> {
    match r.next {
        Some(nx) if !r.extra_turn && r.ending.is_none() => {
            Some(ph.fmt("example.next", &[("player", rules.player_name(nx))]))
        }
        _ => None,
    }
}

/// Mini-board measurements: the full board of the ruleset ([`BoardGeometry::new`]) drawn
/// small with [`BoardGeometry::uniformly_scaled`], so pit centres, pit and store sizes come
/// from the one board geometry (every length times the same factor).
#[derive(Clone, Debug)]
struct Mini {
    n: usize,
    /// Pit diameter, mm.
    d: f64,
    /// The scaled board, centred on (0, 0).
    g: BoardGeometry,
    /// Size of the sowing-order numbers, pt ([`Sizes::order`]).
    small: f64,
    /// Size of the pit labels, pt ([`Sizes::mini_label`]).
    label: f64,
    /// Stroke factor ([`Sizes::mini_line`]).
    line: f64,
    /// Whether the band for the sowing-order boxes is kept between each row and its labels.
    /// Large print leaves it out of a board that shows no sowing (an "after" board, an
    /// exercise's start board), 6 mm a row: two Letter exercises then share a page.
    band: bool,
}

impl Mini {
    /// The full board of `rs` scaled to fit `width` mm, its pits at most `max_d` across, its
    /// labels at `small` pt, its stores at least `min_store_w` mm wide (large print: wide
    /// enough for the longest word of a store's name; the rest of the board is scaled down to
    /// leave them the room).
    fn fit(full: &BoardGeometry, width: f64, max_d: f64, sz: &Sizes, min_store_w: f64) -> Mini {
        let k = (width / full.core_w())
            .min(max_d / full.d)
            .max(4.0 / full.d);
        let mut g = full.uniformly_scaled(k).centred_at(0.0, 0.0);
        if g.store_w < min_store_w {
            let rest = full.core_w() - 2.0 * full.store_w;
            let k = ((width - 2.0 * min_store_w) / rest)
                .min(max_d / full.d)
                .max(4.0 / full.d);
            g = full.uniformly_scaled(k).centred_at(0.0, 0.0);
            g.store_w = g.store_w.max(min_store_w);
        }
        Mini {
            n: g.n,
            d: g.d,
            g,
            small: sz.order,
            label: sz.mini_label,
            line: sz.mini_line,
            band: true,
        }
    }
    fn width(&self) -> f64 {
        self.g.core_w()
    }
    /// Height of the band outside each row holding the sowing-order boxes, mm.
    fn order_h(&self) -> f64 {
        OrderMarks::box_h(self.small, self.line)
    }
    /// Height outside each row for the order boxes and the pit labels, mm: [`LABEL_GAP`],
    /// the boxes, half a gap, a line of label.
    fn label_h(&self) -> f64 {
        if self.band {
            text::line_height_mm(self.label) + self.order_h() + 1.5 * LABEL_GAP * self.line
        } else {
            text::line_height_mm(self.label) + LABEL_GAP * self.line
        }
    }
    /// This board for a drawing with (`sown`) or without sowing-order boxes: large print
    /// drops the boxes' band from a board without them; normal print keeps every board alike.
    fn for_board(&self, sz: &Sizes, sown: bool) -> Mini {
        Mini {
            band: sown || !sz.large,
            ..self.clone()
        }
    }
    fn height(&self) -> f64 {
        2.0 * self.label_h() + self.g.core_h()
    }
    /// The board centre for a board whose top-left is (`x`, `y`).
    fn centre(&self, x: f64, y: f64) -> Pt {
        p(
            x + self.g.core_w() / 2.0,
            y + self.label_h() + self.g.core_h() / 2.0,
        )
    }
    /// Centre of pit `h` for a board whose top-left is (`x`, `y`).
    fn pit(&self, x: f64, y: f64, h: usize) -> Pt {
        let c = self.centre(x, y);
        self.g.centred_at(c.x, c.y).pit_centre(h)
    }
    /// Store rectangle of `side`: (x, y, w, h).
    fn store(&self, x: f64, y: f64, side: usize) -> (f64, f64, f64, f64) {
        let c = self.centre(x, y);
        self.g.centred_at(c.x, c.y).store_rect(side)
    }
}

/// Side room inside a mini store beside its name (both sides together), mm, for strokes
/// `line` times the normal width: the inner ring's inset and half its stroke, and
/// [`NAME_CLEAR`], each side.
fn store_name_pad(line: f64) -> f64 {
    2.0 * (INNER_RING * line + widest_stroke(0.2 * line) / 2.0 + NAME_CLEAR)
}

/// Gap between stacked boards, mm.
const STACK_GAP: f64 = 2.0;

/// The mini-board size for `n` pits across `width` mm, and whether the before and after boards
/// are stacked (a wide board whose two copies do not fit side by side even at the smallest
/// pit size).
fn arrange(rs: &Ruleset, width: f64, sz: &Sizes) -> (Mini, bool) {
    let full = BoardGeometry::new(rs, false);
    let (min_d, max_d) = sz.mini_pit;
    // Stores wide enough for every word of their names at the smallest size `draw_mini` sets
    // them in: large print's label size, normal print's order-number size (its names shrink
    // to that). Normal print's stores are almost always wider already; a long word ("Northwest
    // store" on a 6-pit board) was broken inside it before (a break-it pass).
    let floor_pt = if sz.large { sz.mini_label } else { sz.small };
    let min_store_w = rs
        .board
        .stores
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(|w| text::width_mm(w, floor_pt, Weight::Regular) + store_name_pad(sz.mini_line) + 0.5)
        .fold(0.0, f64::max);
    // One millimetre clear of the box each side, so strokes stay inside it.
    let half = Mini::fit(&full, (width - 2.0 - MID_GAP) / 2.0, max_d, sz, min_store_w);
    if half.d >= min_d && 2.0 * half.width() + MID_GAP <= width - 2.0 + 1e-9 {
        (half, false)
    } else {
        (Mini::fit(&full, width - 2.0, max_d, sz, min_store_w), true)
    }
}

/// Whether the before and after boards of `rs` are stacked across `width` mm (see
/// [`draw_boards`]); otherwise they stand side by side, each in half the width.
pub fn stacked(rs: &Ruleset, width: f64, sz: &Sizes) -> bool {
    arrange(rs, width, sz).1
}

/// Height of the drawing part (two boards and their headings) in the sizes `sz`, mm.
pub fn board_height(rs: &Ruleset, width: f64, sz: &Sizes) -> f64 {
    let (m, stacked) = arrange(rs, width, sz);
    let one = text::line_height_mm(sz.mini_head) + m.height();
    if stacked {
        2.0 * one + STACK_GAP + 1.0
    } else {
        one + 1.0
    }
}

/// Which boards of a worked example [`draw_part`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Both (side by side, or stacked one above the other).
    Both,
    /// Stacked boards only: the first ("Before", "Start") alone, to end a page.
    Before,
    /// Stacked boards only: the "After" board alone, to start the next page.
    After,
}

/// Draws the board(s) of `prep` with the top-left at (`x`, `y`) across `width` mm; returns the
/// height used. The boards stand side by side with an arrow between them, or one above the
/// other when the board is too wide for that ([`stacked`]). Type and pit sizes come from `sz`.
#[allow(clippy::too_many_arguments)]
pub fn draw_boards(
    pg: &mut Page,
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    prep: &Prepared,
    x: f64,
    y: f64,
    width: f64,
) -> f64 {
    draw_part(pg, rs, ph, sz, prep, x, y, width, Part::Both)
}

/// [`draw_boards`], drawing only `part` of stacked boards (a stacked example taller than a
/// page is split between its two boards); side-by-side boards are always drawn both. Returns
/// the height used, mm.
#[allow(clippy::too_many_arguments)]
pub fn draw_part(
    pg: &mut Page,
    rs: &Ruleset,
    ph: &Phrases,
    sz: &Sizes,
    prep: &Prepared,
    x: f64,
    y: f64,
    width: f64,
    part: Part,
) -> f64 {
    let (m, stacked) = arrange(rs, width, sz);
    let hpt = sz.mini_head;
    let head = text::line_height_mm(hpt);
    // One board with its heading ("Before", "Start", "After") above it, top-left at (bx, top).
    let labelled = |pg: &mut Page, m: &Mini, bx: f64, top: f64, heading: &str, board: Board<'_>| {
        pg.text(bx, top + text::ascent_mm(hpt), hpt, Weight::Bold, heading);
        draw_mini(pg, rs, sz, m, bx, top + head, board);
    };
    // Stacked boards each keep the order boxes' band only if they show sowing; side by side
    // both are alike, so their rows line up.
    let has_marks = !prep.sown.is_empty();
    let (mb, ma) = if stacked {
        (m.for_board(sz, has_marks), m.for_board(sz, false))
    } else {
        (m.for_board(sz, has_marks), m.for_board(sz, has_marks))
    };
    let first = if prep.exercise {
        ph.get("example.start_board")
    } else {
        ph.get("example.before")
    };
    let before = Board {
        holes: &prep.before,
        sown: &prep.sown,
        origins: &prep.origins,
        captured: &[],
        closed: &prep.closed,
    };
    let after = prep.after.as_ref().map(|a| Board {
        holes: a,
        sown: &[],
        origins: &[],
        captured: &prep.captured,
        closed: &prep.closed,
    });
    if stacked && part == Part::After {
        let bx = x + (width - m.width()) / 2.0;
        let Some(after) = after else { return 0.0 };
        labelled(pg, &ma, bx, y, &ph.get("example.after"), after);
        return head + ma.height() + 1.0;
    }
    if stacked {
        // One above the other.
        let bx = x + (width - m.width()) / 2.0;
        labelled(pg, &mb, bx, y, &first, before);
        if part == Part::Before {
            return head + mb.height() + 1.0;
        }
        let mut used = head + mb.height();
        if let Some(after) = after {
            labelled(
                pg,
                &ma,
                bx,
                y + used + STACK_GAP,
                &ph.get("example.after"),
                after,
            );
            used += STACK_GAP + head + ma.height();
        }
        return used + 1.0;
    }
    // Side by side, with an arrow between.
    let bx0 = x + (width - (2.0 * m.width() + MID_GAP)) / 2.0;
    labelled(pg, &mb, bx0, y, &first, before);
    if let Some(after) = after {
        let bx1 = bx0 + m.width() + MID_GAP;
        labelled(pg, &ma, bx1, y, &ph.get("example.after"), after);
        let ay = ma.centre(bx1, y + head).y;
        let ax0 = bx0 + m.width() + 2.0;
        let ax1 = bx1 - 2.0;
        pg.shape(
            crate::doc::line(p(ax0, ay), p(ax1 - 2.0, ay)),
            None,
            Some(Stroke::solid(0.5, Color::BLACK)),
        );
        super::board::arrowhead(pg, p(ax1, ay), 1.0, 0.0, 2.5);
    }
    head + mb.height() + 1.0
}

/// What one mini board shows: seeds per hole, the sowing order, the pits lifted from, and the
/// pits captured from.
#[derive(Clone, Copy)]
struct Board<'a> {
    holes: &'a [u16],
    sown: &'a [u8],
    origins: &'a [u8],
    captured: &'a [u8],
    closed: &'a [u8],
}

/// The sowing-order numbers of one hole, laid out as a row of small boxes, one number a box
/// (regular type, so they never read as the bold count above them, and never as one number
/// such as "3,14"): the texts, each box's width, the boxes' height and the gap between them,
/// all mm. A trailing "…" (no box) when only the first few fit.
#[derive(Clone, Debug, PartialEq)]
struct OrderMarks {
    nums: Vec<String>,
    widths: Vec<f64>,
    more: bool,
    /// After the "…", the hole's last number and its box's width (a store's last row: where a
    /// relay's last seed fell).
    tail: Option<(String, f64)>,
    pt: f64,
    h: f64,
    gap: f64,
}

impl OrderMarks {
    /// Height of a digit at `pt`, mm (1493/2048 em in DejaVu Sans).
    fn digit_h(pt: f64) -> f64 {
        pt * 25.4 / 72.0 * 1493.0 / 2048.0
    }
    /// Height of a box round numbers at `pt` whose outline is `line` times the normal width,
    /// mm: the digits, 0.2 of their height clear above and below, and the inner half of the
    /// outline as the heaviest ink style prints it ([`super::style::widest_stroke`]; the
    /// layout is the same in every style).
    fn box_h(pt: f64, line: f64) -> f64 {
        1.4 * Self::digit_h(pt) + super::style::widest_stroke(0.2 * line)
    }
    /// Room above and below the digits inside a box, mm.
    fn pad_v(&self) -> f64 {
        (self.h - Self::digit_h(self.pt)) / 2.0
    }
    /// Width of the whole row, mm.
    fn width(&self) -> f64 {
        let boxes: f64 =
            self.widths.iter().sum::<f64>() + self.gap * self.widths.len().saturating_sub(1) as f64;
        let tail = self.tail.as_ref().map_or(0.0, |(_, w)| self.gap + w);
        let lead = if self.widths.is_empty() {
            0.0
        } else {
            self.gap
        };
        if self.more {
            boxes + lead + text::width_mm("…", self.pt, Weight::Regular) + tail
        } else {
            boxes
        }
    }
    /// Draws the row centred on `cx` with the boxes' tops at `top`, strokes `line` times the
    /// normal width.
    fn draw(&self, pg: &mut Page, cx: f64, top: f64, line: f64) {
        let mut x = cx - self.width() / 2.0;
        let base = top + self.pad_v() + Self::digit_h(self.pt);
        let boxed = |pg: &mut Page, x: f64, s: &str, w: f64| {
            pg.shape(
                rounded_rect(x, top, w, self.h, self.h * 0.3),
                Some(Color::WHITE),
                Some(Stroke::solid(0.2 * line, Color::BLACK)),
            );
            centred(pg, x + w / 2.0, base, self.pt, Weight::Regular, s);
        };
        for (s, w) in self.nums.iter().zip(&self.widths) {
            boxed(pg, x, s, *w);
            x += w + self.gap;
        }
        if self.more {
            pg.text(x, base, self.pt, Weight::Regular, "…");
            if let Some((s, w)) = &self.tail {
                x += text::width_mm("…", self.pt, Weight::Regular) + self.gap;
                boxed(pg, x, s, *w);
            }
        }
    }
}

/// The sowing-order numbers of `hole` (1-based positions in `sown`) as boxes at `pt`, their
/// outlines `line` times the normal width
/// ([`OrderMarks`]): all of them if they fit `max` mm, else the first few and "…", so the
/// numbers shown are never a misleading range; `None` when the hole was not sown.
fn order_marks(sown: &[u8], hole: usize, max: f64, pt: f64, line: f64) -> Option<OrderMarks> {
    order_mark_rows(sown, hole, max, pt, line, 1, false).pop()
}

/// [`order_marks`] over up to `rows` rows (at least one) of at most `max` mm each: each row
/// holds as many boxes as fit, in order, and only the last row ends in "…" when numbers are
/// left over, followed, with `keep_last`, by the hole's last number where it fits (a store:
/// where a relay's last seed fell). Empty when the hole was not sown.
fn order_mark_rows(
    sown: &[u8],
    hole: usize,
    max: f64,
    pt: f64,
    line: f64,
    rows: usize,
    keep_last: bool,
) -> Vec<OrderMarks> {
    let nums: Vec<String> = sown
        .iter()
        .enumerate()
        .filter(|(_, &h)| h as usize == hole)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    if nums.is_empty() {
        return Vec::new();
    }
    let dh = OrderMarks::digit_h(pt);
    let h = OrderMarks::box_h(pt, line);
    // Beside the digits, room for the inner half of the box's outline as the heaviest ink
    // style prints it ([`super::style::widest_stroke`]: 0.35 mm in contrast, where a 0.185 mm
    // margin let the outline touch the digits).
    let pad_h = 0.12 * dh + super::style::widest_stroke(0.2 * line) / 2.0;
    let widths: Vec<f64> = nums
        .iter()
        .map(|s| (text::width_mm(s, pt, Weight::Regular) + 2.0 * pad_h).max(0.8 * h))
        .collect();
    let (gap, ell) = (0.4 * dh, text::width_mm("…", pt, Weight::Regular));
    let mut out = Vec::new();
    let mut from = 0;
    while from < nums.len() && out.len() < rows.max(1) {
        let (rest_n, rest_w) = (&nums[from..], &widths[from..]);
        // The most boxes that fit, as `make(k).width() <= max` for k from all down to 1 would
        // find, in one pass: a hole a relay sowing passes thousands of times has thousands of
        // numbers, and making each candidate row was quadratic (12 s of `check` on a 16-pit
        // board of 50 seeds). The row's width is worked out as [`OrderMarks::width`] does
        // (the same sums in the same order, so the same floating-point value), with room for
        // "…" on the last row whenever numbers are left over.
        let mut prefix = Vec::with_capacity(rest_w.len() + 1);
        prefix.push(0.0f64);
        for w in rest_w {
            prefix.push(prefix[prefix.len() - 1] + w);
        }
        let n = rest_n.len();
        let last = out.len() + 1 == rows.max(1);
        // With `keep_last`, the last row's "…" is followed by the final number's box (which
        // is then not among the `k` counted first).
        let tail_w = (keep_last && last && n > 1).then(|| gap + rest_w[n - 1]);
        let width = |k: usize, tail: f64| {
            let boxes = prefix[k] + gap * k.saturating_sub(1) as f64;
            let lead = if k == 0 { 0.0 } else { gap };
            if k < n && last {
                boxes + lead + ell + tail
            } else {
                boxes
            }
        };
        let mut tail = None;
        let mut k = (1..=n).rev().find(|&k| width(k, 0.0) <= max).unwrap_or(1);
        if let Some(tw) = tail_w.filter(|_| k < n) {
            // Room for the last number too: fewer boxes before the "…", none if need be (on
            // a row after others, "… 29" still shows where the last seed fell).
            let least = usize::from(out.is_empty());
            if let Some(k2) = (least..n - 1).rev().find(|&k| width(k, tw) <= max) {
                k = k2;
                tail = Some((rest_n[n - 1].clone(), rest_w[n - 1]));
            }
        }
        out.push(OrderMarks {
            nums: rest_n[..k].to_vec(),
            widths: rest_w[..k].to_vec(),
            more: k < n && last,
            tail,
            pt,
            h,
            gap,
        });
        from += k;
    }
    out
}

/// The highest top (y, mm) at which a box `hw` mm either side of `cx` fits inside the rounded
/// rectangle at (`x0`, `y0`), `w` wide, corner radius `rad`; its top edge when the box is
/// narrower than the straight part, lower where the box reaches into the corners' arcs.
fn top_inside(x0: f64, y0: f64, w: f64, rad: f64, cx: f64, hw: f64) -> f64 {
    let reach = ((cx + hw) - (x0 + w - rad)).max((x0 + rad) - (cx - hw));
    if reach <= 0.0 {
        y0
    } else {
        y0 + rad - (rad * rad - reach.min(rad).powi(2)).max(0.0).sqrt()
    }
}

/// Draws one mini board `b` with its top-left at (`x`, `y`).
fn draw_mini(pg: &mut Page, rs: &Ruleset, sz: &Sizes, m: &Mini, x: f64, y: f64, b: Board<'_>) {
    let small = sz.small;
    let order_pt = sz.order;
    // Labels: large print never sets them under its label size; normal print may shrink a
    // long one down to the order numbers' size.
    let label_pt = sz.mini_label;
    let label_floor = if sz.large { label_pt } else { small };
    let line = m.line;
    let Board {
        holes,
        sown,
        origins,
        captured,
        closed,
    } = b;
    let n = m.n;
    let r = m.d / 2.0;
    let count = |h: usize| holes.get(h).copied().unwrap_or(0).to_string();
    let cpt0 = if m.d >= 8.0 || sz.large {
        sz.count
    } else {
        7.0
    };
    // Counts of three digits and long labels get smaller type rather than touch the rings or
    // their neighbours.
    let fit_pt = |s: &str, start: f64, floor: f64, weight: Weight, width: f64| {
        let mut pt = start;
        while pt > floor && text::width_mm(s, pt, weight) > width {
            pt -= 0.5;
        }
        pt
    };
    // Large print never sets a count under its label size (the mini pits are sized for
    // that); normal print may shrink a three-digit count to the order numbers' size.
    let count_floor = if sz.large { sz.count } else { small };
    let count_pt = |h: usize, width: f64| fit_pt(&count(h), cpt0, count_floor, Weight::Bold, width);
    // One size for every pit label, the one the longest needs.
    let lpt = rs
        .board
        .pit_labels
        .iter()
        .flatten()
        .map(|l| {
            fit_pt(
                l,
                label_pt,
                label_floor,
                Weight::Regular,
                m.d + m.g.gap - 0.6,
            )
        })
        .fold(label_pt, f64::min);
    let outline_w = 0.35 * line;
    let inner_ring = INNER_RING * line;
    let inner_w = 0.2 * line;
    // The dashed capture ring: as far out as the strokes ask, but never so far that the rings
    // of two neighbouring captured pits (or a pit's and the pit label's) touch.
    let cap_w = 0.35 * line;
    let cap_off = (CAPTURE_RING * line)
        .min(m.g.gap / 2.0 - cap_w / 2.0 - 0.1)
        .max(cap_w / 2.0 + 0.1);
    // Outside each row, away from the other row: the sowing-order boxes [`LABEL_GAP`] from
    // the pit, then the pit's label.
    let label_gap = LABEL_GAP * line;
    let order_h = m.order_h();
    let out = if m.band {
        label_gap + order_h + 0.5 * label_gap
    } else {
        label_gap
    };
    for h in 0..2 * n {
        let c = m.pit(x, y, h);
        let label = &rs.board.pit_labels[h / n][h % n];
        let label_base = if h < n {
            c.y + r + out + text::ascent_mm(label_pt)
        } else {
            c.y - r - out - text::descent_mm(label_pt)
        };
        if closed.iter().any(|&o| o as usize == h) {
            // A closed pit of a shortened board: grey, crossed like its paper marker, no count.
            pg.shape(
                circle(c, r),
                Some(Color::grey(210)),
                Some(Stroke::solid(outline_w, Color::BLACK)),
            );
            let k = r * std::f64::consts::FRAC_1_SQRT_2;
            for (dx, dy) in [(k, k), (k, -k)] {
                pg.shape(
                    crate::doc::line(p(c.x - dx, c.y - dy), p(c.x + dx, c.y + dy)),
                    None,
                    Some(Stroke::solid(0.5 * line, Color::BLACK)),
                );
            }
            centred(pg, c.x, label_base, lpt, Weight::Regular, label);
            continue;
        }
        let heavy = origins.iter().any(|&o| o as usize == h);
        let sw = if heavy { 0.9 * line } else { outline_w };
        pg.shape(
            circle(c, r),
            Some(Color::WHITE),
            Some(Stroke::solid(sw, SIDE_INK[h / n])),
        );
        if h >= n {
            pg.shape(
                circle(c, r - inner_ring),
                None,
                Some(Stroke::solid(inner_w, SIDE_INK[1])),
            );
        }
        if heavy {
            // Rays out of the heavy ring on the four diagonals (clear of the order boxes and
            // labels above and below, and of the neighbours left and right): a shape no other
            // mark has, so the pit lifted from stands out even when every outline is heavy
            // (contrast style) and without colour.
            for (dx, dy) in lifted_rays(r, line) {
                pg.shape(
                    crate::doc::line(p(c.x + dx.0, c.y + dy.0), p(c.x + dx.1, c.y + dy.1)),
                    None,
                    Some(Stroke::solid(RAY_W * line, Color::BLACK)),
                );
            }
        }
        if captured.iter().any(|&o| o as usize == h) {
            pg.shape(
                circle(c, r + cap_off),
                None,
                Some(Stroke::dashed(
                    cap_w,
                    Color::BLACK,
                    &[0.8 * line, 0.6 * line],
                )),
            );
        }
        // The count alone inside the pit; the sowing-order boxes outside the row, between
        // the pit and its label, so they belong to this pit and never to the one across, and
        // never read as part of the count.
        centred_mid(pg, c.x, c.y, count_pt(h, 1.6 * r), Weight::Bold, &count(h));
        if let Some(marks) = order_marks(sown, h, m.d + m.g.gap - 0.6 * line, order_pt, line) {
            let top = if h < n {
                c.y + r + label_gap
            } else {
                c.y - r - label_gap - order_h
            };
            marks.draw(pg, c.x, top, line);
        }
        centred(pg, c.x, label_base, lpt, Weight::Regular, label);
    }
    for (side, ink) in SIDE_INK.into_iter().enumerate() {
        let (sx, sy, sw, sh) = m.store(x, y, side);
        let rad = (sw / 2.0).min(3.0 * line);
        pg.shape(
            rounded_rect(sx, sy, sw, sh, rad),
            Some(Color::WHITE),
            Some(Stroke::solid(outline_w, ink)),
        );
        if side == 1 {
            pg.shape(
                rounded_rect(
                    sx + inner_ring,
                    sy + inner_ring,
                    sw - 2.0 * inner_ring,
                    sh - 2.0 * inner_ring,
                    rad - inner_ring,
                ),
                None,
                Some(Stroke::solid(inner_w, SIDE_INK[1])),
            );
        }
        let h = 2 * n + side;
        let cx = sx + sw / 2.0;
        let mut cy = sy + sh / 2.0;
        let cpt = count_pt(h, sw - 1.2);
        // The store's name at its top, inside the inner ring (both stores alike, so they
        // match), in type small enough that no word is broken and no line is lost above the
        // count; lower where a line reaches into the rounded corners.
        let inset = inner_ring + widest_stroke(inner_w) / 2.0 + NAME_CLEAR;
        let (ix, iy, iw) = (sx + inset, sy + inset, sw - 2.0 * inset);
        let irad = (rad - inset).max(0.0);
        let name = &rs.board.stores[side];
        let name_pt = super::size_for_words(name, label_pt, label_floor, Weight::Regular, iw);
        let lh = text::line_height_mm(name_pt);
        let mut lines = super::wrap(name, name_pt, Weight::Regular, iw);
        let widest = lines
            .iter()
            .map(|l| text::width_mm(l, name_pt, Weight::Regular))
            .fold(0.0, f64::max);
        let name_top = top_inside(ix, iy, iw, irad, cx, widest / 2.0);
        let digit_h = OrderMarks::digit_h(cpt);
        let count_top = cy - digit_h / 2.0 - 0.5;
        let room_lines = (((count_top - name_top) / lh).floor() as usize).max(1);
        if lines.len() > room_lines {
            // The count (and its order boxes) moves down under the whole name when the store
            // is tall enough (large print's 18 pt names take two lines); else the name is cut.
            let marks_h = if sown.iter().any(|&o| o as usize == h) {
                0.8 * line + OrderMarks::box_h(order_pt, line)
            } else {
                0.0
            };
            let low = name_top + lines.len() as f64 * lh + 1.0 + digit_h / 2.0;
            if low + digit_h / 2.0 + marks_h <= sy + sh - inset - 0.3 {
                cy = low;
            } else {
                lines.truncate(room_lines);
                if let Some(l) = lines.last_mut() {
                    l.push('…');
                }
            }
        }
        centred_mid(pg, cx, cy, cpt, Weight::Bold, &count(h));
        super::set_lines_centred(pg, cx, name_top, &lines, name_pt, Weight::Regular);
        // Under the count, in as many rows as the store has room for (a relay's last seed
        // and its laps all land here).
        let marks_top = cy + OrderMarks::digit_h(cpt) / 2.0 + 0.8 * line;
        let box_h = OrderMarks::box_h(order_pt, line);
        let row_gap = 0.4 * OrderMarks::digit_h(order_pt);
        let room = sy + sh - inset - 0.3 - marks_top;
        let rows = (((room + row_gap) / (box_h + row_gap)).floor() as usize).max(1);
        let mut top = marks_top;
        for marks in order_mark_rows(sown, h, iw, order_pt, line, rows, true) {
            marks.draw(pg, cx, top, line);
            top += box_h + row_gap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mini board's pit centres are the full board's centres scaled about the board centre,
    /// with the full board worked out here from the ruleset's layout sizes (Kalah 6×4: pits
    /// 45 mm, gap 12 mm, so neighbouring centres are 57 mm apart and the rows 45 + 12 = 57 mm
    /// apart).
    #[test]
    fn mini_pit_centres_are_the_full_board_scaled() {
        let rs = crate::ruleset::load_str(
            "kalah-6x4.toml",
            include_str!("../../rulesets/kalah-6x4.toml"),
        )
        .expect("bundled ruleset");
        let l = &rs.layout;
        let n = rs.board.pits_per_side;
        let (d, gap) = (l.pit_diameter, l.pit_gap);
        let row_gap = gap.max(8.0);
        // Full-board centre of hole h relative to the board centre, worked by hand.
        let full = |h: usize| {
            let (side, i) = (h / n, h % n);
            let col = if side == 0 { i } else { n - 1 - i } as f64;
            let x = (col - (n as f64 - 1.0) / 2.0) * (d + gap);
            let y = (d + row_gap) / 2.0 * if side == 0 { 1.0 } else { -1.0 };
            (x, y)
        };
        let (m, _) = arrange(&rs, 180.0, &Sizes::NORMAL);
        let k = m.d / d;
        assert!(k > 0.1 && k < 0.5, "a mini board is small: k = {k}");
        let c = m.centre(10.0, 20.0);
        for h in 0..2 * n {
            let got = m.pit(10.0, 20.0, h);
            let (fx, fy) = full(h);
            assert!((got.x - c.x - k * fx).abs() < 1e-9, "hole {h} x");
            assert!((got.y - c.y - k * fy).abs() < 1e-9, "hole {h} y");
        }
    }
}
