#!/usr/bin/env bash
# Checks the 100 % print scale of a kit by measuring its calibration bar in raster images.
#
# Usage: tools/check-calibration.sh FILE.pdf|FILE.svg ...
#
# Every page of the layout carries a solid black calibration bar exactly 100.0 × 3.0 mm.
# Each PDF page is rasterised with `pdftoppm -gray -r R` (PGM) at R = 72, 150 and 300 dpi;
# in every image the bar is found as a solid dark block about 3 mm tall whose rows are runs of
# dark pixels at least 50 mm long, and its longest row run must be 100 mm = 100 × R / 25.4 px,
# ± 1.5 px. SVG pages are first drawn to PDF by `rsvg-convert -f pdf` (cairo; the page size
# comes from the SVG's own width/height in mm and its viewBox), then measured the same way; if
# rsvg-convert is missing, SVG files are reported as skipped.
#
# Environment: CAL_DPI (resolutions, default "72 150 300"), CAL_TOL_MM (allowed error of the
# longest row run in mm; default: 1.5 px at each resolution) and CAL_BAND_MM (rasterise only
# the bottom N mm of each page, where the bar is, page by page; default: whole pages), e.g.
#   CAL_DPI=254 CAL_TOL_MM=0.2 CAL_BAND_MM=40 tools/check-calibration.sh kit.pdf
# Every line of output ends "bar N px = L mm"; tools/ci-print.sh reads L from it.
#
# Needs poppler-utils (pdftoppm), python3 (standard library only) and, for SVG, librsvg2-bin.
# Exit status: 0 if every page at every resolution passes, 1 otherwise, 2 on usage errors.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 FILE.pdf|FILE.svg ..." >&2
    exit 2
fi
command -v pdftoppm >/dev/null || { echo "pdftoppm not found (apt install poppler-utils)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

for file in "$@"; do
    if [ ! -f "$file" ]; then
        echo "FAIL $file: no such file"
        status=1
        continue
    fi
    pdf="$file"
    case "$file" in
        *.svg|*.SVG)
            if ! command -v rsvg-convert >/dev/null; then
                echo "SKIP $file: rsvg-convert not found (apt install librsvg2-bin)"
                continue
            fi
            pdf="$work/svg.pdf"
            rsvg-convert -f pdf -o "$pdf" "$file"
            ;;
    esac
    for r in ${CAL_DPI:-72 150 300}; do
        rm -f "$work"/page-*.pgm
        if [ -n "${CAL_BAND_MM:-}" ]; then
            # One page at a time: the band's top is its own page's height less the band.
            pdfinfo -f 1 -l 99999 "$pdf" | awk -v r="$r" -v band="$CAL_BAND_MM" '
                /^Page +[0-9]+ size:/ { w = int($4 * r / 72 + 0.5); h = $6 * r / 72
                    b = int(band * r / 25.4 + 0.5); y = int(h - b); if (y < 0) { y = 0 }
                    print $2, y, w, b }' |
            while read -r n y w b; do
                pdftoppm -gray -r "$r" -f "$n" -l "$n" -singlefile -x 0 -y "$y" -W "$w" -H "$b" \
                    "$pdf" "$work/page-$n"
            done
        else
            pdftoppm -gray -r "$r" "$pdf" "$work/page"
        fi
        if ! python3 - "$file" "$r" "$work" "${CAL_TOL_MM:-}" <<'PY'
import glob, os, re, sys

label, dpi, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
px_per_mm = dpi / 25.4
want = 100.0 * px_per_mm
tolerance = float(sys.argv[4]) * px_per_mm if sys.argv[4] else 1.5
bar_rows = 3.0 * px_per_mm
min_run = int(50.0 * px_per_mm)
dark = bytes(1 if v < 128 else 0 for v in range(256))
long_run = re.compile(b"\x01{%d,}" % min_run)


def read_pgm(path):
    """Binary greyscale PGM (P5, maxval 255): returns (width, height, pixel bytes)."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P5" or int(fields[3]) != 255:
        raise ValueError("not an 8-bit binary PGM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1 : pos + 1 + w * h]


def bars(w, h, pix):
    """Solid dark blocks about 3 mm tall made of long runs: (top row, rows, longest run)."""
    open_blocks, done = [], []
    for y in range(h):
        runs = [(m.start(), m.end()) for m in long_run.finditer(pix[y * w : (y + 1) * w].translate(dark))]
        still = []
        for s, e in runs:
            for b in open_blocks:
                if abs(b["s"] - s) <= 2 and abs(b["e"] - e) <= 2 and b["last"] == y - 1:
                    b["last"], b["rows"], b["len"] = y, b["rows"] + 1, max(b["len"], e - s)
                    b["s"], b["e"] = s, e
                    still.append(b)
                    break
            else:
                still.append({"top": y, "last": y, "rows": 1, "s": s, "e": e, "len": e - s})
        done += [b for b in open_blocks if b not in still]
        open_blocks = still
    done += open_blocks
    return [b for b in done if 0.6 * bar_rows <= b["rows"] <= 1.5 * bar_rows + 2]


def page_number(path):
    return int(re.search(r"-(\d+)\.pgm$", path).group(1))


pages = sorted(glob.glob(os.path.join(work, "page-*.pgm")), key=page_number)
if not pages:
    print(f"FAIL {label} @ {dpi} dpi: no pages rendered")
    sys.exit(1)
ok = True
for path in pages:
    n = page_number(path)
    found = bars(*read_pgm(path))
    if not found:
        print(f"FAIL {label} page {n} @ {dpi} dpi: no 100 x 3 mm calibration bar found")
        ok = False
        continue
    best = min(found, key=lambda b: abs(b["len"] - want))
    err = best["len"] - want
    verdict = "ok  " if abs(err) <= tolerance else "FAIL"
    ok = ok and abs(err) <= tolerance
    print(
        f"{verdict} {label} page {n} @ {dpi} dpi: bar {best['len']} px = "
        f"{best['len'] / px_per_mm:.2f} mm (want {want:.1f} px, {err:+.1f}), "
        f"{best['rows']} rows at y={best['top']}"
    )
sys.exit(0 if ok else 1)
PY
        then
            status=1
        fi
    done
done
exit "$status"
