//! The piece-line terms against a naive oracle (squares and rays walked one by one) on
//! positions from random games, and hand positions.

use super::*;
use crate::eval::test_support::{position, random_game_positions, side, traced};
use shakmaty::{Position, Role, Square, fen::Fen};

/// The enemy king's area as the evaluation defines it: the king's square and neighbours and
/// one rank further forward, three files wide (shifted inwards on the edge).
fn king_area(king: Square, owner: Color) -> Vec<Square> {
    let kf = i32::from(king.file());
    let kr = i32::from(king.rank());
    let (lo, hi) = match kf {
        0 => (0, 2),
        7 => (5, 7),
        _ => (kf - 1, kf + 1),
    };
    Square::ALL
        .into_iter()
        .filter(|s| {
            let f = i32::from(s.file());
            let forward = match owner {
                Color::White => i32::from(s.rank()) - kr,
                Color::Black => kr - i32::from(s.rank()),
            };
            (lo..=hi).contains(&f) && (-1..=2).contains(&forward)
        })
        .collect()
}

/// Squares reached from `from` stepping by (df, dr) until a square in `stop` (included).
fn ray(from: Square, df: i32, dr: i32, stop: Bitboard) -> Vec<Square> {
    let mut out = Vec::new();
    let (mut f, mut r) = (i32::from(from.file()) + df, i32::from(from.rank()) + dr);
    while (0..8).contains(&f) && (0..8).contains(&r) {
        let sq = Square::from_coords(File::new(f as u32), shakmaty::Rank::new(r as u32));
        out.push(sq);
        if stop.contains(sq) {
            break;
        }
        (f, r) = (f + df, r + dr);
    }
    out
}

fn rays(from: Square, dirs: &[(i32, i32)], stop: Bitboard) -> Vec<Square> {
    dirs.iter()
        .flat_map(|&(df, dr)| ray(from, df, dr, stop))
        .collect()
}

const STRAIGHT: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn naive(board: &Board, color: Color) -> [i32; 5] {
    let them = !color;
    let occupied = board.occupied();
    let area = board
        .king_of(them)
        .map_or(Vec::new(), |k| king_area(k, them));
    let pawns = board.pawns();
    let our_pawns = board.by_piece(Role::Pawn.of(color));
    let their_pawns = board.by_piece(Role::Pawn.of(them));
    let step = if color == Color::White { 1 } else { -1 };
    let in_mobility_area = |s: Square| {
        let enemy_pawn_attacks = their_pawns
            .into_iter()
            .any(|p| attacks::pawn_attacks(them, p).contains(s));
        let own_king = board.king_of(color) == Some(s);
        let blocked_pawn = our_pawns.contains(s)
            && s.offset(8 * step)
                .is_some_and(|front| occupied.contains(front));
        !enemy_pawn_attacks && !own_king && !blocked_pawn
    };
    let mut counts = [0; 5];
    for rook in board.rooks() & board.by_color(color) {
        let closed = our_pawns.into_iter().any(|p| {
            p.file() == rook.file() && p.offset(8 * step).is_some_and(|f| occupied.contains(f))
        });
        counts[0] += i32::from(closed);
        let reach = rays(rook, &STRAIGHT, occupied);
        let mobility = reach.iter().filter(|&&s| in_mobility_area(s)).count();
        if let Some(king) = board.king_of(color) {
            let corner_side = if king.file() < File::E {
                rook.file() < king.file()
            } else {
                rook.file() >= king.file()
            };
            counts[1] += i32::from(mobility <= 3 && corner_side);
        }
        let on_area_file = area.iter().any(|s| s.file() == rook.file());
        let hits_area = reach.iter().any(|s| area.contains(s));
        counts[4] += i32::from(on_area_file && !hits_area);
    }
    for bishop in board.bishops() & board.by_color(color) {
        counts[2] += rays(bishop, &DIAGONAL, Bitboard::EMPTY)
            .iter()
            .filter(|&&s| their_pawns.contains(s))
            .count() as i32;
        let hits_area = rays(bishop, &DIAGONAL, occupied)
            .iter()
            .any(|s| area.contains(s));
        let through = rays(bishop, &DIAGONAL, pawns)
            .iter()
            .any(|s| area.contains(s));
        counts[3] += i32::from(!hits_area && through);
    }
    counts
}

fn slots() -> [usize; 5] {
    [
        ROOK_CLOSED_FILE.at(0).index(),
        ROOK_TRAPPED.at(0).index(),
        BISHOP_XRAY_PAWNS.at(0).index(),
        BISHOP_ON_KING_RING.at(0).index(),
        ROOK_ON_KING_RING.at(0).index(),
    ]
}

#[test]
fn counts_match_a_naive_oracle_on_random_games() {
    let mut fired = [0; 5];
    for pos in random_game_positions(0x5eed_1e55_0000_0001, 15) {
        let traced = traced(&pos).main;
        for color in Color::ALL {
            let want = naive(pos.board(), color);
            for (i, slot) in slots().into_iter().enumerate() {
                let got = traced[side(color)][slot];
                assert_eq!(
                    got,
                    want[i],
                    "term {i} of {color:?} in {}",
                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                fired[i] += usize::from(got != 0);
            }
        }
    }
    assert!(
        fired.iter().all(|&n| n > 20),
        "some term rarely fires: {fired:?}"
    );
}

#[test]
fn a_rook_shut_in_beside_its_king_is_trapped() {
    let count = |fen: &str| traced(&position(fen)).main[0][ROOK_TRAPPED.at(0).index()];
    assert_eq!(count("4k3/8/8/8/8/8/5PPP/5KNR w - - 0 1"), 1);
    // The same rook with the king on the other side is not.
    assert_eq!(count("4k3/8/8/8/8/8/5PPP/3K2NR w - - 0 1"), 0);
}

#[test]
fn trapped_side_is_the_rule_square_by_square() {
    // A rook is on the trapped side when `(king file < e) == (rook file < king file)`.
    for king_file in File::ALL {
        for sq in Square::ALL {
            let rule = (king_file < File::E) == (sq.file() < king_file);
            assert_eq!(
                trapped_side(king_file).contains(sq),
                rule,
                "{king_file:?} {sq:?}"
            );
        }
    }
}

#[test]
fn area_files_are_the_files_of_the_king_area() {
    for king in Square::ALL {
        for owner in Color::ALL {
            let area = Bitboard::from_iter(king_area(king, owner));
            assert_eq!(
                area_files(king.file()),
                files_of(area),
                "{king:?} {owner:?}"
            );
        }
    }
}
