//! The input thread: reads lines from any [`BufRead`] and sends them to the command loop,
//! never blocking it; over-long and non-UTF-8 lines become [`InputError`]s instead.

use std::io::{self, BufRead};
use std::sync::mpsc::Sender;

use thiserror::Error;

use super::{Event, MAX_LINE_BYTES};

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
pub(super) fn read_lines<R: BufRead>(mut input: R, tx: &Sender<Event>) {
    loop {
        let event = match read_line_capped(&mut input, MAX_LINE_BYTES) {
            Ok(Some(Ok(line))) => Event::Line(line),
            Ok(Some(Err(bad))) => Event::BadInput(bad),
            Ok(None) => Event::Eof,
            Err(e) => {
                let _ = tx.send(Event::BadInput(InputError::Read(e)));
                Event::Eof
            }
        };
        let last = matches!(event, Event::Eof);
        if tx.send(event).is_err() || last {
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
