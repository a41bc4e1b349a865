//! A case's robots.txt body from its TOML: `robots` text, `robots_hex`,
//! `robots_base64` or `robots_parts` (text, hex, `repeat … times`,
//! `pad … to`).
//!
//! A built body is at most [`MAX_BODY_BYTES`]: sizes are computed with
//! checked arithmetic and refused before anything is allocated, so a case
//! file can never make the loader panic or grow without bound.

use base64::Engine;

use super::schema::{CaseToml, PartToml};

/// The largest body a case may build (64 MiB): far above any parser's
/// limit worth testing (Google's is 500 KiB), far below harm.
pub const MAX_BODY_BYTES: u64 = 64 << 20;

/// Why a body cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// None or several of the body keys.
    #[error(
        "needs exactly one of robots, robots_hex, robots_base64, robots_parts"
    )]
    NotExactlyOne,
    /// Hex with an odd number of digits.
    #[error("hex has an odd number of digits")]
    OddHex,
    /// A pair of characters that is not a hex byte.
    #[error("bad hex byte `{0}`")]
    BadHex(String),
    /// Base64 that does not decode.
    #[error("bad base64: {0}")]
    BadBase64(String),
    /// A `pad` that cannot reach its length.
    #[error("cannot pad a {len}-byte body to {to}")]
    CannotPad {
        /// The body's length before the pad.
        len: usize,
        /// The length asked for.
        to: u64,
    },
    /// A part that is none of the four shapes.
    #[error(
        "a robots_parts entry is one of {{text}}, {{hex}}, {{repeat, times}}, {{pad, to}}"
    )]
    BadPart,
    /// A part would make the body larger than [`MAX_BODY_BYTES`].
    #[error(
        "robots_parts entry {part} would make the body larger than {} bytes (64 MiB)",
        MAX_BODY_BYTES
    )]
    TooLarge {
        /// The 1-based part.
        part: usize,
    },
}

/// The body of case `c`: empty when it may have none (a fetch case, or a
/// case with only `governs` checks) and gives none.
pub(super) fn body_of(c: &CaseToml) -> Result<Vec<u8>, BodyError> {
    let given = [
        c.robots.is_some(),
        c.robots_hex.is_some(),
        c.robots_base64.is_some(),
        c.robots_parts.is_some(),
    ];
    let n = given.iter().filter(|&&g| g).count();
    // A fetch case's body is what the site serves (may be none); a case
    // with only governs checks needs none.
    let optional = c.fetch.is_some()
        || (c.check.is_empty()
            && c.sitemaps.is_none()
            && c.crawl_delay.is_empty()
            && !c.governs.is_empty());
    if n == 0 && optional {
        return Ok(Vec::new());
    }
    if n != 1 {
        return Err(BodyError::NotExactlyOne);
    }
    if let Some(s) = &c.robots {
        return Ok(s.clone().into_bytes());
    }
    if let Some(h) = &c.robots_hex {
        return hex_bytes(h);
    }
    if let Some(b) = &c.robots_base64 {
        return base64::engine::general_purpose::STANDARD
            .decode(b.trim())
            .map_err(|e| BodyError::BadBase64(e.to_string()));
    }
    parts_body(c.robots_parts.as_deref().unwrap_or_default())
}

/// Hex digits (whitespace ignored) as bytes.
pub(super) fn hex_bytes(s: &str) -> Result<Vec<u8>, BodyError> {
    let digits: Vec<u8> =
        s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err(BodyError::OddHex);
    }
    digits
        .chunks(2)
        .map(|pair| {
            let text = String::from_utf8_lossy(pair);
            u8::from_str_radix(&text, 16)
                .map_err(|_| BodyError::BadHex(text.into_owned()))
        })
        .collect()
}

/// The concatenation of `parts`, each within [`MAX_BODY_BYTES`].
fn parts_body(parts: &[PartToml]) -> Result<Vec<u8>, BodyError> {
    let mut body = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let too_large = || BodyError::TooLarge { part: i + 1 };
        let grown = |extra: Option<u64>| {
            extra
                .and_then(|e| (body.len() as u64).checked_add(e))
                .filter(|&n| n <= MAX_BODY_BYTES)
                .ok_or_else(too_large)
        };
        match part {
            PartToml {
                text: Some(t),
                hex: None,
                repeat: None,
                pad: None,
                times: None,
                to: None,
            } => {
                grown(Some(t.len() as u64))?;
                body.extend_from_slice(t.as_bytes());
            }
            PartToml {
                hex: Some(h),
                text: None,
                repeat: None,
                pad: None,
                times: None,
                to: None,
            } => {
                let bytes = hex_bytes(h)?;
                grown(Some(bytes.len() as u64))?;
                body.extend(bytes);
            }
            PartToml {
                repeat: Some(r),
                times: Some(n),
                text: None,
                hex: None,
                pad: None,
                to: None,
            } => {
                grown((r.len() as u64).checked_mul(*n))?;
                if !r.is_empty() {
                    // Within MAX_BODY_BYTES, so `n` fits a usize.
                    body.extend(r.as_bytes().repeat(*n as usize));
                }
            }
            PartToml {
                pad: Some(p),
                to: Some(to),
                text: None,
                hex: None,
                repeat: None,
                times: None,
            } => {
                if p.is_empty() || body.len() as u64 > *to {
                    return Err(BodyError::CannotPad {
                        len: body.len(),
                        to: *to,
                    });
                }
                grown(Some(to - body.len() as u64))?;
                pad(&mut body, p.as_bytes(), *to as usize);
            }
            _ => return Err(BodyError::BadPart),
        }
    }
    Ok(body)
}

/// Repeats `with` (cut at the end) until `body` is `to` bytes long.
fn pad(body: &mut Vec<u8>, with: &[u8], to: usize) {
    let need = to.saturating_sub(body.len());
    body.extend(with.repeat(need / with.len()));
    body.extend_from_slice(&with[..need % with.len()]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(f: impl FnOnce(&mut PartToml)) -> PartToml {
        let mut p = PartToml {
            text: None,
            hex: None,
            repeat: None,
            times: None,
            pad: None,
            to: None,
        };
        f(&mut p);
        p
    }

    #[test]
    fn a_repeat_bomb_is_refused_before_allocating() {
        let bomb = part(|p| {
            p.repeat = Some("aaaa".into());
            p.times = Some(i64::MAX as u64);
        });
        assert_eq!(parts_body(&[bomb]), Err(BodyError::TooLarge { part: 1 }));
        let big = part(|p| {
            p.repeat = Some("a".into());
            p.times = Some(100_000_000_000);
        });
        let ok = part(|p| p.text = Some("x".into()));
        assert_eq!(
            parts_body(&[ok, big]),
            Err(BodyError::TooLarge { part: 2 })
        );
        let nothing = part(|p| {
            p.repeat = Some(String::new());
            p.times = Some(i64::MAX as u64);
        });
        assert_eq!(parts_body(&[nothing]), Ok(Vec::new()));
    }

    #[test]
    fn a_pad_bomb_is_refused_and_the_limit_itself_is_allowed() {
        let bomb = part(|p| {
            p.pad = Some("x".into());
            p.to = Some(1 << 40);
        });
        assert_eq!(parts_body(&[bomb]), Err(BodyError::TooLarge { part: 1 }));
        let exact = part(|p| {
            p.pad = Some("xy".into());
            p.to = Some(MAX_BODY_BYTES);
        });
        let body = parts_body(&[exact]).unwrap();
        assert_eq!(body.len() as u64, MAX_BODY_BYTES);
        let one_more = part(|p| p.text = Some("z".into()));
        let exact = part(|p| {
            p.pad = Some("x".into());
            p.to = Some(MAX_BODY_BYTES);
        });
        assert_eq!(
            parts_body(&[exact, one_more]),
            Err(BodyError::TooLarge { part: 2 })
        );
    }

    #[test]
    fn parts_that_mix_shapes_are_refused() {
        let mixed = part(|p| {
            p.text = Some("a".into());
            p.times = Some(3);
        });
        assert_eq!(parts_body(&[mixed]), Err(BodyError::BadPart));
        assert_eq!(hex_bytes("0"), Err(BodyError::OddHex));
        assert_eq!(hex_bytes("zz"), Err(BodyError::BadHex("zz".into())));
        assert_eq!(hex_bytes("0a 0D"), Ok(vec![b'\n', b'\r']));
    }
}
