//! Singular extensions: when the TT move is much better than every alternative, it is searched
//! one ply deeper; when the alternatives hold too, the node is cut (multi-cut) or the TT move
//! searched one ply shallower.

use shakmaty::{Chess, Move};

use super::params::{
    SE_DEPTH_MARGIN, SE_DOUBLE_MARGIN, SE_DOUBLE_MAX, SE_MIN_DEPTH, SE_TT_DEPTH_SLACK,
};
use super::tt::{TtBound, TtHit};
use super::worker::Worker;
use crate::value::Value;

/// What the verification search says about the TT move.
pub(super) enum Singular {
    /// Search the TT move this many plies deeper (negative: shallower).
    Extend(i32),
    /// Every alternative already beats beta: return this value from the node.
    Cut(Value),
}

impl Worker<'_> {
    /// Decide the extension of the TT move `m` (entry `tt`) at a non-root node of `depth`, not in
    /// check, by searching every other move to half depth against a bound just below the TT
    /// value.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular_extension(
        &mut self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        beta: Value,
        m: Move,
        tt: TtHit,
        pv_node: bool,
        cut_node: bool,
    ) -> Singular {
        if depth < SE_MIN_DEPTH
            || tt.depth < depth - SE_TT_DEPTH_SLACK
            || tt.bound == TtBound::Upper
            || tt.value.is_mate()
        {
            return Singular::Extend(0);
        }
        let singular_beta = Value(tt.value.0 - SE_DEPTH_MARGIN * depth);
        self.frames.set_excluded(ply, Some(m));
        // Never called in check (the check extension is not stacked with this one).
        let v = self.negamax(
            pos,
            false,
            (depth - 1) / 2,
            ply,
            Value(singular_beta.0 - 1),
            singular_beta,
            cut_node,
        );
        self.frames.set_excluded(ply, None);
        if v < singular_beta {
            // Far below: the TT move is the only move by a wide margin, one more ply (double
            // extension, not at PV nodes, a bounded number of times per line so the tree
            // cannot explode).
            let double = !pv_node
                && v.0 < singular_beta.0 - SE_DOUBLE_MARGIN
                && i32::from(self.frames[ply].double_extensions) < SE_DOUBLE_MAX;
            Singular::Extend(1 + i32::from(double))
        } else if singular_beta >= beta {
            // Multi-cut: the TT move and at least one other move both beat beta.
            Singular::Cut(singular_beta)
        } else if tt.value >= beta {
            // Not singular, and the TT move is expected to fail high anyway: spend less on it.
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}
