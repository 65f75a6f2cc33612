#!/usr/bin/env bash
# Soak test: builds the release server (unless LEXPILOT_BIN names one), starts
# it on 127.0.0.1 on a fresh database with the demo data, and runs
# scripts/soak.mjs against it: 200 event-stream clients, 50 page readers and a
# stream of uploads for SOAK_SECONDS (default 180). Prints errors (must be 0),
# page latency percentiles and the server's peak memory.
#   scripts/soak.sh                    # 3 minutes
#   SOAK_SECONDS=30 scripts/soak.sh    # shorter
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
if [ -z "${LEXPILOT_BIN:-}" ]; then
  cargo build -p server --release
  LEXPILOT_BIN="$TARGET/release/lexpilot"
fi
PORT="${SOAK_PORT:-3200}"
DIR="$(mktemp -d)"
trap 'kill "${SERVER:-}" 2>/dev/null || true; rm -rf "$DIR"' EXIT

printf 'soak-pass-1\n' | "$LEXPILOT_BIN" user add --name soak --role researcher --db "$DIR/soak.db" >/dev/null
TOKEN="$("$LEXPILOT_BIN" token create --user soak --db "$DIR/soak.db" | tail -n 1)"
RUST_LOG="${RUST_LOG:-warn}" "$LEXPILOT_BIN" serve --addr "127.0.0.1:$PORT" --db "$DIR/soak.db" \
  --data-dir "$DIR/data" >"$DIR/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/api/stats" >/dev/null 2>&1 && break
  sleep 0.2
done

status=0
BASE="http://127.0.0.1:$PORT" TOKEN="$TOKEN" SERVER_PID="$SERVER" node scripts/soak.mjs || status=$?
if grep -qiE "panicked|internal error" "$DIR/server.log"; then
  echo "the server log has errors:"
  grep -iE "panicked|internal error" "$DIR/server.log" | head -20
  status=1
fi
exit "$status"
