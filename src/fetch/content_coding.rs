//! HTTP content codings (RFC 9110 §8.4): from the bytes a 2xx response
//! carried to the robots.txt file they represent. `Content-Encoding:
//! gzip` (or `x-gzip`) and `deflate` (the zlib format, RFC 9110 §8.4.1.2)
//! are decoded, `identity` is no coding; codings listed in one header are
//! undone last-applied first.
//!
//! Bounded: decoding stops after `cap` output bytes (a small compressed
//! body can expand without limit), so memory stays within the cap
//! whatever the input. Never panics; an unknown coding or a corrupt
//! stream is a [`CodingError`], never a guess.

use std::io::Read;

use flate2::read::{MultiGzDecoder, ZlibDecoder};

/// At most this many codings in one `Content-Encoding` header are undone.
const MAX_CODINGS: usize = 4;

/// Why a body could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodingError {
    /// A coding this model does not decode (`br`, `compress`, ...).
    Unknown(String),
    /// More codings than [`MAX_CODINGS`].
    TooMany(usize),
    /// The bytes are not a valid stream of that coding.
    Corrupt(&'static str),
}

impl std::fmt::Display for CodingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodingError::Unknown(c) => {
                write!(f, "unknown content coding `{c}`")
            }
            CodingError::TooMany(n) => write!(f, "{n} content codings"),
            CodingError::Corrupt(c) => write!(f, "a corrupt {c} body"),
        }
    }
}

/// A decoded body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded bytes, at most `cap` of them.
    pub bytes: Vec<u8>,
    /// Decoding stopped at `cap`: there was more.
    pub capped: bool,
    /// The codings undone, in the order they were undone (empty: the
    /// body had none).
    pub undone: Vec<String>,
}

/// The file `body` represents under `content_encoding` (the header's
/// value, if any), keeping at most `cap` bytes.
///
/// # Errors
///
/// An unknown coding, too many codings, or a corrupt stream.
pub fn decode(
    content_encoding: Option<&str>,
    body: &[u8],
    cap: usize,
) -> Result<Decoded, CodingError> {
    let codings: Vec<String> = content_encoding
        .unwrap_or("")
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    if codings.len() > MAX_CODINGS {
        return Err(CodingError::TooMany(codings.len()));
    }
    let mut bytes = body.to_vec();
    let mut capped = false;
    if bytes.len() > cap && codings.is_empty() {
        bytes.truncate(cap);
        capped = true;
    }
    for coding in codings.iter().rev() {
        let (out, more) = match coding.as_str() {
            "gzip" | "x-gzip" => {
                read_capped(MultiGzDecoder::new(&bytes[..]), cap, "gzip")?
            }
            "deflate" => {
                read_capped(ZlibDecoder::new(&bytes[..]), cap, "deflate")?
            }
            other => return Err(CodingError::Unknown(other.to_string())),
        };
        bytes = out;
        capped = more;
    }
    let undone = codings.into_iter().rev().collect();
    Ok(Decoded { bytes, capped, undone })
}

/// Reads at most `cap` bytes from `r`; whether more were there.
fn read_capped(
    r: impl Read,
    cap: usize,
    what: &'static str,
) -> Result<(Vec<u8>, bool), CodingError> {
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    let mut out = Vec::new();
    r.take(limit)
        .read_to_end(&mut out)
        .map_err(|_| CodingError::Corrupt(what))?;
    let more = out.len() > cap;
    out.truncate(cap);
    Ok((out, more))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{GzEncoder, ZlibEncoder};

    use super::*;

    fn gzip(b: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_and_deflate_are_decoded() {
        let text = b"User-agent: *\nDisallow: /x\n";
        let d = decode(Some("gzip"), &gzip(text), 1000).unwrap();
        assert_eq!((d.bytes.as_slice(), d.capped), (&text[..], false));
        assert_eq!(d.undone, ["gzip"]);
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(text).unwrap();
        let d = decode(Some("Deflate"), &z.finish().unwrap(), 1000).unwrap();
        assert_eq!(d.bytes, text);
        let twice = gzip(&gzip(text));
        let d = decode(Some("gzip, x-gzip"), &twice, 1000).unwrap();
        assert_eq!(d.bytes, text);
    }

    #[test]
    fn no_coding_and_identity_keep_the_bytes_up_to_the_cap() {
        assert_eq!(decode(None, b"abc", 2).unwrap().bytes, b"ab");
        let d = decode(Some("identity"), b"abc", 9).unwrap();
        assert_eq!((d.bytes.as_slice(), d.capped), (&b"abc"[..], false));
    }

    #[test]
    fn a_bomb_stops_at_the_cap() {
        let big = gzip(&vec![b'#'; 5_000_000]);
        assert!(big.len() < 50_000);
        let d = decode(Some("gzip"), &big, 1000).unwrap();
        assert_eq!((d.bytes.len(), d.capped), (1000, true));
    }

    #[test]
    fn unknown_corrupt_and_too_many_are_errors() {
        assert_eq!(
            decode(Some("br"), b"x", 9),
            Err(CodingError::Unknown("br".into()))
        );
        assert_eq!(
            decode(Some("gzip"), b"User-agent: *", 9),
            Err(CodingError::Corrupt("gzip"))
        );
        assert_eq!(
            decode(Some("gzip,gzip,gzip,gzip,gzip"), b"x", 9),
            Err(CodingError::TooMany(5))
        );
    }
}
