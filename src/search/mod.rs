//! The search: iterative deepening alpha-beta over [`shakmaty::Chess`], driven through one API.
//!
//! The UCI front end, the EPD runner, the bench and the tests all call
//! [`Searcher::search`]; none of them reaches into the search's internals. The search does no
//! I/O: progress leaves through a [`Reporter`].
//!
//! CONTRACT NOTE: the boundary types (in `types.rs`, re-exported here) are what other modules
//! build on. Their names and fields may grow but should not change shape.
//!
//! Public: [`Searcher`] with [`Limits`], [`SearchControl`] and [`Reporter`], the scores
//! ([`Value`], [`Score`]) and [`mod@bench`] (the fixed bench). Inside, private to the crate:
//! `alphabeta` (PVS, quiescence, pruning), `movepick` (SEE, history, ordering), `tt`
//! (transposition table), `time` (time management) and `params` (every threshold).

pub(crate) mod alphabeta;
pub mod bench;
pub(crate) mod movepick;
pub(crate) mod params;
pub(crate) mod time;
pub(crate) mod tt;
mod types;

use std::sync::atomic::Ordering;
use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::eval::Evaluator;
pub use crate::value::{MAX_PLY, Score, Value};
use alphabeta::{Line, LmrTable, Worker};
use movepick::Heuristics;
use params::{ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};
use time::TimeManager;
use tt::{PackedMove, TranspositionTable};
pub use types::{
    Bound, CurrentMoveInfo, IterationInfo, Limits, Reporter, SearchControl, SearchResult,
};

/// Owns the transposition table, the history tables and the evaluator; one per game (or per
/// EPD job).
///
/// ```
/// use minkowski::search::{Limits, SearchControl, Searcher};
/// use shakmaty::Chess;
/// let mut searcher = Searcher::new(1);
/// let limits = Limits { depth: Some(3), ..Default::default() };
/// let result = searcher.search(&Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
/// assert!(result.best_move.is_some());
/// assert_eq!(result.depth, 3);
/// ```
#[derive(Debug)]
pub struct Searcher {
    hash_mb: usize,
    multipv: usize,
    move_overhead: Duration,
    tt: TranspositionTable,
    heuristics: Heuristics,
    evaluator: Evaluator,
    lmr: Box<LmrTable>,
}

/// One finished principal variation of an iteration.
#[derive(Clone, Debug)]
struct PvLine {
    value: Value,
    pv: Line,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` megabytes.
    ///
    /// ```
    /// let searcher = minkowski::search::Searcher::new(16);
    /// assert_eq!(searcher.hash_mb(), 16);
    /// ```
    #[must_use]
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            hash_mb,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            tt: TranspositionTable::new(hash_mb),
            heuristics: Heuristics::default(),
            evaluator: Evaluator::default(),
            lmr: alphabeta::lmr_table(),
        }
    }

    /// Resize (and clear) the transposition table.
    ///
    /// ```
    /// let mut searcher = minkowski::search::Searcher::new(1);
    /// searcher.set_hash_mb(4);
    /// assert_eq!(searcher.hash_mb(), 4);
    /// ```
    pub fn set_hash_mb(&mut self, mb: usize) {
        // Free the old table before making the new one: with both alive, the memory peak of a
        // resize would be old + new.
        self.tt = TranspositionTable::new(1);
        self.tt = TranspositionTable::new(mb);
        // What was actually allocated (less than asked only if memory was short).
        self.hash_mb = if self.tt.size_mb() < mb {
            self.tt.size_mb()
        } else {
            mb
        };
    }

    /// The transposition table size in megabytes, as last set.
    ///
    /// ```
    /// assert_eq!(minkowski::search::Searcher::new(2).hash_mb(), 2);
    /// ```
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Number of principal variations to report (1 = normal play).
    ///
    /// ```
    /// use minkowski::search::{IterationInfo, Limits, Reporter, SearchControl, Searcher};
    /// struct Lines(usize);
    /// impl Reporter for Lines {
    ///     fn on_iteration(&mut self, i: &IterationInfo) {
    ///         self.0 = self.0.max(i.multipv);
    ///     }
    /// }
    /// let mut searcher = Searcher::new(1);
    /// searcher.set_multipv(3);
    /// let mut lines = Lines(0);
    /// let limits = Limits { depth: Some(2), ..Default::default() };
    /// searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut lines);
    /// assert_eq!(lines.0, 3);
    /// ```
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Time reserved per move for GUI and transport delays.
    ///
    /// ```
    /// let mut searcher = minkowski::search::Searcher::new(1);
    /// searcher.set_move_overhead(std::time::Duration::from_millis(100));
    /// ```
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// Forget everything learned (TT, histories): `ucinewgame` and `Clear Hash`.
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(1);
    /// let limits = Limits { depth: Some(3), ..Default::default() };
    /// searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// searcher.clear();
    /// assert_eq!(searcher.hashfull(), 0);
    /// ```
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    /// Transposition-table fill in permille (of entries written by the latest search).
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(1);
    /// assert_eq!(searcher.hashfull(), 0);
    /// let limits = Limits { depth: Some(5), ..Default::default() };
    /// searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// assert!(searcher.hashfull() <= 1000);
    /// ```
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The evaluator in use.
    ///
    /// ```
    /// use minkowski::eval::Evaluator;
    /// assert_eq!(minkowski::search::Searcher::new(1).evaluator(), &Evaluator::default());
    /// ```
    #[must_use]
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// The evaluator in use, to change its weights.
    ///
    /// ```
    /// use minkowski::eval::score::S;
    /// let mut searcher = minkowski::search::Searcher::new(1);
    /// searcher.evaluator_mut().weights.fork_now = S(60, 60);
    /// assert_eq!(searcher.evaluator().weights.fork_now, S(60, 60));
    /// ```
    pub fn evaluator_mut(&mut self) -> &mut Evaluator {
        &mut self.evaluator
    }

    /// Replace the evaluator (the TT is cleared: its scores came from the old one).
    ///
    /// ```
    /// use minkowski::eval::{Evaluator, weights::Weights};
    /// let mut weights = Weights::default();
    /// weights.set("kbnk_corner", minkowski::eval::score::S(120, 120)).unwrap();
    /// let mut searcher = minkowski::search::Searcher::new(1);
    /// searcher.set_evaluator(Evaluator::new(weights));
    /// ```
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
        self.tt.clear();
    }

    /// Search `pos`. `history` holds the Zobrist keys of the positions before `pos` in the game,
    /// oldest first (for repetition detection).
    ///
    /// Always returns a legal move when one exists, even when `control.stop` is already set
    /// or the clock is empty. With `limits.infinite`, or `limits.ponder` before a ponderhit,
    /// it does not return before `control.stop` (or the ponderhit) even if the search ends.
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// use shakmaty::zobrist::Zobrist64;
    /// use shakmaty::{Chess, EnPassantMode, Position, uci::UciMove};
    /// // 1. e4, then search for Black with the game history (for repetitions).
    /// let start = Chess::default();
    /// let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&start).unwrap();
    /// let history = [start.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)];
    /// let pos = start.play(e4).unwrap();
    /// let limits = Limits { depth: Some(4), ..Default::default() };
    /// let result = Searcher::new(1).search(&pos, &history, &limits, &SearchControl::default(), &mut ());
    /// assert!(pos.is_legal(result.best_move.unwrap()));
    /// ```
    pub fn search(
        &mut self,
        pos: &Chess,
        history: &[Zobrist64],
        limits: &Limits,
        control: &SearchControl,
        reporter: &mut impl Reporter,
    ) -> SearchResult {
        let time = TimeManager::new(limits, pos.turn(), self.move_overhead, control);
        self.tt.new_search();
        let legal = pos.legal_moves();
        let mut root_moves: Vec<Move> = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .copied()
            .collect();
        if root_moves.is_empty() {
            root_moves = legal.to_vec();
        }
        if root_moves.is_empty() {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: if pos.is_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                depth: 0,
                seldepth: 0,
                pv: Vec::new(),
                nodes: 0,
                time: time.elapsed(),
            };
        }
        let restricted = root_moves.len() < legal.len();
        let mut keys: Vec<u64> = history.iter().map(|z| z.0).collect();
        keys.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        let multipv = self.multipv.min(root_moves.len());
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 8)
        });
        let forced = legal.len() == 1 && !limits.infinite && !limits.ponder;

        let mut worker = Worker {
            tt: &mut self.tt,
            heur: &mut self.heuristics,
            eval: &self.evaluator,
            lmr: &self.lmr,
            time,
            control,
            reporter,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys,
            pv: vec![Line::new(); MAX_PLY + 1],
            evals: vec![Value::DRAW; MAX_PLY + 2],
            played: vec![None; MAX_PLY + 2],
            root_moves: Vec::new(),
            store_root: false,
            root_depth: 0,
        };

        let mut completed: Vec<PvLine> = Vec::new();
        let mut completed_depth = 0;
        let mut seldepth = 0;
        'deepening: for depth in 1..=max_depth {
            worker.root_depth = depth;
            worker.seldepth = 0;
            let mut lines: Vec<PvLine> = Vec::new();
            for pv_index in 0..multipv {
                worker.root_moves = root_moves
                    .iter()
                    .filter(|m| lines.iter().all(|l| l.pv.first() != Some(m)))
                    .copied()
                    .collect();
                worker.store_root = pv_index == 0 && !restricted;
                let previous = completed.get(pv_index).map(|l| l.value);
                let Some(line) = aspiration(&mut worker, pos, depth, previous, pv_index + 1) else {
                    break 'deepening;
                };
                lines.push(line);
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.value));
            completed = lines;
            completed_depth = depth;
            seldepth = worker.seldepth;
            for (i, line) in completed.iter().enumerate() {
                report(&mut worker, depth, i + 1, line, Bound::Exact);
            }
            let best = completed[0].value;
            if forced {
                break;
            }
            if let Some(n) = limits.mate
                && matches!(best.to_score(), Score::Mate(k) if k > 0 && k <= n as i32)
            {
                break;
            }
            if worker.time.soft_exceeded() || control.stop.load(Ordering::Relaxed) {
                break;
            }
        }

        // Infinite and pondering searches wait for the GUI before answering.
        while (limits.infinite || worker.time.is_pondering())
            && !control.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }

        let (best_value, pv): (Value, Vec<Move>) = match completed.first() {
            Some(line) => (line.value, line.pv.to_vec()),
            None => {
                // Not even depth 1 finished (stopped at once): fall back on the TT move or
                // the first root move, so the answer is still legal.
                let tt_move = worker.tt.probe(worker.keys[history.len()], 0).map(|h| h.mv);
                let m = root_moves
                    .iter()
                    .copied()
                    .find(|&m| tt_move.is_some_and(|t: PackedMove| t.matches(m)))
                    .unwrap_or(root_moves[0]);
                (self.evaluator.evaluate(pos), vec![m])
            }
        };
        let nodes = worker.nodes;
        let elapsed = worker.time.elapsed();
        let mut result = SearchResult {
            best_move: pv.first().copied(),
            ponder_move: pv.get(1).copied(),
            score: best_value.to_score(),
            depth: completed_depth.max(0) as u32,
            seldepth: seldepth as u32,
            pv,
            nodes,
            time: elapsed,
        };
        if result.ponder_move.is_none()
            && let Some(m) = result.best_move
        {
            result.ponder_move = self.ponder_from_tt(pos, m);
        }
        result
    }

    /// The reply the TT suggests after `m` (for a ponder move when the PV is one move long).
    fn ponder_from_tt(&self, pos: &Chess, m: Move) -> Option<Move> {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let key = child.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let hit = self.tt.probe(key, 1)?;
        child
            .legal_moves()
            .iter()
            .copied()
            .find(|&r| hit.mv.matches(r))
    }
}

/// Search the root at `depth` with an aspiration window around `previous`, reporting failed
/// windows. `None` when the search was stopped before the iteration finished.
fn aspiration(
    worker: &mut Worker<'_>,
    pos: &Chess,
    depth: i32,
    previous: Option<Value>,
    multipv: usize,
) -> Option<PvLine> {
    let mut delta = ASPIRATION_WINDOW;
    let (mut alpha, mut beta) = match previous {
        Some(v) if depth >= ASPIRATION_MIN_DEPTH && !v.is_mate() => (v - delta, v + delta),
        _ => (-Value::INFINITE, Value::INFINITE),
    };
    loop {
        let v = worker.negamax(pos, depth, 0, alpha, beta);
        if worker.stopped {
            return None;
        }
        let line = PvLine {
            value: v,
            pv: worker.pv[0].clone(),
        };
        if v <= alpha {
            if !line.pv.is_empty() {
                report(worker, depth, multipv, &line, Bound::Upper);
            }
            beta = Value((alpha.0 + beta.0) / 2);
            alpha = Value((v.0 - delta).max(-Value::INFINITE.0));
        } else if v >= beta {
            report(worker, depth, multipv, &line, Bound::Lower);
            beta = Value((v.0 + delta).min(Value::INFINITE.0));
        } else {
            return Some(line);
        }
        delta += delta / 2;
    }
}

fn report(worker: &mut Worker<'_>, depth: i32, multipv: usize, line: &PvLine, bound: Bound) {
    let time = worker.time.elapsed();
    let nps = (u128::from(worker.nodes) * 1000 / time.as_millis().max(1)) as u64;
    let info = IterationInfo {
        depth: depth as u32,
        seldepth: worker.seldepth as u32,
        multipv,
        score: line.value.to_score(),
        bound,
        nodes: worker.nodes,
        nps,
        hashfull: worker.tt.hashfull(),
        time,
        pv: line.pv.to_vec(),
    };
    worker.reporter.on_iteration(&info);
}
