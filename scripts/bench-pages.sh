#!/usr/bin/env bash
# Reading pages benchmark (issue 16, point 7): a measurement, not a test.
#
# Starts the release server on a free 127.0.0.1 port over a fresh SQLite
# database with the demo data, then prints:
#   1. per reading page (overview, case list, case page, leaderboard,
#      drill-down, model page), the first load of an anonymous visitor in
#      headless Chromium: bytes and requests, time until the table is
#      visible (end2end/bench/pages.js, median of 5);
#   2. requests per second and latency p50/p99 of /leaderboard and a case
#      page under wrk (2 threads, 50 connections, 10 s, after a 2 s warm-up);
#   3. the same HTML served by a private nginx on this machine (its bytes
#      saved from the server), and our share of nginx's requests per second.
#
#   scripts/bench-pages.sh                 uses target/release (scripts/build-site.sh builds it)
#   LEXPILOT_BIN=... LEPTOS_SITE_ROOT=... scripts/bench-pages.sh
# Installs wrk and nginx (Debian) when missing. Nothing is built. Exit status
# non-zero only when setup fails, never because of the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
LEXPILOT_BIN="${LEXPILOT_BIN:-$TARGET/release/lexpilot}"
export LEPTOS_SITE_ROOT="${LEPTOS_SITE_ROOT:-$TARGET/site}"
DURATION="${DURATION:-10s}"
[ -x "$LEXPILOT_BIN" ] || { echo "setup failed: no release server at $LEXPILOT_BIN (run scripts/build-site.sh)" >&2; exit 2; }
[ -d "$LEPTOS_SITE_ROOT/pkg" ] || { echo "setup failed: no built site at $LEPTOS_SITE_ROOT" >&2; exit 2; }
[ -x node_modules/.bin/playwright ] || scripts/setup.sh --browser
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  echo "installing wrk and nginx-light (Debian)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >/dev/null
fi

DIR="$(mktemp -d)"
chmod 755 "$DIR"
SERVER=""
cleanup() {
  [ -n "$SERVER" ] && { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
  [ -f "$DIR/nginx/nginx.pid" ] && kill "$(cat "$DIR/nginx/nginx.pid")" 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT
# shellcheck source=lib/serve.sh
. scripts/lib/serve.sh

"$LEXPILOT_BIN" load-demo --db "$DIR/bench.db" >"$DIR/setup.log" 2>&1 || fail "load-demo"
serve "$DIR/bench.db"

echo "== 1. first load ($(basename "$LEXPILOT_BIN"), $(nproc) cores)"
node end2end/bench/pages.js "$BASE" || echo "(first-load measurement failed)"

CASE="$(curl -fsS "$BASE/cases" | grep -o 'href="/cases/[^"?/]*"' | head -1 | sed 's/href="//; s/"$//')"
PAGES=(/leaderboard "$CASE")

# nginx serving the very bytes our server sends for each page.
mkdir -p "$DIR/nginx/html/cases"
for p in "${PAGES[@]}"; do curl -fsS "$BASE$p" -o "$DIR/nginx/html$p.html"; done
NGINX_PORT="$(free_port)"
cat >"$DIR/nginx/nginx.conf" <<EOF
worker_processes auto;
pid $DIR/nginx/nginx.pid;
error_log $DIR/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $DIR/nginx; proxy_temp_path $DIR/nginx; fastcgi_temp_path $DIR/nginx;
  uwsgi_temp_path $DIR/nginx; scgi_temp_path $DIR/nginx;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $DIR/nginx/html;
    default_type text/html;
    location / { try_files \$uri.html =404; }
  }
}
EOF
nginx -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" || fail "nginx did not start"
sleep 0.5

# shellcheck source=lib/wrk.sh
. scripts/lib/wrk.sh

echo
echo "== 2-3. requests per second, wrk -t2 -c50 -d$DURATION, anonymous, no compression asked"
printf '%-28s %8s %12s %9s %9s %8s %12s %8s\n' page bytes "ours req/s" "p50 ms" "p99 ms" non-2xx "nginx req/s" "share"
for p in "${PAGES[@]}"; do
  bytes=$(stat -c %s "$DIR/nginx/html$p.html")
  read -r rps p50 p99 bad <<<"$(measure "$BASE$p")"
  read -r nrps _ _ _ <<<"$(measure "http://127.0.0.1:$NGINX_PORT$p")"
  share=$(awk -v a="$rps" -v b="$nrps" 'BEGIN { printf "%.1f%%", (b > 0 ? 100 * a / b : 0) }')
  printf '%-28s %8s %12s %9s %9s %8s %12s %8s\n' "$p" "$bytes" "$rps" "$p50" "$p99" "$bad" "$nrps" "$share"
done
if grep -qi panicked "$DIR/server.log"; then
  echo "the server log has panics:"; grep -i panicked "$DIR/server.log" | head -5
fi
