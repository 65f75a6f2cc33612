#!/usr/bin/env bash
# Sets up and runs every test: formatting, clippy, the Rust tests of every
# crate (engine, db, app, server), then the Playwright end-to-end tests in
# Debian's Chromium against a freshly built server on a fresh database.
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

step "cargo test"
cargo test --workspace

step "building the site for the browser tests"
scripts/build-site.sh --dev

step "building the scripted endpoint for the browser jobs"
cargo build -p pipeline --features stub --bin lexpilot-stub

step "playwright (Debian chromium)"
export LEXPILOT_BIN="$TARGET/debug/lexpilot"
export LEXPILOT_STUB_BIN="$TARGET/debug/lexpilot-stub"
export LEPTOS_SITE_ROOT="$TARGET/site"
npx playwright test --config end2end/playwright.config.ts
