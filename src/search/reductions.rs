//! Late move reductions: a move searched late in a node (after the ones the ordering trusts) is
//! searched shallower first, by an amount that grows with the depth and the move number and
//! that what is known of the node and the move adjusts.

use super::node::{Candidate, Node};
use super::params::SearchParams;

/// Reductions by `[depth][move number]`, both capped at 63.
pub type LmrTable = [[i32; 64]; 64];

/// Build the late-move-reduction table of `params`: `base + ln(depth) * ln(moves) / divisor`
/// (`lmr_base_x100` and `lmr_divisor_x100` over 100: 1.5 and 2.25 by default, in plies).
#[must_use]
pub fn lmr_table(params: &SearchParams) -> Box<LmrTable> {
    let base = f64::from(params.lmr_base_x100) / 100.0;
    let divisor = f64::from(params.lmr_divisor_x100) / 100.0;
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = base + (d as f64).ln() * (m as f64).ln() / divisor;
            *r = v as i32;
        }
    }
    t
}

/// The reduction of `mv`, the `searched`-th move of `node` (not the first), whose full-depth
/// search would go to `new_depth`, with the table and the adjustments of `params`;
/// `tt_tactical` says the node's TT move is a capture or a promotion. Zero for moves that are never reduced (early, winning captures, forks) and at
/// low depth; at most `new_depth - 1`.
#[must_use]
pub fn late_move_reduction(
    table: &LmrTable,
    params: &SearchParams,
    node: &Node,
    mv: &Candidate,
    searched: usize,
    new_depth: i32,
    tt_tactical: bool,
) -> i32 {
    let depth = node.depth;
    let min_moves = if node.pv_node {
        params.lmr_min_moves
    } else {
        params.lmr_min_moves_non_pv
    };
    if depth < params.lmr_min_depth
        || searched <= min_moves as usize
        || !(mv.quiet || mv.picked.see < 0)
        || mv.picked.fork
    {
        return 0;
    }
    let mut r = table[depth.min(63) as usize][searched.min(63)];
    r += i32::from(!node.pv_node) - i32::from(node.pv_node);
    r -= i32::from(node.eval.improving);
    r -= i32::from(mv.picked.refutation);
    r -= i32::from(mv.gives_check);
    // A node expected to fail high needs only one move to do it: the late ones are searched
    // shallower still.
    r += params.lmr_cut_node * i32::from(node.cut_node);
    // A tactical TT move is likely the best here; the quiet alternatives less so.
    r += i32::from(tt_tactical);
    // Against a bare king the win is a long net of quiet moves (KBNK takes thirty): reduced as
    // hard as a middlegame's late moves, they are not found in time.
    r -= params.lmr_bare_king_relief * i32::from(node.bare_king);
    r -= node_adjustment(params, node, mv);
    // A threatened piece's escape is rarely a move to skim: the alternatives lose the piece.
    r -= params.lmr_threat_escape * i32::from(mv.escape);
    // A quiet move that leaves such a piece where it stands is likely to lose it.
    r += params.lmr_ignores_threat * i32::from(mv.ignores_threat);
    r -= if mv.quiet {
        (mv.history - params.lmr_history_offset) / params.lmr_history_divisor
    } else {
        mv.history / params.lmr_capture_history_divisor
    };
    r.clamp(0, (new_depth - 1).max(0))
}

/// Plies less reduction from where the node stands in the tree (each off at its default):
/// on a principal variation now or before and not likely to fail low (`lmr_tt_pv`); reached by
/// a late move of the opponent's, who had to search far for it (`lmr_parent_late_move`); and a
/// ply more (negative) when the replies one ply down keep cutting off (`lmr_child_cutoffs`).
fn node_adjustment(params: &SearchParams, node: &Node, mv: &Candidate) -> i32 {
    let on_pv = node.tt_pv && !node.likely_fail_low();
    let late_reply =
        params.lmr_parent_late_move > 0 && node.parent_move >= params.lmr_parent_late_move as usize;
    let cutting_replies =
        params.lmr_child_cutoffs > 0 && mv.child_cutoffs > params.lmr_child_cutoffs as u32;
    params.lmr_tt_pv * i32::from(on_pv) + i32::from(late_reply) - i32::from(cutting_replies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::movepick::Picked;
    use crate::search::node::NodeEval;
    use crate::search::tt::{PackedMove, TtBound, TtHit};
    use crate::value::Value;
    use shakmaty::{Move, Role, Square};

    /// A non-PV node at depth 12 with nothing special about it, and a quiet late move.
    fn plain() -> (Node, Candidate) {
        let eval = Value(0);
        let node = Node {
            ply: 5,
            depth: 12,
            beta: Value(1),
            in_check: false,
            pv_node: false,
            cut_node: false,
            excluded: None,
            key: 1,
            hit: None,
            eval: NodeEval {
                raw: eval,
                corrected: eval,
                refined: eval,
                improving: false,
            },
            bare_king: false,
            tt_pv: false,
            parent_move: 1,
        };
        let mv = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        let picked = Picked {
            mv,
            see: 0,
            refutation: false,
            fork: false,
        };
        let candidate = Candidate {
            picked,
            quiet: true,
            gives_check: false,
            history: 0,
            child_cutoffs: 0,
            escape: false,
            ignores_threat: false,
        };
        (node, candidate)
    }

    fn reduce(params: &SearchParams, node: &Node, mv: &Candidate, searched: usize) -> i32 {
        late_move_reduction(&lmr_table(params), params, node, mv, searched, 11, false)
    }

    #[test]
    fn each_node_refinement_moves_the_reduction_only_when_switched_on() {
        let defaults = SearchParams::default();
        let (node, mv) = plain();
        let base = reduce(&defaults, &node, &mv, 10);
        assert!(
            base >= 3,
            "a late quiet move at depth 12 is reduced ({base})"
        );
        let on = SearchParams {
            lmr_tt_pv: 2,
            lmr_parent_late_move: 8,
            lmr_child_cutoffs: 3,
            ..defaults
        };
        assert_eq!(reduce(&on, &node, &mv, 10), base, "nothing applies");
        let pv = Node {
            tt_pv: true,
            ..node
        };
        assert_eq!(reduce(&defaults, &pv, &mv, 10), base);
        assert_eq!(reduce(&on, &pv, &mv, 10), base - 2);
        let late = Node {
            parent_move: 8,
            ..node
        };
        assert_eq!(reduce(&defaults, &late, &mv, 10), base);
        assert_eq!(reduce(&on, &late, &mv, 10), base - 1);
        let cutting = Candidate {
            child_cutoffs: 4,
            ..mv
        };
        assert_eq!(reduce(&defaults, &node, &cutting, 10), base);
        assert_eq!(reduce(&on, &node, &cutting, 10), base + 1);
        let three = Candidate {
            child_cutoffs: 3,
            ..mv
        };
        assert_eq!(reduce(&on, &node, &three, 10), base, "more than three");
    }

    #[test]
    fn a_threatened_piece_s_escape_is_reduced_less_and_a_move_ignoring_it_more() {
        let (node, mv) = plain();
        let off = SearchParams {
            lmr_threat_escape: 0,
            lmr_ignores_threat: 0,
            ..SearchParams::default()
        };
        let on = SearchParams {
            lmr_threat_escape: 1,
            lmr_ignores_threat: 1,
            ..off
        };
        let base = reduce(&off, &node, &mv, 10);
        let escape = Candidate { escape: true, ..mv };
        let ignores = Candidate {
            ignores_threat: true,
            ..mv
        };
        assert_eq!(reduce(&off, &node, &escape, 10), base);
        assert_eq!(reduce(&on, &node, &escape, 10), base - 1);
        assert_eq!(reduce(&off, &node, &ignores, 10), base);
        assert_eq!(reduce(&on, &node, &ignores, 10), base + 1);
        assert_eq!(
            reduce(&on, &node, &mv, 10),
            base,
            "a plain move is left alone"
        );
    }

    #[test]
    fn a_pv_node_likely_to_fail_low_is_not_spared() {
        let params = SearchParams {
            lmr_tt_pv: 2,
            ..SearchParams::default()
        };
        let (node, mv) = plain();
        let pv = Node {
            pv_node: true,
            tt_pv: true,
            ..node
        };
        let hit = |bound, depth| TtHit {
            mv: PackedMove::pack(mv.picked.mv),
            value: Value(0),
            eval: Value(0),
            depth,
            bound,
            pv: true,
        };
        let spared = reduce(&params, &pv, &mv, 10);
        for (bound, depth, likely) in [
            (TtBound::Upper, 12, true),
            (TtBound::Exact, 13, true),
            (TtBound::Upper, 11, false),
            (TtBound::Lower, 12, false),
        ] {
            let with_hit = Node {
                hit: Some(hit(bound, depth)),
                ..pv
            };
            assert_eq!(with_hit.likely_fail_low(), likely, "{bound:?} {depth}");
            let expected = spared + if likely { 2 } else { 0 };
            assert_eq!(reduce(&params, &with_hit, &mv, 10), expected);
        }
    }

    #[test]
    fn non_pv_nodes_may_reduce_from_the_second_move() {
        let (node, mv) = plain();
        let defaults = SearchParams::default();
        let early = SearchParams {
            lmr_min_moves_non_pv: 1,
            lmr_base_x100: 200,
            ..defaults
        };
        assert_eq!(reduce(&defaults, &node, &mv, 2), 0);
        assert!(reduce(&early, &node, &mv, 2) > 0);
        let pv = Node {
            pv_node: true,
            ..node
        };
        assert_eq!(
            reduce(&early, &pv, &mv, 2),
            0,
            "PV nodes keep lmr_min_moves"
        );
    }

    #[test]
    fn the_history_offset_reduces_a_move_without_history_more() {
        let (node, mv) = plain();
        let defaults = SearchParams::default();
        let offset = SearchParams {
            lmr_history_offset: defaults.lmr_history_divisor,
            ..defaults
        };
        assert_eq!(
            reduce(&offset, &node, &mv, 10),
            reduce(&defaults, &node, &mv, 10) + 1
        );
        let good = Candidate {
            history: defaults.lmr_history_divisor,
            ..mv
        };
        assert_eq!(
            reduce(&offset, &node, &good, 10),
            reduce(&defaults, &node, &mv, 10)
        );
    }
}
