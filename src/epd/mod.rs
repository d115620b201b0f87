//! EPD test suites: parse EPD files ([`record`]), run each position through the search or
//! perft ([`runner`]) and report what was solved ([`report`]).
//!
//! The library does no printing: `minkowski epd` (the command line) draws the progress bar
//! and prints lines through a [`runner::Progress`].
//!
//! ```
//! use minkowski::epd::{Suite, runner::{self, Budget, RunOptions}};
//! let suite = Suite::parse("inline", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n");
//! let options = RunOptions { budget: Budget::Depth(1), hash_mb: 1, jobs: 1, threads: 1, max_perft_nodes: None };
//! let report = runner::run(&[suite], &options, &mut ());
//! assert_eq!(report.total.solved, 1);
//! ```

pub mod notation;
pub mod record;
pub mod report;
pub mod runner;

use std::path::Path;

use thiserror::Error;

pub use record::{LineError, Operation, Record};

/// A malformed line, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}: {kind}")]
pub struct ParseError {
    /// The file as named by the caller.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: LineError,
}

/// An EPD file: its good records and its malformed lines.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The file as named by the caller.
    pub name: String,
    /// Parsed positions, in file order.
    pub records: Vec<Record>,
    /// Lines that did not parse, in file order.
    pub errors: Vec<ParseError>,
}

impl Suite {
    /// Parses the text of an EPD file. Never fails: bad lines land in [`Suite::errors`].
    #[must_use]
    pub fn parse(name: &str, text: &str) -> Suite {
        let mut suite = Suite {
            name: name.to_owned(),
            records: Vec::new(),
            errors: Vec::new(),
        };
        for (i, line) in text.lines().enumerate() {
            match record::parse_line(line, i + 1) {
                Ok(Some(r)) => suite.records.push(r),
                Ok(None) => {}
                Err(kind) => suite.errors.push(ParseError {
                    file: name.to_owned(),
                    line: i + 1,
                    kind,
                }),
            }
        }
        suite
    }

    /// Reads and parses an EPD file; it is named in messages as `path` displays.
    ///
    /// # Errors
    ///
    /// When the file cannot be read (missing, unreadable, not UTF-8).
    pub fn load(path: &Path) -> std::io::Result<Suite> {
        let text = std::fs::read_to_string(path)?;
        Ok(Suite::parse(&path.display().to_string(), &text))
    }
}
