//! `parsers/<name>.html`: one parser — its badge (with the Markdown to
//! embed it), scores by level, fitted reading and its switches, its
//! certificate by clause (the runner's `certify`), its bugs on record
//! with their reproductions, and its history chart
//! (`robots_fingerprint::history_render::chart`) when a history covers it.
//!
//! It renders what the model holds; it never judges an answer.

use std::fmt::Write;

use robots_fingerprint::history::History;
use robots_fingerprint::history_render::chart;
use robots_fingerprint::register::{Entry, Kind};
use robots_runner::certify::Certificate;

use crate::html::{clause_counts, escape, page, pct, scroll, slug};
use crate::model::{Parser, Site};

/// Failing checks named per clause (the others are counted).
const FAILING_SHOWN: usize = 5;
/// Changes listed per history (the others are counted).
const CHANGES_SHOWN: usize = 40;

/// The page of `p`.
pub fn render(site: &Site, p: &Parser) -> String {
    let mut b = String::new();
    let _ = write!(b, "<h1>{}</h1>", escape(&p.name));
    match &p.column {
        Some((_, c)) => {
            let _ = write!(
                b,
                "<p>{} parser, version <code>{}</code>, claims the <code>{}</code> profile; \
                 status in the matrix: {}.</p>",
                escape(&c.info.language),
                escape(&c.info.version),
                escape(&c.info.profile),
                escape(&c.status)
            );
        }
        None => {
            b.push_str("<p>Not in any matrix report given to the site.</p>")
        }
    }
    if let (Some(badge), Some(cert)) = (&p.badge, &p.certificate) {
        let _ = write!(
            b,
            "<h2>Badge</h2><p><img class=\"badge\" id=\"badge\" src=\"../badges/{s}.svg\" alt=\"{l}: {m}\"> \
             {t}</p><p id=\"embed-label\">Markdown to embed it (replace HOST with where the site is \
             published):</p><pre id=\"embed\" tabindex=\"0\" aria-labelledby=\"embed-label\">![{l}: {m}](https://HOST/badges/{s}.svg)</pre>",
            s = escape(&p.slug),
            l = escape(&badge.label),
            m = escape(&badge.message),
            t = escape(&badge.title)
        );
        tiers(&mut b, cert);
    }
    if let Some((_, c)) = &p.column {
        levels(&mut b, c);
        b.push_str("<h2>Fitted reading</h2>");
        match &c.fingerprint {
            Some(fit) => {
                let _ = write!(
                    b,
                    "<p>The reading of the oracle's switches that best explains the parser's \
                     answers (<code>matrix --fingerprint</code>):</p><p><code id=\"fit\">{}</code></p>",
                    escape(fit)
                );
                let switches = switches(fit);
                if !switches.is_empty() {
                    b.push_str("<ul id=\"switches\">");
                    for s in switches {
                        let _ = write!(b, "<li><code>{}</code></li>", escape(s));
                    }
                    b.push_str("</ul>");
                }
            }
            None => b.push_str(
                "<p>Not fitted: the report was made without <code>matrix --fingerprint</code>.</p>",
            ),
        }
    }
    if let Some(cert) = &p.certificate {
        certificate(&mut b, site, cert);
    }
    bugs(&mut b, &p.bugs);
    for &hi in &p.histories {
        let (_, h) = &site.inputs.histories[hi];
        history(&mut b, h);
    }
    page(&p.name, "../", &b)
}

/// The switches of a fit label `≈ BASE + a=b + c=d (97.0%)`.
pub fn switches(fit: &str) -> Vec<&str> {
    let body = fit.rsplit_once(" (").map_or(fit, |(l, _)| l);
    body.split(" + ").skip(1).collect()
}

fn tiers(b: &mut String, cert: &Certificate) {
    let _ = write!(
        b,
        "<h2>Certificate</h2><p>Judged against the <code>{}</code> expectations by {}.</p><ul id=\"tiers\">",
        escape(&cert.profile),
        escape(&cert.tool)
    );
    for (tier, ok) in &cert.tiers {
        let _ = write!(
            b,
            "<li>{} {}</li>",
            if *ok {
                "<strong>yes</strong> —"
            } else {
                "<strong>no</strong> —"
            },
            escape(tier)
        );
    }
    b.push_str("</ul>");
}

fn levels(b: &mut String, c: &robots_runner::matrix::Column) {
    let mut t = String::from(
        "<table><caption>Checks passed per level</caption><thead><tr><th scope=\"col\">level</th>\
         <th scope=\"col\">passed</th><th scope=\"col\">scored</th><th scope=\"col\">share</th>\
         </tr></thead><tbody>",
    );
    for (level, [p, s]) in &c.levels {
        let share = (*s > 0).then(|| 100.0 * *p as f64 / *s as f64);
        let _ = write!(
            t,
            "<tr><th scope=\"row\">{}</th><td class=\"num\">{p}</td><td class=\"num\">{s}</td>\
             <td class=\"num\">{}</td></tr>",
            escape(level),
            pct(share)
        );
    }
    t.push_str("</tbody></table>");
    b.push_str("<h2>Scores</h2>");
    b.push_str(&scroll("Checks passed per level", &t));
}

fn certificate(b: &mut String, site: &Site, cert: &Certificate) {
    let mut t = String::from(
        "<table id=\"clauses\"><caption>Every clause with the parser's outcomes on the checks citing it</caption>\
         <thead><tr><th scope=\"col\">clause</th><th scope=\"col\">level</th><th scope=\"col\">status</th>\
         <th scope=\"col\">pass</th><th scope=\"col\">fail</th><th scope=\"col\">other</th>\
         <th scope=\"col\">failing checks</th></tr></thead><tbody>",
    );
    for c in &cert.clauses {
        let (pass, fail, other, class) = clause_counts(c);
        let link = if site.clauses.contains_key(&c.id) {
            format!(
                "<a href=\"../clauses/{}.html\">{}</a>",
                escape(&slug(&c.id)),
                escape(&c.id)
            )
        } else {
            escape(&c.id)
        };
        let mut failing: Vec<String> = c
            .failing
            .iter()
            .take(FAILING_SHOWN)
            .map(|f| format!("<code>{}</code>", escape(f)))
            .collect();
        if c.failing.len() > FAILING_SHOWN {
            failing
                .push(format!("and {} more", c.failing.len() - FAILING_SHOWN));
        }
        let _ = write!(
            t,
            "<tr data-clause=\"{id}\"><th scope=\"row\">{link}</th><td>{}</td><td class=\"{class}\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{other}</td><td>{}</td></tr>",
            escape(&c.level),
            escape(&c.status),
            pass,
            fail,
            failing.join(", "),
            id = escape(&c.id),
        );
    }
    t.push_str("</tbody></table>");
    b.push_str("<h3>By clause</h3>");
    b.push_str(&scroll("The certificate by clause", &t));
}

fn bugs(b: &mut String, bugs: &[Entry]) {
    let _ = write!(b, "<h2>Bugs on record</h2>");
    if bugs.is_empty() {
        b.push_str("<p>None in the register (<code>bugs/</code>).</p>");
        return;
    }
    let _ = write!(
        b,
        "<p>{} distinct bug(s) from the register, each with a minimised reproduction.</p>",
        bugs.len()
    );
    for e in bugs {
        let fixed = e.fixed_in.as_deref().map_or_else(
            || "not fixed".to_string(),
            |v| format!("fixed in {v}"),
        );
        let _ = write!(
            b,
            "<section class=\"bug\" id=\"{id}\" aria-labelledby=\"{id}-t\"><h3 id=\"{id}-t\">{id}: {}</h3>\
             <p>{} at level {}; clauses {}; seen in {}; {}.</p><dl class=\"repro\">\
             <dt>robots.txt</dt><dd><pre>{}</pre></dd><dt>agent</dt><dd><code>{}</code></dd>\
             <dt>URL</dt><dd><code>{}</code></dd><dt>the parser answers</dt><dd><strong>{}</strong></dd>",
            escape(&e.title),
            kind(e.kind),
            escape(&e.level),
            escape(&e.clauses.join(", ")),
            escape(&e.seen_in.join(", ")),
            escape(&fixed),
            escape(&e.robots),
            escape(&e.agent),
            escape(&e.url),
            escape(&e.actual),
            id = escape(&e.id),
        );
        for (profile, x) in &e.expected {
            let _ = write!(
                b,
                "<dt>expected under {}</dt><dd><strong>{}</strong>: {}</dd>",
                escape(profile),
                escape(&x.answer),
                escape(&x.why)
            );
        }
        let _ = write!(
            b,
            "<dt>caught by</dt><dd>{}</dd><dt>reviewed</dt><dd>{}</dd></dl></section>",
            e.cases
                .iter()
                .map(|c| format!("<code>{}</code>", escape(c)))
                .collect::<Vec<_>>()
                .join(", "),
            escape(&e.reviewed)
        );
    }
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::MustViolation => "A MUST violation",
        Kind::ShouldViolation => "A SHOULD violation",
        Kind::GoogleDeviation => "A deviation from Google",
    }
}

fn history(b: &mut String, h: &History) {
    let _ = write!(
        b,
        "<h2>History of {} over its releases</h2><figure>{}<figcaption>Checks passed per level, \
         per release (counted under <code>{}</code>).</figcaption></figure>",
        escape(&h.adapter),
        chart(h),
        escape(&h.profile)
    );
    let levels = h.levels();
    let mut t = String::from(
        "<table><caption>Releases</caption><thead><tr><th scope=\"col\">release</th><th scope=\"col\">status</th>",
    );
    for l in &levels {
        let _ = write!(t, "<th scope=\"col\">{}</th>", escape(l));
    }
    t.push_str("<th scope=\"col\">fitted reading</th></tr></thead><tbody>");
    for r in &h.releases {
        let _ = write!(
            t,
            "<tr><th scope=\"row\">{}</th><td>{}</td>",
            escape(&r.version),
            escape(&r.status)
        );
        for l in &levels {
            let _ = write!(t, "<td class=\"num\">{}</td>", pct(r.percent(l)));
        }
        let _ = write!(
            t,
            "<td><code>{}</code></td></tr>",
            escape(r.fingerprint.as_deref().unwrap_or("–"))
        );
    }
    t.push_str("</tbody></table>");
    b.push_str(&scroll("Releases", &t));
    if h.changes.is_empty() {
        b.push_str(
            "<p>No check changed outcome between consecutive releases.</p>",
        );
        return;
    }
    let mut t = String::from(
        "<table><caption>Checks that changed outcome</caption><thead><tr><th scope=\"col\">from → to</th>\
         <th scope=\"col\">movement</th><th scope=\"col\">check</th><th scope=\"col\">before</th>\
         <th scope=\"col\">after</th></tr></thead><tbody>",
    );
    for c in h.changes.iter().take(CHANGES_SHOWN) {
        let _ = write!(
            t,
            "<tr><td>{} → {}</td><td>{:?}</td><td><code>{}</code></td><td>{}: {}</td><td>{}: {}</td></tr>",
            escape(&c.from),
            escape(&c.to),
            c.movement,
            escape(&c.check),
            escape(&c.before.outcome),
            escape(&c.before.answer),
            escape(&c.after.outcome),
            escape(&c.after.answer)
        );
    }
    t.push_str("</tbody></table>");
    b.push_str(&scroll("Checks that changed outcome", &t));
    if h.changes.len() > CHANGES_SHOWN {
        let _ = write!(
            b,
            "<p>… and {} more changes (the history's own <code>history.html</code> lists every one).</p>",
            h.changes.len() - CHANGES_SHOWN
        );
    }
}

#[cfg(test)]
mod tests {
    use super::switches;

    #[test]
    fn a_fit_labels_switches_are_listed() {
        assert_eq!(
            switches("≈ rfc9309 + precedence=first-match + a=b (97.1%)"),
            ["precedence=first-match", "a=b"]
        );
        assert!(switches("≈ google (100.0%)").is_empty());
    }
}
