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
use super::worker::{Worker, WorkerSetup};
use crate::eval::Evaluator;
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
        // Step 1: the root moves (`searchmoves`, the tablebases' filter); none: the game is over.
        let mut tb = tb::SearchTb::new(&self.tb);
        let Some(plan) = self.plan(pos, limits, &mut tb) else {
            return game_over(pos, time.elapsed());
        };
        // Step 2: the helpers start on the same root (Lazy SMP).
        let mut keys: Vec<u64> = history.iter().map(|z| z.0).collect();
        keys.push(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        let counters: Arc<[AtomicU64]> = (0..self.threads()).map(|_| AtomicU64::new(0)).collect();
        let abort = Arc::new(AtomicBool::new(false));
        self.start_helpers(pos, &keys, &plan, (&counters, &abort));
        // Step 3: iterative deepening on the main thread, a report per completed line.
        let mut worker = Worker::new(WorkerSetup {
            tt: &self.tt,
            heur: &mut self.heuristics,
            eval: &self.evaluator,
            lmr: &self.lmr,
            params: &self.params,
            time,
            control,
            reporter,
            frames: FrameStack::new(keys, pos, &self.evaluator),
            counters: &counters,
            thread_id: 0,
            node_limit: plan.node_limit,
            tb,
            pawn_king: &mut self.pawn_king,
        });
        let deepened = deepen(&mut worker, pos, &plan, limits, control);
        // Step 4: infinite and pondering searches wait for the GUI before answering.
        while (limits.infinite || worker.clock().is_pondering())
            && !control.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Step 5: the answer: the best line, or below full strength the drawn one.
        let values: Vec<Value> = deepened.lines.iter().map(|l| l.value).collect();
        let chosen = plan
            .strength
            .map_or(0, |limit| limit.choose(&values, &mut self.choice_rng));
        let (best_value, pv) = answer(&mut worker, pos, &plan, &deepened, chosen, &self.evaluator);
        // Step 6: the helpers stop when the main thread does; their nodes count too.
        abort.store(true, Ordering::Relaxed);
        let totals = worker.finish();
        self.stats.merge(&totals.stats);
        self.helpers.wait();
        let nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
        let mut result = SearchResult {
            best_move: pv.first().copied(),
            ponder_move: pv.get(1).copied(),
            score: best_value.to_score(),
            depth: deepened.depth.max(0) as u32,
            seldepth: deepened.seldepth as u32,
            pv,
            nodes,
            tbhits: totals.tbhits,
            time: totals.elapsed,
        };
        // Step 7: a ponder move from the TT when the line is one move long.
        if result.ponder_move.is_none()
            && let Some(m) = result.best_move
        {
            result.ponder_move = self.ponder_from_tt(pos, m);
        }
        result
    }

    /// Step 1: what this search is to do (`None`: no legal move, the game is over): the root
    /// moves (`limits.searchmoves` when some are legal, then the tablebases' filter, hook 1 of
    /// 2), the lines per iteration, the deepest iteration and the node limits.
    fn plan(&self, pos: &Chess, limits: &Limits, tb: &mut tb::SearchTb<'_>) -> Option<RootPlan> {
        let legal = pos.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .copied()
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        if moves.is_empty() {
            return None;
        }
        tb.filter_root(pos, &mut moves);
        // Below full strength: enough lines to choose among, and the rating's node budget.
        let strength = self.strength.filter(|s| !s.is_full_strength());
        let lines = strength.map_or(self.multipv, |s| self.multipv.max(s.lines()));
        // Over all threads: the main thread and every helper check it.
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        Some(RootPlan {
            restricted: moves.len() < legal.len(),
            multipv: lines.min(moves.len()),
            moves,
            max_depth: limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
                (d as i32).clamp(1, MAX_PLY as i32 - 8)
            }),
            forced: legal.len() == 1 && !limits.infinite && !limits.ponder,
            node_limit,
            budget: strength
                .and_then(StrengthLimit::node_limit)
                .map(|b| b.min(node_limit)),
            strength,
        })
    }

    /// Step 2: start every helper on the root of `plan` (`keys`: the game's, the root's last),
    /// with the search's node `counters` and its `abort` flag. Worth: two threads against one,
    /// +79.5 ± 28.0 Elo at 10+0.1 (200 games; docs/results.md).
    fn start_helpers(
        &self,
        pos: &Chess,
        keys: &[u64],
        plan: &RootPlan,
        (counters, abort): (&Arc<[AtomicU64]>, &Arc<AtomicBool>),
    ) {
        self.helpers.start(|_| HelperJob {
            pos: pos.clone(),
            keys: keys.to_vec(),
            root_moves: plan.moves.clone(),
            max_depth: plan.max_depth,
            node_limit: plan.budget.unwrap_or(plan.node_limit),
            store_root: !plan.restricted,
            tt: Arc::clone(&self.tt),
            evaluator: self.evaluator.clone(),
            params: self.params,
            lmr: Arc::clone(&self.lmr),
            counters: Arc::clone(counters),
            abort: Arc::clone(abort),
            tb: self.tb.clone(),
            pawn_king_kib: self.pawn_king.kib(),
        });
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

/// What one search from the root is to do, decided before it starts (step 1).
struct RootPlan {
    /// The root moves to search.
    moves: Vec<Move>,
    /// Whether some legal move is left out of `moves` (then the root is not written to the TT).
    restricted: bool,
    /// Lines per iteration (MultiPV, more below full strength, at most one per root move).
    multipv: usize,
    /// The deepest iteration.
    max_depth: i32,
    /// One legal move and no reason to search on: the first iteration is the last.
    forced: bool,
    /// The `go nodes` limit over all threads (`u64::MAX` without one).
    node_limit: u64,
    /// A strength's node budget: it applies from the second iteration on, so that the first
    /// always completes and the move is drawn from searched lines, never from the fallback.
    budget: Option<u64>,
    /// Play below full strength (`None`: full strength).
    strength: Option<StrengthLimit>,
}

/// What iterative deepening left (step 3): the last completed iteration.
struct Deepened {
    /// Its lines, best first (none when not even depth 1 finished).
    lines: Vec<PvLine>,
    /// Its depth (0 when none completed).
    depth: i32,
    /// The deepest ply it reached.
    seldepth: usize,
}

/// The result of a search from a position without a legal move: mate or stalemate.
fn game_over(pos: &Chess, elapsed: Duration) -> SearchResult {
    SearchResult {
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
        time: elapsed,
    }
}

/// Step 3: iterative deepening of `plan` on the main thread's `worker`, each completed line
/// reported, until the deepest iteration, a forced move, the mate `limits.mate` asks for, the
/// soft time limit or the stop flag, or until an iteration is stopped before it finishes.
fn deepen(
    worker: &mut Worker<'_>,
    pos: &Chess,
    plan: &RootPlan,
    limits: &Limits,
    control: &SearchControl,
) -> Deepened {
    let mut done = Deepened {
        lines: Vec::new(),
        depth: 0,
        seldepth: 0,
    };
    for depth in 1..=plan.max_depth {
        let store_root = !plan.restricted;
        let Some(it) = iteration(
            worker,
            pos,
            depth,
            &plan.moves,
            &done.lines,
            plan.multipv,
            store_root,
        ) else {
            break;
        };
        done.lines = it.lines;
        done.depth = depth;
        if let Some(budget) = plan.budget {
            worker.limit_nodes(budget);
        }
        done.seldepth = worker.seldepth();
        for (i, line) in done.lines.iter().enumerate() {
            report(worker, depth, i + 1, line, Bound::Exact);
        }
        let best = done.lines[0].value;
        if let Some(&m) = done.lines[0].pv.first() {
            worker.clock().on_iteration(depth, m, best, it.best_share);
        }
        if plan.forced {
            break;
        }
        if let Some(n) = limits.mate
            && matches!(best.to_score(), Score::Mate(k) if k > 0 && k <= n as i32)
        {
            break;
        }
        if worker.clock().soft_exceeded() || control.stop.load(Ordering::Relaxed) {
            break;
        }
    }
    done
}

/// Step 5: the value and moves of the `chosen` line of `deepened` (the GUI is shown a drawn
/// line last, so that the `info` it keeps starts with the `bestmove`). When not even depth 1
/// finished (stopped at once): the TT move or the first root move, so the answer is still
/// legal, scored by the static evaluation `evaluator`.
fn answer(
    worker: &mut Worker<'_>,
    pos: &Chess,
    plan: &RootPlan,
    deepened: &Deepened,
    chosen: usize,
    evaluator: &Evaluator,
) -> (Value, Vec<Move>) {
    if chosen > 0 {
        let line = &deepened.lines[chosen];
        report(worker, deepened.depth, 1, line, Bound::Exact);
    }
    if let Some(line) = deepened.lines.get(chosen) {
        return (line.value, line.pv.to_vec());
    }
    let tt_move = worker.root_tt_move();
    let m = plan
        .moves
        .iter()
        .copied()
        .find(|&m| tt_move.is_some_and(|t: PackedMove| t.matches(m)))
        .unwrap_or(plan.moves[0]);
    (evaluator.evaluate(pos), vec![m])
}
