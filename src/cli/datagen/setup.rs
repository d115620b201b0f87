//! What both output modes of `minkowski datagen` build from the arguments ([`DatagenArgs`]):
//! the runner's options, the openings (books), the tablebases, the output file cut back to its
//! last whole game, the seed; the scan of existing data files, and `--report`.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use shakmaty::Chess;

use minkowski::datagen::dedup::Seen;
use minkowski::datagen::format::parse_line;
use minkowski::datagen::games::{Trailer, whole_games_end};
use minkowski::datagen::runner::DatagenOptions;
use minkowski::datagen::shards::DEFAULT_SHARD_SIZE;
use minkowski::datagen::spread::Spread;
use minkowski::datagen::{DEFAULT_HASH_MB, DEFAULT_SAMPLE, book};
use minkowski::search::tb::Tablebases;

/// Exit status for bad input (a missing book, no tables, an unusable output file) or a failed
/// write.
pub(super) const EXIT_ERROR: u8 = 2;

/// The `--book` value that stands for the start position (no book file).
pub(super) const START_POSITION: &str = "startpos";

/// Without a terminal, one progress line per this interval.
pub(super) const PROGRESS_INTERVAL: Duration = Duration::from_secs(10);

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
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "out_dir",
        conflicts_with = "out_dir"
    )]
    pub(super) out: Option<PathBuf>,
    /// Games to play (with --out).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "out_dir")]
    pub(super) games: Option<u64>,
    /// Output directory of shards (positions-000.txt, ...): created if missing, continued if
    /// it holds shards already.
    #[arg(long, value_name = "DIR")]
    pub(super) out_dir: Option<PathBuf>,
    /// Distinct positions the directory is to hold (with --out-dir; the ones already there
    /// count).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), requires = "out_dir")]
    pub(super) positions: Option<u64>,
    /// Positions per shard (with --out-dir).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SHARD_SIZE, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) shard_size: u64,
    /// Nodes searched per move.
    #[arg(long, value_name = "N", default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) nodes: u64,
    /// Games played in parallel, one thread and one searcher each.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(super) jobs: u32,
    /// Opening book: EPD/FEN lines or PGN games, or `startpos` (the default); random plies
    /// are played after each opening. With --out-dir it may be repeated: shard n takes its
    /// openings from the (n mod count)-th book.
    #[arg(long, value_name = "FILE")]
    pub(super) book: Vec<PathBuf>,
    /// Seed of the openings (default: from the clock; printed, so a run can be repeated).
    #[arg(long, value_name = "N")]
    pub(super) seed: Option<u64>,
    /// Syzygy tables (folders separated by `:`) to adjudicate games that reach them.
    #[arg(long, value_name = "PATH")]
    pub(super) syzygy: Option<String>,
    /// Transposition table per job, in MB.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u32, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub(super) hash: u32,
    /// Positions written per game at most, chosen uniformly after the game (0: all).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SAMPLE)]
    pub(super) sample: usize,
    /// Random plies after the opening position: a number or a range `A-B` (default 4-8 after
    /// a book position, 10 from the start position).
    #[arg(long, value_name = "N|A-B", value_parser = parse_plies)]
    pub(super) random_plies: Option<(u32, u32)>,
    /// Write the searched positions that are quiet as they are, instead of each position's
    /// quiet leaf along the search's principal variation.
    #[arg(long)]
    pub(super) no_pv: bool,
    /// A data file whose positions are not written again (a validation set, another
    /// machine's shards); may be repeated.
    #[arg(long, value_name = "FILE")]
    pub(super) exclude: Vec<PathBuf>,
    /// Report the positions of --out or --out-dir (distinct, duplicates, spread by piece
    /// count) and generate nothing.
    #[arg(long)]
    pub(super) report: bool,
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

/// The runner's options from the arguments, for `games` games from index `first_index` of
/// `seed`.
pub(super) fn options(
    args: &DatagenArgs,
    games: u64,
    first_index: u64,
    seed: u64,
    tables: Option<Arc<Tablebases>>,
) -> DatagenOptions {
    DatagenOptions {
        games,
        first_index,
        nodes: args.nodes,
        jobs: args.jobs as usize,
        seed,
        hash_mb: args.hash as usize,
        tables,
        sample: args.sample,
        pv_resolution: !args.no_pv,
        random_plies: args.random_plies.map(|(a, b)| a..=b),
    }
}

/// `--report`: the distinct positions of `files` (`avoid`: files whose positions count as
/// seen first, not reported), their duplicates and spread, on stdout.
pub(super) fn report(files: &[PathBuf], avoid: &[PathBuf]) -> Result<(), String> {
    let mut seen = Seen::new();
    for path in avoid {
        scan_file(path, &mut seen, None)?;
    }
    let mut spread = Spread::default();
    let mut text = String::new();
    let (mut lines, mut duplicates, mut games) = (0, 0, 0);
    for path in files {
        let scan = scan_file(path, &mut seen, Some(&mut spread))?;
        text.push_str(&format!(
            "{}: {} positions ({} distinct new), {} games{}\n",
            path.display(),
            scan.positions,
            scan.positions - scan.duplicates,
            scan.games,
            if scan.bad > 0 {
                format!(", {} lines not positions", scan.bad)
            } else {
                String::new()
            }
        ));
        lines += scan.positions;
        duplicates += scan.duplicates;
        games += scan.games;
    }
    text.push_str(&format!(
        "total: {lines} positions in {games} games, {} distinct, {duplicates} duplicates\n{}",
        lines - duplicates,
        spread.report()
    ));
    print_text(&text);
    Ok(())
}

/// What [`scan_file`] found in a data file.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// Position lines.
    pub positions: u64,
    /// Position lines whose position was seen before (earlier in the file, or in a file
    /// scanned before).
    pub duplicates: u64,
    /// Lines that are neither positions, comments nor blank.
    pub bad: u64,
    /// Game trailers.
    pub games: u64,
    /// The seed and the highest game index the trailers name (the last trailer's seed).
    pub last_game: Option<(u64, u64)>,
}

/// Record every position of the data file `path` in `seen` (and the new ones in `spread`).
pub(super) fn scan_file(
    path: &Path,
    seen: &mut Seen,
    mut spread: Option<&mut Spread>,
) -> Result<Scan, String> {
    let named = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = File::open(path).map_err(named)?;
    let mut scan = Scan::default();
    let mut line = Vec::new();
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    loop {
        line.clear();
        if std::io::BufRead::read_until(&mut reader, b'\n', &mut line).map_err(named)? == 0 {
            break;
        }
        if let Some(t) = Trailer::parse(&line) {
            scan.games += 1;
            let index = scan.last_game.map_or(t.index, |(_, i)| i.max(t.index));
            scan.last_game = Some((t.seed, index));
            continue;
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            scan.bad += 1;
            continue;
        };
        match parse_line(text) {
            Ok(Some(l)) => {
                scan.positions += 1;
                if seen.insert(&l.position) {
                    if let Some(s) = spread.as_deref_mut() {
                        s.add(&l.position);
                    }
                } else {
                    scan.duplicates += 1;
                }
            }
            Ok(None) => {}
            Err(_) => scan.bad += 1,
        }
    }
    Ok(scan)
}

/// The openings of one `--book` value: none (the start position) for `startpos` or no book.
pub(super) fn load_source(book: Option<&PathBuf>) -> Result<Vec<Chess>, String> {
    match book {
        Some(path) if path.as_os_str() != START_POSITION => load_book(path),
        _ => Ok(Vec::new()),
    }
}

/// The book's positions; skipped lines are reported, an unreadable or empty book is an error.
pub(super) fn load_book(path: &Path) -> Result<Vec<Chess>, String> {
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

pub(super) fn open_tables(path: &str) -> Result<Arc<Tablebases>, String> {
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
pub(super) fn open_output(path: &Path) -> Result<(File, u64), String> {
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
pub(super) fn seed_from_clock() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// `text` on stdout; a closed pipe is not worth a panic.
pub(super) fn print_text(text: &str) {
    let _ = write!(std::io::stdout(), "{text}");
}
