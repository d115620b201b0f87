//! The search: iterative deepening alpha-beta over [`shakmaty::Chess`], driven through one API.
//!
//! The UCI front end, the EPD runner, the bench and the tests all call
//! [`Searcher::search`]; none of them reaches into the search's internals. The search does no
//! I/O: progress leaves through a [`Reporter`].
//!
//! CONTRACT NOTE (skeleton): the types in this file are the boundary other modules build on.
//! Their names and fields may grow but should not change shape.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Move, Position};

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

/// A score as the user sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (positive: the side to move mates; negative: it is mated).
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (after an aspiration fail).
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
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, first move first.
    pub pv: Vec<Move>,
}

/// The move the root is searching now, for `info currmove ... currmovenumber ...`.
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
    /// Time spent.
    pub time: Duration,
}

/// Owns the transposition table and history tables; one per game (or per EPD job).
#[derive(Debug)]
pub struct Searcher {
    hash_mb: usize,
    multipv: usize,
    move_overhead: Duration,
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            hash_mb,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
        }
    }

    /// Resize (and clear) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    /// Number of principal variations to report (1 = normal play).
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Time reserved per move for GUI and transport delays.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// Forget everything learned (TT, histories): `ucinewgame` and `Clear Hash`.
    pub fn clear(&mut self) {}

    /// Search `pos`. `history` holds the Zobrist keys of the positions before `pos` in the game,
    /// oldest first (for repetition detection).
    ///
    /// SKELETON: returns the first legal move; the real search replaces this body.
    pub fn search(
        &mut self,
        pos: &Chess,
        history: &[Zobrist64],
        limits: &Limits,
        control: &SearchControl,
        reporter: &mut impl Reporter,
    ) -> SearchResult {
        let _ = (history, control, reporter);
        let moves = pos.legal_moves();
        let best = if limits.searchmoves.is_empty() {
            moves.first().copied()
        } else {
            moves
                .iter()
                .find(|m| limits.searchmoves.contains(m))
                .copied()
        };
        SearchResult {
            best_move: best,
            ponder_move: None,
            score: Score::Cp(0),
            depth: 1,
            seldepth: 1,
            pv: best.into_iter().collect(),
            nodes: 1,
            time: Duration::ZERO,
        }
    }
}
