#!/usr/bin/env bash
# Compares every SVG page of a kit folder with the matching PDF page, pixel by pixel:
# both rasterised at DPI (rsvg-convert for the SVG, poppler's pdftoppm for the PDF), both
# softened by a 1.5-pixel blur (the two rasterisers anti-alias glyph edges differently), then the
# pixels differing by more than 25 % are counted (ImageMagick `compare -metric AE`).
# Usage: tools/svg-vs-pdf.sh KIT_DIR [MAX_PIXELS] [DPI]. Fails if any page differs in more than
# MAX_PIXELS pixels (default 20 at 100 dpi: the two rasterisers agree to 0 on every bundled page; one missing 12 pt letter is about 60).
set -euo pipefail
dir=$1
max=${2:-20}
dpi=${3:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # pdf, prefix of svg names
  local pdf=$1 prefix=$2
  pdftoppm -r "$dpi" -png "$pdf" "$tmp/p"
  local n=0
  for svg in $(ls "$dir" | grep -E "^${prefix}[0-9]{2}-.*\.svg$" | sort); do
    n=$((n + 1))
    local png
    png=$(ls "$tmp"/p-*.png | sort -V | sed -n "${n}p")
    rsvg-convert -d "$dpi" -p "$dpi" -b white "$dir/$svg" -o "$tmp/s.png"
    convert "$png" -blur 0x1.5 "$tmp/pb.png"
    convert "$tmp/s.png" -blur 0x1.5 "$tmp/sb.png"
    local ae
    ae=$(compare -metric AE -fuzz 25% "$tmp/pb.png" "$tmp/sb.png" null: 2>&1 || true)
    local ok=ok
    if ! [[ $ae =~ ^[0-9]+$ ]] || [ "$ae" -gt "$max" ]; then ok=DIFFERS; fail=1; fi
    printf '%-28s %-14s %8s px  %s\n' "$svg" "$(basename "$pdf") p$n" "$ae" "$ok"
  done
  rm -f "$tmp"/p-*.png
}
check "$dir/kit.pdf" ""
check "$dir/host-key.pdf" "key-"
exit $fail
