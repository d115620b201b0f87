//! Time management: a soft limit (checked between iterations) and a hard limit (polled inside
//! the search) derived from the clock, the increment, moves-to-go and the move overhead.
//!
//! Under a clock (not `movetime`, fixed depth or nodes, or `infinite`) the soft limit is scaled
//! after each iteration by how settled the search looks: a best move that keeps changing, that
//! gets a small share of the nodes or whose score falls asks for more time; a stable,
//! dominant one for less. Only the main thread's iterations feed it.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::{Color, Move};

use super::types::{Limits, SearchControl};
use crate::value::Value;

/// At most this many moves-to-go are believed (longer controls are spread as if this).
pub const MAX_MOVES_TO_GO: u32 = 50;
/// Share of the increment added to each move's soft budget when the GUI sends moves-to-go, in
/// percent.
pub const INCREMENT_PERCENT: i64 = 75;
/// Without moves-to-go (sudden death or increment), the game is assumed to last this many more
/// moves at its start…
pub const HORIZON_START: i64 = 50;
/// …one move fewer every this many plies played…
pub const HORIZON_PLIES_PER_MOVE: i64 = 4;
/// …and never fewer than this. A fixed horizon (40 moves, before issue 58) spreads the clock
/// over a game that never ends, so every game finished with an eighth of the clock unused (87 %
/// used at 8+0.08, Ethereal 98 %); a horizon that shrinks as the game goes on spends what a
/// long game leaves, yet keeps most of the clock for the moves still to come.
pub const HORIZON_MIN: i64 = 20;
/// The soft limit is never more than this percentage of the usable clock.
pub const SOFT_MAX_PERCENT: i64 = 50;
/// The hard limit is this multiple of the soft budget (room for the scaled soft limit, up to
/// `SCALE_MAX` times the base, and for a fail low that finishes its iteration)…
pub const HARD_FACTOR: i64 = 5;
/// …but never more than this percentage of the usable clock.
pub const HARD_MAX_PERCENT: i64 = 75;
/// Part of the clock never planned for: this many move overheads (at most a quarter of the
/// clock), so that a low clock keeps a margin for the machine's and the GUI's delays.
pub const CLOCK_RESERVE_OVERHEADS: i64 = 10;

/// The soft limit is scaled from this completed iteration depth on: earlier iterations are too
/// short and too noisy (best move and node shares swing) to say anything.
pub const SCALE_MIN_DEPTH: i32 = 5;
/// Stability: the scale when the best move has just changed (the new one is not yet confirmed).
pub const STABILITY_CHANGED_SCALE: f64 = 1.4;
/// Stability: the scale falls by this much per further iteration with the same best move…
pub const STABILITY_STEP: f64 = 0.15;
/// …down to this, reached after five unchanged iterations (a settled move needs little more).
pub const STABILITY_MIN_SCALE: f64 = 0.75;
/// Node share: the scale is `(NODE_SHARE_BASE - share) * NODE_SHARE_FACTOR`, where `share` is
/// the part of the root's nodes spent under the best move. The alternatives of a move that
/// takes 90% of the nodes are refuted cheaply (0.81: less time); at 50% they are hard to refute
/// (1.35: more time). The scale is 1 at a share of about 0.76.
pub const NODE_SHARE_BASE: f64 = 1.5;
/// Node share: the factor of the formula above.
pub const NODE_SHARE_FACTOR: f64 = 1.35;
/// Score drop: the drop from the mean score of the previous iterations counts up to this many
/// centipawns (so losing a mate score is no worse than a large drop)…
pub const SCORE_DROP_CAP: i32 = 100;
/// …and a drop of `SCORE_DROP_CAP` or more scales the soft limit by this (less in proportion):
/// a falling score means trouble the next iteration may still find a way out of.
pub const SCORE_DROP_MAX_SCALE: f64 = 1.25;
/// Score drop: the mean of this many previous iterations is the reference (two, so that the
/// odd-even swing of iterative deepening scores mostly cancels out).
pub const SCORE_HISTORY: usize = 2;
/// The product of the three scales is kept within these bounds (a settled move taking nearly
/// all the nodes would otherwise get half the base time, too little to rely on a shallow
/// search)…
pub const SCALE_MIN: f64 = 0.6;
/// …(the scaled soft limit never exceeds the hard limit either).
pub const SCALE_MAX: f64 = 2.5;
/// An iteration is taken to last at least this multiple of the one before it: when even that
/// would run past the hard limit, the new iteration would be cut off and thrown away, so it is
/// not started (the time is saved for later moves).
pub const NEXT_ITERATION_MIN_GROWTH: f64 = 1.0;

/// The scale of the soft limit after an iteration whose best move has been the same for
/// `stable_iterations` iterations before it (0: it just changed), took `best_share` (0..=1) of
/// the root's nodes, and scored `score_drop` centipawns below the previous iterations
/// (negative: above). Never increasing in `stable_iterations` and `best_share`, never
/// decreasing in `score_drop`; within `SCALE_MIN..=SCALE_MAX`.
#[must_use]
pub fn soft_scale(stable_iterations: u32, best_share: f64, score_drop: i32) -> f64 {
    let stability = (STABILITY_CHANGED_SCALE - STABILITY_STEP * f64::from(stable_iterations))
        .max(STABILITY_MIN_SCALE);
    let share = if best_share.is_nan() {
        1.0
    } else {
        best_share.clamp(0.0, 1.0)
    };
    let nodes = (NODE_SHARE_BASE - share) * NODE_SHARE_FACTOR;
    let drop = f64::from(score_drop.clamp(0, SCORE_DROP_CAP)) / f64::from(SCORE_DROP_CAP);
    let score = 1.0 + (SCORE_DROP_MAX_SCALE - 1.0) * drop;
    (stability * nodes * score).clamp(SCALE_MIN, SCALE_MAX)
}

/// Nodes spent under each root move in the current iteration (kept by every thread, read only
/// from the main thread's worker).
#[derive(Clone, Debug, Default)]
pub struct RootNodes(Vec<(Move, u64)>);

impl RootNodes {
    /// Count `nodes` more under root move `m`.
    pub fn add(&mut self, m: Move, nodes: u64) {
        match self.0.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += nodes,
            None => self.0.push((m, nodes)),
        }
    }

    /// The share of the counted nodes spent under `m` (1 when nothing was counted).
    #[must_use]
    pub fn share(&self, m: Move) -> f64 {
        let total: u64 = self.0.iter().map(|&(_, n)| n).sum();
        let under: u64 = self
            .0
            .iter()
            .filter(|(r, _)| *r == m)
            .map(|&(_, n)| n)
            .sum();
        if total == 0 {
            1.0
        } else {
            under as f64 / total as f64
        }
    }
}

/// What the iterations so far say about the best move (for the soft-limit scale).
#[derive(Clone, Debug, Default)]
struct Stability {
    best: Option<Move>,
    /// Iterations the best move has stayed the same since it last changed.
    stable: u32,
    /// Scores of the latest iterations, newest first.
    scores: [Option<Value>; SCORE_HISTORY],
}

impl Stability {
    /// Record an iteration; returns the soft-limit scale it implies.
    fn update(&mut self, best: Move, value: Value, best_share: f64) -> f64 {
        if self.best == Some(best) {
            self.stable = self.stable.saturating_add(1);
        } else {
            self.best = Some(best);
            self.stable = 0;
        }
        let (sum, count) = self
            .scores
            .iter()
            .flatten()
            .fold((0, 0), |(sum, count), v| (sum + v.0, count + 1));
        let drop = if count == 0 { 0 } else { sum / count - value.0 };
        self.scores.rotate_right(1);
        self.scores[0] = Some(value);
        soft_scale(self.stable, best_share, drop)
    }
}

/// The time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    clock_start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    pondering: bool,
    control: SearchControl,
    /// Whether the limits come from a clock (only then is the soft limit scaled).
    adaptive: bool,
    /// Multiplier of the soft limit, from the latest iteration.
    scale: f64,
    stability: Stability,
    /// When the running iteration started.
    iteration_start: Instant,
    /// How long the latest completed iteration took.
    last_iteration: Duration,
}

impl TimeManager {
    /// Budget for a search for `turn` under `limits` at `game_ply` (half-moves since the
    /// game's start: see [`game_ply`]), started now.
    #[must_use]
    pub fn new(
        limits: &Limits,
        turn: Color,
        game_ply: u32,
        overhead: Duration,
        control: &SearchControl,
    ) -> TimeManager {
        let (soft, hard) = budget(limits, turn, game_ply, overhead);
        let now = Instant::now();
        TimeManager {
            start: now,
            clock_start: now,
            soft,
            hard,
            pondering: limits.ponder && !limits.infinite,
            control: control.clone(),
            adaptive: soft.is_some() && limits.movetime.is_none(),
            scale: 1.0,
            stability: Stability::default(),
            iteration_start: now,
            last_iteration: Duration::ZERO,
        }
    }

    /// After a completed iteration of `depth` (main thread only): its best move, score and the
    /// share of the root's nodes the best move took rescale the soft limit.
    pub fn on_iteration(&mut self, depth: i32, best: Move, value: Value, best_share: f64) {
        let now = Instant::now();
        self.last_iteration = now - self.iteration_start;
        self.iteration_start = now;
        let scale = self.stability.update(best, value, best_share);
        if self.adaptive && depth >= SCALE_MIN_DEPTH {
            self.scale = scale;
        }
    }

    /// The soft limit as scaled by the latest iteration, never beyond the hard limit.
    fn scaled_soft(&self) -> Option<Duration> {
        let soft = self.soft?.mul_f64(self.scale);
        Some(self.hard.map_or(soft, |hard| soft.min(hard)))
    }

    /// Time since the search started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// While pondering, the clock does not run; after a ponderhit it runs from that moment.
    fn clock_running(&mut self) -> bool {
        if self.pondering {
            if self.control.ponderhit.load(Ordering::Relaxed) {
                self.pondering = false;
                self.clock_start = Instant::now();
            } else {
                return false;
            }
        }
        true
    }

    /// Whether the hard limit has passed (polled inside the search).
    pub fn hard_exceeded(&mut self) -> bool {
        match self.hard {
            Some(hard) => self.clock_running() && self.clock_start.elapsed() >= hard,
            None => false,
        }
    }

    /// Whether to start no new iteration (checked between iterations): the scaled soft limit
    /// has passed, or (under a clock) the next iteration could not finish before the hard limit.
    pub fn soft_exceeded(&mut self) -> bool {
        let Some(soft) = self.scaled_soft() else {
            return false;
        };
        if !self.clock_running() {
            return false;
        }
        let elapsed = self.clock_start.elapsed();
        let cut_off = self.adaptive
            && self.hard.is_some_and(|hard| {
                elapsed + self.last_iteration.mul_f64(NEXT_ITERATION_MIN_GROWTH) > hard
            });
        elapsed >= soft || cut_off
    }

    /// Whether the search is still pondering (then it must not stop on its own).
    pub fn is_pondering(&mut self) -> bool {
        !self.clock_running()
    }
}

/// Half-moves played since the game's start in `pos`, from its move number (what a GUI's
/// `position` command carries, even when it sends a FEN of the current position).
#[must_use]
pub fn game_ply(pos: &impl shakmaty::Position) -> u32 {
    let before = pos.fullmoves().get().saturating_sub(1).saturating_mul(2);
    before.saturating_add(u32::from(pos.turn() == Color::Black))
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(0) as u64)
}

/// (soft, hard) limits for `limits`, `turn` to move at `game_ply` (half-moves since the game's
/// start); `None` means unlimited.
fn budget(
    limits: &Limits,
    turn: Color,
    game_ply: u32,
    overhead: Duration,
) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let overhead_ms = overhead.as_millis() as i64;
    if let Some(movetime) = limits.movetime {
        let t = movetime
            .saturating_sub(overhead)
            .max(Duration::from_millis(1));
        return (Some(t), Some(t));
    }
    let (time, inc) = match turn {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return (None, None);
    };
    let inc = inc.unwrap_or(0).max(0);
    // Keep a reserve out of reach: the clock settles where spending equals the increment, and
    // without a reserve that is ~inc/4 * moves-to-go (150 ms at 2+0.02), where one scheduling
    // hiccup of the machine loses on time.
    // Saturating arithmetic throughout: a GUI (or a fuzzer) may send any i64 as a clock, and a
    // wrapped product would turn a huge clock into a zero budget (found by fuzz/uci_loop).
    let reserve = (time / 4).min(overhead_ms.saturating_mul(CLOCK_RESERVE_OVERHEADS));
    let usable = time
        .saturating_sub(overhead_ms)
        .saturating_sub(reserve)
        .max(0);
    let percent = |v: i64, p: i64| v / 100 * p + v % 100 * p / 100;
    let base = match limits.movestogo {
        // A control with a move count: spread the clock over the moves until it.
        Some(mtg) => {
            let mtg = i64::from(mtg.clamp(1, MAX_MOVES_TO_GO));
            (usable / mtg).saturating_add(percent(inc, INCREMENT_PERCENT))
        }
        // Sudden death or increment: the clock and the increments of the moves the game is
        // expected to last, spread over them.
        None => {
            let horizon = (HORIZON_START - i64::from(game_ply) / HORIZON_PLIES_PER_MOVE)
                .clamp(HORIZON_MIN, HORIZON_START);
            usable.saturating_add(inc.saturating_mul(horizon - 1)) / horizon
        }
    };
    let soft = base.min(percent(usable, SOFT_MAX_PERCENT));
    let hard = base
        .saturating_mul(HARD_FACTOR)
        .min(percent(usable, HARD_MAX_PERCENT));
    (Some(ms(soft)), Some(ms(hard.max(soft))))
}

#[cfg(test)]
mod tests;
