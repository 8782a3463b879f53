//! Replays every worked example of a ruleset through the engine and compares each expectation.
