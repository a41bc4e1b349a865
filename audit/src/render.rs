//! `audit.md` and `audit.html` from an [`Audit`]: the counts, per agent
//! the blocked share under each parser, the spread parser choice causes,
//! and per adapter its departures by axis. The HTML is self-contained
//! (inline CSS and SVG charts, no script). Reads only the aggregate.

use std::fmt::Write;

use crate::aggregate::Audit;

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The Markdown report.
pub fn markdown(a: &Audit) -> String {
    let c = &a.counts;
    let mut s = String::new();
    let _ = writeln!(s, "# robots.txt audit\n");
    let _ = writeln!(
        s,
        "{} inputs ({} stopped early), {} records: {} hosts ({} audited, {} with an uncaptured redirect), {} redirect targets, {} skipped, {} bad records; {} errors.\n",
        c.inputs,
        c.inputs_stopped,
        c.records,
        c.hosts,
        c.hosts_audited,
        c.hosts_unresolved,
        c.routes,
        c.skipped,
        c.bad_records,
        c.errors
    );
    if !c.errors_by_kind.is_empty() {
        let kinds: Vec<String> =
            c.errors_by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "Errors by kind: {}.\n", kinds.join(", "));
    }
    if c.truncated > 0 {
        let reasons: Vec<String> = c
            .truncated_by_reason
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let _ = writeln!(
            s,
            "Response records marked WARC-Truncated (bodies used as captured): {} ({}).\n",
            c.truncated,
            reasons.join(", ")
        );
    }
    for (p, by) in &c.policy {
        let parts: Vec<String> =
            by.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "Fetch outcome under {p}: {}.", parts.join(", "));
    }
    let _ = writeln!(
        s,
        "\n## Fully blocked share per agent (every probe disallowed)\n"
    );
    let mut head = String::from("| agent |");
    let mut rule = String::from("|---|");
    for p in &a.setup.parsers {
        let _ = write!(head, " {p} |");
        rule.push_str("---:|");
    }
    head.push_str(" named (rfc9309) | spread |");
    rule.push_str("---:|---:|");
    let _ = writeln!(s, "{head}\n{rule}");
    for agent in &a.setup.agents {
        let Some(g) = a.agents.get(agent) else { continue };
        let mut line = format!("| {agent} |");
        for p in &a.setup.parsers {
            let b = &g.blocked[p];
            let _ = write!(
                line,
                " {} (+{} partly) |",
                pct(b.fully.share),
                pct(b.partly.share)
            );
        }
        let named = g.named.get("rfc9309").map_or(0.0, |n| n.share);
        let _ = write!(
            line,
            " {} | {:.1} pts ({} → {}) |",
            pct(named),
            g.spread.points * 100.0,
            g.spread.lowest,
            g.spread.highest
        );
        let _ = writeln!(s, "{line}");
    }
    if let Some(l) = &a.largest_spread {
        let _ = writeln!(
            s,
            "\nLargest spread: {} — {:.2} points between {} and {}.",
            l.agent,
            l.spread.points * 100.0,
            l.spread.lowest,
            l.spread.highest
        );
    }
    if !a.parsers.is_empty() {
        let _ = writeln!(s, "\n## Departures from the oracle\n");
        let _ = writeln!(
            s,
            "| parser | compared with | hosts departing | verdicts departing | unanswered | by axis |\n|---|---|---:|---:|---:|---|"
        );
        for (name, p) in &a.parsers {
            let axes: Vec<String> =
                p.axes.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(
                s,
                "| {name} | {} | {} ({}) | {} of {} ({}) | {} | {} |",
                p.base,
                p.hosts_departing.hosts,
                pct(p.hosts_departing.share),
                p.verdicts_departing,
                p.verdicts,
                pct(p.verdicts_departing_share),
                p.unanswered,
                axes.join(", ")
            );
        }
    }
    s
}

/// A horizontal grouped bar chart: one group per agent, one bar per
/// parser, value in 0..=1.
fn bars(a: &Audit, value: impl Fn(&str, &str) -> f64, title: &str) -> String {
    let parsers = &a.setup.parsers;
    let bar_h = 9.0;
    let group_h = bar_h * parsers.len() as f64 + 8.0;
    let left = 150.0;
    let width = 520.0;
    let height = group_h * a.setup.agents.len() as f64 + 40.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{}\" height=\"{height}\"><title>{}</title>",
        left + width + 60.0,
        esc(title)
    );
    for (i, agent) in a.setup.agents.iter().enumerate() {
        let y0 = 20.0 + i as f64 * group_h;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">{}</text>",
            left - 6.0,
            y0 + group_h / 2.0,
            esc(agent)
        );
        for (j, p) in parsers.iter().enumerate() {
            let v = value(agent, p);
            let y = y0 + j as f64 * bar_h;
            let _ = write!(
                s,
                "<rect class=\"c{}\" x=\"{left}\" y=\"{y}\" width=\"{:.1}\" height=\"{}\"><title>{} {}: {}</title></rect>",
                j % 8,
                v * width,
                bar_h - 1.0,
                esc(agent),
                esc(p),
                pct(v)
            );
        }
    }
    let _ = write!(
        s,
        "<line x1=\"{left}\" x2=\"{left}\" y1=\"15\" y2=\"{}\" stroke=\"#444\"/>",
        height - 20.0
    );
    for t in 0..=4 {
        let x = left + width * t as f64 / 4.0;
        let _ = write!(
            s,
            "<text x=\"{x}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}%</text>",
            height - 6.0,
            t * 25
        );
    }
    s.push_str("</svg>");
    s
}

/// The HTML report.
pub fn html(a: &Audit) -> String {
    let mut s = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>robots.txt audit</title><style>\
body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
td:first-child,th:first-child{text-align:left}.c0{fill:#1f77b4}.c1{fill:#ff7f0e}.c2{fill:#2ca02c}.c3{fill:#d62728}.c4{fill:#9467bd}.c5{fill:#8c564b}.c6{fill:#e377c2}.c7{fill:#7f7f7f}\
.key span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}</style></head><body>",
    );
    let md = markdown(a);
    let first = md.lines().nth(2).unwrap_or_default();
    let _ = write!(s, "<h1>robots.txt audit</h1><p>{}</p>", esc(first));
    s.push_str("<p class=\"key\">");
    let colours = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f",
    ];
    for (j, p) in a.setup.parsers.iter().enumerate() {
        let _ = write!(
            s,
            "<span style=\"background:{}\"></span>{}",
            colours[j % 8],
            esc(p)
        );
    }
    s.push_str("</p><h2>Fully blocked share per agent, by parser</h2>");
    s.push_str(&bars(
        a,
        |agent, p| a.agents[agent].blocked[p].fully.share,
        "fully blocked share",
    ));
    s.push_str("<h2>Partly blocked share per agent, by parser</h2>");
    s.push_str(&bars(
        a,
        |agent, p| a.agents[agent].blocked[p].partly.share,
        "partly blocked share",
    ));
    s.push_str("<h2>Spread parser choice causes (fully blocked share, highest − lowest)</h2>");
    let left = 150.0;
    let width = 520.0;
    let h = 16.0 * a.setup.agents.len() as f64 + 10.0;
    let max = a
        .agents
        .values()
        .map(|g| g.spread.points)
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"{}\" height=\"{h}\"><title>spread</title>",
        left + width + 160.0
    );
    for (i, agent) in a.setup.agents.iter().enumerate() {
        let g = &a.agents[agent];
        let y = 5.0 + 16.0 * i as f64;
        let w = g.spread.points / max * width;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">{}</text><rect class=\"c3\" x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"12\"/><text x=\"{}\" y=\"{}\" font-size=\"10\">{:.2} pts ({} → {})</text>",
            left - 6.0,
            y + 10.0,
            esc(agent),
            left + w + 4.0,
            y + 10.0,
            g.spread.points * 100.0,
            esc(&g.spread.lowest),
            esc(&g.spread.highest)
        );
    }
    s.push_str("</svg><h2>Tables</h2><pre>");
    s.push_str(&esc(&md));
    s.push_str("</pre></body></html>\n");
    s
}
