//! The UCI front end, driven through the real binary on stdin/stdout as a GUI would.
//!
//! Every read has a timeout, so a hang fails the test instead of blocking it. The tests check
//! what holds for any search (one legal `bestmove` per `go`, at the right time), not which move
//! the search picks.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Long enough for a loaded 2-core machine; only a hang should hit it.
const TIMEOUT: Duration = Duration::from_secs(20);

/// How long an engine must stay quiet to count as "did not send".
const QUIET: Duration = Duration::from_millis(300);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything received so far, for failure messages.
    log: Vec<String>,
}

impl Engine {
    /// Start the binary in an empty directory (so no engine.toml is picked up).
    fn start() -> Engine {
        Engine::start_with(&[], &empty_dir())
    }

    fn start_with(args: &[&str], dir: &PathBuf) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_minkowski"))
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// The next line, or a panic naming `what` after the timeout.
    fn next_line(&mut self, what: &str) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                self.log.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "timed out waiting for {what}; received so far:\n{}",
                    self.log.join("\n")
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "engine closed stdout waiting for {what}; received:\n{}",
                    self.log.join("\n")
                )
            }
        }
    }

    /// All lines up to and including the first one for which `done` holds.
    fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line(what);
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    /// `isready` and everything up to `readyok` (which is not included).
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Lines that arrive within `wait` (the engine is expected to be quiet or nearly so).
    fn drain(&mut self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    lines.push(line);
                }
                Err(_) => break,
            }
        }
        lines
    }

    /// `uci` → `uciok`; the lines before `uciok`.
    fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let mut lines = self.until("uciok", |l| l == "uciok");
        lines.pop();
        lines
    }

    /// Close stdin and wait for the process to end.
    fn close_and_wait(&mut self) -> ExitStatus {
        self.stdin = None;
        self.wait_exit()
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let end = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                Instant::now() < end,
                "engine did not exit; log:\n{}",
                self.log.join("\n")
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn empty_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("uci-empty-cwd");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn fen_pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Chess960)
        .expect("position")
}

fn play(pos: &Chess, moves: &[&str]) -> Chess {
    let mut pos = pos.clone();
    for m in moves {
        let m = UciMove::from_ascii(m.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(m);
    }
    pos
}

/// Check a `bestmove` line against the position searched: the move is legal and written in the
/// expected notation, `0000` only without legal moves, `ponder` legal after it.
fn check_bestmove(line: &str, pos: &Chess, chess960: bool) -> Option<Move> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens.first(), Some(&"bestmove"), "{line}");
    assert!(tokens.len() == 2 || tokens.len() == 4, "{line}");
    if tokens[1] == "0000" {
        assert!(
            pos.legal_moves().is_empty(),
            "bestmove 0000 with legal moves: {line}"
        );
        return None;
    }
    let m = UciMove::from_ascii(tokens[1].as_bytes())
        .unwrap_or_else(|_| panic!("not UCI: {line}"))
        .to_move(pos)
        .unwrap_or_else(|_| panic!("illegal bestmove: {line}"));
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    assert_eq!(m.to_uci(mode).to_string(), tokens[1], "notation of {line}");
    if tokens.len() == 4 {
        assert_eq!(tokens[2], "ponder", "{line}");
        let after = play(pos, &[tokens[1]]);
        UciMove::from_ascii(tokens[3].as_bytes())
            .ok()
            .and_then(|u| u.to_move(&after).ok())
            .unwrap_or_else(|| panic!("illegal ponder move: {line}"));
    }
    Some(m)
}

/// The lines up to the `bestmove` of a `go`; asserts that no second one follows.
fn one_bestmove(engine: &mut Engine, pos: &Chess, chess960: bool) -> (Vec<String>, Option<Move>) {
    let lines = engine.until("bestmove", |l| l.starts_with("bestmove"));
    let best = check_bestmove(lines.last().expect("a line"), pos, chess960);
    check_info_lines(&lines);
    let after = engine.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "second bestmove: {after:?}"
    );
    (lines, best)
}

/// `info` lines with a score carry integer values (as fastchess --compliance checks).
fn check_info_lines(lines: &[String]) {
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        for (i, t) in tokens.iter().enumerate() {
            if [
                "depth", "seldepth", "nodes", "nps", "time", "hashfull", "cp", "mate",
            ]
            .contains(t)
            {
                let value = tokens.get(i + 1).unwrap_or(&"");
                assert!(value.parse::<i64>().is_ok(), "{t} not an integer in {line}");
            }
        }
        if !line.contains("currmove") {
            assert!(line.contains(" score "), "no score in {line}");
        }
    }
}

fn fen_of(engine: &mut Engine) -> String {
    engine.send("d");
    let lines = engine.until("Fen: line of d", |l| l.starts_with("Fen: "));
    lines.last().unwrap()["Fen: ".len()..].to_owned()
}

#[test]
fn handshake_and_game_as_cute_chess_sends_it() {
    let mut engine = Engine::start();
    let ids = engine.handshake();
    assert_eq!(
        ids[0],
        format!("id name Minkowski {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(ids[1].starts_with("id author "));
    for option in [
        "option name Hash type spin default 16 min 1 max 32768",
        "option name Threads type spin default 1 min 1 max 1",
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

/// What a malformed line must produce.
enum Expect {
    /// Nothing at all.
    Silence,
    /// An `info string` containing this text (case-insensitive), and no `bestmove`.
    Info(&'static str),
    /// This exact line.
    Line(&'static str),
    /// Exactly one legal `bestmove`, and an `info string` with this text if given.
    Bestmove(Option<&'static str>),
}

#[test]
fn malformed_lines_get_a_clear_answer_and_lose_nothing() {
    use Expect::*;
    let long_garbage = format!("x{}", "y".repeat(100_000));
    let long_moves = format!("position startpos moves {}", "e2e4 ".repeat(20_000));
    let huge = "z".repeat(2 << 20);
    let cases: Vec<(Vec<u8>, Expect)> = vec![
        (b"".to_vec(), Silence),
        (b"    ".to_vec(), Silence),
        (b"\t \r".to_vec(), Silence),
        (b"foo".to_vec(), Info("unknown command 'foo'")),
        (b"foo bar baz".to_vec(), Info("unknown command 'foo'")),
        (b"xboard".to_vec(), Info("xboard")),
        (b"protover 2".to_vec(), Info("unknown command 'protover'")),
        (b"isreadyX".to_vec(), Info("unknown command 'isreadyx'")),
        (b"isready now".to_vec(), Info("ignored unexpected text")),
        (b"   isready   \r".to_vec(), Line("readyok")),
        (b"\xff\xfe garbage".to_vec(), Info("not valid utf-8")),
        (long_garbage.into_bytes(), Info("unknown command 'xyyyy")),
        (huge.into_bytes(), Info("longer than the limit")),
        (b"position".to_vec(), Info("expected 'startpos' or 'fen'")),
        (b"position fen".to_vec(), Info("'fen' needs a fen")),
        (
            b"position somewhere".to_vec(),
            Info("expected 'startpos' or 'fen'"),
        ),
        (b"position fen garbage".to_vec(), Info("bad fen 'garbage'")),
        (
            b"position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_vec(),
            Info("empty board"),
        ),
        (
            b"position fen 8/8/8/4p3/8/8/8/8 w - - 0 1".to_vec(),
            Info("missing king"),
        ),
        (
            b"position fen rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_vec(),
            Info("bad fen"),
        ),
        (
            b"position fen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1".to_vec(),
            Info("the side not to move is in check"),
        ),
        (
            b"position fen 4k3/8/8/8/8/8/8/4K3 x - - 0 1".to_vec(),
            Info("bad fen"),
        ),
        (
            b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e2e4".to_vec(),
            Info("at most 6 fields"),
        ),
        (b"position startpos e2e4".to_vec(), Info("expected 'moves'")),
        (
            b"position startpos moves e2e4 e7e5 zzzz g1f3".to_vec(),
            Info("move 3 'zzzz' is not a move"),
        ),
        (
            b"position startpos moves e2e4 e2e4".to_vec(),
            Info("move 2 'e2e4' is illegal"),
        ),
        (
            b"position startpos moves e2e4 0000 d2d4".to_vec(),
            Info("move 2 '0000' is illegal"),
        ),
        (
            b"position startpos moves e7e5".to_vec(),
            Info("move 1 'e7e5' is illegal"),
        ),
        (
            b"position startpos moves e2e4 e7e5 e1g1".to_vec(),
            Info("move 3 'e1g1' is illegal"),
        ),
        (long_moves.into_bytes(), Info("move 2 'e2e4' is illegal")),
        (
            b"setoption name Foo value 1".to_vec(),
            Info("unknown option 'foo'"),
        ),
        (
            b"setoption name Hash value 0".to_vec(),
            Info("must be from 1 to 32768"),
        ),
        (
            b"setoption name Hash value abc".to_vec(),
            Info("needs a whole number"),
        ),
        (
            b"setoption name Hash value 99999999999999999999".to_vec(),
            Info("must be from 1 to 32768, got 99999999999999999999"),
        ),
        (b"setoption name Hash".to_vec(), Info("needs a value")),
        (
            b"setoption name Threads value 4".to_vec(),
            Info("must be from 1 to 1"),
        ),
        (
            b"setoption name Ponder value maybe".to_vec(),
            Info("true or false"),
        ),
        (
            b"setoption name Move Overhead value -1".to_vec(),
            Info("must be from 0 to 5000"),
        ),
        (b"setoption Hash 32".to_vec(), Info("expected 'name")),
        (b"setoption".to_vec(), Info("expected 'name")),
        (
            b"setoption name value 3".to_vec(),
            Info("option name is empty"),
        ),
        (b"debug maybe".to_vec(), Info("expected 'on' or 'off'")),
        (b"ponderhit".to_vec(), Info("not pondering")),
        (b"stop".to_vec(), Silence),
        (b"register later".to_vec(), Info("no registration")),
        (b"go perft".to_vec(), Info("perft needs a depth")),
        (b"go perft -1".to_vec(), Info("perft needs a depth")),
        (b"go perft 1000".to_vec(), Info("perft needs a depth")),
        (
            b"go depth -5".to_vec(),
            Bestmove(Some("depth -5 is out of range")),
        ),
        (
            b"go depth 0".to_vec(),
            Bestmove(Some("depth 0 is out of range")),
        ),
        (
            b"go depth 256 movetime 50".to_vec(),
            Bestmove(Some("depth 256 is out of range")),
        ),
        (
            b"go depth 99999999999999999999999999 movetime 50".to_vec(),
            Bestmove(Some("out of range")),
        ),
        (
            b"go nodes 0 movetime 50".to_vec(),
            Bestmove(Some("nodes 0 is out of range")),
        ),
        (b"go mate 300 movetime 50".to_vec(), Bestmove(None)),
        (
            b"go movestogo 0 wtime 500 btime 500".to_vec(),
            Bestmove(Some("movestogo 0")),
        ),
        (
            b"go wtime abc btime 100".to_vec(),
            Bestmove(Some("'abc' is not a whole number")),
        ),
        (
            b"go wtime".to_vec(),
            Bestmove(Some("'wtime' needs a value")),
        ),
        (
            b"go foo bar".to_vec(),
            Bestmove(Some("unknown parameter 'foo'")),
        ),
        (
            b"go searchmoves e2e5 zz movetime 50".to_vec(),
            Bestmove(Some("'zz' is not a move")),
        ),
        (
            b"go searchmoves d2d5 movetime 50".to_vec(),
            Bestmove(Some("d2d5 is illegal here")),
        ),
        (b"go movetime 0".to_vec(), Bestmove(None)),
        (b"go movetime -100".to_vec(), Bestmove(Some("out of range"))),
        (b"go wtime 0 btime 0".to_vec(), Bestmove(None)),
        (
            b"go wtime -1000 btime -1000 winc 0 binc 0".to_vec(),
            Bestmove(None),
        ),
        (b"go wtime 100".to_vec(), Bestmove(None)),
        (b"go btime 100".to_vec(), Bestmove(None)),
        (
            b"go depth 1 depth 2 ponderx".to_vec(),
            Bestmove(Some("unknown parameter 'ponderx'")),
        ),
    ];
    assert!(cases.len() >= 30);

    let mut engine = Engine::start();
    engine.handshake();
    let moves = ["e2e4", "e7e5", "g1f3"];
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = play(&Chess::default(), &moves);
    let fen = fen_of(&mut engine);
    engine.sync();

    for (line, expect) in &cases {
        let shown = String::from_utf8_lossy(&line[..line.len().min(60)]).into_owned();
        let mut bytes = line.clone();
        bytes.push(b'\n');
        engine.send_bytes(&bytes);
        let mut reply = Vec::new();
        if let Line(_) = expect {
            reply.push(engine.next_line("the reply"));
        }
        if let Bestmove(_) = expect {
            // A go with no usable limit searches until stopped; stop it either way.
            engine.send("stop");
            reply = engine.until("bestmove", |l| l.starts_with("bestmove"));
            check_bestmove(reply.last().unwrap(), &pos, false);
        }
        reply.extend(engine.sync());
        let infos: Vec<&String> = reply
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        let bestmoves = reply.iter().filter(|l| l.starts_with("bestmove")).count();
        match expect {
            Silence => assert!(
                reply.is_empty(),
                "{shown:?}: expected silence, got {reply:?}"
            ),
            Info(text) => {
                assert!(
                    infos
                        .iter()
                        .any(|l| l.to_lowercase().contains(&text.to_lowercase())),
                    "{shown:?}: expected info string with {text:?}, got {reply:?}"
                );
                assert_eq!(bestmoves, 0, "{shown:?}: {reply:?}");
            }
            Line(text) => assert!(reply.iter().any(|l| l == text), "{shown:?}: {reply:?}"),
            Bestmove(text) => {
                assert_eq!(bestmoves, 1, "{shown:?}: {reply:?}");
                if let Some(text) = text {
                    assert!(
                        infos
                            .iter()
                            .any(|l| l.to_lowercase().contains(&text.to_lowercase())),
                        "{shown:?}: expected info string with {text:?}, got {reply:?}"
                    );
                }
            }
        }
        assert!(
            infos.iter().all(|l| l.len() < 400),
            "{shown:?}: overlong reply {infos:?}"
        );
        // The previous position is kept whole.
        assert_eq!(fen_of(&mut engine), fen, "{shown:?} changed the position");
        engine.sync();
    }
    // Still fully alive: a normal search afterwards, then a clean exit.
    engine.send("go depth 1");
    one_bestmove(&mut engine, &pos, false);
    engine.send("quit");
    assert!(engine.wait_exit().success());
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
