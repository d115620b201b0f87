//! Knight forks: squares from which one of our knights would attack two valuable enemy pieces.

use shakmaty::{Bitboard, Board, Color, Role};

use crate::geometry::{NOT_FILE_A, NOT_FILE_H, knight_attacks_set, knight_fork_squares};

/// The enemy pieces worth forking: king, queens, rooks, and knights or bishops that no enemy
/// piece defends.
///
/// ```
/// use minkowski::eval::tactics::fork_targets;
/// use shakmaty::{Chess, Color, Position, Square};
/// let targets = fork_targets(Chess::default().board(), Color::White);
/// assert!(targets.contains(Square::E8) && targets.contains(Square::D8) && targets.contains(Square::A8));
/// assert!(!targets.contains(Square::B8)); // the b8 knight is defended by the a8 rook
/// ```
#[must_use]
pub fn fork_targets(board: &Board, attacker: Color) -> Bitboard {
    let them = !attacker;
    let occupied = board.occupied();
    let mut targets = board.by_piece(Role::King.of(them))
        | board.by_piece(Role::Queen.of(them))
        | board.by_piece(Role::Rook.of(them));
    let minors = board.by_piece(Role::Knight.of(them)) | board.by_piece(Role::Bishop.of(them));
    for sq in minors {
        if board.attacks_to(sq, them, occupied).is_empty() {
            targets.add(sq);
        }
    }
    targets
}

/// Squares attacked by `color`'s pawns, set-wise.
///
/// ```
/// use minkowski::eval::tactics::pawn_attacks_set;
/// use shakmaty::{Bitboard, Color, Square};
/// let a2 = Bitboard::from(Square::A2);
/// assert_eq!(pawn_attacks_set(a2, Color::White), Bitboard::from(Square::B3));
/// ```
#[must_use]
pub const fn pawn_attacks_set(pawns: Bitboard, color: Color) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p << 7) & NOT_FILE_H) | ((p << 9) & NOT_FILE_A),
        Color::Black => ((p >> 9) & NOT_FILE_H) | ((p >> 7) & NOT_FILE_A),
    })
}

/// Squares one of `attacker`'s knights can jump to in one move from which it attacks two or
/// more [`fork_targets`], not occupied by its own pieces and not guarded by an enemy pawn:
/// [`knight_fork_jumps`] with those sets taken from `board`.
///
/// ```
/// use minkowski::eval::tactics::knight_fork_moves;
/// use shakmaty::{Chess, Color, Position, Square, CastlingMode, fen::Fen};
/// // The knight on d5 can jump to c7, forking the king on e8 and the rook on a8.
/// let pos: Chess = "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert!(knight_fork_moves(pos.board(), Color::White).contains(Square::C7));
/// ```
#[must_use]
pub fn knight_fork_moves(board: &Board, attacker: Color) -> Bitboard {
    let knights = board.by_piece(Role::Knight.of(attacker));
    if knights.is_empty() {
        return Bitboard::EMPTY;
    }
    let guarded = pawn_attacks_set(board.by_piece(Role::Pawn.of(!attacker)), !attacker);
    let avoid = board.by_color(attacker) | guarded;
    let jumps = Bitboard(knight_attacks_set(knights).0 & !avoid.0);
    if jumps.is_empty() {
        return Bitboard::EMPTY;
    }
    // Only targets a knight on one of `jumps` would attack can count towards a fork: leaving
    // the others out (before the costly "is this minor defended" test) changes no result.
    let reach = knight_attacks_set(jumps);
    let them = !attacker;
    let mut targets = reach
        & (board.by_piece(Role::King.of(them))
            | board.by_piece(Role::Queen.of(them))
            | board.by_piece(Role::Rook.of(them)));
    let minors =
        reach & (board.by_piece(Role::Knight.of(them)) | board.by_piece(Role::Bishop.of(them)));
    if !(targets | minors).more_than_one() {
        return Bitboard::EMPTY; // fewer than two possible targets: no fork
    }
    let occupied = board.occupied();
    for sq in minors {
        if board.attacks_to(sq, them, occupied).is_empty() {
            targets.add(sq);
        }
    }
    knight_fork_jumps(knights, targets, avoid)
}

/// Squares that one of `knights` can jump to in one move and from which it attacks two or more
/// squares of `targets`, leaving out the squares of `avoid` (typically the knights' own pieces
/// and the squares enemy pawns guard). Plain bitboards in, so any board representation can call
/// it: `Bitboard(u64)` with a1 = bit 0 … h8 = bit 63.
///
/// Minkowski's targets are the enemy king, queens and rooks, and undefended knights and bishops
/// ([`fork_targets`]); pass your own.
///
/// ```
/// use minkowski::eval::tactics::knight_fork_jumps;
/// use shakmaty::{Bitboard, Square};
///
/// let knights = Bitboard::from(Square::D5);
/// let targets = Bitboard::from(Square::E8) | Bitboard::from(Square::A8); // king and rook
/// assert_eq!(knight_fork_jumps(knights, targets, Bitboard::EMPTY), Bitboard::from(Square::C7));
/// // A pawn on b6 (or d6) guards c7: no fork there.
/// assert!(knight_fork_jumps(knights, targets, Bitboard::from(Square::C7)).is_empty());
/// // The same from raw u64s (d5 = 35, e8 = 60, a8 = 56, c7 = 50):
/// let jumps = knight_fork_jumps(Bitboard(1 << 35), Bitboard(1 << 60 | 1 << 56), Bitboard(0));
/// assert_eq!(jumps.0, 1 << 50);
/// ```
#[must_use]
pub const fn knight_fork_jumps(knights: Bitboard, targets: Bitboard, avoid: Bitboard) -> Bitboard {
    if knights.is_empty() || !targets.more_than_one() {
        return Bitboard::EMPTY;
    }
    Bitboard(knight_attacks_set(knights).0 & knight_fork_squares(targets).0 & !avoid.0)
}
