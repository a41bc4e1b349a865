//! Which URLs a case may ask about: a check's URL is an absolute URL
//! (`scheme://authority…`) or a path starting with exactly one `/`; a
//! robots-url or governs URL is absolute.
//!
//! The rule exists so that the oracle and every adapter are asked the same
//! URL: `//x`, ``, `?q`, `#x` or `x` are read as different URLs by
//! different readers. It checks the shape only, never what a URL means.
//! (The three shapes Google's library takes, ``, `?q` and `#x`, are let
//! through by the case builder for parsers that declare `library_urls`;
//! see `robots_adapters::wire::is_library_url`.)

use super::error::{At, CaseErrorKind};

/// Whether `url` is a case URL: an absolute URL (`scheme://authority…`)
/// or a path starting with exactly one `/`. Anything else (`//x`, ``,
/// `?q`, `#x`, `x`) would be read differently by different readers.
pub fn is_case_url(url: &str) -> bool {
    if let Some(path) = url.strip_prefix('/') {
        return !path.starts_with('/');
    }
    let Some((scheme, rest)) = url.split_once("://") else { return false };
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    scheme_ok && !authority.is_empty()
}

/// `url` must be an absolute URL (robots-url and governs questions are
/// about where files live, so a path alone says nothing).
pub(super) fn absolute(at: At, url: &str) -> Result<(), CaseErrorKind> {
    if is_case_url(url) && !url.starts_with('/') {
        Ok(())
    } else {
        Err(CaseErrorKind::NotAbsolute { at, url: url.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::is_case_url;

    #[test]
    fn the_generator_emits_only_case_urls() {
        for seed in 0..4 {
            for i in 0..300 {
                for url in robots_gen::from_seed(seed, i).urls {
                    assert!(
                        is_case_url(&url),
                        "seed {seed} check {i}: {url:?}"
                    );
                }
            }
        }
    }
}
