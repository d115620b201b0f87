//! The UCI protocol: a command loop over any [`BufRead`](std::io::BufRead) and
//! [`Write`](std::io::Write).
//!
//! Three kinds of thread:
//!
//! - the **input** thread (`read_lines`, in `input.rs`) reads lines and sends them down a channel; it
//!   never blocks anyone;
//! - the **command loop** (the caller's thread, [`run_uci`]) owns the engine state: options,
//!   position, the [`Searcher`](crate::search::Searcher) while it is idle. It answers every
//!   command at once, `isready` included, because it never searches or counts itself;
//! - a **worker** thread per `go`, `go perft` and `bench` (a `job::Job`): the work runs there
//!   (a search with the `Searcher` moved in), writes its lines through the shared
//!   [`Output`](output::Output), and a search sends the `Searcher` and its result back down the
//!   same channel.
//!
//! A `go wtime ...` line goes: `input.rs` (the input thread), then `command_loop.rs`
//! (`Engine::execute`) → `command.rs` (parsed straight into the search's
//! [`Limits`](crate::search::Limits)) → `scheduling.rs` (started or queued) → `job.rs` (the
//! worker thread) → [`crate::search`] → `output.rs` (`info` lines through the reporter, then the
//! `bestmove`).
//!
//! The command loop has exactly one `bestmove` printed per `go`. In infinite and ponder mode a
//! result that arrives early is held until `stop` or `ponderhit`, as the UCI spec requires.
//!
//! The command loop's own code is three files: `engine.rs` (its state, the `Engine`, and
//! keeping the idle searcher in step with the options),
//! `command_loop.rs` (the entry points, reading events and answering each command) and
//! `scheduling.rs` (when jobs start, queue, stop and end, so that every `go` gets one
//! `bestmove`).

pub mod command;
mod command_loop;
mod engine;
pub mod game;
mod input;
mod job;
pub mod memory;
pub mod options;
pub mod output;
mod scheduling;

pub use command_loop::{run_uci, run_uci_commands};
pub use input::{InputError, MAX_LINE_BYTES};
