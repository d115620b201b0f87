//! Piece placement: where knights, bishops and rooks stand well or badly, beyond their square
//! tables and mobility. Outposts, minors behind a pawn, a knight far from both kings ("in
//! Siberia") and each minor's king distance to its own king, a bishop's own pawns on its colour,
//! a bishop on a long diagonal, a rook on the seventh, space behind the own pawns, and
//! knights and rooks by how closed the pawn structure is.
//!
//! The terms read [`Info`] after the pieces' attacks are in (space asks which squares the
//! enemy attacks), and run once per side.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::acc::Acc;
use super::info::Info;
use super::pawns::{adjacent_files, passed_span, relative_rank};
use super::score::S;
use super::tracer::Tracer;
use super::weights::{CLOSEDNESS_BUCKETS, declare_weights};
use crate::geometry::king_distance;

declare_weights! {
    /// The family of weights of piece placement; where it starts in the table is set where the
    /// evaluation lists its families (`eval/mod.rs`).
    family Pieces;

    channel Linear, row PiecePlacement, range -200..=200;
    /// A knight on an outpost (its fourth to sixth rank, where no enemy pawn can ever attack it),
    /// by whether it stands on the a- or h-file and whether an own pawn defends it: index `edge × 2
    /// + defended`.
    KNIGHT_OUTPOST[Grid(&[&["inner", "edge"], &["open", "defended"]])] = [
        S(12, -19), S(27, -1), S(12, -22), S(17, -8),
    ];
    /// A bishop on an outpost, indexed as `knight_outpost`.
    BISHOP_OUTPOST[Grid(&[&["inner", "edge"], &["open", "defended"]])] = [
        S(13, -7), S(28, 6), S(7, 1), S(11, -3),
    ];
    /// A knight (index 0) or bishop (1) with a pawn of either colour right in front of it: shielded
    /// from the front, and the pawn covered.
    MINOR_BEHIND_PAWN[Names(&["knight", "bishop"])] = [S(3, 17), S(5, 13)];
    /// A knight "in Siberia": four or more squares (king distance) from both kings, where it
    /// neither attacks nor defends; by that distance, 4 ..= 7.
    KNIGHT_SIBERIA[Names(&["d4", "d5", "d6", "d7"])] = [
        S(-5, -4), S(-8, -6), S(-14, -14), S(-57, -39),
    ];
    /// Per square of king distance (Chebyshev) from a knight (index 0) or bishop (1) to its own
    /// king: minors near the king guard it. Mostly a middlegame idea: in the endgame the knight's
    /// own king's distance can misread the race against a passer: a large endgame half fails
    /// `tests/integration/knight_vs_passer_tables.rs`.
    MINOR_KING_DISTANCE[Names(&["knight", "bishop"])] = [S(-3, -2), S(-4, -1)], range -100..=100;
    /// Per own pawn on squares of a bishop's colour: they block it and leave the other colour weak.
    BISHOP_PAWNS_ON_COLOUR = S(0, -4), range -100..=100;
    /// Per own rammed pawn (an enemy pawn right in front of it) on squares of a bishop's colour, on
    /// top of `bishop_pawns_on_colour`: those never move out of its way.
    BISHOP_RAMMED_PAWNS = S(-6, -10), range -100..=100;
    /// A bishop on a long diagonal (not on a centre square) that sees both centre squares of it
    /// through everything but pawns.
    BISHOP_LONG_DIAGONAL = S(15, 18);
    /// A rook on its seventh rank while the enemy king is on its seventh or eighth.
    ROOK_ON_SEVENTH = S(-1, 35);
    /// Space: per central square (files c-f) on the own second to fourth rank that holds no own
    /// pawn and no enemy pawn attacks, counted twice when it lies up to three squares behind an own
    /// pawn and the enemy does not attack it at all.
    SPACE = S(0, 5), range -50..=50;
    /// Per knight, by how closed the pawns are (`closedness`, 0 open ..= 8 locked): knights like
    /// closed positions.
    CLOSEDNESS_KNIGHT[Grid(&[CLOSEDNESS_BUCKETS])] = [
        S(-3, 17), S(-7, 30), S(-3, 34), S(-1, 35), S(5, 37), S(7, 41), S(13, 36), S(9, 50),
        S(7, 58),
    ];
    /// Per rook, by how closed the pawns are: rooks like open positions.
    CLOSEDNESS_ROOK[Grid(&[CLOSEDNESS_BUCKETS])] = [
        S(-7, 59), S(1, 47), S(-1, 41), S(3, 34), S(-1, 32), S(-1, 25), S(10, -4), S(1, 33),
        S(-3, 37),
    ];
}

/// Outposts: relative ranks 4 to 6 (index 3 ..= 5).
const OUTPOST_RANKS: std::ops::RangeInclusive<usize> = 3..=5;

/// The knight's distance to the nearer king from which it is "in Siberia": [`KNIGHT_SIBERIA`]
/// is indexed by that distance minus this.
pub const SIBERIA_DISTANCE: u32 = 4;

/// The two long diagonals, a1-h8 and a8-h1.
const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// d4, e4, d5, e5.
const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// White's space squares: files c to f, ranks 2 to 4 (Black's are the same, mirrored).
const SPACE_WHITE: Bitboard = Bitboard(0x0000_0000_3C3C_3C00);
/// Black's space squares: files c to f, ranks 5 to 7.
const SPACE_BLACK: Bitboard = Bitboard(0x003C_3C3C_0000_0000);

/// The closedness buckets of [`CLOSEDNESS_KNIGHT`] and [`CLOSEDNESS_ROOK`].
pub const CLOSEDNESS_LEVELS: usize = 9;

/// How closed the pawn structure is, 0 (open) ..= 8 (locked): all pawns, plus three per
/// rammed pair (a pawn with an enemy pawn right in front of it), minus four per file without
/// pawns, over three.
///
/// ```
/// use minkowski_core::eval::pieces::closedness;
/// use shakmaty::{Board, Chess, Position};
/// assert_eq!(closedness(Chess::default().board()), 5); // 16 pawns, nothing rammed, all files
/// assert_eq!(closedness(&Board::empty()), 0);
/// ```
#[must_use]
pub fn closedness(board: &Board) -> usize {
    let white = board.by_piece(Role::Pawn.of(Color::White));
    let black = board.by_piece(Role::Pawn.of(Color::Black));
    let rammed = (white & Bitboard(black.0 >> 8)).count() as i32;
    let mut files = (white | black).0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    let open = 8 - (files & 0xFF).count_ones() as i32;
    let value = (white | black).count() as i32 + 3 * rammed - 4 * open;
    (value / 3).clamp(0, CLOSEDNESS_LEVELS as i32 - 1) as usize
}

/// `color`'s pieces' placement terms; `closed` is [`closedness`] of the board.
// Inlined into the evaluation: there it runs with `popcnt` where the CPU has it (see
// `Evaluator::evaluate_from`); a separate function would count bits the slow way.
#[inline(always)]
pub fn evaluate<T: Tracer>(
    board: &Board,
    info: &Info,
    color: Color,
    closed: usize,
    acc: &mut Acc<'_, T>,
) {
    let our_pawns = *info.pawns.get(color);
    let their_pawns = *info.pawns.get(!color);
    let all_pawns = our_pawns | their_pawns;
    let our_king = *info.king.get(color);
    let their_king = *info.king.get(!color);
    let defended = *info.pawn_attacks.get(color);
    let rammed = our_pawns & pawns_behind(their_pawns, color);

    // One call per kind, each compiled for its kind (knights first, as the terms are listed).
    let near = Near {
        our_pawns,
        their_pawns,
        all_pawns,
        our_king,
        their_king,
        defended,
        rammed,
    };
    minors(board, color, Role::Knight, &near, acc);
    minors(board, color, Role::Bishop, &near, acc);

    let rooks = board.by_piece(Role::Rook.of(color));
    if their_king.is_some_and(|k| relative_rank(k, color) >= 6) {
        // The rooks on `color`'s seventh rank (relative rank index 6), counted as a set.
        let seventh = Bitboard::from_rank(match color {
            Color::White => shakmaty::Rank::Seventh,
            Color::Black => shakmaty::Rank::Second,
        });
        let n = (rooks & seventh).count() as i32;
        if n > 0 {
            acc.add(color, ROOK_ON_SEVENTH, n);
        }
    }

    let space = space_count(info, color);
    if space > 0 {
        acc.add(color, SPACE, space);
    }

    let knights = board.by_piece(Role::Knight.of(color)).count() as i32;
    if knights > 0 {
        acc.add(color, CLOSEDNESS_KNIGHT.at(closed), knights);
    }
    if rooks.any() {
        acc.add(color, CLOSEDNESS_ROOK.at(closed), rooks.count() as i32);
    }
}

/// What [`minors`] reads of `color`'s side and the enemy's.
#[derive(Clone, Copy)]
struct Near {
    our_pawns: Bitboard,
    their_pawns: Bitboard,
    all_pawns: Bitboard,
    our_king: Option<Square>,
    their_king: Option<Square>,
    defended: Bitboard,
    rammed: Bitboard,
}

/// `color`'s knights or bishops (`role`): outposts, a pawn in front, king distances, and for
/// bishops their pawns and the long diagonal.
#[inline(always)]
fn minors<T: Tracer>(board: &Board, color: Color, role: Role, near: &Near, acc: &mut Acc<'_, T>) {
    let Near {
        our_pawns,
        their_pawns,
        all_pawns,
        our_king,
        their_king,
        defended,
        rammed,
    } = *near;
    let minor = usize::from(role == Role::Bishop);
    let outpost = match role {
        Role::Knight => KNIGHT_OUTPOST,
        _ => BISHOP_OUTPOST,
    };
    let pieces = board.by_piece(role.of(color));
    if pieces.is_empty() {
        return;
    }
    // Only a piece on its fourth to sixth rank can stand on an outpost: the others skip the test.
    for sq in pieces & outpost_ranks(color) {
        if is_outpost(sq, color, their_pawns) {
            let edge = matches!(sq.file(), shakmaty::File::A | shakmaty::File::H);
            let index = 2 * usize::from(edge) + usize::from(defended.contains(sq));
            acc.add(color, outpost.at(index), 1);
        }
    }
    // A pawn right in front: the pieces on the squares behind the pawns, counted as a set.
    let behind = (pieces & pawns_behind(all_pawns, color)).count() as i32;
    if behind > 0 {
        acc.add(color, MINOR_BEHIND_PAWN.at(minor), behind);
    }
    for sq in pieces {
        if let Some(king) = our_king {
            acc.add(
                color,
                MINOR_KING_DISTANCE.at(minor),
                king_distance(sq, king) as i32,
            );
        }
        if role == Role::Knight {
            let nearest = [our_king, their_king]
                .into_iter()
                .flatten()
                .map(|k| king_distance(sq, k))
                .min();
            if let Some(d) = nearest.filter(|&d| d >= SIBERIA_DISTANCE) {
                acc.add(color, KNIGHT_SIBERIA.at((d - SIBERIA_DISTANCE) as usize), 1);
            }
            continue;
        }
        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
            Bitboard::LIGHT_SQUARES
        } else {
            Bitboard::DARK_SQUARES
        };
        let same = (our_pawns & colour).count() as i32;
        if same > 0 {
            acc.add(color, BISHOP_PAWNS_ON_COLOUR, same);
        }
        let same_rammed = (rammed & colour).count() as i32;
        if same_rammed > 0 {
            acc.add(color, BISHOP_RAMMED_PAWNS, same_rammed);
        }
        if on_long_diagonal(sq, all_pawns) {
            acc.add(color, BISHOP_LONG_DIAGONAL, 1);
        }
    }
}

/// `color`'s fourth to sixth ranks ([`OUTPOST_RANKS`]), where its outposts lie.
const fn outpost_ranks(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(0x0000_FFFF_FF00_0000),
        Color::Black => Bitboard(0x0000_00FF_FFFF_0000),
    }
}

/// Whether `sq` is an outpost for `color`: on its fourth to sixth rank, and no pawn of
/// `their_pawns` stands on a neighbouring file in front of it (none can ever attack it).
///
/// ```
/// use minkowski_core::eval::pieces::is_outpost;
/// use shakmaty::{Bitboard, Color, Square};
/// assert!(is_outpost(Square::D5, Color::White, Bitboard::from(Square::D7))); // same file
/// assert!(!is_outpost(Square::D5, Color::White, Bitboard::from(Square::C7)));
/// assert!(is_outpost(Square::D5, Color::White, Bitboard::from(Square::C4))); // behind it
/// assert!(!is_outpost(Square::D3, Color::White, Bitboard::EMPTY)); // too far back
/// assert!(is_outpost(Square::E4, Color::Black, Bitboard::EMPTY));
/// ```
#[must_use]
pub fn is_outpost(sq: Square, color: Color, their_pawns: Bitboard) -> bool {
    OUTPOST_RANKS.contains(&relative_rank(sq, color))
        && (passed_span(sq, color) & adjacent_files(sq) & their_pawns).is_empty()
}

/// Whether a bishop on `sq` stands on a long diagonal (not on a centre square) and, seeing
/// through everything but pawns, reaches both centre squares of it.
#[must_use]
fn on_long_diagonal(sq: Square, pawns: Bitboard) -> bool {
    LONG_DIAGONALS.contains(sq)
        && !CENTRE.contains(sq)
        && (attacks::bishop_attacks(sq, pawns) & CENTRE).more_than_one()
}

/// The squares right behind (on `color`'s side of) the pawns `pawns`: a `color` pawn there is
/// rammed by them.
const fn pawns_behind(pawns: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(pawns.0 >> 8),
        Color::Black => Bitboard(pawns.0 << 8),
    }
}

/// `color`'s space: the central squares on its second to fourth rank (files c to f) that hold
/// no own pawn and that no enemy pawn attacks, each counted once more when it lies up to three
/// squares behind an own pawn and the enemy does not attack it at all.
#[inline(always)]
fn space_count(info: &Info, color: Color) -> i32 {
    let our_pawns = *info.pawns.get(color);
    let mask = match color {
        Color::White => SPACE_WHITE,
        Color::Black => SPACE_BLACK,
    };
    let safe = mask & !our_pawns & !*info.pawn_attacks.get(!color);
    let mut behind = our_pawns;
    for _ in 0..3 {
        behind |= pawns_behind(behind, color);
    }
    let sheltered = behind & safe & !*info.attacked.get(!color);
    (safe.count() + sheltered.count()) as i32
}

#[cfg(test)]
mod tests;
