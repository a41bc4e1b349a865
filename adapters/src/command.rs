//! The zero-code way in: any command-line program, run once per check
//! from a template in the style of Google's robots-spec-test, e.g.
//! `robots_main {robots} {agent} {url}`: exit status 0 means allowed and
//! 1 disallowed, or, with a stdout pattern, "allowed" when the output
//! contains it. `{robots}` is a file holding the body's exact bytes.
//!
//! It only runs the program and reads its exit status or output; it never
//! interprets the body, and never runs the program through a shell.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command as Proc, Stdio};
use std::time::{Duration, Instant};

use crate::{Adapter, Capabilities, Info, Reply, Request};

/// A command template adapter.
pub struct Template {
    argv: Vec<String>,
    allowed_pattern: Option<String>,
    deadline: Duration,
    scratch: PathBuf,
    info: Info,
}

/// Why a command template cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// A quote is opened and never closed.
    #[error("unbalanced quote in `{0}`")]
    UnbalancedQuote(String),
    /// No words at all.
    #[error("empty command")]
    Empty,
    /// No `{{url}}` placeholder.
    #[error("the command template needs {{url}}")]
    NoUrl,
    /// The scratch folder cannot be created.
    #[error("cannot create the scratch folder {path}: {source}")]
    Scratch {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Splits a template into words: whitespace separates, single or double
/// quotes group, backslash escapes the next character.
pub fn words(template: &str) -> Result<Vec<String>, TemplateError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = template.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (_, '\\') => {
                word.extend(chars.next());
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(TemplateError::UnbalancedQuote(template.to_string()));
    }
    if in_word {
        out.push(word);
    }
    if out.is_empty() {
        return Err(TemplateError::Empty);
    }
    Ok(out)
}

impl Template {
    /// An adapter running `template` per check.
    ///
    /// # Errors
    ///
    /// When the template does not split into words or lacks `{url}`.
    pub fn new(
        template: &str,
        allowed_pattern: Option<String>,
        deadline: Duration,
    ) -> Result<Template, TemplateError> {
        let argv = words(template)?;
        if !argv.iter().any(|w| w.contains("{url}")) {
            return Err(TemplateError::NoUrl);
        }
        let scratch = std::env::temp_dir()
            .join(format!("robots-conformance-cmd-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).map_err(|source| {
            TemplateError::Scratch { path: scratch.clone(), source }
        })?;
        let info = Info {
            name: "command".into(),
            language: "any".into(),
            version: argv[0].clone(),
            profile: "rfc9309".into(),
            capabilities: Capabilities::decide_only(),
        };
        Ok(Template { argv, allowed_pattern, deadline, scratch, info })
    }
}

impl Adapter for Template {
    fn info(&self) -> Info {
        self.info.clone()
    }

    fn answer(&mut self, request: &Request) -> Reply {
        let Request::Decide { robots, agent, url } = request else {
            return Reply::not_applicable(format!(
                "a command answers decide only, not {}",
                request.op()
            ));
        };
        let file = self.scratch.join("robots.txt");
        if let Err(e) = std::fs::write(&file, robots) {
            return Reply::Error {
                message: format!("cannot write {}: {e}", file.display()),
            };
        }
        let argv: Vec<String> = self
            .argv
            .iter()
            .map(|w| {
                w.replace("{robots}", &file.to_string_lossy())
                    .replace("{agent}", agent)
                    .replace("{url}", url)
            })
            .collect();
        let mut child = match Proc::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                return Reply::Crashed {
                    message: format!("cannot run {}: {e}", argv[0]),
                };
            }
        };
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if start.elapsed() > self.deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Reply::TimedOut;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return Reply::Crashed { message: e.to_string() },
            }
        };
        let mut out = String::new();
        if let Some(mut s) = child.stdout.take() {
            let _ = s.read_to_string(&mut out);
        }
        if let Some(p) = &self.allowed_pattern {
            return match status.code() {
                Some(_) => Reply::verdict(out.contains(p.as_str())),
                None => {
                    Reply::Crashed { message: "killed by a signal".into() }
                }
            };
        }
        match status.code() {
            Some(0) => Reply::verdict(true),
            Some(1) => Reply::verdict(false),
            Some(c) => Reply::Error { message: format!("exit status {c}") },
            None => Reply::Crashed { message: "killed by a signal".into() },
        }
    }
}

impl Drop for Template {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(words("a 'b c' \"d\"e\\ f").unwrap(), ["a", "b c", "de f"]);
        assert!(words("a 'b").is_err());
    }
}
