//! The UCI front end, driven through the real binary on stdin/stdout as a GUI would.
//!
//! Every read has a timeout, so a hang fails the test instead of blocking it. The tests check
//! what holds for any search (one legal `bestmove` per `go`, at the right time), not which move
//! the search picks.

use std::thread;
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move};

use crate::uci_harness::*;

#[test]
fn handshake_and_game_as_cute_chess_sends_it() {
    let mut engine = Engine::start();
    let ids = engine.handshake();
    assert_eq!(ids[0], format!("id name Minkowski {}", minkowski::VERSION));
    assert!(ids[1].starts_with("id author "));
    for option in [
        "option name Hash type spin default 16 min 1 max 32768",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name UCI_Chess960 type check default false",
        "option name Clear Hash type button",
    ] {
        assert!(ids.iter().any(|l| l == option), "missing {option}: {ids:?}");
    }
    assert!(
        !ids.iter().any(|l| l.starts_with("info string")),
        "notices without a config: {ids:?}"
    );
    assert!(engine.sync().is_empty());
    engine.send("setoption name Hash value 32");
    engine.send("setoption name Ponder value false");
    engine.send("ucinewgame");
    assert!(engine.sync().is_empty(), "options accepted silently");

    // Six plies, each side's move from the engine, clocks running down as Cute Chess sends them.
    let mut moves: Vec<String> = vec!["e2e4".into()];
    for ply in 0..6 {
        let list = moves.join(" ");
        engine.send(&format!("position startpos moves {list}"));
        let clock = 10_000 - 500 * ply;
        engine.send(&format!("go wtime {clock} btime {clock} winc 100 binc 100"));
        let pos = play(
            &Chess::default(),
            &moves.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        let (_, best) = one_bestmove(&mut engine, &pos, false);
        let best = best.expect("a move");
        moves.push(best.to_uci(CastlingMode::Standard).to_string());
    }
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

#[test]
fn isready_during_go_infinite_and_bestmove_only_after_stop() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("position startpos moves d2d4");
    engine.send("go infinite");
    let lines = engine.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {lines:?}"
    );
    let later = engine.drain(QUIET);
    assert!(
        !later.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {later:?}"
    );
    engine.send("go depth 1");
    let refused = engine.sync();
    assert!(
        refused.iter().any(|l| l.contains("go ignored")),
        "{refused:?}"
    );
    engine.send("stop");
    one_bestmove(&mut engine, &play(&Chess::default(), &["d2d4"]), false);
    // A stray stop afterwards changes nothing.
    engine.send("stop");
    assert!(engine.sync().is_empty());
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("setoption name Ponder value true");
    let pos = play(&Chess::default(), &["e2e4", "c7c5"]);
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
    let quiet = engine.drain(QUIET);
    assert!(
        !quiet.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {quiet:?}"
    );
    engine.send("ponderhit");
    one_bestmove(&mut engine, &pos, false);

    // A ponder miss: the GUI stops the search, takes (and discards) the bestmove.
    engine.send("go ponder wtime 2000 btime 2000");
    let quiet = engine.drain(QUIET);
    assert!(
        !quiet.iter().any(|l| l.starts_with("bestmove")),
        "{quiet:?}"
    );
    engine.send("stop");
    one_bestmove(&mut engine, &pos, false);
    engine.send("ponderhit");
    let reply = engine.sync();
    assert!(
        reply.iter().any(|l| l.contains("not pondering")),
        "{reply:?}"
    );
}

#[test]
fn chess960_shredder_fen_and_king_takes_rook_castling() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("setoption name UCI_Chess960 value true");
    // fischer.epd #14: king e1, rook d1; O-O-O is e1d1 king-takes-rook (e1c1 in standard).
    let fen = "1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 9";
    let start = fen_pos(fen);

    // Castling in: the GUI sends king-takes-rook; the king lands on c1.
    engine.send(&format!("position fen {fen} moves e1d1 c6d4"));
    let after = fen_of(&mut engine);
    assert!(
        after.starts_with("1qnrkbbr/1pppppp1/p6p/8/P2n4/1P1N1P2/2PPP1PP/QNKR1BBR w"),
        "{after}"
    );
    let pos = play(&start, &["e1d1", "c6d4"]);
    engine.send("go depth 1");
    one_bestmove(&mut engine, &pos, true);

    // Castling out: restricted to the castle, the engine must write it king-takes-rook.
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3 searchmoves e1d1");
    let (_, best) = one_bestmove(&mut engine, &start, true);
    assert!(matches!(best, Some(Move::Castle { .. })), "{best:?}");
    let lines = engine.log.clone();
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove e1d1")),
        "{lines:?}"
    );

    // With UCI_Chess960 off the same castle is written e1c1 (king to its square).
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("go depth 3 searchmoves e1d1");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("bestmove e1c1"),
        "{lines:?}"
    );
    engine.sync();
    engine.send("setoption name UCI_Chess960 value true");

    // An X-FEN of a standard position still parses (Chess960 mode reads both).
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1");
    assert_eq!(fen_of(&mut engine), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    engine.send("quit");
    assert!(engine.wait_exit().success());
}

/// Lines 1, 2, 3, 12, 14, 6 and 11 of the project's fischer.epd (D1..D4 kept), embedded so the test reads no outside file.
const FISCHER: [(&str, [u64; 4]); 7] = [
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        [21, 528, 12189, 326672],
    ),
    (
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        [21, 807, 18002, 667366],
    ),
    (
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        [20, 479, 10471, 273318],
    ),
    (
        "qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 9",
        [31, 855, 25620, 735703],
    ),
    (
        "1qnrkbbr/1pppppp1/p1n4p/8/P7/1P1N1P2/2PPP1PP/QN1RKBBR w HDhd - 0 9",
        [37, 883, 32187, 815535],
    ),
    (
        "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9",
        [29, 899, 26578, 824055],
    ),
    (
        "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
        [33, 823, 26895, 713420],
    ),
];

fn perft_total(engine: &mut Engine, depth: u32) -> (Vec<String>, u64) {
    engine.send(&format!("go perft {depth}"));
    let lines = engine.until("Nodes searched", |l| l.starts_with("Nodes searched: "));
    let total = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .expect("count");
    let time = engine.next_line("perft time line");
    assert!(
        time.starts_with("Time: ") && time.ends_with(" nps"),
        "{time}"
    );
    (lines, total)
}

#[test]
fn go_perft_matches_fischer_epd() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("setoption name UCI_Chess960 value true");
    for (fen, counts) in FISCHER {
        engine.send(&format!("position fen {fen}"));
        for (depth, expected) in (1..=4).zip(counts) {
            let (lines, total) = perft_total(&mut engine, depth);
            assert_eq!(total, expected, "{fen} depth {depth}");
            // One line per root move, their sum the total.
            let split: Vec<u64> = lines
                .iter()
                .filter_map(|l| l.split_once(": ").filter(|(m, _)| m.len() <= 5))
                .map(|(_, n)| n.parse::<u64>().expect("count"))
                .collect();
            assert_eq!(split.len() as u64, counts[0], "{fen}");
            assert_eq!(split.iter().sum::<u64>(), expected);
        }
    }
    // The first position, a little deeper; then the standard start position and kiwipete.
    engine.send(&format!("position fen {}", FISCHER[0].0));
    assert_eq!(perft_total(&mut engine, 5).1, 8_146_062);
    engine.send("position startpos");
    assert_eq!(perft_total(&mut engine, 4).1, 197_281);
    engine
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(perft_total(&mut engine, 3).1, 97_862);
    // Castling shows up king-takes-rook in the split.
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let (lines, _) = perft_total(&mut engine, 1);
    assert!(lines.iter().any(|l| l == "e1h1: 1") && lines.iter().any(|l| l == "e1a1: 1"));
}

#[test]
fn crlf_endings_and_stale_castling_rights() {
    let mut engine = Engine::start();
    engine.send_bytes(b"uci\r\nisready\r\n");
    engine.until("uciok", |l| l == "uciok");
    engine.until("readyok", |l| l == "readyok");
    // Castling rights the board cannot have are dropped with a notice, not refused.
    engine.send("position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    let reply = engine.sync();
    assert!(
        reply.iter().any(|l| l.contains("invalid castling rights")),
        "{reply:?}"
    );
    assert_eq!(fen_of(&mut engine), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut engine = Engine::start();
    engine.handshake();
    for fen in [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // mated
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                // stalemate
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 3");
        let (lines, best) = one_bestmove(&mut engine, &fen_pos(fen), false);
        assert_eq!(best, None);
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
    }
}

#[test]
fn end_of_input_during_a_search_prints_its_bestmove_and_exits_0() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    let status = engine.close_and_wait();
    let rest = engine.drain(QUIET);
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
    check_bestmove(
        rest.iter().find(|l| l.starts_with("bestmove")).unwrap(),
        &Chess::default(),
        false,
    );
    assert_eq!(status.code(), Some(0));
}

#[test]
fn quit_during_a_search_and_gos_sent_back_to_back() {
    let mut engine = Engine::start();
    // Two finite gos in a row (a script, not a GUI): each gets its bestmove, in order.
    engine.send("position startpos");
    engine.send("go depth 1");
    engine.send("position startpos moves g1f3");
    engine.send("go depth 1");
    let first = engine.until("first bestmove", |l| l.starts_with("bestmove"));
    check_bestmove(first.last().unwrap(), &Chess::default(), false);
    let second = engine.until("second bestmove", |l| l.starts_with("bestmove"));
    check_bestmove(
        second.last().unwrap(),
        &play(&Chess::default(), &["g1f3"]),
        false,
    );
    engine.send("go ponder");
    engine.send("quit");
    let rest = engine.until("bestmove after quit", |l| l.starts_with("bestmove"));
    check_bestmove(
        rest.last().unwrap(),
        &play(&Chess::default(), &["g1f3"]),
        false,
    );
    assert_eq!(engine.wait_exit().code(), Some(0));
}

#[test]
fn display_debug_and_extra_commands() {
    let mut engine = Engine::start();
    engine.send("d");
    let lines = engine.until("Key line", |l| l.starts_with("Key: "));
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    assert_eq!(lines.last().unwrap(), "Key: 463B96181691FC9C");
    engine.sync();
    engine.send("debug on");
    engine.send("setoption name move overhead value 120");
    let reply = engine.sync();
    assert!(
        reply.iter().any(|l| l == "info string Move Overhead = 120"),
        "{reply:?}"
    );
    // `eval` prints the trace as info strings, ending with the total.
    engine.send("eval");
    let reply = engine.sync();
    assert!(
        reply.iter().any(|l| l.starts_with("info string Material")),
        "{reply:?}"
    );
    assert!(
        reply.iter().any(|l| l.starts_with("info string Total: ")),
        "{reply:?}"
    );
    // `bench` runs on the worker like a search: `isready` is answered while it runs, and it ends
    // with the `<N> nodes <M> nps` line frameworks read.
    engine.send("bench 10");
    engine.send("isready");
    let reply = engine.until("bench line", |l| l.ends_with(" nps"));
    assert!(reply.iter().any(|l| l == "readyok"), "{reply:?}");
    let last = reply.last().expect("bench line");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "{last}"
    );
    assert!(words[0].parse::<u64>().is_ok_and(|n| n > 100_000), "{last}");
    engine.send("go perft 6");
    thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    let lines = engine.until("stopped perft", |l| l.contains("perft stopped"));
    assert!(lines.iter().any(|l| l.starts_with("Nodes searched: ")));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn four_threads_search_stop_ponder_and_change_count_between_games() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("setoption name Threads value 4");
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.send("stop");
    let pos = play(&Chess::default(), &["e2e4", "c7c5"]);
    let (lines, _) = one_bestmove(&mut engine, &pos, false);
    check_info_lines(&lines);
    // Pondering with four threads, then the ponderhit, then a clocked search.
    engine.send("position startpos moves e2e4 c7c5 g1f3");
    engine.send("go ponder wtime 2000 btime 2000");
    thread::sleep(Duration::from_millis(100));
    engine.send("ponderhit");
    one_bestmove(&mut engine, &play(&pos, &["g1f3"]), false);
    engine.send("setoption name Threads value 2");
    engine.send("ucinewgame");
    engine.send("position startpos");
    engine.send("go nodes 20000");
    let (lines, _) = one_bestmove(&mut engine, &Chess::default(), false);
    // Nodes are counted over every thread and the limit holds for their sum.
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split(" nodes ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(nodes.iter().all(|&n| n < 20_000 + 4 * 1024), "{lines:?}");
    assert_eq!(engine.close_and_wait().code(), Some(0));
}

#[test]
fn syzygy_path_bad_folders_are_info_strings_and_tables_give_tbhits() {
    let mut engine = Engine::start();
    engine.handshake();
    // A folder that does not exist: an info string, and the engine goes on.
    engine.send("setoption name SyzygyPath value /no/such/folder");
    engine.send("position fen 8/8/8/8/8/2K5/1r6/7k w - - 0 1");
    let reply = engine.sync();
    assert!(
        reply
            .iter()
            .any(|l| l.starts_with("info string SyzygyPath: cannot use '/no/such/folder'")),
        "{reply:?}"
    );
    // The committed tables: the one drawing move is played, and `info` counts tbhits.
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
    engine.send(&format!("setoption name SyzygyPath value {tables}"));
    engine.send("go depth 3");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l == "info string SyzygyPath: 70 table files, up to 4 pieces"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove c3b2"),
        "{lines:?}"
    );
    // `<empty>` switches them off again.
    engine.send("setoption name SyzygyPath value <empty>");
    engine.send("go depth 2");
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
}
