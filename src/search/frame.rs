//! The search's stack of frames: one [`Frame`] per ply of the current path, holding everything
//! the search keeps about that node (its key, the incremental evaluation sums, the move that led
//! to it, its static evaluation, its principal variation), as Stockfish's `Stack` does.
//!
//! Who writes what. A child's frame is written whole, and only, by [`FrameStack::make_move`] and
//! [`FrameStack::make_null_move`] (called by `Worker::make` and `Worker::make_null_move`, which
//! add the TT prefetch): its key, its material and piece-square sum, its correction keys, the
//! move that led to it and the double extensions on its path. What a node learns about itself
//! (its static evaluation, its principal variation, the move a singular verification skips) it
//! writes into its own frame through the named methods below. Outside this file a frame is only
//! read: the stack hands out `&Frame`, never `&mut Frame`.
//!
//! Why no guard and no unmake. Frames are indexed by ply, so making a move overwrites the frame
//! one ply down and leaves the parent's untouched: after the child search returns there is
//! nothing to undo, and the next sibling's move simply writes the same frame again. (The key
//! stack this replaces had to be popped after every child search, by hand, in four places.) A
//! guard that borrowed the worker to pop on drop would have had nothing to do, and would have
//! stood between every child search and the worker it needs.
//!
//! Not here: the killer moves. They live with the history tables (`Heuristics`) because they
//! outlive a search: the next search starts from the root's and the quiescence search's.

use std::ops::Index;

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use super::board::{child_key, null_move_key};
use super::correction::CorrectionKeys;
use crate::eval::Evaluator;
use crate::eval::score::S;
use crate::value::{MAX_PLY, Value};

/// Frames of the stack (and entries of the killer table): plies `0..MAX_PLY` plus room for the
/// child of the deepest node.
pub const STACK_PLIES: usize = MAX_PLY + 2;

/// A principal variation.
pub type Line = ArrayVec<Move, MAX_PLY>;

/// What the search keeps about one node of the current path.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Zobrist key, computed from the parent's.
    pub key: u64,
    /// Material and piece-square sum (White's view), kept up to date move by move.
    pub psqt: S,
    /// Correction-history keys, kept up to date move by move.
    pub corr_keys: CorrectionKeys,
    /// The move that led here (`None` at the root and after a null move).
    pub played: Option<Move>,
    /// Double extensions on the path to this node (bounded by `SE_DOUBLE_MAX`).
    pub double_extensions: u8,
    /// Static evaluation, corrected (`-INFINITE` in check); written by the node.
    pub static_eval: Value,
    /// Static evaluation before correction (what the TT stores); written by the node.
    pub raw_eval: Value,
    /// The move a singular verification search skips here (`None` normally).
    pub excluded: Option<Move>,
    /// The best line found from here (triangular PV table).
    pub pv: Line,
    /// Whether the node is or was on a principal variation (ttPv); written by the node.
    pub tt_pv: bool,
    /// The number of the move the node is searching now, among its moves considered (its
    /// children read it as their `parent_move`); written by the node.
    pub move_number: usize,
    /// Beta cutoffs of the move loops at this ply since the node two plies up started (its
    /// grandchildren's: it clears the count); the node one ply up reads it for its reductions.
    pub cutoffs: u32,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            key: 0,
            psqt: S::ZERO,
            corr_keys: CorrectionKeys::default(),
            played: None,
            double_extensions: 0,
            static_eval: Value::DRAW,
            raw_eval: Value::DRAW,
            excluded: None,
            pv: Line::new(),
            tt_pv: false,
            move_number: 0,
            cutoffs: 0,
        }
    }
}

/// The frames of the current path, the root's first, and the keys of the game before the root
/// (for repetitions).
#[derive(Debug)]
pub struct FrameStack {
    /// Zobrist keys of the positions before the root, oldest first.
    game: Vec<u64>,
    frames: Vec<Frame>,
}

impl Index<usize> for FrameStack {
    type Output = Frame;

    #[inline]
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }
}

impl FrameStack {
    /// The stack of a search of `root`: `keys` are the game's keys, the root's last.
    #[must_use]
    pub fn new(mut keys: Vec<u64>, root: &Chess, eval: &Evaluator) -> FrameStack {
        let key = keys.pop().unwrap_or(0);
        let mut frames = vec![Frame::default(); STACK_PLIES];
        frames[0].key = key;
        frames[0].psqt = eval.material_psqt(root.board());
        frames[0].corr_keys = CorrectionKeys::new(root.board());
        FrameStack { game: keys, frames }
    }

    /// Play `m` in `pos` (the node at `ply`): the child position, and its frame written (key,
    /// sums, the move, one more double extension if `double_extension`).
    #[inline]
    pub fn make_move(
        &mut self,
        eval: &Evaluator,
        pos: &Chess,
        m: Move,
        ply: usize,
        double_extension: bool,
    ) -> Chess {
        let (parent, child_frame) = self.pair(ply);
        child_frame.psqt = eval.material_psqt_after(pos, m, parent.psqt);
        child_frame.corr_keys = parent.corr_keys.after(pos.turn(), m);
        let mut child = pos.clone();
        child.play_unchecked(m);
        child_frame.key = child_key(pos, parent.key, m, &child);
        child_frame.played = Some(m);
        child_frame.double_extensions = parent.double_extensions + u8::from(double_extension);
        child
    }

    /// Pass in `pos` (the node at `ply`): the child's frame written (the key with the side to
    /// move flipped, the same sums, no move). The caller makes the child position.
    #[inline]
    pub fn make_null_move(&mut self, pos: &Chess, ply: usize) {
        let (parent, child_frame) = self.pair(ply);
        child_frame.key = null_move_key(pos, parent.key);
        child_frame.played = None;
        child_frame.psqt = parent.psqt;
        child_frame.corr_keys = parent.corr_keys;
        child_frame.double_extensions = parent.double_extensions;
    }

    /// The frame at `ply` to read and the one below it to write.
    #[inline]
    fn pair(&mut self, ply: usize) -> (&Frame, &mut Frame) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        (&head[ply], &mut tail[0])
    }

    /// The node at `ply` records its static evaluations.
    #[inline]
    pub fn set_static_evals(&mut self, ply: usize, raw: Value, corrected: Value) {
        let frame = &mut self.frames[ply];
        frame.raw_eval = raw;
        frame.static_eval = corrected;
    }

    /// The node at `ply` skips `m` (a singular verification search), or no move again.
    #[inline]
    pub fn set_excluded(&mut self, ply: usize, m: Option<Move>) {
        self.frames[ply].excluded = m;
    }

    /// The node at `ply` is or was on a principal variation (`tt_pv`), or not.
    #[inline]
    pub fn set_tt_pv(&mut self, ply: usize, tt_pv: bool) {
        self.frames[ply].tt_pv = tt_pv;
    }

    /// The node at `ply` searches its `number`-th move now.
    #[inline]
    pub fn set_move_number(&mut self, ply: usize, number: usize) {
        self.frames[ply].move_number = number;
    }

    /// The move loop of the node at `ply` cut off.
    #[inline]
    pub fn count_cutoff(&mut self, ply: usize) {
        self.frames[ply].cutoffs += 1;
    }

    /// The node at `ply` starts: the cutoff count of the ply two below starts from zero (as the
    /// killers of the ply below start fresh: what the nodes there do is this node's subtree).
    #[inline]
    pub fn clear_grandchild_cutoffs(&mut self, ply: usize) {
        if let Some(frame) = self.frames.get_mut(ply + 2) {
            frame.cutoffs = 0;
        }
    }

    /// The node at `ply` starts with no principal variation.
    #[inline]
    pub fn clear_pv(&mut self, ply: usize) {
        self.frames[ply].pv.clear();
    }

    /// The node at `ply` found `m` best: its line becomes `m` followed by the child's line.
    pub fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let line = &mut head[ply].pv;
        line.clear();
        line.push(m);
        for &child in &tail[0].pv {
            if line.try_push(child).is_err() {
                break;
            }
        }
    }

    /// Whether the node at `ply` repeats a position since the last irreversible move
    /// (`halfmoves` ago), on the path or in the game.
    pub fn repeats(&self, ply: usize, halfmoves: usize) -> bool {
        let current = self.frames[ply].key;
        // Four plies back is the nearest possible repetition; then every second ply.
        let mut back = 4;
        while back <= halfmoves && back <= ply {
            if self.frames[ply - back].key == current {
                return true;
            }
            back += 2;
        }
        let known = self.game.len() + ply + 1;
        while back <= halfmoves && back < known {
            if self.game[known - 1 - back] == current {
                return true;
            }
            back += 2;
        }
        false
    }
}
