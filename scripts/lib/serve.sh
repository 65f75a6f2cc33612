# Sourced by the bench scripts (which set LEXPILOT_BIN and DIR):
# `fail WHAT` stops the setup, showing the server's log;
# `free_port` prints a free local port;
# `serve DB [PORT]` starts `lexpilot serve` on DB in the background, sets
# SERVER (its pid), PORT and BASE, and waits until it answers (60 s at most).
fail() { echo "setup failed: $1" >&2; [ -f "$DIR/server.log" ] && tail -20 "$DIR/server.log" >&2; exit 2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
serve() {
  PORT="${2:-$(free_port)}"
  BASE="http://127.0.0.1:$PORT"
  RUST_LOG="${RUST_LOG:-warn}" "$LEXPILOT_BIN" serve --addr "127.0.0.1:$PORT" --db "$1" --data-dir "$DIR/data" \
    >"$DIR/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 300); do
    curl -fsS "$BASE/api/stats" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER" 2>/dev/null || fail "the server exited at start"
    sleep 0.2
  done
  fail "the server did not answer within 60 s"
}
