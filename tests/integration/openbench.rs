//! The built binary, driven the way an OpenBench client drives it: `minkowski bench` read with the
//! client's two patterns, and `minkowski "genfens N seed S book <None|FILE>" quit` read line by
//! line. Every opening is checked independently: parsed by shakmaty, searched afresh through the
//! library, and (with a book) found within the random plies of a book position.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use minkowski::openings::{
    BALANCE_DEPTH, BALANCE_HASH_MB, MAX_BALANCED_CP, PLIES_AFTER_BOOK, parse_book,
};
use minkowski::search::{Limits, Score, SearchControl, Searcher};
use regex::Regex;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The node count of `minkowski bench` (depth 16): the search's signature, as in the commits'
/// `Bench:` lines.
const BENCH_NODES: u64 = 12_019_398;

/// Run the binary with `args` from the repository root; its stdout, after checking it exited 0.
fn minkowski(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{args:?}: {:?}", output.status);
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// What the client reads from `bench`: the last `(\d+)\s+nodes` and `(\d+)\s+nps` matches.
fn bench_figures() -> (u64, u64) {
    let text = minkowski(&["bench"]);
    let last = |pattern: &str| -> u64 {
        let re = Regex::new(pattern).expect("valid regex");
        let caps = re.captures_iter(&text).last().expect("pattern found");
        caps[1].parse().expect("a number")
    };
    let figures = (last(r"(\d+)\s+nodes"), last(r"(\d+)\s+nps"));
    let final_line = text.lines().last().expect("output");
    assert_eq!(final_line, format!("{} nodes {} nps", figures.0, figures.1));
    figures
}

#[test]
fn bench_gives_the_same_pinned_node_count_every_run() {
    let (nodes, nps) = bench_figures();
    assert_eq!(nodes, BENCH_NODES);
    assert!(nps > 0);
    assert_eq!(bench_figures().0, nodes);
}

/// The FENs of every `info string genfens <FEN>` line, in order.
fn genfens(command: &str) -> Vec<String> {
    minkowski(&[command, "quit"])
        .lines()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_owned)
        .collect()
}

/// Legal (shakmaty accepts it), not over, and scored near equal by a fresh shallow search.
fn check_opening(fen: &str) -> Chess {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert!(!pos.is_game_over(), "{fen}");
    let limits = Limits {
        depth: Some(BALANCE_DEPTH),
        ..Limits::default()
    };
    let result = Searcher::new(BALANCE_HASH_MB).search(
        &pos,
        &[],
        &limits,
        &SearchControl::default(),
        &mut (),
    );
    assert!(
        matches!(result.score, Score::Cp(cp) if cp.abs() <= MAX_BALANCED_CP),
        "{fen}: {:?}",
        result.score
    );
    pos
}

/// The first four FEN fields (what makes two openings the same position).
fn position_key(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

fn assert_distinct(positions: &[Chess]) {
    let keys: HashSet<String> = positions.iter().map(position_key).collect();
    assert_eq!(keys.len(), positions.len(), "openings repeat");
}

#[test]
fn genfens_without_a_book_is_deterministic_distinct_legal_and_balanced() {
    let first = genfens("genfens 20 seed 7 book None");
    assert_eq!(first.len(), 20);
    assert_eq!(genfens("genfens 20 seed 7 book None"), first);
    let positions: Vec<Chess> = first.iter().map(|f| check_opening(f)).collect();
    assert_distinct(&positions);
    assert!(positions.iter().all(|p| *p != Chess::default()));
    assert_ne!(genfens("genfens 20 seed 8 book None"), first);
}

/// Every position within `plies` legal plies of `pos`, by their keys.
fn reachable(pos: &Chess, plies: u32, into: &mut HashSet<String>) {
    into.insert(position_key(pos));
    if plies > 0 {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            reachable(&child, plies - 1, into);
        }
    }
}

#[test]
fn genfens_with_a_book_starts_from_its_positions() {
    let book_file = "epd/sts1.epd";
    let command = format!("genfens 10 seed 11 book {book_file}");
    let fens = genfens(&command);
    assert_eq!(fens.len(), 10);
    assert_eq!(genfens(&command), fens);
    let positions: Vec<Chess> = fens.iter().map(|f| check_opening(f)).collect();
    assert_distinct(&positions);
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(book_file))
        .expect("book in the repo");
    let book = parse_book(&text);
    assert!(book.skipped.is_empty());
    let mut near_book = HashSet::new();
    for pos in &book.positions {
        reachable(pos, PLIES_AFTER_BOOK, &mut near_book);
    }
    for pos in &positions {
        assert!(
            near_book.contains(&position_key(pos)),
            "{}",
            position_key(pos)
        );
    }
}

#[test]
fn bad_genfens_arguments_get_an_answer_and_the_engine_carries_on() {
    let text = minkowski(&[
        "genfens x",
        "genfens 3 seed 1 book no/such/book.epd",
        "genfens 2 book README.md",
        "isready",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("info string genfens: bad count 'x'"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("info string genfens: cannot read the book"),
        "{lines:?}"
    );
    assert!(lines.contains(&"info string genfens: the book 'README.md' has no positions"));
    assert_eq!(lines.last(), Some(&"readyok"));
    assert!(!lines.iter().any(|l| l.starts_with("info string genfens ")));
}

#[test]
fn command_line_uci_lines_search_to_the_depth_asked() {
    let text = minkowski(&["position startpos moves e2e4", "go depth 7", "quit"]);
    assert!(
        text.lines().any(|l| l.starts_with("info depth 7 ")),
        "{text}"
    );
    let last = text.lines().last().expect("output");
    assert!(last.starts_with("bestmove "), "{text}");
}
