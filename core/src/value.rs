//! The bottom layer: [`Value`], a score in centipawns that also encodes "mate in n plies", with
//! [`MAX_PLY`], the mate bounds and the conversions to and from the transposition table, and
//! [`Score`], the form a user sees. The evaluation returns a `Value` and the search combines them;
//! keeping them here lets `eval` stand alone without `search` (as Stockfish keeps `Value` in
//! `types.h`). Re-exported as `minkowski_core::eval::Value` and `minkowski_core::value::{Value, Score,
//! MAX_PLY}`.

use std::ops::{Add, Neg, Sub};

/// Deepest ply the search ever reaches (arrays are sized by it).
///
/// ```
/// assert_eq!(minkowski_core::value::MAX_PLY, 128);
/// ```
pub const MAX_PLY: usize = 128;

/// A score as the user sees it.
///
/// ```
/// use minkowski_core::value::{Score, Value};
/// // The search's "mate in one move" (one ply from the root) is shown as `mate 1`.
/// assert_eq!(Value::mate_in(1).to_score(), Score::Mate(1));
/// assert_eq!(Value(35).to_score(), Score::Cp(35));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (positive: the side to move mates; negative: it is mated).
    Mate(i32),
}

/// A score in centipawns from the side to move's point of view. Values within [`MAX_PLY`] of
/// [`Value::MATE`] are mates: `MATE - n` means "the side to move mates n plies from the root".
///
/// ```
/// use minkowski_core::value::{Score, Value};
/// assert_eq!(Value::mate_in(1).to_score(), Score::Mate(1));   // mate with the next move
/// assert_eq!(Value::mate_in(3).to_score(), Score::Mate(2));
/// assert_eq!(Value::mated_in(2).to_score(), Score::Mate(-1)); // we get mated next move
/// assert_eq!(Value(35).to_score(), Score::Cp(35));
/// assert!(Value::mate_in(5).is_mate() && !Value(900).is_mate());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value(pub i32);

impl Value {
    /// A draw.
    ///
    /// ```
    /// assert_eq!(minkowski_core::value::Value::DRAW.0, 0);
    /// ```
    pub const DRAW: Value = Value(0);
    /// Mate at the root (never reached: mates are at least one ply away).
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// assert_eq!(Value::mate_in(0), Value::MATE);
    /// ```
    pub const MATE: Value = Value(32_000);
    /// Larger than any score: the initial alpha-beta window.
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// assert!(Value::INFINITE > Value::MATE && -Value::INFINITE < Value::mated_in(0));
    /// ```
    pub const INFINITE: Value = Value(32_001);
    /// Smallest absolute value that is a mate score.
    ///
    /// ```
    /// use minkowski_core::value::{MAX_PLY, Value};
    /// assert!(Value::mate_in(MAX_PLY).is_mate());
    /// assert!(!Value(Value::MATE_BOUND.0 - 1).is_mate());
    /// ```
    pub const MATE_BOUND: Value = Value(32_000 - MAX_PLY as i32);
    /// A tablebase win at the root: below every mate score, above every evaluation
    /// ([`crate::eval::EVAL_LIMIT`]). `TB_WIN - n` is a tablebase win found `n` plies from the
    /// root, so that nearer ones rank first.
    ///
    /// ```
    /// use minkowski_core::value::{MAX_PLY, Value};
    /// assert!(Value::TB_WIN < Value::mate_in(MAX_PLY));
    /// assert!(Value::tb_win_in(MAX_PLY).0 > minkowski_core::eval::EVAL_LIMIT);
    /// assert!(Value::tb_win_in(3).is_tb_win() && !Value::tb_win_in(3).is_mate());
    /// ```
    pub const TB_WIN: Value = Value(Self::MATE_BOUND.0 - 1 - MAX_PLY as i32);
    /// Smallest absolute value that is a tablebase win or loss (or a mate).
    ///
    /// ```
    /// use minkowski_core::value::{MAX_PLY, Value};
    /// assert_eq!(Value::TB_WIN_BOUND, Value::tb_win_in(MAX_PLY));
    /// ```
    pub const TB_WIN_BOUND: Value = Value(Self::TB_WIN.0 - MAX_PLY as i32);

    /// The side to move mates `ply` plies from the root.
    ///
    /// ```
    /// use minkowski_core::value::{Score, Value};
    /// assert_eq!(Value::mate_in(5).to_score(), Score::Mate(3));
    /// ```
    #[must_use]
    pub const fn mate_in(ply: usize) -> Value {
        Value(Self::MATE.0 - ply as i32)
    }

    /// The side to move is mated `ply` plies from the root.
    ///
    /// ```
    /// use minkowski_core::value::{Score, Value};
    /// assert_eq!(Value::mated_in(4).to_score(), Score::Mate(-2));
    /// assert_eq!(-Value::mate_in(4), Value::mated_in(4));
    /// ```
    #[must_use]
    pub const fn mated_in(ply: usize) -> Value {
        Value(-Self::MATE.0 + ply as i32)
    }

    /// A tablebase win for the side to move, found `ply` plies from the root.
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// assert!(Value::tb_win_in(2) > Value::tb_win_in(4));
    /// ```
    #[must_use]
    pub const fn tb_win_in(ply: usize) -> Value {
        Value(Self::TB_WIN.0 - ply as i32)
    }

    /// A tablebase loss for the side to move, found `ply` plies from the root.
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// assert_eq!(Value::tb_loss_in(2), -Value::tb_win_in(2));
    /// ```
    #[must_use]
    pub const fn tb_loss_in(ply: usize) -> Value {
        Value(-Self::TB_WIN.0 + ply as i32)
    }

    /// Whether this is a tablebase win or loss (not a mate: those are [`Value::is_mate`]).
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// assert!(Value::tb_loss_in(7).is_tb_win());
    /// assert!(!Value::mate_in(7).is_tb_win() && !Value(19_000).is_tb_win());
    /// ```
    #[must_use]
    pub const fn is_tb_win(self) -> bool {
        !self.is_mate() && (self.0 >= Self::TB_WIN_BOUND.0 || self.0 <= -Self::TB_WIN_BOUND.0)
    }

    /// Whether this is a mate score (for either side).
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// assert!(Value::mated_in(10).is_mate());
    /// assert!(!Value(19_999).is_mate());
    /// ```
    #[must_use]
    pub const fn is_mate(self) -> bool {
        self.0 >= Self::MATE_BOUND.0 || self.0 <= -Self::MATE_BOUND.0
    }

    /// The user-facing score: centipawns, or mate in moves (not plies).
    ///
    /// ```
    /// use minkowski_core::value::{Score, Value};
    /// assert_eq!(Value(-120).to_score(), Score::Cp(-120));
    /// assert_eq!(Value::mate_in(3).to_score(), Score::Mate(2)); // our moves on plies 1 and 3
    /// ```
    #[must_use]
    pub const fn to_score(self) -> Score {
        if self.0 >= Self::MATE_BOUND.0 {
            let plies = Self::MATE.0 - self.0;
            Score::Mate((plies + 1) / 2)
        } else if self.0 <= -Self::MATE_BOUND.0 {
            let plies = Self::MATE.0 + self.0;
            Score::Mate(-(plies / 2))
        } else {
            Score::Cp(self.0)
        }
    }

    /// Convert a root-relative mate (or tablebase) score at `ply` to a node-relative one for
    /// the TT.
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// // Found at ply 3: mate 5 plies from the root is mate 2 plies from this node.
    /// assert_eq!(Value::mate_in(5).to_tt(3), Value::mate_in(2));
    /// assert_eq!(Value(40).to_tt(3), Value(40)); // other scores are stored as they are
    /// ```
    #[must_use]
    pub const fn to_tt(self, ply: usize) -> Value {
        if self.0 >= Self::TB_WIN_BOUND.0 {
            Value(self.0 + ply as i32)
        } else if self.0 <= -Self::TB_WIN_BOUND.0 {
            Value(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// Inverse of [`Value::to_tt`]: a TT score read at `ply`.
    ///
    /// ```
    /// use minkowski_core::value::Value;
    /// let stored = Value::mate_in(5).to_tt(3);
    /// assert_eq!(stored.from_tt(3), Value::mate_in(5));
    /// assert_eq!(stored.from_tt(1), Value::mate_in(3)); // the same node reached at ply 1
    /// ```
    #[must_use]
    pub const fn from_tt(self, ply: usize) -> Value {
        if self.0 >= Self::TB_WIN_BOUND.0 {
            Value(self.0 - ply as i32)
        } else if self.0 <= -Self::TB_WIN_BOUND.0 {
            Value(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Value {
    type Output = Value;
    fn neg(self) -> Value {
        Value(-self.0)
    }
}

impl Add<i32> for Value {
    type Output = Value;
    fn add(self, rhs: i32) -> Value {
        Value(self.0 + rhs)
    }
}

impl Sub<i32> for Value {
    type Output = Value;
    fn sub(self, rhs: i32) -> Value {
        Value(self.0 - rhs)
    }
}
