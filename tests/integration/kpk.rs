//! The KPK bitbase against perfect play: equal to the Syzygy table `KPvK.rtbw` on every legal
//! position (both colours as the strong side, both sides to move), and the evaluation's verdict
//! (a draw is 0, a win is a known-win score for the side with the pawn) agrees with it.
use minkowski::eval::Evaluator;
use minkowski::eval::endgame::KpkPosition;
use shakmaty::fen::Fen;
use shakmaty::{Board, CastlingMode, Chess, Color, Role, Setup, Square};
use shakmaty_syzygy::{Tablebase, Wdl};

fn tables() -> Tablebase<Chess> {
    let mut tb = Tablebase::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
    assert_eq!(tb.add_directory(dir).expect("tests/syzygy is readable"), 70);
    tb
}

/// Every legal KPK position with `strong` owning the pawn and `turn` to move.
fn positions(strong: Color, turn: Color) -> impl Iterator<Item = (Chess, Square, Square, Square)> {
    let squares = || (0..64).map(Square::new);
    squares().flat_map(move |sk| {
        squares().flat_map(move |pawn| {
            squares().filter_map(move |lk| {
                let rank = pawn.rank() as u32;
                if rank == 0 || rank == 7 || sk == pawn || lk == pawn || sk == lk {
                    return None;
                }
                let mut board = Board::empty();
                board.set_piece_at(sk, Role::King.of(strong));
                board.set_piece_at(pawn, Role::Pawn.of(strong));
                board.set_piece_at(lk, Role::King.of(!strong));
                let setup = Setup {
                    board,
                    turn,
                    ..Setup::empty()
                };
                let pos: Chess = setup.position(CastlingMode::Standard).ok()?;
                Some((pos, sk, pawn, lk))
            })
        })
    })
}

#[test]
fn bitbase_equals_kpvk_rtbw_on_every_legal_position() {
    let tb = tables();
    let evaluator = Evaluator::default();
    let (mut checked, mut wins) = (0, 0);
    for strong in [Color::White, Color::Black] {
        for turn in [Color::White, Color::Black] {
            for (pos, strong_king, pawn, lone_king) in positions(strong, turn) {
                let wdl = tb.probe_wdl_after_zeroing(&pos).expect("KPvK probe");
                assert!(
                    matches!(wdl, Wdl::Win | Wdl::Draw | Wdl::Loss),
                    "no 50-move subtleties in KPK"
                );
                let strong_wins = if turn == strong {
                    wdl == Wdl::Win
                } else {
                    wdl == Wdl::Loss
                };
                let kpk = KpkPosition {
                    strong_king,
                    pawn,
                    lone_king,
                    strong_color: strong,
                    strong_to_move: turn == strong,
                };
                let fen = Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
                assert_eq!(kpk.is_win(), strong_wins, "{fen}: tables say {wdl:?}");
                let v = evaluator.evaluate(&pos).0;
                let for_strong = if turn == strong { v } else { -v };
                if strong_wins {
                    assert!(for_strong > 10_000, "{fen}: a win evaluates {v}");
                } else {
                    assert_eq!(v, 0, "{fen}: a draw evaluates {v}");
                }
                checked += 1;
                wins += usize::from(strong_wins);
            }
        }
    }
    // 4 × (legal positions of one colour and side to move); both outcomes are well represented.
    assert!(checked > 600_000, "{checked} positions");
    assert!(
        wins > checked / 2 && wins < checked,
        "{wins} wins of {checked}"
    );
    println!("KPK: {checked} legal positions, {wins} wins, bitbase = KPvK.rtbw on all");
}

#[test]
fn the_issue_position_is_a_draw() {
    // Black pawn d4, Black to move; the white king on g2 is inside the pawn's square.
    let pos: Chess = "8/k7/8/8/3p4/8/6K1/8 b - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    assert_eq!(Evaluator::default().evaluate(&pos).0, 0);
    assert_eq!(tables().probe_wdl_after_zeroing(&pos).unwrap(), Wdl::Draw);
}

#[test]
fn impossible_inputs_are_not_wins() {
    let p = KpkPosition {
        strong_king: Square::E1,
        pawn: Square::E8, // a pawn on its last rank
        lone_king: Square::A8,
        strong_color: Color::White,
        strong_to_move: true,
    };
    assert!(!p.is_win());
    assert!(
        !KpkPosition {
            pawn: Square::E1,
            ..p
        }
        .is_win()
    ); // on the king's square
    assert!(
        !KpkPosition {
            pawn: Square::B7,
            strong_to_move: true,
            ..p
        }
        .is_win()
    ); // Black in check, White to move
}
