//! The evaluation trace. Evaluation is generic over a [`Tracer`], told every weight the
//! evaluation uses and how many times; the unit type `()` traces nothing and compiles away, so
//! the engine's evaluation pays nothing for it. Two records come from it: [`EvalTrace`], every
//! term for White and Black, mg and eg, the phase and the endgame evaluator used (a table for
//! people), and [`Coefficients`], how many times each weight enters the score (for a tuner).

mod coefficients;

use std::fmt;

use shakmaty::Color;

pub use coefficients::Coefficients;
pub(super) use coefficients::CountingTracer;
use coefficients::side;

use super::combine::{Pair, Parts, combine};
use super::endgame::Verdict;
use super::scale::SCALE_NORMAL;
use super::score::{MAX_PHASE, S};
use super::weights::{Field, Weights};
use crate::value::Value;

/// Declares [`Term`] from one list: each row's variant (with its doc) and its name in the
/// trace; [`Term::ALL`] and [`Term::name`] follow from it, so a new row is one line here.
macro_rules! declare_terms {
    ($( $(#[doc = $doc:literal])* $term:ident => $name:literal, )*) => {
        /// The evaluation terms, in the order the trace prints them.
        ///
        /// ```
        /// use minkowski_core::eval::Evaluator;
        /// use minkowski_core::eval::trace::Term;
        /// let trace = Evaluator::default().trace(&shakmaty::Chess::default());
        /// let row = Term::ALL.iter().position(|&t| t == Term::Material).unwrap();
        /// let [white, black] = trace.terms[row];
        /// assert_eq!(white, black); // White and Black have the same material
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Term {
            $( $(#[doc = $doc])* $term, )*
        }

        impl Term {
            /// Every term, in trace order (the order of the rows of [`EvalTrace`]).
            ///
            /// ```
            /// use minkowski_core::eval::trace::Term;
            /// assert_eq!(Term::ALL.first(), Some(&Term::Material));
            /// assert!(Term::ALL.iter().enumerate().all(|(i, &t)| t as usize == i));
            /// ```
            pub const ALL: &[Term] = &[ $( Term::$term, )* ];

            /// The term's name in the trace.
            ///
            /// ```
            /// assert_eq!(minkowski_core::eval::trace::Term::KnightForks.name(), "Knight forks");
            /// ```
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $( Term::$term => $name, )*
                }
            }
        }
    };
}

declare_terms! {
    /// Material.
    Material => "Material",
    /// Piece-square tables.
    Psqt => "Piece squares",
    /// Mobility of knights, bishops, rooks and queens.
    Mobility => "Mobility",
    /// Pawn structure: isolated, stacked, backward, connected pawns and candidate passers.
    PawnStructure => "Pawn structure",
    /// Passed pawns: by rank and push square, king distances, free path, stacked, unstoppable.
    PassedPawns => "Passed pawns",
    /// Bishop pair.
    BishopPair => "Bishop pair",
    /// Rooks on open and semi-open files.
    RookFiles => "Rook files",
    /// King safety: pawn shield and attacks on the king zone.
    KingSafety => "King safety",
    /// King shelter and pawn storm by rank distance, and the king's distance to the pawns.
    KingShelter => "Shelter/storm",
    /// King danger: the attack on the enemy king through the non-linear curve.
    KingDanger => "King danger",
    /// Threats: pieces attacked by cheaper ones or poorly defended, overloaded pieces, pawn
    /// pushes that attack a piece.
    Threats => "Threats",
    /// Knight forks available (or threatened).
    KnightForks => "Knight forks",
    /// Side to move bonus.
    Tempo => "Tempo",
    /// An endgame evaluator's adjustment (the knight-versus-passer race).
    Endgame => "Endgame",
    /// Piece placement: outposts, minors behind pawns, knights far from the kings, minors'
    /// distance to their king, bishops and their pawns, long diagonals, rooks on the seventh,
    /// space and closedness.
    PiecePlacement => "Piece placement",
    /// Drawishness: what complexity and the endgame scale factor change in the endgame half.
    Drawishness => "Drawishness",
}

/// Receives each weight as the evaluation uses it. Every method defaults to doing nothing; the
/// unit type `()` implements none of them, so [`super::Evaluator::evaluate`] pays nothing.
///
/// Weights are named by [`Field`] and element (`index` into [`Weights::slots`]); a term that
/// scores a weight `count` times (mobility: once per square) reports it once with that count.
/// Everything the evaluation adds up is reported, so that the counts times the weights give the
/// evaluation back ([`Coefficients`]).
///
/// ```
/// use minkowski_core::eval::Evaluator;
/// use minkowski_core::eval::trace::Tracer;
/// /// Remembers only the game phase.
/// #[derive(Default)]
/// struct Phase(i32);
/// impl Tracer for Phase {
///     fn phase(&mut self, phase: i32) {
///         self.0 = phase;
///     }
/// }
/// let mut phase = Phase::default();
/// let _ = Evaluator::default().evaluate_with(&shakmaty::Chess::default(), &mut phase);
/// assert_eq!(phase.0, 24);
/// ```
pub trait Tracer {
    /// `color` scores element `index` of `field`, `count` times, in the main sum (White's
    /// terms minus Black's, blended by phase as one sum).
    #[inline(always)]
    fn weight(&mut self, color: Color, field: Field, index: usize, count: i32) {
        let _ = (color, field, index, count);
    }
    /// `color`'s attack on the enemy king gains element `index` of `field`, `count` times, in
    /// king-danger units: each side's units add up and go through
    /// [`super::combine::danger_curve`] (not linear in the weights).
    #[inline(always)]
    fn danger(&mut self, color: Color, field: Field, index: usize, count: i32) {
        let _ = (color, field, index, count);
    }
    /// `color`, the side to move, gets [`Weights::tempo`]: blended by phase on its own and
    /// added after the main sum (not reported when an endgame verdict replaces the evaluation).
    #[inline(always)]
    fn tempo(&mut self, color: Color) {
        let _ = color;
    }
    /// The position's complexity (see [`super::scale`]) gains the endgame half of element
    /// `index` of `field`, `count` times.
    #[inline(always)]
    fn complexity(&mut self, field: Field, index: usize, count: i32) {
        let _ = (field, index, count);
    }
    /// The endgame scale factors, out of [`super::scale::SCALE_NORMAL`]: `[if White is ahead
    /// in the endgame half, if Black is]` (not reported when an endgame evaluator answered).
    #[inline(always)]
    fn scale(&mut self, factors: [i32; 2]) {
        let _ = factors;
    }
    /// The endgame evaluator about to give its verdict scores element `index` of `field`,
    /// `count` times, from the strong side's point of view.
    #[inline(always)]
    fn verdict_weight(&mut self, field: Field, index: usize, count: i32) {
        let _ = (field, index, count);
    }
    /// The game phase (0 = bare kings .. [`MAX_PHASE`] = all pieces).
    #[inline(always)]
    fn phase(&mut self, phase: i32) {
        let _ = phase;
    }
    /// A specialised endgame evaluator was used: its verdict is made of the weights reported
    /// by [`Tracer::verdict_weight`] since the last call.
    #[inline(always)]
    fn endgame(&mut self, code: &'static str, strong: Color, verdict: Verdict) {
        let _ = (code, strong, verdict);
    }
}

/// Traces nothing: the engine's evaluation.
impl Tracer for () {}

/// A full record of one evaluation by term, printable as a table.
///
/// ```
/// use minkowski_core::eval::Evaluator;
/// use shakmaty::{Chess, CastlingMode, fen::Fen};
/// let pos: Chess = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let trace = Evaluator::default().trace(&pos);
/// assert_eq!(trace.endgame.map(|(code, _, _)| code), Some("KBNK"));
/// assert_eq!(trace.phase, 2);
/// println!("{trace}"); // a table of every term, White, Black and total, mg and eg
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalTrace {
    /// Per term (index as [`Term::ALL`]), per colour (`[white, black]`).
    pub terms: [[S; 2]; Term::ALL.len()],
    /// The game phase.
    pub phase: i32,
    /// The endgame evaluator used, its strong side and its verdict.
    pub endgame: Option<(&'static str, Color, Verdict)>,
    /// The complexity (endgame centipawns) and the scale factors `[if White is ahead, if Black
    /// is]`, out of [`super::scale::SCALE_NORMAL`], when no endgame evaluator answered.
    pub drawishness: Option<(i32, [i32; 2])>,
    /// The final value, from the side to move's point of view.
    pub total: Value,
    /// The side to move.
    pub side_to_move: Option<Color>,
}

impl EvalTrace {
    /// The table of one evaluation from its counts: each weight's count times its value goes
    /// to the row of its [`Term`] (an endgame adjustment's weights to [`Term::Endgame`]).
    pub(super) fn from_counts(
        counts: &CountingTracer,
        w: &Weights,
        total: Value,
        side_to_move: Color,
    ) -> EvalTrace {
        let mut trace = EvalTrace {
            phase: counts.phase,
            endgame: counts.endgame,
            total,
            side_to_move: Some(side_to_move),
            ..EvalTrace::default()
        };
        let value = |index: usize, count: i32| w.slot(index).unwrap_or(S::ZERO) * count;
        let term_of = |index: usize| Weights::locate(index).map(|(f, _)| f.spec().term);
        for (side, counts) in counts.main.iter().enumerate() {
            for (index, &count) in counts.iter().enumerate() {
                if let (Some(term), true) = (term_of(index), count != 0) {
                    trace.terms[term as usize][side] += value(index, count);
                }
            }
        }
        if let Some((_, strong, Verdict::Adjust(_))) = counts.endgame {
            for (index, &count) in counts.verdict.iter().enumerate() {
                trace.terms[Term::Endgame as usize][side(strong)] += value(index, count);
            }
        }
        // The non-linear stages, through the one combine: what the danger curve adds to each
        // side, what the drawishness stage changes in the endgame half of the sum so far.
        if !matches!(counts.endgame, Some((_, _, Verdict::Replace(_)))) {
            let linear = trace
                .terms
                .iter()
                .fold(S::ZERO, |sum, [white, black]| sum + *white - *black);
            let units = |counts: &[i32]| {
                (0..Weights::COUNT)
                    .filter(|&index| counts[index] != 0)
                    .fold(S::ZERO, |sum, index| sum + value(index, counts[index]))
            };
            let complexity = units(&counts.complexity).eg();
            let parts = Parts {
                linear: linear.into(),
                danger: counts.danger.each_ref().map(|side| units(side).into()),
                complexity,
                scale: counts.scale,
                replaced: None,
                tempo: Pair::zero(),
                phase: counts.phase,
            };
            let combined = combine(&parts);
            for (side, danger) in combined.danger.into_iter().enumerate() {
                trace.terms[Term::KingDanger as usize][side] += S::from(danger);
            }
            if let Some(factors) = counts.scale {
                trace.terms[Term::Drawishness as usize][0] += S(0, combined.drawishness);
                trace.drawishness = Some((complexity, factors));
            }
        }
        if let Some(color) = counts.tempo {
            trace.terms[Term::Tempo as usize][side(color)] += w.tempo;
        }
        trace
    }
}

impl fmt::Display for EvalTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The name column as wide as the longest row name, so every row lines up.
        let width = Term::ALL
            .iter()
            .map(|term| term.name().len())
            .max()
            .unwrap_or(0)
            .max("Term".len());
        let rule = "-".repeat(width + 52);
        writeln!(
            f,
            "{:<width$} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "Term", "White", "", "Black", "", "Total", ""
        )?;
        writeln!(
            f,
            "{:<width$} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "", "mg", "eg", "mg", "eg", "mg", "eg"
        )?;
        writeln!(f, "{rule}")?;
        for (term, [white, black]) in Term::ALL.iter().zip(self.terms) {
            let total = white - black;
            writeln!(
                f,
                "{:<width$} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
                term.name(),
                white.mg(),
                white.eg(),
                black.mg(),
                black.eg(),
                total.mg(),
                total.eg()
            )?;
        }
        writeln!(f, "{rule}")?;
        writeln!(f, "Phase: {} / {MAX_PHASE}", self.phase)?;
        if let Some((complexity, [white, black])) = self.drawishness {
            writeln!(
                f,
                "Drawishness: complexity {complexity} (endgame), scale factor {white}/{SCALE_NORMAL} \
                 with White ahead, {black}/{SCALE_NORMAL} with Black ahead"
            )?;
        }
        match self.endgame {
            Some((code, strong, verdict)) => {
                writeln!(f, "Endgame: {code} (strong side {strong:?}): {verdict:?}")?
            }
            None => writeln!(f, "Endgame: none")?,
        }
        let side = self
            .side_to_move
            .map_or("side to move".to_owned(), |c| format!("{c:?} to move"));
        write!(f, "Total: {} cp ({side}'s point of view)", self.total.0)
    }
}
