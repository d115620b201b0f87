//! Typed handles on the one weight table.
//!
//! A family declares its weights with `declare_weights!` (`declare.rs`): a list of
//! [`WeightSpec`]s (name, doc, default, element names, range, trace row and channel in one
//! entry) and one handle per weight, `PAWN_STACKED: Weight<Linear, 2, Pawns>`, made by
//! [`Weight::named`] and checked when it compiles: the name must be in the list, with `N`
//! elements and on channel `C`. The code reads a weight through its handle,
//! `acc.add(color, PAWN_STACKED.at(1), 1)`; the channel is part of the type, so a king-danger
//! weight cannot be added to the linear sum.
//!
//! Where each family starts in the flat table ([`Family::BASE`]) is decided in one place, the
//! evaluation's root module, which lists the families in table order (`declare_families!`): a
//! family's own file never names another family to find its place.

use std::marker::PhantomData;
use std::ops::RangeInclusive;

use super::keys::Keys;
use crate::eval::score::S;
use crate::eval::term::Term;

/// How a weight enters the evaluation: which sum its counts go to before [`combine`] turns the
/// sums into the value.
///
/// [`combine`]: crate::eval::combine::combine
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// The linear sum: White's weights times counts minus Black's, blended by phase.
    Linear,
    /// King-danger units: each side's sum goes through the danger curve.
    Danger,
    /// Complexity (endgame half only): moves the endgame half away from zero or toward it.
    Complexity,
    /// The side-to-move bonus, blended on its own.
    Tempo,
    /// An endgame verdict's own weights (mop-up, KBNK, KPK, the passer race).
    Verdict,
}

/// The channels as types, for [`Weight`] and [`Slot`]: what [`super::super::acc::Acc`] accepts
/// where is checked by the compiler.
pub mod channel {
    use super::Channel;

    /// A channel as a type.
    pub trait Kind {
        /// The channel.
        const CHANNEL: Channel;
    }

    /// The channels an endgame verdict may add from: its own weights and the linear ones
    /// (material, say).
    pub trait InVerdict: Kind {}

    /// [`Channel::Linear`] as a type.
    #[derive(Clone, Copy, Debug)]
    pub enum Linear {}
    /// [`Channel::Danger`] as a type.
    #[derive(Clone, Copy, Debug)]
    pub enum Danger {}
    /// [`Channel::Complexity`] as a type.
    #[derive(Clone, Copy, Debug)]
    pub enum Complexity {}
    /// [`Channel::Tempo`] as a type.
    #[derive(Clone, Copy, Debug)]
    pub enum Tempo {}
    /// [`Channel::Verdict`] as a type.
    #[derive(Clone, Copy, Debug)]
    pub enum Verdict {}

    impl Kind for Linear {
        const CHANNEL: Channel = Channel::Linear;
    }
    impl Kind for Danger {
        const CHANNEL: Channel = Channel::Danger;
    }
    impl Kind for Complexity {
        const CHANNEL: Channel = Channel::Complexity;
    }
    impl Kind for Tempo {
        const CHANNEL: Channel = Channel::Tempo;
    }
    impl Kind for Verdict {
        const CHANNEL: Channel = Channel::Verdict;
    }
    impl InVerdict for Linear {}
    impl InVerdict for Verdict {}
}

/// One weight's declaration: what the table says about it. A family lists its weights in table
/// order in a `WEIGHTS` constant; names, engine.toml's `[eval]` table, the tuner and the trace
/// all read it from there.
///
/// ```
/// use minkowski_core::eval::weights::{Channel, Weights};
/// let (spec, element) = Weights::locate(Weights::index_of("king_zone_attack.queen").unwrap()).unwrap();
/// assert_eq!((spec.name, element), ("king_zone_attack", 4));
/// assert!(spec.doc.contains("square"));
/// assert_eq!(spec.len(), 6); // one pair per piece kind; pawn and king are structure
/// assert_eq!(spec.channel, Channel::Linear);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    /// The weight's name, or the part before the dot of each of its element names.
    pub name: &'static str,
    /// What it is, for people (engine.toml, the Python docs).
    pub doc: &'static str,
    /// Its built-in value, flat (row by row for a table): one pair per element. Its length is
    /// the weight's.
    pub default: &'static [S],
    /// How its elements are named.
    pub keys: Keys,
    /// The values the middlegame and the endgame half may take (engine.toml is checked against
    /// it; a tuner keeps within it).
    pub range: RangeInclusive<i32>,
    /// The row of the evaluation trace its terms are shown in.
    pub term: Term,
    /// How it enters the evaluation.
    pub channel: Channel,
}

impl WeightSpec {
    /// How many `S` pairs it holds.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.default.len()
    }

    /// Whether it holds no pair (no declared weight does).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.default.is_empty()
    }

    /// The doc's first sentence: what a listing of the weights shows beside the name.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Weights;
    /// let (spec, _) = Weights::locate(Weights::index_of("bishop_pair").unwrap()).unwrap();
    /// assert_eq!(spec.summary(), "Bonus for owning two or more bishops.");
    /// ```
    #[must_use]
    pub fn summary(&self) -> &'static str {
        let doc = self.doc.trim();
        doc.find(". ").map_or(doc, |end| &doc[..=end])
    }
}

/// The number of `S` pairs of a family's weights together.
#[must_use]
pub const fn table_len(weights: &[WeightSpec]) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < weights.len() {
        len += weights[i].len();
        i += 1;
    }
    len
}

/// A family of weights (the weights of one file of terms), placed in the flat table. The
/// family's file declares the type and its `WEIGHTS`; the evaluation's root module says where
/// it starts, in table order.
pub trait Family {
    /// The flat index of the family's first pair.
    const BASE: usize;
    /// Its weights, in table order.
    const WEIGHTS: &'static [WeightSpec];
    /// The flat index one past its last pair: where the next family starts.
    const END: usize = Self::BASE + table_len(Self::WEIGHTS);
}

/// A family as the table lists it: where it starts and its weights.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    /// The flat index of its first pair.
    pub base: usize,
    /// Its weights, in table order.
    pub weights: &'static [WeightSpec],
}

impl Placed {
    /// Family `F` with its place.
    #[must_use]
    pub const fn of<F: Family>() -> Placed {
        Placed {
            base: F::BASE,
            weights: F::WEIGHTS,
        }
    }
}

/// Whether the families follow one another without gap or overlap, the first at 0: a family
/// placed after the wrong one, or listed out of its place, fails the check at compile time.
#[must_use]
pub const fn contiguous(families: &[Placed]) -> bool {
    let mut next = 0;
    let mut i = 0;
    while i < families.len() {
        if families[i].base != next {
            return false;
        }
        next += table_len(families[i].weights);
        i += 1;
    }
    true
}

/// Whether a weight's name and a handle's name are the same but for case (`==` is not `const`):
/// the handle `PAWN_STACKED` reads the weight `pawn_stacked`.
const fn same(name: &str, handle: &str) -> bool {
    let (a, b) = (name.as_bytes(), handle.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !a[i].eq_ignore_ascii_case(&b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// How many pairs the weight called `name` (case aside) holds in `weights`: the length of its
/// handle. Panics, at compile time in a `const`, if there is none.
#[must_use]
pub(crate) const fn len_of(weights: &[WeightSpec], name: &str) -> usize {
    let mut i = 0;
    while i < weights.len() {
        if same(weights[i].name, name) {
            return weights[i].len();
        }
        i += 1;
    }
    panic!("no weight of that name in the family's list")
}

/// A typed handle on one weight of family `F`: `N` pairs on channel `C`. Made with
/// [`Weight::named`] in a `const`, where a wrong name, length or channel stops the build.
pub struct Weight<C, const N: usize, F> {
    /// The weight's declaration.
    spec: &'static WeightSpec,
    /// Its first pair's index within the family.
    local: usize,
    marker: PhantomData<fn() -> (C, F)>,
}

impl<C, const N: usize, F> Clone for Weight<C, N, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C, const N: usize, F> Copy for Weight<C, N, F> {}

impl<C, const N: usize, F> std::fmt::Debug for Weight<C, N, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weight({})", self.spec.name)
    }
}

impl<C: channel::Kind, const N: usize, F> Weight<C, N, F> {
    /// The handle on the weight called `name` (case aside: `PAWN_STACKED` for `pawn_stacked`)
    /// in `weights` (its family's list). Panics, at compile time in a `const`, if there is none,
    /// or if it has other than `N` pairs or is on another channel than `C`.
    #[must_use]
    pub const fn named(weights: &'static [WeightSpec], name: &str) -> Self {
        let mut local = 0;
        let mut i = 0;
        while i < weights.len() {
            let spec = &weights[i];
            if same(spec.name, name) {
                assert!(
                    spec.len() == N,
                    "a weight handle's length differs from its declaration"
                );
                assert!(
                    spec.channel as u8 == C::CHANNEL as u8,
                    "a weight handle's channel differs from its declaration"
                );
                return Weight {
                    spec,
                    local,
                    marker: PhantomData,
                };
            }
            local += spec.len();
            i += 1;
        }
        panic!("no weight of that name in the family's list")
    }
}

impl<C, const N: usize, F> Weight<C, N, F> {
    /// The weight's declaration.
    #[must_use]
    pub const fn spec(self) -> &'static WeightSpec {
        self.spec
    }
}

impl<C, const N: usize, F: Family> Weight<C, N, F> {
    /// Element `element` (`element < N`; a table's index is row by row).
    #[inline(always)]
    #[must_use]
    pub const fn at(self, element: usize) -> Slot<C> {
        debug_assert!(element < N);
        Slot {
            index: F::BASE + self.local + element,
            term: self.spec.term,
            marker: PhantomData,
        }
    }

    /// The flat indices of its pairs: `first..first + N`.
    #[must_use]
    pub const fn indices(self) -> std::ops::Range<usize> {
        let first = F::BASE + self.local;
        first..first + N
    }
}

impl<C, F: Family> From<Weight<C, 1, F>> for Slot<C> {
    #[inline(always)]
    fn from(weight: Weight<C, 1, F>) -> Slot<C> {
        weight.at(0)
    }
}

/// One pair of the table, on channel `C`: what a term adds, and what a [`Tracer`] is told.
///
/// [`Tracer`]: crate::eval::tracer::Tracer
pub struct Slot<C> {
    index: usize,
    term: Term,
    marker: PhantomData<fn() -> C>,
}

impl<C> Clone for Slot<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Slot<C> {}

impl<C> std::fmt::Debug for Slot<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Slot({}, {:?})", self.index, self.term)
    }
}

impl<C> PartialEq for Slot<C> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl<C> Eq for Slot<C> {}

impl<C> Slot<C> {
    /// Its flat index (see [`super::Weights::COUNT`]).
    #[inline(always)]
    #[must_use]
    pub const fn index(self) -> usize {
        self.index
    }

    /// The trace row of its weight.
    #[inline(always)]
    #[must_use]
    pub const fn term(self) -> Term {
        self.term
    }
}

impl<C: channel::InVerdict> Slot<C> {
    /// The pair as an endgame verdict uses it (its own weights, or linear ones).
    #[inline(always)]
    #[must_use]
    pub const fn in_verdict(self) -> Slot<channel::Verdict> {
        Slot {
            index: self.index,
            term: self.term,
            marker: PhantomData,
        }
    }
}
