#!/usr/bin/env bash
# Starts the server for the browser tests on a fresh database with an account per role.
set -euo pipefail
BIN="${LEXPILOT_BIN:?set LEXPILOT_BIN to the lexpilot binary}"
DIR="$(mktemp -d)"
DB="$DIR/e2e.db"
python3 end2end/statute_package.py "$DIR/laws.db"
printf 'expert-pass-1\n' | "$BIN" user add --name 王律师 --role expert --db "$DB"
printf 'expert-pass-2\n' | "$BIN" user add --name 李律师 --role expert --db "$DB"
printf 'admin-pass-1\n' | "$BIN" user add --name admin --role admin --db "$DB"
printf 'research-pass-1\n' | "$BIN" user add --name researcher --role researcher --db "$DB"
exec "$BIN" serve --addr "127.0.0.1:${E2E_PORT:-3100}" --db "$DB" --statutes "$DIR/laws.db"
