//! A [`History`] written out: `history.json` (the data), `history.md`
//! (scores per release, fitted readings, changes) and `history.html` (the
//! same, self-contained, with an inline SVG chart of the scores per level
//! over the releases and the changes as a table), each file written to a
//! temporary file and renamed.
//!
//! It only renders what the history holds; it never computes a score.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use robots_runner::output::{OutDir, OutputError, atomic_write};

use crate::history::{Change, History, Movement};

/// Changes shown per pair of releases in history.md and history.html at
/// most (history.json holds them all).
pub const SHOWN_CHANGES: usize = 200;

/// An answer shown in a table at most this long.
const SHOWN_ANSWER: usize = 120;

/// Writes `history.json`, `history.md` and `history.html` into `dir`;
/// their paths.
///
/// # Errors
///
/// When the folder cannot be made or a file cannot be written, naming it.
pub fn write_history(
    dir: &Path,
    h: &History,
) -> Result<Vec<PathBuf>, OutputError> {
    let out = OutDir::claim(dir)?;
    let json = serde_json::to_vec_pretty(h).unwrap_or_default();
    let files = [
        ("history.json", json),
        ("history.md", markdown(h).into_bytes()),
        ("history.html", html(h).into_bytes()),
    ];
    let mut written = Vec::new();
    for (name, body) in files {
        let path = out.path().join(name);
        atomic_write(&path, &body)?;
        written.push(path);
    }
    Ok(written)
}

fn score(r: &crate::history::Release, level: &str) -> String {
    match r.levels.get(level) {
        Some([p, t]) if *t > 0 => {
            format!("{:.1}% ({p}/{t})", 100.0 * *p as f64 / *t as f64)
        }
        _ => "–".into(),
    }
}

fn cut(s: &str) -> String {
    let one = s.lines().next().unwrap_or_default();
    if one.chars().count() <= SHOWN_ANSWER && !s.contains('\n') {
        return one.to_string();
    }
    let head: String = one.chars().take(SHOWN_ANSWER).collect();
    format!("{head}…")
}

fn pairs(h: &History) -> Vec<(String, String)> {
    let ran: Vec<&str> = h
        .releases
        .iter()
        .filter(|r| r.ran())
        .map(|r| r.version.as_str())
        .collect();
    ran.windows(2).map(|w| (w[0].to_string(), w[1].to_string())).collect()
}

fn word(m: Movement) -> &'static str {
    match m {
        Movement::Fixed => "fixed",
        Movement::Regressed => "regressed",
        Movement::Other => "changed",
    }
}

/// history.md.
pub fn markdown(h: &History) -> String {
    let mut s = String::new();
    let levels = h.levels();
    let _ = writeln!(s, "# {} over its releases\n", h.adapter);
    let _ = writeln!(
        s,
        "Outcomes counted under `{}`; cases from `{}`.\n",
        h.profile, h.cases_dir
    );
    let _ = write!(s, "| release | reported | status |");
    for l in &levels {
        let _ = write!(s, " {l} |");
    }
    let _ = writeln!(s, " fitted reading |");
    let _ = writeln!(s, "|---|---|---|{}---|", "---|".repeat(levels.len()));
    for r in &h.releases {
        let _ = write!(
            s,
            "| {} | {} | {} |",
            r.version,
            r.reported,
            md_cell(&r.status)
        );
        for l in &levels {
            let _ = write!(s, " {} |", score(r, l));
        }
        let _ = writeln!(
            s,
            " {} |",
            md_cell(r.fingerprint.as_deref().unwrap_or("–"))
        );
    }
    for (from, to) in pairs(h) {
        let (fixed, regressed, other) = h.tally(&from, &to);
        let _ = writeln!(
            s,
            "\n## {from} → {to}: {fixed} fixed, {regressed} regressed, {other} other changes\n"
        );
        let list: Vec<&Change> = h
            .changes
            .iter()
            .filter(|c| c.from == from && c.to == to)
            .collect();
        if list.is_empty() {
            let _ = writeln!(s, "No check changed its outcome.");
            continue;
        }
        let _ = writeln!(
            s,
            "| change | check | level | clauses | expected | {from} | {to} |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|");
        for c in list.iter().take(SHOWN_CHANGES) {
            let _ = writeln!(
                s,
                "| {} | `{}` | {} | {} | {} | {}: {} | {}: {} |",
                word(c.movement),
                c.check,
                c.level,
                c.clauses.join(" "),
                md_cell(&cut(&c.expect)),
                c.before.outcome,
                md_cell(&cut(&c.before.answer)),
                c.after.outcome,
                md_cell(&cut(&c.after.answer)),
            );
        }
        if list.len() > SHOWN_CHANGES {
            let _ = writeln!(
                s,
                "\n… and {} more (all in history.json).",
                list.len() - SHOWN_CHANGES
            );
        }
    }
    s
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const COLOURS: [&str; 6] =
    ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

/// The chart: one line per level, the percentage passed per release that
/// ran (releases that did not run leave a gap in the x axis, labelled).
pub fn chart(h: &History) -> String {
    let levels = h.levels();
    let (w, ht, left, top, bottom) = (720.0, 300.0, 48.0, 16.0, 56.0);
    let n = h.releases.len().max(1);
    let step = if n > 1 { (w - left - 24.0) / (n - 1) as f64 } else { 0.0 };
    let x = |i: usize| {
        left + step * i as f64 + if n == 1 { (w - left) / 2.0 } else { 0.0 }
    };
    let y = |p: f64| top + (ht - top - bottom) * (1.0 - p / 100.0);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {ht}\" \
         role=\"img\" aria-labelledby=\"chart-title\" style=\"max-width:100%;height:auto\">\
         <title id=\"chart-title\">{} scores per level over its releases</title>",
        escape(&h.adapter)
    );
    for p in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let _ = write!(
            s,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{p}%</text>",
            w - 8.0,
            left - 4.0,
            y(p) + 4.0,
            y = y(p)
        );
    }
    for (i, r) in h.releases.iter().enumerate() {
        let label = if r.ran() {
            r.version.clone()
        } else {
            format!("{} (n/a)", r.version)
        };
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
            x(i),
            ht - bottom + 16.0,
            escape(&label)
        );
    }
    for (k, level) in levels.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<String> = h
            .releases
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                r.percent(level).map(|p| format!("{:.1},{:.1}", x(i), y(p)))
            })
            .collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            points.join(" ")
        );
        for (i, r) in h.releases.iter().enumerate() {
            if let Some(p) = r.percent(level) {
                let _ = write!(
                    s,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\">\
                     <title>{} {level}: {p:.1}%</title></circle>",
                    x(i),
                    y(p),
                    escape(&r.version)
                );
            }
        }
        let lx = left + 90.0 * k as f64;
        let _ = write!(
            s,
            "<rect x=\"{lx}\" y=\"{}\" width=\"12\" height=\"4\" fill=\"{colour}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\">{level}</text>",
            ht - 18.0,
            lx + 16.0,
            ht - 13.0
        );
    }
    s.push_str("</svg>");
    s
}

/// history.html: self-contained (no script, no external file).
pub fn html(h: &History) -> String {
    let mut s = String::new();
    let title = format!("{} over its releases", h.adapter);
    let _ = write!(
        s,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{t}</title><style>body{{font-family:system-ui,sans-serif;margin:1rem;max-width:72rem}}\
         table{{border-collapse:collapse;font-size:.9rem}}td,th{{border:1px solid #ccc;padding:.2rem .4rem;\
         vertical-align:top}}td.fixed{{color:#1a7f37}}td.regressed{{color:#b42318}}\
         code{{word-break:break-all}}.scroll{{overflow-x:auto}}</style></head><body><h1>{t}</h1>\
         <p>Outcomes counted under <code>{p}</code>; cases from <code>{c}</code>.</p>",
        t = escape(&title),
        p = escape(&h.profile),
        c = escape(&h.cases_dir)
    );
    s.push_str(&chart(h));
    let levels = h.levels();
    s.push_str("<div class=\"scroll\"><table><caption>Scores per release</caption><tr><th scope=\"col\">release</th><th scope=\"col\">reported</th><th scope=\"col\">status</th>");
    for l in &levels {
        let _ = write!(s, "<th scope=\"col\">{}</th>", escape(l));
    }
    s.push_str("<th scope=\"col\">fitted reading</th></tr>");
    for r in &h.releases {
        let _ = write!(
            s,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td>",
            escape(&r.version),
            escape(&r.reported),
            escape(&r.status)
        );
        for l in &levels {
            let _ = write!(s, "<td>{}</td>", escape(&score(r, l)));
        }
        let _ = write!(
            s,
            "<td>{}</td></tr>",
            escape(r.fingerprint.as_deref().unwrap_or("–"))
        );
    }
    s.push_str("</table></div>");
    for (from, to) in pairs(h) {
        let (fixed, regressed, other) = h.tally(&from, &to);
        let _ = write!(
            s,
            "<h2>{} → {}: {fixed} fixed, {regressed} regressed, {other} other changes</h2>",
            escape(&from),
            escape(&to)
        );
        let list: Vec<&Change> = h
            .changes
            .iter()
            .filter(|c| c.from == from && c.to == to)
            .collect();
        if list.is_empty() {
            s.push_str("<p>No check changed its outcome.</p>");
            continue;
        }
        let _ = write!(
            s,
            "<div class=\"scroll\"><table><tr><th scope=\"col\">change</th><th scope=\"col\">check</th>\
             <th scope=\"col\">level</th><th scope=\"col\">clauses</th><th scope=\"col\">expected</th>\
             <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr>",
            escape(&from),
            escape(&to)
        );
        for c in list.iter().take(SHOWN_CHANGES) {
            let _ = write!(
                s,
                "<tr><td class=\"{w}\">{w}</td><td><code>{}</code></td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}: {}</td><td>{}: {}</td></tr>",
                escape(&c.check),
                escape(&c.level),
                escape(&c.clauses.join(" ")),
                escape(&cut(&c.expect)),
                escape(&c.before.outcome),
                escape(&cut(&c.before.answer)),
                escape(&c.after.outcome),
                escape(&cut(&c.after.answer)),
                w = word(c.movement)
            );
        }
        s.push_str("</table></div>");
        if list.len() > SHOWN_CHANGES {
            let _ = write!(
                s,
                "<p>… and {} more (all in history.json).</p>",
                list.len() - SHOWN_CHANGES
            );
        }
    }
    s.push_str("</body></html>\n");
    s
}
