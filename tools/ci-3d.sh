#!/usr/bin/env bash
# 3D kit check: builds the Giuthi and Kalah 6x4 kits with --3d (default 200 x 200 mm bed and a
# 150 x 150 mm one) and runs every STL through admesh (Debian), which must find nothing to fix:
# no disconnected facets, no degenerate facets, no edges fixed, no facets removed, added or
# reversed, no backwards edges, no normals fixed, a positive volume; board parts and joiners in
# one piece; every part inside the bed.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v admesh >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq admesh >/dev/null
fi
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # file bed_w bed_h
  local f=$1 bw=$2 bh=$3 out
  out=$(admesh "$f" 2>&1)
  # Here-strings, not pipes into `grep -m1`/`head`: an early-closing reader could kill the
  # writer with SIGPIPE, which `pipefail` turns into exit 141.
  val() { grep "$1" <<<"$out" | sed -n '1s/.*: *//p' | awk '{print $1}'; }
  for key in "Total disconnected facets" "Degenerate facets" "Edges fixed" "Facets removed" \
             "Facets added" "Facets reversed" "Backwards edges" "Normals fixed"; do
    v=$(val "$key")
    if [ "$v" != "0" ]; then echo "FAIL $f: $key = $v"; fail=1; fi
  done
  vol=$(grep "Volume" <<<"$out" | sed -n '1s/.*Volume *: *//p')
  parts=$(sed -n 's/.*Number of parts *: *\([0-9]*\).*/\1/p' <<<"$out" | sed -n 1p)
  facets=$(val "Number of facets")
  if ! awk -v v="$vol" 'BEGIN{exit !(v > 0)}'; then echo "FAIL $f: volume $vol"; fail=1; fi
  case "$(basename "$f")" in
    board-*|joiner.stl|seed.stl|plug.stl)
      if [ "$parts" != "1" ]; then echo "FAIL $f: $parts parts, want 1"; fail=1; fi ;;
  esac
  read -r maxx maxy < <(awk '/^Min X/{mx=$NF; nx=$4} /^Min Y/{my=$NF; ny=$4} END{sub(",","",nx); sub(",","",ny); print mx-nx, my-ny}' <<<"$out")
  if ! awk -v x="$maxx" -v y="$maxy" -v w="$bw" -v h="$bh" 'BEGIN{exit !((x<=w+1e-3 && y<=h+1e-3) || (x<=h+1e-3 && y<=w+1e-3))}'; then
    echo "FAIL $f: $maxx x $maxy mm does not fit the ${bw}x${bh} bed"; fail=1
  fi
  echo "ok $f: $facets facets, $parts part(s), volume $vol mm3, $maxx x $maxy mm"
}
for bed in 200x200 150x150; do
  bw=${bed%x*}; bh=${bed#*x}
  ./target/release/sowkit build --3d --bed "$bed" -o "$tmp/$bed" rulesets/giuthi.toml rulesets/kalah-6x4.toml >/dev/null 2>&1 \
    || { echo "FAIL: sowkit build --3d --bed $bed"; exit 1; }
  for f in "$tmp/$bed"/*/*.stl; do check "$f" "$bw" "$bh"; done
done
exit $fail
