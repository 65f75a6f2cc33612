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
exec "$TARGET/release/lexpilot" serve "$@"
