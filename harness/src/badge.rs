//! The badge: a small shields-style SVG saying how much of RFC 9309's
//! MUST level a parser passes (`RFC 9309 MUST | 96 %`), for a library's
//! README. `certify` writes one beside its certificate and the results
//! site one per parser; both call [`Badge::of`] and [`Badge::svg`] on the
//! parser's matrix column, so the two never disagree.
//!
//! The figure is the column's own score at the MUST level (checks whose
//! strictest clause is a MUST: passed over scored, as the matrix and the
//! site's ranking count them), under the profile the column was counted
//! under — named in the label when it is not `rfc9309` — and rounded
//! down, so a parser that fails one check never shows 100 %. It renders
//! a column; it never judges an outcome, and every text it writes into
//! the SVG is escaped.

use std::fmt::Write;

use crate::matrix::{Column, counting_profile};

/// What a badge says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Badge {
    /// The left half (`RFC 9309 MUST`; `RFC 9309 MUST (google)` when
    /// counted under Google's expectations).
    pub label: String,
    /// The right half (`96 %`, or `not tested`).
    pub message: String,
    /// The right half's background (a dark shade: white text on it
    /// keeps a contrast of 4.5:1 or more).
    pub colour: &'static str,
    /// The whole sentence, for the SVG's `<title>` and screen readers.
    pub title: String,
    /// MUST-level checks passed.
    pub passed: usize,
    /// MUST-level checks scored.
    pub scored: usize,
}

/// The colour of a percentage, best first: every check, at least 90 %,
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
    /// The badge of a column of a matrix counted under `profile` (the
    /// matrix's: `claimed` means the column's own).
    pub fn of(column: &Column, profile: &str) -> Badge {
        let profile = counting_profile(profile, &column.info);
        let [passed, scored] =
            column.levels.get("MUST").copied().unwrap_or([0, 0]);
        let percent = (scored > 0).then(|| passed * 100 / scored);
        let label = match profile {
            "rfc9309" => "RFC 9309 MUST".to_string(),
            other => format!("RFC 9309 MUST ({other})"),
        };
        let message = match percent {
            Some(p) => format!("{p} %"),
            None => "not tested".to_string(),
        };
        let who = format!("{} {}", column.info.name, column.info.version);
        let title = match percent {
            Some(p) => format!(
                "{who}: {label} {p} % — passes {passed} of {scored} scored \
                 checks at the MUST level ({profile} expectations)"
            ),
            None => {
                format!("{who}: {label} not tested ({profile} expectations)")
            }
        };
        Badge {
            label,
            message,
            colour: colour(percent),
            title,
            passed,
            scored,
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
    use super::*;
    use crate::matrix::test_column;

    fn column(name: &str, claims: &str, must: [usize; 2]) -> Column {
        let mut c = test_column(name, claims);
        c.levels.insert("MUST".into(), must);
        c.levels.insert("SHOULD".into(), [0, 7]);
        c
    }

    #[test]
    fn the_percent_is_must_checks_passed_over_scored_rounded_down() {
        // 1367 of 1422 = 96.13 %; a failing SHOULD level does not count.
        let b = Badge::of(&column("x", "rfc9309", [1367, 1422]), "rfc9309");
        assert_eq!((b.passed, b.scored), (1367, 1422));
        assert_eq!(b.message, "96 %");
        assert_eq!(b.label, "RFC 9309 MUST");
        assert!(b.title.contains("passes 1367 of 1422 scored"), "{}", b.title);
        let svg = b.svg();
        assert!(svg.contains(">RFC 9309 MUST</text>"), "{svg}");
        assert!(svg.contains(">96 %</text>"), "{svg}");
        assert!(svg.contains("aria-label=\"RFC 9309 MUST: 96 %\""), "{svg}");
        // 1421 of 1422 is 99.9 %: never rounded up to 100.
        let b = Badge::of(&column("x", "rfc9309", [1421, 1422]), "rfc9309");
        assert_eq!(b.message, "99 %");
    }

    #[test]
    fn a_parser_failing_nothing_shows_100_and_one_untested_says_so() {
        let b = Badge::of(&column("x", "rfc9309", [5, 5]), "rfc9309");
        assert_eq!(b.message, "100 %");
        assert_eq!(b.colour, "#1a7f37");
        let none = Badge::of(&test_column("x", "rfc9309"), "rfc9309");
        assert_eq!(none.message, "not tested");
        assert_eq!(none.scored, 0);
    }

    #[test]
    fn a_column_counted_under_google_says_so_in_the_label() {
        let c = column("x", "google", [9, 10]);
        assert_eq!(Badge::of(&c, "claimed").label, "RFC 9309 MUST (google)");
        assert_eq!(Badge::of(&c, "rfc9309").label, "RFC 9309 MUST");
    }

    #[test]
    fn every_text_in_the_svg_is_escaped() {
        let b = Badge::of(
            &column("<evil & \"co\">", "rfc9309", [1, 1]),
            "rfc9309",
        );
        let svg = b.svg();
        assert!(!svg.contains("<evil"), "{svg}");
        assert!(svg.contains("&lt;evil &amp; &quot;co&quot;&gt;"), "{svg}");
        assert_eq!(escape("a\u{1}b"), "a\u{FFFD}b");
    }

    #[test]
    fn the_message_box_grows_with_its_text() {
        let mut b = Badge::of(&column("x", "rfc9309", [1, 1]), "rfc9309");
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
