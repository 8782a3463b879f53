#!/usr/bin/env bash
# Proof with real programs that every bundled kit prints at 100% on every paper.
#
# For every bundled ruleset on every paper in $PAPERS (default "a4 letter a3 tabloid"; a paper
# that `sowkit build --paper X` rejects is skipped, and the script says so):
#   - kit.pdf and host-key.pdf: `qpdf --check`; `pdffonts` every font embedded and subset;
#     `pdfinfo` every page exactly the paper's size, portrait or landscape (within 0.01 pt);
#   - the 100 mm calibration bar, rasterised at 254 dpi (10 px/mm) by pdftoppm (only the bottom
#     40 mm of each page, where the bar is, to keep the run short), measures
#     100.0 ± 0.2 mm on every page of kit.pdf and host-key.pdf, and on every SVG page drawn by
#     `rsvg-convert` (tools/check-calibration.sh does the measuring);
#   - headless Chromium prints index.html with no headers/footers: as many pages as kit.pdf,
#     each the size of the kit.pdf page of the same number (within 0.5 mm), and the bar on
#     every page 100.0 ± 0.5 mm.
# At the end it prints the shortest and longest bar each program gave, and the time taken.
#
# Installs what it needs from Debian (poppler-utils, qpdf, librsvg2-bin, chromium) when missing.
# Usage: tools/ci-print.sh            (from the repository root; builds the release binary)
# Exit status 0 when every check passes, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)/tools
PAPERS=${PAPERS:-"a4 letter a3 tabloid"}
JOBS=${JOBS:-2}

# One kit folder built on one paper (`--kit DIR PAPER`): every check above. Called through
# xargs; prints "ok"/"FAIL" lines and "BAR <program> <mm>" lines for the summary.
if [ "${1:-}" = "--kit" ]; then
    kit=$2
    name=${3:-}
    status=0
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    # Page size of page N of a PDF in pt: "w h".
    sizes() { pdfinfo -f 1 -l 9999 "$1" | awk '/^Page +[0-9]+ size:/ { print $4, $6 }'; }
    # The paper's portrait size in mm: the named papers' standard sizes, else the manifest's.
    case "$name" in
        a4) paper="210 297" ;;
        letter) paper="215.9 279.4" ;;
        a3) paper="297 420" ;;
        tabloid) paper="279.4 431.8" ;;
        legal) paper="215.9 355.6" ;;
        *) paper=$(sed -n 's/^paper: .*(\([0-9.]*\) x \([0-9.]*\) mm.*/\1 \2/p' "$kit/manifest.txt" | head -1) ;;
    esac
    if [ -z "$paper" ]; then
        echo "FAIL $kit: manifest.txt names no paper size"; exit 1
    fi
    for pdf in "$kit/kit.pdf" "$kit/host-key.pdf"; do
        if qpdf --check "$pdf" >/dev/null 2>&1; then
            echo "ok   $pdf: qpdf --check"
        else
            echo "FAIL $pdf: qpdf --check reports errors"; status=1
        fi
        if pdffonts "$pdf" | tail -n +3 | awk '{ n++; if ($(NF-4) != "yes" || $(NF-3) != "yes") bad=1 } END { exit (bad || n==0) }'; then
            echo "ok   $pdf: every font embedded and subset"
        else
            echo "FAIL $pdf: a font is not embedded or not subset"; pdffonts "$pdf"; status=1
        fi
        # Paper in mm -> pt; every page either orientation, within 0.01 pt.
        if sizes "$pdf" | awk -v pw="${paper% *}" -v ph="${paper#* }" '
            function near(a, b) { return (a - b < 0.01 && b - a < 0.01) }
            { w = $1; h = $2; n++; W = pw * 72 / 25.4; H = ph * 72 / 25.4
              if (!((near(w, W) && near(h, H)) || (near(w, H) && near(h, W)))) {
                  print "  page " n " is " w " x " h " pt, want " W " x " H; bad = 1 } }
            END { exit (bad || n == 0) }'; then
            echo "ok   $pdf: every page exactly $paper mm"
        else
            echo "FAIL $pdf: page size is not the paper's"; status=1
        fi
        out=$(CAL_DPI=254 CAL_TOL_MM=0.2 CAL_BAND_MM=40 bash "$here/check-calibration.sh" "$pdf") || status=1
        grep -v '^ok' <<<"$out" || true
        sed -n 's/.* = \([0-9.]*\) mm .*/BAR pdftoppm \1/p' <<<"$out"
    done
    for svg in "$kit"/*.svg; do
        out=$(CAL_DPI=254 CAL_TOL_MM=0.2 CAL_BAND_MM=40 bash "$here/check-calibration.sh" "$svg") || status=1
        grep -v '^ok' <<<"$out" || true
        sed -n 's/.* = \([0-9.]*\) mm .*/BAR rsvg-convert \1/p' <<<"$out"
    done
    # Chromium prints the preview.
    printed="$work/printed.pdf"
    chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --user-data-dir="$work/profile" \
        --no-pdf-header-footer --print-to-pdf="$printed" "file://$(cd "$kit" && pwd)/index.html" \
        >"$work/chromium.log" 2>&1 || true
    if [ ! -s "$printed" ]; then
        echo "FAIL $kit/index.html: chromium printed nothing"; cat "$work/chromium.log"; exit 1
    fi
    if paste <(sizes "$kit/kit.pdf") <(sizes "$printed") | awk '
        function off(a, b) { d = (a - b) * 25.4 / 72; return (d > 0.5 || d < -0.5) }
        { n++; if (NF != 4 || off($1, $3) || off($2, $4)) { print "  page " n ": kit.pdf " $1 " x " $2 " pt, printed " $3 " x " $4; bad = 1 } }
        END { exit (bad || n == 0) }'; then
        echo "ok   $kit/index.html: chromium prints $(sizes "$printed" | wc -l) pages, each the size of kit.pdf's"
    else
        echo "FAIL $kit/index.html: chromium's pages differ from kit.pdf's ($(sizes "$printed" | wc -l) against $(sizes "$kit/kit.pdf" | wc -l))"
        status=1
    fi
    out=$(CAL_DPI=254 CAL_TOL_MM=0.5 CAL_BAND_MM=40 bash "$here/check-calibration.sh" "$printed" | sed "s#$printed#$kit/index.html (chromium)#") || status=1
    grep -v '^ok' <<<"$out" || true
    sed -n 's/.* = \([0-9.]*\) mm .*/BAR chromium \1/p' <<<"$out"
    exit $status
fi

start=$(date +%s)
need=()
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi

cargo build --release --quiet
bin=$here/../target/release/sowkit
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
kits=()
for paper in $PAPERS; do
    set +e
    msg=$("$bin" build -o "$out/$paper" --paper "$paper" 2>&1)
    rc=$?
    set -e
    if [ $rc -eq 2 ]; then
        echo "SKIP paper $paper: sowkit build rejects it ($(grep -m1 -i error <<<"$msg"))"
        continue
    elif [ $rc -ne 0 ]; then
        echo "FAIL paper $paper: sowkit build failed"; echo "$msg"; exit 1
    fi
    for k in "$out/$paper"/*/; do kits+=("${k%/} $paper"); done
done
if [ ${#kits[@]} -eq 0 ]; then
    echo "FAIL no kits built"; exit 1
fi

set +e
printf '%s\n' "${kits[@]}" | xargs -P "$JOBS" -L1 bash "$here/ci-print.sh" --kit >"$out/log" 2>&1
rc=$?
set -e
grep -v '^BAR ' "$out/log" | sed "s#$out/##g"
echo "== ${#kits[@]} kits on papers: $PAPERS"
awk '/^BAR / { n[$2]++; if (!($2 in lo) || $3 < lo[$2]) lo[$2] = $3; if (!($2 in hi) || $3 > hi[$2]) hi[$2] = $3 }
     END { for (p in n) printf "bar by %-12s %4d pages: min %.2f mm, max %.2f mm\n", p, n[p], lo[p], hi[p] }' "$out/log" | sort
echo "== took $(($(date +%s) - start)) s"
if [ $rc -ne 0 ] || grep -q '^FAIL' "$out/log"; then
    echo "FAIL: see the lines above"; exit 1
fi
echo "ok: every check passed"
