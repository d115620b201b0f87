//! Targets: what each side's attacks aim at, counted by attacker **and** victim — the detail
//! that [`super::threats`] (pieces attacked by something cheaper or poorly defended, one count per
//! set) leaves out. A minor piece attacking a rook threatens more than one attacking a pawn; a
//! piece defended only by its queen is tied to it; a queen that a rook x-rays through one piece
//! can be pinned or hit by a discovered attack.
//!
//! Each term is a **bonus to the attacker** (`color` below is the side whose attacks are
//! counted; the fit makes the weights positive where the threat matters). Two notions recur:
//!
//! - **Strongly protected** (for the defender): a square its pawns attack, or one it attacks
//!   twice while the attacker does not. A piece there can be taken only at a loss.
//! - **Weak**: a defender's piece the attacker attacks on a square that is not strongly
//!   protected.
//!
//! Everything is read from the attack maps of [`Info`] (filled in by the mobility pass, so this
//! runs after it), plus slider rays from the defender's queen.

use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

use super::acc::Acc;
use super::info::Info;
use super::score::S;
use super::tactics::pawn_attacks_set;
use super::tracer::Tracer;
use super::weights::{declare_weights, role_index};

/// The victims a target table is indexed by, in [`role_index`] order.
const VICTIMS: &[&str] = &["pawn", "knight", "bishop", "rook", "queen"];

declare_weights! {
    /// The family of weights of attack targets; where it starts in the table is set where the
    /// evaluation lists its families (`eval/mod.rs`).
    family Targets;

    channel Linear, row Targets, range -300..=300;
    /// Per enemy piece, by kind, that our knights or bishops attack: any piece but a pawn, and a
    /// pawn only if it is weak (not strongly protected).
    TARGET_BY_MINOR[Names(VICTIMS)] = [S(1, 6), S(3, 10), S(22, 3), S(11, 12), S(20, 35)];
    /// Per weak enemy piece (not strongly protected), by kind, that our rooks attack.
    TARGET_BY_ROOK[Names(VICTIMS)] = [S(-1, 5), S(18, 19), S(17, 24), S(3, 33), S(35, 17)];
    /// Per weak enemy piece that is not defended at all, or, not a pawn, that we attack twice.
    TARGET_HANGING = S(-1, -7);
    /// Per enemy piece (not a pawn) that one of our safe pawns attacks: a pawn the enemy does not
    /// attack, or that we defend.
    TARGET_BY_SAFE_PAWN = S(21, 12);
    /// Per square both sides attack that the enemy does not strongly protect: the enemy's pieces
    /// cannot go there freely.
    TARGET_RESTRICTED = S(0, 2);
    /// Per weak enemy piece that the enemy queen defends: the queen is tied to it.
    TARGET_QUEEN_GUARD = S(5, 16);
    /// With one enemy queen: per safe square (in our mobility area, not strongly protected) from
    /// which one of our knights (`knight`) or, attacked twice by us, bishops or rooks (`slider`)
    /// would attack it next move.
    TARGET_QUEEN_APPROACH[Names(&["knight", "slider"])] = [S(7, 16), S(15, 13)];
    /// Per enemy queen that one of our rooks or bishops attacks through exactly one piece: a pin or
    /// a discovered attack away.
    TARGET_QUEEN_XRAY = S(15, 21);
}

/// Index of the knight approach in [`TARGET_QUEEN_APPROACH`].
const APPROACH_KNIGHT: usize = 0;
/// Index of the slider approach in [`TARGET_QUEEN_APPROACH`].
const APPROACH_SLIDER: usize = 1;

/// The sets every target term of `color` (the attacker) reads.
pub struct TargetSets {
    /// The enemy's squares that are strongly protected: its pawns attack them, or it attacks
    /// them twice and `color` does not.
    pub strongly_protected: Bitboard,
    /// Enemy pieces `color` attacks on squares that are not strongly protected.
    pub weak: Bitboard,
}

impl TargetSets {
    /// The sets for `color` attacking.
    #[inline(always)]
    #[must_use]
    pub fn new(board: &Board, info: &Info, color: Color) -> TargetSets {
        let them = !color;
        let strongly_protected = *info.pawn_attacks.get(them)
            | (*info.attacked_twice.get(them) & !*info.attacked_twice.get(color));
        let weak = board.by_color(them) & !strongly_protected & *info.attacked.get(color);
        TargetSets {
            strongly_protected,
            weak,
        }
    }
}

/// Scores every target term for both sides.
// Inlined into the evaluation, like the other families, so that it counts bits with `popcnt`.
#[inline(always)]
pub fn evaluate<T: Tracer>(board: &Board, info: &Info, acc: &mut Acc<'_, T>) {
    // One call per side, each compiled for its colour.
    side(board, info, Color::White, acc);
    side(board, info, Color::Black, acc);
}

/// `color`'s targets, as bonuses to `color`.
#[inline(always)]
fn side<T: Tracer>(board: &Board, info: &Info, color: Color, acc: &mut Acc<'_, T>) {
    let them = !color;
    let enemies = board.by_color(them) & !board.kings();
    if enemies.is_empty() {
        return;
    }
    let sets = TargetSets::new(board, info, color);
    let ours = info.attacks.get(color);
    let non_pawns = enemies & !board.pawns();
    let mut add = |slot, set: Bitboard| {
        if set.any() {
            acc.add(color, slot, set.count() as i32);
        }
    };

    let by_minor =
        (non_pawns | sets.weak) & (ours[role_index(Role::Knight)] | ours[role_index(Role::Bishop)]);
    let by_rook = sets.weak & !board.kings() & ours[role_index(Role::Rook)];
    // By victim; nothing to look at where the attacker's set is empty (often the rooks').
    if (by_minor | by_rook).any() {
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let kind = board.by_role(role);
            add(TARGET_BY_MINOR.at(role_index(role)), by_minor & kind);
            add(TARGET_BY_ROOK.at(role_index(role)), by_rook & kind);
        }
    }

    let undefended = !*info.attacked.get(them);
    add(
        TARGET_HANGING.at(0),
        sets.weak & !board.kings() & (undefended | (non_pawns & *info.attacked_twice.get(color))),
    );

    let safe_pawns =
        *info.pawns.get(color) & (!*info.attacked.get(them) | *info.attacked.get(color));
    add(
        TARGET_BY_SAFE_PAWN.at(0),
        pawn_attacks_set(safe_pawns, color) & non_pawns,
    );

    add(
        TARGET_RESTRICTED.at(0),
        *info.attacked.get(them) & *info.attacked.get(color) & !sets.strongly_protected,
    );

    let their_queen_guard = info.attacks.get(them)[role_index(Role::Queen)];
    add(
        TARGET_QUEEN_GUARD.at(0),
        sets.weak & !board.kings() & their_queen_guard,
    );

    let their_queens = board.queens() & board.by_color(them);
    if let Some(queen) = their_queens.single_square() {
        queen_exposure(board, info, color, queen, &sets, acc);
    }
}

/// `color`'s threats against the lone enemy queen on `queen`: the safe squares from which our
/// pieces would attack it next move, and our rooks or bishops x-raying it through one piece.
#[inline(always)]
fn queen_exposure<T: Tracer>(
    board: &Board,
    info: &Info,
    color: Color,
    queen: Square,
    sets: &TargetSets,
    acc: &mut Acc<'_, T>,
) {
    let ours = info.attacks.get(color);
    let occupied = info.occupied;
    let safe = *info.mobility_area.get(color) & !sets.strongly_protected;
    let knight_squares = attacks::knight_attacks(queen) & ours[role_index(Role::Knight)] & safe;
    if knight_squares.any() {
        acc.add(
            color,
            TARGET_QUEEN_APPROACH.at(APPROACH_KNIGHT),
            knight_squares.count() as i32,
        );
    }
    // The lone queen's attacks are in the attack maps: its diagonal part is the bishop's
    // attacks from its square, its straight part the rook's (no lookup of either again).
    let (diagonals, lines) = (
        attacks::bishop_attacks(queen, Bitboard::EMPTY),
        attacks::rook_attacks(queen, Bitboard::EMPTY),
    );
    let queen_reach = info.attacks.get(!color)[role_index(Role::Queen)];
    let slider_squares = ((queen_reach & diagonals & ours[role_index(Role::Bishop)])
        | (queen_reach & lines & ours[role_index(Role::Rook)]))
        & safe
        & *info.attacked_twice.get(color);
    if slider_squares.any() {
        acc.add(
            color,
            TARGET_QUEEN_APPROACH.at(APPROACH_SLIDER),
            slider_squares.count() as i32,
        );
    }

    let mine = board.by_color(color);
    let snipers = (lines & board.rooks() & mine) | (diagonals & board.bishops() & mine);
    let exposed = snipers.into_iter().any(|sniper| {
        let between = attacks::between(queen, sniper) & occupied;
        between.count() == 1
    });
    if exposed {
        acc.add(color, TARGET_QUEEN_XRAY, 1);
    }
}

#[cfg(test)]
mod tests;
