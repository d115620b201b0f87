//! Lazy SMP through the public API: many threads on a small shared table never produce an
//! illegal move or a corrupt score; node limits count every thread; `stop` ends a
//! many-thread search promptly; one thread stays deterministic. (Thread leaks: see
//! `tests/thread_leaks.rs`, alone in its binary so that no other test's threads are counted.)

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use minkowski::search::bench::BENCH_POSITIONS;
use minkowski::search::{Limits, Score, SearchControl, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("valid FEN")
        .into_position(CastlingMode::Chess960)
        .expect("legal position")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

fn assert_legal_line(p: &Chess, line: &[Move]) {
    let mut p = p.clone();
    for &m in line {
        assert!(p.is_legal(m), "illegal PV move {m:?}");
        p.play_unchecked(m);
    }
}

#[test]
fn eight_threads_on_a_one_megabyte_table_give_legal_moves_and_sane_scores() {
    // 1 MB holds 65,536 entries: eight threads overwrite each other's entries all the time,
    // which is what the lock-less table must survive.
    let mut searcher = Searcher::new(1);
    searcher.set_threads(8);
    assert_eq!(searcher.threads(), 8);
    for fen in BENCH_POSITIONS.iter().step_by(3) {
        let p = pos(fen);
        let limits = Limits {
            nodes: Some(60_000),
            ..Default::default()
        };
        let r = searcher.search(&p, &[], &limits, &SearchControl::default(), &mut ());
        let m = r.best_move.expect("a move");
        assert!(p.is_legal(m), "{fen}: illegal best move {m:?}");
        assert_legal_line(&p, &r.pv);
        match r.score {
            Score::Cp(cp) => assert!(cp.abs() < 20_000, "{fen}: corrupt score {cp}"),
            Score::Mate(n) => assert!(n.abs() <= 128, "{fen}: corrupt mate {n}"),
        }
    }
}

#[test]
fn more_threads_still_find_a_forced_mate() {
    let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let mut searcher = Searcher::new(4);
    searcher.set_threads(4);
    let r = searcher.search(&p, &[], &depth(6), &SearchControl::default(), &mut ());
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(r.best_move.map(|m| m.to().to_string()), Some("f7".into()));
}

#[test]
fn the_node_limit_counts_every_thread() {
    let p = pos(BENCH_POSITIONS[1]);
    let mut searcher = Searcher::new(4);
    searcher.set_threads(4);
    let limits = Limits {
        nodes: Some(200_000),
        ..Default::default()
    };
    let r = searcher.search(&p, &[], &limits, &SearchControl::default(), &mut ());
    // The main thread polls the total every 1,024 of its own nodes, so the four threads may
    // overshoot by about 4 × 1,024 each poll interval, not by a factor of four.
    assert!(r.nodes >= 200_000, "stopped early: {}", r.nodes);
    assert!(
        r.nodes < 260_000,
        "node limit ignored the helpers: {}",
        r.nodes
    );
}

#[test]
fn stop_ends_a_four_thread_infinite_search_promptly() {
    let mut searcher = Searcher::new(16);
    searcher.set_threads(4);
    let control = SearchControl::default();
    let stop = control.stop.clone();
    let limits = Limits {
        infinite: true,
        ..Default::default()
    };
    let p = pos(BENCH_POSITIONS[12]);
    let handle = std::thread::spawn(move || {
        let r = searcher.search(&p, &[], &limits, &control, &mut ());
        (r, Instant::now(), p)
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (r, answered, p) = handle.join().expect("search thread");
    assert!(p.is_legal(r.best_move.expect("a move")));
    // Generous bound for a loaded CI machine; the measured figure is in the closing note.
    let latency = answered.duration_since(asked);
    assert!(latency < Duration::from_secs(1), "stop took {latency:?}");
}

#[test]
fn one_thread_is_deterministic_and_equal_to_the_default() {
    let p = pos(BENCH_POSITIONS[20]);
    let mut a = Searcher::new(16);
    let mut b = Searcher::new(16);
    b.set_threads(3);
    b.set_threads(1);
    let ra = a.search(&p, &[], &depth(9), &SearchControl::default(), &mut ());
    let rb = b.search(&p, &[], &depth(9), &SearchControl::default(), &mut ());
    assert_eq!(
        (ra.nodes, ra.best_move, ra.score),
        (rb.nodes, rb.best_move, rb.score)
    );
}
