#!/usr/bin/env python3
"""evalscope output folders for `engine::plawbench::evalscope`, built from the
field tables of docs/benchmarks/plawbench.md §B6 (no evalscope needed).

Writes under engine/tests/fixtures/plawbench/evalscope/:

- dataset.jsonl: 8 items (3 case_analysis, 2 legal_consultation, 2
  plaintiff_statement, 1 defendant_statement), marked 虚构 (fictional).
- v2/20261201_100000/: schema-v2 report, one judge (qwen3-max), repeats = 2.
  Generation 0 has a `parse_error` review, a prediction without a review
  (review errored) and a truncated plaintiff statement (stop_reason length);
  one raw award is above its section maximum and one below 0 (clamped in
  the review, as evalscope does).
- panel/20261202_090000/: two judges (qwen3-max, gpt-4.1), each with two
  repeats per item in judge_observation_metadata, aggregation median.
- v1-legacy/20260810_120000/: a development build of 2026-08 (schema v1
  report with mean_acc, reviews without status, one `judge_failed` review
  scored 0 by evalscope).
- expected.json: what the import must give: per folder and generation the
  mean acc per task over the items the workbench scores, and the counts.

Standard library only, seeded: a second run writes the same bytes.

    python3 engine/tests/reference/make_plawbench_evalscope_fixture.py
    python3 engine/tests/reference/make_plawbench_evalscope_fixture.py --demo   # the browser tests' folder
"""

import hashlib
import json
import os
import random
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.dirname(os.path.dirname(HERE))
PROMPTS = os.path.join(ENGINE, "prompts", "plawbench")
OUT = os.path.join(ENGINE, "tests", "fixtures", "plawbench", "evalscope")

SECTION_TAGS = {"结论得分": "结论", "案情简述得分": "案件事实", "分析过程得分": "推理过程", "法条依据得分": "法条依据"}
METRIC = {"结论": "conclusion_acc", "案件事实": "fact_acc", "推理过程": "reasoning_acc", "法条依据": "law_acc"}
JUDGE_TYPE = {
    "case_analysis": "case_analysis",
    "legal_consultation": "legal_qa",
    "plaintiff_statement": "document_generation",
    "defendant_statement": "document_generation",
}
TASKS = list(JUDGE_TYPE)


def prompt(name):
    with open(os.path.join(PROMPTS, name), encoding="utf-8", newline="") as f:
        return f.read()


TASK = {"legal_qa": prompt("task_legal_qa.txt"), "case_analysis": prompt("task_case_analysis.txt"),
        "document_generation": prompt("task_document_generation.txt")}
USER = {"case_analysis": prompt("user_case_analysis.txt"), "legal_qa": prompt("user_question.txt"),
        "document_generation": prompt("user_question.txt")}


def render(item):
    jt = JUDGE_TYPE[item["task"]]
    return TASK[jt] + USER[jt].format(context=item.get("context", ""), question=item["question"])


def sections(c, f, r, l):
    return [
        {"criterion": "【结论得分】\n(+%d分) 结论正确（虚构）。" % c, "points": str(c), "tags": "结论得分"},
        {"criterion": "【案情简述得分】\n(+%d分) 事实完整。" % f, "points": str(f), "tags": "案情简述得分"},
        {"criterion": "【分析过程得分】\n(+%d分) 推理严密。" % r, "points": r, "tags": "分析过程得分"},
        {"criterion": "【法条依据得分】\n(+%d分) 引用《民法典》相关条文。" % l, "points": str(l), "tags": "法条依据得分"},
    ]


DATASET = [
    {"item_id": "case_analysis-1", "task": "case_analysis", "category": "个人生活",
     "context": "（虚构）某甲与某摄影公司签订婚庆服务合同，录像全部丢失。", "question": "某甲能否主张精神损害赔偿？",
     "sections": sections(5, 20, 20, 15), "max_points": 60},
    {"item_id": "case_analysis-2", "task": "case_analysis", "category": "劳动人事",
     "context": "（虚构）某乙在试用期内被以“不符合录用条件”为由解除劳动合同。", "question": "解除是否合法？",
     "sections": sections(10, 15, 30, 25), "max_points": 80},
    {"item_id": "case_analysis-3", "task": "case_analysis", "category": "个人生活",
     "context": "（虚构）某丙借款给朋友未约定利息。", "question": "能否主张利息？",
     "sections": sections(5, 10, 20, 5), "max_points": 40},
    {"item_id": "legal_consultation-1", "task": "legal_consultation", "context": "",
     "question": "律师您好（虚构），我丈夫经常酗酒打人，我想离婚，房子是婚前买的。",
     "rubric": "总分：16分\n1.(+8 分) 是否有报警记录及病历？\n2.(+8 分) 房屋登记在谁名下？", "max_points": 16},
    {"item_id": "legal_consultation-2", "task": "legal_consultation", "context": "",
     "question": "（虚构）公司拖欠我三个月工资，我该怎么办？",
     "rubric": "1.(+6 分) 劳动合同是否签订？\n2.(+6 分) 工资支付记录？", "max_points": 12},
    {"item_id": "plaintiff_statement-1", "task": "plaintiff_statement", "context": "",
     "question": "（虚构）我借给邻居五万元，到期不还，请帮我写起诉状。",
     "rubric": "(+10分) 诉讼请求明确\n(+10分) 事实与理由清楚", "max_points": 20},
    {"item_id": "plaintiff_statement-2", "task": "plaintiff_statement", "context": "",
     "question": "（虚构）装修公司延期交房三个月，请帮我写起诉状。",
     "rubric": "(+15分) 诉讼请求\n(+15分) 违约事实", "max_points": 30},
    {"item_id": "defendant_statement-1", "task": "defendant_statement", "context": "",
     "question": "（虚构）原告起诉我返还借款，但钱早已还清，请帮我写答辩状。",
     "rubric": "(+10分) 答辩意见明确\n(+10分) 证据列举", "max_points": 20},
]


def rubrics_field(item):
    if item["task"] == "case_analysis":
        return json.dumps(item["sections"], ensure_ascii=False)
    return item["rubric"]


def section_max(item):
    out = {}
    for s in item["sections"]:
        key = SECTION_TAGS[s["tags"]]
        out[key] = out.get(key, 0.0) + float(s["points"])
    return out


def clamp(x, m):
    return min(max(x, 0.0), m)


def observation(item, rng, extreme=None):
    """One judge observation: (metadata, value) with clamped points."""
    if item["task"] == "case_analysis":
        maxs = section_max(item)
        raw = {k: round(rng.uniform(-0.1, 1.1) * m) for k, m in maxs.items()}
        if extreme == "high":
            raw["结论"] = maxs["结论"] + 7
        if extreme == "low":
            raw["法条依据"] = -3
        clamped = {k: clamp(v, maxs[k]) for k, v in raw.items()}
        total = sum(clamped.values())
        meta = {"judge_type": "case_analysis", "awarded_points": total, "max_points": float(item["max_points"]),
                "sections": {k: {"awarded_points": clamped[k], "max_points": maxs[k]} for k in maxs}}
        value = {"acc": total / sum(maxs.values())}
        value.update({METRIC[k]: clamped[k] / maxs[k] for k in maxs})
        raw_json = {"score_details": {k: {"total_points": raw[k]} for k in maxs}}
        return meta, value, raw_json
    m = float(item["max_points"])
    raw = round(rng.uniform(-0.1, 1.1) * m, 1)
    points = clamp(raw, m)
    meta = {"judge_type": JUDGE_TYPE[item["task"]], "awarded_points": points, "max_points": m,
            "judge_reported_max_points": m}
    return meta, {"acc": points / m}, {"total_points": raw, "max_points": m}


def aggregate(values, how):
    return statistics.median(values) if how == "median" else sum(values) / len(values)


def message(role, content, model=None):
    m = {"id": hashlib.sha256(content.encode()).hexdigest()[:8], "content": content, "source": None, "metadata": None,
         "internal": None, "perf_metrics": None, "role": role}
    if role == "assistant":
        m.update({"tool_calls": None, "model": model})
    else:
        m["tool_call_id"] = None
    return m


def sample_metadata(item):
    return {"id": item["item_id"], "task": item["task"], "judge_type": JUDGE_TYPE[item["task"]],
            "category": item.get("category", ""), "rubrics": rubrics_field(item),
            "max_points": item["max_points"], "prompt": render(item)}


def build(name, timestamp, model, judges, repeats, aggregation, legacy, plan, seed):
    """plan(item_id, generation) -> one of "ok", "high", "low", "parse_error",
    "judge_failed", "errored", "length"."""
    rng = random.Random(seed)
    root = os.path.join(OUT, name, timestamp)
    expected = {"model": model, "judges": judges, "runs": []}
    per_gen = {g: {t: [] for t in TASKS} for g in range(repeats)}
    counts = {g: {"unavailable": {t: 0 for t in TASKS}, "truncated": {t: 0 for t in TASKS}} for g in range(repeats)}
    files = {t: {"predictions": [], "reviews": []} for t in TASKS}
    report_values = {t: {} for t in TASKS}
    for task in TASKS:
        items = [i for i in DATASET if i["task"] == task]
        index = 0
        for gen in range(repeats):
            for group, item in enumerate(items):
                kind = plan(item["item_id"], gen)
                answer = "（虚构回答）%s 第%d次生成。" % (item["item_id"], gen + 1)
                stop = "length" if kind == "length" else "stop"
                pred = {"index": index, "model": model,
                        "model_output": {"id": None, "model": model,
                                         "choices": [{"message": message("assistant", answer, model), "stop_reason": stop,
                                                      "logprobs": None}],
                                         "usage": None, "time": None, "metadata": None, "error": None, "perf_metrics": None},
                        "messages": [message("user", render(item)), message("assistant", answer, model)],
                        "agent_trace": None, "metadata": sample_metadata(item)}
                files[task]["predictions"].append(pred)
                if stop == "length":
                    counts[gen]["truncated"][task] += 1
                if kind == "errored":
                    counts[gen]["unavailable"][task] += 1
                    index += 1
                    continue
                extreme = kind if kind in ("high", "low") else None
                obs = []
                attempts = []
                for j in judges:
                    for rep in range(2 if len(judges) > 1 else 1):
                        meta, value, raw = observation(item, rng, extreme)
                        obs.append((j, rep, meta, value))
                        attempts.append({"status": "success", "case_id": "rubric", "judge_id": j, "repeat_id": rep,
                                         "placement": "original",
                                         "messages": [{"id": "s", "content": "## 角色…", "role": "system"},
                                                      {"id": "u", "content": "# 问题内容…", "role": "user"}],
                                         "raw_response": "分析……\n```json\n" + json.dumps(raw, ensure_ascii=False) + "\n```",
                                         "parsed_value": raw, "error": None, "latency": 3.2})
                # evalscope: a judge's repeats reduced, then the judges aggregated, per metric.
                per_judge = []
                for j in judges:
                    mine = [v for (jj, _, _, v) in obs if jj == j]
                    per_judge.append({k: aggregate([v[k] for v in mine], aggregation) for k in mine[0]})
                value = {k: aggregate([pj[k] for pj in per_judge], aggregation) for k in per_judge[0]}
                first_meta = obs[0][2]
                score_meta = {"source": "llm_judge", "judge_strategy": "llm", "model": judges[0],
                              "non_official_position_swap": False}
                score_meta.update(first_meta)
                status = "success"
                if kind == "parse_error":
                    status = "parse_error"
                    value = {}
                    attempts[-1]["status"] = "parse_error"
                if kind == "judge_failed":
                    value = {"acc": 0.0}
                    if item["task"] == "case_analysis":
                        value.update({m: 0.0 for m in METRIC.values()})
                    score_meta = {"source": "plawbench_rubric_judge", "judge_failed": True}
                if status == "success" and kind != "judge_failed":
                    per_gen[gen][task].append(value["acc"])
                else:
                    counts[gen]["unavailable"][task] += 1
                if len(judges) > 1:
                    score_meta["judge_observation_metadata"] = [
                        {"judge_id": j, "repeat_id": rep, "status": "success", "metadata": meta}
                        for (j, rep, meta, _) in obs]
                if not legacy:
                    score_meta["judge_attempts"] = attempts
                score = {"value": value, "extracted_prediction": answer, "prediction": answer, "explanation": None,
                         "metadata": score_meta, "main_score_name": "acc"}
                if not legacy:
                    score["status"] = status
                    score["judge_summary"] = {
                        "status": status, "scored": 0 if status != "success" else 1, "total": 1,
                        "coverage": 1.0 if status == "success" else 0.0, "judge_models": judges,
                        "valid_observations": len(obs), "total_observations": len(obs), "failures": {},
                        "disagreement": {}, "error": "judge reply is not valid JSON" if status != "success" else None}
                review = {"index": index,
                          "target": ["**Rubric score**: … / %d" % item["max_points"]],
                          "messages": [message("user", render(item)), message("assistant", answer, model)],
                          "agent_trace": None,
                          "sample_score": {"score": score, "sample_id": index, "group_id": group,
                                           "generation_index": gen, "sample_metadata": sample_metadata(item)}}
                files[task]["reviews"].append(review)
                for k, v in value.items():
                    report_values[task].setdefault(k, []).append(v)
                index += 1
    for task in TASKS:
        for kind in ("predictions", "reviews"):
            d = os.path.join(root, kind, model)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "plawbench_%s.jsonl" % task), "w", encoding="utf-8", newline="\n") as f:
                for row in files[task][kind]:
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")

    def subset_rows(metric):
        rows = []
        for task in TASKS:
            vals = report_values[task].get(metric)
            if vals:
                rows.append({"name": task, "score": round(sum(vals) / len(vals), 4), "num": len(vals),
                             "metadata": None, "is_aggregate": False})
        return rows

    metric_names = ["acc"] + list(METRIC.values())
    metrics = []
    for metric in metric_names:
        rows = subset_rows(metric)
        num = sum(r["num"] for r in rows)
        micro = round(sum(r["score"] * r["num"] for r in rows) / num, 4)
        macro = round(sum(r["score"] for r in rows) / len(rows), 4)
        category = {"name": ["default"], "num": num, "score": micro, "macro_score": macro, "subsets": rows}
        if legacy:
            metrics.append({"name": "mean_" + metric, "num": num, "score": micro, "macro_score": macro,
                            "categories": [category]})
        else:
            metrics.append({"identity": {"name": "accuracy" if metric == "acc" else metric, "aggregation": "mean",
                                         "dimensions": {}}, "legacy_name": None, "num": num, "score": micro,
                            "macro_score": macro, "categories": [category]})
    report = {"name": model + "@plawbench", "dataset_name": "plawbench", "dataset_pretty_name": "PLawBench",
              "model_name": model, "metrics": metrics, "analysis": "N/A"}
    if legacy:
        report["score"] = metrics[0]["score"]
        report["num"] = metrics[0]["num"]
    else:
        report = {"schema_version": 2, **report, "num": metrics[0]["num"]}
    d = os.path.join(root, "reports", model)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "plawbench.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(report, f, ensure_ascii=False, indent=2)
        f.write("\n")
    d = os.path.join(root, "configs")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "task_config.yaml"), "w", encoding="utf-8", newline="\n") as f:
        f.write("api_key: EMPTY\ndatasets:\n- plawbench\neval_type: openai_api\n")
        f.write("generation_config:\n  max_tokens: 16384\n  temperature: 0.0\n")
        f.write("judge:\n  aggregation: %s\n  models:\n" % aggregation)
        for j in judges:
            f.write("  - api_url: http://127.0.0.1:8000/v1\n    judge_id: %s\n    model_id: %s\n" % (j, j))
        f.write("  strategy: llm\nmodel: %s\nrepeats: %d\nwork_dir: ./outputs\n" % (model, repeats))
    for gen in range(repeats):
        accs = {t: (sum(v) / len(v) if v else None) for t, v in per_gen[gen].items()}
        expected["runs"].append({"run": gen + 1, "acc": accs, "counts": counts[gen]})
    expected["report_subsets"] = {t: {m: report_values[t].get(m) and sum(report_values[t][m]) / len(report_values[t][m])
                                      for m in metric_names if report_values[t].get(m)} for t in TASKS}
    return expected


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "dataset.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for item in DATASET:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")

    def v2_plan(item_id, gen):
        if gen == 0:
            return {"case_analysis-2": "high", "case_analysis-3": "low", "legal_consultation-2": "parse_error",
                    "defendant_statement-1": "errored", "plaintiff_statement-1": "length"}.get(item_id, "ok")
        return "ok"

    def legacy_plan(item_id, gen):
        return {"legal_consultation-1": "judge_failed", "case_analysis-1": "judge_failed"}.get(item_id, "ok")

    expected = {
        "v2": build("v2", "20261201_100000", "qwen-plus", ["qwen3-max"], 2, "mean", False, v2_plan, 7),
        "panel": build("panel", "20261202_090000", "glm-4.6", ["qwen3-max", "gpt-4.1"], 1, "median", False,
                       lambda i, g: "ok", 11),
        "v1-legacy": build("v1-legacy", "20260810_120000", "qwen-plus", ["qwen3-max"], 1, "mean", True,
                           legacy_plan, 13),
    }
    with open(os.path.join(OUT, "expected.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def demo():
    """An evalscope output folder for the synthetic PLawBench demo dataset
    (server/data/plawbench/demo.jsonl), zipped for the browser tests' import:
    end2end/fixtures/evalscope-demo.zip (20261201_120000/…), one simulated
    model (sim-evalscope-8b), one judge, one parse_error review."""
    import shutil
    import tempfile
    import zipfile
    global DATASET, OUT
    root = os.path.dirname(ENGINE)
    with open(os.path.join(root, "server", "data", "plawbench", "demo.jsonl"), encoding="utf-8") as f:
        DATASET = [json.loads(line) for line in f if line.strip()]
    OUT = tempfile.mkdtemp()
    build(".", "20261201_120000", "sim-evalscope-8b", ["sim-judge-e"], 1, "mean", False,
          lambda i, g: "parse_error" if i == "legal_consultation-2" else "ok", 17)
    target = os.path.join(root, "end2end", "fixtures", "evalscope-demo.zip")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for folder, _, names in sorted(os.walk(OUT)):
            for name in sorted(names):
                path = os.path.join(folder, name)
                info = zipfile.ZipInfo(os.path.relpath(path, OUT), date_time=(2026, 12, 1, 12, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(path, "rb") as f:
                    z.writestr(info, f.read())
    shutil.rmtree(OUT)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--demo"]:
        demo()
    else:
        main()
