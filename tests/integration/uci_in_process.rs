//! The UCI loop in-process, over any reader and writer (`minkowski::uci::run_uci`), and the
//! command-line mode that runs lines given up front (`minkowski::uci::run_uci_commands`).

use std::io::Cursor;

use crate::common::uci_session::{Shared, run_commands};
use minkowski::config::Config;
use minkowski::uci::{MAX_LINE_BYTES, run_uci};

/// The loop's output for `input`, with a notice to show after `uci`.
fn run(input: &[u8]) -> Vec<String> {
    let out = Shared::default();
    run_uci(
        Cursor::new(input.to_vec()),
        out.clone(),
        &Config::default(),
        &["hello".to_owned()],
    );
    out.lines()
}

#[test]
fn runs_in_process_over_any_reader_and_writer() {
    let lines = run(b"uci\nisready\nposition startpos moves e2e4\ngo infinite\n");
    assert!(lines.iter().any(|l| l == "info string hello"));
    assert!(lines.iter().any(|l| l == "uciok") && lines.iter().any(|l| l == "readyok"));
    // End of input stopped the infinite search, which still answered.
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
}

#[test]
fn a_too_long_line_is_skipped_whole_and_the_next_lines_are_intact() {
    let mut input = vec![b'x'; MAX_LINE_BYTES + 1];
    input.extend_from_slice(b"\nisready\r\nuci"); // CRLF, then a last line without newline
    let lines = run(&input);
    assert!(
        lines[0].starts_with(&format!("info string line of {} bytes", MAX_LINE_BYTES + 1)),
        "{lines:?}"
    );
    assert_eq!(lines[1], "readyok");
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
}

#[test]
fn command_line_lines_wait_for_the_search_before_them() {
    // `quit` right after `go depth 6` must not cut the search short.
    let lines = run_commands(&["position startpos", "go depth 6", "quit"]);
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert!(
        depths.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:?}"
    );
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
}

#[test]
fn command_line_lines_run_in_order_and_stop_an_infinite_search_at_the_end() {
    let lines = run_commands(&[
        "bench 2",
        "isready",
        "position startpos moves e2e4",
        "d",
        "go infinite",
    ]);
    let bench = lines
        .iter()
        .position(|l| l.ends_with(" nps"))
        .expect("bench line");
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(
        bench < ready,
        "the bench ends before the next line runs: {lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: ") && l.contains(" b KQkq "))
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
}
