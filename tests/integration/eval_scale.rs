//! The drawishness stage (complexity and the endgame scale factor, `minkowski::eval::scale`)
//! never flips the sign of the endgame half: over the positions of every suite in `epd/` and
//! the positions one move later, with the built-in weights and with every weight moved at
//! random (so that the endgame half and the complexity take every sign), the endgame half after
//! the stage has the sign it had before it, or is zero. The trace's Drawishness row is exactly
//! what the stage changed.

use crate::common::{self, XorShift64};
use minkowski::eval::Evaluator;
use minkowski::eval::score::S;
use minkowski::eval::trace::{Coefficients, Term};
use minkowski::eval::weights::Weights;
use shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, File, Piece, Position, Rank, Role, Setup,
    Square, fen::Fen,
};
use shakmaty_syzygy::{Tablebase, Wdl};

/// The endgame half of the sum before and after the drawishness stage.
fn endgame_halves(c: &Coefficients, w: &Weights) -> (i32, i32) {
    let mut raw = c.clone();
    raw.scale = None;
    (raw.sum(w).eg(), c.sum(w).eg())
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn drawishness_never_flips_the_sign_of_the_endgame_half() {
    let mut rng = XorShift64(0x51_7cc1_b727_220a);
    let evaluators: Vec<Evaluator> = std::iter::once(Evaluator::default())
        .chain((0..4).map(|_| {
            let mut w = Weights::default();
            w.for_each_mut(|_, s| *s = S(s.mg() + rng.around(60), s.eg() + rng.around(60)));
            Evaluator::new(w)
        }))
        .collect();
    let (mut checked, mut scaled, mut toward, mut away) = (0, 0, 0, 0);
    for file in common::every_suite() {
        for root in common::suite_positions(&file, 60) {
            let mut positions = Vec::new();
            common::push_children(&root, &mut positions);
            positions.push(root);
            for pos in positions {
                let c = Evaluator::default().coefficients(&pos);
                let Some(factors) = c.scale else {
                    continue; // a specialised endgame answered
                };
                for e in &evaluators {
                    let (before, after) = endgame_halves(&c, e.weights());
                    assert!(
                        after == 0 || after.signum() == before.signum(),
                        "{before} -> {after}: {}",
                        fen(&pos)
                    );
                    checked += 1;
                    scaled += usize::from(factors != [128, 128]);
                    toward += usize::from(after.abs() < before.abs());
                    away += usize::from(after.abs() > before.abs());
                }
                let e = &evaluators[0];
                let (before, after) = endgame_halves(&c, e.weights());
                let row = e.trace(&pos).terms[Term::Drawishness as usize];
                assert_eq!(row[0] - row[1], S(0, after - before), "{}", fen(&pos));
            }
        }
    }
    assert!(checked >= 50_000, "only {checked} checked");
    assert!(scaled >= 500, "only {scaled} scaled");
    assert!(
        toward >= 1_000 && away >= 1_000,
        "{toward} toward, {away} away"
    );
}

/// Random legal positions of a king and `strong` pieces against a king and `weak` pieces
/// (White strong), either side to move, where the side to move cannot capture at once (so
/// neither the tablebase's verdict nor the static evaluation hangs on one capture).
fn pawnless_positions(strong: &[Role], weak: &[Role], count: usize, seed: u64) -> Vec<Chess> {
    let mut rng = XorShift64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::empty();
        let mut place = |piece: Piece, board: &mut Board| loop {
            let sq = Square::new((rng.next() % 64) as u32);
            if board.piece_at(sq).is_none() {
                board.set_piece_at(sq, piece);
                break;
            }
        };
        place(Role::King.of(Color::White), &mut board);
        place(Role::King.of(Color::Black), &mut board);
        strong
            .iter()
            .for_each(|r| place(r.of(Color::White), &mut board));
        weak.iter()
            .for_each(|r| place(r.of(Color::Black), &mut board));
        let turn = if rng.next().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let setup = Setup {
            board,
            turn,
            ..Setup::empty()
        };
        let Ok(pos) = setup.position::<Chess>(CastlingMode::Standard) else {
            continue;
        };
        if pos.is_check() || pos.legal_moves().iter().any(|m| m.is_capture()) {
            continue;
        }
        out.push(pos);
    }
    out
}

/// The pawnless rules' premise, from the Syzygy tables (an oracle independent of the
/// evaluation): a rook against a minor piece is nearly always a draw. And the evaluation reads
/// those draws as one: within a pawn of zero, where without the rule it saw a piece up.
#[test]
fn a_rook_against_a_minor_piece_is_a_draw_and_evaluated_near_zero() {
    let mut tb = Tablebase::<Chess>::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
    tb.add_directory(dir).expect("tests/syzygy is readable");
    let evaluator = Evaluator::default();
    for (minor, seed) in [(Role::Bishop, 0x5ca1_e0b1), (Role::Knight, 0x5ca1_e0c2)] {
        let positions = pawnless_positions(&[Role::Rook], &[minor], 400, seed);
        let mut draws = 0;
        for pos in &positions {
            let wdl = tb.probe_wdl_after_zeroing(pos).expect("a 4-piece table");
            if wdl != Wdl::Draw {
                continue;
            }
            draws += 1;
            let white_view =
                evaluator.evaluate(pos).0 * if pos.turn() == Color::White { 1 } else { -1 };
            assert!(
                white_view.abs() < 100,
                "a drawn KRvK{minor:?} read as {white_view} cp: {}",
                fen(pos)
            );
        }
        assert!(
            draws * 10 >= positions.len() * 8,
            "KRvK{minor:?}: only {draws} draws"
        );
    }
}

/// Random legal KBPvKB positions with the bishops on opposite colours and the defending king
/// on the pawn's file in front of it (White's pawn on ranks 2 to 6), either side to move, where
/// the side to move is not in check and cannot capture at once.
fn opposite_bishops_blockades(count: usize, seed: u64) -> Vec<Chess> {
    let mut rng = XorShift64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let (file, rank) = ((rng.next() % 8) as u32, 1 + (rng.next() % 5) as u32);
        let ahead = 1 + (rng.next() % u64::from(7 - rank)) as u32;
        let pawn = Square::from_coords(File::new(file), Rank::new(rank));
        let king = Square::from_coords(File::new(file), Rank::new(rank + ahead));
        let mut board = Board::empty();
        board.set_piece_at(pawn, Role::Pawn.of(Color::White));
        board.set_piece_at(king, Role::King.of(Color::Black));
        let mut place = |role: Role, color: Color, board: &mut Board| loop {
            let sq = Square::new((rng.next() % 64) as u32);
            if board.piece_at(sq).is_none() {
                board.set_piece_at(sq, role.of(color));
                return sq;
            }
        };
        place(Role::King, Color::White, &mut board);
        let white_bishop = place(Role::Bishop, Color::White, &mut board);
        let black_bishop = place(Role::Bishop, Color::Black, &mut board);
        if white_bishop.is_light() == black_bishop.is_light() {
            continue;
        }
        let turn = if rng.next().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let setup = Setup {
            board,
            turn,
            ..Setup::empty()
        };
        let Ok(pos) = setup.position::<Chess>(CastlingMode::Standard) else {
            continue;
        };
        if pos.is_check() || pos.legal_moves().iter().any(|m| m.is_capture()) {
            continue;
        }
        out.push(pos);
    }
    out
}

/// Endgame theory (a bishop and pawn against a bishop on the other colour): with the defending
/// king on the pawn's file in front of it, the ending is a draw — the attacking bishop controls
/// only squares of its own colour, so the king cannot be driven from the file, and giving the
/// bishop for the pawn leaves a bare bishop. The evaluation reads every one within a pawn of
/// zero and a third of a pawn on average; without `SCALE_OPPOSITE_BISHOPS_PAWN_EDGE` about one
/// in twenty read as more than a pawn (up to 1.6) and the average was 0.38.
#[test]
fn a_blockaded_pawn_with_opposite_bishops_is_evaluated_near_zero() {
    let evaluator = Evaluator::default();
    let positions = opposite_bishops_blockades(1000, 0x0cb0_5ca1_e0d3);
    let mut total = 0;
    for pos in &positions {
        let white_view =
            evaluator.evaluate(pos).0 * if pos.turn() == Color::White { 1 } else { -1 };
        assert!(
            white_view.abs() < 100,
            "a blockaded KBPvKB with opposite bishops read as {white_view} cp: {}",
            fen(pos)
        );
        total += white_view.unsigned_abs() as usize;
    }
    let mean = total / positions.len();
    assert!(mean < 30, "blockaded KBPvKB read as {mean} cp on average");
}
