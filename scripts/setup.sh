#!/usr/bin/env bash
# Installs what building (and, with --browser, end-to-end testing) needs.
# Idempotent: each step is skipped when its tool is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen pin in Cargo.toml

step() { printf '\n==> %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/@playwright/test ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "installing npm packages (binaryen's wasm-opt, Playwright) from package-lock.json"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

if [ "${1:-}" = "--browser" ]; then
  if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
    step "installing Debian's chromium and CJK fonts"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  fi
fi
