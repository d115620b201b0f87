//! The one place where the evaluation's parts become its value: [`combine`], generic over the
//! [`Number`] it computes in.
//!
//! The term passes fill a [`Parts`]: the linear sum (every weight times a count, White's minus
//! Black's), each side's king-danger units, the complexity, the endgame scale factors, an
//! endgame verdict that replaces the sum, the tempo bonus and the phase. [`combine`] sends the
//! danger units through their curve, moves and scales the endgame half, blends by phase and adds
//! the tempo bonus. Everything that reads an evaluation's value reads it through this function:
//!
//! - the engine, on `i32`: integer arithmetic with its roundings (the value the search sees);
//! - the trace ([`super::trace::EvalTrace`]) and the coefficient form
//!   ([`super::trace::Coefficients`]), on `i32` and `f64`;
//! - the tuner, on numbers that carry their derivatives by the parts (forward-mode automatic
//!   differentiation, `tune::dual`): no derivative is written by hand, and a new non-linear
//!   stage is an edit of this file only.

use std::ops::{Add, Mul, Neg, Sub};

use super::scale::SCALE_NORMAL;
use super::score::{MAX_PHASE, S};

/// Evaluations are clamped to this magnitude so they never look like mate scores (after the
/// combine, by the evaluation and the coefficient form alike).
///
/// ```
/// use minkowski_core::eval::{EVAL_LIMIT, Evaluator};
/// use minkowski_core::value::Value;
/// use shakmaty::{Chess, CastlingMode, fen::Fen};
/// // Four queens against a king: a known win, still below every mate score.
/// let pos: Chess = "k7/8/8/8/8/8/8/1QQQQK2 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let v = Evaluator::default().evaluate(&pos);
/// assert!(v.0 <= EVAL_LIMIT && !v.is_mate());
/// ```
pub const EVAL_LIMIT: i32 = 20_000;

/// The middlegame half of the king-danger curve: `units² / DANGER_MG_DIVISOR` for positive
/// units. 720 puts 300 units (two pieces on the king with a safe check) near a pawn and a
/// half.
pub const DANGER_MG_DIVISOR: i32 = 720;

/// The endgame half of the king-danger curve: `units / DANGER_EG_DIVISOR`, linear, since
/// without queens a king attack rarely decides on its own.
pub const DANGER_EG_DIVISOR: i32 = 20;

/// A number [`combine`] can compute in: integers (rounding as the engine does), reals, or reals
/// with derivatives. The only operations the combine uses are these.
pub trait Number:
    Copy + Add<Output = Self> + Sub<Output = Self> + Neg<Output = Self> + Mul<Output = Self>
{
    /// The number `n`.
    fn int(n: i32) -> Self;
    /// `self × k` for a constant `k`.
    fn times(self, k: i32) -> Self;
    /// `self / d` for a constant `d > 0`: truncated toward zero on integers (Rust's `/`), exact
    /// on reals.
    fn divided(self, d: i32) -> Self;
    /// The sign of the value: -1, 0 or 1 (the derivatives, if any, do not enter).
    fn sign(self) -> i32;
}

impl Number for i32 {
    #[inline(always)]
    fn int(n: i32) -> i32 {
        n
    }
    #[inline(always)]
    fn times(self, k: i32) -> i32 {
        self * k
    }
    #[inline(always)]
    fn divided(self, d: i32) -> i32 {
        self / d
    }
    #[inline(always)]
    fn sign(self) -> i32 {
        self.signum()
    }
}

impl Number for f64 {
    #[inline(always)]
    fn int(n: i32) -> f64 {
        f64::from(n)
    }
    #[inline(always)]
    fn times(self, k: i32) -> f64 {
        self * f64::from(k)
    }
    #[inline(always)]
    fn divided(self, d: i32) -> f64 {
        self / f64::from(d)
    }
    #[inline(always)]
    fn sign(self) -> i32 {
        if self > 0.0 {
            1
        } else if self < 0.0 {
            -1
        } else {
            0
        }
    }
}

/// A middlegame and endgame pair of any [`Number`] (for `i32`, the same as [`S`](struct@S)).
///
/// ```
/// use minkowski_core::eval::combine::Pair;
/// use minkowski_core::eval::score::S;
/// assert_eq!(Pair::from(S(3, -4)), Pair { mg: 3, eg: -4 });
/// assert_eq!(S::from(Pair { mg: 3, eg: -4 }), S(3, -4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pair<N> {
    /// The middlegame half.
    pub mg: N,
    /// The endgame half.
    pub eg: N,
}

impl<N: Number> Pair<N> {
    /// Both halves zero.
    #[inline(always)]
    #[must_use]
    pub fn zero() -> Pair<N> {
        Pair {
            mg: N::int(0),
            eg: N::int(0),
        }
    }

    /// Both halves times the constant `k`.
    #[inline(always)]
    #[must_use]
    pub fn times(self, k: i32) -> Pair<N> {
        Pair {
            mg: self.mg.times(k),
            eg: self.eg.times(k),
        }
    }

    /// The pair blended by `phase` (0 = endgame … [`MAX_PHASE`] = middlegame; clamped):
    /// [`S::taper`] in any number type.
    ///
    /// ```
    /// use minkowski_core::eval::combine::Pair;
    /// use minkowski_core::eval::score::S;
    /// assert_eq!(Pair::from(S(0, 240)).taper(2), S(0, 240).taper(2));
    /// assert_eq!(Pair { mg: 0.0, eg: 1.0 }.taper(12), 0.5);
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn taper(self, phase: i32) -> N {
        let p = phase.clamp(0, MAX_PHASE);
        (self.mg.times(p) + self.eg.times(MAX_PHASE - p)).divided(MAX_PHASE)
    }
}

impl<N: Number> Add for Pair<N> {
    type Output = Pair<N>;
    #[inline(always)]
    fn add(self, o: Pair<N>) -> Pair<N> {
        Pair {
            mg: self.mg + o.mg,
            eg: self.eg + o.eg,
        }
    }
}

impl<N: Number> Sub for Pair<N> {
    type Output = Pair<N>;
    #[inline(always)]
    fn sub(self, o: Pair<N>) -> Pair<N> {
        Pair {
            mg: self.mg - o.mg,
            eg: self.eg - o.eg,
        }
    }
}

impl From<S> for Pair<i32> {
    #[inline(always)]
    fn from(s: S) -> Pair<i32> {
        Pair {
            mg: s.mg(),
            eg: s.eg(),
        }
    }
}

impl From<Pair<i32>> for S {
    #[inline(always)]
    fn from(p: Pair<i32>) -> S {
        S(p.mg, p.eg)
    }
}

/// What the term passes produce for one position, White's point of view: the input of
/// [`combine`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parts<N> {
    /// Every weight times its count, White's terms minus Black's (an endgame evaluator's
    /// adjustment included; the tempo bonus not).
    pub linear: Pair<N>,
    /// King-danger units by attacking side, `[white, black]`: each goes through
    /// [`danger_curve`].
    pub danger: [Pair<N>; 2],
    /// The complexity (endgame centipawns; see [`super::scale`]).
    pub complexity: N,
    /// The endgame scale factors `[if White is ahead, if Black is]`, out of
    /// [`SCALE_NORMAL`]; `None` where an endgame evaluator answered (then neither the
    /// complexity nor a factor applies).
    pub scale: Option<[i32; 2]>,
    /// An endgame verdict that replaces everything else (White's point of view).
    pub replaced: Option<Pair<N>>,
    /// The tempo bonus, signed for the side to move (`+tempo` with White to move).
    pub tempo: Pair<N>,
    /// The game phase (clamped to 0 ..= [`MAX_PHASE`] by the blend).
    pub phase: i32,
}

/// What [`combine`] found on the way, for the trace; `white` is the evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Combined<N> {
    /// What each side's king danger adds (`[white, black]`, each from its own side's point of
    /// view): the units through the curve.
    pub danger: [Pair<N>; 2],
    /// What the drawishness stage changes in the endgame half (White's point of view).
    pub drawishness: N,
    /// The sum before the blend and the tempo bonus: linear, danger and drawishness (the
    /// verdict where one replaces them).
    pub sum: Pair<N>,
    /// White's evaluation before the clamp: the sum blended, plus the blended tempo bonus.
    pub white: N,
}

/// What `units` of king danger are worth to the attacker: `units² / DANGER_MG_DIVISOR` in the
/// middlegame, `units / DANGER_EG_DIVISOR` in the endgame, nothing for negative units (a
/// defended king is not a bonus to the attacker).
///
/// ```
/// use minkowski_core::eval::combine::{Pair, danger_curve};
/// assert_eq!(danger_curve(Pair { mg: 360, eg: 200 }), Pair { mg: 180, eg: 10 });
/// assert_eq!(danger_curve(Pair { mg: -50, eg: -50 }), Pair { mg: 0, eg: 0 });
/// assert_eq!(danger_curve(Pair { mg: 360.0, eg: 10.0 }), Pair { mg: 180.0, eg: 0.5 });
/// ```
#[inline(always)]
#[must_use]
pub fn danger_curve<N: Number>(units: Pair<N>) -> Pair<N> {
    let positive = |x: N| if x.sign() > 0 { x } else { N::int(0) };
    let (mg, eg) = (positive(units.mg), positive(units.eg));
    Pair {
        mg: (mg * mg).divided(DANGER_MG_DIVISOR),
        eg: eg.divided(DANGER_EG_DIVISOR),
    }
}

/// The endgame half `eg` (White's point of view) after complexity `complexity` and the scale
/// factors `factors` (`[if White is ahead, if Black is ahead]`, out of [`SCALE_NORMAL`]): the
/// complexity moves it away from zero (positive) or toward it, never past it
/// (`eg + sign(eg) × max(complexity, −|eg|)`), then the factor of the side ahead scales it. Never
/// of another sign than `eg`.
///
/// ```
/// use minkowski_core::eval::combine::scale_endgame;
/// assert_eq!(scale_endgame(100, 20, [64, 128]), 60); // (100 + 20) × 64/128
/// assert_eq!(scale_endgame(-100, 20, [64, 128]), -120); // Black ahead: away from zero
/// assert_eq!(scale_endgame(-100, -300, [128, 128]), 0); // toward zero, never past it
/// assert_eq!(scale_endgame(0, 50, [128, 128]), 0);
/// assert_eq!(scale_endgame(101.0, 0.0, [64, 128]), 50.5); // no rounding in real numbers
/// ```
#[inline(always)]
#[must_use]
pub fn scale_endgame<N: Number>(eg: N, complexity: N, factors: [i32; 2]) -> N {
    let sign = eg.sign();
    if sign == 0 {
        return N::int(0);
    }
    let floor = -eg.times(sign);
    let push = if (complexity - floor).sign() > 0 {
        complexity
    } else {
        floor
    };
    let moved = eg + push.times(sign);
    let factor = if sign > 0 { factors[0] } else { factors[1] };
    moved.times(factor).divided(SCALE_NORMAL)
}

/// The evaluation from its parts, White's point of view, before the clamp: each side's danger
/// units through [`danger_curve`], the endgame half through [`scale_endgame`], the blend by
/// phase and the blended tempo bonus; a replacing verdict blended alone.
///
/// ```
/// use minkowski_core::eval::combine::{Pair, Parts, combine};
/// let parts = Parts {
///     linear: Pair { mg: 100, eg: 40 },
///     danger: [Pair { mg: 360, eg: 200 }, Pair::zero()],
///     complexity: 20,
///     scale: Some([64, 128]),
///     replaced: None,
///     tempo: Pair { mg: 24, eg: 0 },
///     phase: 12,
/// };
/// let c = combine(&parts);
/// assert_eq!(c.danger[0], Pair { mg: 180, eg: 10 });
/// assert_eq!(c.sum, Pair { mg: 280, eg: 35 }); // (40 + 10 + 20) × 64/128
/// assert_eq!(c.white, (280 + 35) / 2 + 12);
/// ```
#[inline(always)]
#[must_use]
pub fn combine<N: Number>(parts: &Parts<N>) -> Combined<N> {
    if let Some(verdict) = parts.replaced {
        return Combined {
            danger: [Pair::zero(); 2],
            drawishness: N::int(0),
            sum: verdict,
            white: verdict.taper(parts.phase),
        };
    }
    let danger = parts.danger.map(danger_curve);
    let mut sum = parts.linear + danger[0] - danger[1];
    let mut drawishness = N::int(0);
    if let Some(factors) = parts.scale {
        let scaled = scale_endgame(sum.eg, parts.complexity, factors);
        drawishness = scaled - sum.eg;
        sum.eg = scaled;
    }
    Combined {
        danger,
        drawishness,
        sum,
        white: sum.taper(parts.phase) + parts.tempo.taper(parts.phase),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The property: over random endgame halves, complexities and factors the sign never
    /// flips, and the real-number form agrees with the integer one within its rounding.
    #[test]
    fn neither_complexity_nor_factor_flips_the_sign() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |span: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * span as u64 + 1)) as i64 - span
        };
        for _ in 0..100_000 {
            let eg = next(3000) as i32;
            let c = next(400) as i32;
            let factors = [next(64) + 64, next(64) + 64].map(|f| f as i32);
            let out = scale_endgame(eg, c, factors);
            assert!(
                out.signum() == eg.signum() || out == 0,
                "{eg} {c} {factors:?}"
            );
            assert!(out.abs() <= (eg.abs() + c.max(0)), "{eg} {c} {factors:?}");
            let real = scale_endgame(f64::from(eg), f64::from(c), factors);
            assert!((real - f64::from(out)).abs() < 1.0, "{eg} {c} {factors:?}");
        }
    }

    /// The integer blend is [`S::taper`], rounding included, at every phase (and beyond).
    #[test]
    fn the_blend_is_the_pairs_taper() {
        for phase in -2..=MAX_PHASE + 2 {
            for (mg, eg) in [(7, -13), (-250, 31), (1, 1), (-1, 0), (997, -998)] {
                assert_eq!(Pair { mg, eg }.taper(phase), S(mg, eg).taper(phase));
            }
        }
    }
}
