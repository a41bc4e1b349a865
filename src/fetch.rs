//! Access results (§2.3.1) and caching (§2.4): from what a fetch of
//! robots.txt returned to what the crawler may do. Pure; no I/O.
//!
//! Filled in by the fetch-semantics work; see issue 5.
