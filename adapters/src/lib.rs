//! How parsers plug into the conformance harness.
//!
//! An [`Adapter`] answers [`Request`]s about robots.txt bodies with
//! [`Reply`]s. It has one required method, [`Adapter::answer`]; batching
//! ([`Adapter::answer_batch`]) has a default. The reference oracle is an
//! adapter like any other ([`reference::Reference`]), so the harness gets
//! no private path to it.
//!
//! The vocabulary of a request is this crate's own: [`scenario`] for
//! fetch scenarios, [`wire`] for the protocol's lines. Only
//! [`reference`] converts it into the oracle's types; nothing here
//! re-exports the oracle, so a crate that depends on this one (the
//! runner) asks the oracle questions only through [`Adapter`].
//!
//! An adapter translates; it never works around its parser's quirks,
//! because those quirks are what the suite exists to find. A request the
//! parser cannot express is answered [`Reply::NotApplicable`], never
//! guessed.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod breaker;
pub mod command;
pub mod cost;
pub mod group;
pub mod isolate;
pub mod manifest;
pub mod pipes;
pub mod plugin;
pub mod process;
pub mod reference;
pub mod registry;
pub mod release;
mod request;
pub mod runtime;
pub mod rust;
pub mod scenario;
pub mod serve;
pub mod strays;
pub mod wire;

pub use request::{
    Capabilities, Explanation, Info, Live, NotAdmitted, Reply, Request,
};
/// Allowed or disallowed: the oracle's one `Verdict` type is the
/// protocol's too (`"allowed"`/`"disallowed"` on the wire, the same
/// words in cases and reports), so no copy and no conversion exists.
pub use robots_oracle::Verdict;
/// The oracle's line splitter (LF, CRLF and a lone CR end a line, as the
/// oracle lexes). Explanations cite line numbers (`rule_line`), so any
/// tool that shows a body next to an explanation must number its lines
/// exactly this way; re-exported so that such tools need not depend on
/// the oracle.
pub use robots_oracle::{LineRanges, line_ranges};

/// A robots.txt parser the harness can question.
pub trait Adapter: Send {
    /// Name, language, version and what the parser can express.
    fn info(&self) -> Info;

    /// Answers one request.
    fn answer(&mut self, request: &Request) -> Reply;

    /// Answers a batch, in order. Out-of-process adapters override this
    /// to send the whole batch at once.
    fn answer_batch(&mut self, requests: &[Request]) -> Vec<Reply> {
        requests.iter().map(|r| self.answer(r)).collect()
    }

    /// What it cost so far: processes started and their CPU time
    /// ([`cost::Cost`]). An adapter that answers on the caller's thread
    /// costs that thread's time, which the caller measures: zero here.
    fn cost(&self) -> cost::Cost {
        cost::Cost::default()
    }

    /// When every [`Reply::TimedOut`] it gives was confirmed, the deadline
    /// the parser had for it at least (the request waited for that long
    /// without an answer): such a timeout may be kept and replayed to a
    /// run whose confirmation deadline is no longer. `None` (the default):
    /// its timeouts may be the machine's load and must be asked again.
    fn confirmed_timeouts(&self) -> Option<std::time::Duration> {
        None
    }
}
