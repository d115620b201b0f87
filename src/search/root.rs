//! One search from the root ([`Searcher::search`]): the root moves (`searchmoves`, the
//! tablebases' filter), the limits (depth, nodes, a strength's node budget), the helper threads
//! started on the same position, iterative deepening on the main thread with a report per
//! completed line, the wait an infinite or pondering search owes the GUI, and the answer: the
//! best line (or below full strength the drawn one), a legal fallback when not even depth 1
//! finished, and a ponder move from the transposition table when the line is one move long.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::Searcher;
use super::frame::FrameStack;
use super::iteration::{PvLine, iteration, report};
use super::strength::StrengthLimit;
use super::tb;
use super::threads::HelperJob;
use super::time::{self, TimeManager};
use super::tt::PackedMove;
use super::types::{Bound, Limits, Reporter, SearchControl, SearchResult};
use super::worker::Worker;
use crate::value::{MAX_PLY, Score, Value};

impl Searcher {
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
        let time = TimeManager::new(
            limits,
            pos.turn(),
            time::game_ply(pos),
            self.move_overhead,
            control,
        );
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
                tbhits: 0,
                time: time.elapsed(),
            };
        }
        // Tablebases at the root: only the moves that keep the best outcome (hook 1 of 2).
        let mut tb = tb::SearchTb::new(&self.tb);
        tb.filter_root(pos, &mut root_moves);
        let restricted = root_moves.len() < legal.len();
        let mut keys: Vec<u64> = history.iter().map(|z| z.0).collect();
        keys.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        // Below full strength: enough lines to choose among, and the rating's node budget.
        let strength = self.strength.filter(|s| !s.is_full_strength());
        let lines = strength.map_or(self.multipv, |s| self.multipv.max(s.lines()));
        let multipv = lines.min(root_moves.len());
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 8)
        });
        let forced = legal.len() == 1 && !limits.infinite && !limits.ponder;
        // Over all threads: the main thread and every helper check it.
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        // A strength budget applies from the second iteration on: the first always completes,
        // so that the move is drawn from searched lines, never from the fallback below.
        let budget = strength
            .and_then(StrengthLimit::node_limit)
            .map(|b| b.min(node_limit));

        let counters: Arc<[AtomicU64]> = (0..self.threads()).map(|_| AtomicU64::new(0)).collect();
        let abort = Arc::new(AtomicBool::new(false));
        self.helpers.start(|_| HelperJob {
            pos: pos.clone(),
            keys: keys.clone(),
            root_moves: root_moves.clone(),
            max_depth,
            node_limit: budget.unwrap_or(node_limit),
            store_root: !restricted,
            tt: Arc::clone(&self.tt),
            evaluator: self.evaluator.clone(),
            params: self.params,
            lmr: Arc::clone(&self.lmr),
            counters: Arc::clone(&counters),
            abort: Arc::clone(&abort),
            tb: self.tb.clone(),
            pawn_king_kib: self.pawn_king.kib(),
        });
        let frames = FrameStack::new(keys, pos, &self.evaluator);
        let mut worker = Worker::new(
            &self.tt,
            &mut self.heuristics,
            &self.evaluator,
            (&self.lmr, &self.params),
            time,
            control,
            reporter,
            frames,
            (&counters, 0),
            tb,
            &mut self.pawn_king,
        );
        worker.node_limit = node_limit;

        let mut completed: Vec<PvLine> = Vec::new();
        let mut completed_depth = 0;
        let mut seldepth = 0;
        for depth in 1..=max_depth {
            let Some(done) = iteration(
                &mut worker,
                pos,
                depth,
                &root_moves,
                &completed,
                multipv,
                !restricted,
            ) else {
                break;
            };
            let best_share = done.best_share;
            completed = done.lines;
            completed_depth = depth;
            if let Some(budget) = budget {
                worker.node_limit = budget;
            }
            seldepth = worker.seldepth;
            for (i, line) in completed.iter().enumerate() {
                report(&mut worker, depth, i + 1, line, Bound::Exact);
            }
            let best = completed[0].value;
            if let Some(&m) = completed[0].pv.first() {
                worker.time.on_iteration(depth, m, best, best_share);
            }
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

        // Below full strength the move is drawn among the last iteration's lines; the GUI is
        // shown the drawn line last, so that the `info` it keeps starts with the `bestmove`.
        let values: Vec<Value> = completed.iter().map(|l| l.value).collect();
        let chosen = strength.map_or(0, |limit| limit.choose(&values, &mut self.choice_rng));
        if chosen > 0 {
            report(
                &mut worker,
                completed_depth,
                1,
                &completed[chosen],
                Bound::Exact,
            );
        }
        let (best_value, pv): (Value, Vec<Move>) = match completed.get(chosen) {
            Some(line) => (line.value, line.pv.to_vec()),
            None => {
                // Not even depth 1 finished (stopped at once): fall back on the TT move or
                // the first root move, so the answer is still legal.
                let tt_move = worker.tt.probe(worker.frames[0].key, 0).map(|h| h.mv);
                let m = root_moves
                    .iter()
                    .copied()
                    .find(|&m| tt_move.is_some_and(|t: PackedMove| t.matches(m)))
                    .unwrap_or(root_moves[0]);
                (self.evaluator.evaluate(pos), vec![m])
            }
        };
        // The helpers stop when the main thread does; their nodes count too.
        abort.store(true, Ordering::Relaxed);
        worker.publish_nodes();
        let tbhits = worker.tb.hits;
        let elapsed = worker.time.elapsed();
        worker.stats.add_nodes(worker.nodes);
        self.stats.merge(&worker.stats);
        drop(worker);
        self.helpers.wait();
        let nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
        let mut result = SearchResult {
            best_move: pv.first().copied(),
            ponder_move: pv.get(1).copied(),
            score: best_value.to_score(),
            depth: completed_depth.max(0) as u32,
            seldepth: seldepth as u32,
            pv,
            nodes,
            tbhits,
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
