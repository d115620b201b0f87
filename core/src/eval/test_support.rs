//! What the families' unit tests share: a position from a FEN, the [`Info`] the mobility pass
//! would have built for it, and one weight's counts out of a [`CountingTracer`].

use shakmaty::{CastlingMode, Chess, Color, Position, Role, attacks, fen::Fen};

use super::info::Info;
use super::trace::CountingTracer;
use super::weights::{Family, Weight};

/// The position of a FEN the test wrote by hand (a bad one is a bug in the test: it panics).
pub(crate) fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("a test FEN")
        .into_position(CastlingMode::Standard)
        .expect("a legal test position")
}

/// The info of `pos` with every piece's attacks added, as the mobility pass adds them.
pub(crate) fn full_info(pos: &Chess) -> Info {
    let mut info = Info::new(pos.board());
    for (sq, piece) in pos.board() {
        if !matches!(piece.role, Role::Pawn | Role::King) {
            let reach = attacks::attacks(sq, piece, pos.board().occupied());
            info.add_attacks(piece.color, piece.role, reach);
        }
    }
    info
}

/// `color`'s counts of each element of `weight` in the linear sums of `tracer`.
pub(crate) fn main_counts<C, const N: usize, F: Family>(
    tracer: &CountingTracer,
    color: Color,
    weight: Weight<C, N, F>,
) -> Vec<i32> {
    tracer.main[usize::from(color == Color::Black)][weight.indices()].to_vec()
}

/// `color`'s counts of each element of `weight` in its king-danger units in `tracer`.
pub(crate) fn danger_counts<C, const N: usize, F: Family>(
    tracer: &CountingTracer,
    color: Color,
    weight: Weight<C, N, F>,
) -> Vec<i32> {
    tracer.danger[usize::from(color == Color::Black)][weight.indices()].to_vec()
}
