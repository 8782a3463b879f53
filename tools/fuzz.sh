#!/usr/bin/env bash
# Runs one cargo-fuzz target (or `all`) for a set time, starting from the seed corpus and every
# input that ever found a bug (tests/fuzz-regressions/<target>/), and reports execs and findings.
# A finding (crash, timeout, out-of-memory, or an input still slow when run again alone) is
# copied into tests/fuzz-regressions/<target>/ so `cargo test --test suite fuzz_regressions::`
# replays it for ever; the script then exits 1.
# Usage: bash tools/fuzz.sh TARGET SECONDS    TARGET: loader | notation | engine | kit | all
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# FUZZ_TIMEOUT (seconds one input may take, default 10, kit 30) and FUZZ_RSS_MB (memory limit, default
# 2048) and FUZZ_SANITIZER (default none; address for ASan) can be set; on a loaded machine
# run the script under `nice -n 19`. FUZZ_JOBS=N (default 1) runs N fuzzing processes on the
# shared corpus, one per core, each for SECONDS (libFuzzer's -jobs/-workers, each job with a
# one-thread rayon pool so the jobs do not fight over cores); the execs reported are their sum.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: tools/fuzz.sh TARGET SECONDS}
secs=${2:?usage: tools/fuzz.sh TARGET SECONDS}
if [ "$target" = all ]; then
  rc=0
  for t in loader notation engine kit; do bash "$0" "$t" "$secs" || rc=1; done
  exit $rc
fi
root=$PWD
corpus=$root/fuzz/corpus/$target
mkdir -p "$corpus" "$root/fuzz/artifacts/$target"
cp -n "$root/tests/fuzz-regressions/$target/"* "$corpus/" 2>/dev/null || true
log=$root/fuzz/artifacts/$target.log
# Only what this run finds counts: an artifact left from an earlier run (judged and dropped,
# say a timeout that was the machine's load) is not copied in again.
stamp=$(mktemp)
# libFuzzer runs in a folder of this run's own: in -jobs mode each job writes its log,
# fuzz-<job>.log, in the folder it runs in (the parent copies it into its own output when
# the job ends), so two runs in one checkout never share or delete each other's.
run_dir=$(mktemp -d)
trap 'rm -f "$stamp"; rm -rf "$run_dir"' EXIT
# Seconds one input may take before libFuzzer calls it a hang. The kit target lays out a
# whole kit and its host key (and on one input in 8 renders them, twice): an input that ran
# 2.5 s in a release `check` took 18 s under the fuzzer's coverage instrumentation and debug
# assertions on a loaded machine, so it gets 30 s; the others 10 s.
timeout=10
if [ "$target" = kit ]; then timeout=30; fi
# The fuzz workspace builds with the main lock file's versions (fuzz/Cargo.lock is not kept).
cp -n "$root/Cargo.lock" "$root/fuzz/Cargo.lock" 2>/dev/null || true
# Release with debug assertions and overflow checks (-O -a), without AddressSanitizer
# (-s none): sowkit's own code has no `unsafe` beyond libc calls for the kit folder, which the
# fuzz targets do not reach, and ASan made every exec several times slower and the build
# longer. FUZZ_SANITIZER=address brings it back.
# The engine and kit targets build without trace-compares (`--no-trace-compares`, into their
# own target folder so the flags never rebuild each other): their bytes are choices (which
# rule, which move), not tokens to match, and that instrumentation took 50-75 % of every exec
# (perf on the live fuzzers: engine about 120 exec/s on the corpus with it). The loader and
# notation targets match keywords and digits, so they keep it. FUZZ_TRACE_COMPARES=1 brings it
# back for all.
tc=()
tdir=target
case "$target" in
engine | kit)
  if [ "${FUZZ_TRACE_COMPARES:-0}" != 1 ]; then
    tc=(--no-trace-compares)
    tdir=target-no-tc
  fi
  ;;
esac
jobs=${FUZZ_JOBS:-1}
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "tools/fuzz.sh: FUZZ_JOBS is '$jobs'; give a whole number of fuzzing processes, 1 or more" >&2
  exit 2
fi
par=()
if [ "$jobs" -gt 1 ]; then
  par=(-jobs="$jobs" -workers="$jobs")
  export RAYON_NUM_THREADS=1
fi
# Where the kernel groups processes by session for scheduling (autogroup, Linux's default),
# `nice` only ranks the processes of one session against each other: a fuzzer under
# `nice -n 19` still took a whole core from a build started in another shell. So the fuzzer
# runs in a session of its own (setsid) whose group gets this script's niceness; without
# setsid or /proc/self/autogroup it runs as before.
own_session=()
if command -v setsid >/dev/null 2>&1 && [ -w /proc/self/autogroup ]; then
  own_session=(setsid --wait bash -c 'echo "$(nice)" >/proc/self/autogroup 2>/dev/null; exec "$@"' fuzz)
fi
# In a session of its own the fuzzer no longer gets the terminal's Ctrl-C, so an interrupt or
# termination of this script is passed on to the fuzzer's whole process group.
(cd "$run_dir" && exec "${own_session[@]}" cargo +nightly fuzz run --fuzz-dir "$root/fuzz" -O -a -s "${FUZZ_SANITIZER:-none}" "${tc[@]}" --target-dir "$root/fuzz/$tdir" "$target" "$corpus" -- \
  -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-$timeout}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=65536 \
  -print_final_stats=1 "${par[@]}" >"$log" 2>&1) &
fuzz_pid=$!
trap 'kill -TERM -- -"$fuzz_pid" 2>/dev/null || kill -TERM "$fuzz_pid" 2>/dev/null' INT TERM
wait "$fuzz_pid" || true
# A trapped signal ends the first wait early; the fuzzer still finishes writing its log.
wait "$fuzz_pid" 2>/dev/null || true
execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
new=()
# libFuzzer reports an input as a `slow-unit` when one run of it took 10 s or more
# (-report_slow_units), and goes on fuzzing, and as a `timeout-` when one run passed
# -timeout. On a loaded or paused machine (another build, a fuzzer stopped while something
# is timed) a fast input can take that long, so each one is run again alone, by the same
# fuzz binary, and kept as a finding only if it is still slow in processor time (user +
# system, all threads), which the machine's load does not stretch: a rerun's wall clock
# did (this script runs under `nice -n 19`; beside a build at normal priority, two inputs
# of 330 and 637 ms took over 10 s each, and one of 474 ms over 30 s). A rerun that has
# not ended after three times the limit, in wall time, is kept.
bin=$root/fuzz/$tdir/x86_64-unknown-linux-gnu/release/$target
slow_ms=10000
# Milliseconds of processor time of one run of the fuzz binary on file $1, or nothing if it
# did not end within $2 seconds of wall time.
cpu_ms() {
  local t
  t=$({
    TIMEFORMAT='%3U %3S'
    time timeout -s KILL "$2" "$bin" "$1" >/dev/null 2>&1
  } 2>&1) || return 0
  awk '{printf "%d", ($1 + $2) * 1000}' <<<"$t"
}
for f in "$root/fuzz/artifacts/$target"/*; do
  [ -e "$f" ] || continue
  [ "$f" -nt "$stamp" ] || continue
  b=$(basename "$f")
  [ -e "$root/tests/fuzz-regressions/$target/$b" ] && continue
  if [[ "$b" == slow-unit-* || "$b" == timeout-* ]] && [ -x "$bin" ]; then
    limit_ms=$slow_ms
    if [[ "$b" == timeout-* ]]; then limit_ms=$((${FUZZ_TIMEOUT:-$timeout} * 1000)); fi
    ms=$(cpu_ms "$f" $((3 * limit_ms / 1000)))
    if [ -n "$ms" ] && [ "$ms" -lt "$limit_ms" ]; then
      echo "$target: $b took $ms ms of processor time alone (limit $limit_ms; reported under load): not a finding, not kept"
      continue
    fi
  fi
  cp "$f" "$root/tests/fuzz-regressions/$target/$b"
  new+=("$b")
done
rate=$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | awk '{print $2}')
done_runs=$(grep -c 'Done [0-9]* runs' "$log" || true)
echo "$target: ${execs:-0} execs in ${secs} s over $jobs job(s) (${rate:-0} exec/s at the end of one), ${#new[@]} new finding(s) ${new[*]:-}"
if [ ${#new[@]} -gt 0 ] || [ "$done_runs" -lt "$jobs" ]; then
  tail -40 "$log"
  exit 1
fi
