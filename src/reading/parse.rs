//! Groups and rules: lines to a [`RobotsTxt`] (§2.1, §2.2 `robotstxt`,
//! `group`, `startgroupline`, `rule`; §2.2.4 other records).
//!
//! Consecutive user-agent lines share a group; the first allow or disallow
//! line ends the list of user-agent lines, and the next user-agent line
//! starts a new group (R2.1-3). Blank lines and other records never end a
//! group (R2.2-2, R2.2.4-4). Rules before the first user-agent line are
//! ignored (R2.2.2-15), unless the profile's `preamble_rules` makes them a
//! group. Does not select groups for a crawler; see `agent` (but a parse
//! *for one crawler*, `focus`, asks `agent` which groups it may skip, and
//! skips them as it reads them; only under the plain grouping readings,
//! see `Profile::grouping_is_plain`).
//!
//! What faster readers need from a parse, the parse offers without
//! knowing them: a [`RuleSink`] that takes each obeyed rule as it is read
//! (`once` is one), [`RobotsTxt::parse_lexed`] for lines lexed already
//! (`kept_lines`), and one memo per group (`memo`) that the rule index
//! (`index`) is kept in. Must never name a fast path.

use std::sync::Arc;

use crate::agent::names;
use crate::aipref::rule::UsageRule;
use crate::diag::{Diagnostic, DiagnosticKind};
use crate::lex::{Content, Key, lex};
use crate::memo::GroupMemo;
use crate::octets::Octets;
use crate::pattern::{Pattern, Shape};
use crate::profile::{PreambleRules, Profile};

/// Whether a rule allows or disallows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum RuleKind {
    /// An `allow` line.
    Allow,
    /// A `disallow` line.
    Disallow,
}

/// The product token of one user-agent line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentToken {
    /// `*`: the group for crawlers no other group names (R2.2.1-8).
    Global,
    /// A product token (possibly empty under a lenient profile, when it
    /// then names no crawler).
    Named(String),
    /// A value that is not a product token (`Googlebot/2.1`, `MJ12bot`,
    /// `360Spider`, empty), kept as written, under a profile that does not
    /// salvage it (`agent_value_prefix` off). The line is still a
    /// user-agent line: it ends the group above it (R2.1-3) and starts or
    /// joins a group, but that group names no crawler (see
    /// `Profile::agent_value_prefix` for why that is the oracle's choice).
    Invalid(String),
}

/// One user-agent line of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// The 1-based line number.
    pub line: u32,
    /// The product token the line names.
    pub token: AgentToken,
}

/// An allow or disallow rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The 1-based line number.
    pub line: u32,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The value as written (trimmed, comment removed).
    pub value: Octets,
    pub(crate) pattern: Pattern,
    /// Google's `index.html` extension: also `/dir/$` (GRT-7), as value
    /// and pattern.
    pub(crate) directory: Option<Box<(Box<[u8]>, Pattern)>>,
}

impl Rule {
    /// What the rule and its share of its group's index may hold, at
    /// most (see [`RobotsTxt::heap_bytes`]).
    fn kept_bytes(&self) -> usize {
        // Each star ends a piece of the pattern, empty between two stars;
        // a non-empty piece (one per run of stars, and one more) costs
        // the index a trie node and a searcher, an empty one a node
        // (measured by the `spec` target: about 28 octets a star).
        let (mut stars, mut runs, mut after_star) = (0, 0, false);
        for &b in self.value.iter() {
            stars += usize::from(b == b'*');
            runs += usize::from(b == b'*' && !after_star);
            after_star = b == b'*';
        }
        let patterns = 1 + usize::from(self.directory.is_some());
        let index = 768 * (runs + 1) + 48 * stars;
        256 + 16 * self.value.len() + index * patterns
    }

    /// The pattern after percent-encoding normalisation.
    pub fn normalized(&self) -> &[u8] {
        self.pattern.shape(&self.value).normalized()
    }

    /// The rule's pattern, then the derived `/dir/$` one if any.
    pub(crate) fn shapes(&self) -> Shapes<'_> {
        let directory = self.directory.as_deref();
        std::iter::once(self.pattern.shape(&self.value))
            .chain(directory.map(|(value, p)| p.shape(value)))
    }
}

/// A rule's patterns: its own, then the derived `/dir/$` one if any.
pub(crate) type Shapes<'r> = std::iter::Chain<
    std::iter::Once<Shape<'r>>,
    std::option::IntoIter<Shape<'r>>,
>;

/// What a parse for one crawler can feed the rules it obeys to, as they
/// are read and without keeping them (`once` matches them at once).
pub(crate) trait RuleSink {
    /// A rule of a group the crawler obeys (`specific`: a group naming
    /// it, else a `*` group), given by its patterns.
    fn rule(&mut self, specific: bool, kind: RuleKind, shapes: Shapes<'_>);
}

/// A record other than user-agent, allow and disallow (§2.2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The 1-based line number.
    pub line: u32,
    /// The key as written.
    pub key: String,
    /// The value as written (lossy UTF-8).
    pub value: String,
}

/// A group: user-agent lines and the rules and records that follow them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The user-agent lines.
    pub agents: Vec<Agent>,
    /// The rules, in file order.
    pub rules: Vec<Rule>,
    /// Other records inside the group (crawl-delay, ...), in file order.
    pub records: Vec<Record>,
    /// The Content-Usage rules (draft-ietf-aipref-attach-05 §3), in file
    /// order; only under a profile whose `content_usage_rule` is on.
    pub usage: Vec<UsageRule>,
}

impl Group {
    fn empty(agents: Vec<Agent>) -> Group {
        Group { agents, rules: vec![], records: vec![], usage: vec![] }
    }

    /// The line of the group's first user-agent line (of its first rule
    /// for the agent-less group of `preamble_rules=every-crawler`).
    pub fn line(&self) -> u32 {
        let first = self.agents.first().map(|a| a.line);
        first.or_else(|| self.rules.first().map(|r| r.line)).unwrap_or(0)
    }
}

/// A parsed robots.txt file. Parsing never fails; see
/// [`RobotsTxt::diagnostics`] for what was odd.
#[derive(Clone, Debug)]
pub struct RobotsTxt {
    pub(crate) groups: Vec<Group>,
    pub(crate) sitemaps: Vec<Record>,
    pub(crate) records: Vec<Record>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) profile: Profile,
    /// One memo per group, for what faster readers build about it
    /// (see `memo`).
    pub(crate) memos: Box<[GroupMemo]>,
    /// The octets parsed (the body up to the parse limit), which rule
    /// values share.
    pub(crate) file: Arc<[u8]>,
}

/// A parse for one crawler (see `focus`): which groups are kept.
struct Focus<'a> {
    /// The crawler's product token.
    agent: &'a str,
    /// The open group names the crawler.
    names: bool,
    /// The open group has a `*` line.
    global: bool,
    /// A group naming the crawler was kept: `*` groups no longer apply.
    specific_kept: bool,
    /// One check in one pass (`once`): rules go to the sink as they are
    /// read, and are neither compiled into the file nor kept.
    stream: Option<&'a mut dyn RuleSink>,
}

impl Focus<'_> {
    /// The open group's rules can decide for the crawler.
    fn wants_open(&self) -> bool {
        self.names || (self.global && !self.specific_kept)
    }
}

/// The builder's state between lines.
struct Builder<'p> {
    profile: &'p Profile,
    groups: Vec<Group>,
    /// The group user-agent lines and rules go to, if any is open.
    open: Option<Group>,
    /// The open group has had a rule: the next user-agent line starts a
    /// new group.
    rules_started: bool,
    sitemaps: Vec<Record>,
    records: Vec<Record>,
    diagnostics: Vec<Diagnostic>,
    /// The file's one copy, which rule values share (`None` when rules
    /// are not kept: a stream).
    file: Option<Arc<[u8]>>,
    /// Set for a parse for one crawler: groups it does not obey are
    /// skipped (their rules are not compiled, their records not kept),
    /// and nothing outside groups or about odd lines is kept.
    focus: Option<Focus<'p>>,
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

fn lossy(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

impl Builder<'_> {
    fn note(&mut self, line: u32, kind: DiagnosticKind) {
        if self.focus.is_none() {
            self.diagnostics.push(Diagnostic { line, kind });
        }
    }

    /// The open group is kept, unless this is a parse for one crawler
    /// that does not obey it (a group naming the crawler also drops the
    /// `*` groups kept so far: `agent::select` would not pick them).
    fn close(&mut self) {
        let open = self.open.take();
        self.rules_started = false;
        let Some(f) = self.focus.as_mut() else {
            return self.groups.extend(open);
        };
        let keep = f.wants_open();
        if f.names && !f.specific_kept {
            f.specific_kept = true;
            self.groups.clear();
        }
        (f.names, f.global) = (false, false);
        if keep {
            self.groups.extend(open);
        }
    }

    /// Under a parse for one crawler, the open group is one it does not
    /// obey.
    fn skipping(&self) -> bool {
        self.focus.as_ref().is_some_and(|f| !f.wants_open())
    }

    /// `product-token = identifier / "*"`, or the profile's salvage.
    fn product_token(
        &mut self,
        line: u32,
        value: &[u8],
    ) -> Option<AgentToken> {
        let p = self.profile;
        if value == b"*" {
            return Some(AgentToken::Global);
        }
        if !value.is_empty() && value.iter().all(|&b| is_identifier_byte(b)) {
            return Some(AgentToken::Named(lossy(value)));
        }
        let star_suffix = value.len() > 1
            && value[0] == b'*'
            && matches!(value[1], b' ' | b'\t');
        if p.star_with_suffix_is_global && star_suffix {
            self.note(
                line,
                DiagnosticKind::InvalidProductToken(Some("*".into())),
            );
            return Some(AgentToken::Global);
        }
        if p.agent_value_prefix {
            let n =
                value.iter().take_while(|&&b| is_identifier_byte(b)).count();
            let kept = lossy(&value[..n]);
            self.note(
                line,
                DiagnosticKind::InvalidProductToken(Some(kept.clone())),
            );
            return Some(AgentToken::Named(kept));
        }
        self.note(line, DiagnosticKind::InvalidProductToken(None));
        None
    }

    /// A stream's user-agent line whose value is `*` or a product token
    /// (most are): the open group's flags, without building the token;
    /// `false` (nothing done) for any other line or parse.
    fn stream_agent(&mut self, value: &[u8]) -> bool {
        let how = self.profile.agent_match;
        let case_sensitive = self.profile.agent_case_sensitive;
        if self.focus.as_ref().is_none_or(|f| f.stream.is_none()) {
            return false;
        }
        let global = value == b"*";
        let token = match std::str::from_utf8(value) {
            Ok(t) if !t.is_empty() && t.bytes().all(is_identifier_byte) => t,
            _ if global => "",
            _ => return false,
        };
        if self.open.is_none() || self.rules_started {
            self.close();
            self.open = Some(Group::empty(vec![]));
        }
        if let Some(f) = self.focus.as_mut() {
            f.global |= global;
            f.names |= !global && names(token, f.agent, how, case_sensitive);
        }
        true
    }

    /// A user-agent line, whatever its value: §2.1 "The group is
    /// terminated by a user-agent line or end of file", so even a line
    /// whose value is not a product token ends the group above it, unless
    /// the profile's `invalid_agent_ends_group` is off (parsers that drop
    /// such lines, and let the rules below join the previous group).
    fn user_agent(&mut self, line: u32, value: &[u8]) {
        if self.stream_agent(value) {
            return;
        }
        let token = match self.product_token(line, value) {
            Some(token) => token,
            None if self.profile.invalid_agent_ends_group => {
                AgentToken::Invalid(lossy(value))
            }
            None => return,
        };
        if self.open.is_none() || self.rules_started {
            self.close();
            self.open = Some(Group::empty(vec![]));
        }
        if let Some(f) = self.focus.as_mut() {
            match &token {
                AgentToken::Global => f.global = true,
                AgentToken::Named(v) => {
                    f.names |= names(
                        v,
                        f.agent,
                        self.profile.agent_match,
                        self.profile.agent_case_sensitive,
                    )
                }
                AgentToken::Invalid(_) => {}
            }
            if f.stream.is_some() {
                // A stream keeps no groups: the flags are all it needs.
                return;
            }
        }
        if let Some(g) = self.open.as_mut() {
            g.agents.push(Agent { line, token });
        }
    }

    fn rule(&mut self, line: u32, kind: RuleKind, value: &[u8]) {
        let p = self.profile;
        let preamble = self.open.is_none() && self.groups.is_empty();
        if self.open.is_none()
            && !(preamble && p.preamble_rules != PreambleRules::Ignored)
        {
            return self.note(line, DiagnosticKind::RuleOutsideGroup);
        }
        if p.reject_invalid_utf8_patterns
            && !value.is_ascii()
            && std::str::from_utf8(value).is_err()
        {
            return self.note(line, DiagnosticKind::InvalidUtf8);
        }
        let starts_ok = matches!(value.first(), None | Some(b'/' | b'*'));
        if p.require_pattern_start && !starts_ok {
            return self.note(line, DiagnosticKind::InvalidPattern);
        }
        // What a skipped rule would be does not matter; that there is one
        // does (the next user-agent line starts a new group).
        let skipping = self.skipping();
        self.rules_started = true;
        if skipping {
            return;
        }
        let directory = (kind == RuleKind::Allow && p.index_html_is_dir)
            .then(|| index_html_directory(value))
            .flatten()
            .map(|dir| {
                let pattern = Pattern::compile(&dir, p);
                Box::new((dir.into_boxed_slice(), pattern))
            });
        let pattern = Pattern::compile(value, p);
        if let Some(f) = self.focus.as_mut()
            && let Some(stream) = f.stream.as_mut()
        {
            let directory = directory.as_deref().map(|(v, d)| d.shape(v));
            let shapes =
                std::iter::once(pattern.shape(value)).chain(directory);
            return stream.rule(f.names, kind, shapes);
        }
        let value = match &self.file {
            Some(file) => Octets::within(file, value),
            None => Octets::from(value),
        };
        let rule = Rule { line, kind, value, pattern, directory };
        if self.open.is_none() {
            // Before the first user-agent line, under a `preamble_rules`
            // that keeps such rules.
            let agents = match p.preamble_rules {
                PreambleRules::StarGroup => {
                    vec![Agent { line, token: AgentToken::Global }]
                }
                PreambleRules::EveryCrawler | PreambleRules::Ignored => vec![],
            };
            self.open = Some(Group::empty(agents));
        }
        self.rules_started = true;
        if let Some(g) = self.open.as_mut() {
            g.rules.push(rule);
        }
    }

    /// A record other than user-agent and the rules: under
    /// `records_end_agent_list` it ends the open group's user-agent list.
    fn record_seen(&mut self) {
        if self.profile.records_end_agent_list && self.open.is_some() {
            self.rules_started = true;
        }
    }

    /// A Content-Usage line under `content_usage_rule`: a rule of the
    /// open group (attach-05 §3), which ends its user-agent list; before
    /// the first user-agent line it is outside any group and ignored
    /// (R2.2.2-15, as for allow and disallow).
    fn usage_rule(&mut self, line: u32, value: &[u8]) {
        if self.open.is_none() {
            return self.note(line, DiagnosticKind::RuleOutsideGroup);
        }
        let skipping = self.skipping();
        self.rules_started = true;
        let stream = self.focus.as_ref().is_some_and(|f| f.stream.is_some());
        if skipping || stream {
            return;
        }
        let p = self.profile;
        let rule = UsageRule::read(
            line,
            value,
            self.file.as_ref(),
            p,
            p.usage_vocabulary,
        );
        if let Some(g) = self.open.as_mut() {
            g.usage.push(rule);
        }
    }

    fn other(&mut self, line: u32, key: &[u8], value: &[u8]) {
        if self.profile.content_usage_rule
            && key.eq_ignore_ascii_case(b"content-usage")
        {
            return self.usage_rule(line, value);
        }
        let delay = key.eq_ignore_ascii_case(b"crawl-delay")
            || key.eq_ignore_ascii_case(b"request-rate");
        if delay && self.profile.delay_records_end_agent_list {
            self.rules_started |= self.open.is_some();
        }
        self.record_seen();
        let outside = self.open.is_none();
        // While the open group's user-agent list can still grow (no rule
        // yet), a later line may name the crawler: the record is kept
        // until the group closes, which drops it with the group if the
        // crawler does not obey it.
        let settled = self.rules_started;
        let unwanted = match &self.focus {
            Some(f) => {
                outside || (settled && !f.wants_open()) || f.stream.is_some()
            }
            None => false,
        };
        if unwanted {
            return;
        }
        let record = Record { line, key: lossy(key), value: lossy(value) };
        match self.open.as_mut() {
            Some(g) => g.records.push(record),
            None => self.records.push(record),
        }
    }

    fn line(
        &mut self,
        number: u32,
        content: Content<'_>,
        notes: &[DiagnosticKind],
    ) {
        for n in notes {
            self.note(number, n.clone());
        }
        match content {
            Content::Empty if self.profile.blank_line_ends_group => {
                self.close()
            }
            Content::Blank
                if self.profile.blank_line_ends_group
                    && !self.profile.only_empty_line_ends_group =>
            {
                self.close()
            }
            Content::Empty | Content::Blank | Content::Invalid => {}
            Content::Pair { key, value } => match key {
                Key::UserAgent => self.user_agent(number, value),
                Key::Allow => self.rule(number, RuleKind::Allow, value),
                Key::Disallow => self.rule(number, RuleKind::Disallow, value),
                Key::Sitemap if self.focus.is_some() => self.record_seen(),
                Key::Sitemap => {
                    self.record_seen();
                    self.sitemaps.push(Record {
                        line: number,
                        key: "sitemap".into(),
                        value: lossy(value),
                    });
                }
                Key::Other(k) => self.other(number, k, value),
            },
        }
    }
}

/// One line lexed already: its number, content and notes.
pub(crate) type LexedLine<'l> = (u32, Content<'l>, &'l [DiagnosticKind]);

/// A body's lines lexed already (see [`RobotsTxt::parse_lexed`]).
pub(crate) struct Lexed<L> {
    /// The lines, in file order.
    pub lines: L,
    /// A BOM was skipped.
    pub bom_skipped: bool,
    /// The parse limit was reached.
    pub limit_reached: bool,
}

/// What of a body can be parsed: the parse limit, with room for a BOM
/// and one more octet so that lexing still sees the limit reached.
pub(crate) fn kept_len(body: &[u8], profile: &Profile) -> usize {
    body.len().min(profile.parse_limit.saturating_add(4))
}

impl<'a> Focus<'a> {
    fn new(agent: &'a str, stream: Option<&'a mut dyn RuleSink>) -> Focus<'a> {
        let (names, global, specific_kept) = (false, false, false);
        Focus { agent, names, global, specific_kept, stream }
    }
}

impl<'p> Builder<'p> {
    fn new(
        profile: &'p Profile,
        file: Option<Arc<[u8]>>,
        focus: Option<Focus<'p>>,
    ) -> Builder<'p> {
        // The one-crawler reading skips groups as `agent` selected them
        // before the profile's other grouping readings existed; under
        // those, the whole file is read (the selection then decides).
        let focus = focus.filter(|_| profile.grouping_is_plain());
        Builder {
            file,
            profile,
            groups: Vec::new(),
            open: None,
            rules_started: false,
            sitemaps: Vec::new(),
            records: Vec::new(),
            diagnostics: Vec::new(),
            focus,
        }
    }

    /// Every line of `body` (already cut to what can be parsed), then the
    /// last group closed.
    fn read(&mut self, body: &[u8]) {
        let lexed = lex(body, self.profile);
        if lexed.bom_skipped {
            self.note(1, DiagnosticKind::BomSkipped);
        }
        let mut last = 1;
        for line in lexed.lines {
            last = line.number;
            self.line(line.number, line.content, &line.notes);
        }
        if lexed.limit_reached {
            self.note(last, DiagnosticKind::ParseLimitReached);
        }
        self.close();
    }

    /// [`Builder::read`] on lines lexed already, under a profile with
    /// this one's lexer fields. The same frame as `read`, written twice on
    /// purpose: one generic frame fed by either iterator made parsing the
    /// real corpus 14 % slower (`robots-conformance bench`, parse + one
    /// check: 741 → 634 MB/s), even inlined.
    fn read_lexed<'l>(
        &mut self,
        lexed: Lexed<impl Iterator<Item = LexedLine<'l>>>,
    ) {
        if lexed.bom_skipped {
            self.note(1, DiagnosticKind::BomSkipped);
        }
        let mut last = 1;
        for (number, content, notes) in lexed.lines {
            last = number;
            self.line(number, content, notes);
        }
        if lexed.limit_reached {
            self.note(last, DiagnosticKind::ParseLimitReached);
        }
        self.close();
    }
}

/// `/dir/index.html` → `/dir/$`: the last segment starts with `index.htm`.
fn index_html_directory(value: &[u8]) -> Option<Vec<u8>> {
    let slash = value.iter().rposition(|&b| b == b'/')?;
    value[slash + 1..].starts_with(b"index.htm").then(|| {
        let mut dir = value[..=slash].to_vec();
        dir.push(b'$');
        dir
    })
}

impl RobotsTxt {
    /// Parses a robots.txt body under `profile`. Never fails and never
    /// panics; odd lines become diagnostics.
    pub fn parse(body: &[u8], profile: &Profile) -> RobotsTxt {
        RobotsTxt::build(body, profile, None)
    }

    /// The groups of `body` that the crawler `agent` obeys and nothing
    /// else, read in one pass that skips every other group's rules and
    /// records (see `focus`).
    pub(crate) fn parse_focused(
        body: &[u8],
        profile: &Profile,
        agent: &str,
    ) -> RobotsTxt {
        RobotsTxt::build(body, profile, Some(Focus::new(agent, None)))
    }

    /// Reads `body` for `agent` alone, feeding the rules it obeys to
    /// `sink` as they come; whether a group naming the crawler was seen
    /// (else the `*` groups' rules decide). `None` when the profile's
    /// grouping is not the plain one, which a one-crawler parse cannot
    /// follow (see `Profile::grouping_is_plain`): nothing was fed.
    pub(crate) fn stream(
        body: &[u8],
        profile: &Profile,
        agent: &str,
        sink: &mut dyn RuleSink,
    ) -> Option<bool> {
        let focus = Focus::new(agent, Some(sink));
        let mut b = Builder::new(profile, None, Some(focus));
        b.read(&body[..kept_len(body, profile)]);
        b.focus.map(|f| f.specific_kept)
    }

    fn build<'a>(
        body: &[u8],
        profile: &'a Profile,
        focus: Option<Focus<'a>>,
    ) -> RobotsTxt {
        let file: Arc<[u8]> = Arc::from(&body[..kept_len(body, profile)]);
        RobotsTxt::build_on(file, profile, focus)
    }

    /// The heap this parse holds, and may come to hold as it is asked, at
    /// most: its file (which parses of one body may share), its groups,
    /// rules, records and diagnostics, and the rule index `decide` builds
    /// for a group it is asked often. For a cache that weighs what it
    /// keeps (a crawler's, per host; the switch-space search's, per
    /// body). Generous, never less than what the parse holds: the `spec`
    /// target measures it on every case. O(groups + rules + records).
    pub fn heap_bytes(&self) -> usize {
        self.file.len() + self.kept_bytes()
    }

    /// What a kept parse may come to hold besides its file, generously:
    /// its groups, rules, records and diagnostics, and the rule index
    /// `decide` builds later (linear in the rules' octets).
    pub(crate) fn kept_bytes(&self) -> usize {
        let items = self.groups.len()
            + self.sitemaps.len()
            + self.records.len()
            + self.diagnostics.len();
        let text = |rs: &[Record]| -> usize {
            rs.iter().map(|r| 256 + r.key.len() + r.value.len()).sum()
        };
        let mut bytes = 1024 + 256 * items;
        bytes += text(&self.sitemaps) + text(&self.records);
        for d in &self.diagnostics {
            use crate::diag::DiagnosticKind::*;
            if let LenientKey(t)
            | UnknownKey(t)
            | InvalidProductToken(Some(t)) = &d.kind
            {
                bytes += t.len();
            }
        }
        for g in &self.groups {
            bytes += text(&g.records);
            for a in &g.agents {
                bytes += 256;
                if let AgentToken::Named(t) | AgentToken::Invalid(t) = &a.token
                {
                    bytes += t.len();
                }
            }
            // Each rule, and the rule index `decide` builds for the group
            // (`fast::index`): a fixed part, and per pattern piece its
            // trie node and searcher (measured by the `spec` target: up
            // to about 600 octets a piece in a group of ten rules).
            if !g.rules.is_empty() {
                bytes += 2048;
            }
            bytes += g.rules.iter().map(Rule::kept_bytes).sum::<usize>();
            bytes += g
                .usage
                .iter()
                .map(|u| {
                    let path = u.path.as_ref().map_or(0, |p| p.len());
                    512 + 16 * path + 2 * u.statement.len()
                })
                .sum::<usize>();
        }
        bytes
    }

    /// [`RobotsTxt::parse`] of a body whose kept octets are `file`
    /// (`body[..kept_len(body, profile)]`), from `lexed`: the lines
    /// `file` was lexed into under a profile with `profile`'s lexer
    /// fields (number, content, notes), whether a BOM was skipped and
    /// whether the parse limit was reached, as `lex` says them.
    pub(crate) fn parse_lexed<'l>(
        file: &'l Arc<[u8]>,
        profile: &Profile,
        lexed: Lexed<impl Iterator<Item = LexedLine<'l>>>,
    ) -> RobotsTxt {
        let mut b = Builder::new(profile, Some(Arc::clone(file)), None);
        b.read_lexed(lexed);
        RobotsTxt::built(b, profile, Arc::clone(file))
    }

    fn build_on<'a>(
        file: Arc<[u8]>,
        profile: &'a Profile,
        focus: Option<Focus<'a>>,
    ) -> RobotsTxt {
        let mut b = Builder::new(profile, Some(Arc::clone(&file)), focus);
        b.read(&file);
        RobotsTxt::built(b, profile, file)
    }

    fn built(b: Builder<'_>, profile: &Profile, file: Arc<[u8]>) -> RobotsTxt {
        RobotsTxt {
            memos: b.groups.iter().map(|_| GroupMemo::default()).collect(),
            groups: b.groups,
            sitemaps: b.sitemaps,
            records: b.records,
            diagnostics: b.diagnostics,
            profile: profile.clone(),
            file,
        }
    }

    /// The groups, in file order (not merged).
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The sitemap URLs, file-wide, in file order (§2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.sitemaps.iter().map(|r| r.value.as_str())
    }

    /// Other records outside any group, in file order.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// What was odd, line by line.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The profile the file was parsed under.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
}
