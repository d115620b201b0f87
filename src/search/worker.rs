//! The [`Worker`], the state of one running search: its fields, its constructor, making moves
//! (the child's frame written), its node counts across threads and when to stop.

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::{Chess, Move, Position};

use super::frame::FrameStack;
use super::history::Heuristics;
use super::params::{POLL_INTERVAL, SearchParams};
use super::reductions::LmrTable;
use super::stats::SearchStats;
use super::time::{RootNodes, TimeManager};
use super::tt::TranspositionTable;
use super::types::{Reporter, SearchControl};
use crate::eval::Evaluator;
use crate::eval::pawn_king::PawnKingCache;

/// The state of one running search.
pub struct Worker<'a> {
    /// Shared transposition table.
    pub tt: &'a TranspositionTable,
    /// Move-ordering statistics.
    pub heur: &'a mut Heuristics,
    /// The evaluation.
    pub eval: &'a Evaluator,
    /// Reduction table (built from `params`).
    pub lmr: &'a LmrTable,
    /// The tunable constants (a copy: the hot paths read them one load away).
    pub params: SearchParams,
    /// Clock.
    pub time: TimeManager,
    /// Stop flag and ponderhit from the caller.
    pub control: &'a SearchControl,
    /// Progress output.
    pub reporter: &'a mut dyn Reporter,
    /// Stop once this many nodes have been searched.
    pub node_limit: u64,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Set once the search must unwind.
    pub stopped: bool,
    /// Everything kept per ply of the current path (`frame.rs`).
    pub frames: FrameStack,
    /// This thread's pawn-and-king terms by configuration, for the evaluation; it outlives
    /// the search (kept by the searcher or the helper thread, cleared on a new game).
    pub pawn_king: &'a mut PawnKingCache,
    /// Root moves to search in this pass (searchmoves minus lines already found in MultiPV).
    pub root_moves: Vec<Move>,
    /// Whether the root position may be written to the TT (not when the root is restricted).
    pub store_root: bool,
    /// Iteration depth, for current-move reports.
    pub root_depth: i32,
    /// Nodes under each root move in this iteration (for time management).
    pub root_nodes: RootNodes,
    /// Published node counts of every thread of this search (one entry with one thread).
    pub counters: &'a [AtomicU64],
    /// This worker's index in `counters` (0 = the main thread).
    pub thread_id: usize,
    /// Tablebase probing (none without tables) and its hit count.
    pub tb: super::tb::SearchTb<'a>,
    /// Per-rule counters (zero-sized without the `search-stats` feature).
    pub stats: SearchStats,
}

impl<'a> Worker<'a> {
    /// A worker for one search with no node limit, with the constants `tuning` (the reduction
    /// table and the parameters it was built from), from the root's frame stack `frames`;
    /// `counters` are the node counts of all threads and `counters.1` this worker's index in
    /// them; `pawn_king` is the thread's pawn-king cache.
    #[allow(clippy::too_many_arguments)]
    #[must_use]
    pub fn new(
        tt: &'a TranspositionTable,
        heur: &'a mut Heuristics,
        eval: &'a Evaluator,
        tuning: (&'a LmrTable, &SearchParams),
        time: TimeManager,
        control: &'a SearchControl,
        reporter: &'a mut dyn Reporter,
        frames: FrameStack,
        counters: (&'a [AtomicU64], usize),
        tb: super::tb::SearchTb<'a>,
        pawn_king: &'a mut PawnKingCache,
    ) -> Worker<'a> {
        Worker {
            tt,
            heur,
            eval,
            lmr: tuning.0,
            params: *tuning.1,
            time,
            control,
            reporter,
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            frames,
            root_moves: Vec::new(),
            store_root: false,
            root_depth: 0,
            root_nodes: RootNodes::default(),
            counters: counters.0,
            thread_id: counters.1,
            tb,
            pawn_king,
            stats: SearchStats::default(),
        }
    }

    /// Play `m` in `pos` (the node at `ply`): the child position, its frame written
    /// ([`FrameStack::make_move`]) and its TT bucket fetched early.
    #[inline]
    pub(super) fn make(
        &mut self,
        pos: &Chess,
        m: Move,
        ply: usize,
        double_extension: bool,
    ) -> Chess {
        let child = self
            .frames
            .make_move(self.eval, pos, m, ply, double_extension);
        self.tt.prefetch(self.frames[ply + 1].key);
        child
    }

    /// Pass in `pos` (the node at `ply`): the child position (`None` when passing is illegal:
    /// in check), its frame written ([`FrameStack::make_null_move`]) and its TT bucket fetched
    /// early.
    pub(super) fn make_null_move(&mut self, pos: &Chess, ply: usize) -> Option<Chess> {
        let child = pos.clone().swap_turn().ok()?;
        self.frames.make_null_move(pos, ply);
        self.tt.prefetch(self.frames[ply + 1].key);
        Some(child)
    }

    /// Whether to unwind: stop flag, node limit (over all threads) or hard time limit.
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let poll = self.nodes & (POLL_INTERVAL - 1) == 0;
        if poll {
            self.publish_nodes();
        }
        // With one thread the node limit is exact; with several it is checked at each poll.
        if self.nodes >= self.node_limit
            || (poll
                && (self.control.stop.load(Ordering::Relaxed)
                    || self.time.hard_exceeded()
                    || (self.counters.len() > 1 && self.total_nodes() >= self.node_limit)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Make this worker's node count visible to the other threads.
    pub fn publish_nodes(&self) {
        if let Some(counter) = self.counters.get(self.thread_id) {
            counter.store(self.nodes, Ordering::Relaxed);
        }
    }

    /// Nodes searched by every thread of this search (exact for this worker, as last
    /// published for the others).
    #[must_use]
    pub fn total_nodes(&self) -> u64 {
        let others: u64 = self
            .counters
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.thread_id)
            .map(|(_, c)| c.load(Ordering::Relaxed))
            .sum();
        self.nodes + others
    }
}
