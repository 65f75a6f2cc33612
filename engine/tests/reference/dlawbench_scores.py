#!/usr/bin/env python3
"""Reference DLawBench scores, computed independently of the Rust engine.

Writes engine/tests/fixtures/dlawbench/reference/: two small datasets
(dataset.jsonl with Chinese- and U.S.-law cases, dataset_cn.jsonl with
Chinese-law cases only), run files (run_*.jsonl, cn_*.jsonl) and
expected.json, which engine/tests/dlawbench_reference.rs compares with the
engine (1e-12):

- "sessions": per run file, per session in file order, its outcome
  (judged / failure / unavailable), the panel values it has and whether it
  is degraded (docs/benchmarks/dlawbench.md A4.1-A4.3);
- "documents": per dataset, the A4.7 score document of its runs;
- "table_22": per dataset, Table 22 over all its runs: per metric, the
  |median - mean| of every three-judge observation pooled, their mean and
  the share above 0.05 (A6.6).

The runs cover: the A4.6 worked session (three judges -> median; the same
decisions with judge A recused -> mean of B and C); a seat unavailable
(degraded, two or one values); fidelity with zero claims for one judge and
for every judge (fidelity unavailable, counted); each task-failure status
(empty_memo, no_memo, lawyer_error) in both views; an unavailable session;
min_valid_judges = 2 after recusal; a lone judge; a run missing styles (no
overall, no per-jurisdiction or domain values, style gaps only where
cooperative is present); a Chinese-law-only dataset (overall = that
jurisdiction, single_jurisdiction); three repeats of one entry and two of
another (mean and sample std).

Standard library only, seeded:

    python3 engine/tests/reference/dlawbench_scores.py
"""

import json
import os
import random
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "fixtures", "dlawbench", "reference")

STYLES = ["cooperative", "dependent", "withdrawn", "adversarial"]
JURISDICTIONS = ["cn", "us"]
COMPONENTS = ["fact_coverage", "inquiry", "fact_resolution", "issue_resolution", "fidelity"]
METRICS = ["elicitation", "fact_coverage", "inquiry", "resolution", "fact_resolution",
           "issue_resolution", "fidelity"]
DERIVED = {"elicitation": ("fact_coverage", "inquiry"),
           "resolution": ("fact_resolution", "issue_resolution")}
FAILURES = ["empty_memo", "no_memo", "lawyer_error"]
HORIZON = 4

JUDGES = [{"model": "GPT-5.1", "vendor": "openai"},
          {"model": "Claude-Opus-4.6", "vendor": "anthropic"},
          {"model": "Gemini-3.1-Pro", "vendor": "google"}]


def case(case_id, jurisdiction, domain, facts, inquiry, issue, disputed):
    zh = jurisdiction == "cn"
    return {
        "case_id": case_id, "jurisdiction": jurisdiction, "domain": domain,
        "opening": ("（合成）律师您好，我想咨询一件事。" if zh else "(synthetic) Hello, I need advice."),
        "notes": "synthetic reference case",
        "facts": [{"id": "F%d" % (k + 1), "type": "disputed" if k in disputed else "undisputed",
                   "client_belief": ("当事人认为%d" % k if zh else "client belief %d" % k),
                   "court_record": ("法院认定%d" % k if zh else "court record %d" % k)}
                  for k in range(facts)],
        "inquiry_rubrics": [{"id": "Q%d" % (k + 1), "text": "inquiry %d" % k} for k in range(inquiry)],
        "issue_rubrics": [{"id": "R%d" % (k + 1), "text": "issue %d" % k} for k in range(issue)],
    }


# CN-1 is the A4.6 case: F = 4, I = 3, R = 2.
DATASET = [
    case("CN-1", "cn", "marriage_family_inheritance", 4, 3, 2, {1, 2}),
    case("CN-2", "cn", "labor", 3, 2, 2, {0}),
    case("US-1", "us", "civil_rights", 2, 1, 1, {1}),
    case("US-2", "us", "torts", 5, 2, 3, {0, 3}),
    case("US-3", "us", "torts", 3, 2, 1, {2}),
]
DATASET_CN = [c for c in DATASET if c["jurisdiction"] == "cn"]

# The A4.6 table: judge -> decisions.
WORKED = {
    "GPT-5.1": {"inquiry": [1, 1, 0], "issue": [1, 0], "covered": ["F1", "F2", "F3"],
                "correct": ["F1", "F2"], "claims_total": 10, "claims_grounded": 9},
    "Claude-Opus-4.6": {"inquiry": [1, 0, 0], "issue": [0, 0], "covered": ["F1", "F2", "F3", "F4"],
                        "correct": ["F1"], "claims_total": 8, "claims_grounded": 8},
    "Gemini-3.1-Pro": {"inquiry": [1, 1, 1], "issue": [1, 1], "covered": ["F1", "F2"],
                       "correct": ["F1", "F2"], "claims_total": 12, "claims_grounded": 9},
}


def vendor_recuses(header, judge):
    # A lone judge never recuses; otherwise same vendor as the lawyer.
    return len(header["judges"]) > 1 and judge["vendor"] == header["vendor"]


def random_decisions(rng, c, skill):
    facts = [f["id"] for f in c["facts"]]
    covered = [f for f in facts if rng.random() < skill]
    correct = [f for f in covered if rng.random() < skill]
    total = rng.choice([0, 3, 5, 8, 12]) if rng.random() < 0.15 else rng.randint(1, 12)
    return {"inquiry": [int(rng.random() < skill) for _ in c["inquiry_rubrics"]],
            "issue": [int(rng.random() < skill * 0.9) for _ in c["issue_rubrics"]],
            "covered": covered, "correct": correct,
            "claims_total": total, "claims_grounded": rng.randint(0, total)}


def dialogue(c, turns):
    out = [{"role": "client", "content": c["opening"]}]
    for k in range(turns):
        out.append({"role": "lawyer", "action": "ask", "content": "question %d" % (k + 1)})
        out.append({"role": "client", "content": "answer %d" % (k + 1)})
    return out


def make_run(header, dataset, styles, seed, skill, special):
    """Sessions for every case in every style; `special` maps (case, style)
    to a function that rewrites the session."""
    rng = random.Random(seed)
    lines = [dict(kind="run", **header)]
    for style in styles:
        for c in dataset:
            turns = rng.randint(0, HORIZON)
            s = {"kind": "session", "case_id": c["case_id"], "style": style,
                 "status": "submitted" if turns < HORIZON else "horizon", "turns_used": turns,
                 "dialogue": dialogue(c, turns), "memo": "memo of %s" % c["case_id"], "panel": []}
            for j in header["judges"]:
                recused = vendor_recuses(header, j)
                seat = {"judge": j["model"], "recused": recused}
                if not recused:
                    seat["decisions"] = random_decisions(rng, c, skill)
                    seat["rationale"] = "r"
                s["panel"].append(seat)
            rewrite = special.get((c["case_id"], style))
            if rewrite:
                rewrite(s, c)
            lines.append(s)
    return lines


def worked(s, c):
    for seat in s["panel"]:
        if not seat["recused"]:
            seat["decisions"] = json.loads(json.dumps(WORKED[seat["judge"]]))


def seat_unavailable(*judges):
    def rewrite(s, c):
        for seat in s["panel"]:
            if seat["judge"] in judges and not seat["recused"]:
                seat.pop("decisions", None)
                seat["unavailable"] = "3 attempts: invalid reply"
    return rewrite


def zero_claims(*judges):
    def rewrite(s, c):
        for seat in s["panel"]:
            if (not judges or seat["judge"] in judges) and "decisions" in seat:
                seat["decisions"]["claims_total"] = 0
                seat["decisions"]["claims_grounded"] = 0
    return rewrite


def failure(status):
    def rewrite(s, c):
        s["status"] = status
        s["panel"] = []
        if status == "no_memo":
            s["turns_used"] = HORIZON
            s["dialogue"] = dialogue(c, HORIZON)
        if status in ("empty_memo", "no_memo"):
            s["memo"] = ""
        if status == "lawyer_error":
            del s["memo"]
    return rewrite


def unavailable(s, c):
    s["unavailable"] = "client simulator: 5 consecutive transport errors"
    s["panel"] = []


def header(model, vendor, run, family="closed", judges=JUDGES, **extra):
    h = {"benchmark": "dlawbench", "model": model, "vendor": vendor, "family": family, "run": run,
         "dataset": "dlawbench-reference", "client_model": "Sim-Client", "judges": judges,
         "horizon": HORIZON, "prompt_version": "dlaw-v1",
         "created_at": "2026-12-01T10:0%d:00Z" % run}
    h.update(extra)
    return h


RUNS = {
    "dataset.jsonl": [
        ("run_alpha_1.jsonl", header("Sim-Alpha", "alpha", 1), DATASET, STYLES, 11, 0.7, {
            ("CN-1", "cooperative"): worked,
            ("US-1", "dependent"): seat_unavailable("Gemini-3.1-Pro"),
            ("US-2", "withdrawn"): zero_claims(),
            ("CN-2", "adversarial"): zero_claims("Claude-Opus-4.6"),
            ("US-3", "cooperative"): seat_unavailable("GPT-5.1", "Claude-Opus-4.6"),
        }),
        ("run_alpha_2.jsonl", header("Sim-Alpha", "alpha", 2), DATASET, STYLES, 12, 0.65, {
            ("CN-1", "cooperative"): worked,
            ("CN-2", "dependent"): failure("empty_memo"),
            ("US-3", "adversarial"): failure("no_memo"),
            ("CN-1", "withdrawn"): failure("lawyer_error"),
            ("US-1", "cooperative"): unavailable,
        }),
        ("run_alpha_3.jsonl", header("Sim-Alpha", "alpha", 3), DATASET, STYLES, 13, 0.75, {
            ("US-2", "dependent"): failure("lawyer_error"),
            ("US-2", "cooperative"): seat_unavailable("Gemini-3.1-Pro"),
        }),
        # GPT-5.5: GPT-5.1 recuses; two judges left, min_valid_judges = 2.
        ("run_gpt_1.jsonl", header("GPT-5.5", "openai", 1, min_valid_judges=2), DATASET, STYLES, 21, 0.8, {
            ("CN-1", "cooperative"): worked,
            ("US-2", "adversarial"): seat_unavailable("Claude-Opus-4.6"),
            ("CN-2", "withdrawn"): failure("no_memo"),
        }),
        # Two styles only: no overall.
        ("run_partial_1.jsonl", header("Sim-Beta", "beta", 1, family="open"), DATASET,
         ["cooperative", "withdrawn"], 31, 0.6, {
            ("US-1", "withdrawn"): failure("empty_memo"),
        }),
        # One style without cooperative: no style gap.
        ("run_partial_2.jsonl", header("Sim-Delta", "delta", 1, family="legal"), DATASET,
         ["adversarial"], 32, 0.5, {}),
        # A lone Gemini judge for a Google lawyer: it does not recuse.
        ("run_single_1.jsonl", header("Gemini-X", "google", 1, judges=[JUDGES[2]]), DATASET, STYLES, 41, 0.7, {
            ("US-2", "cooperative"): zero_claims(),
        }),
    ],
    "dataset_cn.jsonl": [
        ("cn_gamma_1.jsonl", header("Sim-Gamma", "gamma", 1), DATASET_CN, STYLES, 51, 0.7, {
            ("CN-1", "cooperative"): worked,
            ("CN-2", "withdrawn"): failure("lawyer_error"),
        }),
        ("cn_gamma_2.jsonl", header("Sim-Gamma", "gamma", 2), DATASET_CN, STYLES, 52, 0.6, {}),
    ],
}


# ---------------------------------------------------------------- scoring

def mean(xs):
    return sum(xs) / len(xs) if xs else None


def mean_std(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    return {"mean": statistics.fmean(xs), "std": statistics.stdev(xs) if len(xs) > 1 else None}


def judge_values(c, d):
    F, I, R = len(c["facts"]), len(c["inquiry_rubrics"]), len(c["issue_rubrics"])
    v = {"fact_coverage": len(d["covered"]) / F, "fact_resolution": len(d["correct"]) / F,
         "inquiry": sum(d["inquiry"]) / I, "issue_resolution": sum(d["issue"]) / R}
    if d["claims_total"] > 0:
        v["fidelity"] = d["claims_grounded"] / d["claims_total"]
    cc = len(d["correct"]) / len(d["covered"]) if d["covered"] else None
    return v, cc


def score_session(c, s, h):
    if s.get("unavailable"):
        return {"outcome": "unavailable", "values": {}, "degraded": False, "judges": [], "cc": None}
    if s["status"] in FAILURES:
        return {"outcome": "failure", "values": {}, "degraded": False, "judges": [], "cc": None}
    judges = []
    for seat in s["panel"]:
        if not seat["recused"] and "decisions" in seat:
            judges.append(judge_values(c, seat["decisions"]))
        else:
            judges.append(None)
    seated = sum(1 for seat in s["panel"] if not seat["recused"])
    minimum = h.get("min_valid_judges", 1)
    values, degraded = {}, False
    for m in COMPONENTS:
        vs = [j[0][m] for j in judges if j is not None and m in j[0]]
        if len(vs) < seated:
            degraded = True
        if vs and len(vs) >= minimum:
            values[m] = statistics.median(vs)
    for m, (a, b) in DERIVED.items():
        if a in values and b in values:
            values[m] = (values[a] + values[b]) / 2
    ccs = [j[1] for j in judges if j is not None and j[1] is not None]
    return {"outcome": "judged", "values": values, "degraded": degraded, "judges": judges,
            "cc": statistics.median(ccs) if ccs else None}


def value(score, m, view):
    if score["outcome"] == "judged":
        return score["values"].get(m)
    if score["outcome"] == "failure" and view == "null_as_zero":
        return 0.0
    return None


def cells(scores, view):
    return {m: mean([v for v in (value(s, m, view) for s in scores) if v is not None]) for m in METRICS}


def across(groups):
    out = {}
    for m in METRICS:
        vs = [g[m] for g in groups]
        out[m] = None if any(v is None for v in vs) or not vs else mean(vs)
    return out


def run_scores(lines, dataset):
    h = lines[0]
    cases = {c["case_id"]: c for c in dataset}
    jurisdictions = [j for j in JURISDICTIONS if any(c["jurisdiction"] == j for c in dataset)]
    sessions = lines[1:]
    placed = []
    for s in sessions:
        c = cases[s["case_id"]]
        placed.append((c, s, score_session(c, s, h)))
    styles = [st for st in STYLES if any(s["style"] == st for s in sessions)]
    complete = len(styles) == 4

    def view_scores(view):
        by_js = {j: {st: cells([p[2] for p in placed if p[0]["jurisdiction"] == j and p[1]["style"] == st], view)
                     for st in styles} for j in jurisdictions}
        by_style = {st: across([by_js[j][st] for j in jurisdictions]) for st in styles}
        gap = {}
        if "cooperative" in by_style:
            for st in styles:
                if st != "cooperative":
                    gap[st] = {m: (None if by_style[st][m] is None or by_style["cooperative"][m] is None
                                   else by_style[st][m] - by_style["cooperative"][m]) for m in METRICS}
        out = {"by_jurisdiction_style": by_js, "by_style": by_style, "style_gap": gap,
               "by_jurisdiction": {}, "by_domain": {}, "overall": None}
        if complete:
            out["by_jurisdiction"] = {j: cells([p[2] for p in placed if p[0]["jurisdiction"] == j], view)
                                      for j in jurisdictions}
            out["overall"] = across([out["by_jurisdiction"][j] for j in jurisdictions])
            keys = sorted({"%s/%s" % (p[0]["jurisdiction"], p[0]["domain"]) for p in placed})
            out["by_domain"] = {k: cells([p[2] for p in placed
                                          if "%s/%s" % (p[0]["jurisdiction"], p[0]["domain"]) == k], view)
                                for k in keys}
        return out

    counts = {"sessions": len(placed), "judged": 0, "failures": {f: 0 for f in FAILURES},
              "unavailable": 0, "degraded": 0, "recused_seats": 0, "judge_unavailable_seats": 0,
              "unavailable_metrics": {}}
    for c, s, score in placed:
        if score["outcome"] == "unavailable":
            counts["unavailable"] += 1
        elif score["outcome"] == "failure":
            counts["failures"][s["status"]] += 1
        else:
            counts["judged"] += 1
            counts["degraded"] += int(score["degraded"])
            for seat, j in zip(s["panel"], score["judges"]):
                if seat["recused"]:
                    counts["recused_seats"] += 1
                elif j is None:
                    counts["judge_unavailable_seats"] += 1
            for m in METRICS:
                if m not in score["values"]:
                    counts["unavailable_metrics"][m] = counts["unavailable_metrics"].get(m, 0) + 1

    cc_j = {j: mean([p[2]["cc"] for p in placed if p[0]["jurisdiction"] == j and p[2]["cc"] is not None])
            for j in jurisdictions}
    cc = None if any(v is None for v in cc_j.values()) else mean(list(cc_j.values()))

    judged = [p for p in placed if p[2]["outcome"] == "judged"]
    judges = []
    for k, seat in enumerate(h["judges"]):
        stats = {"judge": seat["model"], "scored": 0, "recused": 0, "unavailable": 0}
        collected = {m: [] for m in COMPONENTS}
        for c, s, score in judged:
            j = score["judges"][k]
            if j is not None:
                stats["scored"] += 1
                for m, x in j[0].items():
                    collected[m].append(x)
            elif s["panel"][k]["recused"]:
                stats["recused"] += 1
            else:
                stats["unavailable"] += 1
        stats["mean"] = {m: mean(collected[m]) for m in COMPONENTS}
        judges.append(stats)
    gaps = {m: [] for m in METRICS}
    for c, s, score in judged:
        def three(m):
            vs = [j[0][m] for j in score["judges"] if j is not None and m in j[0]]
            return vs if len(vs) == 3 else None
        for m in METRICS:
            if m in DERIVED:
                a, b = DERIVED[m]
                va, vb = three(a), three(b)
                if va and vb:
                    by_median = (statistics.median(va) + statistics.median(vb)) / 2
                    by_mean = (mean(va) + mean(vb)) / 2
                    gaps[m].append(abs(by_median - by_mean))
            else:
                v = three(m)
                if v:
                    gaps[m].append(abs(statistics.median(v) - mean(v)))
    gap_stats = {m: {"sessions": len(g), "mean_abs": mean(g),
                     "share_over_005": (sum(1 for x in g if x > 0.05) / len(g)) if g else None}
                 for m, g in gaps.items()}
    return {"styles": styles, "null_as_zero": view_scores("null_as_zero"),
            "valid_only": view_scores("valid_only"), "cc": cc, "cc_j": cc_j, "judges": judges,
            "gaps": gap_stats, "gap_values": gaps, "counts": counts}, [p[2] for p in placed]


def summarise_metrics(runs):
    return {m: mean_std([r[m] for r in runs]) for m in METRICS}


def summarise_keyed(maps):
    keys = sorted({k for mp in maps for k in mp})
    return {k: summarise_metrics([mp[k] for mp in maps if k in mp]) for k in keys}


def summarise_view(views):
    overall = [v["overall"] for v in views if v["overall"] is not None]
    out = {}
    if overall:
        out["overall"] = summarise_metrics(overall)
    out["by_jurisdiction"] = summarise_keyed([v["by_jurisdiction"] for v in views])
    out["by_style"] = summarise_keyed([v["by_style"] for v in views])
    js = sorted({j for v in views for j in v["by_jurisdiction_style"]})
    out["by_jurisdiction_style"] = {j: summarise_keyed([v["by_jurisdiction_style"][j] for v in views
                                                        if j in v["by_jurisdiction_style"]]) for j in js}
    out["by_domain"] = summarise_keyed([v["by_domain"] for v in views])
    out["style_gap"] = summarise_keyed([v["style_gap"] for v in views])
    return out


def entry(h, runs, single):
    counts = {"sessions": 0, "judged": 0, "failures": {}, "unavailable": 0, "degraded": 0,
              "recused_seats": 0, "judge_unavailable_seats": 0, "unavailable_metrics": {}}
    for r in runs:
        c = r["counts"]
        for k in ["sessions", "judged", "unavailable", "degraded", "recused_seats", "judge_unavailable_seats"]:
            counts[k] += c[k]
        for sub in ["failures", "unavailable_metrics"]:
            for k, n in c[sub].items():
                counts[sub][k] = counts[sub].get(k, 0) + n
    judges = []
    for k in range(len(runs[0]["judges"])):
        stats = [r["judges"][k] for r in runs]
        judges.append({"judge": stats[0]["judge"], "scored": sum(s["scored"] for s in stats),
                       "recused": sum(s["recused"] for s in stats),
                       "unavailable": sum(s["unavailable"] for s in stats),
                       "mean": {m: mean_std([s["mean"][m] for s in stats]) for m in COMPONENTS}})
    gaps = {m: {"sessions": sum(r["gaps"][m]["sessions"] for r in runs),
                "mean_abs": mean_std([r["gaps"][m]["mean_abs"] for r in runs]),
                "share_over_005": mean_std([r["gaps"][m]["share_over_005"] for r in runs])}
            for m in METRICS}
    cc_keys = sorted({j for r in runs for j in r["cc_j"]})
    return {
        "model": h["model"], "family": h.get("family"), "runs": len(runs),
        "single_jurisdiction": single,
        "styles": [s for s in STYLES if any(s in r["styles"] for r in runs)],
        "null_as_zero": summarise_view([r["null_as_zero"] for r in runs]),
        "valid_only": summarise_view([r["valid_only"] for r in runs]),
        "diagnostics": {
            "conditional_correctness": mean_std([r["cc"] for r in runs]),
            "conditional_correctness_by_jurisdiction": {j: mean_std([r["cc_j"].get(j) for r in runs])
                                                        for j in cc_keys},
            "judges": judges, "median_mean_gap": gaps},
        "counts": counts,
    }


def entry_key(h):
    return json.dumps({k: v for k, v in h.items() if k not in ("run", "created_at", "kind")}, sort_keys=True)


def document(dataset, scored):
    groups = []
    for h, r in scored:
        key = entry_key(h)
        for g in groups:
            if g[0] == key:
                g[2].append(r)
                break
        else:
            groups.append((key, h, [r]))
    cases = {}
    for c in dataset:
        cases[c["jurisdiction"]] = cases.get(c["jurisdiction"], 0) + 1
    return {"benchmark": "dlawbench", "cases": cases, "styles": STYLES,
            "entries": [entry(h, runs, len(cases) == 1) for _, h, runs in groups]}


def table_22(scored):
    """Table 22 over every run: per metric, the |median - mean| of every
    three-judge observation pooled, their mean and the share above 0.05."""
    out = {}
    for m in METRICS:
        g = [x for _, r in scored for x in r["gap_values"][m]]
        out[m] = {"observations": len(g), "mean_abs": mean(g),
                  "share_over_005": (sum(1 for x in g if x > 0.05) / len(g)) if g else None}
    return out


def write_jsonl(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    write_jsonl(os.path.join(OUT, "dataset.jsonl"), DATASET)
    write_jsonl(os.path.join(OUT, "dataset_cn.jsonl"), DATASET_CN)
    expected = {"runs": {}, "sessions": {}, "documents": {}, "table_22": {}}
    for dataset_name, runs in RUNS.items():
        dataset = DATASET if dataset_name == "dataset.jsonl" else DATASET_CN
        scored = []
        expected["runs"][dataset_name] = []
        for name, h, cases, styles, seed, skill, special in runs:
            lines = make_run(h, cases, styles, seed, skill, special)
            write_jsonl(os.path.join(OUT, name), lines)
            scores, sessions = run_scores(lines, dataset)
            expected["runs"][dataset_name].append(name)
            expected["sessions"][name] = [{"outcome": s["outcome"], "values": s["values"],
                                           "degraded": s["degraded"]} for s in sessions]
            scored.append((lines[0], scores))
        expected["documents"][dataset_name] = document(dataset, scored)
        expected["table_22"][dataset_name] = table_22(scored)
    # The worked session of run_alpha_1 and run_gpt_1, as the contract states it.
    w3 = expected["sessions"]["run_alpha_1.jsonl"][0]["values"]
    assert (w3["fact_coverage"], w3["fact_resolution"], w3["issue_resolution"], w3["fidelity"]) == (0.75, 0.5, 0.5, 0.9)
    assert abs(w3["elicitation"] - 0.708333) < 1e-6 and w3["resolution"] == 0.5
    w2 = expected["sessions"]["run_gpt_1.jsonl"][0]["values"]
    assert (w2["fact_coverage"], w2["fact_resolution"], w2["fidelity"], w2["resolution"]) == (0.75, 0.375, 0.875, 0.4375)
    with open(os.path.join(OUT, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
