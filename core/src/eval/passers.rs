//! Passed pawns: by rank and by whether the square in front is free and safe, the distances of
//! both kings (Chebyshev) to that square weighted by rank, a free way to promotion, stacked
//! passers, and in pawn endings the passer no king can catch (the rule of the square, as the
//! knight-against-passer race decides it).

use shakmaty::{Bitboard, Board, Color};

use super::acc::Acc;
use super::endgame::PasserRace;
use super::info::Info;
use super::pawns::{front_file, relative_rank, stop_square};
use super::score::S;
use super::to_move::SideToMove;
use super::tracer::Tracer;
use super::weights::{PAWN_RANKS, declare_weights};
use crate::geometry::king_distance;

declare_weights! {
    /// The family of weights of passed pawns; where it starts in the table is set where the
    /// evaluation lists its families (`eval/mod.rs`).
    family Passers;

    channel Linear, row PassedPawns, range -200..=600;
    /// Bonus for a passed pawn, on top of its piece-square value, by whether the square in front of
    /// it is empty (`free`) and not attacked by the enemy (`safe`), and by its rank counted from
    /// its own side: index `free × 16 + safe × 8 + rank`.
    PASSED_PAWN[Grid(&[&["blocked", "free"], &["unsafe", "safe"], PAWN_RANKS])] = [
        S(0, 0), S(-16, 7), S(-22, 30), S(-44, 36), S(-1, 47), S(54, 69), S(-36, 39), S(0, 0),
        S(0, 0), S(7, -5), S(-3, 14), S(-34, 36), S(0, 55), S(68, 72), S(23, 14), S(0, 0),
        S(0, 0), S(1, 7), S(-12, 21), S(-32, 42), S(3, 65), S(81, 92), S(72, 52), S(0, 0),
        S(0, 0), S(2, 5), S(-11, 16), S(-22, 43), S(-6, 89), S(119, 142), S(264, 135), S(0, 0),
    ];
    /// Per square of king distance (Chebyshev) from the passer's own king (`own`) or the enemy king
    /// (`enemy`) to the square in front of the passer, by the passer's rank: index `enemy × 8 +
    /// rank`. Near its own king and far from the enemy's, a passer runs.
    PASSED_KING_DISTANCE[Grid(&[&["own", "enemy"], PAWN_RANKS])] = [
        S(0, 0), S(-1, 2), S(1, -2), S(7, -11), S(6, -17), S(-1, -22), S(4, -28), S(0, 0),
        S(0, 0), S(0, 0), S(-1, 1), S(-2, 11), S(-5, 25), S(-3, 38), S(8, 51), S(0, 0),
    ], range -100..=100;
    /// A passed pawn whose whole way to promotion holds no enemy piece and no square the enemy
    /// attacks.
    PASSED_SAFE_PATH = S(-25, 29), range -200..=400;
    /// A passed pawn with another own pawn in front of it on its file, by its rank.
    PASSED_STACKED[Grid(&[PAWN_RANKS])] = [
        S(0, 0), S(7, -31), S(13, -35), S(6, -11), S(25, -63), S(151, -186), S(-5, -10), S(0, 0),
    ], range -200..=200;
    /// A passer that the enemy king cannot catch (the rule of the square) when the enemy has only
    /// king and pawns, with nothing in front of it, while the enemy has no such passer: nearly a
    /// queen.
    PASSED_UNSTOPPABLE = S(0, 258), range 0..=1000;
}

/// Whether the side to move can change this family's value on `board`: the passer race is run
/// only against a side with no piece but its king (and pawns).
#[must_use]
pub fn reads_side_to_move(board: &Board) -> bool {
    let pieces = board.occupied() & !(board.pawns() | board.kings());
    Color::ALL
        .into_iter()
        .any(|color| (pieces & board.by_color(color)).is_empty())
}

/// Scores both sides' passed pawns (`passed`, both colours), `turn` to move.
// Inlined into the evaluation: there it runs with `popcnt` where the CPU has it (see
// `Evaluator::evaluate_from`); a separate function would count bits the slow way.
#[inline(always)]
pub fn evaluate<T: Tracer>(
    board: &Board,
    info: &Info,
    passed: Bitboard,
    turn: SideToMove,
    acc: &mut Acc<'_, T>,
) {
    // One call per side, each compiled for its colour (White first, as a loop would run).
    let unstoppable = [
        side(board, info, passed, turn, Color::White, acc),
        side(board, info, passed, turn, Color::Black, acc),
    ];
    // A race both sides win is no longer a won race: only a lone runner gets the bonus.
    match unstoppable {
        [true, false] => acc.add(Color::White, PASSED_UNSTOPPABLE, 1),
        [false, true] => acc.add(Color::Black, PASSED_UNSTOPPABLE, 1),
        _ => {}
    }
}

/// `color`'s passed pawns (those of `passed`); returns whether one of them runs unstopped (no
/// enemy piece, and the enemy king does not catch it).
#[inline(always)]
fn side<T: Tracer>(
    board: &Board,
    info: &Info,
    passed: Bitboard,
    turn: SideToMove,
    color: Color,
    acc: &mut Acc<'_, T>,
) -> bool {
    let ours = passed & *info.pawns.get(color);
    if ours.is_empty() {
        return false;
    }
    let mut unstoppable = false;
    // Only a king can catch the passer: the enemy has no piece (ours may stand anywhere but
    // on its path, checked below), so the rule of the square decides.
    let only_king_defends = (board.by_color(!color) & !(board.pawns() | board.kings())).is_empty();
    for sq in ours {
        let rank = relative_rank(sq, color);
        let Some(stop) = stop_square(sq, color) else {
            continue;
        };
        let free = !info.occupied.contains(stop);
        let safe = !info.attacked.get(!color).contains(stop);
        acc.add(
            color,
            PASSED_PAWN.at(usize::from(free) * 16 + usize::from(safe) * 8 + rank),
            1,
        );
        for (enemy, king) in [(0, info.king.get(color)), (8, info.king.get(!color))] {
            if let Some(king) = king {
                let distance = king_distance(*king, stop) as i32;
                acc.add(color, PASSED_KING_DISTANCE.at(enemy + rank), distance);
            }
        }
        let path = front_file(sq, color);
        if (path & (board.by_color(!color) | *info.attacked.get(!color))).is_empty() {
            acc.add(color, PASSED_SAFE_PATH, 1);
        }
        if (path & *info.pawns.get(color)).any() {
            acc.add(color, PASSED_STACKED.at(rank), 1);
        }
        if only_king_defends && (path & info.occupied).is_empty() {
            let race = PasserRace {
                pawn: sq,
                pawn_color: color,
                pawn_to_move: turn.color() == color,
            };
            let caught = info.king.get(!color).is_some_and(|k| race.king_catches(k));
            unstoppable |= !caught;
        }
    }
    unstoppable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pawns::structure;
    use crate::eval::test_support::{full_info, main_counts, position};
    use crate::eval::trace::CountingTracer;
    use crate::eval::weights::Weight;
    use crate::eval::weights::{Family, Weights};
    use shakmaty::Position;

    /// White's and Black's counts of each element of `field` in `fen`.
    fn counts<C, const N: usize, F: Family>(fen: &str, field: Weight<C, N, F>) -> [Vec<i32>; 2] {
        let pos = position(fen);
        // The passer terms read the pieces' attacks, as after the mobility pass.
        let info = full_info(&pos);
        let w = Weights::default();
        let mut tracer = CountingTracer::default();
        let mut acc = Acc::new(&w, &mut tracer);
        let passed = structure(&info.pawns_and_kings(), Color::White, &mut acc)
            | structure(&info.pawns_and_kings(), Color::Black, &mut acc);
        evaluate(
            pos.board(),
            &info,
            passed,
            SideToMove::new(pos.turn()),
            &mut acc,
        );
        Color::ALL.map(|c| main_counts(&tracer, c, field))
    }

    #[test]
    fn passer_index_says_free_and_safe() {
        // White e6, black king e8 far... the push square e7 is free and guarded by the king on d8.
        let [white, _] = counts("3k4/8/4P3/8/8/8/8/4K3 w - - 0 1", PASSED_PAWN);
        assert_eq!(white[16 + 5], 1, "free, unsafe, rank 6"); // free × 16 + unsafe + rank index 5
        // A rook in front: blocked.
        let [white, _] = counts("k7/4r3/4P3/8/8/8/8/4K3 w - - 0 1", PASSED_PAWN);
        assert_eq!(
            white[8 + 5],
            1,
            "blocked, safe (nothing else guards e7): {white:?}"
        );
        // Nothing near: free and safe.
        let [white, _] = counts("k7/8/4P3/8/8/8/8/4K3 w - - 0 1", PASSED_PAWN);
        assert_eq!(white[16 + 8 + 5], 1);
        // Not passed (a black pawn on d7 guards e6's way): nothing.
        let [white, _] = counts("k7/3p4/4P3/8/8/8/8/4K3 w - - 0 1", PASSED_PAWN);
        assert_eq!(white.iter().sum::<i32>(), 0);
    }

    #[test]
    fn king_distances_are_chebyshev_to_the_push_square() {
        // White b5 (rank index 4), push square b6; white king g1: 5 away; black king h8: 6 away.
        let [white, _] = counts("7k/8/8/1P6/8/8/8/6K1 w - - 0 1", PASSED_KING_DISTANCE);
        assert_eq!((white[4], white[8 + 4]), (5, 6));
    }

    #[test]
    fn safe_path_needs_no_enemy_piece_or_attack_ahead() {
        let [white, _] = counts("7k/8/8/1P6/8/8/8/6K1 w - - 0 1", PASSED_SAFE_PATH);
        assert_eq!(white[0], 1);
        // A black rook on h7 attacks b7.
        let [white, _] = counts("7k/7r/8/1P6/8/8/8/6K1 w - - 0 1", PASSED_SAFE_PATH);
        assert_eq!(white[0], 0);
    }

    #[test]
    fn stacked_passer_is_the_one_behind() {
        let [white, _] = counts("k7/8/1P6/1P6/8/8/8/6K1 w - - 0 1", PASSED_STACKED);
        assert_eq!(white.iter().sum::<i32>(), 1);
        assert_eq!(white[4], 1); // b5, rank index 4
    }

    #[test]
    fn unstoppable_passer_only_in_pawn_endings_outside_the_square() {
        // White a5, black king on f6: a8 is 5 king moves away, the pawn needs 3: unstoppable.
        let [white, black] = counts("8/8/5k2/P7/8/8/8/6K1 w - - 0 1", PASSED_UNSTOPPABLE);
        assert_eq!((white[0], black[0]), (1, 0));
        // The king on d6 is inside the square.
        let [white, _] = counts("8/8/3k4/P7/8/8/8/6K1 w - - 0 1", PASSED_UNSTOPPABLE);
        assert_eq!(white[0], 0);
        // With a black knight on the board it is not a pawn ending.
        let [white, _] = counts("8/8/5k2/P7/8/8/8/n5K1 w - - 0 1", PASSED_UNSTOPPABLE);
        assert_eq!(white[0], 0);
        // Both sides have a runner: no bonus for either.
        let [white, black] = counts("8/7p/5k2/P7/8/8/8/K7 w - - 0 1", PASSED_UNSTOPPABLE);
        assert_eq!((white[0], black[0]), (0, 0));
    }
}
