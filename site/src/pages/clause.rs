//! `clauses/<id>.html`: one clause — its text, which parsers follow it
//! (each parser's certificate line for the clause), and its slice of the
//! matrix: every check citing it against every ready parser of each
//! report. The matrix is split this way so that no page holds it whole.
//!
//! It shows the outcomes the runner judged; it never judges one.

use std::fmt::Write;

use robots_runner::matrix::counting_profile;
use robots_runner::run::Outcome;

use crate::html::{clause_counts, escape, outcome_cell, page, scroll};
use crate::model::Site;

/// Characters of a check's question shown (the report holds it whole).
const QUESTION_SHOWN: usize = 160;

/// The page of clause `id`.
pub fn render(site: &Site, id: &str) -> String {
    let [level, section, text] =
        site.clauses.get(id).cloned().unwrap_or_default();
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>{} <span class=\"muted\">({}, {})</span></h1><blockquote id=\"text\"><p>{}</p></blockquote>",
        escape(id),
        escape(&level),
        escape(&section),
        escape(&text)
    );
    let mut t = String::from(
        "<table id=\"followers\"><caption>Which parsers follow it</caption><thead><tr>\
         <th scope=\"col\">parser</th><th scope=\"col\">status</th><th scope=\"col\">pass</th>\
         <th scope=\"col\">fail</th><th scope=\"col\">other</th></tr></thead><tbody>",
    );
    let mut listed = 0;
    for p in &site.parsers {
        let Some(cert) = &p.certificate else { continue };
        let Some(c) = cert.clauses.iter().find(|c| c.id == id) else {
            continue;
        };
        listed += 1;
        let (pass, fail, other, class) = clause_counts(c);
        let word = match c.status.as_str() {
            "pass" => "follows",
            "fail" => "breaks",
            _ => "not tested",
        };
        let _ = write!(
            t,
            "<tr data-parser=\"{name}\" data-status=\"{}\"><th scope=\"row\"><a href=\"../parsers/{}.html\">{name}</a></th>\
             <td class=\"{class}\">{word}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{other}</td></tr>",
            escape(&c.status),
            escape(&p.slug),
            pass,
            fail,
            name = escape(&p.name),
        );
    }
    t.push_str("</tbody></table>");
    if listed == 0 {
        b.push_str("<p>No parser's certificate cites this clause.</p>");
    } else {
        b.push_str(&scroll("Which parsers follow it", &t));
    }
    for (ri, r) in site.inputs.reports.iter().enumerate() {
        let m = &r.matrix;
        let rows: Vec<_> = m
            .checks
            .iter()
            .filter(|row| row.clauses.iter().any(|c| c == id))
            .collect();
        if rows.is_empty() {
            continue;
        }
        // The parsers shown are the site's, in rank order, whose column is this report's.
        let cols: Vec<_> = site
            .parsers
            .iter()
            .filter(|p| {
                p.ready() && p.column.as_ref().is_some_and(|(i, _)| *i == ri)
            })
            .filter_map(|p| p.column.as_ref().map(|(_, c)| (p, c)))
            .collect();
        let mut t = format!(
            "<table class=\"checks\"><caption>{} check(s) citing {} in <code>{}</code></caption><thead><tr>\
             <th scope=\"col\">check</th><th scope=\"col\">question</th><th scope=\"col\">expected ({})</th>",
            rows.len(),
            escape(id),
            escape(&r.shown),
            escape(&m.profile)
        );
        for (p, _) in &cols {
            let _ = write!(
                t,
                "<th scope=\"col\"><a href=\"../parsers/{}.html\">{}</a></th>",
                escape(&p.slug),
                escape(&p.name)
            );
        }
        t.push_str("</tr></thead><tbody>");
        for row in rows {
            let q: String =
                row.question.chars().take(QUESTION_SHOWN).collect();
            let more = if row.question.chars().count() > QUESTION_SHOWN {
                "…"
            } else {
                ""
            };
            let expect =
                row.expect.get(&m.profile).cloned().unwrap_or_else(|| {
                    row.expect
                        .iter()
                        .map(|(k, v)| format!("{k}: {v}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                });
            let _ = write!(
                t,
                "<tr><th scope=\"row\"><code>{}</code></th><td>{}{more}</td><td>{}</td>",
                escape(&row.name),
                escape(&q),
                escape(&expect)
            );
            for (_, c) in &cols {
                let profile = counting_profile(&m.profile, &c.info);
                match row.results.get(&c.info.name) {
                    Some(cell) => {
                        let o = cell
                            .outcome
                            .get(profile)
                            .copied()
                            .unwrap_or(Outcome::Unscored);
                        let (class, word) = outcome_cell(o.word());
                        if !o.is_bad() {
                            let _ =
                                write!(t, "<td class=\"{class}\">{word}</td>");
                        } else {
                            let _ = write!(
                                t,
                                "<td class=\"{class}\">{word}<br><small>{}</small></td>",
                                escape(
                                    &cell
                                        .answer
                                        .chars()
                                        .take(80)
                                        .collect::<String>()
                                )
                            );
                        }
                    }
                    None => t.push_str("<td class=\"n\">–</td>"),
                }
            }
            t.push_str("</tr>");
        }
        t.push_str("</tbody></table>");
        b.push_str(&scroll(&format!("The checks citing {id}"), &t));
    }
    page(id, "../", &b)
}
