//! `matrix.html`: the matrix at the clause level — every clause (a row,
//! linking to its page, where its checks are) against every ranked parser
//! (its certificate's status for the clause). The check-level matrix is
//! split over the clause pages, so this page stays small.
//!
//! It shows the certificates' statuses; it never computes one.

use std::fmt::Write;

use crate::html::{escape, page, scroll, slug};
use crate::model::Site;

/// The page.
pub fn render(site: &Site) -> String {
    let ranked: Vec<_> =
        site.parsers.iter().filter(|p| p.certificate.is_some()).collect();
    let mut b = format!(
        "<h1>The matrix by clause</h1><p>{} clauses against {} parsers. A cell is the parser's \
         certificate for the clause: <strong>pass</strong> (every scored check citing it passes), \
         <strong>fail N</strong> (N checks fail), or – (no scored check). Each clause's page has its \
         checks one by one.</p>",
        site.clauses.len(),
        ranked.len()
    );
    let mut t = String::from(
        "<table id=\"matrix\"><caption>Clauses against parsers</caption><thead><tr>\
         <th scope=\"col\">clause</th><th scope=\"col\">level</th>",
    );
    for p in &ranked {
        let _ = write!(
            t,
            "<th scope=\"col\"><a href=\"parsers/{}.html\">{}</a></th>",
            escape(&p.slug),
            escape(&p.name)
        );
    }
    t.push_str("</tr></thead><tbody>");
    for (id, [level, _, _]) in &site.clauses {
        let _ = write!(
            t,
            "<tr><th scope=\"row\"><a href=\"clauses/{}.html\">{}</a></th><td>{}</td>",
            escape(&slug(id)),
            escape(id),
            escape(level)
        );
        for p in &ranked {
            let c = p
                .certificate
                .as_ref()
                .and_then(|c| c.clauses.iter().find(|c| &c.id == id));
            match c.map(|c| (c.status.as_str(), c.failing.len())) {
                Some(("pass", _)) => t.push_str("<td class=\"p\">pass</td>"),
                Some(("fail", n)) => {
                    let _ = write!(t, "<td class=\"f\">fail {n}</td>");
                }
                _ => t.push_str("<td class=\"n\">–</td>"),
            }
        }
        t.push_str("</tr>");
    }
    t.push_str("</tbody></table>");
    b.push_str(&scroll("Clauses against parsers", &t));
    page("Matrix by clause", "", &b)
}
