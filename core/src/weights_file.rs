//! The weight file: engine.toml's `[eval]` table, weight name → `[mg, eg]`, read and written.
//!
//! The engine's configuration file has two tables: `[uci]` (the engine's option values, read and
//! checked by the engine) and `[eval]` (the evaluation's weights, read here). A file read by this
//! module may hold a `[uci]` table, which is skipped unchecked; any other table is an error, as it
//! is for the engine. Every name is one of [`Weights::names`] and both halves are within the
//! weight's range ([`WeightSpec::range`](crate::WeightSpec)); a file with any problem is refused
//! whole, with every problem and its line.
//!
//! ```
//! use minkowski_core::{S, weights_file::WeightsFile};
//! let file = WeightsFile::parse("[eval]\nkbnk_corner = [90, 110]\n").unwrap();
//! assert_eq!(file.weights().get("kbnk_corner"), Some(S(90, 110)));
//! let errors = WeightsFile::parse("[eval]\ntempo = [101, 0]\nknight = [1, 2]\n").unwrap_err();
//! assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3]);
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use toml::{Spanned, Value};

use crate::eval::score::S;
use crate::eval::weights::Weights;

/// The `[eval]` table of a weight file: weight name → `[mg, eg]`, every name known and every
/// value within its range.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WeightsFile {
    /// Weight name → `[mg, eg]`, as read.
    pub eval: BTreeMap<String, [i32; 2]>,
}

/// A problem in a weight file, with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsFileError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (1 unless the TOML itself is malformed).
    pub column: usize,
    /// What is wrong, e.g. `[eval] tempo: [101, 0] is out of range: ...`.
    pub message: String,
}

impl fmt::Display for WeightsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for WeightsFileError {}

/// Why one `[eval]` entry is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightValueError {
    /// No weight has this name.
    UnknownName,
    /// The value is not two whole numbers in the `i32` range.
    NotAPair,
    /// A half is outside the weight's range.
    OutOfRange {
        /// The value given.
        pair: [i32; 2],
        /// The weight's range, both ends included.
        range: (i32, i32),
    },
}

impl fmt::Display for WeightValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightValueError::UnknownName => f.write_str(
                "unknown evaluation weight (e.g. material.knight, psqt.knight.e4, \
                 kbnk_corner; see docs/tuning.md)",
            ),
            WeightValueError::NotAPair => {
                f.write_str("must be [mg, eg]: two whole numbers in the i32 range")
            }
            WeightValueError::OutOfRange { pair, range } => write!(
                f,
                "[{}, {}] is out of range: mg and eg must be from {} to {}",
                pair[0], pair[1], range.0, range.1
            ),
        }
    }
}

impl std::error::Error for WeightValueError {}

/// Checks one weight as the file reader does: `name` is a weight and `[mg, eg]` within its range.
///
/// ```
/// use minkowski_core::weights_file::{WeightValueError, check_weight};
/// assert_eq!(check_weight("tempo", [100, -100]), Ok(()));
/// assert!(matches!(check_weight("tempo", [101, 0]), Err(WeightValueError::OutOfRange { .. })));
/// assert_eq!(check_weight("knight", [1, 2]), Err(WeightValueError::UnknownName));
/// ```
pub fn check_weight(name: &str, pair: [i32; 2]) -> Result<(), WeightValueError> {
    let Some((spec, _)) = Weights::index_of(name).and_then(Weights::locate) else {
        return Err(WeightValueError::UnknownName);
    };
    let range = &spec.range;
    if pair.iter().all(|v| range.contains(v)) {
        Ok(())
    } else {
        Err(WeightValueError::OutOfRange {
            pair,
            range: (*range.start(), *range.end()),
        })
    }
}

type Table = BTreeMap<String, Spanned<Value>>;

impl WeightsFile {
    /// Reads the text of a weight file (engine.toml). All problems are reported, ordered by line.
    pub fn parse(text: &str) -> Result<WeightsFile, Vec<WeightsFileError>> {
        let document = parse_document(text).map_err(|e| vec![e])?;
        let mut file = WeightsFile::default();
        let mut errors = Vec::new();
        for (table_name, table) in &document {
            let line = |span: Range<usize>| line_column(text, span.start).0;
            match table_name.as_str() {
                "uci" => {}
                "eval" => {
                    for (key, value) in table.get_ref() {
                        match eval_weight(key, value.get_ref()) {
                            Ok(pair) => {
                                file.eval.insert(key.clone(), pair);
                            }
                            Err(problem) => errors.push(WeightsFileError {
                                line: line(value.span()),
                                column: 1,
                                message: format!("[eval] {key}: {problem}"),
                            }),
                        }
                    }
                }
                _ => errors.push(WeightsFileError {
                    line: line(table.span()),
                    column: 1,
                    message: format!("unknown table [{table_name}] (known: [uci], [eval])"),
                }),
            }
        }
        if errors.is_empty() {
            Ok(file)
        } else {
            errors.sort_by_key(|e| e.line);
            Err(errors)
        }
    }

    /// The built-in weights with this table applied.
    #[must_use]
    pub fn weights(&self) -> Weights {
        let mut weights = Weights::default();
        for (name, [mg, eg]) in &self.eval {
            // Names were checked when the file was read; a failure here cannot happen.
            let _ = weights.set(name, S(*mg, *eg));
        }
        weights
    }
}

/// `weights` as an engine.toml `[eval]` table that [`WeightsFile::parse`] (and the engine) reads
/// back as it is: every named weight, in the declaration table's order, each field after a
/// comment with the first line of its doc, and before all of it the lines of `header` as
/// comments. Names with a dot are quoted, as TOML needs.
///
/// ```
/// use minkowski_core::{S, Weights, weights_file::{WeightsFile, eval_table}};
/// let mut w = Weights::default();
/// w.set("psqt.knight.e4", S(31, -7)).unwrap();
/// let text = eval_table(&w, "fitted by minkowski tune");
/// assert!(text.starts_with("# fitted by minkowski tune\n"));
/// assert!(text.contains("\n\"psqt.knight.e4\" = [31, -7]\n"));
/// assert_eq!(WeightsFile::parse(&text).unwrap().weights(), w);
/// ```
#[must_use]
pub fn eval_table(weights: &Weights, header: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    out.push_str("[eval]\n");
    let mut last_weight = None;
    for index in 0..Weights::COUNT {
        let (Some(name), Some((spec, _)), Some(s)) = (
            Weights::name_of(index),
            Weights::locate(index),
            weights.slot(index),
        ) else {
            continue;
        };
        if last_weight != Some(spec.name) {
            let _ = writeln!(out, "# {}: {}", spec.name, spec.summary());
            last_weight = Some(spec.name);
        }
        let key = if name.contains('.') {
            format!("\"{name}\"")
        } else {
            name
        };
        let _ = writeln!(out, "{key} = [{}, {}]", s.mg(), s.eg());
    }
    out
}

/// The whole document: table name → its keys, with spans. For the engine's configuration
/// reader, which checks `[uci]` itself (unstable: it names the `toml` crate's types).
#[doc(hidden)]
pub fn parse_document(text: &str) -> Result<BTreeMap<String, Spanned<Table>>, WeightsFileError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = line_column(text, e.span().map_or(0, |s| s.start));
        let mut message = e.message().trim().to_owned();
        if message.contains("expected a map") || message.contains("expected a table") {
            message.push_str(" (every key belongs in a table: [uci] or [eval])");
        }
        WeightsFileError {
            line,
            column,
            message,
        }
    })
}

/// The value of the `[eval]` key `name`: a weight of the declaration table
/// ([`Weights::index_of`]), given as `[mg, eg]` within the weight's range. For the engine's
/// configuration reader (unstable: it names the `toml` crate's types).
#[doc(hidden)]
pub fn eval_weight(name: &str, value: &Value) -> Result<[i32; 2], WeightValueError> {
    if Weights::index_of(name).and_then(Weights::locate).is_none() {
        return Err(WeightValueError::UnknownName);
    }
    let pair = weight_pair(value).ok_or(WeightValueError::NotAPair)?;
    check_weight(name, pair).map(|()| pair)
}

/// `[mg, eg]` as two `i32`s.
fn weight_pair(value: &Value) -> Option<[i32; 2]> {
    let Value::Array(items) = value else {
        return None;
    };
    let [Value::Integer(mg), Value::Integer(eg)] = items.as_slice() else {
        return None;
    };
    Some([i32::try_from(*mg).ok()?, i32::try_from(*eg).ok()?])
}

/// 1-based line and column of a byte offset (unstable: for the engine's configuration reader).
#[doc(hidden)]
#[must_use]
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_from_one() {
        assert_eq!(line_column("a\nbc\nd", 0), (1, 1));
        assert_eq!(line_column("a\nbc\nd", 3), (2, 2));
        assert_eq!(line_column("a\nbc\nd", 5), (3, 1));
    }

    #[test]
    fn eval_weights_are_checked_against_their_declared_range() {
        let ok = WeightsFile::parse("[eval]\ntempo = [100, -100]\n").unwrap();
        assert_eq!(ok.weights().get("tempo"), Some(S(100, -100)));
        let errors =
            WeightsFile::parse("[eval]\ntempo = [101, 0]\n\"psqt.knight.e4\" = [0, -501]\n")
                .unwrap_err();
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 2, "{text:?}");
        assert!(
            text[1].contains("3:1: [eval] psqt.knight.e4: [0, -501] is out of range: mg and eg must be from -500 to 500"),
            "{text:?}"
        );
        assert!(
            text[0].contains("2:1: [eval] tempo: [101, 0] is out of range"),
            "{text:?}"
        );
        // The king's material is structure, not a weight.
        assert!(WeightsFile::parse("[eval]\n\"material.king\" = [0, 0]\n").is_err());
    }

    #[test]
    fn the_uci_table_is_skipped_and_others_refused() {
        let file = WeightsFile::parse("[uci]\nHash = 0\n[eval]\ntempo = [1, 2]\n").unwrap();
        assert_eq!(file.eval["tempo"], [1, 2]);
        let errors = WeightsFile::parse("[search]\nx = 1\n").unwrap_err();
        assert_eq!(errors[0].line, 1);
        assert!(WeightsFile::parse("tempo = [1, 2]\n").is_err());
        assert!(WeightsFile::parse("[eval]\ntempo = [1]\n").is_err());
    }
}
