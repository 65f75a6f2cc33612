//! `lexpilot-stub`: a scripted OpenAI-compatible endpoint on 127.0.0.1 that
//! plays every role of the three benchmarks for the datasets it is given, so
//! that a job can be tried in the browser without a model (and the
//! end-to-end tests can run one). It answers `POST /v1/chat/completions`
//! with the scripts of [`pipeline::stub`]: [`pipeline::stub::oracle`] for
//! LexPilot, [`pipeline::stub::plawbench::oracle`] for PLawBench, and
//! [`pipeline::stub::dlawbench::styled_oracle`] for DLawBench, whose scores
//! fall with the client's style. Its replies are scripted, not a model's:
//! runs made against it measure nothing.
//!
//! ```text
//! lexpilot-stub --addr 127.0.0.1:3101 \
//!     --lexpilot server/data/demo-synthetic.jsonl \
//!     --plawbench server/data/plawbench/demo.jsonl \
//!     --dlawbench server/data/dlawbench/demo.jsonl
//! ```
//!
//! `--latency-ms N` makes every reply wait N ms, as a model would (for
//! `scripts/bench-runner.sh`). Like many real endpoints, the stub does not
//! set `TCP_NODELAY` on the connections it accepts.
//!
//! Build it with `cargo build -p pipeline --features stub --bin lexpilot-stub`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use pipeline::stub::{PromptKind, Stub, StubCall, StubReply};

const USAGE: &str = "usage: lexpilot-stub [--addr 127.0.0.1:PORT] [--latency-ms N] [--lexpilot FILE] [--plawbench FILE] [--dlawbench FILE]";

type Script = Box<dyn Fn(&StubCall) -> StubReply + Send + Sync>;
/// A script with the prompt kinds it answers.
type Routed = (fn(PromptKind) -> bool, Script);

/// What the command line asks for.
#[derive(Default)]
struct Options {
    addr: Option<SocketAddr>,
    /// How long every reply waits (a model's fixed latency, for benches).
    latency: Duration,
    lexpilot: Option<PathBuf>,
    plawbench: Option<PathBuf>,
    dlawbench: Option<PathBuf>,
}

fn options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut out = Options::default();
    let mut args = args.peekable();
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--addr" => {
                let v = value()?;
                out.addr = Some(
                    v.parse()
                        .map_err(|_| format!("--addr: not an address: {v:?}"))?,
                );
            }
            "--latency-ms" => {
                let v = value()?;
                let ms: u64 = v
                    .parse()
                    .map_err(|_| format!("--latency-ms: not a number of milliseconds: {v:?}"))?;
                out.latency = Duration::from_millis(ms);
            }
            "--lexpilot" => out.lexpilot = Some(value()?.into()),
            "--plawbench" => out.plawbench = Some(value()?.into()),
            "--dlawbench" => out.dlawbench = Some(value()?.into()),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if out.lexpilot.is_none() && out.plawbench.is_none() && out.dlawbench.is_none() {
        return Err(format!("give at least one dataset\n{USAGE}"));
    }
    Ok(out)
}

/// The text of `path`, or an error naming it.
fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The script of each dataset given, or the first error naming its file.
fn scripts(options: &Options) -> Result<Vec<Routed>, String> {
    let mut scripts: Vec<Routed> = Vec::new();
    if let Some(path) = &options.dlawbench {
        let cases = engine::dlawbench::dataset::parse_dataset(&read(path)?)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        scripts.push((
            |k| {
                matches!(
                    k,
                    PromptKind::DlawLawyer
                        | PromptKind::DlawClient
                        | PromptKind::DlawJudgeRubric
                        | PromptKind::DlawJudgeFacts
                )
            },
            Box::new(pipeline::stub::dlawbench::styled_oracle(&cases)),
        ));
    }
    if let Some(path) = &options.plawbench {
        let items = engine::plawbench::dataset::parse_any(&read(path)?)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        scripts.push((
            |k| matches!(k, PromptKind::PlawModel | PromptKind::PlawJudge),
            Box::new(pipeline::stub::plawbench::oracle(&items)),
        ));
    }
    if let Some(path) = &options.lexpilot {
        let cases = engine::lexpilot::dataset::parse_dataset(&read(path)?)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        scripts.push((|_| true, Box::new(pipeline::stub::targeted::oracle(&cases))));
    }
    Ok(scripts)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let result = async {
        let options = options(std::env::args().skip(1))?;
        let scripts = scripts(&options)?;
        let script = move |call: &StubCall| {
            // An admin's endpoint test (`pipeline::test_call`) is answered
            // as a model would answer it.
            if call.prompt == pipeline::TEST_PROMPT {
                return StubReply::Text("ready".into());
            }
            scripts.iter().find(|(serves, _)| serves(call.kind)).map_or(
                StubReply::Status {
                    status: 400,
                    retry_after: None,
                },
                |(_, script)| script(call),
            )
        };
        let addr = options
            .addr
            .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 0)));
        let stub = Stub::bind(addr, options.latency, script)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        println!(
            "lexpilot-stub: serving scripted replies at {}",
            stub.base_url
        );
        tokio::signal::ctrl_c()
            .await
            .map_err(|e| format!("cannot wait for Ctrl-C: {e}"))?;
        println!(
            "lexpilot-stub: answered {} requests ({} PLawBench model, {} PLawBench judge)",
            stub.requests(),
            stub.count(PromptKind::PlawModel),
            stub.count(PromptKind::PlawJudge)
        );
        Ok::<(), String>(())
    }
    .await;
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("lexpilot-stub: {message}");
            ExitCode::FAILURE
        }
    }
}
