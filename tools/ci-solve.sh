#!/usr/bin/env bash
# Solver checks that need a release build: the larger Kalah boards of the README table against
# the independent minimax, and the balance report of every bundled ruleset.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== solver against the independent minimax, larger boards (release)"
cargo test --release --test suite solve:: -- --ignored
echo "== balance report of every bundled ruleset (release)"
cargo build --release
for f in rulesets/*.toml; do
  ./target/release/sowkit solve --balance "$f"
done
