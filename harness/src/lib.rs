//! The conformance runner: loads the cases under `spec-cases/` (the
//! [`case`] format and the [`suite`] of files and clauses), asks an
//! adapter each check ([`run`]), judges the replies against the expected
//! outcome for a profile, and reports ([`render`], [`coverage`], a
//! parser's [`certify`] certificate and its [`badge`]).
//!
//! It knows the shape of a case, never robots.txt semantics: parsing,
//! matching and normalising belong to the oracle and the adapters.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod badge;
pub mod baseline;
pub mod budget;
pub mod cache;
pub mod case;
pub mod certify;
pub mod column;
pub mod cost;
pub mod coverage;
pub mod matrix;
pub mod output;
pub mod render;
pub mod report;
pub mod run;
pub mod suite;
