//! From an input's captures to the sites to audit: each fetch of a
//! `/robots.txt` URL starts a host; its redirects are followed through
//! the other captures of the same input (the fetch model's
//! [`Scenario`], built with only the routes the chain visits). A
//! redirect to a URL the input does not hold leaves the host
//! unresolved: counted, never guessed. A URL captured twice keeps its
//! first capture; later ones are skipped as `duplicate`.

use std::collections::HashMap;
use std::sync::Arc;

use robots_oracle::fetch::{Answer, FetchProfile, Route, Scenario};

use crate::capture::{Event, Input};

/// One host to audit.
#[derive(Clone, Debug)]
pub struct Site {
    /// Record number of its robots.txt fetch.
    pub n: usize,
    /// The robots.txt URL.
    pub url: String,
    /// The site as the fetch model sees it.
    pub scenario: Arc<Scenario>,
    /// The first redirect target not captured, if any.
    pub unresolved: Option<String>,
}

/// An input's records, sorted into what the audit does with them.
#[derive(Debug, Default)]
pub struct Sorted {
    /// Hosts, in record order.
    pub sites: Vec<Site>,
    /// Captures used only as redirect targets.
    pub routes: usize,
    /// Skipped records by kind.
    pub skipped: std::collections::BTreeMap<String, usize>,
    /// Bad records: number, kind, detail.
    pub bad: Vec<(usize, &'static str, String)>,
}

/// The path of a URL (no query), if it has an authority.
fn path_of(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let start = rest.find('/')?;
    let path = &rest[start..];
    Some(&path[..path.find(['?', '#']).unwrap_or(path.len())])
}

/// Sorts the events of `input`.
pub fn sort(input: &Input) -> Sorted {
    let mut out = Sorted::default();
    let mut first: HashMap<&str, &Answer> = HashMap::new();
    let mut starts = Vec::new();
    for e in &input.events {
        match e {
            Event::Capture { n, url, answer } => {
                if first.contains_key(url.as_str()) {
                    *out.skipped.entry("duplicate".into()).or_default() += 1;
                    continue;
                }
                first.insert(url, answer);
                if path_of(url) == Some("/robots.txt") {
                    starts.push((*n, url.as_str()));
                } else {
                    out.routes += 1;
                }
            }
            Event::Skipped { kind, .. } => {
                *out.skipped.entry(kind.clone()).or_default() += 1
            }
            Event::Bad { n, kind, detail } => {
                out.bad.push((*n, kind, detail.clone()))
            }
        }
    }
    let max = FetchProfile::rfc9309()
        .max_redirects
        .max(FetchProfile::google().max_redirects);
    for (n, url) in starts {
        let (scenario, unresolved) = chain(url, &first, max);
        out.sites.push(Site {
            n,
            url: url.to_string(),
            scenario: Arc::new(scenario),
            unresolved,
        });
    }
    out
}

/// The scenario for a fetch of `start`: routes added as the redirect
/// chain visits them (at most `max` + 1 of them).
fn chain(
    start: &str,
    captured: &HashMap<&str, &Answer>,
    max: usize,
) -> (Scenario, Option<String>) {
    let route = |url: &str, answer: &Answer| Route {
        url: url.to_string(),
        answer: answer.clone(),
    };
    let mut scenario = Scenario {
        start: start.to_string(),
        routes: vec![route(start, captured[start])],
        cached: None,
        unreachable_for: 0,
        site_available: true,
    };
    loop {
        let fetched = scenario.fetch(max);
        let missing = fetched
            .hops
            .iter()
            .map(|(u, _)| u)
            .find(|u| !scenario.routes.iter().any(|r| &r.url == *u))
            .cloned();
        let Some(url) = missing else { return (scenario, None) };
        match captured.get(url.as_str()) {
            Some(answer) => scenario.routes.push(route(&url, answer)),
            None => return (scenario, Some(url)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(captures: &[(&str, Answer)]) -> Input {
        let mut i = Input::new("warc");
        for (u, a) in captures {
            i.capture(u.to_string(), a.clone());
        }
        i
    }

    #[test]
    fn redirects_are_followed_within_the_input() {
        let i = input(&[
            (
                "http://a.example/robots.txt",
                Answer::redirect(301, "https://a.example/robots.txt"),
            ),
            ("https://a.example/robots.txt", Answer::redirect(302, "/r")),
            (
                "https://a.example/r",
                Answer::ok(b"User-agent: *\nDisallow: /\n"),
            ),
            (
                "http://b.example/robots.txt",
                Answer::redirect(301, "http://c.example/gone"),
            ),
            ("http://a.example/robots.txt", Answer::status(404)),
        ]);
        let s = sort(&i);
        assert_eq!(s.sites.len(), 3);
        assert_eq!(s.routes, 1);
        assert_eq!(s.skipped.get("duplicate"), Some(&1));
        assert_eq!(s.sites[0].scenario.routes.len(), 3);
        assert_eq!(s.sites[0].unresolved, None);
        assert_eq!(
            s.sites[2].unresolved.as_deref(),
            Some("http://c.example/gone")
        );
    }
}
