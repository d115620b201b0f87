//! What a node of the main search knows once its TT entry and its static evaluation are in
//! ([`Node`]), and what its move loop knows about one move before playing it ([`Candidate`]):
//! the context the node's steps (pruning, extensions, reductions) decide from, passed by
//! reference instead of as a dozen arguments.
//!
//! A `Node` lives on the Rust stack of `negamax` for the node's whole search; what other plies
//! must read of it (its static evaluation, its key, the move that led to it) is in its
//! [`Frame`](super::frame::Frame) instead.

use shakmaty::Move;

use super::movepick::Picked;
use super::tt::{PackedMove, TtHit};
use crate::value::Value;

/// The static evaluation of a node, in its three forms.
#[derive(Clone, Copy, Debug)]
pub struct NodeEval {
    /// Before correction: what the TT stores (`-INFINITE` in check).
    pub raw: Value,
    /// Corrected by the correction history (`-INFINITE` in check): the reverse futility and
    /// ProbCut margins start from it.
    pub corrected: Value,
    /// `corrected`, or the TT score when its bound says that is the better estimate: null-move
    /// and futility pruning start from it.
    pub refined: Value,
    /// Whether `corrected` beats the side's static evaluation two plies ago (never in check).
    pub improving: bool,
}

/// A node of the main search, once probed and evaluated.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Distance from the root.
    pub ply: usize,
    /// Remaining depth (the check extension added; internal iterative reduction lowers it
    /// before the moves).
    pub depth: i32,
    /// The upper bound of the window (after mate distance pruning).
    pub beta: Value,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Whether the window is open (a principal-variation node).
    pub pv_node: bool,
    /// Whether the node is expected to fail high (see `negamax`).
    pub cut_node: bool,
    /// The move a singular verification search skips here.
    pub excluded: Option<Move>,
    /// The position's Zobrist key.
    pub key: u64,
    /// The transposition table's entry.
    pub hit: Option<TtHit>,
    /// The static evaluation.
    pub eval: NodeEval,
    /// Whether one side has nothing but its king: a mating endgame, whose winning line is all
    /// quiet moves: none is pruned, and each is reduced `lmr_bare_king_relief` plies less.
    pub bare_king: bool,
}

impl Node {
    /// Whether this is the root.
    #[inline]
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.ply == 0
    }

    /// The TT entry's move (none without an entry).
    #[inline]
    #[must_use]
    pub fn tt_move(&self) -> PackedMove {
        self.hit.map_or(PackedMove::NONE, |h| h.mv)
    }
}

/// One move of a node, as the move loop judges it before playing it.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The move and what the picker knows of it (exchange value, killer, fork).
    pub picked: Picked,
    /// Neither a capture nor a promotion.
    pub quiet: bool,
    /// Whether it gives check.
    pub gives_check: bool,
    /// Its history score (quiet history, or capture history for a tactical move).
    pub history: i32,
}
