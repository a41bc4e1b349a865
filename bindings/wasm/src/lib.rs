//! The robots-conformance oracle (`robots-oracle`) as WebAssembly, through
//! wasm-bindgen, for Node and the browser.
//!
//! A binding only translates: every answer is the oracle's, converted to
//! JavaScript values (verdicts, reasons and rule kinds as the strings the
//! oracle names them with, line numbers as numbers, the explanation as the
//! text `robots-conformance check --explain` prints). Where the oracle
//! refuses (a URL it cannot reduce to a path, `robots_oracle::Error`) the
//! call throws an `Error` with the oracle's message. It must never decide
//! anything itself and never panic (a panic aborts the instance).

#![forbid(unsafe_code)]

use robots_oracle::{self as oracle, Category, Profile, RuleKind};
use wasm_bindgen::prelude::*;

fn refused(e: oracle::Error) -> JsError {
    JsError::new(&e.to_string())
}

fn kind_name(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::Allow => "allow",
        RuleKind::Disallow => "disallow",
    }
}

/// A rule that matched a URL.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct RuleMatch {
    /// The rule's 1-based line number.
    pub line: u32,
    /// `allow` or `disallow`.
    pub kind: String,
    /// The pattern as written.
    pub pattern: String,
    /// The pattern that matched, normalised.
    pub normalized: String,
    /// Its specificity under the profile.
    pub priority: usize,
}

impl RuleMatch {
    fn from_oracle(m: &oracle::RuleMatch) -> RuleMatch {
        RuleMatch {
            line: m.line,
            kind: kind_name(m.kind).to_string(),
            pattern: m.pattern.clone(),
            normalized: m.normalized.clone(),
            priority: m.priority,
        }
    }
}

/// One odd line of the file.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct Diagnostic {
    /// The 1-based line number.
    pub line: u32,
    /// The clause id the oddity concerns.
    pub clause: String,
    /// What was odd, in words.
    pub message: String,
}

/// One category of AI usage preference and its value for a URL.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct Usage {
    /// The category's label (`train-ai`, `search`).
    pub category: String,
    /// `y`, `n` or `unknown`.
    pub value: String,
}

/// A decision for one crawler and one URL, with its evidence.
#[wasm_bindgen(getter_with_clone)]
pub struct Decision {
    /// `allowed` or `disallowed`.
    pub verdict: String,
    /// `verdict === "allowed"`.
    pub allowed: bool,
    /// Why (`longest-match`, `no-group`, ...).
    pub reason: String,
    /// The clause that settles a decision for that reason.
    pub clause: String,
    /// The line of the rule that decided, if one did.
    pub line: Option<u32>,
    /// That line as written (invalid UTF-8 replaced).
    #[wasm_bindgen(js_name = lineText)]
    pub line_text: Option<String>,
    /// The rule that decided, if one did.
    pub rule: Option<RuleMatch>,
    /// Every rule of the obeyed groups that matched, in file order.
    pub candidates: Vec<RuleMatch>,
    /// The line of the first user-agent line of each obeyed group.
    pub groups: Vec<u32>,
    /// The obeyed groups are the `*` fallback.
    #[wasm_bindgen(js_name = globalGroup)]
    pub global_group: bool,
    /// The octets the rules were matched against.
    pub target: String,
    /// The agent is a valid product token.
    #[wasm_bindgen(js_name = agentIsValid)]
    pub agent_is_valid: bool,
    /// The explanation `check --explain` prints under the verdict.
    pub explanation: String,
}

/// A robots.txt file parsed under one profile.
#[wasm_bindgen]
pub struct RobotsTxt {
    robots: oracle::RobotsTxt,
    body: Box<[u8]>,
}

#[wasm_bindgen]
impl RobotsTxt {
    /// Parses `body` (the file's bytes) under `profile` (`rfc9309` or
    /// `google`), with the oracle's named `switches` applied in order
    /// (`field=value`, see `switchNames()`; a fitted reading of a parser);
    /// throws for an unknown profile or switch name, naming the valid ones.
    #[wasm_bindgen(constructor)]
    pub fn new(
        body: &[u8],
        profile: &str,
        switches: Option<Vec<String>>,
    ) -> Result<RobotsTxt, JsError> {
        let mut p = Profile::by_name(profile).ok_or_else(|| {
            JsError::new(&format!(
                "unknown profile '{profile}': expected one of {}",
                Profile::NAMES.join(", ")
            ))
        })?;
        for name in switches.unwrap_or_default() {
            let switch = oracle::switches()
                .iter()
                .find(|s| s.name == name)
                .ok_or_else(|| {
                    JsError::new(&format!(
                        "unknown switch '{name}': see switchNames()"
                    ))
                })?;
            p = switch.applied_to(&p);
        }
        let robots = oracle::RobotsTxt::parse(body, &p);
        Ok(RobotsTxt { robots, body: body.into() })
    }

    /// The profile's name.
    #[wasm_bindgen(getter)]
    pub fn profile(&self) -> String {
        self.robots.profile().name.to_string()
    }

    /// May `agent` fetch `url`? Throws where the oracle refuses the URL.
    pub fn allowed(&self, agent: &str, url: &str) -> Result<bool, JsError> {
        Ok(self.robots.decide(agent, url).map_err(refused)?.is_allowed())
    }

    /// The decision with its explanation. Throws where the oracle refuses
    /// the URL.
    pub fn decide(&self, agent: &str, url: &str) -> Result<Decision, JsError> {
        let d = self.robots.decide(agent, url).map_err(refused)?;
        let winner = d.winner.as_ref();
        Ok(Decision {
            verdict: d.verdict.as_str().to_string(),
            allowed: d.is_allowed(),
            reason: d.reason.as_str().to_string(),
            clause: d.reason.clause().to_string(),
            line: winner.map(|w| w.line),
            line_text: winner.and_then(|w| self.line(w.line)),
            rule: winner.map(RuleMatch::from_oracle),
            candidates: d
                .candidates
                .iter()
                .map(RuleMatch::from_oracle)
                .collect(),
            groups: d.groups.clone(),
            global_group: d.global,
            target: d.target.clone(),
            agent_is_valid: d.agent_is_valid,
            explanation: format!(
                "{d}{}",
                robots_oracle::notes_text(self.robots.diagnostics())
            ),
        })
    }

    /// The AI usage preferences (draft-ietf-aipref) for `agent` on `url`:
    /// `undefined` where the URL may not be crawled, else one entry per
    /// category. Throws where the oracle refuses the URL.
    pub fn usage(
        &self,
        agent: &str,
        url: &str,
    ) -> Result<Option<Vec<Usage>>, JsError> {
        let u = self.robots.usage(agent, url).map_err(refused)?;
        Ok(u.preferences.map(|p| {
            Category::ALL
                .into_iter()
                .map(|c| Usage {
                    category: c.label().to_string(),
                    value: p.get(c).as_str().to_string(),
                })
                .collect()
        }))
    }

    /// The crawl-delay value of the groups `agent` obeys, as written.
    #[wasm_bindgen(js_name = crawlDelay)]
    pub fn crawl_delay(&self, agent: &str) -> Option<String> {
        self.robots.crawl_delay(agent).map(str::to_string)
    }

    /// Every sitemap URL, in file order.
    #[wasm_bindgen(getter)]
    pub fn sitemaps(&self) -> Vec<String> {
        self.robots.sitemaps().map(str::to_string).collect()
    }

    /// What was odd about the file, line by line.
    #[wasm_bindgen(getter)]
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.robots
            .diagnostics()
            .iter()
            .map(|d| Diagnostic {
                line: d.line,
                clause: d.kind.clause().to_string(),
                message: d.kind.to_string(),
            })
            .collect()
    }

    /// Line `n` (1-based, split as the oracle splits lines) as written.
    pub fn line(&self, n: u32) -> Option<String> {
        let i = usize::try_from(n).ok()?.checked_sub(1)?;
        let range = oracle::line_ranges(&self.body).nth(i)?;
        Some(String::from_utf8_lossy(&self.body[range]).into_owned())
    }

    /// Lines `first` to `first + count - 1` as written (1-based, split as
    /// the oracle splits lines; fewer past the end), in one pass.
    pub fn lines(&self, first: u32, count: u32) -> Vec<String> {
        let skip = usize::try_from(first.max(1) - 1).unwrap_or(usize::MAX);
        let take = usize::try_from(count).unwrap_or(usize::MAX);
        oracle::line_ranges(&self.body)
            .skip(skip)
            .take(take)
            .map(|r| String::from_utf8_lossy(&self.body[r]).into_owned())
            .collect()
    }

    /// The number of lines, as the oracle counts them.
    #[wasm_bindgen(getter, js_name = lineCount)]
    pub fn line_count(&self) -> u32 {
        u32::try_from(oracle::line_ranges(&self.body).count())
            .unwrap_or(u32::MAX)
    }
}

/// The names of the built-in profiles.
#[wasm_bindgen]
pub fn profiles() -> Vec<String> {
    Profile::NAMES.iter().map(|n| n.to_string()).collect()
}

/// The names of the oracle's switches (`field=value`), each one way of
/// changing one behaviour of a profile.
#[wasm_bindgen(js_name = switchNames)]
pub fn switch_names() -> Vec<String> {
    oracle::switches().iter().map(|s| s.name.to_string()).collect()
}

/// The robots.txt URL governing an absolute URL (RFC 9309 §2.3); throws
/// for a URL that is not absolute.
#[wasm_bindgen(js_name = robotsTxtUrl)]
pub fn robots_txt_url(url: &str) -> Result<String, JsError> {
    oracle::robots_txt_url(url).map_err(refused)
}

/// Whether `token` is a valid product token (RFC 9309 §2.2.1).
#[wasm_bindgen(js_name = isValidProductToken)]
pub fn is_valid_product_token(token: &str) -> bool {
    oracle::is_valid_product_token(token)
}
