#!/usr/bin/env bash
# CI for issue 8 (robustness): fuzz every target briefly (40 s each) and run the hostile-input
# bench (time and peak memory of check/build at the 1 MiB cap). Installs what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v /usr/bin/time >/dev/null 2>&1 || ! /usr/bin/time -v true >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq time >/dev/null
fi
echo "== hostile-input bench (release)"
bash tools/bench-hostile.sh "$(mktemp -d)"
if ! rustup toolchain list | grep -q nightly; then
  rustup toolchain install nightly --profile minimal
fi
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
echo "== fuzz each target 40 s"
# Exploratory: a finding is printed with libFuzzer's report (and its input in base64) for a
# developer to add to tests/fuzz-regressions/, whose replay in `cargo test` is what gates CI.
if ! bash tools/fuzz.sh all 40; then
  echo "FUZZ FINDING: see the report above; add the input to tests/fuzz-regressions/<target>/"
fi
