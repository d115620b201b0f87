//! The two declarations every weight and family goes through: [`declare_weights!`] (a family's
//! weights, one line each, in the family's own file) and [`declare_families!`] (the families in
//! table order, in the evaluation's root), the evaluation's counterpart of the search's
//! `tunable_params!`.
//!
//! A family states once what a run of its weights shares (channel, trace row, range); each
//! weight is then its doc comment and one line, `NAME[keys] = default;`, from which the macro
//! makes both its [`WeightSpec`](super::WeightSpec) (the entry of the family's `WEIGHTS` list
//! that names, engine.toml, the tuner and the trace read) and its typed handle, a `const` whose
//! name is the weight's name in capitals: go-to-definition on a use lands on that line. The
//! default is written in the line and `minkowski tune --rust DIR` rewrites it after a fit.

/// The name of a weight whose handle is `handle` (its name in capitals): the same letters in
/// lower case, checked when it compiles to be ASCII. `N` is the name's length.
#[must_use]
pub const fn lower_case<const N: usize>(handle: &str) -> [u8; N] {
    let bytes = handle.as_bytes();
    assert!(
        bytes.len() == N && bytes.is_ascii(),
        "a weight's handle is ASCII"
    );
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = bytes[i].to_ascii_lowercase();
        i += 1;
    }
    out
}

/// `bytes` as a string (a weight name made by [`lower_case`]).
#[must_use]
pub const fn ascii(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(name) => name,
        Err(_) => panic!("a weight's name is ASCII"),
    }
}

/// Declares a family's weights, in table order, in the family's own file: the family's type
/// (an empty `enum`, with the doc given), its `WEIGHTS` list and one typed handle per weight.
///
/// Each run of weights opens with what they share, `channel Linear, row Targets, range
/// -300..=300;` (the [`Channel`](super::Channel), the [`Term`](crate::eval::term::Term) row of
/// the trace, the range a value may take). Each weight is its doc comment (for people: rustdoc,
/// engine.toml, the Python docs) and one line:
///
/// - `TARGET_HANGING = S(-1, -7);` a single pair, named `target_hanging`;
/// - `PAWN_STACKED[Names(&["stuck", "can_unstack"])] = [S(-17, -6), S(-29, 11)];` a table of
///   pairs named by a [`Keys`](super::Keys) (`pawn_stacked.stuck`), its length the default's;
/// - `..., range -100..=100;` or `..., row KnightForks;` after the default overrides the run's
///   range or row for that weight.
///
/// ```
/// use minkowski_core::eval::targets::{TARGET_HANGING, WEIGHTS};
/// use minkowski_core::eval::weights::{Channel, Weights};
/// let spec = TARGET_HANGING.spec();
/// assert_eq!((spec.name, spec.channel), ("target_hanging", Channel::Linear));
/// assert_eq!(spec.range, -300..=300);
/// assert_eq!(spec, WEIGHTS.iter().find(|s| s.name == "target_hanging").unwrap());
/// assert_eq!(Weights::default()[TARGET_HANGING], spec.default[0]);
/// ```
macro_rules! declare_weights {
    (
        $(#[doc = $family_doc:literal])*
        family $family:ident;
        $(
            channel $channel:ident, row $row:ident, range $range:expr;
            $(
                $(#[doc = $doc:literal])+
                $name:ident $([$keys:ident $(($($key_args:tt)*))?])? = $default:expr
                $(, range $own_range:expr)? $(, row $own_row:ident)?;
            )+
        )+
    ) => {
        $(#[doc = $family_doc])*
        #[derive(Clone, Copy, Debug)]
        pub enum $family {}

        /// The family's weights, in table order: one `WeightSpec` per line of its
        /// `declare_weights!`.
        pub const WEIGHTS: &[$crate::eval::weights::WeightSpec] = &[$($(
            $crate::eval::weights::WeightSpec {
                name: {
                    const NAME: &[u8] = &$crate::eval::weights::declare::lower_case::<
                        { stringify!($name).len() },
                    >(stringify!($name));
                    $crate::eval::weights::declare::ascii(NAME)
                },
                doc: concat!($($doc),+).trim_ascii_start(),
                default: $crate::eval::weights::declare_weights!(@default $([$keys])? $default),
                keys: $crate::eval::weights::declare_weights!(
                    @keys $([$keys $(($($key_args)*))?])?
                ),
                range: $crate::eval::weights::declare_weights!(@range [$($own_range)?] $range),
                term: $crate::eval::weights::declare_weights!(@row [$($own_row)?] $row),
                channel: $crate::eval::weights::Channel::$channel,
            },
        )+)+];

        $($(
            $(#[doc = $doc])+
            pub const $name: $crate::eval::weights::Weight<
                $crate::eval::weights::channel::$channel,
                { $crate::eval::weights::len_of(WEIGHTS, stringify!($name)) },
                $family,
            > = $crate::eval::weights::Weight::named(WEIGHTS, stringify!($name));
        )+)+
    };
    (@default $default:expr) => { &[$default] };
    (@default [$keys:ident] $default:expr) => { &$default };
    (@keys) => { $crate::eval::weights::Keys::One };
    (@keys [$keys:ident $(($($key_args:tt)*))?]) => {
        $crate::eval::weights::Keys::$keys $(($($key_args)*))?
    };
    (@range [] $shared:expr) => { $shared };
    (@range [$own:expr] $shared:expr) => { $own };
    (@row [] $shared:ident) => { $crate::eval::term::Term::$shared };
    (@row [$own:ident] $shared:ident) => { $crate::eval::term::Term::$own };
}
pub(crate) use declare_weights;

/// Places the families in the weight table, in table order: each entry `module::Family` (the
/// module declares the family with [`declare_weights!`]) starts where the one before it ends,
/// the first at 0. Makes the [`Family`](super::Family) impls and `FAMILIES`, the list
/// [`Weights`](super::Weights) walks; a new family is one more entry.
macro_rules! declare_families {
    ($first_module:ident::$first:ident $(, $module:ident::$family:ident)* $(,)?) => {
        impl $crate::eval::weights::Family for $first_module::$first {
            const BASE: usize = 0;
            const WEIGHTS: &'static [$crate::eval::weights::WeightSpec] = $first_module::WEIGHTS;
        }
        $crate::eval::weights::declare_families!(
            @after $first_module::$first $(, $module::$family)*
        );

        /// The families in table order (checked to follow one another in `layout.rs`).
        const FAMILIES: &[$crate::eval::weights::Placed] = &[
            $crate::eval::weights::Placed::of::<$first_module::$first>(),
            $($crate::eval::weights::Placed::of::<$module::$family>(),)*
        ];
    };
    (@after $previous_module:ident::$previous:ident) => {};
    (
        @after $previous_module:ident::$previous:ident, $module:ident::$family:ident
        $(, $rest_module:ident::$rest:ident)*
    ) => {
        impl $crate::eval::weights::Family for $module::$family {
            const BASE: usize =
                <$previous_module::$previous as $crate::eval::weights::Family>::END;
            const WEIGHTS: &'static [$crate::eval::weights::WeightSpec] = $module::WEIGHTS;
        }
        $crate::eval::weights::declare_families!(@after $module::$family $(, $rest_module::$rest)*);
    };
}
pub(crate) use declare_families;
