//! The engine's integration tests, one test binary: each file of this folder is a module (its
//! tests are `<file>::<test>`, so `cargo test --release --test integration -- uci::` runs the
//! tests of `uci.rs`), `common/` and `uci_harness/` the helpers they share.
//!
//! Why one binary: every file of `tests/` is a test binary of its own, and under
//! `cargo test --release` (the README's test command) each is linked with the release profile's
//! fat LTO and one codegen unit, 35 to 100 s of one core apiece; forty of them were most of CI's
//! build time. One binary is linked once.
//!
//! Separate binaries, because they need a process of their own or a build of their own:
//! - `tests/thread_leaks.rs` counts the threads of its process (`/proc/self/task`): the other
//!   tests' threads must not be there;
//! - `tests/search_stats.rs` is built alone with `--features search-stats` in the test profile
//!   (.ci/run), which would otherwise build and run all of these.
//!
//! The tests here run in parallel threads of one process, as the tests of one file always did:
//! none may change the process's state (environment, working directory, global allocator), and
//! each writes its scratch files under a name of its own in `CARGO_TARGET_TMPDIR`.

mod common;
mod uci_harness;

mod config;
mod datagen;
mod datagen_shards;
mod endgames;
mod epd;
mod eval_pinned;
mod eval_scale;
mod eval_symmetry;
mod eval_trace;
mod examples;
mod fork_suite;
mod geometry;
#[cfg(feature = "syzygy")]
mod knight_vs_passer_tables;
#[cfg(feature = "syzygy")]
mod kpk;
mod layers;
mod mate_drills;
#[cfg(target_os = "linux")] // resident memory is read from /proc/<pid>/status
mod memory;
#[cfg(feature = "syzygy")]
mod mopup_perfect;
mod null_move_shortcut;
mod openbench;
mod own_suites;
mod random_input;
mod search;
mod search_params;
mod searcher_weights;
mod strength;
mod stress;
#[cfg(feature = "syzygy")]
mod syzygy;
mod threads;
mod tune;
mod tune_cli;
mod tune_gradient;
mod tune_sampling;
mod uci;
mod uci_commands;
mod uci_in_process;
mod uci_malformed;
mod version;
mod wdl;
