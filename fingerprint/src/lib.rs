//! Fingerprints: the reading of robots.txt that best explains a parser.
//!
//! A parser's answers to the suite are collected once ([`answers`]); then
//! the oracle is re-asked under other readings ([`reading`]: a rule
//! [`Profile`](robots_oracle::Profile) plus a
//! [`FetchProfile`](robots_oracle::fetch::FetchProfile)) and a hill climb
//! ([`fit`]) keeps every single-switch change that makes the oracle agree
//! with the parser on more checks. What no reading explains is left over:
//! that parser's bugs ([`fit::Fit::residual`]).
//!
//! What is left is turned into upstream-ready reports by [`bugs`]: each
//! residual check minimised, grouped by cause.
//!
//! The fit never asks the parser twice ([`bugs`] asks it again, only to
//! minimise), never judges against a case's expectation (the fit compares
//! answers with answers), and reaches the oracle only through the
//! reference adapter.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod answers;
pub mod bugs;
pub mod fit;
pub mod from_matrix;
pub mod history;
pub mod history_render;
pub mod reading;
pub mod register;

pub use answers::{Answers, agree};
pub use bugs::{About, Bug, find_bugs, write_bugs};
pub use fit::{Fit, Residual, fingerprint};
pub use reading::{Move, Reading, moves};
