#!/usr/bin/env python3
"""Reference PLawBench scores, computed independently of the Rust engine.

Writes engine/tests/fixtures/plawbench/reference/: a small dataset
(dataset.jsonl), run files (run_*.jsonl) and expected.json, which
engine/tests/plawbench_reference.rs compares with the engine (1e-12):

- "items": per run file and item, the panel value (acc and section accs, or
  null when unavailable) after clamping (§B2.4, §B4.1, §B4.2);
- "document": the §B4.4 score document of all runs.

The runs cover: clamping above the maximum and below 0; the §B4.1 test
vectors (sections 5/20/20/15 with raw 8/15/10/-1 -> acc 0.5, section accs
1.0/0.75/0.5/0.0; consultation max 16 with raw 20 -> 1.0 and raw -2 -> 0.0);
a judge that omitted a section (that seat unavailable) and items with no
available judge; panels of 1, 2 and 3 judges with mean and median; a run
without the drafting tasks (no Task3, no Overall) and one with the plaintiff
task only (no Task3-Avg); three repeats of one entry (mean and sample std);
truncated answers (finish_reason length).

Standard library only, seeded:

    python3 engine/tests/reference/plawbench_scores.py
"""

import json
import os
import random
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "fixtures", "plawbench", "reference")

TAG = {"结论得分": "conclusion", "案情简述得分": "facts", "分析过程得分": "reasoning", "法条依据得分": "law"}
SECTIONS = ["conclusion", "facts", "reasoning", "law"]
METRIC = {"conclusion": "conclusion_acc", "facts": "fact_acc", "reasoning": "reasoning_acc", "law": "law_acc"}
TASKS = ["case_analysis", "legal_consultation", "plaintiff_statement", "defendant_statement"]


def entry(tag, points):
    return {"criterion": "（虚构）%s (+%s分)" % (tag, points), "points": points, "tags": tag}


DATASET = [
    # The §B4.1 test vector item.
    {"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活", "context": "（虚构）案情一",
     "question": "问题一？", "sections": [entry("结论得分", "5"), entry("案情简述得分", "20"),
                                     entry("分析过程得分", "20"), entry("法条依据得分", "15")], "max_points": 60},
    # Repeated tags add up; points as numbers and strings.
    {"item_id": "case_analysis-2", "task": "case_analysis", "category": "个人生活", "context": "（虚构）案情二",
     "question": "问题二？", "sections": [entry("结论得分", 4), entry("案情简述得分", "6"), entry("案情简述得分", "10"),
                                     entry("分析过程得分", 30), entry("法条依据得分", "7.5"), entry("法条依据得分", 2.5)],
     "max_points": 60},
    # Only two sections.
    {"item_id": "case_analysis-3", "task": "case_analysis", "category": "劳动人事", "context": "（虚构）案情三",
     "question": "问题三？", "sections": [entry("结论得分", "10"), entry("分析过程得分", "30")], "max_points": 40},
    {"item_id": "case_analysis-4", "task": "case_analysis", "category": "知识产权", "context": "（虚构）案情四",
     "question": "问题四？", "sections": [entry("结论得分", "8"), entry("案情简述得分", "16"),
                                     entry("分析过程得分", "40"), entry("法条依据得分", "16")], "max_points": 80},
    {"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "（虚构）咨询一",
     "rubric": "1.(+8 分) 问题甲\n2.(+8 分) 问题乙", "max_points": 16},
    {"item_id": "legal_consultation-2", "task": "legal_consultation", "question": "（虚构）咨询二",
     "rubric": "总分：12分\n1.(+13 分) 标注与总分不符（见 C-P4）", "max_points": 12},
    {"item_id": "legal_consultation-3", "task": "legal_consultation", "question": "（虚构）咨询三",
     "rubric": "1.(+5 分) 问题丙", "max_points": 5},
    {"item_id": "plaintiff_statement-1", "task": "plaintiff_statement", "question": "（虚构）起诉一",
     "rubric": "(+20分) 诉讼请求", "max_points": 20},
    {"item_id": "plaintiff_statement-2", "task": "plaintiff_statement", "question": "（虚构）起诉二",
     "rubric": "(+30分) 事实与理由", "max_points": 30},
    {"item_id": "defendant_statement-1", "task": "defendant_statement", "question": "（虚构）答辩一",
     "rubric": "(+25分) 答辩意见", "max_points": 25},
    {"item_id": "defendant_statement-2", "task": "defendant_statement", "question": "（虚构）答辩二",
     "rubric": "(+10分) 证据", "max_points": 10},
]


def section_max(item):
    out = {}
    for s in item.get("sections", []):
        out[TAG[s["tags"]]] = out.get(TAG[s["tags"]], 0.0) + float(s["points"])
    return out


def raw_award(item, rng):
    maxs = section_max(item)
    if maxs:
        return {s: round(rng.uniform(-0.3, 1.3) * m, 1) for s, m in maxs.items()}
    return round(rng.uniform(-0.3, 1.3) * item["max_points"], 1)


# Fixed awards: (item_id, judge position) -> raw value or "unavailable: reason".
FIXED = {
    ("case_analysis-1", 0): {"conclusion": 8, "facts": 15, "reasoning": 10, "law": -1},
    ("legal_consultation-1", 0): 20,
}


def make_run(model, run, judges, aggregation, tasks, seed, fixed=None, special=None):
    rng = random.Random(seed)
    header = {"kind": "run", "benchmark": "plawbench", "model": model, "family": "open", "model_family": "Fictional",
              "run": run, "dataset": "plawbench-reference", "judges": [{"model": j} for j in judges],
              "judge_aggregation": aggregation, "judge_parse": "lenient", "judge_attempts": 1, "source": "workbench",
              "created_at": "2026-12-0%dT10:00:00Z" % run}
    lines = [header]
    for item in DATASET:
        if item["task"] not in tasks:
            continue
        line = {"kind": "rubric", "item_id": item["item_id"], "task": item["task"],
                "response": "（虚构）%s 的回答" % item["item_id"],
                "finish_reason": "stop"}
        what = (special or {}).get(item["item_id"])
        if what == "item_unavailable":
            line.pop("response")
            line["unavailable"] = "model call failed after 3 retries"
            lines.append(line)
            continue
        if what == "length":
            line["finish_reason"] = "length"
        judgements = []
        for k, j in enumerate(judges):
            value = (fixed or {}).get((item["item_id"], k), raw_award(item, rng))
            if what == "all_seats_unavailable" or (what == "seat0_unavailable" and k == 0):
                judgements.append({"judge": j, "unavailable": "parse_error: score_details has no section 法条依据"})
            else:
                judgements.append({"judge": j, "awarded": value, "judge_output": "（虚构）评分"})
        line["judgements"] = judgements
        lines.append(line)
    return lines


def clamp(x, m):
    return min(max(x, 0.0), m)


def judge_value(item, awarded):
    maxs = section_max(item)
    if maxs:
        clamped = {s: clamp(float(awarded[s]), maxs[s]) for s in maxs}
        value = {"acc": sum(clamped.values()) / sum(maxs.values())}
        value.update({METRIC[s]: clamped[s] / maxs[s] for s in maxs})
        return value
    m = float(item["max_points"])
    return {"acc": clamp(float(awarded), m) / m}


def combine(values, aggregation):
    if aggregation == "median":
        return statistics.median(values)
    return sum(values) / len(values)


def panel(item, line, aggregation):
    if "unavailable" in line:
        return None
    values = [judge_value(item, j["awarded"]) for j in line["judgements"] if "awarded" in j]
    if not values:
        return None
    return {k: combine([v[k] for v in values], aggregation) for k in values[0]}


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def score_run(lines):
    header, items = lines[0], lines[1:]
    by_id = {i["item_id"]: i for i in DATASET}
    per_item = {}
    tasks = {}
    for line in items:
        item = by_id[line["item_id"]]
        p = panel(item, line, header["judge_aggregation"])
        per_item[line["item_id"]] = p
        t = tasks.setdefault(item["task"], {"values": [], "n": 0, "truncated": 0, "sections": {s: [] for s in SECTIONS},
                                             "categories": {}})
        t["n"] += 1
        t["truncated"] += line.get("finish_reason") == "length"
        if p is not None:
            t["values"].append(p["acc"])
            for s in SECTIONS:
                if METRIC[s] in p:
                    t["sections"][s].append(p[METRIC[s]])
            if item.get("category"):
                t["categories"].setdefault(item["category"], []).append(p["acc"])
    result = {"tasks": {}, "all": []}
    for task, t in tasks.items():
        result["tasks"][task] = {"acc": mean(t["values"]), "unavailable": t["n"] - len(t["values"]),
                                 "truncated": t["truncated"],
                                 "sections": {s: mean(v) for s, v in t["sections"].items()}}
        result["all"].extend(t["values"])
    categories = sorted({i["category"] for i in DATASET if i["task"] == "case_analysis" and i.get("category")})
    ca = tasks.get("case_analysis")
    result["by_category"] = {c: mean(ca["categories"].get(c, [])) for c in categories} if ca else {}
    return header, per_item, result


def metric(result, name):
    acc = lambda t: result["tasks"].get(t, {}).get("acc")
    if name == "task1":
        return acc("legal_consultation")
    if name == "task2":
        return acc("case_analysis")
    if name in METRIC.values():
        s = [k for k, v in METRIC.items() if v == name][0]
        t = result["tasks"].get("case_analysis")
        return t and t["sections"][s]
    if name == "plaintiff":
        return acc("plaintiff_statement")
    if name == "defendant":
        return acc("defendant_statement")
    if name == "task3":
        p, d = acc("plaintiff_statement"), acc("defendant_statement")
        return None if p is None or d is None else (p + d) / 2
    if name == "overall":
        t1, t2, t3 = metric(result, "task1"), metric(result, "task2"), metric(result, "task3")
        return None if None in (t1, t2, t3) else (t1 + t2 + t3) / 3
    if name == "per_sample":
        return mean(result["all"])
    raise KeyError(name)


def has(result, name):
    t = result["tasks"]
    return {"task1": "legal_consultation" in t, "plaintiff": "plaintiff_statement" in t,
            "defendant": "defendant_statement" in t,
            "task3": "plaintiff_statement" in t and "defendant_statement" in t,
            "overall": all(x in t for x in TASKS)}[name]


def summary(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"mean": sum(values) / len(values), "std": statistics.stdev(values) if len(values) > 1 else None}


def entry_key(header):
    return json.dumps({k: v for k, v in header.items() if k not in ("run", "created_at")}, sort_keys=True)


def document(runs):
    groups = []
    for header, _, result in runs:
        key = entry_key(header)
        for g in groups:
            if g[0] == key:
                g[2].append(result)
                break
        else:
            groups.append((key, header, [result]))
    entries = []
    for _, header, results in groups:
        m = lambda name: summary([metric(r, name) for r in results])
        present = lambda name: any(has(r, name) for r in results)
        any_task = lambda t: any(t in r["tasks"] for r in results)
        e = {"model": header["model"], "model_family": header.get("model_family"), "family": header.get("family"),
             "runs": len(results)}
        if present("overall"):
            e["overall"] = m("overall")
        if present("task1"):
            e["task1"] = m("task1")
        if any_task("case_analysis"):
            e["task2"] = {"acc": m("task2"), **{v: m(v) for v in METRIC.values()}}
        if any_task("plaintiff_statement") or any_task("defendant_statement"):
            t3 = {}
            if present("task3"):
                t3["avg"] = m("task3")
            if present("plaintiff"):
                t3["plaintiff"] = m("plaintiff")
            if present("defendant"):
                t3["defendant"] = m("defendant")
            e["task3"] = t3
        e["per_sample_overall"] = m("per_sample")
        if any_task("case_analysis"):
            names = sorted({c for r in results for c in r["by_category"]})
            e["by_category"] = {c: summary([r["by_category"].get(c) for r in results]) for c in names}
        unavailable, truncated = {}, {}
        for r in results:
            for t, s in r["tasks"].items():
                unavailable[t] = unavailable.get(t, 0) + s["unavailable"]
                if t in ("plaintiff_statement", "defendant_statement"):
                    truncated[t] = truncated.get(t, 0) + s["truncated"]
        e["counts"] = {"unavailable": unavailable, "truncated": truncated}
        entries.append(e)
    items = {}
    for i in DATASET:
        items[i["task"]] = items.get(i["task"], 0) + 1
    return {"benchmark": "plawbench", "items": items, "entries": entries}


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "dataset.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for item in DATASET:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    files = {
        # One judge, mean, three repeats, every task; the §B4.1 vectors in run 1.
        "run_alpha_1.jsonl": make_run("Alpha", 1, ["judge-a"], "mean", TASKS, 1, FIXED,
                                      {"plaintiff_statement-2": "length", "case_analysis-4": "seat0_unavailable"}),
        "run_alpha_2.jsonl": make_run("Alpha", 2, ["judge-a"], "mean", TASKS, 2, {("legal_consultation-1", 0): -2},
                                      {"defendant_statement-1": "length", "legal_consultation-3": "item_unavailable"}),
        "run_alpha_3.jsonl": make_run("Alpha", 3, ["judge-a"], "mean", TASKS, 3),
        # Two judges, median (the mean of the two), seats unavailable.
        "run_beta_1.jsonl": make_run("Beta", 1, ["judge-a", "judge-b"], "median", TASKS, 4, None,
                                     {"case_analysis-2": "seat0_unavailable", "legal_consultation-2": "all_seats_unavailable",
                                      "plaintiff_statement-1": "all_seats_unavailable"}),
        # Three judges, median; no drafting task: no Task3, no Overall.
        "run_gamma_1.jsonl": make_run("Gamma", 1, ["judge-a", "judge-b", "judge-c"], "median",
                                      ["case_analysis", "legal_consultation"], 5, None,
                                      {"case_analysis-3": "seat0_unavailable"}),
        # The same model with three judges and the mean: another entry; plaintiff only.
        "run_gamma_mean_1.jsonl": make_run("Gamma", 1, ["judge-a", "judge-b", "judge-c"], "mean",
                                           ["case_analysis", "plaintiff_statement"], 6),
    }
    runs = []
    items = {}
    for name, lines in files.items():
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        header, per_item, result = score_run(lines)
        runs.append((header, per_item, result))
        items[name] = per_item
    expected = {"runs": list(files), "items": items, "document": document(runs)}
    with open(os.path.join(OUT, "expected.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
