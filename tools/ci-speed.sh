#!/usr/bin/env bash
# Speed/size checks of issue 10 that need outside programs (not run by `cargo test`):
# every SVG page of every bundled kit looks like its PDF page (rsvg-convert vs poppler, see
# tools/svg-vs-pdf.sh), and the size targets are printed by tools/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
command -v compare >/dev/null 2>&1 || need+=(imagemagick)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --release -q -- build --out "$out" >/dev/null 2>&1
status=0
for kit in "$out"/*/; do
  echo "== $(basename "$kit"): SVG pages against PDF pages"
  bash tools/svg-vs-pdf.sh "$kit" || status=1
done
exit $status
