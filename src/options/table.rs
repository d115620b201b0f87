//! Which options exist: one row per option ([`OptionSpec`]: its id, the name the GUI sees and
//! its kind with the range), the fixed table [`OPTIONS`], the rows a tuning build adds for the
//! search constants ([`SEARCH_PARAM_OPTIONS`]), and lookup by name. Everything that lists or
//! names options (`uci`'s declarations, error messages, engine.toml's keys) reads it from here.

use crate::search::SearchParams;
use crate::search::strength::{MAX_ELO, MIN_ELO};
use crate::search::threads::MAX_THREADS;

/// Largest transposition table, in MB. The project's machines have 24 GB; this leaves room to
/// spare on bigger ones while refusing typos such as `Hash 1000000`.
pub const MAX_HASH_MB: i64 = 32_768;

/// Largest `PawnKingHash`, in KiB per thread (64 MiB: far past any benefit, a typo guard).
pub const MAX_PAWN_KING_KIB: i64 = 65_536;

/// Largest `Move Overhead`, in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5_000;

/// Most principal variations reported (more than any position has legal moves).
pub const MAX_MULTIPV: i64 = 256;

/// Largest `StrengthSeed` (GUIs may keep spin values in 32-bit integers).
pub const MAX_STRENGTH_SEED: i64 = i32::MAX as i64;

/// Which option a table row describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// `Hash`: transposition table size in MB.
    Hash,
    /// `PawnKingHash`: each search thread's pawn-king cache, in KiB.
    PawnKingHash,
    /// `Threads`: search threads (Lazy SMP: helpers share the transposition table).
    Threads,
    /// `MultiPV`: number of principal variations.
    MultiPv,
    /// `Ponder`: the GUI may send `go ponder`.
    Ponder,
    /// `Move Overhead`: ms reserved per move for transport delays.
    MoveOverhead,
    /// `UCI_Chess960`: print castling as king-takes-rook.
    Chess960,
    /// `Clear Hash`: a button that empties the transposition table.
    ClearHash,
    /// `SyzygyPath`: folders of Syzygy tables (`:`-separated on Unix, `;` on Windows).
    SyzygyPath,
    /// `SyzygyProbeDepth`: probe inside the tree only with at least this much depth left.
    SyzygyProbeDepth,
    /// `SyzygyProbeLimit`: probe only positions with at most this many pieces.
    SyzygyProbeLimit,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    Syzygy50MoveRule,
    /// `UCI_ShowWDL`: `info` lines with a score also carry `wdl W D L` (per mille).
    ShowWdl,
    /// `UCI_LimitStrength`: play at the rating `UCI_Elo` instead of full strength.
    LimitStrength,
    /// `UCI_Elo`: the rating to play at while `UCI_LimitStrength` is on.
    Elo,
    /// `StrengthSeed`: the seed of the limited strength's random choice (0: a new one each
    /// start).
    StrengthSeed,
    /// A tunable search constant, by its index in [`SearchParams::SPECS`] (declared only by a
    /// tuning build: [`all_options`]).
    SearchParam(usize),
}

/// The type of an option, with its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check,
    /// An action without a value.
    Button,
    /// Free text (a path).
    Text,
}

/// One row of the option table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Which option.
    pub id: OptionId,
    /// The name shown to the GUI (matched case-insensitively).
    pub name: &'static str,
    /// Its type and range.
    pub kind: OptionKind,
}

/// Every option, in the order `uci` lists them.
pub const OPTIONS: [OptionSpec; 16] = [
    OptionSpec {
        id: OptionId::Hash,
        name: "Hash",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    OptionSpec {
        id: OptionId::PawnKingHash,
        name: "PawnKingHash",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_PAWN_KING_KIB,
        },
    },
    OptionSpec {
        id: OptionId::Threads,
        name: "Threads",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
        },
    },
    OptionSpec {
        id: OptionId::MultiPv,
        name: "MultiPV",
        kind: OptionKind::Spin {
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    OptionSpec {
        id: OptionId::Ponder,
        name: "Ponder",
        kind: OptionKind::Check,
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        name: "Move Overhead",
        kind: OptionKind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
    },
    OptionSpec {
        id: OptionId::Chess960,
        name: "UCI_Chess960",
        kind: OptionKind::Check,
    },
    OptionSpec {
        id: OptionId::ClearHash,
        name: "Clear Hash",
        kind: OptionKind::Button,
    },
    OptionSpec {
        id: OptionId::SyzygyPath,
        name: "SyzygyPath",
        kind: OptionKind::Text,
    },
    OptionSpec {
        id: OptionId::SyzygyProbeDepth,
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin { min: 1, max: 100 },
    },
    OptionSpec {
        id: OptionId::SyzygyProbeLimit,
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin { min: 0, max: 7 },
    },
    OptionSpec {
        id: OptionId::Syzygy50MoveRule,
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check,
    },
    OptionSpec {
        id: OptionId::ShowWdl,
        name: "UCI_ShowWDL",
        kind: OptionKind::Check,
    },
    OptionSpec {
        id: OptionId::LimitStrength,
        name: "UCI_LimitStrength",
        kind: OptionKind::Check,
    },
    OptionSpec {
        id: OptionId::Elo,
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
        },
    },
    OptionSpec {
        id: OptionId::StrengthSeed,
        name: "StrengthSeed",
        kind: OptionKind::Spin {
            min: 0,
            max: MAX_STRENGTH_SEED,
        },
    },
];

/// One spin option per tunable search constant, in [`SearchParams::SPECS`] order, with its
/// name and range.
pub static SEARCH_PARAM_OPTIONS: [OptionSpec; SearchParams::SPECS.len()] = search_param_options();

const fn search_param_options() -> [OptionSpec; SearchParams::SPECS.len()] {
    let mut out = [OptionSpec {
        id: OptionId::SearchParam(0),
        name: "",
        kind: OptionKind::Button,
    }; SearchParams::SPECS.len()];
    let mut i = 0;
    while i < out.len() {
        let spec = &SearchParams::SPECS[i];
        out[i] = OptionSpec {
            id: OptionId::SearchParam(i),
            name: spec.name,
            kind: OptionKind::Spin {
                min: spec.min as i64,
                max: spec.max as i64,
            },
        };
        i += 1;
    }
    out
}

/// Every option this build declares: [`OPTIONS`], then in a tuning build (feature
/// `tune-search`) [`SEARCH_PARAM_OPTIONS`]. The others never see the forty search constants.
///
/// ```
/// let names: Vec<_> = minkowski::options::all_options().map(|o| o.name).collect();
/// assert_eq!(names[0], "Hash");
/// assert_eq!(names.contains(&"rfp_margin"), cfg!(feature = "tune-search"));
/// ```
pub fn all_options() -> impl Iterator<Item = &'static OptionSpec> {
    let tuning: &'static [OptionSpec] = if cfg!(feature = "tune-search") {
        &SEARCH_PARAM_OPTIONS
    } else {
        &[]
    };
    OPTIONS.iter().chain(tuning)
}

/// The row of an option name, ignoring case and repeated spaces (the UCI spec says names are not
/// case sensitive), among [`all_options`].
#[must_use]
pub fn find_option(name: &str) -> Option<&'static OptionSpec> {
    let wanted: Vec<&str> = name.split_whitespace().collect();
    all_options().find(|spec| {
        let words: Vec<&str> = spec.name.split_whitespace().collect();
        words.len() == wanted.len()
            && words
                .iter()
                .zip(&wanted)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    })
}

/// The option names `keep` selects, in table order, each written by `show`, joined by ", " (for
/// the lists of known options in error messages, built from the table so they never go stale).
///
/// ```
/// use minkowski::options::{OptionKind, option_names};
/// let spins = option_names(|o| matches!(o.kind, OptionKind::Spin { .. }), str::to_owned);
/// assert_eq!(
///     spins,
///     "Hash, PawnKingHash, Threads, MultiPV, Move Overhead, SyzygyProbeDepth, SyzygyProbeLimit, \
///      UCI_Elo, StrengthSeed"
/// );
/// ```
#[must_use]
pub fn option_names(keep: impl Fn(&OptionSpec) -> bool, show: impl Fn(&str) -> String) -> String {
    all_options()
        .filter(|o| keep(o))
        .map(|o| show(o.name))
        .collect::<Vec<_>>()
        .join(", ")
}
