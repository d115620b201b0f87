//! Square distances: king (Chebyshev), Manhattan (taxicab), distance to the centre and knight
//! distance on the otherwise empty board.
//!
//! Every distance is one lookup in a table that the compiler builds from a `const fn`, so there is
//! no start-up initialisation, no global mutable state and no `unsafe`. The knight table is built
//! by iterated set-wise knight fill ([`knight_fill`]) in a `const` block; the compact
//! rank/file-difference formulation [`knight_distance_by_rank_file`] is a second, independent
//! implementation kept for cross-checking and for callers who prefer 128 bytes to 4 KiB.
//!
//! Knight distances from a1 (note b2 = 4, not 2):
//!
//! ```text
//! 8  5 4 5 4 5 4 5 6
//! 7  4 3 4 3 4 5 4 5
//! 6  3 4 3 4 3 4 5 4
//! 5  2 3 2 3 4 3 4 5
//! 4  3 2 3 2 3 4 3 4
//! 3  2 1 4 3 2 3 4 5
//! 2  3 4 1 2 3 4 3 4
//! 1  0 3 2 3 2 3 4 5
//!    a b c d e f g h
//! ```

use shakmaty::{Bitboard, Square};

use super::knight::knight_fill;

/// A 64 × 64 table of small distances, indexed `[from][to]` by square index (a1 = 0, h8 = 63).
type SquarePairTable = [[u8; 64]; 64];

/// Absolute file and rank differences of two squares, from their indices.
const fn file_rank_differences(a: usize, b: usize) -> (usize, usize) {
    let (file_a, rank_a) = (a % 8, a / 8);
    let (file_b, rank_b) = (b % 8, b / 8);
    (file_a.abs_diff(file_b), rank_a.abs_diff(rank_b))
}

/// Builds a square-pair table from a `const`-evaluable rule on square indices.
///
/// A macro rather than a higher-order `const fn`, because `const fn` cannot yet call a function
/// pointer or closure.
macro_rules! square_pair_table {
    (|$a:ident, $b:ident| $rule:expr) => {{
        let mut table: SquarePairTable = [[0; 64]; 64];
        let mut $a = 0;
        while $a < 64 {
            let mut $b = 0;
            while $b < 64 {
                table[$a][$b] = $rule;
                $b += 1;
            }
            $a += 1;
        }
        table
    }};
}

/// King distance of every square pair: the larger of the file and rank differences.
static KING_DISTANCE: SquarePairTable = square_pair_table!(|a, b| {
    let (files, ranks) = file_rank_differences(a, b);
    (if files > ranks { files } else { ranks }) as u8
});

/// Manhattan distance of every square pair: the sum of the file and rank differences.
static MANHATTAN_DISTANCE: SquarePairTable = square_pair_table!(|a, b| {
    let (files, ranks) = file_rank_differences(a, b);
    (files + ranks) as u8
});

/// Distance of one file or rank index (0..8) to the nearer of the two central ones (3 and 4).
const fn distance_to_central_line(index: usize) -> usize {
    if index <= 3 { 3 - index } else { index - 4 }
}

/// Manhattan distance of every square to the nearest of d4, e4, d5, e5.
static CENTRE_MANHATTAN_DISTANCE: [u8; 64] = {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        table[square] =
            (distance_to_central_line(square % 8) + distance_to_central_line(square / 8)) as u8;
        square += 1;
    }
    table
};

/// Knight distance of every square pair on the empty board, by counting knight-fill cycles.
///
/// Row `from` is filled by growing the set of squares reached in at most `d` moves one fill cycle
/// at a time and writing `d` for the squares that are new in cycle `d`. Every square is reached
/// within six moves, so the loop ends with the full board.
static KNIGHT_DISTANCE: SquarePairTable = {
    let mut table: SquarePairTable = [[0; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut reached = 1u64 << from;
        let mut moves = 0;
        while reached != u64::MAX {
            moves += 1;
            let grown = knight_fill(Bitboard(reached)).0;
            let mut new_squares = grown & !reached;
            while new_squares != 0 {
                table[from][new_squares.trailing_zeros() as usize] = moves;
                new_squares &= new_squares - 1;
            }
            reached = grown;
        }
        from += 1;
    }
    table
};

/// King (Chebyshev) distance: the number of king moves between two squares on the empty board,
/// the larger of the file and rank differences (0..=7).
///
/// ```
/// use minkowski_core::geometry::king_distance;
/// use shakmaty::Square;
///
/// assert_eq!(king_distance(Square::A1, Square::H8), 7);
/// assert_eq!(king_distance(Square::E4, Square::G5), 2);
/// assert_eq!(king_distance(Square::C3, Square::C3), 0);
/// ```
#[must_use]
#[inline]
pub const fn king_distance(a: Square, b: Square) -> u32 {
    KING_DISTANCE[a.to_usize()][b.to_usize()] as u32
}

/// The squares within king distance `d` of each square (index `[d][square]`), for
/// [`nearest_king_distance`]: growing the distance one ring at a time and asking the set once
/// per ring is cheaper than measuring each of its squares.
static KING_WITHIN: [[u64; 64]; 8] = {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 64 {
            let mut b = 0;
            while b < 64 {
                if KING_DISTANCE[a][b] as usize <= d {
                    table[d][a] |= 1 << b;
                }
                b += 1;
            }
            a += 1;
        }
        d += 1;
    }
    table
};

/// The least [`king_distance`] from `sq` to a square of `set`, or `None` for an empty set.
///
/// ```
/// use minkowski_core::geometry::nearest_king_distance;
/// use shakmaty::{Bitboard, Square};
///
/// let set = Bitboard::from(Square::H8) | Bitboard::from(Square::E6);
/// assert_eq!(nearest_king_distance(Square::E4, set), Some(2));
/// assert_eq!(nearest_king_distance(Square::E4, Bitboard::EMPTY), None);
/// ```
#[must_use]
#[inline]
pub fn nearest_king_distance(sq: Square, set: Bitboard) -> Option<u32> {
    if set.is_empty() {
        return None;
    }
    let mut d = 0;
    // Ends by distance 7: every square is within it.
    while set.0 & KING_WITHIN[d][sq.to_usize()] == 0 {
        d += 1;
    }
    Some(d as u32)
}

/// Manhattan (taxicab) distance: the number of orthogonal king moves between two squares, the sum
/// of the file and rank differences (0..=14).
///
/// ```
/// use minkowski_core::geometry::manhattan_distance;
/// use shakmaty::Square;
///
/// assert_eq!(manhattan_distance(Square::A1, Square::H8), 14);
/// assert_eq!(manhattan_distance(Square::E4, Square::G5), 3);
/// assert_eq!(manhattan_distance(Square::A1, Square::A8), 7);
/// ```
#[must_use]
#[inline]
pub const fn manhattan_distance(a: Square, b: Square) -> u32 {
    MANHATTAN_DISTANCE[a.to_usize()][b.to_usize()] as u32
}

/// Manhattan distance from a square to the nearest of the four centre squares d4, e4, d5 and e5
/// (0 in the centre, 6 in the corners).
///
/// ```text
/// 8  6 5 4 3 3 4 5 6
/// 7  5 4 3 2 2 3 4 5
/// 6  4 3 2 1 1 2 3 4
/// 5  3 2 1 0 0 1 2 3
/// 4  3 2 1 0 0 1 2 3
/// 3  4 3 2 1 1 2 3 4
/// 2  5 4 3 2 2 3 4 5
/// 1  6 5 4 3 3 4 5 6
///    a b c d e f g h
/// ```
///
/// ```
/// use minkowski_core::geometry::centre_manhattan_distance;
/// use shakmaty::Square;
///
/// assert_eq!(centre_manhattan_distance(Square::E5), 0);
/// assert_eq!(centre_manhattan_distance(Square::A1), 6);
/// assert_eq!(centre_manhattan_distance(Square::B6), 3);
/// ```
#[must_use]
#[inline]
pub const fn centre_manhattan_distance(square: Square) -> u32 {
    CENTRE_MANHATTAN_DISTANCE[square.to_usize()] as u32
}

/// Knight distance: the fewest knight moves between two squares on the empty board (0..=6), by
/// lookup in a 64 × 64 table built at compile time by knight fill.
///
/// Diagonal neighbours are usually two moves apart, but four when one of them is a corner, because
/// the knight has no room to turn there.
///
/// ```
/// use minkowski_core::geometry::knight_distance;
/// use shakmaty::Square;
///
/// assert_eq!(knight_distance(Square::A1, Square::H8), 6);
/// assert_eq!(knight_distance(Square::A1, Square::B2), 4);
/// assert_eq!(knight_distance(Square::C3, Square::D4), 2);
/// assert_eq!(knight_distance(Square::G1, Square::F3), 1);
/// ```
#[must_use]
#[inline]
pub const fn knight_distance(a: Square, b: Square) -> u32 {
    KNIGHT_DISTANCE[a.to_usize()][b.to_usize()] as u32
}

/// Knight distance on an unbounded board, indexed by `8 × rank difference + file difference`
/// (both absolute). On the 8 × 8 board this is exact except for diagonal neighbours involving a
/// corner (index 9), which [`knight_distance_by_rank_file`] corrects.
#[rustfmt::skip]
const KNIGHT_DISTANCE_BY_DIFFERENCE: [u8; 64] = [
    0, 3, 2, 3, 2, 3, 4, 5,
    3, 2, 1, 2, 3, 4, 3, 4,
    2, 1, 4, 3, 2, 3, 4, 5,
    3, 2, 3, 2, 3, 4, 3, 4,
    2, 3, 2, 3, 4, 3, 4, 5,
    3, 4, 3, 4, 3, 4, 5, 4,
    4, 3, 4, 3, 4, 5, 4, 5,
    5, 4, 5, 4, 5, 4, 5, 6,
];

/// The four corner squares, where a diagonal step costs four knight moves instead of two.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Knight distance by the compact rank/file-difference formulation: a 64-entry table indexed by
/// `8 × |rank difference| + |file difference|`, plus 2 when the squares are diagonal neighbours
/// and exactly one of them is a corner.
///
/// An implementation independent of [`knight_distance`]'s fill-built table, so each checks the
/// other; both agree on all 4,096 pairs.
///
/// ```
/// use minkowski_core::geometry::{knight_distance, knight_distance_by_rank_file};
/// use shakmaty::Square;
///
/// assert_eq!(knight_distance_by_rank_file(Square::H8, Square::G7), 4);
/// assert_eq!(knight_distance_by_rank_file(Square::F6, Square::G7), 2);
/// for a in Square::ALL {
///     for b in Square::ALL {
///         assert_eq!(knight_distance_by_rank_file(a, b), knight_distance(a, b));
///     }
/// }
/// ```
#[must_use]
#[inline]
pub const fn knight_distance_by_rank_file(a: Square, b: Square) -> u32 {
    let (files, ranks) = file_rank_differences(a.to_usize(), b.to_usize());
    let difference_index = 8 * ranks + files;
    let is_diagonal_neighbour = difference_index == 9;
    let corner_count = ((CORNERS >> a.to_u32()) & 1) + ((CORNERS >> b.to_u32()) & 1);
    // Branch-free: `bool as u32` is 0 or 1; two corners are never diagonal neighbours.
    KNIGHT_DISTANCE_BY_DIFFERENCE[difference_index] as u32
        + 2 * (is_diagonal_neighbour as u32 & corner_count as u32)
}
