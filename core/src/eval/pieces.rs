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
use super::pawns::{adjacent_files, passed_span, relative_rank, stop_square};
use super::term::Term;
use super::tracer::Tracer;
use super::weights::channel::Linear;
use super::weights::{CLOSEDNESS_BUCKETS, Channel, Keys, Weight, WeightSpec, defaults};
use crate::geometry::king_distance;

/// The family of weights of piece placement; where it starts in the table is set where the
/// evaluation lists its families (`eval/mod.rs`).
#[derive(Clone, Copy, Debug)]
pub enum Pieces {}

/// The weights of piece placement, in table order: each entry declares one weight (see
/// [`WeightSpec`]); the handles below read them.
pub const WEIGHTS: &[WeightSpec] = &[
    WeightSpec {
        name: "knight_outpost",
        doc: "A knight on an outpost (its fourth to sixth rank, where no enemy pawn can ever \
              attack it), by whether it stands on the a- or h-file and whether an own pawn \
              defends it: index `edge × 2 + defended`.",
        default: &defaults::KNIGHT_OUTPOST,
        keys: Keys::Grid(&[&["inner", "edge"], &["open", "defended"]]),
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "bishop_outpost",
        doc: "A bishop on an outpost, indexed as `knight_outpost`.",
        default: &defaults::BISHOP_OUTPOST,
        keys: Keys::Grid(&[&["inner", "edge"], &["open", "defended"]]),
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "minor_behind_pawn",
        doc: "A knight (index 0) or bishop (1) with a pawn of either colour right in front \
              of it: shielded from the front, and the pawn covered.",
        default: &defaults::MINOR_BEHIND_PAWN,
        keys: Keys::Names(&["knight", "bishop"]),
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "knight_siberia",
        doc: "A knight \"in Siberia\": four or more squares (king distance) from both kings, \
              where it neither attacks nor defends; by that distance, 4 ..= 7.",
        default: &defaults::KNIGHT_SIBERIA,
        keys: Keys::Names(&["d4", "d5", "d6", "d7"]),
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "minor_king_distance",
        doc: "Per square of king distance (Chebyshev) from a knight (index 0) or bishop (1) \
              to its own king: minors near the king guard it. Mostly a middlegame idea: in \
              the endgame the knight's own king's distance can misread the race against a \
              passer: a large endgame half fails `tests/integration/knight_vs_passer_tables.rs`.",
        default: &defaults::MINOR_KING_DISTANCE,
        keys: Keys::Names(&["knight", "bishop"]),
        range: -100..=100,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "bishop_pawns_on_colour",
        doc: "Per own pawn on squares of a bishop's colour: they block it and leave the \
              other colour weak.",
        default: std::slice::from_ref(&defaults::BISHOP_PAWNS_ON_COLOUR),
        keys: Keys::One,
        range: -100..=100,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "bishop_rammed_pawns",
        doc: "Per own rammed pawn (an enemy pawn right in front of it) on squares of a \
              bishop's colour, on top of `bishop_pawns_on_colour`: those never \
              move out of its way.",
        default: std::slice::from_ref(&defaults::BISHOP_RAMMED_PAWNS),
        keys: Keys::One,
        range: -100..=100,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "bishop_long_diagonal",
        doc: "A bishop on a long diagonal (not on a centre square) that sees both centre \
              squares of it through everything but pawns.",
        default: std::slice::from_ref(&defaults::BISHOP_LONG_DIAGONAL),
        keys: Keys::One,
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "rook_on_seventh",
        doc: "A rook on its seventh rank while the enemy king is on its seventh or eighth.",
        default: std::slice::from_ref(&defaults::ROOK_ON_SEVENTH),
        keys: Keys::One,
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "space",
        doc: "Space: per central square (files c-f) on the own second to fourth rank that \
              holds no own pawn and no enemy pawn attacks, counted twice when it lies up to \
              three squares behind an own pawn and the enemy does not attack it at all.",
        default: std::slice::from_ref(&defaults::SPACE),
        keys: Keys::One,
        range: -50..=50,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "closedness_knight",
        doc: "Per knight, by how closed the pawns are (`closedness`, 0 open \
              ..= 8 locked): knights like closed positions.",
        default: &defaults::CLOSEDNESS_KNIGHT,
        keys: Keys::Grid(&[CLOSEDNESS_BUCKETS]),
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
    WeightSpec {
        name: "closedness_rook",
        doc: "Per rook, by how closed the pawns are: rooks like open positions.",
        default: &defaults::CLOSEDNESS_ROOK,
        keys: Keys::Grid(&[CLOSEDNESS_BUCKETS]),
        range: -200..=200,
        term: Term::PiecePlacement,
        channel: Channel::Linear,
    },
];

/// A knight on an outpost (its fourth to sixth rank, where no enemy pawn can ever attack it),
/// by whether it stands on the a- or h-file and whether an own pawn defends it: index `edge × 2
/// + defended`.
pub const KNIGHT_OUTPOST: Weight<Linear, 4, Pieces> = Weight::named(WEIGHTS, "knight_outpost");

/// A bishop on an outpost, indexed as [`KNIGHT_OUTPOST`].
pub const BISHOP_OUTPOST: Weight<Linear, 4, Pieces> = Weight::named(WEIGHTS, "bishop_outpost");

/// A knight (index 0) or bishop (1) with a pawn of either colour right in front of it: shielded
/// from the front, and the pawn covered.
pub const MINOR_BEHIND_PAWN: Weight<Linear, 2, Pieces> =
    Weight::named(WEIGHTS, "minor_behind_pawn");

/// A knight "in Siberia": four or more squares (king distance) from both kings, where it
/// neither attacks nor defends; by that distance, 4 ..= 7.
pub const KNIGHT_SIBERIA: Weight<Linear, 4, Pieces> = Weight::named(WEIGHTS, "knight_siberia");

/// Per square of king distance (Chebyshev) from a knight (index 0) or bishop (1) to its own
/// king: minors near the king guard it.
pub const MINOR_KING_DISTANCE: Weight<Linear, 2, Pieces> =
    Weight::named(WEIGHTS, "minor_king_distance");

/// Per own pawn on squares of a bishop's colour: they block it and leave the other colour weak.
pub const BISHOP_PAWNS_ON_COLOUR: Weight<Linear, 1, Pieces> =
    Weight::named(WEIGHTS, "bishop_pawns_on_colour");

/// Per own rammed pawn (an enemy pawn right in front of it) on squares of a bishop's colour, on
/// top of [`BISHOP_PAWNS_ON_COLOUR`]: those never move out of its way.
pub const BISHOP_RAMMED_PAWNS: Weight<Linear, 1, Pieces> =
    Weight::named(WEIGHTS, "bishop_rammed_pawns");

/// A bishop on a long diagonal (not on a centre square) that sees both centre squares of it
/// through everything but pawns.
pub const BISHOP_LONG_DIAGONAL: Weight<Linear, 1, Pieces> =
    Weight::named(WEIGHTS, "bishop_long_diagonal");

/// A rook on its seventh rank while the enemy king is on its seventh or eighth.
pub const ROOK_ON_SEVENTH: Weight<Linear, 1, Pieces> = Weight::named(WEIGHTS, "rook_on_seventh");

/// Space: per central square (files c-f) on the own second to fourth rank that holds no own
/// pawn and no enemy pawn attacks, counted twice when it lies up to three squares behind an own
/// pawn and the enemy does not attack it at all.
pub const SPACE: Weight<Linear, 1, Pieces> = Weight::named(WEIGHTS, "space");

/// Per knight, by how closed the pawns are ([`super::pieces::closedness`], 0 open ..= 8
/// locked): knights like closed positions.
pub const CLOSEDNESS_KNIGHT: Weight<Linear, 9, Pieces> =
    Weight::named(WEIGHTS, "closedness_knight");

/// Per rook, by how closed the pawns are: rooks like open positions.
pub const CLOSEDNESS_ROOK: Weight<Linear, 9, Pieces> = Weight::named(WEIGHTS, "closedness_rook");

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
        let on_seventh = rooks
            .into_iter()
            .filter(|&sq| relative_rank(sq, color) == 6);
        let n = on_seventh.count() as i32;
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
    for sq in board.by_piece(role.of(color)) {
        if is_outpost(sq, color, their_pawns) {
            let edge = matches!(sq.file(), shakmaty::File::A | shakmaty::File::H);
            let index = 2 * usize::from(edge) + usize::from(defended.contains(sq));
            acc.add(color, outpost.at(index), 1);
        }
        if stop_square(sq, color).is_some_and(|front| all_pawns.contains(front)) {
            acc.add(color, MINOR_BEHIND_PAWN.at(minor), 1);
        }
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
