//! The types at the search's boundary: what a search may spend ([`Limits`]), how another
//! thread steers it ([`SearchControl`]), what it reports while running ([`Reporter`],
//! [`IterationInfo`], [`CurrentMoveInfo`]) and what it returns ([`SearchResult`], [`Bound`]). Re-exported from [`crate::search`]; their names and fields may grow but should not
//! change shape.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::Move;

use super::tb::TbVerdict;
use crate::value::Score;

/// What the search may spend, as a `go` command gives it. Every field is optional; an empty
/// `Limits` means "search until stopped".
///
/// Clock values are in milliseconds and may be negative (some GUIs send negative clocks).
///
/// ```
/// let limits = minkowski::search::Limits { depth: Some(4), ..Default::default() };
/// assert_eq!(limits.depth, Some(4));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum iterative-deepening depth in plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (stop once found).
    pub mate: Option<u32>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// White's clock in ms.
    pub wtime: Option<i64>,
    /// Black's clock in ms.
    pub btime: Option<i64>,
    /// White's increment in ms.
    pub winc: Option<i64>,
    /// Black's increment in ms.
    pub binc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: ignore the clock until [`SearchControl::ponderhit`] is set.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

/// Flags another thread uses to steer a running search.
///
/// ```
/// use std::sync::atomic::Ordering;
/// let control = minkowski::search::SearchControl::default();
/// control.stop.store(true, Ordering::Relaxed);
/// ```
#[derive(Clone, Debug, Default)]
pub struct SearchControl {
    /// Set to end the search as soon as possible; it still returns a legal move.
    pub stop: Arc<AtomicBool>,
    /// Set when a pondering search becomes a real one: from then on the clock in
    /// [`Limits`] applies.
    pub ponderhit: Arc<AtomicBool>,
}

/// Whether a reported score is exact or only a bound (after an aspiration fail).
///
/// ```
/// use minkowski::search::{Bound, IterationInfo, Limits, Reporter, SearchControl, Searcher};
/// /// Counts the iterations whose score is exact.
/// struct Exact(u32);
/// impl Reporter for Exact {
///     fn on_iteration(&mut self, info: &IterationInfo) {
///         self.0 += u32::from(info.bound == Bound::Exact);
///     }
/// }
/// let mut exact = Exact(0);
/// let limits = Limits { depth: Some(4), ..Default::default() };
/// Searcher::new(1).search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut exact);
/// assert!(exact.0 >= 4); // one per completed depth (failed aspiration windows are bounds)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One finished (or failed-aspiration) iteration, for `info depth ...` lines.
///
/// ```
/// use minkowski::search::{IterationInfo, Limits, Reporter, SearchControl, Searcher};
/// /// Prints UCI-style `info` lines.
/// struct Info;
/// impl Reporter for Info {
///     fn on_iteration(&mut self, i: &IterationInfo) {
///         println!("info depth {} nodes {} pv {}", i.depth, i.nodes, i.pv.len());
///     }
/// }
/// let limits = Limits { depth: Some(3), ..Default::default() };
/// Searcher::new(1).search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut Info);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationInfo {
    /// Depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the principal variation (MultiPV).
    pub multipv: usize,
    /// Score of this line.
    pub score: Score,
    /// Exact or bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered so far.
    pub tbhits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, first move first.
    pub pv: Vec<Move>,
    /// The tablebases' verdict on the root, when it is in the tables: the search then plays
    /// only moves that keep it, whatever `score` says (it may stay an evaluation).
    pub root_tb: Option<TbVerdict>,
}

/// The move the root is searching now, for `info currmove ... currmovenumber ...`.
///
/// ```
/// use minkowski::search::{CurrentMoveInfo, Reporter};
/// /// Prints `info currmove` lines (only long searches report them).
/// struct CurrMove;
/// impl Reporter for CurrMove {
///     fn on_current_move(&mut self, c: &CurrentMoveInfo) {
///         println!("info depth {} currmove {:?} currmovenumber {}", c.depth, c.mv, c.number);
///     }
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrentMoveInfo {
    /// Iteration depth.
    pub depth: u32,
    /// The root move.
    pub mv: Move,
    /// Its 1-based number in the root move order.
    pub number: usize,
    /// Time since the search started.
    pub time: Duration,
}

/// Receives the search's progress. Both methods default to doing nothing, so `()` is a reporter
/// that ignores everything.
///
/// ```
/// use minkowski::search::{Limits, SearchControl, Searcher};
/// // `()` ignores all progress.
/// let limits = Limits { depth: Some(2), ..Default::default() };
/// let r = Searcher::new(1).search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
/// assert_eq!(r.depth, 2);
/// ```
pub trait Reporter {
    /// Called after each iteration (and after each aspiration fail) per PV line.
    fn on_iteration(&mut self, info: &IterationInfo) {
        let _ = info;
    }
    /// Called when the root starts on a move (only in long searches).
    fn on_current_move(&mut self, info: &CurrentMoveInfo) {
        let _ = info;
    }
}

impl Reporter for () {}

/// What a search found.
///
/// ```
/// use minkowski::search::{Limits, SearchControl, Searcher};
/// let limits = Limits { nodes: Some(5_000), ..Default::default() };
/// let r = Searcher::new(1).search(&shakmaty::Chess::default(), &[], &limits, &SearchControl::default(), &mut ());
/// assert_eq!(r.best_move, r.pv.first().copied());
/// assert!(r.nodes > 0 && r.depth >= 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, when the PV has one.
    pub ponder_move: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Tablebase probes that answered.
    pub tbhits: u64,
    /// Time spent.
    pub time: Duration,
}
