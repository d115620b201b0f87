//! ProbCut: at a node far enough from the leaves, a capture that beats beta by a clear margin in
//! a much shallower search almost always beats beta in the full one too, so the node is cut
//! without searching it to full depth.

use shakmaty::{Chess, Position};

use super::board::CheckInfo;
use super::movepick::{MovePicker, PickerKind, see};
use super::params::{PROBCUT_DEPTH_REDUCTION, PROBCUT_MARGIN, PROBCUT_MIN_DEPTH};
use super::tt::{PackedMove, TtBound, TtHit};
use super::worker::Worker;
use crate::value::Value;

impl Worker<'_> {
    /// Try to cut a non-PV node not in check (`depth`, `beta`, static eval `static_eval`, TT
    /// entry `hit`, `cut_node` as in `negamax`): each tactical move whose exchange alone could lift the static eval to
    /// `beta + PROBCUT_MARGIN` is checked by quiescence, and if that holds, by a search
    /// `PROBCUT_DEPTH_REDUCTION` plies shallower against the raised bound. The first to hold it
    /// cuts the node (and is stored in the TT); `None` when none does.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        beta: Value,
        static_eval: Value,
        hit: Option<TtHit>,
        cut_node: bool,
    ) -> Option<Value> {
        let raised = Value(beta.0 + PROBCUT_MARGIN);
        if depth < PROBCUT_MIN_DEPTH || beta.0.abs() >= Value::TB_WIN_BOUND.0 {
            return None;
        }
        // A TT entry nearly as deep that says the node stays below the raised bound: no cut.
        if let Some(h) = hit
            && h.depth > depth - PROBCUT_DEPTH_REDUCTION
            && h.value < raised
        {
            return None;
        }
        let key = self.frames[ply].key;
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        let mut picker = MovePicker::new(
            pos,
            PickerKind::Tacticals,
            tt_move,
            self.heur,
            ply,
            [None; 2],
        );
        // The exchange must make up the distance from the static eval to the raised bound.
        let needed = raised.0 - static_eval.0;
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
                    depth - PROBCUT_DEPTH_REDUCTION,
                    ply + 1,
                    -raised,
                    Value(-raised.0 + 1),
                    !cut_node,
                );
            }
            if self.stopped {
                return Some(Value::DRAW);
            }
            if v >= raised {
                let stored = depth - PROBCUT_DEPTH_REDUCTION + 1;
                let raw = self.frames[ply].raw_eval;
                let mv = PackedMove::pack(m);
                self.tt.store(key, mv, v, raw, stored, TtBound::Lower, ply);
                return Some(v);
            }
        }
        None
    }
}
