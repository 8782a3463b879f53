#!/usr/bin/env bash
# The designer's loop in a real browser: `sowkit serve` driven by headless Chromium
# (tools/e2e/play.mjs: plays a bundled game to its end by clicks, checks the score against
# `sowkit replay`, live refresh, a failing save's diagnostic, copy as worked example).
# tools/e2e/board.mjs: the board's layout on a phone (390x844) and a desktop (1280x800):
# opposite pits line up, pits of one size and at least 44 px, badges and direction buttons
# clear of the pits, the legend, no failed request.
# Installs Chromium and playwright-core itself. Screenshots: $SHOTS (default /tmp/sowkit-e2e).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Release: the kit rebuilds on save fast enough to see the page follow (CI built it already).
cargo build --release --quiet
(cd tools/e2e && npm ci --no-audit --no-fund --silent)
# Every bundled ruleset validates against `sowkit schema` in Taplo (what Even Better TOML uses),
# offline: the schema is a local file. A ruleset Taplo rejects fails this step.
schema="$(mktemp -d)/sowkit.schema.json"
target/release/sowkit schema > "$schema"
tools/e2e/node_modules/.bin/taplo lint --schema "file://$schema" rulesets/*.toml examples/rulesets/*.toml
CHROMIUM="$(command -v chromium)" node tools/e2e/play.mjs "$PWD/target/release/sowkit"
CHROMIUM="$(command -v chromium)" node tools/e2e/board.mjs "$PWD/target/release/sowkit"
