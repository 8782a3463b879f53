//! Worked-example diagrams: small before/after boards drawn from what the engine reports.
//!
//! The "before" board shows the position before the example's last move, with the pits the
//! seeds were lifted from ringed heavily and every sown hole numbered in sowing order (relay
//! laps continue the count). The "after" board shows the result with captured pits ringed by a
//! dashed line. The caption is built from the engine's [`Report`]: the sowing, where the last
//! seed landed, extra turn, captures, grand slam, passes, and the end with the scores.
//! Exercises show only the starting board and a question; their answers belong to the host key.
use super::phrases::{join_and, Phrases};
use super::style::{Sizes, SIDE_INK};
use super::{centred, centred_mid};
use crate::doc::{circle, pt as p, rounded_rect, Color, Page, Pt, Stroke, Weight};
use crate::engine::{Dir, EndReason, Game, Report, Rules};
use crate::geometry::BoardGeometry;
use crate::notation;
use crate::ruleset::{Example, GrandSlam, Ruleset, Start};
use crate::text;

// Type and mini-board sizes come from [`Sizes`]: counts in pits [`Sizes::count`]; labels and
// sowing numbers [`Sizes::small`], in normal print 6 pt, the smallest type printed anywhere
// (smaller is hard to read on paper); mini-board pits [`Sizes::mini_pit`]: in normal print
// 12 mm, the smallest that holds a count and a line of sowing numbers such as "9,11,23" inside
// its inner ring (boards that would be smaller side by side are stacked instead), and at most
// 13 mm (stacked boards get this size); large print 20 to 22 mm.
/// Radius of the dashed ring round a captured pit, beyond the pit's own radius, mm; with
/// the scaled pit gap it leaves neighbouring rings (and a store) clear of each other.
const CAPTURE_RING: f64 = 0.6;
/// Offset of a second-side pit's inner ring from its outline, mm.
const INNER_RING: f64 = 0.9;
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

/// Replays `ex` with the engine and words what happened. Errors name the example and say what
/// the engine refused.
pub fn prepare(
    rs: &Ruleset,
    rules: &Rules,
    ex: &Example,
    ph: &Phrases,
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
    caption.push(describe(rs, rules, &r, ph));
    if let Some(n) = &ex.note {
        caption.push(n.clone());
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

/// What one move did, in words from the catalogue.
pub fn describe(rs: &Ruleset, rules: &Rules, r: &Report, ph: &Phrases) -> String {
    let who = rules.player_name(r.player).to_string();
    let label = |h: u8| rules.label(h).to_string();
    let mut parts: Vec<String> = Vec::new();
    for (i, lap) in r.laps.iter().enumerate() {
        let holes: Vec<String> = lap.sown.iter().map(|&h| label(h)).collect();
        let way = match lap.dir {
            Dir::Ccw => ph.get("example.way_ccw"),
            Dir::Cw => ph.get("example.way_cw"),
        };
        let key = if i == 0 {
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
        parts.push(sentence);
    }
    parts.push(ph.fmt("example.last", &[("hole", &label(r.last))]));
    if r.captured > 0 {
        let from: Vec<String> = r
            .captures
            .iter()
            .map(|(h, n)| format!("{} {}", n, ph.fmt("example.from", &[("hole", &label(*h))])))
            .collect();
        parts.push(ph.fmt(
            "example.captured",
            &[
                ("player", &who),
                ("n", &r.captured.to_string()),
                ("from", &join_and(ph, &from)),
            ],
        ));
    } else if rs.capture.kind != crate::ruleset::CaptureKind::None
        && !r.grand_slam
        && !rules.is_store(r.last)
    {
        parts.push(ph.get("example.no_capture"));
    }
    if r.grand_slam {
        parts.push(match rs.grand_slam {
            GrandSlam::NoCapture => ph.get("example.grand_slam.no_capture"),
            _ => ph.get("example.grand_slam.capture"),
        });
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
        parts.push(ph.fmt(key, &[("player", &who), ("other", &other)]));
    }
    for s in &r.passed {
        parts.push(ph.fmt("example.passed", &[("player", rules.player_name(*s))]));
    }
    if let Some(e) = &r.ending {
        let why = match e.reason {
            EndReason::SideEmpty => ph.get("example.end.side_empty"),
            EndReason::Threshold => ph.get("example.end.threshold"),
            EndReason::Repetition => ph.get("example.end.repetition"),
            EndReason::NoLegalMove => ph.get("example.end.no_legal_move"),
            EndReason::NoMovesForBoth => ph.get("example.end.no_moves_for_both"),
        };
        parts.push(ph.fmt("example.game_over", &[("why", &why)]));
        if e.swept.iter().any(|&s| s > 0) {
            parts.push(ph.fmt(
                "example.swept",
                &[
                    ("a", rules.player_name(0)),
                    ("na", &e.swept[0].to_string()),
                    ("b", rules.player_name(1)),
                    ("nb", &e.swept[1].to_string()),
                ],
            ));
        }
        parts.push(ph.fmt(
            "example.scores",
            &[
                ("a", rules.player_name(0)),
                ("na", &e.scores[0].to_string()),
                ("b", rules.player_name(1)),
                ("nb", &e.scores[1].to_string()),
            ],
        ));
    } else if let Some(nx) = r.next {
        if !r.extra_turn {
            parts.push(ph.fmt("example.next", &[("player", rules.player_name(nx))]));
        }
    }
    parts.join(" ")
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
    /// Size of pit labels and sowing numbers, pt.
    small: f64,
}

impl Mini {
    /// The full board of `rs` scaled to fit `width` mm, its pits at most `max_d` across, its
    /// labels at `small` pt, its stores at least `min_store_w` mm wide (large print: wide
    /// enough for the longest word of a store's name; the rest of the board is scaled down to
    /// leave them the room).
    fn fit(full: &BoardGeometry, width: f64, max_d: f64, small: f64, min_store_w: f64) -> Mini {
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
            small,
        }
    }
    fn width(&self) -> f64 {
        self.g.core_w()
    }
    fn label_h(&self) -> f64 {
        text::line_height_mm(self.small) + 1.0
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

/// Side room inside a mini store beside its name (both sides together), mm.
const STORE_NAME_PAD: f64 = 2.4;

/// Gap between stacked boards, mm.
const STACK_GAP: f64 = 2.0;

/// The mini-board size for `n` pits across `width` mm, and whether the before and after boards
/// are stacked (a wide board whose two copies do not fit side by side even at the smallest
/// pit size).
fn arrange(rs: &Ruleset, width: f64, sz: &Sizes) -> (Mini, bool) {
    let full = BoardGeometry::new(rs, false);
    let (min_d, max_d) = sz.mini_pit;
    // Large print: stores wide enough for every word of their names (see `draw_mini`).
    let min_store_w = if sz.large {
        rs.board
            .stores
            .iter()
            .flat_map(|s| s.split_whitespace())
            .map(|w| text::width_mm(w, sz.small, Weight::Regular) + STORE_NAME_PAD + 0.5)
            .fold(0.0, f64::max)
    } else {
        0.0
    };
    // One millimetre clear of the box each side, so strokes stay inside it.
    let half = Mini::fit(
        &full,
        (width - 2.0 - MID_GAP) / 2.0,
        max_d,
        sz.small,
        min_store_w,
    );
    if half.d >= min_d && 2.0 * half.width() + MID_GAP <= width - 2.0 + 1e-9 {
        (half, false)
    } else {
        (
            Mini::fit(&full, width - 2.0, max_d, sz.small, min_store_w),
            true,
        )
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
    let (m, stacked) = arrange(rs, width, sz);
    let hpt = sz.mini_head;
    let head = text::line_height_mm(hpt);
    // One board with its heading ("Before", "Start", "After") above it, top-left at (bx, top).
    let labelled = |pg: &mut Page, bx: f64, top: f64, heading: &str, board: Board<'_>| {
        pg.text(bx, top + text::ascent_mm(hpt), hpt, Weight::Bold, heading);
        draw_mini(pg, rs, sz, &m, bx, top + head, board);
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
    if stacked {
        // One above the other.
        let bx = x + (width - m.width()) / 2.0;
        labelled(pg, bx, y, &first, before);
        let mut used = head + m.height();
        if let Some(after) = after {
            labelled(
                pg,
                bx,
                y + used + STACK_GAP,
                &ph.get("example.after"),
                after,
            );
            used += STACK_GAP + head + m.height();
        }
        return used + 1.0;
    }
    // Side by side, with an arrow between.
    let bx0 = x + (width - (2.0 * m.width() + MID_GAP)) / 2.0;
    labelled(pg, bx0, y, &first, before);
    if let Some(after) = after {
        let bx1 = bx0 + m.width() + MID_GAP;
        labelled(pg, bx1, y, &ph.get("example.after"), after);
        let ay = m.centre(bx1, y + head).y;
        let ax0 = bx0 + m.width() + 2.0;
        let ax1 = bx1 - 2.0;
        pg.shape(
            crate::doc::line(p(ax0, ay), p(ax1 - 2.0, ay)),
            None,
            Some(Stroke::solid(0.5, Color::BLACK)),
        );
        super::board::arrowhead(pg, p(ax1, ay), 1.0, 0.0, 2.5);
    }
    head + m.height() + 1.0
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

/// Sowing numbers of `hole` and the size to set them at: all of them ("1,5,9") at
/// `small` pt; if they do not fit `max` mm, the first few and "…", so the numbers shown are
/// never a misleading range.
fn sow_marks(sown: &[u8], hole: usize, max: f64, small: f64) -> Option<(String, f64)> {
    let nums: Vec<String> = sown
        .iter()
        .enumerate()
        .filter(|(_, &h)| h as usize == hole)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    if nums.is_empty() {
        return None;
    }
    let full = nums.join(",");
    if text::width_mm(&full, small, Weight::Bold) <= max {
        return Some((full, small));
    }
    for k in (1..nums.len()).rev() {
        let s = format!("{},…", nums[..k].join(","));
        if text::width_mm(&s, small, Weight::Bold) <= max {
            return Some((s, small));
        }
    }
    Some((format!("{},…", nums[0]), small))
}

/// Draws one mini board `b` with its top-left at (`x`, `y`).
fn draw_mini(pg: &mut Page, rs: &Ruleset, sz: &Sizes, m: &Mini, x: f64, y: f64, b: Board<'_>) {
    let small = sz.small;
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
    let fit_pt = |s: &str, start: f64, weight: Weight, width: f64| {
        let mut pt = start;
        while pt > small && text::width_mm(s, pt, weight) > width {
            pt -= 0.5;
        }
        pt
    };
    let count_pt = |h: usize, width: f64| fit_pt(&count(h), cpt0, Weight::Bold, width);
    // One size for every pit label, the one the longest needs.
    let lpt = rs
        .board
        .pit_labels
        .iter()
        .flatten()
        .map(|l| fit_pt(l, small, Weight::Regular, m.d + m.g.gap - 0.6))
        .fold(small, f64::min);
    for h in 0..2 * n {
        let c = m.pit(x, y, h);
        let label = &rs.board.pit_labels[h / n][h % n];
        let label_base = if h < n {
            c.y + r + 1.3 + text::ascent_mm(small)
        } else {
            c.y - r - 1.3 - text::descent_mm(small)
        };
        if closed.iter().any(|&o| o as usize == h) {
            // A closed pit of a shortened board: grey, crossed like its paper marker, no count.
            pg.shape(
                circle(c, r),
                Some(Color::grey(210)),
                Some(Stroke::solid(0.35, Color::BLACK)),
            );
            let k = r * std::f64::consts::FRAC_1_SQRT_2;
            for (dx, dy) in [(k, k), (k, -k)] {
                pg.shape(
                    crate::doc::line(p(c.x - dx, c.y - dy), p(c.x + dx, c.y + dy)),
                    None,
                    Some(Stroke::solid(0.5, Color::BLACK)),
                );
            }
            centred(pg, c.x, label_base, lpt, Weight::Regular, label);
            continue;
        }
        let heavy = origins.iter().any(|&o| o as usize == h);
        let sw = if heavy { 0.9 } else { 0.35 };
        pg.shape(
            circle(c, r),
            Some(Color::WHITE),
            Some(Stroke::solid(sw, SIDE_INK[h / n])),
        );
        if h >= n {
            pg.shape(
                circle(c, r - INNER_RING),
                None,
                Some(Stroke::solid(0.2, SIDE_INK[1])),
            );
        }
        if captured.iter().any(|&o| o as usize == h) {
            pg.shape(
                circle(c, r + CAPTURE_RING),
                None,
                Some(Stroke::dashed(0.35, Color::BLACK, &[0.8, 0.6])),
            );
        }
        // Sowing numbers go inside their own pit, under the count, so they cannot be read as
        // belonging to the pit across; labels sit outside the rows.
        let digit_h = text::ascent_mm(small) * 0.78;
        // Baseline of the numbers: their tops 0.3 mm below the pit's centre, where the
        // chord is widest; the count sits above the centre.
        let below = 0.3 + digit_h;
        let marks_base = c.y + below;
        // Chord at that baseline of the circle the numbers must stay inside (the inner ring of
        // a double-ring pit, less its stroke), less a little air.
        let inside = if h >= n {
            r - INNER_RING - 0.1
        } else {
            r - 0.2
        };
        let room = (2.0 * (inside * inside - below * below).max(0.0).sqrt() - 0.6).max(0.0);
        match sow_marks(sown, h, room, small) {
            Some((s, pt)) => {
                centred_mid(
                    pg,
                    c.x,
                    c.y - 0.3 * r,
                    count_pt(h, 1.5 * r),
                    Weight::Bold,
                    &count(h),
                );
                centred(pg, c.x, marks_base, pt, Weight::Bold, &s);
            }
            None => centred_mid(pg, c.x, c.y, count_pt(h, 1.6 * r), Weight::Bold, &count(h)),
        }
        centred(pg, c.x, label_base, lpt, Weight::Regular, label);
    }
    for (side, ink) in SIDE_INK.into_iter().enumerate() {
        let (sx, sy, sw, sh) = m.store(x, y, side);
        pg.shape(
            rounded_rect(sx, sy, sw, sh, (sw / 2.0).min(3.0)),
            Some(Color::WHITE),
            Some(Stroke::solid(0.35, ink)),
        );
        if side == 1 {
            pg.shape(
                rounded_rect(
                    sx + 0.9,
                    sy + 0.9,
                    sw - 1.8,
                    sh - 1.8,
                    (sw / 2.0).min(3.0) - 0.9,
                ),
                None,
                Some(Stroke::solid(0.2, SIDE_INK[1])),
            );
        }
        let h = 2 * n + side;
        let cx = sx + sw / 2.0;
        let cy = sy + sh / 2.0;
        centred_mid(pg, cx, cy, count_pt(h, sw - 1.2), Weight::Bold, &count(h));
        // The store's name at its top, in type small enough that no word is broken and no
        // line is lost above the count.
        let name = &rs.board.stores[side];
        let name_pt =
            super::size_for_words(name, small, small, Weight::Regular, sw - STORE_NAME_PAD);
        let lh = text::line_height_mm(name_pt);
        let room_lines = (((sh / 2.0 - 2.0 - 3.0) / lh).floor() as usize).max(1);
        let mut lines = super::wrap(name, name_pt, Weight::Regular, sw - STORE_NAME_PAD);
        if lines.len() > room_lines {
            lines.truncate(room_lines);
            if let Some(l) = lines.last_mut() {
                l.push('…');
            }
        }
        super::set_lines_centred(pg, cx, sy + 2.0, &lines, name_pt, Weight::Regular);
        if let Some((s, pt)) = sow_marks(sown, h, sw - 1.0, small) {
            centred(pg, cx, cy + 2.5 + text::ascent_mm(pt), pt, Weight::Bold, &s);
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
