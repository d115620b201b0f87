//! The [`Worker`], the state of one running search: its fields, its construction from a
//! [`WorkerSetup`], what the driver may ask of it (the clock, the root's line, a report), making
//! moves (the child's frame written), its node counts across threads and when to stop.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::frame::{FrameStack, Line};
use super::history::Heuristics;
use super::params::{POLL_INTERVAL, SearchParams};
use super::reductions::LmrTable;
use super::stats::SearchStats;
use super::tb::SearchTb;
use super::time::TimeManager;
use super::tt::{PackedMove, TranspositionTable};
use super::types::{Bound, IterationInfo, Reporter, SearchControl};
use crate::eval::Evaluator;
use crate::eval::pawn_king::PawnKingCache;
use crate::value::Value;

/// What a [`Worker`] is built from, by name: the search's shared tables and settings, this
/// thread's own state, and where its results go. The main thread (`root.rs`) and every helper
/// (`threads.rs`) fill one.
pub(super) struct WorkerSetup<'a> {
    /// Shared transposition table.
    pub tt: &'a TranspositionTable,
    /// This thread's move-ordering statistics (they outlive the search).
    pub heur: &'a mut Heuristics,
    /// The evaluation.
    pub eval: &'a Evaluator,
    /// The reduction table, built from `params`.
    pub lmr: &'a LmrTable,
    /// The tunable constants.
    pub params: &'a SearchParams,
    /// This thread's clock.
    pub time: TimeManager,
    /// Stop flag and ponderhit from the caller.
    pub control: &'a SearchControl,
    /// Progress output.
    pub reporter: &'a mut dyn Reporter,
    /// The root's frame stack (the game's keys before the root in it).
    pub frames: FrameStack,
    /// Published node counts of every thread of this search (one entry with one thread).
    pub counters: &'a [AtomicU64],
    /// This worker's index in `counters` (0 = the main thread).
    pub thread_id: usize,
    /// Stop once this many nodes have been searched (over all threads).
    pub node_limit: u64,
    /// Tablebase probing (none without tables).
    pub tb: SearchTb<'a>,
    /// This thread's pawn-and-king terms by configuration; it outlives the search (kept by the
    /// searcher or the helper thread, cleared on a new game).
    pub pawn_king: &'a mut PawnKingCache,
}

/// The state of one running search. The node's steps (`alphabeta.rs`, `qsearch.rs`,
/// `pruning.rs`, ...) are its methods and read its tools and counters directly; the driver
/// (`iteration.rs`, `root.rs`, `threads.rs`) goes through the methods below, and gives the
/// root what only the root needs as a [`RootContext`](super::node::RootContext).
pub struct Worker<'a> {
    /// Shared transposition table.
    pub(super) tt: &'a TranspositionTable,
    /// Move-ordering statistics.
    pub(super) heur: &'a mut Heuristics,
    /// The evaluation.
    pub(super) eval: &'a Evaluator,
    /// Reduction table (built from `params`).
    pub(super) lmr: &'a LmrTable,
    /// The tunable constants (a copy: the hot paths read them one load away).
    pub(super) params: SearchParams,
    /// Clock.
    pub(super) time: TimeManager,
    /// Progress output.
    pub(super) reporter: &'a mut dyn Reporter,
    /// Nodes searched so far.
    pub(super) nodes: u64,
    /// Deepest ply reached in this iteration.
    pub(super) seldepth: usize,
    /// Set once the search must unwind.
    pub(super) stopped: bool,
    /// Everything kept per ply of the current path (`frame.rs`).
    pub(super) frames: FrameStack,
    /// This thread's pawn-and-king terms by configuration, for the evaluation.
    pub(super) pawn_king: &'a mut PawnKingCache,
    /// Tablebase probing (none without tables) and its hit count.
    pub(super) tb: SearchTb<'a>,
    /// Per-rule counters (zero-sized without the `search-stats` feature).
    pub(super) stats: SearchStats,
    /// Stop flag and ponderhit from the caller.
    control: &'a SearchControl,
    /// Stop once this many nodes have been searched.
    node_limit: u64,
    /// Published node counts of every thread of this search (one entry with one thread).
    counters: &'a [AtomicU64],
    /// This worker's index in `counters` (0 = the main thread).
    thread_id: usize,
}

/// What a finished worker leaves: its share of the search's figures.
pub(super) struct WorkerTotals {
    /// Tablebase hits.
    pub tbhits: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Per-rule counters, its node count added.
    pub stats: SearchStats,
}

impl<'a> Worker<'a> {
    /// A worker for one search, from `setup`.
    #[must_use]
    pub(super) fn new(setup: WorkerSetup<'a>) -> Worker<'a> {
        Worker {
            tt: setup.tt,
            heur: setup.heur,
            eval: setup.eval,
            lmr: setup.lmr,
            params: *setup.params,
            time: setup.time,
            reporter: setup.reporter,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            frames: setup.frames,
            pawn_king: setup.pawn_king,
            tb: setup.tb,
            stats: SearchStats::default(),
            control: setup.control,
            node_limit: setup.node_limit,
            counters: setup.counters,
            thread_id: setup.thread_id,
        }
    }

    /// Stop at `limit` nodes from now on (a strength's budget, after the first iteration).
    pub(super) fn limit_nodes(&mut self, limit: u64) {
        self.node_limit = limit;
    }

    /// The tunable constants in use.
    pub(super) fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The clock, for the driver's decisions between iterations.
    pub(super) fn clock(&mut self) -> &mut TimeManager {
        &mut self.time
    }

    /// Start counting the deepest ply of a new iteration.
    pub(super) fn start_iteration(&mut self) {
        self.seldepth = 0;
    }

    /// The deepest ply reached in this iteration.
    pub(super) fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// Whether the search was stopped (its last result is not to be used).
    pub(super) fn stopped(&self) -> bool {
        self.stopped
    }

    /// The principal variation of the root's last search.
    pub(super) fn root_pv(&self) -> &Line {
        &self.frames[0].pv
    }

    /// The root's move in the transposition table, if any.
    pub(super) fn root_tt_move(&self) -> Option<PackedMove> {
        self.tt.probe(self.frames[0].key, 0).map(|h| h.mv)
    }

    /// Report one finished or failed window of the root search: its `value` and `pv` as the
    /// `multipv`-th line at `depth`, within `bound`.
    pub(super) fn report_line(
        &mut self,
        depth: i32,
        multipv: usize,
        (value, pv): (Value, &Line),
        bound: Bound,
    ) {
        let time = self.time.elapsed();
        let nodes = self.total_nodes();
        let nps = (u128::from(nodes) * 1000 / time.as_millis().max(1)) as u64;
        let info = IterationInfo {
            depth: depth as u32,
            seldepth: self.seldepth as u32,
            multipv,
            score: value.to_score(),
            bound,
            nodes,
            nps,
            hashfull: self.tt.hashfull(),
            tbhits: self.tb.hits,
            time,
            pv: pv.to_vec(),
            root_tb: self.tb.root,
        };
        self.reporter.on_iteration(&info);
    }

    /// End the search: the node count published for the other threads, and what is left.
    pub(super) fn finish(mut self) -> WorkerTotals {
        self.publish_nodes();
        self.stats.add_nodes(self.nodes);
        WorkerTotals {
            tbhits: self.tb.hits,
            elapsed: self.time.elapsed(),
            stats: self.stats,
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
    pub(super) fn publish_nodes(&self) {
        if let Some(counter) = self.counters.get(self.thread_id) {
            counter.store(self.nodes, Ordering::Relaxed);
        }
    }

    /// Nodes searched by every thread of this search (exact for this worker, as last
    /// published for the others).
    #[must_use]
    pub(super) fn total_nodes(&self) -> u64 {
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
