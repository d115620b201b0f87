//! The engine's option model: names, kinds, ranges and defaults, in one table ([`OPTIONS`]),
//! and in a tuning build (feature `tune-search`) one spin option more per tunable search
//! constant ([`SEARCH_PARAM_OPTIONS`], named as its [`SearchParams`](crate::search::SearchParams)
//! field): [`all_options`] lists both.
//!
//! Neither front end owns it: `uci` declares these options on the wire and feeds `setoption`
//! through [`EngineOptions::set_from_text`], and `config` reads engine.toml's `[uci]` table through
//! [`EngineOptions::set`], so the GUI and the config file obey the same names, types and ranges.
//!
//! Three files, one concept each:
//! - `table`: which options exist (the rows, their ranges, lookup by name);
//! - `values`: what they are set to ([`EngineOptions`], typed values, why a change is refused);
//! - `text`: options as people type them (`setoption` text, and user input quoted back).

mod table;
mod text;
mod values;

pub use table::{
    MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_PAWN_KING_KIB, MAX_STRENGTH_SEED, OPTIONS,
    OptionId, OptionKind, OptionSpec, SEARCH_PARAM_OPTIONS, all_options, find_option, option_names,
};
pub use text::echo;
pub use values::{EngineOptions, OptionError, OptionValue};
