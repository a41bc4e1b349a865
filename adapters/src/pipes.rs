//! Reading an adapter process's stdout and stderr with bounded memory.
//!
//! stdout is cut into protocol lines of at most [`MAX_LINE`] bytes; a
//! longer line (or a flood without a newline) ends the reading with
//! [`Line::TooLong`], so the process is treated as broken instead of
//! growing our memory. stderr is read as bytes for as long as the process
//! runs (a non-UTF-8 byte must never stop the reader: the adapter would
//! then die of EPIPE) and only its last [`STDERR_TAIL`] bytes are kept,
//! for crash messages.
//!
//! This module must never buffer an unbounded amount of an adapter's
//! output, and never stop draining stderr while the process lives.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The longest protocol line an adapter may write (bytes, newline
/// excluded).
pub const MAX_LINE: usize = 16 << 20;

/// How much of an adapter's stderr is kept (the last bytes).
pub const STDERR_TAIL: usize = 4 << 10;

/// How much of the stderr tail a message quotes (its end), leaving room
/// within [`MAX_MESSAGE`] for what the message says about it.
pub const QUOTED_TAIL: usize = 3 << 10;

/// The longest message (crash, protocol error, adapter error) carried
/// into a reply and thus into reports.
pub const MAX_MESSAGE: usize = 4 << 10;

/// What the stdout reader hands over.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// One line, without its line end (invalid UTF-8 replaced).
    Text(String),
    /// A line longer than [`MAX_LINE`]: nothing more is read.
    TooLong,
    /// End of stdout (or a read error).
    Closed,
}

/// A line longer than the limit (what of it was read is consumed; the
/// rest is not: see [`skip_line`]).
#[derive(Debug, PartialEq, Eq)]
pub struct TooLong;

/// What ended a walk over one line ([`each_piece`]).
enum End {
    /// Its newline (consumed).
    Newline,
    /// The end of input.
    Eof,
    /// The caller stopped it (the piece it refused is not consumed).
    Stopped,
}

/// The one read loop of both line readers: hands the bytes up to the next
/// newline to `take`, a buffer at a time (the newline excluded), consuming
/// each piece `take` accepts; `take` returns `false` to stop.
fn each_piece<R: BufRead>(
    r: &mut R,
    mut take: impl FnMut(&[u8]) -> bool,
) -> std::io::Result<End> {
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(End::Eof);
        }
        let (n, newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if !take(&buf[..n]) {
            return Ok(End::Stopped);
        }
        r.consume(n + usize::from(newline));
        if newline {
            return Ok(End::Newline);
        }
    }
}

/// Reads the next line of at most `max` bytes, without its line end.
/// `Ok(None)` at end of input (a last line without newline is a line).
pub fn next_line<R: BufRead>(
    r: &mut R,
    max: usize,
) -> std::io::Result<Option<Result<Vec<u8>, TooLong>>> {
    let mut line = Vec::new();
    let end = each_piece(r, |piece| {
        let fits = line.len() + piece.len() <= max;
        if fits {
            line.extend_from_slice(piece);
        }
        fits
    })?;
    Ok(match end {
        End::Stopped => Some(Err(TooLong)),
        End::Eof => (!line.is_empty()).then_some(Ok(line)),
        End::Newline => {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            Some(Ok(line))
        }
    })
}

/// Consumes input up to and including the next newline, in bounded
/// memory (what is left of a [`TooLong`] line).
pub fn skip_line<R: BufRead>(r: &mut R) -> std::io::Result<()> {
    each_piece(r, |_| true).map(|_| ())
}

/// Sends the lines of `stdout` (each at most `max` bytes) until it ends,
/// a line is too long, or the receiver is gone. Blocks while the channel
/// is full, so at most its capacity of lines is ever buffered.
pub fn read_lines(stdout: impl Read, max: usize, tx: &SyncSender<Line>) {
    let mut r = BufReader::with_capacity(64 << 10, stdout);
    loop {
        let next = match next_line(&mut r, max) {
            Ok(Some(Ok(bytes))) => {
                Line::Text(String::from_utf8_lossy(&bytes).into_owned())
            }
            Ok(Some(Err(TooLong))) => Line::TooLong,
            Ok(None) | Err(_) => Line::Closed,
        };
        let last = !matches!(next, Line::Text(_));
        if tx.send(next).is_err() || last {
            return;
        }
    }
}

#[derive(Debug, Default)]
struct Kept {
    bytes: VecDeque<u8>,
    /// stderr reached its end.
    ended: bool,
}

/// The last bytes of a process's stderr, shared with its reader thread.
#[derive(Clone, Debug, Default)]
pub struct Tail(Arc<(Mutex<Kept>, Condvar)>);

impl Tail {
    /// Reads `stderr` to its end, keeping the last [`STDERR_TAIL`] bytes.
    pub fn drain(&self, mut stderr: impl Read) {
        let mut chunk = [0u8; 8 << 10];
        loop {
            let n = match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let Ok(mut t) = self.0.0.lock() else { return };
            let kept = &chunk[n.saturating_sub(STDERR_TAIL)..n];
            t.bytes.extend(kept);
            let over = t.bytes.len().saturating_sub(STDERR_TAIL);
            t.bytes.drain(..over);
        }
        if let Ok(mut t) = self.0.0.lock() {
            t.ended = true;
        }
        self.0.1.notify_all();
    }

    /// Waits up to `limit` for stderr to end (a process that died has
    /// last words on their way), then [`Tail::text`].
    pub fn last_words(&self, limit: Duration) -> String {
        if let Ok(t) = self.0.0.lock() {
            let _ = self.0.1.wait_timeout_while(t, limit, |t| !t.ended);
        }
        self.text()
    }

    /// The end of the tail as one line (at most [`QUOTED_TAIL`] bytes):
    /// lossy UTF-8, lines joined by ` | `.
    pub fn text(&self) -> String {
        let bytes: Vec<u8> = self
            .0
            .0
            .lock()
            .map(|t| t.bytes.iter().copied().collect())
            .unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" | ");
        if text.len() <= QUOTED_TAIL {
            return text;
        }
        let mut start = text.len() - QUOTED_TAIL;
        while !text.is_char_boundary(start) {
            start += 1;
        }
        format!("…{}", &text[start..])
    }
}

/// `message` cut to at most [`MAX_MESSAGE`] bytes (at a character
/// boundary), saying how much was cut.
pub fn cap(message: String) -> String {
    if message.len() <= MAX_MESSAGE {
        return message;
    }
    let mut end = MAX_MESSAGE;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes cut)", &message[..end], message.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::sync_channel;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let (tx, rx) = sync_channel(64);
        read_lines(input, max, &tx);
        drop(tx);
        rx.into_iter().collect()
    }

    #[test]
    fn lines_are_cut_at_newlines_and_crlf() {
        assert_eq!(
            lines(b"a\r\nbc\n\nd", 10),
            vec![
                Line::Text("a".into()),
                Line::Text("bc".into()),
                Line::Text(String::new()),
                Line::Text("d".into()),
                Line::Closed,
            ]
        );
    }

    #[test]
    fn a_line_longer_than_the_cap_ends_reading() {
        assert_eq!(
            lines(b"12345\n123456\nok\n", 5),
            vec![Line::Text("12345".into()), Line::TooLong]
        );
        let flood = vec![b'x'; 1 << 20];
        assert_eq!(lines(&flood, 1000), vec![Line::TooLong]);
    }

    #[test]
    fn the_rest_of_a_long_line_can_be_skipped() {
        let mut r = BufReader::with_capacity(4, &b"0123456789\nok\n"[..]);
        assert_eq!(next_line(&mut r, 5).unwrap(), Some(Err(TooLong)));
        skip_line(&mut r).unwrap();
        assert_eq!(next_line(&mut r, 5).unwrap(), Some(Ok(b"ok".to_vec())));
        assert_eq!(next_line(&mut r, 5).unwrap(), None);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(
            lines(b"a\xffb\nc\n", 10),
            vec![
                Line::Text("a\u{fffd}b".into()),
                Line::Text("c".into()),
                Line::Closed
            ]
        );
    }

    #[test]
    fn the_stderr_tail_keeps_only_the_last_bytes() {
        let tail = Tail::default();
        let mut input = vec![b'a'; 100_000];
        input.extend_from_slice(b"\n\xff last words\n");
        tail.drain(&input[..]);
        let text = tail.text();
        assert!(text.len() <= QUOTED_TAIL + 8, "{}", text.len());
        assert!(text.ends_with("\u{fffd} last words"), "{text}");
    }

    #[test]
    fn messages_are_capped_at_a_char_boundary() {
        assert_eq!(cap("short".into()), "short");
        let long = "é".repeat(MAX_MESSAGE);
        let capped = cap(long);
        assert!(capped.len() < MAX_MESSAGE + 40);
        assert!(capped.ends_with("bytes cut)"));
    }
}
