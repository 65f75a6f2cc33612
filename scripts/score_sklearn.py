#!/usr/bin/env python3
"""The scores of docs/formats.md §4-§5 with scikit-learn, as a researcher
would compute them from the same files: the reference `lexpilot score` is
timed against (scripts/bench-score.sh) and checked against.

    score_sklearn.py DATASET RUN...                 print the figures as JSON
    score_sklearn.py --check SCORE.json DATASET RUN...
        also compare them with `lexpilot score --json` output (within 1e-9);
        exit 1 naming every figure that differs

Per run and per set of cases (overall, each class): LCA macro-F1
(f1_score, average="macro", labels=both consultations, zero_division=0),
Acc_C and Acc_U (recall_score of each consultation), DCG accuracy
(accuracy_score of "at least one request accepted"), LJP QWK per setup
(cohen_kappa_score, weights="quadratic", labels=range(3), pooled over
claims). Unavailable items are left out. Runs of one model form an entry
(the synthetic files vary nothing else): mean and sample std (ddof=1) over
the runs with a value, gain and relative degradation from the mean QWKs.
The files are assumed valid (`lexpilot validate` checks them).
"""

import json
import math
import sys
import warnings

import numpy as np
from sklearn.metrics import accuracy_score, cohen_kappa_score, f1_score, recall_score

CLASSES = ["family", "real_rights", "tort", "service_contract", "finance_contract", "misc"]
VERDICT = {"supported": 0, "partially_supported": 1, "dismissed": 2}
SETUPS = ["direct", "interaction", "gold"]
CONSULTATIONS = ["complete", "underspecified"]
TOLERANCE = 1e-9


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def run_scores(items, cases):
    """{(task, metric, class or "overall"): value or None} of one run."""
    sets = {"overall": lambda c: True}
    sets.update({k: (lambda c, k=k: cases[c]["class"] == k) for k in CLASSES})
    lca = [i for i in items if i["kind"] == "lca" and i.get("label") is not None]
    dcg = [i for i in items if i["kind"] == "dcg" and not i.get("unavailable")]
    ljp = {s: [i for i in items if i["kind"] == "ljp" and i.get("setup") == s] for s in SETUPS}
    has = {
        "lca": any(i["kind"] == "lca" for i in items),
        "dcg": any(i["kind"] == "dcg" for i in items),
    }
    out = {}
    for name, member in sets.items():
        if has["lca"]:
            chosen = [i for i in lca if member(i["case_id"])]
            truth = [i["consultation"] for i in chosen]
            pred = ["complete" if i["label"] == "predict" else "underspecified" for i in chosen]
            out[("lca", "macro_f1", name)] = (
                f1_score(truth, pred, average="macro", labels=CONSULTATIONS, zero_division=0)
                if chosen
                else None
            )
            for label, metric in zip(CONSULTATIONS, ["acc_complete", "acc_underspecified"]):
                out[("lca", metric, name)] = (
                    recall_score(truth, pred, labels=[label], average=None)[0]
                    if label in truth
                    else None
                )
        if has["dcg"]:
            hits = [
                any(r.get("accepted") for r in i.get("requests", []))
                for i in dcg
                if member(i["case_id"])
            ]
            out[("dcg", "accuracy", name)] = accuracy_score([True] * len(hits), hits) if hits else None
        for setup, setup_items in ljp.items():
            if not setup_items:
                continue
            truth, pred = [], []
            for i in setup_items:
                if i.get("predictions") is None or not member(i["case_id"]):
                    continue
                truth += [VERDICT[c["verdict"]] for c in cases[i["case_id"]]["claims"]]
                pred += [VERDICT[p] for p in i["predictions"]]
            qwk = None
            if truth:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    qwk = cohen_kappa_score(truth, pred, weights="quadratic", labels=[0, 1, 2])
                qwk = None if math.isnan(qwk) else float(qwk)
            out[("ljp", setup, name)] = qwk
    return out


def mean_std(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    std = float(np.std(values, ddof=1)) if len(values) > 1 else None
    return {"mean": float(np.mean(values)), "std": std}


def score(dataset_path, run_paths):
    """{model: {(task, metric, set): {"mean", "std"} or None, ("ljp", "gain", set): …}}."""
    cases = {c["case_id"]: c for c in read_jsonl(dataset_path)}
    per_model = {}
    for path in run_paths:
        header, *items = read_jsonl(path)
        per_model.setdefault(header["model"], []).append(run_scores(items, cases))
    entries = {}
    for model, runs in per_model.items():
        keys = {k for r in runs for k in r}
        summary = {k: mean_std([r.get(k) for r in runs]) for k in keys}
        if any(task == "ljp" for task, _, _ in keys):
            for name in ["overall"] + CLASSES:
                means = {s: (summary.get(("ljp", s, name)) or {}).get("mean") for s in SETUPS}
                gold, interaction, direct = means["gold"], means["interaction"], means["direct"]
                summary[("ljp", "gain", name)] = (
                    interaction - direct if None not in (interaction, direct) else None
                )
                summary[("ljp", "relative_degradation", name)] = (
                    (gold - interaction) / gold if None not in (gold, interaction) and gold else None
                )
        entries[model] = summary
    return entries


def lexpilot_figure(entry, task, metric, name):
    """The figure of `lexpilot score --json` at the same place."""
    breakdown = entry[task]["overall"] if name == "overall" else entry[task]["by_class"][name]
    if breakdown is None:  # a class without cases
        return None
    if task == "ljp" and metric in SETUPS:
        return breakdown[metric]["qwk"]
    return breakdown[metric]


def close(a, b):
    return (a is None and b is None) or (
        a is not None and b is not None and abs(a - b) <= TOLERANCE
    )


def check(entries, document):
    """Every differing figure, as lines to print."""
    theirs = {e["model"]: e for e in document["entries"]}
    problems, compared = [], 0
    if set(theirs) != set(entries):
        problems.append(f"models differ: {sorted(entries)} vs {sorted(theirs)}")
    for model, summary in entries.items():
        entry = theirs.get(model)
        if entry is None:
            continue
        for (task, metric, name), ours in sorted(summary.items()):
            figure = lexpilot_figure(entry, task, metric, name)
            if metric in ("gain", "relative_degradation"):
                pairs = [("", ours, figure)]
            else:
                pairs = [(f".{p}", (ours or {}).get(p), (figure or {}).get(p)) for p in ["mean", "std"]]
            for part, a, b in pairs:
                compared += 1
                if not close(a, b):
                    problems.append(f"{model} {task} {metric} {name}{part}: sklearn {a} vs lexpilot {b}")
    return problems, compared


def main(argv):
    document = None
    if argv[:1] == ["--check"]:
        with open(argv[1], encoding="utf-8") as f:
            document = json.load(f)
        argv = argv[2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    entries = score(argv[0], argv[1:])
    if document is None:
        json.dump(
            {m: {" ".join(k): v for k, v in sorted(s.items())} for m, s in entries.items()},
            sys.stdout,
        )
        print()
        return 0
    problems, compared = check(entries, document)
    for line in problems:
        print(f"MISMATCH {line}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} of {compared} figures differ from lexpilot's", file=sys.stderr)
        return 1
    print(f"sklearn and lexpilot agree on all {compared} figures (within {TOLERANCE})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
