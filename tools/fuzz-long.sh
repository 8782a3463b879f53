#!/usr/bin/env bash
# A long fuzzing campaign: every target for HOURS (default 1) each, one after the other.
# Findings land in tests/fuzz-regressions/ (see tools/fuzz.sh); commit them with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
hours=${1:-1}
bash tools/fuzz.sh all $((hours * 3600))
