//! What the options are set to: [`EngineOptions`] (every option's current value, with the
//! built-in defaults), values as types ([`OptionValue`]) and why a change is refused
//! ([`OptionError`]). Setting checks a value's type and range against its row of the table;
//! the settings the search takes (tablebases, strength, move overhead) are derived here.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

use super::table::{OptionId, OptionKind, OptionSpec, option_names};
use crate::search::SearchParams;
use crate::search::strength::{DEFAULT_ELO, MAX_ELO, StrengthLimit};

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
