//! `minkowski datagen` end to end: a tiny run through the real binary writes lines the reader
//! parses, none in check, each game's lines together, closed by its trailer and agreeing with
//! how the game ended; the same games come out of the library with one job; sampling keeps a
//! uniform subset of the same game's positions; PV leaves are quiet and reached by legal
//! moves; runs append; an unfinished game or line is dropped, and a killed run leaves whole
//! games only; bad input is an error message with the file (and line), never a panic.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use minkowski::datagen::book;
use minkowski::datagen::format::{GameResult, Reader, read_text};
use minkowski::datagen::games::{Trailer, game_text};
use minkowski::datagen::play::GameEnd;
use minkowski::datagen::runner::{DatagenOptions, run};
use minkowski::datagen::sample::pv_leaf;
use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

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

/// The games of a data file, checked whole: every position line is followed, before the
/// next game, by a trailer claiming exactly the position lines since the previous trailer,
/// and the file ends with a trailer. Returns each game's position lines and trailer.
fn whole_games(text: &str) -> Vec<(Vec<&str>, Trailer)> {
    let mut games = Vec::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        match Trailer::parse(line.as_bytes()) {
            Some(t) => {
                assert_eq!(t.positions, lines.len(), "trailer {line:?}");
                games.push((std::mem::take(&mut lines), t));
            }
            None => lines.push(line),
        }
    }
    assert!(lines.is_empty(), "an unfinished game at the end: {lines:?}");
    assert!(text.is_empty() || text.ends_with('\n'));
    games
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
    let in_file = whole_games(&written);
    assert_eq!(in_file.len(), 2);
    assert!(in_file.iter().all(|(lines, _)| lines.len() <= 16));
    let file = std::fs::File::open(&out_path).expect("open output");
    let labelled: Vec<_> = Reader::new(std::io::BufReader::new(file))
        .map(|l| l.expect("every line parses"))
        .collect();
    assert!(!labelled.is_empty());
    let position_lines: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(labelled.len(), position_lines.len());
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
        let lines = game_text(game);
        // Each game's block and trailer appear whole, in game order, in the file.
        assert!(
            written.contains(&lines),
            "game {i} is not one block of the file"
        );
        assert!(game.samples.len() <= 16 && game.samples.len() <= game.candidates);
        for s in &game.samples {
            owner.insert(&s.fen, i);
        }
        // The result agrees with how the game ended.
        match game.end {
            GameEnd::Checkmate | GameEnd::Resigned => assert_ne!(game.result, GameResult::Draw),
            GameEnd::Tablebase => {}
            _ => assert_eq!(game.result, GameResult::Draw, "{:?}", game.end),
        }
        expected.extend(game.samples.iter().map(|s| s.fen.as_str()));
    }
    let mut fens: Vec<&str> = position_lines
        .iter()
        .map(|l| l.split(" | ").next().unwrap_or_default())
        .collect();
    assert_eq!(fens.len(), expected.len());
    fens.sort_unstable();
    expected.sort_unstable();
    assert_eq!(fens, expected);
    // One result per game in the file.
    let mut result_of_game: HashMap<usize, GameResult> = HashMap::new();
    for (line, l) in position_lines.iter().zip(&labelled) {
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
    let note = format!(
        "dropped an unfinished game or line ({} bytes)",
        fragment.len()
    );
    assert!(stderr(&second).contains(&note), "{}", stderr(&second));
    let after = text(&out_path);
    assert!(after.starts_with(&before) && after.len() > before.len());
    let (good, bad) = read_text(&after);
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(whole_games(&after).len(), 2);
    assert_eq!(
        good.len(),
        after.lines().filter(|l| !l.starts_with('#')).count()
    );
}

#[test]
fn an_unfinished_game_is_cut_before_appending() {
    let dir = scratch("unfinished");
    let out_path = dir.join("out.txt");
    let o = out_path.to_str().unwrap();
    let first = datagen(&["--out", o, "--games", "2", "--nodes", "300", "--seed", "4"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let before = text(&out_path);
    assert_eq!(whole_games(&before).len(), 2);
    // Whole lines of a third game without its trailer, then half a line: a crash mid-write.
    let half_game = "8/8/8/4k3/8/8/8/KR6 w - - 0 1 | 900 | 1.0\n\
                     8/8/8/3k4/8/8/8/KR6 w - - 2 2 | 910 | 1.0\n8/8/8/3k4/8/8/";
    std::fs::write(&out_path, format!("{before}{half_game}")).expect("write");
    let second = datagen(&["--out", o, "--games", "1", "--nodes", "300", "--seed", "9"]);
    assert!(second.status.success(), "{}", stderr(&second));
    let note = format!(
        "dropped an unfinished game or line ({} bytes)",
        half_game.len()
    );
    assert!(stderr(&second).contains(&note), "{}", stderr(&second));
    let after = text(&out_path);
    assert!(after.starts_with(&before), "the whole games stay");
    let games = whole_games(&after);
    assert_eq!(games.len(), 3);
    assert!(!after.contains("KR6 w - - 2 2"), "the half game is gone");
    assert_eq!((games[2].1.seed, games[2].1.index), (9, 0));
}

#[test]
fn a_killed_run_leaves_whole_games() {
    let dir = scratch("killed");
    let out_path = dir.join("out.txt");
    let o = out_path.to_str().unwrap();
    let mut child = Command::new(BINARY)
        .args(["datagen", "--out", o, "--games", "100000", "--nodes", "100"])
        .args(["--jobs", "2", "--seed", "6", "--sample", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    // Wait for a few games, then kill (SIGKILL: no chance to finish a write).
    for _ in 0..600 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        if std::fs::metadata(&out_path).is_ok_and(|m| m.len() > 20_000) {
            break;
        }
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let written = text(&out_path);
    assert!(!whole_games(&written).is_empty());
}

#[test]
fn sampling_keeps_a_subset_of_the_same_game() {
    let options = |sample| DatagenOptions {
        games: 4,
        nodes: 400,
        jobs: 2,
        seed: 21,
        sample,
        ..DatagenOptions::default()
    };
    let collect = |o: &DatagenOptions| {
        let mut games = Vec::new();
        run(&[], o, &SearchControl::default(), |g, _| {
            games.push(g.clone());
            ControlFlow::Continue(())
        });
        games.sort_by_key(|g| g.index);
        games
    };
    let (all, few) = (collect(&options(0)), collect(&options(3)));
    assert_eq!(all.len(), 4);
    for (a, f) in all.iter().zip(&few) {
        // The same game (sampling comes after it), its positions all kept without sampling...
        assert_eq!((a.index, a.plies, a.result), (f.index, f.plies, f.result));
        assert_eq!(
            (a.samples.len(), a.candidates),
            (f.candidates, f.candidates)
        );
        // ...and three of them, in game order, with sampling.
        assert_eq!(f.samples.len(), 3.min(a.samples.len()));
        let mut rest = a.samples.iter();
        for s in &f.samples {
            assert!(
                rest.any(|x| x == s),
                "{s:?} is not among the game's, in order"
            );
        }
    }
    // More positions than plies would mean a position written twice.
    assert!(all.iter().all(|g| g.samples.len() <= g.plies as usize));
}

#[test]
fn pv_leaves_are_quiet_and_reached_by_legal_moves() {
    // Positions with captures and checks about: the search's PV from each is followed, move
    // by move with the legality check of `Position::play`, to where the rule stops.
    let fens = [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
        "4k3/8/5n2/3p4/4P3/2N5/8/4K3 w - - 0 1",
        "3k4/8/8/3p4/8/8/8/3RK3 w - - 0 1",
        // A free queen, a queen to win with a bishop, a rook to take with check.
        "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p1q1/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3",
        "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1",
    ];
    let mut searcher = Searcher::new(1);
    let limits = Limits {
        nodes: Some(3_000),
        ..Limits::default()
    };
    let mut resolved = 0;
    for fen in fens {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        searcher.clear();
        let found = searcher.search(&pos, &[], &limits, &SearchControl::default(), &mut ());
        let Some(leaf) = pv_leaf(&pos, &found.pv) else {
            continue;
        };
        // Replay the PV with the legality check until the leaf is reached.
        let mut at = pos.clone();
        let mut played = 0;
        while at != leaf {
            let m = found.pv[played];
            at = at
                .play(m)
                .unwrap_or_else(|e| panic!("{fen}: illegal PV move: {e}"));
            played += 1;
        }
        resolved += usize::from(played > 0);
        assert!(!leaf.is_check(), "{fen}: the leaf is in check");
        assert!(!leaf.legal_moves().is_empty());
        // Every position before the leaf was in check or had a capture/promotion next.
        let mut walk = pos.clone();
        for &m in &found.pv[..played] {
            assert!(
                walk.is_check() || m.is_capture() || m.is_promotion(),
                "{fen}"
            );
            walk.play_unchecked(m);
        }
        // At the leaf the PV ends or goes on quietly.
        if let Some(next) = found.pv.get(played) {
            assert!(!next.is_capture() && !next.is_promotion(), "{fen}");
        }
    }
    assert!(
        resolved >= 3,
        "only {resolved} PVs were followed past their start"
    );
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
        vec!["--out", o, "--games", "1", "--random-plies", "9-3"],
        vec!["--out", o, "--games", "1", "--random-plies", "x"],
        vec!["--out", o, "--games", "1", "--sample", "-1"],
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
