//! In-process Rust crates, one file each, each behind a cargo feature of
//! the same name (all on by default). Each file only translates a
//! [`Request`] into the crate's call and its result into a [`Reply`].
//! They never work around their crate's quirks, and never consult the
//! oracle.

#[cfg(feature = "robotparser")]
pub mod robotparser;
#[cfg(feature = "robots_txt")]
pub mod robots_txt;
#[cfg(feature = "robotstxt")]
pub mod robotstxt;
#[cfg(feature = "robotstxt-rs")]
pub mod robotstxt_rs;
#[cfg(feature = "robotxt")]
pub mod robotxt;
#[cfg(feature = "texting_robots")]
pub mod texting_robots;

use crate::{Capabilities, Info, Reply, Request};

/// The base a path is joined to for crates that want absolute URLs.
pub const BASE: &str = "https://example.com";

/// `url` as an absolute URL: paths are joined onto [`BASE`].
pub fn absolute(url: &str) -> String {
    if url.contains("://") { url.to_string() } else { format!("{BASE}{url}") }
}

/// `url` as path and query: an absolute URL loses scheme, authority and
/// fragment; an empty path becomes `/`.
pub fn path_and_query(url: &str) -> String {
    let no_fragment = url.split('#').next().unwrap_or_default();
    let rest = match no_fragment.find("://") {
        Some(i) => {
            let after = &no_fragment[i + 3..];
            &after[after.find(['/', '?']).unwrap_or(after.len())..]
        }
        None => no_fragment,
    };
    if rest.starts_with('/') { rest.to_string() } else { format!("/{rest}") }
}

/// The info every in-process crate shares but name and version.
pub fn info(
    name: &str,
    version: &str,
    profile: &str,
    caps: Capabilities,
) -> Info {
    Info {
        name: name.into(),
        language: "rust".into(),
        version: version.into(),
        profile: profile.into(),
        capabilities: caps,
    }
}

/// The body as text, for crates that take `&str`: invalid UTF-8 is
/// replaced (U+FFFD), as a caller with `String::from_utf8_lossy` would.
pub fn text(body: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(body)
}

/// The last body parsed (for one agent), so that a batch of URLs about
/// one file parses it once: parse once, query many, as a crawler would.
pub struct LastParse<T> {
    last: Option<(std::sync::Arc<[u8]>, String, T)>,
}

impl<T> Default for LastParse<T> {
    fn default() -> Self {
        LastParse { last: None }
    }
}

/// A copy starts empty.
impl<T> Clone for LastParse<T> {
    fn clone(&self) -> Self {
        LastParse::default()
    }
}

impl<T> LastParse<T> {
    /// The parse of `robots` for `agent`, made by `parse` unless it is the
    /// last one.
    pub fn get(
        &mut self,
        robots: &std::sync::Arc<[u8]>,
        agent: &str,
        parse: impl FnOnce() -> T,
    ) -> &T {
        let hit = matches!(&self.last, Some((b, a, _))
            if (std::sync::Arc::ptr_eq(b, robots) || **b == **robots) && a == agent);
        if !hit {
            self.last = Some((robots.clone(), agent.to_string(), parse()));
        }
        // OK: set just above when it was not a hit.
        &self.last.as_ref().expect("cached parse").2
    }
}

/// The decide request's parts, or the reply for any other request.
pub fn decide_parts(request: &Request) -> Result<(&[u8], &str, &str), Reply> {
    match request {
        Request::Decide { robots, agent, url } => Ok((robots, agent, url)),
        other => Err(Reply::not_applicable(format!("no {} API", other.op()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_shapes() {
        assert_eq!(absolute("/a?b"), "https://example.com/a?b");
        assert_eq!(path_and_query("https://x.org/a?b#c"), "/a?b");
        assert_eq!(path_and_query("https://x.org"), "/");
        assert_eq!(path_and_query("/p"), "/p");
    }
}
