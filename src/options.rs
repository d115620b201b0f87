//! The engine's option model: names, kinds, ranges and defaults, in one table ([`OPTIONS`]),
//! and in a tuning build (feature `tune-search`) one spin option more per tunable search
//! constant ([`SEARCH_PARAM_OPTIONS`], named as its [`SearchParams`] field): [`all_options`]
//! lists both.
//!
//! Neither front end owns it: `uci` declares these options on the wire and feeds `setoption`
//! through [`EngineOptions::set_from_text`], and `config` reads engine.toml's `[uci]` table through
//! [`EngineOptions::set`], so the GUI and the config file obey the same names, types and ranges.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

use crate::search::SearchParams;
use crate::search::strength::{DEFAULT_ELO, MAX_ELO, MIN_ELO, StrengthLimit};
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

/// A typed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// For spin options.
    Int(i64),
    /// For check options.
    Bool(bool),
    /// Pressing a button.
    Press,
    /// For text options.
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Press => f.write_str("(pressed)"),
            OptionValue::Text(t) => f.write_str(t),
        }
    }
}

/// Why an option was not changed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}' (options: {names})", names = option_names(|_| true, str::to_owned))]
    Unknown(String),
    /// A spin or check option without `value`.
    #[error("option '{0}' needs a value")]
    MissingValue(&'static str),
    /// A spin value that is not an integer.
    #[error("option '{name}' needs a whole number, got '{value}'")]
    NotANumber {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
    },
    /// A spin value outside the declared range.
    #[error("option '{name}' must be from {min} to {max}, got {value}")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A check value other than true/false.
    #[error("option '{name}' needs true or false, got '{value}'")]
    NotABool {
        /// The option.
        name: &'static str,
        /// What was given.
        value: String,
    },
    /// A search constant refused the value (only for an id that names no constant).
    #[error("{0}")]
    SearchParam(String),
    /// A value of the wrong type (from engine.toml, where values are typed).
    #[error("option '{name}' needs {expected}")]
    WrongType {
        /// The option.
        name: &'static str,
        /// A description of the expected type.
        expected: &'static str,
    },
}

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Each search thread's pawn-king cache, in KiB.
    pub pawn_king_kib: usize,
    /// Search threads (always 1).
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Whether the GUI may ponder.
    pub ponder: bool,
    /// Time reserved per move.
    pub move_overhead_ms: u64,
    /// Chess960 move notation.
    pub chess960: bool,
    /// Folders of Syzygy tables; empty for none.
    pub syzygy_path: String,
    /// Least depth left for an in-tree tablebase probe.
    pub syzygy_probe_depth: i32,
    /// Most pieces (kings included) for a tablebase probe.
    pub syzygy_probe_limit: usize,
    /// Whether the 50-move rule counts in tablebase verdicts.
    pub syzygy_50_move_rule: bool,
    /// Whether `info` lines carry win/draw/loss chances.
    pub show_wdl: bool,
    /// Whether to play at `elo` instead of full strength.
    pub limit_strength: bool,
    /// The rating to play at while `limit_strength` is on.
    pub elo: u32,
    /// The seed of the limited strength's choice; 0 for a new seed each start.
    pub strength_seed: u64,
    /// The search's tunable constants (options of a tuning build only; the defaults
    /// otherwise).
    pub search: SearchParams,
}

impl Default for EngineOptions {
    /// The built-in defaults (engine.toml and `setoption` override them in that order).
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 16,
            pawn_king_kib: crate::eval::pawn_king::PawnKingCache::DEFAULT_KIB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 30,
            chess960: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            syzygy_50_move_rule: true,
            show_wdl: false,
            limit_strength: false,
            elo: DEFAULT_ELO,
            strength_seed: 0,
            search: SearchParams::default(),
        }
    }
}

impl EngineOptions {
    /// `Move Overhead` as a duration.
    #[must_use]
    pub fn move_overhead(&self) -> Duration {
        Duration::from_millis(self.move_overhead_ms)
    }

    /// The tablebase settings these options give the search.
    ///
    /// ```
    /// use minkowski::options::EngineOptions;
    /// let mut o = EngineOptions::default();
    /// o.set_from_text("SyzygyProbeLimit", Some("5")).unwrap();
    /// assert_eq!(o.tb_settings().probe_limit, 5);
    /// ```
    #[must_use]
    pub fn tb_settings(&self) -> crate::search::tb::TbSettings {
        crate::search::tb::TbSettings {
            probe_depth: self.syzygy_probe_depth,
            probe_limit: self.syzygy_probe_limit,
            rule50: self.syzygy_50_move_rule,
        }
    }

    /// The strength the search plays at: `None` (full strength) unless `UCI_LimitStrength` is
    /// on.
    ///
    /// ```
    /// use minkowski::options::EngineOptions;
    /// let mut o = EngineOptions::default();
    /// o.set_from_text("UCI_Elo", Some("1500")).unwrap();
    /// assert_eq!(o.strength(), None);
    /// o.set_from_text("UCI_LimitStrength", Some("true")).unwrap();
    /// assert_eq!(o.strength().map(|s| s.elo()), Some(1500));
    /// ```
    #[must_use]
    pub fn strength(&self) -> Option<StrengthLimit> {
        self.limit_strength.then(|| StrengthLimit::new(self.elo))
    }

    /// Set an option from `setoption` text. Returns which option changed (buttons report being
    /// pressed); on error nothing changes.
    ///
    /// ```
    /// use minkowski::options::{EngineOptions, OptionId};
    /// let mut o = EngineOptions::default();
    /// assert_eq!(o.set_from_text("move overhead", Some("100")).unwrap().id, OptionId::MoveOverhead);
    /// assert_eq!(o.move_overhead_ms, 100);
    /// assert!(o.set_from_text("Hash", Some("0")).is_err());
    /// assert_eq!(o.hash_mb, 16);
    /// ```
    pub fn set_from_text(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<&'static OptionSpec, OptionError> {
        let spec = find_option(name).ok_or_else(|| OptionError::Unknown(echo(name)))?;
        let value = match (spec.kind, value.map(str::trim)) {
            (OptionKind::Button, _) => OptionValue::Press,
            // `<empty>` is the UCI convention for an empty string.
            (OptionKind::Text, None | Some("<empty>")) => OptionValue::Text(String::new()),
            (OptionKind::Text, Some(text)) => OptionValue::Text(text.to_owned()),
            (_, None | Some("")) => return Err(OptionError::MissingValue(spec.name)),
            (OptionKind::Spin { min, max }, Some(text)) => match text.parse::<i64>() {
                Ok(n) => OptionValue::Int(n),
                // A number too long for i64 is out of range rather than "not a number".
                Err(_) if is_integer_text(text) => {
                    let value = echo(text);
                    return Err(OptionError::OutOfRange {
                        name: spec.name,
                        value,
                        min,
                        max,
                    });
                }
                Err(_) => {
                    let value = echo(text);
                    return Err(OptionError::NotANumber {
                        name: spec.name,
                        value,
                    });
                }
            },
            (OptionKind::Check, Some(text)) => match text.to_ascii_lowercase().as_str() {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                _ => {
                    return Err(OptionError::NotABool {
                        name: spec.name,
                        value: echo(text),
                    });
                }
            },
        };
        self.set(spec, value)?;
        Ok(spec)
    }

    /// Set an option from a typed value, checking its type and range.
    pub fn set(
        &mut self,
        spec: &'static OptionSpec,
        value: OptionValue,
    ) -> Result<(), OptionError> {
        match (spec.kind, value) {
            (OptionKind::Spin { min, max }, OptionValue::Int(n)) => {
                if !(min..=max).contains(&n) {
                    return Err(OptionError::OutOfRange {
                        name: spec.name,
                        value: n.to_string(),
                        min,
                        max,
                    });
                }
                // In range, so non-negative and small enough for every target type.
                let n_usize = usize::try_from(n).unwrap_or(usize::MAX);
                let n_u64 = u64::try_from(n).unwrap_or(u64::MAX);
                match spec.id {
                    OptionId::Hash => self.hash_mb = n_usize,
                    OptionId::PawnKingHash => self.pawn_king_kib = n_usize,
                    OptionId::Threads => self.threads = n_usize,
                    OptionId::MultiPv => self.multipv = n_usize,
                    OptionId::MoveOverhead => self.move_overhead_ms = n_u64,
                    OptionId::SyzygyProbeDepth => {
                        self.syzygy_probe_depth = i32::try_from(n).unwrap_or(i32::MAX);
                    }
                    OptionId::SyzygyProbeLimit => self.syzygy_probe_limit = n_usize,
                    OptionId::Elo => self.elo = u32::try_from(n).unwrap_or(MAX_ELO),
                    OptionId::StrengthSeed => self.strength_seed = n_u64,
                    OptionId::SearchParam(i) => {
                        // The row's range is the parameter's, so only a made-up index fails.
                        let name = SearchParams::SPECS.get(i).map_or("", |p| p.name);
                        self.search
                            .set(name, n)
                            .map_err(|e| OptionError::SearchParam(e.to_string()))?;
                    }
                    _ => {}
                }
                Ok(())
            }
            (OptionKind::Check, OptionValue::Bool(b)) => {
                match spec.id {
                    OptionId::Ponder => self.ponder = b,
                    OptionId::Chess960 => self.chess960 = b,
                    OptionId::Syzygy50MoveRule => self.syzygy_50_move_rule = b,
                    OptionId::ShowWdl => self.show_wdl = b,
                    OptionId::LimitStrength => self.limit_strength = b,
                    _ => {}
                }
                Ok(())
            }
            (OptionKind::Button, OptionValue::Press) => Ok(()),
            (OptionKind::Text, OptionValue::Text(t)) => {
                if spec.id == OptionId::SyzygyPath {
                    self.syzygy_path = t;
                }
                Ok(())
            }
            (kind, _) => Err(OptionError::WrongType {
                name: spec.name,
                expected: match kind {
                    OptionKind::Spin { .. } => "a whole number",
                    OptionKind::Check => "true or false",
                    OptionKind::Button => "no value (it is a button)",
                    OptionKind::Text => "a string",
                },
            }),
        }
    }

    /// The current value of an option.
    #[must_use]
    pub fn get(&self, id: OptionId) -> OptionValue {
        let int = |n: usize| OptionValue::Int(i64::try_from(n).unwrap_or(i64::MAX));
        match id {
            OptionId::Hash => int(self.hash_mb),
            OptionId::PawnKingHash => int(self.pawn_king_kib),
            OptionId::Threads => int(self.threads),
            OptionId::MultiPv => int(self.multipv),
            OptionId::MoveOverhead => {
                OptionValue::Int(i64::try_from(self.move_overhead_ms).unwrap_or(i64::MAX))
            }
            OptionId::Ponder => OptionValue::Bool(self.ponder),
            OptionId::Chess960 => OptionValue::Bool(self.chess960),
            OptionId::ClearHash => OptionValue::Press,
            OptionId::SyzygyPath => OptionValue::Text(self.syzygy_path.clone()),
            OptionId::SyzygyProbeDepth => OptionValue::Int(i64::from(self.syzygy_probe_depth)),
            OptionId::SyzygyProbeLimit => int(self.syzygy_probe_limit),
            OptionId::Syzygy50MoveRule => OptionValue::Bool(self.syzygy_50_move_rule),
            OptionId::ShowWdl => OptionValue::Bool(self.show_wdl),
            OptionId::LimitStrength => OptionValue::Bool(self.limit_strength),
            OptionId::Elo => OptionValue::Int(i64::from(self.elo)),
            OptionId::StrengthSeed => {
                OptionValue::Int(i64::try_from(self.strength_seed).unwrap_or(i64::MAX))
            }
            // An index past the table (never one of `all_options`) reads as 0.
            OptionId::SearchParam(i) => OptionValue::Int(i64::from(
                SearchParams::SPECS
                    .get(i)
                    .and_then(|p| self.search.get(p.name))
                    .unwrap_or(0),
            )),
        }
    }
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

/// Longest piece of user input quoted back in a message, in characters.
const MAX_ECHO_CHARS: usize = 40;

/// User input quoted in a message, shortened so that a 100 KB line gives a readable reply, and
/// with control characters escaped (`\u{1b}`): a lone CR or an escape sequence echoed raw would
/// show the GUI a line break or garbage the engine never meant.
///
/// ```
/// use minkowski::options::echo;
/// assert_eq!(echo("Hash"), "Hash");
/// assert!(echo(&"x".repeat(1000)).ends_with("... (1000 bytes)"));
/// assert_eq!(echo("a\rb\u{1b}[2J"), "a\\rb\\u{1b}[2J");
/// ```
#[must_use]
pub fn echo(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().take(MAX_ECHO_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if text.chars().count() > MAX_ECHO_CHARS {
        out.push_str(&format!("... ({} bytes)", text.len()));
    }
    out
}

fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_change_nothing() {
        let mut o = EngineOptions::default();
        for (name, value) in [
            ("Hash", Some("abc")),
            ("Hash", Some("99999999999999999999999")),
            ("Hash", None),
            ("Threads", Some("0")),
            ("Ponder", Some("yes")),
            ("UCI_ShowWDL", Some("1")),
            ("UCI_ShowWDL", None),
            ("UCI_LimitStrength", Some("on")),
            ("UCI_Elo", Some("1349")),
            ("UCI_Elo", Some("2801")),
            ("UCI_Elo", Some("strong")),
            ("StrengthSeed", Some("-1")),
            ("Nonsense", Some("1")),
        ] {
            assert!(o.set_from_text(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(o, EngineOptions::default());
        let unknown = o
            .set_from_text("Nonsense", Some("1"))
            .unwrap_err()
            .to_string();
        // (A tuning build lists its search constants after these.)
        assert!(
            cfg!(feature = "tune-search") || unknown.ends_with(
                "(options: Hash, PawnKingHash, Threads, MultiPV, Ponder, Move Overhead, UCI_Chess960, Clear Hash, \
                 SyzygyPath, SyzygyProbeDepth, SyzygyProbeLimit, Syzygy50MoveRule, UCI_ShowWDL, \
                 UCI_LimitStrength, UCI_Elo, StrengthSeed)"
            ),
            "{unknown}"
        );
        assert!(o.set_from_text("uci_chess960", Some("TRUE")).is_ok());
        assert!(o.chess960);
    }
}
