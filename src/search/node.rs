//! What a node of the main search knows once its TT entry and its static evaluation are in
//! ([`Node`]), and what its move loop knows about one move before playing it ([`Candidate`]):
//! the context the node's steps (pruning, extensions, reductions) decide from, passed by
//! reference instead of as a dozen arguments; and what only the root needs ([`RootContext`]),
//! passed into the root's search by the iteration that owns it.
//!
//! A `Node` lives on the Rust stack of `negamax` for the node's whole search; what other plies
//! must read of it (its static evaluation, its key, the move that led to it) is in its
//! [`Frame`](super::frame::Frame) instead.

use shakmaty::{Chess, Move};

use super::board::unpack_candidate;
use super::movepick::{Picked, PickerKind};
use super::time::RootNodes;
use super::tt::{PackedMove, TtBound, TtHit};
use crate::value::Value;

/// What only the root (ply 0) needs: written by the iteration that searches it
/// (`iteration.rs`), handed to [`Worker::search_root`](super::worker::Worker::search_root) and
/// read by the root's move loop; no other node sees it.
#[derive(Debug, Default)]
pub struct RootContext {
    /// The root moves to search in this pass (`searchmoves`, the tablebases' filter, minus the
    /// lines already found by earlier MultiPV passes).
    pub moves: Vec<Move>,
    /// Whether the root may be written to the TT (not when its moves are restricted, nor in a
    /// later MultiPV pass).
    pub store: bool,
    /// The iteration's depth, for current-move reports.
    pub depth: i32,
    /// Nodes under each root move in this iteration, for time management (the moves' share).
    pub nodes: RootNodes,
}

impl RootContext {
    /// The context of an iteration at `depth`, before its first pass: no moves yet, nothing
    /// counted.
    #[must_use]
    pub fn new(depth: i32) -> RootContext {
        RootContext {
            depth,
            ..RootContext::default()
        }
    }
}

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
    /// Whether the node is or was on a principal variation: a PV node, or its TT entry's ttPv
    /// bit (a verification search keeps the node's own). Reduced and pruned less.
    pub tt_pv: bool,
    /// The number of the move that led here among its parent's moves considered (0 at the
    /// root): a late one means the opponent had to look far for it.
    pub parent_move: usize,
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

    /// Whether a PV node is likely to fail low: its TT entry, at least as deep as the node, holds
    /// an upper or an exact bound with a move (Stockfish 15.1's `likelyFailLow`). Such a node is
    /// not reduced less for being on the PV.
    #[inline]
    #[must_use]
    pub fn likely_fail_low(&self) -> bool {
        self.pv_node
            && self.hit.is_some_and(|h| {
                !h.mv.is_none() && h.bound != TtBound::Lower && h.depth >= self.depth
            })
    }

    /// Whether the TT move is a legal capture or promotion in `pos` (this node's position).
    #[inline]
    #[must_use]
    pub fn tt_move_is_tactical(&self, pos: &Chess) -> bool {
        unpack_candidate(pos, self.tt_move()).is_some_and(|m| m.is_capture() || m.is_promotion())
    }

    /// The moves this node's picker hands out: the evasions in check, else all moves (quiet
    /// knight forks of king, queens and rooks that keep their gain among the first: ordered
    /// early, never reduced or pruned).
    #[inline]
    #[must_use]
    pub fn picker_kind(&self) -> PickerKind {
        if self.in_check {
            PickerKind::Evasions
        } else {
            PickerKind::All
        }
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
    /// Beta cutoffs of the move loops one ply down so far (this node's children, and its
    /// siblings' since the parent started): many say this node will likely fail low.
    pub child_cutoffs: u32,
    /// A quiet move taking a piece attacked by a lesser enemy piece to a square no such piece
    /// attacks (known only while `threat_escape_bonus` is on).
    pub escape: bool,
    /// A quiet move that leaves a piece attacked by a lesser enemy piece where it is: neither
    /// its escape nor a check (known only while `threat_escape_bonus` is on).
    pub ignores_threat: bool,
}
