//! The C library's Rust tests, one test binary: each file of this folder is a module (its tests
//! are `<file>::<test>`, so `cargo test -p minkowski-chess-capi --test integration -- header::`
//! runs the tests of `header.rs`).
//!
//! Why one binary: every file of `tests/` is a test binary of its own, and under
//! `cargo test --release` (the README's test command) each is linked with the release profile's
//! fat LTO and one codegen unit; one binary is linked once. None of these tests needs a process
//! of its own: they change no process-wide state (environment, working directory).

mod api;
mod handle;
mod header;
mod random_bytes;
mod search_calls;
mod wrong_boards;
