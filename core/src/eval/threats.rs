//! Threats: which pieces are attacked by what. A piece attacked by something cheaper, or
//! attacked more often than it is defended, is likely to be lost or to cost a tempo; the side to
//! move can often cash one threat, the other side only parry it. Each term is a count of pieces
//! in a set computed from the attack maps of [`Info`] (the real attacks, filled in by the
//! mobility pass, so this runs after it).
//!
//! Most terms are penalties to the owner of the threatened pieces (their weights come out
//! negative from a fit); the pawn-push threat is a bonus to the pusher. The knight forks (the
//! side to move can play a fork that keeps its gain, or the other side threatens one) are part
//! of the same pass, with their own weights and trace row.
//!
//! "Poorly defended" is the one notion most terms share: a square the enemy attacks and we do
//! not defend at all, or one the enemy attacks twice while we defend it at most once and never
//! with a pawn. An exchange there loses material.

use shakmaty::{Bitboard, Board, Color, Rank, Role};

use super::acc::Acc;
use super::info::Info;
use super::score::S;
use super::tactics::{forks_from, knight_fork_moves, pawn_attacks_set};
use super::to_move::SideToMove;
use super::tracer::Tracer;
use super::weights::channel::Linear;
use super::weights::{Slot, declare_weights, role_index};

declare_weights! {
    /// The family of weights of threats and knight forks; where it starts in the table is set where
    /// the evaluation lists its families (`eval/mod.rs`).
    family Threats;

    channel Linear, row Threats, range -300..=300;
    /// Per own pawn that enemy pieces win: not attacked by an enemy pawn, and poorly defended
    /// (attacked and not defended, or attacked twice and defended at most once, by no pawn).
    THREAT_WEAK_PAWN = S(-25, -38);
    /// Per own knight or bishop attacked by an enemy pawn.
    THREAT_MINOR_BY_PAWN = S(-75, -60);
    /// Per own knight or bishop attacked by an enemy knight or bishop.
    THREAT_MINOR_BY_MINOR = S(-25, -32);
    /// Per own knight or bishop attacked by an enemy rook or queen and poorly defended.
    THREAT_MINOR_BY_MAJOR = S(-52, -49);
    /// Per own rook attacked by an enemy pawn, knight or bishop.
    THREAT_ROOK_BY_LESSER = S(-71, -32);
    /// Per own poorly defended knight or bishop (`minor`) or rook (`rook`) that the enemy king
    /// attacks.
    THREAT_BY_KING[Names(&["minor", "rook"])] = [S(-56, -33), S(-84, -19)];
    /// Per own queen attacked by anything.
    THREAT_QUEEN_ATTACKED = S(-66, -40);
    /// Per own knight, bishop, rook or queen attacked exactly once and defended exactly once: its
    /// one defender is tied to it.
    THREAT_OVERLOADED = S(-4, -11);
    /// Per enemy knight, bishop, rook or queen that one of our safe pawn pushes would attack (and
    /// no pawn of ours attacks yet).
    THREAT_PAWN_PUSH = S(17, 15);
    /// The side to move has a knight move to a fork square (two valuable targets) where the fork
    /// keeps its gain: the knight cannot be taken there at a loss.
    FORK_NOW = S(76, 108), range -300..=500, row KnightForks;
    /// The side not to move threatens such a knight fork.
    FORK_THREAT = S(17, 6), range -300..=500, row KnightForks;
}

/// Index of a threatened minor piece in [`THREAT_BY_KING`].
const BY_KING_MINOR: usize = 0;
/// Index of a threatened rook in [`THREAT_BY_KING`].
const BY_KING_ROOK: usize = 1;

/// Whether the side to move can change this family's value on `board`: a knight fork counts as
/// `fork_now` for the side to move and `fork_threat` for the other.
#[must_use]
pub fn reads_side_to_move(board: &Board) -> bool {
    Color::ALL
        .into_iter()
        .any(|color| knight_fork_moves(board, color).any())
}

/// Scores every threat on the board and the knight forks, `turn` to move.
// Inlined into the evaluation: there it runs with `popcnt` where the CPU has it (see
// `Evaluator::evaluate_from`); a separate function would count bits the slow way.
#[inline(always)]
pub fn evaluate<T: Tracer>(board: &Board, info: &Info, turn: SideToMove, acc: &mut Acc<'_, T>) {
    // One call per side, each compiled for its colour.
    side(board, info, turn, Color::White, acc);
    side(board, info, turn, Color::Black, acc);
}

/// `color`'s threatened pieces, pawn pushes and knight forks.
#[inline(always)]
fn side<T: Tracer>(
    board: &Board,
    info: &Info,
    turn: SideToMove,
    color: Color,
    acc: &mut Acc<'_, T>,
) {
    threatened(board, info, color, acc);
    pawn_push(board, info, color, acc);
    // Knight forks: the side to move can play one now; the other only threatens it.
    // The knights' attacks and the enemy's defence, from the attack maps (as
    // `knight_fork_moves` computes them; no knights, no attacks).
    let knight_reach = info.attacks.get(color)[role_index(Role::Knight)];
    let defence = *info.attacked.get(!color);
    if knight_reach.any() && forks_from(board, color, knight_reach, |sq| defence.contains(sq)).any()
    {
        let weight = if turn.color() == color {
            FORK_NOW
        } else {
            FORK_THREAT
        };
        acc.add(color, weight, 1);
    }
}

/// The squares where `color`'s pieces are poorly defended: attacked by the enemy and not
/// defended, or attacked twice and defended at most once, without a pawn among the defenders.
#[inline(always)]
fn poorly_defended(info: &Info, color: Color) -> Bitboard {
    let (ours, theirs) = (*info.attacked.get(color), *info.attacked.get(!color));
    let (ours2, theirs2) = (
        *info.attacked_twice.get(color),
        *info.attacked_twice.get(!color),
    );
    let our_pawn_guard = info.attacks.get(color)[role_index(Role::Pawn)];
    (theirs & !ours) | (theirs2 & !ours2 & !our_pawn_guard)
}

/// `color`'s pieces under threat: each set counted once, as a penalty to `color`.
#[inline(always)]
fn threatened<T: Tracer>(board: &Board, info: &Info, color: Color, acc: &mut Acc<'_, T>) {
    let them = *info.attacks.get(!color);
    let by_pawn = them[role_index(Role::Pawn)];
    let by_minor = them[role_index(Role::Knight)] | them[role_index(Role::Bishop)];
    let by_major = them[role_index(Role::Rook)] | them[role_index(Role::Queen)];
    let by_king = them[role_index(Role::King)];
    let attacked = *info.attacked.get(!color);

    let ours = board.by_color(color);
    let pawns = *info.pawns.get(color);
    let minors = (board.knights() | board.bishops()) & ours;
    let rooks = board.rooks() & ours;
    let queens = board.queens() & ours;
    let poor = poorly_defended(info, color);

    let mut add = |slot: Slot<Linear>, set: Bitboard| {
        if set.any() {
            acc.add(color, slot, set.count() as i32);
        }
    };
    // A pawn that an enemy pawn attacks is a pawn-structure matter (levers); here only the
    // pawns that pieces win.
    add(THREAT_WEAK_PAWN.at(0), pawns & !by_pawn & poor);
    add(THREAT_MINOR_BY_PAWN.at(0), minors & by_pawn);
    add(THREAT_MINOR_BY_MINOR.at(0), minors & by_minor);
    add(THREAT_MINOR_BY_MAJOR.at(0), minors & poor & by_major);
    add(THREAT_ROOK_BY_LESSER.at(0), rooks & (by_pawn | by_minor));
    add(THREAT_BY_KING.at(BY_KING_MINOR), minors & poor & by_king);
    add(THREAT_BY_KING.at(BY_KING_ROOK), rooks & poor & by_king);
    add(THREAT_QUEEN_ATTACKED.at(0), queens & attacked);
    // Overloaded: attacked once and defended once; the one defender cannot also guard
    // anything else.
    let once_ours = *info.attacked.get(color) & !*info.attacked_twice.get(color);
    let once_theirs = attacked & !*info.attacked_twice.get(!color);
    add(
        THREAT_OVERLOADED.at(0),
        (minors | rooks | queens) & once_ours & once_theirs,
    );
}

/// `color`'s safe pawn pushes (one step, or two from the second rank) that would attack an
/// enemy piece (not a pawn or the king) that no pawn of ours attacks yet: a bonus per piece so
/// attacked. Safe: no enemy pawn attacks the square the pawn lands on (nor, for a double step,
/// the one it passes, where it could be taken en passant), and we defend it or the enemy does
/// not attack it.
#[inline(always)]
fn pawn_push<T: Tracer>(board: &Board, info: &Info, color: Color, acc: &mut Acc<'_, T>) {
    let empty = !info.occupied;
    let their_pawn_guard = info.attacks.get(!color)[role_index(Role::Pawn)];
    let third = Bitboard::from_rank(match color {
        Color::White => Rank::Third,
        Color::Black => Rank::Sixth,
    });
    let single = forward(*info.pawns.get(color), color) & empty;
    let double = forward(single & third & !their_pawn_guard, color) & empty;
    let safe = (single | double)
        & !their_pawn_guard
        & (*info.attacked.get(color) | !*info.attacked.get(!color));
    let targets = board.by_color(!color)
        & !(board.pawns() | board.kings())
        & !info.attacks.get(color)[role_index(Role::Pawn)];
    let hit = pawn_attacks_set(safe, color) & targets;
    if hit.any() {
        acc.add(color, THREAT_PAWN_PUSH, hit.count() as i32);
    }
}

/// `set` moved one rank towards the enemy of `color`.
const fn forward(set: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(set.0 << 8),
        Color::Black => Bitboard(set.0 >> 8),
    }
}

#[cfg(test)]
mod tests;
