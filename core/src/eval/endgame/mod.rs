//! Specialised endgame knowledge, looked up by material signature.
//!
//! [`ENDGAMES`] is the one list: each entry names its material, either an exact signature such as
//! `"KBNK"` (matched with either colour as the strong side) or a family predicate such as "any
//! mating material against a lone king". [`lookup`] returns the first entry that matches a board.
//! An entry's verdict either replaces the whole evaluation (a draw, a mop-up) or adjusts it (the
//! knight-versus-passer race).

mod knight_vs_passer;
mod kpk;
mod mop_up;
mod signature;
mod verdict_weights;

pub use knight_vs_passer::PasserRace;
pub use kpk::KpkPosition;
pub use mop_up::{KbnkPosition, kbnk_corner_distance, mop_up_bonus};
pub use signature::{SideMaterial, Signature, SignatureError};
pub use verdict_weights::{
    Endgames, KBNK_CORNER, KBNK_KNIGHT_CLOSE, KNOWN_WIN, KPK_PAWN_ADVANCE, MOP_UP_CLOSE,
    MOP_UP_EDGE, MOP_UP_KING_CLOSE, MOP_UP_KING_FREEDOM, PASSER_CAUGHT, PASSER_UNSTOPPABLE,
    WEIGHTS,
};

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role};

use super::score::S;
use super::to_move::SideToMove;
use super::tracer::Tracer;
pub use super::tracer::Verdict;
use crate::eval::weights::Weights;

/// Which material an [`Endgame`] applies to.
///
/// ```
/// use minkowski_core::eval::endgame::{ENDGAMES, Matcher};
/// let kbnk = ENDGAMES.iter().find(|e| e.code == "KBNK").unwrap();
/// assert!(matches!(kbnk.matcher, Matcher::Exact(sig) if sig == "KBNK".parse().unwrap()));
/// let kxk = ENDGAMES.iter().find(|e| e.code == "KXK").unwrap();
/// assert!(matches!(kxk.matcher, Matcher::Family(_)));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Matcher {
    /// Exactly this material, e.g. `Signature::from_code("KBNK")`; either colour may be the
    /// strong side.
    Exact(Signature),
    /// A family: `predicate(board, strong)` says whether `strong` and its opponent fit it.
    Family(fn(&Board, Color) -> bool),
}

/// One specialised endgame evaluator.
///
/// ```
/// use minkowski_core::eval::base::MATERIAL;
/// use minkowski_core::eval::endgame::{Endgame, KNOWN_WIN, Matcher, Verdict};
/// use minkowski_core::eval::to_move::SideToMove;
/// use minkowski_core::eval::trace::Tracer;
/// use minkowski_core::eval::weights::Weights;
/// use shakmaty::{Board, Chess, Color};
/// // Your own entry, in the same shape as Minkowski's: two rooks against a lone king. The
/// // tracer hears of every weight the verdict uses (for the coefficient trace).
/// fn krrk(_: &Board, _: SideToMove, _: Color, w: &Weights, tracer: &mut dyn Tracer) -> Verdict {
///     tracer.verdict_weight(KNOWN_WIN.at(0), 1);
///     tracer.verdict_weight(MATERIAL.at(3).in_verdict(), 2);
///     Verdict::Replace(w[KNOWN_WIN] + w[MATERIAL.at(3)] * 2)
/// }
/// use minkowski_core::eval::endgame::Signature;
/// let mine = Endgame { code: "KRRK", matcher: Matcher::Exact(Signature::from_code("KRRK")), evaluate: krrk };
/// let w = Weights::default();
/// assert_eq!(mine.verdict(&Chess::default(), Color::White, &w),
///            Verdict::Replace(w[KNOWN_WIN] + w[MATERIAL.at(3)] * 2));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Endgame {
    /// Short readable name, e.g. `"KBNK"` or `"KXK"`, shown in the evaluation trace.
    pub code: &'static str,
    /// The material it applies to.
    pub matcher: Matcher,
    /// The evaluator: the pieces, the side to move, the strong side, the weights, and the
    /// tracer that it tells each weight its verdict uses ([`Tracer::verdict_weight`]).
    pub evaluate: fn(&Board, SideToMove, Color, &Weights, &mut dyn Tracer) -> Verdict,
}

impl Endgame {
    /// The verdict on `pos` with `strong` as the strong side, traced nowhere.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::{ENDGAMES, Verdict};
    /// use minkowski_core::eval::weights::Weights;
    /// use shakmaty::{Chess, Color};
    /// let kk = ENDGAMES.iter().find(|e| e.code == "KK").unwrap();
    /// assert!(matches!(kk.verdict(&Chess::default(), Color::White, &Weights::default()),
    ///                  Verdict::Replace(s) if s.mg() == 0));
    /// ```
    #[must_use]
    pub fn verdict(&self, pos: &Chess, strong: Color, w: &Weights) -> Verdict {
        let to_move = SideToMove::new(pos.turn());
        (self.evaluate)(pos.board(), to_move, strong, w, &mut ())
    }
}

/// Every specialised endgame, most specific first. Exact signatures are constants built at
/// compile time (a malformed one does not compile).
///
/// ```
/// let codes: Vec<&str> = minkowski_core::eval::endgame::ENDGAMES.iter().map(|e| e.code).collect();
/// assert_eq!(codes, ["KK", "KNK", "KBK", "KNNK", "KPK", "KBNK", "KXK", "KNvP"]);
/// ```
pub const ENDGAMES: &[Endgame] = &[
    Endgame {
        code: "KK",
        matcher: Matcher::Exact(Signature::from_code("KK")),
        evaluate: draw,
    },
    Endgame {
        code: "KNK",
        matcher: Matcher::Exact(Signature::from_code("KNK")),
        evaluate: draw,
    },
    Endgame {
        code: "KBK",
        matcher: Matcher::Exact(Signature::from_code("KBK")),
        evaluate: draw,
    },
    Endgame {
        code: "KNNK",
        matcher: Matcher::Exact(Signature::from_code("KNNK")),
        evaluate: draw,
    },
    Endgame {
        code: "KPK",
        matcher: Matcher::Exact(Signature::from_code("KPK")),
        evaluate: kpk::evaluate,
    },
    Endgame {
        code: "KBNK",
        matcher: Matcher::Exact(Signature::from_code("KBNK")),
        evaluate: mop_up::kbnk,
    },
    Endgame {
        code: "KXK",
        matcher: Matcher::Family(is_kxk),
        evaluate: mop_up::kxk,
    },
    Endgame {
        code: "KNvP",
        matcher: Matcher::Family(is_knights_vs_passers),
        evaluate: knight_vs_passer::evaluate,
    },
];

/// The first endgame of [`ENDGAMES`] that fits `board`, with the strong side.
///
/// ```
/// use minkowski_core::eval::endgame::lookup;
/// use shakmaty::{Chess, Color, Position, CastlingMode, fen::Fen};
/// let pos: Chess = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let (endgame, strong) = lookup(pos.board()).unwrap();
/// assert_eq!((endgame.code, strong), ("KBNK", Color::White));
/// assert!(lookup(Chess::default().board()).is_none());
/// ```
// The first test inlined into the evaluation, the search through the list out of line: most
// positions have pieces on both sides and leave after a few instructions, without a call.
#[inline(always)]
#[must_use]
pub fn lookup(board: &Board) -> Option<(&'static Endgame, Color)> {
    // Every entry needs one side without pieces; most positions leave here, before counting.
    let pieces = board.occupied() & !board.pawns() & !board.kings();
    if (pieces & board.white()).any() && (pieces & board.black()).any() {
        return None;
    }
    search(board)
}

/// [`lookup`] past its first test: the first entry of [`ENDGAMES`] that fits.
#[inline(never)]
fn search(board: &Board) -> Option<(&'static Endgame, Color)> {
    let white = SideMaterial::of(board, Color::White);
    let black = SideMaterial::of(board, Color::Black);
    ENDGAMES.iter().find_map(|endgame| {
        [Color::White, Color::Black].into_iter().find_map(|strong| {
            let fits = match endgame.matcher {
                Matcher::Exact(sig) => {
                    let (s, w) = match strong {
                        Color::White => (white, black),
                        Color::Black => (black, white),
                    };
                    sig.strong == s && sig.weak == w
                }
                Matcher::Family(predicate) => predicate(board, strong),
            };
            fits.then_some((endgame, strong))
        })
    })
}

/// Builds every table the endgames build on first use (today the KPK bitbase: about 50 ms, once
/// per process), so that the first evaluation that needs one does not pause. Optional and
/// idempotent; safe from any thread.
///
/// ```
/// minkowski_core::eval::endgame::prepare_tables();
/// ```
pub fn prepare_tables() {
    kpk::build_bitbase();
}

fn draw(_: &Board, _: SideToMove, _: Color, _: &Weights, _: &mut dyn Tracer) -> Verdict {
    Verdict::Replace(S::ZERO)
}

/// Whether a specialised endgame's verdict may depend on who moves: wherever one applies (the
/// KPK bitbase, the lone king's stalemate, the passer race all read it, and a verdict carries no
/// tempo), so the null-move shortcut evaluates there.
///
/// ```
/// use minkowski_core::eval::endgame::reads_side_to_move;
/// use shakmaty::{Chess, Position, CastlingMode, fen::Fen};
/// let kpk: Chess = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert!(reads_side_to_move(kpk.board()));
/// assert!(!reads_side_to_move(Chess::default().board()));
/// ```
#[must_use]
pub fn reads_side_to_move(board: &Board) -> bool {
    lookup(board).is_some()
}

/// Whether `strong` has mating material against a lone king: a queen, a rook, bishop and
/// knight, bishops on both square colours, or three knights (pawns may come on top).
///
/// ```
/// use minkowski_core::eval::endgame::is_kxk;
/// use shakmaty::{Chess, Color, Position, CastlingMode, fen::Fen};
/// let board = |fen: &str| "8/8/8/4k3/8/8/8/K7 w - - 0 1".replace("K7", fen)
///     .parse::<Fen>().unwrap().into_position::<Chess>(CastlingMode::Standard).unwrap()
///     .board().clone();
/// assert!(is_kxk(&board("KR6"), Color::White));
/// assert!(!is_kxk(&board("KNN5"), Color::White)); // two knights cannot force mate
/// assert!(!is_kxk(&board("KB1B4"), Color::White)); // both bishops on light squares
/// ```
#[must_use]
pub fn is_kxk(board: &Board, strong: Color) -> bool {
    let weak = SideMaterial::of(board, !strong);
    if !weak.is_lone_king() {
        return false;
    }
    let m = SideMaterial::of(board, strong);
    let bishops = board.by_piece(Role::Bishop.of(strong));
    let both_colours =
        (bishops & Bitboard::DARK_SQUARES).any() && (bishops & Bitboard::LIGHT_SQUARES).any();
    m.queens() > 0
        || m.rooks() > 0
        || (m.bishops() > 0 && m.knights() > 0)
        || both_colours
        || m.knights() >= 3
}

/// Whether `strong` has only king and pawns, and its opponent has knights as its only pieces:
/// the race between passed pawns and knights (and the defending king) decides these.
///
/// ```
/// use minkowski_core::eval::endgame::is_knights_vs_passers;
/// use shakmaty::{Chess, Color, Position, CastlingMode, fen::Fen};
/// let pos: Chess = "8/8/8/P3k3/8/8/8/K5n1 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert!(is_knights_vs_passers(pos.board(), Color::White));
/// assert!(!is_knights_vs_passers(pos.board(), Color::Black));
/// ```
#[must_use]
pub fn is_knights_vs_passers(board: &Board, strong: Color) -> bool {
    let s = SideMaterial::of(board, strong);
    let w = SideMaterial::of(board, !strong);
    s.pawns() > 0 && s.pieces() == 0 && w.knights() > 0 && w.pieces() == w.knights()
}
