//! Exact game values under perfect play, every best move, and a balance report.
//!
//! The solver reads nothing but the engine's public API ([`Game::legal_moves_into`],
//! [`Game::play_fast`], [`Game::ending`]), so every rule the engine plays (capture kinds, relay
//! sowing, grand-slam policies, feeding, passes, thresholds, repetition ends, sweeps) is solved
//! as played, never by game name.
//!
//! **Value.** The value of a position is side 0's final total minus side 1's (stores after the
//! end-of-game sweep) when both play perfectly, side 0 maximising it. Internally the search
//! works on the *future gain* of the side to move (its final margin minus its margin now), which
//! lies in `[-R, R]` for `R` the seeds still in the pits (stores only ever grow): that bound
//! cuts the search as soon as the window is out of reach ("seeds remaining" trick).
//!
//! **Technique** (measured, see `benches/solve.rs` and README "Solving"): MTD(f) — a sequence of
//! null-window fail-soft alpha-beta searches — over a transposition table of proven `[lo, hi]`
//! bounds on the future gain (no depth: every stored bound is a bound on the true value), with
//! move ordering "table move, extra-turn moves, then largest immediate gain". The table is keyed
//! by a lossless compact key (each pit in unary, the side to move, the stores only when a
//! threshold rule makes them matter), grows by doubling up to the memory cap, and replaces the
//! entry with the smallest searched subtree.
//!
//! **History.** A position's value may depend on how it was reached:
//! * Rulesets with a repetition end (`end.repetition`): the engine ends the game when a position
//!   recurs since the last capture, so a position's value may depend on the positions seen
//!   before it. The solver keeps the **segment**: the positions of the current line since the
//!   last capture or the last seed put into a store (stores only grow, so no position from
//!   before such a move can recur), and ends the game itself when a move leads back into it
//!   (with the engine's sweep: the remaining seeds go as `end.remaining_seeds` says, the mover
//!   being the last mover). Children are played from a copy of the position with no history,
//!   so no position carries the whole line.
//!
//!   *What a result depends on.* Every search result comes with the smallest segment index a
//!   repetition in its subtree went back to (`low`), and the set `seen` of positions whose
//!   presence in the history it consulted (every child in the same segment that it examined,
//!   its own position, and the `seen` of every stored result it used). Take a search of `P`
//!   at segment index `d` with earlier positions `H`, that found no repetition going back
//!   before `d` (`low >= d`). Under another history `H'` with `H'` ∩ `seen` = ∅, every
//!   repetition check of that search (a child `Q` in `seen`: is `Q` in `H'` or on the path
//!   from `P`?) has the same answer (it was "not in `H`", and is "not in `H'`"; the path part
//!   is the same), the moves are the same, so the same proof tree proves the same bound:
//!   the result holds for `(P, H')`. Two uses follow:
//!   1. `H'` = ∅, i.e. `P` starts a segment (the root, or right after a capture or a store
//!      change): the result goes into the main table, keyed by the position alone, probed
//!      only where a segment starts.
//!   2. Mid-segment, if `seen` has at most 256 positions: the result goes into a side table
//!      with its `seen`; it is used at `P` only when no earlier position of the current
//!      segment is in `seen` (checked on every probe).
//!
//!   A result with `low < d` (a repetition reached a position above `P`) is not stored. The
//!   root is taken as having no earlier history, as [`Game::new`] does. `tests/solve.rs`
//!   (`repetition_table_agrees_with_exact_history_search_on_small_boards`) compares the
//!   solver with a plain minimax memoised on the position and its reachable history, on
//!   Oware-like and Giuthi-like boards where the history decides some values.
//! * Rulesets without a repetition end in which play can return to an earlier position (e.g. no
//!   store is sown and nothing is captured): such a game need not end and has no value under
//!   perfect play as defined here. The solver keeps the line of play since the last change of the
//!   stores; when a position recurs on it, it stops with [`SolveError::EndlessPlay`] naming the
//!   position, rather than invent an outcome. (Kalah-like rules cannot recur: every seed moves
//!   towards its owner's store, and crossing to the other row passes the mover's store.)
//! * A move whose relay sowing never ends ([`crate::engine::EngineError::NonTerminating`]) cannot
//!   be completed, so the solver does not count it as a move (as [`crate::engine::perft`] does).
//!
//! **Budgets.** A node budget (deterministic) and a time budget; when either runs out the solver
//! says so and returns the bounds proven so far. Memory: the main table is capped by
//! [`Limits::memory_mb`]; the side table (repetition rules) by about another half of it, and it
//! is emptied when full.

pub mod balance;
pub mod report;
mod table;

use crate::engine::{EngineError, Game, GameBuffers, Move, MoveList, Position, Rules, MAX_MOVES};
use std::time::Instant;
use table::{Key, Table};

/// Limits of one solve.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop after visiting this many positions (deterministic); `None` for no limit.
    pub nodes: Option<u64>,
    /// Stop after this many seconds of wall time (not deterministic); `None` for no limit.
    pub seconds: Option<f64>,
    /// Largest transposition table, in mebibytes (the table starts small and doubles up to
    /// this). 0 disables the table.
    pub memory_mb: usize,
}

impl Default for Limits {
    /// No node or time limit, a 4096 MiB table cap (a sixth of a 24 GB machine).
    fn default() -> Limits {
        Limits {
            nodes: None,
            seconds: None,
            memory_mb: 4096,
        }
    }
}

/// Why a solve stopped before proving the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node budget ran out.
    Nodes,
    /// The time budget ran out.
    Time,
    /// A line of play grew longer than [`MAX_DEPTH`] moves (each position on it carries the
    /// game's history, so memory grows with the square of the depth).
    Depth,
}

/// Longest line of play the solver follows, in moves. A deeper line stops the solve like a
/// budget (the proven bounds are reported), so memory stays bounded on any ruleset, e.g. one
/// with a repetition end and no captures, where lines run for thousands of moves.
pub const MAX_DEPTH: usize = 400;

/// What a solve proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Proven bounds `[lo, hi]` on the value (side 0's final total minus side 1's); equal when
    /// the value is proven.
    pub bounds: (i32, i32),
    /// Every move of the side to move that reaches the value, in legal-move order; filled only
    /// when the value and all best moves are proven (empty when the game is over).
    pub best_moves: Vec<Move>,
    /// Whether the value and the best-move list are proven.
    pub proven: bool,
    /// Why the solve stopped early, if it did.
    pub stopped: Option<Stop>,
    /// Positions visited.
    pub nodes: u64,
    /// Transposition-table entries in use at the end, and its size in bytes.
    pub table_entries: usize,
    /// Bytes allocated for the transposition table at the end.
    pub table_bytes: usize,
}

impl Solution {
    /// The value if proven.
    pub fn value(&self) -> Option<i32> {
        (self.bounds.0 == self.bounds.1).then_some(self.bounds.0)
    }
}

/// Errors: the position does not fit the rules, or the game has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The position is not valid for these rules.
    Engine(EngineError),
    /// Play can return to an earlier position and the rules have no repetition end, so the game
    /// need not end; the string names the position (notation form).
    EndlessPlay(String),
    /// Every legal move of the side to move has a relay sowing that never ends; the string
    /// names the position.
    NoPlayableMove(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Engine(e) => write!(f, "{e}"),
            SolveError::EndlessPlay(p) => write!(
                f,
                "play can come back to {p} and these rules have no repetition end \
                 (end.when has no \"repetition\"), so the game need not end and has no value; \
                 add the repetition end to solve it"
            ),
            SolveError::NoPlayableMove(p) => write!(
                f,
                "at {p} every legal move's relay sowing never ends, so the game cannot go on"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Aborts a search: budget gone, or an error.
enum Abort {
    Budget(Stop),
    Error(SolveError),
}

/// Stack left, in bytes, below which the search moves to a new stack segment: far more than
/// one move's frames (a few KiB in a debug build).
const STACK_RED_ZONE: usize = 256 << 10;
/// The stack left is checked at every this many plies of a line (the check, on every node,
/// was 5 % of the solver's time, perf): the red zone holds far more than this many moves'
/// frames.
const STACK_CHECK_PLIES: usize = 8;
/// Size of each new stack segment, in bytes (mapped, touched only as deep as the line goes).
const STACK_SEGMENT: usize = 16 << 20;

/// Positions a stored result may list as consulted, at most (module doc, "History"); a
/// subtree that consulted more is reused only where its position starts a segment.
const SEEN_CAP: usize = 256;

/// A position on a line of play, for repetition checks: its compact key without the stores
/// (the stores are constant within a segment), or its pits and side to move when the key does
/// not fit 128 bits.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum PathKey {
    Compact(Key),
    Full(Vec<u16>, u8),
}

/// What a result depends on besides its position (repetition rules): module doc, "History".
struct Dep {
    /// Smallest segment index a repetition in the subtree went back to (`usize::MAX`: none).
    low: usize,
    /// Positions whose presence in the history the subtree consulted (unsorted, may repeat),
    /// or `None` once more than [`SEEN_CAP`].
    seen: Option<Vec<PathKey>>,
}

impl Dep {
    fn none() -> Dep {
        Dep {
            low: usize::MAX,
            seen: Some(Vec::new()),
        }
    }

    /// [`Dep::none`] with a list buffer from `pool` (one a [`Dep::merge`] gave back), so a
    /// node that adds to its list does not allocate one.
    fn pooled(pool: &mut ListPool) -> Dep {
        Dep {
            low: usize::MAX,
            seen: Some(pool.take()),
        }
    }

    fn add(&mut self, k: &PathKey, pool: &mut ListPool) {
        if let Some(s) = &mut self.seen {
            s.push(k.clone());
            if s.len() > 2 * SEEN_CAP {
                self.normalize(pool);
            }
        }
    }

    fn add_all(&mut self, ks: &[PathKey], pool: &mut ListPool) {
        if let Some(s) = &mut self.seen {
            s.extend_from_slice(ks);
            if s.len() > 2 * SEEN_CAP {
                self.normalize(pool);
            }
        }
    }

    /// Adds what `o` depends on; the list buffer left over goes to `pool` ([`Dep::pooled`]).
    fn merge(&mut self, o: Dep, pool: &mut ListPool) {
        self.low = self.low.min(o.low);
        match (&mut self.seen, o.seen) {
            (Some(s), Some(mut t)) => {
                // Only the positions count, not their order: the shorter list goes into the
                // longer one's buffer (a subtree's list is often long, its parent's short).
                if t.len() > s.len() {
                    std::mem::swap(s, &mut t);
                }
                s.append(&mut t);
                pool.recycle(t);
                if s.len() > 2 * SEEN_CAP {
                    self.normalize(pool);
                }
            }
            (Some(_), None) => {
                if let Some(s) = self.seen.take() {
                    pool.recycle(s);
                }
            }
            (None, Some(t)) => pool.recycle(t),
            (None, None) => {}
        }
    }

    /// Gives this result's list buffer to `pool` ([`Dep::pooled`]): the result is not used.
    fn recycle(self, pool: &mut ListPool) {
        if let Some(s) = self.seen {
            pool.recycle(s);
        }
    }

    /// Sorts and dedups `seen`; drops it when over [`SEEN_CAP`].
    fn normalize(&mut self, pool: &mut ListPool) {
        if let Some(s) = &mut self.seen {
            sort_dedup(s, &mut pool.sort);
            if s.len() > SEEN_CAP {
                // Its buffer goes on to another node (each one lost was a list grown again
                // from nothing later).
                if let Some(s) = self.seen.take() {
                    pool.recycle(s);
                }
            }
        }
    }
}

/// Sorts `s` and drops repeats. When every key is compact (the usual case) they are sorted
/// as plain numbers in `buf`, in the same order: sorting the keys themselves (32 bytes, an
/// enum to compare) was 4 % of `build rulesets`' instructions (callgrind).
fn sort_dedup(s: &mut Vec<PathKey>, buf: &mut Vec<u128>) {
    buf.clear();
    for k in s.iter() {
        match k {
            PathKey::Compact(x) => buf.push(*x),
            PathKey::Full(..) => {
                s.sort_unstable();
                s.dedup();
                return;
            }
        }
    }
    // A stable sort finds the runs already sorted (a list is mostly children's lists one
    // after another, each sorted when its result was stored) and merges them.
    buf.sort();
    buf.dedup();
    s.clear();
    s.extend(buf.iter().map(|&x| PathKey::Compact(x)));
}

/// Segments kept for [`Segment::restart`], at most; a kept segment holds at most
/// [`MAX_DEPTH`] positions.
const DEP_POOL: usize = 64;

/// List buffers kept for [`Dep::pooled`], at most, and the room they may hold in all, in
/// keys (512 KiB). Each node on the current line holds one list, so a line holding more than
/// the pool allocates again past it (speed only): 64 lists (the limit before) were often
/// too few (34 k lists grown from nothing in `build rulesets`, dhat), most of them are
/// small. The pool outlives its solver ([`Warm`]), so its room is memory each thread keeps:
/// 2 MiB (64 lists of the largest size) added 2 MB to the peak of a 10-ruleset build for
/// no fewer instructions.
const LIST_POOL: usize = 1024;
const LIST_ROOM: usize = 16 * 4 * SEEN_CAP;

/// List buffers of finished results ([`Dep::pooled`]), the keys of room they hold, and a
/// buffer to sort keys in ([`sort_dedup`]).
#[derive(Default)]
struct ListPool {
    lists: Vec<Vec<PathKey>>,
    room: usize,
    sort: Vec<u128>,
}

impl ListPool {
    /// A kept buffer (empty), or a new one.
    fn take(&mut self) -> Vec<PathKey> {
        let v = self.lists.pop().unwrap_or_default();
        self.room -= v.capacity();
        v
    }

    /// Keeps `v`'s buffer (emptied) when it has one, not over 4 × [`SEEN_CAP`] keys, and the
    /// pool has room ([`LIST_POOL`], [`LIST_ROOM`]).
    fn recycle(&mut self, mut v: Vec<PathKey>) {
        let cap = v.capacity();
        if cap > 0
            && cap <= 4 * SEEN_CAP
            && self.lists.len() < LIST_POOL
            && self.room + cap <= LIST_ROOM
        {
            v.clear();
            self.room += cap;
            self.lists.push(v);
        }
    }
}

/// The current segment of the line of play (repetition rules): the positions since the last
/// capture or change of the stores, in order, and each one's index.
#[derive(Default)]
struct Segment {
    keys: Vec<PathKey>,
    index: rustc_hash::FxHashMap<PathKey, usize>,
}

impl Segment {
    fn push(&mut self, k: PathKey) -> usize {
        let i = self.keys.len();
        self.index.insert(k.clone(), i);
        self.keys.push(k);
        i
    }

    /// [`Segment::push`] unless the segment holds `k` already: its index then, as `Err`
    /// (one look-up of the index where a look-up and an insertion were two).
    fn push_new(&mut self, k: PathKey) -> Result<usize, usize> {
        let i = self.keys.len();
        match self.index.entry(k) {
            std::collections::hash_map::Entry::Occupied(e) => Err(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                self.keys.push(e.key().clone());
                e.insert(i);
                Ok(i)
            }
        }
    }

    fn pop(&mut self) {
        if let Some(k) = self.keys.pop() {
            self.index.remove(&k);
        }
    }

    /// Starts this segment afresh at `k`, its buffers kept.
    fn restart(&mut self, k: PathKey) {
        self.keys.clear();
        self.index.clear();
        self.push(k);
    }
}

/// A mid-segment result: bounds on the future gain, valid at the position whatever the
/// history, as long as no earlier position of the segment is in `seen` (sorted): the
/// `len` keys from `start` of [`Solver::side_seen`] (one buffer for all entries: a box for
/// each entry's list was 29 k of the 482 k allocations of `build rulesets`, dhat).
struct SideEntry {
    lo: i16,
    hi: i16,
    mv: Option<u8>,
    start: usize,
    len: usize,
}

impl SideEntry {
    /// Where this entry's `seen` lies in [`Solver::side_seen`].
    fn seen(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len
    }
}

/// Approximate bytes of one [`PathKey`] held in the side table (for its memory cap).
const SIDE_KEY_BYTES: usize = 48;

/// The solver: rules, limits, table and counters. Reuse one for several positions of the same
/// rules to share the table.
pub struct Solver<'r> {
    rules: &'r Rules,
    limits: Limits,
    table: Table,
    /// Entries the table may hold at most, besides [`Limits::memory_mb`] ([`within`]).
    table_slots: usize,
    nodes: u64,
    start: Instant,
    repetition: bool,
    stores_in_key: bool,
    /// Line of play from the root (rules without a repetition end); the part from
    /// `path_start` on is the line since the stores last changed.
    path: Vec<PathKey>,
    path_start: usize,
    /// Moves on the current line from the root.
    depth: usize,
    /// Longest line followed ([`MAX_DEPTH`] unless set lower).
    max_depth: usize,
    /// The current segment (rules with a repetition end).
    segment: Segment,
    /// Mid-segment results with the history they consulted (rules with a repetition end).
    side: rustc_hash::FxHashMap<(PathKey, u32), SideEntry>,
    /// The `seen` lists of `side`'s entries, each a range ([`SideEntry`]), with the lists of
    /// entries replaced since the last clear or compaction ([`Solver::side_store`]).
    side_seen: Vec<PathKey>,
    /// Keys held by `side` (entries plus their `seen` lists), and the most allowed.
    side_keys: usize,
    side_cap: usize,
    /// Child lists not in use, taken by a node and given back when it is done, so that once
    /// warm a node allocates nothing for its children (their games are copied into the games
    /// already there).
    kid_pool: Vec<Kids<'r>>,
    /// The copy with no history that children are played from (repetition rules), reused.
    base: Option<Game<'r>>,
    /// List buffers of finished results ([`Dep::pooled`]; repetition rules).
    dep_pool: ListPool,
    /// Segments of finished lines, for the next capture or store change to start one in
    /// (repetition rules; at most [`DEP_POOL`]).
    seg_pool: Vec<Segment>,
    /// Buffers of games a solver before this one on the thread left ([`Warm`]), for this one's
    /// first child lists and base game.
    spare_games: Vec<GameBuffers>,
    /// Table size (bytes) above which children's table buckets are fetched ahead
    /// ([`PREFETCH_TABLE_BYTES`]; tests set it to always and never).
    prefetch_above: usize,
}

/// Games' buffers a [`Warm`] keeps, at most (about 300 bytes each under a repetition end):
/// more than the child lists of a line of 200 moves of 6 each.
const WARM_GAMES: usize = 2048;

/// Side-table capacity, in entries, above which a finished solver's table is not kept
/// ([`Warm`]): a small solve's (4 MiB) is far below, a large one's memory goes back. So for
/// the buffer of its seen lists, in keys (8 MiB; a 4 MiB solve's is at most 2 × 43,690).
const WARM_SIDE: usize = 1 << 16;
const WARM_SIDE_KEYS: usize = 1 << 18;

/// The buffers a solver leaves to the next solver made on its thread, all emptied: its
/// games' buffers and the pooled lists, segments, side table and line of play (what
/// [`Solver::renew`] keeps; the table has its own pool). The host key's hint solves are a new
/// solver each ([`proven_best`]): each grew all of these again, a copy of a game allocated
/// for every child of every node of its first lines (44 k of the 482 k allocations of
/// `build rulesets`, dhat). Only buffers: a solver made with them finds the same values as
/// one made without.
#[derive(Default)]
struct Warm {
    games: Vec<GameBuffers>,
    dep_pool: ListPool,
    seg_pool: Vec<Segment>,
    segment: Segment,
    side: rustc_hash::FxHashMap<(PathKey, u32), SideEntry>,
    side_seen: Vec<PathKey>,
    path: Vec<PathKey>,
}

impl Warm {
    /// Nothing worth keeping (a renewed solver's leftovers).
    fn is_empty(&self) -> bool {
        self.games.is_empty()
            && self.dep_pool.lists.is_empty()
            && self.seg_pool.is_empty()
            && self.segment.keys.capacity() == 0
            && self.side.capacity() == 0
            && self.side_seen.capacity() == 0
            && self.path.capacity() == 0
    }
}

thread_local! {
    /// The buffers the last solver dropped on this thread left ([`Warm`]), for the next.
    static WARM: std::cell::RefCell<Option<Warm>> = const { std::cell::RefCell::new(None) };
}

impl Drop for Solver<'_> {
    /// Leaves this solver's buffers to the next one on the thread ([`Warm`]), unless those
    /// already there hold more games.
    fn drop(&mut self) {
        let w = self.take_warm();
        if w.is_empty() {
            return;
        }
        let _ = WARM.try_with(|slot| {
            let mut slot = slot.borrow_mut();
            if slot.as_ref().is_none_or(|o| o.games.len() <= w.games.len()) {
                *slot = Some(w);
            }
        });
    }
}

/// The children of one node: the first `n` of `v` (the rest are buffers kept for reuse).
#[derive(Default)]
struct Kids<'r> {
    v: Vec<Child<'r>>,
    n: usize,
}

/// Low bits of a child's sort number holding its index ([`Solver::search_inner`]).
const ORDER_INDEX_BITS: u32 = 6;
const _: () = assert!(MAX_MOVES <= 1 << ORDER_INDEX_BITS);

impl<'r> Kids<'r> {
    fn as_slice(&self) -> &[Child<'r>] {
        &self.v[..self.n]
    }
}

/// A legal move with the position it leads to.
struct Child<'r> {
    mv: Move,
    game: Game<'r>,
    /// Change of the mover's margin (own store minus the other's) made by the move.
    gain: i32,
    /// The mover moves again (extra turn, or the other side passed).
    again: bool,
    /// The move captured, or put seeds in a store: no earlier position can recur, a new
    /// segment starts.
    fresh: bool,
    /// The side that made the move.
    mover: u8,
    /// The position's compact repetition key ([`Solver::path_key`]), worked out when the
    /// child is made (to fetch its table bucket ahead of the search) and used again when it
    /// is searched; `None` when the game is over or the key does not fit 128 bits.
    pk: Option<Key>,
}

impl Child<'_> {
    /// Change of the mover's margin if the game ends at this position by repetition: the
    /// gain and the engine's sweep at a repetition end (`Game::finish`, the mover of this
    /// move being the last mover). Worked out only when a position recurs (it was worked out
    /// for every child: 6 % of the solver's instructions in an Oware kit).
    fn repeat_gain(&self, rules: &Rules) -> i32 {
        let n = rules.pits_per_side();
        let h = &self.game.position().holes;
        let rows = [
            h[..n].iter().map(|&x| x as i32).sum::<i32>(),
            h[n..2 * n].iter().map(|&x| x as i32).sum::<i32>(),
        ];
        let (own, other) = (rows[self.mover as usize], rows[1 - self.mover as usize]);
        self.gain
            + match rules.ruleset().end.remaining_seeds {
                crate::ruleset::Remaining::Owner => own - other,
                crate::ruleset::Remaining::Mover => own + other,
                crate::ruleset::Remaining::Opponent => -(own + other),
            }
    }
}

/// Stores of `g`: (side to move's store minus the other's).
fn margin(rules: &Rules, g: &Game, side: u8) -> i32 {
    let h = &g.position().holes;
    h[rules.store(side) as usize] as i32 - h[rules.store(1 - side) as usize] as i32
}

fn pit_seeds(rules: &Rules, g: &Game) -> i32 {
    let n = 2 * rules.pits_per_side();
    g.position().holes[..n].iter().map(|&x| x as i32).sum()
}

impl<'r> Solver<'r> {
    /// A solver for `rules` within `limits`.
    pub fn new(rules: &'r Rules, limits: Limits) -> Solver<'r> {
        Solver::with_table_slots(rules, limits, usize::MAX)
    }

    /// [`Solver::new`] whose table holds at most `table_slots` entries besides the memory cap
    /// (a [`within`] solver's: [`HINT_TABLE_SLOTS`]).
    fn with_table_slots(rules: &'r Rules, limits: Limits, table_slots: usize) -> Solver<'r> {
        let warm = WARM
            .try_with(|w| w.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_default();
        Solver::with_warm(rules, limits, table_slots, warm)
    }

    /// [`Solver::new`] with the buffers `warm` (emptied).
    fn with_warm(rules: &'r Rules, limits: Limits, table_slots: usize, warm: Warm) -> Solver<'r> {
        let end = &rules.ruleset().end;
        Solver {
            rules,
            limits,
            table: Table::capped(limits.memory_mb, table_slots),
            table_slots,
            nodes: 0,
            depth: 0,
            max_depth: MAX_DEPTH,
            start: Instant::now(),
            repetition: end.repetition,
            stores_in_key: end.threshold.is_some(),
            path: warm.path,
            path_start: 0,
            segment: warm.segment,
            side: warm.side,
            side_seen: warm.side_seen,
            side_keys: 0,
            side_cap: limits.memory_mb.saturating_mul(1 << 20) / 2 / SIDE_KEY_BYTES,
            kid_pool: Vec::new(),
            base: None,
            dep_pool: warm.dep_pool,
            seg_pool: warm.seg_pool,
            spare_games: warm.games,
            prefetch_above: PREFETCH_TABLE_BYTES,
        }
    }

    /// This solver's buffers, emptied ([`Warm`]); the solver keeps none.
    fn take_warm(&mut self) -> Warm {
        let mut games = std::mem::take(&mut self.spare_games);
        let kids = std::mem::take(&mut self.kid_pool);
        let base = self.base.take();
        for g in kids
            .into_iter()
            .flat_map(|k| k.v)
            .map(|c| c.game)
            .chain(base)
        {
            if games.len() >= WARM_GAMES {
                break;
            }
            games.push(g.into_buffers());
        }
        // Kept, emptied: a new solver grew them again in every solve (a hash map rebuilt at
        // each doubling). Only `get`, `insert` and `remove` are used on the maps, never their
        // order, so their capacity changes nothing else.
        let mut segment = std::mem::take(&mut self.segment);
        segment.keys.clear();
        segment.index.clear();
        let mut side = std::mem::take(&mut self.side);
        side.clear();
        let mut side_seen = std::mem::take(&mut self.side_seen);
        side_seen.clear();
        if side.capacity() > WARM_SIDE || side_seen.capacity() > WARM_SIDE_KEYS {
            side = Default::default();
            side_seen = Vec::new();
        }
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        Warm {
            games,
            dep_pool: std::mem::take(&mut self.dep_pool),
            seg_pool: std::mem::take(&mut self.seg_pool),
            segment,
            side,
            side_seen,
            path,
        }
    }

    /// Forgets everything learnt (table, mid-segment results): the solver is then as
    /// [`Solver::new`] made it, with the same rules and limits, keeping only buffers that hold
    /// nothing between nodes (child lists, the history-free base game, the pooled lists and
    /// segments, each emptied before reuse) and the emptied segment, side table and line of
    /// play, so that many small
    /// solves in a row do not allocate them again. The set-up endgames of a kit are hundreds
    /// of solves of 200 positions each: copying a game into a new child list for every
    /// position searched was a tenth of an Oware kit's instructions.
    pub fn renew(&mut self) {
        // The child lists and base game stay as they are (no round trip through buffers).
        let kid_pool = std::mem::take(&mut self.kid_pool);
        let base = self.base.take();
        let warm = self.take_warm();
        // The old table goes back to its thread's pool before the new one is taken from it.
        drop(std::mem::replace(&mut self.table, Table::new(0)));
        // The solver replaced holds no buffers now, so its drop leaves none ([`Warm`]).
        *self = Solver::with_warm(self.rules, self.limits, self.table_slots, warm);
        self.kid_pool = kid_pool;
        self.base = base;
    }

    /// Solves `pos` (taken as having no earlier history, as [`Game::new`]): the proven value
    /// bounds and, when proven, every best move. Budgets count from this call.
    pub fn solve(&mut self, pos: &Position) -> Result<Solution, SolveError> {
        let rules = self.rules;
        let root = Game::try_new(rules, pos.clone()).map_err(SolveError::Engine)?;
        self.nodes = 0;
        self.depth = 0;
        self.start = Instant::now();
        self.path.clear();
        self.path_start = 0;
        let k = self.path_key(&root);
        self.segment.restart(k);
        // Everything below is in the root mover's terms; `sign` turns it into side 0's.
        let side = root.to_move();
        let sign = if side == 0 { 1 } else { -1 };
        let base = margin(rules, &root, side);
        let done = |s: &Self, lo: i32, hi: i32, best: Vec<Move>, stop: Option<Stop>| {
            let (a, b) = if sign == 1 {
                (base + lo, base + hi)
            } else {
                (-(base + hi), -(base + lo))
            };
            Solution {
                bounds: (a, b),
                proven: lo == hi && stop.is_none(),
                best_moves: best,
                stopped: stop,
                nodes: s.nodes,
                table_entries: s.table.used(),
                table_bytes: s.table.bytes(),
            }
        };
        if root.is_over() {
            return Ok(done(self, 0, 0, Vec::new(), None));
        }
        let r = pit_seeds(rules, &root);
        let (mut lo, mut hi) = (-r, r);
        let mut guess = 0;
        while lo < hi {
            let beta = if guess <= lo { lo + 1 } else { guess.min(hi) };
            match self.search(&root, beta - 1, beta, 0, None) {
                Ok((v, dep)) => {
                    dep.recycle(&mut self.dep_pool);
                    if v < beta {
                        hi = v;
                    } else {
                        lo = v;
                    }
                    guess = v;
                }
                Err(Abort::Budget(s)) => return Ok(done(self, lo, hi, Vec::new(), Some(s))),
                Err(Abort::Error(e)) => return Err(e),
            }
        }
        let v = lo;
        // Every best move: a move is best when its value reaches v (it cannot exceed it).
        let mut best = Vec::new();
        let mut children = Kids::default();
        self.children(&root, &mut children).map_err(|e| match e {
            Abort::Error(e) => e,
            Abort::Budget(_) => unreachable!("children() never spends the budget"),
        })?;
        for c in children.as_slice() {
            match self.child_value(c, v - 1, v) {
                Ok((x, _)) if x >= v => best.push(c.mv),
                Ok(_) => {}
                Err(Abort::Budget(s)) => return Ok(done(self, v, v, Vec::new(), Some(s))),
                Err(Abort::Error(e)) => return Err(e),
            }
        }
        let order = |m: &Move| (m.pit, m.dir as u8);
        best.sort_by_key(order);
        Ok(done(self, v, v, best, None))
    }

    /// The table key of `g` from its repetition key `pk` (which is the table key without the
    /// stores): the same value as [`table::key`] with the stores when they are part of the key,
    /// without going over the pits again.
    fn key_from(&self, pk: &PathKey, g: &Game) -> Option<Key> {
        match pk {
            PathKey::Compact(k) => self.key_from_compact(*k, g),
            PathKey::Full(..) => None,
        }
    }

    /// [`Solver::key_from`] for a compact repetition key `k`.
    fn key_from_compact(&self, k: Key, g: &Game) -> Option<Key> {
        if !self.stores_in_key {
            Some(k)
        } else if k.leading_zeros() >= 32 {
            // The stores take 32 more bits: they fit when the key without them has 96 at most.
            Some((k << 32) | self.stores_tag(g) as Key)
        } else {
            None
        }
    }

    /// The position of `g` for repetition checks (no stores).
    fn path_key(&self, g: &Game) -> PathKey {
        let h = &g.position().holes;
        let n = 2 * self.rules.pits_per_side();
        // The seeds in the pits: the game's in all less the stores' (no move changes the first).
        let sum = g.total_seeds() - u32::from(h[n]) - u32::from(h[n + 1]);
        match table::key_with_sum(self.rules, h, sum, g.to_move(), false) {
            Some(k) => PathKey::Compact(k),
            None => PathKey::Full(h[..2 * self.rules.pits_per_side()].to_vec(), g.to_move()),
        }
    }

    /// The stores of `g` when they are part of the key (threshold rules), else 0.
    fn stores_tag(&self, g: &Game) -> u32 {
        if !self.stores_in_key {
            return 0;
        }
        let n = 2 * self.rules.pits_per_side();
        let h = &g.position().holes;
        ((h[n] as u32) << 16) | h[n + 1] as u32
    }

    /// Counts one more position visited, or stops the search when the node budget is spent
    /// (before counting: a budget of N visits at most N positions, and the report says so).
    fn tick(&mut self) -> Result<(), Abort> {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                return Err(Abort::Budget(Stop::Nodes));
            }
        }
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 {
            if let Some(s) = self.limits.seconds {
                if self.start.elapsed().as_secs_f64() > s {
                    return Err(Abort::Budget(Stop::Time));
                }
            }
        }
        Ok(())
    }

    /// The playable moves of `g` with their positions, in legal-move order, into `out` (its
    /// first `out.n`; the games already in `out.v` are reused as buffers).
    fn children(&mut self, g: &Game<'r>, out: &mut Kids<'r>) -> Result<(), Abort> {
        let rules = self.rules;
        let mover = g.to_move();
        let before = margin(rules, g, mover);
        let n = rules.pits_per_side();
        let stores = |c: &Game| {
            let h = &c.position().holes;
            (h[2 * n], h[2 * n + 1])
        };
        let stores_before = stores(g);
        let mut list = MoveList::new();
        g.legal_moves_into(&mut list);
        // Under a repetition end, the children are played from a copy of `g` whose history is
        // `g` alone (the segment does the rest), so no child carries the whole line.
        // (Reset where it lies: moving a game in and out of `self.base` copied it four times
        // a node.)
        if self.repetition {
            let engine = |e| Abort::Error(SolveError::Engine(e));
            match self.base.as_mut() {
                Some(b) => b.reset_to(g),
                None => {
                    let b = match self.spare_games.pop() {
                        // In a game's buffers an earlier solver left ([`Warm`]), reset as a
                        // base kept from an earlier solve is ([`Solver::renew`] keeps it).
                        Some(bufs) => {
                            let mut b = g.clone_in(bufs);
                            b.reset_to(g);
                            b
                        }
                        None => Game::try_new(rules, g.position().clone()).map_err(engine)?,
                    };
                    self.base = Some(b);
                }
            }
        }
        let from = match &self.base {
            Some(b) if self.repetition => b,
            _ => g,
        };
        out.n = 0;
        let prefetch = self.table.bytes() > self.prefetch_above;
        for &mv in list.as_slice() {
            let i = out.n;
            if i == out.v.len() {
                // In buffers an earlier solver left where there are some ([`Warm`]).
                let game = match self.spare_games.pop() {
                    Some(b) => from.clone_in(b),
                    None => from.clone(),
                };
                out.v.push(Child {
                    mv,
                    game,
                    gain: 0,
                    again: false,
                    fresh: false,
                    mover: 0,
                    pk: None,
                });
            } else {
                out.v[i].game.clone_from(from);
            }
            let c = &mut out.v[i];
            // `mv` is one of `g`'s legal moves, and `c.game` is at `g`'s position.
            match c.game.play_legal_fast(mv) {
                Ok(o) => {
                    let gain = margin(rules, &c.game, mover) - before;
                    let again = !c.game.is_over() && c.game.to_move() == mover;
                    c.mv = mv;
                    c.fresh = o.captured > 0 || stores(&c.game) != stores_before;
                    c.gain = gain;
                    c.again = again;
                    c.mover = mover;
                    c.pk = None;
                    // In a table larger than a core's cache, the child's bucket is fetched
                    // while its siblings are made and searched: the fetch from memory was
                    // most of a node's time (64 % of `search_inner`'s samples on one load,
                    // perf, a 24 MiB table). In a smaller one (every host-key hint's) the
                    // keys of children never searched cost more than the fetch saves.
                    if prefetch && !c.game.is_over() {
                        if let PathKey::Compact(k) = self.path_key(&c.game) {
                            c.pk = Some(k);
                            if let Some(t) = self.key_from_compact(k, &c.game) {
                                self.table.prefetch(t);
                            }
                        }
                    }
                    out.n += 1;
                }
                // The slot stays a buffer for the next move.
                Err(EngineError::NonTerminating(_)) => {}
                Err(e) => return Err(Abort::Error(SolveError::Engine(e))),
            }
        }
        if out.n == 0 && !list.is_empty() {
            return Err(Abort::Error(SolveError::NoPlayableMove(
                crate::notation::format_position(rules, g.position()),
            )));
        }
        Ok(())
    }

    /// The value of child `c` for the mover at its parent (gain included), fail-soft in the
    /// window `(alpha, beta)` of the parent's mover, and what it depends on in the parent's
    /// segment.
    fn child_value(&mut self, c: &Child<'r>, alpha: i32, beta: i32) -> Result<(i32, Dep), Abort> {
        if c.game.is_over() {
            return Ok((c.gain, Dep::none()));
        }
        if !self.repetition {
            return Ok((self.child_search(c, alpha, beta, 0)?.0, Dep::none()));
        }
        let k =
            c.pk.map_or_else(|| self.path_key(&c.game), PathKey::Compact);
        if c.fresh {
            // A capture or a store sown into: a new segment, which nothing above can reach.
            // (The new segment's buffers are one a finished line left, and go back after.)
            let mut fresh = self.seg_pool.pop().unwrap_or_default();
            fresh.restart(k);
            let saved = std::mem::replace(&mut self.segment, fresh);
            let r = self.child_search(c, alpha, beta, 0);
            let done = std::mem::replace(&mut self.segment, saved);
            if self.seg_pool.len() < DEP_POOL {
                self.seg_pool.push(done);
            }
            let (v, d) = r?;
            d.recycle(&mut self.dep_pool);
            return Ok((v, Dep::none()));
        }
        let i = match self.segment.push_new(k) {
            Ok(i) => i,
            Err(j) => {
                // The position recurs: the game ends here (the engine's repetition end).
                let mut d = Dep::pooled(&mut self.dep_pool);
                d.low = j;
                d.add(&self.segment.keys[j], &mut self.dep_pool);
                return Ok((c.repeat_gain(self.rules), d));
            }
        };
        let r = self.child_search(c, alpha, beta, i);
        self.segment.pop();
        r
    }

    fn child_search(
        &mut self,
        c: &Child<'r>,
        alpha: i32,
        beta: i32,
        seg: usize,
    ) -> Result<(i32, Dep), Abort> {
        let d = c.gain;
        if c.again {
            let (v, dep) = self.search(&c.game, alpha - d, beta - d, seg, c.pk)?;
            Ok((d + v, dep))
        } else {
            let (v, dep) = self.search(&c.game, d - beta, d - alpha, seg, c.pk)?;
            Ok((d - v, dep))
        }
    }

    /// Future gain of the side to move at `g` (final margin minus margin now), fail-soft in
    /// `(alpha, beta)`, and what it depends on. `seg`: the index of `g` in the segment
    /// (repetition rules; 0 otherwise). `pk`: `g`'s compact repetition key where it is known
    /// already ([`Child::pk`]).
    fn search(
        &mut self,
        g: &Game<'r>,
        alpha: i32,
        beta: i32,
        seg: usize,
        pk: Option<Key>,
    ) -> Result<(i32, Dep), Abort> {
        // Lines of play run up to [`MAX_DEPTH`] moves, a few frames each: where less than
        // [`STACK_RED_ZONE`] of the stack is left, the rest of the line runs on a new
        // [`STACK_SEGMENT`] (any thread, any caller's stack size). Checked every
        // [`STACK_CHECK_PLIES`] plies only (`depth` is `g`'s ply from the root).
        if !self.depth.is_multiple_of(STACK_CHECK_PLIES) {
            return self.search_here(g, alpha, beta, seg, pk);
        }
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.search_here(g, alpha, beta, seg, pk)
        })
    }

    /// [`Solver::search`] on the current stack.
    fn search_here(
        &mut self,
        g: &Game<'r>,
        alpha: i32,
        beta: i32,
        seg: usize,
        pk: Option<Key>,
    ) -> Result<(i32, Dep), Abort> {
        self.tick()?;
        let r = pit_seeds(self.rules, g);
        if r <= alpha {
            return Ok((r, Dep::none()));
        }
        if -r >= beta {
            return Ok((-r, Dep::none()));
        }
        // Rules without a repetition end: a position recurring on the line is endless play.
        let mut pushed = false;
        // The position's key is worked out once: the repetition key (the segment holds it
        // already under a repetition end), and the table key from it.
        let key = if !self.repetition {
            let k = pk.map_or_else(|| self.path_key(g), PathKey::Compact);
            if self.path[self.path_start..].contains(&k) {
                return Err(Abort::Error(SolveError::EndlessPlay(
                    crate::notation::format_position(self.rules, g.position()),
                )));
            }
            let key = self.key_from(&k, g);
            self.path.push(k);
            pushed = true;
            key
        } else {
            self.key_from(&self.segment.keys[seg], g)
        };
        debug_assert_eq!(
            key,
            table::key(
                self.rules,
                &g.position().holes,
                g.to_move(),
                self.stores_in_key
            )
        );
        if self.depth >= self.max_depth {
            if pushed {
                self.path.pop();
            }
            return Err(Abort::Budget(Stop::Depth));
        }
        self.depth += 1;
        let res = self.search_inner(g, alpha, beta, seg, r, key);
        self.depth -= 1;
        if pushed {
            self.path.pop();
        }
        res
    }

    /// Whether side entry `e` holds at the segment index `seg`: none of the positions it
    /// consulted comes before `seg` in the segment.
    fn side_valid(&self, e: &SideEntry, seg: usize) -> bool {
        let seen = &self.side_seen[e.seen()];
        if seen.len() <= seg {
            seen.iter()
                .all(|k| self.segment.index.get(k).is_none_or(|&j| j >= seg))
        } else {
            self.segment.keys[..seg]
                .iter()
                .all(|k| seen.binary_search(k).is_err())
        }
    }

    fn search_inner(
        &mut self,
        g: &Game<'r>,
        alpha0: i32,
        beta0: i32,
        seg: usize,
        r: i32,
        key: Option<Key>,
    ) -> Result<(i32, Dep), Abort> {
        let mut dep = if self.repetition {
            Dep::pooled(&mut self.dep_pool)
        } else {
            Dep::none()
        };
        // The table holds values free of history: usable where a segment starts (or always,
        // without a repetition end). Mid-segment, the side table with its check.
        let main = !self.repetition || seg == 0;
        let side_key = if self.repetition {
            let k = self.segment.keys[seg].clone();
            // A move back to `g` itself ends the game: `g`'s presence is consulted too.
            dep.add(&k, &mut self.dep_pool);
            Some((k, self.stores_tag(g)))
        } else {
            None
        };
        let (mut lo, mut hi, mut tt_move) = (-r, r, None);
        if main {
            if let Some(e) = key.and_then(|k| self.table.probe(k)) {
                lo = lo.max(e.lo as i32);
                hi = hi.min(e.hi as i32);
                tt_move = e.mv;
            }
        } else if let Some(e) = side_key.as_ref().and_then(|k| self.side.get(k)) {
            if self.side_valid(e, seg) {
                lo = lo.max(e.lo as i32);
                hi = hi.min(e.hi as i32);
                tt_move = e.mv;
                dep.add_all(&self.side_seen[e.seen()], &mut self.dep_pool);
            }
        }
        if lo >= beta0 || lo == hi {
            return Ok((lo, dep));
        }
        if hi <= alpha0 {
            return Ok((hi, dep));
        }
        let alpha = alpha0.max(lo);
        let beta = beta0.min(hi);
        let start_nodes = self.nodes;
        let mut kids = self.kid_pool.pop().unwrap_or_default();
        // The child list goes back to the pool on every way out, a spent budget included (the
        // way most small solves end), so the next solve's nodes find it there.
        if let Err(e) = self.children(g, &mut kids) {
            self.kid_pool.push(kids);
            dep.recycle(&mut self.dep_pool);
            return Err(e);
        }
        // The children's order: table move first, then extra-turn moves, then by gain (largest
        // first), ties in legal-move order. Each child gets one number, its rank above its
        // index (so no two are equal and ties go in legal-move order), sorted by insertion
        // (there are few) on the stack (a child carries a whole game: sorting the children
        // themselves moved hundreds of bytes a swap).
        let n = kids.n;
        let mut order = [0u64; MAX_MOVES];
        for (i, c) in kids.as_slice().iter().enumerate() {
            let tt = tt_move == Some(c.mv.pit * 2 + c.mv.dir as u8);
            // Smaller first: not the table move, not an extra turn, then minus the gain.
            let r = (u64::from(!tt) << 34)
                | (u64::from(!c.again) << 33)
                | ((1i64 << 31) - i64::from(c.gain)) as u64;
            let r = (r << ORDER_INDEX_BITS) | i as u64;
            let mut j = i;
            while j > 0 && order[j - 1] > r {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = r;
        }
        let mut best = i32::MIN;
        let mut best_mv = None;
        let mut a = alpha;
        let mut stopped = None;
        for &r in &order[..n] {
            let c = &kids.v[(r & ((1 << ORDER_INDEX_BITS) - 1)) as usize];
            // Without a repetition end: the stores changed in every line that leaves here
            // with a gain or a capture, so the endless-play line starts afresh.
            // (The line is not dropped, only its start moved, so no buffer is given up.)
            let saved = if !self.repetition && (c.gain != 0 || c.fresh) {
                Some(std::mem::replace(&mut self.path_start, self.path.len()))
            } else {
                None
            };
            let v = self.child_value(c, a, beta);
            if let Some(p) = saved {
                self.path_start = p;
            }
            let (v, d) = match v {
                Ok(x) => x,
                Err(e) => {
                    stopped = Some(e);
                    break;
                }
            };
            // Without a repetition end every result depends on nothing ([`Dep::none`]).
            if self.repetition {
                dep.merge(d, &mut self.dep_pool);
            }
            if v > best {
                best = v;
                best_mv = Some(c.mv);
            }
            if v > a {
                a = v;
            }
            if a >= beta {
                break;
            }
        }
        let no_moves = kids.n == 0;
        self.kid_pool.push(kids);
        if let Some(e) = stopped {
            // So is the list (every node on the line gives one back when a budget runs out).
            dep.recycle(&mut self.dep_pool);
            return Err(e);
        }
        if no_moves {
            // No legal move yet the game is not over cannot happen (the engine ends or passes).
            best = 0;
        }
        let best = best.clamp(lo, hi);
        // Stored only when no repetition in the subtree went back above `g` (module doc).
        if dep.low >= seg {
            let (nlo, nhi) = if best <= alpha {
                (lo, best)
            } else if best >= beta {
                (best, hi)
            } else {
                (best, best)
            };
            let mv = best_mv.map(|m| m.pit * 2 + m.dir as u8);
            let work = self.nodes - start_nodes;
            if let Some(k) = key {
                self.table.store(k, nlo, nhi, mv, work);
            }
            if let Some(sk) = side_key {
                dep.normalize(&mut self.dep_pool);
                if let Some(seen) = &dep.seen {
                    self.side_store(sk, nlo, nhi, mv, seen);
                }
            }
        }
        Ok((best, dep))
    }

    /// Records a mid-segment result; the side table is emptied when it would pass its cap.
    fn side_store(
        &mut self,
        k: (PathKey, u32),
        lo: i32,
        hi: i32,
        mv: Option<u8>,
        seen: &[PathKey],
    ) {
        let cost = 1 + seen.len();
        if cost > self.side_cap {
            return;
        }
        if self.side_keys + cost > self.side_cap {
            self.side.clear();
            self.side_seen.clear();
            self.side_keys = 0;
        }
        // The lists of replaced entries are dropped when the buffer would pass one and a half
        // times the cap (the live lists hold at most the cap, so at least a third goes each
        // time), and the buffer never grows past that: the side table stays within about
        // half the memory cap ([`SIDE_KEY_BYTES`] a key counted, 32 held), as before.
        let room = self.side_cap + self.side_cap / 2;
        let need = self.side_seen.len() + seen.len();
        if need > room {
            self.compact_side(room);
        } else if need > self.side_seen.capacity() {
            let grown = (2 * self.side_seen.capacity()).clamp(need, room);
            self.side_seen.reserve_exact(grown - self.side_seen.len());
        }
        let e = SideEntry {
            lo: lo as i16,
            hi: hi as i16,
            mv,
            start: self.side_seen.len(),
            len: seen.len(),
        };
        self.side_seen.extend_from_slice(seen);
        if let Some(old) = self.side.insert(k, e) {
            self.side_keys -= 1 + old.len;
        }
        self.side_keys += cost;
    }

    /// Drops the lists no side entry uses from [`Solver::side_seen`] (the entries' own
    /// lists move; the entries are the same), into a buffer of `room` keys.
    fn compact_side(&mut self, room: usize) {
        let mut old = std::mem::take(&mut self.side_seen);
        let mut kept = Vec::with_capacity(room);
        for e in self.side.values_mut() {
            let from = e.seen();
            e.start = kept.len();
            kept.extend(
                old[from]
                    .iter_mut()
                    .map(|k| std::mem::replace(k, PathKey::Compact(0))),
            );
        }
        self.side_seen = kept;
    }
}

/// Solves `pos` under `rules` within `limits` (a fresh table), on the calling thread. The
/// search grows its own stack where a line of play runs deep ([`Solver::search`], through
/// `stacker`), so no thread is started: a small solve costs microseconds, not the ~100 µs of a
/// thread (measured: 132 µs a call with a thread, 21 µs without, for an 8-position endgame).
pub fn solve(rules: &Rules, pos: &Position, limits: Limits) -> Result<Solution, SolveError> {
    Solver::new(rules, limits).solve(pos)
}

/// The proven value (side 0's final total minus side 1's) and best moves of `pos` within
/// `nodes` positions and a table of [`HINT_TABLE_SLOTS`] entries (deterministic, not
/// remembered), or `None` when not proven in that budget or the game has no value.
pub fn proven_best_within(rules: &Rules, pos: &Position, nodes: u64) -> Option<(i32, Vec<Move>)> {
    proven_answer(&mut within(rules, nodes), pos)
}

/// Entries of the table of a [`within`] solver (768 KiB). Its solves store at most one entry
/// a position ([`HINT_NODES`], 5,000 at most), so a quarter of the slots or fewer are used.
/// Measured (2026-12-07): in the 1.5 MiB the 4 MiB cap started with, the first touch of each
/// entry's bucket came from memory; at this size the twenty host-key hints the five bundled
/// kits cannot prove took 22.8 ms of one core instead of 25.4 (in process, 30 rounds). A full
/// bucket is a little more likely, so a proof can take a position more (5 of about 175,000
/// positions of random games, none near the budget): a proof right at the budget could come
/// out otherwise, but 2,896 rulesets (the five, variants of 2 to 16 pits and 1 to 9 seeds,
/// changed rule options, random ones) built 7,437 kits byte for byte as before.
pub const HINT_TABLE_SLOTS: usize = 1 << 15;

/// The solver [`proven_best_within`] uses: `nodes` positions, a table of
/// [`HINT_TABLE_SLOTS`] entries, and the 4 MiB cap's side table (repetition rules).
pub fn within(rules: &Rules, nodes: u64) -> Solver<'_> {
    Solver::with_table_slots(
        rules,
        Limits {
            nodes: Some(nodes),
            seconds: None,
            memory_mb: 4,
        },
        HINT_TABLE_SLOTS,
    )
}

/// [`proven_best_within`] by `solver` (made by [`within`]), renewed first ([`Solver::renew`]):
/// the same answer as from a new solver, for many positions in a row.
pub fn proven_best_by(solver: &mut Solver, pos: &Position) -> Option<(i32, Vec<Move>)> {
    solver.renew();
    proven_answer(solver, pos)
}

/// The proven value and best moves of `pos` by `solver` as it is (new or renewed).
fn proven_answer(solver: &mut Solver, pos: &Position) -> Option<(i32, Vec<Move>)> {
    solver
        .solve(pos)
        .ok()
        .filter(|s| s.proven && !s.best_moves.is_empty())
        .map(|s| (s.bounds.0, s.best_moves))
}

/// What names the rules of `rs` for [`proven_best`]'s answers: the Debug form of every part
/// of the ruleset that play depends on (board counts, sowing, extra turns, captures, grand
/// slam, feeding, the end), not its words, sizes or file: the same rules in another language,
/// or with another `[layout]` (as the layout advice tries), share their answers. Two rulesets
/// with one id may still differ in their rules, so the id is not used.
pub(crate) fn rules_key(rs: &crate::ruleset::Ruleset) -> String {
    format!(
        "{:?}",
        (
            rs.board.pits_per_side,
            rs.board.seeds_per_pit,
            &rs.sowing,
            &rs.extra_turn,
            &rs.capture,
            &rs.grand_slam,
            &rs.feeding,
            &rs.end,
        )
    )
}

/// Table size (bytes) above which [`Solver::children`] fetches each child's table bucket
/// ahead of its search. Measured on a 2-core AMD EPYC (1 MiB of L2 cache a core): Kalah 6×4
/// from the start, 2,000,000 positions, 24 MiB table: 467–594 → 374–413 ms of CPU; a Kalah
/// 6×4 kit, whose hint solves have 1.5–4 MiB tables, with the fetch in those too: 174 → 182 M
/// instructions and about 1 ms more CPU.
const PREFETCH_TABLE_BYTES: usize = 4 << 20;

/// Node budget of [`proven_best`]: small enough for kit builds, and counted in positions so
/// that the host key is the same on every run. Measured on the five bundled kits (all 400
/// hint solves, 2026-12-04): every position proven within 30,000 took at most 1,760 (Kalah
/// 6×3; under a repetition end at most 188); the next-cheapest proof of those left took
/// 62,602 positions and most were not proven within 3,000,000. So 5,000 proves what 30,000
/// did, and the hopeless tries, which spend the whole budget, cost a sixth: they were 44 % of
/// the Kalah 6×4 kit's instructions (callgrind).
pub const HINT_NODES: u64 = 5_000;

/// The proven value and best moves of `pos` within [`HINT_NODES`] positions and a table of
/// [`HINT_TABLE_SLOTS`] entries (deterministic), or `None` when not proven in that budget or
/// the game has no value. Used by the host key; answers are remembered ([`crate::memo::Memo`],
/// the last 8,192 positions asked about, keyed by the rules ([`rules_key`]) and the
/// position): the key is laid out once per
/// paper and language, the layout advice lays it out again for each size it tries, and
/// `build` lays out several kits at once. Two threads asking about the same position (the
/// document and the host key of one kit) never solve it twice; the answer does not depend on
/// which thread solves it.
pub fn proven_best(rules: &Rules, pos: &Position) -> Option<(i32, Vec<Move>)> {
    static MEMO: crate::memo::Memo<HintKey, Option<(i32, Vec<Move>)>> =
        crate::memo::Memo::new(8192);
    MEMO.get_or_compute((rules_key_shared(rules.ruleset()), pos.clone()), || {
        proven_best_within(rules, pos, HINT_NODES)
    })
}

/// What names one [`proven_best`] answer: the rules ([`rules_key`]) and the position.
type HintKey = (std::sync::Arc<str>, Position);

/// [`rules_key`] of `rs`, shared: the last one made is handed out again while the rules are
/// the same, so the memo's keys share one string rather than hold a copy each.
fn rules_key_shared(rs: &crate::ruleset::Ruleset) -> std::sync::Arc<str> {
    static LAST: std::sync::Mutex<Option<std::sync::Arc<str>>> = std::sync::Mutex::new(None);
    let k = rules_key(rs);
    let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    match last.as_ref() {
        Some(a) if **a == *k => a.clone(),
        _ => {
            let a: std::sync::Arc<str> = k.into();
            *last = Some(a.clone());
            a
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fetching children's table buckets ahead (and carrying their keys to their search)
    /// changes nothing a solve finds: the same bounds, best moves, positions and table entries
    /// with the fetch at every node as with none, under rules without a repetition end (Kalah
    /// 6×3 and 6×4, from the start and after some moves) and with one (Oware abapa, Giuthi).
    #[test]
    fn fetching_buckets_ahead_finds_the_same() {
        // Ruleset, and the legal move (by index) played at each ply from the start.
        let cases: [(&str, &[usize]); 5] = [
            ("kalah-6x3", &[]),
            ("kalah-6x3", &[2, 0, 4, 1, 3, 0, 5, 2]),
            ("kalah-6x4", &[5, 1, 0, 3]),
            ("oware-abapa", &[]),
            ("giuthi", &[1, 3]),
        ];
        for (id, line) in cases {
            let b = crate::bundled::get(id).expect("bundled");
            let rs = crate::ruleset::load::load_str("r.toml", b.source).expect("loads");
            let rules = Rules::new(&rs);
            let mut g = Game::new(&rules, rules.initial());
            for &i in line {
                let moves = g.legal_moves();
                g.play(moves[i % moves.len()]).expect("legal");
            }
            let pos = g.position().clone();
            let solve = |above: usize| {
                let mut s = Solver::new(
                    &rules,
                    Limits {
                        nodes: Some(20_000),
                        seconds: None,
                        memory_mb: 16,
                    },
                );
                s.prefetch_above = above;
                s.solve(&pos).expect("solves")
            };
            let (always, never) = (solve(0), solve(usize::MAX));
            assert!(always.nodes > 100, "{id}: {} positions", always.nodes);
            assert_eq!(always, never, "{id} after {line:?}");
        }
    }

    /// A [`within`] solver's table has [`HINT_TABLE_SLOTS`] entries (768 KiB), also once
    /// renewed, and answers as a solver with the whole 4 MiB table did: the same proven value
    /// and best moves, or the same `None`, for the positions along practice-like random games
    /// of each bundled ruleset (proven and unproven ones both).
    #[test]
    fn hint_solves_answer_as_with_the_whole_4_mib_table() {
        let mut proven = 0;
        let mut unproven = 0;
        for b in crate::bundled::ALL {
            let rs = crate::ruleset::load::load_str("r.toml", b.source).expect("loads");
            let rules = Rules::new(&rs);
            let mut hint = within(&rules, HINT_NODES);
            assert_eq!(hint.table.bytes(), HINT_TABLE_SLOTS * 24, "{}", b.id);
            let mut rng = crate::rng::XorShift::new(7);
            let mut g = Game::new(&rules, rules.initial());
            for ply in 0..200 {
                if g.is_over() {
                    break;
                }
                if ply % 4 == 3 {
                    let pos = g.position().clone();
                    let mut whole = Solver::new(
                        &rules,
                        Limits {
                            nodes: Some(HINT_NODES),
                            seconds: None,
                            memory_mb: 4,
                        },
                    );
                    assert_eq!(whole.table.bytes(), POOL_BYTES_4_MIB, "{}", b.id);
                    let want = proven_answer(&mut whole, &pos);
                    let got = proven_best_by(&mut hint, &pos);
                    assert_eq!(hint.table.bytes(), HINT_TABLE_SLOTS * 24, "{}", b.id);
                    assert_eq!(got, want, "{} at ply {ply}", b.id);
                    if want.is_some() {
                        proven += 1;
                    } else {
                        unproven += 1;
                    }
                }
                let moves = g.legal_moves();
                g.play(moves[rng.below(moves.len())]).expect("legal");
            }
        }
        assert!(
            proven >= 5 && unproven >= 5,
            "{proven} proven, {unproven} not"
        );
    }

    /// Bytes of a 4 MiB cap's first table: 65,536 entries of 24 bytes.
    const POOL_BYTES_4_MIB: usize = 65_536 * 24;
}
