//! `minkowski tune FILE... --epochs N --out tuned.toml [--rust DIR] [--only PATTERN]
//! [--threads N] [--validation PCT] [--lr X] [--batch N] [--k X] [--l2 X] [--lambda X] [--skip-bad]
//! [--phase-balance] [--coverage FILE] [--last]`:
//! Texel tuning of the evaluation's weights (the library's `minkowski::tune`) to labelled
//! positions.
//!
//! The data files are read with the datagen reader (`FEN | score | result` and the labelled-EPD
//! forms, see `minkowski::datagen`), converted on every thread into coefficient form; the run
//! starts from the weights of engine.toml (or `--config`). Progress and the losses of each
//! epoch go to stdout, problems to stderr. Results: FILE (`--out`) is an engine.toml with the
//! fitted `[eval]` table (checked by reading it back before the command ends); with `--rust DIR`
//! (`core/src/eval`) the defaults in the weight declarations of the `.rs` files under DIR are
//! rewritten to the fit, in place (checked by reading them back). Exit status: 0 done, 2 bad input
//! (a malformed line stops the run unless `--skip-bad`) or an I/O error.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use minkowski::config::{Config, eval_table};
use minkowski::datagen::format::parse_line;
use minkowski::datagen::games::{blocks, group_lines};
use minkowski::eval::Evaluator;
use minkowski::eval::weights::Weights;
use minkowski::tune::loss::{SCORE_LABEL_K, blended_target};
use minkowski::tune::{Builder, Selection, TuneOptions, Tuner, read_defaults, rewrite_defaults};

/// Exit status for bad input or a failed read or write.
const EXIT_ERROR: u8 = 2;

/// Malformed lines reported one by one; the rest are only counted.
const MAX_REPORTED: usize = 10;

/// Weights named in the coverage report: the rarest this many.
const RAREST: usize = 20;

/// The seed of `--phase-balance`'s draw (fixed: a rerun keeps the same positions).
const BALANCE_SEED: u64 = 0x5eed_ba1a;

/// Unused weights named one by one in the report.
const MAX_NAMED: usize = 12;

/// Arguments of `minkowski tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Data files: `FEN | score | result` lines (minkowski datagen) or labelled EPD.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Passes over the training set.
    #[arg(long, value_name = "N")]
    epochs: usize,
    /// Output: an engine.toml with the fitted [eval] table.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Output: rewrite the defaults in the weight declarations of the .rs files under DIR
    /// (core/src/eval) to the fitted weights.
    #[arg(long, value_name = "DIR")]
    rust: Option<PathBuf>,
    /// Tune only the weights whose names match (globs: `mop_up_*`, `psqt.knight.*`); repeat
    /// or separate with commas for several.
    #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
    only: Vec<String>,
    /// Threads for loading and for each gradient (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Percentage of the games held out for validation (whole games: a game is never both
    /// trained on and validated).
    #[arg(long, value_name = "PCT", default_value_t = 10.0)]
    validation: f64,
    /// Adam's step size in centipawns.
    #[arg(long, value_name = "X", default_value_t = TuneOptions::default().learning_rate)]
    lr: f64,
    /// Positions per gradient step (0: the whole training set).
    #[arg(long, value_name = "N", default_value_t = TuneOptions::default().batch_size)]
    batch: usize,
    /// The sigmoid's constant K (default: fitted to the training set first).
    #[arg(long, value_name = "X")]
    k: Option<f64>,
    /// Pull each tuned weight toward its starting value with this strength (an L2 term on
    /// the distance, in loss per centipawn squared; 0: none). Try 1e-7 to 1e-5 and keep the
    /// value with the lowest validation loss.
    #[arg(long, value_name = "X", default_value_t = TuneOptions::default().l2)]
    l2: f64,
    /// Fit to `lambda · result + (1 − lambda) · expected score of the position's search score`
    /// (the score of `FEN | score | result` lines, turned into an expected score with K = ln 10,
    /// or with --k when given); 1: the game result alone. Lines without a score keep their result.
    #[arg(long, value_name = "X", default_value_t = 1.0)]
    lambda: f64,
    /// Skip malformed lines (reported) instead of stopping.
    #[arg(long)]
    skip_bad: bool,
    /// Train on at most an even share of the positions at each game phase (the training set's
    /// size over the 25 phases, drawn at random; the phases short of it keep every position).
    /// The validation set is left as it is, so losses compare with unbalanced runs.
    #[arg(long)]
    phase_balance: bool,
    /// Write how many training positions move each weight (`name<TAB>positions`, rarest
    /// first) to FILE; the rarest are printed either way.
    #[arg(long, value_name = "FILE")]
    coverage: Option<PathBuf>,
    /// Write the last epoch's weights (default: those of the epoch with the lowest validation
    /// loss, the starting weights if none was lower).
    #[arg(long)]
    last: bool,
}

/// Run the subcommand.
pub fn run(args: &TuneArgs, config: Option<&Path>) -> ExitCode {
    match tune(args, config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("minkowski tune: {message}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn tune(args: &TuneArgs, config: Option<&Path>) -> Result<(), String> {
    check_args(args)?;
    let (config, problems) = Config::load(config);
    if let Some(problem) = problems.first() {
        return Err(problem.to_string());
    }
    let start_weights = config.weights();
    let selection = if args.only.is_empty() {
        Selection::all()
    } else {
        Selection::matching(&args.only)
            .map_err(|p| format!("--only {p:?} matches no weight name (see docs/tuning.md)"))?
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |t| t as usize,
    );

    let label = Label {
        lambda: args.lambda,
        k: args.k.unwrap_or(SCORE_LABEL_K),
    };
    let clock = Instant::now();
    let mut builder = Builder::new(Evaluator::new(start_weights.clone()), args.validation);
    let mut malformed = 0;
    for (file, path) in args.files.iter().enumerate() {
        malformed += load(path, file, &mut builder, threads, label)?;
    }
    if malformed > 0 && !args.skip_bad {
        return Err(format!(
            "{malformed} malformed line(s); fix them or pass --skip-bad to train on the rest"
        ));
    }
    let (training, validation) = (builder.training.len(), builder.validation.len());
    say(&format!(
        "loaded {} positions in {:.1}s: {training} training, {validation} validation, {} dropped \
         (an endgame verdict replaces their evaluation){}",
        training + validation + builder.dropped,
        clock.elapsed().as_secs_f64(),
        builder.dropped,
        if malformed > 0 {
            format!(", {malformed} malformed lines skipped")
        } else {
            String::new()
        }
    ));
    if training == 0 {
        return Err("no training positions".into());
    }
    if args.phase_balance {
        let before = builder.training.len();
        builder.training = builder.training.phase_balanced(BALANCE_SEED);
        say(&format!(
            "phase-balanced: {} of {before} training positions kept (at most {} a phase); by \
             phase 0..24: {:?}",
            builder.training.len(),
            before.div_ceil(builder.training.phase_counts().len()),
            builder.training.phase_counts()
        ));
    }
    let training = builder.training.len();

    let coverage = builder.training.coverage();
    let options = TuneOptions {
        k: args.k,
        learning_rate: args.lr,
        batch_size: args.batch,
        threads,
        l2: args.l2,
        ..TuneOptions::default()
    };
    let clock = Instant::now();
    let mut tuner = Tuner::new(
        builder.training,
        builder.validation,
        &start_weights,
        selection.clone(),
        &options,
    );
    say(&format!(
        "K = {:.4}{}; tuning {} of {} weights (mg and eg each), {threads} threads",
        tuner.k(),
        if args.k.is_some() {
            " (given)".to_owned()
        } else {
            format!(" (fitted in {:.1}s)", clock.elapsed().as_secs_f64())
        },
        selection.len(),
        Weights::names().len(),
    ));
    report_unused(&tuner);
    report_coverage(&coverage, &selection, args.coverage.as_deref())?;

    let hand = tuner.losses();
    say("epoch  training    validation  seconds");
    say(&format!(
        "{:5}  {:.8}  {}  {:7}",
        0,
        hand.training,
        validation_text(validation, hand.validation),
        "-"
    ));
    let clock = Instant::now();
    for epoch in 1..=args.epochs {
        let epoch_clock = Instant::now();
        let losses = tuner.epoch();
        say(&format!(
            "{epoch:5}  {:.8}  {}  {:7.2}",
            losses.training,
            validation_text(validation, losses.validation),
            epoch_clock.elapsed().as_secs_f64()
        ));
    }
    let seconds = clock.elapsed().as_secs_f64();

    let (epoch, fitted) = if args.last || validation == 0 {
        (args.epochs, tuner.weights())
    } else {
        (tuner.best_epoch().0, tuner.best_weights())
    };
    if epoch != args.epochs {
        say(&format!(
            "epoch {epoch} had the lowest validation loss: writing its weights (--last for epoch {})",
            args.epochs
        ));
    }
    let rounded = tuner.losses_of_weights(&fitted);
    let header = format!(
        "Fitted by `minkowski tune` (epoch {epoch} of {}, K = {:.4}) on {training} positions of {}\n\
         training loss {:.8} -> {:.8}, validation loss ({validation} positions) {:.8} -> {:.8}",
        args.epochs,
        tuner.k(),
        args.files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        hand.training,
        rounded.training,
        hand.validation,
        rounded.validation,
    );
    write_outputs(args, &fitted, &header)?;
    if args.epochs > 0 {
        let per_epoch = seconds / args.epochs as f64;
        say(&format!(
            "{:.3}s per epoch, {:.2}s per epoch per million training positions",
            per_epoch,
            per_epoch * 1e6 / training as f64
        ));
    }
    say(&format!(
        "validation loss: starting weights {}, written weights {} (rounded to whole centipawns)",
        validation_text(validation, hand.validation),
        validation_text(validation, rounded.validation),
    ));
    Ok(())
}

fn check_args(args: &TuneArgs) -> Result<(), String> {
    if !(0.0..=100.0).contains(&args.validation) {
        return Err(format!(
            "--validation {}: must be a percentage from 0 to 100",
            args.validation
        ));
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        return Err(format!("--lr {}: must be a positive number", args.lr));
    }
    if let Some(k) = args.k.filter(|k| !(k.is_finite() && *k > 0.0)) {
        return Err(format!("--k {k}: must be a positive number"));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!(
            "--lambda {}: must be a number from 0 (search score) to 1 (game result)",
            args.lambda
        ));
    }
    Ok(())
}

/// How a line's label is made from its result and score ([`blended_target`]).
#[derive(Clone, Copy, Debug)]
struct Label {
    lambda: f64,
    k: f64,
}

/// Lines per block of the loader at least: blocks are the unit of work of its threads, and
/// they are cut between games only (see [`load`]).
const BLOCK_LINES: usize = 4096;

/// A block of a file for one loader thread: its first line's (0-based) index, its lines and
/// each line's game.
type Block<'a> = (usize, &'a [&'a [u8]], &'a [usize]);

/// Read `path` (the `file`-th data file) into `builder` on `threads` threads, each converting
/// a contiguous run of blocks; the runs are merged in order, so the data do not depend on the
/// thread count. Returns how many lines were malformed, after reporting the first few as
/// `FILE:LINE: problem`.
///
/// The validation split keeps games together (`minkowski::datagen::games::group_lines`): the
/// lines a datagen trailer (`# game ... positions=N ...`) claims are one game; other lines
/// (older files, other data sets) are grouped as runs whose plies (from the FEN's move number
/// and side to move) increase. In a shuffled data set, or one without move numbers, "games"
/// are a line or two: the split is then by position. The grouping is done on the whole file
/// first, and blocks are cut between games, so no game is split whatever the thread count.
fn load(
    path: &Path,
    file: usize,
    builder: &mut Builder,
    threads: usize,
    label: Label,
) -> Result<usize, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let groups = group_lines(&lines);
    let blocks: Vec<Block> = blocks(&groups, BLOCK_LINES)
        .into_iter()
        .map(|r| (r.start, &lines[r.clone()], &groups[r]))
        .collect();
    let per_thread = blocks.len().div_ceil(threads).max(1);
    let parts: Vec<(Builder, Vec<(usize, String)>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = blocks
            .chunks(per_thread)
            .map(|run| {
                let mut own = builder.fork();
                scope.spawn(move || {
                    let mut errors = Vec::new();
                    for &(start, block, groups) in run {
                        load_block(block, groups, start, file, label, &mut own, &mut errors);
                    }
                    (own, errors)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut malformed = 0;
    for (part, errors) in parts {
        builder.merge(part);
        for (line, problem) in errors {
            if malformed < MAX_REPORTED {
                eprintln!("minkowski tune: {}:{line}: {problem}", path.display());
            }
            malformed += 1;
        }
    }
    if malformed > MAX_REPORTED {
        eprintln!(
            "minkowski tune: {}: {} more malformed lines",
            path.display(),
            malformed - MAX_REPORTED
        );
    }
    Ok(malformed)
}

/// One block of lines starting at (0-based) line `start`, with each line's game (`groups`,
/// see [`load`]): each labelled position into `builder`, split by its game, each malformed
/// line into `errors` with its 1-based number.
fn load_block(
    block: &[&[u8]],
    groups: &[usize],
    start: usize,
    file: usize,
    label: Label,
    builder: &mut Builder,
    errors: &mut Vec<(usize, String)>,
) {
    for (i, (line, &game)) in block.iter().zip(groups).enumerate() {
        let number = start + i + 1;
        let parsed = std::str::from_utf8(line)
            .map_err(|_| "not UTF-8 text".to_owned())
            .and_then(|text| parse_line(text).map_err(|e| e.to_string()));
        match parsed {
            Ok(Some(l)) => {
                // The game's first line, 1-based as before, so that files without trailers
                // split as they did.
                let group = ((file as u64) << 40) ^ (game + 1) as u64;
                let target = blended_target(l.result.white_score(), l.score, label.lambda, label.k);
                builder.add_grouped(&l.position, target, group);
            }
            Ok(None) => {}
            Err(e) => errors.push((number, e)),
        }
    }
}

/// Name the selected weights the training data never use: they keep their values.
fn report_unused(tuner: &Tuner) {
    let unused = tuner.unused();
    if unused.is_empty() {
        return;
    }
    let names: Vec<String> = unused
        .iter()
        .take(MAX_NAMED)
        .filter_map(|&i| Weights::name_of(i))
        .collect();
    say(&format!(
        "{} selected weights have no coefficient in the training data and keep their values: {}{}",
        unused.len(),
        names.join(", "),
        if unused.len() > MAX_NAMED {
            ", ..."
        } else {
            ""
        }
    ));
}

/// Print the [`RAREST`] selected weights that the fewest training positions move (0 excluded:
/// [`report_unused`] names those), and write every weight's count to `file` if given.
fn report_coverage(
    coverage: &[usize],
    selection: &Selection,
    file: Option<&Path>,
) -> Result<(), String> {
    let mut rows: Vec<(usize, String)> = coverage
        .iter()
        .enumerate()
        .filter(|&(i, _)| selection.contains(i))
        .filter_map(|(i, &n)| Weights::name_of(i).map(|name| (n, name)))
        .collect();
    rows.sort();
    let rare: Vec<String> = rows
        .iter()
        .filter(|(n, _)| *n > 0)
        .take(RAREST)
        .map(|(n, name)| format!("{name} {n}"))
        .collect();
    say(&format!(
        "the {} weights the fewest training positions move (positions): {}",
        rare.len(),
        rare.join(", ")
    ));
    if let Some(path) = file {
        let text: String = rows
            .iter()
            .map(|(n, name)| format!("{name}\t{n}\n"))
            .collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        say(&format!(
            "wrote every weight's coverage to {}",
            path.display()
        ));
    }
    Ok(())
}

/// Write the engine.toml (read back with the engine's own loader: it must give exactly the
/// fitted weights) and, with `--rust`, the defaults in the Rust source.
fn write_outputs(args: &TuneArgs, fitted: &Weights, header: &str) -> Result<(), String> {
    let toml = eval_table(fitted, header);
    match Config::from_toml(&toml, &args.out) {
        Ok(config) if config.weights() == *fitted => {}
        Ok(_) => return Err("internal error: the [eval] table does not read back".into()),
        Err(errors) => {
            let first = errors.first().map(ToString::to_string).unwrap_or_default();
            return Err(format!(
                "internal error: the [eval] table is rejected: {first}"
            ));
        }
    }
    std::fs::write(&args.out, toml)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    say(&format!(
        "wrote {} (engine.toml [eval]: minkowski --config {})",
        args.out.display(),
        args.out.display()
    ));
    if let Some(dir) = &args.rust {
        let files = rewrite_source(dir, fitted)?;
        say(&format!(
            "rewrote the defaults in {files} files under {}",
            dir.display()
        ));
    }
    Ok(())
}

/// Rewrite the defaults declared in the `.rs` files under `dir` to `fitted`: every weight
/// must be declared exactly once there, and every file must read back as the fit before any
/// is written. Returns how many files changed.
fn rewrite_source(dir: &Path, fitted: &Weights) -> Result<usize, String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut rewritten = Vec::new();
    let mut declared: Vec<String> = Vec::new();
    for path in files {
        let source = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (text, names) =
            rewrite_defaults(&source, fitted).map_err(|e| format!("{}: {e}", path.display()))?;
        let read = read_defaults(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for (name, pairs) in read {
            let fit: Option<Vec<_>> =
                Weights::fields()
                    .find(|(_, spec)| spec.name == name)
                    .map(|(offset, spec)| {
                        (offset..offset + spec.len())
                            .filter_map(|index| fitted.slot(index))
                            .collect()
                    });
            if fit.as_ref() != Some(&pairs) {
                return Err(format!(
                    "internal error: {} does not read back as the fit ({name})",
                    path.display()
                ));
            }
        }
        declared.extend(names);
        if text != source {
            rewritten.push((path, text));
        }
    }
    for (_, spec) in Weights::fields() {
        let count = declared.iter().filter(|n| *n == spec.name).count();
        if count != 1 {
            return Err(format!(
                "{} declares the weight {} {count} times (not once): is it the evaluation's source?",
                dir.display(),
                spec.name
            ));
        }
    }
    let changed = rewritten.len();
    for (path, text) in rewritten {
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(changed)
}

/// The `.rs` files under `dir`, recursively, in a fixed order.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

fn validation_text(positions: usize, loss: f64) -> String {
    if positions == 0 {
        format!("{:>10}", "-")
    } else {
        format!("{loss:.8}")
    }
}

/// A line on stdout; a closed pipe is not worth a panic.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
