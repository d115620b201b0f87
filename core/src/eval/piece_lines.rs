//! Piece lines: rooks and bishops judged by the lines they stand on, beyond their mobility and
//! their files ([`super::pieces`]): a rook behind its own blocked pawn, a rook shut in beside its
//! king, a bishop whose diagonals hold enemy pawns, and a bishop or rook lined up with the enemy
//! king's area while nothing of it is attacked yet (pressure that a pawn move or an exchange
//! releases).

use shakmaty::{Bitboard, Board, Color, File, attacks};

use super::acc::Acc;
use super::info::Info;
use super::score::S;
use super::tracer::Tracer;
use super::weights::declare_weights;

declare_weights! {
    /// The family of piece-line weights; where it starts in the table is set where the evaluation
    /// lists its families (`eval/mod.rs`).
    family PieceLines;

    channel Linear, row PieceLines, range -300..=300;
    /// Per rook on a file where one of our pawns is blocked (the square in front of it occupied).
    ROOK_CLOSED_FILE = S(-4, 1);
    /// Per rook reaching at most three squares of its mobility area, on the far side of its own
    /// king from the centre (a rook on h1 with the king on g1).
    ROOK_TRAPPED = S(-10, -15);
    /// Per enemy pawn on one of the bishop's diagonals, whatever stands between.
    BISHOP_XRAY_PAWNS = S(1, 1);
    /// Per bishop that attacks no square of the enemy king's area, but whose diagonals reach it
    /// when only pawns block them (it sees through the other pieces).
    BISHOP_ON_KING_RING = S(25, 18);
    /// Per rook that attacks no square of the enemy king's area, on a file of that area.
    ROOK_ON_KING_RING = S(6, -12);
}

/// The most squares a rook reaches and still counts as trapped.
const TRAPPED_MOBILITY: u32 = 3;

/// Every file a set touches, as a set of whole files.
const fn files_of(set: Bitboard) -> Bitboard {
    let mut files = set.0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    Bitboard((files & 0xff) * 0x0101_0101_0101_0101)
}

/// Scores `color`'s rooks and bishops by their lines.
#[inline(always)]
pub fn evaluate<T: Tracer>(board: &Board, info: &Info, color: Color, acc: &mut Acc<'_, T>) {
    let ours = board.by_color(color);
    let rooks = board.rooks() & ours;
    let bishops = board.bishops() & ours;
    if rooks.is_empty() && bishops.is_empty() {
        return;
    }
    let occupied = info.occupied;
    let their_area = *info.king_area.get(!color);
    let our_pawns = *info.pawns.get(color);
    let their_pawns = *info.pawns.get(!color);
    let blocked = our_pawns & shift_back(occupied, color);
    let closed_files = files_of(blocked);
    let area_files = files_of(their_area);
    let king_file = info.king.get(color).map(|k| k.file());

    let (mut closed, mut trapped, mut on_ring) = (0, 0, 0);
    for rook in rooks {
        closed += i32::from(closed_files.contains(rook));
        let reach = attacks::rook_attacks(rook, occupied);
        if let Some(king_file) = king_file
            && (reach & *info.mobility_area.get(color)).count() as u32 <= TRAPPED_MOBILITY
            && (king_file < File::E) == (rook.file() < king_file)
        {
            trapped += 1;
        }
        on_ring += i32::from(area_files.contains(rook) && (reach & their_area).is_empty());
    }
    let (mut xray, mut bishop_ring) = (0, 0);
    for bishop in bishops {
        xray += (attacks::bishop_attacks(bishop, Bitboard::EMPTY) & their_pawns).count() as i32;
        let reach = attacks::bishop_attacks(bishop, occupied);
        let through_pieces = attacks::bishop_attacks(bishop, our_pawns | their_pawns);
        bishop_ring +=
            i32::from((reach & their_area).is_empty() && (through_pieces & their_area).any());
    }
    for (weight, n) in [
        (ROOK_CLOSED_FILE, closed),
        (ROOK_TRAPPED, trapped),
        (ROOK_ON_KING_RING, on_ring),
        (BISHOP_XRAY_PAWNS, xray),
        (BISHOP_ON_KING_RING, bishop_ring),
    ] {
        if n > 0 {
            acc.add(color, weight, n);
        }
    }
}

/// `occupied` shifted one rank towards `color`'s own side: the pawns of `color` on it have the
/// square in front of them occupied.
const fn shift_back(occupied: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(occupied.0 >> 8),
        Color::Black => Bitboard(occupied.0 << 8),
    }
}

#[cfg(test)]
mod tests;
