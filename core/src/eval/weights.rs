//! Every number the evaluation uses, in one flat table ([`Weights`]), read through typed
//! handles.
//!
//! The table (rather than scattered constants) is what lets a tuner, a config file or a
//! weights-by-name API change the evaluation at run time. Each weight is declared once, by its
//! family, in the file of the terms that use it: one line of the family's `declare_weights!`
//! (`weights/declare.rs`) gives both its entry of the family's `WEIGHTS` list (a [`WeightSpec`]:
//! name, doc, default, element names, range, trace row, channel) and the typed handle
//! ([`Weight`]) that the terms read it through. The default is written in that line, and the
//! tuner rewrites it there (`minkowski tune --rust core/src/eval`). The evaluation's root module
//! places the families in the table, in order (`declare_families!`); the names that
//! [`Weights::get`]/[`Weights::set`] and engine.toml's `[eval]` table use, and the flat index of
//! the coefficient trace, all come from the lists.
//!
//! ```
//! use minkowski_core::eval::base::BISHOP_PAIR;
//! use minkowski_core::eval::score::S;
//! use minkowski_core::eval::weights::Weights;
//! let mut w = Weights::default();
//! assert_eq!(w.get("bishop_pair"), Some(w[BISHOP_PAIR]));
//! w.set("bishop_pair", S(40, 70)).unwrap();
//! assert_eq!(w[BISHOP_PAIR], S(40, 70));
//! ```

pub(crate) mod declare;
mod handle;
mod keys;

use std::ops::{Index, IndexMut};

use shakmaty::Role;

pub(crate) use declare::{declare_families, declare_weights};
pub(crate) use handle::len_of;
pub use handle::{
    Channel, Family, Placed, Slot, Weight, WeightSpec, channel, contiguous, table_len,
};
pub use keys::{
    BISHOP_COUNTS, CLOSEDNESS_BUCKETS, FOLDED_FILES, KNIGHT_COUNTS, Keys, MOBILITY_COUNTS,
    PAWN_RANKS, ROLE_NAMES, ROOK_COUNTS, SHELTER_DISTANCES,
};

use super::score::S;

/// Where a piece kind sits in every per-role array (material, piece-square tables, king-zone attacks, the
/// search's exchange values): pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5. The one place
/// that turns a [`Role`] into an index.
///
/// ```
/// use minkowski_core::eval::{base::MATERIAL, weights::{Weights, role_index}};
/// use shakmaty::Role;
/// assert_eq!(role_index(Role::Pawn), 0);
/// let w = Weights::default();
/// assert!(w[MATERIAL.at(role_index(Role::Rook))].eg() > w[MATERIAL.at(role_index(Role::Bishop))].eg());
/// ```
#[must_use]
pub const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Contribution of each piece kind to the game phase (pawn, knight, bishop, rook, queen, king):
/// the usual 1/1/2/4 weighting, so the start position has [`super::score::MAX_PHASE`] = 24.
/// Structure, not a weight.
///
/// ```
/// use minkowski_core::eval::weights::PHASE_WEIGHT;
/// // 16 pieces in the start position: 4 knights, 4 bishops, 4 rooks, 2 queens.
/// assert_eq!(4 * PHASE_WEIGHT[1] + 4 * PHASE_WEIGHT[2] + 4 * PHASE_WEIGHT[3] + 2 * PHASE_WEIGHT[4], 24);
/// ```
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The evaluation's weights: one flat table of `S` pairs, [`Weights::COUNT`] long, in table
/// order. `Weights::default()` is the engine's built-in evaluation. Read a weight through its
/// handle (`w[BISHOP_PAIR]`, `w[MATERIAL.at(1)]`), by name ([`Weights::get`]) or by flat index
/// ([`Weights::slot`]).
///
/// ```
/// use minkowski_core::eval::base::MATERIAL;
/// use minkowski_core::eval::weights::Weights;
/// let w = Weights::default();
/// assert_eq!(w[MATERIAL.at(0)], MATERIAL.spec().default[0]); // a pawn
/// assert_eq!(w.get("material.pawn"), Some(w[MATERIAL.at(0)]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Every pair, by flat index; past [`Weights::COUNT`], zeros.
    pub(in crate::eval) slots: [S; CAPACITY],
}

/// Room for the table: its length, [`Weights::COUNT`], may not exceed it (checked when it
/// compiles). A fixed size keeps every weight at a fixed place inside `Weights`, as separate
/// fields would: a term reads its weight with one load and a check against a constant, not
/// through a pointer to a table of run-time length (2 % more instructions in `minkowski bench`,
/// measured with callgrind).
pub const CAPACITY: usize = 1024;

impl<C> Index<Slot<C>> for Weights {
    type Output = S;

    #[inline(always)]
    fn index(&self, slot: Slot<C>) -> &S {
        &self.slots[slot.index()]
    }
}

impl<C> IndexMut<Slot<C>> for Weights {
    #[inline(always)]
    fn index_mut(&mut self, slot: Slot<C>) -> &mut S {
        &mut self.slots[slot.index()]
    }
}

impl<C, F: Family> Index<Weight<C, 1, F>> for Weights {
    type Output = S;

    #[inline(always)]
    fn index(&self, weight: Weight<C, 1, F>) -> &S {
        &self.slots[weight.at(0).index()]
    }
}

impl<C, F: Family> IndexMut<Weight<C, 1, F>> for Weights {
    #[inline(always)]
    fn index_mut(&mut self, weight: Weight<C, 1, F>) -> &mut S {
        &mut self.slots[weight.at(0).index()]
    }
}

impl Weights {
    /// The pairs of `weight`, in element order.
    ///
    /// ```
    /// use minkowski_core::eval::base::MATERIAL;
    /// use minkowski_core::eval::weights::Weights;
    /// let w = Weights::default();
    /// assert_eq!(w.pairs(MATERIAL).len(), 6);
    /// assert_eq!(w.pairs(MATERIAL)[3], w[MATERIAL.at(3)]);
    /// ```
    #[must_use]
    pub fn pairs<C, const N: usize, F: Family>(&self, weight: Weight<C, N, F>) -> &[S] {
        &self.slots[weight.indices()]
    }
}

/// A weight name that [`Weights`] does not have.
///
/// ```
/// use minkowski_core::eval::{score::S, weights::{UnknownWeight, Weights}};
/// let err = Weights::default().set("material.dragon", S(1, 1)).unwrap_err();
/// assert_eq!(err, UnknownWeight("material.dragon".to_owned()));
/// assert_eq!(err.to_string(), "unknown evaluation weight \"material.dragon\"");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWeight(pub String);

impl std::fmt::Display for UnknownWeight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown evaluation weight {:?}", self.0)
    }
}

impl std::error::Error for UnknownWeight {}
