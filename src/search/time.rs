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
    /// Forget the counts (at the start of an iteration).
    pub fn clear(&mut self) {
        self.0.clear();
    }

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
mod tests {
    use super::*;

    fn limits(time: i64, inc: i64, mtg: Option<u32>) -> Limits {
        Limits {
            wtime: Some(time),
            winc: Some(inc),
            movestogo: mtg,
            ..Default::default()
        }
    }

    #[test]
    fn never_more_than_the_clock() {
        let o = Duration::from_millis(30);
        for (t, i, m) in [
            (1000, 10, None),
            (1000, 10, Some(1)),
            (50, 0, Some(1)),
            (10, 0, None),
            (0, 0, None),
            (-500, 0, None),
            (60_000, 1000, Some(1)),
        ] {
            let (soft, hard) = budget(&limits(t, i, m), Color::White, 0, o);
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard);
            assert!(
                hard.as_millis() as i64 <= (t - 30).max(0),
                "{t} {i} {m:?}: {hard:?}"
            );
        }
    }

    /// Regression (fuzz/uci_loop): extreme clocks overflowed (a panic with overflow checks,
    /// a wrapped, useless budget without).
    #[test]
    fn extreme_clocks_give_sane_budgets() {
        let o = Duration::from_millis(30);
        for (t, i) in [
            (i64::MAX, i64::MAX),
            (i64::MAX, 0),
            (i64::MIN, i64::MIN),
            (0, i64::MAX),
        ] {
            let (soft, hard) = budget(&limits(t, i, None), Color::White, 0, o);
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard, "{t} {i}");
            if t == i64::MAX {
                // A clock of millions of years allows at least an hour for this move.
                assert!(soft > Duration::from_secs(3600), "{t} {i}: {soft:?}");
            }
            if t <= 0 {
                assert!(hard.is_zero(), "{t} {i}: {hard:?}");
            }
        }
    }

    /// Without moves-to-go the horizon shrinks as the game goes on: the same clock buys more
    /// time a move at move 40 than at move 1, and from move 60 on the horizon holds.
    #[test]
    fn later_in_the_game_the_same_clock_buys_more() {
        let o = Duration::from_millis(10);
        let soft = |ply| {
            budget(&limits(60_000, 500, None), Color::White, ply, o)
                .0
                .unwrap()
        };
        assert!(soft(0) < soft(80), "{:?} {:?}", soft(0), soft(80));
        assert!(soft(80) < soft(120));
        assert_eq!(soft(120), soft(400));
        // A move count from the GUI is spread as before, whatever the ply.
        let counted = |ply| budget(&limits(60_000, 500, Some(20)), Color::White, ply, o).0;
        assert_eq!(counted(0), counted(200));
    }

    /// A game played at the soft limit of every move: at 8+0.08 it never runs out of time,
    /// keeps the reserve, and a long game ends having spent nearly all of its clock (the
    /// fixed 40-move horizon of before left about a tenth unused after 80 moves).
    #[test]
    fn a_whole_game_at_the_soft_limit_spends_the_clock_and_never_runs_out() {
        let o = Duration::from_millis(10);
        for moves in [30_u32, 60, 80, 120, 300] {
            let (mut clock, inc) = (8_000_i64, 80_i64);
            for m in 0..moves {
                let (soft, hard) = budget(&limits(clock, inc, None), Color::White, 2 * m, o);
                let (soft, hard) = (
                    soft.unwrap().as_millis() as i64,
                    hard.unwrap().as_millis() as i64,
                );
                assert!(
                    soft <= hard && hard < clock,
                    "move {m} of {moves}: {soft} {hard} {clock}"
                );
                clock = clock - soft + inc;
                assert!(clock > 50, "move {m} of {moves}: clock {clock}");
            }
            let spent = 1.0 - clock as f64 / (8_000.0 + 80.0 * f64::from(moves));
            if moves >= 80 {
                assert!(spent > 0.93, "{moves} moves: spent {spent:.3}");
            }
        }
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Default::default()
        };
        let (s, h) = budget(&l, Color::Black, 0, Duration::from_millis(30));
        assert_eq!((s, h), (Some(ms(970)), Some(ms(970))));
    }

    #[test]
    fn black_uses_black_clock() {
        let l = Limits {
            wtime: Some(100_000),
            btime: Some(1_000),
            ..Default::default()
        };
        let (_, h) = budget(&l, Color::Black, 0, Duration::ZERO);
        assert!(h.unwrap() < ms(1000));
    }

    #[test]
    fn a_ten_second_clock_gives_a_soft_limit_below_the_hard_one() {
        let limits = Limits {
            wtime: Some(10_000),
            ..Default::default()
        };
        let tm = TimeManager::new(
            &limits,
            shakmaty::Color::White,
            0,
            Duration::from_millis(30),
            &SearchControl::default(),
        );
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard && hard < Duration::from_millis(10_000));
    }

    #[test]
    fn soft_scale_is_monotonic_and_clamped() {
        let shares = [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0];
        let drops = [-500, -10, 0, 20, 60, 100, 5000];
        for &drop in &drops {
            for &share in &shares {
                for stable in 0..10 {
                    let (now, later) = (
                        soft_scale(stable, share, drop),
                        soft_scale(stable + 1, share, drop),
                    );
                    assert!(later <= now, "stability {stable} {share} {drop}");
                    assert!((SCALE_MIN..=SCALE_MAX).contains(&now));
                }
            }
            for stable in 0..10 {
                for pair in shares.windows(2) {
                    let (low, high) = (
                        soft_scale(stable, pair[0], drop),
                        soft_scale(stable, pair[1], drop),
                    );
                    assert!(high <= low, "share {stable} {pair:?} {drop}");
                }
            }
        }
        for pair in drops.windows(2) {
            assert!(soft_scale(3, 0.7, pair[0]) <= soft_scale(3, 0.7, pair[1]));
        }
        // A fresh best move with a small share of the nodes asks for more time, a settled one
        // with most of them for less; the extremes stay within bounds.
        assert!(soft_scale(0, 0.5, 0) > 1.3);
        assert!(soft_scale(6, 0.9, 0) < 0.7);
        assert_eq!(soft_scale(6, 0.99, 0), SCALE_MIN);
        assert_eq!(soft_scale(0, 0.0, i32::MAX), SCALE_MAX);
        assert_eq!(soft_scale(u32::MAX, 1.0, i32::MIN), SCALE_MIN);
        assert!((SCALE_MIN..=SCALE_MAX).contains(&soft_scale(2, f64::NAN, 0)));
    }

    #[test]
    fn root_nodes_share() {
        let pos = shakmaty::Chess::default();
        let moves = shakmaty::Position::legal_moves(&pos);
        let mut r = RootNodes::default();
        assert_eq!(r.share(moves[0]), 1.0);
        r.add(moves[0], 30);
        r.add(moves[1], 10);
        r.add(moves[0], 60);
        assert!((r.share(moves[0]) - 0.9).abs() < 1e-9);
        assert_eq!(r.share(moves[2]), 0.0);
        r.clear();
        assert_eq!(r.share(moves[1]), 1.0);
    }

    fn manager(limits: &Limits) -> TimeManager {
        TimeManager::new(
            limits,
            Color::White,
            0,
            Duration::from_millis(30),
            &SearchControl::default(),
        )
    }

    #[test]
    fn a_changing_best_move_scales_the_clock_budget_within_the_hard_limit() {
        let mut tm = manager(&limits(60_000, 0, None));
        let moves = shakmaty::Position::legal_moves(&shakmaty::Chess::default());
        // Too shallow to count yet.
        tm.on_iteration(SCALE_MIN_DEPTH - 1, moves[0], Value(0), 0.2);
        assert_eq!(tm.scaled_soft(), tm.soft);
        // A new best move with a fifth of the nodes and a falling score: more time, capped.
        tm.on_iteration(SCALE_MIN_DEPTH, moves[1], Value(-200), 0.2);
        let (soft, scaled, hard) = (
            tm.soft.unwrap(),
            tm.scaled_soft().unwrap(),
            tm.hard.unwrap(),
        );
        assert!(
            scaled > soft && scaled <= hard,
            "{soft:?} {scaled:?} {hard:?}"
        );
        // The same move for many iterations with most of the nodes: less time.
        for depth in SCALE_MIN_DEPTH + 1..SCALE_MIN_DEPTH + 8 {
            tm.on_iteration(depth, moves[1], Value(-200), 0.95);
        }
        assert!(tm.scaled_soft().unwrap() < soft);
    }

    #[test]
    fn movetime_and_depth_searches_are_not_scaled() {
        let moves = shakmaty::Position::legal_moves(&shakmaty::Chess::default());
        let movetime = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Default::default()
        };
        let depth = Limits {
            depth: Some(12),
            ..Default::default()
        };
        for l in [movetime, depth] {
            let mut tm = manager(&l);
            let before = tm.scaled_soft();
            for (i, d) in (1..12).enumerate() {
                tm.on_iteration(d, moves[i % 3], Value(-50 * d), 0.1);
            }
            assert_eq!(tm.scaled_soft(), before);
            assert!(!tm.soft_exceeded());
        }
    }
}
