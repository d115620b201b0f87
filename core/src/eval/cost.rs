//! The evaluation's stages one at a time, for the cost table (`core/examples/eval_cost.rs`,
//! `scripts/eval-cost.py`, docs/evaluation-cost.md): each [`Stage`] runs over a set of
//! [`Prepared`] positions in a function of its own (never inlined, so that callgrind counts its
//! instructions apart and a clock can time it), computed as the evaluation computes it: the same
//! inlined term code, with `popcnt` (and BMI1, BMI2) where the CPU has them.
//!
//! A stage reads what the stages before it leave in [`Info`] (the attack maps of the pieces'
//! pass); a [`Prepared`] position holds that, computed once, so that each stage pays for its own
//! work only. The stages' costs add up to about the whole evaluation's, not exactly: in one
//! function the compiler shares some work between them.

use shakmaty::{Bitboard, Board, Color, Role};

use super::acc::Acc;
use super::info::{Info, KingThreat};
use super::pawn_king::PawnKingCache;
use super::score::S;
use super::stages::pawn_king_terms;
use super::tactics::forks_from;
use super::to_move::SideToMove;
use super::weights::role_index;
use super::{
    Evaluator, base, endgame, king, king_attack, passers, piece_lines, pieces, scale, targets,
    threats,
};

/// One stage of the evaluation, in the order the evaluation runs them, or the whole of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Material and piece squares from scratch (the search keeps them move by move instead).
    MaterialPsqt,
    /// [`Info`] and the pieces' pass: attack maps, mobility, king-zone attacks, rook files, pawn
    /// shield, bishop pair.
    PiecesPass,
    /// Pawn structure, shelter and storm, computed (what a pawn-king cache miss costs).
    PawnKing,
    /// Passed pawns.
    Passers,
    /// King danger of both sides, with the threats against the kings that the king attack
    /// reads as well.
    KingDanger,
    /// The king attack of both sides (given the threats).
    KingAttack,
    /// Threats, knight forks included.
    Threats,
    /// The knight forks alone (part of [`Stage::Threats`]).
    Forks,
    /// Attack targets.
    Targets,
    /// Piece placement, with the closedness of the pawns.
    Pieces,
    /// Rooks' and bishops' lines.
    PieceLines,
    /// The endgame lookup, and the drawishness stage where none applies.
    EndgameScale,
    /// The whole evaluation without a cache ([`Evaluator::evaluate_from`]).
    Whole,
    /// The whole evaluation with a warm pawn-king cache ([`Evaluator::evaluate_cached`]): what
    /// the search calls, for a position its table of whole values does not hold.
    WholeCached,
}

impl Stage {
    /// Every stage, in the evaluation's order, then the wholes.
    pub const ALL: [Stage; 14] = [
        Stage::MaterialPsqt,
        Stage::PiecesPass,
        Stage::PawnKing,
        Stage::Passers,
        Stage::KingDanger,
        Stage::KingAttack,
        Stage::Threats,
        Stage::Forks,
        Stage::Targets,
        Stage::Pieces,
        Stage::PieceLines,
        Stage::EndgameScale,
        Stage::Whole,
        Stage::WholeCached,
    ];

    /// The stage's name in the cost table.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stage::MaterialPsqt => "material_psqt",
            Stage::PiecesPass => "pieces_pass",
            Stage::PawnKing => "pawn_king",
            Stage::Passers => "passers",
            Stage::KingDanger => "king_danger",
            Stage::KingAttack => "king_attack",
            Stage::Threats => "threats",
            Stage::Forks => "forks",
            Stage::Targets => "targets",
            Stage::Pieces => "pieces",
            Stage::PieceLines => "piece_lines",
            Stage::EndgameScale => "endgame_scale",
            Stage::Whole => "whole",
            Stage::WholeCached => "whole_cached",
        }
    }

    /// Whether the stage is a part of another row of the table (counted there too) or a whole:
    /// left out of the sum of the parts.
    #[must_use]
    pub const fn is_subtotal(self) -> bool {
        matches!(self, Stage::Forks | Stage::Whole | Stage::WholeCached)
    }
}

/// A position with what the stages after the pieces' pass read: the attack maps, the passed
/// pawns, material and piece squares.
pub struct Prepared {
    board: Board,
    turn: Color,
    info: Info,
    threats: [Option<KingThreat>; 2],
    passed: Bitboard,
    material_psqt: S,
}

impl Prepared {
    /// `board` with `turn` to move, prepared for `evaluator`'s stages.
    #[must_use]
    pub fn new(evaluator: &Evaluator, board: &Board, turn: Color) -> Prepared {
        let mut info = Info::new(board);
        let (passed, material_psqt) = {
            let mut silent = ();
            let mut acc = Acc::new(evaluator.weights(), &mut silent);
            for color in Color::ALL {
                base::pieces(board, color, &mut info, &mut acc);
            }
            (
                pawn_king_terms(&info, &mut acc),
                evaluator.material_psqt(board),
            )
        };
        Prepared {
            board: board.clone(),
            turn,
            threats: [
                info.king_threat(board, Color::White),
                info.king_threat(board, Color::Black),
            ],
            info,
            passed,
            material_psqt,
        }
    }
}

/// A number that depends on everything `acc` summed, so that no stage's work can be left out.
#[inline(always)]
fn digest(acc: &Acc<'_, ()>) -> i32 {
    let linear = acc.linear();
    let [white, black] = acc.danger_units();
    linear.mg() ^ linear.eg() ^ white.mg() ^ black.eg() ^ acc.complexity_sum()
}

/// One function per stage, each running it over every position (`popcnt` where the CPU has
/// it, as the evaluation does) and returning the sum of the digests.
macro_rules! stage {
    ($name:ident, |$e:ident, $p:ident, $cache:ident, $acc:ident| $body:block) => {
        #[inline(never)]
        fn $name(evaluator: &Evaluator, positions: &[Prepared], cache: &mut PawnKingCache) -> i32 {
            #[inline(always)]
            fn sweep(e: &Evaluator, positions: &[Prepared], c: &mut PawnKingCache) -> i32 {
                let mut sum = 0i32;
                for p in positions {
                    let mut silent = ();
                    let mut acc = Acc::new(e.weights(), &mut silent);
                    let ($e, $p, $cache, $acc) = (e, p, &mut *c, &mut acc);
                    let out: i32 = $body;
                    sum = sum.wrapping_add(out ^ digest($acc));
                }
                sum
            }
            #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
            if super::cpu::has_bit_manipulation() {
                #[target_feature(enable = "popcnt,bmi1,bmi2")]
                fn fast_bmi(e: &Evaluator, positions: &[Prepared], c: &mut PawnKingCache) -> i32 {
                    sweep(e, positions, c)
                }
                // SAFETY: the CPU has just been found to support `popcnt`, BMI1 and BMI2, the
                // features `fast_bmi` is compiled with.
                return unsafe { fast_bmi(evaluator, positions, cache) };
            }
            #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
            if std::arch::is_x86_feature_detected!("popcnt") {
                #[target_feature(enable = "popcnt")]
                fn fast(e: &Evaluator, positions: &[Prepared], c: &mut PawnKingCache) -> i32 {
                    sweep(e, positions, c)
                }
                // SAFETY: the CPU has just been found to support `popcnt`, the one feature
                // `fast` is compiled with.
                return unsafe { fast(evaluator, positions, cache) };
            }
            sweep(evaluator, positions, cache)
        }
    };
}

stage!(stage_material_psqt, |e, p, _c, _acc| {
    let s = e.material_psqt(&p.board);
    s.mg() ^ s.eg()
});
stage!(stage_pieces_pass, |_e, p, _c, acc| {
    let mut info = Info::new(&p.board);
    let phase = base::pieces(&p.board, Color::White, &mut info, acc)
        + base::pieces(&p.board, Color::Black, &mut info, acc);
    phase ^ info.attacked.white.0 as i32 ^ *info.king_area_hits.get(Color::Black)
});
stage!(stage_pawn_king, |_e, p, _c, acc| {
    pawn_king_terms(&p.info, acc).0 as i32
});
stage!(stage_passers, |_e, p, _c, acc| {
    passers::evaluate(&p.board, &p.info, p.passed, SideToMove::new(p.turn), acc);
    0
});
stage!(stage_king_danger, |_e, p, _c, acc| {
    // The threats against the kings, then the danger (the king attack reads the same threats).
    let threats = [
        p.info.king_threat(&p.board, Color::White),
        p.info.king_threat(&p.board, Color::Black),
    ];
    if let Some(threat) = &threats[0] {
        king::danger_from(&p.board, &p.info, Color::White, threat, acc);
    }
    if let Some(threat) = &threats[1] {
        king::danger_from(&p.board, &p.info, Color::Black, threat, acc);
    }
    0
});
stage!(stage_king_attack, |_e, p, _c, acc| {
    king_attack::evaluate_with(&p.board, &p.info, p.threats, acc);
    0
});
stage!(stage_threats, |_e, p, _c, acc| {
    threats::evaluate(&p.board, &p.info, SideToMove::new(p.turn), acc);
    0
});
stage!(stage_forks, |_e, p, _c, _acc| {
    // As the threats family asks for them: from the attack maps.
    let forks = |color: Color| {
        let reach = p.info.attacks.get(color)[role_index(Role::Knight)];
        let defence = *p.info.attacked.get(!color);
        if reach.any() {
            forks_from(&p.board, color, reach, |sq| defence.contains(sq))
        } else {
            Bitboard::EMPTY
        }
    };
    (forks(Color::White) | forks(Color::Black)).0 as i32
});
stage!(stage_targets, |_e, p, _c, acc| {
    targets::evaluate(&p.board, &p.info, acc);
    0
});
stage!(stage_pieces, |_e, p, _c, acc| {
    let closed = pieces::closedness(&p.board);
    pieces::evaluate(&p.board, &p.info, Color::White, closed, acc);
    pieces::evaluate(&p.board, &p.info, Color::Black, closed, acc);
    0
});
stage!(stage_piece_lines, |_e, p, _c, acc| {
    piece_lines::evaluate(&p.board, &p.info, Color::White, acc);
    piece_lines::evaluate(&p.board, &p.info, Color::Black, acc);
    0
});
stage!(stage_endgame_scale, |_e, p, _c, acc| {
    match endgame::lookup(&p.board) {
        Some((eg, strong)) => eg.code.len() as i32 ^ strong as i32,
        None => {
            let [w, b] = scale::drawishness(&p.board, &p.info, acc);
            w ^ b
        }
    }
});
stage!(stage_whole, |e, p, _c, _acc| {
    e.evaluate_from(&p.board, p.turn, p.material_psqt).0
});
// Past the table of whole values (a set swept again is all hits there): the evaluation a
// search pays for a position it has not evaluated yet.
stage!(stage_whole_cached, |e, p, c, _acc| {
    e.evaluate_uncached(&p.board, p.turn, p.material_psqt, c).0
});

impl Evaluator {
    /// Runs `stage` once over every position of `positions` (with `cache` for
    /// [`Stage::WholeCached`]) and returns a number that depends on all of its results (for
    /// `std::hint::black_box`, so that no work is left out).
    ///
    /// ```
    /// use minkowski_core::eval::{Evaluator, pawn_king::PawnKingCache};
    /// use minkowski_core::eval::cost::{Prepared, Stage};
    /// use shakmaty::{Chess, Position};
    /// let e = Evaluator::default();
    /// let pos = Chess::default();
    /// let set = [Prepared::new(&e, pos.board(), pos.turn())];
    /// let mut cache = PawnKingCache::default();
    /// for stage in Stage::ALL {
    ///     let _ = e.run_stage(stage, &set, &mut cache);
    /// }
    /// // The whole evaluation's digest is the sum of the values.
    /// assert_eq!(e.run_stage(Stage::Whole, &set, &mut cache), e.evaluate(&pos).0);
    /// ```
    pub fn run_stage(
        &self,
        stage: Stage,
        positions: &[Prepared],
        cache: &mut PawnKingCache,
    ) -> i32 {
        let run = match stage {
            Stage::MaterialPsqt => stage_material_psqt,
            Stage::PiecesPass => stage_pieces_pass,
            Stage::PawnKing => stage_pawn_king,
            Stage::Passers => stage_passers,
            Stage::KingDanger => stage_king_danger,
            Stage::KingAttack => stage_king_attack,
            Stage::Threats => stage_threats,
            Stage::Forks => stage_forks,
            Stage::Targets => stage_targets,
            Stage::Pieces => stage_pieces,
            Stage::PieceLines => stage_piece_lines,
            Stage::EndgameScale => stage_endgame_scale,
            Stage::Whole => stage_whole,
            Stage::WholeCached => stage_whole_cached,
        };
        run(self, positions, cache)
    }
}
