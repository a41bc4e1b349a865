//! The HTTP response inside a WARC `response` record: status line,
//! header fields and body (chunked transfer coding undone), turned into
//! the fetch model's [`Answer`]. A body shorter than its
//! `Content-Length` or a malformed chunked body is the network error the
//! fetch model names for it (G-STATUS-7), not a bad record; bytes that
//! are no HTTP response at all are. Bounded: at most 128 header fields.

use std::sync::Arc;

use robots_oracle::fetch::{Answer, NetworkError, Response};

/// Header fields read at most.
const MAX_HEADERS: usize = 128;

/// The record's bytes are not an HTTP response.
#[derive(Debug, PartialEq, Eq)]
pub struct NotHttp(pub String);

/// Parses an HTTP/1.x response message.
pub fn parse(bytes: &[u8]) -> Result<Answer, NotHttp> {
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
    let chunked = field("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    let body = if chunked {
        match dechunk(raw) {
            Some(b) => b,
            None => return Ok(Answer::Network(NetworkError::BadChunking)),
        }
    } else {
        if let Some(len) =
            field("content-length").and_then(|v| v.parse::<usize>().ok())
            && raw.len() < len
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

/// Undoes `Transfer-Encoding: chunked`; `None` when malformed or cut.
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    loop {
        let eol = raw.windows(2).position(|w| w == b"\r\n")?;
        let line = std::str::from_utf8(&raw[..eol]).ok()?;
        let size_text = line.split(';').next()?.trim();
        let size = usize::from_str_radix(size_text, 16).ok()?;
        raw = &raw[eol + 2..];
        if size == 0 {
            return Some(out);
        }
        if raw.len() < size + 2 || &raw[size..size + 2] != b"\r\n" {
            return None;
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
