//! ProbCut: at a node far enough from the leaves, a capture that beats beta by a clear margin in
//! a much shallower search almost always beats beta in the full one too, so the node is cut
//! without searching it to full depth.

use shakmaty::{Chess, Position};

use super::board::CheckInfo;
use super::movepick::{MovePicker, PickerKind, see};
use super::node::Node;
use super::stats::Rule;
use super::tt::{PackedMove, TtBound};
use super::worker::Worker;
use crate::value::Value;

impl Worker<'_> {
    /// Try to cut a non-PV `node` not in check: each tactical move whose exchange alone could
    /// lift the corrected static eval to `beta + probcut_margin` is checked by quiescence, and
    /// if that holds, by a search `probcut_depth_reduction` plies shallower against the raised
    /// bound. The first to hold it cuts the node (and is stored in the TT); `None` when none
    /// does.
    pub(super) fn probcut(&mut self, pos: &Chess, node: &Node) -> Option<Value> {
        let (depth, ply, beta, hit) = (node.depth, node.ply, node.beta, node.hit);
        let (margin, reduction) = (
            self.params.probcut_margin,
            self.params.probcut_depth_reduction,
        );
        let raised = Value(beta.0 + margin);
        if depth < self.params.probcut_min_depth || beta.0.abs() >= Value::TB_WIN_BOUND.0 {
            return None;
        }
        // A TT entry nearly as deep that says the node stays below the raised bound: no cut.
        if let Some(h) = hit
            && h.depth > depth - reduction
            && h.value < raised
        {
            return None;
        }
        self.stats.tried(Rule::ProbCut);
        let mut picker = MovePicker::new(
            pos,
            PickerKind::Tacticals,
            node.tt_move(),
            self.heur,
            ply,
            [None; 3],
        );
        // The exchange must make up the distance from the static eval to the raised bound.
        let needed = raised.0 - node.eval.corrected.0;
        while let Some(picked) = picker.next(pos, self.heur, &CheckInfo::NONE) {
            let m = picked.mv;
            // (`picked.see` may be only a lower bound: the exchange is run when it falls short.)
            if picked.see < needed && see(pos, m) < needed {
                continue;
            }
            let child = self.make(pos, m, ply, false);
            let in_check = child.is_check();
            let mut v = -self.qsearch(&child, in_check, ply + 1, 0, -raised, Value(-raised.0 + 1));
            if v >= raised {
                v = -self.negamax(
                    &child,
                    in_check,
                    depth - reduction,
                    ply + 1,
                    -raised,
                    Value(-raised.0 + 1),
                    !node.cut_node,
                );
            }
            if self.stopped {
                return Some(Value::DRAW);
            }
            if v >= raised {
                let stored = depth - reduction + 1;
                let (key, raw, mv) = (node.key, node.eval.raw, PackedMove::pack(m));
                self.tt
                    .store(key, mv, v, raw, stored, TtBound::Lower, ply, node.tt_pv);
                self.stats.fired(Rule::ProbCut);
                return Some(v);
            }
        }
        None
    }
}
