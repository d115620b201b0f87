//! `minkowski datagen --out-dir DIR --positions N [--shard-size N] [--book FILE|startpos]...`:
//! self-play data in shards (`minkowski::datagen::shards`) until DIR holds N distinct
//! positions, continuing whatever an earlier run left there.
//!
//! A run first reads every shard of DIR (and each `--exclude` file): their positions are
//! known and not written again, and their count goes towards N. It then finishes the part
//! file a stopped run left (its whole games stay; the next game index of its seed follows the
//! highest one its trailers name), and starts new shards after the highest number there, each
//! with its own derived seed and the next book in turn. A shard is renamed from `.part` when
//! it holds `--shard-size` positions (or the run reaches N). A stop (Ctrl-C, a kill, a
//! crash) loses only the games in progress.
//!
//! Besides the shards, DIR gets `runs.log` (one line when a run starts, one when it ends:
//! the command, seed, counts, rate) and `spread.txt` (the spread of all its positions by
//! piece count, rewritten at the end of each run).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use minkowski::datagen::dedup::Seen;
use minkowski::datagen::games::game_text;
use minkowski::datagen::runner;
use minkowski::datagen::shards::{PART_SUFFIX, ShardFile, shard_name, shard_seed};
use minkowski::datagen::spread::Spread;
use minkowski::search::SearchControl;

use super::setup::{
    DatagenArgs, PROGRESS_INTERVAL, load_source, open_output, open_tables, options, print_text,
    report, scan_file, seed_from_clock,
};

/// The shards of `dir`, in number order.
fn list_shards(dir: &Path) -> Result<Vec<(ShardFile, PathBuf)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut shards = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        if let Some(shard) = entry.file_name().to_str().and_then(ShardFile::parse) {
            shards.push((shard, entry.path()));
        }
    }
    shards.sort_by_key(|(s, _)| s.number());
    Ok(shards)
}

/// Generate into (or report on) the shard directory `dir`.
pub(super) fn generate(args: &DatagenArgs, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let shards = list_shards(dir)?;
    let parts: Vec<_> = shards
        .iter()
        .filter(|(s, _)| matches!(s, ShardFile::Part(_)))
        .collect();
    if parts.len() > 1 {
        return Err(format!(
            "{}: several unfinished shards ({}): finish or remove all but one",
            dir.display(),
            parts
                .iter()
                .map(|(_, p)| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if args.report {
        let files: Vec<PathBuf> = shards.into_iter().map(|(_, p)| p).collect();
        return report(&files, &args.exclude);
    }
    let target = args
        .positions
        .ok_or("--positions N is required with --out-dir (or --report)")?;
    // Every book is read (and checked) before any game is played.
    let sources = if args.book.is_empty() {
        vec![Vec::new()]
    } else {
        args.book
            .iter()
            .map(|b| load_source(Some(b)))
            .collect::<Result<Vec<_>, _>>()?
    };
    let tables = match &args.syzygy {
        Some(path) => Some(open_tables(path)?),
        None => None,
    };

    // The part file first is cut back to its whole games, so that what is read is what stays.
    let part = parts.first().map(|(s, p)| (s.number(), p.clone()));
    if let Some((_, path)) = &part {
        let (_, dropped) = open_output(path)?;
        if dropped > 0 {
            eprintln!(
                "minkowski datagen: {}: dropped an unfinished game or line ({dropped} bytes)",
                path.display()
            );
        }
    }
    let mut seen = Seen::new();
    let mut spread = Spread::default();
    let mut part_state = None;
    for (shard, path) in &shards {
        let scan = scan_file(path, &mut seen, Some(&mut spread))?;
        if matches!(shard, ShardFile::Part(_)) {
            part_state = Some((scan.positions - scan.duplicates, scan.last_game));
        }
    }
    let in_shards = seen.len() as u64;
    for path in &args.exclude {
        scan_file(path, &mut seen, None)?;
    }
    let seed = args.seed.unwrap_or_else(seed_from_clock);
    let mut total = in_shards;
    let command: Vec<String> = std::env::args().collect();
    log_run(
        dir,
        &format!(
            "start seed={seed} positions={in_shards} target={target} command={:?}",
            command.join(" ")
        ),
    )?;
    eprintln!(
        "minkowski datagen: {}: {in_shards} positions in {} shards, target {target}; {} nodes \
         per move, {} jobs, seed {seed}, {} books in turn, up to {} positions a game, \
         {} per shard",
        dir.display(),
        shards.len(),
        args.nodes,
        args.jobs,
        sources.len(),
        args.sample,
        args.shard_size
    );

    let start = Instant::now();
    let mut next_number = shards.last().map_or(0, |(s, _)| s.number() + 1);
    let (mut written, mut duplicates, mut finished_shards) = (0u64, 0u64, 0u32);
    let mut last_line = Instant::now();
    let mut resume = part.map(|(n, path)| {
        let (count, last) = part_state.unwrap_or((0, None));
        (n, path, count, last)
    });
    while total < target {
        let (number, path, mut in_shard, shard_seed_value, first_index) = match resume.take() {
            Some((n, path, count, last)) => {
                let s = last.map_or_else(|| shard_seed(seed, n), |(s, _)| s);
                (n, path, count, s, last.map_or(0, |(_, i)| i + 1))
            }
            None => {
                let n = next_number;
                next_number += 1;
                let path = dir.join(format!("{}{PART_SUFFIX}", shard_name(n)));
                (n, path, 0, shard_seed(seed, n), 0)
            }
        };
        let book = &sources[number as usize % sources.len()];
        let (mut file, _) = open_output(&path)?;
        let options = options(
            args,
            u64::MAX,
            first_index,
            shard_seed_value,
            tables.clone(),
        );
        let mut write_error = None;
        runner::run(book, &options, &SearchControl::default(), |game, _| {
            if in_shard >= args.shard_size || total >= target {
                return ControlFlow::Break(());
            }
            let mut game = game.clone();
            duplicates += seen.keep_new(&mut game, |pos| spread.add(pos)) as u64;
            let n = game.samples.len() as u64;
            // One write per game: a stop leaves whole games (a cut-off tail is dropped on
            // restart).
            if let Err(e) = file
                .write_all(game_text(&game).as_bytes())
                .and_then(|()| file.flush())
            {
                write_error = Some(format!("cannot write {}: {e}", path.display()));
                return ControlFlow::Break(());
            }
            (in_shard, total, written) = (in_shard + n, total + n, written + n);
            if last_line.elapsed() >= PROGRESS_INTERVAL {
                let rate = written as f64 / start.elapsed().as_secs_f64().max(1e-3);
                let left = target.saturating_sub(total) as f64 / rate.max(1e-9);
                eprintln!(
                    "minkowski datagen: shard {number}: {in_shard}/{}, directory {total}/{target}, \
                     {rate:.0} positions/s, {duplicates} duplicates dropped, ETA {:.1} h",
                    args.shard_size,
                    left / 3600.0
                );
                last_line = Instant::now();
            }
            if in_shard >= args.shard_size || total >= target {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if let Some(e) = write_error {
            return Err(e);
        }
        finish_shard(file, &path, &dir.join(shard_name(number)))?;
        finished_shards += 1;
    }

    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let summary = format!(
        "{}: {written} new positions in {finished_shards} shards in {secs:.1} s: {:.0} positions/s, \
         {duplicates} duplicates dropped; the directory holds {total} distinct positions\n",
        dir.display(),
        written as f64 / secs
    );
    let spread_text = spread.report();
    std::fs::write(dir.join("spread.txt"), &spread_text)
        .map_err(|e| format!("cannot write {}: {e}", dir.join("spread.txt").display()))?;
    log_run(
        dir,
        &format!(
            "done seed={seed} new={written} duplicates={duplicates} shards={finished_shards} \
             secs={secs:.0} rate={:.1}/s total={total}",
            written as f64 / secs
        ),
    )?;
    print_text(&format!("{summary}{spread_text}"));
    Ok(())
}

/// Make the shard being written durable and give it its finished name.
fn finish_shard(file: File, part: &Path, finished: &Path) -> Result<(), String> {
    file.sync_all()
        .map_err(|e| format!("cannot write {}: {e}", part.display()))?;
    drop(file);
    std::fs::rename(part, finished).map_err(|e| {
        format!(
            "cannot rename {} to {}: {e}",
            part.display(),
            finished.display()
        )
    })
}

/// Append `line` with a UTC timestamp (seconds since 1970) to `dir/runs.log`.
fn log_run(dir: &Path, line: &str) -> Result<(), String> {
    let path = dir.join("runs.log");
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| writeln!(f, "{now} {line}"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
