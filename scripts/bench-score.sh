#!/usr/bin/env bash
# Scoring benchmark (issue 16, point 6): a measurement, not a test.
#
# Writes a synthetic 432-case dataset and 30 run files (6 models x 5 runs,
# every task and LJP setup; engine/examples/synthetic_files.rs) to a temporary
# directory, then:
#   1. checks that `lexpilot score --json` and scripts/score_sklearn.py
#      (scikit-learn, in a venv under ~/.cache/lexpilot/venv) agree on every
#      figure within 1e-9, and stops if they do not;
#   2. times both over the same files with hyperfine (median of RUNS runs
#      after a warm-up), and lexpilot with one thread (RAYON_NUM_THREADS=1);
#   3. prints the wall times and the ratio, and what the Python script spends
#      starting up (interpreter and imports, no file read).
#
#   scripts/bench-score.sh               builds release lexpilot into $CARGO_TARGET_DIR (or target)
#   MODELS=10 RUNS_PER_MODEL=10 RUNS=20 scripts/bench-score.sh
# Installs hyperfine (Debian) and scikit-learn + numpy (PyPI, in the venv)
# when missing. Exit status non-zero when setup fails or the figures differ,
# never because of the timings.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
MODELS="${MODELS:-6}"
RUNS_PER_MODEL="${RUNS_PER_MODEL:-5}"
RUNS="${RUNS:-15}"
VENV="${LEXPILOT_VENV:-$HOME/.cache/lexpilot/venv}"

cargo build --release -q -p server --bin lexpilot
cargo build --release -q -p engine --example synthetic_files
LEXPILOT="$TARGET/release/lexpilot"

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sklearn, numpy' 2>/dev/null; then
  echo "installing scikit-learn and numpy into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q scikit-learn numpy
fi
PYTHON="$VENV/bin/python"
if ! command -v hyperfine >/dev/null; then
  echo "installing hyperfine (Debian)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine >/dev/null
fi

DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
"$TARGET/release/examples/synthetic_files" "$DIR" "$MODELS" "$RUNS_PER_MODEL" 12 >&2
RUN_FILES=("$DIR"/run-*.jsonl)
SCORE="$LEXPILOT score --dataset $DIR/dataset.jsonl --json ${RUN_FILES[*]}"
REFERENCE="$PYTHON scripts/score_sklearn.py $DIR/dataset.jsonl ${RUN_FILES[*]}"

echo "== agreement: ${#RUN_FILES[@]} runs x $(wc -l < "$DIR/dataset.jsonl") cases"
$SCORE > "$DIR/lexpilot.json"
"$PYTHON" scripts/score_sklearn.py --check "$DIR/lexpilot.json" "$DIR/dataset.jsonl" "${RUN_FILES[@]}"

echo "== timings (hyperfine, $RUNS runs each, $(nproc) cores)"
hyperfine -N --warmup 2 --runs "$RUNS" --style basic --export-json "$DIR/times.json" \
  -n lexpilot "$SCORE" \
  -n lexpilot-1-thread "env RAYON_NUM_THREADS=1 $SCORE" \
  -n sklearn "$REFERENCE" \
  -n python-start "$PYTHON -c 'import json, numpy, sklearn.metrics'" >&2

"$PYTHON" - "$DIR/times.json" <<'PY'
import json, sys
times = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
ms = lambda s: f"{s * 1000:9.1f} ms"
lex, one, ref, start = (times[k] for k in ["lexpilot", "lexpilot-1-thread", "sklearn", "python-start"])
print(f"lexpilot score --json   {ms(lex)}   (median wall time)")
print(f"  with 1 thread         {ms(one)}")
print(f"scikit-learn script     {ms(ref)}   of which {ms(start).strip()} interpreter and imports")
print(f"ratio                   {ref / lex:9.1f} x   (1 thread: {ref / one:.1f} x; "
      f"sklearn without its start-up: {(ref - start) / lex:.1f} x)")
PY
