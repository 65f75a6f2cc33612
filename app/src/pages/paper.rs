//! The LexPilot paper's results beyond the per-task leaderboard, live over
//! the stored runs: Table 3 with its cross-model rows, Table 4 (Targeted
//! vs Off-target, from the stored experiment results), Table 13 (the
//! user-simulator fidelity study, over the review's labels), Table 15 (user
//! conditions), Tables 16 and 17 (LJP per class), Figure 3 (LCA and DCG per
//! cause against case complexity) and Figure 4 (DCG per focal-point type and
//! class). Tables render on the server, figures are server-drawn SVG, so the
//! page reads the same with JavaScript off; each table exports as CSV, JSON
//! and LaTeX (`/api/leaderboard/export?paper=<name>`).

use engine::lexpilot::fidelity::{Share, StudyView};
use engine::lexpilot::paper::{Figure4bModels, PaperTable};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::i18n::Lang;
use crate::components::labels::{BlindNote, ErrorBox, Loading, SyntheticNotice};
use crate::components::live::{use_live_of, LiveBadge};
use crate::pages::leaderboard::lower_is_better;
use crate::pages::model::model_url;
use crate::server_fns::paper::{get_paper, PaperPage};
use engine::benchmark::Benchmark;

#[component]
pub fn PaperPageView() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let figure_4b = move || query.with(|q| q.get("figure_4b"));
    let live = use_live_of(Benchmark::Lexpilot.as_str(), &["runs", "cases", "review"]);
    let data = Resource::new(
        move || (figure_4b(), live.changes.get()),
        |(figure_4b, _)| get_paper(figure_4b),
    );
    view! {
        <Title text=lang.t("论文结果", "Paper results") />
        <section class="panel paper">
            <h1>{lang.t("论文结果", "Paper results")} " " <LiveBadge live /></h1>
            <p class="legend">
                {lang.t(
                    "LexPilot 论文的其他表格与图，基于在标准用户设定下运行的各条目已存储的运行重新计算（表 15 比较不同的用户设定）。",
                    "The LexPilot paper's other tables and figures, recomputed from the stored runs of the entries run under the standard user (Table 15 compares user conditions). ",
                )}
                <a href="/leaderboard">{lang.t("表 2 与表 14 见排行榜", "Tables 2 and 14 are the leaderboard's views")}</a> {lang.t("；表 12 见", "; Table 12 is the ")}
                <a href="/review/agreement">{lang.t("一致性看板", "agreement dashboard")}</a> {lang.t("。", ".")}
            </p>
            <nav class="tabs" aria-label=lang.t("论文结果", "Paper results")>
                <a href="#table-3">{lang.t("表 3", "Table 3")}</a> <a href="#table-4">{lang.t("表 4", "Table 4")}</a> <a href="#table-13">{lang.t("表 13", "Table 13")}</a> <a href="#table-15">{lang.t("表 15", "Table 15")}</a> <a href="#table-16">{lang.t("表 16", "Table 16")}</a>
                <a href="#table-17">{lang.t("表 17", "Table 17")}</a> <a href="#figure-3">{lang.t("图 3", "Figure 3")}</a> <a href="#figure-4">{lang.t("图 4", "Figure 4")}</a>
            </nav>
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(page) => view! { <PaperBody page /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn PaperBody(page: PaperPage) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let v = page.views;
    let empty_15 = v.table_15.rows.is_empty();
    let empty_4 = v.table_4.rows.is_empty();
    let unresolved = v.table_4_unresolved.clone();
    let figure_4b_empty =
        page.figure_4b_models == Figure4bModels::Closed && v.figure_4.by_class.rows.is_empty();
    let figure_4b_query = match page.figure_4b_models {
        Figure4bModels::Closed => String::new(),
        chosen => format!("&figure_4b={}", chosen.as_str()),
    };
    view! {
        <SyntheticNotice synthetic=page.dataset.synthetic />
        <BlindNote note=page.blind />
        <p class="dataset-line">
            {lang.t("数据集 ", "On ")} <strong>{page.dataset.name.clone()}</strong> {lang.t(" 版本 ", " version ")} {page.dataset.version}
            {lang.t(" · 各条目多次运行的平均 ± 样本标准差", " · mean ± sample std over each entry's runs")}
        </p>
        <section id="table-3" data-testid="paper-table-3">
            <h2>{lang.t("表 3 · 三种设置下的判决预测", "Table 3 · LJP under three setups")}</h2>
            <p class="legend">{lang.t(
                "增益 = 交互预测 − 直接预测；相对下降 = (金标准 − 交互) / 金标准。最后一行是各模型数值的均值（即论文中的 0.041 与 23.84%），而非均值之比。",
                "Gain = Interaction-Based − Direct; relative degradation = (Gold − Interaction) / Gold. The last row is the mean of the per-model values (the paper's 0.041 and 23.84%), not a ratio of averages.",
            )}</p>
            <PaperTableView table=v.table_3 />
        </section>
        <section id="table-4" data-testid="paper-table-4">
            <h2>{lang.t("表 4 · 定向追问与偏离追问", "Table 4 · Targeted vs Off-target clarification")}</h2>
            <p class="legend">{lang.t(
                "信息缺失咨询上的 LJP QWK：直接预测（该模型自身的直接预测运行），对照在为找回（定向）或回避（偏离）缺失事实而构造的对话之后的预测；每段对话均经评审模型验证，每个案例每种条件最多尝试五次（附录 E.7）。未解决的案例不计分，列于下方；接受数、未解决数与尝试次数均为每次运行的均值。构造与验证提示词为工作台自带，并非论文原文。",
                "LJP QWK on the underspecified consultations: Direct (the model's own Direct runs) beside prediction after dialogues constructed to recover (Targeted) or avoid (Off-target) the missing facts, each validated by the judge, at most five attempts per case and condition (Appendix E.7). Unresolved cases are excluded from scoring and listed below; accepted, unresolved and attempts are means per run. The construction and validation prompts are the workbench's own, not the paper's.",
            )}</p>
            {empty_4.then(|| view! {
                <p class="empty" data-testid="table-4-empty">
                    {lang.t("尚未存储定向与偏离追问的结果。请运行 ", "No Targeted vs Off-target results are stored yet. Run ")}
                    <code>"lexpilot experiment targeted … --db"</code>
                    {lang.t("，或在任务页面启动该实验。", " or start the experiment on the jobs page.")}
                </p>
            })}
            {(!empty_4).then(|| view! { <PaperTableView table=v.table_4 /> })}
            {(!unresolved.is_empty()).then(|| view! {
                <details data-testid="table-4-unresolved">
                    <summary>{match lang {
                        Lang::Zh => format!("未解决的案例（{}）", unresolved.len()),
                        Lang::En => format!("Unresolved cases ({})", unresolved.len()),
                    }}</summary>
                    <ul>
                        {unresolved.into_iter().map(|u| {
                            let runs: Vec<String> = u.runs.iter().map(u32::to_string).collect();
                            view! {
                                <li>
                                    {u.model} " · " {u.condition.label(lang)} " · "
                                    <a href=crate::url::case(&u.case_id)>{u.case_id.clone()}</a>
                                    {lang.t(" · 运行 ", " · runs ")} {runs.join(", ")}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </details>
            })}
        </section>
        <FidelitySection study=page.fidelity />
        <section id="table-15" data-testid="paper-table-15">
            <h2>{lang.t("表 15 · 非理想用户", "Table 15 · Non-ideal users")}</h2>
            <p class="legend">{lang.t(
                    "各模型在标准用户、延迟披露与自我更正三种设定下的交互预测 LJP QWK。DLawBench 的对应结果（四种当事人风格）见",
                    "Interaction-Based LJP QWK per model under the standard user, delayed disclosure and self-correction. The DLawBench counterpart, the four client styles, is on ",
                )}
                <a href="/dlawbench/leaderboard#styles">{lang.t("其排行榜", "its leaderboard")}</a> {lang.t("。", ".")}</p>
            {empty_15.then(|| view! {
                <p class="empty" data-testid="table-15-empty">
                    {lang.t("尚无条目在非理想用户设定下运行。可运行 ", "No entry was run under a non-ideal user yet. Run one with ")}
                    <code>"lexpilot run --user-condition delayed"</code> {lang.t("（或 ", " (or ")} <code>"self_correction"</code>
                    {lang.t("），或在任务页面选择用户设定。", "), or choose the user condition on the jobs page.")}
                </p>
            })}
            {(!empty_15).then(|| view! { <PaperTableView table=v.table_15 /> })}
        </section>
        <section id="table-16" data-testid="paper-table-16">
            <h2>{lang.t("表 16 · 各类别判决预测（金标准预测）", "Table 16 · LJP per class, Gold-Standard")}</h2>
            <PaperTableView table=v.table_16 />
        </section>
        <section id="table-17" data-testid="paper-table-17">
            <h2>{lang.t("表 17 · 各类别判决预测（交互预测）", "Table 17 · LJP per class, Interaction-Based")}</h2>
            <PaperTableView table=v.table_17 />
        </section>
        <section id="figure-3" data-testid="paper-figure-3">
            <h2>{lang.t("图 3 · 案件复杂度", "Figure 3 · Case complexity")}</h2>
            <p class="legend">{lang.t(
                "每个点对应一个案由与一个模型：横轴为该案由判决平均引用的法条数，纵轴为该模型在此案由案例上的 LCA Macro-F1 与 DCG 准确率；每个模型一条拟合线（最小二乘）。下表给出各案由上的相关性。",
                "One point per cause of action and model: the cause's mean number of provisions its judgments cite against the model's LCA Macro-F1 and DCG accuracy on its cases; a line per model (least squares). The table below gives the association over the causes.",
            )}</p>
            <div class="figure-pair">
                <figure class="chart-figure" data-testid="figure-3-lca" inner_html=page.figure_3_lca></figure>
                <figure class="chart-figure" data-testid="figure-3-dcg" inner_html=page.figure_3_dcg></figure>
            </div>
            <PaperTableView table=v.figure_3.association />
            <details>
                <summary>{lang.t("全部数据点（模型 × 案由）", "Every point (model × cause)")}</summary>
                <PaperTableView table=v.figure_3.points />
            </details>
        </section>
        <section id="figure-4" data-testid="paper-figure-4">
            <h2>{lang.t("图 4 · 争议焦点类型", "Figure 4 · Focal-point types")}</h2>
            <p class="legend">{lang.t(
                "(a) 缺失事实涉及各类型争议焦点的案例上的 DCG 准确率（一个案例计入其具有的每种类型），并附此类案例数；(b) 各类别的 DCG，默认为闭源模型的均值（与论文相同：论文对三个闭源模型取平均），也可选全部条目；(c) 各类别中每种类型的争议焦点数。",
                "(a) DCG accuracy over the cases whose missing facts bear on a focal point of each type (a case counts under each type it has), with the number of such cases; (b) DCG per class, by default the mean over the closed-source models as in the paper (which averages its three closed-source models), or over every entry; (c) focal points per type in each class.",
            )}</p>
            <figure class="chart-figure" data-testid="figure-4a" inner_html=page.figure_4a></figure>
            <PaperTableView table=v.figure_4.by_type />
            <Figure4bChoice chosen=page.figure_4b_models />
            {figure_4b_empty.then(|| view! {
                <p class="empty" data-testid="figure-4b-empty">
                    {lang.t("没有闭源模型（family 为 closed）的条目带有 DCG 结果；", "No closed-source entry (family closed) has DCG results; ")}
                    <a href=figure_4b_url(Figure4bModels::All)>{lang.t("改为对全部条目取平均", "average over all entries instead")}</a>
                    {lang.t("。", ".")}
                </p>
            })}
            <figure class="chart-figure" data-testid="figure-4b" inner_html=page.figure_4b></figure>
            <PaperTableView table=v.figure_4.by_class query=figure_4b_query />
            <figure class="chart-figure" data-testid="figure-4c" inner_html=page.figure_4c></figure>
            <PaperTableView table=v.figure_4.types_per_class />
        </section>
    }
}

/// The page with Figure 4 (b) over `models`, at the figure.
fn figure_4b_url(models: Figure4bModels) -> String {
    match models {
        Figure4bModels::Closed => "/paper#figure-4".to_owned(),
        chosen => format!("/paper?figure_4b={}#figure-4", chosen.as_str()),
    }
}

/// Which entries Figure 4 (b) averages over, as two links (it works
/// without JavaScript).
#[component]
fn Figure4bChoice(chosen: Figure4bModels) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let links = Figure4bModels::ALL
        .into_iter()
        .map(|m| {
            let selected = m == chosen;
            let (text, hint) = match m {
                Figure4bModels::Closed => (
                    lang.t("闭源模型（同论文）", "Closed-source models (as the paper)"),
                    lang.t("论文的图 4 (b) 对其三个闭源模型取平均", "the paper's Figure 4 (b) averages its three closed-source models"),
                ),
                Figure4bModels::All => (
                    lang.t("全部条目", "All entries"),
                    lang.t("对标准用户设定下所有带 DCG 结果的条目取平均", "the mean over every standard-user entry with DCG results"),
                ),
            };
            view! {
                <a href=figure_4b_url(m) class="button" class:selected=selected aria-current=selected.then_some("page") title=hint data-testid=format!("figure-4b-{}", m.as_str())>
                    {text}
                </a>
            }
        })
        .collect_view();
    view! {
        <nav class="view-toggle" aria-label=lang.t("图 4 (b) 的平均范围", "Figure 4 (b) averages over")>
            <span style="align-self: center">{lang.t("图 4 (b) 的平均范围：", "Figure 4 (b) averages over:")}</span> {links}
        </nav>
    }
}

/// `k/n (rate)`, or `—` with nothing to count.
fn share_text(lang: Lang, s: &Share) -> String {
    match s.rate() {
        Some(r) => format!("{:.1}% ({}/{})", 100.0 * r, s.k, s.n),
        None => lang.t("—（0 条已标注）", "— (0 labelled)").to_owned(),
    }
}

/// Table 13 (Appendix E.3.2–E.3.3): the fidelity study's rates over the
/// labelled replies, the figures the paper gives beside it, and how far the
/// review has come.
#[component]
fn FidelitySection(study: Option<StudyView>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let body = match study {
        None => view! {
            <p class="empty" data-testid="table-13-empty">
                {lang.t(
                    "此版本尚无用户模拟器保真度研究。专家为抽样案例编写探针（每个案由两个：A、B、C 问题与 D 关键事实），见",
                    "No user-simulator fidelity study on this version yet. Experts write the probes of the sampled cases (two per cause: the A, B, C questions and the D key facts) on ",
                )}
                <a href="/review/fidelity">{lang.t("探针页面", "the probes page")}</a>
                {lang.t("；随后由管理员在", "; an admin then runs the study from ")}
                <a href="/admin/runs">{lang.t("任务页面", "the jobs page")}</a>
                {lang.t("启动研究（或运行 ", " (or ")}
                <code>"lexpilot experiment fidelity --probes FILE … --db"</code>
                {lang.t(
                    "）：每条回复都成为一个审核条目，由两位专家盲标。",
                    "): every reply becomes a review item that two experts label blind.",
                )}
            </p>
        }
        .into_any(),
        Some(view) => {
            let s = view.study;
            let diff = match (s.b_minus_a, lang) {
                (Some(d), Lang::Zh) => format!(
                    "{:+.1} 个百分点（95% 置信区间 [{:+.1}, {:+.1}]，基于 {} 个案例的配对案例自助法）",
                    100.0 * d.diff,
                    100.0 * d.ci.0,
                    100.0 * d.ci.1,
                    s.paired_cases
                ),
                (Some(d), Lang::En) => format!(
                    "{:+.1} percentage points (95% CI [{:+.1}, {:+.1}], paired case bootstrap over {} cases)",
                    100.0 * d.diff,
                    100.0 * d.ci.0,
                    100.0 * d.ci.1,
                    s.paired_cases
                ),
                (None, _) => lang
                    .t("—（尚无案例同时标注了 A 与 B）", "— (no case has both A and B labelled yet)")
                    .to_owned(),
            };
            let agreement = s
                .agreement
                .iter()
                .map(|a| view! { <li>{format!("{}{}{}", a.criterion.label(lang), lang.t("：", ": "), share_text(lang, &a.agree))}</li> })
                .collect_view();
            view! {
                <p class="dataset-line" data-testid="table-13-progress">
                    {match lang {
                        Lang::Zh => format!(
                            "模拟器 {} · DCG 评审模型 {} · {} 个探针 · {} 条回复中已标注 {} 条（最终标签：一致或经裁决）",
                            view.user_model,
                            view.judge.unwrap_or_else(|| "—".into()),
                            view.probes,
                            s.replies,
                            s.labelled
                        ),
                        Lang::En => format!(
                            "Simulator {} · DCG judge {} · {} probes · {} of {} replies labelled (final, agreed or adjudicated)",
                            view.user_model,
                            view.judge.unwrap_or_else(|| "—".into()),
                            view.probes,
                            s.labelled,
                            s.replies
                        ),
                    }}
                    " · " <a href="/review">{lang.t("去标注", "label replies")}</a>
                </p>
                <PaperTableView table=s.table />
                <ul class="figures" data-testid="table-13-figures">
                    <li data-testid="table-13-diff">{format!("{}{diff}", lang.t("间接 − 直接回答率：", "Indirect − direct answer rate: "))}</li>
                    <li data-testid="table-13-ad">{format!("{}{}", lang.t("A 回答充分且 D 恰当表示不知：", "A sufficient and D appropriately uncertain: "), share_text(lang, &s.a_d_pairs))}</li>
                    <li data-testid="table-13-failures">{format!("{}{}", lang.t("被接受但未找回事实的 A/B 请求（E.3.3）：", "Accepted A/B requests without factual recovery (E.3.3): "), share_text(lang, &s.accepted_failures))}</li>
                    <li>{lang.t("裁决前的一致率：", "Agreement before adjudication:")} <ul data-testid="table-13-agreement">{agreement}</ul></li>
                </ul>
            }
            .into_any()
        }
    };
    view! {
        <section id="table-13" data-testid="paper-table-13">
            <h2>{lang.t("表 13 · 用户模拟器保真度", "Table 13 · User-simulator fidelity")}</h2>
            <p class="legend">{lang.t(
                "专家为每个抽样案例编写的探针：A 直接询问一项缺失事实，B 间接询问，C 仅提及相关法律概念，D 与 A 相同但模拟器不知晓该事实。回答指标对 A/B 为回答充分性，对 D 为恰当表示不知；OD 为超出约定许可范围的过度披露；比率以有最终标签的回复为分母。DCG+ 为主评测的 DCG 评审模型认可该问题本身的比例（附录 E.3.3）。",
                "Expert-authored probes per sampled case: A asks directly for a missing fact, B indirectly, C only names the legal concept, D repeats A with the fact withheld from the simulator. Answer is sufficiency for A/B and appropriate uncertainty for D; OD is over-disclosure beyond the agreed permissions; rates are over the replies with a final label. DCG+ is the main evaluation's DCG judge accepting the question itself (Appendix E.3.3).",
            )}</p>
            {body}
        </section>
    }
}

/// One of the paper's tables: the group written once per block, summary rows
/// set apart, and its exports.
/// `query` is added to its export links (`&name=value`…).
#[component]
fn PaperTableView(table: PaperTable, #[prop(optional)] query: String) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let name = table.name.clone();
    let mut last: Option<Option<String>> = None;
    let rows = (0..table.rows.len())
        .map(|r| {
            let row = &table.rows[r];
            let group = if last.as_ref() != Some(&row.group) {
                last = Some(row.group.clone());
                row.group.clone().unwrap_or_default()
            } else {
                String::new()
            };
            let label = match row.entry {
                Some(_) if !row.summary && table.heads.1 == "Model" => {
                    view! { <a href=model_url(&row.label)>{row.label.clone()}</a> }.into_any()
                }
                _ => view! { <span>{row.label.clone()}</span> }.into_any(),
            };
            let cells = (0..table.columns.len())
                .map(|c| view! { <td class="num">{table.text(r, c)}</td> })
                .collect_view();
            view! {
                <tr class:summary-row=row.summary>
                    <td class="muted">{group}</td>
                    <td class="model">{label}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard paper-table" data-testid=format!("paper-{name}")>
                <caption>{table.caption.clone()}</caption>
                <thead>
                    <tr>
                        <th>{table.heads.0.clone()}</th>
                        <th>{table.heads.1.clone()}</th>
                        {table.columns.iter().map(|c| view! { <th class="num" data-better=c.better.as_str()>{c.label.clone()} {lower_is_better(lang, c.better)}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="exports">
            {lang.t("导出：", "Export: ")}
            {["csv", "json", "latex"]
                .into_iter()
                .map(|format| {
                    let href = format!("/api/leaderboard/export?paper={name}&format={format}{query}");
                    view! { <a href=href rel="external" download>{format.to_uppercase()}</a> " " }
                })
                .collect_view()}
        </p>
    }
}
