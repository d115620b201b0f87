//! `minkowski tune` end to end: it writes an engine.toml the engine loads and the fitted
//! defaults into a copy of the evaluation's source,
//! `--only` leaves every other weight alone, the validation set holds whole games whatever the
//! number of threads, and bad input is an error with the file and line, never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{self, XorShift64};
use minkowski::config::Config;
use minkowski::datagen::format::{GameResult, format_line};
use minkowski::eval::Evaluator;
use minkowski::eval::weights::Weights;
use minkowski::tune::{read_defaults, rewrite_defaults};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

const BINARY: &str = env!("CARGO_BIN_EXE_minkowski");

/// Positions of a few suites and the positions one move later.
fn positions() -> Vec<Chess> {
    let mut all = Vec::new();
    for file in ["wac.epd", "sts1.epd", "fischer.epd"] {
        for pos in common::suite_positions(file, usize::MAX) {
            common::push_children(&pos, &mut all);
            all.push(pos);
        }
    }
    all
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tune-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .output()
        .expect("run the minkowski binary")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A data file: suite positions with results made from the default evaluation (White wins
/// above +60, loses below −60), in this project's format and one labelled-EPD line.
fn data_file(path: &Path) {
    let e = Evaluator::default();
    let mut text = String::new();
    for pos in positions().into_iter().step_by(4) {
        let c = e.coefficients(&pos);
        let white = c.white_value(e.weights());
        let result = match white {
            w if w > 60 => GameResult::WhiteWins,
            w if w < -60 => GameResult::BlackWins,
            _ => GameResult::Draw,
        };
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        text.push_str(&format_line(&fen, white, result));
        text.push('\n');
    }
    text.push_str("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1/2-1/2\";\n");
    std::fs::write(path, text).expect("write data");
}

#[test]
fn the_command_writes_a_config_the_engine_loads() {
    let dir = scratch("command");
    let (data, out) = (dir.join("data.txt"), dir.join("tuned.toml"));
    data_file(&data);
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "tune",
        d,
        "--epochs",
        "3",
        "--out",
        o,
        "--threads",
        "2",
        "--validation",
        "20",
        "--last",
    ];
    let result = run(&args);
    assert!(result.status.success(), "{}", stderr(&result));
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(stdout.contains("epoch  training    validation"), "{stdout}");
    assert!(stdout.contains("\n    3  0.0"), "{stdout}");
    let text = std::fs::read_to_string(&out).expect("tuned.toml written");
    let config = Config::from_toml(&text, &out).expect("tuned.toml loads");
    assert_ne!(config.weights(), Weights::default());
    assert!(
        !dir.join("tuned.rs").exists(),
        "no Rust output without --rust"
    );
    // The engine loads the file as it is.
    let eval = run(&["--config", o, "eval"]);
    assert!(eval.status.success(), "{}", stderr(&eval));
    // --only: nothing else moves.
    let only = dir.join("only.toml");
    let args = [
        "tune",
        d,
        "--epochs",
        "2",
        "--out",
        only.to_str().unwrap(),
        "--only",
        "bishop_pair,mobility_knight.*",
    ];
    let result = run(&args);
    assert!(result.status.success(), "{}", stderr(&result));
    let text = std::fs::read_to_string(&only).expect("only.toml written");
    let w = Config::from_toml(&text, &only).expect("loads").weights();
    let mut expected = Weights::default();
    for name in Weights::names() {
        if name == "bishop_pair" || name.starts_with("mobility_knight.") {
            let value = w.get(&name).expect("a weight");
            expected.set(&name, value).expect("a weight");
        }
    }
    assert_eq!(w, expected);
}

/// `--rust DIR`: the defaults declared in a copy of the evaluation's source become the fit, and
/// nothing else in the files changes.
#[test]
fn the_command_rewrites_the_declared_defaults() {
    let dir = scratch("rust");
    let (data, out) = (dir.join("data.txt"), dir.join("tuned.toml"));
    data_file(&data);
    let source = common::eval_source_dir();
    let copy = dir.join("eval");
    let mut originals = Vec::new();
    for path in common::eval_source_files() {
        let to = copy.join(path.strip_prefix(&source).expect("under the source"));
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("create dir");
        let text = std::fs::read_to_string(&path).expect("read the source");
        std::fs::write(&to, &text).expect("copy the source");
        originals.push((to, text));
    }
    let args = [
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--rust",
        copy.to_str().unwrap(),
        "--threads",
        "1",
        "--validation",
        "20",
        "--last",
    ];
    let result = run(&args);
    assert!(result.status.success(), "{}", stderr(&result));
    let text = std::fs::read_to_string(&out).expect("tuned.toml written");
    let fitted = Config::from_toml(&text, &out).expect("loads").weights();
    assert_ne!(fitted, Weights::default());
    let mut declared = 0;
    let mut changed = 0;
    for (path, original) in originals {
        let now = std::fs::read_to_string(&path).expect("read the copy");
        changed += usize::from(now != original);
        // Outside the declarations nothing moved: the file written back to the built-in
        // defaults is the original, character for character.
        let (back, _) = rewrite_defaults(&now, &Weights::default()).expect("rewrites");
        assert_eq!(back, original, "{}", path.display());
        for (name, pairs) in read_defaults(&now).expect("reads") {
            let (offset, spec) = Weights::fields().find(|(_, s)| s.name == name).unwrap();
            let fit: Vec<_> = (offset..offset + spec.len())
                .map(|i| fitted.slot(i).unwrap())
                .collect();
            assert_eq!(pairs, fit, "{name}");
            declared += 1;
        }
    }
    assert_eq!(declared, Weights::fields().count());
    assert!(changed > 0);
    // Not the evaluation's source: refused.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("create dir");
    let args = [
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--rust",
        empty.to_str().unwrap(),
    ];
    let result = run(&args);
    assert!(!result.status.success());
    assert!(stderr(&result).contains("0 times"), "{}", stderr(&result));
}

/// Lines of `games` random games of `plies` positions each, in game order, every position
/// labelled with its game's made-up result.
fn random_games(games: usize, plies: usize) -> String {
    let mut rng = XorShift64(77);
    let mut text = String::new();
    let mut written = 0;
    while written < games {
        let mut pos = Chess::default();
        let mut lines = Vec::new();
        while lines.len() < plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            lines.push(format_line(&fen, 0, GameResult::Draw));
        }
        let quiet = lines.len() == plies
            && !lines.iter().any(|l| {
                let fen = l.split(" | ").next().unwrap_or_default();
                let pos: Chess = fen
                    .parse::<Fen>()
                    .ok()
                    .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                    .expect("legal");
                Evaluator::default().coefficients(&pos).replaced()
            });
        if quiet {
            for line in lines {
                text.push_str(&line);
                text.push('\n');
            }
            written += 1;
        }
    }
    text
}

#[test]
fn the_validation_set_holds_whole_games() {
    let dir = scratch("games");
    let (data, out) = (dir.join("games.txt"), dir.join("t.toml"));
    let plies = 37;
    std::fs::write(&data, random_games(60, plies)).expect("write");
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    let mut seen = None;
    for threads in ["1", "2"] {
        let args = [
            "tune",
            d,
            "--epochs",
            "1",
            "--out",
            o,
            "--validation",
            "30",
            "--threads",
            threads,
        ];
        let result = run(&args);
        assert!(result.status.success(), "{}", stderr(&result));
        let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
        let loaded = stdout.lines().next().unwrap_or_default().to_owned();
        let validation: usize = loaded
            .split(", ")
            .find_map(|part| part.strip_suffix(" validation"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{loaded}"));
        assert!(
            validation > 0 && validation.is_multiple_of(plies),
            "{loaded}"
        );
        // The same split and the same losses whatever the number of threads.
        let losses: Vec<&str> = stdout.lines().filter(|l| l.starts_with("    1 ")).collect();
        // The loading time ("in 0.1s") varies with the machine's load: compare the counts.
        let counts = loaded.split_once(": ").map_or(loaded.as_str(), |(_, c)| c);
        let this = (
            counts.to_owned(),
            losses
                .iter()
                .map(|l| l[..30].to_owned())
                .collect::<Vec<_>>(),
        );
        if let Some(before) = &seen {
            assert_eq!(before, &this);
        }
        seen = Some(this);
    }
}

#[test]
fn bad_input_is_an_error_with_file_and_line() {
    let dir = scratch("bad");
    let (data, out) = (dir.join("bad.txt"), dir.join("t.toml"));
    let good = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 31 | 0.5";
    let text = format!("{good}\n# comment\n{good} | 7\n{good}\n8/8/9/8 w - - | 0 | 1.0\n");
    std::fs::write(&data, text).expect("write");
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    let result = run(&["tune", d, "--epochs", "1", "--out", o]);
    assert_eq!(result.status.code(), Some(2), "{}", stderr(&result));
    let err = stderr(&result);
    assert!(err.contains(&format!("{d}:3: 4 fields")), "{err}");
    assert!(err.contains(&format!("{d}:5: bad FEN")), "{err}");
    assert!(err.contains("--skip-bad"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.exists());
    // Skipped on request: the two good lines are enough to run.
    let result = run(&[
        "tune",
        d,
        "--epochs",
        "1",
        "--out",
        o,
        "--skip-bad",
        "--validation",
        "0",
    ]);
    assert!(result.status.success(), "{}", stderr(&result));
    // A missing file, a pattern that names nothing, and nonsense options.
    for (args, expected) in [
        (
            vec!["tune", "no/such/file", "--epochs", "1", "--out", o],
            "cannot read no/such/file",
        ),
        (
            vec!["tune", d, "--epochs", "1", "--out", o, "--only", "knight"],
            "--only \"knight\"",
        ),
        (
            vec![
                "tune",
                d,
                "--epochs",
                "1",
                "--out",
                o,
                "--validation",
                "120",
            ],
            "--validation 120",
        ),
        (
            vec!["tune", d, "--epochs", "1", "--out", o, "--lr=-1"],
            "--lr -1",
        ),
        (
            vec!["tune", d, "--epochs", "1", "--out", o, "--lambda", "1.5"],
            "--lambda 1.5",
        ),
    ] {
        let result = run(&args);
        assert_eq!(
            result.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&result)
        );
        assert!(
            stderr(&result).contains(expected),
            "{args:?}: {}",
            stderr(&result)
        );
    }
}

/// The starting weights' training loss of a `tune --epochs 0` run (its epoch-0 row).
fn starting_loss(args: &[&str]) -> f64 {
    let result = run(args);
    assert!(result.status.success(), "{}", stderr(&result));
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    stdout
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("0  "))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no epoch-0 row: {stdout}"))
}

#[test]
fn lambda_blends_the_search_score_into_the_label() {
    // Every game drawn, every score the default evaluation itself: fitted to the scores alone
    // (`--lambda 0`, K = ln 10 for both), the starting weights are exact; fitted to the
    // results, they are not.
    let dir = scratch("lambda");
    let (data, out) = (dir.join("data.txt"), dir.join("t.toml"));
    let e = Evaluator::default();
    let mut text = String::new();
    for pos in positions().into_iter().step_by(4) {
        let white = e.coefficients(&pos).white_value(e.weights());
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        text.push_str(&format_line(&fen, white, GameResult::Draw));
        text.push('\n');
    }
    std::fs::write(&data, text).expect("write data");
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    let k = std::f64::consts::LN_10.to_string();
    let common = ["tune", d, "--epochs", "0", "--out", o, "--validation", "0"];
    let with = |lambda: &str| {
        let mut args = common.to_vec();
        args.extend(["--k", &k, "--lambda", lambda]);
        starting_loss(&args)
    };
    let (scores, results, half) = (with("0"), with("1"), with("0.5"));
    assert!(scores < 1e-4, "score labels: {scores}");
    assert!(results > 1e-3, "result labels: {results}");
    // Halfway, every label is halfway: a quarter of the result-only loss.
    assert!(
        (half / (results / 4.0) - 1.0).abs() < 0.05,
        "{half} against {results}"
    );
}

/// The validation count of a `tune --epochs 0` run's first line.
fn validation_count(args: &[&str]) -> usize {
    let result = run(args);
    assert!(result.status.success(), "{}", stderr(&result));
    let stdout = String::from_utf8_lossy(&result.stdout).into_owned();
    let loaded = stdout.lines().next().unwrap_or_default().to_owned();
    loaded
        .split(", ")
        .find_map(|part| part.strip_suffix(" validation"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{loaded}"))
}

#[test]
fn games_stay_whole_across_loader_blocks_and_trailers_group_them() {
    // 250 games of 37 lines: 9,250 lines, so games reach across the loader's 4,096-line
    // blocks. Once in game order without trailers (grouped by increasing plies), once each
    // game reversed (plies fall, as PV leaves may) and closed by a datagen trailer.
    let dir = scratch("blocks");
    let plies = 37;
    let ordered = random_games(250, plies);
    let lines: Vec<&str> = ordered.lines().collect();
    let mut trailed = String::new();
    for (g, game) in lines.chunks(plies).enumerate() {
        for line in game.iter().rev() {
            trailed.push_str(line);
            trailed.push('\n');
        }
        trailed.push_str(&format!(
            "# game seed=1 index={g} positions={plies} plies=80 end=draw-adj result=0.5\n"
        ));
    }
    let out = dir.join("t.toml");
    for (name, text) in [("ordered.txt", ordered.as_str()), ("trailed.txt", &trailed)] {
        let data = dir.join(name);
        std::fs::write(&data, text).expect("write");
        for threads in ["1", "2"] {
            let args = [
                "tune",
                data.to_str().unwrap(),
                "--epochs",
                "0",
                "--out",
                out.to_str().unwrap(),
                "--validation",
                "50",
                "--threads",
                threads,
            ];
            // (main @ 515d064 gave 4,466 = 120 × 37 + 26 for ordered.txt: a game cut at a
            // block boundary, its parts on both sides; and no multiple for trailed.txt.)
            let validation = validation_count(&args);
            assert!(
                validation > 0 && validation.is_multiple_of(plies),
                "{name}, {threads} threads: {validation} validation positions"
            );
        }
    }
}

/// `--phase-balance` keeps at most an even share of the training positions at each phase and
/// says so; `--coverage FILE` lists every tuned weight, rarest first, with the count of training
/// positions that move it (tempo: every one), and the twenty rarest are printed.
#[test]
fn phase_balance_and_coverage_are_reported() {
    let dir = scratch("balance");
    let (data, out, coverage) = (
        dir.join("data.txt"),
        dir.join("tuned.toml"),
        dir.join("coverage.tsv"),
    );
    data_file(&data);
    let (d, o, c) = (
        data.to_str().unwrap(),
        out.to_str().unwrap(),
        coverage.to_str().unwrap(),
    );
    let args = [
        "tune",
        d,
        "--epochs",
        "1",
        "--out",
        o,
        "--validation",
        "0",
        "--phase-balance",
        "--coverage",
        c,
    ];
    let result = run(&args);
    assert!(result.status.success(), "{}", stderr(&result));
    let stdout = String::from_utf8_lossy(&result.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("phase-balanced: "))
        .unwrap_or_else(|| panic!("no balance line: {stdout}"));
    // "phase-balanced: KEPT of BEFORE training positions kept (at most SHARE a phase); by phase
    // 0..24: [n0, n1, ...]"
    let words: Vec<&str> = line.split_whitespace().collect();
    let (kept, before, share): (usize, usize, usize) = (
        words[1].parse().unwrap(),
        words[3].parse().unwrap(),
        words[9].parse().unwrap(),
    );
    assert!(kept < before, "the suites are not balanced already: {line}");
    assert_eq!(share, before.div_ceil(25), "{line}");
    let counts: Vec<usize> = line[line.find('[').unwrap() + 1..line.find(']').unwrap()]
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 25);
    assert_eq!(counts.iter().sum::<usize>(), kept);
    assert!(counts.iter().all(|&n| n <= share), "{line}");
    // The coverage file: every tuned weight once, sorted by count, tempo in every position.
    let text = std::fs::read_to_string(&coverage).expect("coverage written");
    let rows: Vec<(String, usize)> = text
        .lines()
        .map(|l| {
            let (name, n) = l.split_once('\t').expect("name<TAB>count");
            (name.to_owned(), n.parse().expect("a count"))
        })
        .collect();
    assert!(rows.windows(2).all(|w| w[0].1 <= w[1].1), "rarest first");
    let names: std::collections::HashSet<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), rows.len());
    assert!(names.len() > 700, "{}", names.len());
    let tempo = rows
        .iter()
        .find(|(n, _)| n == "tempo")
        .expect("tempo listed");
    assert_eq!(tempo.1, kept);
    assert!(
        stdout.contains("the 20 weights the fewest training positions move"),
        "{stdout}"
    );
}
