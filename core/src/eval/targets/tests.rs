//! The target terms against a naive oracle: every count recomputed square by square from
//! shakmaty's `attacks_to` and rays, on positions from random games, and a few hand positions.

use super::*;
use crate::eval::test_support::{position, random_game_positions, side, traced};
use crate::eval::weights::channel::Linear;
use shakmaty::{Chess, Position};

/// How many pieces of `color` attack `sq` (real attacks, nothing seen through).
fn attackers(board: &Board, sq: Square, color: Color) -> u32 {
    board.attacks_to(sq, color, board.occupied()).count() as u32
}

fn attackers_of_role(board: &Board, sq: Square, color: Color, roles: &[Role]) -> bool {
    let set = board.attacks_to(sq, color, board.occupied());
    set.into_iter()
        .any(|from| roles.contains(&board.role_at(from).expect("an attacker stands there")))
}

/// The target counts of `color` attacking, square by square.
fn naive(board: &Board, color: Color) -> Vec<(Slot, i32)> {
    let them = !color;
    let mut counts: Vec<(Slot, i32)> = Vec::new();
    let mut bump = |slot: Slot, n: i32| {
        if let Some(entry) = counts.iter_mut().find(|(s, _)| *s == slot) {
            entry.1 += n;
        } else {
            counts.push((slot, n));
        }
    };
    let strongly = |sq: Square| {
        attackers_of_role(board, sq, them, &[Role::Pawn])
            || (attackers(board, sq, them) >= 2 && attackers(board, sq, color) < 2)
    };
    let queens = board.queens() & board.by_color(them);
    for sq in Square::ALL {
        let piece = board.piece_at(sq);
        let ours_attack = attackers(board, sq, color);
        let theirs_attack = attackers(board, sq, them);
        if theirs_attack > 0 && ours_attack > 0 && !strongly(sq) {
            bump(TARGET_RESTRICTED.at(0), 1);
        }
        let Some(p) = piece else { continue };
        if p.color != them || p.role == Role::King {
            continue;
        }
        let weak = ours_attack > 0 && !strongly(sq);
        let by_minor = attackers_of_role(board, sq, color, &[Role::Knight, Role::Bishop]);
        if by_minor && (p.role != Role::Pawn || weak) {
            bump(TARGET_BY_MINOR.at(role_index(p.role)), 1);
        }
        if weak && attackers_of_role(board, sq, color, &[Role::Rook]) {
            bump(TARGET_BY_ROOK.at(role_index(p.role)), 1);
        }
        if weak && (theirs_attack == 0 || (p.role != Role::Pawn && ours_attack >= 2)) {
            bump(TARGET_HANGING.at(0), 1);
        }
        if weak && attackers_of_role(board, sq, them, &[Role::Queen]) {
            bump(TARGET_QUEEN_GUARD.at(0), 1);
        }
        if p.role != Role::Pawn {
            let safe_pawn = board
                .attacks_to(sq, color, board.occupied())
                .into_iter()
                .any(|from| {
                    board.role_at(from) == Some(Role::Pawn)
                        && (attackers(board, from, them) == 0 || attackers(board, from, color) > 0)
                });
            if safe_pawn {
                bump(TARGET_BY_SAFE_PAWN.at(0), 1);
            }
        }
    }
    if let Some(queen) = queens.single_square() {
        // Squares from which a piece of ours would attack the queen, reached by such a piece.
        for sq in Square::ALL {
            let own_pawn_blocked = board.by_piece(Role::Pawn.of(color)).contains(sq)
                && board.occupied().contains(
                    match color {
                        Color::White => sq.offset(8),
                        Color::Black => sq.offset(-8),
                    }
                    .unwrap_or(sq),
                );
            let in_area = !attackers_of_role(board, sq, them, &[Role::Pawn])
                && board.king_of(color) != Some(sq)
                && !own_pawn_blocked;
            if !in_area || strongly(sq) {
                continue;
            }
            if attacks::knight_attacks(queen).contains(sq)
                && attackers_of_role(board, sq, color, &[Role::Knight])
            {
                bump(TARGET_QUEEN_APPROACH.at(0), 1);
            }
            let diagonal = attacks::bishop_attacks(queen, board.occupied()).contains(sq)
                && attackers_of_role(board, sq, color, &[Role::Bishop]);
            let straight = attacks::rook_attacks(queen, board.occupied()).contains(sq)
                && attackers_of_role(board, sq, color, &[Role::Rook]);
            if (diagonal || straight) && attackers(board, sq, color) >= 2 {
                bump(TARGET_QUEEN_APPROACH.at(1), 1);
            }
        }
        // A rook or bishop of ours on the queen's line with exactly one piece between.
        let xrayed = (board.rooks() | board.bishops()) & board.by_color(color);
        let exposed = xrayed.into_iter().any(|from| {
            let line = if board.role_at(from) == Some(Role::Rook) {
                attacks::rook_attacks(from, Bitboard::EMPTY)
            } else {
                attacks::bishop_attacks(from, Bitboard::EMPTY)
            };
            line.contains(queen) && (attacks::between(from, queen) & board.occupied()).count() == 1
        });
        if exposed {
            bump(TARGET_QUEEN_XRAY.at(0), 1);
        }
    }
    counts
}

/// Every target weight's slots.
fn all_slots() -> Vec<Slot> {
    let mut slots = Vec::new();
    slots.extend(
        TARGET_BY_MINOR
            .indices()
            .map(|i| TARGET_BY_MINOR.at(i - TARGET_BY_MINOR.indices().start)),
    );
    slots.extend(
        TARGET_BY_ROOK
            .indices()
            .map(|i| TARGET_BY_ROOK.at(i - TARGET_BY_ROOK.indices().start)),
    );
    slots.push(TARGET_HANGING.at(0));
    slots.push(TARGET_BY_SAFE_PAWN.at(0));
    slots.push(TARGET_RESTRICTED.at(0));
    slots.push(TARGET_QUEEN_GUARD.at(0));
    slots.push(TARGET_QUEEN_APPROACH.at(0));
    slots.push(TARGET_QUEEN_APPROACH.at(1));
    slots.push(TARGET_QUEEN_XRAY.at(0));
    slots
}

type Slot = super::super::weights::Slot<Linear>;

fn check(pos: &Chess) -> usize {
    let traced = traced(pos).main;
    let mut nonzero = 0;
    for color in Color::ALL {
        let expected = naive(pos.board(), color);
        for slot in all_slots() {
            let want = expected.iter().find(|(s, _)| *s == slot).map_or(0, |e| e.1);
            let got = traced[side(color)][slot.index()];
            assert_eq!(
                got,
                want,
                "{slot:?} for {color:?} in {}",
                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            nonzero += usize::from(got != 0);
        }
    }
    nonzero
}

#[test]
fn counts_match_a_square_by_square_oracle_on_random_games() {
    let mut positions = 0;
    let mut nonzero = 0;
    for pos in random_game_positions(0x7a26_e75e_ed00_0001, 20) {
        nonzero += check(&pos);
        positions += 1;
    }
    assert!(positions > 2_000, "{positions} positions");
    // The oracle is only a check if the terms fire: most slots do, many times.
    assert!(nonzero > 5_000, "only {nonzero} non-zero counts");
}

#[test]
fn hand_positions() {
    let count = |fen: &str, color: Color, slot: Slot| {
        traced(&position(fen)).main[side(color)][slot.index()]
    };
    // The white rook on e1 x-rays the black queen on e7 through the knight on e4.
    let fen = "4k3/4q3/8/8/4n3/8/8/4RK2 w - - 0 1";
    assert_eq!(count(fen, Color::White, TARGET_QUEEN_XRAY.at(0)), 1);
    // Two pieces between: no x-ray.
    let fen = "4k3/4q3/4p3/8/4n3/8/8/4RK2 w - - 0 1";
    assert_eq!(count(fen, Color::White, TARGET_QUEEN_XRAY.at(0)), 0);
    // The knight on d5 attacks the undefended rook on c7: a minor on a rook, and hanging.
    let fen = "4k3/2r5/8/3N4/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        count(
            fen,
            Color::White,
            TARGET_BY_MINOR.at(role_index(Role::Rook))
        ),
        1
    );
    assert_eq!(count(fen, Color::White, TARGET_HANGING.at(0)), 1);
    // Defended by a pawn, the rook is still a minor's target, but not hanging.
    let fen = "4k3/8/8/3N2p1/5r2/8/8/4K3 w - - 0 1";
    assert_eq!(
        count(
            fen,
            Color::White,
            TARGET_BY_MINOR.at(role_index(Role::Rook))
        ),
        1
    );
    assert_eq!(count(fen, Color::White, TARGET_HANGING.at(0)), 0);
}
