//! The UCI command parser through its public API (`minkowski::uci::command::parse_line`): every
//! line becomes a typed command, `go` straight into the search's `Limits`.

use std::time::Duration;

use minkowski::openings::{PLIES_AFTER_BOOK, PLIES_WITHOUT_BOOK};
use minkowski::search::Limits;
use minkowski::uci::command::{Command, MAX_GO_DEPTH, parse_line};
use shakmaty::uci::UciMove;

fn go(line: &str) -> (Limits, Vec<UciMove>, Vec<String>) {
    let parsed = parse_line(line).unwrap().unwrap();
    match parsed.command {
        Command::Go {
            limits,
            searchmoves,
        } => (limits, searchmoves, parsed.notices),
        other => panic!("not go: {other:?}"),
    }
}

#[test]
fn go_ponder_keeps_the_clock() {
    let (spec, _, notices) = go("go ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
    assert!(spec.ponder);
    assert_eq!((spec.wtime, spec.btime), (Some(1000), Some(2000)));
    assert_eq!(
        (spec.winc, spec.binc, spec.movestogo),
        (Some(10), Some(20), Some(5))
    );
    assert!(notices.is_empty());
}

#[test]
fn go_values_are_clamped_not_fatal() {
    let (spec, _, notices) = go("go depth 256 nodes 1000000000000 movetime -5");
    assert_eq!(spec.depth, Some(MAX_GO_DEPTH));
    assert_eq!(spec.nodes, Some(1_000_000_000_000));
    assert_eq!(spec.movetime, Some(Duration::ZERO));
    assert_eq!(notices.len(), 2);
    let (spec, _, _) = go("go depth 99999999999999999999999999999999999999999999");
    assert_eq!(spec.depth, Some(MAX_GO_DEPTH));
    let (spec, _, notices) = go("go wtime -300 foo 3 depth");
    assert_eq!(spec.wtime, Some(-300));
    assert_eq!(notices.len(), 3, "{notices:?}");
}

#[test]
fn go_searchmoves_and_perft() {
    let (spec, moves, _) = go("go searchmoves e2e4 d2d4 depth 3");
    assert_eq!(moves.len(), 2);
    assert!(spec.searchmoves.is_empty()); // resolved against the position later
    assert_eq!(spec.depth, Some(3));
    assert_eq!(
        parse_line("go perft 4").unwrap().unwrap().command,
        Command::Perft(4)
    );
    assert!(parse_line("go perft").is_err());
    assert!(parse_line("go perft x").is_err());
}

#[test]
fn position_shredder_fen_and_moves() {
    let line =
        "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1";
    let Command::Position(spec) = parse_line(line).unwrap().unwrap().command else {
        panic!()
    };
    assert_eq!(
        spec.fen.as_deref().map(|f| f.ends_with("HFhf - 2 9")),
        Some(true)
    );
    assert_eq!(spec.moves, ["g1h1"]);
    assert!(parse_line("position startpos e2e4").is_err());
    assert!(parse_line("position").is_err());
    assert!(parse_line("position fen").is_err());
}

#[test]
fn simple_commands_match_whole_words() {
    assert_eq!(
        parse_line("  ISREADY \r").unwrap().unwrap().command,
        Command::IsReady
    );
    assert!(parse_line("isreadyX").is_err());
    assert_eq!(
        parse_line("debug on").unwrap().unwrap().command,
        Command::Debug(true)
    );
    assert!(parse_line("debug maybe").is_err());
    assert_eq!(parse_line("   ").unwrap(), None);
}

#[test]
fn setoption_names_with_spaces() {
    let cmd = parse_line("setoption name Move  Overhead value 100")
        .unwrap()
        .unwrap();
    assert_eq!(
        cmd.command,
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("100".into())
        }
    );
    let cmd = parse_line("setoption name Clear Hash").unwrap().unwrap();
    assert_eq!(
        cmd.command,
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert!(parse_line("setoption Hash 4").is_err());
    assert!(parse_line("setoption name value 4").is_err());
}

#[test]
fn genfens_as_openbench_sends_it() {
    let parsed = parse_line("genfens 20 seed 7 book None extra words")
        .unwrap()
        .unwrap();
    let Command::GenFens { request, book } = parsed.command else {
        panic!("not genfens")
    };
    assert_eq!(
        (request.count, request.seed, request.plies),
        (20, 7, PLIES_WITHOUT_BOOK)
    );
    assert_eq!(book, None);
    assert_eq!(parsed.notices.len(), 2, "{:?}", parsed.notices); // `extra`, `words`
    let parsed = parse_line("genfens 5 seed 18446744073709551615 book Books/x.epd plies 4");
    let Command::GenFens { request, book } = parsed.unwrap().unwrap().command else {
        panic!("not genfens")
    };
    assert_eq!((request.seed, request.plies), (u64::MAX, 4));
    assert_eq!(book.as_deref(), Some("Books/x.epd"));
    let with_book = parse_line("genfens 5 book b.epd").unwrap().unwrap().command;
    assert!(
        matches!(with_book, Command::GenFens { request, .. } if request.plies == PLIES_AFTER_BOOK)
    );
    for bad in [
        "genfens",
        "genfens 0",
        "genfens x seed 1",
        "genfens 5 seed",
        "genfens 5 seed -1",
        "genfens 5 plies 99",
    ] {
        let err = parse_line(bad).unwrap_err().to_string();
        assert!(
            err.starts_with("genfens: ") && err.contains("usage"),
            "{bad}: {err}"
        );
    }
}
