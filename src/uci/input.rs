//! The input thread: reads lines from any [`BufRead`] and sends them to the command loop,
//! never blocking it; over-long and non-UTF-8 lines become [`InputError`]s instead. It speaks
//! in its own terms ([`Input`]); the loop's channel takes anything made from them.

use std::io::{self, BufRead};
use std::sync::mpsc::Sender;

use thiserror::Error;

/// Longest input line accepted; longer lines are skipped with a notice (without storing them).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the input thread reads.
pub(super) enum Input {
    /// A line, without `\n` or `\r\n`.
    Line(String),
    /// Input that never became a line.
    Bad(InputError),
    /// The end of input.
    Eof,
}

/// Input that never became a line.
#[derive(Debug, Error)]
pub enum InputError {
    /// A line over [`MAX_LINE_BYTES`].
    #[error("line of {bytes} bytes ignored: longer than the limit of {limit} bytes")]
    TooLong {
        /// Its length.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// A line that is not UTF-8.
    #[error("line ignored: it is not valid UTF-8")]
    NotUtf8,
    /// Reading failed; treated as the end of input.
    #[error("cannot read input ({0}); stopping")]
    Read(io::Error),
}

/// The input thread: lines (without `\n` or `\r\n`) to the channel until the end of input.
pub(super) fn read_lines<R: BufRead, E: From<Input>>(mut input: R, tx: &Sender<E>) {
    loop {
        let input = match read_line_capped(&mut input, MAX_LINE_BYTES) {
            Ok(Some(Ok(line))) => Input::Line(line),
            Ok(Some(Err(bad))) => Input::Bad(bad),
            Ok(None) => Input::Eof,
            Err(e) => {
                let _ = tx.send(Input::Bad(InputError::Read(e)).into());
                Input::Eof
            }
        };
        let last = matches!(input, Input::Eof);
        if tx.send(input.into()).is_err() || last {
            return;
        }
    }
}

/// One line, at most `cap` bytes kept. `Ok(None)` at the end of input; an over-long line is
/// consumed to its end but not stored.
fn read_line_capped<R: BufRead>(
    input: &mut R,
    cap: usize,
) -> io::Result<Option<Result<String, InputError>>> {
    let mut buf = Vec::new();
    let mut bytes = 0usize;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        bytes += chunk.len();
        if bytes <= cap {
            buf.extend_from_slice(chunk);
        } else {
            buf = Vec::new();
        }
        let used = newline.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if bytes > cap {
        return Ok(Some(Err(InputError::TooLong { bytes, limit: cap })));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(
        String::from_utf8(buf).map_err(|_| InputError::NotUtf8),
    ))
}
