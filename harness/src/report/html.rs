//! `matrix.html`: a self-contained page (no network) with the report's
//! JSON embedded; the page's script renders the cases × parsers table,
//! the pruned view, the filters and the per-cell details.
//!
//! The review queue (see [`super::review`]) and the cost table (see
//! [`super::cost`]) are rendered here, as static HTML, so they read
//! without the script too.
//!
//! It never fetches anything at view time and never embeds unescaped text.

use std::io::Write;

use crate::matrix::Matrix;

const TEMPLATE: &str = include_str!("matrix.html");
const SLOT: &str = "/*REPORT_JSON*/null";
const QUEUE_SLOT: &str = "<!--REVIEW_QUEUE-->";
const COST_SLOT: &str = "<!--COST-->";

/// `text` escaped for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The review queue as a section of the page.
fn review_queue(m: &Matrix) -> String {
    let queue = super::review::queue(m);
    let mut h = format!(
        "<section class=\"block\" id=\"review-queue\" data-items=\"{}\">\n  <details class=\"sum\" open>\n    \
         <summary><h2>Review queue ({})</h2> <span class=\"note\">{} definite expectation(s) \
         that every RFC-claiming parser which answered (at least {}, the oracle aside) answers \
         against: re-check each against its clause</span></summary>\n",
        queue.len(),
        super::review::PROFILE,
        queue.len(),
        super::review::MIN_ANSWERS
    );
    if queue.is_empty() {
        h.push_str("    <p class=\"empty\">None.</p>\n");
    } else {
        h.push_str(
            "    <div class=\"scroll-x\"><table class=\"t\"><tr><th>Check</th><th>Expected</th>\
             <th>Answers</th><th>Clauses</th><th>Case</th></tr>\n",
        );
        for item in &queue {
            let answers: Vec<String> = item
                .answers
                .iter()
                .map(|(a, ans)| format!("{}: {}", escape(a), escape(ans)))
                .collect();
            let file =
                m.cases.get(&item.row.case).map_or("", |c| c.file.as_str());
            h.push_str(&format!(
                "    <tr class=\"queued\" data-check=\"{}\"><td><code>{}</code></td><td>{}</td>\
                 <td>{}</td><td>{}</td><td><code>{}</code></td></tr>\n",
                escape(&item.row.name),
                escape(&item.row.name),
                escape(item.expected),
                answers.join("<br>"),
                escape(&item.row.clauses.join(", ")),
                escape(file)
            ));
        }
        h.push_str("    </table></div>\n");
    }
    h.push_str("  </details>\n</section>");
    h
}

/// The cost table (see [`super::cost`]) as a section of the page,
/// folded.
fn cost(m: &Matrix) -> String {
    use super::cost;
    let mut h = format!(
        "<section class=\"block\" id=\"cost\">\n  <details class=\"sum\">\n    \
         <summary><h2>Cost per adapter</h2> <span class=\"note\">{}</span></summary>\n    \
         <div class=\"scroll-x\"><table class=\"t\"><tr>",
        escape(&cost::summary(m))
    );
    for (head, about) in cost::LEGEND {
        h.push_str(&format!(
            "<th title=\"{}\">{}</th>",
            escape(about),
            escape(head)
        ));
    }
    h.push_str("</tr>\n");
    for row in cost::rows(m) {
        h.push_str("    <tr>");
        for cell in &row {
            h.push_str(&format!("<td>{}</td>", escape(cell)));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("    </table></div>\n    <dl class=\"cost-legend\">\n");
    for (head, about) in cost::LEGEND {
        h.push_str(&format!(
            "      <dt>{}</dt><dd>{}</dd>\n",
            escape(head),
            escape(about)
        ));
    }
    h.push_str("    </dl>\n  </details>\n</section>");
    h
}

/// Writes the HTML report.
///
/// # Errors
///
/// On any I/O error.
pub fn write(m: &Matrix, out: &mut impl Write) -> std::io::Result<()> {
    let json = serde_json::to_string(m).map_err(std::io::Error::other)?;
    // Inside a script element neither `</script` nor `<!--` may appear:
    // escape every `<` (JSON reads `\u003c` as `<`).
    let json = json.replace('<', "\\u003c");
    let (head, tail) = TEMPLATE.split_once(SLOT).unwrap_or((TEMPLATE, ""));
    let head = head.replacen(QUEUE_SLOT, &review_queue(m), 1).replacen(
        COST_SLOT,
        &cost(m),
        1,
    );
    out.write_all(head.as_bytes())?;
    out.write_all(json.as_bytes())?;
    out.write_all(tail.as_bytes())
}
