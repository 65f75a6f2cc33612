#!/usr/bin/env python3
"""Reference values for `engine::agreement`, computed by scikit-learn and statsmodels.

Writes engine/tests/fixtures/agreement/reference.json, which
engine/tests/agreement_reference.rs reads and checks to 1e-12 (and
server/tests/agreement_cli.rs uses for `lexpilot agreement --json`). The
cases are drawn from a fixed numpy seed, so a second run with the same library
versions writes the same bytes.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install statsmodels scikit-learn numpy
    /tmp/venv/bin/python engine/fixtures-scripts/make_agreement_fixtures.py

Each case is a list of annotations {"item", "annotator", "label"} (string
labels, some items not labelled by every annotator), an optional ordinal order
of the labels, and the report `agreement_report` must give:

- one pair per two annotators, a < b in code-point order (which is UTF-8 byte
  order, the order of Rust's `String`), over the items both labelled: n, the
  share of equal labels, cohen_kappa_score(a, b) and, with an order,
  cohen_kappa_score(a, b, labels=order, weights="quadratic");
- statsmodels' fleiss_kappa(table, method="fleiss") over the items labelled by
  every annotator, the table built by aggregate_raters.

Undefined values (n = 0, NaN from scikit-learn or statsmodels, fewer than two
annotators, no item labelled by all) are stored as null, which is what the
Rust code returns as None.
"""

import json
import math
import platform
import warnings
from pathlib import Path

import numpy as np
import sklearn
import statsmodels
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

SEED = 20260515
OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "agreement" / "reference.json"

VERDICTS = ["supported", "partially_supported", "dismissed"]
EXPERTS = ["专家甲", "专家乙", "专家丙", "专家丁", "DeepSeek-R1"]

rng = np.random.default_rng(SEED)


def number(x):
    """A float, or None for NaN or infinity."""
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def report(annotations, ordinal):
    """The agreement report of `annotations`, as `agreement_report` gives it."""
    by_annotator = {}
    for a in annotations:
        by_annotator.setdefault(a["annotator"], {})[a["item"]] = a["label"]
    names = sorted(by_annotator)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            common = sorted(set(by_annotator[a]) & set(by_annotator[b]))
            ya = [by_annotator[a][item] for item in common]
            yb = [by_annotator[b][item] for item in common]
            n = len(common)
            pair = {"a": a, "b": b, "n": n, "agreement": None, "kappa": None, "qwk": None}
            if n > 0:
                pair["agreement"] = number(np.mean([x == y for x, y in zip(ya, yb)]))
                pair["kappa"] = number(cohen_kappa_score(ya, yb))
                if ordinal is not None:
                    pair["qwk"] = number(cohen_kappa_score(ya, yb, labels=ordinal, weights="quadratic"))
            pairs.append(pair)
    fleiss = None
    if len(names) >= 2:
        items = sorted(set.intersection(*(set(by_annotator[a]) for a in names)))
        if items:
            labels = sorted({a["label"] for a in annotations})
            codes = np.array([[labels.index(by_annotator[a][item]) for a in names] for item in items])
            table, _ = aggregate_raters(codes)
            with np.errstate(divide="ignore", invalid="ignore"):
                fleiss = number(fleiss_kappa(table, method="fleiss"))
    return {"pairs": pairs, "fleiss_kappa": fleiss}


def case(name, annotations, ordinal=None):
    annotations = [{"item": i, "annotator": a, "label": l} for i, a, l in annotations]
    return {"name": name, "ordinal": ordinal, "annotations": annotations, "expected": report(annotations, ordinal)}


def grid(labels_by_annotator, items=None):
    """Annotations from one label list per annotator, None for a missing one."""
    out = []
    for annotator, labels in labels_by_annotator.items():
        for k, label in enumerate(labels):
            if label is not None:
                out.append((items[k] if items else f"item-{k + 1:03}", annotator, label))
    return out


def edge_cases():
    p, s, d = VERDICTS[0], VERDICTS[1], VERDICTS[2]
    return [
        case("perfect agreement, two experts",
             grid({"专家甲": ["predict", "ask", "ask", "predict"], "专家乙": ["predict", "ask", "ask", "predict"]})),
        case("all identical labels: kappa and Fleiss undefined",
             grid({"专家甲": ["pass"] * 5, "专家乙": ["pass"] * 5, "专家丙": ["pass"] * 5})),
        case("all identical verdicts with an order: qwk undefined",
             grid({"专家甲": [s] * 4, "专家乙": [s] * 4}), VERDICTS),
        case("one annotator: no pairs", grid({"专家甲": ["ask", "predict", "ask"]})),
        case("no annotator in common: n = 0", grid({"专家甲": ["ask", None, "ask"], "专家乙": [None, "predict", None]})),
        case("one shared item, same label", grid({"专家甲": ["accepted"], "专家乙": ["accepted"]})),
        case("one shared item, different labels", grid({"专家甲": ["accepted"], "专家乙": ["rejected"]})),
        case("middle verdict absent", grid({"专家甲": [p, d, d, p, d, p], "专家乙": [p, d, p, p, d, d]}), VERDICTS),
        case("total reversal of the extremes", grid({"专家甲": [p, p, d, d], "专家乙": [d, d, p, p]}), VERDICTS),
        case("order label never used by anyone",
             grid({"专家甲": ["low", "high", "high"], "专家乙": ["low", "high", "low"]}), ["low", "mid", "high"]),
        case("three experts with missing annotations",
             grid({"专家甲": ["pass", "fail", "pass", None, "fail", "pass"],
                   "专家乙": ["pass", "fail", None, "fail", "fail", "pass"],
                   "专家丙": [None, "fail", "pass", "fail", "pass", "pass"]})),
        case("no item labelled by all three: Fleiss undefined",
             grid({"专家甲": ["ask", "ask", None], "专家乙": [None, "predict", "ask"], "专家丙": ["ask", None, "ask"]})),
        case("byte order of names: capitals, ASCII, Chinese",
             grid({"b": ["x", "y", "x"], "B": ["x", "x", "x"], "甲": ["y", "y", "x"], "Ä": ["x", "y", "y"]})),
        case("labels as Chinese strings",
             grid({"专家甲": ["通过", "不通过", "通过", "通过"], "专家乙": ["通过", "不通过", "不通过", "通过"]})),
        case("constant annotator against a varied one",
             grid({"专家甲": [p, s, d, s, p], "专家乙": [s, s, s, s, s]}), VERDICTS),
        case("five raters, perfect agreement", grid({e: ["a", "b", "c", "a"] for e in EXPERTS})),
    ]


def random_cases():
    cases = []
    for k in range(26):
        n_annotators = int(rng.integers(2, 6))
        n_items = int(rng.choice([1, 2, 3, 5, 8, 13, 20, 40, 75, 120]))
        ordinal = k % 2 == 0
        labels = VERDICTS if ordinal else ["predict", "ask", "accepted", "rejected", "pass"][: int(rng.integers(2, 6))]
        truth = rng.integers(0, len(labels), n_items)
        accuracy = rng.uniform(0.3, 0.95)
        missing = rng.choice([0.0, 0.1, 0.3])
        annotators = list(rng.permutation(EXPERTS)[:n_annotators])
        annotations = []
        for item in range(n_items):
            for annotator in annotators:
                if rng.random() < missing:
                    continue
                if ordinal:
                    step = rng.choice([-1, 0, 1]) if rng.random() > accuracy else 0
                    code = int(np.clip(truth[item] + step, 0, len(labels) - 1))
                else:
                    code = int(truth[item]) if rng.random() < accuracy else int(rng.integers(0, len(labels)))
                annotations.append((f"LP-{item + 1:04}", str(annotator), labels[code]))
        rng.shuffle(annotations)
        name = f"random {k}: {n_annotators} annotators drawn, {n_items} items, share missing {missing}"
        cases.append(case(name, [tuple(a) for a in annotations], VERDICTS if ordinal else None))
    return cases


def main():
    with warnings.catch_warnings():
        # Undefined kappas are expected and stored as null.
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        cases = edge_cases() + random_cases()
    header = {
        "generator": "engine/fixtures-scripts/make_agreement_fixtures.py",
        "seed": SEED,
        "python_version": platform.python_version(),
        "sklearn_version": sklearn.__version__,
        "statsmodels_version": statsmodels.__version__,
        "numpy_version": np.__version__,
    }
    # One case per line keeps the file readable and its diffs small.
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in header.items()]
    lines.append('  "cases": [')
    lines += [f"    {json.dumps(c, ensure_ascii=False)}" + ("," if i + 1 < len(cases) else "") for i, c in enumerate(cases)]
    lines.append("  ]")
    lines.append("}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {OUT} (scikit-learn {sklearn.__version__}, "
          f"statsmodels {statsmodels.__version__}, numpy {np.__version__})")


if __name__ == "__main__":
    main()
