#!/usr/bin/env bash
# Benchmark of `sowkit watch` (release build): time from saving a bundled ruleset to the
# rewritten kit on disk (watch prints its "rebuilt" line after the last file is renamed into
# place), over several saves, and the CPU time watch spent per save (/proc, 10 ms ticks): on
# a busy machine the wall time mostly waits for a core. Target: under 100 ms. Usage: bash tools/bench-watch.sh [ID] [SAVES]
set -euo pipefail
cd "$(dirname "$0")/.."
id="${1:-kalah-6x4}"
saves="${2:-10}"
cargo build --release --quiet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "rulesets/$id.toml" "$work/"
python3 - "$PWD/target/release/sowkit" "$work" "$id" "$saves" <<'PY'
import subprocess, sys, time, re, statistics, os
exe, work, rid, saves = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
path = os.path.join(work, rid + ".toml")
src = open(path, encoding="utf-8").read()
p = subprocess.Popen([exe, "watch", rid + ".toml", "-o", "out"], cwd=work,
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
TICK = os.sysconf("SC_CLK_TCK")
def cpu_ms():
    f = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) * 1000 / TICK
def rebuilt():
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("watch stopped")
        if line.startswith("rebuilt"):
            return line.strip()
try:
    rebuilt()
    times, inner, cpu = [], [], []
    for i in range(saves):
        time.sleep(0.3)
        # A new name each time: every sheet changes, the worst case for writing.
        text = re.sub(r'^name = .*$', f'name = "Bench {i}"', src, count=1, flags=re.M)
        c0 = cpu_ms()
        t0 = time.perf_counter()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        line = rebuilt()
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append(cpu_ms() - c0)
        inner.append(int(re.search(r"in (\d+) ms", line).group(1)))
    print(f"{rid}: save -> rewritten kit over {saves} saves: median {statistics.median(times):.0f} ms, "
          f"max {max(times):.0f} ms (of which rebuild+write median {statistics.median(inner)} ms, "
          f"the rest is the 25 ms debounce and the file event); CPU time per save median "
          f"{statistics.median(cpu):.0f} ms (wall time above includes waiting for a core: load {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores)")
finally:
    p.kill()
PY
