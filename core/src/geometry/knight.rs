//! Set-wise knight patterns: the attacks of any set of knights at once, knight fill, the squares
//! reachable in at most `n` moves around forbidden squares, knight distance by counting fill
//! cycles, and the squares from which a knight forks two or more targets.
//!
//! Everything works on whole [`Bitboard`]s with shifts and file masks, so the cost does not depend
//! on how many knights or targets there are. Each shift is masked so that no bit wraps from the
//! a-file to the h-file or back.
//!
//! The eight knight directions as square-index differences (a1 = 0, h8 = 63):
//!
//! ```text
//!         +15  +17
//!     +6            +10
//!             N
//!    -10            -6
//!         -17  -15
//! ```

use shakmaty::{Bitboard, Square};

use super::files::{NOT_FILE_A, NOT_FILE_H, NOT_FILES_AB, NOT_FILES_GH};

/// Squares attacked by any knight of a set, computed for all knights at once.
///
/// Each knight move is one file step and two rank steps or two file steps and one rank step, so
/// the set is first moved one and two files east and west (masked against wrapping), then those
/// moved two and one ranks up and down; bits shifted past rank 1 or 8 simply fall off the board.
///
/// ```
/// use minkowski_core::geometry::knight_attacks_set;
/// use shakmaty::{attacks::knight_attacks, Bitboard, Square};
///
/// let knights = Bitboard::from(Square::B1) | Bitboard::from(Square::G1);
/// assert_eq!(
///     knight_attacks_set(knights),
///     knight_attacks(Square::B1) | knight_attacks(Square::G1),
/// );
/// // Nothing wraps from the h-file to the a-file.
/// assert_eq!(knight_attacks_set(Bitboard::from(Square::H4)).count(), 4);
/// ```
#[must_use]
#[inline]
pub const fn knight_attacks_set(knights: Bitboard) -> Bitboard {
    let knights = knights.0;
    let one_file = ((knights << 1) & NOT_FILE_A) | ((knights >> 1) & NOT_FILE_H);
    let two_files = ((knights << 2) & NOT_FILES_AB) | ((knights >> 2) & NOT_FILES_GH);
    Bitboard((one_file << 16) | (one_file >> 16) | (two_files << 8) | (two_files >> 8))
}

/// One knight-fill cycle: the knights' own squares together with every square they attack, i.e.
/// the squares reachable in at most one move.
///
/// Applied `n` times to a single knight it gives the squares reachable in at most `n` moves; six
/// cycles cover the whole board from any square.
///
/// ```
/// use minkowski_core::geometry::knight_fill;
/// use shakmaty::{Bitboard, Square};
///
/// let once = knight_fill(Bitboard::from(Square::A1));
/// assert_eq!(once, Bitboard::from(Square::A1) | Bitboard::from(Square::B3) | Bitboard::from(Square::C2));
///
/// let mut reached = Bitboard::from(Square::A1);
/// for _ in 0..6 {
///     reached = knight_fill(reached);
/// }
/// assert_eq!(reached, Bitboard::FULL);
/// ```
#[must_use]
#[inline]
pub const fn knight_fill(knights: Bitboard) -> Bitboard {
    Bitboard(knight_attacks_set(knights).0 | knights.0)
}

/// Squares that knights starting on `start` reach in at most `max_moves` moves without ever
/// landing on a square of `forbidden` (for example squares guarded by enemy pawns).
///
/// The start squares always count as reached (in zero moves), even if they are forbidden: a knight
/// already standing there never has to step onto them, and it may leave them. Every other square
/// of the result is reached by a path whose every landing square is allowed, so the result never
/// contains a forbidden square that is not a start square. Several knights are handled at once;
/// the result is the union of what each reaches.
///
/// The loop stops early once a cycle adds nothing, so any `max_moves` (even `u32::MAX`) costs at
/// most 64 cycles.
///
/// ```
/// use minkowski_core::geometry::knight_reach;
/// use shakmaty::{Bitboard, Square};
///
/// let a1 = Bitboard::from(Square::A1);
/// // b3 and c2 are the only ways out of a1; forbid both and the knight is stuck.
/// let guarded = Bitboard::from(Square::B3) | Bitboard::from(Square::C2);
/// assert_eq!(knight_reach(a1, 5, guarded), a1);
///
/// // With only b3 guarded, c2 is reached in one move and b3 is never entered.
/// let reached = knight_reach(a1, 2, Bitboard::from(Square::B3));
/// assert!(reached.contains(Square::C2) && reached.contains(Square::E3));
/// assert!(!reached.contains(Square::B3));
/// assert_eq!(knight_reach(a1, 6, Bitboard::EMPTY), Bitboard::FULL);
/// ```
#[must_use]
pub const fn knight_reach(start: Bitboard, max_moves: u32, forbidden: Bitboard) -> Bitboard {
    let allowed = !forbidden.0;
    let mut reached = start.0;
    let mut moves = 0;
    while moves < max_moves {
        let grown = reached | (knight_attacks_set(Bitboard(reached)).0 & allowed);
        if grown == reached {
            break;
        }
        reached = grown;
        moves += 1;
    }
    Bitboard(reached)
}

/// Fewest moves for a knight from any square of `from` to land on any square of `to` without ever
/// landing on a square of `forbidden`, by counting fill cycles; `None` if no such path exists.
///
/// Exactly the smallest `n` for which [`knight_reach`]`(from, n, forbidden)` meets `to`: `Some(0)`
/// when the sets already intersect, `None` when either set is empty or every path is blocked.
/// A forbidden target square can only be reached in zero moves.
///
/// ```
/// use minkowski_core::geometry::knight_set_distance;
/// use shakmaty::{Bitboard, Square};
///
/// let a1 = Bitboard::from(Square::A1);
/// let h8 = Bitboard::from(Square::H8);
/// assert_eq!(knight_set_distance(a1, h8, Bitboard::EMPTY), Some(6));
/// assert_eq!(knight_set_distance(a1, a1, Bitboard::FULL), Some(0));
/// let exits = Bitboard::from(Square::B3) | Bitboard::from(Square::C2);
/// assert_eq!(knight_set_distance(a1, h8, exits), None);
/// // Knights on a1 and h1 need 2 and 3 moves to e3; the nearer one counts.
/// let knights = a1 | Bitboard::from(Square::H1);
/// assert_eq!(knight_set_distance(knights, Bitboard::from(Square::E3), Bitboard::EMPTY), Some(2));
/// ```
#[must_use]
pub const fn knight_set_distance(from: Bitboard, to: Bitboard, forbidden: Bitboard) -> Option<u32> {
    let allowed = !forbidden.0;
    let mut reached = from.0;
    let mut moves = 0;
    loop {
        if reached & to.0 != 0 {
            return Some(moves);
        }
        let grown = reached | (knight_attacks_set(Bitboard(reached)).0 & allowed);
        if grown == reached {
            return None;
        }
        reached = grown;
        moves += 1;
    }
}

/// Knight distance between two squares on the empty board by counting fill cycles until the
/// growing set of reached squares contains the target: the same value as the lookup
/// [`knight_distance`](super::knight_distance), computed without a table.
///
/// ```
/// use minkowski_core::geometry::knight_distance_by_fill;
/// use shakmaty::Square;
///
/// assert_eq!(knight_distance_by_fill(Square::A1, Square::H8), 6);
/// assert_eq!(knight_distance_by_fill(Square::A1, Square::B2), 4);
/// assert_eq!(knight_distance_by_fill(Square::E4, Square::E4), 0);
/// ```
#[must_use]
pub const fn knight_distance_by_fill(a: Square, b: Square) -> u32 {
    let target = 1u64 << b.to_u32();
    let mut reached = 1u64 << a.to_u32();
    let mut moves = 0;
    // The knight graph of the empty board is connected, so this ends within six cycles.
    while reached & target == 0 {
        reached = knight_fill(Bitboard(reached)).0;
        moves += 1;
    }
    moves
}

/// The set moved by each of the eight knight directions, masked against file wrap.
///
/// Because the knight's moves are symmetric, the set moved by one direction is exactly the squares
/// from which a knight attacks a member of the set by the opposite direction.
const fn knight_direction_shifts(set: u64) -> [u64; 8] {
    [
        (set << 17) & NOT_FILE_A,
        (set << 15) & NOT_FILE_H,
        (set << 10) & NOT_FILES_AB,
        (set << 6) & NOT_FILES_GH,
        (set >> 6) & NOT_FILES_AB,
        (set >> 10) & NOT_FILES_GH,
        (set >> 15) & NOT_FILE_A,
        (set >> 17) & NOT_FILE_H,
    ]
}

/// Fork squares: every square from which a knight attacks two or more squares of `targets`.
///
/// Branch- and loop-free in effect: the union of the pairwise intersections of the eight direction
/// shifts of the target set. A square in the shifts of two different directions attacks two
/// different targets. The running union `attacked_so_far` makes that 8 steps rather than 28 pairs.
///
/// The result may include target squares themselves and squares occupied or guarded; intersect it
/// with the squares your knights can safely move to.
///
/// ```
/// use minkowski_core::geometry::knight_fork_squares;
/// use shakmaty::{Bitboard, Square};
///
/// // King on e8 and rook on a8: a knight on c7 forks them.
/// let targets = Bitboard::from(Square::E8) | Bitboard::from(Square::A8);
/// let forks = knight_fork_squares(targets);
/// assert!(forks.contains(Square::C7));
/// assert_eq!(forks.count(), 1);
/// assert_eq!(knight_fork_squares(Bitboard::from(Square::D4)), Bitboard::EMPTY);
/// ```
#[must_use]
pub const fn knight_fork_squares(targets: Bitboard) -> Bitboard {
    let shifts = knight_direction_shifts(targets.0);
    let mut attacked_so_far = 0;
    let mut forks = 0;
    let mut direction = 0;
    while direction < shifts.len() {
        forks |= shifts[direction] & attacked_so_far;
        attacked_so_far |= shifts[direction];
        direction += 1;
    }
    Bitboard(forks)
}
