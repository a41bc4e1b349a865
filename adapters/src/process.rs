//! Out-of-process adapters: one long-lived process speaking the JSON-lines
//! protocol of `adapters/PROTOCOL.md`.
//!
//! Requests are pipelined (a window of them in flight) and decide
//! requests about one body are batched into one line. A request that
//! misses its deadline, or a process that dies or prints garbage, costs
//! only its own answers: the process is killed (SIGTERM, then SIGKILL
//! after a grace period), restarted, and a failed batch is retried one URL
//! at a time so that only the URL that broke it is reported. A `decide`
//! (or live `fetch`) batch that timed out is first retried with its
//! shortest URL alone (a `decide` probe with twice the deadline): if that
//! times out too, the body (or the fetch of robots.txt) itself hangs the
//! parser, and every URL of it is reported timed out after those two
//! deadlines (not a kill and a restart per URL).
//!
//! With [`Limits::confirm`] above 1, a line that misses its deadline is
//! waited for up to that many deadlines before anything is killed (an
//! answer then is used, counted as late), and a single request that still
//! has no answer is asked once more, alone in a fresh process, with the
//! same wait (a probe is such a second ask for its whole body). So every
//! timeout it reports was confirmed: two asks, the last one alone, each
//! waited that long ([`Adapter::confirmed_timeouts`]).
//!
//! `fetch` requests with a live target go on the wire like `decide`
//! (batched per scenario and agent: one fetch of robots.txt answers every
//! URL), with a longer deadline that covers the adapter's own HTTP
//! timeout. Adapters are started without proxy variables, so their HTTP
//! clients only ever reach the loopback fixture.
//!
//! Hostile output costs bounded memory ([`crate::pipes`]): a protocol
//! line longer than [`MAX_LINE`] is a protocol error, only a short stderr
//! tail is kept, and every message in a reply is capped. Each process
//! leads its own process group, and the group is what gets killed
//! ([`crate::group`]). After [`crate::breaker::MAX_FAILED_STARTS`]
//! starts in a row that fail, the adapter is unavailable for the rest of
//! the run: its remaining requests are answered at once, without another
//! start.

use std::collections::VecDeque;
use std::io::Write;

use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{
    Receiver, RecvTimeoutError, Sender, channel, sync_channel,
};
use std::thread;
use std::time::Duration;

use crate::breaker::Breaker;
use crate::group::{self, spawn_in_group, wait_exit};
use crate::pipes::{self, Line, MAX_LINE, Tail};
use crate::wire::{self, Call, Hello};
use crate::{Adapter, Info, Reply, Request};

/// Why an adapter process could not be started. Every check it was to
/// answer is reported crashed with this message.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The manifest's run command is empty.
    #[error("empty run command")]
    EmptyCommand,
    /// The program cannot be spawned.
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// A standard stream was not piped.
    #[error("no {0}")]
    NoPipe(&'static str),
    /// The `hello` request cannot be written.
    #[error("cannot write hello: {0}")]
    WriteHello(String),
    /// The process exited first (with the tail of its stderr).
    #[error("exited before answering hello{0}")]
    ExitedBeforeHello(String),
    /// No answer within the startup limit.
    #[error("no hello within {0:?}")]
    NoHello(Duration),
    /// The answer to `hello` is not JSON.
    #[error("hello answer is not JSON: {0}")]
    BadHello(String),
    /// The answer to `hello` is longer than [`MAX_LINE`].
    #[error("hello answer longer than {MAX_LINE} bytes")]
    HugeHello,
}

/// Lines read ahead of the caller (each at most [`MAX_LINE`]).
const LINES_AHEAD: usize = 4;

/// Deadlines and limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Per request line.
    pub base: Duration,
    /// Added per URL of a batched decide request.
    pub per_url: Duration,
    /// For the process to start and answer `hello`.
    pub startup: Duration,
    /// Between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// Request lines in flight at once.
    pub window: usize,
    /// A line that misses its deadline is waited for this many times the
    /// deadline in all before it is timed out (1: not at all), so that a
    /// reported timeout is *confirmed* ([`Adapter::confirmed_timeouts`]):
    /// a parser that is only slow on a busy machine answers late instead
    /// of costing a kill, a restart and a retry per URL.
    pub confirm: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            base: Duration::from_secs(1),
            per_url: Duration::from_millis(20),
            startup: Duration::from_secs(20),
            grace: Duration::from_millis(250),
            window: 16,
            confirm: 1,
        }
    }
}

/// One wire request: a line to send and the requests it answers.
struct Wire {
    /// Indices into the caller's request slice.
    slots: Vec<usize>,
    /// What the line asks.
    call: Call,
    /// Added to the deadline (a live fetch's HTTP time).
    extra: Duration,
    /// When this wire probes a body that timed out with all its URLs:
    /// the body's other URLs, asked one by one only if the probe answers
    /// (if it times out too, the body is what hangs the parser, and they
    /// are all timed out without another kill and restart).
    then: Option<Vec<Wire>>,
    /// This single-URL wire is the second ask after a timeout, alone in a
    /// fresh process (confirming the timeout).
    retried: bool,
}

/// Proxy variables an HTTP client may obey; removed from an adapter's
/// environment so that it never leaves loopback.
const PROXY_VARS: [&str; 8] = [
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "ftp_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "FTP_PROXY",
];

/// The reply a request gets without asking the process, if any.
fn local_reply(r: &Request) -> Option<Reply> {
    match r {
        Request::Fetch { live: None, .. } => Some(Reply::not_applicable(
            "no fixture server serves this scenario",
        )),
        Request::FetchPolicy { .. } => Some(Reply::not_applicable(
            "the access policy is not on the wire; only a model can say",
        )),
        Request::DecideTokens { .. } => Some(Reply::not_applicable(
            "several product tokens are not on the wire",
        )),
        _ => None,
    }
}

/// The deadline a live fetch adds: the adapter's HTTP timeout for the
/// request and a redirect or two, plus a margin.
fn fetch_extra(timeout: Duration) -> Duration {
    timeout * 3 + Duration::from_secs(1)
}

struct Running {
    child: Child,
    /// Lines to write, handed to a writer thread: a write to a busy
    /// child blocks once the pipe is full, and must not block us.
    stdin: Sender<String>,
    lines: Receiver<Line>,
}

/// Writes lines to the child's stdin until the channel or the pipe
/// closes.
fn writer(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = channel::<String>();
    thread::spawn(move || {
        for line in rx {
            if stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush())
                .is_err()
            {
                return;
            }
        }
    });
    tx
}

/// An adapter process.
pub struct Process {
    info: Info,
    argv: Vec<String>,
    limits: Limits,
    running: Option<Running>,
    /// The stderr tail of the current (or last) process.
    stderr_tail: Tail,
    next_id: u64,
    /// How many times the process was (re)started.
    pub starts: usize,
    /// CPU time of the processes stopped so far.
    spent: Duration,
    /// Lines answered after their deadline, within the confirmation wait.
    pub late: usize,
    /// Failed starts, counted with the adapter's other instances.
    breaker: Breaker,
}

impl Process {
    /// An adapter that runs `argv` (not started until first asked).
    pub fn new(info: Info, argv: Vec<String>, limits: Limits) -> Process {
        Process {
            info,
            argv,
            limits,
            running: None,
            stderr_tail: Tail::default(),
            next_id: 1,
            starts: 0,
            spent: Duration::ZERO,
            late: 0,
            breaker: Breaker::default(),
        }
    }

    /// The same adapter counting failed starts with `breaker` (shared by
    /// all instances of the adapter in a run).
    pub fn sharing(mut self, breaker: Breaker) -> Process {
        self.breaker = breaker;
        self
    }

    fn stderr(&self) -> String {
        // Asked once stdout closed: the process is exiting.
        let tail = self.stderr_tail.last_words(Duration::from_millis(200));
        if tail.is_empty() {
            String::new()
        } else {
            format!("; stderr: {tail}")
        }
    }

    fn start(&mut self) -> Result<(), StartError> {
        let (program, args) =
            self.argv.split_first().ok_or(StartError::EmptyCommand)?;
        let mut command = Command::new(program);
        for var in PROXY_VARS {
            command.env_remove(var);
        }
        command
            .env("NO_PROXY", "127.0.0.1,localhost")
            .env("no_proxy", "127.0.0.1,localhost")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_in_group(&mut command).map_err(|source| {
            StartError::Spawn { program: program.clone(), source }
        })?;
        self.starts += 1;
        let stdout =
            child.stdout.take().ok_or(StartError::NoPipe("stdout"))?;
        let stderr =
            child.stderr.take().ok_or(StartError::NoPipe("stderr"))?;
        let stdin = child.stdin.take().ok_or(StartError::NoPipe("stdin"))?;
        let (tx, rx) = sync_channel(LINES_AHEAD);
        thread::spawn(move || pipes::read_lines(stdout, MAX_LINE, &tx));
        // A fresh tail per process: a crash message quotes this one.
        self.stderr_tail = Tail::default();
        let tail = self.stderr_tail.clone();
        thread::spawn(move || tail.drain(stderr));
        let running = Running { child, stdin: writer(stdin), lines: rx };
        running
            .stdin
            .send(Call::Hello.encode(0))
            .map_err(|e| StartError::WriteHello(e.to_string()))?;
        let answer = match running.lines.recv_timeout(self.limits.startup) {
            Ok(Line::Text(line)) => line,
            Ok(Line::TooLong) => {
                self.retire(running.child);
                return Err(StartError::HugeHello);
            }
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.retire(running.child);
                return Err(StartError::ExitedBeforeHello(self.stderr()));
            }
            Err(RecvTimeoutError::Timeout) => {
                self.retire(running.child);
                return Err(StartError::NoHello(self.limits.startup));
            }
        };
        let hello = match Hello::decode(&answer) {
            Ok(h) => h,
            Err(_) => {
                // Not an adapter we can talk to: it must not outlive us.
                self.retire(running.child);
                let quoted: String = answer.chars().take(80).collect();
                return Err(StartError::BadHello(quoted));
            }
        };
        if let Some(v) = hello.version {
            self.info.version = v;
        }
        self.running = Some(running);
        Ok(())
    }

    fn kill(&mut self) {
        if let Some(r) = self.running.take() {
            self.retire(r.child);
        }
    }

    /// Stops `child` (its whole group), first adding its CPU time to what
    /// the adapter spent.
    fn retire(&mut self, child: Child) {
        self.spent += crate::cost::process_cpu(child.id()).unwrap_or_default();
        stop(child, self.limits.grace);
    }

    /// The wire requests for a batch: consecutive decide requests about
    /// the same body and agent share a line, and so do live fetches of
    /// one scenario by one agent.
    fn wires(requests: &[Request]) -> VecDeque<Wire> {
        let mut out: VecDeque<Wire> = VecDeque::new();
        for (i, r) in requests.iter().enumerate() {
            if local_reply(r).is_some() {
                continue;
            }
            if let Some(last) = out.back_mut()
                && shares_line(&requests[last.slots[0]], r)
                && let Call::Decide { urls, .. } | Call::Fetch { urls, .. } =
                    &mut last.call
            {
                let url = match r {
                    Request::Fetch { live: Some(live), .. } => &live.url,
                    Request::Decide { url, .. } => url,
                    _ => unreachable!("only decide and fetch share a line"),
                };
                urls.push(url.clone());
                last.slots.push(i);
                continue;
            }
            let (call, extra) = match r {
                Request::Fetch { agent, live: Some(live), .. } => (
                    Call::Fetch {
                        robots_url: live.robots_url.clone(),
                        agent: agent.clone(),
                        urls: vec![live.url.clone()],
                        timeout: live.timeout,
                    },
                    fetch_extra(live.timeout),
                ),
                Request::Decide { robots, agent, url } => (
                    Call::Decide {
                        robots: robots.clone(),
                        agent: agent.clone(),
                        urls: vec![url.clone()],
                    },
                    Duration::ZERO,
                ),
                Request::Sitemaps { robots } => {
                    (Call::Sitemaps { robots: robots.clone() }, Duration::ZERO)
                }
                Request::CrawlDelay { robots, agent } => (
                    Call::CrawlDelay {
                        robots: robots.clone(),
                        agent: agent.clone(),
                    },
                    Duration::ZERO,
                ),
                Request::Usage { robots, agent, url } => (
                    Call::Usage {
                        robots: robots.clone(),
                        agent: agent.clone(),
                        url: url.clone(),
                    },
                    Duration::ZERO,
                ),
                Request::ContentSignal { robots, agent } => (
                    Call::ContentSignal {
                        robots: robots.clone(),
                        agent: agent.clone(),
                    },
                    Duration::ZERO,
                ),
                Request::ValidToken { token } => {
                    (Call::ValidToken { token: token.clone() }, Duration::ZERO)
                }
                Request::RobotsUrl { url } => {
                    (Call::RobotsUrl { url: url.clone() }, Duration::ZERO)
                }
                Request::Governs { robots_url, url } => (
                    Call::Governs {
                        robots_url: robots_url.clone(),
                        url: url.clone(),
                    },
                    Duration::ZERO,
                ),
                Request::Fetch { live: None, .. }
                | Request::FetchPolicy { .. }
                | Request::DecideTokens { .. } => {
                    unreachable!("answered locally")
                }
            };
            out.push_back(Wire {
                slots: vec![i],
                call,
                extra,
                then: None,
                retried: false,
            });
        }
        out
    }

    /// Splits a failed multi-URL wire into one wire per URL.
    fn split(wire: Wire) -> Vec<Wire> {
        (0..wire.slots.len())
            .map(|i| Wire {
                slots: vec![wire.slots[i]],
                call: wire.call.only(i),
                extra: wire.extra,
                then: None,
                retried: false,
            })
            .collect()
    }

    /// After a multi-URL `decide` or `fetch` line timed out: its URL with
    /// the shortest text, asked alone first, carrying the others. A
    /// parser that cannot answer the simplest URL of a body (or of one
    /// fetch of robots.txt) in time is hung by the body or the fetch, not
    /// by a URL; one that answers it is asked the others one by one, so
    /// that only the URLs that hang it are reported.
    fn probe(wire: Wire) -> Wire {
        let (Call::Decide { urls, .. } | Call::Fetch { urls, .. }) =
            &wire.call
        else {
            unreachable!("only decide and fetch lines are probed")
        };
        let shortest = (0..urls.len()).min_by_key(|&i| urls[i].len());
        let mut singles = Process::split(wire);
        let mut probe = singles.remove(shortest.unwrap_or(0));
        probe.then = Some(singles);
        probe
    }
}

/// `next` can ride on the line of `first`: both decide about the same
/// body and agent, or both fetch the same live scenario as one agent.
fn shares_line(first: &Request, next: &Request) -> bool {
    match (first, next) {
        (
            Request::Decide { robots: r0, agent: a0, .. },
            Request::Decide { robots, agent, .. },
        ) => a0 == agent && (Arc::ptr_eq(r0, robots) || r0 == robots),
        (
            Request::Fetch { scenario: s0, agent: a0, live: Some(l0), .. },
            Request::Fetch { scenario, agent, live: Some(live), .. },
        ) => {
            a0 == agent
                && l0.robots_url == live.robots_url
                && (Arc::ptr_eq(s0, scenario) || s0 == scenario)
        }
        _ => false,
    }
}

/// Answers every wire in flight or pending as crashed with `message`.
fn fail_all(
    replies: &mut [Option<Reply>],
    flight: &mut VecDeque<(u64, Wire)>,
    pending: &mut VecDeque<Wire>,
    message: &str,
) {
    for w in flight.drain(..).map(|(_, w)| w).chain(pending.drain(..)) {
        for s in w.slots {
            replies[s] = Some(Reply::Crashed { message: message.to_string() });
        }
    }
}

/// SIGTERM to the process group, SIGKILL after `grace`.
fn stop(child: Child, grace: Duration) {
    group::stop(child, grace);
}

/// Every message a reply carries, capped for reports.
fn capped(reply: Reply) -> Reply {
    match reply {
        Reply::NotApplicable { why } => {
            Reply::NotApplicable { why: pipes::cap(why) }
        }
        Reply::Error { message } => {
            Reply::Error { message: pipes::cap(message) }
        }
        Reply::Crashed { message } => {
            Reply::Crashed { message: pipes::cap(message) }
        }
        Reply::ProtocolError { message } => {
            Reply::ProtocolError { message: pipes::cap(message) }
        }
        other => other,
    }
}

impl Adapter for Process {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn confirmed_timeouts(&self) -> Option<Duration> {
        (self.limits.confirm > 1)
            .then(|| self.limits.base * self.limits.confirm)
    }

    fn cost(&self) -> crate::cost::Cost {
        let live = self.running.as_ref().map_or(Duration::ZERO, |r| {
            crate::cost::process_cpu(r.child.id()).unwrap_or_default()
        });
        crate::cost::Cost {
            starts: self.starts,
            cpu: self.spent + live,
            late: self.late,
        }
    }

    fn answer(&mut self, request: &Request) -> Reply {
        self.answer_batch(std::slice::from_ref(request))
            .pop()
            .unwrap_or(Reply::ProtocolError { message: "no answer".into() })
    }

    fn answer_batch(&mut self, requests: &[Request]) -> Vec<Reply> {
        let mut replies: Vec<Option<Reply>> =
            requests.iter().map(local_reply).collect();
        let mut pending = Process::wires(requests);
        // In flight: (id, wire, deadline length).
        let mut flight: VecDeque<(u64, Wire)> = VecDeque::new();
        while !pending.is_empty() || !flight.is_empty() {
            if let Some(why) = self.breaker.open() {
                fail_all(&mut replies, &mut flight, &mut pending, &why);
                break;
            }
            if self.running.is_none() {
                match self.start() {
                    Ok(()) => self.breaker.started(),
                    Err(e) => {
                        let e = pipes::cap(e.to_string());
                        self.breaker.failed(&e);
                        fail_all(&mut replies, &mut flight, &mut pending, &e);
                        break;
                    }
                }
            }
            // OK: started just above.
            let running = self.running.as_mut().expect("running");
            while flight.len() < self.limits.window {
                let Some(wire) = pending.pop_front() else { break };
                let id = self.next_id;
                self.next_id += 1;
                if running.stdin.send(wire.call.encode(id)).is_err() {
                    pending.push_front(wire);
                    break;
                }
                flight.push_back((id, wire));
            }
            let Some((id, wire)) = flight.pop_front() else { continue };
            let n = wire.slots.len();
            let op = wire.call.op();
            let mut deadline =
                self.limits.base + self.limits.per_url * n as u32 + wire.extra;
            if wire.then.is_some()
                && matches!(wire.call, Call::Decide { .. })
                && self.limits.confirm < 2
            {
                // A probe decides for every URL of its body: a slow
                // answer on a busy machine must not time them all out.
                deadline *= 2;
            }
            let mut line = running.lines.recv_timeout(deadline);
            if matches!(line, Err(RecvTimeoutError::Timeout))
                && self.limits.confirm > 1
            {
                // Confirm the timeout: wait on for the rest of
                // `confirm` deadlines; an answer now is a late one.
                line = running
                    .lines
                    .recv_timeout(deadline * (self.limits.confirm - 1));
                if line.is_ok() {
                    self.late += 1;
                }
            }
            let failure = match line {
                Ok(Line::Text(line)) => {
                    match wire::decode_answer(&line, id, op, n) {
                        Ok(rs) => {
                            for (s, r) in wire.slots.iter().zip(rs) {
                                replies[*s] = Some(r);
                            }
                            // A probe answered: the body's other URLs.
                            for w in wire.then.into_iter().flatten().rev() {
                                pending.push_front(w);
                            }
                            continue;
                        }
                        Err(e) => {
                            Reply::ProtocolError { message: e.to_string() }
                        }
                    }
                }
                Ok(Line::TooLong) => Reply::ProtocolError {
                    message: format!(
                        "answer line longer than {MAX_LINE} bytes"
                    ),
                },
                Ok(Line::Closed) => Reply::Crashed {
                    message: format!("the process exited{}", self.stderr()),
                },
                Err(RecvTimeoutError::Timeout) => Reply::TimedOut,
                Err(RecvTimeoutError::Disconnected) => Reply::Crashed {
                    message: format!("stdout closed{}", self.stderr()),
                },
            };
            // The process is unusable: restart it; resend what was in
            // flight behind the failed request; isolate a failed batch.
            self.kill();
            for (_, w) in flight.drain(..).rev() {
                pending.push_front(w);
            }
            let timed_out = matches!(failure, Reply::TimedOut);
            let probed =
                matches!(wire.call, Call::Decide { .. } | Call::Fetch { .. });
            if n > 1 && timed_out && probed {
                pending.push_front(Process::probe(wire));
            } else if n > 1 {
                for w in Process::split(wire).into_iter().rev() {
                    pending.push_front(w);
                }
            } else if timed_out
                && self.limits.confirm > 1
                && !wire.retried
                && wire.then.is_none()
            {
                // Confirm it: asked again, alone, in the fresh process.
                pending.push_front(Wire { retried: true, ..wire });
            } else {
                for s in wire.slots {
                    replies[s] = Some(failure.clone());
                }
                for w in wire.then.into_iter().flatten().rev() {
                    if timed_out {
                        // The body hangs the parser: asked once, every
                        // URL of it timed out.
                        for s in w.slots {
                            replies[s] = Some(Reply::TimedOut);
                        }
                    } else {
                        pending.push_front(w);
                    }
                }
            }
        }
        replies
            .into_iter()
            .map(|r| {
                capped(r.unwrap_or(Reply::ProtocolError {
                    message: "no answer".into(),
                }))
            })
            .collect()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            // Closing stdin asks the adapter to exit; then make sure.
            // Anything it left behind in its group is killed either way.
            drop(r.stdin);
            wait_exit(&r.child, Duration::from_millis(300));
            stop(r.child, self.limits.grace);
        }
    }
}
