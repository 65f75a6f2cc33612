//! A scripted OpenAI-compatible server for tests and benches (feature
//! `stub`): a real axum app on `127.0.0.1:0` answering
//! `POST /v1/chat/completions`, which tells the prompt's kind from its text
//! ([`PromptKind::detect`]), asks a script what to reply, and counts every
//! request.
//!
//! [`oracle`] is a ready-made script that plays every role for a dataset
//! deterministically, so that the labels of a whole run follow from the
//! case's position in the dataset (see its documentation); tests wrap it to
//! add failures. [`plawbench::oracle`] does the same for PLawBench's model
//! and judges, [`dlawbench::oracle`] for DLawBench's lawyer, client and
//! judges.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use engine::lexpilot::dataset::Case;
use engine::vocab::{Consultation, Verdict};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

pub mod dlawbench;
pub mod fidelity;
pub mod plawbench;
pub mod targeted;

/// Which prompt of the pipeline a request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PromptKind {
    /// LexAwN (evaluated model).
    Lexawn,
    /// The DCG prompt (evaluated model).
    Dcg,
    /// Direct prediction (evaluated model).
    Direct,
    /// The user model.
    User,
    /// The LCA judge.
    JudgeLca,
    /// The DCG judge.
    JudgeDcg,
    /// The LJP extraction judge.
    JudgeLjp,
    /// A PLawBench model prompt (any task).
    PlawModel,
    /// A PLawBench judge's messages (system, then user).
    PlawJudge,
    /// The Targeted construction prompt (evaluated model).
    TargetedConstruct,
    /// The Off-target construction prompt (evaluated model).
    OffTargetConstruct,
    /// The validation judge of a constructed dialogue.
    TargetedValidate,
    /// A DLawBench lawyer call (system, then the dialogue).
    DlawLawyer,
    /// A DLawBench client-simulator call.
    DlawClient,
    /// A DLawBench judge's rubric call.
    DlawJudgeRubric,
    /// A DLawBench judge's fact and claim call.
    DlawJudgeFacts,
    /// None of these.
    Unknown,
}

impl PromptKind {
    /// The kind of a prompt, from the opening of its template.
    pub fn detect(prompt: &str) -> PromptKind {
        use engine::plawbench::dataset::JudgeType;
        use engine::plawbench::judge::{judge_system_template, task_instructions};

        let head = prompt.split("# Input Data").next().unwrap_or(prompt);
        let opens = |template: &str| {
            let fixed = template.split("<<").next().unwrap_or(template);
            !fixed.trim().is_empty() && prompt.starts_with(fixed)
        };
        // DLawBench's placeholders are `{name}`; its prompts open with the
        // fixed text before the first.
        let dlaw = |name: &str| {
            engine::dlawbench::prompts::PROMPT_FILES
                .iter()
                .filter(|(file, _, _)| file.starts_with(name))
                .filter_map(|(_, text, _)| text.split('{').next())
                .any(|fixed| !fixed.trim().is_empty() && prompt.starts_with(fixed))
        };
        if let Some(kind) = [
            ("lawyer_", PromptKind::DlawLawyer),
            ("client_", PromptKind::DlawClient),
        ]
        .into_iter()
        .find_map(|(name, kind)| dlaw(name).then_some(kind))
        {
            kind
        } else if dlaw("judge_") {
            // The two judge prompts open alike; the rubric call asks for
            // its scores by name.
            if prompt.contains("expected_action_scores") {
                PromptKind::DlawJudgeRubric
            } else {
                PromptKind::DlawJudgeFacts
            }
        } else if JudgeType::ALL
            .into_iter()
            .any(|t| opens(task_instructions(t)))
        {
            PromptKind::PlawModel
        } else if JudgeType::ALL
            .into_iter()
            .any(|t| opens(judge_system_template(t)))
        {
            PromptKind::PlawJudge
        } else if prompt.starts_with("你现在需要扮演一名正在进行民事案件法律咨询的原告当事人")
        {
            PromptKind::User
        } else if prompt.starts_with("【实验对话构建：定向追问】") {
            PromptKind::TargetedConstruct
        } else if prompt.starts_with("【实验对话构建：偏离追问】") {
            PromptKind::OffTargetConstruct
        } else if prompt.starts_with("你是一个严谨的对话事实核查专家") {
            PromptKind::TargetedValidate
        } else if prompt.starts_with("你是一个严谨的文本分类器") {
            PromptKind::JudgeLca
        } else if prompt.starts_with("你是一个法律逻辑评估专家") {
            PromptKind::JudgeDcg
        } else if prompt.starts_with("# 角色与任务\n你是一个专业的法律文本分析专家")
        {
            PromptKind::JudgeLjp
        } else if !prompt.starts_with("你是一个专业的AI法律顾问") {
            PromptKind::Unknown
        } else if head.contains("严格选择并执行以下两种策略之一") {
            PromptKind::Lexawn
        } else if head.contains("并直接执行以下提问策略") {
            PromptKind::Dcg
        } else if head.contains("本次不进行进一步问答") {
            PromptKind::Direct
        } else {
            PromptKind::Unknown
        }
    }
}

/// One request as the script sees it.
#[derive(Debug, Clone)]
pub struct StubCall {
    /// The prompt's kind.
    pub kind: PromptKind,
    /// The requested model.
    pub model: String,
    /// The messages' contents, joined by blank lines.
    pub prompt: String,
    /// How many identical requests (model and prompt) came before this one.
    pub seen: usize,
}

/// What the stub answers.
#[derive(Debug, Clone, PartialEq)]
pub enum StubReply {
    /// A chat completion with this text.
    Text(String),
    /// An error status, with an optional `Retry-After` in seconds.
    Status {
        /// The status code.
        status: u16,
        /// The `Retry-After` header's value.
        retry_after: Option<u64>,
    },
    /// A chat completion with this text, cut at its token limit
    /// (`finish_reason` `length`).
    Truncated(String),
    /// A chat completion with empty text.
    Empty,
    /// A 200 whose body is not JSON.
    Garbage,
    /// The inner reply after a pause (longer than the client's timeout, to
    /// test timeouts).
    Delay(Duration, Box<StubReply>),
}

type Script = dyn Fn(&StubCall) -> StubReply + Send + Sync;

#[derive(Default)]
struct Log {
    requests: usize,
    by_kind: HashMap<PromptKind, usize>,
    by_request: HashMap<String, usize>,
    authorizations: HashSet<String>,
}

struct Shared {
    script: Box<Script>,
    latency: Duration,
    log: Mutex<Log>,
}

/// A running stub server; it stops when dropped.
pub struct Stub {
    /// The base URL to configure endpoints with (`http://127.0.0.1:PORT/v1`).
    pub base_url: String,
    shared: Arc<Shared>,
    stop: Option<oneshot::Sender<()>>,
}

impl std::fmt::Debug for Stub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stub")
            .field("base_url", &self.base_url)
            .finish()
    }
}

/// The identity of a request for counting: SHA-256 of model and prompt.
pub fn request_id(model: &str, prompt: &str) -> String {
    hex::encode(Sha256::digest(format!("{model}\n{prompt}").as_bytes()))
}

impl Stub {
    /// Starts a stub answering at once.
    pub async fn start(
        script: impl Fn(&StubCall) -> StubReply + Send + Sync + 'static,
    ) -> std::io::Result<Stub> {
        Stub::with_latency(Duration::ZERO, script).await
    }

    /// Starts a stub that waits `latency` before every reply.
    pub async fn with_latency(
        latency: Duration,
        script: impl Fn(&StubCall) -> StubReply + Send + Sync + 'static,
    ) -> std::io::Result<Stub> {
        Stub::bind(SocketAddr::from(([127, 0, 0, 1], 0)), latency, script).await
    }

    /// Starts a stub on `addr` (port 0 picks a free one) that waits
    /// `latency` before every reply.
    pub async fn bind(
        addr: SocketAddr,
        latency: Duration,
        script: impl Fn(&StubCall) -> StubReply + Send + Sync + 'static,
    ) -> std::io::Result<Stub> {
        let shared = Arc::new(Shared {
            script: Box::new(script),
            latency,
            log: Mutex::new(Log::default()),
        });
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state(shared.clone());
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
        });
        Ok(Stub {
            base_url: format!("http://{addr}/v1"),
            shared,
            stop: Some(stop),
        })
    }

    fn log<T>(&self, read: impl FnOnce(&Log) -> T) -> T {
        read(&self.shared.log.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Requests received.
    pub fn requests(&self) -> usize {
        self.log(|l| l.requests)
    }

    /// Requests received of one kind.
    pub fn count(&self, kind: PromptKind) -> usize {
        self.log(|l| l.by_kind.get(&kind).copied().unwrap_or(0))
    }

    /// How many times each distinct request ([`request_id`]) was received.
    pub fn per_request(&self) -> HashMap<String, usize> {
        self.log(|l| l.by_request.clone())
    }

    /// Every `Authorization` header value received.
    pub fn authorizations(&self) -> HashSet<String> {
        self.log(|l| l.authorizations.clone())
    }

    /// Forgets every count (the script keeps running).
    pub fn reset(&self) {
        let mut log = self.shared.log.lock().unwrap_or_else(|e| e.into_inner());
        *log = Log::default();
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn complete(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let model = body["model"].as_str().unwrap_or_default().to_owned();
    let prompt = body["messages"]
        .as_array()
        .map(|messages| {
            messages
                .iter()
                .filter_map(|m| m["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n\n")
        })
        .unwrap_or_default();
    let id = request_id(&model, &prompt);
    let seen = {
        let mut log = shared.log.lock().unwrap_or_else(|e| e.into_inner());
        log.requests += 1;
        *log.by_kind.entry(PromptKind::detect(&prompt)).or_default() += 1;
        if let Some(auth) = headers.get("authorization").and_then(|v| v.to_str().ok()) {
            log.authorizations.insert(auth.to_owned());
        }
        let count = log.by_request.entry(id).or_default();
        *count += 1;
        *count - 1
    };
    let call = StubCall {
        kind: PromptKind::detect(&prompt),
        model: model.clone(),
        prompt,
        seen,
    };
    let reply = (shared.script)(&call);
    tokio::time::sleep(shared.latency).await;
    respond(reply, &call).await
}

async fn respond(reply: StubReply, call: &StubCall) -> Response {
    let mut reply = reply;
    while let StubReply::Delay(pause, inner) = reply {
        tokio::time::sleep(pause).await;
        reply = *inner;
    }
    let completion = |text: &str, finish_reason: &str| {
        Json(json!({
            "id": "stub",
            "object": "chat.completion",
            "model": call.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": call.prompt.chars().count(),
                      "completion_tokens": text.chars().count()},
        }))
        .into_response()
    };
    match reply {
        StubReply::Text(text) => completion(&text, "stop"),
        StubReply::Truncated(text) => completion(&text, "length"),
        StubReply::Empty => completion("", "stop"),
        StubReply::Garbage => (StatusCode::OK, "<html>upstream hiccup</html>").into_response(),
        StubReply::Status {
            status,
            retry_after,
        } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut response =
                (status, Json(json!({"error": {"message": "stub error"}}))).into_response();
            if let Some(seconds) = retry_after {
                if let Ok(v) = seconds.to_string().parse() {
                    response.headers_mut().insert("retry-after", v);
                }
            }
            response
        }
        StubReply::Delay(..) => completion("unreachable", "stop"),
    }
}

/// The marker the oracle's model puts at the start of each reply, which its
/// judges read back.
pub(crate) const MARK: &str = "[[case=";
/// The marker of the oracle's user answers.
pub const ANSWER: &str = "[[answer]]";

/// Which case and consultation a prompt carries: the first case whose
/// complete consultation is all in the prompt, else whose underspecified one
/// is.
pub fn identify(cases: &[Case], prompt: &str) -> Option<(usize, Consultation)> {
    let holds = |case: &Case, c| {
        case.turns(c)
            .iter()
            .all(|t| prompt.contains(t.content.trim()))
    };
    cases
        .iter()
        .position(|case| holds(case, Consultation::Complete))
        .map(|i| (i, Consultation::Complete))
        .or_else(|| {
            cases
                .iter()
                .position(|case| holds(case, Consultation::Underspecified))
                .map(|i| (i, Consultation::Underspecified))
        })
}

fn verdict_zh(v: Verdict) -> &'static str {
    match v {
        Verdict::Supported => "支持",
        Verdict::PartiallySupported => "部分支持",
        Verdict::Dismissed => "驳回",
    }
}

/// The fields of the last model marker in `text`.
pub(crate) fn last_mark(text: &str) -> Option<HashMap<&str, &str>> {
    let start = text.rfind(MARK)?;
    let body = &text[start + 2..];
    let end = body.find("]]")?;
    Some(
        body[..end]
            .split_whitespace()
            .filter_map(|kv| kv.split_once('='))
            .collect(),
    )
}

fn predict(case: &Case, verdicts: &[Verdict]) -> StubReply {
    let list: Vec<&str> = verdicts.iter().map(|v| v.as_str()).collect();
    let said: Vec<String> = case
        .claims
        .iter()
        .zip(verdicts)
        .map(|(c, v)| format!("对于“{}”，预测结果：{}。", c.text, verdict_zh(*v)))
        .collect();
    StubReply::Text(format!(
        "{MARK}{} say=predict verdicts={}]] 法律分析：结合现有事实进行分析。{}",
        case.case_id,
        list.join(","),
        said.join("")
    ))
}

fn ask(case: &Case, extra: &str) -> StubReply {
    StubReply::Text(format!(
        "{MARK}{} say=ask{extra}]] 我们需要核实一个关键点：双方是否签订了书面协议？这决定了法院如何认定双方的法律关系。请问您手里有书面协议吗？",
        case.case_id
    ))
}

/// A script playing every role for `cases`, by each case's index `i` in the
/// dataset:
///
/// - **LexAwN**: on a complete consultation, a verdict equal to the gold
///   one. On the underspecified one: if `i % 4 == 3`, at once a premature
///   verdict of all `supported`; if `i % 4 == 2`, always a question; else a
///   question until the dialogue holds a user answer, then the gold verdict.
/// - **DCG**: a question in round `r`, accepted by the judge when
///   `i % 3 == 0` and `r == 1`, or `i % 3 == 1` and `r == 2`.
/// - **Direct**: the gold verdict on a complete consultation or a dialogue
///   holding a user answer, else all `supported`.
/// - **User**: an answer marked [`ANSWER`]; under self-correction, after a
///   verdict, `无需补充`.
/// - **Judges** read the marker the model put in its reply: 策略一 / 策略二,
///   是 / 否, and `{"results": [...]}` in Chinese.
///
/// So a run of every task gives: LCA `predict` on complete consultations and
/// on underspecified ones where `i % 4 == 3`, else `ask`; DCG requests
/// `[true]`, `[false, true]`, `[false, false]` for `i % 3` = 0, 1, 2; LJP
/// direct all `supported`, gold the gold verdicts, interaction all
/// `supported` where `i % 4 == 3`, else the gold verdicts.
pub fn oracle(cases: &[Case]) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    let cases = cases.to_vec();
    move |call: &StubCall| {
        let prompt = call.prompt.as_str();
        let found = identify(&cases, prompt);
        let gold =
            |i: usize| -> Vec<Verdict> { cases[i].claims.iter().map(|c| c.verdict).collect() };
        let all_supported = |i: usize| vec![Verdict::Supported; cases[i].claims.len()];
        let answered = prompt.contains(ANSWER);
        match (call.kind, found) {
            (PromptKind::Lexawn, Some((i, Consultation::Complete))) => predict(&cases[i], &gold(i)),
            (PromptKind::Lexawn, Some((i, Consultation::Underspecified))) => match i % 4 {
                3 => predict(&cases[i], &all_supported(i)),
                2 => ask(&cases[i], ""),
                _ if answered => predict(&cases[i], &gold(i)),
                _ => ask(&cases[i], ""),
            },
            (PromptKind::Dcg, Some((i, _))) => {
                let round = prompt.matches(MARK).count() + 1;
                let good = (i % 3 == 0 && round == 1) || (i % 3 == 1 && round == 2);
                ask(
                    &cases[i],
                    &format!(" round={round} good={}", u8::from(good)),
                )
            }
            (PromptKind::Direct, Some((i, c))) => {
                if c == Consultation::Complete || answered {
                    predict(&cases[i], &gold(i))
                } else {
                    predict(&cases[i], &all_supported(i))
                }
            }
            (PromptKind::User, _) => {
                let after_verdict =
                    last_mark(prompt).is_some_and(|m| m.get("say") == Some(&"predict"));
                if prompt.contains("用户行为设定：自我更正") && after_verdict {
                    StubReply::Text(crate::prompts::NO_CORRECTION.to_owned())
                } else {
                    StubReply::Text(format!("{ANSWER} 我们签过书面协议，我手里有一份复印件。"))
                }
            }
            (PromptKind::JudgeLca, _) => {
                match last_mark(prompt).and_then(|m| m.get("say").copied()) {
                    Some("predict") => StubReply::Text("策略一".into()),
                    Some(_) => StubReply::Text("策略二".into()),
                    None => StubReply::Text("无法判断".into()),
                }
            }
            (PromptKind::JudgeDcg, _) => {
                match last_mark(prompt).and_then(|m| m.get("good").copied()) {
                    Some("1") => StubReply::Text("是".into()),
                    _ => StubReply::Text("否".into()),
                }
            }
            (PromptKind::JudgeLjp, _) => {
                let labels: Vec<&str> = last_mark(prompt)
                    .and_then(|m| m.get("verdicts").copied())
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(Verdict::parse)
                    .map(verdict_zh)
                    .collect();
                StubReply::Text(json!({ "results": labels }).to_string())
            }
            _ => StubReply::Status {
                status: 400,
                retry_after: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompts;

    #[test]
    fn every_template_is_told_apart() {
        let kinds = [
            (&prompts::LEXAWN, PromptKind::Lexawn),
            (&prompts::DCG, PromptKind::Dcg),
            (&prompts::LJP_DIRECT, PromptKind::Direct),
            (&prompts::USER_STANDARD, PromptKind::User),
            (&prompts::JUDGE_LCA, PromptKind::JudgeLca),
            (&prompts::JUDGE_DCG, PromptKind::JudgeDcg),
            (&prompts::JUDGE_LJP, PromptKind::JudgeLjp),
            (&prompts::TARGETED_CONSTRUCT, PromptKind::TargetedConstruct),
            (
                &prompts::OFFTARGET_CONSTRUCT,
                PromptKind::OffTargetConstruct,
            ),
            (&prompts::TARGETED_VALIDATE, PromptKind::TargetedValidate),
        ];
        for (template, kind) in kinds {
            assert_eq!(PromptKind::detect(template.text), kind, "{}", template.name);
        }
        assert_eq!(PromptKind::detect("hello"), PromptKind::Unknown);
        let items = engine::plawbench::dataset::parse_dataset(concat!(
            r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 5}"#,
            "\n",
            r#"{"item_id": "defendant_statement-1", "task": "defendant_statement", "question": "q", "rubric": "r", "max_points": 5}"#,
        ))
        .unwrap_or_default();
        assert_eq!(items.len(), 2);
        for item in &items {
            let prompt = engine::plawbench::judge::render_model_prompt(item);
            assert_eq!(PromptKind::detect(&prompt), PromptKind::PlawModel);
            let judge = engine::plawbench::judge::render_judge_prompts(item, &prompt, "答");
            let joined = format!("{}\n\n{}", judge.system, judge.user);
            assert_eq!(PromptKind::detect(&joined), PromptKind::PlawJudge);
        }
    }

    #[test]
    fn dlawbench_prompts_are_told_apart_in_both_languages() {
        use engine::dlawbench::dataset::{Language, Style};
        use engine::dlawbench::prompts as dlaw;
        use engine::dlawbench::run::{Role, Turn};

        let joined = |messages: Vec<dlaw::Message>| {
            messages
                .into_iter()
                .map(|m| m.content)
                .collect::<Vec<_>>()
                .join("\n\n")
        };
        let cases = engine::dlawbench::dataset::parse_dataset(include_str!(
            "../../server/data/dlawbench/demo.jsonl"
        ))
        .unwrap_or_default();
        for language in [Language::Zh, Language::En] {
            let case = cases.iter().find(|c| c.language == language);
            let Some(case) = case else {
                panic!("the demo has a case in {language}");
            };
            let opening = Turn {
                role: Role::Client,
                action: None,
                content: case.opening.clone(),
                attempts: None,
                at: None,
                usage: None,
            };
            let dialogue = [opening];
            for last_call in [false, true] {
                let lawyer = joined(dlaw::lawyer_messages(case, &dialogue, 10, last_call));
                assert_eq!(PromptKind::detect(&lawyer), PromptKind::DlawLawyer);
                assert_eq!(dlawbench::is_last_call(&lawyer), last_call);
            }
            let client = joined(dlaw::client_messages(case, Style::Dependent, &dialogue));
            assert_eq!(PromptKind::detect(&client), PromptKind::DlawClient);
            let rubric = dlaw::rubric_judge_prompt(case, &dialogue, "memo");
            assert_eq!(PromptKind::detect(&rubric), PromptKind::DlawJudgeRubric);
            let facts = dlaw::fact_judge_prompt(case, "memo");
            assert_eq!(PromptKind::detect(&facts), PromptKind::DlawJudgeFacts);
        }
    }

    #[test]
    fn marks_are_read_from_the_last_one() {
        let text = "[[case=A say=ask]] x [[case=A say=predict verdicts=supported]] y";
        let mark = last_mark(text).unwrap_or_default();
        assert_eq!(mark.get("say"), Some(&"predict"));
        assert_eq!(mark.get("verdicts"), Some(&"supported"));
    }
}
