//! A host engine's search with Minkowski's evaluation plugged in, through each C call: the
//! benchmark of the calls in a real search (docs/embedding.md, "Host benchmark").
//!
//! The host is what a small engine has: iterative deepening, fail-soft alpha-beta, a
//! quiescence search of captures that stands pat on the static evaluation, MVV-LVA ordering
//! and a transposition table that keeps the best move only (no evaluations: the evaluation
//! cache is the plugin's). Moves come from shakmaty, the position's Zobrist key is updated
//! move by move. The same search runs once per evaluation:
//!
//! - native: the core crate's `Evaluator::evaluate_cached` with a pawn-king cache (Minkowski's
//!   own path, no C boundary);
//! - one-shot `mk_evaluate`, checked `mk_evaluator_evaluate`, trusted
//!   `mk_evaluator_evaluate_trusted`, cached `mk_evaluator_evaluate_cached` (the library's key),
//!   keyed `mk_evaluator_evaluate_keyed` (the host's Zobrist key), and bounded
//!   `mk_evaluator_evaluate_bounded` (the quiescence window).
//!
//! The exact calls search the very same tree (checked: equal node counts and scores); the
//! bounded call may answer a stand-pat with a bound and so search another. Rounds are
//! interleaved and the fastest of each (in CPU time) is reported, with the evaluation cache's hit rate and,
//! for the bounded call, a verification pass (not timed) that evaluates each of its positions
//! exactly too and counts bounds and any on the wrong side of their window.
//!
//!     cargo run --release -p minkowski-chess-capi --example host_search
//!     cargo run --release -p minkowski-chess-capi --example host_search -- --depth 6 --rounds 5
//!     cargo run --release -p minkowski-chess-capi --example host_search -- --cache-kib 4096

use std::ptr::null;
use std::time::{Duration, Instant};

use minkowski_capi::*;
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::zobrist::Zobrist64;
use minkowski_core::shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

/// Middlegame positions of Minkowski's bench (src/search/bench.rs) and two endgames.
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "r2qk2r/1bpnnpbp/p2pp1p1/4P3/Pp1P1P2/2NBBN2/1PP3PP/R2Q1RK1 w kq - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "1r1b2k1/2r2ppp/p1qp4/3R1NPP/1pn1PQB1/8/PPP3R1/1K6 w - - 0 1",
    "r2qrnk1/pp3ppb/3b1n1p/1Pp1p3/2P1P2N/P5P1/1B1NQPBP/R4RK1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
];

/// How the host evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Native,
    OneShot,
    Checked,
    Trusted,
    Cached,
    Keyed,
    Bounded,
}

impl Call {
    const ALL: [Call; 7] = [
        Call::Native,
        Call::OneShot,
        Call::Checked,
        Call::Trusted,
        Call::Cached,
        Call::Keyed,
        Call::Bounded,
    ];

    fn name(self) -> &'static str {
        match self {
            Call::Native => "native evaluate_cached",
            Call::OneShot => "mk_evaluate (one-shot)",
            Call::Checked => "mk_evaluator_evaluate",
            Call::Trusted => "mk_evaluator_evaluate_trusted",
            Call::Cached => "mk_evaluator_evaluate_cached",
            Call::Keyed => "mk_evaluator_evaluate_keyed",
            Call::Bounded => "mk_evaluator_evaluate_bounded",
        }
    }
}

/// The transposition table's size (entries): best moves only.
const TT_ENTRIES: usize = 1 << 16;
const INFINITY: i32 = 30_000;
const MATE: i32 = 29_000;

/// One search's state: the evaluation it calls and its counts.
struct Host {
    call: Call,
    native: Evaluator,
    pawn_king: PawnKingCache,
    handle: *mut MkEvaluator,
    tt: Vec<(u64, Option<Move>)>,
    nodes: u64,
    evaluations: u64,
    /// Verification (bounded call only): bounds returned, and bounds on the wrong side.
    verify: bool,
    bounds: u64,
    wrong_side: u64,
}

impl Host {
    fn new(call: Call, verify: bool, cache_kib: u32) -> Host {
        let handle = unsafe { mk_evaluator_new(null()) };
        assert!(!handle.is_null());
        assert_eq!(
            unsafe { mk_evaluator_set_cache_size(handle, cache_kib) },
            MK_OK
        );
        Host {
            call,
            native: Evaluator::default(),
            pawn_king: PawnKingCache::default(),
            handle,
            tt: vec![(0, None); TT_ENTRIES],
            nodes: 0,
            evaluations: 0,
            verify,
            bounds: 0,
            wrong_side: 0,
        }
    }

    /// The static evaluation of `pos` (key `key`) for the window (alpha, beta).
    fn evaluate(&mut self, pos: &Chess, key: u64, alpha: i32, beta: i32) -> i32 {
        self.evaluations += 1;
        let board = pos.board();
        if self.call == Call::Native {
            let sum = self.native.material_psqt(board);
            let v = self
                .native
                .evaluate_cached(board, pos.turn(), sum, &mut self.pawn_king);
            return v.0;
        }
        let mk = MkPosition {
            white: board.white().0,
            black: board.black().0,
            kings: board.kings().0,
            queens: board.queens().0,
            rooks: board.rooks().0,
            bishops: board.bishops().0,
            knights: board.knights().0,
            pawns: board.pawns().0,
            white_to_move: u8::from(pos.turn().is_white()),
            ..MkPosition::default()
        };
        let mut cp = 0;
        let ev = self.handle;
        let status = unsafe {
            match self.call {
                Call::OneShot => mk_evaluate(null(), &mk, &mut cp),
                Call::Checked => mk_evaluator_evaluate(ev, &mk, &mut cp),
                Call::Trusted => mk_evaluator_evaluate_trusted(ev, &mk, &mut cp),
                Call::Cached => mk_evaluator_evaluate_cached(ev, &mk, &mut cp),
                Call::Keyed => mk_evaluator_evaluate_keyed(ev, &mk, key, &mut cp),
                _ => mk_evaluator_evaluate_bounded(ev, &mk, alpha, beta, &mut cp),
            }
        };
        assert_eq!(status, MK_OK);
        if self.verify {
            let mut exact = 0;
            assert_eq!(
                unsafe { mk_evaluator_evaluate_trusted(ev, &mk, &mut exact) },
                MK_OK
            );
            if cp != exact {
                self.bounds += 1;
                let wrong = (exact > alpha && cp <= alpha) || (exact < beta && cp >= beta);
                self.wrong_side += u64::from(wrong);
            }
        }
        cp
    }

    /// Quiescence: stand pat, then captures and promotions, most valuable victim first.
    fn qsearch(&mut self, pos: &Chess, key: u64, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let stand = self.evaluate(pos, key, alpha, beta);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut moves: Vec<Move> = pos
            .capture_moves()
            .into_iter()
            .chain(
                pos.promotion_moves()
                    .into_iter()
                    .filter(|m| !m.is_capture()),
            )
            .collect();
        moves.sort_by_key(|m| -order(m));
        for m in moves {
            let (child, child_key) = play(pos, key, m);
            let score = -self.qsearch(&child, child_key, -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Fail-soft alpha-beta to `depth`, then quiescence.
    fn search(&mut self, pos: &Chess, key: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.qsearch(pos, key, alpha, beta);
        }
        self.nodes += 1;
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() { -MATE } else { 0 };
        }
        let slot = (key as usize) & (TT_ENTRIES - 1);
        let hash_move = match &self.tt[slot] {
            (k, Some(m)) if *k == key => Some(*m),
            _ => None,
        };
        moves.sort_by_key(|m| {
            if Some(*m) == hash_move {
                -100_000
            } else {
                -order(m)
            }
        });
        let mut best = -INFINITY;
        let mut best_move = None;
        for m in moves {
            let (child, child_key) = play(pos, key, m);
            let score = -self.search(&child, child_key, depth - 1, -beta, -alpha);
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.tt[slot] = (key, best_move);
        best
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        unsafe { mk_evaluator_free(self.handle) };
    }
}

/// MVV-LVA for captures (and promotions), 0 for quiet moves.
fn order(m: &Move) -> i32 {
    let value = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
    if victim == 0 {
        0
    } else {
        victim * 16 - value(m.role())
    }
}

/// The position after `m` and its Zobrist key.
fn play(pos: &Chess, key: u64, m: Move) -> (Chess, u64) {
    let next = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal);
    let mut child = pos.clone();
    child.play_unchecked(m);
    let key = next
        .unwrap_or_else(|| child.zobrist_hash(EnPassantMode::Legal))
        .0;
    (child, key)
}

/// The CPU time this thread has used: on a shared machine, time the thread waited for a core
/// does not count (Linux; elsewhere the wall clock since the first call).
fn cpu_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            seconds: i64,
            nanoseconds: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut t = Timespec {
            seconds: 0,
            nanoseconds: 0,
        };
        // SAFETY: clock_gettime writes one timespec (two longs on 64-bit Linux) into `t`.
        if unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.seconds as u64, t.nanoseconds as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// One search of every position to `depth` by iterative deepening: (nodes, evaluations,
/// sum of the root scores, CPU time).
fn run(host: &mut Host, positions: &[Chess], depth: u32) -> (u64, u64, i64, Duration) {
    let start = cpu_time();
    let mut scores = 0i64;
    for pos in positions {
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        for d in 1..=depth {
            let score = host.search(pos, key, d, -INFINITY, INFINITY);
            scores += i64::from(score);
        }
    }
    (host.nodes, host.evaluations, scores, cpu_time() - start)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str, default: u32| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| match v.parse() {
                Ok(n) => n,
                Err(_) => {
                    eprintln!("host_search: {flag} takes a number, not {v:?}");
                    std::process::exit(2)
                }
            })
    };
    let (depth, rounds) = (value("--depth", 5), value("--rounds", 3));
    let cache_kib = value("--cache-kib", MK_EVAL_CACHE_DEFAULT_KIB);
    let positions: Vec<Chess> = POSITIONS
        .iter()
        .map(|fen| {
            fen.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap()
        })
        .collect();
    println!(
        "{} positions, iterative deepening to depth {depth}, fastest of {rounds} rounds, evaluation cache {cache_kib} KiB",
        positions.len()
    );
    let mut best = [Duration::MAX; Call::ALL.len()];
    let mut counts = [(0u64, 0u64, 0i64); Call::ALL.len()];
    let mut cache_stats = [MkCacheStats::default(); Call::ALL.len()];
    for _ in 0..rounds {
        for (i, call) in Call::ALL.into_iter().enumerate() {
            let mut host = Host::new(call, false, cache_kib);
            let (nodes, evaluations, scores, time) = run(&mut host, &positions, depth);
            best[i] = best[i].min(time);
            counts[i] = (nodes, evaluations, scores);
            assert_eq!(
                unsafe { mk_evaluator_cache_stats(host.handle, &mut cache_stats[i]) },
                MK_OK
            );
        }
    }
    let native = best[0].as_secs_f64();
    let native_nps = counts[0].0 as f64 / native;
    println!(
        "{:<30} {:>10} {:>10} {:>9} {:>10} {:>8}  evaluation cache",
        "evaluation", "nodes", "evals", "time s", "nps", "ratio"
    );
    for (i, call) in Call::ALL.into_iter().enumerate() {
        let (nodes, evaluations, scores) = counts[i];
        if call != Call::Bounded {
            assert_eq!(
                (nodes, scores),
                (counts[0].0, counts[0].2),
                "{call:?}: the exact calls search the same tree"
            );
        }
        let t = best[i].as_secs_f64();
        let nps = nodes as f64 / t;
        let stats = &cache_stats[i];
        let cache = if stats.eval_probes > 0 {
            format!(
                "{:.1} % hits of {} lookups",
                stats.eval_hits as f64 * 100.0 / stats.eval_probes as f64,
                stats.eval_probes
            )
        } else {
            String::new()
        };
        println!(
            "{:<30} {nodes:>10} {evaluations:>10} {t:>9.3} {nps:>10.0} {:>8.3}  {cache}",
            call.name(),
            nps / native_nps
        );
    }
    println!(
        "time to depth, bounded / trusted: {:.3}",
        best[6].as_secs_f64() / best[3].as_secs_f64()
    );
    // Verification of the bounded call, not timed.
    let mut host = Host::new(Call::Bounded, true, cache_kib);
    let (_, evaluations, _, _) = run(&mut host, &positions, depth);
    println!(
        "bounded call in this search: {} of {evaluations} evaluations answered by a bound ({:.1} %), {} on the wrong side of their window",
        host.bounds,
        host.bounds as f64 * 100.0 / evaluations as f64,
        host.wrong_side
    );
}
