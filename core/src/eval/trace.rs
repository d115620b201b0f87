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

/// The trace rows, the tracer and the endgame verdict, where the trace's users look for them.
pub use super::term::Term;
pub use super::tracer::{Tracer, Verdict};

use super::base::TEMPO;
use super::combine::{Pair, Parts, combine};
use super::scale::SCALE_NORMAL;
use super::score::{MAX_PHASE, S};
use super::weights::Weights;
use crate::value::Value;

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
        let term_of = |index: usize| Weights::locate(index).map(|(spec, _)| spec.term);
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
            trace.terms[Term::Tempo as usize][side(color)] += w[TEMPO];
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
