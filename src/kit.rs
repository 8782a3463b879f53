//! Which sheets a ruleset gets, and writing the outputs atomically.
