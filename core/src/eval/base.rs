//! The base of the evaluation: material, piece-square tables, the side to move, and the pieces
//! pass ([`pieces`]): every knight, bishop, rook and queen's attacks (kept in [`Info`] for the
//! terms that read them), mobility, the attack on the enemy king's zone, rook files, the pawn
//! shield and the bishop pair.

use shakmaty::{Bitboard, Board, Color, Role, attacks};

use super::acc::Acc;
use super::info::Info;
use super::score::{MAX_PHASE, S};
use super::tracer::Tracer;
use super::weights::{PHASE_WEIGHT, declare_weights, role_index};
use super::{king, mobility, piece_lines};

declare_weights! {
    /// The family of the base weights: material, piece squares, the side to move and the pieces
    /// pass. Where it starts in the table is set where the evaluation lists its families
    /// (`eval/mod.rs`).
    family Base;

    channel Linear, row KingSafety, range -200..=300;
    /// Material per piece kind (index `role_index`); the king's is structure (no name).
    MATERIAL[Roles(0, 4)] = [
        S(95, 100), S(364, 364), S(384, 384), S(506, 625), S(1130, 1273), S(0, 0),
    ], range -1000..=3000, row Material;
    /// Piece-square bonus per piece kind and square, from White's point of view, element
    /// `role_index(role) × 64 + square` with a1 = 0; Black uses the vertically flipped square.
    PSQT[RoleSquares] = [
        S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // pawn rank 1
        S(-13, 11), S(4, 9), S(-11, 25), S(-4, 23), S(-10, 27), S(15, 18), S(17, 6), S(-9, 12), // pawn rank 2
        S(-16, 8), S(-11, 4), S(-8, 8), S(0, 5), S(-2, 9), S(3, 8), S(6, 0), S(-16, 7), // pawn rank 3
        S(-13, 16), S(-11, 7), S(10, -16), S(20, -26), S(19, -24), S(20, -11), S(0, 1), S(-13, 10), // pawn rank 4
        S(-5, 25), S(-6, 13), S(1, -5), S(15, -29), S(18, -27), S(16, -10), S(2, 5), S(2, 17), // pawn rank 5
        S(-8, 36), S(-12, 36), S(0, 17), S(18, 0), S(40, -8), S(27, 7), S(-11, 37), S(-6, 40), // pawn rank 6
        S(87, 101), S(77, 108), S(100, 125), S(118, 124), S(92, 123), S(148, 78), S(37, 137), S(41, 126), // pawn rank 7
        S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(0, 0), // pawn rank 8
        S(-67, 12), S(-6, -43), S(-18, -19), S(-7, -15), S(-7, -17), S(-12, -16), S(-12, -38), S(-31, -16), // knight rank 1
        S(3, -9), S(-18, -1), S(-2, -28), S(1, -14), S(0, -13), S(1, -22), S(1, 0), S(-4, -19), // knight rank 2
        S(8, -10), S(20, -17), S(3, -9), S(18, -6), S(18, -6), S(10, -15), S(20, -23), S(5, -21), // knight rank 3
        S(24, 4), S(11, 14), S(22, 16), S(20, 22), S(19, 16), S(30, 3), S(23, -1), S(22, 20), // knight rank 4
        S(24, 32), S(27, 6), S(30, 18), S(25, 27), S(27, 18), S(45, 8), S(25, 21), S(24, 23), // knight rank 5
        S(-1, 12), S(7, 13), S(22, 16), S(38, 19), S(40, 25), S(63, 1), S(12, 11), S(-30, 39), // knight rank 6
        S(21, 6), S(-37, 31), S(50, -8), S(72, -11), S(56, 1), S(70, -9), S(-2, 44), S(-16, -6), // knight rank 7
        S(-97, -31), S(-47, 26), S(-37, 26), S(-60, 60), S(76, 0), S(-119, 21), S(-100, 53), S(-102, -60), // knight rank 8
        S(15, -9), S(26, 17), S(0, -1), S(-3, 4), S(3, -4), S(-10, -11), S(3, -5), S(6, -21), // bishop rank 1
        S(73, -6), S(22, -29), S(20, -5), S(10, 5), S(9, -5), S(21, 4), S(19, -30), S(39, -33), // bishop rank 2
        S(30, -10), S(31, 2), S(13, -4), S(20, 5), S(16, 11), S(16, -17), S(30, -4), S(28, -8), // bishop rank 3
        S(7, -5), S(18, 16), S(18, 11), S(20, 15), S(28, 9), S(19, 8), S(8, 15), S(14, -11), // bishop rank 4
        S(8, 10), S(26, 7), S(18, 18), S(29, 16), S(23, 16), S(33, 2), S(19, 6), S(3, 4), // bishop rank 5
        S(8, 5), S(7, 21), S(0, 9), S(26, 21), S(22, 9), S(16, 9), S(15, 16), S(20, -4), // bishop rank 6
        S(-19, 49), S(-21, 1), S(18, 19), S(-19, 24), S(-47, 36), S(14, 17), S(-20, 1), S(-60, 20), // bishop rank 7
        S(-1, -1), S(-3, 34), S(-161, 74), S(-125, 55), S(-61, 29), S(-65, 21), S(-56, 26), S(-7, 9), // bishop rank 8
        S(-11, -10), S(-13, -7), S(-1, -11), S(8, -16), S(10, -17), S(4, -12), S(-9, -12), S(2, -35), // rook rank 1
        S(-36, -5), S(-18, -15), S(-21, -2), S(2, -19), S(-6, -12), S(-4, -9), S(-6, -17), S(-36, -16), // rook rank 2
        S(-29, 5), S(-23, 14), S(-26, 12), S(-21, 6), S(3, -10), S(-18, 8), S(0, -7), S(-15, -4), // rook rank 3
        S(-15, 19), S(-8, 19), S(0, 13), S(8, 9), S(-4, 12), S(-3, 22), S(18, 10), S(-11, 4), // rook rank 4
        S(-14, 36), S(1, 32), S(8, 29), S(20, 21), S(23, 18), S(17, 19), S(27, 19), S(12, 27), // rook rank 5
        S(-13, 39), S(15, 30), S(-9, 44), S(26, 27), S(27, 17), S(58, 18), S(62, 10), S(-1, 37), // rook rank 6
        S(17, 18), S(-13, 27), S(44, 10), S(41, 8), S(13, 22), S(11, 15), S(21, 10), S(15, 20), // rook rank 7
        S(43, 29), S(81, 17), S(-8, 48), S(-5, 49), S(27, 36), S(73, 22), S(12, 40), S(36, 32), // rook rank 8
        S(16, -58), S(-5, -36), S(1, -52), S(7, -51), S(10, -66), S(-38, -48), S(-3, -72), S(27, 18), // queen rank 1
        S(-5, -19), S(15, -56), S(16, -59), S(6, -20), S(9, -29), S(20, -46), S(8, -53), S(2, -21), // queen rank 2
        S(2, -38), S(14, -17), S(-8, 17), S(2, 7), S(-1, 25), S(4, 24), S(17, 4), S(0, -27), // queen rank 3
        S(3, 9), S(-13, 37), S(-14, 57), S(-5, 73), S(-1, 50), S(-3, 35), S(-1, 61), S(1, 10), // queen rank 4
        S(-8, 20), S(-14, 25), S(-16, 50), S(-14, 72), S(-5, 77), S(-9, 89), S(2, 60), S(2, 73), // queen rank 5
        S(-39, 52), S(-19, 15), S(0, 37), S(-5, 57), S(-2, 48), S(4, 76), S(7, 60), S(9, 34), // queen rank 6
        S(-43, 67), S(-23, 70), S(8, 45), S(-4, 91), S(-8, 69), S(17, 64), S(-20, 97), S(33, 24), // queen rank 7
        S(23, 19), S(-7, 27), S(-20, 56), S(22, 43), S(9, 22), S(-19, 123), S(1, 107), S(-3, 47), // queen rank 8
        S(-1, -64), S(21, -24), S(12, -16), S(-52, 2), S(-19, -26), S(-30, -7), S(29, -27), S(26, -62), // king rank 1
        S(4, -7), S(-2, -7), S(-26, 9), S(-33, 6), S(-29, 4), S(-31, 4), S(14, -10), S(18, -22), // king rank 2
        S(0, -26), S(-2, -2), S(-19, 5), S(-47, 17), S(-52, 24), S(-32, 15), S(-1, 2), S(-17, -8), // king rank 3
        S(-21, -11), S(23, 3), S(-16, 16), S(-28, 23), S(-6, 17), S(2, 20), S(10, 9), S(-86, 11), // king rank 4
        S(-35, 11), S(16, 13), S(-32, 40), S(-23, 25), S(-5, 23), S(-6, 32), S(-13, 33), S(-101, 21), // king rank 5
        S(-90, 39), S(24, 37), S(-47, 49), S(-40, 62), S(52, 32), S(87, 32), S(13, 54), S(1, 18), // king rank 6
        S(-75, 14), S(-29, 74), S(-77, 88), S(66, 34), S(129, 19), S(-40, 60), S(4, 45), S(-92, 5), // king rank 7
        S(-207, 6), S(108, -21), S(-8, -44), S(-180, 56), S(-117, 102), S(111, 49), S(154, 5), S(-57, -157), // king rank 8
    ], range -500..=500, row Psqt;
    /// Bonus per square of the enemy king's zone (the king and its neighbours) that a knight,
    /// bishop, rook or queen attacks (index `role_index`).
    KING_ZONE_ATTACK[Roles(1, 4)] = [
        S(0, 0), S(-1, -3), S(-1, 1), S(-7, 0), S(-3, 4), S(0, 0),
    ], range -100..=200;
    /// Bonus per own pawn one rank (index 0) and two ranks (index 1) in front of the king, on its
    /// file or a neighbouring one.
    PAWN_SHIELD[Names(&["near", "far"])] = [S(13, -11), S(3, 5)], range -100..=200;
    /// Bonus for owning two or more bishops.
    BISHOP_PAIR = S(26, 61), row BishopPair;
    /// Bonus for a rook on a file without pawns.
    ROOK_OPEN_FILE = S(44, -3), row RookFiles;
    /// Bonus for a rook on a file without own pawns but with enemy pawns.
    ROOK_SEMI_OPEN_FILE = S(20, 14), row RookFiles;

    channel Tempo, row Tempo, range -100..=100;
    /// Bonus for the side to move (it gets to act first).
    TEMPO = S(54, 21);
}

/// `color`'s pieces: mobility, the attack on the enemy king's zone, rook files, bishop pair
/// and pawn shield; their attacks go into `info` for the terms that read them. Returns the
/// phase contribution of `color`'s pieces.
#[inline(always)]
pub fn pieces<T: Tracer>(
    board: &Board,
    color: Color,
    info: &mut Info,
    acc: &mut Acc<'_, T>,
) -> i32 {
    let occupied = board.occupied();
    let their_pawns = *info.pawns.get(!color);
    let our_pawns = *info.pawns.get(color);
    let their_king_zone = info
        .king
        .get(!color)
        .map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
    let mut phase = PHASE_WEIGHT[role_index(Role::Pawn)] * our_pawns.count() as i32;

    // One call per kind, not a loop over the kinds: each call is compiled for its kind, without
    // a test of the kind per piece (the kinds' order is the loop's, so the sums are the same).
    let sides = Sides {
        occupied,
        our_pawns,
        their_pawns,
        their_king_zone,
    };
    phase += kind(board, color, Role::Knight, &sides, info, acc);
    phase += kind(board, color, Role::Bishop, &sides, info, acc);
    phase += kind(board, color, Role::Rook, &sides, info, acc);
    phase += kind(board, color, Role::Queen, &sides, info, acc);

    // The king: pawn shield.
    for sq in board.by_piece(Role::King.of(color)) {
        phase += PHASE_WEIGHT[role_index(Role::King)];
        let [near, far] = king::pawn_shield(sq, color, our_pawns);
        acc.add(color, PAWN_SHIELD.at(0), near);
        acc.add(color, PAWN_SHIELD.at(1), far);
    }
    if board.by_piece(Role::Bishop.of(color)).more_than_one() {
        acc.add(color, BISHOP_PAIR, 1);
    }
    phase
}

/// What the pieces' pass reads of both sides, for [`kind`].
struct Sides {
    occupied: Bitboard,
    our_pawns: Bitboard,
    their_pawns: Bitboard,
    their_king_zone: Bitboard,
}

/// `color`'s pieces of kind `role` (knight, bishop, rook or queen) in the pieces' pass; returns
/// their phase contribution.
#[inline(always)]
fn kind<T: Tracer>(
    board: &Board,
    color: Color,
    role: Role,
    sides: &Sides,
    info: &mut Info,
    acc: &mut Acc<'_, T>,
) -> i32 {
    let r = role_index(role);
    let mut phase = 0;
    for sq in board.by_piece(role.of(color)) {
        phase += PHASE_WEIGHT[r];
        let reach = match role {
            Role::Knight => attacks::knight_attacks(sq),
            Role::Bishop => attacks::bishop_attacks(sq, sides.occupied),
            Role::Rook => attacks::rook_attacks(sq, sides.occupied),
            _ => attacks::queen_attacks(sq, sides.occupied),
        };
        info.add_attacks(color, role, sq, reach);
        let real_mobility = mobility::score(board, info, color, role, sq, reach, acc);
        if role == Role::Rook && real_mobility <= piece_lines::TRAPPED_MOBILITY {
            info.add_boxed_rook(color, sq);
        }
        let zone_hits = reach & sides.their_king_zone;
        // Usually empty: skip the count (and the zero term) then.
        if zone_hits.any() {
            acc.add(color, KING_ZONE_ATTACK.at(r), zone_hits.count() as i32);
        }
        if role == Role::Rook {
            let file = Bitboard::from_file(sq.file());
            if (sides.our_pawns & file).is_empty() {
                let weight = if (sides.their_pawns & file).is_empty() {
                    ROOK_OPEN_FILE
                } else {
                    ROOK_SEMI_OPEN_FILE
                };
                acc.add(color, weight, 1);
            }
        }
    }
    phase
}

/// The game phase of `board`'s material, clamped to [`MAX_PHASE`]: what the pieces' pass adds
/// up, from the piece counts alone.
#[inline(always)]
pub fn phase_of(board: &Board) -> i32 {
    let mut phase = 0;
    for role in Role::ALL {
        phase += PHASE_WEIGHT[role_index(role)] * board.by_role(role).count() as i32;
    }
    phase.min(MAX_PHASE)
}
