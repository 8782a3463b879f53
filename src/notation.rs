//! Compact text notation for positions and moves, used in worked examples, logs and messages.
//!
//! Position: each side's name, its pits in that side's sowing order, its store in parentheses,
//! sides separated by `/`, then optionally `;` and the player to move:
//! `A 0 4 4 (1) / B 3 3 3 (0); A`.
//! Move: a pit label, followed by `>` (sow along the circuit order, counter-clockwise) or `<`
//! (against it, clockwise) when the ruleset lets the mover choose: `A3`, `A3>`, `B2<`.
