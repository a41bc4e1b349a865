//! The pieces every page shares: escaping (the badge's, one escaper for
//! all the site's markup), file names from adapter and clause names, the
//! page's frame (landmarks, skip link, navigation, the shared style
//! sheet by a relative link so that `file://` and any static host work)
//! and small formatters.
//!
//! It never decides what a page says; pages do.

use std::fmt::Write;

pub use robots_runner::badge::escape;

/// A file stem for `name`: ASCII letters, digits, `.`, `-`, `_` and `@`
/// kept, any other character as `~` and its code in hex (so two names
/// never share a file); a leading dot is escaped too.
pub fn slug(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    for (i, c) in name.chars().enumerate() {
        let keep = c.is_ascii_alphanumeric()
            || matches!(c, '-' | '_' | '@')
            || (c == '.' && i > 0);
        if keep {
            s.push(c);
        } else {
            let _ = write!(s, "~{:x}", c as u32);
        }
    }
    if s.is_empty() { "~".to_string() } else { s }
}

/// `12.3 %`, or an en dash when nothing was scored.
pub fn pct(p: Option<f64>) -> String {
    match p {
        Some(p) => format!("{p:.1} %"),
        None => "–".to_string(),
    }
}

/// A page's frame around `body`. `root` is the way back to the site's
/// root from the page (`""` or `"../"`).
pub fn page(title: &str, root: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{title} — robots.txt conformance</title>\
         <link rel=\"stylesheet\" href=\"{root}style.css\"></head>\n<body>\
         <a class=\"skip\" href=\"#main\">Skip to the content</a>\
         <header><nav aria-label=\"Site\"><ul>\
         <li><a href=\"{root}index.html\">Ranking</a></li>\
         <li><a href=\"{root}matrix.html\">Matrix by clause</a></li>\
         </ul></nav></header>\n<main id=\"main\" tabindex=\"-1\">\n{body}\n</main>\n\
         <footer><p>Built by <code>robots-conformance site</code> from the suite's \
         reports; every outcome is judged against the reference oracle.</p></footer>\
         </body></html>\n",
        title = escape(title),
    )
}

/// A wide table in a region that scrolls by itself (reachable by
/// keyboard, named for screen readers).
pub fn scroll(label: &str, table: &str) -> String {
    format!(
        "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{}\">{table}</div>",
        escape(label)
    )
}

/// The CSS class and short word of an outcome (`pass`, `fail`, …).
pub fn outcome_cell(word: &str) -> (&'static str, &str) {
    match word {
        "pass" => ("p", "pass"),
        "fail" => ("f", "fail"),
        "not-applicable" => ("n", "n/a"),
        "unscored" => ("u", "any"),
        _ => ("x", word),
    }
}

/// A certificate line's counts and status class: (pass, fail, other
/// outcomes, `p` / `f` / `n`).
pub fn clause_counts(
    c: &robots_runner::certify::ClauseResult,
) -> (usize, usize, usize, &'static str) {
    let get = |k: &str| c.counts.get(k).copied().unwrap_or(0);
    let other = c.counts.values().sum::<usize>() - get("pass") - get("fail");
    let class = match c.status.as_str() {
        "pass" => "p",
        "fail" => "f",
        _ => "n",
    };
    (get("pass"), get("fail"), other, class)
}

/// The shared style sheet.
pub const STYLE: &str = include_str!("style.css");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_plain_names_and_never_collide() {
        assert_eq!(slug("python-protego@0.3.1"), "python-protego@0.3.1");
        assert_eq!(slug("rust-robots_txt"), "rust-robots_txt");
        assert_eq!(slug("a/b"), "a~2fb");
        assert_ne!(slug("a/b"), slug("a~2fb"));
        assert_eq!(slug("../x"), "~2e.~2fx");
        assert_eq!(slug(""), "~");
    }

    #[test]
    fn a_page_escapes_its_title_and_links_back_relatively() {
        let p = page("<x>", "../", "<p>hi</p>");
        assert!(p.contains("<title>&lt;x&gt; — "), "{p}");
        assert!(p.contains("href=\"../style.css\""));
        assert!(p.contains("href=\"../index.html\""));
        assert!(p.contains("<main id=\"main\""));
    }
}
