#!/usr/bin/env bash
# Starts the server for the browser tests on a fresh database with an account
# per role, the demo data, and one stored Targeted vs Off-target run (Table 4)
# made against the scripted endpoint playwright.config.ts starts beside it.
#
# E2E_DB=postgres://… puts that (empty) database under the servers instead of
# a new SQLite file; with E2E_SCALE=1 two servers run on it behind nginx with
# the example config (scripts/scale-out.sh), nginx on the test port.
set -euo pipefail
BIN="${LEXPILOT_BIN:?set LEXPILOT_BIN to the lexpilot binary}"
PORT="${E2E_PORT:-3100}"
STUB="http://127.0.0.1:$((PORT + 1))/v1"
DIR="$(mktemp -d)"
DB="${E2E_DB:-$DIR/e2e.db}"
python3 end2end/statute_package.py "$DIR/laws.db"
printf 'expert-pass-1\n' | "$BIN" user add --name 王律师 --role expert --db "$DB"
printf 'expert-pass-2\n' | "$BIN" user add --name 李律师 --role expert --db "$DB"
printf 'admin-pass-1\n' | "$BIN" user add --name admin --role admin --db "$DB"
printf 'research-pass-1\n' | "$BIN" user add --name researcher --role researcher --db "$DB"

# The demo data, then the experiment's run stored under the demo dataset;
# the server starts only once it is there (no spec sees Table 4 half-made).
"$BIN" load-demo --db "$DB"
# The stub answers only POSTs: wait for its port to accept connections.
for _ in $(seq 1 300); do (exec 3<>"/dev/tcp/127.0.0.1/$((PORT + 1))") 2>/dev/null && break; sleep 0.1; done
"$BIN" experiment targeted --dataset server/data/demo-synthetic.jsonl --dataset-name lexpilot-demo-synthetic \
  --model 'Sim-Frontier-2 (simulated)' --model-url "$STUB" --family closed \
  --user-model E2E-User --user-url "$STUB" --judge E2E-Judge --judge-url "$STUB" \
  --runs 1 --concurrency 8 --retry-delay 0.01 --out "$DIR/targeted" --db "$DB" > "$DIR/targeted.log"
if [ "${E2E_SCALE:-}" = 1 ]; then
  export LEXPILOT_BIN="$BIN" SCALE_LISTEN="$PORT" SCALE_PORTS="$((PORT + 2)) $((PORT + 3))" \
    SCALE_SERVE_ARGS="--statutes $DIR/laws.db"
  exec scripts/scale-out.sh "$DB"
fi
exec "$BIN" serve --addr "127.0.0.1:$PORT" --db "$DB" --statutes "$DIR/laws.db"
