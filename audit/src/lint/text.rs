//! The lines of a file as `lint` quotes them: split and numbered as the
//! oracle numbers them (`robots_oracle::line_ranges`), each shown as
//! lossy UTF-8 and cut at a readable length. Never interprets a line.

use robots_oracle::line_ranges;

/// Longest quote of a line, in characters.
const MAX_QUOTE: usize = 120;

/// A body's lines.
pub struct Text {
    lines: Vec<String>,
}

impl Text {
    /// The lines of `body` (a BOM stays in line 1, shown as `\u{feff}`).
    pub fn new(body: &[u8]) -> Text {
        let lines = line_ranges(body)
            .map(|r| {
                let s = String::from_utf8_lossy(&body[r]);
                if s.chars().count() > MAX_QUOTE {
                    s.chars().take(MAX_QUOTE).collect::<String>() + "…"
                } else {
                    s.into_owned()
                }
            })
            .collect();
        Text { lines }
    }

    /// Line `n` (1-based) as written, `` for a number past the end.
    pub fn quote(&self, n: u32) -> String {
        let i = (n as usize).wrapping_sub(1);
        self.lines
            .get(i)
            .map(|l| l.replace('\u{feff}', "\\u{feff}").replace('\0', "\\0"))
            .unwrap_or_default()
    }

    /// Line `n` (1-based) without its comment, trimmed.
    pub fn content(&self, n: u32) -> String {
        let i = (n as usize).wrapping_sub(1);
        let l = self.lines.get(i).map(String::as_str).unwrap_or_default();
        l.split('#').next().unwrap_or_default().trim().to_string()
    }

    /// The number of lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is no line.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}
