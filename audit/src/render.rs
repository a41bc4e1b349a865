//! `audit.md` and `audit.html` from an [`Audit`]: the counts, per agent
//! the blocked share under each parser, the spread parser choice causes,
//! per adapter its departures by axis, and the AI usage preferences
//! (lines found, preferences per agent, contradictions with the crawl
//! rules, the grouping change). The HTML is self-contained
//! (inline CSS and SVG charts, no script). Reads only the aggregate.

use std::fmt::Write;

use crate::aggregate::{AI_KINDS, AiAgent, Audit, Share};

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn count(s: &Share) -> String {
    format!("{} ({})", s.hosts, pct(s.share))
}

/// The AI section's opening sentences (Markdown and HTML share them).
fn ai_summary(a: &Audit) -> Vec<String> {
    let ai = &a.ai;
    let label = |k: &str| match k {
        "content-usage" => "a Content-Usage line",
        "content-signal" => "a Content-Signal line",
        "content-signals" => {
            "a `Content-Signals` line (a misspelling, not read)"
        }
        _ => "any of them",
    };
    let kinds: Vec<String> = AI_KINDS
        .iter()
        .chain(&["any"])
        .filter_map(|k| {
            Some(format!("{} {}", label(k), count(ai.hosts_with.get(*k)?)))
        })
        .collect();
    let lines: Vec<String> =
        ai.lines.iter().map(|(k, n)| format!("{k} {n}")).collect();
    vec![
        format!("Audited hosts with {} (lines: {}).", kinds.join("; "), lines.join(", ")),
        format!(
            "Hosts whose Allow/Disallow verdicts change between a 2022 reader (rfc9309) and an aipref reader (a Content-Usage line ends a group's user-agent list): {}.",
            count(&ai.verdicts_change)
        ),
        "Content-Usage preferences at `/` under aipref, as shares of the hosts where the agent may crawl `/`; Content-Signal values that apply to the agent (scope: group); contradictions: the file states training allowed (Content-Usage train-ai=y or Content-Signal ai-train=yes, anywhere) yet the agent is fully blocked, or training is refused to the agent (at `/`) yet it may crawl `/`.".to_string(),
    ]
}

/// The cells of one agent's AI row.
fn ai_cells(g: &AiAgent) -> Vec<String> {
    let usage = |cat: &str| {
        g.usage.get(cat).map_or_else(String::new, |by| {
            ["y", "n", "unknown"]
                .iter()
                .map(|v| by.get(*v).map_or_else(String::new, |s| pct(s.share)))
                .collect::<Vec<_>>()
                .join(" / ")
        })
    };
    let signal = |cat: &str| {
        g.signals.get(cat).map_or_else(String::new, |by| {
            ["yes", "no"]
                .iter()
                .map(|v| by.get(*v).map_or(0, |s| s.hosts).to_string())
                .collect::<Vec<_>>()
                .join(" / ")
        })
    };
    vec![
        g.crawlable_root.to_string(),
        usage("train-ai"),
        usage("search"),
        signal("ai-train"),
        signal("ai-input"),
        signal("search"),
        count(&g.train_yes_but_blocked),
        count(&g.train_no_but_crawlable),
        count(&g.verdicts_change),
    ]
}

const AI_HEAD: [&str; 10] = [
    "agent",
    "may crawl / (hosts)",
    "train-ai y / n / unknown",
    "search y / n / unknown",
    "signal ai-train yes / no",
    "signal ai-input yes / no",
    "signal search yes / no",
    "training allowed, fully blocked",
    "training refused, may crawl /",
    "verdicts change (rfc9309 → aipref)",
];

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
    let _ = writeln!(s, "\n## AI usage preferences\n");
    for line in ai_summary(a) {
        let _ = writeln!(s, "{line}\n");
    }
    let _ = writeln!(
        s,
        "| {} |\n|---|{}",
        AI_HEAD.join(" | "),
        "---:|".repeat(AI_HEAD.len() - 1)
    );
    for agent in &a.setup.agents {
        let Some(g) = a.ai.agents.get(agent) else { continue };
        let _ = writeln!(s, "| {agent} | {} |", ai_cells(g).join(" | "));
    }
    s
}

/// The axis end for values up to `max`: the smallest of 5 %, 10 %, 25 %,
/// 50 %, 100 % that holds it (so small shares are not flat lines).
fn axis_end(max: f64) -> f64 {
    [0.05, 0.1, 0.25, 0.5, 1.0].into_iter().find(|e| max <= *e).unwrap_or(1.0)
}

fn tick_label(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// The axis under a chart spanning `(left, width)` and `(top, bottom)`:
/// gridlines and labelled ticks at fifths of `end` (1 %, 2 %, 5 %, 10 %
/// or 20 % apart), and the axis title.
fn axis(
    s: &mut String,
    (left, width): (f64, f64),
    (top, bottom): (f64, f64),
    end: f64,
    title: &str,
    label: impl Fn(f64) -> String,
) {
    for t in 0..=5 {
        let x = left + width * t as f64 / 5.0;
        let _ = write!(
            s,
            "<line x1=\"{x}\" x2=\"{x}\" y1=\"{top}\" y2=\"{bottom}\" stroke=\"#ddd\"/><text x=\"{x}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
            bottom + 12.0,
            label(end * t as f64 / 5.0)
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{left}\" x2=\"{left}\" y1=\"{top}\" y2=\"{bottom}\" stroke=\"#444\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
        left + width / 2.0,
        bottom + 26.0,
        esc(title)
    );
}

/// A horizontal grouped bar chart: one group per agent, one bar per
/// parser (labelled with its value), value in 0..=1; the axis ends at
/// [`axis_end`] of the largest value.
fn bars(
    a: &Audit,
    value: impl Fn(&str, &str) -> f64,
    title: &str,
    id: &str,
) -> String {
    let parsers = &a.setup.parsers;
    let bar_h = 10.0;
    let group_h = bar_h * parsers.len() as f64 + 10.0;
    let left = 150.0;
    let width = 560.0;
    let top = 10.0;
    let bottom = top + group_h * a.setup.agents.len() as f64;
    let height = bottom + 36.0;
    let max = a
        .setup
        .agents
        .iter()
        .flat_map(|g| parsers.iter().map(move |p| (g, p)))
        .map(|(g, p)| value(g, p))
        .fold(0.0f64, f64::max);
    let end = axis_end(max);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-labelledby=\"{id}-t {id}-d\" width=\"{}\" height=\"{height}\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">Per agent, one bar per parser ({}); the axis runs from 0 to {}; each bar is labelled with its share. The tables below hold the same numbers.</desc>",
        left + width + 70.0,
        esc(title),
        esc(&parsers.join(", ")),
        tick_label(end)
    );
    axis(
        &mut s,
        (left, width),
        (top, bottom),
        end,
        "share of audited hosts",
        tick_label,
    );
    for (i, agent) in a.setup.agents.iter().enumerate() {
        let y0 = top + 5.0 + i as f64 * group_h;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">{}</text>",
            left - 6.0,
            y0 + (group_h - 10.0) / 2.0 + 4.0,
            esc(agent)
        );
        for (j, p) in parsers.iter().enumerate() {
            let v = value(agent, p);
            let y = y0 + j as f64 * bar_h;
            let w = (v / end).min(1.0) * width;
            let _ = write!(
                s,
                "<rect class=\"c{}\" x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"{}\"><title>{} under {}: {}</title></rect><text x=\"{:.1}\" y=\"{}\" font-size=\"8\" fill=\"#333\">{}</text>",
                j % 8,
                bar_h - 1.5,
                esc(agent),
                esc(p),
                pct(v),
                left + w + 3.0,
                y + bar_h - 2.5,
                pct(v)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The spread chart: per agent, highest − lowest fully blocked share, in
/// points, with the two parsers named.
fn spread_chart(a: &Audit) -> String {
    let left = 150.0;
    let width = 400.0;
    let row = 18.0;
    let top = 10.0;
    let bottom = top + row * a.setup.agents.len() as f64;
    let height = bottom + 36.0;
    let max =
        a.agents.values().map(|g| g.spread.points).fold(0.0f64, f64::max);
    let end = axis_end(max);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-labelledby=\"spread-t spread-d\" width=\"{}\" height=\"{height}\"><title id=\"spread-t\">Spread of the fully blocked share across parsers</title><desc id=\"spread-d\">Per agent, the highest fully blocked share among the parsers minus the lowest, in percentage points, labelled with the two parsers.</desc>",
        left + width + 330.0
    );
    axis(
        &mut s,
        (left, width),
        (top, bottom),
        end,
        "percentage points",
        |v| format!("{:.0}", v * 100.0),
    );
    for (i, agent) in a.setup.agents.iter().enumerate() {
        let g = &a.agents[agent];
        let y = top + 3.0 + row * i as f64;
        let w = (g.spread.points / end).min(1.0) * width;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"11\">{}</text><rect class=\"c3\" x=\"{left}\" y=\"{y}\" width=\"{w:.1}\" height=\"12\"><title>{}: {:.2} points</title></rect><text x=\"{:.1}\" y=\"{}\" font-size=\"10\">{:.2} pts ({} → {})</text>",
            left - 6.0,
            y + 10.0,
            esc(agent),
            esc(agent),
            g.spread.points * 100.0,
            left + w + 4.0,
            y + 10.0,
            g.spread.points * 100.0,
            esc(&g.spread.lowest),
            esc(&g.spread.highest)
        );
    }
    s.push_str("</svg>");
    s
}

/// The blocked-share table: per agent and parser, fully (partly).
fn blocked_table(a: &Audit) -> String {
    let mut s = String::from(
        "<table><caption>Share of audited hosts fully blocked (every probe disallowed), partly blocked in parentheses</caption><thead><tr><th scope=\"col\">agent</th>",
    );
    for p in &a.setup.parsers {
        let _ = write!(s, "<th scope=\"col\">{}</th>", esc(p));
    }
    s.push_str("<th scope=\"col\">named (rfc9309)</th><th scope=\"col\">spread</th></tr></thead><tbody>");
    for agent in &a.setup.agents {
        let Some(g) = a.agents.get(agent) else { continue };
        let _ = write!(s, "<tr><th scope=\"row\">{}</th>", esc(agent));
        for p in &a.setup.parsers {
            let b = &g.blocked[p];
            let _ = write!(
                s,
                "<td>{} <small>({})</small></td>",
                pct(b.fully.share),
                pct(b.partly.share)
            );
        }
        let named = g.named.get("rfc9309").map_or(0.0, |n| n.share);
        let _ = write!(
            s,
            "<td>{}</td><td>{:.2} pts</td></tr>",
            pct(named),
            g.spread.points * 100.0
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// The departures table.
fn departures_table(a: &Audit) -> String {
    let mut s = String::from(
        "<table><caption>Where each parser departs from the oracle (under the profile it claims)</caption><thead><tr><th scope=\"col\">parser</th><th scope=\"col\">compared with</th><th scope=\"col\">hosts departing</th><th scope=\"col\">verdicts departing</th><th scope=\"col\">unanswered</th><th scope=\"col\" class=\"axes\">by axis</th></tr></thead><tbody>",
    );
    for (name, p) in &a.parsers {
        let axes: Vec<String> =
            p.axes.iter().map(|(k, n)| format!("{} {n}", esc(k))).collect();
        let _ = write!(
            s,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{} ({})</td><td>{} of {} ({})</td><td>{}</td><td class=\"axes\">{}</td></tr>",
            esc(name),
            esc(&p.base),
            p.hosts_departing.hosts,
            pct(p.hosts_departing.share),
            p.verdicts_departing,
            p.verdicts,
            pct(p.verdicts_departing_share),
            p.unanswered,
            axes.join(", ")
        );
    }
    s.push_str("</tbody></table>");
    s
}

/// The AI section of the HTML report.
fn ai_section(a: &Audit) -> String {
    let mut s = String::from("<h2>AI usage preferences</h2>");
    for line in ai_summary(a) {
        let _ = write!(s, "<p>{}</p>", esc(&line));
    }
    s.push_str(
        "<table><caption>AI usage preferences per agent</caption><thead><tr>",
    );
    for h in AI_HEAD {
        let _ = write!(s, "<th scope=\"col\">{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>");
    for agent in &a.setup.agents {
        let Some(g) = a.ai.agents.get(agent) else { continue };
        let _ = write!(s, "<tr><th scope=\"row\">{}</th>", esc(agent));
        for c in ai_cells(g) {
            let _ = write!(s, "<td>{}</td>", esc(&c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}

/// The HTML report.
pub fn html(a: &Audit) -> String {
    let mut s = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>robots.txt audit</title><style>\
body{font:14px system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
td:first-child,th:first-child{text-align:left}td{white-space:nowrap}caption{text-align:left;font-weight:bold;padding:4px 0}.axes{text-align:left;white-space:normal;max-width:420px}\
.c0{fill:#1f77b4}.c1{fill:#ff7f0e}.c2{fill:#2ca02c}.c3{fill:#d62728}.c4{fill:#9467bd}.c5{fill:#8c564b}.c6{fill:#e377c2}.c7{fill:#7f7f7f}\
.key{margin:0}.key li{display:inline-block;margin-right:14px}.key span{display:inline-block;width:10px;height:10px;margin-right:4px}svg{display:block;margin:0.5em 0 1.5em}</style></head><body>",
    );
    let md = markdown(a);
    let _ = write!(s, "<h1>robots.txt audit</h1>");
    for para in md.split("\n\n").skip(1) {
        if para.starts_with('#') || para.starts_with('|') {
            break;
        }
        let _ = write!(s, "<p>{}</p>", esc(para).replace('\n', "<br>"));
    }
    s.push_str("<ul class=\"key\" aria-label=\"parser colours\">");
    let colours = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f",
    ];
    for (j, p) in a.setup.parsers.iter().enumerate() {
        let _ = write!(
            s,
            "<li><span style=\"background:{}\" aria-hidden=\"true\"></span>{}</li>",
            colours[j % 8],
            esc(p)
        );
    }
    s.push_str("</ul><h2>Fully blocked share per agent, by parser</h2>");
    s.push_str(&bars(
        a,
        |agent, p| a.agents[agent].blocked[p].fully.share,
        "Fully blocked share per agent, by parser",
        "fully",
    ));
    s.push_str("<h2>Partly blocked share per agent, by parser</h2>");
    s.push_str(&bars(
        a,
        |agent, p| a.agents[agent].blocked[p].partly.share,
        "Partly blocked share per agent, by parser",
        "partly",
    ));
    s.push_str("<h2>Spread parser choice causes (fully blocked share, highest − lowest)</h2>");
    s.push_str(&spread_chart(a));
    if let Some(l) = &a.largest_spread {
        let _ = write!(
            s,
            "<p>Largest spread: {} — {:.2} points between {} and {}.</p>",
            esc(&l.agent),
            l.spread.points * 100.0,
            esc(&l.spread.lowest),
            esc(&l.spread.highest)
        );
    }
    s.push_str("<h2>Tables</h2>");
    s.push_str(&blocked_table(a));
    if !a.parsers.is_empty() {
        s.push_str(&departures_table(a));
    }
    s.push_str(&ai_section(a));
    s.push_str("</body></html>\n");
    s
}
