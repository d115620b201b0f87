//! `minkowski datagen` end to end: a tiny run through the real binary writes lines the reader
//! parses, none in check, each game's lines together and agreeing with how the game ended; the
//! same games come out of the library with one job; runs append; a partial last line is
//! dropped; bad input is an error message with the file (and line), never a panic.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use minkowski::datagen::format::{GameResult, Reader, read_text};
use minkowski::datagen::play::GameEnd;
use minkowski::datagen::runner::{DatagenOptions, run};
use minkowski::datagen::{RESIGN_CP, book};
use minkowski::search::SearchControl;
use shakmaty::Position;

const BINARY: &str = env!("CARGO_BIN_EXE_minkowski");

/// Two openings, as a two-line EPD book.
const BOOK: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
                    rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2\n";

/// A scratch directory of its own per test, under cargo's per-target temporary directory.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("datagen-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn datagen(args: &[&str]) -> Output {
    Command::new(BINARY)
        .arg("datagen")
        .args(args)
        .output()
        .expect("run the minkowski binary")
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_tiny_run_writes_whole_consistent_games() {
    let dir = scratch("tiny");
    let (book_path, out_path) = (dir.join("book.epd"), dir.join("out.txt"));
    std::fs::write(&book_path, BOOK).expect("write book");
    let (b, o) = (book_path.to_str().unwrap(), out_path.to_str().unwrap());
    let args = [
        "--out", o, "--games", "2", "--nodes", "500", "--jobs", "2", "--book", b, "--seed", "5",
    ];
    let out = datagen(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.starts_with("games 2 "), "{summary}");

    // Every line parses, as the tuner will read it; no position is in check.
    let written = text(&out_path);
    assert!(written.ends_with('\n'));
    let file = std::fs::File::open(&out_path).expect("open output");
    let labelled: Vec<_> = Reader::new(std::io::BufReader::new(file))
        .map(|l| l.expect("every line parses"))
        .collect();
    assert!(!labelled.is_empty());
    assert_eq!(labelled.len(), written.lines().count());
    assert!(labelled.iter().all(|l| !l.position.is_check()));
    assert!(
        labelled
            .iter()
            .all(|l| l.score.is_some_and(|s| s.abs() < 20_000))
    );

    // The library plays the same two games with one job (a run does not depend on the jobs).
    let openings = book::parse(BOOK).positions;
    let options = DatagenOptions {
        games: 2,
        nodes: 500,
        jobs: 1,
        seed: 5,
        ..DatagenOptions::default()
    };
    let mut games = Vec::new();
    run(&openings, &options, &SearchControl::default(), |g, _| {
        games.push(g.clone());
        ControlFlow::Continue(())
    });
    assert_eq!(games.len(), 2);
    let mut expected: Vec<&str> = Vec::new();
    let mut owner: HashMap<&str, usize> = HashMap::new();
    for (i, game) in games.iter().enumerate() {
        let lines = game.lines();
        // Each game's block appears whole, in game order, in the file.
        assert!(
            written.contains(&lines),
            "game {i} is not one block of the file"
        );
        for s in &game.samples {
            owner.insert(&s.fen, i);
        }
        // The result agrees with how the game ended.
        match game.end {
            GameEnd::Checkmate | GameEnd::Resigned => assert_ne!(game.result, GameResult::Draw),
            GameEnd::Tablebase => {}
            _ => assert_eq!(game.result, GameResult::Draw, "{:?}", game.end),
        }
        if game.end == GameEnd::Resigned {
            let last = game
                .samples
                .last()
                .expect("a resigned game has positions")
                .white_score;
            let white_won = game.result == GameResult::WhiteWins;
            assert!(
                if white_won {
                    last >= RESIGN_CP
                } else {
                    last <= -RESIGN_CP
                },
                "{last}"
            );
        }
        expected.extend(game.samples.iter().map(|s| s.fen.as_str()));
    }
    let mut fens: Vec<&str> = written
        .lines()
        .map(|l| l.split(" | ").next().unwrap_or_default())
        .collect();
    assert_eq!(fens.len(), expected.len());
    fens.sort_unstable();
    expected.sort_unstable();
    assert_eq!(fens, expected);
    // One result per game in the file.
    let mut result_of_game: HashMap<usize, GameResult> = HashMap::new();
    for (line, l) in written.lines().zip(&labelled) {
        let fen = line.split(" | ").next().unwrap_or_default();
        let game = owner[fen];
        assert_eq!(*result_of_game.entry(game).or_insert(l.result), l.result);
    }
}

#[test]
fn runs_append_and_a_partial_last_line_is_dropped() {
    let dir = scratch("append");
    let out_path = dir.join("out.txt");
    let o = out_path.to_str().unwrap();
    let first = datagen(&["--out", o, "--games", "1", "--nodes", "300", "--seed", "1"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let before = text(&out_path);
    assert!(!before.is_empty());
    // A fragment, as a crash mid-write would leave.
    let fragment = "8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 9";
    std::fs::write(&out_path, format!("{before}{fragment}")).expect("write");
    let second = datagen(&["--out", o, "--games", "1", "--nodes", "300", "--seed", "2"]);
    assert!(second.status.success(), "{}", stderr(&second));
    let note = format!("dropped a partial last line ({} bytes)", fragment.len());
    assert!(stderr(&second).contains(&note), "{}", stderr(&second));
    let after = text(&out_path);
    assert!(after.starts_with(&before) && after.len() > before.len());
    let (good, bad) = read_text(&after);
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(good.len(), after.lines().count());
}

#[test]
fn bad_input_is_a_message_not_a_panic() {
    let dir = scratch("bad");
    let o = dir.join("out.txt");
    let o = o.to_str().unwrap();
    let missing = dir.join("missing.epd");
    let out = datagen(&[
        "--out",
        o,
        "--games",
        "1",
        "--book",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot read book") && stderr(&out).contains("missing.epd"),
        "{}",
        stderr(&out)
    );

    // A book without one position names the file; its bad lines are named with their line.
    let bad_book = dir.join("bad.epd");
    std::fs::write(&bad_book, "# openings\nnot a position\n").expect("write");
    let out = datagen(&[
        "--out",
        o,
        "--games",
        "1",
        "--book",
        bad_book.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.epd:2: not a FEN"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("no opening position"),
        "{}",
        stderr(&out)
    );

    for args in [
        vec!["--out", o, "--games", "x"],
        vec!["--out", o, "--games", "0"],
        vec!["--out", o, "--games", "1", "--nodes", "-5"],
        vec!["--out", o, "--games", "1", "--jobs", "0"],
        vec!["--games", "1"],
    ] {
        let out = datagen(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("error:") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }

    let out = datagen(&[
        "--out",
        o,
        "--games",
        "1",
        "--syzygy",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no Syzygy tables"),
        "{}",
        stderr(&out)
    );

    // An output file that is not line-oriented text is left alone.
    let blob = dir.join("blob.bin");
    std::fs::write(&blob, vec![b'x'; 70_000]).expect("write");
    let out = datagen(&[
        "--out",
        blob.to_str().unwrap(),
        "--games",
        "1",
        "--nodes",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("refusing to append"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::metadata(&blob).expect("blob").len(), 70_000);
}
