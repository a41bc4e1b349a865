//! The case format: TOML files under `spec-cases/` (schema in
//! `spec-cases/README.md`), loaded into [`Case`]s with every structural
//! mistake reported as a [`CaseError`] naming file, line and case id.
//!
//! - [`model`]: the types (case, check, expectation);
//! - [`schema`]: the TOML schema, read and written;
//! - [`body`]: a case's body (text, hex, base64, parts), bounded;
//! - [`fetch`]: a fetch case's scenario;
//! - [`expect`]: expectations, one parser for every vocabulary;
//! - [`build`]: one case from one `[[case]]` table;
//! - [`url`]: which URLs a case may ask about;
//! - [`load`]: files, positions, and the errors they carry;
//! - [`error`]: what a mistake is.
//!
//! Knows the *shape* of a case (body bytes, agent, URL, expectation per
//! profile, clause ids), never robots.txt semantics: it must never decide
//! what an answer should be.

pub mod body;
pub mod build;
pub mod error;
pub mod expect;
pub mod fetch;
pub mod load;
pub mod model;
pub mod schema;
pub mod url;

pub use body::{BodyError, MAX_BODY_BYTES};
pub use build::Known;
pub use error::{At, CaseError, CaseErrorKind};
pub use expect::{ExpectError, Vocabulary};
pub use fetch::{DurationError, FetchError, parse_duration};
pub use load::{
    MAX_FILE_BODIES_BYTES, MAX_FILE_BYTES, load_bytes, load_file, name_prefix,
};
pub use model::{Case, Check, Expected, PROFILES, Phrase, REASONS, SOURCES};
pub use url::is_case_url;
