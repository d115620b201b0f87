//! `S(mg, eg)`: a middlegame/endgame score pair, and the one place where the pair is blended
//! by game phase ([`S::taper`]).

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// The game phase of a position with all the starting pieces (knight and bishop 1, rook 2,
/// queen 4; pawns and kings 0). Phases above this (after promotions) are clamped.
///
/// ```
/// use minkowski_core::eval::score::{MAX_PHASE, S};
/// assert_eq!(MAX_PHASE, 24);
/// assert_eq!(S(10, 20).taper(MAX_PHASE + 5), 10); // clamped
/// ```
pub const MAX_PHASE: i32 = 24;

/// A score pair: `S(middlegame, endgame)` in centipawns.
///
/// ```
/// use minkowski_core::eval::score::{S, MAX_PHASE};
/// let s = S(100, 200) + S(10, -20) * 2;
/// assert_eq!(s, S(120, 160));
/// assert_eq!(s.taper(MAX_PHASE), 120); // all pieces on the board: the middlegame value
/// assert_eq!(s.taper(0), 160);         // bare kings and pawns: the endgame value
/// assert_eq!(s.taper(12), 140);        // half way
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S(pub i32, pub i32);

impl S {
    /// The zero pair.
    ///
    /// ```
    /// use minkowski_core::eval::score::S;
    /// assert_eq!(S::ZERO, S(0, 0));
    /// assert_eq!(S::ZERO + S(3, 4), S(3, 4));
    /// ```
    pub const ZERO: S = S(0, 0);

    /// The middlegame component.
    ///
    /// ```
    /// assert_eq!(minkowski_core::eval::score::S(7, -3).mg(), 7);
    /// ```
    #[must_use]
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame component.
    ///
    /// ```
    /// assert_eq!(minkowski_core::eval::score::S(7, -3).eg(), -3);
    /// ```
    #[must_use]
    pub const fn eg(self) -> i32 {
        self.1
    }

    /// Blend the pair by `phase` (0 = endgame … [`MAX_PHASE`] = middlegame; clamped).
    ///
    /// ```
    /// use minkowski_core::eval::score::S;
    /// assert_eq!(S(0, 240).taper(2), 220); // bishop and knight left: phase 2 of 24
    /// assert_eq!(S(0, 240).taper(-1), 240); // clamped
    /// ```
    #[must_use]
    pub const fn taper(self, phase: i32) -> i32 {
        let p = if phase < 0 {
            0
        } else if phase > MAX_PHASE {
            MAX_PHASE
        } else {
            phase
        };
        (self.0 * p + self.1 * (MAX_PHASE - p)) / MAX_PHASE
    }
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}
