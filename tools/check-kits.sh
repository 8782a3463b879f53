#!/usr/bin/env bash
# Checks built kits with the standard tools a printer's user has (poppler, qpdf, librsvg):
# every PDF (kit.pdf and host-key.pdf) passes qpdf --check, embeds and subsets every font, has exact A4 or Letter pages,
# and every PDF page and SVG page carries a calibration bar that measures 100 mm when
# rasterised at 72, 150 and 300 dpi (tools/check-calibration.sh).
#
# Usage: tools/check-kits.sh OUT_DIR   (the folder given to `sowkit build -o`)
# Exit status 0 when every check passes, 1 otherwise.
set -euo pipefail
out=${1:-out}
here=$(cd "$(dirname "$0")" && pwd)
status=0
shopt -s nullglob
pdfs=("$out"/*/kit.pdf "$out"/*/host-key.pdf)
if [ ${#pdfs[@]} -eq 0 ]; then
  echo "FAIL no kits under $out" >&2
  exit 1
fi
for pdf in "${pdfs[@]}"; do
  kit=$(dirname "$pdf")
  if ! qpdf --check "$pdf" >/dev/null 2>&1; then
    echo "FAIL $pdf: qpdf --check reports errors"; status=1
  fi
  # pdffonts: header lines, then one line per font; columns emb/sub are "yes".
  if pdffonts "$pdf" | tail -n +3 | awk '{ if ($(NF-4) != "yes" || $(NF-3) != "yes") bad=1 } END { exit bad }'; then
    echo "ok   $pdf: every font embedded and subset"
  else
    echo "FAIL $pdf: a font is not embedded or not subset"; pdffonts "$pdf"; status=1
  fi
  # Page sizes: A4 595.276 x 841.89 pt or Letter 612 x 792, either orientation.
  if pdfinfo -f 1 -l 999 "$pdf" | awk '/^Page +[0-9]+ size:/ {
        w=$4; h=$6; n++
        a4 = ((w>595.2 && w<595.3 && h>841.8 && h<841.95) || (h>595.2 && h<595.3 && w>841.8 && w<841.95))
        lt = ((w==612 && h==792) || (w==792 && h==612))
        if (!a4 && !lt) { print "  page " $2 " is " w " x " h " pt"; bad=1 }
      } END { exit (bad || n==0) }'; then
    echo "ok   $pdf: page sizes exact"
  else
    echo "FAIL $pdf: page size not exact A4/Letter"; status=1
  fi
  # Each kit's SVG pages (kit and host key) are measured once, with its kit.pdf.
  svgs=()
  case "$pdf" in */kit.pdf) svgs=("$kit"/*.svg) ;; esac
  if ! bash "$here/check-calibration.sh" "$pdf" "${svgs[@]}"; then
    status=1
  fi
done
exit $status
