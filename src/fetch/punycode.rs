//! Punycode (RFC 3492) encoding of one host label, for comparing an IDN
//! host with its ASCII form (G-LOC-4: `www.exämple.com` ≡
//! `www.xn--exmple-cua.com`). Encoding only; never panics (overflow gives
//! `None`).

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 128;

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points.max(1);
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

fn digit(d: u32) -> char {
    // d < 36 by construction: a-z for 0..26, 0-9 for 26..36.
    let byte = if d < 26 { b'a' + d as u8 } else { b'0' + (d - 26) as u8 };
    char::from(byte)
}

/// The Punycode encoding of `label` (without the `xn--` prefix), or
/// `None` on arithmetic overflow.
pub(crate) fn encode(label: &str) -> Option<String> {
    let input: Vec<u32> = label.chars().map(u32::from).collect();
    let mut out: String = label.chars().filter(char::is_ascii).collect();
    let basic = u32::try_from(out.len()).ok()?;
    let total = u32::try_from(input.len()).ok()?;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias, mut handled) =
        (INITIAL_N, 0u32, INITIAL_BIAS, basic);
    while handled < total {
        let m = input.iter().copied().filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in &input {
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias {
                        T_MIN
                    } else if k >= bias + T_MAX {
                        T_MAX
                    } else {
                        k - bias
                    };
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::encode;

    #[test]
    fn rfc_3492_samples() {
        assert_eq!(encode("exämple").as_deref(), Some("exmple-cua"));
        assert_eq!(encode("bücher").as_deref(), Some("bcher-kva"));
        assert_eq!(encode("münchen").as_deref(), Some("mnchen-3ya"));
        // RFC 3492 §7.1 (L): Japanese "3年B組金八先生"
        assert_eq!(
            encode("3年B組金八先生").as_deref(),
            Some("3B-ww4c5e180e575a65lsy2b")
        );
        assert_eq!(encode("ü").as_deref(), Some("tda"));
    }
}
