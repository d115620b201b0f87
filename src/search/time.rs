//! Time management: a soft limit (checked between iterations) and a hard limit (polled inside
//! the search) derived from the clock, the increment, moves-to-go and the move overhead.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::Color;

use super::{Limits, SearchControl};

/// Moves-to-go assumed when the GUI sends none (sudden death or increment).
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// At most this many moves-to-go are believed (longer controls are spread as if this).
pub const MAX_MOVES_TO_GO: u32 = 50;
/// Share of the increment added to each move's soft budget, in percent.
pub const INCREMENT_PERCENT: i64 = 75;
/// The soft limit is never more than this percentage of the usable clock.
pub const SOFT_MAX_PERCENT: i64 = 50;
/// The hard limit is this multiple of the soft budget…
pub const HARD_FACTOR: i64 = 3;
/// …but never more than this percentage of the usable clock.
pub const HARD_MAX_PERCENT: i64 = 75;
/// Part of the clock never planned for: this many move overheads (at most a quarter of the
/// clock), so that a low clock keeps a margin for the machine's and the GUI's delays.
pub const CLOCK_RESERVE_OVERHEADS: i64 = 10;

/// The time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    clock_start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    pondering: bool,
    control: SearchControl,
}

impl TimeManager {
    /// Budget for a search for `turn` under `limits`, started now.
    #[must_use]
    pub fn new(
        limits: &Limits,
        turn: Color,
        overhead: Duration,
        control: &SearchControl,
    ) -> TimeManager {
        let (soft, hard) = budget(limits, turn, overhead);
        let now = Instant::now();
        TimeManager {
            start: now,
            clock_start: now,
            soft,
            hard,
            pondering: limits.ponder && !limits.infinite,
            control: control.clone(),
        }
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

    /// Whether the soft limit has passed (checked between iterations).
    pub fn soft_exceeded(&mut self) -> bool {
        match self.soft {
            Some(soft) => self.clock_running() && self.clock_start.elapsed() >= soft,
            None => false,
        }
    }

    /// Whether the search is still pondering (then it must not stop on its own).
    pub fn is_pondering(&mut self) -> bool {
        !self.clock_running()
    }
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(0) as u64)
}

/// (soft, hard) limits for `limits`; `None` means unlimited.
fn budget(
    limits: &Limits,
    turn: Color,
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
    let mtg = i64::from(
        limits
            .movestogo
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, MAX_MOVES_TO_GO),
    );
    let percent = |v: i64, p: i64| v / 100 * p + v % 100 * p / 100;
    let base = (usable / mtg).saturating_add(percent(inc, INCREMENT_PERCENT));
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
            let (soft, hard) = budget(&limits(t, i, m), Color::White, o);
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
            let (soft, hard) = budget(&limits(t, i, None), Color::White, o);
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

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits {
            movetime: Some(Duration::from_millis(1000)),
            ..Default::default()
        };
        let (s, h) = budget(&l, Color::Black, Duration::from_millis(30));
        assert_eq!((s, h), (Some(ms(970)), Some(ms(970))));
    }

    #[test]
    fn black_uses_black_clock() {
        let l = Limits {
            wtime: Some(100_000),
            btime: Some(1_000),
            ..Default::default()
        };
        let (_, h) = budget(&l, Color::Black, Duration::ZERO);
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
            Duration::from_millis(30),
            &SearchControl::default(),
        );
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard && hard < Duration::from_millis(10_000));
    }
}
