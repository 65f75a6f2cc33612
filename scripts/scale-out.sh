#!/usr/bin/env bash
# Two `lexpilot serve` processes on one PostgreSQL database behind nginx,
# with deploy/nginx-lexpilot.conf, on this machine: for trying the scale-out
# set-up (docs/deployment.md, "Scale out") and for the page benchmarks on PostgreSQL.
#
#   scripts/scale-out.sh [postgres://URL]
#
# Without a URL a private PostgreSQL is started (scripts/pg.sh) and removed
# at the end. Servers on 127.0.0.1:3001 and :3002, nginx on
# http://127.0.0.1:8080; Ctrl-C (or SIGTERM) stops everything. The first
# server loads the demo. Uses $LEXPILOT_BIN (default target/release/lexpilot,
# built by scripts/start.sh) and $LEPTOS_SITE_ROOT (default target/site).
# The browser tests run it with other ports and arguments:
#   SCALE_LISTEN=8080        nginx's port
#   SCALE_PORTS="3001 3002"  the servers' ports (any number; the example
#                            config's upstream servers are replaced by these)
#   SCALE_SERVE_ARGS=""      more arguments for each `lexpilot serve`
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${LEXPILOT_BIN:-target/release/lexpilot}"
export LEPTOS_SITE_ROOT="${LEPTOS_SITE_ROOT:-target/site}"
[ -x "$BIN" ] || { echo "no $BIN: run scripts/start.sh once (or set LEXPILOT_BIN)" >&2; exit 1; }
if ! command -v nginx >/dev/null; then
  echo "installing nginx-light (Debian)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q nginx-light >&2 || { apt-get update -q >&2 && apt-get install -y -q nginx-light >&2; }
fi

# Whether GET / on 127.0.0.1:$1 answers 200 (bash only: no curl needed).
answers() {
  local status
  status="$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && head -n 1 <&3) 2>/dev/null)" || return 1
  [[ "$status" == *" 200 "* ]]
}

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

LISTEN="${SCALE_LISTEN:-8080}"
read -r -a PORTS <<< "${SCALE_PORTS:-3001 3002}"
read -r -a SERVE_ARGS <<< "${SCALE_SERVE_ARGS:-}"
for port in "${PORTS[@]}"; do
  mkdir -p "$WORK/data-$port"
  "$BIN" serve --addr "127.0.0.1:$port" --behind-proxy --data-dir "$WORK/data-$port" "${SERVE_ARGS[@]}" \
    > "$WORK/server-$port.log" 2>&1 &
  PIDS+=($!)
  # The first server migrates and loads the demo before the second starts.
  for _ in $(seq 1 240); do
    answers "$port" && break
    kill -0 "${PIDS[-1]}" 2>/dev/null || { cat "$WORK/server-$port.log" >&2; exit 1; }
    sleep 0.25
  done
done

# The example config with this run's ports: its upstream servers replaced by
# ours, its listen port by ours; nothing else changes.
mkdir -p "$WORK/nginx"
UPSTREAM=""
for port in "${PORTS[@]}"; do
  UPSTREAM+="    server 127.0.0.1:$port max_fails=3 fail_timeout=5s;\n"
done
sed -e '/^ *server 127\.0\.0\.1:[0-9]* /d' \
  -e "s|^\( *\)least_conn;|&\n${UPSTREAM%\\n}|" \
  -e "s|^\( *\)listen 8080;|\1listen 127.0.0.1:$LISTEN;|" \
  deploy/nginx-lexpilot.conf > "$WORK/nginx/lexpilot.conf"
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
    include $WORK/nginx/lexpilot.conf;
}
CONF
nginx -t -q -c "$WORK/nginx.conf"
nginx -c "$WORK/nginx.conf" -g 'daemon off;' &
PIDS+=($!)
for _ in $(seq 1 50); do
  answers "$LISTEN" && break
  sleep 0.1
done
echo "serving on http://127.0.0.1:$LISTEN (servers on ${PORTS[*]}, database ${URL%%@*}@…)"
wait
