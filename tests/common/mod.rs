//! Shared test helpers: rulesets built in code (the TOML loader is tested on its own), the
//! conformance fixtures read with serde_json, and the project's deterministic generator.

#![allow(dead_code)]

use std::collections::BTreeMap;

use sowkit::ruleset::*;

fn labels(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("{prefix}{i}")).collect()
}

fn base(id: &str, n: usize, seeds: u16) -> Ruleset {
    Ruleset {
        id: id.into(),
        name: id.into(),
        duration: None,
        lang: "en".into(),
        texts: BTreeMap::new(),
        support: Default::default(),
        source: "test".into(),
        rule_sources: BTreeMap::new(),
        board: Board {
            pits_per_side: n,
            seeds_per_pit: seeds,
            seeds_per_pit_options: vec![],
            players: ["A".into(), "B".into()],
            pit_labels: [labels("A", n), labels("B", n)],
            stores: ["store A".into(), "store B".into()],
            next_game_first: None,
        },
        sowing: Sowing {
            direction: Direction::Counterclockwise,
            own_store: Include::Sow,
            opponent_store: Include::Skip,
            origin_on_lap: Include::Sow,
            min_seeds: 1,
            relay: Relay::None,
        },
        extra_turn: ExtraTurn::default(),
        capture: Capture {
            kind: CaptureKind::None,
            side: RowSide::Own,
            last_pit_was_empty: false,
            opposite_must_have_seeds: true,
            take_capturing_seed: false,
            counts: vec![],
            chain: Chain::None,
            after_crossing_only: false,
            crossing: Crossing::Sown,
        },
        grand_slam: GrandSlam::CaptureAll,
        feeding: Feeding::default(),
        end: End {
            either_side_empty: false,
            threshold: None,
            repetition: false,
            no_legal_move: NoLegalMove::End,
            remaining_seeds: Remaining::Owner,
        },
        layout: LayoutPrefs {
            pit_diameter: 30.0,
            pit_gap: 5.0,
            store_length: 64.0,
            counter_diameter: 20.0,
            paper: None,
            child_safe: false,
        },
        next_round: None,
        examples: Vec::new().into(),
        path: "<code>".into(),
        sha256: String::new(),
    }
}

/// Kalah(n, seeds) as OpenSpiel `mancala` (research §5.1): sow own store, skip the opponent's,
/// extra turn in own store, capture own empty pit + non-empty opposite, end when a row empties,
/// each side sweeps its own row.
pub fn kalah(n: usize, seeds: u16) -> Ruleset {
    let mut r = base("kalah", n, seeds);
    r.extra_turn.last_in_own_store = true;
    r.capture = Capture {
        kind: CaptureKind::Opposite,
        side: RowSide::Own,
        last_pit_was_empty: true,
        opposite_must_have_seeds: true,
        take_capturing_seed: true,
        counts: vec![],
        chain: Chain::None,
        after_crossing_only: false,
        crossing: Crossing::Sown,
    };
    r.end.either_side_empty = true;
    r
}

/// Kalah with the "empty capture" rule (Rawlings): the lone capturing seed is taken even when
/// the opposite pit is empty.
pub fn kalah_empty_capture(n: usize, seeds: u16) -> Ruleset {
    let mut r = kalah(n, seeds);
    r.capture.opposite_must_have_seeds = false;
    r
}

/// Oware abapa as OpenSpiel `oware` (research §5.2), with a store threshold of `threshold`
/// (25 for 48 seeds: more than half).
pub fn oware_with_threshold(threshold: u16) -> Ruleset {
    let mut r = base("oware", 6, 4);
    r.sowing.own_store = Include::Skip;
    r.sowing.opponent_store = Include::Skip;
    r.sowing.origin_on_lap = Include::Skip;
    r.capture = Capture {
        kind: CaptureKind::Count,
        side: RowSide::Opponent,
        last_pit_was_empty: false,
        opposite_must_have_seeds: true,
        take_capturing_seed: false,
        counts: vec![2, 3],
        chain: Chain::Backward,
        after_crossing_only: false,
        crossing: Crossing::Sown,
    };
    r.grand_slam = GrandSlam::NoCapture;
    r.feeding.must_feed = true;
    r.end = End {
        either_side_empty: false,
        threshold: Some(threshold),
        repetition: true,
        no_legal_move: NoLegalMove::End,
        remaining_seeds: Remaining::Owner,
    };
    r
}

/// Oware abapa, 6 pits, 4 seeds, threshold 25.
pub fn oware() -> Ruleset {
    oware_with_threshold(25)
}

/// Giuthi as in the brief (research §5.3, sources/003): 2×6, 4 seeds, either direction, stores
/// not sown (they hold captures), at least 2 seeds to start, relay in the reverse direction,
/// extra turn on an empty pit before crossing, opposite capture in the own row after crossing
/// (any seed sown into the opponent's row) plus following empty pits, capturing seed taken;
/// ends on an empty side, repetition, or no move for both; a player without a move passes.
pub fn giuthi() -> Ruleset {
    let mut r = base("giuthi", 6, 4);
    r.sowing = Sowing {
        direction: Direction::Either,
        own_store: Include::Skip,
        opponent_store: Include::Skip,
        origin_on_lap: Include::Sow,
        min_seeds: 2,
        relay: Relay::Reverse,
    };
    r.extra_turn.empty_pit_before_crossing = true;
    r.capture = Capture {
        kind: CaptureKind::Opposite,
        side: RowSide::Own,
        last_pit_was_empty: true,
        opposite_must_have_seeds: true,
        take_capturing_seed: true,
        counts: vec![],
        chain: Chain::FollowingEmpty,
        after_crossing_only: true,
        crossing: Crossing::Sown,
    };
    r.end = End {
        either_side_empty: true,
        threshold: None,
        repetition: true,
        no_legal_move: NoLegalMove::Pass,
        remaining_seeds: Remaining::Owner,
    };
    r
}

// ---- xorshift ----------------------------------------------------------------------------

/// The project's deterministic generator, seeded with `Rng::new(u64)`.
#[allow(unused_imports)]
pub use sowkit::rng::XorShift as Rng;

// ---- JSON ----------------------------------------------------------------------------------

/// A JSON value from the conformance fixtures, read with serde_json. Accessors return owned
/// values (the fixtures are small) and panic with the value when a fixture does not have the
/// expected shape: that is a broken fixture, not a result to explain away.
#[derive(Clone, Debug, PartialEq)]
pub struct Json(serde_json::Value);

impl Json {
    /// The member `k` of an object, or null when absent (or not an object).
    pub fn get(&self, k: &str) -> Json {
        Json(self.0.get(k).cloned().unwrap_or(serde_json::Value::Null))
    }
    /// The elements of an array.
    pub fn arr(&self) -> Vec<Json> {
        match &self.0 {
            serde_json::Value::Array(v) => v.iter().cloned().map(Json).collect(),
            other => panic!("not an array: {other}"),
        }
    }
    /// A whole number.
    pub fn num(&self) -> i64 {
        self.0
            .as_i64()
            .unwrap_or_else(|| panic!("not a whole number: {}", self.0))
    }
    /// A string.
    pub fn str(&self) -> &str {
        self.0
            .as_str()
            .unwrap_or_else(|| panic!("not a string: {}", self.0))
    }
    /// A boolean.
    pub fn bool(&self) -> bool {
        self.0
            .as_bool()
            .unwrap_or_else(|| panic!("not a bool: {}", self.0))
    }
    /// Whether the value is null (or was absent).
    pub fn is_null(&self) -> bool {
        self.0.is_null()
    }
    /// An array of whole numbers.
    pub fn nums(&self) -> Vec<i64> {
        self.arr().iter().map(Json::num).collect()
    }
}

/// Reads `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> Json {
    let p = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&p).unwrap();
    Json(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{p}: {e}")))
}

// ---- bundled rulesets -----------------------------------------------------------------------

/// Ids of the bundled rulesets (`rulesets/<id>.toml`).
pub const BUNDLED: [&str; 5] = [
    "six-pit-sowing",
    "kalah-6x4",
    "kalah-6x3",
    "oware-abapa",
    "giuthi",
];

/// Path of a bundled ruleset file.
pub fn bundled_path(id: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rulesets/{id}.toml"))
}

/// Every `rulesets/*.toml` file, sorted (at least the five bundled ones).
pub fn bundled_paths() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= BUNDLED.len());
    paths
}

/// Loads a ruleset file, panicking with its rendered diagnostic.
pub fn load_path(path: &std::path::Path) -> Ruleset {
    sowkit::ruleset::load_file(path).unwrap_or_else(|d| panic!("{}", d[0].rendered))
}

/// Every `rulesets/*.toml`, loaded.
pub fn bundled() -> Vec<Ruleset> {
    bundled_paths().iter().map(|p| load_path(p)).collect()
}

/// Kit options for `paper` in English, whatever the ruleset's own language (tests that read
/// the English wording of every bundled ruleset).
#[allow(dead_code)]
pub fn en(paper: sowkit::layout::Paper) -> sowkit::layout::KitOptions {
    sowkit::layout::KitOptions {
        lang: Some("en".into()),
        ..sowkit::layout::KitOptions::new(paper)
    }
}

/// Every `rulesets/*.toml`, loaded and put in English (`Ruleset::in_lang("en")`).
#[allow(dead_code)]
pub fn bundled_en() -> Vec<Ruleset> {
    bundled()
        .iter()
        .map(|r| r.in_lang("en").unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// The English rule sheet of `rs` as text: its paragraphs and bullets, one a line (headings
/// and diagrams left out).
pub fn rules_text(rs: &Ruleset) -> String {
    use sowkit::layout::rules::{blocks, Block};
    let ph = sowkit::layout::phrases::Phrases::load("en").unwrap();
    blocks(rs, &ph)
        .into_iter()
        .filter_map(|b| match b {
            Block::Para(p) | Block::Bullet(p) => Some(p),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text of `html` a reader sees: every tag taken out (each leaves a space, so words on
/// either side of one stay apart).
pub fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
