//! The static evaluation of a node of the main search: raw (the TT's stored eval, the parent's
//! after a null move, or the evaluation), corrected by what the search has learned about
//! similar positions (`correction.rs`), refined by the TT score; whether it is improving; and,
//! once the node is searched, what its score teaches the correction history.

use shakmaty::{Chess, Position};

use super::correction::Correction;
use super::node::{Node, NodeEval};
use super::tt::{NO_EVAL, TtBound, TtHit};
use super::worker::Worker;
use crate::value::Value;

impl Worker<'_> {
    /// The static evaluation of the node `pos` at `ply` with TT entry `hit`, recorded in its
    /// frame (for its grandchildren's *improving* and its children's null-move shortcut).
    pub(super) fn evaluate_node(
        &mut self,
        pos: &Chess,
        ply: usize,
        hit: Option<TtHit>,
        in_check: bool,
    ) -> NodeEval {
        let (raw, corrected) = self.static_evals(pos, ply, hit, in_check);
        // The TT score is a better estimate than the static eval when its bound allows.
        let refined = match hit {
            Some(h)
                if !in_check
                    && !h.value.is_mate()
                    && match h.bound {
                        TtBound::Exact => true,
                        TtBound::Lower => h.value > corrected,
                        TtBound::Upper => h.value < corrected,
                    } =>
            {
                h.value
            }
            _ => corrected,
        };
        self.frames.set_static_evals(ply, raw, corrected);
        let improving = !in_check && ply >= 2 && corrected > self.frames[ply - 2].static_eval;
        NodeEval {
            raw,
            corrected,
            refined,
            improving,
        }
    }

    /// The raw and the corrected static eval of the node `pos` at `ply` (both `-INFINITE` in
    /// check): the TT's stored eval on a hit that has one, after a null move the parent's with the tempo
    /// handed over, else the evaluation.
    fn static_evals(
        &mut self,
        pos: &Chess,
        ply: usize,
        hit: Option<TtHit>,
        in_check: bool,
    ) -> (Value, Value) {
        if in_check {
            return (-Value::INFINITE, -Value::INFINITE);
        }
        let raw = if let Some(h) = hit
            && h.eval != NO_EVAL
        {
            h.eval
        } else if ply > 0
            && self.frames[ply].played.is_none()
            && let Some(v) = self
                .eval
                .after_null_move(pos.board(), self.frames[ply - 1].raw_eval)
        {
            v
        } else {
            self.eval.evaluate_cached(
                pos.board(),
                pos.turn(),
                self.frames[ply].psqt,
                self.pawn_king,
            )
        };
        let corrected =
            self.heur
                .correction
                .corrected(pos.turn(), &self.frames[ply].corr_keys, raw);
        let corrected = Correction::grained(corrected, self.params.eval_grain);
        (raw, corrected)
    }

    /// Learn from the searched `node` (not in check, not a singular verification) whose score
    /// `best` is a `bound`: when its best move is quiet (or none) and the score says the
    /// corrected static eval was wrong in that direction, the correction tables move towards
    /// the score.
    pub(super) fn learn_correction(
        &mut self,
        pos: &Chess,
        node: &Node,
        best: Value,
        bound: TtBound,
        best_is_quiet: bool,
    ) {
        let wrong_way = match bound {
            TtBound::Lower => best <= node.eval.corrected,
            TtBound::Upper => best >= node.eval.corrected,
            TtBound::Exact => false,
        };
        if !best_is_quiet || wrong_way || best.0.abs() >= Value::TB_WIN_BOUND.0 {
            return;
        }
        self.heur.correction.update(
            pos.turn(),
            &self.frames[node.ply].corr_keys,
            node.depth,
            node.eval.raw,
            best,
        );
    }
}
