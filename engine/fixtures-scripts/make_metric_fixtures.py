#!/usr/bin/env python3
"""Reference values for `engine::metrics`, computed by scikit-learn and numpy.

Writes engine/tests/fixtures/metrics/sklearn_f1_qwk.json, which
engine/tests/metrics_sklearn.rs reads and checks to 1e-12. The cases are drawn
from a fixed numpy seed, so a second run with the same library versions writes
the same bytes.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scikit-learn numpy
    /tmp/venv/bin/python engine/fixtures-scripts/make_metric_fixtures.py

Three groups of cases:

- "classification": label vectors over 0..n_classes (LCA uses n_classes = 2,
  0 = complete, 1 = underspecified) with
  f1_score(average="macro", zero_division=0, labels=range(n_classes)) and
  recall_score(average=None, zero_division=nan, labels=range(n_classes)).
  The labels are passed explicitly: without them scikit-learn averages over
  the labels present only, whereas LexPilot's Macro-F1 always averages both.
- "kappa": verdict codes 0..3 with cohen_kappa_score(labels=[0, 1, 2]),
  unweighted, weights="linear" and weights="quadratic". Passing the labels
  matters: an absent middle category changes the distances of the others.
- "mean_std": numpy mean and std(ddof=1).

NaN (undefined: no true instance of a label, no expected disagreement, a
single value's std) is stored as null, which is what the Rust functions return
as None.
"""

import json
import math
import platform
import warnings
from pathlib import Path

import numpy as np
import sklearn
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score, f1_score, recall_score

SEED = 20260514
OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "metrics" / "sklearn_f1_qwk.json"
LENGTHS = [1, 2, 3, 4, 5, 7, 10, 16, 25, 40, 64, 100, 150, 216, 300]

rng = np.random.default_rng(SEED)


def number(x):
    """A float, or None for NaN."""
    x = float(x)
    return None if math.isnan(x) else x


def noisy(truth, n_labels, accuracy):
    """Predictions equal to the truth with probability `accuracy`, else uniform."""
    keep = rng.random(len(truth)) < accuracy
    return np.where(keep, truth, rng.integers(0, n_labels, len(truth)))


def classification_case(name, truth, pred, n_classes):
    labels = list(range(n_classes))
    truth, pred = np.asarray(truth), np.asarray(pred)
    return {
        "name": name,
        "n_classes": n_classes,
        "truth": truth.tolist(),
        "pred": pred.tolist(),
        "macro_f1": number(f1_score(truth, pred, labels=labels, average="macro", zero_division=0)),
        "recall": [
            number(r)
            for r in recall_score(truth, pred, labels=labels, average=None, zero_division=np.nan)
        ],
    }


def kappa_case(name, truth, pred):
    labels = [0, 1, 2]
    truth, pred = np.asarray(truth), np.asarray(pred)
    return {
        "name": name,
        "truth": truth.tolist(),
        "pred": pred.tolist(),
        "kappa": number(cohen_kappa_score(truth, pred, labels=labels)),
        "linear": number(cohen_kappa_score(truth, pred, labels=labels, weights="linear")),
        "quadratic": number(cohen_kappa_score(truth, pred, labels=labels, weights="quadratic")),
    }


def mean_std_case(name, xs):
    xs = np.asarray(xs, dtype=float)
    std = np.std(xs, ddof=1) if len(xs) > 1 else math.nan
    return {"name": name, "xs": xs.tolist(), "mean": number(np.mean(xs)), "std": number(std)}


def classification_cases():
    cases = [
        classification_case("perfect agreement", [0, 1, 1, 0, 1], [0, 1, 1, 0, 1], 2),
        classification_case("total disagreement", [0, 1, 0, 1, 1], [1, 0, 1, 0, 0], 2),
        classification_case("length 1, right", [0], [0], 2),
        classification_case("length 1, wrong", [1], [0], 2),
        classification_case("class 1 never predicted", [0, 1, 1, 0, 1, 0], [0, 0, 0, 0, 0, 0], 2),
        classification_case("class 0 absent from truth", [1, 1, 1, 1], [0, 1, 1, 0], 2),
        classification_case("all identical", [0, 0, 0], [0, 0, 0], 2),
        classification_case("three classes, middle absent", [0, 2, 2, 0, 2], [0, 2, 0, 0, 2], 3),
    ]
    for i, n in enumerate(LENGTHS):
        share_complete = rng.uniform(0.2, 0.8)
        truth = (rng.random(n) >= share_complete).astype(int)
        pred = noisy(truth, 2, rng.uniform(0.0, 0.9))
        cases.append(classification_case(f"random binary {i} (n = {n})", truth, pred, 2))
    for i, n in enumerate([6, 50, 300]):
        truth = rng.integers(0, 3, n)
        cases.append(classification_case(f"random 3-class {i} (n = {n})", truth, noisy(truth, 3, 0.5), 3))
    return cases


def kappa_cases():
    cases = [
        kappa_case("all identical: undefined", [1, 1, 1, 1], [1, 1, 1, 1]),
        kappa_case("length 1, same: undefined", [2], [2]),
        kappa_case("length 1, off by two", [0], [2]),
        kappa_case("perfect agreement", [0, 1, 2, 2, 1, 0], [0, 1, 2, 2, 1, 0]),
        kappa_case("total reversal", [0, 0, 2, 2], [2, 2, 0, 0]),
        kappa_case("constant prediction", [0, 1, 2, 1, 0], [1, 1, 1, 1, 1]),
        kappa_case("constant truth", [2, 2, 2, 2], [0, 1, 2, 2]),
        kappa_case("middle category absent", [0, 2, 2, 0, 2, 0], [0, 2, 0, 0, 2, 2]),
        kappa_case("category 2 never predicted", [0, 1, 2, 2, 1], [0, 1, 1, 0, 1]),
        kappa_case("off by one everywhere", [0, 1, 2, 1], [1, 2, 1, 0]),
    ]
    verdict_shares = [0.45, 0.35, 0.20]
    for i, n in enumerate(LENGTHS):
        truth = rng.choice(3, size=n, p=verdict_shares)
        # Ordinal noise: a step of -1, 0 or +1 mostly, clipped to the scale.
        step = rng.choice([-2, -1, 0, 1, 2], size=n, p=[0.05, 0.2, 0.5, 0.2, 0.05])
        pred = np.clip(truth + step, 0, 2)
        cases.append(kappa_case(f"random ordinal {i} (n = {n})", truth, pred))
    for i, n in enumerate([5, 60, 300]):
        cases.append(kappa_case(f"random uniform {i} (n = {n})", rng.integers(0, 3, n), rng.integers(0, 3, n)))
    return cases


def mean_std_cases():
    cases = [
        mean_std_case("one run", [0.7065]),
        mean_std_case("two runs", [0.61, 0.64]),
        mean_std_case("constant", [0.1, 0.1, 0.1, 0.1, 0.1]),
        mean_std_case("negative and positive", [-0.2, 0.05, 0.31, -0.07]),
        mean_std_case("large offset", [1000.25, 1000.5, 1000.75]),
    ]
    for i, n in enumerate([3, 5, 5, 10, 50]):
        cases.append(mean_std_case(f"random scores {i} (n = {n})", rng.uniform(0.0, 1.0, n)))
    return cases


def main():
    with warnings.catch_warnings():
        # Undefined recall / kappa are expected and stored as null.
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        groups = {
            "classification": classification_cases(),
            "kappa": kappa_cases(),
            "mean_std": mean_std_cases(),
        }
    header = {
        "generator": "engine/fixtures-scripts/make_metric_fixtures.py",
        "seed": SEED,
        "python_version": platform.python_version(),
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
    }
    # One case per line keeps the file readable and its diffs small.
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in header.items()]
    for g, (group, cases) in enumerate(groups.items()):
        lines.append(f"  {json.dumps(group)}: [")
        lines += [f"    {json.dumps(c)}" + ("," if i + 1 < len(cases) else "") for i, c in enumerate(cases)]
        lines.append("  ]" + ("," if g + 1 < len(groups) else ""))
    lines.append("}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    total = sum(len(c) for c in groups.values())
    print(f"wrote {total} cases to {OUT} (scikit-learn {sklearn.__version__}, numpy {np.__version__})")


if __name__ == "__main__":
    main()
