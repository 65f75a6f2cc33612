#!/usr/bin/env python3
"""Generate the SYNTHETIC DLawBench demo for LexPilot Workbench.

Everything written here is fabricated: the 12 cases (ids DL-SYN-…, each
with "notes" saying it is synthetic), the three lawyer models, the client
simulator, the three judges and every session and decision exist only so
that the DLawBench pages have something to show. They are NOT cases of the
DLawBench release and NOT results of any evaluation.

Writes (format: docs/benchmarks/dlawbench.md §A1.2 and §A3):
  demo.jsonl                      dataset "dlawbench-demo-synthetic": 6
                                  Chinese-law cases in Chinese, 6 U.S.-law
                                  cases in English, in several domains, each
                                  with disputed facts where the client's
                                  belief is wrong
  runs/sim-<slug>-run<N>.jsonl    three runs of each simulated model, every
                                  case in all four narrative styles

The simulated models differ in skill, and every one of them does worse with
dependent, withdrawn and adversarial clients than with cooperative ones, so
the style gap shows. The frontier model shares its vendor with one judge,
which therefore recuses from its sessions (two-judge panels, mean).

Deterministic: fixed seed, Python 3 standard library only.

    python3 server/data/dlawbench/generate.py
"""

import json
import os
import random

SEED = 20261202
HERE = os.path.dirname(os.path.abspath(__file__))
DATASET_NAME = "dlawbench-demo-synthetic"
HORIZON = 10
STYLES = ["cooperative", "dependent", "withdrawn", "adversarial"]
NOTE_ZH = "合成示例（synthetic）：为演示而虚构，非真实案件，非 DLawBench 发布数据。"
NOTE_EN = "Synthetic example: invented for the demo; not a real case and not DLawBench release data."


def fact(fid, kind, belief, record):
    return {"id": fid, "type": kind, "client_belief": belief, "court_record": record}


def rubrics(prefix, texts):
    return [{"id": "%s%d" % (prefix, k + 1), "text": t} for k, t in enumerate(texts)]


CASES = [
    {"case_id": "DL-SYN-CN-01", "jurisdiction": "cn", "language": "zh", "domain": "marriage_family_inheritance",
     "title": "遗嘱继承与夫妻共同财产（合成）",
     "opening": "律师您好，我父亲去年去世了，留下一套房子。他写了遗嘱说房子给我，可继母说房子有她一半。我该怎么办？",
     "facts": [
         fact("F1", "undisputed", "父亲2019年亲笔写了遗嘱，写明房子由我继承。", "被继承人于2019年5月自书遗嘱，载明房屋由原告继承，遗嘱真实有效。"),
         fact("F2", "disputed", "房子是父亲一个人的，继母没出过钱，跟她没关系。", "房屋系被继承人与被告婚后共同购买，属夫妻共同财产，被告享有二分之一份额。"),
         fact("F3", "disputed", "卖车的钱都被继母拿走了，应该全部还给我。", "被告仅收取售车款中属于其本人份额的部分，其余款项存于被继承人账户。"),
         fact("F4", "undisputed", "父亲还有一个存款账户，里面大概有二十万。", "被继承人名下银行账户余额约二十万元，属遗产。"),
     ],
     "inquiry_rubrics": rubrics("Q", ["询问房屋购买时间及购房资金来源", "核实遗嘱的形式、书写时间与保存情况", "询问售车款的去向和账户流水"]),
     "issue_rubrics": rubrics("R", ["指出遗嘱只能处分被继承人在夫妻共同财产中的份额", "区分售车款中继母本人份额与遗产，不支持全部返还"])},
    {"case_id": "DL-SYN-CN-02", "jurisdiction": "cn", "language": "zh", "domain": "marriage_family_inheritance",
     "title": "离婚后子女抚养费（合成）",
     "opening": "律师，我离婚三年了，孩子跟我。前夫说他每个月给两千就够了，我觉得太少，能不能让他多给？",
     "facts": [
         fact("F1", "undisputed", "离婚协议写的是孩子归我，他每月付两千抚养费。", "双方离婚协议约定子女由原告抚养，被告每月支付抚养费二千元。"),
         fact("F2", "disputed", "他现在收入翻了好几倍，肯定一个月挣好几万。", "被告现月收入约一万二千元，较离婚时增长约百分之五十。"),
         fact("F3", "disputed", "孩子上的兴趣班都应该他全出。", "子女兴趣班费用属于可协商分担的教育支出，并非当然由一方全额负担。"),
         fact("F4", "undisputed", "孩子今年上初中，学费和生活费都涨了。", "子女已升入初中，教育及生活费用较离婚时明显增加。"),
     ],
     "inquiry_rubrics": rubrics("Q", ["询问对方目前的收入情况及证据", "询问子女现阶段的实际支出明细"]),
     "issue_rubrics": rubrics("R", ["说明可因子女实际需要增加和对方收入提高请求增加抚养费", "指出兴趣班等费用应按比例分担而非全由一方承担", "提示收集对方收入证据"])},
    {"case_id": "DL-SYN-CN-03", "jurisdiction": "cn", "language": "zh", "domain": "labor",
     "title": "违法解除劳动合同（合成）",
     "opening": "我在公司干了五年，上个月突然被辞退了，说我绩效不合格。我能要多少赔偿？",
     "facts": [
         fact("F1", "undisputed", "我2020年3月入职，签了劳动合同。", "原告于2020年3月入职，双方签订书面劳动合同。"),
         fact("F2", "disputed", "公司没给我任何补偿，一分钱都没有。", "公司在解除时已支付一个月工资作为代通知金。"),
         fact("F3", "disputed", "绩效考核是领导随便打的分，根本没有制度。", "公司有经职工代表大会通过并公示的绩效考核制度。"),
         fact("F4", "disputed", "公司直接辞退，没有给我调岗或者培训。", "公司未对原告进行培训或调整岗位即解除劳动合同。"),
         fact("F5", "undisputed", "我离职前月工资一万。", "原告解除前十二个月平均工资为一万元。"),
     ],
     "inquiry_rubrics": rubrics("Q", ["询问解除通知的内容和送达方式", "核实公司是否支付过任何款项", "询问绩效制度是否经民主程序并公示"]),
     "issue_rubrics": rubrics("R", ["指出不能胜任工作须经培训或调岗仍不能胜任方可解除", "说明违法解除可主张二倍经济补偿金作为赔偿金", "已付代通知金不影响违法解除赔偿金的认定"])},
    {"case_id": "DL-SYN-CN-04", "jurisdiction": "cn", "language": "zh", "domain": "labor",
     "title": "加班费争议（合成）",
     "opening": "律师，我们公司天天加班到晚上十点，从来不给加班费。我能把这几年的加班费都要回来吗？",
     "facts": [
         fact("F1", "undisputed", "我每天都要加班到晚上十点左右。", "考勤记录显示原告工作日平均下班时间为二十一时四十分。"),
         fact("F2", "disputed", "这几年所有的加班费都能要回来。", "加班费请求适用一年仲裁时效，在职期间不受限，离职后一年内提出。"),
         fact("F3", "disputed", "公司说我们是综合工时制，我觉得那是骗人的。", "公司就该岗位已取得综合计算工时工作制的行政审批。"),
         fact("F4", "undisputed", "我手机里有工作群的加班安排消息。", "原告提交的工作群聊天记录显示主管多次安排加班。"),
     ],
     "inquiry_rubrics": rubrics("Q", ["询问是否仍在职以及离职时间", "询问有无考勤或加班安排的证据", "核实公司是否取得特殊工时审批"]),
     "issue_rubrics": rubrics("R", ["说明综合工时制下超出周期标准工时的部分仍应支付加班费", "说明仲裁时效规则，不能当然主张全部年份"])},
    {"case_id": "DL-SYN-CN-05", "jurisdiction": "cn", "language": "zh", "domain": "personality_rights",
     "title": "网络名誉侵权（合成）",
     "opening": "有人在网上发帖说我卖假货，还配了我的照片，现在好多人骂我。我要告他，让他赔我一百万。",
     "facts": [
         fact("F1", "undisputed", "对方在论坛上发帖说我卖假货，还用了我的照片。", "被告在某论坛发帖称原告售卖假冒商品，并附原告照片。"),
         fact("F2", "disputed", "帖子被几十万人看过，我的店因此倒闭了。", "帖子浏览量约三千次，原告网店停业系因平台资质问题，与帖子无直接因果关系。"),
         fact("F3", "disputed", "我卖的东西全是正品，从来没有问题。", "原告曾因一批商品来源不明被平台下架处理。"),
         fact("F4", "undisputed", "我找人截图保存了帖子。", "原告提交了经公证的帖子截图。"),
     ],
     "inquiry_rubrics": rubrics("Q", ["询问帖子的浏览量、转发量及是否已删除", "询问店铺经营受损与帖子之间的关系及证据", "询问是否已做证据保全"]),
     "issue_rubrics": rubrics("R", ["分析名誉权侵权构成要件，包括内容是否失实", "指出赔偿数额须与损害及因果关系相当，一百万缺乏依据"])},
    {"case_id": "DL-SYN-CN-06", "jurisdiction": "cn", "language": "zh", "domain": "contracts",
     "title": "装修合同定金（合成）",
     "opening": "我跟装修公司签了合同，交了五万定金。现在我不想装了，他们不退钱。定金是不是都能要回来？",
     "facts": [
         fact("F1", "undisputed", "合同写的是定金五万元。", "双方合同约定定金五万元，原告已支付。"),
         fact("F2", "disputed", "是他们拖着不开工，我才不想装的。", "合同约定开工日期前，原告书面通知解除合同，被告并无迟延。"),
         fact("F3", "disputed", "定金不管怎样都应该退给我。", "因原告单方违约解除，适用定金罚则，原告无权请求返还定金。"),
         fact("F4", "undisputed", "他们还没有买任何材料。", "被告尚未采购材料，未发生实际施工。"),
     ],
     "inquiry_rubrics": rubrics("Q", ["询问合同约定的开工日期和实际沟通经过", "核实是谁先提出解除以及方式"]),
     "issue_rubrics": rubrics("R", ["说明定金罚则：给付定金一方违约无权请求返还", "提示如定金过高可请求调整，或协商部分返还"])},
    {"case_id": "DL-SYN-US-01", "jurisdiction": "us", "language": "en", "domain": "torts",
     "title": "Slip and fall at a grocery store (synthetic)",
     "opening": "I slipped on a puddle at a grocery store and broke my wrist. The store should pay for everything, right?",
     "facts": [
         fact("F1", "undisputed", "I fell in the produce aisle on March 3 and broke my wrist.", "Plaintiff fell in the produce aisle on March 3 and suffered a fractured wrist."),
         fact("F2", "disputed", "The puddle had been there for hours, so the store knew about it.", "Surveillance video shows the spill occurred about four minutes before the fall; no employee saw it."),
         fact("F3", "disputed", "There was no warning sign anywhere.", "A wet-floor sign stood at the end of the aisle, about twenty feet away."),
         fact("F4", "undisputed", "I was looking at my phone when I fell.", "Plaintiff was reading her phone at the time of the fall."),
         fact("F5", "undisputed", "My medical bills are about $18,000.", "Medical expenses total $18,240."),
     ],
     "inquiry_rubrics": rubrics("Q", ["Ask how long the spill was present and whether anyone saw it", "Ask about warning signs and where they were", "Ask what the client was doing at the time of the fall"]),
     "issue_rubrics": rubrics("R", ["Explains that premises liability requires actual or constructive notice of the hazard", "Explains comparative negligence may reduce recovery"])},
    {"case_id": "DL-SYN-US-02", "jurisdiction": "us", "language": "en", "domain": "torts",
     "title": "Dog bite at a neighbor's house (synthetic)",
     "opening": "My neighbor's dog bit my son when he went into their yard. I want to sue them for a lot of money.",
     "facts": [
         fact("F1", "undisputed", "The dog bit my son's arm and he needed stitches.", "The minor plaintiff sustained a bite to the forearm requiring six stitches."),
         fact("F2", "disputed", "The dog had bitten other kids before.", "There is no record of prior bites or complaints about the dog."),
         fact("F3", "disputed", "My son was just walking by on the sidewalk.", "The son climbed the neighbor's fence into the fenced backyard."),
         fact("F4", "undisputed", "There was a Beware of Dog sign on the gate.", "A 'Beware of Dog' sign was posted on the gate."),
     ],
     "inquiry_rubrics": rubrics("Q", ["Ask where exactly the child was when bitten", "Ask whether the dog had a history of biting"]),
     "issue_rubrics": rubrics("R", ["Explains the state's dog-bite rule (strict liability statute vs one-bite rule)", "Explains trespass and provocation defenses"])},
    {"case_id": "DL-SYN-US-03", "jurisdiction": "us", "language": "en", "domain": "contracts",
     "title": "Unpaid freelance invoice (synthetic)",
     "opening": "I built a website for a client and they refuse to pay the last $6,000. Can I take the website down?",
     "facts": [
         fact("F1", "undisputed", "We agreed on $12,000 for the site, half up front.", "The written agreement set a $12,000 fee, $6,000 payable on signing."),
         fact("F2", "disputed", "The contract says I can take the site down if they don't pay.", "The agreement contains no takedown or lien clause; it assigns ownership of deliverables on delivery."),
         fact("F3", "disputed", "They never complained about the work.", "The client sent three written notices of defects before the final invoice."),
         fact("F4", "undisputed", "I delivered the site on June 1.", "The site was delivered on June 1."),
     ],
     "inquiry_rubrics": rubrics("Q", ["Ask for the written contract terms on ownership and payment", "Ask whether the client raised defects in writing"]),
     "issue_rubrics": rubrics("R", ["Warns that disabling the site without a contractual right may be a breach or unlawful", "Explains the claim for the unpaid balance and the effect of documented defects"])},
    {"case_id": "DL-SYN-US-04", "jurisdiction": "us", "language": "en", "domain": "privacy_data_protection",
     "title": "Employer reading personal email (synthetic)",
     "opening": "My boss read my personal emails on my work laptop and fired me over them. Isn't that illegal?",
     "facts": [
         fact("F1", "undisputed", "I used my personal Gmail on the company laptop.", "Plaintiff accessed a personal webmail account on a company-issued laptop."),
         fact("F2", "disputed", "Nobody ever told me the company could look at the laptop.", "Plaintiff signed an acceptable-use policy stating devices are monitored and there is no expectation of privacy."),
         fact("F3", "disputed", "They hacked into my Gmail account.", "The employer reviewed cached screenshots captured by monitoring software; it did not log in to the account."),
         fact("F4", "undisputed", "I was fired two days later.", "Plaintiff's employment was terminated two days after the review."),
     ],
     "inquiry_rubrics": rubrics("Q", ["Ask whether the client signed a device or monitoring policy", "Ask how the employer obtained the emails"]),
     "issue_rubrics": rubrics("R", ["Explains the reduced expectation of privacy on employer devices with a monitoring policy", "Distinguishes unauthorized access to an account (Stored Communications Act) from device monitoring"])},
    {"case_id": "DL-SYN-US-05", "jurisdiction": "us", "language": "en", "domain": "immigration",
     "title": "Overstay and marriage-based green card (synthetic)",
     "opening": "I came on a tourist visa and stayed after it expired. Now I'm marrying a U.S. citizen. Do I have to leave the country first?",
     "facts": [
         fact("F1", "undisputed", "I entered with a B-2 tourist visa two years ago.", "The client was inspected and admitted on a B-2 visa."),
         fact("F2", "disputed", "Because I overstayed, I have to go back home and wait ten years.", "An immediate relative who was inspected and admitted may adjust status despite an overstay."),
         fact("F3", "undisputed", "My fiancé is a U.S. citizen.", "The future spouse is a U.S. citizen."),
         fact("F4", "disputed", "I never had any trouble with the police.", "The client has a pending misdemeanor shoplifting charge."),
     ],
     "inquiry_rubrics": rubrics("Q", ["Ask how the client entered (inspected and admitted?)", "Ask about any arrests or criminal charges"]),
     "issue_rubrics": rubrics("R", ["Explains adjustment of status for immediate relatives despite overstay", "Flags the risk of the pending criminal charge"])},
    {"case_id": "DL-SYN-US-06", "jurisdiction": "us", "language": "en", "domain": "civil_rights",
     "title": "Police failure to enforce a protective order (synthetic)",
     "opening": "I had a protective order against my ex, and the police didn't arrest him when he violated it. Can I sue the city?",
     "facts": [
         fact("F1", "undisputed", "A court issued a protective order against my ex.", "A state court issued a protective order restraining the ex-partner."),
         fact("F2", "disputed", "The order meant the police had to arrest him.", "Under the governing precedent there is no protected property interest in police enforcement of the order."),
         fact("F3", "undisputed", "I called the police four times that night.", "Dispatch logs show four calls between 8 p.m. and midnight."),
         fact("F4", "disputed", "The officers told me they would never help someone like me.", "No recording or witness confirms such a statement; the officers deny it."),
     ],
     "inquiry_rubrics": rubrics("Q", ["Ask what the order's enforcement notice said", "Ask for evidence of what the officers said"]),
     "issue_rubrics": rubrics("R", ["Explains that a procedural due process claim needs a protected property interest, which is doubtful", "Mentions possible equal protection or state-law claims and their evidentiary needs"])},
]

for c in CASES:
    c["notes"] = NOTE_ZH if c["jurisdiction"] == "cn" else NOTE_EN

JUDGES = [
    {"model": "Sim-Judge-GPT (simulated)", "vendor": "openai"},
    {"model": "Sim-Judge-Claude (simulated)", "vendor": "anthropic"},
    {"model": "Sim-Judge-Gemini (simulated)", "vendor": "google"},
]

# slug, model, vendor, family, skill, failure rate
MODELS = [
    ("frontier-5", "Sim-Frontier-5 (simulated)", "openai", "closed", 0.82, 0.01),
    ("openlaw-70b", "Sim-OpenLaw-70B (simulated)", "openlaw", "open", 0.66, 0.03),
    ("lexcounsel-14b", "Sim-LexCounsel-14B (simulated)", "lexcounsel", "legal", 0.50, 0.07),
]
RUNS_PER_MODEL = 3

# How each style changes what the lawyer elicits and how many turns it takes.
STYLE_EFFECT = {"cooperative": 0.0, "dependent": -0.10, "withdrawn": -0.18, "adversarial": -0.07}
STYLE_TURNS = {"cooperative": (2, 6), "dependent": (3, 8), "withdrawn": (3, 10), "adversarial": (2, 9)}


def clamp(x):
    return max(0.02, min(0.98, x))


def client_reply(c, style, f, rng):
    zh = c["language"] == "zh"
    belief = f["client_belief"]
    if style == "cooperative":
        return belief + ("另外我还想补充一点细节。" if zh and rng.random() < 0.3 else "")
    if style == "dependent":
        return ("我也不知道这个重不重要……" if zh else "I don't know if this matters... ") + belief + ("您看我该怎么办？" if zh else " What should I do?")
    if style == "withdrawn":
        short = belief[: max(6, len(belief) // 2)]
        return (short + "……就这样吧。") if zh else (short + "... that's about it.")
    return (("这跟我的案子有什么关系？" if zh else "What does that have to do with my case? ") + belief)


def lawyer_question(c, rubric, rng):
    zh = c["language"] == "zh"
    return ("请问：" if zh else "Could you tell me: ") + rubric["text"] + ("？" if zh else "?")


def memo(c, covered, correct):
    zh = c["language"] == "zh"
    parts = []
    for f in c["facts"]:
        if f["id"] not in covered:
            continue
        if f["id"] in correct:
            parts.append(("事实：" if zh else "Fact: ") + f["court_record"])
        else:
            parts.append(("当事人称：" if zh else "Client states: ") + f["client_belief"])
    head = "（模拟备忘录）" if zh else "(simulated memo) "
    return head + (" ".join(parts) if parts else ("暂无明确事实。" if zh else "No facts established."))


def judge_decisions(c, rng, covered, correct, inquiry_p, issue_p, claims):
    def flip(p):
        return rng.random() < p
    ids = [f["id"] for f in c["facts"]]
    cov = [i for i in ids if (i in covered) != flip(0.08)]
    cor = [i for i in cov if (i in correct) != flip(0.08)]
    total = max(0, claims + rng.randint(-1, 1))
    grounded_share = clamp(0.55 + 0.4 * inquiry_p + rng.uniform(-0.1, 0.1))
    return {
        "inquiry": [int(rng.random() < inquiry_p) for _ in c["inquiry_rubrics"]],
        "issue": [int(rng.random() < issue_p) for _ in c["issue_rubrics"]],
        "covered": cov, "correct": cor,
        "claims_total": total, "claims_grounded": round(total * grounded_share),
    }


def session(c, style, model, rng):
    slug, name, vendor, family, skill, fail_rate = model
    ability = clamp(skill + STYLE_EFFECT[style] + rng.uniform(-0.06, 0.06))
    lo, hi = STYLE_TURNS[style]
    turns = min(HORIZON, rng.randint(lo, hi) + (1 if ability < 0.5 else 0))
    # A weaker lawyer more often runs out of turns.
    if rng.random() < (1 - ability) * 0.15:
        turns = HORIZON
    status = "horizon" if turns == HORIZON else "submitted"
    roll = rng.random()
    if roll < fail_rate * 0.4:
        status = "lawyer_error"
        turns = rng.randint(0, turns)
    elif roll < fail_rate * 0.7:
        status = "empty_memo"
        turns = min(turns, HORIZON - 1)
    elif roll < fail_rate and status == "horizon":
        status = "no_memo"
    dlg = [{"role": "client", "content": c["opening"]}]
    asked = rng.sample(c["inquiry_rubrics"], k=min(len(c["inquiry_rubrics"]), turns))
    for k in range(turns):
        rubric = asked[k] if k < len(asked) else rng.choice(c["inquiry_rubrics"])
        dlg.append({"role": "lawyer", "action": "ask", "content": lawyer_question(c, rubric, rng)})
        dlg.append({"role": "client", "content": client_reply(c, style, rng.choice(c["facts"]), rng)})
    s = {"kind": "session", "case_id": c["case_id"], "style": style, "status": status,
         "turns_used": turns, "dialogue": dlg}
    if status == "lawyer_error":
        return s
    if status in ("empty_memo", "no_memo"):
        s["memo"] = ""
        return s
    covered = {f["id"] for f in c["facts"] if rng.random() < clamp(ability + 0.1)}
    # Disputed facts are where the client is wrong: correcting them is harder.
    correct = {f["id"] for f in c["facts"] if f["id"] in covered and
               rng.random() < clamp(ability - (0.25 if f["type"] == "disputed" else 0.0))}
    s["memo"] = memo(c, covered, correct)
    claims = rng.randint(3, 9)
    s["panel"] = []
    for j in JUDGES:
        recused = j["vendor"] == vendor
        seat = {"judge": j["model"], "recused": recused}
        if not recused:
            if rng.random() < 0.015:
                seat["unavailable"] = "3 attempts: reply failed validation"
            else:
                seat["decisions"] = judge_decisions(c, rng, covered, correct, clamp(ability - 0.05),
                                                    clamp(ability - 0.15), claims)
                seat["rationale"] = ("（模拟理由）" if c["language"] == "zh" else "(simulated rationale) ") + \
                    "covered %d of %d facts" % (len(seat["decisions"]["covered"]), len(c["facts"]))
        s["panel"].append(seat)
    return s


def main():
    rng = random.Random(SEED)
    with open(os.path.join(HERE, "demo.jsonl"), "w", encoding="utf-8") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    runs_dir = os.path.join(HERE, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    for m, model in enumerate(MODELS):
        slug, name, vendor, family, skill, fail_rate = model
        for run in range(1, RUNS_PER_MODEL + 1):
            header = {"kind": "run", "benchmark": "dlawbench", "model": name, "vendor": vendor,
                      "family": family, "run": run, "dataset": DATASET_NAME,
                      "client_model": "Sim-Client-Flash (simulated)", "judges": JUDGES,
                      "horizon": HORIZON, "prompt_version": "dlaw-v1",
                      "created_at": "2026-12-02T%02d:%02d:00Z" % (9 + m, 10 * run), "simulated": True}
            path = os.path.join(runs_dir, "sim-%s-run%d.jsonl" % (slug, run))
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(header, ensure_ascii=False) + "\n")
                for style in STYLES:
                    for c in CASES:
                        f.write(json.dumps(session(c, style, model, rng), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
