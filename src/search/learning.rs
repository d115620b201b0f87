//! What the main search's nodes teach the move-ordering tables (`history.rs`): a cut move's
//! bonus and the malus of the moves tried before it, and what a node's result says of the
//! opponent's move that led to it.

use shakmaty::{Bitboard, Chess, Color, Move, Position};

use super::board::is_tactical;
use super::history::{Heuristics, Prior};
use super::node::Node;
use super::worker::Worker;
use crate::value::Value;

impl Worker<'_> {
    /// Learn from a beta cutoff by `m` at `node`: a quiet cut move gets a history bonus and
    /// the quiets tried before it a malus, and becomes a killer and the counter-move; a
    /// tactical cut move gets a capture-history bonus; the tactical moves tried before it,
    /// which did not cut, a malus either way.
    pub(super) fn reward_cutoff(
        &mut self,
        node: &Node,
        turn: Color,
        (prior, attacked): (Prior, Bitboard),
        m: Move,
        quiets: &[Move],
        tacticals: &[Move],
    ) {
        let bonus = Heuristics::bonus(&self.params, node.depth);
        if is_tactical(m) {
            self.heur.update_capture(turn, m, bonus);
        } else {
            self.heur.update_history(turn, prior, attacked, m, bonus);
            for &q in quiets {
                self.heur.update_history(turn, prior, attacked, q, -bonus);
            }
            let played = self.frames[node.ply].played;
            self.heur.store_cutoff(turn, node.ply, m, played);
        }
        for &t in tacticals {
            self.heur.update_capture(turn, t, -bonus);
        }
    }

    /// Step 9: what the node's result says of the opponent's quiet move that led to it
    /// (`prior_fail_low_bonus`, `prior_refuted_malus`): a node where every move fails low
    /// (`failed_low`: none beat alpha) says that move was good, a cut (`best` ≥ beta) against it
    /// when it was the parent's first move that the parent ordered it wrongly. Only its continuation entries learn: the lesson is
    /// about the line, and the butterfly table learns at the parent when it cuts.
    pub(super) fn judge_prior_move(
        &mut self,
        pos: &Chess,
        node: &Node,
        best: Value,
        failed_low: bool,
    ) {
        let p = &self.params;
        if p.prior_fail_low_bonus == 0 && p.prior_refuted_malus == 0 {
            return;
        }
        if node.ply == 0 || node.excluded.is_some() {
            return;
        }
        let Some(prev) = self.frames[node.ply].played.filter(|&m| !is_tactical(m)) else {
            return;
        };
        let bonus = Heuristics::bonus(p, node.depth);
        let learned = if failed_low {
            bonus * p.prior_fail_low_bonus
        } else if best >= node.beta && p.prior_refuted_malus > 0 && node.parent_move == 1 {
            -bonus
        } else {
            return;
        };
        if learned != 0 {
            // The parent's side moved `prev`; the parent's own prior is the line before it.
            self.heur
                .update_continuations(!pos.turn(), self.prior(node.ply - 1), prev, learned);
        }
    }
}
