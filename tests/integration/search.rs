//! Integration tests of the search through its public API: mates, draws, limits, the TT's
//! legality guarantee, MultiPV, searchmoves, bench determinism.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use minkowski::search::bench::run_bench;
use minkowski::search::{IterationInfo, Limits, Reporter, Score, SearchControl, Searcher};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

/// Mate-in-2 positions (white or black to move), from TerjeKir/EngineTests `mate_in_2.epd`.
const MATE_IN_2: &[&str] = &[
    "1B1Q1R2/8/qNrn3p/2p1rp2/Rn3k1K/8/5P2/bbN4B w - - 0 1",
    "2b2n1r/5N2/ppp3r1/7k/3P1R1p/5P1N/PP3K2/6R1 w - - 0 1",
    "3k1b1q/1ppbR3/2p2N2/6P1/1Q6/7p/8/2K5 w - - 0 1",
    "4rk2/pp3b2/2p1pR1P/4Q1p1/8/q1PB4/P1P5/1K6 w - - 0 1",
    "7Q/1b1qkr2/4pR2/pp1p2B1/2pP4/P1P4P/1P6/6K1 w - - 0 1",
    "b2q2Rr/BNkPN2R/P1P5/K2p4/n3p2p/3r4/2Q5/8 w - - 0 1",
    "r1r1b1k1/2n2p1p/3p1B2/2q5/p1p5/1p5P/2BQ1PP1/7K w - - 0 1",
    "r4rk1/1p5R/p2pqp2/P7/3p1p1Q/3P3R/1P4PP/6K1 w - - 0 1",
    "2R5/5bk1/5p2/p6p/3qPp1P/5Pp1/4Q1P1/1r1NK2R b K - 0 1",
    "5r2/6k1/8/8/4q3/6Bp/1R1Q3P/6K1 b - - 0 1",
];

/// Mate-in-3 positions, from TerjeKir/EngineTests `mate_in_3.epd`.
const MATE_IN_3: &[&str] = &[
    "8/8/8/8/1p1N4/1Bk1K3/3N4/b7 w - - 0 1",
    "2q1rb1k/prp3pp/1pn1p3/5p1N/2PP3Q/6R1/PP3PPP/R5K1 w - - 0 1",
    "3r1rk1/ppp2ppp/q1b5/3N4/5P2/6P1/PPPQ4/1K5R w - - 0 1",
    "5r1b/2R1R3/P4r2/2p2Nkp/2b3pN/6P1/4PP2/6K1 w - - 0 1",
    "8/1p2p1kp/2rRB3/pq2n1Pp/4P3/8/PPP2Q2/2K5 w - - 0 1",
    "r1b1kb1Q/qpn1pp2/p5p1/2n3Pp/2B4P/7N/PPP5/2KRR3 w q - 0 1",
    "r1q5/pRn3QB/8/3k4/2NP4/P1b4b/5P2/6K1 w - - 0 1",
    "r4rk1/pp1q1Np1/1bp1b3/2np3p/5B2/3B2Q1/P1P3PP/4RR1K w - - 0 1",
    "1r4k1/p4rp1/2n1b1Np/8/P6P/1ppBq3/2P3P1/QK1R3R b - - 0 1",
    "5rk1/2pb1ppp/p2r4/1p1Pp3/4Pn1q/1B1PNP2/PP1Q1P1P/6RK b - - 0 1",
];

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("valid FEN")
        .into_position(CastlingMode::Chess960)
        .expect("legal position")
}

fn uci(p: &Chess, s: &str) -> Move {
    s.parse::<UciMove>()
        .expect("UCI syntax")
        .to_move(p)
        .expect("legal")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

fn search(fen: &str, limits: &Limits) -> minkowski::search::SearchResult {
    Searcher::new(16).search(&pos(fen), &[], limits, &SearchControl::default(), &mut ())
}

fn assert_legal_line(p: &Chess, line: &[Move]) {
    let mut p = p.clone();
    for &m in line {
        assert!(p.is_legal(m), "illegal {m:?} in PV");
        p.play_unchecked(m);
    }
}

#[test]
fn mate_in_one() {
    for fen in [
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "k7/8/1K6/8/8/8/7Q/8 w - - 0 1",
    ] {
        let r = search(fen, &depth(4));
        assert_eq!(r.score, Score::Mate(1), "{fen}");
        let mut p = pos(fen);
        p.play_unchecked(r.best_move.expect("a move"));
        assert!(p.is_checkmate(), "{fen}");
    }
}

#[test]
fn mates_in_two() {
    for fen in MATE_IN_2 {
        let limits = Limits {
            depth: Some(14),
            mate: Some(2),
            ..Default::default()
        };
        let r = search(fen, &limits);
        assert_eq!(r.score, Score::Mate(2), "{fen}");
        assert_legal_line(&pos(fen), &r.pv);
    }
}

#[test]
fn mates_in_three() {
    for fen in MATE_IN_3 {
        let limits = Limits {
            depth: Some(22),
            mate: Some(3),
            ..Default::default()
        };
        let r = search(fen, &limits);
        assert_eq!(r.score, Score::Mate(3), "{fen}");
    }
}

#[test]
fn being_mated_is_a_negative_mate() {
    let mut p = pos(MATE_IN_2[0]);
    p.play_unchecked(uci(&p, "d8f6"));
    let r = Searcher::new(16).search(&p, &[], &depth(6), &SearchControl::default(), &mut ());
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn stalemate_root_has_no_move() {
    let r = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &depth(3));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn checkmated_root_has_no_move() {
    let r = search("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", &depth(3));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Mate(0));
}

#[test]
fn stalemating_capture_saves_the_losing_side() {
    // White is in check from a queen; both captures of it stalemate Black, every king move
    // leaves White a queen down.
    let fen = "k7/q1K5/1P6/1N6/8/8/8/8 w - - 0 1";
    let r = search(fen, &depth(6));
    assert_eq!(r.score, Score::Cp(0));
    let m = r.best_move.expect("a move");
    assert_eq!(m.to(), shakmaty::Square::A7);
}

/// A draw found in the tree scores 0 give or take one centipawn (the search's draw jitter, which
/// keeps lines into the same repetition from all scoring alike).
fn is_draw_score(score: Score) -> bool {
    matches!(score, Score::Cp(v) if v.abs() <= 1)
}

#[test]
fn repetition_with_game_history_is_a_draw() {
    // Black is a queen and a rook up; White can repeat the position after 1. Nf3.
    let start = pos("r3k3/8/1q6/8/8/8/8/4K1N1 w - - 0 1");
    let mut history: Vec<Zobrist64> = Vec::new();
    let mut p = start.clone();
    for m in ["g1f3", "e8d8", "f3g1", "d8e8"] {
        history.push(p.zobrist_hash(EnPassantMode::Legal));
        let mv = uci(&p, m);
        p.play_unchecked(mv);
    }
    let control = SearchControl::default();
    let r = Searcher::new(16).search(&p, &history, &depth(6), &control, &mut ());
    assert!(is_draw_score(r.score), "{:?}", r.score);
    assert_eq!(r.best_move, Some(uci(&p, "g1f3")));
    // Without the history the same position is lost.
    let r = Searcher::new(16).search(&p, &[], &depth(6), &control, &mut ());
    assert!(
        matches!(r.score, Score::Cp(v) if v < -500) || matches!(r.score, Score::Mate(n) if n < 0)
    );
}

#[test]
fn fifty_move_rule() {
    let r = search("8/8/8/4k3/8/8/8/3QK3 w - - 99 80", &depth(5));
    assert!(is_draw_score(r.score), "{:?}", r.score);
    let r = search("8/8/8/4k3/8/8/8/3QK3 w - - 0 80", &depth(5));
    assert!(
        matches!(r.score, Score::Cp(v) if v > 500) || matches!(r.score, Score::Mate(n) if n > 0)
    );
}

#[test]
fn insufficient_material_is_a_draw() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
    ] {
        let score = search(fen, &depth(6)).score;
        assert!(is_draw_score(score), "{fen}: {score:?}");
    }
}

#[test]
fn tiny_shared_tt_never_yields_an_illegal_move() {
    let mut searcher = Searcher::new(0);
    let control = SearchControl::default();
    let fens = minkowski::search::bench::BENCH_POSITIONS
        .iter()
        .chain(MATE_IN_2)
        .chain(MATE_IN_3);
    for fen in fens {
        let p = pos(fen);
        let r = searcher.search(&p, &[], &depth(5), &control, &mut ());
        let m = r.best_move.expect("a move");
        assert!(p.is_legal(m), "{fen}");
        assert_legal_line(&p, &r.pv);
        if let Some(reply) = r.ponder_move {
            let mut c = p.clone();
            c.play_unchecked(m);
            assert!(c.is_legal(reply), "{fen}");
        }
    }
}

#[test]
fn stop_flag_set_before_search_returns_a_legal_move_at_once() {
    let control = SearchControl::default();
    control.stop.store(true, Ordering::Relaxed);
    let p = Chess::default();
    let start = Instant::now();
    let r = Searcher::new(16).search(&p, &[], &Limits::default(), &control, &mut ());
    assert!(p.is_legal(r.best_move.expect("a move")));
    assert!(r.nodes < 100, "{} nodes", r.nodes);
    assert!(start.elapsed() < Duration::from_millis(500));
}

#[test]
fn node_limit_is_honoured() {
    for limit in [1, 100, 5_000, 20_000] {
        let limits = Limits {
            nodes: Some(limit),
            ..Default::default()
        };
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let r = Searcher::new(16).search(&p, &[], &limits, &SearchControl::default(), &mut ());
        assert!(r.nodes <= limit, "{} > {limit}", r.nodes);
        assert!(p.is_legal(r.best_move.expect("a move")));
    }
}

#[test]
fn empty_or_negative_clock_still_moves_quickly() {
    for time in [0, -100, 5] {
        let limits = Limits {
            wtime: Some(time),
            btime: Some(time),
            ..Default::default()
        };
        let start = Instant::now();
        let r = search(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &limits,
        );
        assert!(r.best_move.is_some());
        assert!(
            start.elapsed() < Duration::from_millis(300),
            "{time}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn clock_is_respected() {
    let limits = Limits {
        wtime: Some(1000),
        winc: Some(10),
        movestogo: Some(1),
        ..Default::default()
    };
    let start = Instant::now();
    let r = search(
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        &Limits {
            btime: limits.wtime,
            binc: limits.winc,
            ..limits
        },
    );
    assert!(r.best_move.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn movetime_is_used_but_not_exceeded_much() {
    let limits = Limits {
        movetime: Some(Duration::from_millis(300)),
        ..Default::default()
    };
    let start = Instant::now();
    let r = search(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &limits,
    );
    let t = start.elapsed();
    assert!(r.best_move.is_some());
    assert!(
        t >= Duration::from_millis(200) && t < Duration::from_millis(600),
        "{t:?}"
    );
}

#[test]
fn single_legal_move_is_answered_at_depth_one() {
    let limits = Limits {
        wtime: Some(60_000),
        ..Default::default()
    };
    let r = search("k7/8/8/8/8/8/1q6/K7 w - - 0 1", &limits);
    assert_eq!(r.depth, 1);
    assert_eq!(r.best_move.map(|m| m.to()), Some(shakmaty::Square::B2));
}

#[test]
fn infinite_search_runs_until_stopped() {
    let control = SearchControl::default();
    let stop = control.stop.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        stop.store(true, Ordering::Relaxed);
    });
    let limits = Limits {
        infinite: true,
        depth: Some(2),
        ..Default::default()
    };
    let start = Instant::now();
    let r = Searcher::new(16).search(&Chess::default(), &[], &limits, &control, &mut ());
    t.join().expect("thread");
    assert!(start.elapsed() >= Duration::from_millis(150));
    assert!(r.best_move.is_some());
}

#[test]
fn ponder_ignores_the_clock_until_ponderhit() {
    let control = SearchControl::default();
    let hit = control.ponderhit.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        hit.store(true, Ordering::Relaxed);
    });
    let limits = Limits {
        ponder: true,
        wtime: Some(100),
        ..Default::default()
    };
    let start = Instant::now();
    let r = Searcher::new(16).search(&Chess::default(), &[], &limits, &control, &mut ());
    t.join().expect("thread");
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_millis(200), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(600), "{elapsed:?}");
    assert!(r.best_move.is_some());
}

#[test]
fn searchmoves_restrict_the_root() {
    let p = Chess::default();
    let allowed = vec![uci(&p, "a2a3"), uci(&p, "h2h3")];
    let limits = Limits {
        depth: Some(6),
        searchmoves: allowed.clone(),
        ..Default::default()
    };
    let r = Searcher::new(16).search(&p, &[], &limits, &SearchControl::default(), &mut ());
    assert!(allowed.contains(&r.best_move.expect("a move")));
}

#[derive(Default)]
struct Collect(Vec<IterationInfo>);

impl Reporter for Collect {
    fn on_iteration(&mut self, info: &IterationInfo) {
        self.0.push(info.clone());
    }
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut searcher = Searcher::new(16);
    searcher.set_multipv(3);
    let mut out = Collect::default();
    let r = searcher.search(
        &Chess::default(),
        &[],
        &depth(6),
        &SearchControl::default(),
        &mut out,
    );
    let last: Vec<&IterationInfo> = out
        .0
        .iter()
        .filter(|i| i.depth == 6 && i.bound == minkowski::search::Bound::Exact)
        .collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(r.best_move, Some(firsts[0]));
}

#[test]
fn iterations_are_reported_in_order() {
    let mut out = Collect::default();
    Searcher::new(16).search(
        &Chess::default(),
        &[],
        &depth(5),
        &SearchControl::default(),
        &mut out,
    );
    let exact: Vec<u32> = out
        .0
        .iter()
        .filter(|i| i.bound == minkowski::search::Bound::Exact)
        .map(|i| i.depth)
        .collect();
    assert_eq!(exact, vec![1, 2, 3, 4, 5]);
}

/// The search's signature, pinned: any functional change to the search or the evaluation changes
/// it, and then this number (and the `Bench:` line of the commit) must be updated on purpose.
/// The full `minkowski bench` (depth 16) printed `12019398 nodes`; it takes 20–40 s, so the pin
/// here is the same positions at depth 10 (about 3 s with `--release`).
#[test]
fn bench_node_count_is_pinned() {
    assert_eq!(run_bench(10).nodes, 712_289);
}

#[test]
fn bench_is_deterministic() {
    let a = run_bench(3);
    let b = run_bench(3);
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 1000);
}

#[test]
fn searcher_can_move_to_a_search_thread() {
    fn assert_send<T: Send + 'static>() {}
    assert_send::<Searcher>();
    assert_send::<SearchControl>();
}

#[test]
fn hash_fills_and_clears() {
    let mut searcher = Searcher::new(1);
    let control = SearchControl::default();
    searcher.search(&Chess::default(), &[], &depth(9), &control, &mut ());
    assert!(searcher.hashfull() > 0);
    searcher.clear();
    assert_eq!(searcher.hashfull(), 0);
    searcher.set_hash_mb(2);
    let r = searcher.search(&Chess::default(), &[], &depth(4), &control, &mut ());
    assert!(r.best_move.is_some());
}

#[test]
fn node_limit_stops_exactly_at_the_limit() {
    let limits = Limits {
        nodes: Some(12_345),
        ..Default::default()
    };
    let r = search(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &limits,
    );
    assert_eq!(r.nodes, 12_345);
}

#[test]
fn finds_a_winning_tactic() {
    // Win At Chess #1: 1. Qg6 wins (the queen cannot be taken: fxg6 Nxg6 is mate).
    let r = search(
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        &depth(16),
    );
    let p = pos("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    assert_eq!(r.best_move, Some(uci(&p, "g3g6")));
}

/// A game position where quiet checking knight forks in the quiescence search once chained
/// (fork, evasion, fork…) until depth 1 alone passed a million nodes and the engine moved
/// without a completed iteration. The quiescence search is bounded by captures: depth 1 must
/// finish in a few thousand nodes.
#[test]
fn quiescence_checks_do_not_run_away() {
    let limits = Limits {
        depth: Some(1),
        nodes: Some(2_000_000),
        ..Default::default()
    };
    let r = search(
        "r1qrn1k1/p5bp/1p1p1pp1/1P1Pp3/Q1P1Pn2/2NB1P1P/3B1P2/2R1K2R w K - 2 22",
        &limits,
    );
    assert_eq!(r.depth, 1, "depth 1 not completed in {} nodes", r.nodes);
    assert!(r.nodes < 50_000, "depth 1 took {} nodes", r.nodes);
    assert!(r.seldepth < 40, "seldepth {}", r.seldepth);
}
