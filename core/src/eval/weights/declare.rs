//! The machinery behind the one declaration table of [`super::Weights`]: how a weight's
//! elements are named ([`Keys`]), what the table says about each weight ([`WeightSpec`]), and
//! the `declare_weights!` macro that turns the table into the struct, its defaults, the
//! [`super::Field`] enum and [`super::SPECS`].
//!
//! Every weight is stored as `S`, `[S; N]` or `[[S; N]; M]`; seen flat ([`Slots`]), all weights
//! together are one vector of `S` pairs, [`super::Weights::COUNT`] long, in table order. That
//! flat index is what names, the engine.toml `[eval]` table and the coefficient trace share.

use std::ops::RangeInclusive;

use shakmaty::Square;

use crate::eval::score::S;
use crate::eval::trace::Term;

/// Names of the piece kinds as weight keys use them (index
/// [`role_index`](super::role_index)).
///
/// ```
/// assert_eq!(minkowski_core::eval::weights::ROLE_NAMES[1], "knight");
/// ```
pub const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// How the elements of one weight are named after its field name: `material.knight`,
/// `psqt.knight.e4`, `passer_caught`, `passed_pawn.free.safe.rank6`, or the bare name for a single pair. Elements without
/// a key (the king's material, a pawn's king-zone attack, ...) exist in the struct but are structure,
/// not weights: no name reaches them and a tuner leaves them alone.
///
/// ```
/// use minkowski_core::eval::weights::Keys;
/// assert_eq!(Keys::Roles(1, 4).key(2).as_deref(), Some("bishop"));
/// assert_eq!(Keys::Roles(1, 4).key(5), None); // the king: not a weight
/// assert_eq!(Keys::RoleSquares.key(64 + 28).as_deref(), Some("knight.e4"));
/// assert_eq!(Keys::RoleSquares.index("knight.e4"), Some(64 + 28));
/// assert_eq!(Keys::Ranks(1, 6).key(5).as_deref(), Some("rank6"));
/// assert_eq!(Keys::One.key(0).as_deref(), Some(""));
/// let grid = Keys::Grid(&[&["a", "b"], &["", "x", "y"]]);
/// assert_eq!(grid.key(4).as_deref(), Some("b.x"));
/// assert_eq!(grid.key(3), None); // an unnamed element: structure
/// assert_eq!(grid.index("b.y"), Some(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// A single pair, named by the field name alone.
    One,
    /// One pair per piece kind ([`ROLE_NAMES`]); only the kinds `first..=last` are weights.
    Roles(usize, usize),
    /// One pair per piece kind and square (`role * 64 + square`, a1 = 0, from White's side):
    /// `knight.e4`.
    RoleSquares,
    /// One pair per rank counted from the owner's side (index 0 = first rank); only the
    /// indices `first..=last` are weights, named `rank2` for index 1.
    Ranks(usize, usize),
    /// One pair per given name, in index order.
    Names(&'static [&'static str]),
    /// A table of any shape, indexed row-major: one list of names per dimension, outermost
    /// first; an element's key joins its names with dots (`free.safe.rank5`). An element with
    /// an empty name in any dimension is structure, not a weight (a passer on the first rank).
    Grid(&'static [&'static [&'static str]]),
}

/// Rank names for [`Keys::Grid`] tables indexed by rank counted from the owner's side, where
/// the first and last rank cannot hold a pawn (structure, no name).
pub const PAWN_RANKS: &[&str] = &["", "rank2", "rank3", "rank4", "rank5", "rank6", "rank7", ""];

/// The element count of a [`Keys::Grid`] shape (the product of its dimensions).
const fn grid_len(dims: &[&[&str]]) -> usize {
    let mut len = 1;
    let mut i = 0;
    while i < dims.len() {
        len *= dims[i].len();
        i += 1;
    }
    len
}

impl Keys {
    /// The key of element `index` (empty for [`Keys::One`]), or `None` if that element is not
    /// a weight.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Keys;
    /// assert_eq!(Keys::Names(&["near", "far"]).key(1).as_deref(), Some("far"));
    /// assert_eq!(Keys::Ranks(1, 6).key(0), None);
    /// ```
    #[must_use]
    pub fn key(self, index: usize) -> Option<String> {
        match self {
            Keys::One => (index == 0).then(String::new),
            Keys::Roles(first, last) => (first..=last)
                .contains(&index)
                .then(|| ROLE_NAMES[index].to_owned()),
            Keys::RoleSquares => {
                let (role, square) = (index / 64, index % 64);
                let square = Square::new(u32::try_from(square).ok()?);
                ROLE_NAMES.get(role).map(|r| format!("{r}.{square}"))
            }
            Keys::Ranks(first, last) => (first..=last)
                .contains(&index)
                .then(|| format!("rank{}", index + 1)),
            Keys::Names(names) => names.get(index).map(|&n| n.to_owned()),
            Keys::Grid(dims) => {
                if index >= grid_len(dims) {
                    return None;
                }
                let mut parts = Vec::with_capacity(dims.len());
                let mut rest = index;
                for dim in dims.iter().rev() {
                    let name = dim[rest % dim.len()];
                    if name.is_empty() {
                        return None;
                    }
                    parts.push(name);
                    rest /= dim.len();
                }
                parts.reverse();
                Some(parts.join("."))
            }
        }
    }

    /// The element named `key` (the part of a weight name after the field name and its dot;
    /// empty for [`Keys::One`]), if it is a weight.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Keys;
    /// assert_eq!(Keys::Roles(0, 4).index("queen"), Some(4));
    /// assert_eq!(Keys::Roles(0, 4).index("king"), None);
    /// assert_eq!(Keys::Ranks(1, 6).index("rank7"), Some(6));
    /// assert_eq!(Keys::One.index(""), Some(0));
    /// ```
    #[must_use]
    pub fn index(self, key: &str) -> Option<usize> {
        let role = |name: &str| ROLE_NAMES.iter().position(|&r| r == name);
        let index = match self {
            Keys::One => key.is_empty().then_some(0)?,
            Keys::Roles(..) => role(key)?,
            Keys::RoleSquares => {
                let (r, square) = key.split_once('.')?;
                role(r)? * 64 + square.parse::<Square>().ok()? as usize
            }
            Keys::Ranks(..) => key
                .strip_prefix("rank")?
                .parse::<usize>()
                .ok()?
                .checked_sub(1)?,
            Keys::Names(names) => names.iter().position(|&n| n == key)?,
            Keys::Grid(dims) => {
                let parts: Vec<&str> = key.split('.').collect();
                if parts.len() != dims.len() {
                    return None;
                }
                let mut index = 0;
                for (dim, part) in dims.iter().zip(parts) {
                    index = index * dim.len() + dim.iter().position(|&n| n == part)?;
                }
                index
            }
        };
        // Round trip: only an element that is a weight has a key.
        (self.key(index).as_deref() == Some(key)).then_some(index)
    }
}

/// What the declaration table says about one weight (one field of
/// [`Weights`](super::Weights)): see [`SPECS`](super::SPECS).
///
/// ```
/// use minkowski_core::eval::weights::{Field, SPECS};
/// let spec = Field::KingZoneAttack.spec();
/// assert_eq!(spec.name, "king_zone_attack");
/// assert!(spec.doc.contains("square"));
/// assert_eq!(spec.len, 6); // one pair per piece kind; pawn and king are structure
/// assert_eq!(SPECS[Field::KingZoneAttack as usize].offset, spec.offset);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    /// The field name: the name of the weight, or the part before the dot of each of its
    /// element names.
    pub name: &'static str,
    /// The field's doc comment.
    pub doc: &'static str,
    /// How its elements are named.
    pub keys: Keys,
    /// The values the middlegame and the endgame half may take (engine.toml is checked against
    /// it; a tuner keeps within it).
    pub range: RangeInclusive<i32>,
    /// The row of the evaluation trace its terms are shown in.
    pub term: Term,
    /// Its first element's index in the flat vector of all weights.
    pub offset: usize,
    /// How many `S` pairs it holds.
    pub len: usize,
}

/// A weight field seen as a flat slice of `S` pairs: `S`, `[S; N]` and `[[S; N]; M]`.
///
/// ```
/// use minkowski_core::eval::score::S;
/// use minkowski_core::eval::weights::Slots;
/// let table = [[S(1, 2); 3]; 2];
/// assert_eq!(table.slots().len(), 6);
/// assert_eq!(S(5, 6).slots(), &[S(5, 6)]);
/// ```
pub trait Slots {
    /// The pairs, in index order (row by row for a table).
    fn slots(&self) -> &[S];
    /// The pairs, mutable.
    fn slots_mut(&mut self) -> &mut [S];
}

impl Slots for S {
    fn slots(&self) -> &[S] {
        std::slice::from_ref(self)
    }
    fn slots_mut(&mut self) -> &mut [S] {
        std::slice::from_mut(self)
    }
}

impl<const N: usize> Slots for [S; N] {
    fn slots(&self) -> &[S] {
        self
    }
    fn slots_mut(&mut self) -> &mut [S] {
        self
    }
}

impl<const N: usize, const M: usize> Slots for [[S; N]; M] {
    fn slots(&self) -> &[S] {
        self.as_flattened()
    }
    fn slots_mut(&mut self) -> &mut [S] {
        self.as_flattened_mut()
    }
}

/// How many `S` pairs a weight field of type `T` holds.
pub(super) const fn slot_count<T: Slots>() -> usize {
    size_of::<T>() / size_of::<S>()
}

/// The first flat index of each field, from the fields' lengths.
pub(super) const fn offsets<const N: usize>(lens: [usize; N]) -> [usize; N] {
    let mut offsets = [0; N];
    let mut i = 1;
    while i < N {
        offsets[i] = offsets[i - 1] + lens[i - 1];
        i += 1;
    }
    offsets
}

/// The declaration table's macro. Each family's file declares its weights in a `*_weights!`
/// macro; `weights.rs` names the families in order:
///
/// ```text
/// declare_weights! {
///     fixed { /// doc
///             field: Type = default; }
///     families [ core_weights, pawn_weights, ... ]
/// }
/// ```
///
/// and this macro asks each family in turn for its entries (a family's macro is called as
/// `family!(declare_weights! { gathered so far })` and calls back with its own entries appended),
/// then declares everything at once. Each entry:
///
/// ```text
/// /// doc comment
/// Variant field: Type = default, keys Keys::..., range lo..=hi, term TraceRow;
/// ```
///
/// declares the field of `Weights` (with that doc), its default, the `Field::Variant` that the
/// tracer and [`super::Weights::slots`] use, and its [`WeightSpec`]; the `fixed` block declares
/// fields that are structure, not weights (no names, not traced). The flat order of the weights
/// is the families' order, then each family's own.
macro_rules! declare_weights {
    // Every family has answered: declare the gathered table.
    (@gather fixed { $($fixed:tt)* } families [] $($entries:tt)*) => {
        declare_weights! { @declare fixed { $($fixed)* } $($entries)* }
    };
    // Ask the next family for its entries; it calls back with them appended.
    (@gather fixed { $($fixed:tt)* } families [ $next:ident $(, $rest:ident)* ]
        $($entries:tt)*) => {
        $next! { declare_weights! {
            @gather fixed { $($fixed)* } families [ $($rest),* ] $($entries)*
        } }
    };
    // The invocation in `weights.rs`.
    (fixed { $($fixed:tt)* } families [ $($family:ident),* $(,)? ]) => {
        declare_weights! { @gather fixed { $($fixed)* } families [ $($family),* ] }
    };
    (
        @declare
        fixed {
            $( $(#[doc = $fdoc:literal])* $fixed:ident: $fty:ty = $fdefault:expr; )*
        }
        $(
            $(#[doc = $doc:literal])*
            $id:ident $field:ident: $ty:ty = $default:expr,
                keys $keys:expr, range $range:expr, term $term:ident;
        )*
    ) => {
        /// The evaluation's weights. `Weights::default()` is the engine's built-in evaluation.
        ///
        /// Every field but the phase weights is declared once, in its family's file (the
        /// file of the terms that use it), which also gives its name, range and trace row
        /// ([`SPECS`]); names, engine.toml and the coefficient trace all come from there.
        ///
        /// ```
        /// use minkowski_core::eval::weights::{MATERIAL, Weights};
        /// let w = Weights::default();
        /// assert_eq!(w.material[0], MATERIAL[0]); // a pawn
        /// assert_eq!(w.get("material.pawn"), Some(w.material[0]));
        /// ```
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Weights {
            $( $(#[doc = $fdoc])* pub $fixed: $fty, )*
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for Weights {
            fn default() -> Weights {
                Weights {
                    $( $fixed: $fdefault, )*
                    $( $field: $default, )*
                }
            }
        }

        /// One weight field of [`Weights`], as the tracer and [`Weights::slots`] name it.
        ///
        /// ```
        /// use minkowski_core::eval::weights::{Field, Weights};
        /// let w = Weights::default();
        /// assert_eq!(w.slots(Field::BishopPair), &[w.bishop_pair]);
        /// assert_eq!(Field::ALL[Field::Psqt as usize], Field::Psqt);
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Field {
            $( $(#[doc = $doc])* $id, )*
        }

        impl Field {
            /// Every field, in table order.
            pub const ALL: &[Field] = &[ $( Field::$id, )* ];
        }

        const LENS: [usize; Field::ALL.len()] = [ $( declare::slot_count::<$ty>(), )* ];
        const OFFSETS: [usize; Field::ALL.len()] = declare::offsets(LENS);

        /// What the table says about each field, in [`Field::ALL`] order (index `field as
        /// usize`).
        ///
        /// ```
        /// use minkowski_core::eval::weights::{Field, SPECS, Weights};
        /// assert_eq!(SPECS.len(), Field::ALL.len());
        /// let last = SPECS.last().unwrap();
        /// assert_eq!(last.offset + last.len, Weights::COUNT);
        /// ```
        pub const SPECS: &[WeightSpec] = &[
            $(
                WeightSpec {
                    name: stringify!($field),
                    doc: concat!($( $doc, "\n", )*),
                    keys: $keys,
                    range: $range,
                    term: Term::$term,
                    offset: OFFSETS[Field::$id as usize],
                    len: LENS[Field::$id as usize],
                },
            )*
        ];

        impl Weights {
            /// The pairs of `field`, flat (see [`Slots`]).
            ///
            /// ```
            /// use minkowski_core::eval::weights::{Field, Weights};
            /// let w = Weights::default();
            /// assert_eq!(w.slots(Field::Psqt).len(), 6 * 64);
            /// assert_eq!(w.slots(Field::Tempo)[0], w.tempo);
            /// ```
            #[must_use]
            #[inline]
            pub fn slots(&self, field: Field) -> &[S] {
                match field {
                    $( Field::$id => Slots::slots(&self.$field), )*
                }
            }

            /// The pairs of `field`, flat and mutable.
            ///
            /// ```
            /// use minkowski_core::eval::{score::S, weights::{Field, Weights}};
            /// let mut w = Weights::default();
            /// w.slots_mut(Field::Material)[1] = S(300, 300);
            /// assert_eq!(w.material[1], S(300, 300));
            /// ```
            #[must_use]
            pub fn slots_mut(&mut self, field: Field) -> &mut [S] {
                match field {
                    $( Field::$id => Slots::slots_mut(&mut self.$field), )*
                }
            }
        }
    };
}

pub(super) use declare_weights;
