//! Measures the score contract of docs/embedding.md: random legal placements of material
//! signatures (from bare mating material to nine queens against a king), plus every position of
//! the EPD files given, through the C call `mk_evaluate_fen`. Prints, per signature, the largest
//! score for the stronger side, and for the known wins (a specialised endgame whose verdict
//! replaces the evaluation, positive for the strong side) the smallest and largest.
//!
//!     cargo run --release -p minkowski-chess-capi --example score_range -- epd/*.epd

use std::ffi::CString;
use std::ptr::null;

use minkowski_capi::{MK_OK, mk_evaluate_fen};
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::endgame::Verdict;
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{
    Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece, Position, Role, Setup,
    Square,
};

/// xorshift64*: a fixed sequence, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The score through the C API, side to move's view.
fn c_score(pos: &Chess) -> i32 {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let text = CString::new(fen).unwrap();
    let mut cp = 0;
    assert_eq!(
        unsafe { mk_evaluate_fen(null(), text.as_ptr(), &mut cp) },
        MK_OK
    );
    cp
}

fn main() {
    let evaluator = Evaluator::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let signatures = [
        "KQ",
        "KR",
        "KBN",
        "KBB",
        "KP",
        "KNN",
        "KQQ",
        "KRR",
        "KQR",
        "KQQQQQQQQQ",
        "KQQQQRRBBNN",
    ];
    let (mut overall_max, mut known_min, mut known_max) = (0, i32::MAX, 0);
    for signature in signatures {
        let (mut best, mut placed) = (i32::MIN, 0);
        while placed < 20_000 {
            let mut board = Board::empty();
            let mut pieces: Vec<(Color, Role)> = vec![(Color::Black, Role::King)];
            pieces.extend(signature.chars().map(|c| {
                let role = Role::from_char(c.to_ascii_lowercase()).unwrap();
                (Color::White, role)
            }));
            let mut ok = true;
            for (color, role) in pieces {
                let sq = Square::new((rng.next() % 64) as u32);
                ok &= board.piece_at(sq).is_none();
                board.set_piece_at(sq, Piece { color, role });
            }
            let mut setup = Setup::empty();
            setup.board = board;
            setup.turn = if rng.next().is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            };
            let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
                continue;
            };
            if !ok || pos.is_game_over() {
                continue;
            }
            placed += 1;
            let trace = evaluator.trace(&pos);
            let white = if pos.turn() == Color::White {
                trace.total.0
            } else {
                -trace.total.0
            };
            assert_eq!(trace.total.0, c_score(&pos));
            best = best.max(white);
            if let Some((_, Color::White, Verdict::Replace(_))) = trace.endgame
                && white > 0
            {
                known_min = known_min.min(white);
                known_max = known_max.max(white);
            }
        }
        overall_max = overall_max.max(best);
        println!("{signature:<12} vs K: largest score for the strong side {best}");
    }
    let mut suite_max = 0;
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let fen = line
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let Ok(fen) = fen.parse::<Fen>() else {
                continue;
            };
            if let Ok(pos) = fen.into_position::<Chess>(CastlingMode::Chess960) {
                suite_max = suite_max.max(evaluator.evaluate(&pos).0.abs());
            }
        }
    }
    println!("known wins (replacing verdicts, strong side): {known_min} ..= {known_max}");
    println!("largest |score| of random placements: {overall_max}; of the suites: {suite_max}");
}
