//! Many games on several threads: each job owns a [`Searcher`] and takes the next game number
//! until all are played; finished games come back to the calling thread one at a time.
//!
//! Game `i` of a run depends only on the seed, `i`, the book and the settings (its opening is
//! drawn from a generator seeded by both, and each game starts with a cleared searcher), so a
//! run is reproducible whatever the number of jobs; only the order in which games finish varies.
//!
//! ```
//! use minkowski::datagen::runner::{DatagenOptions, run};
//! use minkowski::search::SearchControl;
//! use std::ops::ControlFlow;
//! let options = DatagenOptions { games: 1, nodes: 300, jobs: 1, seed: 7, ..DatagenOptions::default() };
//! let mut lines = String::new();
//! let summary = run(&[], &options, &SearchControl::default(), |game, _| {
//!     lines.push_str(&game.lines());
//!     ControlFlow::Continue(())
//! });
//! assert_eq!(summary.games, 1);
//! assert_eq!(lines.lines().count() as u64, summary.positions);
//! assert!(summary.positions <= options.sample as u64);
//! ```

use std::ops::{ControlFlow, RangeInclusive};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use shakmaty::Chess;

use super::format::GameResult;
use super::play::{
    Game, GameEnd, GameSettings, Played, default_random_plies, play_game, random_opening,
};
use super::sample::choose;
use super::{DEFAULT_HASH_MB, DEFAULT_SAMPLE, OPENING_ATTEMPTS};
use crate::openings::SplitMix64;
use crate::search::tb::Tablebases;
use crate::search::threads::run_jobs;
use crate::search::{SearchControl, Searcher};

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenOptions {
    /// Games to play.
    pub games: u64,
    /// The first game's index: the run plays games `first_index..first_index + games` of its
    /// seed (a resumed shard goes on after the games it has).
    pub first_index: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once, one thread and one searcher each.
    pub jobs: usize,
    /// Seed of the openings: each seed gives its own games.
    pub seed: u64,
    /// Transposition table per job, in MB.
    pub hash_mb: usize,
    /// Syzygy tables for adjudication.
    pub tables: Option<Arc<Tablebases>>,
    /// Positions kept per game at most, chosen uniformly after the game ends (0: all).
    pub sample: usize,
    /// Resolve each position along the search's PV (see [`super::sample::pv_leaf`]).
    pub pv_resolution: bool,
    /// Random plies after the opening position (`None`: [`default_random_plies`]).
    pub random_plies: Option<RangeInclusive<u32>>,
}

impl Default for DatagenOptions {
    fn default() -> DatagenOptions {
        DatagenOptions {
            games: 1,
            first_index: 0,
            nodes: 5_000,
            jobs: 1,
            seed: 0,
            hash_mb: DEFAULT_HASH_MB,
            tables: None,
            sample: DEFAULT_SAMPLE,
            pv_resolution: true,
            random_plies: None,
        }
    }
}

/// Counts over the games finished so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games finished.
    pub games: u64,
    /// Positions kept, over all games.
    pub positions: u64,
    /// Games given up: no balanced opening in [`OPENING_ATTEMPTS`] draws.
    pub skipped: u64,
    /// Games won by White, drawn, won by Black.
    pub results: [u64; 3],
    /// Games per way of ending, in the order of [`GameEnd::ALL`].
    pub ends: [u64; GameEnd::ALL.len()],
}

impl Summary {
    fn add(&mut self, game: &Game) {
        self.games += 1;
        self.positions += game.samples.len() as u64;
        let r = match game.result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        };
        self.results[r] += 1;
        if let Some(e) = GameEnd::ALL.iter().position(|&e| e == game.end) {
            self.ends[e] += 1;
        }
    }
}

/// The progress line of a run: games and positions so far, their rates, and the time left at
/// the rate so far for `total` games.
///
/// ```
/// use minkowski::datagen::runner::{Summary, progress_line};
/// use std::time::Duration;
/// let s = Summary { games: 300, positions: 4_800, ..Summary::default() };
/// assert_eq!(
///     progress_line(&s, 1_000, Duration::from_secs(60)),
///     "300/1000 games, 4800 positions, 5.00 games/s, 80 positions/s, ETA 0:02:20"
/// );
/// ```
#[must_use]
pub fn progress_line(summary: &Summary, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let games_rate = summary.games as f64 / secs;
    let eta = if summary.games == 0 {
        "-".to_owned()
    } else {
        let left = total.saturating_sub(summary.games) as f64 / games_rate;
        let left = left.round() as u64;
        format!("{}:{:02}:{:02}", left / 3600, left / 60 % 60, left % 60)
    };
    format!(
        "{}/{total} games, {} positions, {games_rate:.2} games/s, {:.0} positions/s, ETA {eta}",
        summary.games,
        summary.positions,
        summary.positions as f64 / secs
    )
}

/// What a job sends back per game number.
enum Outcome {
    Game(Box<Game>),
    Skipped,
}

/// The generator of game `index`'s `attempt`-th opening: the seed and both numbers hashed
/// together, so that neighbouring games do not share a stream.
fn opening_rng(seed: u64, index: u64, attempt: u32) -> SplitMix64 {
    let mut mix = SplitMix64(seed);
    let a = mix.next() ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let b = SplitMix64(a).next() ^ u64::from(attempt).wrapping_mul(0xA076_1D64_78BD_642F);
    SplitMix64(SplitMix64(b).next())
}

/// The generator that samples game `index`'s positions: a stream of its own (no opening
/// attempt reaches `u32::MAX`).
fn sample_rng(seed: u64, index: u64) -> SplitMix64 {
    opening_rng(seed, index, u32::MAX)
}

/// Play game `index`: draw openings until one is balanced, then keep at most
/// `options.sample` of its candidate positions, chosen uniformly. `None` when stopped.
fn play_indexed(
    searcher: &mut Searcher,
    book: &[Chess],
    index: u64,
    options: &DatagenOptions,
    settings: &GameSettings,
    control: &SearchControl,
) -> Option<Outcome> {
    let plies = options
        .random_plies
        .clone()
        .unwrap_or_else(|| default_random_plies(book.is_empty()));
    for attempt in 0..OPENING_ATTEMPTS {
        let mut rng = opening_rng(options.seed, index, attempt);
        let Some(opening) = random_opening(book, plies.clone(), &mut rng) else {
            continue;
        };
        match play_game(searcher, &opening, settings, control) {
            Played::Finished(mut game) => {
                game.seed = options.seed;
                game.index = index;
                let chosen = choose(
                    game.samples.len(),
                    options.sample,
                    &mut sample_rng(options.seed, index),
                );
                let mut all: Vec<_> = std::mem::take(&mut game.samples)
                    .into_iter()
                    .map(Some)
                    .collect();
                game.samples = chosen.into_iter().filter_map(|i| all[i].take()).collect();
                return Some(Outcome::Game(Box::new(game)));
            }
            Played::Unbalanced => {}
            Played::Stopped => return None,
        }
    }
    Some(Outcome::Skipped)
}

/// Play `options.games` games (from index `options.first_index` on) from `book` (the start position when empty) on `options.jobs`
/// threads, handing each finished game and the counts so far to `on_game` on this thread, in
/// the order they finish. `on_game` returning `Break`, or `control.stop` raised, ends the run:
/// the games in progress are abandoned (never handed over), so whoever writes them out writes
/// whole games only. Returns the final counts.
pub fn run(
    book: &[Chess],
    options: &DatagenOptions,
    control: &SearchControl,
    mut on_game: impl FnMut(&Game, &Summary) -> ControlFlow<()>,
) -> Summary {
    let settings = GameSettings {
        nodes: options.nodes,
        tables: options.tables.clone(),
        pv_resolution: options.pv_resolution,
    };
    let next = AtomicU64::new(options.first_index);
    let end = options.first_index.saturating_add(options.games);
    let jobs = options.jobs.clamp(1, options.games.clamp(1, 1024) as usize);
    let (next, settings) = (&next, &settings);
    let work = move |sender: mpsc::Sender<Outcome>| {
        let mut searcher = Searcher::new(options.hash_mb);
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= end || control.stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(outcome) =
                play_indexed(&mut searcher, book, index, options, settings, control)
            else {
                break;
            };
            if sender.send(outcome).is_err() {
                break;
            }
        }
    };
    let mut summary = Summary::default();
    run_jobs(jobs, work, |receiver| {
        for outcome in receiver {
            if control.stop.load(Ordering::Relaxed) {
                break;
            }
            match outcome {
                Outcome::Skipped => summary.skipped += 1,
                Outcome::Game(game) => {
                    summary.add(&game);
                    if on_game(&game, &summary).is_break() {
                        control.stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
        // Returning drops the receiver; the jobs see the stop flag (or the closed channel)
        // after their current game and are joined before `run_jobs` returns.
    });
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_games_get_different_openings() {
        let a: Vec<u64> = (0..4).map(|i| opening_rng(1, i, 0).next()).collect();
        let b: Vec<u64> = (0..4).map(|i| opening_rng(1, i, 1).next()).collect();
        let mut all = [a, b].concat();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 8);
        assert_ne!(opening_rng(1, 0, 0).next(), opening_rng(2, 0, 0).next());
    }

    #[test]
    fn the_same_seed_gives_the_same_games_with_any_number_of_jobs() {
        let collect = |jobs| {
            let options = DatagenOptions {
                games: 3,
                nodes: 200,
                jobs,
                seed: 11,
                hash_mb: 1,
                ..DatagenOptions::default()
            };
            let mut games = Vec::new();
            run(&[], &options, &SearchControl::default(), |g, _| {
                games.push((g.index, g.lines(), g.result, g.end));
                ControlFlow::Continue(())
            });
            games.sort_by_key(|g| g.0);
            games
        };
        let one = collect(1);
        assert_eq!(one.len(), 3);
        assert_eq!(one, collect(2));
    }

    #[test]
    fn the_progress_line_gives_rates_and_eta() {
        let s = |games, positions| Summary {
            games,
            positions,
            ..Summary::default()
        };
        // Nothing finished yet: no rate to extrapolate.
        assert_eq!(
            progress_line(&s(0, 0), 100_000, Duration::from_secs(5)),
            "0/100000 games, 0 positions, 0.00 games/s, 0 positions/s, ETA -"
        );
        // 8 games/s, 99,000 left: 12,375 s = 3 h 26 min 15 s.
        assert_eq!(
            progress_line(&s(1_000, 16_000), 100_000, Duration::from_secs(125)),
            "1000/100000 games, 16000 positions, 8.00 games/s, 128 positions/s, ETA 3:26:15"
        );
        // Done (or past the total, as a summary may be): nothing left.
        assert!(progress_line(&s(10, 5), 10, Duration::from_millis(1)).ends_with("ETA 0:00:00"));
    }

    #[test]
    fn a_later_first_index_plays_the_later_games() {
        let games = |first_index, games| {
            let options = DatagenOptions {
                games,
                first_index,
                nodes: 150,
                seed: 8,
                hash_mb: 1,
                ..DatagenOptions::default()
            };
            let mut out = Vec::new();
            run(&[], &options, &SearchControl::default(), |g, _| {
                out.push((g.index, g.lines()));
                ControlFlow::Continue(())
            });
            out
        };
        let all = games(0, 3);
        assert_eq!(games(2, 1), all[2..]);
        assert_eq!(games(1, 2), all[1..]);
    }

    #[test]
    fn breaking_stops_the_run() {
        let options = DatagenOptions {
            games: 50,
            nodes: 200,
            jobs: 2,
            seed: 3,
            hash_mb: 1,
            ..DatagenOptions::default()
        };
        let mut seen = 0;
        let summary = run(&[], &options, &SearchControl::default(), |_, _| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert_eq!((seen, summary.games), (1, 1));
    }
}
