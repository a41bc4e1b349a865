//! `robots_oracle._oracle`: the robots-conformance oracle (`robots-oracle`)
//! for Python, through PyO3.
//!
//! A binding only translates: every answer is the oracle's, converted to
//! Python values (verdicts, reasons and rule kinds as the strings the oracle
//! names them with, line numbers as ints, the explanation as the text
//! `robots-conformance check --explain` prints). Where the oracle refuses (a
//! URL it cannot reduce to a path, `robots_oracle::Error`) this module
//! raises `ValueError` with the oracle's message. It must never decide
//! anything itself, never panic, and never hold the GIL while it parses.

#![forbid(unsafe_code)]

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::collections::BTreeMap;

use pyo3::types::{PyBytes, PyString};
use robots_oracle::{self as oracle, Category, Profile, RuleKind};

/// The oracle's refusal as a Python `ValueError`, with its message.
fn refused(e: oracle::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `allow` or `disallow`, as the oracle's explanation writes a rule's kind.
fn kind_name(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::Allow => "allow",
        RuleKind::Disallow => "disallow",
    }
}

/// A rule that matched a URL: line, kind, pattern as written and
/// normalised, and its specificity.
#[pyclass(module = "robots_oracle", frozen, get_all, eq, skip_from_py_object)]
#[derive(Clone, PartialEq)]
struct RuleMatch {
    line: u32,
    kind: &'static str,
    pattern: String,
    normalized: String,
    priority: usize,
}

impl RuleMatch {
    fn from_oracle(m: &oracle::RuleMatch) -> RuleMatch {
        RuleMatch {
            line: m.line,
            kind: kind_name(m.kind),
            pattern: m.pattern.clone(),
            normalized: m.normalized.clone(),
            priority: m.priority,
        }
    }
}

#[pymethods]
impl RuleMatch {
    fn __repr__(&self) -> String {
        format!(
            "RuleMatch(line={}, kind={:?}, pattern={:?}, normalized={:?}, priority={})",
            self.line, self.kind, self.pattern, self.normalized, self.priority
        )
    }
}

/// One odd line of the file, as the oracle reports it.
#[pyclass(module = "robots_oracle", frozen, get_all, eq, skip_from_py_object)]
#[derive(Clone, PartialEq)]
struct Diagnostic {
    line: u32,
    clause: &'static str,
    message: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(line={}, clause={:?}, message={:?})",
            self.line, self.clause, self.message
        )
    }
}

/// A decision for one crawler and one URL, with its evidence.
#[pyclass(module = "robots_oracle", frozen, get_all)]
struct Decision {
    agent: String,
    url: String,
    verdict: &'static str,
    allowed: bool,
    reason: &'static str,
    clause: &'static str,
    line: Option<u32>,
    line_text: Option<String>,
    rule: Option<RuleMatch>,
    candidates: Vec<RuleMatch>,
    groups: Vec<u32>,
    global_group: bool,
    target: String,
    agent_is_valid: bool,
    explanation: String,
}

#[pymethods]
impl Decision {
    fn __bool__(&self) -> bool {
        self.allowed
    }

    /// `check --explain`'s output for this URL: the verdict line, then
    /// the explanation.
    fn __str__(&self) -> String {
        format!("{} {}\n{}", self.verdict, self.url, self.explanation)
    }

    fn __repr__(&self) -> String {
        format!(
            "Decision(verdict={:?}, reason={:?}, clause={:?}, line={})",
            self.verdict,
            self.reason,
            self.clause,
            self.line.map_or_else(|| "None".to_string(), |l| l.to_string())
        )
    }
}

/// A parsed robots.txt file under one profile.
#[pyclass(module = "robots_oracle", name = "RobotsTxt", frozen)]
struct Robots {
    robots: oracle::RobotsTxt,
    /// The body as given, for the text of a deciding line.
    body: Box<[u8]>,
}

impl Robots {
    /// Line `n` (1-based, as the oracle numbers lines) as written, lossy
    /// UTF-8.
    fn line_text(&self, n: u32) -> Option<String> {
        let i = usize::try_from(n).ok()?.checked_sub(1)?;
        let range = oracle::line_ranges(&self.body).nth(i)?;
        Some(String::from_utf8_lossy(&self.body[range]).into_owned())
    }
}

/// The body's bytes: `bytes` as they are, `str` as UTF-8.
fn body_bytes(body: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = body.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(s) = body.cast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "body must be bytes or str, not {}",
        body.get_type().name()?
    )))
}

fn profile_named(name: &str) -> PyResult<Profile> {
    Profile::by_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown profile '{name}': expected one of {}",
            Profile::NAMES.join(", ")
        ))
    })
}

#[pymethods]
impl Robots {
    #[new]
    #[pyo3(signature = (body, profile = "rfc9309"))]
    fn new(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        profile: &str,
    ) -> PyResult<Robots> {
        let profile = profile_named(profile)?;
        let body = body_bytes(body)?.into_boxed_slice();
        let robots = py.detach(|| oracle::RobotsTxt::parse(&body, &profile));
        Ok(Robots { robots, body })
    }

    /// The profile's name.
    #[getter]
    fn profile(&self) -> &'static str {
        self.robots.profile().name
    }

    /// `decide(agent, url).allowed`.
    fn allowed(&self, agent: &str, url: &str) -> PyResult<bool> {
        let d = self.robots.decide(agent, url).map_err(refused)?;
        Ok(d.is_allowed())
    }

    /// The oracle's decision with its explanation.
    fn decide(&self, agent: &str, url: &str) -> PyResult<Decision> {
        let d = self.robots.decide(agent, url).map_err(refused)?;
        let winner = d.winner.as_ref();
        Ok(Decision {
            agent: agent.to_string(),
            url: url.to_string(),
            verdict: d.verdict.as_str(),
            allowed: d.is_allowed(),
            reason: d.reason.as_str(),
            clause: d.reason.clause(),
            line: winner.map(|w| w.line),
            line_text: winner.and_then(|w| self.line_text(w.line)),
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
    /// `None` where the URL may not be crawled, else each category's
    /// label mapped to `y`, `n` or `unknown`.
    fn usage(
        &self,
        agent: &str,
        url: &str,
    ) -> PyResult<Option<BTreeMap<&'static str, &'static str>>> {
        let u = self.robots.usage(agent, url).map_err(refused)?;
        Ok(u.preferences.map(|p| {
            Category::ALL
                .into_iter()
                .map(|c| (c.label(), p.get(c).as_str()))
                .collect()
        }))
    }

    /// The crawl-delay value of the groups `agent` obeys, as written.
    fn crawl_delay(&self, agent: &str) -> Option<String> {
        self.robots.crawl_delay(agent).map(str::to_string)
    }

    /// Every sitemap URL, in file order.
    #[getter]
    fn sitemaps(&self) -> Vec<String> {
        self.robots.sitemaps().map(str::to_string).collect()
    }

    /// What was odd about the file, line by line.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.robots
            .diagnostics()
            .iter()
            .map(|d| Diagnostic {
                line: d.line,
                clause: d.kind.clause(),
                message: d.kind.to_string(),
            })
            .collect()
    }

    /// Line `n` of the body as written (1-based, lines split as the
    /// oracle splits them), or `None` past the end.
    fn line(&self, n: u32) -> Option<String> {
        self.line_text(n)
    }

    fn __repr__(&self) -> String {
        format!(
            "RobotsTxt(<{} bytes>, profile={:?})",
            self.body.len(),
            self.robots.profile().name
        )
    }
}

/// The robots.txt URL governing an absolute URL (RFC 9309 §2.3).
#[pyfunction]
fn robots_txt_url(url: &str) -> PyResult<String> {
    oracle::robots_txt_url(url).map_err(refused)
}

/// Whether `token` is a valid product token (RFC 9309 §2.2.1).
#[pyfunction]
fn is_valid_product_token(token: &str) -> bool {
    oracle::is_valid_product_token(token)
}

#[pymodule]
fn _oracle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Robots>()?;
    m.add_class::<Decision>()?;
    m.add_class::<RuleMatch>()?;
    m.add_class::<Diagnostic>()?;
    m.add_function(wrap_pyfunction!(robots_txt_url, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid_product_token, m)?)?;
    m.add("PROFILES", Profile::NAMES.to_vec())?;
    Ok(())
}
