//! How parsers plug into the conformance harness.
//!
//! An [`Adapter`] answers [`Request`]s about robots.txt bodies with
//! [`Reply`]s. It has one required method, [`Adapter::answer`]; batching
//! ([`Adapter::answer_batch`]) has a default. The reference oracle is an
//! adapter like any other ([`reference::Reference`]), so the harness gets
//! no private path to it.
//!
//! An adapter translates; it never works around its parser's quirks,
//! because those quirks are what the suite exists to find. A request the
//! parser cannot express is answered [`Reply::NotApplicable`], never
//! guessed.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod command;
pub mod isolate;
pub mod manifest;
pub mod process;
pub mod reference;
pub mod registry;
mod request;
pub mod rust;

pub use request::{
    Capabilities, Explanation, Info, Live, Reply, Request, Verdict,
};
/// The reference oracle itself, for tools that vary its profile.
pub use robots_oracle as oracle;

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
}
