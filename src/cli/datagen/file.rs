//! `minkowski datagen --out FILE --games N`: self-play data appended to one file, with a
//! progress bar (or progress lines) on stderr and a summary on stdout.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use minkowski::datagen::dedup::Seen;
use minkowski::datagen::games::game_text;
use minkowski::datagen::play::GameEnd;
use minkowski::datagen::runner::{self, Summary, progress_line};
use minkowski::datagen::spread::Spread;
use minkowski::search::SearchControl;

use super::setup::{
    DatagenArgs, PROGRESS_INTERVAL, load_source, open_output, open_tables, options, print_text,
    report, scan_file, seed_from_clock,
};

/// `--out FILE`: one file, appended.
pub(super) fn generate(args: &DatagenArgs) -> Result<(), String> {
    let out = args
        .out
        .as_deref()
        .ok_or("--out FILE or --out-dir DIR is required")?;
    if args.report {
        return report(&[out.to_path_buf()], &args.exclude);
    }
    let games = args.games.ok_or("--games N is required with --out")?;
    if args.book.len() > 1 {
        return Err(
            "--out takes one --book; several books need --out-dir (each shard takes the next book)"
                .to_owned(),
        );
    }
    let book = load_source(args.book.first())?;
    let tables = match &args.syzygy {
        Some(path) => Some(open_tables(path)?),
        None => None,
    };
    let (mut file, dropped) = open_output(out)?;
    if dropped > 0 {
        eprintln!(
            "minkowski datagen: {}: dropped an unfinished game or line ({dropped} bytes) before appending",
            out.display()
        );
    }
    // The positions already in the file, and in the files to avoid, are not written again.
    let mut seen = Seen::new();
    for path in std::iter::once(out).chain(args.exclude.iter().map(PathBuf::as_path)) {
        scan_file(path, &mut seen, None)?;
    }
    let seed = args.seed.unwrap_or_else(seed_from_clock);
    let options = options(args, games, 0, seed, tables);
    eprintln!(
        "minkowski datagen: {} games, {} nodes per move, {} jobs, seed {seed}, {} openings, \
         {} positions a game ({}), {} known positions skipped, appending to {}",
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
        seen.len(),
        out.display()
    );

    let mut progress = Progress::new(options.games);
    let mut write_error = None;
    let (mut spread, mut written, mut duplicates) = (Spread::default(), 0, 0);
    let summary = runner::run(
        &book,
        &options,
        &SearchControl::default(),
        |game, summary| {
            let mut game = game.clone();
            duplicates += seen.keep_new(&mut game, |pos| spread.add(pos)) as u64;
            written += game.samples.len() as u64;
            // One write per game, lines and trailer: a whole game reaches the file, or (a
            // crash mid-write) part of one, which the next run cuts off.
            if let Err(e) = file
                .write_all(game_text(&game).as_bytes())
                .and_then(|()| file.flush())
            {
                write_error = Some(format!("cannot write {}: {e}", out.display()));
                return ControlFlow::Break(());
            }
            progress.update(&Summary {
                positions: written,
                ..summary.clone()
            });
            ControlFlow::Continue(())
        },
    );
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    let summary = Summary {
        positions: written,
        ..summary
    };
    print_summary(&summary, progress.start.elapsed(), out);
    print_text(&format!(
        "duplicates dropped: {duplicates}\n{}",
        spread.report()
    ));
    Ok(())
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
    print_text(&text);
}
