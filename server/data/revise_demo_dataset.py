#!/usr/bin/env python3
"""Revise the SYNTHETIC demo dataset so it keeps the LexPilot paper's rules.

demo-synthetic.jsonl was written by hand (there is no generator); this script
records, reproducibly, every change made to it afterwards so that it passes
`lexpilot validate` with neither errors nor warnings (the rules are in
engine/src/lexpilot/dataset/warnings.rs and validate_case):

1. Case numbers look like real ones: the court code's province is replaced by
   虚 and （虚构） is appended, e.g. （2024）鲁0203民初1589号 becomes
   （2024）虚0203民初1589号（虚构）.
2. A consultation ends on a user turn (the paper's H_n ends on u_n): where both
   consultations end on the same advisor question, that turn is dropped from
   both (the pair keeps equal turn counts).
3. The user never dodges the advisor's question about a missing key fact: in
   the cases of DODGED the underspecified consultation's advisor asks about
   something else at that turn, and the user answers it.
4. Where the underspecified consultation added legally relevant facts the
   complete one lacks (DEMO-0018, DEMO-0070), the advisor's question and the
   answer are replaced by ones that add nothing (see DODGED, which holds
   these too).
5. Where an underspecified user turn says the complete one's words slightly
   differently, it is reworded to them (REWORDED).
6. The complete consultation holds every fact of the underspecified one: every
   clause of an underspecified user turn that no complete user turn contains
   (the validator's rule, mirrored below) is added to the complete
   consultation's user turn at the same position, before its closing question
   if it ends with one. These are the replies to the advisor's other question
   at the turn where the complete consultation discloses the missing fact:
   background the complete consultation had left out.

Idempotent: running it on its own output changes nothing.
Python 3 standard library only. Run from anywhere:
    python3 server/data/revise_demo_dataset.py
"""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DATASET = os.path.join(HERE, "demo-synthetic.jsonl")

# (case_id, index of the underspecified user turn): (advisor question before it, user reply)
DODGED = {
    ("DEMO-0003", 2): (
        "离婚后发现未分割的财产，一般还可以主张。想先确认一下，离婚以后你们还有联系吗？",
        "我们离婚以后基本不联系了，就孩子的事偶尔打个电话。那会儿他天天跟我说家里没钱，我真是被骗了。",
    ),
    ("DEMO-0004", 2): (
        "了解。先问一下，您这些年往房子里贴的装修钱大概有多少？",
        "装修的时候我出了三万多，都是现金给的装修队。可我这十几年跟她过日子，总不能一点都不给吧？",
    ),
    ("DEMO-0009", 2): (
        "好的。这件事您和大哥、二哥当面商量过吗？",
        "我们兄妹私下商量过一次，没谈拢，大哥说一切按遗嘱来。",
    ),
    ("DEMO-0014", 4): (
        "好的。赵某离职是他自己提出的，还是公司辞退的？",
        "是他自己提的，说老家那边有活干。走之前跟我们老板在办公室吵了一架，嗓门很大，拍了桌子就出去了。",
    ),
    ("DEMO-0018", 2): (
        "理解您的心情。想先了解一下：当时您为什么要把户口迁过来？",
        "当时迁户口主要是我舅舅说这边以后可能拆迁，让我挂过来。",
    ),
    ("DEMO-0027", 2): (
        "理解您的心情。她在群里发的那些话，您截图保存了吗？",
        "截了，群里好几个邻居也转给我了。她就是故意报复我，我咽不下这口气。",
    ),
    ("DEMO-0028", 2): (
        "了解。这条视频现在还在平台上吗？",
        "视频还挂着，我们给平台投诉过两次，一直没处理。博主自己也没拿出任何证据，就说是听一个离职员工讲的。",
    ),
    ("DEMO-0030", 2): (
        "您受累了。想了解一下，您的手现在恢复得怎么样？",
        "钢板还没取，手腕使不上劲，拿个碗都抖。",
    ),
    ("DEMO-0039", 2): (
        "您好，您想解除委托、要回代办费。请问您和吴某是怎么认识的？",
        "是卖房的人介绍的，说他干这行好多年了。他说银行额度紧张，一直拖着，问多了就不耐烦。",
    ),
    ("DEMO-0040", 2): (
        "您好。您和冯某平时关系怎么样？",
        "他是我表弟，以前走得挺近的。收租金这事当时说好是帮忙，没说给钱。",
    ),
    ("DEMO-0042", 2): (
        "非常理解您的心情。婚礼当天的照片拿到了吗？",
        "照片拿到了几张，就是录像没了。我问了好几次，他们一直说在想办法，拖到最后才说没了。",
    ),
    ("DEMO-0043", 2): (
        "您好。对方以质量问题拒付尾款。请问你们的合同是书面签的吗？",
        "合同是书面签的，写了总价和交货时间。她不让我进门，非要我先把尾款的事说清楚。",
    ),
    ("DEMO-0044", 2): (
        "您好。要解除合同并退款，法院会审查设备质量。请问设备是哪天送到厂里的？",
        "12月20号送到的，对方派了两个师傅跟车来安装。对方派人来修了两次，还是不行。",
    ),
    ("DEMO-0046", 4): (
        "资质问题会影响合同效力，但不一定影响您拿回工程款。请问施工期间对方有没有提过质量问题？",
        "施工的时候他们也派人来看过，没说过什么问题。2022年8月我们就完工了。",
    ),
    ("DEMO-0069", 4): (
        "明白。您现在住在这套房子里吗？",
        "拿了钥匙就搬进去了，一直住到现在。房产证现在还是马某的名字，过户的事一直没办下来，中介说还要等。",
    ),
    ("DEMO-0070", 4): (
        "理解。这笔钱被冻结以后，贵公司找过B公司吗？",
        "找过，B公司说账户被冻了他们也没办法。我们的45万明明白白是3月2号进去的，时间金额都对得上啊。",
    ),
}

# Small rewordings of underspecified user turns, (case_id, turn): [(old, new)], so
# that what step 5 adds to the complete consultation reads as whole sentences
# (an underspecified turn that said the complete one's words slightly differently).
REWORDED = {
    ("DEMO-0005", 2): [("我妈那阵子对她可好了，啥都给她买。", "我妈那阵子对她可好了。")],
    ("DEMO-0006", 6): [("我就是觉得没领证就不算结婚", "我觉得没领证就不算结婚")],
    ("DEMO-0021", 0): [("地下车库B区那个车位一直是我停车用的。", "地下车库B区有个车位。")],
    ("DEMO-0071", 0): [(
        "给冯某转了两万块钱，附言写的瓷砖款，当时在工地上手忙脚乱的，转完才觉得不对劲，现在他不肯退。",
        "给人转了两万块钱，附言写的瓷砖款，当时在工地上手忙脚乱的，现在对方不肯退。",
    )],
}

# The validator's notion of a dodge and of a clause (engine/src/lexpilot/dataset/warnings.rs).
DODGES = [
    "不清楚", "不太清楚", "说不清", "说不太清", "搞不清", "搞不太清", "搞不懂", "记不清",
    "记不太清", "不记得", "不太记得", "想不起", "忘了", "忘记了", "不知道", "不太知道",
    "不了解", "无法确认", "没法确认", "不能确认", "不确定", "说不好", "不好说", "没印象",
    "没细看", "没注意",
]
CLAUSE_END = "。！？；，,!?;\n"
MIN_CLAUSE_CHARS = 4


def letters(text):
    return "".join(c for c in text if c.isalnum())


def clauses_with_punctuation(text):
    """The clauses of a turn, each with its closing punctuation."""
    return [c for c in re.findall(r"[^%s]*[%s]?" % (CLAUSE_END, CLAUSE_END), text) if c.strip()]


def bare(clause):
    return clause.strip().rstrip("。！；，,!;")


def states_something(clause):
    c = bare(clause)
    return (not c.endswith(("？", "?")) and not any(d in c for d in DODGES)
            and len(letters(c)) >= MIN_CLAUSE_CHARS)


def fictional_case_number(number):
    if number.endswith("（虚构）"):
        return number
    m = re.fullmatch(r"（(\d{4})）\D(\d+民初\d+号)", number)
    if not m:
        raise SystemExit("unexpected case number " + number)
    return "（{}）虚{}（虚构）".format(m.group(1), m.group(2))


def end_on_user_turn(case):
    cons = case["consultations"]
    while cons["complete"][-1]["role"] == "assistant" or cons["underspecified"][-1]["role"] == "assistant":
        last_c, last_u = cons["complete"][-1], cons["underspecified"][-1]
        if last_c != last_u or last_c["role"] != "assistant":
            raise SystemExit(case["case_id"] + ": the consultations end differently")
        cons["complete"].pop()
        cons["underspecified"].pop()


def replace_dodges(case):
    under = case["consultations"]["underspecified"]
    for (case_id, i), (question, reply) in DODGED.items():
        if case_id != case["case_id"]:
            continue
        if under[i - 1]["role"] != "assistant" or under[i]["role"] != "user":
            raise SystemExit("{}: turn {} is not an advisor question and its answer".format(case_id, i))
        under[i - 1]["content"] = question
        under[i]["content"] = reply


def reword(case):
    under = case["consultations"]["underspecified"]
    for (case_id, i), edits in REWORDED.items():
        if case_id == case["case_id"]:
            for before, after in edits:
                under[i]["content"] = under[i]["content"].replace(before, after)


def hold_every_fact(case):
    complete = case["consultations"]["complete"]
    under = case["consultations"]["underspecified"]
    for i, turn in enumerate(under):
        if turn["role"] != "user":
            continue
        held = [letters(t["content"]) for t in complete if t["role"] == "user"]
        parts = clauses_with_punctuation(turn["content"])
        added = ""
        carry = False
        for part in parts:
            extra = states_something(part) and not any(letters(bare(part)) in h for h in held)
            # A short clause after an added one finishes its sentence ("…，吵得很。").
            short = (len(letters(bare(part))) < MIN_CLAUSE_CHARS
                     and re.search(r"[。！!]$", part.strip()) is not None)
            if extra or (carry and short):
                added += part.strip()
                carry = True
            else:
                carry = False
        if not added:
            continue
        added = re.sub(r"[，,；;]$", "。", added)
        if not re.search(r"[。！？!?]$", added):
            added += "。"
        if complete[i]["role"] != "user":
            raise SystemExit("{}: complete turn {} is not the user's".format(case["case_id"], i))
        target = complete[i]["content"]
        sentences = [c for c in re.findall(r"[^。！？!?]*[。！？!?]?", target) if c.strip()]
        # Keep a closing question last.
        if len(sentences) > 1 and sentences[-1].strip().endswith(("？", "?")):
            complete[i]["content"] = "".join(sentences[:-1]) + added + sentences[-1]
        else:
            complete[i]["content"] = target + added


def main():
    with open(DATASET, encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh if line.strip()]
    for case in cases:
        if "case_number" in case:
            case["case_number"] = fictional_case_number(case["case_number"])
        end_on_user_turn(case)
        replace_dodges(case)
        reword(case)
        hold_every_fact(case)
    with open(DATASET, "w", encoding="utf-8", newline="\n") as out:
        for case in cases:
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    print("revised", len(cases), "cases in", os.path.relpath(DATASET, HERE))


if __name__ == "__main__":
    main()
