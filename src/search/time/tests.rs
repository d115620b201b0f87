//! Tests of the clock's budgets (src/search/time.rs): the soft and hard limits under every
//! control, the horizon that shrinks with the game, and whole games played at the soft limit.

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
    assert_eq!(RootNodes::default().share(moves[1]), 1.0);
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
