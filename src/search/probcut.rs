//! ProbCut: at a non-PV node, a good capture whose shallow search already beats beta by a wide
//! margin very likely means the full-depth search fails high too, so the node is cut on the
//! shallow evidence.
//!
//! The check is cheap to refute: only captures and queen promotions whose static exchange alone
//! could reach the raised bound are tried, each first with a quiescence search (a null window at
//! the raised bound) and only if that holds with a reduced-depth search.

use shakmaty::Chess;

use super::alphabeta::Worker;
use super::board::CheckInfo;
use super::movepick::{MovePicker, PickerKind, see};
use super::params::{
    PROBCUT_IMPROVING_MARGIN, PROBCUT_MARGIN, PROBCUT_MIN_DEPTH, PROBCUT_REDUCTION,
    PROBCUT_TT_DEPTH,
};
use super::tt::{PackedMove, TtBound, TtHit};
use crate::value::Value;

/// The raised bound ProbCut must beat at a node of remaining `depth` whose window's upper
/// bound is `beta`, or `None` when ProbCut is not worth trying there: too shallow for the
/// reduced search to save anything, a mate-score window (a margin on a mate distance means
/// nothing), or a TT entry from a search nearly as deep as the verification that already scored
/// the node below the raised bound (the captures would most likely fail to reach it again).
/// When the static eval is improving the margin is smaller: a cut is more likely to be right.
#[must_use]
pub(super) fn probcut_beta(
    depth: i32,
    beta: Value,
    improving: bool,
    tt: Option<&TtHit>,
) -> Option<Value> {
    if depth < PROBCUT_MIN_DEPTH || beta.is_mate() {
        return None;
    }
    let margin = PROBCUT_MARGIN
        - if improving {
            PROBCUT_IMPROVING_MARGIN
        } else {
            0
        };
    let rbeta = Value(beta.0 + margin);
    if rbeta.is_mate() {
        return None;
    }
    if let Some(h) = tt
        && h.depth >= depth - PROBCUT_TT_DEPTH
        && h.value < rbeta
    {
        return None;
    }
    Some(rbeta)
}

impl Worker<'_> {
    /// ProbCut at a node of `pos` (not in check, not a PV node, not the root: the caller checks)
    /// with remaining `depth`, window upper bound `beta` and static eval `static_eval`: `Some`
    /// value to return from the node when a good capture beats `beta` by a margin at reduced
    /// depth (also stored in the TT as a lower bound with that capture), `None` to search the
    /// node normally. `hit` is the node's TT entry.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        beta: Value,
        static_eval: Value,
        improving: bool,
        hit: Option<&TtHit>,
    ) -> Option<Value> {
        let rbeta = probcut_beta(depth, beta, improving, hit)?;
        // What a capture must win by exchange alone to lift the static eval to the raised bound.
        let needed = rbeta.0 - static_eval.0;
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        // Computed only once a capture passes the exchange test: most nodes have none.
        let mut checks: Option<CheckInfo> = None;
        // Captures and queen promotions that do not lose material, best first (as quiescence).
        let mut picker = MovePicker::new(pos, PickerKind::Tacticals, tt_move, self.heur, ply, None);
        while let Some(picked) = picker.next(pos, self.heur, &CheckInfo::NONE) {
            let m = picked.mv;
            // The picker's SEE of a capture that cannot lose is only a lower bound: when it
            // falls short, the exact exchange decides.
            if picked.see < needed && see(pos, m) < needed {
                continue;
            }
            let gives_check = checks
                .get_or_insert_with(|| CheckInfo::new(pos))
                .gives_check(pos, m);
            let child = self.make(pos, m, ply);
            self.played[ply + 1] = Some(m);
            let mut v = -self.qsearch(&child, gives_check, ply + 1, -rbeta, -rbeta + 1);
            if v >= rbeta {
                // The quiescence search only says the capture holds tactically; the reduced
                // search checks that the opponent has no quiet answer.
                let reduced = depth - PROBCUT_REDUCTION - 1;
                v = -self.negamax(&child, gives_check, reduced, ply + 1, -rbeta, -rbeta + 1);
            }
            self.keys.pop();
            if self.stopped {
                return Some(Value::DRAW);
            }
            if v >= rbeta {
                let key = self.key();
                let mv = PackedMove::pack(m);
                let tt_depth = depth - PROBCUT_TT_DEPTH;
                self.tt
                    .store(key, mv, v, static_eval, tt_depth, TtBound::Lower, ply);
                return Some(v);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;
    use std::time::Duration;

    use shakmaty::fen::Fen;
    use shakmaty::zobrist::Zobrist64;
    use shakmaty::{CastlingMode, EnPassantMode, Move, Position, Role, Square};

    use super::*;
    use crate::eval::Evaluator;
    use crate::search::alphabeta::lmr_table;
    use crate::search::history::Heuristics;
    use crate::search::tb::{SearchTb, TbConfig};
    use crate::search::time::TimeManager;
    use crate::search::tt::TranspositionTable;
    use crate::search::{Limits, SearchControl};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn tt_entry(depth: i32, value: i32) -> TtHit {
        TtHit {
            mv: PackedMove::NONE,
            value: Value(value),
            eval: Value(0),
            depth,
            bound: TtBound::Upper,
        }
    }

    /// Run ProbCut at ply 1 of `pos` (depth 6, `beta`) with a fresh worker; the result and
    /// what the TT then holds for `pos`.
    fn run_probcut(pos: &Chess, beta: Value) -> (Option<Value>, Option<TtHit>) {
        let tt = TranspositionTable::new(1);
        let mut heur = Heuristics::default();
        let eval = Evaluator::default();
        let lmr = lmr_table();
        let control = SearchControl::default();
        let time = TimeManager::new(&Limits::default(), pos.turn(), Duration::ZERO, &control);
        let mut reporter = ();
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let counters = [AtomicU64::new(0)];
        let tb = TbConfig::default();
        let mut w = Worker::new(
            &tt,
            &mut heur,
            &eval,
            &lmr,
            time,
            &control,
            &mut reporter,
            vec![key],
            (&counters, 0),
            SearchTb::new(&tb),
        );
        w.psqt[1] = eval.material_psqt(pos.board());
        let static_eval = eval.evaluate(pos);
        let v = w.probcut(pos, 6, 1, beta, static_eval, false, None);
        (v, tt.probe(key, 1))
    }

    #[test]
    fn probcut_beta_applies_only_where_worth_trying() {
        let beta = Value(30);
        let raised = Value(30 + PROBCUT_MARGIN);
        assert_eq!(
            probcut_beta(PROBCUT_MIN_DEPTH, beta, false, None),
            Some(raised)
        );
        assert_eq!(probcut_beta(PROBCUT_MIN_DEPTH - 1, beta, false, None), None);
        assert_eq!(probcut_beta(8, Value::mate_in(7), false, None), None);
        assert_eq!(probcut_beta(8, Value::mated_in(7), false, None), None);
        assert_eq!(
            probcut_beta(8, beta, true, None),
            Some(Value(raised.0 - PROBCUT_IMPROVING_MARGIN))
        );
        // A deep enough TT score below the raised bound rules ProbCut out; a shallower one, or
        // one at or above the bound, does not.
        let deep_low = tt_entry(8 - PROBCUT_TT_DEPTH, raised.0 - 1);
        assert_eq!(probcut_beta(8, beta, false, Some(&deep_low)), None);
        let shallow_low = tt_entry(8 - PROBCUT_TT_DEPTH - 1, raised.0 - 1);
        assert_eq!(
            probcut_beta(8, beta, false, Some(&shallow_low)),
            Some(raised)
        );
        let deep_high = tt_entry(20, raised.0);
        assert_eq!(probcut_beta(8, beta, false, Some(&deep_high)), Some(raised));
    }

    #[test]
    fn a_free_queen_cuts_the_node_and_is_stored() {
        // The rook takes an undefended queen.
        let pos = position("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
        let beta = Value(0);
        let (v, hit) = run_probcut(&pos, beta);
        let v = v.expect("ProbCut should cut");
        assert!(v >= Value(beta.0 + PROBCUT_MARGIN), "{v:?}");
        let hit = hit.expect("the cut is stored");
        assert_eq!(hit.bound, TtBound::Lower);
        assert_eq!(hit.depth, 6 - PROBCUT_TT_DEPTH);
        assert_eq!(hit.value, v);
        let capture = Move::Normal {
            role: Role::Rook,
            from: Square::D2,
            capture: Some(Role::Queen),
            to: Square::D5,
            promotion: None,
        };
        assert_eq!(hit.mv, PackedMove::pack(capture));
    }

    #[test]
    fn no_cut_without_a_winning_capture() {
        // The queen is defended: taking it wins too little to reach the raised bound.
        let defended = position("4k3/8/4p3/3q4/8/8/3R4/4K3 w - - 0 1");
        assert_eq!(run_probcut(&defended, Value(0)), (None, None));
        // The queen hangs, but beta is already far above what winning it gives.
        let free = position("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
        assert_eq!(run_probcut(&free, Value(2_000)), (None, None));
    }
}
