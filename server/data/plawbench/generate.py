#!/usr/bin/env python3
"""Generate the SYNTHETIC PLawBench demo for LexPilot Workbench.

Everything written here is fabricated: the 24 items (each marked 虚构,
fictional), the three models, the two judges and every score exist only so
that the PLawBench leaderboard has something to show. They are NOT items of
the official release and NOT results of any evaluation.

Writes (format: docs/benchmarks/plawbench.md §B1.1 and §B3):
  demo.jsonl                      dataset "plawbench-demo-synthetic": 12
                                  case_analysis, 6 legal_consultation,
                                  3 plaintiff_statement, 3 defendant_statement
  runs/sim-<slug>-run<N>.jsonl    two runs of each simulated model

Deterministic: fixed seed, Python 3 standard library only.

    python3 server/data/plawbench/generate.py
"""

import json
import os
import random

SEED = 20261201
HERE = os.path.dirname(os.path.abspath(__file__))
DATASET_NAME = "plawbench-demo-synthetic"

TAGS = [("结论得分", "conclusion"), ("案情简述得分", "facts"), ("分析过程得分", "reasoning"), ("法条依据得分", "law")]
TITLES = {"结论得分": "【结论得分】", "案情简述得分": "【案情简述得分】", "分析过程得分": "【分析过程得分】", "法条依据得分": "【法条依据得分】"}
CASE_QUESTION = "以【结论 + 案情简述 + 分析过程+依据法条】的逻辑回答以下问题："

# (category, context, question, {tag: [(points, point text), ...]})
CASES = [
    ("个人生活", "（虚构案例）甲与某摄影服务公司签订婚礼跟拍合同并付清全款，公司未经甲同意将拍摄转包给乙工作室，乙因设备故障丢失全部录像。",
     "甲能否向摄影服务公司主张精神损害赔偿？",
     {"结论得分": [(5, "甲有权向摄影服务公司主张精神损害赔偿。")],
      "案情简述得分": [(10, "指出合同约定全程跟拍且甲已付清全款。"), (10, "指出录像全部丢失、无法交付。")],
      "分析过程得分": [(10, "公司擅自转包并未交付，构成违约。"), (10, "婚礼录像是具有人身意义的特定物，其灭失造成严重精神损害。")],
      "法条依据得分": [(15, "《民法典》第九百九十六条（违约责任中的精神损害赔偿）。")]}),
    ("婚姻家事", "（虚构案例）丙与丁婚后以丁父母出资的首付款购房，房屋登记在丁一人名下，婚后共同还贷。现双方离婚。",
     "该房屋应如何认定与分割？",
     {"结论得分": [(5, "房屋原则上归丁，丁应就共同还贷部分及增值对丙予以补偿。")],
      "案情简述得分": [(8, "首付款由丁父母出资。"), (7, "婚后共同偿还贷款。")],
      "分析过程得分": [(10, "父母出资的性质认定（赠与一方还是双方）。"), (10, "共同还贷部分属于夫妻共同财产。"), (5, "补偿数额的计算方法。")],
      "法条依据得分": [(10, "《民法典》第一千零六十二条、第一千零八十七条。"), (5, "《民法典婚姻家庭编解释（一）》第二十九条、第七十八条。")]}),
    ("劳动人事", "（虚构案例）戊在试用期第五个月被公司以“不符合录用条件”为由解除劳动合同，公司未事先告知录用条件。",
     "公司的解除行为是否合法？",
     {"结论得分": [(10, "解除违法，戊可主张继续履行或违法解除赔偿金。")],
      "案情简述得分": [(10, "试用期内解除；公司未事先告知录用条件。")],
      "分析过程得分": [(15, "以不符合录用条件解除须以事先明确告知的录用条件为前提。"), (15, "公司负有举证责任，举证不能应承担不利后果。")],
      "法条依据得分": [(10, "《劳动合同法》第三十九条第一项。"), (10, "《劳动合同法》第四十八条、第八十七条。")]}),
    ("公司治理", "（虚构案例）某有限公司股东己持股10%，多次书面请求查阅公司会计账簿均被拒绝，公司称己经营同类业务。",
     "己能否通过诉讼查阅会计账簿？",
     {"结论得分": [(5, "若公司能证明己有不正当目的可拒绝，否则己可诉请查阅。")],
      "案情简述得分": [(5, "己已书面请求并说明目的。"), (5, "公司以同业竞争为由拒绝。")],
      "分析过程得分": [(10, "股东知情权的行使条件。"), (10, "“不正当目的”的认定与举证责任在公司。")],
      "法条依据得分": [(10, "《公司法》第五十七条。"), (5, "《公司法解释（四）》第八条。")]}),
    ("知识产权", "（虚构案例）庚公司未经许可在其网店商品详情页使用某摄影师的作品作为背景图，摄影师起诉要求赔偿。",
     "庚公司是否构成侵权，赔偿如何确定？",
     {"结论得分": [(6, "构成侵害信息网络传播权，应停止侵权并赔偿损失。")],
      "案情简述得分": [(12, "未经许可在网店使用摄影作品。")],
      "分析过程得分": [(12, "摄影作品受著作权法保护。"), (12, "商业使用不构成合理使用。"), (6, "赔偿数额的确定顺序。")],
      "法条依据得分": [(12, "《著作权法》第十条第一款第十二项、第五十二条、第五十四条。")]}),
    ("刑事实务", "（虚构案例）辛在超市多次将未付款商品藏于衣内带出，累计价值两千余元，被当场抓获后退赔。",
     "辛的行为如何定性，可能的处理结果是什么？",
     {"结论得分": [(8, "构成盗窃罪，可依法从轻处罚。")],
      "案情简述得分": [(8, "多次秘密窃取；累计金额达到数额较大标准。"), (4, "案发后退赔。")],
      "分析过程得分": [(15, "以非法占有为目的秘密窃取。"), (10, "数额较大与多次盗窃的认定。"), (5, "退赔与认罪认罚的从宽情节。")],
      "法条依据得分": [(10, "《刑法》第二百六十四条。"), (5, "两高《关于办理盗窃刑事案件适用法律若干问题的解释》第一条、第二条。")]}),
    ("诉讼仲裁", "（虚构案例）壬与某装修公司的合同约定“争议提交某仲裁委员会仲裁”，壬却向法院起诉，公司首次开庭前未提出异议并应诉答辩。",
     "法院能否继续审理该案？",
     {"结论得分": [(5, "可以，视为放弃仲裁协议，法院取得管辖权。")],
      "案情简述得分": [(10, "存在有效仲裁条款；公司首次开庭前未提异议。")],
      "分析过程得分": [(15, "仲裁协议的排除效力及其放弃。"), (10, "异议期限为首次开庭前。")],
      "法条依据得分": [(10, "《仲裁法》第二十六条。"), (5, "《民事诉讼法》第一百二十七条第二项。")]}),
    ("跨国事务", "（虚构案例）中国公司与德国公司订立设备买卖合同，未约定适用法律，双方营业地所在国均为《联合国国际货物销售合同公约》缔约国。",
     "该合同争议应适用什么法律？",
     {"结论得分": [(5, "应优先适用《联合国国际货物销售合同公约》。")],
      "案情简述得分": [(10, "国际货物买卖；双方营业地国均为公约缔约国；未选择法律。")],
      "分析过程得分": [(15, "公约的自动适用条件。"), (10, "公约未规定事项依冲突规范确定准据法。")],
      "法条依据得分": [(10, "《联合国国际货物销售合同公约》第一条第一款（a）项。"), (10, "《涉外民事关系法律适用法》第四十一条。")]}),
    ("环保安全", "（虚构案例）某化工厂夜间向河道排放超标废水，造成下游养殖户鱼苗大量死亡，化工厂称其已取得排污许可证。",
     "养殖户能否要求化工厂赔偿，化工厂的抗辩能否成立？",
     {"结论得分": [(5, "能，排污许可不是免责事由。")],
      "案情简述得分": [(10, "超标排放；下游鱼苗死亡。")],
      "分析过程得分": [(15, "环境污染责任为无过错责任。"), (10, "因果关系举证责任倒置。")],
      "法条依据得分": [(10, "《民法典》第一千二百二十九条、第一千二百三十条。")]}),
    ("法律时效敏感度", "（虚构案例）癸于2019年3月借给朋友五万元，约定2019年底归还，此后未催讨，2024年2月起诉。",
     "癸的请求是否已过诉讼时效？",
     {"结论得分": [(8, "已过三年诉讼时效，对方抗辩的，法院不予支持。")],
      "案情简述得分": [(8, "还款期限2019年底；其间未催讨；2024年起诉。")],
      "分析过程得分": [(12, "诉讼时效自履行期限届满之日起算。"), (8, "无中断、中止事由。"), (4, "时效届满后对方同意履行的例外。")],
      "法条依据得分": [(10, "《民法典》第一百八十八条、第一百九十二条。")]}),
    ("法律科技", "（虚构案例）某平台利用算法对老用户展示更高价格（“大数据杀熟”），消费者发现后要求退还差价。",
     "消费者的主张有无依据？",
     {"结论得分": [(5, "有依据，平台应退还差价并可能承担其他责任。")],
      "案情简述得分": [(10, "同一商品对老用户定价更高。")],
      "分析过程得分": [(10, "侵害消费者公平交易权与知情权。"), (10, "个人信息处理中不合理的差别待遇。")],
      "法条依据得分": [(10, "《个人信息保护法》第二十四条。"), (5, "《消费者权益保护法》第十条。")]}),
    ("法律理论应用", "（虚构案例）子在商场试穿时，商场保洁员拖地未设警示牌，子滑倒受伤，商场称保洁由外包公司负责。",
     "子应向谁主张赔偿？",
     {"结论得分": [(5, "可向商场主张，商场承担责任后可向外包公司追偿。")],
      "案情简述得分": [(10, "拖地未设警示；在营业场所内受伤。")],
      "分析过程得分": [(15, "经营场所管理者的安全保障义务。"), (5, "外包不免除管理者义务。")],
      "法条依据得分": [(10, "《民法典》第一千一百九十八条。")]}),
]

CONSULTATIONS = [
    ("律师您好！（虚构）我老公天天喝酒，上个月把我打进了医院。房子是我婚前买的，他逼我签了个协议说谁提离婚房子归对方。我要离婚，房子和孩子都要！",
     [(3, "被打住院的具体时间、是否报警、有无病历和诊断证明？"), (3, "协议签署的时间、地点，是否有胁迫的证据？"), (2, "房屋婚前购买的付款与登记情况？"), (2, "孩子的年龄及目前由谁照顾？")]),
    ("（虚构）公司已经三个月没给我发工资了，老板说资金紧张让再等等，我想辞职，但是怕拿不到钱。",
     [(3, "是否签订书面劳动合同，工资标准如何约定？"), (3, "欠薪的具体月份和金额，有无工资条或转账记录？"), (2, "是否有书面催要工资的记录？"), (2, "社保缴纳情况？")]),
    ("（虚构）我在网上买了一台二手车，卖家说没出过事故，结果修车时发现是泡水车。",
     [(3, "购车合同或聊天记录中对车况的具体描述？"), (3, "检测机构的检测报告是否认定为泡水车？"), (2, "车辆价款和支付方式？"), (2, "发现问题后是否及时通知卖家？")]),
    ("（虚构）邻居装修把我家墙面弄裂了，物业不管，邻居也不认账。",
     [(3, "墙面开裂出现的时间与邻居施工时间的关系？"), (3, "是否有照片、视频或鉴定意见？"), (2, "是否与邻居或物业有书面沟通？")]),
    ("（虚构）我父亲去世了，留下一套房子，哥哥说父亲生前写了遗嘱都给他，但我没见过。",
     [(3, "遗嘱的形式（自书、代书、打印、录音录像）和见证情况？"), (3, "遗嘱订立时父亲的精神状况？"), (2, "房屋是父亲个人财产还是与母亲的共同财产？"), (2, "还有哪些法定继承人？"), (2, "父亲生前由谁主要赡养？")]),
    ("（虚构）我开车被追尾，对方全责，保险公司只赔修车费，误工费不给。",
     [(3, "交通事故认定书的责任划分？"), (3, "误工时间及收入减少的证明？"), (2, "对方车辆投保的险种与保额？")]),
]

DRAFTS = [
    ("plaintiff_statement", "（虚构）我叫张某，2023年5月借给李某二十万元用于开店，有借条和转账记录，约定一年后还，到期后他一直拖着不还，电话也不接。请帮我写一份起诉状。",
     [(4, "当事人信息完整（原告、被告身份信息）。"), (6, "诉讼请求明确：返还借款本金二十万元及逾期利息。"), (6, "事实与理由：借款时间、金额、约定还款期、催讨经过。"), (4, "证据清单：借条、转账记录、催讨记录。"), (5, "引用《民法典》第六百七十五条、第六百七十六条。"), (3, "格式规范：管辖法院、落款、日期。")]),
    ("plaintiff_statement", "（虚构）我是业主王某，装修公司合同约定2024年3月1日完工，拖到6月才交付，而且卫生间漏水。请帮我起诉装修公司。",
     [(4, "当事人信息完整。"), (6, "诉讼请求：支付逾期违约金、修复漏水或赔偿维修费用。"), (6, "事实与理由：合同约定、逾期事实、质量问题。"), (4, "证据：装修合同、验收记录、漏水照片。"), (6, "引用《民法典》第五百七十七条、第五百八十五条、第八百零一条。"), (2, "格式规范。")]),
    ("plaintiff_statement", "（虚构）我在某健身房办了三年卡，交了九千元，才练了四个月健身房就关门了，老板联系不上。请帮我写起诉状。",
     [(4, "当事人信息完整。"), (6, "诉讼请求：退还剩余服务期对应费用。"), (6, "事实与理由：办卡时间、金额、停业事实。"), (4, "证据：会员卡、付款凭证、停业公告。"), (4, "引用《民法典》第五百六十三条、第五百六十六条。"), (2, "格式规范。")]),
    ("defendant_statement", "（虚构）原告刘某起诉我返还借款十万元。其实这十万元是他入股我餐馆的投资款，有合伙协议，他还分过红。请帮我写答辩状。\n【原告起诉状摘要】请求判令被告返还借款十万元及利息。",
     [(4, "答辩人信息及案由明确。"), (6, "答辩意见明确：款项性质为投资款而非借款。"), (6, "事实与理由：合伙协议、分红记录。"), (4, "证据：合伙协议、分红转账记录。"), (4, "引用《民法典》第九百六十七条、第九百六十九条。"), (2, "格式规范。")]),
    ("defendant_statement", "（虚构）前员工赵某起诉公司支付违法解除赔偿金。实际上是他自己提交了辞职信，还办理了交接。请帮公司写答辩状。\n【原告起诉状摘要】请求判令被告支付违法解除劳动合同赔偿金六万元。",
     [(4, "答辩人信息及案由明确。"), (6, "答辩意见：系劳动者主动辞职，不存在违法解除。"), (6, "事实与理由：辞职信、交接记录。"), (4, "证据：辞职信原件、工作交接单。"), (4, "引用《劳动合同法》第三十七条、第八十七条。"), (2, "格式规范。")]),
    ("defendant_statement", "（虚构）邻居起诉我家空调外机噪音扰民要求拆除。我的外机安装在物业指定位置，还做过噪音检测，结果达标。请帮我写答辩状。\n【原告起诉状摘要】请求判令被告拆除空调外机并赔偿精神损失。",
     [(4, "答辩人信息及案由明确。"), (6, "答辩意见：安装合规、噪音达标，不构成侵权。"), (6, "事实与理由：物业指定位置、检测报告。"), (4, "证据：检测报告、物业证明。"), (4, "引用《民法典》第二百八十八条、第二百九十四条。"), (2, "格式规范。")]),
]


def build_dataset():
    items = []
    for k, (category, context, question, sections) in enumerate(CASES, 1):
        entries = []
        total = 0
        for tag, _ in TAGS:
            marks = sections[tag]
            points = sum(p for p, _ in marks)
            total += points
            criterion = TITLES[tag] + "\n" + "\n".join("(+%d分) %s" % (p, text) for p, text in marks)
            entries.append({"criterion": criterion, "points": str(points), "tags": tag})
        items.append({"item_id": "case_analysis-%d" % k, "task": "case_analysis", "category": category,
                      "context": context, "question": CASE_QUESTION + question, "sections": entries,
                      "max_points": total})
    for k, (question, marks) in enumerate(CONSULTATIONS, 1):
        total = sum(p for p, _ in marks)
        rubric = "总分：%d分\n" % total + "\n".join("%d.(+%d 分) %s" % (i, p, t) for i, (p, t) in enumerate(marks, 1))
        items.append({"item_id": "legal_consultation-%d" % k, "task": "legal_consultation", "context": "",
                      "question": question, "rubric": rubric, "max_points": total})
    counters = {"plaintiff_statement": 0, "defendant_statement": 0}
    for task, question, marks in DRAFTS:
        counters[task] += 1
        total = sum(p for p, _ in marks)
        rubric = "总分：%d分\n" % total + "\n".join("(+%d分) %s" % (p, t) for p, t in marks)
        items.append({"item_id": "%s-%d" % (task, counters[task]), "task": task, "context": "",
                      "question": question, "rubric": rubric, "max_points": total})
    return items


JUDGES = ["Sim-Judge-A (simulated)", "Sim-Judge-B (simulated)"]
MODELS = [
    {"slug": "lexcounsel-14b", "model": "Sim-LexCounsel-14B (simulated)", "family": "legal",
     "model_family": "Sim-LexCounsel", "skill": {"case_analysis": 0.50, "legal_consultation": 0.45,
                                                  "plaintiff_statement": 0.40, "defendant_statement": 0.42}},
    {"slug": "openlaw-70b", "model": "Sim-OpenLaw-70B (simulated)", "family": "open",
     "model_family": "Sim-OpenLaw", "skill": {"case_analysis": 0.60, "legal_consultation": 0.55,
                                               "plaintiff_statement": 0.48, "defendant_statement": 0.55}},
    {"slug": "frontier-3", "model": "Sim-Frontier-3 (simulated)", "family": "closed",
     "model_family": "Sim-Frontier", "skill": {"case_analysis": 0.70, "legal_consultation": 0.72,
                                                "plaintiff_statement": 0.62, "defendant_statement": 0.68}},
]
# Sections differ in difficulty as in the official ranking: facts easy, statutes hard.
SECTION_EASE = {"conclusion": 0.05, "facts": 0.25, "reasoning": -0.05, "law": -0.18}


def draw(rng, mean, spread=0.18):
    return min(max(rng.gauss(mean, spread), -0.05), 1.08)


def judge_reply(item, awarded):
    if isinstance(awarded, dict):
        keys = {"conclusion": "结论", "facts": "案件事实", "reasoning": "推理过程", "law": "法条依据"}
        body = {"score_details": {keys[k]: {"total_points": v} for k, v in awarded.items()}}
    else:
        body = {"total_points": awarded, "max_points": item["max_points"]}
    return "（模拟评分）逐项对照评分细则……\n```json\n" + json.dumps(body, ensure_ascii=False) + "\n```"


def response_text(item, run, quality):
    if item["task"] == "case_analysis":
        return ("（模拟回答，第%d次）\n【结论】\n……\n【案件事实】\n……\n【推理过程】\n1. ……\n【法条依据】\n● ……" % run)
    if item["task"] == "legal_consultation":
        n = 10 + int(quality * 10)
        return "\n".join("%d. （模拟追问）……？" % i for i in range(1, n + 1))
    title = "民事起诉状" if item["task"] == "plaintiff_statement" else "民事答辩状"
    return "（模拟文书，第%d次）%s\n……" % (run, title)


def build_run(rng, model, run, items):
    header = {"kind": "run", "benchmark": "plawbench", "model": model["model"], "family": model["family"],
              "model_family": model["model_family"], "run": run, "dataset": DATASET_NAME,
              "judges": [{"model": j, "vendor": "simulated"} for j in JUDGES], "judge_aggregation": "mean",
              "judge_parse": "lenient", "judge_attempts": 1, "source": "workbench",
              "created_at": "2026-12-0%dT10:%02d:00Z" % (run, MODELS.index(model) * 7), "simulated": True}
    lines = [header]
    for item in items:
        skill = model["skill"][item["task"]]
        quality = draw(rng, skill, 0.12)
        line = {"kind": "rubric", "item_id": item["item_id"], "task": item["task"],
                "response": response_text(item, run, quality), "finish_reason": "stop"}
        drafting = item["task"] in ("plaintiff_statement", "defendant_statement")
        if drafting and rng.random() < 0.12:
            line["finish_reason"] = "length"
            quality *= 0.3
        if rng.random() < 0.02:
            line.pop("response")
            line["unavailable"] = "model call failed after 3 retries (simulated)"
            lines.append(line)
            continue
        judgements = []
        for judge in JUDGES:
            if rng.random() < 0.04:
                judgements.append({"judge": judge, "unavailable": "parse_error: reply is not valid JSON (simulated)"})
                continue
            if item["task"] == "case_analysis":
                awarded = {}
                for s in item["sections"]:
                    key = dict(TAGS)[s["tags"]]
                    m = float(s["points"])
                    awarded[key] = round(draw(rng, quality + SECTION_EASE[key]) * m)
            else:
                awarded = round(draw(rng, quality) * item["max_points"], 1)
            judgements.append({"judge": judge, "awarded": awarded, "judge_output": judge_reply(item, awarded)})
        line["judgements"] = judgements
        lines.append(line)
    return lines


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    rng = random.Random(SEED)
    items = build_dataset()
    write_jsonl(os.path.join(HERE, "demo.jsonl"), items)
    os.makedirs(os.path.join(HERE, "runs"), exist_ok=True)
    for model in MODELS:
        for run in (1, 2):
            write_jsonl(os.path.join(HERE, "runs", "sim-%s-run%d.jsonl" % (model["slug"], run)),
                        build_run(rng, model, run, items))


if __name__ == "__main__":
    main()
