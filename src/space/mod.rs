//! The space of readings: the named switches where readings of
//! robots.txt differ (`profile`), profiles that read one body alike
//! (`settle`), which switch explains a parser's answer (`classify`), and
//! the readings of AI usage preferences, which never change a verdict
//! (`usage_switches`).
//!
//! Must never: read a body other than through the reading room, or name a
//! switch without its source (a clause, a document, or a parser's code).

pub(crate) mod classify;
pub(crate) mod profile;
pub(crate) mod settle;
#[cfg(test)]
mod switch_effects;
pub(crate) mod usage_switches;
