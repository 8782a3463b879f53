//! [`Game`]: a position, the history needed for the repetition rule, and the end of the game;
//! legal moves (feeding and grand-slam filters) and the end-of-move checks.
//!
//! End checks run after a move's captures and before its extra turn, in this order: threshold,
//! either side empty, repetition, then "the player to move has no legal move" (end, or pass).
//! This is the order of the ruleset model's `End` doc; OpenSpiel `oware` checks capture,
//! repetition and no legal move in the same sequence (research notes §5.2).

use super::rules::{
    add_gain, Applied, Board, CountLap, Endless, Observer, Quiet, Rules, SingleLap, MAX_HOLES,
    MAX_MOVES, MAX_PITS_PER_SIDE, SMALL_ROW,
};
use super::{Dir, EndReason, Ending, EngineError, Lap, Move, Position, Report};
use crate::ruleset::{GrandSlam, NoLegalMove, Remaining};

/// A fixed-capacity list of moves, filled without allocating (see [`Game::legal_moves_into`]).
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move {
                pit: 0,
                dir: Dir::Ccw,
            }; MAX_MOVES],
            len: 0,
        }
    }

    /// The moves, in legal-move order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
}

/// What [`Game::play_fast`] did: the fields of a [`Report`] that need no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Hole where the last seed landed.
    pub last: u8,
    /// Seeds captured in all.
    pub captured: u16,
    /// The move was a grand slam (see [`Report::grand_slam`]).
    pub grand_slam: bool,
    /// The mover earned an extra turn (never set when the move ended the game).
    pub extra_turn: bool,
    /// The player who passed after this move, if any.
    pub passed: Option<u8>,
    /// Who moves next; `None` once the game is over.
    pub next: Option<u8>,
}

/// Bit `i` set when hole `start + i` holds a seed, for `i < n` (a row of `n` pits from
/// `start`). Read over a fixed window of [`MAX_PITS_PER_SIDE`] holes (`start <=
/// MAX_PITS_PER_SIDE`, so the window fits the board); the bits past the row are masked off.
#[inline(always)]
fn row_mask(b: &Board, start: usize, n: usize) -> u32 {
    const _: () = assert!(2 * MAX_PITS_PER_SIDE <= MAX_HOLES && MAX_PITS_PER_SIDE == 16);
    let row: &[u16; MAX_PITS_PER_SIDE] = b[start.min(MAX_PITS_PER_SIDE)..][..MAX_PITS_PER_SIDE]
        .try_into()
        .expect("window of MAX_PITS_PER_SIDE holes");
    nonzero_mask(row) & ((1u32 << n) - 1)
}

/// Bit `i` set when `row[i] != 0`: two vector compares with zero, packed to bytes, and their
/// sign bits (SSE2, which every x86-64 processor has).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn nonzero_mask(row: &[u16; 16]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
        _mm_setzero_si128,
    };
    let p = row.as_ptr() as *const __m128i;
    // SAFETY: `row` is 16 u16 = two 16-byte vectors, read unaligned (`loadu`); SSE2 is part
    // of the x86-64 baseline, so its instructions are always there.
    let empty = unsafe {
        let zero = _mm_setzero_si128();
        let lo = _mm_cmpeq_epi16(_mm_loadu_si128(p), zero);
        let hi = _mm_cmpeq_epi16(_mm_loadu_si128(p.add(1)), zero);
        _mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u32
    };
    !empty & 0xffff
}

/// Bit `i` set when `row[i] != 0` (portable form).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn nonzero_mask(row: &[u16; 16]) -> u32 {
    row.iter()
        .enumerate()
        .fold(0, |m, (i, &x)| m | ((x != 0) as u32) << i)
}

/// The legal moves under the single-lap core ([`SingleLap`]: one direction, no filter): the
/// pits of `mover`'s row holding a seed, in pit order. On rows of up to [`SMALL_ROW`] pits they
/// are one table entry for the row's [`row_mask`], copied whole; on longer rows one move per
/// set bit of the mask (at most `n <= MAX_PITS_PER_SIDE < MAX_MOVES` moves, so the index is
/// masked to the list's power-of-two capacity without ever changing it).
#[inline(always)]
fn legal_single(r: &Rules, b: &Board, mover: usize, dir: Dir, out: &mut MoveList) {
    const _: () = assert!(
        MAX_MOVES.is_power_of_two() && MAX_PITS_PER_SIDE < MAX_MOVES && SMALL_ROW <= MAX_MOVES
    );
    let n = r.pits_per_side();
    let start = mover * n;
    let mut m = row_mask(b, start, n);
    if let Some((moves, len)) = r.small_legal(mover, m) {
        out.moves[..SMALL_ROW].copy_from_slice(moves);
        out.len = *len as usize;
        return;
    }
    let mut len = 0;
    while m != 0 {
        out.moves[len & (MAX_MOVES - 1)] = Move {
            pit: (start as u32 + m.trailing_zeros()) as u8,
            dir,
        };
        len += 1;
        m &= m - 1;
    }
    out.len = len;
}

/// Records laps and captures into a [`Report`], reusing its buffers: the report's laps (and
/// their lists of sown holes) and captures are overwritten in place, so that a report used
/// again and again stops allocating once its buffers are as large as a move needs.
struct Recorder<'a> {
    report: &'a mut Report,
    /// Laps recorded so far (the report's `laps` may hold more, left from an earlier move).
    laps: usize,
}

impl Observer for Recorder<'_> {
    #[inline]
    fn lap(&mut self, from: u8, dir: Dir, lifted: u16) {
        let laps = &mut self.report.laps;
        if let Some(l) = laps.get_mut(self.laps) {
            l.from = from;
            l.dir = dir;
            l.lifted = lifted;
            l.sown.clear();
        } else {
            laps.push(Lap {
                from,
                dir,
                lifted,
                sown: Vec::with_capacity(lifted as usize),
            });
        }
        self.laps += 1;
    }
    #[inline]
    fn sow(&mut self, hole: u8) {
        if let Some(l) = self.report.laps.get_mut(self.laps.wrapping_sub(1)) {
            l.sown.push(hole);
        }
    }
    fn capture(&mut self, hole: u8, seeds: u16) {
        self.report.captures.push((hole, seeds));
    }
}

impl Default for Report {
    /// An empty report (no laps, no captures), to be filled by [`Game::play_into`].
    fn default() -> Report {
        Report {
            player: 0,
            mv: Move {
                pit: 0,
                dir: Dir::Ccw,
            },
            laps: Vec::new(),
            last: 0,
            captures: Vec::new(),
            captured: 0,
            grand_slam: false,
            extra_turn: false,
            passed: Vec::new(),
            ending: None,
            next: None,
        }
    }
}

impl Rules {
    /// Legal moves of `mover` on `b`, sorted by pit then Ccw before Cw.
    ///
    /// A candidate is a pit of the mover's row holding at least `min_seeds`, in each allowed
    /// direction. Feeding (`must_feed`, opponent's pits all empty): keep only moves whose result
    /// (captures included, a forfeited grand-slam capture not made) leaves the opponent a seed.
    /// Grand slam `Illegal`: drop grand slams; `IllegalUnlessOnly`: drop them unless every
    /// remaining move is one. A candidate whose relay sowing never ends stays in the list, so
    /// that playing it reports [`EngineError::NonTerminating`].
    pub(crate) fn legal_into(&self, b: &Board, mover: u8, out: &mut MoveList) {
        out.clear();
        let n = self.pits_per_side();
        let start = mover as usize * n;
        if let Some(s) = self.single_lap() {
            return legal_single(self, b, mover as usize, s.dir, out);
        }
        let count = self.count_core();
        if let Some(c) = count {
            legal_single(self, b, mover as usize, c.dir, out);
        } else {
            let min = self.ruleset().sowing.min_seeds.max(1);
            // Without branches on the seeds: each pit's move is written, and kept (the length
            // grows) only when the pit holds enough. At most 2n <= MAX_MOVES moves, so every
            // write is in range.
            let dirs = self.directions();
            for (i, &seeds) in b[start..start + n].iter().enumerate() {
                let keep = (seeds >= min) as usize;
                for &d in dirs {
                    out.moves[out.len] = Move {
                        pit: (start + i) as u8,
                        dir: d,
                    };
                    out.len += keep;
                }
            }
        }
        if out.is_empty() {
            return;
        }
        let feed = self.feeding_active(b, mover);
        let policy = self.ruleset().grand_slam;
        let gs_filter = matches!(policy, GrandSlam::Illegal | GrandSlam::IllegalUnlessOnly);
        if !feed && !gs_filter {
            return;
        }
        let cands = *out;
        out.clear();
        let mut slams = [false; MAX_MOVES];
        let mut kept = MoveList::new();
        let mut non_slam = 0usize;
        for &mv in cands.as_slice() {
            let mut nb = *b;
            let applied = match count {
                Some(c) => {
                    Ok(self.apply_count(c, &mut nb, mover as usize, mv.pit as usize, &mut Quiet))
                }
                None => self.apply(&mut nb, mover, mv, &mut Quiet),
            };
            match applied {
                Err(Endless) => {
                    kept.push(mv);
                    non_slam += 1;
                }
                Ok(a) => {
                    if feed && self.row_empty(&nb, 1 - mover) {
                        continue;
                    }
                    slams[kept.len] = a.grand_slam;
                    kept.push(mv);
                    if !a.grand_slam {
                        non_slam += 1;
                    }
                }
            }
        }
        let drop_slams = gs_filter && (policy == GrandSlam::Illegal || non_slam > 0);
        for (i, &mv) in kept.as_slice().iter().enumerate() {
            if !(drop_slams && slams[i]) {
                out.push(mv);
            }
        }
    }

    /// Whether the feeding rule restricts `mover` here (must feed, opponent's pits all empty).
    #[inline]
    fn feeding_active(&self, b: &Board, mover: u8) -> bool {
        let n = self.pits_per_side();
        self.ruleset().feeding.must_feed && row_mask(b, (1 - mover as usize) * n, n) == 0
    }

    /// Whether `mover` has at least one legal move (cheap unless a filter applies).
    #[inline]
    pub(crate) fn has_legal(&self, b: &Board, mover: u8) -> bool {
        let n = self.pits_per_side();
        let start = mover as usize * n;
        let min = self.ruleset().sowing.min_seeds.max(1);
        let any = if min == 1 {
            row_mask(b, start, n) != 0
        } else {
            b[start..start + n].iter().any(|&x| x >= min)
        };
        if !any {
            return false;
        }
        if !self.feeding_active(b, mover) && self.ruleset().grand_slam != GrandSlam::Illegal {
            return true;
        }
        let mut l = MoveList::new();
        self.legal_into(b, mover, &mut l);
        !l.is_empty()
    }
}

/// The key of a position for the repetition rule. Packed (boards of at most 16 holes, each
/// holding under 128 seeds): the holes as one byte each and the side to move in the top bit,
/// which is the position itself, so equal keys are equal positions. Otherwise a hash of the
/// holes read four at a time as 64-bit words, mixed with the side to move, which the board
/// kept beside it confirms.
#[inline(always)]
fn position_key(b: &Board, holes: usize, to_move: u8, packed: bool) -> u128 {
    if packed {
        return pack_bytes(b[..16].try_into().expect("16 holes")) | (u128::from(to_move) << 127);
    }
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ to_move as u64;
    let words = if holes <= 16 {
        4
    } else {
        MAX_HOLES.div_ceil(4)
    };
    for c in b.chunks(4).take(words) {
        let mut w = 0u64;
        for (i, &x) in c.iter().enumerate() {
            w |= (x as u64) << (16 * i);
        }
        h = (h ^ w).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 32;
    }
    u128::from(h)
}

/// The 16 holes as one byte each (hole `i` in byte `i`); exact for holes under 256 seeds.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pack_bytes(row: &[u16; 16]) -> u128 {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_packus_epi16, _mm_storeu_si128};
    let p = row.as_ptr() as *const __m128i;
    let mut out = 0u128;
    // SAFETY: `row` is 16 u16 = two 16-byte vectors, read unaligned; `out` is 16 bytes,
    // written unaligned; SSE2 is part of the x86-64 baseline.
    unsafe {
        let v = _mm_packus_epi16(_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)));
        _mm_storeu_si128(&mut out as *mut u128 as *mut __m128i, v);
    }
    out
}

/// The 16 holes as one byte each (portable form).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pack_bytes(row: &[u16; 16]) -> u128 {
    row.iter()
        .enumerate()
        .fold(0, |k, (i, &x)| k | u128::from(x.min(255)) << (8 * i))
}

/// Slots of [`History`]'s first index (room for 8 positions before it is rebuilt larger). Few, since
/// the index is copied with its game: a solver copies a game with a history of one position
/// for every move it tries.
const FIRST_SLOTS: usize = 16;

/// The positions seen since the last capture (repetition rule), by key ([`position_key`]; the
/// boards too when the keys are hashes), with an open-addressed index over the keys, so that
/// a look-up costs the same however long the history (a game without captures can run
/// hundreds of plies), and a clear is a new generation of slots, not a wipe.
#[derive(Debug, Default)]
struct History {
    keys: Vec<u128>,
    /// The boards and sides to move, kept only for hashed keys.
    boards: Vec<(Board, u8)>,
    /// Index slots, a power of two of them (at least twice the history): `(gen << 32) |
    /// (i + 1)` for entry `i`; a slot of another generation is free.
    slots: Vec<u64>,
    /// The generation of the index's live slots; a new one on every clear.
    gen: u32,
}

impl Clone for History {
    fn clone(&self) -> History {
        History {
            keys: self.keys.clone(),
            boards: self.boards.clone(),
            slots: self.slots.clone(),
            gen: self.gen,
        }
    }

    /// The same as `*self = src.clone()`, reusing this history's buffers.
    #[inline]
    fn clone_from(&mut self, src: &History) {
        if src.keys.is_empty()
            && src.boards.is_empty()
            && src.slots.is_empty()
            && self.slots.is_empty()
        {
            // No history and no index on either side (every game under rules without a
            // repetition end): nothing to copy. (The solver copies a game for every move it
            // tries; three empty vector copies were a third of that copy.)
            self.keys.clear();
            self.boards.clear();
            self.gen = src.gen;
            return;
        }
        if let ([k], 2..) = (src.keys.as_slice(), self.slots.len()) {
            // A history of one position (a solver's child is a copy of a game whose history
            // is its position alone): the same set, indexed afresh in this history's own slots
            // under a new generation, where every slot is free, instead of a copy of the
            // other's whole index (at least [`FIRST_SLOTS`] slots). Looked up, the two answer
            // alike: an index is a set of the entries since the last clear, wherever their
            // slots lie.
            let k = *k;
            self.clear();
            self.keys.push(k);
            if let Some(&b) = src.boards.first() {
                self.boards.push(b);
            }
            let mask = self.slots.len() - 1;
            self.slots[slot_of(k, mask)] = (u64::from(self.gen) << 32) | 1;
            return;
        }
        let History {
            keys,
            boards,
            slots,
            gen,
        } = src;
        self.keys.clone_from(keys);
        self.boards.clone_from(boards);
        self.slots.clone_from(slots);
        self.gen = *gen;
    }
}

/// Where a key starts looking in an index of `mask + 1` slots.
#[inline(always)]
fn slot_of(k: u128, mask: usize) -> usize {
    let x = (k as u64 ^ (k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x >> 40) as usize & mask
}

impl History {
    fn clear(&mut self) {
        self.keys.clear();
        self.boards.clear();
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(0);
        }
    }

    /// Whether entry `i` is the position `b` / `next` of key `k`.
    #[inline(always)]
    fn same(&self, i: usize, k: u128, packed: bool, b: &Board, holes: usize, next: u8) -> bool {
        self.keys[i] == k
            && (packed || (self.boards[i].1 == next && self.boards[i].0[..holes] == b[..holes]))
    }

    /// Puts entry `i` (key `k`) in the index, in the first free slot from its start.
    #[inline]
    fn index(&mut self, i: usize, k: u128) {
        let mask = self.slots.len() - 1;
        let mut j = slot_of(k, mask);
        while (self.slots[j] >> 32) as u32 == self.gen && self.slots[j] as u32 != 0 {
            j = (j + 1) & mask;
        }
        self.slots[j] = (u64::from(self.gen) << 32) | (i as u64 + 1);
    }

    /// Rebuilds the index larger: the entries so far, in slots of a new table with room for
    /// twice as many (at first [`FIRST_SLOTS`], then on every doubling of the history).
    #[cold]
    #[inline(never)]
    fn rebuild(&mut self) {
        let len = self.keys.len();
        self.slots = vec![0; (4 * (len + 1)).next_power_of_two().max(FIRST_SLOTS)];
        self.gen = 0;
        for i in 0..len {
            self.index(i, self.keys[i]);
        }
    }

    /// Looks up key `k` (position `b` with `next` to move) in the index: `Ok` if it was seen
    /// since the last clear, else `Err` with the free slot where it would go. The index must
    /// have a free slot (it is at least twice the history).
    #[inline(always)]
    fn probe(&self, k: u128, b: &Board, holes: usize, next: u8, packed: bool) -> Result<(), usize> {
        let mask = self.slots.len() - 1;
        let mut j = slot_of(k, mask);
        loop {
            let slot = self.slots[j];
            if (slot >> 32) as u32 != self.gen || slot as u32 == 0 {
                return Err(j);
            }
            if self.same(slot as u32 as usize - 1, k, packed, b, holes, next) {
                return Ok(());
            }
            j = (j + 1) & mask;
        }
    }

    /// Whether `b` with `next` to move was seen since the last clear (nothing is recorded).
    fn contains(&self, b: &Board, holes: usize, next: u8, packed: bool) -> bool {
        !self.keys.is_empty()
            && self
                .probe(position_key(b, holes, next, packed), b, holes, next, packed)
                .is_ok()
    }

    /// Whether `b` with `next` to move was seen since the last clear; if not, it is recorded.
    /// `packed` must be the same for every call between two clears.
    #[inline(always)]
    fn seen_or_push(&mut self, b: &Board, holes: usize, next: u8, packed: bool) -> bool {
        let k = position_key(b, holes, next, packed);
        let len = self.keys.len();
        if 2 * (len + 1) > self.slots.len() {
            self.rebuild();
        }
        match self.probe(k, b, holes, next, packed) {
            Ok(()) => return true,
            Err(j) => self.slots[j] = (u64::from(self.gen) << 32) | (len as u64 + 1),
        }
        self.keys.push(k);
        if !packed {
            self.boards.push((*b, next));
        }
        false
    }
}

/// A game in progress: the position, the positions seen since the last capture (repetition
/// rule) and, once over, how it ended.
#[derive(Debug)]
pub struct Game<'r> {
    rules: &'r Rules,
    pos: Position,
    board: Board,
    to_move: u8,
    ending: Option<Ending>,
    history: History,
    /// Seeds on the board, stores included (no move changes it).
    total: u32,
    /// Under the count core: the legal moves of the side to move need the filters of
    /// [`Rules::legal_into`] (set by the end checks after every move and at the start).
    count_filter: bool,
    /// The repetition history's keys are the positions themselves (at most 16 holes, under
    /// 128 seeds in all, so every hole fits a byte; see [`position_key`]).
    packed: bool,
    start_passed: Option<u8>,
}

impl Clone for Game<'_> {
    fn clone(&self) -> Self {
        Game {
            rules: self.rules,
            pos: self.pos.clone(),
            board: self.board,
            to_move: self.to_move,
            ending: self.ending.clone(),
            history: self.history.clone(),
            total: self.total,
            count_filter: self.count_filter,
            packed: self.packed,
            start_passed: self.start_passed,
        }
    }

    /// The same as `*self = src.clone()`, reusing this game's buffers (the position's holes and
    /// the repetition history): no allocation once they are large enough, for searches that
    /// copy a game for every move.
    fn clone_from(&mut self, src: &Self) {
        let Game {
            rules,
            pos,
            board,
            to_move,
            ending,
            history,
            total,
            count_filter,
            packed,
            start_passed,
        } = src;
        self.rules = rules;
        let Position {
            holes,
            to_move: pos_to_move,
        } = pos;
        copy_holes(&mut self.pos.holes, holes);
        self.pos.to_move = *pos_to_move;
        self.board = *board;
        self.to_move = *to_move;
        self.ending.clone_from(ending);
        self.history.clone_from(history);
        self.total = *total;
        self.count_filter = *count_filter;
        self.packed = *packed;
        self.start_passed = *start_passed;
    }
}

/// A game's heap buffers (its position's holes and its repetition history) without its rules,
/// so that a search can keep them from one [`Rules`] borrow to the next (the solver's games
/// outlive no solve, their buffers do: [`Game::into_buffers`], [`Game::clone_in`]).
#[derive(Debug, Default)]
pub(crate) struct GameBuffers {
    holes: Vec<u16>,
    history: History,
}

impl<'r> Game<'r> {
    /// Starts a game at `pos` (use [`Rules::initial`] for the rules' start).
    ///
    /// The end checks run at once, as after a move: a position that is already over gives a
    /// game with an [`Ending`] (pits swept), and under the pass rule a side to move without a
    /// legal move passes (see [`Game::start_passed`]).
    ///
    /// # Panics
    /// If `pos` does not fit the board ([`Rules::check_position`]); positions from
    /// [`crate::notation::parse_position`] and [`Rules::initial`] always fit. Use
    /// [`Game::try_new`] for positions built by hand.
    pub fn new(rules: &'r Rules, pos: Position) -> Game<'r> {
        match Game::try_new(rules, pos) {
            Ok(g) => g,
            Err(e) => panic!("{e}"),
        }
    }

    /// This game's buffers, for [`Game::clone_in`] to reuse.
    pub(crate) fn into_buffers(self) -> GameBuffers {
        GameBuffers {
            holes: self.pos.holes,
            history: self.history,
        }
    }

    /// The same as `self.clone()`, made in `bufs` ([`Game::into_buffers`]): no allocation when
    /// they are large enough.
    pub(crate) fn clone_in(&self, bufs: GameBuffers) -> Game<'r> {
        let mut g = Game {
            rules: self.rules,
            pos: Position {
                holes: bufs.holes,
                to_move: self.pos.to_move,
            },
            board: self.board,
            to_move: self.to_move,
            ending: None,
            history: bufs.history,
            total: self.total,
            count_filter: self.count_filter,
            packed: self.packed,
            start_passed: self.start_passed,
        };
        // Every field, the buffers' contents included, is `self`'s after this.
        g.clone_from(self);
        g
    }

    /// As [`Game::new`], or [`EngineError::InvalidPosition`] if `pos` does not fit the board.
    pub fn try_new(rules: &'r Rules, pos: Position) -> Result<Game<'r>, EngineError> {
        let total = rules.checked_total(&pos)?;
        let board = rules.board_of(&pos);
        let to_move = pos.to_move;
        let mut g = Game {
            rules,
            pos,
            board,
            to_move,
            ending: None,
            history: History::default(),
            total,
            packed: false,
            count_filter: false,
            start_passed: None,
        };
        g.packed = rules.holes() <= 16 && g.total < 128;
        g.start_passed = g.settle(None, to_move, false);
        g.sync();
        Ok(g)
    }

    /// Restarts this game at `pos`, reusing its buffers (no allocation once warm): the same as
    /// `*self = Game::try_new(rules, pos.clone())?` for playout loops.
    pub fn reset(&mut self, pos: &Position) -> Result<(), EngineError> {
        let total = self.rules.checked_total(pos)?;
        self.board = self.rules.board_of(pos);
        self.pos.holes.clear();
        self.pos.holes.extend_from_slice(&pos.holes);
        self.restart(pos.to_move, total);
        Ok(())
    }

    /// The rest of [`Game::reset`] and [`Game::reset_to`], once the board and holes are set:
    /// no ending, no history, the start's end checks.
    fn restart(&mut self, to_move: u8, total: u32) {
        self.to_move = to_move;
        self.ending = None;
        self.history.clear();
        self.total = total;
        self.packed = self.rules.holes() <= 16 && self.total < 128;
        self.start_passed = self.settle(None, to_move, false);
        self.sync();
    }

    /// [`Game::reset`] at `other`'s position, without checking the position again: it is a
    /// game's, so it fits the board. For searches that restart a game at every position they
    /// visit. Requires `other` to follow this game's rules (the same [`Rules`]; checked in
    /// debug builds only).
    pub(crate) fn reset_to(&mut self, other: &Game<'r>) {
        debug_assert!(std::ptr::eq(self.rules, other.rules));
        debug_assert_eq!(other.board, self.rules.board_of(&other.pos));
        self.board = other.board;
        // Without a call to copy (the solver resets a game at every node it searches).
        copy_holes(&mut self.pos.holes, &other.pos.holes);
        if other.ending.is_some() {
            return self.restart(other.pos.to_move, other.total);
        }
        // A game going on passed the end checks at this very position, so the start's checks
        // find what they found: no end, and the side to move has a legal move (else it would
        // have passed, or the game ended), so no pass; the count filter as it is there. What
        // is left of them is the history, this position alone. (The checks again were 7 % of
        // the solver's instructions in an Oware kit: the solver resets a game at every node.)
        self.to_move = other.to_move;
        self.pos.to_move = other.to_move;
        self.ending = None;
        self.total = other.total;
        self.packed = other.packed;
        self.count_filter = other.count_filter;
        self.start_passed = None;
        self.history.clear();
        if self.rules.ruleset().end.repetition {
            let holes = self.rules.holes();
            self.history
                .seen_or_push(&self.board, holes, self.to_move, self.packed);
        }
    }

    /// Whether the position of `other` (a game under the same rules, going on), its side to
    /// move included, is in this game's repetition history (the positions since the last
    /// capture; empty without a repetition end). For a caller that plays a move on a copy
    /// made by [`Game::reset_to`] (whose history is this position alone) and must know
    /// whether this game's whole history could have made the move a repetition.
    pub(crate) fn has_seen(&self, other: &Game<'r>) -> bool {
        debug_assert!(std::ptr::eq(self.rules, other.rules));
        self.history
            .contains(&other.board, self.rules.holes(), other.to_move, self.packed)
    }

    /// The seeds on the board, stores included: the same in every position of a game.
    #[inline]
    pub(crate) fn total_seeds(&self) -> u32 {
        self.total
    }

    /// The rules this game follows.
    pub fn rules(&self) -> &'r Rules {
        self.rules
    }

    /// The current position (after the end-of-game sweep once the game is over).
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// How the game ended, or `None` while it goes on.
    #[inline]
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> u8 {
        self.to_move
    }

    /// The side that passed when the game was created (pass rule, no legal move), if any.
    pub fn start_passed(&self) -> Option<u8> {
        self.start_passed
    }

    /// Legal moves, sorted by pit then Ccw before Cw; empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut l = MoveList::new();
        self.legal_moves_into(&mut l);
        l.as_slice().to_vec()
    }

    /// [`Game::legal_moves`] into a fixed-size list, without allocating.
    #[inline]
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        if self.ending.is_some() {
            out.clear();
            return;
        }
        if let Some(s) = self.rules.single_lap() {
            return legal_single(self.rules, &self.board, self.to_move as usize, s.dir, out);
        }
        if let Some(c) = self.rules.count_core() {
            if !self.count_filters(c) {
                return legal_single(self.rules, &self.board, self.to_move as usize, c.dir, out);
            }
        }
        self.rules.legal_into(&self.board, self.to_move, out);
    }

    /// Whether the count core's legal moves need the filters of [`Rules::legal_into`] here:
    /// the grand-slam filter always, the feeding rule when the opponent's row is empty.
    /// Kept in `count_filter` by the end checks, which have both rows' masks at hand.
    #[inline(always)]
    fn count_filters(&self, c: &CountLap) -> bool {
        debug_assert_eq!(self.count_filter, {
            let n = self.rules.pits_per_side();
            c.slam_filter
                || (c.must_feed && row_mask(&self.board, (1 - self.to_move as usize) * n, n) == 0)
        });
        self.count_filter
    }

    /// Plays `mv` and reports everything that happened: laps, captures, grand slam, extra
    /// turn, passes, the end and its sweep.
    ///
    /// Errors: [`EngineError::GameOver`]; [`EngineError::IllegalMove`] saying why (not the
    /// mover's pit, too few seeds, wrong direction, feeding, grand slam), the game unchanged;
    /// [`EngineError::NonTerminating`] for a relay sowing that never ends, the game unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Report, EngineError> {
        let mut report = Report::default();
        self.play_into(mv, &mut report)?;
        Ok(report)
    }

    /// [`Game::play`] into a report the caller keeps: every field of `report` is overwritten
    /// with this move's, reusing its buffers, so that a loop playing many moves into one
    /// report does not allocate once the buffers are large enough (the same report as
    /// [`Game::play`] gives, field for field). Same errors; on an error the game is unchanged
    /// and `report` holds nothing meaningful.
    pub fn play_into(&mut self, mv: Move, report: &mut Report) -> Result<(), EngineError> {
        report.player = self.to_move;
        report.mv = mv;
        report.captures.clear();
        report.passed.clear();
        let mut rec = Recorder { report, laps: 0 };
        let o = self.play_with(mv, &mut rec)?;
        let laps = rec.laps;
        report.laps.truncate(laps);
        report.last = o.last;
        report.captured = o.captured;
        if o.captured == 0 {
            // Pits taken with no seeds in them (a capture count of 0) make no capture list.
            report.captures.clear();
        }
        report.grand_slam = o.grand_slam;
        report.extra_turn = o.extra_turn;
        report.passed.extend(o.passed);
        report.ending.clone_from(&self.ending);
        report.next = o.next;
        Ok(())
    }

    /// [`Game::play`] without the lap and capture details, allocation-free (except the
    /// repetition history's amortised growth). Same rules, same errors.
    #[inline]
    pub fn play_fast(&mut self, mv: Move) -> Result<Outcome, EngineError> {
        self.play_with(mv, &mut Quiet)
    }

    /// [`Game::play_fast`] for a move that [`Game::legal_moves_into`] gave for this very
    /// position: the same result, without the checks that sow other moves. Under feeding or
    /// a grand-slam ban the full check sows every move of the position once more, so a search
    /// that plays each legal move of a position sowed each of them as many times as there are
    /// moves. Kept: none under the single-lap core (its legal moves are every pit of the
    /// mover's row holding seeds, which is all its own checks look at); under the count core,
    /// a pit of the mover's row with seeds in the rules' direction (anything else takes
    /// [`Game::play_fast`]); otherwise the game going on and [`Rules::basic_check`] (row,
    /// seeds, closed pits, least seeds to move, direction).
    ///
    /// Requires a legal move: one that passes those checks but is not legal here (under the
    /// single-lap core any other move; otherwise one that starves the opponent, or takes a
    /// banned grand slam) is played anyway. Debug builds other than the fuzz targets' (whose
    /// speed this is for) check it.
    pub(crate) fn play_legal_fast(&mut self, mv: Move) -> Result<Outcome, EngineError> {
        #[cfg(all(debug_assertions, not(fuzzing)))]
        debug_assert!(self.check_legal(mv).is_ok(), "{mv:?} is not legal here");
        if let Some(s) = self.rules.single_lap() {
            // A legal move: the game goes on, a pit of the mover's row holding seeds, the
            // rules' direction (what [`Game::play_with`] checks before the same call).
            return Ok(self.play_single_lap(s, mv.pit as usize, &mut Quiet));
        }
        if let Some(c) = self.rules.count_core() {
            if self.count_playable(c, mv) {
                return Ok(self.play_count(c, mv.pit as usize, &mut Quiet));
            }
            return self.play_fast(mv);
        }
        self.basic_legal(mv)?;
        self.play_general_unchecked(mv, &mut Quiet)
    }

    /// The checks every move must pass: the game goes on, and [`Rules::basic_check`].
    fn basic_legal(&self, mv: Move) -> Result<(), EngineError> {
        if self.ending.is_some() {
            return Err(EngineError::GameOver);
        }
        self.rules
            .basic_check(&self.board, self.to_move, mv)
            .map_err(EngineError::IllegalMove)
    }

    fn check_legal(&self, mv: Move) -> Result<(), EngineError> {
        self.basic_legal(mv)?;
        let r = self.rules;
        let policy = r.ruleset().grand_slam;
        let feed = r.feeding_active(&self.board, self.to_move);
        if feed || matches!(policy, GrandSlam::Illegal | GrandSlam::IllegalUnlessOnly) {
            let mut l = MoveList::new();
            r.legal_into(&self.board, self.to_move, &mut l);
            if !l.as_slice().contains(&mv) {
                let opp = r.player_name(1 - self.to_move);
                let what = crate::notation::format_move(r, mv);
                return Err(EngineError::IllegalMove(if feed {
                    format!("{what} leaves {opp} without seeds; a move must give {opp} seeds")
                } else {
                    format!("{what} would capture all of {opp}'s seeds (grand slam), which is not allowed here")
                }));
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn play_with<O: Observer>(&mut self, mv: Move, obs: &mut O) -> Result<Outcome, EngineError> {
        if let Some(s) = self.rules.single_lap() {
            let n = self.rules.pits_per_side();
            let start = self.to_move as usize * n;
            let p = mv.pit as usize;
            // Legal here: the game goes on, a pit of the mover's row holding a seed (a closed
            // pit holds none), the rules' direction. Anything else takes the general path,
            // which says why it is illegal.
            if self.ending.is_none()
                && p.wrapping_sub(start) < n
                && self.board[p] > 0
                && mv.dir == s.dir
            {
                return Ok(self.play_single_lap(s, p, obs));
            }
        }
        if let Some(c) = self.rules.count_core() {
            return self.play_count_checked(c, mv, obs);
        }
        self.play_general(mv, obs)
    }

    /// [`Game::play_with`] under the count core: a legal move by [`Game::play_count`], anything
    /// else by the general path, which says why it is illegal. Out of line, so that the
    /// single-lap core's loop keeps its registers.
    #[inline(never)]
    fn play_count_checked<O: Observer>(
        &mut self,
        c: &CountLap,
        mv: Move,
        obs: &mut O,
    ) -> Result<Outcome, EngineError> {
        // As for the single-lap core; where a filter applies, the move must be in the filtered
        // list too.
        if self.count_playable(c, mv)
            && (!self.count_filters(c) || {
                let mut l = MoveList::new();
                self.rules.legal_into(&self.board, self.to_move, &mut l);
                l.as_slice().contains(&mv)
            })
        {
            return Ok(self.play_count(c, mv.pit as usize, obs));
        }
        self.play_general(mv, obs)
    }

    /// Under the count core, whether `mv` passes the quick checks: the game goes on, a pit of
    /// the mover's row holding seeds, the rules' direction (the filters aside).
    #[inline(always)]
    fn count_playable(&self, c: &CountLap, mv: Move) -> bool {
        let n = self.rules.pits_per_side();
        let p = mv.pit as usize;
        self.ending.is_none()
            && p.wrapping_sub(self.to_move as usize * n) < n
            && self.board[p] > 0
            && mv.dir == c.dir
    }

    /// Plays a legal move from pit `from` by the count core ([`Rules::apply_count`]; see
    /// [`CountLap`] for when the rules allow it), then the end checks
    /// ([`Game::settle_count`]): the same result as [`Game::play_general`].
    #[inline(always)]
    fn play_count<O: Observer>(&mut self, c: &CountLap, from: usize, obs: &mut O) -> Outcome {
        let mover = self.to_move;
        let a = self
            .rules
            .apply_count(c, &mut self.board, mover as usize, from, obs);
        let next0 = if a.extra_turn { mover } else { 1 - mover };
        let passed = self.settle_count(c, mover, next0, a.captured > 0);
        self.sync();
        let over = self.ending.is_some();
        Outcome {
            last: a.last,
            captured: a.captured,
            grand_slam: a.grand_slam,
            extra_turn: a.extra_turn && !over,
            passed,
            next: if over { None } else { Some(self.to_move) },
        }
    }

    /// [`Game::play_with`] by the general core: legality with reasons, [`Rules::apply`], then
    /// the end checks ([`Game::settle`]).
    fn play_general<O: Observer>(&mut self, mv: Move, obs: &mut O) -> Result<Outcome, EngineError> {
        self.check_legal(mv)?;
        self.play_general_unchecked(mv, obs)
    }

    /// [`Game::play_general`] after its legality check.
    #[inline(always)]
    fn play_general_unchecked<O: Observer>(
        &mut self,
        mv: Move,
        obs: &mut O,
    ) -> Result<Outcome, EngineError> {
        let r = self.rules;
        let mover = self.to_move;
        // Without relay sowing a move is one lap and cannot fail, so it is played in place;
        // with relay it is played on a copy so that an endless sowing leaves the game intact.
        let applied = if r.ruleset().sowing.relay == crate::ruleset::Relay::None {
            r.apply(&mut self.board, mover, mv, obs)
        } else {
            let mut copy = self.board;
            let a = r.apply(&mut copy, mover, mv, obs);
            if a.is_ok() {
                self.board = copy;
            }
            a
        };
        let a: Applied = match applied {
            Ok(a) => a,
            Err(Endless) => {
                return Err(EngineError::NonTerminating(format!(
                    "{} from {} repeats a state or sows more than the per-turn bound",
                    crate::notation::format_move(r, mv),
                    crate::notation::format_position(r, &self.pos)
                )))
            }
        };
        debug_assert_eq!(
            self.board.iter().map(|&x| x as u32).sum::<u32>(),
            self.pos.holes.iter().map(|&x| x as u32).sum::<u32>(),
            "seeds not conserved"
        );
        let next0 = if a.extra_turn { mover } else { 1 - mover };
        let passed = self.settle(Some(mover), next0, a.captured > 0);
        self.sync();
        let over = self.ending.is_some();
        Ok(Outcome {
            last: a.last,
            captured: a.captured,
            grand_slam: a.grand_slam,
            extra_turn: a.extra_turn && !over,
            passed,
            next: if over { None } else { Some(self.to_move) },
        })
    }

    /// Plays a legal move from pit `from` by the specialised single-lap core (see
    /// [`SingleLap`] for when the rules allow it), with the end checks that can apply: the
    /// same result as [`Rules::apply`] followed by [`Game::settle`].
    ///
    /// Sowing as in [`Rules::apply`]: when nothing is recorded, the whole laps of a handful that
    /// goes round are added at once and the last lap is sown seed by seed. Capture
    /// (`Opposite`): the last seed in a pit of the capturing row, empty before if the rules
    /// say so, takes the opposite pit's seeds (and the capturing seed if the rules say so)
    /// into the mover's store; a capture that takes every seed of the opponent's row is a
    /// grand slam and captures nothing under `NoCapture`. Then the game ends if either row is
    /// empty (the sweep as the rules say); otherwise the mover moves again after the last seed
    /// in the own store, if the rules give the extra turn, else the opponent moves.
    #[inline(always)]
    fn play_single_lap<O: Observer>(&mut self, s: SingleLap, from: usize, obs: &mut O) -> Outcome {
        let r = self.rules;
        let n = r.pits_per_side();
        let mover = self.to_move as usize;
        let b = &mut self.board;
        debug_assert!(
            !r.row_empty(b, 0) && !r.row_empty(b, 1),
            "a row was empty mid-game"
        );
        let k = b[from];
        b[from] = 0;
        obs.lap(from as u8, s.dir, k);
        let mut left = k;
        let (per_lap, sown_by) = r.lap_of(mover);
        if !O::RECORDS && left > per_lap {
            // Every whole lap but the last adds a seed to each hole the mover sows (the origin
            // included) and ends where it started.
            let laps = (left - 1) / per_lap;
            for (h, &x) in b.iter_mut().zip(sown_by) {
                *h += laps * x;
            }
            left -= laps * per_lap;
        }
        let last = match r.small_sow().get(mover, from, left as usize) {
            Some((gain, last)) if !O::RECORDS => {
                add_gain(b, gain);
                last
            }
            _ => {
                let nxt = r.next_table(s.dir, mover);
                let mut pos = from;
                for _ in 0..left {
                    pos = nxt[pos] as usize;
                    b[pos] += 1;
                    obs.sow(pos as u8);
                }
                pos
            }
        };
        let mut captured = 0u16;
        let mut grand_slam = false;
        if (s.capture_pits[mover & 1] >> last) & 1 != 0 && (!s.needs_empty || b[last] == 1) {
            let opp = 2 * n - 1 - last;
            let o = b[opp];
            if o > 0 || !s.opp_must_have {
                let take = s.take_seed as u16;
                // Seeds the capture takes from the opponent's row: the opposite pit's when
                // capturing on the own row, else the capturing seed.
                let from_opp = if s.own_row { o } else { take };
                grand_slam = from_opp > 0 && from_opp as u32 == r.row_sum(b, 1 - mover as u8);
                if !(grand_slam && s.slam_no_capture) {
                    b[opp] -= o;
                    b[last] -= take;
                    b[2 * n + mover] += o + take;
                    captured = o + take;
                    if o > 0 {
                        obs.capture(opp as u8, o);
                    }
                    if take > 0 {
                        obs.capture(last as u8, take);
                    }
                }
            }
        }
        let extra = last == s.extra_hole[mover & 1] as usize;
        let next0 = if extra { mover } else { 1 - mover } as u8;
        // Both rows held seeds before the move (a game goes on only while they do), and the
        // opponent's row only gains seeds unless something was captured: so the mover's row
        // is the only one to look at after a move without a capture.
        let over = row_mask(b, mover * n, n) == 0
            || (captured > 0 && row_mask(b, (1 - mover) * n, n) == 0);
        self.to_move = next0;
        if over {
            self.finish(EndReason::SideEmpty, mover as u8);
        }
        self.sync();
        Outcome {
            last: last as u8,
            captured,
            grand_slam,
            extra_turn: extra && !over,
            passed: None,
            next: if over { None } else { Some(next0) },
        }
    }

    /// [`Game::settle`] after a move by `mover` under the count core, its rules read from
    /// [`CountLap`]'s fields and both rows' masks read once: the same checks in the same order
    /// (threshold, either side empty, no legal move for the next player, repetition).
    #[inline(always)]
    fn settle_count(&mut self, c: &CountLap, mover: u8, next0: u8, captured: bool) -> Option<u8> {
        let r = self.rules;
        let n = r.pits_per_side();
        let b = &self.board;
        let mut reason = None;
        if let Some(t) = c.threshold {
            let s0 = b[2 * n];
            let s1 = b[2 * n + 1];
            if s0 >= t || s1 >= t || (s0 == s1 && 2 * s0 as u32 == self.total) {
                reason = Some(EndReason::Threshold);
            }
        }
        let masks = [row_mask(b, 0, n), row_mask(b, n, n)];
        if c.side_empty && (masks[0] == 0 || masks[1] == 0) {
            reason = reason.or(Some(EndReason::SideEmpty));
        }
        let mut next = next0;
        let mut passed = None;
        if reason.is_none() {
            // [`Rules::has_legal`] from the masks (one seed is enough to move).
            let has_legal = |side: u8| -> bool {
                if masks[side as usize & 1] == 0 {
                    return false;
                }
                if !(c.slam_illegal || (c.must_feed && masks[(1 - side as usize) & 1] == 0)) {
                    return true;
                }
                let mut l = MoveList::new();
                r.legal_into(b, side, &mut l);
                !l.is_empty()
            };
            let mut stuck = None;
            if !has_legal(next) {
                if !c.pass {
                    stuck = Some(EndReason::NoLegalMove);
                } else if has_legal(1 - next) {
                    passed = Some(next);
                    next = 1 - next;
                } else {
                    stuck = Some(EndReason::NoMovesForBoth);
                }
            }
            if c.repetition {
                if captured {
                    self.history.clear();
                }
                if self.history.seen_or_push(b, r.holes(), next, self.packed) {
                    reason = Some(EndReason::Repetition);
                }
            }
            if reason.is_none() {
                reason = stuck;
            }
        }
        self.to_move = next;
        self.count_filter = c.slam_filter || (c.must_feed && masks[(1 - next as usize) & 1] == 0);
        if let Some(reason) = reason {
            self.finish(reason, mover);
            return None;
        }
        passed
    }

    /// Copies the board into the public position.
    #[inline]
    ///
    /// Boards of 8 to 16 holes (3 to 7 pits a side, Kalah's and Oware's among them) are copied
    /// as two overlapping fixed runs of 8 holes, which compile to a few moves where a copy of
    /// a length known only at run time is a call to `memcpy` (kept out of line, so that the
    /// compiler does not merge the short copies into it).
    fn sync(&mut self) {
        let k = self.pos.holes.len();
        if (8..=16).contains(&k) {
            let lo: [u16; 8] = self.board[..8].try_into().expect("8 holes");
            let hi: [u16; 8] = self.board[k - 8..k].try_into().expect("8 holes");
            let dst = &mut self.pos.holes[..];
            dst[..8].copy_from_slice(&lo);
            dst[k - 8..].copy_from_slice(&hi);
        } else {
            sync_any(&mut self.pos.holes, &self.board);
        }
        self.pos.to_move = self.to_move;
    }

    /// The end checks after a move by `last_mover` (None at the start); `next0` would move
    /// next. Sets `to_move` and, if the game ends, the ending and the sweep. Returns the
    /// player who passed, if any.
    #[inline]
    fn settle(&mut self, last_mover: Option<u8>, next0: u8, captured: bool) -> Option<u8> {
        let r = self.rules;
        let end = &r.ruleset().end;
        let n = r.pits_per_side();
        let holes = r.holes();
        let b = &self.board;
        let mut reason = None;
        if let Some(t) = end.threshold {
            let s0 = b[2 * n];
            let s1 = b[2 * n + 1];
            let total = self.total;
            if s0 >= t || s1 >= t || (2 * s0 as u32 == total && 2 * s1 as u32 == total) {
                reason = Some(EndReason::Threshold);
            }
        }
        // Each row's pits holding seeds (bit i for the row's pit i).
        let masks = [row_mask(b, 0, n), row_mask(b, n, n)];
        if reason.is_none() && end.either_side_empty && (masks[0] == 0 || masks[1] == 0) {
            reason = Some(EndReason::SideEmpty);
        }
        // [`Rules::has_legal`], read from the masks when one seed is enough to move.
        let min1 = r.ruleset().sowing.min_seeds <= 1;
        let policy = r.ruleset().grand_slam;
        let must_feed = r.ruleset().feeding.must_feed;
        let has_legal = |side: u8| -> bool {
            if !min1 {
                return r.has_legal(b, side);
            }
            if masks[side as usize & 1] == 0 {
                return false;
            }
            if !(must_feed && masks[(1 - side as usize) & 1] == 0) && policy != GrandSlam::Illegal {
                return true;
            }
            let mut l = MoveList::new();
            r.legal_into(b, side, &mut l);
            !l.is_empty()
        };
        let mut next = next0;
        let mut passed = None;
        if reason.is_none() {
            let mut stuck = None;
            if !has_legal(next) {
                match end.no_legal_move {
                    NoLegalMove::End => stuck = Some(EndReason::NoLegalMove),
                    NoLegalMove::Pass => {
                        if has_legal(1 - next) {
                            passed = Some(next);
                            next = 1 - next;
                        } else {
                            stuck = Some(EndReason::NoMovesForBoth);
                        }
                    }
                }
            }
            if end.repetition {
                if captured {
                    self.history.clear();
                }
                if self.history.seen_or_push(b, holes, next, self.packed) {
                    reason = Some(EndReason::Repetition);
                }
            }
            if reason.is_none() {
                reason = stuck;
            }
        }
        self.to_move = next;
        if let Some(c) = r.count_core() {
            self.count_filter =
                c.slam_filter || (c.must_feed && masks[(1 - next as usize) & 1] == 0);
        }
        if let Some(reason) = reason {
            let last = last_mover.unwrap_or(1 - next0);
            self.finish(reason, last);
            return None;
        }
        passed
    }

    /// Ends the game: the remaining seeds go to their owners, the last mover or the other.
    fn finish(&mut self, reason: EndReason, last_mover: u8) {
        let r = self.rules;
        let n = r.pits_per_side();
        let mut swept = [0u16; 2];
        for side in 0..2u8 {
            let to = match r.ruleset().end.remaining_seeds {
                Remaining::Owner => side,
                Remaining::Mover => last_mover,
                Remaining::Opponent => 1 - last_mover,
            };
            let start = side as usize * n;
            let mut s: u16 = 0;
            for h in &mut self.board[start..start + n] {
                s += *h;
                *h = 0;
            }
            swept[to as usize] += s;
            self.board[2 * n + to as usize] += s;
        }
        self.ending = Some(Ending {
            reason,
            swept,
            scores: [self.board[2 * n], self.board[2 * n + 1]],
        });
    }
}

/// `dst.clone_from(src)` for a position's holes: the same length of 8 to 16 holes (3 to 7
/// pits a side) is copied as two overlapping fixed runs of 8, as [`Game::sync`] does, not by
/// a call to `memcpy`.
#[inline(always)]
fn copy_holes(dst: &mut Vec<u16>, src: &[u16]) {
    let k = src.len();
    if dst.len() == k && (8..=16).contains(&k) {
        let lo: [u16; 8] = src[..8].try_into().expect("8 holes");
        let hi: [u16; 8] = src[k - 8..].try_into().expect("8 holes");
        dst[..8].copy_from_slice(&lo);
        dst[k - 8..].copy_from_slice(&hi);
    } else {
        dst.clear();
        dst.extend_from_slice(src);
    }
}

/// [`Game::sync`]'s copy for boards of any size.
#[cold]
#[inline(never)]
fn sync_any(holes: &mut [u16], board: &Board) {
    holes.copy_from_slice(&board[..holes.len()]);
}

/// Counts the positions reached after exactly `depth` plies from `game` (perft): an extra turn
/// counts as a ply, a game over before `depth` counts 0, `depth` 0 counts 1. A move whose
/// relay sowing never ends counts 0 (relay rulesets only). Used as a correctness check against OpenSpiel's counts.
pub fn perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    game.legal_moves_into(&mut moves);
    if depth == 1 && game.rules().ruleset().sowing.relay == crate::ruleset::Relay::None {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.as_slice() {
        let mut g = game.clone();
        if g.play_fast(mv).is_ok() {
            total += perft(&g, depth - 1);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A board whose first holes spell `v` (the rest empty).
    fn board(v: u32) -> Board {
        let mut b = [0u16; MAX_HOLES];
        b[0] = (v % 7) as u16;
        b[1] = (v / 7 % 7) as u16;
        b[2] = (v / 49) as u16;
        b[3] = (v % 3) as u16;
        b
    }

    /// [`Game::reset_to`] leaves a game as [`Game::reset`] at the other game's position does
    /// (position, board, side to move, ending and sweep, history, pass at the start, count
    /// filter), on positions from random games of every bundled ruleset (Oware's feeding and
    /// grand slam, Giuthi's relay sowing and passes, Kalah's stores).
    #[test]
    fn reset_to_is_reset_at_the_other_games_position() {
        let mut rng = crate::rng::XorShift::new(77);
        // Positions where the start's end checks do something (the game over there, or a
        // pass), and positions with a game going on.
        let (mut settled, mut going) = (0, 0);
        for b in crate::bundled::ALL {
            let id = b.id;
            let rs = crate::ruleset::load::load_str(b.file, b.source).expect("loads");
            let rules = Rules::new(&rs);
            let mut a = Game::new(&rules, rules.initial());
            let mut c = a.clone();
            for _ in 0..40 {
                let mut g = Game::new(&rules, rules.initial());
                for _ in 0..rng.below(120) {
                    let moves = g.legal_moves();
                    if moves.is_empty() || g.play(moves[rng.below(moves.len())]).is_err() {
                        break;
                    }
                }
                a.reset_to(&g);
                c.reset(g.position()).expect("a game's position");
                assert_eq!(a.pos, c.pos, "{id}");
                assert_eq!(a.board, c.board);
                assert_eq!(a.to_move, c.to_move);
                assert_eq!(a.ending, c.ending);
                assert_eq!(a.history.keys, c.history.keys);
                assert_eq!(a.history.boards, c.history.boards);
                assert_eq!(a.total, c.total);
                assert_eq!((a.packed, a.count_filter), (c.packed, c.count_filter));
                assert_eq!(a.start_passed, c.start_passed);
                if a.ending.is_some() || a.start_passed.is_some() {
                    settled += 1;
                } else {
                    going += 1;
                }
            }
        }
        assert!(settled >= 10 && going >= 50, "{settled} {going}");
    }

    /// [`Game::play_legal_fast`] plays every legal move as [`Game::play_fast`] does (outcome,
    /// position, ending, history, or the same error for a relay sowing that never ends), at
    /// positions of random games under the five bundled rulesets and 400 rulesets made by the
    /// fuzz generator (feeding, grand-slam bans, relay sowing, passes: each core and filter).
    #[test]
    fn play_legal_fast_is_play_fast_for_legal_moves() {
        let mut rng = crate::rng::XorShift::new(5);
        let mut sources: Vec<String> = crate::bundled::ALL
            .iter()
            .map(|b| b.source.to_string())
            .collect();
        for k in 0..400u32 {
            let data: Vec<u8> = (0..96u32)
                .map(|i| (k.wrapping_mul(2_654_435_761).wrapping_add(i * 40_503) >> 11) as u8)
                .collect();
            sources.push(crate::fuzzing::ruleset_toml(
                &mut crate::fuzzing::Bytes::new(&data),
            ));
        }
        // Positions where the full check sows other moves: under the count core, and under
        // the general core (the check play_legal_fast leaves out there).
        let (mut rulesets, mut moves, mut filtered, mut general) = (0, 0, 0, 0);
        for src in &sources {
            let Ok(rs) = crate::ruleset::load::load_str("r.toml", src) else {
                continue;
            };
            let Ok(rules) = Rules::try_new(&rs) else {
                continue;
            };
            rulesets += 1;
            let mut g = Game::new(&rules, rules.initial());
            let mut list = MoveList::new();
            for _ in 0..60 {
                g.legal_moves_into(&mut list);
                if list.is_empty() {
                    break;
                }
                let r = g.rules;
                let feed = r.feeding_active(&g.board, g.to_move);
                let ban = matches!(
                    r.ruleset().grand_slam,
                    GrandSlam::Illegal | GrandSlam::IllegalUnlessOnly
                );
                filtered += usize::from(feed || ban);
                general += usize::from(
                    (feed || ban) && r.single_lap().is_none() && r.count_core().is_none(),
                );
                for &mv in list.as_slice() {
                    let (mut a, mut b) = (g.clone(), g.clone());
                    let (x, y) = (a.play_fast(mv), b.play_legal_fast(mv));
                    assert_eq!(x, y, "{src}");
                    assert_eq!(a.pos, b.pos);
                    assert_eq!(a.ending, b.ending);
                    assert_eq!(a.history.keys, b.history.keys);
                    moves += 1;
                }
                let mv = list.as_slice()[rng.below(list.len())];
                if g.play_fast(mv).is_err() {
                    break;
                }
            }
        }
        assert!(rulesets >= 300, "{rulesets}");
        assert!(
            moves >= 20_000 && filtered >= 1_000 && general >= 500,
            "{moves} {filtered} {general}"
        );
    }

    /// The index's live slots are exactly one for each entry.
    fn check_index(h: &History) {
        let len = h.keys.len();
        let mut live: Vec<usize> = h
            .slots
            .iter()
            .filter(|&&x| (x >> 32) as u32 == h.gen && x as u32 != 0)
            .map(|&x| x as u32 as usize - 1)
            .collect();
        live.sort_unstable();
        assert_eq!(live, (0..len).collect::<Vec<_>>(), "live slots");
    }

    /// [`History::seen_or_push`] answers as a set of the positions pushed since the last clear
    /// does, and its index has one live slot per entry, with histories of a few positions to a
    /// few hundred (the index rebuilt larger as they grow), cleared (a new generation of
    /// slots over the stale ones), and copied into one another with `clone_from` (a copy into
    /// a larger or smaller index), packed keys and hashed ones alike.
    #[test]
    fn history_answers_as_a_set_of_the_positions_since_the_last_clear() {
        for packed in [true, false] {
            let mut rng = crate::rng::XorShift::new(0x5eed + packed as u64);
            let mut hs: Vec<(History, HashSet<(u32, u8)>)> = (0..3)
                .map(|_| (History::default(), HashSet::new()))
                .collect();
            let mut pushes_long = 0;
            for _ in 0..30_000 {
                let i = rng.below(3);
                match rng.below(300) {
                    0 => {
                        hs[i].0.clear();
                        hs[i].1.clear();
                    }
                    1..=4 => {
                        let j = rng.below(3);
                        if i != j {
                            let (src, set) = (hs[j].0.clone(), hs[j].1.clone());
                            hs[i].0.clone_from(&src);
                            hs[i].1 = set;
                        }
                    }
                    _ => {
                        // Histories of a few hundred positions (whose stale slots a short
                        // one's new index must not read), some recurring.
                        let v = rng.below(600) as u32;
                        let next = rng.below(2) as u8;
                        let (h, set) = &mut hs[i];
                        if h.keys.len() >= 2 * FIRST_SLOTS {
                            pushes_long += 1;
                        }
                        let seen = h.seen_or_push(&board(v), 16, next, packed);
                        assert_eq!(seen, !set.insert((v, next)), "packed {packed}");
                        assert_eq!(h.keys.len(), set.len());
                        check_index(h);
                    }
                }
            }
            assert!(pushes_long > 5_000, "{pushes_long}");
        }
    }
}
