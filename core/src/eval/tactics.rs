//! Knight forks: squares from which one of our knights would attack two valuable enemy pieces.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::weights::role_index;
use crate::geometry::{NOT_FILE_A, NOT_FILE_H, knight_attacks_set, knight_fork_squares};

/// Piece values for exchanges (pawn, knight, bishop, rook, queen, king; index
/// [`role_index`]), in centipawns: the search's static exchange evaluation and the fork estimate
/// below. Round numbers, not the evaluation's tapered material: an exchange only needs to know
/// which side of zero it ends on.
///
/// ```
/// use minkowski_core::eval::tactics::EXCHANGE_VALUE;
/// use minkowski_core::eval::weights::role_index;
/// use shakmaty::Role;
/// assert!(EXCHANGE_VALUE[role_index(Role::Rook)] > EXCHANGE_VALUE[role_index(Role::Knight)]);
/// ```
pub const EXCHANGE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

fn exchange_value(role: Role) -> i32 {
    EXCHANGE_VALUE[role_index(role)]
}

/// The enemy pieces worth forking: king, queens, rooks, and knights or bishops that no enemy
/// piece defends.
///
/// ```
/// use minkowski_core::eval::tactics::fork_targets;
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
/// use minkowski_core::eval::tactics::pawn_attacks_set;
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
/// more [`fork_targets`], not occupied by its own pieces, where the fork keeps its gain: the
/// knight there cannot be taken at a loss for us ([`winning_fork_squares`]; a square guarded by
/// a pawn counts only when that pawn is pinned, one attacked by an undefended-against piece
/// does not count).
///
/// ```
/// use minkowski_core::eval::tactics::knight_fork_moves;
/// use shakmaty::{Chess, Color, Position, Square, CastlingMode, fen::Fen};
/// // The knight on d5 can jump to c7, forking the king on e8 and the rook on a8.
/// let pos: Chess = "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert!(knight_fork_moves(pos.board(), Color::White).contains(Square::C7));
/// // With a black bishop on a5 guarding c7 (and nothing of White's defending it), no fork.
/// let pos: Chess = "r3k3/8/8/b2N4/8/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert!(!knight_fork_moves(pos.board(), Color::White).contains(Square::C7));
/// ```
// Inlined into the evaluation so that it counts bits with `popcnt` there (see
// `Evaluator::evaluate_from`).
#[inline(always)]
#[must_use]
pub fn knight_fork_moves(board: &Board, attacker: Color) -> Bitboard {
    let knights = board.by_piece(Role::Knight.of(attacker));
    if knights.is_empty() {
        return Bitboard::EMPTY;
    }
    let (them, occupied) = (!attacker, board.occupied());
    forks_from(board, attacker, knight_attacks_set(knights), |sq| {
        board.attacks_to(sq, them, occupied).any()
    })
}

/// [`knight_fork_moves`] of an `attacker` that has knights, given the squares they attack
/// (`knight_reach`) and whether the enemy defends a square (`defended`): the evaluation has
/// both in its attack maps already, and asks them instead of computing them again.
// Inlined into the evaluation so that it counts bits with `popcnt` there.
#[inline(always)]
pub(super) fn forks_from(
    board: &Board,
    attacker: Color,
    knight_reach: Bitboard,
    defended: impl Fn(Square) -> bool,
) -> Bitboard {
    let avoid = board.by_color(attacker);
    let jumps = Bitboard(knight_reach.0 & !avoid.0);
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
    for sq in minors {
        if !defended(sq) {
            targets.add(sq);
        }
    }
    if !targets.more_than_one() {
        return Bitboard::EMPTY;
    }
    // `knight_fork_jumps` of the knights, whose attacks are `knight_reach`.
    let candidates = Bitboard(knight_reach.0 & knight_fork_squares(targets).0 & !avoid.0);
    keep_winning(board, attacker, candidates)
}

/// The fork squares of [`knight_fork_jumps`] (our pieces avoided) on which the fork keeps its
/// gain: the knight that lands there cannot be taken at a loss for us.
///
/// A fork wins the best forked piece other than the king if the king is forked (the check must
/// be answered), else the second best (the opponent saves one): always more than nothing, as two
/// pieces are attacked. The opponent's other answer is to take the knight, which wins the knight
/// and ends the fork, unless we recapture and the taker was worth at least a pawn more than the
/// knight. So the square keeps the fork exactly when no enemy piece can take there, or every
/// taker is worth that much more and one of our pieces other than the jumping knight defends the
/// square. Pieces pinned to their king are left out of the takers (they may not leave the line;
/// a knight-check square is never on that line). Not seen, to stay cheap: x-rays behind the
/// taker, and a defender of ours that is itself pinned.
///
/// This is what "SEE-aware" means for the fork terms of the evaluation and of the search: a
/// fork square guarded by a pawn counts when that pawn is pinned, one guarded only by a rook or
/// queen counts when we defend it, one any undefended enemy piece attacks does not count.
///
/// ```
/// use minkowski_core::eval::tactics::winning_fork_squares;
/// use shakmaty::{Bitboard, CastlingMode, Chess, Color, Position, Square, fen::Fen};
/// let kings_and_rooks = |pos: &Chess| pos.board().kings() | pos.board().rooks();
/// // The knight on d5 forks the king on e8 and the rook on a8 from c7.
/// let free: Chess = "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let targets = kings_and_rooks(&free) & free.board().by_color(Color::Black);
/// assert_eq!(winning_fork_squares(free.board(), Color::White, targets), Bitboard::from(Square::C7));
/// // From f6 the knight on e4 would fork the king on h7 and the queen on e8, but the pawn on
/// // g7 takes it there: no winning fork.
/// let guarded: Chess = "4q3/6pk/8/8/4N3/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let theirs = |pos: &Chess| (pos.board().kings() | pos.board().queens()) & pos.board().black();
/// assert!(winning_fork_squares(guarded.board(), Color::White, theirs(&guarded)).is_empty());
/// // With the pawn pinned to its king by the rook on a7 it cannot take: the fork wins again.
/// let pinned: Chess = "4q3/R5pk/8/8/4N3/8/8/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(
///     winning_fork_squares(pinned.board(), Color::White, theirs(&pinned)),
///     Bitboard::from(Square::F6)
/// );
/// ```
#[must_use]
#[inline]
pub fn winning_fork_squares(board: &Board, attacker: Color, targets: Bitboard) -> Bitboard {
    let knights = board.by_piece(Role::Knight.of(attacker));
    let candidates = knight_fork_jumps(knights, targets, board.by_color(attacker));
    keep_winning(board, attacker, candidates)
}

/// The squares of `candidates` (fork squares of `attacker`'s knights) on which the fork keeps
/// its gain: see [`winning_fork_squares`].
// Inlined into the evaluation's knight forks, so that it runs with `popcnt` there.
#[inline(always)]
fn keep_winning(board: &Board, attacker: Color, candidates: Bitboard) -> Bitboard {
    let them = !attacker;
    let occupied = board.occupied();
    let mut pinned = None;
    let mut winning = candidates;
    for sq in candidates {
        let mut takers = board.attacks_to(sq, them, occupied);
        if takers.is_empty() {
            continue;
        }
        takers &= !*pinned.get_or_insert_with(|| pinned_pieces(board, them));
        let Some(cheapest) = Role::ALL
            .into_iter()
            .find(|&role| (takers & board.by_role(role)).any())
        else {
            continue;
        };
        // The jumping knight attacks `sq` itself: a defender is a second attacker of ours.
        let defended = board.attacks_to(sq, attacker, occupied).more_than_one();
        let recapture_wins =
            exchange_value(cheapest) - exchange_value(Role::Knight) >= exchange_value(Role::Pawn);
        if !(defended && recapture_wins) {
            winning.discard(sq);
        }
    }
    winning
}

/// `color`'s pieces pinned to their own king by an enemy slider.
fn pinned_pieces(board: &Board, color: Color) -> Bitboard {
    let Some(king) = board.king_of(color) else {
        return Bitboard::EMPTY;
    };
    let enemy = board.by_color(!color);
    let snipers =
        (attacks::rook_attacks(king, Bitboard::EMPTY) & (board.rooks() | board.queens()) & enemy)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY)
                & (board.bishops() | board.queens())
                & enemy);
    let occupied = board.occupied();
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() {
            pinned |= between & board.by_color(color);
        }
    }
    pinned
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
/// use minkowski_core::eval::tactics::knight_fork_jumps;
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
#[inline]
pub const fn knight_fork_jumps(knights: Bitboard, targets: Bitboard, avoid: Bitboard) -> Bitboard {
    if knights.is_empty() || !targets.more_than_one() {
        return Bitboard::EMPTY;
    }
    Bitboard(knight_attacks_set(knights).0 & knight_fork_squares(targets).0 & !avoid.0)
}
