//! Which URLs a robots.txt file governs (§2.3: `scheme:[//authority]/
//! robots.txt`; Google's "Examples of valid robots.txt URLs", G-LOC-1..8),
//! and resolving a redirect's `Location` against the URL that sent it.
//!
//! A file governs exactly the URLs of its own *origin*: the same scheme,
//! host and port. Scheme and host compare case-insensitively, a default
//! port (80 for `http`, 443 for `https`, 21 for `ftp`) equals no port, an
//! internationalised host equals its Punycode form, userinfo is ignored,
//! and an IP address is a host of its own. A file anywhere but the
//! top-level `/robots.txt` governs nothing.

use super::punycode;

/// An absolute URL split textually: `(scheme, authority, path-and-query)`;
/// the fragment is dropped.
pub(crate) fn split(url: &str) -> Option<(&str, &str, &str)> {
    let url = url.split('#').next().unwrap_or_default();
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    if !first.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return None;
    }
    let rest = url[colon + 1..].strip_prefix("//")?;
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    Some((scheme, &rest[..end], &rest[end..]))
}

fn default_port(scheme: &str) -> Option<&'static str> {
    match scheme {
        "http" => Some("80"),
        "https" => Some("443"),
        "ftp" => Some("21"),
        _ => None,
    }
}

/// One host label lower-cased, and in Punycode (`xn--…`) when it is not
/// ASCII (RFC 3492; G-LOC-4).
fn ascii_label(label: &str) -> Option<String> {
    let lower = label.to_lowercase();
    if lower.is_ascii() {
        return Some(lower);
    }
    punycode::encode(&lower).map(|p| format!("xn--{p}"))
}

/// The comparable origin of an absolute URL: `scheme://host[:port]` with
/// the scheme and host lower-cased, IDN labels in Punycode, userinfo
/// dropped and a default port removed. `None` when `url` is not absolute
/// or has no host.
pub fn origin(url: &str) -> Option<String> {
    let (scheme, authority, _) = split(url)?;
    let scheme = scheme.to_ascii_lowercase();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    // An IPv6 literal keeps its colons inside brackets.
    let (host, port) = match host_port.strip_prefix('[') {
        Some(v6) => {
            let close = v6.find(']')?;
            let port = v6[close + 1..].strip_prefix(':');
            (&host_port[..close + 2], port)
        }
        None => match host_port.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        },
    };
    if host.is_empty() {
        return None;
    }
    let labels: Option<Vec<String>> = if host.starts_with('[') {
        Some(vec![host.to_ascii_lowercase()])
    } else {
        host.split('.').map(ascii_label).collect()
    };
    let host = labels?.join(".");
    let port = port.filter(|p| !p.is_empty());
    let port = match port {
        Some(p) if Some(p) == default_port(&scheme) => None,
        other => other,
    };
    Some(match port {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    })
}

/// Whether the robots.txt file at `robots_url` governs `url` (G-LOC-1..8,
/// R2.3-1, R2.3-3): `robots_url` is the top-level `/robots.txt` (all
/// lower-case, no query) of the very origin `url` is on.
///
/// ```
/// use robots_oracle::fetch::governs;
/// assert!(governs("https://example.com/robots.txt", "https://example.com/a/b"));
/// assert!(governs("https://example.com:443/robots.txt", "https://example.com/"));
/// assert!(!governs("https://example.com/robots.txt", "http://example.com/"));
/// assert!(!governs("https://example.com/folder/robots.txt", "https://example.com/folder/x"));
/// assert!(governs("https://www.exämple.com/robots.txt", "https://www.xn--exmple-cua.com/"));
/// ```
pub fn governs(robots_url: &str, url: &str) -> bool {
    let Some((_, _, path)) = split(robots_url) else { return false };
    if path != "/robots.txt" {
        return false;
    }
    match (origin(robots_url), origin(url)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// `location` (a redirect target) resolved against `base`, the URL that
/// answered with it (RFC 3986 §5, the common forms: absolute,
/// scheme-relative `//host/p`, absolute path `/p`, relative path `p`).
pub fn resolve(base: &str, location: &str) -> String {
    let location = location.trim();
    if split(location).is_some() {
        return location.to_string();
    }
    let Some((scheme, authority, path)) = split(base) else {
        return location.to_string();
    };
    if let Some(rest) = location.strip_prefix("//") {
        return format!("{scheme}://{rest}");
    }
    if location.starts_with('/') {
        return format!("{scheme}://{authority}{location}");
    }
    let path = path.split('?').next().unwrap_or_default();
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "/",
    };
    format!("{scheme}://{authority}{dir}{location}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_normalise_case_ports_userinfo_and_idn() {
        assert_eq!(
            origin("HTTPS://User:pw@Example.COM:443/x").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(
            origin("http://example.com:8080").as_deref(),
            Some("http://example.com:8080")
        );
        assert_eq!(
            origin("https://www.exämple.com/").as_deref(),
            Some("https://www.xn--exmple-cua.com")
        );
        assert_eq!(
            origin("http://[::1]:80/x").as_deref(),
            Some("http://[::1]")
        );
        assert_eq!(origin("/x"), None);
        assert_eq!(origin("https:///x"), None);
    }

    #[test]
    fn resolving_locations() {
        let base = "http://a.example/dir/robots.txt?x";
        assert_eq!(resolve(base, "/r"), "http://a.example/r");
        assert_eq!(resolve(base, "r2"), "http://a.example/dir/r2");
        assert_eq!(resolve(base, "//b.example/r"), "http://b.example/r");
        assert_eq!(resolve(base, "https://c/r"), "https://c/r");
    }
}
