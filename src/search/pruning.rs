//! Pruning decided from the static evaluation: of a whole node before its moves (reverse
//! futility, null move, ProbCut) and of one move before it is played (late move,
//! futility, history and SEE pruning).

use shakmaty::{Chess, Position, Role};

use super::movepick::{MovePicker, see};
use super::node::{Candidate, Node};
use super::reductions::late_move_reduction;
use super::see::role_value;
use super::stats::Rule;
use super::worker::Worker;
use crate::value::Value;

impl Worker<'_> {
    /// Whole-node pruning of a non-PV `node` not in check, before its moves: `Some(score)`
    /// ends the node.
    pub(super) fn prune_node(&mut self, pos: &Chess, node: &Node) -> Option<Value> {
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let (static_eval, eval) = (node.eval.corrected, node.eval.refined);
        // Reverse futility pruning: far above beta at low depth, assume it holds.
        let pv_spared = self.params.rfp_skip_tt_pv > 0 && node.tt_pv;
        if depth <= self.params.rfp_depth && !beta.is_mate() && !pv_spared {
            self.stats.tried(Rule::ReverseFutility);
            if static_eval.0 - self.params.rfp_margin * (depth - i32::from(node.eval.improving))
                >= beta.0
            {
                self.stats.fired(Rule::ReverseFutility);
                return Some(static_eval);
            }
        }
        // Null-move pruning, not in zugzwang-prone positions (no pieces besides pawns).
        if depth >= self.params.nmp_min_depth
            && eval >= beta
            && !beta.is_mate()
            && self.frames[ply].played.is_some()
            && has_non_pawn_material(pos)
            && let Some(child) = self.make_null_move(pos, ply)
        {
            self.stats.tried(Rule::NullMove);
            let r = self.params.nmp_base_reduction
                + depth / self.params.nmp_depth_divisor
                + ((eval.0 - beta.0) / self.params.nmp_eval_divisor).min(self.params.nmp_eval_max);
            let v = -self.negamax(
                &child,
                false,
                (depth - r).max(self.params.nmp_min_null_depth),
                ply + 1,
                -beta,
                -beta + 1,
                !node.cut_node,
            );
            if self.stopped {
                return Some(Value::DRAW);
            }
            if v >= beta {
                self.stats.fired(Rule::NullMove);
                return Some(if v.is_mate() { beta } else { v });
            }
        }
        // ProbCut (`probcut.rs`): a capture that clears beta by a margin in a shallow search.
        self.probcut(pos, node)
    }

    /// Late move pruning, futility pruning, history pruning and SEE pruning of the move `mv`
    /// of a `node` that may prune (the caller has excluded checks and winning forks), decided
    /// before the move is played, with `alpha` and `moves_seen` moves before it (searched or
    /// pruned, of every kind).
    /// `lmr_depth` is the depth the move's late move reduction would leave it (the node's depth
    /// minus one minus that reduction, at least zero): futility, history and SEE pruning of
    /// quiet moves judge a late move by the depth it would be searched to, so they reach every
    /// depth and grow stricter with the move number, as the reduction does.
    /// `Some(true)` when the rule that pruned it prunes every later quiet move too.
    /// Whether the move loop skips `mv` (pruning of hopeless moves, once a move that avoids
    /// mate is known: `(alpha, best)` of the loop, `(searched, seen)` its moves searched and
    /// considered before this one). Checking moves are never pruned by default: mating attacks
    /// often begin with a quiet check; nor are winning knight forks, nor any move against a bare
    /// king (a mating net is a long line of quiet moves that futility and move counts would
    /// cut: KBBK then took 1.31× the tables' optimum, without them 1.23×). When late move or
    /// futility pruning has fired, the picker hands out only quiet checks from then on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn skip_move(
        &mut self,
        pos: &Chess,
        node: &Node,
        mv: &Candidate,
        picker: &mut MovePicker,
        (alpha, best): (Value, Value),
        (searched, seen): (usize, usize),
        tt_tactical: bool,
    ) -> bool {
        let picked = &mv.picked;
        let may_prune = !node.is_root() && best.0 > -Value::MATE_BOUND.0 && !node.in_check;
        if !may_prune {
            return false;
        }
        // A check that loses material by more than the margin per ply is no attack.
        if mv.gives_check
            && self.params.check_see_margin > 0
            && !picked.fork
            && !node.bare_king
            && self.losing_check(pos, mv, node.depth)
        {
            return true;
        }
        self.stats
            .record(Rule::CheckExempt, mv.gives_check || picked.fork);
        let exempt_check = mv.gives_check && !(mv.quiet && self.params.prune_quiet_checks > 0);
        if exempt_check || picked.fork || node.bare_king {
            return false;
        }
        let r = late_move_reduction(
            self.lmr,
            &self.params,
            node,
            mv,
            searched + 1,
            node.depth - 1,
            tt_tactical,
        );
        let lmr_depth = (node.depth - 1 - r).max(0);
        match self.futile(pos, node, mv, alpha, seen - 1, lmr_depth) {
            Some(all_quiets) => {
                if all_quiets {
                    picker.quiet_checks_only();
                }
                true
            }
            None => false,
        }
    }

    /// Whether a checking move loses more than `check_see_margin` per ply of `depth` by SEE
    /// (a capture's SEE is known from move ordering; a quiet check's is computed here).
    pub(super) fn losing_check(&self, pos: &Chess, mv: &Candidate, depth: i32) -> bool {
        let threshold = -self.params.check_see_margin * depth.max(1);
        let value = if mv.quiet {
            if role_value(mv.picked.mv.role()) <= -threshold {
                return false;
            }
            see(pos, mv.picked.mv)
        } else {
            mv.picked.see
        };
        value < threshold
    }

    pub(super) fn futile(
        &mut self,
        pos: &Chess,
        node: &Node,
        mv: &Candidate,
        alpha: Value,
        moves_seen: usize,
        lmr_depth: i32,
    ) -> Option<bool> {
        let (picked, quiet, history) = (&mv.picked, mv.quiet, mv.history);
        let (depth, improving, eval) = (node.depth, node.eval.improving, node.eval.refined);
        if quiet && depth <= self.params.lmp_depth {
            self.stats.tried(Rule::LateMove);
            let limit = (self.params.lmp_base + depth * depth) / if improving { 1 } else { 2 };
            if moves_seen as i32 >= limit {
                self.stats.fired(Rule::LateMove);
                return Some(true);
            }
        }
        // Futility: this quiet move cannot lift the eval to alpha at the depth it would be
        // searched to; a move with a good history gets a wider margin.
        if quiet && lmr_depth <= self.params.futility_depth {
            self.stats.tried(Rule::Futility);
            let margin = self.params.futility_base
                + self.params.futility_margin * lmr_depth
                + history / self.params.futility_history_divisor;
            if eval.0 + margin <= alpha.0 {
                self.stats.fired(Rule::Futility);
                return Some(false);
            }
        }
        // History pruning: a quiet move that has failed again and again after this line of
        // play (killers and the counter-move excepted) is skipped near the leaves.
        if quiet && !picked.refutation && lmr_depth <= self.params.history_prune_depth {
            self.stats.tried(Rule::History);
            if history < -self.params.history_prune_margin * depth {
                self.stats.fired(Rule::History);
                return Some(false);
            }
        }
        let see_depth = if quiet { lmr_depth } else { depth };
        if see_depth <= self.params.see_prune_depth {
            let threshold = if quiet {
                -self.params.see_quiet_margin * lmr_depth
            } else {
                -self.params.see_capture_margin * depth * depth
            };
            let below = if quiet {
                // A quiet move that promotes nothing loses at most the piece it moves: when that
                // piece is worth no more than the margin, the exchange cannot fall below it.
                let bounded =
                    picked.mv.promotion().is_none() && role_value(picked.mv.role()) <= -threshold;
                !bounded && see(pos, picked.mv) < threshold
            } else {
                picked.see < threshold
            };
            let rule = if quiet {
                Rule::SeeQuiet
            } else {
                Rule::SeeCapture
            };
            self.stats.record(rule, below);
            if below {
                return Some(false);
            }
        }
        None
    }
}

/// Zugzwang guard for null-move pruning: whether the side to move has a rook or queen, or
/// at least two minor pieces. With only king, pawns and one minor piece, zugzwang (where
/// passing would help) is too common to trust a null move.
#[must_use]
pub fn has_non_pawn_material(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    let heavy = ours & (board.by_role(Role::Rook) | board.by_role(Role::Queen));
    let minors = ours & (board.by_role(Role::Knight) | board.by_role(Role::Bishop));
    heavy.any() || minors.more_than_one()
}
