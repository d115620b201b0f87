//! The king-attack terms against a naive oracle, square by square from shakmaty's `attacks_to`,
//! on positions from random games; the danger inputs are compared where the king family's
//! attack counts (its `danger_base` is traced), the plain terms everywhere.

use super::*;
use crate::eval::king::DANGER_BASE;
use crate::eval::test_support::{position, random_game_positions, side, traced};
use crate::eval::weights::{Slot, channel};
use shakmaty::{Chess, Position, fen::Fen};

fn attackers(board: &Board, sq: Square, color: Color) -> Vec<Role> {
    board
        .attacks_to(sq, color, board.occupied())
        .into_iter()
        .map(|from| board.role_at(from).expect("an attacker"))
        .collect()
}

/// The files of the flank of a king on `file`, as indices.
fn flank_files(file: File) -> std::ops::RangeInclusive<u32> {
    match u32::from(file) {
        0..=2 => 0..=3,
        3 | 4 => 2..=5,
        _ => 4..=7,
    }
}

struct Expected {
    danger: Vec<(Slot<channel::Danger>, i32)>,
    linear: Vec<(Slot<channel::Linear>, i32)>,
}

/// `color`'s danger units against the enemy king, and the plain terms of the enemy king's owner.
fn naive(board: &Board, color: Color) -> Expected {
    let them = !color;
    let king = board.king_of(them).expect("a king");
    let zone: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|sq| flank_files(king.file()).contains(&u32::from(sq.file())) && in_camp(*sq, them))
        .collect();
    let flank_attacks: i32 = zone
        .iter()
        .map(|&sq| attackers(board, sq, color).len().min(2) as i32)
        .sum();
    let flank_defence = zone
        .iter()
        .filter(|&&sq| !attackers(board, sq, them).is_empty())
        .count() as i32;

    let mut unsafe_checks = 0;
    for sq in Square::ALL {
        if board.by_color(color).contains(sq) {
            continue;
        }
        let ours = attackers(board, sq, color);
        let theirs = attackers(board, sq, them);
        let checker = |role: Role| {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, board.occupied()),
                Role::Rook => attacks::rook_attacks(sq, board.occupied()),
                _ => attacks::queen_attacks(sq, board.occupied()),
            };
            reach.contains(king) && ours.contains(&role)
        };
        if ![Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .any(checker)
        {
            continue;
        }
        let weak = !ours.is_empty()
            && theirs.len() < 2
            && !theirs
                .iter()
                .any(|r| matches!(r, Role::Pawn | Role::Knight | Role::Bishop | Role::Rook));
        let safe = theirs.is_empty() || (weak && ours.len() >= 2);
        if !safe {
            unsafe_checks += 1;
        }
    }

    let slider_attacks_king = |b: &Board| -> Vec<Square> {
        b.attacks_to(king, color, b.occupied())
            .into_iter()
            .filter(|&from| {
                matches!(
                    b.role_at(from),
                    Some(Role::Bishop | Role::Rook | Role::Queen)
                )
            })
            .collect()
    };
    let before = slider_attacks_king(board);
    let mut blockers = 0;
    for sq in board.occupied() {
        if sq == king {
            continue;
        }
        let mut lifted = board.clone();
        lifted.discard_piece_at(sq);
        if slider_attacks_king(&lifted)
            .iter()
            .any(|s| !before.contains(s))
        {
            blockers += 1;
        }
    }

    let knight_defender = attacks::king_attacks(king)
        .into_iter()
        .any(|sq| attackers(board, sq, them).contains(&Role::Knight));

    let mut danger = Vec::new();
    for (slot, n) in [
        (DANGER_UNSAFE_CHECK.at(0), unsafe_checks),
        (DANGER_PINNED_BLOCKER.at(0), blockers),
        (DANGER_FLANK_ATTACK.at(0), flank_attacks),
        (DANGER_FLANK_DEFENCE.at(0), flank_defence),
        (DANGER_KNIGHT_DEFENDER.at(0), i32::from(knight_defender)),
    ] {
        danger.push((slot, n));
    }
    let pawnless = !board
        .pawns()
        .into_iter()
        .any(|p| flank_files(king.file()).contains(&u32::from(p.file())));
    let own_on_file = board
        .by_piece(Role::Pawn.of(them))
        .into_iter()
        .any(|p| p.file() == king.file());
    let enemy_on_file = board
        .by_piece(Role::Pawn.of(color))
        .into_iter()
        .any(|p| p.file() == king.file());
    let mut linear = vec![
        (KING_FLANK_ATTACK.at(0), flank_attacks),
        (KING_PAWNLESS_FLANK.at(0), i32::from(pawnless)),
    ];
    for index in 0..4 {
        let want = 2 * usize::from(!own_on_file) + usize::from(!enemy_on_file);
        linear.push((KING_FILE.at(index), i32::from(index == want)));
    }
    Expected { danger, linear }
}

fn check(pos: &Chess) -> usize {
    let tracer = traced(pos);
    let (main, danger) = (tracer.main, tracer.danger);
    let fen = || Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
    let mut fired = 0;
    for color in Color::ALL {
        let expected = naive(pos.board(), color);
        let attack_counts = danger[side(color)][DANGER_BASE.at(0).index()] == 1;
        for (slot, want) in expected.danger {
            let got = danger[side(color)][slot.index()];
            let want = if attack_counts { want } else { 0 };
            assert_eq!(got, want, "{slot:?} of {color:?} in {}", fen());
            fired += usize::from(got != 0);
        }
        // The plain terms belong to the attacked king's owner.
        for (slot, want) in expected.linear {
            let got = main[side(!color)][slot.index()];
            assert_eq!(got, want, "{slot:?} of {:?} in {}", !color, fen());
        }
    }
    fired
}

#[test]
fn counts_match_a_square_by_square_oracle_on_random_games() {
    let (mut positions, mut fired) = (0, 0);
    for pos in random_game_positions(0x6b1d_a77a_c400_0001, 15) {
        fired += check(&pos);
        positions += 1;
    }
    assert!(positions > 1_500, "{positions} positions");
    assert!(fired > 1_000, "the danger inputs fired only {fired} times");
}

#[test]
fn hand_positions() {
    let main =
        |fen: &str, color: Color, index: usize| traced(&position(fen)).main[side(color)][index];
    let danger =
        |fen: &str, color: Color, index: usize| traced(&position(fen)).danger[side(color)][index];
    // The white rook on e1 and queen on d1; the black knight on e5 alone between the rook and
    // the king on e8: one blocker (the attack counts: queen and rook aim at the king's area).
    let fen = "4k3/8/8/4n3/8/8/8/3QRK2 w - - 0 1";
    assert_eq!(
        danger(fen, Color::White, DANGER_PINNED_BLOCKER.at(0).index()),
        1
    );
    // A king on the g-file with no pawn on the e- to h-files: a pawnless flank.
    let fen = "6k1/ppp5/8/8/8/8/PPP5/6K1 w - - 0 1";
    assert_eq!(
        main(fen, Color::White, KING_PAWNLESS_FLANK.at(0).index()),
        1
    );
    assert_eq!(
        main(fen, Color::Black, KING_PAWNLESS_FLANK.at(0).index()),
        1
    );
    // Its own pawn on g2 covers the flank.
    let fen = "6k1/ppp5/8/8/8/8/PPP3P1/6K1 w - - 0 1";
    assert_eq!(
        main(fen, Color::White, KING_PAWNLESS_FLANK.at(0).index()),
        0
    );
    assert_eq!(main(fen, Color::White, KING_FILE.at(1).index()), 1);
}
