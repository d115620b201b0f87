//! Syzygy tablebases in the search: loading (never failing, only reporting), the WDL probe used
//! inside the tree after a capture or pawn move, and the DTZ ranking of root moves that makes a
//! won position convert within the 50-move rule and keeps a drawn one drawn.
//!
//! Built on `shakmaty-syzygy` (library feature `syzygy`, on with the default `engine` feature).
//! Without the feature, [`TbSettings`] still exists (so options and the search compile the same)
//! and the in-tree probe never answers.

#[cfg(feature = "syzygy")]
mod tables;
mod verdict;

#[cfg(feature = "syzygy")]
pub use tables::{MoveProbe, PositionProbe, Tablebases, TbLoadError, TbOutcome};
pub use verdict::TbVerdict;

use shakmaty::Chess;

use crate::value::Value;

/// How the search uses the tables: the UCI options `SyzygyProbeDepth`, `SyzygyProbeLimit` and
/// `Syzygy50MoveRule` (the path is in [`Tablebases`] itself).
///
/// ```
/// use minkowski::search::tb::TbSettings;
/// let s = TbSettings::default();
/// assert_eq!((s.probe_depth, s.probe_limit, s.rule50), (1, 7, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbSettings {
    /// Probe inside the tree only at nodes with at least this much depth left.
    pub probe_depth: i32,
    /// Probe only positions with at most this many pieces (kings included); the tables' own
    /// maximum limits it further.
    pub probe_limit: usize,
    /// Whether the 50-move rule counts: cursed wins and blessed losses score as draws.
    pub rule50: bool,
}

impl Default for TbSettings {
    fn default() -> TbSettings {
        TbSettings {
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }
}

/// What a [`super::Searcher`] keeps about tablebases between searches: the tables (when the
/// feature is on and a path was set) and the settings.
///
/// ```
/// use minkowski::search::tb::{TbConfig, TbSettings};
/// let config = TbConfig::default();
/// assert_eq!(config.settings, TbSettings::default());
/// assert_eq!(config.max_pieces(), 0); // no tables
/// ```
#[derive(Clone, Debug, Default)]
pub struct TbConfig {
    /// The tables, shared between searchers (e.g. the EPD runner's jobs).
    #[cfg(feature = "syzygy")]
    pub tables: Option<std::sync::Arc<Tablebases>>,
    /// How to probe.
    pub settings: TbSettings,
}

impl TbConfig {
    /// Most pieces the tables hold (0 without tables).
    ///
    /// ```
    /// assert_eq!(minkowski::search::tb::TbConfig::default().max_pieces(), 0);
    /// ```
    #[must_use]
    pub fn max_pieces(&self) -> usize {
        #[cfg(feature = "syzygy")]
        if let Some(t) = &self.tables {
            return t.max_pieces();
        }
        0
    }
}

/// The search's view of the tables during one search: what to probe and how many probes hit.
#[derive(Debug)]
pub(crate) struct SearchTb<'a> {
    #[cfg(feature = "syzygy")]
    tables: Option<&'a Tablebases>,
    #[cfg(not(feature = "syzygy"))]
    _tables: std::marker::PhantomData<&'a ()>,
    // Read only by the probes, which exist with the feature.
    #[cfg_attr(not(feature = "syzygy"), allow(dead_code))]
    settings: TbSettings,
    /// Successful probes so far (`tbhits` in `info`).
    pub hits: u64,
    /// The tables' verdict on the root, when [`SearchTb::filter_root`] found it in them.
    pub root: Option<TbVerdict>,
}

impl<'a> SearchTb<'a> {
    /// The view of `config` for one search.
    pub fn new(config: &'a TbConfig) -> SearchTb<'a> {
        SearchTb {
            #[cfg(feature = "syzygy")]
            tables: config.tables.as_deref().filter(|t| !t.is_empty()),
            #[cfg(not(feature = "syzygy"))]
            _tables: std::marker::PhantomData,
            settings: config.settings,
            hits: 0,
            root: None,
        }
    }

    /// Keep only the root moves that the tables rank best (see
    /// [`Tablebases::filter_root_moves`]), when the root fits the tables and the probe limit.
    /// Leaves `moves` alone otherwise.
    #[cfg(feature = "syzygy")]
    pub fn filter_root(&mut self, pos: &Chess, moves: &mut Vec<shakmaty::Move>) {
        use shakmaty::Position;
        let Some(tables) = self.tables else {
            return;
        };
        if pos.board().occupied().count() > self.settings.probe_limit {
            return;
        }
        if let Some(keep) = tables.filter_root_moves(pos, moves, self.settings.rule50)
            && !keep.is_empty()
        {
            self.hits += 1;
            // Of the moves before filtering: the same best outcome, probed once more (at the
            // root only, once per search).
            self.root = tables.root_verdict(pos, moves, self.settings.rule50);
            *moves = keep;
        }
    }

    /// Without the `syzygy` feature there are no tables: leaves `moves` alone.
    #[cfg(not(feature = "syzygy"))]
    pub fn filter_root(&mut self, _: &Chess, _: &mut Vec<shakmaty::Move>) {}

    /// The in-tree WDL probe. At a node just after a capture or pawn move (halfmove clock 0),
    /// with few enough pieces and enough depth left, the tables' verdict is exact: a win or loss
    /// is a [`Value::tb_win_in`] / [`Value::tb_loss_in`] score, a draw is 0 (cursed wins and
    /// blessed losses ±1 under the 50-move rule). Returns the value when it settles the node
    /// (exact, or a bound beyond the window), `None` to search on.
    #[cfg(feature = "syzygy")]
    pub fn probe(
        &mut self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
    ) -> Option<Value> {
        use shakmaty::Position;
        use shakmaty_syzygy::Wdl;
        let tables = self.tables?;
        if pos.halfmoves() != 0 || depth < self.settings.probe_depth {
            return None;
        }
        let pieces = pos.board().occupied().count();
        if pieces > self.settings.probe_limit.min(tables.max_pieces()) || pos.castles().any() {
            return None;
        }
        let wdl = tables.wdl_after_zeroing(pos)?;
        self.hits += 1;
        let rule50 = self.settings.rule50;
        let (value, lower, upper) = match wdl {
            Wdl::Win => (Value::tb_win_in(ply), true, false),
            Wdl::CursedWin if !rule50 => (Value::tb_win_in(ply), true, false),
            Wdl::Loss => (Value::tb_loss_in(ply), false, true),
            Wdl::BlessedLoss if !rule50 => (Value::tb_loss_in(ply), false, true),
            Wdl::CursedWin => (Value(1), true, true),
            Wdl::BlessedLoss => (Value(-1), true, true),
            Wdl::Draw => (Value::DRAW, true, true),
        };
        let settles = (lower && (upper || value >= beta)) || (upper && value <= alpha);
        settles.then_some(value)
    }

    /// Without the `syzygy` feature there are no tables: never answers.
    #[cfg(not(feature = "syzygy"))]
    pub fn probe(&mut self, _: &Chess, _: i32, _: usize, _: Value, _: Value) -> Option<Value> {
        None
    }
}
