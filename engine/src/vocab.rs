//! The fixed vocabularies of `docs/formats.md` §1 and the 36 causes of action.
//!
//! Every vocabulary is a small `Copy` enum whose serde form, [`Display`](std::fmt::Display)
//! and `as_str` are the exact wire string of the data contract (`snake_case`), with
//! Chinese and English labels for people. The [`Vocabulary`] trait gives generic
//! code (parsers, select boxes) the same operations.
//!
//! [`CAUSES`] is Table 10 of the LexPilot paper (Appendix D.2): the 36 causes of
//! action in the paper's order, each with the [`Class`] it belongs to.
//!
//! Depends on serde only.
//!
//! ```
//! use engine::vocab::{cause, Class, Verdict};
//!
//! assert_eq!(Verdict::parse("partially_supported"), Some(Verdict::PartiallySupported));
//! assert_eq!(Verdict::Dismissed.code(), 2);
//! assert_eq!(cause("离婚后财产纠纷").map(|c| c.class), Some(Class::Family));
//! ```

/// Operations shared by every vocabulary enum of this module.
pub trait Vocabulary: Copy + Eq + 'static {
    /// What the vocabulary names, for messages: `"verdict"`, `"focal point type"`.
    const KIND: &'static str;
    /// Every value, in declaration order (the order of `docs/formats.md`).
    const VALUES: &'static [Self];

    /// The exact wire string.
    fn as_str(self) -> &'static str;
    /// The Chinese label shown to people.
    fn label_zh(self) -> &'static str;
    /// The English label shown to people.
    fn label_en(self) -> &'static str;

    /// The value whose wire string is exactly `s`.
    fn parse(s: &str) -> Option<Self> {
        Self::VALUES.iter().copied().find(|v| v.as_str() == s)
    }

    /// The wire strings joined by `", "`, for "expected one of …" messages.
    fn expected() -> String {
        Self::VALUES
            .iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Declares a vocabulary enum with its wire strings and labels, its inherent
/// `ALL` / `as_str` / `parse` / `label_zh` / `label_en`, `Display` and
/// [`Vocabulary`]. The serde form comes from `rename_all = "snake_case"`; the
/// tests check that it equals the wire string given here.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $name:ident, kind $kind:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal, zh $zh:literal, en $en:literal; )+
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [Self; [$($wire),+].len()] = [$(Self::$variant),+];

            /// The exact wire string.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $wire, )+
                }
            }

            /// The value whose wire string is exactly `s` (no trimming, no case folding).
            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $( $wire => Some(Self::$variant), )+
                    _ => None,
                }
            }

            /// The Chinese label shown to people.
            pub const fn label_zh(self) -> &'static str {
                match self {
                    $( Self::$variant => $zh, )+
                }
            }

            /// The English label shown to people.
            pub const fn label_en(self) -> &'static str {
                match self {
                    $( Self::$variant => $en, )+
                }
            }

            /// The label shown to people in `lang`.
            pub const fn label(self, lang: $crate::lang::Lang) -> &'static str {
                match lang {
                    $crate::lang::Lang::Zh => self.label_zh(),
                    $crate::lang::Lang::En => self.label_en(),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl $crate::vocab::Vocabulary for $name {
            const KIND: &'static str = $kind;
            const VALUES: &'static [Self] = &Self::ALL;

            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }

            fn label_zh(self) -> &'static str {
                $name::label_zh(self)
            }

            fn label_en(self) -> &'static str {
                $name::label_en(self)
            }

            fn parse(s: &str) -> Option<Self> {
                $name::parse(s)
            }
        }
    };
}
pub(crate) use vocabulary;

vocabulary! {
    /// The six major classes of causes of action (paper, Table 10).
    Class, kind "class" {
        /// 婚姻家庭、继承纠纷.
        Family = "family", zh "婚姻家庭、继承纠纷", en "Family";
        /// 物权纠纷.
        RealRights = "real_rights", zh "物权纠纷", en "Real Rights";
        /// 侵权纠纷.
        Tort = "tort", zh "侵权纠纷", en "Tort";
        /// 劳动、服务、工程类合同纠纷.
        ServiceContract = "service_contract", zh "劳动、服务、工程类合同纠纷", en "Service Contract";
        /// 交易流转、保险与金融类合同纠纷.
        FinanceContract = "finance_contract", zh "交易流转、保险与金融类合同纠纷", en "Finance Contract";
        /// 其他纠纷.
        Misc = "misc", zh "其他纠纷", en "Misc.";
    }
}

vocabulary! {
    /// The court's verdict on one claim, ordered `Supported < PartiallySupported < Dismissed`.
    Verdict, kind "verdict" {
        /// The claim was supported in full.
        Supported = "supported", zh "支持", en "Supported";
        /// The claim was supported in part.
        PartiallySupported = "partially_supported", zh "部分支持", en "Partially Supported";
        /// The claim was dismissed.
        Dismissed = "dismissed", zh "驳回", en "Dismissed";
    }
}

vocabulary! {
    /// The two consultations of a case.
    Consultation, kind "consultation" {
        /// Holds every fact the court relied on.
        Complete = "complete", zh "完整", en "Complete";
        /// Leaves the case's missing key facts undisclosed.
        Underspecified = "underspecified", zh "信息缺失", en "Underspecified";
    }
}

vocabulary! {
    /// The seven types of focal points of dispute (paper, Appendix E.8, Table 18).
    FocalPointType, kind "focal point type" {
        /// Legal standing, status relationships, qualifications.
        SubjectIdentity = "subject_identity", zh "主体身份类", en "Subject Identity";
        /// Ownership and attribution of substantive rights.
        RightsAllocation = "rights_allocation", zh "权属界定类", en "Rights Allocation";
        /// Establishment, effectiveness, invalidity of contracts, agreements, wills.
        ContractValidity = "contract_validity", zh "契约效力类", en "Contract Validity";
        /// Whether the parties actually performed specific acts or obligations.
        FactualConduct = "factual_conduct", zh "客观行为类", en "Factual Conduct";
        /// Amounts, quantities, proportions and values.
        AmountAssessment = "amount_assessment", zh "数额界定类", en "Amount Assessment";
        /// Causation, fault and who bears liability.
        LiabilityAllocation = "liability_allocation", zh "归责逻辑类", en "Liability Allocation";
        /// Focal points the six other types do not cover.
        Other = "other", zh "其他", en "Other";
    }
}

vocabulary! {
    /// Whether the primary plaintiff is a natural person.
    PlaintiffType, kind "plaintiff type" {
        /// A natural person.
        Natural = "natural", zh "自然人", en "Natural Person";
        /// A company, institution or other organisation.
        NonNatural = "non_natural", zh "非自然人", en "Non-natural Person";
    }
}

vocabulary! {
    /// Who speaks a turn of a dialogue.
    Role, kind "role" {
        /// The person consulting (the plaintiff's side).
        User = "user", zh "用户", en "User";
        /// The legal assistant.
        Assistant = "assistant", zh "助手", en "Assistant";
    }
}

vocabulary! {
    /// The three setups of the legal judgment prediction task.
    LjpSetup, kind "LJP setup" {
        /// Predicts from the underspecified consultation without asking.
        Direct = "direct", zh "直接预测", en "Direct";
        /// Asks the user model for missing facts, then predicts.
        Interaction = "interaction", zh "交互预测", en "Interaction-Based";
        /// Predicts from the complete consultation.
        Gold = "gold", zh "金标准预测", en "Gold-Standard";
    }
}

vocabulary! {
    /// What a reply did in the legal consultation assessment task.
    LcaLabel, kind "LCA label" {
        /// Gave verdicts: treated the consultation as complete.
        Predict = "predict", zh "直接预测", en "Predict";
        /// Asked for a missing fact: treated the consultation as underspecified.
        Ask = "ask", zh "追问", en "Ask";
    }
}

impl Verdict {
    /// The ordinal code used for quadratic weighted kappa: 0, 1, 2.
    pub const fn code(self) -> u8 {
        match self {
            Self::Supported => 0,
            Self::PartiallySupported => 1,
            Self::Dismissed => 2,
        }
    }
}

impl Class {
    /// The causes of action of this class, in Table 10 order.
    pub fn causes(self) -> impl Iterator<Item = &'static Cause> {
        let table: &'static [Cause] = &CAUSES;
        table.iter().filter(move |c| c.class == self)
    }
}

/// One cause of action of Table 10: its Chinese name (authoritative, the value of
/// a case's `cause`), the paper's English translation, and its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Cause {
    /// The Chinese name, as in the dataset's `cause` field.
    pub name_zh: &'static str,
    /// The paper's English translation.
    pub name_en: &'static str,
    /// The class the paper puts it in.
    pub class: Class,
}

const fn c(name_zh: &'static str, name_en: &'static str, class: Class) -> Cause {
    Cause {
        name_zh,
        name_en,
        class,
    }
}

/// The 36 causes of action of the LexPilot paper's Table 10, in its order.
pub const CAUSES: [Cause; 36] = [
    c("离婚纠纷", "Divorce Dispute", Class::Family),
    c(
        "离婚后财产纠纷",
        "Property Dispute after Divorce",
        Class::Family,
    ),
    c(
        "婚约财产纠纷",
        "Property Dispute involving Engagement",
        Class::Family,
    ),
    c(
        "抚养纠纷",
        "Child Support/Maintenance Dispute",
        Class::Family,
    ),
    c(
        "法定继承纠纷",
        "Statutory Succession Dispute",
        Class::Family,
    ),
    c(
        "物权确认纠纷",
        "Real Rights Confirmation Dispute",
        Class::RealRights,
    ),
    c(
        "返还原物纠纷",
        "Dispute over Return of Original Property",
        Class::RealRights,
    ),
    c(
        "相邻关系纠纷",
        "Neighboring Relationship Dispute",
        Class::RealRights,
    ),
    c(
        "侵害集体经济组织成员权益纠纷",
        "Dispute over Infringement of Rights of Members of Collective Organizations",
        Class::RealRights,
    ),
    c(
        "土地承包经营权纠纷",
        "Dispute over Land Contractual Management Rights",
        Class::RealRights,
    ),
    c(
        "排除妨害纠纷",
        "Dispute over Removal of Obstacles",
        Class::RealRights,
    ),
    c("共有纠纷", "Dispute over Co-ownership", Class::RealRights),
    c(
        "财产损害赔偿纠纷",
        "Property Damage Compensation Dispute",
        Class::RealRights,
    ),
    c("名誉权纠纷", "Right of Reputation Dispute", Class::Tort),
    c(
        "提供劳务者受害责任纠纷",
        "Dispute over Liability for Harm to Labor Service Providers",
        Class::Tort,
    ),
    c(
        "机动车交通事故责任纠纷",
        "Motor Vehicle Traffic Accident Liability Dispute",
        Class::Tort,
    ),
    c("产品责任纠纷", "Product Liability Dispute", Class::Tort),
    c(
        "劳动合同纠纷",
        "Labor Contract Dispute",
        Class::ServiceContract,
    ),
    c(
        "劳务合同纠纷",
        "Labor Service Contract Dispute",
        Class::ServiceContract,
    ),
    c(
        "委托合同纠纷",
        "Entrustment Contract Dispute",
        Class::ServiceContract,
    ),
    c(
        "服务合同纠纷",
        "Service Contract Dispute",
        Class::ServiceContract,
    ),
    c(
        "承揽合同纠纷",
        "Contract for Work Dispute",
        Class::ServiceContract,
    ),
    c(
        "建设工程合同纠纷",
        "Construction Project Contract Dispute",
        Class::ServiceContract,
    ),
    c(
        "运输合同纠纷",
        "Carriage Contract Dispute",
        Class::ServiceContract,
    ),
    c(
        "买卖合同纠纷",
        "Sales Contract Dispute",
        Class::FinanceContract,
    ),
    c(
        "房屋买卖合同纠纷",
        "Housing Sales Contract Dispute",
        Class::FinanceContract,
    ),
    c(
        "租赁合同纠纷",
        "Lease Contract Dispute",
        Class::FinanceContract,
    ),
    c(
        "借款合同纠纷",
        "Loan Contract Dispute",
        Class::FinanceContract,
    ),
    c("银行卡纠纷", "Bank Card Dispute", Class::FinanceContract),
    c(
        "保证合同纠纷",
        "Guarantee Contract Dispute",
        Class::FinanceContract,
    ),
    c(
        "财产保险合同纠纷",
        "Property Insurance Contract Dispute",
        Class::FinanceContract,
    ),
    c(
        "确认合同效力纠纷",
        "Contract Validity Confirmation Dispute",
        Class::Misc,
    ),
    c("追偿权纠纷", "Right of Recourse Dispute", Class::Misc),
    c(
        "破产债权确认纠纷",
        "Bankruptcy Claim Confirmation Dispute",
        Class::Misc,
    ),
    // The paper's extracted text reads "for Objection to Execution": the word
    // "Action" was lost in extraction, as in its "causes of [action]" elsewhere.
    c(
        "执行异议之诉",
        "Action for Objection to Execution",
        Class::Misc,
    ),
    c(
        "不当得利纠纷",
        "Dispute over Unjust Enrichment",
        Class::Misc,
    ),
];

/// The cause of action whose Chinese name is exactly `name_zh`.
///
/// # Examples
///
/// ```
/// use engine::vocab::{cause, Class};
///
/// let divorce = cause("离婚纠纷").expect("a Table 10 cause");
/// assert_eq!(divorce.name_en, "Divorce Dispute");
/// assert_eq!(divorce.class, Class::Family);
/// assert!(cause("Divorce Dispute").is_none());
/// ```
pub fn cause(name_zh: &str) -> Option<&'static Cause> {
    let table: &'static [Cause] = &CAUSES;
    table.iter().find(|c| c.name_zh == name_zh)
}
