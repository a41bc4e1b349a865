//! `index.html`: the parsers ranked (score by level, language, version,
//! fitted reading, badge), the parsers known only from a history or the
//! register, and the inputs the site was built from.
//!
//! It lists what [`crate::model::Site`] ranked; it never re-orders or
//! scores.

use std::fmt::Write;

use crate::html::{escape, page, pct, scroll};
use crate::model::{RANK_LEVELS, Site};

/// The page.
pub fn render(site: &Site) -> String {
    let mut b = String::new();
    let ranked: Vec<_> = site.parsers.iter().filter(|p| p.ready()).collect();
    let _ = write!(
        b,
        "<h1>robots.txt parsers against RFC 9309</h1>\
         <p>{} parsers ranked by the share of checks passed at each requirement level \
         (MUST first, then SHOULD, then Google's documented behaviour), from {} matrix \
         report(s), {} history file(s) and the bug register. Every clause's page says which \
         parsers follow it; <a href=\"matrix.html\">the matrix</a> shows every clause at once.</p>",
        ranked.len(),
        site.inputs.reports.len(),
        site.inputs.histories.len()
    );
    let mut t = String::from(
        "<table id=\"ranking\"><caption>Ranking (checks passed over scored, per level)</caption>\
         <thead><tr><th scope=\"col\">#</th><th scope=\"col\">parser</th>\
         <th scope=\"col\">language</th><th scope=\"col\">version</th>",
    );
    for l in RANK_LEVELS {
        let _ = write!(t, "<th scope=\"col\">{l}</th>");
    }
    t.push_str(
        "<th scope=\"col\">fitted reading</th><th scope=\"col\">badge</th>\
         <th scope=\"col\">bugs on record</th></tr></thead><tbody>",
    );
    for (i, p) in ranked.iter().enumerate() {
        let Some((_, c)) = &p.column else { continue };
        let _ = write!(
            t,
            "<tr data-parser=\"{name}\"><td class=\"num\">{}</td>\
             <th scope=\"row\"><a href=\"parsers/{slug}.html\">{name}</a></th>\
             <td>{}</td><td>{}</td>",
            i + 1,
            escape(&c.info.language),
            escape(&c.info.version),
            name = escape(&p.name),
            slug = escape(&p.slug),
        );
        for l in RANK_LEVELS {
            let _ = write!(t, "<td class=\"num\">{}</td>", pct(p.percent(l)));
        }
        let fit = c.fingerprint.as_deref().unwrap_or("–");
        let _ = write!(t, "<td><code>{}</code></td>", escape(fit));
        match &p.badge {
            Some(badge) => {
                let _ = write!(
                    t,
                    "<td><img class=\"badge\" src=\"badges/{}.svg\" alt=\"{}: {}\"></td>",
                    escape(&p.slug),
                    escape(&badge.label),
                    escape(&badge.message)
                );
            }
            None => t.push_str("<td>–</td>"),
        }
        let _ = write!(t, "<td class=\"num\">{}</td></tr>", p.bugs.len());
    }
    t.push_str("</tbody></table>");
    b.push_str(&scroll("Ranking of the parsers", &t));
    let others: Vec<_> = site.parsers.iter().filter(|p| !p.ready()).collect();
    if !others.is_empty() {
        b.push_str(
            "<h2>Other parsers</h2><p>Not ranked: no ready column in the reports \
             (unavailable there, or known only from a history or the bug register).</p><ul>",
        );
        for p in others {
            let why = match &p.column {
                Some((_, c)) => format!(
                    "unavailable in the matrix{}",
                    c.why
                        .as_ref()
                        .map(|w| format!(": {w}"))
                        .unwrap_or_default()
                ),
                None => "not in a matrix report".to_string(),
            };
            let _ = write!(
                b,
                "<li><a href=\"parsers/{}.html\">{}</a> — {}; {} bug(s) on record, {} history file(s)</li>",
                escape(&p.slug),
                escape(&p.name),
                escape(&why),
                p.bugs.len(),
                p.histories.len()
            );
        }
        b.push_str("</ul>");
    }
    b.push_str("<h2>Inputs</h2><ul>");
    for r in &site.inputs.reports {
        let _ = write!(
            b,
            "<li>matrix <code>{}</code>: {} checks, {} adapters, counted under <code>{}</code> ({})</li>",
            escape(&r.shown),
            r.matrix.checks.len(),
            r.matrix.adapters.len(),
            escape(&r.matrix.profile),
            escape(&r.matrix.tool)
        );
    }
    for (shown, h) in &site.inputs.histories {
        let _ = write!(
            b,
            "<li>history <code>{}</code>: {} over {} release(s)</li>",
            escape(shown),
            escape(&h.adapter),
            h.releases.len()
        );
    }
    b.push_str("</ul>");
    for n in &site.notes {
        let _ = write!(b, "<p class=\"muted\">{}</p>", escape(n));
    }
    page("Ranking", "", &b)
}
