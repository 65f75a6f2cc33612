#!/usr/bin/env bash
# Storage benchmark (issue 14, point 5): SQLite against PostgreSQL on this
# machine. A measurement, not a test: it prints figures and fails only when
# setup fails.
#
#   1. a 432-case run upload (POST /api/runs through the whole router,
#      validated, scored and stored, 10 repetitions), 99 more runs, and
#      GET /api/leaderboard over 100 runs: `cargo bench -p server --bench
#      ingest`, once on a SQLite file and once on PostgreSQL;
#   2. requests per second and latency p50/p99 of /leaderboard and a case
#      page under wrk (scripts/lib/wrk.sh), anonymous, on one release server
#      over the demo data: on SQLite, on PostgreSQL, and two servers on
#      PostgreSQL behind nginx with deploy/nginx-lexpilot.conf
#      (scripts/scale-out.sh).
#
#   scripts/bench-storage.sh            uses target/release (scripts/build-site.sh builds it)
#   SKIP_INGEST=1 scripts/bench-storage.sh    pages only
# A private PostgreSQL is started (scripts/pg.sh) and removed at the end.
# Installs wrk and nginx (Debian) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
LEXPILOT_BIN="${LEXPILOT_BIN:-$TARGET/release/lexpilot}"
export LEPTOS_SITE_ROOT="${LEPTOS_SITE_ROOT:-$TARGET/site}"
export DURATION="${DURATION:-10s}"
[ -x "$LEXPILOT_BIN" ] || { echo "setup failed: no release server at $LEXPILOT_BIN (run scripts/build-site.sh)" >&2; exit 2; }
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  echo "installing wrk and nginx-light (Debian)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light >/dev/null
fi
# shellcheck source=lib/wrk.sh
. scripts/lib/wrk.sh

DIR="$(mktemp -d /tmp/lexpilot-bench.XXXXXX)"
chmod 755 "$DIR"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/pg.sh stop "$DIR/pg" >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT
fail() { echo "setup failed: $1" >&2; exit 2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
up() { # up PORT PID: wait until GET /api/stats answers
  for _ in $(seq 1 600); do
    curl -fsS "http://127.0.0.1:$1/api/stats" >/dev/null 2>&1 && return 0
    [ -z "${2:-}" ] || kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

PG="$(scripts/pg.sh start "$DIR/pg" 2>/dev/null)" || fail "PostgreSQL did not start"
PG_VERSION="$(basename "$(dirname "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)")")"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; PostgreSQL $PG_VERSION (private instance, fsync off); $(basename "$LEXPILOT_BIN") $(stat -c %y "$LEXPILOT_BIN" | cut -d. -f1)"

if [ -z "${SKIP_INGEST:-}" ]; then
  echo
  echo "== 1. uploads and the leaderboard API (cargo bench -p server --bench ingest)"
  for backend in sqlite postgres; do
    echo "-- $backend"
    if [ "$backend" = postgres ]; then export LEXPILOT_TEST_PG="$PG"; else unset LEXPILOT_TEST_PG; fi
    cargo bench -q -p server --bench ingest 2>/dev/null | grep -v '^$' || fail "the ingest bench failed on $backend"
  done
  unset LEXPILOT_TEST_PG
fi

echo
echo "== 2. pages: wrk -t2 -c50 -d$DURATION, anonymous, demo data"
printf '%-34s %-14s %10s %8s %8s %8s\n' setup page "req/s" "p50 ms" "p99 ms" non-2xx
row() { # row SETUP BASE: measure /leaderboard and a case page on BASE
  local case_page p
  case_page="$(curl -fsS "$2/cases" | grep -o 'href="/cases/[^"?/]*"' | head -1 | sed 's/href="//; s/"$//')"
  for p in /leaderboard "$case_page"; do
    read -r rps p50 p99 bad <<<"$(measure "$2$p")"
    printf '%-34s %-14s %10s %8s %8s %8s\n' "$1" "${p:0:14}" "$rps" "$p50" "$p99" "$bad"
  done
}
one_server() { # one_server SETUP DB
  local port pid
  "$LEXPILOT_BIN" load-demo --db "$2" >"$DIR/load.log" 2>&1 || fail "load-demo on $1"
  port="$(free_port)"
  RUST_LOG=warn "$LEXPILOT_BIN" serve --addr "127.0.0.1:$port" --db "$2" --data-dir "$DIR/data-$port" \
    >"$DIR/server-$port.log" 2>&1 &
  pid=$!
  PIDS+=("$pid")
  up "$port" "$pid" || { tail -20 "$DIR/server-$port.log" >&2; fail "the server on $1 did not start"; }
  row "$1" "http://127.0.0.1:$port"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
one_server "SQLite, one server" "$DIR/bench.db"
one_server "PostgreSQL, one server" "$(scripts/pg.sh createdb "$DIR/pg" bench_one 2>/dev/null)"

URL="$(scripts/pg.sh createdb "$DIR/pg" bench_two 2>/dev/null)"
"$LEXPILOT_BIN" load-demo --db "$URL" >"$DIR/load.log" 2>&1 || fail "load-demo on PostgreSQL"
LISTEN="$(free_port)"
SCALE_LISTEN="$LISTEN" SCALE_PORTS="$(free_port) $(free_port)" LEXPILOT_BIN="$LEXPILOT_BIN" \
  RUST_LOG=warn scripts/scale-out.sh "$URL" >"$DIR/scale.log" 2>&1 &
PIDS+=($!)
up "$LISTEN" "${PIDS[-1]}" || { cat "$DIR/scale.log" >&2; fail "scale-out did not start"; }
row "PostgreSQL, two servers + nginx" "http://127.0.0.1:$LISTEN"
