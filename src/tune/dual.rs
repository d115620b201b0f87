//! Forward-mode automatic differentiation over the evaluation's few aggregates: a [`Dual`] is a
//! real number with its derivatives by each [`Aggregate`]. The tuner runs the evaluation's one
//! combine ([`crate::eval::combine::combine`]) on them, so the derivative of the evaluation by
//! every aggregate comes out of the same code that computes the value: no derivative is
//! written by hand, and a new curve in the combine is differentiated as soon as it is written.
//! From an aggregate to a weight is one more step, linear: the weight's count in that aggregate.

use std::ops::{Add, Mul, Neg, Sub};

use crate::eval::combine::Number;

/// The sums the tuner differentiates the evaluation by: each is `Σ count × weight` over one
/// channel's coefficients of a position (White's point of view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// The linear sum's middlegame half.
    LinearMg,
    /// The linear sum's endgame half.
    LinearEg,
    /// White's king-danger units, middlegame half.
    WhiteDangerMg,
    /// White's king-danger units, endgame half.
    WhiteDangerEg,
    /// Black's king-danger units, middlegame half.
    BlackDangerMg,
    /// Black's king-danger units, endgame half.
    BlackDangerEg,
    /// The complexity (endgame halves only).
    Complexity,
    /// The signed tempo bonus, middlegame half.
    TempoMg,
    /// The signed tempo bonus, endgame half.
    TempoEg,
}

impl Aggregate {
    /// How many there are.
    pub const COUNT: usize = 9;

    /// King-danger units of a side (`0` White, `1` Black), `[mg, eg]`.
    #[must_use]
    pub const fn danger(side: usize) -> [Aggregate; 2] {
        if side == 0 {
            [Aggregate::WhiteDangerMg, Aggregate::WhiteDangerEg]
        } else {
            [Aggregate::BlackDangerMg, Aggregate::BlackDangerEg]
        }
    }
}

/// A real number and its derivatives by each [`Aggregate`].
///
/// ```
/// use minkowski::eval::combine::Number;
/// use minkowski::tune::dual::{Aggregate, Dual};
/// let x = Dual::variable(3.0, Aggregate::LinearMg);
/// let y = (x * x).divided(2); // x² / 2
/// assert_eq!(y.value, 4.5);
/// assert_eq!(y.by(Aggregate::LinearMg), 3.0); // d/dx = x
/// assert_eq!(y.by(Aggregate::LinearEg), 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual {
    /// The value.
    pub value: f64,
    /// The derivative by each aggregate (index: `Aggregate as usize`).
    pub slopes: [f64; Aggregate::COUNT],
}

impl Dual {
    /// A constant: every derivative 0.
    #[must_use]
    pub const fn constant(value: f64) -> Dual {
        Dual {
            value,
            slopes: [0.0; Aggregate::COUNT],
        }
    }

    /// The aggregate `which` itself, of value `value`: its own derivative 1, the others 0.
    #[must_use]
    pub const fn variable(value: f64, which: Aggregate) -> Dual {
        let mut d = Dual::constant(value);
        d.slopes[which as usize] = 1.0;
        d
    }

    /// The derivative by `which`.
    #[must_use]
    pub const fn by(&self, which: Aggregate) -> f64 {
        self.slopes[which as usize]
    }

    /// Every derivative and the value mapped by `f`.
    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Dual {
        Dual {
            value: f(self.value),
            slopes: self.slopes.map(f),
        }
    }

    /// Pairwise `f` of this and `o` (value and every derivative).
    #[inline(always)]
    fn zip(self, o: Dual, f: impl Fn(f64, f64) -> f64) -> Dual {
        let mut slopes = self.slopes;
        for (s, t) in slopes.iter_mut().zip(o.slopes) {
            *s = f(*s, t);
        }
        Dual {
            value: f(self.value, o.value),
            slopes,
        }
    }
}

impl Add for Dual {
    type Output = Dual;
    #[inline(always)]
    fn add(self, o: Dual) -> Dual {
        self.zip(o, |a, b| a + b)
    }
}

impl Sub for Dual {
    type Output = Dual;
    #[inline(always)]
    fn sub(self, o: Dual) -> Dual {
        self.zip(o, |a, b| a - b)
    }
}

impl Neg for Dual {
    type Output = Dual;
    #[inline(always)]
    fn neg(self) -> Dual {
        self.map(|a| -a)
    }
}

/// The product rule: `(uv)' = u'v + uv'`.
impl Mul for Dual {
    type Output = Dual;
    #[inline(always)]
    fn mul(self, o: Dual) -> Dual {
        let (u, v) = (self.value, o.value);
        let mut slopes = self.slopes;
        for (s, t) in slopes.iter_mut().zip(o.slopes) {
            *s = *s * v + u * t;
        }
        Dual {
            value: u * v,
            slopes,
        }
    }
}

impl Number for Dual {
    #[inline(always)]
    fn int(n: i32) -> Dual {
        Dual::constant(f64::from(n))
    }
    #[inline(always)]
    fn times(self, k: i32) -> Dual {
        let k = f64::from(k);
        self.map(|a| a * k)
    }
    #[inline(always)]
    fn divided(self, d: i32) -> Dual {
        let d = f64::from(d);
        self.map(|a| a / d)
    }
    #[inline(always)]
    fn sign(self) -> i32 {
        self.value.sign()
    }
}
