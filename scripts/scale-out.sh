#!/usr/bin/env bash
# Two `lexpilot serve` processes on one PostgreSQL database behind nginx,
# with deploy/nginx-lexpilot.conf, on this machine: for trying the scale-out
# set-up (README, "Scale out") and for the page benchmarks on PostgreSQL.
#
#   scripts/scale-out.sh [postgres://URL]
#
# Without a URL a private PostgreSQL is started (scripts/pg.sh) and removed
# at the end. Servers on 127.0.0.1:3001 and :3002, nginx on
# http://127.0.0.1:8080; Ctrl-C stops everything. The first server loads the
# demo. Uses $LEXPILOT_BIN (default target/release/lexpilot, built by
# scripts/start.sh) and $LEPTOS_SITE_ROOT (default target/site).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${LEXPILOT_BIN:-target/release/lexpilot}"
export LEPTOS_SITE_ROOT="${LEPTOS_SITE_ROOT:-target/site}"
[ -x "$BIN" ] || { echo "no $BIN: run scripts/start.sh once (or set LEXPILOT_BIN)" >&2; exit 1; }
if ! command -v nginx >/dev/null; then
  echo "installing nginx-light" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light >&2
fi

WORK="$(mktemp -d /tmp/lexpilot-scale.XXXXXX)"
chmod 755 "$WORK" # the private PostgreSQL runs as the postgres user
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -z "${OWN_PG:-}" ] || scripts/pg.sh stop "$WORK/pg" || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

URL="${1:-}"
if [ -z "$URL" ]; then
  OWN_PG=1
  URL="$(scripts/pg.sh start "$WORK/pg")"
fi
export LEXPILOT_DB="$URL"

for port in 3001 3002; do
  mkdir -p "$WORK/data-$port"
  "$BIN" serve --addr "127.0.0.1:$port" --behind-proxy --data-dir "$WORK/data-$port" \
    > "$WORK/server-$port.log" 2>&1 &
  PIDS+=($!)
  # The first server migrates and loads the demo before the second starts.
  for _ in $(seq 1 120); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null && break
    sleep 0.5
  done
done

mkdir -p "$WORK/nginx"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log $WORK/nginx/access.log;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    include $PWD/deploy/nginx-lexpilot.conf;
}
CONF
nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
PIDS+=($!)
sleep 0.5
curl -fsS -o /dev/null http://127.0.0.1:8080/ && echo "serving on http://127.0.0.1:8080 (servers :3001 and :3002, database ${URL%%@*}@…)"
wait
