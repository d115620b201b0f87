//! engine.toml: default UCI option values (`[uci]`) and evaluation weights by name (`[eval]`).
//!
//! Precedence: built-in defaults < engine.toml < `setoption`. The `[uci]` keys are the UCI
//! option names and are checked by the same table as `setoption`
//! ([`crate::options::OPTIONS`]), so a value the GUI could not set cannot come from the file
//! either. A file with any problem is not applied at all: the engine starts on the built-in
//! defaults and says why, with the line of each problem.
//!
//! ```
//! use std::path::Path;
//! use minkowski::config::Config;
//! let config = Config::from_toml("[uci]\nHash = 64\n", Path::new("engine.toml")).unwrap();
//! assert_eq!(config.options.hash_mb, 64);
//! assert_eq!(config.options.multipv, 1); // not in the file: the built-in default
//! let errors = Config::from_toml("[uci]\nHash = 0\n", Path::new("engine.toml")).unwrap_err();
//! assert_eq!(errors[0].line(), Some(2));
//! ```

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use minkowski_core::weights_file::{eval_weight, line_column, parse_document};
use thiserror::Error;
use toml::Value;

use crate::eval::weights::Weights;
use crate::options::{EngineOptions, OptionKind, OptionValue, find_option, option_names};

/// The file read from the working directory when no `--config` is given.
pub const DEFAULT_FILE: &str = "engine.toml";

/// Everything engine.toml can set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// UCI option values: the built-in defaults, overridden by `[uci]`.
    pub options: EngineOptions,
    /// `[eval]`: weight name → `[mg, eg]`; every name is one of
    /// [`crate::eval::weights::Weights::names`], and both halves are within its range
    /// ([`crate::eval::weights::WeightSpec::range`]), checked when the file is read.
    pub eval: BTreeMap<String, [i32; 2]>,
    /// The file it came from, if any.
    pub source: Option<PathBuf>,
}

/// A problem with engine.toml. Every variant but [`ConfigError::Read`] knows its line.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file exists (or was named by `--config`) but cannot be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// Not valid TOML, or not shaped like engine.toml.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The TOML parser's message.
        message: String,
    },
    /// A table other than `[uci]` and `[eval]`.
    #[error("{path}:{line}: unknown table [{table}] (known: [uci], [eval])")]
    UnknownTable {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// The table name.
        table: String,
    },
    /// A key in `[uci]` that is not an option.
    #[error(
        "{path}:{line}: unknown key '{key}' in [uci] (known: {})",
        config_keys()
    )]
    UnknownKey {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// The key.
        key: String,
    },
    /// A known key with a value of the wrong type or out of range.
    #[error("{path}:{line}: [{table}] {key}: {problem}")]
    BadValue {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// `uci` or `eval`.
        table: String,
        /// The key.
        key: String,
        /// What is wrong.
        problem: String,
    },
}

impl ConfigError {
    /// The 1-based line of the problem, when there is one.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            ConfigError::Read { .. } => None,
            ConfigError::Syntax { line, .. }
            | ConfigError::UnknownTable { line, .. }
            | ConfigError::UnknownKey { line, .. }
            | ConfigError::BadValue { line, .. } => Some(*line),
        }
    }
}

/// The keys `[uci]` accepts, for the error message: every option but the buttons, with names that
/// contain a space quoted as TOML needs them.
fn config_keys() -> String {
    option_names(
        |o| o.kind != OptionKind::Button,
        |name| {
            if name.contains(' ') {
                format!("\"{name}\"")
            } else {
                name.to_owned()
            }
        },
    )
}

impl Config {
    /// The evaluation weights: the built-in ones with `[eval]` applied.
    ///
    /// ```
    /// use std::path::Path;
    /// use minkowski::config::Config;
    /// use minkowski::eval::score::S;
    /// let config = Config::from_toml("[eval]\nkbnk_corner = [90, 110]\n", Path::new("e.toml")).unwrap();
    /// assert_eq!(config.weights().get("kbnk_corner"), Some(S(90, 110)));
    /// assert!(Config::from_toml("[eval]\nknight = [1, 2]\n", Path::new("e.toml")).is_err());
    /// ```
    #[must_use]
    pub fn weights(&self) -> Weights {
        minkowski_core::weights_file::WeightsFile {
            eval: self.eval.clone(),
        }
        .weights()
    }

    /// Read the configuration: `explicit` (from `--config`) or else ./engine.toml.
    ///
    /// Never fails: on any problem it returns the built-in defaults together with the problems.
    /// A missing ./engine.toml is not a problem; a missing `--config` file is.
    #[must_use]
    pub fn load(explicit: Option<&Path>) -> (Config, Vec<ConfigError>) {
        let path = explicit.unwrap_or(Path::new(DEFAULT_FILE));
        match std::fs::read_to_string(path) {
            Ok(text) => match Config::from_toml(&text, path) {
                Ok(config) => (config, Vec::new()),
                Err(errors) => (Config::default(), errors),
            },
            Err(e) if explicit.is_none() && e.kind() == io::ErrorKind::NotFound => {
                (Config::default(), Vec::new())
            }
            Err(source) => (
                Config::default(),
                vec![ConfigError::Read {
                    path: path.display().to_string(),
                    source,
                }],
            ),
        }
    }

    /// Parse engine.toml text; `path` is only used in messages. All problems are reported,
    /// ordered by line.
    pub fn from_toml(text: &str, path: &Path) -> Result<Config, Vec<ConfigError>> {
        let path_text = path.display().to_string();
        let document = match parse_document(text) {
            Ok(d) => d,
            Err(e) => {
                return Err(vec![ConfigError::Syntax {
                    path: path_text,
                    line: e.line,
                    column: e.column,
                    message: e.message,
                }]);
            }
        };
        let mut config = Config {
            source: Some(path.to_path_buf()),
            ..Config::default()
        };
        let mut errors = Vec::new();
        for (table_name, table) in &document {
            let at = |span: Range<usize>| line_column(text, span.start).0;
            match table_name.as_str() {
                "uci" => {
                    let mut seen = HashSet::new();
                    for (key, value) in table.get_ref() {
                        let line = at(value.span());
                        let bad = |problem: String| ConfigError::BadValue {
                            path: path_text.clone(),
                            line,
                            table: "uci".into(),
                            key: key.clone(),
                            problem,
                        };
                        let Some(spec) = find_option(key) else {
                            errors.push(ConfigError::UnknownKey {
                                path: path_text.clone(),
                                line,
                                key: key.clone(),
                            });
                            continue;
                        };
                        if !seen.insert(spec.name) {
                            errors.push(bad(format!("'{}' is set twice", spec.name)));
                            continue;
                        }
                        let typed = match (spec.kind, value.get_ref()) {
                            (OptionKind::Button, _) => {
                                errors.push(bad("is a button, not a setting".into()));
                                continue;
                            }
                            (OptionKind::Text, Value::String(t)) => OptionValue::Text(t.clone()),
                            (OptionKind::Text, v) => {
                                errors
                                    .push(bad(format!("must be a string, found {}", v.type_str())));
                                continue;
                            }
                            (_, Value::Integer(n)) => OptionValue::Int(*n),
                            (_, Value::Boolean(b)) => OptionValue::Bool(*b),
                            (OptionKind::Spin { .. }, v) => {
                                errors.push(bad(format!(
                                    "must be a whole number, found {}",
                                    v.type_str()
                                )));
                                continue;
                            }
                            (OptionKind::Check, v) => {
                                errors.push(bad(format!(
                                    "must be true or false, found {}",
                                    v.type_str()
                                )));
                                continue;
                            }
                        };
                        if let Err(e) = config.options.set(spec, typed) {
                            errors.push(bad(e.to_string()));
                        }
                    }
                }
                "eval" => {
                    for (key, value) in table.get_ref() {
                        let bad = |problem: String| ConfigError::BadValue {
                            path: path_text.clone(),
                            line: at(value.span()),
                            table: "eval".into(),
                            key: key.clone(),
                            problem,
                        };
                        match eval_weight(key, value.get_ref()) {
                            Ok(pair) => {
                                config.eval.insert(key.clone(), pair);
                            }
                            Err(problem) => errors.push(bad(problem.to_string())),
                        }
                    }
                }
                _ => errors.push(ConfigError::UnknownTable {
                    path: path_text.clone(),
                    line: at(table.span()),
                    table: table_name.clone(),
                }),
            }
        }
        if errors.is_empty() {
            Ok(config)
        } else {
            errors.sort_by_key(ConfigError::line);
            Err(errors)
        }
    }
}

/// `weights` as an engine.toml `[eval]` table that [`Config::from_toml`] reads back as it is
/// (the core crate's writer, [`minkowski_core::weights_file::eval_table`]).
///
/// ```
/// use std::path::Path;
/// use minkowski::config::{Config, eval_table};
/// use minkowski::eval::{score::S, weights::Weights};
/// let mut w = Weights::default();
/// w.set("psqt.knight.e4", S(31, -7)).unwrap();
/// let text = eval_table(&w, "fitted by minkowski tune");
/// assert!(text.contains("\n\"psqt.knight.e4\" = [31, -7]\n"));
/// assert_eq!(Config::from_toml(&text, Path::new("t.toml")).unwrap().weights(), w);
/// ```
pub use minkowski_core::weights_file::eval_table;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::S;

    #[test]
    fn eval_weights_are_checked_against_their_declared_range() {
        let ok = Config::from_toml("[eval]\ntempo = [100, -100]\n", Path::new("t.toml")).unwrap();
        assert_eq!(ok.weights().get("tempo"), Some(S(100, -100)));
        let errors = Config::from_toml(
            "[eval]\ntempo = [101, 0]\n\"psqt.knight.e4\" = [0, -501]\n",
            Path::new("t.toml"),
        )
        .unwrap_err();
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 2, "{text:?}");
        let psqt = "t.toml:3: [eval] psqt.knight.e4: [0, -501] is out of range: \
                    mg and eg must be from -500 to 500";
        assert!(text[1].contains(psqt), "{text:?}");
        assert!(
            text[0].contains("t.toml:2: [eval] tempo: [101, 0] is out of range"),
            "{text:?}"
        );
        // The king's material is structure, not a weight.
        assert!(
            Config::from_toml("[eval]\n\"material.king\" = [0, 0]\n", Path::new("t.toml")).is_err()
        );
    }

    #[test]
    fn every_problem_is_reported_with_its_line() {
        let text = "[uci]\nHash = 0\nPonder = \"yes\"\nHsh = 3\n\"Clear Hash\" = true\n[eval]\nknight = [1]\n[search]\nx = 1\n";
        let errors = Config::from_toml(text, Path::new("t.toml")).unwrap_err();
        let lines: Vec<_> = errors.iter().map(ConfigError::line).collect();
        assert_eq!(
            lines,
            [Some(2), Some(3), Some(4), Some(5), Some(7), Some(8)],
            "{errors:?}"
        );
    }
}
