#!/usr/bin/env bash
# The job runner at the bound (issue 40, point 7): a measurement, not a test.
#
# Writes 280 PLawBench-shaped items (the official sizes per task, two items
# repeating another's context and question as two pairs of the release do;
# pipeline/examples/bench_runner.rs), then for each concurrency starts
# `lexpilot-stub` with a fixed latency (it never sets TCP_NODELAY), runs one
# PLawBench repetition on it (model and judge on that one endpoint, each
# role with CONCURRENCY slots, a fresh call cache), stops the stub and prints:
#
#   calls    model + judge calls the stub answered
#   bound    the busiest role's calls x latency / concurrency
#   floor    the least any runner can take: the model's calls in waves of
#            `concurrency` (ceil(calls / c) x latency) and the last item's
#            judge call after its answer (+ latency)
#   wall     the runner's wall time, from start to the run file written
#   ratio    wall / bound, and wall / floor
#
#   scripts/bench-runner.sh                     concurrency 8, 32 and 64, 200 ms
#   LATENCY_MS=100 PORT=3435 scripts/bench-runner.sh 16 128
#
# Builds the stub and the runner in release into $CARGO_TARGET_DIR (or
# target). evalscope is not run here (see the note of issue 40).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
LATENCY_MS="${LATENCY_MS:-200}"
PORT="${PORT:-3434}"
CONCURRENCIES=("$@")
[ ${#CONCURRENCIES[@]} -gt 0 ] || CONCURRENCIES=(8 32 64)

cargo build --release -q -p pipeline --features stub --bin lexpilot-stub --example bench_runner
# An endpoint without TCP_NODELAY must cost no slot time (prints its figure).
cargo test --release -q -p pipeline --features stub --test nagle -- --ignored --nocapture 2>&1 \
  | grep -E "model calls|panicked|lost" || true
STUB="$TARGET/release/lexpilot-stub"
RUNNER="$TARGET/release/examples/bench_runner"

WORK="$(mktemp -d)"
STUB_PID=""
cleanup() {
  if [ -n "$STUB_PID" ]; then kill "$STUB_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

"$RUNNER" items "$WORK/items.jsonl"
echo "runner bench: $(wc -l < "$WORK/items.jsonl") PLawBench items, ${LATENCY_MS} ms per call, model and judge on one stub"
printf '%11s %6s %6s %6s %9s %9s %9s %7s %7s\n' \
  concurrency model judge stub "bound(s)" "floor(s)" "wall(s)" ratio "/floor"
for c in "${CONCURRENCIES[@]}"; do
  "$STUB" --addr "127.0.0.1:$PORT" --latency-ms "$LATENCY_MS" --plawbench "$WORK/items.jsonl" \
    > "$WORK/stub.log" 2>&1 &
  STUB_PID=$!
  for _ in $(seq 50); do
    grep -q serving "$WORK/stub.log" 2>/dev/null && break
    sleep 0.1
  done
  rm -rf "$WORK/out"
  line="$("$RUNNER" run --url "http://127.0.0.1:$PORT/v1" --items "$WORK/items.jsonl" \
    --concurrency "$c" --out "$WORK/out")"
  kill -INT "$STUB_PID"
  wait "$STUB_PID" || true
  STUB_PID=""
  answered="$(sed -n 's/.*answered \([0-9]*\) requests.*/\1/p' "$WORK/stub.log")"
  field() { sed -n "s/.*\\b$1=\\([0-9.]*\\).*/\\1/p" <<< "$line"; }
  model="$(field model_calls)"
  judge="$(field judge_calls)"
  wall="$(field wall)"
  python3 - "$c" "$model" "$judge" "$answered" "$wall" "$LATENCY_MS" <<'EOF'
import math, sys
c, model, judge, answered = (int(x) for x in sys.argv[1:5])
wall, latency = float(sys.argv[5]), float(sys.argv[6]) / 1000
bound = max(model, judge) * latency / c
floor = math.ceil(model / c) * latency + latency
print(f"{c:>11} {model:>6} {judge:>6} {answered:>6} {bound:>9.3f} {floor:>9.3f} "
      f"{wall:>9.3f} {wall / bound:>7.3f} {wall / floor:>7.3f}")
EOF
done
