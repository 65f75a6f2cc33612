//! Timings of the citation check at the size of the statute package
//! (`harness = false`; run with `cargo bench -p engine --bench statutes`):
//!
//! - building the index over 378 laws and 26,168 articles (what a server
//!   does once per import);
//! - marking 12,960 replies (30 runs × 432 cases, one LJP reply each) of
//!   about 60 characters and two citations, one in a list;
//! - finding article mentions alone in the same replies.
//!
//! The laws are synthetic (numbered names, articles of 115 characters, the
//! package's average) with the Civil Code's real name and size among them.

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::statutes::cite::mentions;
use engine::statutes::numerals::write;
use engine::statutes::{Law, LawStatus, Provision, StatuteIndex};

const LAWS: usize = 378;
const ARTICLES: usize = 26_168;
const REPLIES: usize = 30 * 432;
const REPEATS: u32 = 5;

fn statutes() -> (Vec<Law>, Vec<Provision>) {
    let name = |i: usize| {
        if i == 0 {
            "中华人民共和国民法典".to_owned()
        } else {
            format!("中华人民共和国第{}号示例法", write(i as u32))
        }
    };
    let laws: Vec<Law> = (0..LAWS)
        .map(|i| Law {
            key: format!("law-{i}"),
            name: name(i),
            status: if i % 40 == 39 {
                LawStatus::Repealed
            } else {
                LawStatus::InForce
            },
            effective_date: Some("2021-01-01".into()),
        })
        .collect();
    let per_law = (ARTICLES - 1260) / (LAWS - 1);
    let text = "当事人一方不履行合同义务或者履行合同义务不符合约定的，应当承担继续履行、采取补救措施或者赔偿损失等违约责任。".repeat(2);
    let provisions = (0..LAWS)
        .flat_map(|i| {
            let n = if i == 0 { 1260 } else { per_law };
            let text = text.clone();
            (1..=n as u32).map(move |a| Provision {
                law: format!("law-{i}"),
                number: a,
                sub: 0,
                label: format!("第{}条", write(a)),
                chapter: None,
                text: text.clone(),
            })
        })
        .collect();
    (laws, provisions)
}

fn replies() -> Vec<String> {
    (0..REPLIES)
        .map(|i| {
            let a = 1 + (i * 37) % 1300;
            format!(
                "判决预测：第1项部分支持，第2项驳回。依据《民法典》第{}条、第{}条，以及合同第八条的约定。",
                write(a as u32),
                1 + (i * 11) % 1260
            )
        })
        .collect()
}

fn time<T>(label: &str, units: usize, unit: &str, mut f: impl FnMut() -> T) {
    let mut best = Duration::MAX;
    for _ in 0..REPEATS {
        let start = Instant::now();
        black_box(f());
        best = best.min(start.elapsed());
    }
    let per = best.as_secs_f64() / units as f64;
    println!(
        "{label}: {:.1} ms best of {REPEATS} ({:.2} µs per {unit}, {:.0} per second)",
        best.as_secs_f64() * 1e3,
        per * 1e6,
        1.0 / per
    );
}

fn main() {
    let (laws, provisions) = statutes();
    time(
        "index of 378 laws, 26,168 articles",
        ARTICLES,
        "article",
        || StatuteIndex::new(laws.clone(), provisions.clone()),
    );
    let index = StatuteIndex::new(laws, provisions);
    let replies = replies();
    time("mentions in 12,960 replies", REPLIES, "reply", || {
        replies.iter().map(|r| mentions(r).len()).sum::<usize>()
    });
    time("marks of 12,960 replies", REPLIES, "reply", || {
        replies.iter().map(|r| index.marks(r).len()).sum::<usize>()
    });
    time("citation check of 12,960 replies", REPLIES, "reply", || {
        index.check(replies.iter().map(String::as_str)).citations
    });
}
