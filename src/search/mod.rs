//! The search: iterative deepening alpha-beta over [`shakmaty::Chess`], driven through one API.
//!
//! The UCI front end, the EPD runner, the bench and the tests all call
//! [`Searcher::search`]; none of them reaches into the search's internals. The search does no
//! I/O: progress leaves through a [`Reporter`].
//!
//! CONTRACT NOTE: the boundary types (in `types.rs`, re-exported here) are what other modules
//! build on. Their names and fields may grow but should not change shape.
//!
//! Public: [`Searcher`] with [`Limits`], [`SearchControl`] and [`Reporter`], the scores ([`Value`],
//! [`Score`]), [`mod@bench`] (the fixed bench) and [`strength`] (playing below full strength: a
//! rating's node budget and the choice among the root's best moves). Inside, private to the crate:
//! `root` (one search from the root, [`Searcher::search`]: root moves, helpers, iterative
//! deepening, the answer), `frame` (everything kept per ply of the current path, and the only
//! writer of a child's frame), `worker` (one running search: making moves, node counts, stopping),
//! `alphabeta` (one node of the main search in named steps, and its move loop) with `node` (a
//! node's context), `static_eval`, `learning` (what a node teaches the history tables), `pruning`, `probcut`,
//! `singular`, `reductions` and `qsearch`,
//! `iteration` (one iteration of iterative deepening: the MultiPV passes and aspiration windows,
//! shared by the main and helper threads), `movepick` (SEE, staged ordering) with `lesser_threats` (pieces hanging to a lesser attacker,
//! whose escapes it orders first), `movegen` (legal
//! moves split into tactical and quiet, in shakmaty's order), `history` (killers and history
//! tables), `correction` (static-eval correction tables), `board` (gives-check test, tactical move
//! generation, incremental keys), `tt` (transposition table), `time` (time management) and `params`
//! (every threshold; the tunable ones are [`SearchParams`], declared through `tunable`); in test
//! builds, `test_support` (what the search's tests share). How they fit together, and which may
//! import which: docs/search.md.

pub(crate) mod alphabeta;
pub mod bench;
pub(crate) mod board;
pub(crate) mod correction;
mod frame;
pub(crate) mod history;
mod iteration;
mod learning;
mod lesser_threats;
pub(crate) mod movegen;
pub(crate) mod movepick;
mod node;
pub(crate) mod params;
mod pawn_king_memory;
mod probcut;
mod pruning;
mod qsearch;
mod reductions;
mod root;
pub(crate) mod see;
mod singular;
mod static_eval;
pub mod stats;
pub mod strength;
pub mod tb;
#[cfg(test)]
mod test_support;
pub mod threads;
pub(crate) mod time;
pub(crate) mod tt;
mod tunable;
mod types;
mod worker;

use std::sync::Arc;
use std::time::Duration;

use crate::eval::Evaluator;
use crate::eval::pawn_king::PawnKingCache;
pub use crate::value::{MAX_PLY, Score, Value};
use history::Heuristics;
pub use params::SearchParams;
use reductions::LmrTable;
use stats::SearchStats;
use strength::{ChoiceRng, StrengthLimit};
use threads::{HelperPool, MAX_THREADS};
use tt::TranspositionTable;
pub use tunable::{ParamError, ParamSpec};
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
    tt: Arc<TranspositionTable>,
    heuristics: Heuristics,
    /// The main thread's pawn-king cache (each helper keeps its own), kept across searches.
    pawn_king: PawnKingCache,
    evaluator: Evaluator,
    /// The tunable constants of the search ([`SearchParams`]).
    params: SearchParams,
    /// The reduction table of `params` (shared with the helpers).
    lmr: Arc<LmrTable>,
    helpers: HelperPool,
    tb: tb::TbConfig,
    /// Play below full strength (`None`: full strength).
    strength: Option<StrengthLimit>,
    /// The random source of the strength limit's choice among the root's best moves.
    choice_rng: ChoiceRng,
    /// The main thread's per-rule counters, summed over searches (`search-stats` feature).
    stats: SearchStats,
}

/// The choice's seed until [`Searcher::seed_choice`] says otherwise: a fixed one, so that a
/// library user gets the same games from the same calls.
const DEFAULT_CHOICE_SEED: u64 = 0x4D69_6E6B_6F77_736B;

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
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            heuristics: Heuristics::default(),
            pawn_king: PawnKingCache::default(),
            evaluator: Evaluator::default(),
            params: SearchParams::default(),
            lmr: Arc::from(reductions::lmr_table(&SearchParams::default())),
            helpers: HelperPool::default(),
            tb: tb::TbConfig::default(),
            strength: None,
            choice_rng: ChoiceRng::new(DEFAULT_CHOICE_SEED),
            stats: SearchStats::default(),
        }
    }

    /// Search with `n` threads (clamped to 1..=1024): the calling thread and `n - 1` helpers
    /// that share the transposition table (Lazy SMP). The helpers are created here and wait
    /// between searches; with `n = 1` the search is deterministic.
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(4);
    /// searcher.set_threads(2);
    /// assert_eq!(searcher.threads(), 2);
    /// let limits = Limits { depth: Some(6), ..Default::default() };
    /// let result = searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// assert!(result.best_move.is_some());
    /// ```
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        if n != self.threads() {
            // Drop the old helpers (joining them) before creating the new ones.
            self.helpers = HelperPool::default();
            self.helpers = HelperPool::new(n - 1);
        }
    }

    /// Threads a search runs with (the helpers the system granted, plus the caller).
    ///
    /// ```
    /// assert_eq!(minkowski::search::Searcher::new(1).threads(), 1);
    /// ```
    #[must_use]
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
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
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(mb));
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

    /// Play below full strength from the next search on (`None`: full strength), as
    /// [`strength`] describes: a node budget per move, and the move drawn among the root's
    /// best lines. The limit at [`strength::MAX_ELO`] is full strength itself.
    ///
    /// ```
    /// use minkowski::search::strength::StrengthLimit;
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(1);
    /// let weakest = StrengthLimit::new(1350);
    /// searcher.set_strength(Some(weakest));
    /// let limits = Limits { depth: Some(20), ..Default::default() };
    /// let r = searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// assert!(r.nodes <= weakest.node_limit().unwrap());
    /// ```
    pub fn set_strength(&mut self, limit: Option<StrengthLimit>) {
        self.strength = limit;
    }

    /// The strength limit in use (`None`: full strength).
    ///
    /// ```
    /// assert_eq!(minkowski::search::Searcher::new(1).strength(), None);
    /// ```
    #[must_use]
    pub fn strength(&self) -> Option<StrengthLimit> {
        self.strength
    }

    /// Restart the strength limit's random choice from `seed`: the same seed, position and
    /// searches give the same moves again. A new searcher starts from a fixed seed.
    ///
    /// ```
    /// use minkowski::search::strength::StrengthLimit;
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let play = |seed| {
    ///     let mut searcher = Searcher::new(1);
    ///     searcher.set_strength(Some(StrengthLimit::new(1500)));
    ///     searcher.seed_choice(seed);
    ///     let limits = Limits { depth: Some(20), ..Default::default() };
    ///     searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ()).best_move
    /// };
    /// assert_eq!(play(42), play(42));
    /// ```
    pub fn seed_choice(&mut self, seed: u64) {
        self.choice_rng = ChoiceRng::new(seed);
    }

    /// Forget everything learned (TT, histories, pawn-king caches): `ucinewgame` and
    /// `Clear Hash`.
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// let mut searcher = Searcher::new(1);
    /// let limits = Limits { depth: Some(3), ..Default::default() };
    /// searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
    /// assert!(searcher.pawn_king_stats().0 > 0);
    /// searcher.clear();
    /// assert_eq!(searcher.hashfull(), 0);
    /// assert_eq!(searcher.pawn_king_stats(), (0, 0));
    /// ```
    pub fn clear(&mut self) {
        self.clear_tt();
        self.heuristics.clear();
        self.pawn_king.clear();
        self.helpers.clear();
    }

    /// Empty the table. No helper holds it between searches, so it is ours alone; should one
    /// still hold it, a fresh table of the same size replaces it.
    fn clear_tt(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.hash_mb)),
        }
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

    /// The evaluator in use, to change its weights. Everything learned is forgotten first, as
    /// by [`Searcher::set_evaluator`]: the caches hold values of the evaluator as it is now, and
    /// nothing can fill them again while the borrow lasts (a search needs the searcher), so the
    /// next search starts with caches of the changed evaluator only.
    ///
    /// ```
    /// use minkowski::eval::{score::S, threats::FORK_NOW};
    /// let mut searcher = minkowski::search::Searcher::new(1);
    /// searcher.evaluator_mut().weights_mut()[FORK_NOW] = S(60, 60);
    /// assert_eq!(searcher.evaluator().weights()[FORK_NOW], S(60, 60));
    /// ```
    pub fn evaluator_mut(&mut self) -> &mut Evaluator {
        self.clear();
        &mut self.evaluator
    }

    /// Use these tablebases and probe settings from the next search on (the TT is cleared: its
    /// scores were found without them).
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, Searcher};
    /// use minkowski::search::tb::{TbConfig, Tablebases};
    /// use shakmaty::{CastlingMode, Chess, fen::Fen};
    /// let (tables, _) = Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy"));
    /// let mut searcher = Searcher::new(1);
    /// searcher.set_tablebases(TbConfig { tables: Some(tables.into()), ..TbConfig::default() });
    /// // Only Kxb2 saves the draw; the tables leave the search nothing else.
    /// let pos: Chess = "8/8/8/8/8/2K5/1r6/7k w - - 0 1".parse::<Fen>().unwrap()
    ///     .into_position(CastlingMode::Standard).unwrap();
    /// let limits = Limits { depth: Some(2), ..Default::default() };
    /// let r = searcher.search(&pos, &[], &limits, &SearchControl::default(), &mut ());
    /// assert_eq!(r.best_move.unwrap().to_string(), "Kc3xb2");
    /// assert!(r.tbhits > 0);
    /// ```
    #[cfg(feature = "syzygy")]
    pub fn set_tablebases(&mut self, config: tb::TbConfig) {
        self.tb = config;
        self.clear_tt();
    }

    /// The tablebase settings in use.
    ///
    /// ```
    /// use minkowski::search::tb::TbSettings;
    /// assert_eq!(minkowski::search::Searcher::new(1).tablebases().settings, TbSettings::default());
    /// ```
    #[must_use]
    pub fn tablebases(&self) -> &tb::TbConfig {
        &self.tb
    }

    /// Replace the evaluator. Everything learned is forgotten ([`Searcher::clear`]): the TT's
    /// scores and the pawn-king caches' sums (the main thread's and every helper's) came from
    /// the old evaluator, and the histories from searches with it, so the next search is the one
    /// a new searcher with this evaluator would make.
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
        self.clear();
    }

    /// Search with these constants from the next search on (the helpers too). The reduction
    /// table is rebuilt when its parameters changed; nothing learned is forgotten (the TT's
    /// bounds hold whatever pruning found them).
    ///
    /// ```
    /// use minkowski::search::{Limits, SearchControl, SearchParams, Searcher};
    /// let nodes = |params: SearchParams| {
    ///     let mut searcher = Searcher::new(1);
    ///     searcher.set_search_params(params);
    ///     let limits = Limits { depth: Some(6), ..Default::default() };
    ///     searcher.search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ()).nodes
    /// };
    /// let mut wide = SearchParams::default();
    /// wide.set("lmr_base_x100", 0).unwrap();
    /// assert_ne!(nodes(wide), nodes(SearchParams::default()));
    /// ```
    pub fn set_search_params(&mut self, params: SearchParams) {
        let table_of = |p: &SearchParams| (p.lmr_base_x100, p.lmr_divisor_x100);
        if table_of(&params) != table_of(&self.params) {
            self.lmr = Arc::from(reductions::lmr_table(&params));
        }
        self.params = params;
    }

    /// The constants the search uses.
    ///
    /// ```
    /// use minkowski::search::{SearchParams, Searcher};
    /// assert_eq!(Searcher::new(1).search_params(), &SearchParams::default());
    /// ```
    #[must_use]
    pub fn search_params(&self) -> &SearchParams {
        &self.params
    }

    /// The main thread's per-rule counters summed over every search since the last call, which
    /// resets them (all zero-sized without the `search-stats` feature).
    pub fn take_stats(&mut self) -> SearchStats {
        std::mem::take(&mut self.stats)
    }
}
