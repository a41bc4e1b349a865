//! For a switch of the oracle that explains why some parsers read a file
//! differently, what those parsers do and a concrete rewrite of the
//! file that every reading decides alike: reorder a group's rules
//! longest first, gather the user-agent lines of a group, drop a BOM,
//! write a path the way crawlers send it, ... The lines come from the
//! oracle's parse of the file and from its own text. Never decides a
//! verdict: which switch applies is `robots_oracle::classify`'s answer.

use robots_oracle::{
    AgentToken, DiagnosticKind, GOOGLE_LINE_BYTES, Group, Profile, RobotsTxt,
    RuleKind, is_valid_product_token,
};

use super::report::Rewrite;
use super::text::Text;

/// Lines quoted in one rewrite at most.
const MAX_LINES: usize = 12;

/// What a finding's example says about where the oracle decided.
pub struct Context<'a> {
    /// The file.
    pub body: &'a [u8],
    /// Its lines.
    pub text: &'a Text,
    /// The oracle's profile.
    pub profile: &'a Profile,
    /// The example's URL path.
    pub url: &'a str,
    /// The line of the rule that decided for the oracle.
    pub line: Option<u32>,
}

/// What the parsers of `switch` (one name, or a `+`-joined pair, or
/// `unexplained` / `not-classified`) do, and how to rewrite the file.
pub fn advise(switch: &str, cx: &Context<'_>) -> (String, Rewrite) {
    let first = switch.split('+').next().unwrap_or(switch);
    let (field, value) = first.split_once('=').unwrap_or((first, ""));
    let robots = RobotsTxt::parse(cx.body, cx.profile);
    let (why, mut rw) = match field {
        "precedence" | "priority" | "tie_goes_to_allow" => {
            precedence(field, value, &robots, cx)
        }
        "wildcards" | "encode_url_star_dollar" => wildcards(value, &robots, cx),
        "records_end_agent_list"
        | "delay_records_end_agent_list"
        | "content_usage_rule" => {
            agent_lists(field, cx)
        }
        "blank_line_ends_group" | "only_empty_line_ends_group" => {
            blank_lines(&robots, cx)
        }
        "groups_obeyed" => repeated_groups(&robots, cx),
        "star_groups_join_named" => (
            "these parsers apply the `*` group's rules to a crawler that also has a group of its own (or the reverse): RFC 9309 obeys only the named group".to_string(),
            advice(
                "repeat in each named group every `*` rule you want that crawler to obey, so that both readings give the same rules",
                agent_lines(&robots, cx, |_| true),
                cx,
            ),
        ),
        "preamble_rules" => preamble(cx),
        "agent_match" | "agent_value_prefix" | "star_with_suffix_is_global"
        | "invalid_agent_ends_group" => agent_values(field, &robots, cx),
        "agent_case_sensitive" => (
            "these parsers compare a user-agent value with the crawler's name in the case written, so `googlebot` does not name `Googlebot`".to_string(),
            advice(
                "write each user-agent value exactly as the crawler spells its product token (`Googlebot`, not `googlebot` or `GOOGLEBOT`)",
                agent_lines(&robots, cx, |t| matches!(t, AgentToken::Named(_))),
                cx,
            ),
        ),
        "decode_every_escape" => (
            "these parsers decode every percent-escape before comparing, reserved characters too, so `/a%2Fb` is `/a/b` and `%3F` is `?` to them".to_string(),
            advice(
                "do not rely on an escaped reserved character (`%2F`, `%3F`, `%3D`, `%25`, ...) in a rule: write the rule for the path as crawlers request it, or add a rule for each spelling",
                rules_with(&robots, |v| v.contains('%')),
                cx,
            ),
        ),
        "dot_segments" => (
            "these parsers resolve `.` and `..` segments of a URL before matching (`https://example.com/a/../b` is `/b` to some, `/a/../b` too to others)".to_string(),
            advice(
                "nothing in the file causes this: it concerns URLs with `.` or `..` segments, which these parsers resolve and others match as written; link to resolved URLs",
                vec![],
                cx,
            ),
        ),
        "key_typos" | "key_prefix_match" | "missing_colon" => line_syntax(cx),
        "bom" => bom(cx),
        "cr_ends_line" | "nul_ends_line" => (
            "the file holds a lone CR or a NUL octet, which some parsers take as a line end and others do not".to_string(),
            advice("save the file with LF (or CRLF) line ends only and no NUL octets", vec![], cx),
        ),
        "require_pattern_start" => (
            "a rule's path does not start with `/`: some parsers ignore the rule, others prefix it".to_string(),
            rules_rewritten(&robots, cx, "start every path with `/` (`*.gif` → `/*.gif`)", |v| {
                (!v.is_empty() && !v.starts_with('/')).then(|| format!("/{v}"))
            }),
        ),
        "parse_limit" | "max_line_bytes" => (
            format!("the file or one of its lines is longer than some parsers read (500 KiB; Google cuts lines at {GOOGLE_LINE_BYTES} bytes)"),
            advice("keep the file under 500 KiB and every line short: what is past the limit is ignored by some parsers only", long_lines(cx), cx),
        ),
        "decode_unreserved" | "encode_url_non_ascii" | "uppercase_url_hex"
        | "uppercase_rule_hex" | "reject_invalid_utf8_patterns" => (
            "these parsers compare a path with percent-encoding or non-ASCII octets in another form than the oracle".to_string(),
            rules_rewritten(&robots, cx, "write every path as crawlers send it: non-ASCII as percent-encoded UTF-8 with uppercase hex (`/café` → `/caf%C3%A9`), unreserved characters (A–Z a–z 0–9 - . _ ~) not encoded (`/%7Euser` → `/~user`)", normal_form),
        ),
        "implicit_robots_txt_allow" => (
            "some parsers always allow /robots.txt itself, whatever the rules".to_string(),
            advice("do not disallow /robots.txt: crawlers must be able to read it", vec![], cx),
        ),
        "index_html_is_dir" => (
            "Google reads a rule for `/dir/index.html` as one for `/dir/` too; others do not".to_string(),
            advice("write the rule for the directory (`/dir/$`) and for `/dir/index.html` both, explicitly", vec![], cx),
        ),
        "not-classified" => (
            "more disagreements than the classification cap: not explained one by one".to_string(),
            advice("fix the findings above and lint again (or raise --classify-max)", vec![], cx),
        ),
        _ => (
            "no switch of the oracle (nor a pair) explains this reading: these parsers read the file their own way (the bug register says what is known, where a parser has an entry: BUGS)".to_string(),
            advice(
                "simplify the rule that decides this URL (shown), or add an explicit rule for the URL",
                cx.line.into_iter().collect(),
                cx,
            ),
        ),
    };
    if let Some(second) = switch.split('+').nth(1) {
        rw.advice.push_str(&format!(
            " (together with {second}: both behaviours are needed to give their verdict)"
        ));
    }
    let dollar_matters =
        matches!(field, "wildcards" | "encode_url_star_dollar")
            || cx.line.is_some_and(|l| has_mid_dollar(&cx.text.content(l)));
    if dollar_matters && let Some(note) = mid_dollar(&robots, cx) {
        rw.advice.push_str(&note);
    }
    (why, rw)
}

/// A rewrite with no text change: the advice and the lines it concerns,
/// quoted.
fn advice(text: &str, lines: Vec<u32>, cx: &Context<'_>) -> Rewrite {
    let lines: Vec<u32> = lines.into_iter().take(MAX_LINES).collect();
    Rewrite {
        advice: text.to_string(),
        before: lines.iter().map(|l| cx.text.quote(*l)).collect(),
        lines,
        after: Vec::new(),
    }
}

/// The group whose rules hold the line `line`.
fn group_of(robots: &RobotsTxt, line: Option<u32>) -> Option<&Group> {
    let line = line?;
    robots.groups().iter().find(|g| g.rules.iter().any(|r| r.line == line))
}

fn precedence(
    field: &str,
    value: &str,
    robots: &RobotsTxt,
    cx: &Context<'_>,
) -> (String, Rewrite) {
    let why = match (field, value) {
        ("precedence", "first-match") => "these parsers take the first rule in file order that matches, not the longest (most specific) one".to_string(),
        ("precedence", _) => "these parsers take the longest matching rule, where the oracle's reading takes the first in file order".to_string(),
        ("priority", _) => "these parsers measure a wildcard rule's length differently (the pattern's octets or the octets it matched), so another rule wins".to_string(),
        _ => "an Allow and a Disallow rule of the same length match the URL: these parsers break the tie the other way".to_string(),
    };
    let Some(group) = group_of(robots, cx.line) else {
        return (
            why,
            advice(
                "order each group's rules longest path first, so the first match is also the longest",
                vec![],
                cx,
            ),
        );
    };
    let mut rules: Vec<_> = group.rules.iter().collect();
    if rules.len() > MAX_LINES {
        // Only the rules whose literal start the URL begins with matter.
        rules.retain(|r| {
            let v = &r.value[..];
            let lit = &v[..v
                .iter()
                .position(|b| *b == b'*' || *b == b'$')
                .unwrap_or(v.len())];
            cx.url.as_bytes().starts_with(lit)
        });
        rules.truncate(MAX_LINES);
    }
    let lines: Vec<u32> = rules.iter().map(|r| r.line).collect();
    let mut sorted = rules.clone();
    // Longest first; on a tie the Allow first (RFC 9309: the least
    // restrictive rule wins a tie), so a first-match reader agrees.
    sorted.sort_by_key(|r| {
        (std::cmp::Reverse(r.value.len()), r.kind != RuleKind::Allow)
    });
    let text = if field == "tie_goes_to_allow" {
        "two rules of the same length match: remove the one you do not mean, or make the one you mean longer (e.g. end it with `$` or a longer path)"
    } else {
        "order the group's rules longest path first (on equal length, Allow first), so the first rule that matches is also the longest: the oracle's reading is unchanged and first-match parsers now agree"
    };
    let rw = Rewrite {
        advice: text.to_string(),
        before: lines.iter().map(|l| cx.text.quote(*l)).collect(),
        after: if field == "tie_goes_to_allow" {
            Vec::new()
        } else {
            sorted.iter().map(|r| cx.text.quote(r.line)).collect()
        },
        lines,
    };
    (why, rw)
}

fn wildcards(
    value: &str,
    robots: &RobotsTxt,
    cx: &Context<'_>,
) -> (String, Rewrite) {
    let why = if value == "false" {
        "these parsers do not know wildcards: they read `*` and `$` in a path as literal characters".to_string()
    } else {
        "these parsers read `*` or `$` in a rule (or a URL) differently from the oracle".to_string()
    };
    let rw = rules_rewritten(
        robots,
        cx,
        "a trailing `*` is redundant: drop it (`/private/*` → `/private/`); a `*` or `$` elsewhere has no form every parser reads alike: list the paths literally if you can",
        |v| {
            let trimmed = v.trim_end_matches('*');
            (trimmed.len() < v.len()
                && !trimmed.contains(['*', '$'])
                && !trimmed.is_empty())
            .then(|| trimmed.to_string())
        },
    );
    let wild: Vec<u32> = robots
        .groups()
        .iter()
        .flat_map(|g| &g.rules)
        .filter(|r| r.value.iter().any(|b| *b == b'*' || *b == b'$'))
        .map(|r| r.line)
        .take(MAX_LINES)
        .collect();
    if rw.lines.is_empty() {
        return (why, advice(&rw.advice, wild, cx));
    }
    (why, rw)
}

/// The rules whose value `rewrite` changes, before and after, under
/// `text`; none changed: the advice alone.
fn rules_rewritten(
    robots: &RobotsTxt,
    cx: &Context<'_>,
    text: &str,
    rewrite: impl Fn(&str) -> Option<String>,
) -> Rewrite {
    let mut rw = Rewrite {
        advice: text.to_string(),
        lines: vec![],
        before: vec![],
        after: vec![],
    };
    let mut lines: Vec<(u32, String)> = Vec::new();
    for g in robots.groups() {
        for r in &g.rules {
            let v = String::from_utf8_lossy(&r.value);
            if let Some(new) = rewrite(&v) {
                lines.push((r.line, new));
            }
        }
    }
    // Rules the parse ignored (a path without `/`) are only in the text.
    for d in robots.diagnostics() {
        if d.kind == DiagnosticKind::InvalidPattern {
            let c = cx.text.content(d.line);
            if let Some((_, v)) = c.split_once(':')
                && let Some(new) = rewrite(v.trim())
            {
                lines.push((d.line, new));
            }
        }
    }
    lines.sort();
    lines.dedup_by_key(|(l, _)| *l);
    for (line, new) in lines.into_iter().take(MAX_LINES) {
        let content = cx.text.content(line);
        let key = content
            .split_once(':')
            .map(|(k, _)| k.trim())
            .unwrap_or("Disallow");
        rw.lines.push(line);
        rw.before.push(cx.text.quote(line));
        rw.after.push(format!("{key}: {new}"));
    }
    rw
}

/// The lines of the rules whose value `pick` chooses, in file order.
fn rules_with(robots: &RobotsTxt, pick: impl Fn(&str) -> bool) -> Vec<u32> {
    let mut lines: Vec<u32> = robots
        .groups()
        .iter()
        .flat_map(|g| &g.rules)
        .filter(|r| pick(&String::from_utf8_lossy(&r.value)))
        .map(|r| r.line)
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines.truncate(MAX_LINES);
    lines
}

/// A path in the form crawlers send: non-ASCII octets percent-encoded
/// with uppercase hex, hex digits of `%XX` uppercase, unreserved
/// characters decoded; `None` when it is in that form already.
fn normal_form(v: &str) -> Option<String> {
    let b = v.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            let hex = &v[i + 1..i + 3];
            let n = u8::from_str_radix(hex, 16).unwrap_or(0);
            if n.is_ascii_alphanumeric() || b"-._~".contains(&n) {
                out.push(n as char);
            } else {
                out.push_str(&format!("%{:02X}", n));
            }
            i += 3;
        } else if c >= 0x80 {
            out.push_str(&format!("%{c:02X}"));
            i += 1;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    (out != v).then_some(out)
}

/// The significant lines of the text: (number, lowercase key, line).
fn keyed(cx: &Context<'_>) -> Vec<(u32, String)> {
    (1..=cx.text.len() as u32)
        .filter_map(|n| {
            let c = cx.text.content(n);
            if c.is_empty() {
                return None;
            }
            let key = c.split([':', ' ', '\t']).next().unwrap_or("");
            Some((n, key.trim_start_matches('\u{feff}').to_ascii_lowercase()))
        })
        .collect()
}

/// Lines between two user-agent lines of one list that are not
/// user-agent lines (`Content-Usage`, unknown keys, ...): each such run
/// with the user-agent lines around it, and the same lines with the
/// user-agent lines first.
fn agent_lists(field: &str, cx: &Context<'_>) -> (String, Rewrite) {
    let why = if field == "content_usage_rule" {
        "a Content-Usage line is a rule to readers of the AI preferences draft and an unknown line to others; between user-agent lines or before the rules it splits the group differently".to_string()
    } else {
        "a line that is not a user-agent line (an unknown directive, Content-Usage, a comment-like line) between user-agent lines ends the list of crawlers for some parsers: the user-agent lines after it start a new group".to_string()
    };
    let lines = keyed(cx);
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut concerned = Vec::new();
    let mut i = 0;
    while i < lines.len() && concerned.len() < MAX_LINES {
        if lines[i].1 != "user-agent" {
            i += 1;
            continue;
        }
        // A block: user-agent lines, interleaved with others, up to the
        // first rule after the last user-agent line.
        let start = i;
        let mut last_ua = i;
        let mut j = i;
        while j < lines.len()
            && !matches!(lines[j].1.as_str(), "allow" | "disallow")
        {
            if lines[j].1 == "user-agent" {
                last_ua = j;
            }
            j += 1;
        }
        let block = &lines[start..=last_ua];
        if block.iter().any(|(_, k)| k != "user-agent") {
            let (uas, others): (Vec<_>, Vec<_>) =
                block.iter().partition(|(_, k)| k == "user-agent");
            for (n, _) in block {
                concerned.push(*n);
                before.push(cx.text.quote(*n));
            }
            for (n, _) in uas.iter().chain(others.iter()) {
                after.push(cx.text.quote(*n));
            }
        }
        i = last_ua + 1;
    }
    (
        why,
        Rewrite {
            advice: "put a group's user-agent lines together, one after the other, and every other line of the group (Content-Usage, crawl-delay, ...) after them".into(),
            lines: concerned,
            before,
            after,
        },
    )
}

fn blank_lines(robots: &RobotsTxt, cx: &Context<'_>) -> (String, Rewrite) {
    let mut blanks = Vec::new();
    for g in robots.groups() {
        let (Some(first), Some(last)) =
            (g.agents.first(), g.rules.iter().map(|r| r.line).max())
        else {
            continue;
        };
        for n in first.line..last {
            if cx.text.quote(n).trim().is_empty() {
                blanks.push(n);
            }
        }
    }
    (
        "these parsers end a group at a blank line: rules after a blank line inside a group belong to no crawler for them".to_string(),
        advice("remove the blank lines inside each group (keep one only between groups)", blanks, cx),
    )
}

fn repeated_groups(robots: &RobotsTxt, cx: &Context<'_>) -> (String, Rewrite) {
    let mut seen: Vec<(String, u32)> = Vec::new();
    let mut lines = Vec::new();
    for g in robots.groups() {
        for a in &g.agents {
            let name = match &a.token {
                AgentToken::Named(n) => n.to_ascii_lowercase(),
                AgentToken::Global => "*".into(),
                _ => continue,
            };
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                lines.push(*first);
                lines.push(a.line);
            } else {
                seen.push((name, a.line));
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    (
        "several groups name the same crawler: these parsers obey only the first (or the last) of them, the oracle merges them".to_string(),
        advice("merge the groups that name the same crawler into one group", lines, cx),
    )
}

fn preamble(cx: &Context<'_>) -> (String, Rewrite) {
    let lines: Vec<u32> = keyed(cx)
        .into_iter()
        .take_while(|(_, k)| k != "user-agent")
        .filter(|(_, k)| matches!(k.as_str(), "allow" | "disallow"))
        .map(|(n, _)| n)
        .take(MAX_LINES)
        .collect();
    let mut after = vec!["User-agent: *".to_string()];
    after.extend(lines.iter().map(|l| cx.text.quote(*l)));
    (
        "rules before the first user-agent line: these parsers apply them (to every crawler, or to the `*` group), RFC 9309 ignores them".to_string(),
        Rewrite {
            advice: "put the rules under a user-agent line: `User-agent: *` if they are meant for every crawler, or delete them".into(),
            before: lines.iter().map(|l| cx.text.quote(*l)).collect(),
            after: if lines.is_empty() { vec![] } else { after },
            lines,
        },
    )
}

/// The user-agent lines of groups `keep` selects.
fn agent_lines(
    robots: &RobotsTxt,
    _cx: &Context<'_>,
    keep: impl Fn(&AgentToken) -> bool,
) -> Vec<u32> {
    robots
        .groups()
        .iter()
        .flat_map(|g| &g.agents)
        .filter(|a| keep(&a.token))
        .map(|a| a.line)
        .take(MAX_LINES)
        .collect()
}

fn agent_values(
    field: &str,
    _robots: &RobotsTxt,
    cx: &Context<'_>,
) -> (String, Rewrite) {
    let why = match field {
        "agent_match" => {
            "these parsers match the crawler's name to a user-agent line differently (as a substring, a prefix, or exactly)"
        }
        "star_with_suffix_is_global" => {
            "a user-agent value such as `*bot` or `Google*` is the `*` group for some parsers and names no crawler for others"
        }
        _ => {
            "a user-agent value that is not a bare product token (`Googlebot/2.1`, `Mozilla/5.0 (…)`) is cut to its token by some parsers and ignored (or taken whole) by others"
        }
    };
    let mut rw = Rewrite {
        advice: "write each user-agent value as the crawler's bare product token (letters, digits, `-` and `_`): `Googlebot`, not `Googlebot/2.1` or `Googlebot*`".into(),
        lines: vec![],
        before: vec![],
        after: vec![],
    };
    for (n, key) in keyed(cx) {
        if key != "user-agent" || rw.lines.len() >= MAX_LINES {
            continue;
        }
        let content = cx.text.content(n);
        let value =
            content.split_once(':').map(|(_, v)| v.trim()).unwrap_or("");
        if value == "*" || is_valid_product_token(value) {
            continue;
        }
        let token: String = value
            .chars()
            .take_while(|c| {
                c.is_ascii_alphanumeric() || *c == '-' || *c == '_'
            })
            .collect();
        rw.lines.push(n);
        rw.before.push(cx.text.quote(n));
        rw.after.push(if token.is_empty() {
            "User-agent: *".into()
        } else {
            format!("User-agent: {token}")
        });
    }
    (why.to_string(), rw)
}

fn line_syntax(cx: &Context<'_>) -> (String, Rewrite) {
    let robots = RobotsTxt::parse(cx.body, &Profile::rfc9309());
    let mut lines: Vec<u32> = robots
        .diagnostics()
        .iter()
        .filter(|d| d.kind == DiagnosticKind::MissingColon)
        .map(|d| d.line)
        .chain(
            robots
                .records()
                .iter()
                .chain(robots.groups().iter().flat_map(|g| &g.records))
                .filter(|r| super::mistakes::typo_of(&r.key).is_some())
                .map(|r| r.line),
        )
        .collect();
    lines.sort_unstable();
    lines.truncate(MAX_LINES);
    (
        "these parsers accept a misspelt directive or a line without a colon (`Dissallow: /x`, `Disallow /x`); strict readers ignore the line".to_string(),
        advice("spell every directive exactly, with a colon after it: `Disallow: /x`", lines, cx),
    )
}

fn bom(cx: &Context<'_>) -> (String, Rewrite) {
    let first = cx.text.quote(1);
    (
        "the file starts with a byte order mark (EF BB BF): some parsers skip it, others read the first line's key with it and ignore the line".to_string(),
        Rewrite {
            advice: "save the file as UTF-8 without a byte order mark".into(),
            lines: vec![1],
            after: vec![first.replace("\\u{feff}", "")],
            before: vec![first],
        },
    )
}

fn long_lines(cx: &Context<'_>) -> Vec<u32> {
    crate::lint::long_lines(cx.body, GOOGLE_LINE_BYTES)
        .into_iter()
        .take(MAX_LINES)
        .collect()
}

/// Whether a rule line's path has a `$` before its last octet.
fn has_mid_dollar(content: &str) -> bool {
    let v = content.split_once(':').map(|(_, v)| v.trim()).unwrap_or("");
    v.find('$').is_some_and(|i| i + 1 < v.len())
}

/// A note on rules with a `$` that is not the last octet of the path,
/// when the file has some: some parsers read it as an end anchor
/// anyway, others as a literal `$`.
fn mid_dollar(robots: &RobotsTxt, cx: &Context<'_>) -> Option<String> {
    let lines: Vec<String> = robots
        .groups()
        .iter()
        .flat_map(|g| &g.rules)
        .filter(|r| {
            let v = &r.value[..];
            v.iter().position(|b| *b == b'$').is_some_and(|i| i + 1 < v.len())
        })
        .map(|r| r.line.to_string())
        .take(MAX_LINES)
        .collect();
    let _ = cx;
    (!lines.is_empty()).then(|| {
        format!(
            "; also: a `$` inside a path (line {}) anchors the end only at the end of a pattern: write it as `%24` if you mean the character, or end the pattern there",
            lines.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rewrite for `switch` on `body`, the example at `url` decided
    /// by `line`.
    fn advised(
        body: &[u8],
        switch: &str,
        url: &str,
        line: Option<u32>,
    ) -> Rewrite {
        let text = Text::new(body);
        let profile = Profile::rfc9309();
        let cx = Context { body, text: &text, profile: &profile, url, line };
        advise(switch, &cx).1
    }

    #[test]
    fn normal_form_encodes_like_a_crawler() {
        assert_eq!(normal_form("/café").as_deref(), Some("/caf%C3%A9"));
        assert_eq!(normal_form("/%7euser").as_deref(), Some("/~user"));
        assert_eq!(normal_form("/a%2fb").as_deref(), Some("/a%2Fb"));
        assert_eq!(normal_form("/a%2Fb"), None);
    }

    #[test]
    fn first_match_trap_is_reordered_longest_first() {
        let rw = advised(
            b"User-agent: *\nDisallow: /\nAllow: /public\n",
            "precedence=first-match",
            "/public",
            Some(3),
        );
        assert_eq!(rw.lines, [2, 3]);
        assert_eq!(rw.before, ["Disallow: /", "Allow: /public"]);
        assert_eq!(rw.after, ["Allow: /public", "Disallow: /"]);
    }

    #[test]
    fn the_readings_of_issue_25_get_their_own_advice() {
        let body = b"User-agent: googlebot\nDisallow: /a%2Fb\nDisallow: /%e3%83%84\nAllow: /c\n";
        let (why, rw) = {
            let text = Text::new(body);
            let profile = Profile::rfc9309();
            let cx = Context {
                body,
                text: &text,
                profile: &profile,
                url: "/a/b",
                line: None,
            };
            advise("agent_case_sensitive=true", &cx)
        };
        assert!(why.contains("case written"), "{why}");
        assert_eq!(rw.lines, [1]);
        let rw = advised(body, "decode_every_escape=true", "/a/b", Some(2));
        assert_eq!(rw.lines, [2, 3]);
        assert!(rw.advice.contains("%2F"), "{}", rw.advice);
        let rw = advised(body, "uppercase_rule_hex=false", "/%E3", Some(3));
        assert_eq!(rw.lines, [3]);
        assert_eq!(rw.after, ["Disallow: /%E3%83%84"]);
        let rw = advised(body, "dot_segments=removed", "/", None);
        assert!(rw.lines.is_empty() && rw.advice.contains(".."));
    }

    #[test]
    fn agent_lists_are_gathered() {
        let rw = advised(
            b"User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /x\n",
            "records_end_agent_list=true",
            "/x",
            Some(4),
        );
        assert_eq!(rw.lines, [1, 2, 3]);
        assert_eq!(
            rw.after,
            ["User-agent: a", "User-agent: b", "Content-Usage: train-ai=n"]
        );
    }
}
