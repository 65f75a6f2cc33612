#!/usr/bin/env bash
# Zip-bomb measurement (issue 39, N3): a measurement, not a test.
#
# Starts a `lexpilot serve` on a free 127.0.0.1 port over a fresh SQLite
# database with the demo data (its PLawBench dataset current), signs in a
# researcher by API token, then sends BOMBS (default 20) zip bombs to
# `POST /api/evalscope` at once: each about half a MiB, one
# `plawbench_case_analysis.jsonl` member of SIZE_MIB (default 512) MiB of
# zeros, the archive's sizes honest. Prints each answer's status and message,
# then the server's resident memory before and its peak (VmHWM of
# /proc/<pid>/status) after, and the growth. A second round sends the same
# number of bombs whose member declares 1 KiB and decompresses to SIZE_MIB.
#
#   scripts/bench-zipbomb.sh                      uses $CARGO_TARGET_DIR/release/lexpilot (else debug)
#   LEXPILOT_BIN=path/to/lexpilot BOMBS=20 SIZE_MIB=512 scripts/bench-zipbomb.sh
# Nothing is built. Exit status non-zero only when setup fails, never
# because of the figures.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
if [ -z "${LEXPILOT_BIN:-}" ]; then
  LEXPILOT_BIN="$TARGET/release/lexpilot"
  [ -x "$LEXPILOT_BIN" ] || LEXPILOT_BIN="$TARGET/debug/lexpilot"
fi
BOMBS="${BOMBS:-20}"
SIZE_MIB="${SIZE_MIB:-512}"
[ -x "$LEXPILOT_BIN" ] || { echo "setup failed: no server binary at $LEXPILOT_BIN" >&2; exit 2; }

DIR="$(mktemp -d)"
SERVER=""
cleanup() {
  [ -n "$SERVER" ] && { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
  rm -rf "$DIR"
}
trap cleanup EXIT
# shellcheck source=lib/serve.sh
. scripts/lib/serve.sh

"$LEXPILOT_BIN" load-demo --db "$DIR/bench.db" >"$DIR/setup.log" 2>&1 || fail "load-demo"
echo a-long-password | "$LEXPILOT_BIN" user add --name bomber --role researcher --db "$DIR/bench.db" \
  >>"$DIR/setup.log" 2>&1 || fail "user add"
TOKEN="$("$LEXPILOT_BIN" token create --user bomber --db "$DIR/bench.db" 2>>"$DIR/setup.log" | tail -1)"
serve "$DIR/bench.db" "${PORT:-}"

python3 - "$BASE" "$TOKEN" "$SERVER" "$BOMBS" "$SIZE_MIB" <<'PY'
import io, struct, sys, threading, time, urllib.request, urllib.error, zipfile

base, token, pid, bombs, size_mib = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
MEMBER = "outputs/20260101_000000/reviews/bomb/plawbench_case_analysis.jsonl"

def bomb(lie):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        info = zipfile.ZipInfo(MEMBER)
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w") as f:
            block = b"\0" * (1 << 20)
            for _ in range(size_mib):
                f.write(block)
    data = bytearray(buf.getvalue())
    if lie:  # every size field of the member says 1 KiB
        for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
            at = data.find(sig)
            while at >= 0:
                data[at + off:at + off + 4] = struct.pack("<I", 1024)
                at = data.find(sig, at + 4)
        at = data.find(b"PK\x07\x08")
        if at >= 0:
            data[at + 12:at + 16] = struct.pack("<I", 1024)
    return bytes(data)

def status(field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) // 1024
    return 0

def send(body, out, i):
    req = urllib.request.Request(base + "/api/evalscope?check=true", data=body, method="POST",
                                 headers={"Authorization": "Bearer " + token, "Content-Type": "application/zip"})
    started = time.time()
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            out[i] = (r.status, r.read()[:160].decode("utf-8", "replace"), time.time() - started)
    except urllib.error.HTTPError as e:
        out[i] = (e.code, e.read()[:160].decode("utf-8", "replace") + f" (Retry-After {e.headers.get('Retry-After')})", time.time() - started)
    except Exception as e:
        out[i] = (0, repr(e)[:160], time.time() - started)

print(f"server pid {pid}; {bombs} bombs at once, each one member of {size_mib} MiB of zeros")
for lie in (False, True):
    body = bomb(lie)
    before, hwm_before = status("VmRSS"), status("VmHWM")
    out = [None] * bombs
    threads = [threading.Thread(target=send, args=(body, out, i)) for i in range(bombs)]
    for t in threads: t.start()
    for t in threads: t.join()
    after, hwm = status("VmRSS"), status("VmHWM")
    kind = "declared size 1 KiB (a lie)" if lie else "declared size honest"
    print(f"\n== {kind}: archive {len(body) / 1024:.0f} KiB")
    answers = {}
    for code, message, seconds in out:
        answers.setdefault((code, message), []).append(seconds)
    for (code, message), times in sorted(answers.items()):
        print(f"  {len(times)} x {code} in {min(times):.1f}-{max(times):.1f} s: {message}")
    print(f"  server RSS before {before} MiB, peak (VmHWM) {hwm} MiB (peak before {hwm_before} MiB), "
          f"after {after} MiB; peak growth +{hwm - before} MiB")
PY
alive=yes; kill -0 "$SERVER" 2>/dev/null || alive=no
echo "server still running: $alive"
