//! The piece-placement terms on hand positions (each weight's counts for one colour), and
//! outposts against their definition square by square.

use super::*;
use crate::eval::test_support::{XorShift64, main_counts, position, traced};
use crate::eval::weights::{Family, Weight};
use shakmaty::Position;

/// `color`'s counts of each element of `field` in the evaluation of `fen`.
fn counts<C, const N: usize, F: Family>(
    fen: &str,
    color: Color,
    field: Weight<C, N, F>,
) -> Vec<i32> {
    main_counts(&traced(&position(fen)), color, field)
}

fn total<C, const N: usize, F: Family>(fen: &str, color: Color, field: Weight<C, N, F>) -> i32 {
    counts(fen, color, field).iter().sum()
}

#[test]
fn outposts_by_edge_and_pawn_defence() {
    // Knight d5 defended by e4, no black pawn on c or e files ahead: inner, defended.
    let c = counts(
        "4k3/p6p/8/3N4/4P3/8/8/4K3 w - - 0 1",
        Color::White,
        KNIGHT_OUTPOST,
    );
    assert_eq!(c, vec![0, 1, 0, 0]);
    // Knight a5, undefended: edge, open.
    let c = counts(
        "4k3/7p/8/N7/8/8/8/4K3 w - - 0 1",
        Color::White,
        KNIGHT_OUTPOST,
    );
    assert_eq!(c, vec![0, 0, 1, 0]);
    // A black pawn on c7 can still chase it away: no outpost.
    assert_eq!(
        total(
            "4k3/2p4p/8/3N4/4P3/8/8/4K3 w - - 0 1",
            Color::White,
            KNIGHT_OUTPOST
        ),
        0
    );
    // Black's bishop on e4 (its fifth rank), defended by d5, no white pawn on d/f below.
    let c = counts(
        "4k3/8/8/3p4/4b3/8/P7/4K3 b - - 0 1",
        Color::Black,
        BISHOP_OUTPOST,
    );
    assert_eq!(c, vec![0, 1, 0, 0]);
}

#[test]
fn minor_behind_a_pawn_of_either_colour() {
    // Knight c3 behind c4 (own), bishop e5 behind e6 (enemy, from White's side).
    let c = counts(
        "4k3/8/4p3/4B3/2P5/2N5/8/4K3 w - - 0 1",
        Color::White,
        MINOR_BEHIND_PAWN,
    );
    assert_eq!(c, vec![1, 1]);
    // A pawn beside or behind does not count.
    assert_eq!(
        total(
            "4k3/8/8/8/2NP4/2P5/8/4K3 w - - 0 1",
            Color::White,
            MINOR_BEHIND_PAWN
        ),
        0
    );
}

#[test]
fn knight_in_siberia_and_minor_king_distance() {
    // Knight a8: king e1 is 7 away, king h1 7 away: distance 7, index 3.
    let c = counts(
        "N7/8/8/8/8/8/8/4K2k w - - 0 1",
        Color::White,
        KNIGHT_SIBERIA,
    );
    assert_eq!(c, vec![0, 0, 0, 1]);
    // Knight f3 next to the own king: not in Siberia; its king distance is 2 (e1).
    let fen = "7k/8/8/8/8/5N2/8/4K3 w - - 0 1";
    assert_eq!(total(fen, Color::White, KNIGHT_SIBERIA), 0);
    assert_eq!(counts(fen, Color::White, MINOR_KING_DISTANCE), vec![2, 0]);
    // Black's bishop on b8 with its king on g8: five squares.
    assert_eq!(
        counts(
            "1b4k1/8/8/8/8/8/8/4K3 w - - 0 1",
            Color::Black,
            MINOR_KING_DISTANCE
        ),
        vec![0, 5]
    );
}

#[test]
fn bishop_pawns_on_its_colour_and_rammed_ones() {
    // Dark bishop c1; white pawns d4, c3 and e3, all dark, none rammed.
    let fen = "4k3/8/8/8/3P4/2P1P3/8/2B1K3 w - - 0 1";
    assert_eq!(total(fen, Color::White, BISHOP_PAWNS_ON_COLOUR), 3);
    assert_eq!(total(fen, Color::White, BISHOP_RAMMED_PAWNS), 0);
    let fen = "4k3/8/8/8/4p3/2P1P3/8/2B1K3 w - - 0 1";
    assert_eq!(total(fen, Color::White, BISHOP_PAWNS_ON_COLOUR), 2);
    assert_eq!(total(fen, Color::White, BISHOP_RAMMED_PAWNS), 1);
    // A light bishop does not mind dark pawns.
    let fen = "4k3/8/8/8/4p3/2P1P3/8/3BK3 w - - 0 1";
    assert_eq!(total(fen, Color::White, BISHOP_PAWNS_ON_COLOUR), 0);
}

#[test]
fn bishop_on_a_long_diagonal_seeing_the_centre() {
    // b2 sees d4 and e5: a knight on c3 is off the diagonal (only pawns would block).
    assert_eq!(
        total(
            "4k3/8/8/8/8/2N5/1B6/4K3 w - - 0 1",
            Color::White,
            BISHOP_LONG_DIAGONAL
        ),
        1
    );
    // A pawn on d4 blocks e5.
    assert_eq!(
        total(
            "4k3/8/8/8/3P4/8/1B6/4K3 w - - 0 1",
            Color::White,
            BISHOP_LONG_DIAGONAL
        ),
        0
    );
    // On the centre square itself, or off the diagonals: no.
    assert_eq!(
        total(
            "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1",
            Color::White,
            BISHOP_LONG_DIAGONAL
        ),
        0
    );
}

#[test]
fn rook_on_the_seventh_with_the_king_behind_it() {
    let fen = "6k1/R7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(total(fen, Color::White, ROOK_ON_SEVENTH), 1);
    // The king came out: no.
    let fen = "8/R7/6k1/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(total(fen, Color::White, ROOK_ON_SEVENTH), 0);
    // Black's rook on its seventh (rank 2) against White's king on rank 1.
    let fen = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
    assert_eq!(total(fen, Color::Black, ROOK_ON_SEVENTH), 1);
}

#[test]
fn space_counts_safe_central_squares_twice_behind_pawns() {
    // Start position: c2-f2 hold pawns; c3-f3 and c4-f4 are safe (8), and c3-f3 lie behind
    // no pawn (the pawns are on rank 2, behind means ranks 1 and below): 8.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(total(start, Color::White, SPACE), 8);
    let fen = "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1";
    // Safe: 12 squares minus d4 e4 = 10; sheltered (behind d4/e4, unattacked): d2 d3 e2 e3.
    assert_eq!(total(fen, Color::White, SPACE), 14);
    // A black pawn on e5 attacks d4 and f4: f4 is no longer safe.
    let fen = "4k3/8/8/4p3/3PP3/8/8/4K3 w - - 0 1";
    assert_eq!(total(fen, Color::White, SPACE), 13);
}

#[test]
fn closedness_picks_the_bucket_for_knights_and_rooks() {
    // A half-open board: three rammed pairs on b, d and f.
    let fen = "r3k3/8/8/1p1p1p2/1P1P1P2/8/8/R2NK3 w - - 0 1";
    let pos = position(fen);
    // 6 pawns + 3 × 3 rammed − 4 × 5 open files (a c e g h) = −5 → bucket 0.
    assert_eq!(closedness(pos.board()), 0);
    let c = counts(fen, Color::White, CLOSEDNESS_ROOK);
    assert_eq!(c[0], 1);
    assert_eq!(counts(fen, Color::White, CLOSEDNESS_KNIGHT)[0], 1);
    assert_eq!(total(fen, Color::Black, CLOSEDNESS_KNIGHT), 0);
    // Eight rammed files: 16 + 24 = 40 / 3 = 13, capped at 8.
    let locked = "4k3/8/8/pppppppp/PPPPPPPP/8/8/4K3 w - - 0 1";
    let pos = position(locked);
    assert_eq!(closedness(pos.board()), 8);
}

/// Outposts against a square-by-square restatement: no enemy pawn on a neighbouring file
/// on a rank in front.
#[test]
fn outposts_match_the_definition_square_by_square() {
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    for _ in 0..200 {
        let seed = rng.next();
        let pawns = Bitboard(seed & 0x00FF_FFFF_FFFF_FF00 & seed.rotate_left(17));
        for color in Color::ALL {
            for sq in Square::ALL {
                let attackable = pawns.into_iter().any(|p| {
                    let file_gap = (p.file() as i32 - sq.file() as i32).abs();
                    file_gap == 1 && relative_rank(p, color) > relative_rank(sq, color)
                });
                let rank_ok = (3..=5).contains(&relative_rank(sq, color));
                assert_eq!(is_outpost(sq, color, pawns), rank_ok && !attackable);
            }
        }
    }
}

#[test]
fn outpost_ranks_are_the_fourth_to_sixth_of_each_side() {
    for color in Color::ALL {
        for sq in Square::ALL {
            let rule = OUTPOST_RANKS.contains(&relative_rank(sq, color));
            assert_eq!(outpost_ranks(color).contains(sq), rule, "{color:?} {sq:?}");
        }
    }
}
