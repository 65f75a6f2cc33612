//! Who makes a model, and who sits on a judge panel after recusal: the
//! rule DLawBench defines and every benchmark's panels share (`docs/benchmarks/
//! dlawbench.md` §0.3, §A2.3, →C-D14).
//!
//! - [`vendor_of`]: a model's vendor derived from its name, for headers and
//!   endpoints that name none.
//! - [`seated`]: the judges that sit: in a panel of two or more, a judge of
//!   the evaluated model's vendor recuses; a single judge never does; a
//!   panel recusal would empty is `None` (a configuration error).
//!
//! The engine holds the rule so that run validation (a stored `recused`
//! flag must agree with it) and the pipeline (which seats the panel) use
//! one definition. Depends on `std` only.

/// The vendor of a model, from its name: the known families by prefix
/// (`gpt-4o` → `openai`, `Claude-Opus-5` → `anthropic`, `deepseek-ai/DeepSeek-R1`
/// → `deepseek`), else the name's first word, lowercase.
///
/// # Examples
///
/// ```
/// use engine::vendor::vendor_of;
///
/// assert_eq!(vendor_of("GPT-5.6-Sol"), "openai");
/// assert_eq!(vendor_of("Qwen/Qwen3-8B"), "alibaba");
/// assert_eq!(vendor_of("DeepSeek-V4.1-Flash"), vendor_of("DeepSeek-R1"));
/// assert_eq!(vendor_of("LegalOne-8B"), "legalone");
/// ```
pub fn vendor_of(model: &str) -> String {
    const PREFIXES: [(&str, &str); 20] = [
        ("gpt", "openai"),
        ("chatgpt", "openai"),
        ("o1", "openai"),
        ("o3", "openai"),
        ("o4", "openai"),
        ("claude", "anthropic"),
        ("gemini", "google"),
        ("gemma", "google"),
        ("deepseek", "deepseek"),
        ("qwen", "alibaba"),
        ("qwq", "alibaba"),
        ("glm", "zhipu"),
        ("chatglm", "zhipu"),
        ("kimi", "moonshot"),
        ("moonshot", "moonshot"),
        ("minimax", "minimax"),
        ("llama", "meta"),
        ("mistral", "mistral"),
        ("grok", "xai"),
        ("doubao", "bytedance"),
    ];
    let name = model.trim().to_lowercase();
    let name = name.rsplit('/').next().unwrap_or(&name).to_owned();
    if let Some((_, vendor)) = PREFIXES.iter().find(|(p, _)| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || !rest.starts_with(char::is_alphabetic))
    }) {
        return (*vendor).to_owned();
    }
    name.split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("unknown")
        .to_owned()
}

/// The seats of a panel after recusal: the indices of `judge_vendors` that
/// sit, or `None` when recusal would leave nobody.
///
/// # Examples
///
/// ```
/// use engine::vendor::seated;
///
/// assert_eq!(seated("openai", &["openai"]), Some(vec![0])); // a lone judge stays
/// assert_eq!(seated("openai", &["openai", "deepseek", "google"]), Some(vec![1, 2]));
/// assert_eq!(seated("openai", &["openai", "openai"]), None);
/// ```
pub fn seated(model_vendor: &str, judge_vendors: &[&str]) -> Option<Vec<usize>> {
    if judge_vendors.len() == 1 {
        return Some(vec![0]);
    }
    let seats: Vec<usize> = judge_vendors
        .iter()
        .enumerate()
        .filter(|(_, v)| **v != model_vendor)
        .map(|(i, _)| i)
        .collect();
    (!seats.is_empty()).then_some(seats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendors_by_prefix_and_first_word() {
        assert_eq!(vendor_of("Claude-Opus-5"), "anthropic");
        assert_eq!(vendor_of("gemini-3.8-flash"), "google");
        assert_eq!(vendor_of("o3-mini"), "openai");
        assert_eq!(vendor_of("olmo-3"), "olmo"); // not "o" + digit
        assert_eq!(vendor_of("Kimi-K3"), "moonshot");
        assert_eq!(vendor_of(""), "unknown");
    }
}
