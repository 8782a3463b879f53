//! Compact text notation for positions and moves, used in worked examples, logs and messages.
//!
//! Position: each side's name, its pits in that side's sowing order, its store in parentheses,
//! sides separated by `/`, then optionally `;` and the player to move:
//! `A 0 4 4 (1) / B 3 3 3 (0); A`.
//! On a shortened board ([`Rules::shortened`]) a closed pit is written `x` in place of its
//! count: `A 2 5 x (0) / B x 3 4 (0); B`. A position without `x` reads as before.
//! Move: a pit label, followed by `>` (sow along the circuit order, counter-clockwise) or `<`
//! (against it, clockwise) when the ruleset lets the mover choose: `A3`, `A3>`, `B2<`.

use crate::engine::{Dir, Move, Position, Rules};
use crate::ruleset::Direction;

/// A notation string that could not be read; `message` says what was expected and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// What was expected, e.g. "expected 6 pit counts for side B, found 5".
    pub message: String,
}

impl std::fmt::Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NotationError {}

fn err<T>(message: String) -> Result<T, NotationError> {
    Err(NotationError { message })
}

/// Shortens user text quoted in a message (at most 40 characters).
fn quote(s: &str) -> String {
    let mut q: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        q.push('…');
    }
    format!("'{q}'")
}

/// Reads a seed count: ASCII digits only, at most 65 535.
fn count(tok: &str, what: &str) -> Result<u16, NotationError> {
    if tok.is_empty() || !tok.bytes().all(|c| c.is_ascii_digit()) {
        return err(format!(
            "expected a seed count for {what}, found {}",
            quote(tok)
        ));
    }
    match tok.parse::<u16>() {
        Ok(v) => Ok(v),
        Err(_) => err(format!(
            "seed count {} for {what} is too large (at most 65535)",
            quote(tok)
        )),
    }
}

/// Reads one side: `NAME c1 … cn (store)`; returns the pit counts, the store count and the
/// holes written `x` (closed, count 0).
fn parse_side(
    rules: &Rules,
    side: u8,
    text: &str,
) -> Result<(Vec<u16>, u16, Vec<u8>), NotationError> {
    let name = rules.player_name(side);
    let t = text.trim();
    let Some(rest) = t.strip_prefix(name) else {
        let found = t.split_whitespace().next().unwrap_or("");
        return err(format!(
            "expected player name '{name}' at the start of side {}, found {}",
            side + 1,
            quote(found)
        ));
    };
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace) || rest.starts_with('(')) {
        let found = t.split_whitespace().next().unwrap_or("");
        return err(format!(
            "expected player name '{name}' followed by a space, found {}",
            quote(found)
        ));
    }
    let Some(open) = rest.find('(') else {
        return err(format!(
            "expected {name}'s store count in parentheses, e.g. '(0)', after the pit counts"
        ));
    };
    let Some(close_rel) = rest[open..].find(')') else {
        return err(format!("expected ')' after {name}'s store count"));
    };
    let close = open + close_rel;
    let after = rest[close + 1..].trim();
    if !after.is_empty() {
        return err(format!(
            "expected nothing after {name}'s store count, found {}",
            quote(after)
        ));
    }
    let n = rules.pits_per_side();
    let toks: Vec<&str> = rest[..open].split_whitespace().collect();
    if toks.len() != n {
        return err(format!(
            "expected {n} pit counts for side {name}, found {}",
            toks.len()
        ));
    }
    let mut pits = Vec::with_capacity(n);
    let mut closed = Vec::new();
    for (i, tok) in toks.iter().enumerate() {
        let hole = (side as usize * n + i) as u8;
        if tok.eq_ignore_ascii_case("x") {
            closed.push(hole);
            pits.push(0);
        } else {
            pits.push(count(tok, rules.label(hole))?);
        }
    }
    let store = count(rest[open + 1..close].trim(), rules.label(rules.store(side)))?;
    Ok((pits, store, closed))
}

/// The pits a position text marks closed (`x`), in hole order, read against `rules`' names and
/// row length (its own closed pits do not matter). Use it to build the shortened board with
/// [`Rules::shortened`] before [`parse_position`]. Errors as [`parse_position`].
pub fn closed_pits(rules: &Rules, s: &str) -> Result<Vec<u8>, NotationError> {
    parse_any(rules, s).map(|(_, _, closed)| closed)
}

/// The number of pit counts each side of position `s` has, when both sides have the same
/// number and it is not `rules`' `pits_per_side`: a position written for a board of another
/// size (a ruleset whose `pits_per_side` was changed after its worked examples were written).
/// `None` when the sides have the board's number of counts, differ from each other, or
/// cannot be told apart (no `/`, a player name missing, no store in parentheses).
pub fn other_pits_per_side(rules: &Rules, s: &str) -> Option<usize> {
    let board = s.split_once(';').map_or(s, |(b, _)| b);
    let mut sides = board.split('/');
    let (Some(a), Some(b), None) = (sides.next(), sides.next(), sides.next()) else {
        return None;
    };
    let written = |side: u8, text: &str| -> Option<usize> {
        let rest = text.trim().strip_prefix(rules.player_name(side))?;
        let open = rest.find('(')?;
        let toks: Vec<&str> = rest[..open].split_whitespace().collect();
        toks.iter()
            .all(|t| t.eq_ignore_ascii_case("x") || t.bytes().all(|c| c.is_ascii_digit()))
            .then_some(toks.len())
    };
    let (na, nb) = (written(0, a)?, written(1, b)?);
    (na == nb && na > 0 && na != rules.pits_per_side()).then_some(na)
}

/// Reads a position, `A 0 4 4 (1) / B 3 3 3 (0); A`: side 0 first, then side 1, each with its
/// player name, its `n` pit counts in sowing order and its store count in parentheses; then
/// optionally `;` and the player to move. Whitespace is free; counts are whole numbers up to
/// 65 535 with at most 65 535 seeds in all; names must match the ruleset exactly.
///
/// A closed pit is written `x`, exactly where `rules` has one ([`Rules::shortened`]).
///
/// Returns the position and whether the player to move was given (if not, side 0 moves).
pub fn parse_position(rules: &Rules, s: &str) -> Result<(Position, bool), NotationError> {
    let (pos, given, closed) = parse_any(rules, s)?;
    if closed != rules.closed_pits() {
        let names = |v: &[u8]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|&h| rules.label(h).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        return err(format!(
            "the position marks {} closed (x), but on this board the closed pits are {}",
            names(&closed),
            names(&rules.closed_pits())
        ));
    }
    Ok((pos, given))
}

/// Reads a position with any pits closed: the position, whether the mover was given, and the
/// holes written `x`.
fn parse_any(rules: &Rules, s: &str) -> Result<(Position, bool, Vec<u8>), NotationError> {
    let (board, mover) = match s.split_once(';') {
        Some((b, m)) => (b, Some(m.trim())),
        None => (s, None),
    };
    let parts: Vec<&str> = board.split('/').collect();
    if parts.len() != 2 {
        return err(format!(
            "expected two sides separated by '/', found {} part{}",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" }
        ));
    }
    let (p0, s0, mut closed) = parse_side(rules, 0, parts[0])?;
    let (p1, s1, c1) = parse_side(rules, 1, parts[1])?;
    closed.extend(c1);
    let mut holes = p0;
    holes.extend(p1);
    holes.push(s0);
    holes.push(s1);
    let total: u32 = holes.iter().map(|&x| x as u32).sum();
    if total > u16::MAX as u32 {
        return err(format!("{total} seeds in all; at most 65535 are allowed"));
    }
    let (to_move, given) = match mover {
        None => (0, false),
        Some(m) => {
            if m == rules.player_name(0) {
                (0, true)
            } else if m == rules.player_name(1) {
                (1, true)
            } else {
                return err(format!(
                    "expected the player to move ('{}' or '{}') after ';', found {}",
                    rules.player_name(0),
                    rules.player_name(1),
                    quote(m)
                ));
            }
        }
    };
    Ok((Position { holes, to_move }, given, closed))
}

/// Writes the board part of a position: `A 0 4 4 (1) / B 3 3 3 (0)`, closed pits as `x`.
pub fn format_board(rules: &Rules, p: &Position) -> String {
    let n = rules.pits_per_side();
    let get = |h: usize| p.holes.get(h).copied().unwrap_or(0);
    let mut out = String::new();
    for side in 0..2u8 {
        if side == 1 {
            out.push_str(" / ");
        }
        out.push_str(rules.player_name(side));
        for i in 0..n {
            out.push(' ');
            let h = side as usize * n + i;
            if rules.is_closed(h as u8) {
                out.push('x');
            } else {
                out.push_str(&get(h).to_string());
            }
        }
        out.push_str(&format!(" ({})", get(2 * n + side as usize)));
    }
    out
}

/// Writes a position with the player to move: `A 0 4 4 (1) / B 3 3 3 (0); A`.
pub fn format_position(rules: &Rules, p: &Position) -> String {
    format!(
        "{}; {}",
        format_board(rules, p),
        rules.player_name(p.to_move.min(1))
    )
}

/// Reads a move: a pit label, then `>` (counter-clockwise, [`Dir::Ccw`]) or `<` (clockwise,
/// [`Dir::Cw`]). The suffix is required when the ruleset's direction is `Either` and
/// forbidden otherwise; fixed games get the ruleset's direction.
pub fn parse_move(rules: &Rules, s: &str) -> Result<Move, NotationError> {
    let t = s.trim();
    let (label, suffix) = if let Some(l) = t.strip_suffix('>') {
        (l.trim_end(), Some(Dir::Ccw))
    } else if let Some(l) = t.strip_suffix('<') {
        (l.trim_end(), Some(Dir::Cw))
    } else {
        (t, None)
    };
    if let Some(l) = label.strip_suffix(['<', '>']) {
        return err(format!(
            "expected one direction mark ('>' or '<') after {}, found two in {}",
            quote(l.trim_end()),
            quote(t)
        ));
    }
    let n = rules.pits_per_side();
    let pit = match rules.hole_by_label(label) {
        Some(h) if (h as usize) < 2 * n => h,
        Some(_) => {
            return err(format!(
                "expected a pit label, found the store {}: a move starts from a pit",
                quote(label)
            ))
        }
        None => {
            return err(format!(
                "expected a pit label ({}…{}, {}…{}), found {}",
                rules.label(0),
                rules.label((n - 1) as u8),
                rules.label(n as u8),
                rules.label((2 * n - 1) as u8),
                quote(label)
            ))
        }
    };
    let dir = match (rules.ruleset().sowing.direction, suffix) {
        (Direction::Either, Some(d)) => d,
        (Direction::Either, None) => {
            return err(format!(
                "expected '>' (counter-clockwise) or '<' (clockwise) after {label}: the mover chooses the direction in this game"
            ))
        }
        (_, Some(_)) => {
            return err(format!(
                "expected no direction after {label}: this game sows in one direction only"
            ))
        }
        (Direction::Counterclockwise, None) => Dir::Ccw,
        (Direction::Clockwise, None) => Dir::Cw,
    };
    Ok(Move { pit, dir })
}

/// Writes a move: the pit label, with `>`/`<` when the ruleset lets the mover choose.
pub fn format_move(rules: &Rules, m: Move) -> String {
    let mut s = rules.label(m.pit).to_string();
    if rules.ruleset().sowing.direction == Direction::Either {
        s.push(match m.dir {
            Dir::Ccw => '>',
            Dir::Cw => '<',
        });
    }
    s
}
