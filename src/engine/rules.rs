//! [`Rules`]: a [`Ruleset`] compiled once into lookup tables, and the allocation-free core of a
//! move (sowing with relay laps, captures and the grand-slam test) shared by [`super::Game::play`],
//! [`super::Game::play_fast`] and legal-move generation.
//!
//! Every rule here is read from a ruleset parameter; no code asks which game it is. The rule
//! semantics follow research notes §5 (`mancala-rules.md`): Kalah as OpenSpiel `mancala`, Oware
//! abapa as OpenSpiel `oware`, Giuthi after Pratt (2009) and Mancala World.

use super::{Dir, EngineError, Move, Position};
use crate::ruleset::{
    CaptureKind, Chain, Crossing, Direction, GrandSlam, Include, Relay, RowSide, Ruleset,
};

/// Largest board the engine accepts: pits in each row (the ruleset loader enforces the same bound).
pub const MAX_PITS_PER_SIDE: usize = 16;
/// Largest number of holes (pits and both stores).
pub const MAX_HOLES: usize = 2 * MAX_PITS_PER_SIDE + 2;

/// Seeds one turn of relay sowing may sow on a board of `total` seeds before it counts as
/// endless ([`crate::engine::EngineError::NonTerminating`]): `10 000 + 100 × total`.
pub const fn relay_cap(total: u32) -> u32 {
    10_000 + 100 * total
}

thread_local! {
    /// Seeds sown by moves with relay sowing on this thread, for [`crate::engine::SowBudget`].
    static RELAY_SOWN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Seeds sown so far on this thread by moves with relay sowing (played, tried or simulated;
/// an endless one counts what it sowed before it was refused). Only differences mean
/// anything: see [`crate::engine::SowBudget`].
pub fn relay_sown_here() -> u64 {
    RELAY_SOWN.with(|c| c.get())
}

fn count_relay(seeds: u32) {
    RELAY_SOWN.with(|c| c.set(c.get().wrapping_add(u64::from(seeds))));
}

/// Largest number of legal moves in one position (every pit of a row, both directions).
pub const MAX_MOVES: usize = 2 * MAX_PITS_PER_SIDE;

/// Seeds in every hole, fixed size so that a move never allocates. Holes past `2n + 2` stay 0.
pub(crate) type Board = [u16; MAX_HOLES];

/// Receives the details of a move as the core plays it; the quiet observer compiles to nothing.
pub(crate) trait Observer {
    /// Whether this observer records anything: when not, the core may sow whole laps at once.
    const RECORDS: bool = true;
    /// A handful of `lifted` seeds was lifted from `from` and sown in direction `dir`.
    fn lap(&mut self, _from: u8, _dir: Dir, _lifted: u16) {}
    /// One seed was dropped in `hole`.
    fn sow(&mut self, _hole: u8) {}
    /// `seeds` seeds were taken from `hole` into the mover's store.
    fn capture(&mut self, _hole: u8, _seeds: u16) {}
}

/// The observer that records nothing (fast path).
pub(crate) struct Quiet;
impl Observer for Quiet {
    const RECORDS: bool = false;
}

/// What the core did with one move (before any end-of-game check).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Applied {
    /// Hole of the last seed.
    pub last: u8,
    /// Seeds captured into the mover's store.
    pub captured: u16,
    /// The capture (made or forfeited) would have left every opponent pit empty.
    pub grand_slam: bool,
    /// The move earns an extra turn if the game does not end.
    pub extra_turn: bool,
}

/// The specialised core for rulesets whose every move is one lap with at most an opposite
/// capture (Kalah and its variants), chosen by [`Rules`] from the rules' parameters when it
/// compiles them, never from the game's name. [`super::Game`] plays such a move, and the end
/// checks after it, in a short straight-line path; every other move goes through
/// [`Rules::apply`] and the general end checks, and both give the same result (tested in
/// `tests/fastpath.rs`).
///
/// Chosen when: one sowing direction; no relay sowing; the origin pit sown on a lap; no
/// crossing rule; at most one seed needed to move (`min_seeds` <= 1); capture `None` or
/// `Opposite` without the `FollowingEmpty` chain; grand slam `CaptureAll` or `NoCapture`; no
/// feeding rule; the game ends when either row is empty, with no threshold and no repetition
/// rule. Then a move can never fail, the legal moves are exactly the mover's pits holding a
/// seed, and after a move that leaves both rows with seeds the next player has a move, so the
/// no-legal-move rule is never reached.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SingleLap {
    /// The one sowing direction.
    pub dir: Dir,
    /// Capture on the mover's own row (else on the opponent's).
    pub own_row: bool,
    /// The last seed must land in an empty pit.
    pub needs_empty: bool,
    /// The opposite pit must hold seeds.
    pub opp_must_have: bool,
    /// The capturing seed is taken too.
    pub take_seed: bool,
    /// A grand slam captures nothing (`GrandSlam::NoCapture`).
    pub slam_no_capture: bool,
    /// Per mover, bit `h` set for the pits where a last seed may capture: the capturing row's
    /// pits, none without capture.
    pub capture_pits: [u64; 2],
    /// Per mover, the hole whose last seed earns an extra turn (the own store), or
    /// [`u8::MAX`] (no hole) when the rules give none.
    pub extra_hole: [u8; 2],
}

/// The specialised core for rulesets whose every move is one handful sown once round at most
/// per lap, with a count capture (Oware abapa and its variants), chosen by [`Rules`] from the
/// rules' parameters when it compiles them, never from the game's name. [`super::Game`] plays
/// such a move with [`Rules::apply_count`] instead of [`Rules::apply`] and the same end checks;
/// both give the same result (tested in `tests/fastpath.rs`).
///
/// Chosen when the [`SingleLap`] core is not: one sowing direction; no relay sowing; no
/// crossing rule; at most one seed needed to move (`min_seeds` <= 1); capture `None` or
/// `Count` (counts below 64, chain `Backward` or none); each mover sows at least one hole a
/// lap besides the origin. Any origin rule (Oware's "a handful of 12 or more skips the pit it
/// came from"), grand-slam policy, feeding rule and end rule: the legal-move filters are the
/// general ones ([`Rules::legal_into`]) fed by this core's sowing, and the end checks those of
/// [`super::Game`]'s `settle` read from the fields below.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CountLap {
    /// The one sowing direction.
    pub dir: Dir,
    /// The origin pit is skipped on every lap (`sowing.origin_on_lap = "skip"`).
    pub skip_origin: bool,
    /// Per mover, bit `h` set for the pits where a last seed may capture: the capturing row's
    /// open pits, none without capture.
    pub capture_pits: [u64; 2],
    /// Bit `c` set for every seed count `c` that is captured (`capture.counts`).
    pub counts: u64,
    /// A capture goes on backward along the row (`capture.chain = "backward"`).
    pub chain_back: bool,
    /// A grand slam captures nothing (`GrandSlam::NoCapture`).
    pub slam_no_capture: bool,
    /// Per mover, the hole whose last seed earns an extra turn (the own store), or
    /// [`u8::MAX`] (no hole) when the rules give none.
    pub extra_hole: [u8; 2],
    /// Legal moves need the filters of [`Rules::legal_into`] when the opponent's row is empty
    /// (`feeding.must_feed`).
    pub must_feed: bool,
    /// Legal moves always need the grand-slam filter (`Illegal` or `IllegalUnlessOnly`).
    pub slam_filter: bool,
    /// A grand slam is never legal (`GrandSlam::Illegal`).
    pub slam_illegal: bool,
    /// Seeds in a store that end the game (`end.threshold`).
    pub threshold: Option<u16>,
    /// The game ends when either row is empty (`end.when` has "either-side-empty").
    pub side_empty: bool,
    /// A repeated position ends the game (`end.when` has "repetition").
    pub repetition: bool,
    /// A player without a legal move passes (`end.no_legal_move = "pass"`), else the game ends.
    pub pass: bool,
}

/// The relay sowing of a move did not stop (state repeated or the per-turn bound was exceeded).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Endless;

/// A ruleset compiled for play: next-hole tables per direction and mover, row and opposite
/// tables, and the capture parameters in a form the core reads quickly.
///
/// Capture chains: `Backward` continues a `Count` capture, `FollowingEmpty` continues an
/// `Opposite` capture; any other pairing captures one pit only.
#[derive(Clone, Debug)]
pub struct Rules {
    rs: Ruleset,
    n: usize,
    /// `next[dir][mover][hole]`: the hole a seed goes to after `hole`, stores not sown skipped.
    next: [[[u8; MAX_HOLES]; 2]; 2],
    /// `step_pit[dir][pit]`: the next pit along the circuit in `dir`, stores ignored.
    step_pit: [[u8; MAX_HOLES]; 2],
    /// Owner side of every hole.
    side: [u8; MAX_HOLES],
    /// The directions a move may take, in legal-move order (Ccw before Cw).
    dirs: [Dir; 2],
    ndirs: usize,
    min_seeds: u16,
    skip_origin: bool,
    relay: Relay,
    track_crossing: bool,
    crossing: Crossing,
    counts_mask: u64,
    /// Closed pits (bit `h` for pit hole `h`): a shortened board, see [`Rules::shortened`].
    closed: u64,
    /// `sown_by[mover][hole]`: 1 if `mover`'s sowing drops a seed in `hole`, else 0 (holes
    /// past the board are 0), for sowing whole laps at once.
    sown_by: [[u16; MAX_HOLES]; 2],
    /// Holes `mover`'s sowing drops a seed in on one lap: `sown_by[mover]` summed.
    lap_len: [u16; 2],
    /// The specialised core, when the rules allow it (see [`SingleLap`]).
    single: Option<SingleLap>,
    /// The specialised count-capture core, when the rules allow it (see [`CountLap`]).
    count: Option<CountLap>,
    /// Sowing tables of the single-lap and count cores on small boards (see [`SmallSow`]);
    /// empty unless one of them is used and the board has at most [`SMALL_HOLES`] holes.
    small: SmallSow,
    /// The single-lap and count cores' legal moves before any filter on rows of at most
    /// [`SMALL_ROW`] pits, per mover and row mask (see [`Rules::small_legal`]); empty otherwise.
    small_legal: Vec<([Move; SMALL_ROW], u8)>,
    labels: Vec<String>,
}

/// Pits a side of the rows whose single-lap legal moves are read from a table by the row's
/// mask of pits holding seeds (`2^SMALL_ROW` entries a mover).
pub(crate) const SMALL_ROW: usize = 8;

/// Holes of the boards whose single-lap sowing is read from [`SmallSow`] (up to 7 pits a side).
pub(crate) const SMALL_HOLES: usize = 16;

/// The pits (a mask over holes) of the row where `mover` captures, on a board of `n` pits a
/// side: the mover's own row or the opponent's, as the capture's `side` says.
fn capture_row(side: RowSide, mover: usize, n: usize) -> u64 {
    let row = if side == RowSide::Own {
        mover
    } else {
        1 - mover
    };
    ((1u64 << n) - 1) << (row * n)
}

/// Adds a precomputed lap's `gain` (seeds per hole, [`SmallSow`]) to the first
/// [`SMALL_HOLES`] holes of board `b` (which has at least that many), as one vector sum: by
/// value, so that the compiler sees no aliasing. Shared by the single-lap and count cores.
#[inline(always)]
pub(crate) fn add_gain(b: &mut [u16], gain: &[u16; SMALL_HOLES]) {
    let gain: [u16; SMALL_HOLES] = *gain;
    let head: &mut [u16; SMALL_HOLES] = (&mut b[..SMALL_HOLES])
        .try_into()
        .expect("a board has more than SMALL_HOLES holes");
    let mut sum = *head;
    for (h, g) in sum.iter_mut().zip(gain) {
        *h += g;
    }
    *head = sum;
}

/// Seeds sown in the last lap of a handful, at most one lap's holes (a board of at most
/// [`SMALL_HOLES`] holes sows at most that many a lap).
const SMALL_LEFT: usize = SMALL_HOLES + 1;

/// The single-lap core's sowing on a board of at most [`SMALL_HOLES`] holes, precomputed per
/// mover, origin pit and seeds in the last lap (`1..=` one lap): the seed each hole gains
/// (0 or 1) and the hole of the last seed. A move then adds one fixed row of 16 to the board
/// (a couple of vector adds) and reads where it ended, instead of stepping seed by seed.
#[derive(Clone, Debug, Default)]
pub(crate) struct SmallSow {
    /// `gain[(mover * SMALL_HOLES + from) * SMALL_LEFT + left]`.
    gain: Vec<[u16; SMALL_HOLES]>,
    /// The hole of the last seed, same index.
    last: Vec<u8>,
}

impl SmallSow {
    /// Tables for `next` (the next-hole table of the one direction, per mover) on a board of
    /// `holes` holes whose movers sow `lap_len` holes a lap; empty when the board is larger.
    fn new(next: &[[u8; MAX_HOLES]; 2], holes: usize, lap_len: [u16; 2]) -> SmallSow {
        if holes > SMALL_HOLES || lap_len.iter().any(|&l| l as usize >= SMALL_LEFT) {
            return SmallSow::default();
        }
        let size = 2 * SMALL_HOLES * SMALL_LEFT;
        let mut gain = vec![[0u16; SMALL_HOLES]; size];
        let mut last = vec![0u8; size];
        for mover in 0..2 {
            for from in 0..holes {
                let base = (mover * SMALL_HOLES + from) * SMALL_LEFT;
                let mut row = [0u16; SMALL_HOLES];
                let mut pos = from;
                for left in 1..=lap_len[mover] as usize {
                    pos = next[mover][pos] as usize;
                    row[pos] += 1;
                    gain[base + left] = row;
                    last[base + left] = pos as u8;
                }
            }
        }
        SmallSow { gain, last }
    }

    /// The gains and the last hole for `mover` sowing `left` seeds (`1..=` one lap) from
    /// `from` (a hole of the board), or `None` when the board has no tables.
    #[inline(always)]
    pub(crate) fn get(
        &self,
        mover: usize,
        from: usize,
        left: usize,
    ) -> Option<(&[u16; SMALL_HOLES], usize)> {
        let i = ((mover & 1) * SMALL_HOLES + from) * SMALL_LEFT + left;
        Some((self.gain.get(i)?, *self.last.get(i)? as usize))
    }
}

impl Rules {
    /// Compiles `rs`.
    ///
    /// # Panics
    /// If `rs.board.pits_per_side` is 0 or above [`MAX_PITS_PER_SIDE`], or a label list has the
    /// wrong length; the ruleset loader rejects such rulesets, so [`Rules::try_new`] is only
    /// needed for rulesets built in code.
    pub fn new(rs: &Ruleset) -> Rules {
        match Rules::try_new(rs) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }

    /// Compiles `rs`, or says why the engine cannot play it (board size out of range, or label
    /// lists not matching `pits_per_side`).
    pub fn try_new(rs: &Ruleset) -> Result<Rules, String> {
        Rules::compile(rs, 0)
    }

    /// The same rules on a board shortened by closing the pits in `closed` (hole numbers):
    /// a closed pit holds no seeds, sowing passes over it without dropping a seed, and a
    /// capture chain steps over it, as if the board were built without it.
    ///
    /// Closed pits come in opposite pairs (the source shortens "each row" by the same pits,
    /// the opponent placing seeds opposite the loser's), so the opposite of an open pit stays
    /// open and the opposite relation is the board's own. Errors (plain words, naming pits by
    /// label): a hole that is not a pit, a closed pit whose opposite is open, or a row with no
    /// open pit left. Source: the Giuthi rules page, second phase (`[next_round]` in a ruleset).
    pub fn shortened(&self, closed: &[u8]) -> Result<Rules, String> {
        let n = self.n;
        let mut mask = 0u64;
        for &h in closed {
            if h as usize >= 2 * n {
                return Err(format!(
                    "hole {h} ({}) is not a pit; only pits can be closed",
                    self.label(h)
                ));
            }
            mask |= 1 << h;
        }
        for &h in closed {
            let o = self.opposite(h);
            if mask & (1 << o) == 0 {
                return Err(format!(
                    "{} is closed but {} opposite it is open; pits are closed in opposite pairs",
                    self.label(h),
                    self.label(o)
                ));
            }
        }
        let open = (0..n).filter(|&h| mask & (1 << h) == 0).count();
        if open == 0 {
            return Err(
                "every pit of a row is closed; a shortened board keeps at least one pit a row"
                    .to_string(),
            );
        }
        Rules::compile(&self.rs, mask)
    }

    fn compile(rs: &Ruleset, closed: u64) -> Result<Rules, String> {
        let n = rs.board.pits_per_side;
        if n == 0 || n > MAX_PITS_PER_SIDE {
            return Err(format!(
                "board.pits_per_side is {n}; the engine plays 1 to {MAX_PITS_PER_SIDE} pits per side"
            ));
        }
        let total = 2 * n * rs.board.seeds_per_pit as usize;
        if total > u16::MAX as usize {
            return Err(format!(
                "{total} seeds in all; the engine counts at most {} seeds",
                u16::MAX
            ));
        }
        for side in 0..2 {
            if rs.board.pit_labels[side].len() != n {
                return Err(format!(
                    "side {side} has {} pit labels; expected {n}",
                    rs.board.pit_labels[side].len()
                ));
            }
        }
        let holes = 2 * n + 2;
        let s0 = 2 * n;
        let s1 = 2 * n + 1;
        // The counter-clockwise circuit: side 0's pits, store 0, side 1's pits, store 1.
        let mut circuit: Vec<usize> = (0..n).collect();
        circuit.push(s0);
        circuit.extend(n..2 * n);
        circuit.push(s1);
        let len = circuit.len();
        let mut pos_in = [0usize; MAX_HOLES];
        for (i, &h) in circuit.iter().enumerate() {
            pos_in[h] = i;
        }
        let mut side = [0u8; MAX_HOLES];
        for (h, s) in side.iter_mut().enumerate().take(holes) {
            *s = if h < n || h == s0 { 0 } else { 1 };
        }
        let sown = |mover: usize, h: usize| -> bool {
            if h < 2 * n {
                return closed & (1 << h) == 0;
            }
            let own = side[h] as usize == mover;
            let inc = if own {
                rs.sowing.own_store
            } else {
                rs.sowing.opponent_store
            };
            inc == Include::Sow
        };
        let mut next = [[[0u8; MAX_HOLES]; 2]; 2];
        let mut step_pit = [[0u8; MAX_HOLES]; 2];
        for d in 0..2 {
            let step = |i: usize| {
                if d == 0 {
                    (i + 1) % len
                } else {
                    (i + len - 1) % len
                }
            };
            for h in 0..holes {
                for (mover, table) in next[d].iter_mut().enumerate() {
                    let mut i = step(pos_in[h]);
                    while !sown(mover, circuit[i]) {
                        i = step(i);
                    }
                    table[h] = circuit[i] as u8;
                }
                let mut i = step(pos_in[h]);
                while circuit[i] >= 2 * n || closed & (1 << circuit[i]) != 0 {
                    i = step(i);
                }
                step_pit[d][h] = circuit[i] as u8;
            }
        }
        let (dirs, ndirs) = match rs.sowing.direction {
            Direction::Counterclockwise => ([Dir::Ccw, Dir::Ccw], 1),
            Direction::Clockwise => ([Dir::Cw, Dir::Cw], 1),
            Direction::Either => ([Dir::Ccw, Dir::Cw], 2),
        };
        let mut counts_mask = 0u64;
        for &c in &rs.capture.counts {
            if c < 64 {
                counts_mask |= 1 << c;
            }
        }
        let track_crossing =
            rs.capture.after_crossing_only || rs.extra_turn.empty_pit_before_crossing;
        let mut sown_by = [[0u16; MAX_HOLES]; 2];
        let mut lap_len = [0u16; 2];
        for (mover, (row, len)) in sown_by.iter_mut().zip(&mut lap_len).enumerate() {
            for (h, s) in row.iter_mut().enumerate().take(holes) {
                if sown(mover, h) {
                    *s = 1;
                    *len += 1;
                }
            }
        }
        let c = &rs.capture;
        let single = (rs.sowing.direction != Direction::Either
            && rs.sowing.relay == Relay::None
            && rs.sowing.origin_on_lap == Include::Sow
            && !track_crossing
            && rs.sowing.min_seeds <= 1
            && match c.kind {
                CaptureKind::None => true,
                CaptureKind::Opposite => c.chain != Chain::FollowingEmpty,
                CaptureKind::Count => false,
            }
            && matches!(rs.grand_slam, GrandSlam::CaptureAll | GrandSlam::NoCapture)
            && !rs.feeding.must_feed
            && rs.end.either_side_empty
            && rs.end.threshold.is_none()
            && !rs.end.repetition)
            .then_some(SingleLap {
                dir: dirs[0],
                own_row: c.side == RowSide::Own,
                needs_empty: c.last_pit_was_empty,
                opp_must_have: c.opposite_must_have_seeds,
                take_seed: c.take_capturing_seed,
                slam_no_capture: rs.grand_slam == GrandSlam::NoCapture,
                capture_pits: std::array::from_fn(|mover| {
                    if c.kind == CaptureKind::Opposite {
                        capture_row(c.side, mover, n)
                    } else {
                        0
                    }
                }),
                extra_hole: std::array::from_fn(|mover| {
                    if rs.extra_turn.last_in_own_store {
                        (2 * n + mover) as u8
                    } else {
                        u8::MAX
                    }
                }),
            });
        let skip_origin = rs.sowing.origin_on_lap == Include::Skip;
        let count = (single.is_none()
            && rs.sowing.direction != Direction::Either
            && rs.sowing.relay == Relay::None
            && !track_crossing
            && rs.sowing.min_seeds <= 1
            && match c.kind {
                CaptureKind::None => true,
                CaptureKind::Count => {
                    c.counts.iter().all(|&k| k < 64)
                        && matches!(c.chain, Chain::Backward | Chain::None)
                }
                CaptureKind::Opposite => false,
            }
            && lap_len.iter().all(|&l| l > skip_origin as u16))
        .then(|| CountLap {
            dir: dirs[0],
            skip_origin,
            capture_pits: std::array::from_fn(|mover| {
                if c.kind == CaptureKind::Count {
                    capture_row(c.side, mover, n) & !closed
                } else {
                    0
                }
            }),
            counts: counts_mask,
            chain_back: c.chain == Chain::Backward,
            slam_no_capture: rs.grand_slam == GrandSlam::NoCapture,
            extra_hole: std::array::from_fn(|mover| {
                if rs.extra_turn.last_in_own_store {
                    (2 * n + mover) as u8
                } else {
                    u8::MAX
                }
            }),
            must_feed: rs.feeding.must_feed,
            slam_filter: matches!(
                rs.grand_slam,
                GrandSlam::Illegal | GrandSlam::IllegalUnlessOnly
            ),
            slam_illegal: rs.grand_slam == GrandSlam::Illegal,
            threshold: rs.end.threshold,
            side_empty: rs.end.either_side_empty,
            repetition: rs.end.repetition,
            pass: rs.end.no_legal_move == crate::ruleset::NoLegalMove::Pass,
        });
        let fast_dir = single.map(|sl| sl.dir).or(count.map(|cl| cl.dir));
        let small = match fast_dir {
            Some(d) => SmallSow::new(&next[d as usize], holes, lap_len),
            None => SmallSow::default(),
        };
        // Legal moves of the single-lap and count cores by row mask: the pits of set bits, in
        // pit order.
        let mut small_legal = Vec::new();
        if let (Some(dir), true) = (fast_dir, n <= SMALL_ROW) {
            let none = Move { pit: 0, dir };
            for mover in 0..2 {
                for mask in 0..1usize << SMALL_ROW {
                    let mut moves = [none; SMALL_ROW];
                    let mut len = 0;
                    for i in (0..n).filter(|i| mask & (1 << i) != 0) {
                        moves[len] = Move {
                            pit: (mover * n + i) as u8,
                            dir,
                        };
                        len += 1;
                    }
                    small_legal.push((moves, len as u8));
                }
            }
        }
        let mut labels = Vec::with_capacity(holes);
        labels.extend(rs.board.pit_labels[0].iter().cloned());
        labels.extend(rs.board.pit_labels[1].iter().cloned());
        labels.extend(rs.board.stores.iter().cloned());
        Ok(Rules {
            rs: rs.clone(),
            n,
            next,
            step_pit,
            side,
            dirs,
            ndirs,
            min_seeds: rs.sowing.min_seeds.max(1),
            skip_origin,
            relay: rs.sowing.relay,
            track_crossing,
            crossing: rs.capture.crossing,
            counts_mask,
            closed,
            sown_by,
            lap_len,
            single,
            count,
            small,
            small_legal,
            labels,
        })
    }

    /// The same rules with the specialised single-lap core switched off, so that every move
    /// goes through the general core: for checking the two against each other. Plays exactly
    /// as `self`, only slower.
    pub fn with_general_core(&self) -> Rules {
        Rules {
            single: None,
            count: None,
            ..self.clone()
        }
    }

    /// Whether moves are played by the specialised count-capture core (Oware-like rules,
    /// chosen from the rules' parameters when compiled; see [`Rules::with_general_core`]).
    pub fn has_count_core(&self) -> bool {
        self.count.is_some()
    }

    #[inline(always)]
    pub(crate) fn count_core(&self) -> Option<&CountLap> {
        self.count.as_ref()
    }

    /// Whether moves are played by the specialised single-lap core (Kalah-like rules, chosen
    /// from the rules' parameters when compiled; see [`Rules::with_general_core`]).
    pub fn has_single_lap_core(&self) -> bool {
        self.single.is_some()
    }

    #[inline]
    pub(crate) fn single_lap(&self) -> Option<SingleLap> {
        self.single
    }

    /// The single-lap and count cores' sowing tables (empty on boards of more than [`SMALL_HOLES`] holes).
    #[inline]
    pub(crate) fn small_sow(&self) -> &SmallSow {
        &self.small
    }

    /// The single-lap core's legal moves of `mover` whose row's pits holding seeds are the set
    /// bits of `mask` (bit `i` for the row's pit `i`), in pit order, and how many; `None` on
    /// rows of more than [`SMALL_ROW`] pits.
    #[inline(always)]
    pub(crate) fn small_legal(&self, mover: usize, mask: u32) -> Option<&([Move; SMALL_ROW], u8)> {
        self.small_legal
            .get(((mover & 1) << SMALL_ROW) | (mask as usize & ((1 << SMALL_ROW) - 1)))
    }

    /// Next-hole table of `mover` sowing in `dir` (see the `next` field).
    #[inline]
    pub(crate) fn next_table(&self, dir: Dir, mover: usize) -> &[u8; MAX_HOLES] {
        &self.next[dir as usize][mover & 1]
    }

    /// Holes one lap of `mover`'s sowing drops a seed in, and which (1) or not (0).
    #[inline]
    pub(crate) fn lap_of(&self, mover: usize) -> (u16, &[u16; MAX_HOLES]) {
        (self.lap_len[mover & 1], &self.sown_by[mover & 1])
    }

    /// The ruleset this was compiled from.
    #[inline]
    pub fn ruleset(&self) -> &Ruleset {
        &self.rs
    }

    /// Pits in each row (`n`).
    #[inline]
    pub fn pits_per_side(&self) -> usize {
        self.n
    }

    /// Number of holes: `2n` pits and 2 stores.
    #[inline]
    pub fn holes(&self) -> usize {
        2 * self.n + 2
    }

    /// The starting position: `seeds_per_pit` in every open pit (closed pits empty), stores
    /// empty, side 0 to move.
    pub fn initial(&self) -> Position {
        let mut holes: Vec<u16> = (0..2 * self.n)
            .map(|h| {
                if self.is_closed(h as u8) {
                    0
                } else {
                    self.rs.board.seeds_per_pit
                }
            })
            .collect();
        holes.extend([0, 0]);
        Position { holes, to_move: 0 }
    }

    /// Whether `hole` is a closed pit of a shortened board ([`Rules::shortened`]).
    pub fn is_closed(&self, hole: u8) -> bool {
        hole < 64 && self.closed & (1 << hole) != 0
    }

    /// The closed pits, in hole order (empty unless the board is shortened).
    pub fn closed_pits(&self) -> Vec<u8> {
        (0..2 * self.n as u8)
            .filter(|&h| self.is_closed(h))
            .collect()
    }

    /// Whether `hole` is a store (`2n` or `2n+1`).
    pub fn is_store(&self, hole: u8) -> bool {
        (hole as usize) >= 2 * self.n
    }

    /// The side (0 or 1) owning a pit or store.
    pub fn side_of(&self, hole: u8) -> u8 {
        self.side[(hole as usize).min(MAX_HOLES - 1)]
    }

    /// The pit across the board: pit `i` of side 0 (hole `i`) is opposite pit `n-1-i` of side 1
    /// (hole `2n-1-i`), and the other way round.
    pub fn opposite(&self, pit: u8) -> u8 {
        (2 * self.n - 1).saturating_sub(pit as usize) as u8
    }

    /// The store of `side`: hole `2n + side`.
    pub fn store(&self, side: u8) -> u8 {
        (2 * self.n) as u8 + side.min(1)
    }

    /// The ruleset's label of a pit or store (`""` for a hole number out of range).
    pub fn label(&self, hole: u8) -> &str {
        self.labels
            .get(hole as usize)
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The hole with this pit or store label: an exact match, else one ignoring ASCII case.
    pub fn hole_by_label(&self, label: &str) -> Option<u8> {
        // Exact first; then ignoring case (the loader keeps labels unique ignoring case).
        self.labels
            .iter()
            .position(|l| l == label)
            .or_else(|| {
                self.labels
                    .iter()
                    .position(|l| l.eq_ignore_ascii_case(label))
            })
            .map(|h| h as u8)
    }

    /// Every hole in circuit order starting at side 0's first pit: side 0's pits, store 0,
    /// side 1's pits, store 1 for [`Dir::Ccw`]; the same ring walked the other way for
    /// [`Dir::Cw`]. Stores are included whether or not anyone sows them, and so are the closed
    /// pits of a shortened board (see [`Rules::sows_into`]).
    pub fn ring(&self, dir: Dir) -> Vec<u8> {
        let n = self.n as u8;
        let mut ring: Vec<u8> = (0..n).collect();
        ring.push(2 * n);
        ring.extend(n..2 * n);
        ring.push(2 * n + 1);
        if dir == Dir::Cw {
            ring[1..].reverse();
        }
        ring
    }

    /// Whether `mover`'s sowing drops a seed in `hole`: every open pit, and a store as the ruleset's
    /// `sowing.own_store` / `sowing.opponent_store` say.
    pub fn sows_into(&self, mover: u8, hole: u8) -> bool {
        if !self.is_store(hole) {
            return !self.is_closed(hole);
        }
        let inc = if self.side_of(hole) == mover {
            self.rs.sowing.own_store
        } else {
            self.rs.sowing.opponent_store
        };
        inc == Include::Sow
    }

    /// The name of the player owning `side` (side 0 moves first).
    pub fn player_name(&self, side: u8) -> &str {
        &self.rs.board.players[(side as usize).min(1)]
    }

    /// The directions a move may take: one for fixed-direction games, `[Ccw, Cw]` for Either.
    pub fn directions(&self) -> &[Dir] {
        &self.dirs[..self.ndirs]
    }

    /// Checks that a position fits this board: `2n + 2` holes, side 0 or 1 to move, no seeds
    /// in a closed pit, and at most 65 535 seeds in all (so no count can overflow).
    pub fn check_position(&self, p: &Position) -> Result<(), EngineError> {
        self.checked_total(p).map(|_| ())
    }

    /// [`Rules::check_position`], giving the seeds on the board (stores included) when it fits.
    pub(crate) fn checked_total(&self, p: &Position) -> Result<u32, EngineError> {
        if p.holes.len() != self.holes() {
            return Err(EngineError::InvalidPosition(format!(
                "expected {} holes ({} pits and 2 stores), found {}",
                self.holes(),
                2 * self.n,
                p.holes.len()
            )));
        }
        if p.to_move > 1 {
            return Err(EngineError::InvalidPosition(format!(
                "side to move must be 0 or 1, found {}",
                p.to_move
            )));
        }
        // Only a shortened board has closed pits to look at.
        let closed_with_seeds = (self.closed != 0)
            .then(|| (0..2 * self.n).find(|&h| self.is_closed(h as u8) && p.holes[h] > 0))
            .flatten();
        if let Some(h) = closed_with_seeds {
            return Err(EngineError::InvalidPosition(format!(
                "{} is closed but holds {} seeds; a closed pit holds none",
                self.label(h as u8),
                p.holes[h]
            )));
        }
        let total: u32 = p.holes.iter().map(|&x| x as u32).sum();
        if total > u16::MAX as u32 {
            return Err(EngineError::InvalidPosition(format!(
                "{total} seeds in all; at most {} are allowed",
                u16::MAX
            )));
        }
        Ok(total)
    }

    // ---- the core -------------------------------------------------------------------------

    #[inline]
    pub(crate) fn board_of(&self, p: &Position) -> Board {
        let mut b = [0u16; MAX_HOLES];
        let k = p.holes.len().min(self.holes());
        b[..k].copy_from_slice(&p.holes[..k]);
        b
    }

    /// Seeds in `side`'s pits.
    #[inline]
    pub(crate) fn row_sum(&self, b: &Board, side: u8) -> u32 {
        let start = side as usize * self.n;
        b[start..start + self.n].iter().map(|&x| x as u32).sum()
    }

    #[inline]
    pub(crate) fn row_empty(&self, b: &Board, side: u8) -> bool {
        let start = side as usize * self.n;
        b[start..start + self.n].iter().all(|&x| x == 0)
    }

    #[inline]
    fn counts_contains(&self, c: u16) -> bool {
        if c < 64 {
            self.counts_mask & (1 << c) != 0
        } else {
            self.rs.capture.counts.contains(&c)
        }
    }

    /// Whether `mv` passes the basic tests for `mover`: a pit of the mover's row holding at
    /// least `min_seeds`, in a direction the ruleset allows. `Err` says why not.
    pub(crate) fn basic_check(&self, b: &Board, mover: u8, mv: Move) -> Result<(), String> {
        let p = mv.pit as usize;
        if p >= 2 * self.n {
            return Err(format!("hole {} is not a pit", mv.pit));
        }
        if self.side[p] != mover {
            return Err(format!(
                "{} belongs to {}; {} moves",
                self.label(mv.pit),
                self.player_name(self.side[p]),
                self.player_name(mover)
            ));
        }
        if self.is_closed(mv.pit) {
            return Err(format!(
                "{} is closed on this shortened board",
                self.label(mv.pit)
            ));
        }
        if b[p] < self.min_seeds {
            return Err(if b[p] == 0 {
                format!("{} is empty", self.label(mv.pit))
            } else {
                format!(
                    "{} holds {} seed{}; a move needs at least {}",
                    self.label(mv.pit),
                    b[p],
                    if b[p] == 1 { "" } else { "s" },
                    self.min_seeds
                )
            });
        }
        if !self.directions().contains(&mv.dir) {
            return Err(format!(
                "this game sows {} only",
                if self.dirs[0] == Dir::Ccw {
                    "counter-clockwise"
                } else {
                    "clockwise"
                }
            ));
        }
        Ok(())
    }

    /// Plays the sowing and captures of `mv` by `mover` on `b` (no legality test, no end
    /// check). On `Err(Endless)` the board is left part-way through the relay: callers that
    /// need it intact work on a copy (only relay rulesets can fail).
    #[inline]
    pub(crate) fn apply<O: Observer>(
        &self,
        b: &mut Board,
        mover: u8,
        mv: Move,
        obs: &mut O,
    ) -> Result<Applied, Endless> {
        let mover_u = mover as usize;
        let mut from = mv.pit as usize;
        let mut dir = mv.dir;
        let mut crossed = false;
        let mut sown_total: u32 = 0;
        let cap: u32 = if self.relay == Relay::None {
            u32::MAX
        } else {
            relay_cap(b.iter().map(|&x| x as u32).sum())
        };
        // Brent's cycle detection on the state at each lap start (board, pit, direction).
        let mut saved: Option<(Board, usize, Dir)> = None;
        let mut power: u32 = 1;
        let mut lam: u32 = 0;
        let last;
        loop {
            let k = b[from];
            b[from] = 0;
            obs.lap(from as u8, dir, k);
            let nxt = &self.next[dir as usize][mover_u];
            let mut pos = from;
            // Oware's rule: a lap never drops a seed in the pit this handful came from.
            let skip_origin = self.skip_origin;
            let mut left = k;
            // A handful that goes all the way round: when nobody watches the single seeds
            // (fast path, no crossing rule), every whole lap but the last adds one seed to each
            // hole the mover sows (never the origin under Oware's rule) and ends where it
            // started, so it is added at once. The last lap is sown seed by seed below, so
            // `pos` ends on the hole of the last seed.
            let per_lap = self.lap_len[mover_u] - skip_origin as u16;
            if !O::RECORDS && !self.track_crossing && per_lap > 0 && left > per_lap {
                let laps = (left - 1) / per_lap;
                for (h, &s) in b.iter_mut().zip(&self.sown_by[mover_u]) {
                    *h += laps * s;
                }
                if skip_origin {
                    b[from] -= laps;
                }
                left -= laps * per_lap;
            }
            if !skip_origin && !self.track_crossing {
                // The common case (Kalah): one table look-up and one add per seed.
                for _ in 0..left {
                    pos = nxt[pos] as usize;
                    b[pos] += 1;
                    obs.sow(pos as u8);
                }
            } else {
                for _ in 0..left {
                    pos = nxt[pos] as usize;
                    if skip_origin && pos == from {
                        pos = nxt[pos] as usize;
                    }
                    b[pos] += 1;
                    obs.sow(pos as u8);
                    if self.track_crossing
                        && self.crossing == Crossing::Sown
                        && pos < 2 * self.n
                        && self.side[pos] != mover
                    {
                        crossed = true;
                    }
                }
            }
            sown_total += k as u32;
            let is_pit = pos < 2 * self.n;
            if self.track_crossing
                && self.crossing == Crossing::Landed
                && is_pit
                && self.side[pos] != mover
            {
                crossed = true;
            }
            if self.relay == Relay::None || !is_pit || b[pos] <= 1 {
                last = pos;
                break;
            }
            // Relay: lift the last pit and sow on.
            if sown_total > cap {
                count_relay(sown_total);
                return Err(Endless);
            }
            from = pos;
            if self.relay == Relay::Reverse {
                dir = match dir {
                    Dir::Ccw => Dir::Cw,
                    Dir::Cw => Dir::Ccw,
                };
            }
            match &saved {
                Some((sb, sp, sd)) if *sp == from && *sd == dir && sb == b => {
                    count_relay(sown_total);
                    return Err(Endless);
                }
                _ => {}
            }
            lam += 1;
            if lam == power {
                saved = Some((*b, from, dir));
                power = power.saturating_mul(2);
                lam = 0;
            }
        }
        if self.relay != Relay::None {
            count_relay(sown_total);
        }
        let last_dir = dir;
        let landed_in_empty = last < 2 * self.n && b[last] == 1;
        // Captures: collect first (the grand-slam test needs the whole list), then apply.
        let mut caps: [(u8, u16); MAX_PITS_PER_SIDE + 2] = [(0, 0); MAX_PITS_PER_SIDE + 2];
        let mut ncaps = 0usize;
        let c = &self.rs.capture;
        let row_ok = |h: usize| -> bool {
            h < 2 * self.n
                && match c.side {
                    RowSide::Own => self.side[h] == mover,
                    RowSide::Opponent => self.side[h] != mover,
                }
        };
        if row_ok(last) && (!c.after_crossing_only || crossed) {
            match c.kind {
                CaptureKind::None => {}
                CaptureKind::Opposite => {
                    if !c.last_pit_was_empty || b[last] == 1 {
                        let opp = self.opposite(last as u8) as usize;
                        if b[opp] > 0 || !c.opposite_must_have_seeds {
                            if b[opp] > 0 {
                                caps[ncaps] = (opp as u8, b[opp]);
                                ncaps += 1;
                            }
                            if c.take_capturing_seed {
                                caps[ncaps] = (last as u8, 1);
                                ncaps += 1;
                            }
                            if c.chain == Chain::FollowingEmpty {
                                let row = self.side[last];
                                let mut p = self.step_pit[last_dir as usize][last] as usize;
                                while self.side[p] == row && p != last && b[p] == 0 {
                                    let o = self.opposite(p as u8) as usize;
                                    if b[o] == 0 {
                                        break;
                                    }
                                    caps[ncaps] = (o as u8, b[o]);
                                    ncaps += 1;
                                    if ncaps == caps.len() {
                                        break;
                                    }
                                    p = self.step_pit[last_dir as usize][p] as usize;
                                }
                            }
                        }
                    }
                }
                CaptureKind::Count => {
                    if self.counts_contains(b[last]) {
                        caps[ncaps] = (last as u8, b[last]);
                        ncaps += 1;
                        if c.chain == Chain::Backward {
                            let row = self.side[last];
                            let back = match last_dir {
                                Dir::Ccw => 1,
                                Dir::Cw => 0,
                            };
                            let mut p = self.step_pit[back][last] as usize;
                            while self.side[p] == row
                                && p != last
                                && self.counts_contains(b[p])
                                && ncaps < caps.len()
                            {
                                caps[ncaps] = (p as u8, b[p]);
                                ncaps += 1;
                                p = self.step_pit[back][p] as usize;
                            }
                        }
                    }
                }
            }
        }
        let opp_side = 1 - mover;
        let mut from_opp: u32 = 0;
        for &(h, s) in &caps[..ncaps] {
            if self.side[h as usize] == opp_side {
                from_opp += s as u32;
            }
        }
        let grand_slam = from_opp > 0 && from_opp == self.row_sum(b, opp_side);
        let mut captured: u16 = 0;
        if !(grand_slam && self.rs.grand_slam == crate::ruleset::GrandSlam::NoCapture) {
            let store = 2 * self.n + mover_u;
            for &(h, s) in &caps[..ncaps] {
                b[h as usize] -= s;
                b[store] += s;
                captured += s;
                obs.capture(h, s);
            }
        }
        let et = &self.rs.extra_turn;
        let extra_turn = (et.last_in_own_store && last == 2 * self.n + mover_u)
            || (et.empty_pit_before_crossing && landed_in_empty && !crossed);
        Ok(Applied {
            last: last as u8,
            captured,
            grand_slam,
            extra_turn,
        })
    }

    /// Plays the sowing and captures of a move from pit `from` by `mover` under the count core
    /// ([`CountLap`]; no legality test, no end check): the same result as [`Rules::apply`] on
    /// such rules, and it never fails (there is no relay).
    ///
    /// Sowing: the handful is lifted and sown one seed a hole along the mover's next-hole
    /// table; under the origin rule the pit it came from is passed over. When nothing is
    /// recorded, every whole lap but the last adds one seed to each hole the mover sows (the
    /// origin excepted under the origin rule) and the last lap, which never reaches the origin
    /// again, is one row of [`SmallSow`] on boards of up to [`SMALL_HOLES`] holes. Capture
    /// (`Count`): a last seed in a pit of the capturing row that then holds one of the counts
    /// takes the pit, and with the `Backward` chain the pits before it on that row while they
    /// hold one of the counts too; a capture that takes every seed of the opponent's row is a
    /// grand slam, and captures nothing under `NoCapture`.
    #[inline(always)]
    pub(crate) fn apply_count<O: Observer>(
        &self,
        s: &CountLap,
        b: &mut Board,
        mover: usize,
        from: usize,
        obs: &mut O,
    ) -> Applied {
        let mover = mover & 1;
        let k = b[from];
        b[from] = 0;
        obs.lap(from as u8, s.dir, k);
        let per_lap = self.lap_len[mover] - s.skip_origin as u16;
        let mut left = k;
        if !O::RECORDS && left > per_lap {
            let laps = (left - 1) / per_lap;
            for (h, &x) in b.iter_mut().zip(&self.sown_by[mover]) {
                *h += laps * x;
            }
            if s.skip_origin {
                b[from] -= laps;
            }
            left -= laps * per_lap;
        }
        let last = match self.small.get(mover, from, left as usize) {
            Some((gain, last)) if !O::RECORDS => {
                add_gain(b, gain);
                last
            }
            _ => {
                let nxt = &self.next[s.dir as usize][mover];
                let mut pos = from;
                for _ in 0..left {
                    pos = nxt[pos] as usize;
                    if s.skip_origin && pos == from {
                        pos = nxt[pos] as usize;
                    }
                    b[pos] += 1;
                    obs.sow(pos as u8);
                }
                pos
            }
        };
        let counted = |c: u16| c < 64 && (s.counts >> c) & 1 != 0;
        let mut captured = 0u16;
        let mut grand_slam = false;
        if (s.capture_pits[mover] >> last) & 1 != 0 && counted(b[last]) {
            // The captured pits, in capture order: the last one, then backward.
            let mut caps = [0u8; MAX_PITS_PER_SIDE];
            caps[0] = last as u8;
            let mut ncaps = 1usize;
            let mut sum = b[last];
            if s.chain_back {
                let row = self.side[last];
                let back = match s.dir {
                    Dir::Ccw => 1,
                    Dir::Cw => 0,
                };
                let mut p = self.step_pit[back][last] as usize;
                while self.side[p] == row && p != last && counted(b[p]) && ncaps < caps.len() {
                    caps[ncaps] = p as u8;
                    ncaps += 1;
                    sum += b[p];
                    p = self.step_pit[back][p] as usize;
                }
            }
            let opp_side = 1 - mover as u8;
            let from_opp = if self.side[last] == opp_side { sum } else { 0 };
            grand_slam = from_opp > 0 && from_opp as u32 == self.row_sum(b, opp_side);
            if !(grand_slam && s.slam_no_capture) {
                for &h in &caps[..ncaps] {
                    let seeds = b[h as usize];
                    b[h as usize] = 0;
                    obs.capture(h, seeds);
                }
                b[2 * self.n + mover] += sum;
                captured = sum;
            }
        }
        Applied {
            last: last as u8,
            captured,
            grand_slam,
            extra_turn: last == s.extra_hole[mover] as usize,
        }
    }
}
