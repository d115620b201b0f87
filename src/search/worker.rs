//! Setting up a [`Worker`] and counting its nodes across threads.

use std::sync::atomic::{AtomicU64, Ordering};

use super::alphabeta::{Line, LmrTable, Worker};
use super::history::Heuristics;
use super::time::{RootNodes, TimeManager};
use super::tt::TranspositionTable;
use super::{Reporter, SearchControl};
use crate::eval::Evaluator;
use crate::eval::pawn_king::PawnKingCache;
use crate::eval::score::S;
use crate::value::{MAX_PLY, Value};

/// Entries of every per-ply array of the search (and of the killer table): plies `0..MAX_PLY`
/// plus room for the child of the deepest node.
pub const STACK_PLIES: usize = MAX_PLY + 2;

impl<'a> Worker<'a> {
    /// A worker for one search with no node limit; `counters` are the node counts of all
    /// threads and `counters.1` this worker's index in them.
    #[allow(clippy::too_many_arguments)]
    #[must_use]
    pub fn new(
        tt: &'a TranspositionTable,
        heur: &'a mut Heuristics,
        eval: &'a Evaluator,
        lmr: &'a LmrTable,
        time: TimeManager,
        control: &'a SearchControl,
        reporter: &'a mut dyn Reporter,
        keys: Vec<u64>,
        counters: (&'a [AtomicU64], usize),
        tb: super::tb::SearchTb<'a>,
    ) -> Worker<'a> {
        Worker {
            tt,
            heur,
            eval,
            lmr,
            time,
            control,
            reporter,
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys,
            pv: vec![Line::new(); MAX_PLY + 1],
            evals: vec![Value::DRAW; STACK_PLIES],
            psqt: vec![S::ZERO; STACK_PLIES],
            played: vec![None; STACK_PLIES],
            excluded: vec![None; STACK_PLIES],
            root_moves: Vec::new(),
            store_root: false,
            root_depth: 0,
            root_nodes: RootNodes::default(),
            counters: counters.0,
            thread_id: counters.1,
            tb,
            pawn_king: PawnKingCache::default(),
        }
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
