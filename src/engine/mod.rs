//! The rules engine: positions, legal moves and `play`, every rule read from a
//! [`crate::ruleset::Ruleset`].
//!
//! API CONTRACT (layout, examples and notation code against these names; the engine's
//! internals may change freely):
//!
//! * Holes are numbered `0..2n` for pits (side 0's pits `0..n` in side 0's sowing order, side
//!   1's pits `n..2n` in side 1's sowing order) and `2n`, `2n+1` for the stores of side 0 and 1.
//!   The counter-clockwise circuit is side 0's pits, store 0, side 1's pits, store 1.
//! * Pit `i` of side 0 (0-based) is opposite pit `n-1-i` of side 1.
//! * [`Rules::new`] compiles a ruleset once; [`Game`] holds a position plus the history needed
//!   for repetition; [`Game::play`] returns a [`Report`] of everything that happened, and
//!   [`Game::play_into`] writes the same report into one the caller keeps (reusing its
//!   buffers: no allocation a move once they are large enough).
//! * Fast path: [`Game::legal_moves_into`] (a fixed-size [`MoveList`]) and [`Game::play_fast`]
//!   (an [`Outcome`]) play the same rules without allocating; [`perft`] counts leaf positions.
//!   Two specialised cores, chosen from the rules' parameters (never the game's name), play
//!   the common classes of rules: single-lap Kalah-like rules and count-capture Oware-like
//!   rules ([`Rules::has_single_lap_core`], [`Rules::has_count_core`]); every other move goes
//!   through the general core, and the cores agree move by move (`tests/fastpath.rs`).
//! * Relay sowing is guarded: a state (board, pit, direction) repeating within one turn, or more
//!   than `10 000 + 100 × seeds` seeds sown in one turn, gives [`EngineError::NonTerminating`].
//! * Boards have at most [`MAX_PITS_PER_SIDE`] pits a side and 65 535 seeds in all.

mod game;
mod rules;

pub(crate) use game::GameBuffers;
pub use game::{perft, Game, MoveList, Outcome};
pub use rules::{relay_cap, relay_sown_here, Rules, MAX_HOLES, MAX_MOVES, MAX_PITS_PER_SIDE};

/// Which way one handful travels: along the circuit order (counter-clockwise) or against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Along the circuit order (A1 → A2 → … → store A → B1 …).
    Ccw,
    /// Against the circuit order.
    Cw,
}

/// A move: the pit (hole index) the seeds are lifted from and the direction of the first handful.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Hole index of the pit, `0..2n`.
    pub pit: u8,
    /// Direction of the first handful (fixed games always use the ruleset's direction).
    pub dir: Dir,
}

/// A position: seeds in every hole and who moves. Indexing as in the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Seeds per hole: `2n` pits then 2 stores.
    pub holes: Vec<u16>,
    /// Side to move, 0 or 1.
    pub to_move: u8,
}

/// One handful of a move: where it was lifted, which way it went, and the holes it sowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lap {
    /// Hole the seeds were lifted from.
    pub from: u8,
    /// Direction of this handful.
    pub dir: Dir,
    /// Seeds lifted.
    pub lifted: u16,
    /// Holes that received one seed each, in order (skipped holes are absent).
    pub sown: Vec<u8>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A side's pits are all empty.
    SideEmpty,
    /// A store reached the threshold (or both hold half).
    Threshold,
    /// A position repeated.
    Repetition,
    /// The player to move has no legal move (including: cannot feed the opponent).
    NoLegalMove,
    /// Neither player can move (pass rule).
    NoMovesForBoth,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Why.
    pub reason: EndReason,
    /// Seeds moved from the pits into each side's store by the end-of-game sweep.
    pub swept: [u16; 2],
    /// Final score of each side (store after the sweep).
    pub scores: [u16; 2],
}

/// Everything one call to [`Game::play`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Who moved.
    pub player: u8,
    /// The move.
    pub mv: Move,
    /// The handfuls, in order (one unless relay sowing).
    pub laps: Vec<Lap>,
    /// Hole where the last seed landed.
    pub last: u8,
    /// Holes captured from, with the seeds taken from each, in capture order (the capturing
    /// seed counts in its own hole's entry).
    pub captures: Vec<(u8, u16)>,
    /// Seeds captured in all.
    pub captured: u16,
    /// The move was a grand slam (its capture forfeited under the no-capture policy, or made
    /// under capture-all).
    pub grand_slam: bool,
    /// The mover moves again.
    pub extra_turn: bool,
    /// Players who passed after this move (no legal move under the pass rule), in order.
    pub passed: Vec<u8>,
    /// Set when this move ended the game.
    pub ending: Option<Ending>,
    /// Who moves next; `None` once the game is over.
    pub next: Option<u8>,
}

/// A bound on the engine work of code that plays many games to look for something (the
/// relay check of `sowkit check`, the practice generator): seeds sown by relay sowing on this
/// thread, counted by the engine itself ([`relay_sown_here`]: every move played, tried, or
/// simulated to find the legal ones). A move without relay sowing is one handful, so relay
/// sowing is the only way one move can cost thousands of seeds (up to [`relay_cap`]). The
/// count is deterministic (the same ruleset spends it the same way on every machine), so
/// output stays byte-identical. Without it a 16-pit board of 50 seeds with relay sowing and
/// no store took over a minute to build (issue 8: no unbounded time on any input).
#[derive(Clone, Copy, Debug)]
pub struct SowBudget {
    start: u64,
    seeds: u64,
}

impl SowBudget {
    /// A budget of `seeds` seeds sown by relay sowing from now on, on this thread.
    pub fn new(seeds: u64) -> SowBudget {
        SowBudget {
            start: relay_sown_here(),
            seeds,
        }
    }

    /// Seeds sown by relay sowing on this thread since [`SowBudget::new`].
    pub fn spent(&self) -> u64 {
        relay_sown_here().wrapping_sub(self.start)
    }

    /// Whether any budget is left (the caller stops looking once it is not).
    pub fn left(&self) -> bool {
        self.spent() < self.seeds
    }
}

/// Errors from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The move is not legal here; the string says why in plain words.
    IllegalMove(String),
    /// The game is already over.
    GameOver,
    /// A relay sowing repeated a state within one turn, or exceeded the per-turn bound; the
    /// string names the move and the position (in [`crate::notation`] form).
    NonTerminating(String),
    /// A position does not fit the board (hole count, side to move, or more than 65 535 seeds).
    InvalidPosition(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::IllegalMove(s) => write!(f, "illegal move: {s}"),
            EngineError::GameOver => write!(f, "the game is over"),
            EngineError::NonTerminating(s) => write!(f, "relay sowing does not end: {s}"),
            EngineError::InvalidPosition(s) => write!(f, "invalid position: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}
