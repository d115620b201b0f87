//! `minkowski wdl-fit FILE... [--positions N] [--depth D] [--jobs N] [--validation PCT]
//! [--max-score CP]`: fits the win/draw/loss model (`minkowski::wdl`) to the game results of
//! self-play data, with Minkowski's own score of every position.
//!
//! The files are datagen data (`FEN | score | result` lines with `# game ...` trailers); their
//! score column is ignored (it may be a teacher's), only the position and its game's result
//! count. Whole games are kept or dropped (a hash of the file's place in the argument list and
//! the game's number picks about `--positions` positions), and a hash of the same pair holds
//! `--validation` percent of the games out of the fit. Each kept position is scored by a
//! search to `--depth` plies (default 8: the scores a GUI sees come from searches, and of
//! depths 0, 1, 4 and 8 the depth-8 scores predicted the results best, docs/results-log.md) from a
//! searcher cleared every 256 positions, so the scores do not depend on `--jobs`; depth 0 is
//! the static evaluation (positions in check left out). Mates, tablebase scores and scores beyond `--max-score` are left out:
//! the engine reports those as certain or nearly so.
//!
//! Prints the data's size, the loss of the fit (training and validation) against two
//! baselines, the coefficients as Rust source for `WdlModel::FITTED` in src/wdl/mod.rs, `a`
//! and `b` by material, and the validation positions' calibration table in Markdown. Exit
//! status 2 on bad arguments, an unreadable file or no positions.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use minkowski::config::Config;
use minkowski::datagen::format::{GameResult, parse_line};
use minkowski::datagen::games::group_lines;
use minkowski::eval::Evaluator;
use minkowski::search::threads::run_jobs;
use minkowski::search::{Limits, Score, SearchControl, Searcher};
use minkowski::value::Value;
use minkowski::wdl::fit::{Band, Outcome, Samples, calibration, fit, fit_flat, log_loss};
use minkowski::wdl::{WdlModel, material};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

/// Exit status for bad input.
const EXIT_ERROR: u8 = 2;

/// Positions per task of a job: each task starts from a cleared searcher, so a score does not
/// depend on which job (or how many) searched the positions before it.
const TASK_POSITIONS: usize = 256;

/// Transposition table per job, in MB: shallow searches of one position need little.
const TASK_HASH_MB: usize = 1;

/// Most nodes one position's search may take: a shallow search needs thousands, but the
/// quiescence search of a rare position runs away (millions of nodes at depth 1), and one such
/// position must not stall the run. A search stopped here still gives its score; the count
/// and the first few FENs are reported.
const NODE_CAP: u64 = 1_000_000;

/// Positions whose search hit [`NODE_CAP`], named one by one on stderr.
const MAX_CAPPED_SHOWN: usize = 5;

/// Where the calibration table cuts its score bands, in centipawns (the side to move's view).
const BAND_EDGES: [i32; 14] = [
    -600, -400, -250, -150, -100, -50, -20, 20, 50, 100, 150, 250, 400, 600,
];

/// Material counts at which `a` and `b` are printed.
const SHOWN_MATERIAL: [u32; 8] = [17, 24, 32, 40, 48, 58, 68, 78];

/// Arguments of `minkowski wdl-fit`.
#[derive(clap::Args, Debug)]
pub struct WdlFitArgs {
    /// Data files: `FEN | score | result` lines with `# game ...` trailers (minkowski datagen).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// About how many positions to use (whole games, picked by a hash; 0: all).
    #[arg(long, value_name = "N", default_value_t = 300_000)]
    positions: usize,
    /// Score each position by a search to this depth (0: the static evaluation).
    #[arg(long, value_name = "D", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Threads scoring positions.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: u32,
    /// Percentage of the games held out of the fit, for the validation loss and the
    /// calibration table.
    #[arg(long, value_name = "PCT", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=50))]
    validation: u32,
    /// Leave out positions scored beyond this many centipawns either way.
    #[arg(long, value_name = "CP", default_value_t = 2000,
          value_parser = clap::value_parser!(i32).range(1..=20_000))]
    max_score: i32,
}

/// A kept position: its FEN line's position, its outcome for the side to move, and whether its
/// game is held out.
struct Picked {
    pos: Chess,
    outcome: Outcome,
    validation: bool,
}

/// Fit and print.
pub fn run(args: &WdlFitArgs, config: Option<&Path>) -> ExitCode {
    let (config, problems) = Config::load(config);
    if !problems.is_empty() {
        for problem in &problems {
            eprintln!("minkowski wdl-fit: {problem}");
        }
        return ExitCode::from(EXIT_ERROR);
    }
    let start = Instant::now();
    let picked = match pick(args) {
        Ok(p) if !p.is_empty() => p,
        Ok(_) => {
            eprintln!("minkowski wdl-fit: no positions in the files");
            return ExitCode::from(EXIT_ERROR);
        }
        Err(e) => {
            eprintln!("minkowski wdl-fit: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    let evaluator = Evaluator::new(config.weights());
    let (scores, capped) = score_all(&picked, &evaluator, args.depth, args.jobs as usize);
    if !capped.is_empty() {
        eprintln!(
            "minkowski wdl-fit: {} searches stopped at {NODE_CAP} nodes, e.g.:",
            capped.len()
        );
        for fen in capped.iter().take(MAX_CAPPED_SHOWN) {
            eprintln!("  {fen}");
        }
    }
    let (mut train, mut validation) = (Samples::default(), Samples::default());
    let mut left_out = 0;
    for (p, score) in picked.iter().zip(&scores) {
        let Some(cp) = score.filter(|cp| cp.abs() <= args.max_score) else {
            left_out += 1;
            continue;
        };
        let set = if p.validation {
            &mut validation
        } else {
            &mut train
        };
        set.add(cp, material(&p.pos), p.outcome);
    }
    let how = if args.depth == 0 {
        "the static evaluation".to_owned()
    } else {
        format!("a depth-{} search", args.depth)
    };
    println!(
        "positions: {} picked, {} scored by {how} in {:.0} s; {left_out} left out (in check, mate, \
         tablebase or beyond {} cp); training {}, validation {}",
        picked.len(),
        scores.len(),
        start.elapsed().as_secs_f64(),
        args.max_score,
        train.len(),
        validation.len()
    );
    let [w, d, l] = train.outcomes();
    println!("training outcomes (side to move): {w} wins, {d} draws, {l} losses");
    let (model, flat) = match (fit(&train), fit_flat(&train)) {
        (Ok(m), Ok(f)) => (m, f),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("minkowski wdl-fit: {e}");
            return ExitCode::from(EXIT_ERROR);
        }
    };
    println!("\nlog loss (nats per position)   training   validation");
    for (name, train_loss, valid_loss) in [
        (
            "fitted model",
            model.loss,
            log_loss(&model.model, &validation),
        ),
        (
            "flat model (no material)",
            flat.loss,
            log_loss(&flat.model, &validation),
        ),
        (
            "outcome frequencies only",
            train.baseline_loss(),
            validation.baseline_loss(),
        ),
        (
            "the engine's model now",
            log_loss(&WdlModel::FITTED, &train),
            log_loss(&WdlModel::FITTED, &validation),
        ),
    ] {
        println!("{name:<30} {train_loss:>9.5} {valid_loss:>12.5}");
    }
    println!("({} Newton steps)\n", model.steps);
    print_model(&model.model);
    print_calibration(&calibration(&model.model, &validation, &BAND_EDGES));
    ExitCode::SUCCESS
}

/// Read the files and keep about `--positions` positions, whole games at a time.
fn pick(args: &WdlFitArgs) -> Result<Vec<Picked>, String> {
    let read = |path: &PathBuf| {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    // First pass: how many positions there are, for the share of games to keep.
    let mut total = 0usize;
    for path in &args.files {
        let bytes = read(path)?;
        total += bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty() && l[0] != b'#')
            .count();
    }
    let share = if args.positions == 0 || args.positions >= total {
        1.0
    } else {
        args.positions as f64 / total as f64
    };
    let mut picked = Vec::new();
    let mut malformed = 0usize;
    for (file, path) in args.files.iter().enumerate() {
        let bytes = read(path)?;
        let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        let groups = group_lines(&lines);
        for (line, &game) in lines.iter().zip(&groups) {
            let hash = mix((file as u64) << 32 | game as u64);
            if unit(hash) >= share {
                continue;
            }
            let parsed = std::str::from_utf8(line)
                .map_err(|_| ())
                .and_then(|t| parse_line(t).map_err(|_| ()));
            match parsed {
                Ok(Some(l)) => {
                    let outcome = outcome_for(l.result, l.position.turn());
                    picked.push(Picked {
                        pos: l.position,
                        outcome,
                        validation: (mix(hash) % 100) < u64::from(args.validation),
                    });
                }
                Ok(None) => {}
                Err(()) => malformed += 1,
            }
        }
    }
    if malformed > 0 {
        eprintln!("minkowski wdl-fit: {malformed} malformed lines skipped");
    }
    Ok(picked)
}

/// How a game with `result` ended for the side to move `turn`.
fn outcome_for(result: GameResult, turn: Color) -> Outcome {
    match (result, turn) {
        (GameResult::Draw, _) => Outcome::Draw,
        (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => {
            Outcome::Win
        }
        _ => Outcome::Loss,
    }
}

/// Every position's score in centipawns (side to move), `None` for those left out: in check
/// at depth 0, a mate or a tablebase score. In the order of `picked`; with the FENs of the
/// positions whose search reached [`NODE_CAP`].
fn score_all(
    picked: &[Picked],
    evaluator: &Evaluator,
    depth: u32,
    jobs: usize,
) -> (Vec<Option<i32>>, Vec<String>) {
    let tasks = picked.len().div_ceil(TASK_POSITIONS);
    let next = AtomicUsize::new(0);
    let mut scores = vec![None; picked.len()];
    let mut capped = Vec::new();
    run_jobs(
        jobs,
        |sender| {
            let mut searcher = Searcher::new(TASK_HASH_MB);
            searcher.set_evaluator(evaluator.clone());
            loop {
                let task = next.fetch_add(1, Ordering::Relaxed);
                if task >= tasks {
                    break;
                }
                searcher.clear();
                let range = task * TASK_POSITIONS..((task + 1) * TASK_POSITIONS).min(picked.len());
                let out: Vec<(Option<i32>, bool)> = picked[range.clone()]
                    .iter()
                    .map(|p| score_one(&p.pos, &mut searcher, depth))
                    .collect();
                if sender.send((range.start, out)).is_err() {
                    break;
                }
            }
        },
        |results| {
            for (start, out) in results {
                for (i, (score, hit_cap)) in out.into_iter().enumerate() {
                    scores[start + i] = score;
                    if hit_cap {
                        let fen = Fen::from_position(&picked[start + i].pos, EnPassantMode::Legal);
                        capped.push(fen.to_string());
                    }
                }
            }
        },
    );
    (scores, capped)
}

/// A position's score (see [`score_all`]) and whether its search reached [`NODE_CAP`].
fn score_one(pos: &Chess, searcher: &mut Searcher, depth: u32) -> (Option<i32>, bool) {
    if depth == 0 {
        if pos.is_check() {
            return (None, false);
        }
        let v = searcher.evaluator().evaluate(pos);
        return ((!v.is_mate() && !v.is_tb_win()).then_some(v.0), false);
    }
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(NODE_CAP),
        ..Limits::default()
    };
    let result = searcher.search(pos, &[], &limits, &SearchControl::default(), &mut ());
    let score = match result.score {
        Score::Cp(cp) if !Value(cp).is_tb_win() => Some(cp),
        _ => None,
    };
    (score, result.nodes >= NODE_CAP)
}

/// Print the coefficients as Rust source, and `a` and `b` at a few material counts.
fn print_model(model: &WdlModel) {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("    pub const FITTED: WdlModel = WdlModel {{");
    println!("        a: [{}],", list(&model.a));
    println!("        b: [{}],", list(&model.b));
    println!("    }};\n");
    println!("| material | a (cp) | b (cp) | draw at 0 cp |");
    println!("|---:|---:|---:|---:|");
    for m in SHOWN_MATERIAL {
        let (a, b) = model.params(m);
        let draw = model.wdl(Value(0), m).draw;
        println!(
            "| {m} | {a:.0} | {b:.0} | {:.1} % |",
            f64::from(draw) / 10.0
        );
    }
    println!();
}

/// The calibration table in Markdown: predicted against observed, in per cent.
fn print_calibration(bands: &[Band]) {
    println!("validation positions by score band (side to move): predicted / observed, %");
    println!("| score (cp) | positions | win | draw | loss |");
    println!("|---|---:|---:|---:|---:|");
    for b in bands {
        let range = match (b.low, b.high) {
            (i32::MIN, h) => format!("< {h}"),
            (l, i32::MAX) => format!(">= {l}"),
            (l, h) => format!("{l} .. {}", h - 1),
        };
        let cell = |k: usize| {
            format!(
                "{:.1} / {:.1}",
                100.0 * b.predicted[k],
                100.0 * b.observed[k]
            )
        };
        println!(
            "| {range} | {} | {} | {} | {} |",
            b.count,
            cell(0),
            cell(1),
            cell(2)
        );
    }
}

/// SplitMix64's finaliser: a well-spread hash of a 64-bit key.
fn mix(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A hash as a number in 0..1.
fn unit(hash: u64) -> f64 {
    (hash >> 11) as f64 / (1u64 << 53) as f64
}
