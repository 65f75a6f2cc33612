//! Two entries compared score by score with a paired bootstrap over cases:
//! both are recomputed on the same resamples, giving the difference A − B,
//! its 95% interval and a two-sided p-value. The pickers are a GET form, so
//! the page works without JavaScript and every comparison is a link.

use engine::core::columns::Scale;
use engine::vocab::Class;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::exports::{export_url, ExportLinks};
use crate::components::labels::{BlindNote, ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::models::compare;
use crate::types::CompareView;
use crate::url::encode;

/// The compare page for models `a` and `b` (either may be missing).
pub fn compare_url(a: Option<&str>, b: Option<&str>) -> String {
    let mut url = "/compare".to_owned();
    let parts: Vec<String> = [("a", a), ("b", b)]
        .into_iter()
        .filter_map(|(k, v)| Some(format!("{k}={}", encode(v?))))
        .collect();
    if !parts.is_empty() {
        url.push('?');
        url.push_str(&parts.join("&"));
    }
    url
}

#[component]
pub fn ComparePage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let args = move || query.with(|q| (q.get("a"), q.get("b"), q.get("class")));
    let data = Resource::new(args, |(a, b, class)| compare(a, b, class));
    view! {
        <Title text=lang.t("模型对比", "Compare entries") />
        <section class="panel">
            <p><a href="/leaderboard">{lang.t("← 排行榜", "← Leaderboard")}</a></p>
            <h1>{lang.t("模型对比", "Compare two entries")}</h1>
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(page) => view! { <CompareBody page /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

fn pct(p: f64) -> String {
    if p == 0.0 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| Scale::Unit.value(x))
}

#[component]
fn CompareBody(page: CompareView) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let picker = |name: &'static str, label: &'static str, current: Option<String>| {
        view! {
            <label class="field">
                {label}
                <select name=name data-testid=format!("pick-{name}")>
                    <option value="">"—"</option>
                    {page.models.iter().map(|m| {
                        let selected = current.as_deref() == Some(m.as_str());
                        view! { <option value=m.clone() selected=selected>{m.clone()}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
    };
    let class_now = page.class;
    let mut here = compare_url(page.a.as_deref(), page.b.as_deref());
    if let Some(class) = page.class {
        here.push_str(&format!("&class={}", class.as_str()));
    }
    view! {
        <SyntheticNotice synthetic=page.dataset.synthetic />
        <BlindNote note=page.blind />
        <form method="get" action="/compare" class="filters">
            {picker("a", lang.t("条目 A", "Entry A"), page.a.clone())}
            {picker("b", lang.t("条目 B", "Entry B"), page.b.clone())}
            <label class="field">
                {lang.t("案件范围", "Cases")}
                <select name="class">
                    <option value="overall">{lang.t("全部", "All")}</option>
                    {Class::ALL.into_iter().map(|c| view! {
                        <option value=c.as_str() selected=class_now == Some(c)>{c.label(lang)}</option>
                    }).collect_view()}
                </select>
            </label>
            <div class="filter-actions"><button type="submit" class="primary">{lang.t("对比", "Compare")}</button></div>
        </form>
        {if page.rows.is_empty() {
            view! { <p class="empty">{lang.t("请选择两个条目。", "Pick two entries to compare them.")}</p> }.into_any()
        } else {
            view! {
                <p class="dataset-line">
                    {lang.t("基于 ", "Paired bootstrap over ")}
                    {lang.count(page.dataset.case_count.max(0) as u64, "个案例", "case", "cases")}
                    {lang.t("的配对自助法（", " (")} {page.resamples}
                    {lang.t(
                        " 次重抽样，固定随机种子）：每次重抽样在相同的案例上为两个条目评分。条目均值为该条目各次运行的平均。",
                        " resamples, fixed seed): each resample scores both entries on the same cases. Entry means are over each entry's runs.",
                    )}
                </p>
                <div class="table-scroll" tabindex="0">
                    <table class="compare" data-testid="compare">
                        <thead>
                            <tr>
                                <th>{lang.t("得分", "Score")}</th><th class="num">"A"</th><th class="num">"B"</th>
                                <th class="num">"A − B"</th><th class="num">{lang.t("95% 置信区间", "95% CI")}</th><th class="num">"p"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {page.rows.iter().map(|r| {
                                let (diff, ci, p, significant) = match r.result {
                                    Some(res) => (
                                        Scale::Unit.difference(res.diff),
                                        format!("[{}, {}]", Scale::Unit.difference(res.ci.0), Scale::Unit.difference(res.ci.1)),
                                        pct(res.p_value),
                                        res.ci.0 > 0.0 || res.ci.1 < 0.0,
                                    ),
                                    None => ("—".into(), "—".into(), "—".into(), false),
                                };
                                view! {
                                    <tr class:significant=significant>
                                        <td>{r.metric.clone()}</td>
                                        <td class="num">{num(r.a)}</td>
                                        <td class="num">{num(r.b)}</td>
                                        <td class="num">{diff}</td>
                                        <td class="num">{ci}</td>
                                        <td class="num">{p}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="legend">
                    {lang.t(
                        "高亮行：A − B 的 95% 置信区间不含 0。p 为双侧；其分辨率为 1/",
                        "Highlighted rows: the 95% interval of A − B excludes 0. p is two-sided; its resolution is 1/",
                    )}
                    {page.resamples} {lang.t("。", ".")}
                </p>
                <ExportLinks href=export_url(&here, "compare") lang testid="export-compare" />
            }.into_any()
        }}
    }
}
