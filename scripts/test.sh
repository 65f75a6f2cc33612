#!/usr/bin/env bash
# Sets up and runs every test: formatting, clippy, the Rust tests of every
# crate (engine, db, app, server) on SQLite, the db crate's and the server's
# tests again on a private PostgreSQL (started here, in its own directory
# and port, and removed at the end), then the Playwright end-to-end tests in
# Debian's Chromium against the server `cargo test` built, on a fresh
# database, and the specs that write, sign in, follow live changes or run
# jobs once more against two servers on that PostgreSQL behind nginx with
# the example config (scripts/scale-out.sh; nginx-light is installed if
# missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser

step() { printf '\n==> %s\n' "$*"; }
TARGET="${CARGO_TARGET_DIR:-target}"

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p frontend --target wasm32-unknown-unknown -- -D warnings

step "cargo test (SQLite)"
cargo test --workspace

step "cargo test again on PostgreSQL (the db crate's and the server's tests use it)"
# The same targets as above (`--tests`: no doctests), so nothing is built
# again: `-p db -p server` would unify other features and rebuild the app.
PG_DIR="/tmp/lexpilot-test-pg.$$"
trap 'scripts/pg.sh stop "$PG_DIR" || true' EXIT
PG_URL="$(scripts/pg.sh start "$PG_DIR")"
LEXPILOT_TEST_PG="$PG_URL" cargo test --workspace --tests

step "building the site for the browser tests"
# The wasm and the assets only: the browser tests serve the `lexpilot`
# binary and the scripted endpoint `lexpilot-stub` that `cargo test` built
# (a plain `cargo build` leaves out the test features and builds it again).
scripts/build-site.sh --no-server

step "playwright (Debian chromium)"
export LEXPILOT_BIN="$TARGET/debug/lexpilot"
export LEXPILOT_STUB_BIN="$TARGET/debug/lexpilot-stub"
export LEPTOS_SITE_ROOT="$TARGET/site"
npx playwright test --config end2end/playwright.config.ts

step "playwright again: two servers on PostgreSQL behind nginx (deploy/nginx-lexpilot.conf)"
# The specs whose pages write, sign in, follow live changes or run jobs:
# what two servers on one database could get wrong. The others read what
# one server renders the same way behind nginx (E2E_SCALE_SPECS overrides).
E2E_DB="$(scripts/pg.sh createdb "$PG_DIR" e2e_scale_out)" E2E_SCALE=1 \
  npx playwright test --config end2end/playwright.config.ts ${E2E_SCALE_SPECS:-\
    accounts client_style dlawbench jobs leaderboard plawbench reading review \
    review_rubric security simulator speed upload}
