//! A fetch case's scenario from its `[case.fetch]` table: the answers at
//! the start URL and each route, the cached copy, the crawler's clock.
//!
//! It builds the protocol's scenario values and checks their shape (one
//! answer per URL, statuses in range, known network errors); it never
//! decides what a crawler does with them (that is the oracle's, through
//! an adapter).

use std::sync::Arc;

// The one place the case model names the scenario vocabulary.
pub(super) use robots_adapters::scenario::{
    Answer, Cached, DEFAULT_START, NetworkError, Policy, Response, Route,
    Scenario, origin,
};

use super::schema::{AnswerToml, FetchToml};

/// Why a `[case.fetch]` table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// Both or neither of `status` and `network`.
    #[error("an answer has exactly one of `status`, `network`")]
    StatusOrNetwork,
    /// A network error with response fields.
    #[error("network error `{0}` takes no location, headers, body or delay")]
    NetworkWithDetails(String),
    /// An unknown network error.
    #[error("network `{0}` is not one of {names}", names = network_names())]
    UnknownNetwork(String),
    /// A status outside 100..=999.
    #[error("status {0} is not 100..=999")]
    BadStatus(u16),
    /// `location` on an answer that is not a redirect.
    #[error("only a 3xx answer takes `location`")]
    LocationWithoutRedirect,
    /// A start URL that is not absolute.
    #[error("start `{0}` is not an absolute URL")]
    BadStart(String),
    /// Answer fields in `[case.fetch]` without a status or network error.
    #[error("answer fields in [case.fetch] need `status` or `network`")]
    DetailsWithoutAnswer,
    /// A route that is neither a path nor an absolute URL.
    #[error("route `{0}` is not a path or absolute URL")]
    BadRoute(String),
    /// Two answers for one URL.
    #[error("two answers for `{0}`")]
    TwoAnswers(String),
    /// No answer at all.
    #[error("[case.fetch] needs `status`, `network` or `routes`")]
    NoAnswer,
    /// A `content_encoding` the case model cannot produce.
    #[error(
        "content_encoding `{0}` is not one of gzip, deflate (or a list of \
         them, in the order applied)"
    )]
    UnknownContentEncoding(String),
    /// `content_encoding` and a `Content-Encoding` header both given.
    #[error(
        "give `content_encoding` or a `Content-Encoding` header, not both"
    )]
    TwoContentEncodings,
    /// A duration that does not parse.
    #[error(transparent)]
    Duration(#[from] DurationError),
}

fn network_names() -> String {
    let names: Vec<&str> =
        NetworkError::ALL.iter().map(|e| e.as_str()).collect();
    names.join(", ")
}

/// A duration that is not written as `13h`, `24h 1s`, `31d`, `90m`, `0`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("duration `{0}`: write e.g. `13h`, `24h 1s`, `31d`, `90m`")]
pub struct DurationError(pub String);

/// A duration such as `23h`, `24h 1s`, `30d`, `90m`, `45s` or `0`, in
/// seconds.
///
/// # Errors
///
/// When `text` is empty, has an unknown unit, or overflows.
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    let bad = || DurationError(text.to_string());
    if text.trim().is_empty() {
        return Err(bad());
    }
    let mut total: u64 = 0;
    for part in text.split_whitespace() {
        let (digits, unit) = part.split_at(
            part.find(|c: char| !c.is_ascii_digit()).unwrap_or(part.len()),
        );
        let n: u64 = digits.parse().map_err(|_| bad())?;
        let scale = match unit {
            "" if n == 0 => 0,
            "s" => 1,
            "m" => 60,
            "h" => 3600,
            "d" => 86_400,
            _ => return Err(bad()),
        };
        total = total
            .checked_add(n.checked_mul(scale).ok_or_else(bad)?)
            .ok_or_else(bad)?;
    }
    Ok(total)
}

/// Builds the scenario of `[case.fetch]`; `body` is the case's body,
/// served by a 2xx answer that gives none of its own.
pub(super) fn scenario_of(
    f: &FetchToml,
    body: &Arc<[u8]>,
) -> Result<Scenario, FetchError> {
    let start = f.start.clone().unwrap_or_else(|| DEFAULT_START.into());
    if origin(&start).is_none() {
        return Err(FetchError::BadStart(start));
    }
    let mut routes = start_route(f, &start, body)?;
    for r in &f.routes {
        let url = absolute_on(&start, &r.at);
        if origin(&url).is_none() {
            return Err(FetchError::BadRoute(r.at.clone()));
        }
        if routes.iter().any(|x: &Route| x.url == url) {
            return Err(FetchError::TwoAnswers(url));
        }
        routes.push(Route { url, answer: answer_of(&r.answer(), body)? });
    }
    if routes.is_empty() {
        return Err(FetchError::NoAnswer);
    }
    let cached = match &f.cached {
        Some(c) => Some(Cached {
            body: c
                .robots
                .as_ref()
                .map_or_else(|| body.clone(), |t| Arc::from(t.as_bytes())),
            age: parse_duration(&c.age)?,
            cache_control: c.cache_control.clone(),
        }),
        None => None,
    };
    Ok(Scenario {
        start,
        routes,
        cached,
        unreachable_for: match &f.unreachable_for {
            Some(d) => parse_duration(d)?,
            None => 0,
        },
        site_available: f.site_available.unwrap_or(true),
    })
}

/// The route of the answer written in `[case.fetch]` itself (the
/// shorthand for the start URL), if one is.
fn start_route(
    f: &FetchToml,
    start: &str,
    body: &Arc<[u8]>,
) -> Result<Vec<Route>, FetchError> {
    let first = f.answer();
    if first.status.is_some() || first.network.is_some() {
        let answer = answer_of(&first, body)?;
        return Ok(vec![Route { url: start.to_string(), answer }]);
    }
    if first.has_details() {
        return Err(FetchError::DetailsWithoutAnswer);
    }
    Ok(Vec::new())
}

/// An absolute URL for a route's `at`: a path is on the start's
/// authority.
fn absolute_on(start: &str, at: &str) -> String {
    if at.starts_with('/') {
        let origin = origin(start).unwrap_or_default();
        format!("{origin}{at}")
    } else {
        at.to_string()
    }
}

/// One answer of `[case.fetch]` or a route.
fn answer_of(
    a: &AnswerToml<'_>,
    body: &Arc<[u8]>,
) -> Result<Answer, FetchError> {
    match (a.status, a.network) {
        (Some(_), Some(_)) | (None, None) => Err(FetchError::StatusOrNetwork),
        (None, Some(n)) => {
            if a.has_details() {
                return Err(FetchError::NetworkWithDetails(n.to_string()));
            }
            NetworkError::from_name(n)
                .map(Answer::Network)
                .ok_or_else(|| FetchError::UnknownNetwork(n.to_string()))
        }
        (Some(status), None) => response_of(a, status, body),
    }
}

/// A response answer: headers (Location, Content-Type, the rest), and the
/// case's body for a 2xx that gives none.
fn response_of(
    a: &AnswerToml<'_>,
    status: u16,
    body: &Arc<[u8]>,
) -> Result<Answer, FetchError> {
    if !(100..=999).contains(&status) {
        return Err(FetchError::BadStatus(status));
    }
    let is_redirect = (300..=399).contains(&status);
    if a.location.is_some() && !is_redirect {
        return Err(FetchError::LocationWithoutRedirect);
    }
    let mut headers: Vec<(String, String)> = Vec::new();
    if let Some(l) = &a.location {
        headers.push(("Location".into(), l.to_string()));
    }
    let success = (200..=299).contains(&status);
    let body: Arc<[u8]> = match &a.body {
        Some(b) => Arc::from(b.as_bytes()),
        None if success => body.clone(),
        None => Arc::from(&b""[..]),
    };
    match a.content_type {
        Some(t) => headers.push(("Content-Type".into(), t.to_string())),
        None if !body.is_empty() => headers
            .push(("Content-Type".into(), "text/plain; charset=utf-8".into())),
        None => {}
    }
    headers.extend(a.headers.iter().map(|(k, v)| (k.clone(), v.clone())));
    let body = match a.content_encoding {
        None => body,
        Some(coding) => {
            if a.headers
                .keys()
                .any(|k| k.eq_ignore_ascii_case("content-encoding"))
            {
                return Err(FetchError::TwoContentEncodings);
            }
            headers.push(("Content-Encoding".into(), coding.to_string()));
            Arc::from(encode_codings(coding, &body)?)
        }
    };
    Ok(Answer::Response(Response {
        status,
        headers,
        body,
        delay_ms: a.delay_ms.unwrap_or(0),
    }))
}

/// `body` with the content codings `codings` applied: a `Content-Encoding`
/// value, `gzip`, `deflate` or a comma-separated list of them in the
/// order they are applied (RFC 9110 §8.4). The case model's
/// `content_encoding`, and `check --content-encoding`.
///
/// # Errors
///
/// [`FetchError::UnknownContentEncoding`] naming the first coding that is
/// neither `gzip` nor `deflate`.
pub fn encode_codings(
    codings: &str,
    body: &[u8],
) -> Result<Vec<u8>, FetchError> {
    let mut coded = body.to_vec();
    for c in codings.split(',').map(str::trim) {
        coded = encode(c, &coded)?;
    }
    Ok(coded)
}

/// `body` compressed with the content coding `coding` (RFC 9110 §8.4.1).
fn encode(coding: &str, body: &[u8]) -> Result<Vec<u8>, FetchError> {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{GzEncoder, ZlibEncoder};

    let unknown = || FetchError::UnknownContentEncoding(coding.to_string());
    // Writing into a Vec cannot fail; an error would still be reported.
    let out = match coding {
        "gzip" => {
            let mut e = GzEncoder::new(Vec::new(), Compression::best());
            e.write_all(body).and_then(|()| e.finish())
        }
        "deflate" => {
            let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
            e.write_all(body).and_then(|()| e.finish())
        }
        _ => return Err(unknown()),
    };
    out.map_err(|_| unknown())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_encodings_compress_and_unknown_ones_are_errors() {
        use std::io::Read;
        let text = b"User-agent: *\nDisallow: /x\n";
        let gz = encode("gzip", text).expect("gzip");
        assert_eq!(&gz[..2], [0x1f, 0x8b]);
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut back)
            .expect("round trip");
        assert_eq!(back, text);
        let z = encode("deflate", text).expect("deflate");
        assert_eq!(z[0] & 0x0f, 8, "zlib header, deflate method");
        assert_eq!(
            encode("br", text),
            Err(FetchError::UnknownContentEncoding("br".into()))
        );
    }

    #[test]
    fn stacked_content_codings_are_applied_in_the_order_listed() {
        use std::io::Read;
        let headers = std::collections::BTreeMap::new();
        let coded = |coding| AnswerToml {
            status: Some(200),
            network: None,
            location: None,
            content_type: None,
            content_encoding: Some(coding),
            headers: &headers,
            body: None,
            delay_ms: None,
        };
        let body: Arc<[u8]> = Arc::from(&b"User-agent: *\nDisallow: /x\n"[..]);
        let Ok(Answer::Response(r)) =
            answer_of(&coded("deflate, gzip"), &body)
        else {
            panic!("an answer")
        };
        assert_eq!(r.header("content-encoding"), Some("deflate, gzip"));
        // Applied last, gzip is undone first.
        let mut inner = Vec::new();
        flate2::read::GzDecoder::new(&r.body[..])
            .read_to_end(&mut inner)
            .expect("gzip outside");
        let mut text = Vec::new();
        flate2::read::ZlibDecoder::new(&inner[..])
            .read_to_end(&mut text)
            .expect("deflate inside");
        assert_eq!(text, &body[..]);
        assert_eq!(
            answer_of(&coded("gzip, br"), &body).err(),
            Some(FetchError::UnknownContentEncoding("br".into()))
        );
    }

    #[test]
    fn durations_parse_and_overflow_is_an_error() {
        assert_eq!(parse_duration("24h 1s"), Ok(86_401));
        assert_eq!(parse_duration("0"), Ok(0));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("5").is_err());
        assert!(parse_duration("99999999999999999999d").is_err());
        assert!(parse_duration("999999999999999999d").is_err());
    }
}
