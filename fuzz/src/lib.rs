//! What the structured fuzz targets share: [`Input`], the libFuzzer bytes
//! read as a `robots_gen::Check`.

use std::fmt;
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use robots_gen::{Check, SplitMix};

/// A generated check, drawn from the fuzzer's bytes followed by a fixed
/// pseudo-random tail.
///
/// Why the tail: when an `Unstructured` runs dry, `int_in_range` returns
/// the low end of its range, so every "x % of the time" choice of the
/// generator (`chance(u, p)` is `int_in_range(0..=99) < p`) comes out
/// *yes*: every short input would get the 16,700-byte line and the
/// 512,000-byte filler, and the fuzzer would spend its time parsing
/// filler (decide: about 150 exec/s). With the tail, the bytes the
/// fuzzer does not supply are ordinary random bytes, the same on every
/// run, so an input still maps to one check (artifacts reproduce).
pub struct Input(pub Check);

/// The bytes after the fuzzer's own: the same 4 KiB on every run.
fn tail() -> &'static [u8] {
    static TAIL: OnceLock<Vec<u8>> = OnceLock::new();
    TAIL.get_or_init(|| SplitMix::new(0x0b07_5eed).bytes(4096))
}

impl Input {
    /// The check for `data`.
    pub fn from_bytes(data: &[u8]) -> Input {
        let mut bytes = Vec::with_capacity(data.len() + tail().len());
        bytes.extend_from_slice(data);
        bytes.extend_from_slice(tail());
        let check = Check::arbitrary(&mut Unstructured::new(&bytes))
            .unwrap_or_else(|_| Check {
                robots: b"User-agent: *\nDisallow: /\n".to_vec(),
                agent: "FooBot".into(),
                urls: vec!["/".into()],
            });
        Input(check)
    }
}

impl<'a> Arbitrary<'a> for Input {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Input> {
        Ok(Input::from_bytes(u.bytes(u.len())?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Input> {
        Ok(Input::from_bytes(u.take_rest()))
    }
}

/// Shown by `cargo fuzz fmt` and in crash reports: the body escaped, so
/// CR, BOM and invalid bytes are visible.
impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.0;
        f.debug_struct("Check")
            .field("robots", &format_args!("b\"{}\"", c.robots.escape_ascii()))
            .field("agent", &c.agent)
            .field("urls", &c.urls)
            .finish()
    }
}
