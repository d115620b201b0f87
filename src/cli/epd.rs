//! `minkowski epd <FILE>... [--movetime MS | --depth N | --nodes N] [--hash MB] [--jobs N] [--threads N]
//! [--json OUT] [--min-solved K] [--max-nodes N]`: run EPD test suites.
//!
//! Per-position lines go to stdout in input order, the progress bar to stderr, and a summary
//! per file and in total at the end. Exit codes: 0 done, 1 fewer than `--min-solved` solved,
//! 2 a file could not be read or the report not written.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use minkowski::epd::Suite;
use minkowski::epd::report::PositionResult;
use minkowski::epd::runner::{self, Budget, Progress, RunOptions};

/// Search time per position when no budget is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Exit code when a file is missing or the report cannot be written.
const EXIT_IO_ERROR: u8 = 2;

/// Arguments of `minkowski epd`.
#[derive(clap::Args, Debug)]
pub struct EpdArgs {
    /// EPD files to run, in order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Milliseconds per position (default 1000 when no budget is given).
    #[arg(long, value_name = "MS", group = "budget")]
    movetime: Option<u64>,
    /// Search depth per position; for perft lines, check only D1..DN.
    #[arg(long, value_name = "N", group = "budget")]
    depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_name = "N", group = "budget")]
    nodes: Option<u64>,
    /// Transposition table per job, in MB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    hash: usize,
    /// Positions searched in parallel.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Search threads per position (Lazy SMP): `--jobs` searches N positions at a time,
    /// `--threads` searches one position with N threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Write the report as JSON to this file.
    #[arg(long, value_name = "OUT")]
    json: Option<PathBuf>,
    /// Exit with status 1 when fewer than K positions are solved (a CI floor).
    #[arg(long, value_name = "K")]
    min_solved: Option<usize>,
    /// Perft lines: skip every Dn whose expected count exceeds N.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
}

impl EpdArgs {
    fn options(&self) -> RunOptions {
        let budget = match (self.movetime, self.depth, self.nodes) {
            (_, Some(d), _) => Budget::Depth(d),
            (_, _, Some(n)) => Budget::Nodes(n),
            (ms, _, _) => {
                Budget::Movetime(Duration::from_millis(ms.unwrap_or(DEFAULT_MOVETIME_MS)))
            }
        };
        RunOptions {
            budget,
            hash_mb: self.hash,
            jobs: self.jobs as usize,
            threads: self.threads as usize,
            max_perft_nodes: self.max_nodes,
        }
    }
}

/// The progress bar on stderr and the per-position lines on stdout.
struct Terminal {
    bar: ProgressBar,
}

impl Progress for Terminal {
    fn started(&mut self, positions: usize) {
        self.bar.set_length(positions as u64);
    }

    fn completed(&mut self, done: usize, solved: usize) {
        self.bar.set_position(done as u64);
        self.bar.set_message(format!("solved {solved}"));
    }

    fn result(&mut self, file: &str, result: &PositionResult) {
        self.bar.suspend(|| println!("{}", result.line_text(file)));
    }
}

/// Run the subcommand.
pub fn run(args: &EpdArgs, config: Option<&Path>) -> ExitCode {
    // The search budget comes from the command line; engine.toml options do not apply here.
    let _ = config;
    let mut suites = Vec::with_capacity(args.files.len());
    for path in &args.files {
        match Suite::load(path) {
            Ok(suite) => suites.push(suite),
            Err(e) => {
                eprintln!("minkowski epd: cannot read {}: {e}", path.display());
                return ExitCode::from(EXIT_IO_ERROR);
            }
        }
    }
    for error in suites.iter().flat_map(|s| &s.errors) {
        eprintln!("minkowski epd: {error}");
    }

    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed_precise} < {eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut terminal = Terminal { bar };
    let report = runner::run(&suites, &args.options(), &mut terminal);
    terminal.bar.finish_and_clear();

    println!();
    for file in &report.files {
        println!("{}", file.summary.line_text(&file.file));
    }
    if report.files.len() > 1 {
        println!("{}", report.total.line_text("total"));
    }

    if let Some(out) = &args.json {
        let written = serde_json::to_string_pretty(&report)
            .map_err(|e| e.to_string())
            .and_then(|text| std::fs::write(out, text + "\n").map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("minkowski epd: cannot write {}: {e}", out.display());
            return ExitCode::from(EXIT_IO_ERROR);
        }
    }

    match args.min_solved {
        Some(floor) if report.solved() < floor => {
            eprintln!(
                "minkowski epd: solved {} < --min-solved {floor}",
                report.solved()
            );
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}
