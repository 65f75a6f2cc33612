#!/usr/bin/env python3
"""Reference renderings for `engine::plawbench::{json, judge}`, made by Python.

Writes engine/tests/fixtures/plawbench/prompts.json, which
engine/tests/plawbench_prompts.rs compares byte for byte. Standard library only:

    python3 engine/tests/reference/make_plawbench_prompt_fixture.py

- "dumps": JSON texts and `json.dumps(json.loads(text), ensure_ascii=False,
  indent=2)` of each (what the case_analysis judge prompt embeds, §B2.2).
- "prompts": dataset items with a model response, and the model prompt
  (`TASK + USER.format(context=..., question=...)`, §B2.1) and the judge
  messages (system with `<<num>>` -> 25 for legal_qa; user with
  `<<conversation>>`, `<<rubric_item>>`, `<<score>>` replaced in that order,
  §B2.2) rendered from the prompt files in engine/prompts/plawbench/.
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.dirname(os.path.dirname(HERE))
PROMPTS = os.path.join(ENGINE, "prompts", "plawbench")
OUT = os.path.join(ENGINE, "tests", "fixtures", "plawbench", "prompts.json")


def prompt(name):
    with open(os.path.join(PROMPTS, name), encoding="utf-8", newline="") as f:
        return f.read()


TASK = {
    "legal_qa": prompt("task_legal_qa.txt"),
    "case_analysis": prompt("task_case_analysis.txt"),
    "document_generation": prompt("task_document_generation.txt"),
}
USER = {
    "case_analysis": prompt("user_case_analysis.txt"),
    "legal_qa": prompt("user_question.txt"),
    "document_generation": prompt("user_question.txt"),
}
JUDGE_SYSTEM = {
    "legal_qa": prompt("judge_system_legal_qa.txt"),
    "case_analysis": prompt("judge_system_case_analysis.txt"),
    "document_generation": prompt("judge_system_document_generation.txt"),
}
JUDGE_USER = {
    "legal_qa": prompt("judge_user_points.txt"),
    "case_analysis": prompt("judge_user_case_analysis.txt"),
    "document_generation": prompt("judge_user_points.txt"),
}
JUDGE_TYPE = {
    "case_analysis": "case_analysis",
    "legal_consultation": "legal_qa",
    "plaintiff_statement": "document_generation",
    "defendant_statement": "document_generation",
}

DUMPS = [
    '[{"criterion": "【结论得分】\\n(+5分) 某甲有权向某摄影服务公司主张精神损害赔偿。", "points": "5", "tags": "结论得分"}, '
    '{"criterion": "【案情简述得分】\\n(+10分) 某甲与某摄影服务公司签订合同，附件包含\\"全程跟拍记录\\"。", "points": "20", "tags": "案情简述得分"}]',
    '[{"tags": "法条依据得分", "points": 15, "criterion": "《民法典》第一千一百八十三条第二款 \\\\ 反斜杠\\t制表"}]',
    '{"z": [], "a": {}, "m": [1, -2, 3.5, 5.0, 0.0001, 1e-05, 1e16, 1e15, 123456789012345678, -0.5, true, false, null]}',
    '{"ctl": "\\u0001\\u001f\\b\\f\\r\\u007f\\u2028 é 😀", "nested": [[[]], [{}], {"k": [{"x": "y"}]}]}',
    '{"dup": 1, "other": 2, "dup": 3}',
    '[]',
    '"just a string"',
]


def render_model(item):
    jt = JUDGE_TYPE[item["task"]]
    return TASK[jt] + USER[jt].format(context=item.get("context", ""), question=item["question"])


def render_judge(item, model_prompt, response):
    jt = JUDGE_TYPE[item["task"]]
    system = JUDGE_SYSTEM[jt]
    if jt == "legal_qa":
        system = system.replace("<<num>>", "25")
    if jt == "case_analysis":
        rubric = json.dumps(item["sections"], ensure_ascii=False, indent=2)
    else:
        rubric = item["rubric"]
    conversation = "user: " + model_prompt + "\n\nassistant: " + response + "\n\n"
    user = JUDGE_USER[jt]
    user = user.replace("<<conversation>>", conversation)
    user = user.replace("<<rubric_item>>", rubric)
    user = user.replace("<<score>>", str(item["max_points"]))
    return system, user


ITEMS = [
    (
        {
            "item_id": "case_analysis-1",
            "task": "case_analysis",
            "category": "个人生活",
            "context": "某甲与某摄影服务公司签订《婚庆服务合同》（虚构），合同附件列有\"全程跟拍记录\"。{question} 不是占位符。",
            "question": "以【结论 + 案情简述 + 分析过程+依据法条】的逻辑回答：某甲能否主张精神损害赔偿？",
            "sections": [
                {"criterion": "【结论得分】\n(+5分) 某甲有权主张。", "points": "5", "tags": "结论得分"},
                {"criterion": "【案情简述得分】\n(+10分) 签订合同。\n(+10分) 录像丢失。", "points": "20", "tags": "案情简述得分"},
                {"criterion": "【分析过程得分】\n(+20分) 构成违约。", "points": 20, "tags": "分析过程得分"},
                {"tags": "法条依据得分", "criterion": "【法条依据得分】\n(+15分) 《民法典》第一千一百八十三条第二款。", "points": "15"},
            ],
            "max_points": 60,
        },
        "【结论】\n某甲有权……<<score>> 与 <<rubric_item>> 出现在回答里。\n【法条依据】\n● 《民法典》",
    ),
    (
        {
            "item_id": "legal_consultation-1",
            "task": "legal_consultation",
            "context": "",
            "question": "律师啊！我丈夫成天喝酒打人（虚构）。{context}",
            "rubric": "总分：5分\n1.(+3 分) 是否有报警记录？\n2.(+2 分) 协议的具体表述？",
            "max_points": 5,
        },
        "1. 是否报警？\n2. <<conversation>> 协议怎么写的？",
    ),
    (
        {
            "item_id": "defendant_statement-1",
            "task": "defendant_statement",
            "context": "",
            "question": "我是被告（虚构），原告起诉状如下：……",
            "rubric": "(+10分) 答辩请求明确\n(+10分) 事实与理由",
            "max_points": 20,
        },
        "民事答辩状\n答辩人：……",
    ),
]


def main():
    dumps = [
        {"input": text, "output": json.dumps(json.loads(text), ensure_ascii=False, indent=2)}
        for text in DUMPS
    ]
    prompts = []
    for item, response in ITEMS:
        model_prompt = render_model(item)
        system, user = render_judge(item, model_prompt, response)
        prompts.append(
            {
                "item": json.dumps(item, ensure_ascii=False),
                "response": response,
                "model_prompt": model_prompt,
                "judge_system": system,
                "judge_user": user,
            }
        )
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        json.dump({"dumps": dumps, "prompts": prompts}, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
