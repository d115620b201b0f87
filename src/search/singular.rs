//! Singular extensions: when the TT move is much better than every alternative, it is searched
//! one ply deeper; when the alternatives hold too, the node is cut (multi-cut) or the TT move
//! searched one ply shallower.

use std::ops::ControlFlow;

use shakmaty::{Chess, Move};

use super::node::Node;
use super::stats::Rule;
use super::tt::{PackedMove, TtBound, TtHit};
use super::worker::Worker;
use crate::value::Value;

impl Worker<'_> {
    /// The extension of the move `m` of `node`, in plies (negative: a reduction): decided by a
    /// verification search for the TT move of a non-root node not in check (the check
    /// extension is not stacked with this one), zero for every other move. `Break` when the
    /// verification cuts the node (multi-cut), with the node's score.
    pub(super) fn extension(
        &mut self,
        pos: &Chess,
        node: &Node,
        m: Move,
    ) -> ControlFlow<Value, i32> {
        match node.hit {
            Some(tt)
                if !node.is_root()
                    && !node.in_check
                    && node.excluded.is_none()
                    && PackedMove::pack(m) == tt.mv =>
            {
                self.singular_extension(pos, node, m, tt)
            }
            _ => ControlFlow::Continue(0),
        }
    }

    /// Decide the extension of the TT move `m` (entry `tt`) of `node` by searching every other
    /// move to half depth against a bound just below the TT value.
    fn singular_extension(
        &mut self,
        pos: &Chess,
        node: &Node,
        m: Move,
        tt: TtHit,
    ) -> ControlFlow<Value, i32> {
        let (depth, ply, beta) = (node.depth, node.ply, node.beta);
        let p = &self.params;
        if depth < p.se_min_depth
            || tt.depth < depth - p.se_tt_depth_slack
            || tt.bound == TtBound::Upper
            || tt.value.is_mate()
        {
            return ControlFlow::Continue(0);
        }
        let (double_margin, double_max) = (p.se_double_margin, p.se_double_max);
        let singular_beta = Value(tt.value.0 - p.se_depth_margin * depth);
        self.frames.set_excluded(ply, Some(m));
        let v = self.negamax(
            pos,
            false,
            (depth - 1) / 2,
            ply,
            Value(singular_beta.0 - 1),
            singular_beta,
            node.cut_node,
        );
        self.frames.set_excluded(ply, None);
        self.stats.record(Rule::Singular, v < singular_beta);
        if v < singular_beta {
            // Far below: the TT move is the only move by a wide margin, one more ply (double
            // extension, not at PV nodes, a bounded number of times per line so the tree
            // cannot explode).
            let double = !node.pv_node
                && v.0 < singular_beta.0 - double_margin
                && i32::from(self.frames[ply].double_extensions) < double_max;
            self.stats.record(Rule::SingularDouble, double);
            ControlFlow::Continue(1 + i32::from(double))
        } else {
            // Multi-cut: the TT move and at least one other move both beat beta.
            let multi_cut = singular_beta >= beta;
            self.stats.record(Rule::MultiCut, multi_cut);
            if multi_cut {
                return ControlFlow::Break(singular_beta);
            }
            // Not singular, and the TT move is expected to fail high anyway: spend less on it.
            let negative = tt.value >= beta;
            self.stats.record(Rule::SingularNegative, negative);
            ControlFlow::Continue(-i32::from(negative))
        }
    }
}
