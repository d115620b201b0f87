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

/// The most squares of its mobility area a rook reaches and still counts as trapped.
pub const TRAPPED_MOBILITY: usize = 3;

/// Every file a set touches, as a set of whole files.
const fn files_of(set: Bitboard) -> Bitboard {
    let mut files = set.0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    Bitboard((files & 0xff) * 0x0101_0101_0101_0101)
}

/// Scores `color`'s rooks and bishops by their lines. Reads what the pieces' pass left in
/// [`Info`] of each rook's and bishop's attacks ([`Info::off_king_area`],
/// [`Info::boxed_rooks`]) instead of computing them again.
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
    let off_area = *info.off_king_area.get(color);

    // The rooks' terms are counts of sets: no loop over the rooks.
    let blocked = our_pawns & shift_back(occupied, color);
    let closed = (rooks & files_of(blocked)).count() as i32;
    let trapped = match *info.king.get(color) {
        Some(king) => (rooks & *info.boxed_rooks.get(color) & trapped_side(king.file())).count(),
        None => 0,
    } as i32;
    let on_ring = match *info.king.get(!color) {
        Some(king) => (rooks & off_area & area_files(king.file())).count(),
        None => 0,
    } as i32;

    let (mut xray, mut bishop_ring) = (0, 0);
    for bishop in bishops {
        xray += (attacks::bishop_attacks(bishop, Bitboard::EMPTY) & their_pawns).count() as i32;
    }
    // Only a bishop that attacks nothing of the area can be lined up with it through pieces.
    for bishop in bishops & off_area {
        let through_pieces = attacks::bishop_attacks(bishop, our_pawns | their_pawns);
        bishop_ring += i32::from((through_pieces & their_area).any());
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

/// The files where a rook is shut in beside its king on `king_file`: the files beyond the king
/// from the centre (the a-side of a king on the a- to d-file; for a king on the e- to h-file its
/// own file and the h-side, as the rule has always read). One lookup.
#[inline(always)]
const fn trapped_side(king_file: File) -> Bitboard {
    Bitboard(TRAPPED_SIDE[king_file as usize])
}

/// [`trapped_side`] by the king's file: rank 1 of files a ..= king file - 1 (a king on the a- to
/// d-file) or of king file ..= h, spread to every rank.
const TRAPPED_SIDE: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        let below = (1u64 << file) - 1;
        let rank = if file < File::E as usize {
            below
        } else {
            0xff & !below
        };
        table[file] = rank * 0x0101_0101_0101_0101;
        file += 1;
    }
    table
};

/// The files of the king area ([`Info::king_area`]) of a king on `king_file`: its file and the
/// neighbouring ones, three files on the edge too (the area is widened inwards there). One
/// lookup instead of folding the area onto a rank.
#[inline(always)]
const fn area_files(king_file: File) -> Bitboard {
    Bitboard(AREA_FILES[king_file as usize])
}

/// [`area_files`] by the king's file.
const AREA_FILES: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        // Three files centred on the king's, moved inwards on the edge.
        let centre = if file == 0 {
            1
        } else if file == 7 {
            6
        } else {
            file
        };
        table[file] = (0b111u64 << (centre - 1)) * 0x0101_0101_0101_0101;
        file += 1;
    }
    table
};

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
