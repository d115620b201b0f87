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
/// Both halves are packed into one 64-bit integer, `eg × 2³² + mg` (as Stockfish packs its
/// `Score` into 32 bits), so adding two pairs or multiplying one by a count is one instruction,
/// not two: the accumulator does little else (an eighth of the evaluation's instructions went to
/// the pair arithmetic). The packing is exact for every pair of `i32`s: all arithmetic is
/// wrapping, modulo 2⁶⁴, and the low 32 bits of a sum or a product are those of the
/// middlegame halves' (wrapping, as `i32` arithmetic is in a release build), the rest those of
/// the endgame halves' plus the borrow of a negative middlegame half, which [`S::eg`] takes back.
/// A pair is built by the function of the type's name, `S(mg, eg)`, and read by [`S::mg`] and
/// [`S::eg`].
///
/// ```
/// use minkowski_core::eval::score::{S, MAX_PHASE};
/// let s = S(100, 200) + S(10, -20) * 2;
/// assert_eq!(s, S(120, 160));
/// assert_eq!(s.taper(MAX_PHASE), 120); // all pieces on the board: the middlegame value
/// assert_eq!(s.taper(0), 160);         // bare kings and pawns: the endgame value
/// assert_eq!(s.taper(12), 140);        // half way
/// assert_eq!((S(-7, 3) - S(2, 9)).mg(), -9); // the halves do not leak into each other
/// assert_eq!((S(-7, 3) - S(2, 9)).eg(), -6);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct S {
    /// `eg × 2³² + mg`, modulo 2⁶⁴.
    packed: i64,
}

/// The pair `S(mg, eg)`: the constructor of [`S`](struct@S), named as the type is, so that a
/// pair reads as it did when `S` was a tuple of two `i32`s.
///
/// ```
/// use minkowski_core::eval::score::S;
/// let s = S(i32::MIN, i32::MAX);
/// assert_eq!((s.mg(), s.eg()), (i32::MIN, i32::MAX));
/// let s = S(i32::MAX, i32::MIN);
/// assert_eq!((s.mg(), s.eg()), (i32::MAX, i32::MIN));
/// ```
#[allow(non_snake_case)]
#[inline(always)]
#[must_use]
pub const fn S(mg: i32, eg: i32) -> S {
    S {
        packed: ((eg as i64) << 32).wrapping_add(mg as i64),
    }
}

impl std::fmt::Debug for S {
    /// `S(mg, eg)`, as the pair is written.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("S")
            .field(&self.mg())
            .field(&self.eg())
            .finish()
    }
}

impl S {
    /// The zero pair.
    ///
    /// ```
    /// use minkowski_core::eval::score::S;
    /// assert_eq!(S::ZERO, S(0, 0));
    /// assert_eq!(S::ZERO + S(3, 4), S(3, 4));
    /// ```
    pub const ZERO: S = S(0, 0);

    /// The middlegame component: the low 32 bits.
    ///
    /// ```
    /// assert_eq!(minkowski_core::eval::score::S(7, -3).mg(), 7);
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn mg(self) -> i32 {
        self.packed as i32
    }

    /// The endgame component: the high 32 bits, once the middlegame half's sign (borrowed from
    /// them when it is negative) is given back by adding 2³¹ (Stockfish's `eg_value`).
    ///
    /// ```
    /// assert_eq!(minkowski_core::eval::score::S(7, -3).eg(), -3);
    /// assert_eq!(minkowski_core::eval::score::S(-7, 3).eg(), 3);
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn eg(self) -> i32 {
        (self.packed.wrapping_add(1 << 31) >> 32) as i32
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
        (self.mg() * p + self.eg() * (MAX_PHASE - p)) / MAX_PHASE
    }
}

// The operators work on the packed integer, wrapping (see `S`): one instruction each.

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S {
            packed: self.packed.wrapping_add(o.packed),
        }
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S {
            packed: self.packed.wrapping_sub(o.packed),
        }
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S {
            packed: self.packed.wrapping_neg(),
        }
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S {
            packed: self.packed.wrapping_mul(i64::from(k)),
        }
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}
