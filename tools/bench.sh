#!/usr/bin/env bash
# Issue 10's figures against their targets, from a release build of this checkout:
#   kit build time (whole process, median of RUNS), SVG page and PDF sizes of every bundled kit,
#   engine speed (cargo bench --bench engine, with the C-loop ratio when ../shared and gcc
#   exist), and a scaling table (time and peak memory for boards of 3–16 pits a side and for
#   1, 10 and 100 rulesets). A clean release build is timed only with BENCH_CLEAN_BUILD=1 (it
#   takes minutes and, on a shared machine, CPU from everyone else).
# Every figure with a target ends in OK or ABOVE/BELOW TARGET, and a summary at the end lists
# them. Wall-clock figures depend on the machine's load (printed first); the instruction count of
# one kit build (callgrind, when valgrind exists) and the sizes do not.
# Usage: tools/bench.sh [RUNS]   (default 11). State the machine's load when you quote figures.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
cargo build --release -q
bin=$PWD/target/release/sowkit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log
# Everything up to the summary; its output is kept in $log for the summary.
main() {
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores, $(date -u +%FT%TZ)"

# Median wall time (ms) of RUNS runs of a command: from just before the shell starts it to
# just after it ends. The clock is bash's $EPOCHREALTIME (bash 5, microseconds), read in the
# shell itself: a `date` program started around each run counted its own start and exit too
# (1 to 3 ms of a Kalah 6x4 build's figure on this project's machines). `date` remains for an
# older bash.
median_ms() {
  local ts=() a b
  for _ in $(seq "$runs"); do
    if [ -n "${EPOCHREALTIME:-}" ]; then
      a=${EPOCHREALTIME/[.,]/}
      "$@" >/dev/null 2>&1
      b=${EPOCHREALTIME/[.,]/}
    else
      a=$(($(date +%s%N) / 1000))
      "$@" >/dev/null 2>&1
      b=$(($(date +%s%N) / 1000))
    fi
    ts+=($((b - a)))
  done
  printf '%s\n' "${ts[@]}" | sort -n | awk '{v[NR]=$1} END {printf "%.1f", v[int((NR+1)/2)]/1000}'
}
# Peak resident memory (KB) of one run, or "?" without GNU time.
peak_kb() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'
  else
    echo "?"
  fi
}
verdict() { # value target (lower is better)
  awk -v v="$1" -v t="$2" 'BEGIN {print (v <= t) ? "OK" : "ABOVE TARGET"}'
}

echo
echo "== kit build, whole process, release (median of $runs)"
# Into the temporary folder (a disk here: each file is flushed, so the disk's latency counts),
# and, where there is one, into a file system in memory (/dev/shm, tmpfs), which times the
# program alone.
one=$(median_ms "$bin" build rulesets/kalah-6x4.toml --out "$tmp/one")
all=$(median_ms "$bin" build rulesets --out "$tmp/all")
printf '%-44s %9s ms  target <= 15 ms  %s\n' "kalah-6x4 (one kit, all its files) on $(df --output=fstype "$tmp" 2>/dev/null | tail -1)" "$one" "$(verdict "$one" 15)"
printf '%-44s %9s ms  target <= 60 ms  %s\n' "all five bundled kits" "$all" "$(verdict "$all" 60)"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  shm=$(mktemp -d /dev/shm/sowkit-bench.XXXX)
  one=$(median_ms "$bin" build rulesets/kalah-6x4.toml --out "$shm/one")
  all=$(median_ms "$bin" build rulesets --out "$shm/all")
  rm -rf "$shm"
  printf '%-44s %9s ms  target <= 15 ms  %s\n' "kalah-6x4 (one kit, all its files) on tmpfs" "$one" "$(verdict "$one" 15)"
  printf '%-44s %9s ms  target <= 60 ms  %s\n' "all five bundled kits on tmpfs" "$all" "$(verdict "$all" 60)"
fi
# The kit's own share: the same kit in process, without the host key's solver lines.
nos=$(cargo bench -q --bench build -- --without-solver 2>/dev/null | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
printf '%-44s %9s ms  (no target; the solver is not counted)\n' "kalah-6x4 without the solver (in process)" "${nos:-?}"
# Load-independent: instructions of the whole kalah-6x4 build (all threads), under callgrind.
if command -v valgrind >/dev/null; then
  # Millions of instructions of `sowkit build <what>` (all threads), under callgrind.
  mins() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg-$2.out" "$bin" build "$1" \
      --out "$tmp/cg-$2" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' | head -1 |
      awk '{printf "%.0f", $1 / 1e6}'
  }
  printf '%-44s %9s M instructions (no target; load-independent measure of the 15 ms kit)\n' \
    "kalah-6x4 (one kit, callgrind)" "$(mins rulesets/kalah-6x4.toml one)"
  printf '%-44s %9s M instructions (no target; load-independent measure of the 60 ms build)\n' \
    "all five bundled kits (callgrind)" "$(mins rulesets all)"
else
  echo "kalah-6x4 instructions: valgrind not found; skipped"
fi

echo
echo "== output sizes (KB = 1000 bytes)"
printf '%-16s %14s %12s %10s %14s\n' kit "largest SVG" "all SVGs" kit.pdf host-key.pdf
for k in "$tmp"/all/*/; do
  id=$(basename "$k")
  big=$(find "$k" -name '*.svg' -printf '%s\n' | sort -n | tail -1)
  sum=$(find "$k" -name '*.svg' -printf '%s\n' | awk '{s+=$1} END {print s}')
  kp=$(stat -c %s "$k/kit.pdf")
  hp=$(stat -c %s "$k/host-key.pdf")
  printf '%-16s %11.1f KB %9.1f KB %7.1f KB %11.1f KB   %s / %s / %s\n' "$id" \
    "$(echo "$big/1000" | bc -l)" "$(echo "$sum/1000" | bc -l)" \
    "$(echo "$kp/1000" | bc -l)" "$(echo "$hp/1000" | bc -l)" \
    "SVG page <= 40 KB $(verdict "$big" 40000)" "kit.pdf <= 60 KB $(verdict "$kp" 60000)" \
    "host key <= 30 KB $(verdict "$hp" 30000)"
done
# The PDF targets hold only for clean files with embedded, subset fonts.
if command -v qpdf >/dev/null && command -v pdffonts >/dev/null; then
  bad=0
  for f in "$tmp"/all/*/*.pdf; do
    qpdf --check "$f" >/dev/null 2>&1 || { echo "qpdf --check fails: $f"; bad=1; }
    pdffonts "$f" | tail -n +3 | awk '{ if ($(NF-4) != "yes" || $(NF-3) != "yes") b=1 } END { exit b }' ||
      { echo "font not embedded and subset: $f"; bad=1; }
  done
  echo "every PDF qpdf-clean with embedded subset fonts: $([ $bad = 0 ] && echo OK || echo 'NOT MET (target)')"
else
  echo "PDF checks: qpdf or pdffonts missing; skipped"
fi

echo
echo "== engine (cargo bench --bench engine)"
cargo bench -q --bench engine 2>/dev/null | grep -v '^$' || echo "engine bench failed"

echo
echo "== scaling: one kit per board size (Kalah rules, 4 seeds a pit, no worked examples)"
printf '%-28s %10s %12s\n' "input" "time (ms)" "peak (KB)"
for n in 3 6 9 12 16; do
  awk -v n="$n" '/^\[\[example\]\]/ {exit} /^pit_labels/ {next}
    /^players/ {print "players = [\"S\", \"N\"]"; next}
    /^pits_per_side/ {print "pits_per_side = " n; next}
    /^id = / {print "id = \"kalah-" n "x4\""; next} {print}' rulesets/kalah-6x4.toml >"$tmp/k$n.toml"
  t=$(median_ms "$bin" build "$tmp/k$n.toml" --out "$tmp/s$n")
  m=$(peak_kb "$bin" build "$tmp/k$n.toml" --out "$tmp/s$n")
  printf '%-28s %10s %12s\n' "$n pits a side" "$t" "$m"
done
for count in 1 10 100; do
  mkdir -p "$tmp/r$count"
  for i in $(seq "$count"); do
    sed "s/^id = \"kalah-6x4\"/id = \"kalah-6x4-$i\"/" rulesets/kalah-6x4.toml >"$tmp/r$count/k$i.toml"
  done
  t=$(runs=3 median_ms "$bin" build "$tmp/r$count" --out "$tmp/o$count")
  m=$(peak_kb "$bin" build "$tmp/r$count" --out "$tmp/o$count")
  printf '%-28s %10s %12s\n' "$count rulesets (kalah-6x4)" "$t" "$m"
done

echo
echo "== build of the project"
if [ "${BENCH_CLEAN_BUILD:-0}" = 1 ]; then
  dir=$(mktemp -d /tmp/sowkit-clean-XXXX)
  a=$(date +%s)
  CARGO_TARGET_DIR=$dir cargo build --release -q
  b=$(date +%s)
  t=$((b - a))
  echo "clean release build: $t s (target <= 180 s on 2 cores) $(verdict "$t" 180)"
  a=$(date +%s)
  CARGO_TARGET_DIR=$dir cargo test -q >/dev/null 2>&1 || echo "(cargo test failed)"
  b=$(date +%s)
  t=$((b - a))
  echo "cargo test from clean: $t s (target <= 240 s on 2 cores) $(verdict "$t" 240)"
  rm -rf "$dir"
else
  echo "clean release build and cargo test from clean: not timed (BENCH_CLEAN_BUILD=1 times both in a separate target dir; targets <= 180 s, <= 240 s)"
fi
}
main 2>&1 | tee "$log"

echo
echo "== summary: figures with a target"
grep -wE 'OK|ABOVE TARGET|BELOW TARGET|NOT MET' "$log" | sed 's/^/  /' || true
met=$(grep -owE 'OK' "$log" | wc -l)
notmet=$(grep -oE 'ABOVE TARGET|BELOW TARGET|NOT MET' "$log" | wc -l)
echo "  targets met: $met, not met: $notmet"
