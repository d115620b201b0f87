//! Malformed UCI input, driven through the real binary: every bad line gets a clear answer (or
//! none, where a GUI expects none) and nothing already set up is lost.

use shakmaty::Chess;

use crate::uci_harness::*;

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
            b"setoption name Threads value 1025".to_vec(),
            Info("must be from 1 to 1024"),
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
