//! The typed, validated ruleset: every rule of a sowing game as a parameter.
//!
//! Nothing in sowkit asks which game it is; the engine, the examples checker and the rule
//! sheets read these parameters only. Produced by [`crate::ruleset::load`] from a TOML file,
//! after schema and semantic validation, so every value here is already consistent
//! (labels unique, counts in range, and so on).

use std::collections::BTreeMap;
use std::sync::Arc;

/// Which way seeds travel around the circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along the printed circuit order (A1, A2, …, store A, B1, …): counter-clockwise on the board.
    Counterclockwise,
    /// Against the circuit order: clockwise on the board.
    Clockwise,
    /// The mover chooses for each move (Giuthi).
    Either,
}

/// Whether a hole is sown into when a sowing passes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Include {
    /// Drop a seed in it.
    Sow,
    /// Pass over it without spending a seed.
    Skip,
}

/// What happens when a handful's last seed lands in an occupied pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relay {
    /// Nothing: the sowing ends there.
    None,
    /// Relay sowing: lift that pit's seeds (including the last one) and sow them on in the
    /// opposite direction (Giuthi; research §5.3).
    Reverse,
    /// Relay sowing in the same direction.
    Same,
}

/// Sowing parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Sowing {
    /// Direction of sowing.
    pub direction: Direction,
    /// Whether the mover's own store is sown into.
    pub own_store: Include,
    /// Whether the opponent's store is sown into.
    pub opponent_store: Include,
    /// `Skip`: a lap never drops a seed in the pit the current handful was lifted from (Oware's
    /// 12-seed rule); `Sow`: it does (Kalah).
    pub origin_on_lap: Include,
    /// A pit needs at least this many seeds to be played (1 for most games, 2 for Giuthi).
    pub min_seeds: u16,
    /// Relay sowing rule.
    pub relay: Relay,
}

/// When the mover moves again.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ExtraTurn {
    /// The last seed lands in the mover's own store (Kalah).
    pub last_in_own_store: bool,
    /// The last seed lands in an empty pit before the sowing has crossed into the opponent's
    /// row (Giuthi).
    pub empty_pit_before_crossing: bool,
}

/// The kind of capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// No captures.
    None,
    /// Take the seeds of the pit opposite the last seed's pit (Kalah, Giuthi).
    Opposite,
    /// Take the last pit's seeds when its count is one of `counts` (Oware: 2 or 3).
    Count,
}

/// Whose row a capture's last seed must land in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowSide {
    /// The mover's own row.
    Own,
    /// The opponent's row.
    Opponent,
}

/// How a capture continues past the last pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chain {
    /// One pit only.
    None,
    /// Go backwards against the sowing direction while the pits qualify, never leaving the row
    /// the capture started in (Oware).
    Backward,
    /// Then each following own pit (in the sowing direction) that is empty and whose opposite
    /// pit holds seeds (Giuthi).
    FollowingEmpty,
}

/// What counts as having "crossed" into the opponent's row during a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Crossing {
    /// At least one seed of this turn has been sown into an opponent pit (Pratt 2009).
    Sown,
    /// A lap of this turn has ended in an opponent pit (Ludii Kiuthi's reading).
    Landed,
}

/// Capture parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// The kind of capture.
    pub kind: CaptureKind,
    /// Where the last seed must land.
    pub side: RowSide,
    /// Opposite capture: the last pit must have been empty before the last seed (holds 1 now).
    pub last_pit_was_empty: bool,
    /// Opposite capture: the opposite pit must hold seeds; `false` is the "empty capture"
    /// variant, where the lone capturing seed goes to the store anyway.
    pub opposite_must_have_seeds: bool,
    /// Opposite capture: the capturing seed goes to the store too.
    pub take_capturing_seed: bool,
    /// Count capture: the counts that capture (Oware: `[2, 3]`).
    pub counts: Vec<u16>,
    /// How the capture continues.
    pub chain: Chain,
    /// Captures only once the turn has crossed into the opponent's row (Giuthi).
    pub after_crossing_only: bool,
    /// What "crossed" means.
    pub crossing: Crossing,
}

/// Grand slam: a capture that would leave every opponent pit empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// The move is allowed and captures as usual.
    CaptureAll,
    /// The move is allowed but captures nothing (Oware abapa, competition rules).
    NoCapture,
    /// The move is illegal.
    Illegal,
    /// The move is illegal unless every legal move is one; then it captures as usual.
    IllegalUnlessOnly,
}

/// Feeding rule.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Feeding {
    /// When the opponent has no seeds in their pits, only moves that leave them some are legal.
    pub must_feed: bool,
}

/// What a player with no legal move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoLegalMove {
    /// The game ends.
    End,
    /// The player passes; the game ends when neither player can move.
    Pass,
}

/// Who takes the seeds left in the pits when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Remaining {
    /// Each side's seeds go to that side's owner (the sweep).
    Owner,
    /// All go to the player who made the last move.
    Mover,
    /// All go to the other player.
    Opponent,
}

/// End-of-game rules. Checks run after each move's captures and before any extra turn.
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    /// The game ends when either side's pits are all empty.
    pub either_side_empty: bool,
    /// The game ends at once when a store reaches this many seeds (Oware: 25), or when both
    /// stores hold exactly half the seeds (a draw).
    pub threshold: Option<u16>,
    /// The game ends when a position (pits, stores and player to move) repeats since the last
    /// capture.
    pub repetition: bool,
    /// What a player with no legal move does.
    pub no_legal_move: NoLegalMove,
    /// Who takes the seeds left in the pits.
    pub remaining_seeds: Remaining,
}

/// The board: two rows of pits and (optionally) a store each.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Pits in each row.
    pub pits_per_side: usize,
    /// Seeds in each pit at the start.
    pub seeds_per_pit: u16,
    /// Other starting counts the rule sheet offers (e.g. Giuthi's 4 to 9); may be empty.
    pub seeds_per_pit_options: Vec<u16>,
    /// The players' names (single words), the first moves first; index = side (0 or 1).
    pub players: [String; 2],
    /// Each side's pit labels in that side's sowing (circuit) order.
    pub pit_labels: [Vec<String>; 2],
    /// Each side's store label (Kalah: sown into; Oware/Giuthi: where captures go).
    pub stores: [String; 2],
    /// Who starts the next game of a match, when the source says; `None` when it is silent.
    pub next_game_first: Option<NextGame>,
}

/// Who moves first in the next game of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextGame {
    /// The winner of the previous game (the Spanish Kalah text).
    Winner,
    /// The loser of the previous game (the Giuthi text).
    Loser,
    /// The players take turns to start.
    Alternate,
}

/// Physical sizes for the printed board, millimetres.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutPrefs {
    /// Pit diameter.
    pub pit_diameter: f64,
    /// Gap between neighbouring pits.
    pub pit_gap: f64,
    /// Store length (along the rows).
    pub store_length: f64,
    /// Counter diameter for the counter sheet.
    pub counter_diameter: f64,
    /// The paper the ruleset asks for (`[layout] paper`), if any; `--paper` overrides it.
    pub paper: Option<crate::paper::Paper>,
    /// Child-safe counters (`--child-safe`): never set by a ruleset file; the layout sets it
    /// (and grows the sizes to match) on the copy of the ruleset it lays out, so the counters
    /// sheet can print the safety note.
    pub child_safe: bool,
}

/// Where a worked example starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// The initial position of the ruleset.
    Initial,
    /// A position in [`crate::notation`] form, e.g. `A 1 0 2 (4) / B 3 3 2 (3); A`.
    Position(String),
}

/// What must follow a worked example's moves; `None` fields are not checked.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Expect {
    /// The position after the moves, in notation form (who moves may be omitted).
    pub position: Option<String>,
    /// Who moves next: a player name, or `none` when the game is over.
    pub next: Option<String>,
    /// Whether the last move earned an extra turn.
    pub extra_turn: Option<bool>,
    /// Seeds captured by the last move.
    pub captured: Option<u16>,
    /// Whether the game is over after the moves.
    pub game_over: Option<bool>,
    /// Final scores (side 0, side 1) once the game is over, after the sweep.
    pub scores: Option<[u16; 2]>,
    /// Label of the hole the last seed of the last move landed in.
    pub last: Option<String>,
    /// Labels of the holes sown by the last move, in order (relay laps concatenated).
    pub sown: Option<Vec<String>>,
    /// The legal moves after the example's moves, in notation form.
    pub legal: Option<Vec<String>>,
    /// Whether the last move was a grand slam (a capture it forfeited or made illegal).
    pub grand_slam: Option<bool>,
    /// Players who passed right after the last move, in order.
    pub passed: Option<Vec<String>>,
}

/// A worked example: a start, moves, and what must happen. `build` replays every one.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Short title, shown on the rule sheet.
    pub title: String,
    /// Optional explanation shown with the diagram.
    pub note: Option<String>,
    /// Where it starts.
    pub start: Start,
    /// The moves in notation form, e.g. `["A1"]` or `["A3>"]`.
    pub moves: Vec<String>,
    /// What must follow.
    pub expect: Expect,
    /// Printed as a practice exercise, the answer in the host key.
    pub exercise: bool,
    /// 1-based line of the `[[example]]` header in the ruleset file.
    pub line: usize,
    /// 1-based line of each `expect` field, by field name, for diagnostics.
    pub field_lines: BTreeMap<String, usize>,
    /// The title and note in other languages (`[example.text.<lang>]`), by language code.
    pub texts: BTreeMap<String, ExampleText>,
}

/// An example's title and note in one language (`[example.text.<lang>]`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExampleText {
    /// Short title.
    pub title: String,
    /// Explanation shown with the diagram.
    pub note: Option<String>,
}

/// The words of a ruleset in one more language: a `[text.<lang>]` table. Every field a kit
/// prints is here, so a kit in that language has no word of the ruleset's own language left.
#[derive(Clone, Debug, PartialEq)]
pub struct LangText {
    /// Display name.
    pub name: String,
    /// Playing time, when the ruleset gives one.
    pub duration: Option<String>,
    /// The source, cited in this language.
    pub source: String,
    /// Per-table citations in this language, by table (`sowing`, …): the same tables as
    /// [`Ruleset::rule_sources`].
    pub rule_sources: BTreeMap<String, String>,
    /// Player names in this language (index = side).
    pub players: [String; 2],
    /// Pit labels in this language, each side in its sowing order.
    pub pit_labels: [Vec<String>; 2],
    /// Store labels in this language.
    pub stores: [String; 2],
    /// 1-based line of the `[text.<lang>]` header.
    pub line: usize,
}

/// Help at the table the rule sheet describes (`[support]`; every option defaults to off).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Support {
    /// A helper may move the seeds for a player who chooses the pit (source 000, "Practice
    /// and support").
    pub helper: bool,
    /// Bowls or a labeled tray may replace the board; the sheet points to the labels sheet.
    pub bowls: bool,
    /// Counter safety for small children: large counters that cannot be swallowed.
    pub small_children: bool,
}

/// A whole validated ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Ruleset {
    /// Output folder name, `[a-z0-9-]+`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Playing time, free text (e.g. "15–25 minutes").
    pub duration: Option<String>,
    /// Language of the ruleset's own text (name, players, labels, examples) and the default
    /// language of its kit: a code with a catalogue in `templates/` (`en`, `es`).
    pub lang: String,
    /// The ruleset's text in other languages (`[text.<lang>]`), by language code.
    pub texts: BTreeMap<String, LangText>,
    /// Help at the table the rule sheet describes.
    pub support: Support,
    /// The source the ruleset follows (a citation, shown on the rule sheet).
    pub source: String,
    /// Per-table citations (`sowing` → "Pratt 2009", …) for disputed choices.
    pub rule_sources: BTreeMap<String, String>,
    /// The board.
    pub board: Board,
    /// Sowing rules.
    pub sowing: Sowing,
    /// Extra-turn rules.
    pub extra_turn: ExtraTurn,
    /// Capture rules.
    pub capture: Capture,
    /// Grand-slam policy (only matters when captures can empty the opponent's row).
    pub grand_slam: GrandSlam,
    /// Feeding rule.
    pub feeding: Feeding,
    /// End-of-game rules.
    pub end: End,
    /// Physical sizes.
    pub layout: LayoutPrefs,
    /// How a match goes on after the first game (`[next_round]`); `None` when the source is
    /// silent.
    pub next_round: Option<NextRound>,
    /// Worked examples, in file order. Shared, not copied, between clones of the ruleset (a
    /// kit build clones it a dozen times, and the examples were three quarters of each
    /// clone's allocations); change them with [`Arc::make_mut`] or by assigning a new list
    /// (`Vec<Example>` converts with `.into()`).
    pub examples: Arc<[Example]>,
    /// The file it was read from, as given (for diagnostics).
    pub path: String,
    /// Lower-case hex SHA-256 of the ruleset file's bytes (empty when not read from text);
    /// the manifest names the ruleset by file name and this, never by the path typed.
    pub sha256: String,
}

/// Whether no seed ever reaches a store during play, under these sowing and capture rules:
/// neither store is sown into (`sowing.own_store` and `sowing.opponent_store` are both
/// `"skip"`) and nothing is ever captured (`capture.kind = "none"`). The stores then take
/// seeds only in the end-of-game sweep. The one definition of the condition: the loader
/// (which has the parts before the [`Ruleset`]) calls it, everything else
/// [`Ruleset::no_seed_reaches_a_store`].
pub fn no_seed_reaches_a_store(sowing: &Sowing, capture: &Capture) -> bool {
    sowing.own_store == Include::Skip
        && sowing.opponent_store == Include::Skip
        && capture.kind == CaptureKind::None
}

impl Ruleset {
    /// Whether no seed ever reaches a store during play: neither store is sown into and
    /// nothing is captured, so the stores fill only in the end-of-game sweep (the rules, the
    /// board's store notes and legend, and the labels say so; the loader warns when such a
    /// game may never end). See [`no_seed_reaches_a_store`].
    pub fn no_seed_reaches_a_store(&self) -> bool {
        no_seed_reaches_a_store(&self.sowing, &self.capture)
    }

    /// Total number of seeds in play: pits × 2 × seeds per pit.
    pub fn total_seeds(&self) -> u32 {
        self.board.pits_per_side as u32 * 2 * self.board.seeds_per_pit as u32
    }

    /// The languages this ruleset has text in: its own first, then its `[text.<lang>]` tables.
    pub fn languages(&self) -> Vec<String> {
        let mut v = vec![self.lang.clone()];
        v.extend(self.texts.keys().filter(|l| **l != self.lang).cloned());
        v
    }

    /// This ruleset with every printed word of its own in `lang`: name, duration, source and
    /// citations, player names, pit and store labels, example titles and notes. Example moves
    /// and positions are rewritten with the new names, so the engine replays them unchanged.
    ///
    /// Errors (naming the file, and the table to add): the ruleset has no text in `lang`, or an
    /// example lacks its `[example.text.<lang>]` title (a mixed-language page is never made).
    pub fn in_lang(&self, lang: &str) -> Result<Ruleset, String> {
        if lang == self.lang {
            return Ok(self.clone());
        }
        let Some(t) = self.texts.get(lang) else {
            return Err(format!(
                "{}: this ruleset has no text in `{lang}` (it has: {}): add a [text.{lang}] table with name, source, players and stores{} (README, \"Languages\")",
                self.path,
                self.languages().join(", "),
                if self.examples.is_empty() {
                    String::new()
                } else {
                    format!(", and an [example.text.{lang}] table with a title (and note) to every example")
                }
            ));
        };
        let mut rs = self.clone();
        let mut map: BTreeMap<String, String> = BTreeMap::new();
        for side in 0..2 {
            map.insert(self.board.players[side].clone(), t.players[side].clone());
            map.insert(self.board.stores[side].clone(), t.stores[side].clone());
            for (a, b) in self.board.pit_labels[side].iter().zip(&t.pit_labels[side]) {
                map.insert(a.clone(), b.clone());
            }
        }
        let word = |w: &str| map.get(w).cloned().unwrap_or_else(|| w.to_string());
        let mv = |m: &str| {
            let core = m.trim_end_matches(['<', '>']);
            format!("{}{}", word(core), &m[core.len()..])
        };
        rs.lang = lang.to_string();
        rs.name = t.name.clone();
        rs.duration = t.duration.clone();
        rs.source = t.source.clone();
        rs.rule_sources = t.rule_sources.clone();
        rs.board.players = t.players.clone();
        rs.board.pit_labels = t.pit_labels.clone();
        rs.board.stores = t.stores.clone();
        for ex in Arc::make_mut(&mut rs.examples) {
            let Some(et) = ex.texts.get(lang) else {
                return Err(format!(
                    "{}:{}: example `{}` has no text in `{lang}`: add an [example.text.{lang}] table with its title (and note) after this [[example]] (README, \"Languages\")",
                    self.path, ex.line, ex.title
                ));
            };
            ex.title = et.title.clone();
            ex.note = et.note.clone();
            if let Start::Position(p) = &ex.start {
                ex.start = Start::Position(rename_position(p, &word));
            }
            ex.moves = ex.moves.iter().map(|m| mv(m)).collect();
            let e = &mut ex.expect;
            e.position = e.position.as_deref().map(|p| rename_position(p, &word));
            e.next = e.next.as_deref().map(word);
            e.last = e.last.as_deref().map(word);
            e.sown = e.sown.as_ref().map(|v| v.iter().map(|h| word(h)).collect());
            e.legal = e.legal.as_ref().map(|v| v.iter().map(|m| mv(m)).collect());
            e.passed = e
                .passed
                .as_ref()
                .map(|v| v.iter().map(|p| word(p)).collect());
        }
        Ok(rs)
    }
}

impl Ruleset {
    /// `text`, a move (`S1`, `S1<`) or a position, written with the names of `local` (this
    /// ruleset in another language, from [`Ruleset::in_lang`]), rewritten with this ruleset's
    /// own players, pit and store labels: the inverse of the renaming `in_lang` does, so a
    /// game played in a kit's language can be written as a worked example of the file.
    /// A word that is no name of `local` stays as it is.
    pub fn own_notation(&self, local: &Ruleset, text: &str) -> String {
        let mut map: BTreeMap<&str, &str> = BTreeMap::new();
        for side in 0..2 {
            map.insert(&local.board.players[side], &self.board.players[side]);
            map.insert(&local.board.stores[side], &self.board.stores[side]);
            for (a, b) in local.board.pit_labels[side]
                .iter()
                .zip(&self.board.pit_labels[side])
            {
                map.insert(a, b);
            }
        }
        let word = |w: &str| {
            let core = w.trim_end_matches(['<', '>']);
            let own = map.get(core).copied().unwrap_or(core);
            format!("{own}{}", &w[core.len()..])
        };
        rename_position(text, &word)
    }
}

/// Renames the player names in a position (`A 0 4 4 (1) / B 3 3 3 (0); A`): every run of
/// characters between spaces, `/`, `;`, `(` and `)` is passed through `word`.
fn rename_position(p: &str, word: &dyn Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(p.len());
    let mut tok = String::new();
    for c in p.chars() {
        if c.is_whitespace() || "/;()".contains(c) {
            if !tok.is_empty() {
                out.push_str(&word(&tok));
                tok.clear();
            }
            out.push(c);
        } else {
            tok.push(c);
        }
    }
    if !tok.is_empty() {
        out.push_str(&word(&tok));
    }
    out
}

/// Who lays out their seeds for the next round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaysOut {
    /// The player who ended the last round with fewer seeds (the Giuthi rules page).
    FewerSeeds,
    /// The player who ended it with more.
    MoreSeeds,
}

/// How the player laying out places their seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arrangement {
    /// In any arrangement they choose (the Giuthi rules page).
    Free,
    /// The same number in every pit, as at the first start.
    Even,
}

/// What the other player places in each pit opposite a pit of the player laying out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opposite {
    /// As many seeds as that pit holds.
    Equal,
    /// Twice as many.
    Double,
}

/// A reading of the next round that the source names as "some versions", printed on the rule
/// sheet beside the rule the ruleset follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OtherReading {
    /// The player laying out need not put all their seeds on the board.
    NotAllSeeds,
    /// The other player puts twice the number opposite when the one laying out holds less than
    /// the shortening share.
    DoubleWhenShort,
}

/// The next round of a match (`[next_round]`): one player lays out the seeds they won, the
/// other answers opposite, and the board may be shortened. Source for Giuthi: the Giuthi
/// rules page, "further information" (a second phase as in the Maasai games).
///
/// Seeds not laid out stay with their owner for the round and count for them at its end: on
/// the board and in notation they sit in that player's store.
#[derive(Clone, Debug, PartialEq)]
pub struct NextRound {
    /// Who lays out.
    pub lays_out: LaysOut,
    /// How they place their seeds.
    pub arrangement: Arrangement,
    /// Whether they must place all the seeds they hold.
    pub all_seeds: bool,
    /// They may ask for a shorter board when they hold less than this percentage of their
    /// starting seeds (0: never; Giuthi: 50).
    pub shorten_below: u8,
    /// Pits left in each row after shortening, at least (Giuthi: 3).
    pub min_pits: usize,
    /// What the other player places opposite.
    pub opposite: Opposite,
    /// Readings the source gives as "some versions", in file order.
    pub other_readings: Vec<OtherReading>,
}
