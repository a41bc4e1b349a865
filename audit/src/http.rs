//! The HTTP response inside a WARC `response` record: status line,
//! header fields and body (chunked transfer coding undone), turned into
//! the fetch model's [`Answer`]. A body shorter than its
//! `Content-Length` or a malformed chunked body is the network error the
//! fetch model names for it (G-STATUS-7), not a bad record; bytes that
//! are no HTTP response at all are. A transfer coding other than
//! `chunked` (`gzip, chunked`) is an invalid response: the fetch model
//! undoes content codings only. Bounded: at most 128 header fields.
//!
//! `Content-Encoding` is never undone here: the header and the encoded
//! bytes go to the fetch model, which decodes them once
//! (`robots_oracle::fetch`'s `content_coding`, with its cap) for the
//! oracle and for the body every adapter is given. (Common Crawl stores
//! payloads decoded and renames the header `X-Crawler-Content-Encoding`,
//! which is then no coding at all.)
//!
//! A record the archiver marked truncated ([`Capture::Truncated`]) keeps
//! its body as captured: a short body, or a chunked body cut inside a
//! chunk, is what the crawler received, not a network error.

use std::sync::Arc;

use robots_oracle::fetch::{Answer, NetworkError, Response};

/// Header fields read at most.
const MAX_HEADERS: usize = 128;

/// The record's bytes are not an HTTP response.
#[derive(Debug, PartialEq, Eq)]
pub struct NotHttp(pub String);

/// Whether the WARC record holds the whole response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// As received in full.
    Whole,
    /// Marked `WARC-Truncated`: the body is as far as it was captured.
    Truncated,
}

/// Parses an HTTP/1.x response message captured whole.
pub fn parse(bytes: &[u8]) -> Result<Answer, NotHttp> {
    parse_captured(bytes, Capture::Whole)
}

/// Parses an HTTP/1.x response message captured as `how` says.
pub fn parse_captured(bytes: &[u8], how: Capture) -> Result<Answer, NotHttp> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let head = match response.parse(bytes) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => {
            return Err(NotHttp("the HTTP header block is incomplete".into()));
        }
        Err(e) => return Err(NotHttp(format!("not an HTTP response: {e}"))),
    };
    let status = response.code.unwrap_or(0);
    let fields: Vec<(String, String)> = response
        .headers
        .iter()
        .map(|h| {
            (h.name.to_string(), String::from_utf8_lossy(h.value).into_owned())
        })
        .collect();
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    let raw = &bytes[head..];
    let codings: Vec<String> = field("transfer-encoding")
        .unwrap_or("")
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    let chunked = match codings.as_slice() {
        [] => false,
        [only] if only == "chunked" => true,
        _ => return Ok(Answer::Network(NetworkError::InvalidResponse)),
    };
    let truncated = how == Capture::Truncated;
    let body = if chunked {
        match dechunk(raw) {
            (b, true) => b,
            (b, false) if truncated => b,
            (_, false) => {
                return Ok(Answer::Network(NetworkError::BadChunking));
            }
        }
    } else {
        if let Some(len) =
            field("content-length").and_then(|v| v.parse::<usize>().ok())
            && raw.len() < len
            && !truncated
        {
            return Ok(Answer::Network(NetworkError::Truncated));
        }
        raw.to_vec()
    };
    Ok(Answer::Response(Response {
        status,
        headers: fields,
        body: Arc::from(body),
        delay_ms: 0,
    }))
}

/// Undoes `Transfer-Encoding: chunked`: the bytes decoded and whether
/// the body was well formed to its last chunk (`false`: malformed or cut;
/// the bytes are then the chunks up to there, the last one as far as it
/// goes).
fn dechunk(mut raw: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(raw.len());
    loop {
        let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") else {
            return (out, false);
        };
        let size = std::str::from_utf8(&raw[..eol])
            .ok()
            .and_then(|l| l.split(';').next())
            .and_then(|t| usize::from_str_radix(t.trim(), 16).ok());
        let Some(size) = size else { return (out, false) };
        raw = &raw[eol + 2..];
        if size == 0 {
            return (out, true);
        }
        if raw.len() < size + 2 || &raw[size..size + 2] != b"\r\n" {
            out.extend_from_slice(&raw[..size.min(raw.len())]);
            return (out, false);
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(a: Answer) -> Response {
        match a {
            Answer::Response(r) => r,
            Answer::Network(e) => panic!("network error {e:?}"),
        }
    }

    #[test]
    fn status_headers_and_body() {
        let r = response(
            parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello").unwrap(),
        );
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type"), Some("text/plain"));
        assert_eq!(&*r.body, b"hello");
    }

    #[test]
    fn chunked_bodies_are_decoded_and_bad_ones_are_network_errors() {
        let r = response(
            parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").unwrap(),
        );
        assert_eq!(&*r.body, b"abcde");
        let bad = parse(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc",
        )
        .unwrap();
        assert_eq!(bad, Answer::Network(NetworkError::BadChunking));
    }

    #[test]
    fn a_truncated_capture_keeps_its_body_as_captured() {
        let short =
            b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nUser-agent: *\nDis";
        let r = response(parse_captured(short, Capture::Truncated).unwrap());
        assert_eq!(&*r.body, b"User-agent: *\nDis");
        let cut = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n9\r\ndef";
        let r = response(parse_captured(cut, Capture::Truncated).unwrap());
        assert_eq!(&*r.body, b"abcdef");
        assert_eq!(
            parse(cut).unwrap(),
            Answer::Network(NetworkError::BadChunking)
        );
    }

    #[test]
    fn content_encoding_is_left_to_the_fetch_model_and_other_transfer_codings_are_invalid()
     {
        let r = response(
            parse(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\n\x1f\x8b\x08").unwrap(),
        );
        assert_eq!(r.header("content-encoding"), Some("gzip"));
        assert_eq!(&*r.body, b"\x1f\x8b\x08");
        let gz = parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n").unwrap();
        assert_eq!(gz, Answer::Network(NetworkError::InvalidResponse));
    }

    #[test]
    fn a_short_body_is_truncated() {
        let a = parse(b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")
            .unwrap();
        assert_eq!(a, Answer::Network(NetworkError::Truncated));
    }

    #[test]
    fn other_bytes_are_not_http() {
        assert!(parse(b"User-agent: *\nDisallow: /\n").is_err());
        assert!(parse(b"HTTP/1.1 200 OK\r\nX: y").is_err());
        assert!(parse(b"").is_err());
    }
}
