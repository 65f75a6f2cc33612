#!/usr/bin/env bash
# Review pace benchmark (issue 17, point 6): a measurement, not a test.
#
# Starts the built server on a free 127.0.0.1 port over a fresh SQLite
# database in a temporary directory (demo data, an admin and two experts),
# then runs end2end/bench/review-pace.js against it: the admin creates review
# items of every kind and auto-assigns them; expert 1 at 1280x900 and expert
# 2 at 390x844 each label 50 items of mixed kinds by keyboard alone.
#
# It prints a plain-text table per viewport and kind (seed_dialogue,
# case_check, judge_verdict lca/dcg/ljp, rubric_verdict PLawBench/DLawBench)
# with a total line: items, median and max seconds per item (navigation start
# to the status badge leaving 待标注, scripted: the tool's overhead, not human
# time), median load seconds, the max and median number of viewport-height
# scrolls needed before the object of the decision and the first control are
# both in view (must be 0), page errors, failed items, keys pressed, whether
# the kind is labelled by its shortcut keys ("kbd-only: no (Tab×N)" when the
# digits do nothing and the form is reached with Tab and typed in), and the
# element measured as the object. Then the geometry of the first item of each
# kind, and the page errors. Screenshots go to $SHOTS (default /tmp/pace-shots).
#
# Exit status: non-zero only when setup fails (server, users, item creation),
# never because of the figures.
#
#   scripts/bench-review.sh
#   LEXPILOT_BIN=path/to/lexpilot LEPTOS_SITE_ROOT=path/to/site scripts/bench-review.sh
# Nothing is built: it uses the binary and site already there.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
if [ -z "${LEXPILOT_BIN:-}" ]; then
  if [ -x "$TARGET/release/lexpilot" ]; then LEXPILOT_BIN="$TARGET/release/lexpilot"; else LEXPILOT_BIN="$TARGET/debug/lexpilot"; fi
fi
export LEPTOS_SITE_ROOT="${LEPTOS_SITE_ROOT:-$TARGET/site}"
[ -x "$LEXPILOT_BIN" ] || { echo "setup failed: no server binary at $LEXPILOT_BIN (set LEXPILOT_BIN)" >&2; exit 2; }
[ -d "$LEPTOS_SITE_ROOT/pkg" ] || { echo "setup failed: no built site at $LEPTOS_SITE_ROOT (set LEPTOS_SITE_ROOT)" >&2; exit 2; }

DIR="$(mktemp -d)"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$DIR"
}
trap cleanup EXIT
DB="$DIR/bench.db"

fail() { echo "setup failed: $1" >&2; [ -f "$DIR/server.log" ] && tail -20 "$DIR/server.log" >&2; exit 2; }

"$LEXPILOT_BIN" load-demo --db "$DB" >"$DIR/setup.log" 2>&1 || fail "load-demo (see: $(tail -3 "$DIR/setup.log"))"
printf 'admin-pass-1\n' | "$LEXPILOT_BIN" user add --name admin --role admin --db "$DB" >>"$DIR/setup.log" 2>&1 || fail "user add admin"
printf 'expert-pass-1\n' | "$LEXPILOT_BIN" user add --name 王律师 --role expert --db "$DB" >>"$DIR/setup.log" 2>&1 || fail "user add 王律师"
printf 'expert-pass-2\n' | "$LEXPILOT_BIN" user add --name 李律师 --role expert --db "$DB" >>"$DIR/setup.log" 2>&1 || fail "user add 李律师"

PORT="${BENCH_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}"
BASE="http://127.0.0.1:$PORT"
RUST_LOG="${RUST_LOG:-warn}" "$LEXPILOT_BIN" serve --addr "127.0.0.1:$PORT" --db "$DB" --data-dir "$DIR/data" \
  >"$DIR/server.log" 2>&1 &
SERVER=$!
up=""
for _ in $(seq 1 300); do
  if curl -fsS "$BASE/api/stats" >/dev/null 2>&1; then up=1; break; fi
  kill -0 "$SERVER" 2>/dev/null || fail "the server exited at start"
  sleep 0.2
done
[ -n "$up" ] || fail "the server did not answer $BASE/api/stats within 60 s"

status=0
ADMIN_NAME=admin ADMIN_PASS=admin-pass-1 \
EXPERT1_NAME=王律师 EXPERT1_PASS=expert-pass-1 EXPERT2_NAME=李律师 EXPERT2_PASS=expert-pass-2 \
  node end2end/bench/review-pace.js "$BASE" || status=$?
if grep -qiE "panicked" "$DIR/server.log"; then
  echo "the server log has panics (reported, not a failure of the measurement):"
  grep -iE "panicked" "$DIR/server.log" | head -10
fi
exit "$status"
