//! Property-based random input for every parser of outside input (issue 15): the UCI loop (bytes
//! of any kind, and random sequences of valid commands with random arguments), FEN through
//! `position fen`, EPD lines and engine.toml.
//!
//! The UCI loop is driven in-process through its public entry point [`run_uci`] over a byte
//! buffer, as a GUI's pipe would feed it. The loop catches a panic in a command and answers
//! `info string internal error ...`, so "no panic" is checked on the output. The coverage-guided
//! counterpart of these tests is the `fuzz/` folder (see fuzz/README.md).
//!
//! Case counts are kept small enough for CI (a few seconds in release); raise them with the
//! `PROPTEST_CASES` environment variable for a longer run.

use std::io::Cursor;
use std::path::Path;
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

use crate::common::uci_session::Shared;
use minkowski::config::Config;
use minkowski::epd::Suite;
use minkowski::eval::weights::Weights;
use minkowski::uci::run_uci;
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Only a hang should hit this (the loop stops every search at the end of its input).
const HANG: Duration = Duration::from_secs(120);

/// Feed `input` to the UCI loop until its end; the output lines. Panics on a hang, on output
/// that is not clean UTF-8 lines, and on any `internal error` (a caught panic).
fn run_loop(input: Vec<u8>) -> Vec<String> {
    let out = Shared::default();
    let writer = out.clone();
    let (done_tx, done_rx) = channel();
    thread::spawn(move || {
        let mut config = Config::default();
        config.options.hash_mb = 1;
        run_uci(Cursor::new(input), writer, &config, &[]);
        let _ = done_tx.send(());
    });
    done_rx
        .recv_timeout(HANG)
        .expect("the UCI loop did not finish after the end of its input");
    let lines = out.lines();
    for line in &lines {
        // A control character (a lone CR, a NUL, an escape) in an echoed input would let a
        // GUI see a line break or garbage where the engine wrote none.
        assert!(
            !line.chars().any(char::is_control),
            "control character in output line {line:?}"
        );
        assert!(!line.contains("internal error"), "caught panic: {line}");
    }
    lines
}

/// The `\n`-separated lines as the engine's input thread sees them (a trailing `\r` removed;
/// lines that are not UTF-8 are skipped by the engine, so they are `None` here).
fn input_lines(input: &[u8]) -> Vec<Option<String>> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            String::from_utf8(l.to_vec()).ok()
        })
        .collect()
}

fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn count(lines: &[String], pred: impl Fn(&str) -> bool) -> usize {
    lines.iter().filter(|l| pred(l)).count()
}

/// `PROPTEST_CASES` if set (for a long run), else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---------------------------------------------------------------- strategies

/// Numbers as a GUI (or a broken script) might write them.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u64..5_000).prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => Just("99999999999999999999999999".to_owned()),
        1 => Just("-1".to_owned()),
        1 => Just("0".to_owned()),
        1 => Just("1e9".to_owned()),
        1 => Just("abc".to_owned()),
        1 => Just("".to_owned()),
        1 => Just("+7".to_owned()),
    ]
}

/// Move-like words, legal or not.
fn move_word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "e1g1", "e1h1", "e8c8", "a7a8q", "d7d8n",
            "0000", "e2e5", "E2E4", "moves", "a1a1", "h7h8k", "e7e8q",
        ])
        .prop_map(str::to_owned),
        1 => "[a-h][1-8][a-h][1-8][qrbnk]?",
        1 => "\\PC{0,6}",
    ]
}

/// A random FEN: kings placed (so that many are legal), other pieces at random, with random or
/// corrupted side, castling, en passant and clocks.
fn fen() -> impl Strategy<Value = String> {
    let cells = prop::collection::vec(
        prop_oneof![
            40 => Just(' '),
            2 => Just('P'), 2 => Just('p'),
            1 => Just('N'), 1 => Just('n'), 1 => Just('B'), 1 => Just('b'),
            1 => Just('R'), 1 => Just('r'), 1 => Just('Q'), 1 => Just('q'),
            1 => Just('K'), 1 => Just('k'), 1 => Just('x'),
        ],
        64,
    );
    let castling = prop_oneof![
        3 => Just("-".to_owned()),
        3 => Just("KQkq".to_owned()),
        2 => "[KQkqA-Ha-h]{1,4}",
        1 => "\\PC{0,5}",
    ];
    let ep = prop_oneof![
        4 => Just("-".to_owned()),
        2 => "[a-h][36]",
        1 => "[a-z][0-9]",
    ];
    (
        cells,
        0usize..64,
        0usize..64,
        prop_oneof![8 => Just("w"), 8 => Just("b"), 1 => Just("x")],
        castling,
        ep,
        number(),
        number(),
        0usize..7,
    )
        .prop_map(
            |(mut cells, wk, bk, side, castling, ep, half, full, fields)| {
                cells[wk] = 'K';
                if bk != wk {
                    cells[bk] = 'k';
                }
                let mut board = String::new();
                for rank in 0..8 {
                    let mut empty = 0;
                    for &c in &cells[rank * 8..rank * 8 + 8] {
                        if c == ' ' {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                board.push_str(&empty.to_string());
                                empty = 0;
                            }
                            board.push(c);
                        }
                    }
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                    }
                    if rank < 7 {
                        board.push('/');
                    }
                }
                let all = [board, side.to_owned(), castling, ep, half, full];
                // Sometimes fewer fields (the engine fills in defaults, or refuses).
                let n = if fields == 0 { 6 } else { fields.min(6) };
                all[..n].join(" ")
            },
        )
}

/// A `go` line that ends by itself or at the end of input (never a deep perft).
fn go_line() -> impl Strategy<Value = String> {
    let param = prop_oneof![
        (
            prop::sample::select(vec![
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "depth",
                "nodes",
                "mate",
                "movetime"
            ]),
            number()
        )
            .prop_map(|(k, v)| format!("{k} {v}")),
        Just("infinite".to_owned()),
        Just("ponder".to_owned()),
        prop::collection::vec(move_word(), 0..4)
            .prop_map(|m| format!("searchmoves {}", m.join(" "))),
        "[a-z]{1,8}",
    ];
    prop_oneof![
        6 => prop::collection::vec(param, 0..5).prop_map(|p| format!("go {}", p.join(" "))),
        1 => prop_oneof![Just("0"), Just("1"), Just("2"), Just("x"), Just("65"), Just("-3")]
            .prop_map(|d| format!("go perft {d}")),
    ]
}

fn setoption_line() -> impl Strategy<Value = String> {
    // Hash values stay small: a random 32768 would really allocate 32 GB.
    let hash = prop_oneof![
        (1u32..=8).prop_map(|n| n.to_string()),
        Just("0".to_owned()),
        Just("-1".to_owned()),
        Just("99999999999999999999".to_owned()),
        Just("40000".to_owned()),
        Just("big".to_owned()),
    ];
    prop_oneof![
        hash.prop_map(|v| format!("setoption name Hash value {v}")),
        (
            prop::sample::select(vec![
                "Threads",
                "MultiPV",
                "Ponder",
                "Move Overhead",
                "UCI_Chess960",
                "multipv",
                "Clear Hash",
                "NoSuchOption",
                "",
            ]),
            prop_oneof![
                number(),
                Just("true".to_owned()),
                Just("false".to_owned()),
                Just("value".to_owned()),
            ],
            any::<bool>(),
        )
            .prop_map(|(name, value, with_value)| if with_value {
                format!("setoption name {name} value {value}")
            } else {
                format!("setoption name {name}")
            }),
        "setoption \\PC{0,20}",
    ]
}

fn position_line() -> impl Strategy<Value = String> {
    let start = prop_oneof![
        3 => Just("startpos".to_owned()),
        3 => fen().prop_map(|f| format!("fen {f}")),
        1 => "\\PC{0,10}",
    ];
    (
        start,
        any::<bool>(),
        prop::collection::vec(move_word(), 0..6),
    )
        .prop_map(|(start, with_moves, moves)| {
            if with_moves {
                format!("position {start} moves {}", moves.join(" "))
            } else {
                format!("position {start}")
            }
        })
}

/// One command line; no `quit` and no `bench` (slow), the rest in any order.
fn command_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just("isready".to_owned()),
        4 => position_line(),
        4 => go_line(),
        3 => Just("stop".to_owned()),
        1 => Just("ponderhit".to_owned()),
        1 => Just("ucinewgame".to_owned()),
        1 => Just("uci".to_owned()),
        2 => setoption_line(),
        1 => prop::sample::select(vec!["debug on", "debug off", "debug", "d", "eval", "register"])
            .prop_map(str::to_owned),
        1 => "\\PC{0,30}",
    ]
}

/// Byte fragments: pieces of commands, invalid UTF-8, NUL bytes, stray CRs and line ends.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..40),
        3 => command_line().prop_map(|mut l| {
            l.push('\n');
            l.into_bytes()
        }),
        1 => prop::sample::select(vec![
            &b"\0"[..], b"\r", b"\r\n", b"\n", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\t",
            b"isready\n", b"\x1b[2J", b"go ", b"position fen ", b"moves ", b" 18446744073709551616",
        ])
        .prop_map(<[u8]>::to_vec),
    ]
}

// ---------------------------------------------------------------- properties

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    /// Any bytes: the loop ends at the end of input, writes clean UTF-8 lines, never panics,
    /// answers every `isready` line with one `readyok`, and no more `bestmove`s than `go`s.
    #[test]
    fn uci_survives_arbitrary_bytes(parts in prop::collection::vec(fragment(), 0..30)) {
        let input: Vec<u8> = parts.concat();
        let lines = input_lines(&input);
        let words: Vec<String> = lines.iter().flatten().map(|l| first_word(l)).collect();
        let output = run_loop(input);
        let isready = words.iter().filter(|w| *w == "isready").count();
        let quit_at = words.iter().position(|w| w == "quit");
        if quit_at.is_none() {
            prop_assert_eq!(count(&output, |l| l == "readyok"), isready, "{:?}", output);
        }
        let gos = words.iter().filter(|w| *w == "go").count();
        prop_assert!(count(&output, |l| l.starts_with("bestmove ")) <= gos);
    }

    /// A very long line (past the input limit or just under) does not hide the next command.
    #[test]
    fn uci_survives_very_long_lines(
        unit in prop::sample::select(vec!["x", "go ", "position fen ", "\u{e9}", "9"]),
        repeat in prop_oneof![1usize..100, 200_000usize..400_000],
    ) {
        let mut input = unit.repeat(repeat).into_bytes();
        input.extend_from_slice(b"\nisready\n");
        let output = run_loop(input);
        prop_assert_eq!(count(&output, |l| l == "readyok"), 1);
        for line in &output {
            prop_assert!(line.len() < 1000, "echo not shortened: {} bytes", line.len());
        }
    }

    /// Random sequences of valid-looking commands with random arguments: one `readyok` per
    /// `isready`, and exactly one `bestmove` per `go` that was neither a perft nor refused
    /// because a search was holding its result.
    #[test]
    fn uci_random_command_sequences(commands in prop::collection::vec(command_line(), 1..25)) {
        let input = commands.iter().map(|c| format!("{c}\n")).collect::<String>();
        let words: Vec<String> = input_lines(input.as_bytes())
            .into_iter()
            .flatten()
            .map(|l| first_word(&l))
            .collect();
        let output = run_loop(input.clone().into_bytes());
        let isready = words.iter().filter(|w| *w == "isready").count();
        prop_assert_eq!(count(&output, |l| l == "readyok"), isready, "input:\n{}", input);
        let searches = commands
            .iter()
            .filter(|c| first_word(c) == "go" && !c.split_whitespace().any(|w| w.eq_ignore_ascii_case("perft")))
            .count();
        let ignored = count(&output, |l| l.starts_with("info string go ignored"));
        let bestmoves = count(&output, |l| l.starts_with("bestmove "));
        let perfts = commands
            .iter()
            .filter(|c| first_word(c) == "go" && c.split_whitespace().any(|w| w.eq_ignore_ascii_case("perft")))
            .count();
        if perfts == 0 {
            prop_assert_eq!(bestmoves, searches - ignored, "input:\n{}\noutput:\n{}", input, output.join("\n"));
        } else {
            // An ignored `go` may have been a perft: only bounds.
            prop_assert!(bestmoves <= searches && bestmoves + ignored >= searches,
                "input:\n{}\noutput:\n{}", input, output.join("\n"));
        }
    }

    /// Random FENs: refused with a message, or searched; the `bestmove` is legal in the position
    /// the engine says it has (`d`), checked with shakmaty.
    #[test]
    fn random_fens_are_refused_or_searched(fen in fen(), nodes in 1u32..300) {
        let input = format!("position fen {fen}\nd\ngo nodes {nodes}\nisready\n");
        let output = run_loop(input.into_bytes());
        prop_assert_eq!(count(&output, |l| l == "readyok"), 1);
        let shown = output
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d prints the FEN");
        let pos: Chess = shown
            .parse::<Fen>()
            .expect("the engine's FEN parses")
            .into_position(CastlingMode::Chess960)
            .expect("the engine's position is legal");
        let best: Vec<&String> = output.iter().filter(|l| l.starts_with("bestmove ")).collect();
        prop_assert_eq!(best.len(), 1, "{:?}", output);
        let word = best[0].split_whitespace().nth(1).unwrap_or("");
        if word == "0000" {
            prop_assert!(pos.legal_moves().is_empty(), "0000 with legal moves in {}", shown);
        } else {
            let legal = UciMove::from_ascii(word.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok());
            prop_assert!(legal.is_some(), "illegal {} in {}", best[0], shown);
        }
        let accepted = !output.iter().any(|l| l.starts_with("info string position:"));
        if accepted {
            // What was accepted is what is shown: the piece placement is kept as given.
            prop_assert_eq!(shown.split(' ').next(), fen.split(' ').next());
        }
    }

    /// EPD lines of random operations: never a panic, every line is a record, an error,
    /// or blank/comment, and errors name a line that exists.
    #[test]
    fn epd_lines_parse_or_fail_cleanly(lines in prop::collection::vec(epd_line(), 0..12)) {
        let text = lines.join("\n");
        let suite = Suite::parse("random.epd", &text);
        let n = text.lines().count();
        prop_assert!(suite.records.len() + suite.errors.len() <= n);
        for e in &suite.errors {
            prop_assert!((1..=n).contains(&e.line), "{}", e);
            prop_assert!(!e.to_string().is_empty());
        }
    }

    /// engine.toml of random tables, keys and values: either a configuration whose options
    /// are within their UCI ranges, or errors whose line numbers exist.
    #[test]
    fn engine_toml_parses_or_fails_cleanly(lines in prop::collection::vec(toml_line(), 0..12)) {
        let text = lines.join("\n");
        let n = text.lines().count().max(1);
        match Config::from_toml(&text, Path::new("engine.toml")) {
            Ok(config) => {
                prop_assert!((1..=32_768).contains(&config.options.hash_mb));
                prop_assert!(config.options.multipv >= 1);
                let names = Weights::names();
                for name in config.eval.keys() {
                    prop_assert!(names.contains(name), "unknown weight {} accepted", name);
                }
            }
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                for e in &errors {
                    if let Some(line) = e.line() {
                        prop_assert!((1..=n + 1).contains(&line), "{} in:\n{}", e, text);
                    }
                }
            }
        }
    }
}

/// An EPD line: a FEN's first four fields, then random operations.
fn epd_line() -> impl Strategy<Value = String> {
    let op = prop_oneof![
        (
            prop::sample::select(vec!["bm", "am", "sm"]),
            prop::collection::vec(move_word(), 0..3)
        )
            .prop_map(|(k, m)| format!("{k} {}", m.join(" "))),
        prop::sample::select(vec![
            "Nf3", "e4", "O-O", "O-O-O", "Qxh7+", "exd6", "a8=Q", "#3"
        ])
        .prop_map(|m| format!("bm {m}")),
        (
            prop::sample::select(vec!["D1", "D2", "D3", "dm", "ce", "acd", "acn", "bm #"]),
            number()
        )
            .prop_map(|(k, v)| format!("{k} {v}")),
        "id \"\\PC{0,10}\"",
        "c[0-9] \"[^\"]{0,10}\"?",
        "[a-z]{1,4} \\PC{0,10}",
        Just("\"unterminated".to_owned()),
    ];
    (
        fen(),
        prop::collection::vec(op, 0..5),
        prop_oneof![3 => Just(";"), 1 => Just(""), 1 => Just(";;")],
    )
        .prop_map(|(fen, ops, sep)| {
            let fields: Vec<&str> = fen.split(' ').take(4).collect();
            let ops: Vec<String> = ops.into_iter().map(|o| format!("{o}{sep}")).collect();
            format!("{} {}", fields.join(" "), ops.join(" "))
        })
}

/// A line of engine.toml: tables, option keys, weight names, junk, with values of every TOML
/// type (and some that are not TOML).
fn toml_line() -> impl Strategy<Value = String> {
    let weight = prop::sample::select(Weights::names());
    let value = prop_oneof![
        number(),
        Just("true".to_owned()),
        Just("\"text\"".to_owned()),
        Just("1.5".to_owned()),
        Just("[1, 2]".to_owned()),
        Just("[1]".to_owned()),
        Just("[99999999999, -99999999999]".to_owned()),
        Just("{ a = 1 }".to_owned()),
        Just("".to_owned()),
        Just("9223372036854775808".to_owned()),
    ];
    prop_oneof![
        prop::sample::select(vec![
            "[uci]", "[eval]", "[other]", "[uci", "[[uci]]", "[eval.x]"
        ])
        .prop_map(str::to_owned),
        (
            prop::sample::select(vec![
                "Hash",
                "Threads",
                "MultiPV",
                "Ponder",
                "\"Move Overhead\"",
                "UCI_Chess960",
                "\"Clear Hash\"",
                "hash",
                "Nope",
            ]),
            value.clone(),
        )
            .prop_map(|(k, v)| format!("{k} = {v}")),
        (weight, value).prop_map(|(k, v)| format!("{k} = {v}")),
        "\\PC{0,20}",
    ]
}

/// Regression (found by tests/integration/stress.rs): a `ponderhit` went to an older ponder search
/// that `stop` had ended but that was still winding down, so the newest stayed "pondering" and the
/// next `go` was ignored.
#[test]
fn ponderhit_goes_to_the_live_ponder_search() {
    let input = "go depth 60\ngo ponder wtime 100 btime 100\nstop\n\
                 go ponder wtime 100 btime 100\nponderhit\ngo depth 1\nisready\n";
    let output = run_loop(input.as_bytes().to_vec());
    assert!(
        !output.iter().any(|l| l.contains("go ignored")),
        "{output:?}"
    );
    assert_eq!(count(&output, |l| l.starts_with("bestmove ")), 4);
}
