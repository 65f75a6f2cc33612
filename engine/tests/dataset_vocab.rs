//! The vocabularies of `docs/formats.md` §1 and the cause → class table
//! (LexPilot paper, Table 10).

use std::collections::HashSet;

use engine::vocab::{
    cause, Class, Consultation, FocalPointType, LcaLabel, LjpSetup, PlaintiffType, Role, Verdict,
    Vocabulary, CAUSES,
};

/// The wire strings, serde form, `Display` and `parse` of one vocabulary agree,
/// and the labels are filled in.
fn check_vocabulary<T>(wire: &[&str])
where
    T: Vocabulary
        + std::fmt::Display
        + std::fmt::Debug
        + serde::Serialize
        + serde::de::DeserializeOwned,
{
    let strings: Vec<&str> = T::VALUES.iter().map(|v| v.as_str()).collect();
    assert_eq!(strings, wire);
    for &v in T::VALUES {
        let s = v.as_str();
        assert_eq!(
            serde_json::to_string(&v).expect("serialises"),
            format!("\"{s}\"")
        );
        assert_eq!(
            serde_json::from_str::<T>(&format!("\"{s}\"")).expect("deserialises"),
            v
        );
        assert_eq!(v.to_string(), s);
        assert_eq!(T::parse(s), Some(v));
        assert_eq!(T::parse(&s.to_uppercase()), None);
        assert_eq!(T::parse(&format!(" {s}")), None);
        assert!(
            !v.label_zh().is_empty() && !v.label_en().is_empty(),
            "{v:?}"
        );
    }
    assert_eq!(T::expected(), wire.join(", "));
}

#[test]
fn wire_strings_are_exactly_those_of_the_contract() {
    check_vocabulary::<Class>(&[
        "family",
        "real_rights",
        "tort",
        "service_contract",
        "finance_contract",
        "misc",
    ]);
    check_vocabulary::<Verdict>(&["supported", "partially_supported", "dismissed"]);
    check_vocabulary::<Consultation>(&["complete", "underspecified"]);
    check_vocabulary::<FocalPointType>(&[
        "subject_identity",
        "rights_allocation",
        "contract_validity",
        "factual_conduct",
        "amount_assessment",
        "liability_allocation",
        "other",
    ]);
    check_vocabulary::<PlaintiffType>(&["natural", "non_natural"]);
    check_vocabulary::<Role>(&["user", "assistant"]);
    check_vocabulary::<LjpSetup>(&["direct", "interaction", "gold"]);
    check_vocabulary::<LcaLabel>(&["predict", "ask"]);
}

#[test]
fn inherent_methods_agree_with_the_trait() {
    assert_eq!(Verdict::ALL.as_slice(), <Verdict as Vocabulary>::VALUES);
    assert_eq!(Verdict::parse("dismissed"), Some(Verdict::Dismissed));
    assert_eq!(Class::RealRights.as_str(), "real_rights");
    assert_eq!(format!("[{:<8}]", Role::User), "[user    ]");
}

#[test]
fn verdicts_are_ordered_with_qwk_codes() {
    assert!(Verdict::Supported < Verdict::PartiallySupported);
    assert!(Verdict::PartiallySupported < Verdict::Dismissed);
    let codes: Vec<u8> = Verdict::ALL.iter().map(|v| v.code()).collect();
    assert_eq!(codes, [0, 1, 2]);
}

#[test]
fn labels_follow_the_paper() {
    let zh: Vec<&str> = Class::ALL.iter().map(|c| c.label_zh()).collect();
    assert_eq!(
        zh,
        [
            "婚姻家庭、继承纠纷",
            "物权纠纷",
            "侵权纠纷",
            "劳动、服务、工程类合同纠纷",
            "交易流转、保险与金融类合同纠纷",
            "其他纠纷"
        ]
    );
    let en: Vec<&str> = Class::ALL.iter().map(|c| c.label_en()).collect();
    assert_eq!(
        en,
        [
            "Family",
            "Real Rights",
            "Tort",
            "Service Contract",
            "Finance Contract",
            "Misc."
        ]
    );
    let focal: Vec<&str> = FocalPointType::ALL.iter().map(|t| t.label_zh()).collect();
    assert_eq!(
        focal,
        [
            "主体身份类",
            "权属界定类",
            "契约效力类",
            "客观行为类",
            "数额界定类",
            "归责逻辑类",
            "其他"
        ]
    );
    let verdicts: Vec<&str> = Verdict::ALL.iter().map(|v| v.label_zh()).collect();
    assert_eq!(verdicts, ["支持", "部分支持", "驳回"]);
    assert_eq!(Consultation::Underspecified.label_zh(), "信息缺失");
    assert_eq!(PlaintiffType::NonNatural.label_zh(), "非自然人");
}

#[test]
fn there_are_36_distinct_causes() {
    assert_eq!(CAUSES.len(), 36);
    let zh: HashSet<&str> = CAUSES.iter().map(|c| c.name_zh).collect();
    let en: HashSet<&str> = CAUSES.iter().map(|c| c.name_en).collect();
    assert_eq!((zh.len(), en.len()), (36, 36));
}

#[test]
fn causes_per_class_match_table_10() {
    let counts: Vec<(Class, usize)> = Class::ALL
        .iter()
        .map(|&c| (c, c.causes().count()))
        .collect();
    assert_eq!(
        counts,
        [
            (Class::Family, 5),
            (Class::RealRights, 8),
            (Class::Tort, 4),
            (Class::ServiceContract, 7),
            (Class::FinanceContract, 7),
            (Class::Misc, 5),
        ]
    );
    // Table 10 lists the causes grouped by class, in class order.
    let classes: Vec<Class> = CAUSES.iter().map(|c| c.class).collect();
    let mut sorted = classes.clone();
    sorted.sort();
    assert_eq!(classes, sorted);
}

#[test]
fn every_cause_maps_to_its_class() {
    let expected = [
        ("离婚纠纷", Class::Family),
        ("离婚后财产纠纷", Class::Family),
        ("婚约财产纠纷", Class::Family),
        ("抚养纠纷", Class::Family),
        ("法定继承纠纷", Class::Family),
        ("物权确认纠纷", Class::RealRights),
        ("返还原物纠纷", Class::RealRights),
        ("相邻关系纠纷", Class::RealRights),
        ("侵害集体经济组织成员权益纠纷", Class::RealRights),
        ("土地承包经营权纠纷", Class::RealRights),
        ("排除妨害纠纷", Class::RealRights),
        ("共有纠纷", Class::RealRights),
        ("财产损害赔偿纠纷", Class::RealRights),
        ("名誉权纠纷", Class::Tort),
        ("提供劳务者受害责任纠纷", Class::Tort),
        ("机动车交通事故责任纠纷", Class::Tort),
        ("产品责任纠纷", Class::Tort),
        ("劳动合同纠纷", Class::ServiceContract),
        ("劳务合同纠纷", Class::ServiceContract),
        ("委托合同纠纷", Class::ServiceContract),
        ("服务合同纠纷", Class::ServiceContract),
        ("承揽合同纠纷", Class::ServiceContract),
        ("建设工程合同纠纷", Class::ServiceContract),
        ("运输合同纠纷", Class::ServiceContract),
        ("买卖合同纠纷", Class::FinanceContract),
        ("房屋买卖合同纠纷", Class::FinanceContract),
        ("租赁合同纠纷", Class::FinanceContract),
        ("借款合同纠纷", Class::FinanceContract),
        ("银行卡纠纷", Class::FinanceContract),
        ("保证合同纠纷", Class::FinanceContract),
        ("财产保险合同纠纷", Class::FinanceContract),
        ("确认合同效力纠纷", Class::Misc),
        ("追偿权纠纷", Class::Misc),
        ("破产债权确认纠纷", Class::Misc),
        ("执行异议之诉", Class::Misc),
        ("不当得利纠纷", Class::Misc),
    ];
    let table: Vec<(&str, Class)> = CAUSES.iter().map(|c| (c.name_zh, c.class)).collect();
    assert_eq!(table, expected);
    for (name, class) in expected {
        let found = cause(name).expect("a Table 10 cause");
        assert_eq!((found.name_zh, found.class), (name, class));
    }
}

#[test]
fn cause_lookup_is_exact() {
    assert_eq!(
        cause("离婚纠纷").map(|c| c.name_en),
        Some("Divorce Dispute")
    );
    assert_eq!(cause(" 离婚纠纷"), None);
    assert_eq!(cause("离婚"), None);
    assert_eq!(cause(""), None);
}
