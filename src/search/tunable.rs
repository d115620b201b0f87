//! The machinery behind [`SearchParams`](super::SearchParams): one declaration per tunable
//! search constant (name, default, range, SPSA step and doc, written once in `params.rs`)
//! expands into the struct's field, its default, its row of [`SearchParams::SPECS`] and its
//! arm of the by-name accessors, so that no list of names can fall out of step with another.
//!
//! The search reads the fields directly (a copy lives in each worker): with the defaults it is
//! the same search, node for node, as when these were `const`s. Names are what the UCI options
//! of a tuning build (`tune-search` feature), engine.toml and `scripts/spsa.py` use.
//!
//! [`SearchParams::SPECS`]: super::SearchParams::SPECS

use std::fmt;

/// One tunable search constant, as declared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// Its name: the struct field, the UCI option (tuning build) and the key in the SPSA state.
    pub name: &'static str,
    /// The built-in value.
    pub default: i32,
    /// Smallest value accepted (every value in range gives a search that terminates and does
    /// not overflow).
    pub min: i32,
    /// Largest value accepted.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (Fishtest's `c_end`), in the parameter's units:
    /// about a twentieth of the range, at least half a unit for small integers.
    pub c_end: f64,
    /// What it does (the field's doc comment).
    pub doc: &'static str,
}

/// Why a parameter was not changed (the old value is kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No tunable parameter has this name.
    Unknown(String),
    /// The value is outside the declared range.
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// What was given.
        value: i64,
        /// Smallest allowed.
        min: i32,
        /// Largest allowed.
        max: i32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "no search parameter is called '{name}'"),
            ParamError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "search parameter '{name}' must be from {min} to {max}, got {value}"
            ),
        }
    }
}

impl std::error::Error for ParamError {}

/// Declares the tunable search parameters: each entry is its doc comment, then
/// `name = default in min..=max, c_end step;`. Expands into [`SearchParams`](super::SearchParams)
/// (all `i32`), its `Default` (the declared defaults), `SPECS`, `get` and `set`.
macro_rules! tunable_params {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident = $default:literal in $min:literal..=$max:literal, c_end $c_end:literal;
    )+) => {
        /// Every tunable constant of the search, by name (the `*_DEPTH` fields are remaining
        /// depths in plies, `*_margin` centipawns, often per ply, the others are described one
        /// by one). The default is the engine's search; a searcher takes another set through
        /// [`Searcher::set_search_params`](super::Searcher::set_search_params).
        ///
        /// ```
        /// use minkowski::search::SearchParams;
        /// let mut params = SearchParams::default();
        /// params.set("rfp_margin", 95).unwrap();
        /// assert_eq!(params.get("rfp_margin"), Some(95));
        /// assert!(params.set("rfp_margin", 100_000).is_err());
        /// assert_eq!(params.rfp_margin, 95); // unchanged by the refused value
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct SearchParams {
            $( $(#[doc = $doc])+ pub $name: i32, )+
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $name: $default, )+ }
            }
        }

        impl SearchParams {
            /// Name, default, range, SPSA step and doc of every parameter, in declaration order.
            pub const SPECS: &'static [super::tunable::ParamSpec] = &[$(
                super::tunable::ParamSpec {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    c_end: $c_end,
                    doc: concat!($($doc),+),
                },
            )+];

            /// The value of the parameter `name` (exact spelling), `None` for no such name.
            #[must_use]
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )+
                    _ => None,
                }
            }

            /// Set the parameter `name` (exact spelling) to `value`; an unknown name or a value
            /// outside the declared range is refused and nothing changes.
            pub fn set(
                &mut self,
                name: &str,
                value: i64,
            ) -> Result<(), super::tunable::ParamError> {
                let spec = Self::spec(name)
                    .ok_or_else(|| super::tunable::ParamError::Unknown(name.to_owned()))?;
                if !(i64::from(spec.min)..=i64::from(spec.max)).contains(&value) {
                    return Err(super::tunable::ParamError::OutOfRange {
                        name: spec.name,
                        value,
                        min: spec.min,
                        max: spec.max,
                    });
                }
                // In range, so it fits an i32.
                let value = value as i32;
                match name {
                    $( stringify!($name) => self.$name = value, )+
                    _ => {}
                }
                Ok(())
            }

            /// The declaration of the parameter `name` (exact spelling).
            #[must_use]
            pub fn spec(name: &str) -> Option<&'static super::tunable::ParamSpec> {
                Self::SPECS.iter().find(|s| s.name == name)
            }
        }
    };
}

pub(super) use tunable_params;
