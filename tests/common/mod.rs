//! Shared test helpers: rulesets built in code (the TOML loader is tested on its own), a tiny
//! JSON reader for the conformance fixtures, and a xorshift RNG for property tests.
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
        },
        examples: vec![],
        path: "<code>".into(),
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

/// xorshift64* RNG (deterministic, seedable).
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

// ---- JSON ----------------------------------------------------------------------------------

/// A JSON value (enough for the conformance fixtures).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, k: &str) -> &Json {
        match self {
            Json::Obj(v) => v
                .iter()
                .find(|(kk, _)| kk == k)
                .map(|(_, v)| v)
                .unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }
    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            _ => panic!("not an array: {self:?}"),
        }
    }
    pub fn num(&self) -> i64 {
        match self {
            Json::Num(x) => *x as i64,
            _ => panic!("not a number: {self:?}"),
        }
    }
    pub fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    pub fn bool(&self) -> bool {
        match self {
            Json::Bool(b) => *b,
            _ => panic!("not a bool: {self:?}"),
        }
    }
    pub fn is_null(&self) -> bool {
        *self == Json::Null
    }
    pub fn nums(&self) -> Vec<i64> {
        self.arr().iter().map(Json::num).collect()
    }
}

pub fn parse_json(s: &str) -> Json {
    let b = s.as_bytes();
    let mut i = 0;
    let v = value(b, &mut i);
    ws(b, &mut i);
    assert_eq!(i, b.len(), "trailing JSON");
    v
}

fn ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

fn value(b: &[u8], i: &mut usize) -> Json {
    ws(b, i);
    match b[*i] {
        b'{' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                ws(b, i);
                if b[*i] == b'}' {
                    *i += 1;
                    return Json::Obj(v);
                }
                if b[*i] == b',' {
                    *i += 1;
                    continue;
                }
                let Json::Str(k) = value(b, i) else {
                    panic!("key")
                };
                ws(b, i);
                assert_eq!(b[*i], b':');
                *i += 1;
                v.push((k, value(b, i)));
            }
        }
        b'[' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                ws(b, i);
                if b[*i] == b']' {
                    *i += 1;
                    return Json::Arr(v);
                }
                if b[*i] == b',' {
                    *i += 1;
                    continue;
                }
                v.push(value(b, i));
            }
        }
        b'"' => {
            *i += 1;
            let mut s = Vec::new();
            while b[*i] != b'"' {
                if b[*i] == b'\\' {
                    *i += 1;
                    match b[*i] {
                        b'n' => s.push(b'\n'),
                        b'u' => {
                            let hex = std::str::from_utf8(&b[*i + 1..*i + 5]).unwrap();
                            let c = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap();
                            let mut buf = [0; 4];
                            s.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            *i += 4;
                        }
                        c => s.push(c),
                    }
                } else {
                    s.push(b[*i]);
                }
                *i += 1;
            }
            *i += 1;
            Json::Str(String::from_utf8(s).unwrap())
        }
        b't' => {
            *i += 4;
            Json::Bool(true)
        }
        b'f' => {
            *i += 5;
            Json::Bool(false)
        }
        b'n' => {
            *i += 4;
            Json::Null
        }
        _ => {
            let st = *i;
            while *i < b.len()
                && (b[*i] == b'-'
                    || b[*i] == b'.'
                    || b[*i] == b'e'
                    || b[*i] == b'+'
                    || b[*i].is_ascii_digit())
            {
                *i += 1;
            }
            Json::Num(std::str::from_utf8(&b[st..*i]).unwrap().parse().unwrap())
        }
    }
}

pub fn fixture(name: &str) -> Json {
    let p = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    parse_json(&std::fs::read_to_string(p).unwrap())
}
