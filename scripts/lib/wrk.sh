# Sourced by the bench scripts: `measure URL` prints wrk's summary of URL as
# "req/s p50-ms p99-ms non-2xx" (2 threads, 50 connections, $DURATION after a
# 2 s warm-up; no compression asked).
measure() {
  wrk -t2 -c50 -d2s "$1" >/dev/null 2>&1 || true
  wrk -t2 -c50 -d"${DURATION:-10s}" --latency "$1" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    /Non-2xx/ { bad = $NF }
    END { printf "%.0f %.2f %.2f %s\n", rps, p50, p99, (bad == "" ? 0 : bad) }'
}
