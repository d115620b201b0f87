//! The [`Worker`], the state of one running search: its fields, its constructor and its node
//! counts across threads.

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::Move;

use super::alphabeta::{Line, LmrTable};
use super::correction::CorrectionKeys;
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

/// The state of one running search.
pub struct Worker<'a> {
    /// Shared transposition table.
    pub tt: &'a TranspositionTable,
    /// Move-ordering statistics.
    pub heur: &'a mut Heuristics,
    /// The evaluation.
    pub eval: &'a Evaluator,
    /// Reduction table.
    pub lmr: &'a LmrTable,
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
    /// Zobrist keys of the game so far and of the current path; the last is the current node.
    pub keys: Vec<u64>,
    /// Triangular PV table: `pv[ply]` is the best line found from `ply`.
    pub pv: Vec<Line>,
    /// Static evaluation per ply (`-INFINITE` when in check).
    pub evals: Vec<Value>,
    /// Static evaluation per ply before correction (what the TT stores).
    pub raw_evals: Vec<Value>,
    /// Correction-history keys per ply, kept up to date move by move.
    pub corr_keys: Vec<CorrectionKeys>,
    /// Double extensions on the path to each ply (bounded by `SE_DOUBLE_MAX`).
    pub double_extensions: Vec<u8>,
    /// Material and piece-square sum per ply (White's view), kept up to date move by move.
    pub psqt: Vec<S>,
    /// This thread's pawn-and-king terms by configuration, for the evaluation; it outlives
    /// the search (kept by the searcher or the helper thread, cleared on a new game).
    pub pawn_king: &'a mut PawnKingCache,
    /// Move that led to each ply (`None` at the root and after a null move).
    pub played: Vec<Option<Move>>,
    /// Move skipped at each ply by a singular-extension verification search (`None` normally).
    pub excluded: Vec<Option<Move>>,
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
}

impl<'a> Worker<'a> {
    /// A worker for one search with no node limit; `counters` are the node counts of all
    /// threads and `counters.1` this worker's index in them; `pawn_king` is the thread's
    /// pawn-king cache.
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
        pawn_king: &'a mut PawnKingCache,
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
            raw_evals: vec![Value::DRAW; STACK_PLIES],
            corr_keys: vec![CorrectionKeys::default(); STACK_PLIES],
            double_extensions: vec![0; STACK_PLIES],
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
            pawn_king,
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
