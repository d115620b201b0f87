//! King attack, the inputs [`super::king::danger`] leaves out: checks the defender can parry
//! only by taking the checker, pieces pinned to their king, the attacks on the king's flank and
//! its defence there, a knight guarding the king, a king with no pawns on its flank and a king
//! on a (half-)open file.
//!
//! The king's **flank** is the four files around it (a–d for a king on a–c, c–f on d–e, e–h on
//! f–h) and its **camp** the five ranks on its own side of the board: an attack on the flank
//! inside the camp is an attack that can reach the king soon.
//!
//! The danger inputs are danger units (the [`Danger`](super::weights::Channel::Danger) channel,
//! through the same curve as the king family's, and counted only when that family's attack
//! counts: [`counts`]); the king's file and a pawnless flank are plain bonuses or penalties to
//! the king's owner.

use shakmaty::{Bitboard, Board, Color, File, Role, Square, attacks};

use super::acc::Acc;
use super::info::{Info, KingThreat};
use super::score::S;
use super::tracer::Tracer;
use super::weights::{declare_weights, role_index};

declare_weights! {
    /// The family of king-attack weights; where it starts in the table is set where the evaluation
    /// lists its families (`eval/mod.rs`).
    family KingAttack;

    channel Danger, row KingDanger, range -500..=500;
    /// King danger units per square from which one of our pieces would give check, that it reaches,
    /// but where the enemy can take it.
    DANGER_UNSAFE_CHECK = S(6, 40);
    /// King danger units per piece (of either colour) that stands alone between one of our rooks,
    /// bishops or queens and the enemy king: pinned, or a discovered check away.
    DANGER_PINNED_BLOCKER = S(47, 72);
    /// King danger units per attack on the enemy king's flank inside its camp (a square attacked
    /// twice counts twice).
    DANGER_FLANK_ATTACK = S(0, -7);
    /// King danger units per square of the enemy king's flank inside its camp that the enemy
    /// defends.
    DANGER_FLANK_DEFENCE = S(-2, 0);
    /// King danger units when an enemy knight guards a square next to the enemy king.
    DANGER_KNIGHT_DEFENDER = S(-9, 0);

    channel Linear, row KingAttack, range -300..=300;
    /// Per enemy attack on our king's flank inside our camp (a square attacked twice counts twice),
    /// as a plain score whatever the attack's size.
    KING_FLANK_ATTACK = S(-4, 0);
    /// Our king on a flank with no pawn of either colour.
    KING_PAWNLESS_FLANK = S(-27, -46);
    /// Our king's file by whether it holds a pawn of ours (`own_pawn`, `no_own_pawn`) and one of
    /// the enemy's (`enemy_pawn`, `no_enemy_pawn`).
    KING_FILE[Grid(&[&["own_pawn", "no_own_pawn"], &["enemy_pawn", "no_enemy_pawn"]])] = [
        S(10, -6), S(-1, 6), S(20, -7), S(-33, 5),
    ];
}

/// The four files of a king's flank, by the king's file.
const fn flank(file: File) -> Bitboard {
    let files: u64 = match file {
        File::A | File::B | File::C => 0x0f,
        File::D | File::E => 0x3c,
        File::F | File::G | File::H => 0xf0,
    };
    // Repeat the rank mask on every rank.
    Bitboard(files * 0x0101_0101_0101_0101)
}

/// The five ranks on `color`'s side of the board.
const fn camp(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(0x0000_00ff_ffff_ffff),
        Color::Black => Bitboard(0xffff_ffff_ff00_0000),
    }
}

/// Whether `color`'s attack on the enemy king counts as an attack (the condition of
/// [`super::king::danger`]): at least two attackers of its area, or one with a queen.
#[inline(always)]
#[must_use]
pub fn counts(board: &Board, info: &Info, color: Color) -> bool {
    let attackers: i32 = info.king_attackers.get(color).iter().sum();
    let has_queen = board.by_piece(Role::Queen.of(color)).any();
    attackers > 1 - i32::from(has_queen)
}

/// Scores both sides' king attack.
#[inline(always)]
pub fn evaluate<T: Tracer>(board: &Board, info: &Info, acc: &mut Acc<'_, T>) {
    let threats = [
        info.king_threat(board, Color::White),
        info.king_threat(board, Color::Black),
    ];
    evaluate_with(board, info, threats, acc);
}

/// [`evaluate`] given each side's threat against the enemy king, `[white, black]`
/// ([`Info::king_threat`], which king danger reads as well): the evaluation computes them once
/// for both.
#[inline(always)]
pub fn evaluate_with<T: Tracer>(
    board: &Board,
    info: &Info,
    threats: [Option<KingThreat>; 2],
    acc: &mut Acc<'_, T>,
) {
    // One call per side, each compiled for its colour.
    side(board, info, Color::White, threats[0].as_ref(), acc);
    side(board, info, Color::Black, threats[1].as_ref(), acc);
}

/// `color`'s attack on the enemy king, and the plain terms of that king's owner.
#[inline(always)]
fn side<T: Tracer>(
    board: &Board,
    info: &Info,
    color: Color,
    threat: Option<&KingThreat>,
    acc: &mut Acc<'_, T>,
) {
    let Some(king) = *info.king.get(!color) else {
        return;
    };
    let flank_attacks = flank_attacks(info, color, king);
    // The threat is there exactly when the attack counts (`counts`).
    if let Some(threat) = threat {
        danger(board, info, color, king, flank_attacks, threat, acc);
    }
    // The plain terms belong to the king's owner.
    let owner = !color;
    if flank_attacks > 0 {
        acc.add(owner, KING_FLANK_ATTACK, flank_attacks);
    }
    let pawns = board.pawns();
    if (pawns & flank(king.file())).is_empty() {
        acc.add(owner, KING_PAWNLESS_FLANK, 1);
    }
    let file = Bitboard::from_file(king.file());
    let no_own = usize::from((*info.pawns.get(owner) & file).is_empty());
    let no_enemy = usize::from((*info.pawns.get(color) & file).is_empty());
    acc.add(owner, KING_FILE.at(2 * no_own + no_enemy), 1);
}

/// `color`'s attacks on the flank of the enemy king on `king` inside the enemy's camp, a square
/// attacked twice counted twice.
#[inline(always)]
fn flank_attacks(info: &Info, color: Color, king: Square) -> i32 {
    let zone = flank(king.file()) & camp(!color);
    let once = *info.attacked.get(color) & zone;
    let twice = *info.attacked_twice.get(color) & zone;
    (once.count() + twice.count()) as i32
}

/// `color`'s danger units against the enemy king on `king`.
#[inline(always)]
fn danger<T: Tracer>(
    board: &Board,
    info: &Info,
    color: Color,
    king: Square,
    flank_attacks: i32,
    threat: &KingThreat,
    acc: &mut Acc<'_, T>,
) {
    let them = !color;
    let ours = info.attacks.get(color);
    let theirs = info.attacks.get(them);

    // Check squares we reach where the enemy can take the checker: the complement of the king
    // family's safe checks (same notion of weak and safe: the same `threat`).
    let check_squares = (threat.knight & ours[role_index(Role::Knight)])
        | (threat.diagonal & (ours[role_index(Role::Bishop)] | ours[role_index(Role::Queen)]))
        | (threat.straight & (ours[role_index(Role::Rook)] | ours[role_index(Role::Queen)]));
    let unsafe_checks = check_squares & !threat.safe & !board.by_color(color);
    if unsafe_checks.any() {
        acc.danger(color, DANGER_UNSAFE_CHECK, unsafe_checks.count() as i32);
    }

    let blockers = pinned_blockers(board, color, king);
    if blockers > 0 {
        acc.danger(color, DANGER_PINNED_BLOCKER, blockers);
    }

    if flank_attacks > 0 {
        acc.danger(color, DANGER_FLANK_ATTACK, flank_attacks);
    }
    let zone = flank(king.file()) & camp(them);
    let defended = (*info.attacked.get(them) & zone).count() as i32;
    if defended > 0 {
        acc.danger(color, DANGER_FLANK_DEFENCE, defended);
    }
    if (theirs[role_index(Role::Knight)] & attacks::king_attacks(king)).any() {
        acc.danger(color, DANGER_KNIGHT_DEFENDER, 1);
    }
}

/// How many pieces (either colour) stand alone between one of `color`'s rooks, bishops or
/// queens and the enemy king on `king`.
#[inline(always)]
fn pinned_blockers(board: &Board, color: Color, king: Square) -> i32 {
    let mine = board.by_color(color);
    let straight = (board.rooks() | board.queens()) & mine;
    let diagonal = (board.bishops() | board.queens()) & mine;
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & straight)
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & diagonal);
    let occupied = board.occupied();
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if between.count() == 1 {
            blockers |= between;
        }
    }
    blockers.count() as i32
}

/// Whether `sq` is on `color`'s side of the board (its camp): for the tests' oracle.
#[cfg(test)]
fn in_camp(sq: Square, color: Color) -> bool {
    let rank = sq.rank();
    match color {
        Color::White => rank <= shakmaty::Rank::Fifth,
        Color::Black => rank >= shakmaty::Rank::Fourth,
    }
}

#[cfg(test)]
mod tests;
