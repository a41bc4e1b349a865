//! The badge: a small shields-style SVG saying how much of RFC 9309's
//! MUST tier a parser follows (`RFC 9309 MUST | 96 %`), for a library's
//! README. `certify` writes one beside its certificate and the results
//! site one per parser; both call [`Badge::of`] and [`Badge::svg`], so
//! the two never disagree.
//!
//! The figure is the certificate's: the clauses of the MUST tier
//! ([`TIER_LEVELS`]`[0]`) that pass, over those tested (pass or fail);
//! rounded down, so a parser that fails one clause never shows 100 %.
//! It renders a certificate; it never judges an outcome, and every text
//! it writes into the SVG is escaped.

use std::fmt::Write;

use crate::certify::{Certificate, TIER_LEVELS};

/// What a badge says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Badge {
    /// The left half (`RFC 9309 MUST`).
    pub label: String,
    /// The right half (`96 %`, or `not tested`).
    pub message: String,
    /// The right half's background (a dark shade: white text on it
    /// keeps a contrast of 4.5:1 or more).
    pub colour: &'static str,
    /// The whole sentence, for the SVG's `<title>` and screen readers.
    pub title: String,
    /// The MUST-tier clauses passed and tested.
    pub passed: usize,
    /// The MUST-tier clauses tested (passed or failed).
    pub tested: usize,
}

/// The colour of a percentage, best first: every clause, at least 90 %,
/// 75 %, 50 %, below (each with white text at 4.5:1 or more).
fn colour(percent: Option<usize>) -> &'static str {
    match percent {
        Some(100) => "#1a7f37",
        Some(p) if p >= 90 => "#4d7a00",
        Some(p) if p >= 75 => "#8a6100",
        Some(p) if p >= 50 => "#b04a00",
        Some(_) => "#c0262d",
        None => "#5c5c5c",
    }
}

impl Badge {
    /// The badge of a certificate.
    pub fn of(c: &Certificate) -> Badge {
        let t = c.tally(TIER_LEVELS[0]);
        let tested = t.pass + t.fail;
        let percent = (tested > 0).then(|| t.pass * 100 / tested);
        let message = match percent {
            Some(p) => format!("{p} %"),
            None => "not tested".to_string(),
        };
        let title = match percent {
            Some(p) => format!(
                "{} {}: RFC 9309 MUST {p} % — follows {} of {tested} tested \
                 MUST-level clauses ({} expectations)",
                c.adapter, c.version, t.pass, c.profile
            ),
            None => format!(
                "{} {}: RFC 9309 MUST not tested ({} expectations)",
                c.adapter, c.version, c.profile
            ),
        };
        Badge {
            label: "RFC 9309 MUST".to_string(),
            message,
            colour: colour(percent),
            title,
            passed: t.pass,
            tested,
        }
    }

    /// The SVG, self-contained (no font or image fetched), with an
    /// accessible name (`role="img"`, `<title>`).
    pub fn svg(&self) -> String {
        let lw = text_width(&self.label) + 12;
        let mw = text_width(&self.message) + 12;
        let w = lw + mw;
        let (label, message) = (escape(&self.label), escape(&self.message));
        let title = escape(&self.title);
        let mut s = String::new();
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"20\" \
             viewBox=\"0 0 {w} 20\" role=\"img\" aria-label=\"{label}: {message}\">\
             <title>{title}</title>\
             <rect width=\"{lw}\" height=\"20\" rx=\"3\" fill=\"#404040\"/>\
             <rect x=\"{lw}\" width=\"{mw}\" height=\"20\" rx=\"3\" fill=\"{colour}\"/>\
             <rect x=\"{lw}\" width=\"4\" height=\"20\" fill=\"{colour}\"/>\
             <g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,Geneva,sans-serif\" \
             font-size=\"11\" text-anchor=\"middle\">\
             <text x=\"{lx}\" y=\"14\" textLength=\"{ltl}\" lengthAdjust=\"spacingAndGlyphs\">{label}</text>\
             <text x=\"{mx}\" y=\"14\" textLength=\"{mtl}\" lengthAdjust=\"spacingAndGlyphs\">{message}</text>\
             </g></svg>",
            colour = self.colour,
            lx = lw / 2,
            mx = lw + mw / 2,
            ltl = lw - 12,
            mtl = mw - 12,
        );
        s.push('\n');
        s
    }
}

/// The width of `text` at 11 px Verdana, near enough (the SVG's
/// `textLength` makes the glyphs fit whatever font draws them).
fn text_width(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '.' | ',' | ':' | ' ' | '\'' | '|' => 4,
            'f' | 't' | 'r' | 'I' => 5,
            'm' | 'w' | 'M' | 'W' | '%' => 10,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 8,
            _ => 7,
        })
        .sum()
}

/// `text` safe inside an XML element or a double-quoted attribute: the
/// HTML reports' escaping, control characters (not allowed in XML 1.0)
/// replaced first.
pub fn escape(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect();
    crate::report::html::escape(&clean)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::certify::ClauseResult;

    fn cert(adapter: &str, statuses: &[(&str, &str)]) -> Certificate {
        Certificate {
            adapter: adapter.into(),
            version: "1.0".into(),
            profile: "rfc9309".into(),
            tool: "t".into(),
            tiers: vec![],
            clauses: statuses
                .iter()
                .enumerate()
                .map(|(i, (level, status))| ClauseResult {
                    id: format!("C{i}"),
                    level: (*level).into(),
                    text: String::new(),
                    counts: BTreeMap::new(),
                    failing: vec![],
                    status: (*status).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn the_percent_is_must_tier_clauses_passed_over_tested_rounded_down() {
        // 24 MUST-tier clauses: 23 pass, 1 fails, 1 not tested; a failing
        // SHOULD clause does not count.
        let mut s = vec![("MUST", "pass"); 20];
        s.extend([("ABNF", "pass"), ("DEF", "pass"), ("MUST NOT", "pass")]);
        s.extend([("MUST", "fail"), ("MUST", "not-tested")]);
        s.push(("SHOULD", "fail"));
        let b = Badge::of(&cert("x", &s));
        assert_eq!((b.passed, b.tested), (23, 24));
        // 23 / 24 = 95.8 %: shown as 95 %, never rounded up.
        assert_eq!(b.message, "95 %");
        assert_eq!(b.label, "RFC 9309 MUST");
        assert!(b.title.contains("follows 23 of 24 tested"), "{}", b.title);
        let svg = b.svg();
        assert!(svg.contains(">RFC 9309 MUST</text>"), "{svg}");
        assert!(svg.contains(">95 %</text>"), "{svg}");
        assert!(svg.contains("aria-label=\"RFC 9309 MUST: 95 %\""), "{svg}");
    }

    #[test]
    fn a_parser_failing_nothing_shows_100_and_one_untested_says_so() {
        let b = Badge::of(&cert("x", &[("MUST", "pass"), ("SHOULD", "fail")]));
        assert_eq!(b.message, "100 %");
        assert_eq!(b.colour, "#1a7f37");
        let none = Badge::of(&cert("x", &[("GOOGLE", "pass")]));
        assert_eq!(none.message, "not tested");
        assert_eq!(none.tested, 0);
    }

    #[test]
    fn every_text_in_the_svg_is_escaped() {
        let b = Badge::of(&cert("<evil & \"co\">", &[("MUST", "pass")]));
        let svg = b.svg();
        assert!(!svg.contains("<evil"), "{svg}");
        assert!(svg.contains("&lt;evil &amp; &quot;co&quot;&gt;"), "{svg}");
        assert_eq!(escape("a\u{1}b"), "a\u{FFFD}b");
    }

    #[test]
    fn the_message_box_grows_with_its_text() {
        let mut b = Badge::of(&cert("x", &[("MUST", "pass")]));
        let short = b.svg();
        b.message = "100 % of a much longer message".into();
        let long = b.svg();
        let width = |s: &str| -> usize {
            let at = s.find("width=\"").unwrap() + 7;
            s[at..].split('"').next().unwrap().parse().unwrap()
        };
        assert!(width(&long) > width(&short) + 100);
    }
}
