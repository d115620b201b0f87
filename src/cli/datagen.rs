//! `minkowski datagen --out FILE --games N [--nodes N] [--jobs N] [--book FILE] [--seed N]
//! [--syzygy PATH] [--hash MB] [--sample N] [--random-plies N|A-B] [--no-pv]`: self-play
//! games, a few quiet positions of each appended to FILE as `FEN | score | result` lines and
//! a trailer line per game (the format is documented in `minkowski::datagen`).
//!
//! Progress goes to stderr (a bar on a terminal, otherwise a line every
//! [`PROGRESS_INTERVAL`]); the summary to stdout. Each game's text (its lines and trailer) is
//! written with one `write` call and flushed as soon as the game ends, so interrupting the run
//! (Ctrl-C: there is no signal handler, the process simply dies) loses only the games in
//! progress. Should a file still end in part of a game (a crash mid-write, a full disk), the
//! next run cuts it back to its last trailer (a file without trailers: its last newline)
//! before appending. Exit status: 0 done, 2 bad input or an I/O error.

use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Chess;

use minkowski::datagen::games::{game_text, whole_games_end};
use minkowski::datagen::play::GameEnd;
use minkowski::datagen::runner::{self, DatagenOptions, Summary, progress_line};
use minkowski::datagen::{DEFAULT_HASH_MB, DEFAULT_SAMPLE, book};
use minkowski::search::SearchControl;
use minkowski::search::tb::Tablebases;

/// Exit status for bad input (a missing book, no tables, an unusable output file) or a failed
/// write.
const EXIT_ERROR: u8 = 2;

/// Without a terminal, one progress line per this interval.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

/// Book lines reported one by one when skipped; the rest are only counted.
const MAX_REPORTED: usize = 10;

/// The longest tail searched for the end of the last whole game (a game's text is at most
/// some 600 lines of about 90 bytes, with `--sample 0`). A longer tail without a newline
/// means the file is not datagen output.
const MAX_PARTIAL_LINE: u64 = 64 * 1024;

/// Arguments of `minkowski datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Output file: positions are appended (it is created if missing).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Games to play.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, value_name = "N", default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played in parallel, one thread and one searcher each.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Opening book: EPD/FEN lines or PGN games (default: the start position); random plies
    /// are played after each opening.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Seed of the openings (default: from the clock; printed, so a run can be repeated).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Syzygy tables (folders separated by `:`) to adjudicate games that reach them.
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
    /// Transposition table per job, in MB.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Positions written per game at most, chosen uniformly after the game (0: all).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SAMPLE)]
    sample: usize,
    /// Random plies after the opening position: a number or a range `A-B` (default 4-8 after
    /// a book position, 10 from the start position).
    #[arg(long, value_name = "N|A-B", value_parser = parse_plies)]
    random_plies: Option<(u32, u32)>,
    /// Write the searched positions that are quiet as they are, instead of each position's
    /// quiet leaf along the search's principal variation.
    #[arg(long)]
    no_pv: bool,
}

/// `N` or `A-B` (A <= B <= 200) as a range of plies.
fn parse_plies(text: &str) -> Result<(u32, u32), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("{t:?} is not a number of plies"))
    };
    let (low, high) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let n = number(text)?;
            (n, n)
        }
    };
    if low > high || high > 200 {
        return Err(format!("{text:?}: expected N or A-B with A <= B <= 200"));
    }
    Ok((low, high))
}

/// Run the subcommand.
pub fn run(args: &DatagenArgs) -> ExitCode {
    match generate(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("minkowski datagen: {message}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn generate(args: &DatagenArgs) -> Result<(), String> {
    let book = match &args.book {
        Some(path) => load_book(path)?,
        None => Vec::new(),
    };
    let tables = match &args.syzygy {
        Some(path) => Some(open_tables(path)?),
        None => None,
    };
    let (mut file, dropped) = open_output(&args.out)?;
    if dropped > 0 {
        eprintln!(
            "minkowski datagen: {}: dropped an unfinished game or line ({dropped} bytes) before appending",
            args.out.display()
        );
    }
    let seed = args.seed.unwrap_or_else(seed_from_clock);
    let options = DatagenOptions {
        games: args.games,
        nodes: args.nodes,
        jobs: args.jobs as usize,
        seed,
        hash_mb: args.hash as usize,
        tables,
        sample: args.sample,
        pv_resolution: !args.no_pv,
        random_plies: args.random_plies.map(|(a, b)| a..=b),
    };
    eprintln!(
        "minkowski datagen: {} games, {} nodes per move, {} jobs, seed {seed}, {} openings, \
         {} positions a game ({}), appending to {}",
        options.games,
        options.nodes,
        options.jobs,
        if book.is_empty() {
            "start-position".to_owned()
        } else {
            format!("{} book", book.len())
        },
        if options.sample == 0 {
            "all".to_owned()
        } else {
            format!("up to {}", options.sample)
        },
        if options.pv_resolution {
            "PV leaves"
        } else {
            "quiet searched positions"
        },
        args.out.display()
    );

    let mut progress = Progress::new(options.games);
    let mut write_error = None;
    let summary = runner::run(
        &book,
        &options,
        &SearchControl::default(),
        |game, summary| {
            // One write per game, lines and trailer: a whole game reaches the file, or (a
            // crash mid-write) part of one, which the next run cuts off.
            if let Err(e) = file
                .write_all(game_text(game).as_bytes())
                .and_then(|()| file.flush())
            {
                write_error = Some(format!("cannot write {}: {e}", args.out.display()));
                return ControlFlow::Break(());
            }
            progress.update(summary);
            ControlFlow::Continue(())
        },
    );
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    print_summary(&summary, progress.start.elapsed(), &args.out);
    Ok(())
}

/// The book's positions; skipped lines are reported, an unreadable or empty book is an error.
fn load_book(path: &Path) -> Result<Vec<Chess>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
    let parsed = book::parse(&text);
    for e in parsed.skipped.iter().take(MAX_REPORTED) {
        eprintln!(
            "minkowski datagen: {}:{}: {}",
            path.display(),
            e.line,
            e.problem
        );
    }
    if parsed.skipped.len() > MAX_REPORTED {
        eprintln!(
            "minkowski datagen: {}: {} more lines skipped",
            path.display(),
            parsed.skipped.len() - MAX_REPORTED
        );
    }
    if parsed.positions.is_empty() {
        return Err(format!(
            "{}: no opening position in the book (EPD/FEN lines or PGN games)",
            path.display()
        ));
    }
    Ok(parsed.positions)
}

fn open_tables(path: &str) -> Result<Arc<Tablebases>, String> {
    let (tables, problems) = Tablebases::open(path);
    for problem in &problems {
        eprintln!("minkowski datagen: {problem}");
    }
    if tables.is_empty() {
        return Err(format!("--syzygy {path}: no Syzygy tables found"));
    }
    Ok(Arc::new(tables))
}

/// The output file, opened for appending, and how many bytes of a partial last line were
/// dropped from it.
fn open_output(path: &Path) -> Result<(File, u64), String> {
    let named = |e: std::io::Error| format!("cannot open {} for appending: {e}", path.display());
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(named)?;
    let dropped = drop_partial_line(&mut file).map_err(named)?;
    match dropped {
        Some(n) => Ok((file, n)),
        None => Err(format!(
            "{} does not end with a whole line and its last {MAX_PARTIAL_LINE} bytes hold no \
             newline: not a data file? (refusing to append)",
            path.display()
        )),
    }
}

/// Cut the file back to the end of its last whole game (see `whole_games_end`).
/// `Some(bytes dropped)`, or `None` when its last [`MAX_PARTIAL_LINE`] bytes hold no newline
/// (the file is left alone).
fn drop_partial_line(file: &mut File) -> std::io::Result<Option<u64>> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(Some(0));
    }
    let start = len.saturating_sub(MAX_PARTIAL_LINE);
    let mut tail = Vec::new();
    file.seek(SeekFrom::Start(start))?;
    Read::by_ref(file)
        .take(len - start)
        .read_to_end(&mut tail)?;
    let keep = match whole_games_end(&tail) {
        Some(i) => start + i as u64,
        None if start == 0 => 0,
        None => return Ok(None),
    };
    if keep == len {
        return Ok(Some(0));
    }
    file.set_len(keep)?;
    Ok(Some(len - keep))
}

/// A seed that differs from run to run, so that appending runs add new games.
fn seed_from_clock() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// The progress bar (on a terminal) or periodic progress lines (otherwise), on stderr.
struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    start: Instant,
    last_line: Instant,
}

impl Progress {
    fn new(games: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(games);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {msg} [{elapsed_precise}]")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            total: games,
            start: now,
            last_line: now,
        }
    }

    fn update(&mut self, summary: &Summary) {
        let message = progress_line(summary, self.total, self.start.elapsed());
        match &self.bar {
            Some(bar) => {
                bar.set_position(summary.games);
                bar.set_message(message);
            }
            None if self.last_line.elapsed() >= PROGRESS_INTERVAL => {
                eprintln!("minkowski datagen: {message}");
                self.last_line = Instant::now();
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn print_summary(summary: &Summary, elapsed: Duration, out: &Path) {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let [white, draws, black] = summary.results;
    let ends: Vec<String> = GameEnd::ALL
        .iter()
        .zip(summary.ends)
        .filter(|&(_, n)| n > 0)
        .map(|(e, n)| format!("{} {n}", e.name()))
        .collect();
    let mut text = format!(
        "games {} (+{white} ={draws} -{black}), positions {} in {secs:.1} s: {:.0} positions/s, \
         {:.1} games/s, appended to {}\nendings: {}\n",
        summary.games,
        summary.positions,
        summary.positions as f64 / secs,
        summary.games as f64 / secs,
        out.display(),
        if ends.is_empty() {
            "-".to_owned()
        } else {
            ends.join(", ")
        },
    );
    if summary.skipped > 0 {
        text.push_str(&format!(
            "skipped {} games: no balanced opening in their draws\n",
            summary.skipped
        ));
    }
    // A closed pipe is not worth a panic.
    let _ = write!(std::io::stdout(), "{text}");
}
