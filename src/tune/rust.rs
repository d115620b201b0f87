//! Fitted weights written back into the Rust source, where every default is declared: the line
//! of each weight in its family's `declare_weights!` block (`TARGET_HANGING = S(-1, -7);`) holds
//! its default, and [`rewrite_defaults`] puts a fit's values there, leaving every other
//! character of the file as it was. [`read_defaults`] reads them back.

use std::fmt;

use crate::eval::score::S;
use crate::eval::weights::{Keys, ROLE_NAMES, Weights};

/// The longest line the rewriter writes a table on; a longer one is broken into rows of
/// [`ROW`] pairs (as rustfmt's limit, which does not reach into the macro).
const MAX_WIDTH: usize = 100;

/// Pairs per row of a table too long for one line (a rank of a piece-square table).
const ROW: usize = 8;

/// Why the declarations could not be read or rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefaultsError {
    /// A declaration line names no weight of the table (`line` is 1-based).
    Unknown {
        /// The name in capitals, as written.
        handle: String,
        /// Where.
        line: usize,
    },
    /// A declaration's default is not an `S(mg, eg)` pair or a `[...]` list of them, or it
    /// holds another number of pairs than its weight.
    Malformed {
        /// The name in capitals.
        handle: String,
        /// Where (1-based).
        line: usize,
    },
}

impl fmt::Display for DefaultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefaultsError::Unknown { handle, line } => {
                write!(f, "line {line}: {handle} is not a weight of the table")
            }
            DefaultsError::Malformed { handle, line } => {
                write!(
                    f,
                    "line {line}: the default of {handle} is not a list of S(mg, eg) pairs of its length"
                )
            }
        }
    }
}

impl std::error::Error for DefaultsError {}

/// One weight's declaration in a source text: byte offsets.
struct Declaration {
    /// The weight's name (lower case).
    name: String,
    /// The 1-based line of the declaration.
    line: usize,
    /// Start of the declaration's first line.
    line_start: usize,
    /// Where the default starts (`S(` or `[`).
    value_start: usize,
    /// One past the default's last character.
    value_end: usize,
    /// End of the line on which the default ends (before its newline).
    line_end: usize,
}

/// The weight declarations of `source`: the lines of its `declare_weights!` block that start
/// with a name in capitals.
fn declarations(source: &str) -> Result<Vec<Declaration>, DefaultsError> {
    let Some((block, _)) = source
        .match_indices("declare_weights! {\n")
        .find(|&(at, _)| at == 0 || source.as_bytes()[at - 1] == b'\n')
    else {
        return Ok(Vec::new());
    };
    let block_end = source[block..]
        .find("\n}\n")
        .map_or(source.len(), |end| block + end);
    let mut found = Vec::new();
    let mut line_start = block;
    while line_start < block_end {
        let line_end = source[line_start..]
            .find('\n')
            .map_or(source.len(), |end| line_start + end);
        let line = &source[line_start..line_end];
        let indent = line.len() - line.trim_start().len();
        let handle: String = line[indent..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        let after = &line[indent + handle.len()..];
        let is_declaration =
            !handle.is_empty() && (after.starts_with('[') || after.starts_with(" ="));
        if !is_declaration {
            line_start = line_end + 1;
            continue;
        }
        let line_number = source[..line_start].matches('\n').count() + 1;
        let name = handle.to_ascii_lowercase();
        if Weights::fields().all(|(_, spec)| spec.name != name) {
            return Err(DefaultsError::Unknown {
                handle,
                line: line_number,
            });
        }
        let malformed = || DefaultsError::Malformed {
            handle: handle.clone(),
            line: line_number,
        };
        // The keys, if any, then ` = `.
        let mut at = line_start + indent + handle.len();
        if after.starts_with('[') {
            at = closing(source, at).ok_or_else(malformed)?;
        }
        at = at + source[at..].find("= ").ok_or_else(malformed)? + 2;
        let value_start = at;
        let value_end = if source[at..].starts_with("S(") {
            at + source[at..].find(')').ok_or_else(malformed)? + 1
        } else if source[at..].starts_with('[') {
            closing(source, at).ok_or_else(malformed)?
        } else {
            return Err(malformed());
        };
        let end_of_line = source[value_end..]
            .find('\n')
            .map_or(source.len(), |end| value_end + end);
        found.push(Declaration {
            name,
            line: line_number,
            line_start,
            value_start,
            value_end,
            line_end: end_of_line,
        });
        line_start = end_of_line + 1;
    }
    Ok(found)
}

/// One past the `]` that closes the `[` at `open`.
fn closing(source: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in source[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `S(mg, eg)` pairs of a default as written.
fn pairs(text: &str) -> Option<Vec<S>> {
    text.split("S(")
        .skip(1)
        .map(|rest| {
            let (inside, _) = rest.split_once(')')?;
            let (mg, eg) = inside.split_once(", ")?;
            Some(S(mg.trim().parse().ok()?, eg.trim().parse().ok()?))
        })
        .collect()
}

/// The defaults as declared in `source` (a family's file): each weight's name and pairs, in
/// the order of the file.
///
/// ```
/// use minkowski::eval::score::S;
/// use minkowski::tune::read_defaults;
/// let source = "declare_weights! {\n    /// Doc.\n    TEMPO = S(54, 21);\n}\n";
/// assert_eq!(read_defaults(source).unwrap(), vec![("tempo".to_owned(), vec![S(54, 21)])]);
/// ```
///
/// # Errors
///
/// A declaration of a name that is not a weight, or whose default cannot be read.
pub fn read_defaults(source: &str) -> Result<Vec<(String, Vec<S>)>, DefaultsError> {
    declarations(source)?
        .into_iter()
        .map(|d| {
            let found = pairs(&source[d.value_start..d.value_end]).ok_or_else(|| {
                DefaultsError::Malformed {
                    handle: d.name.to_ascii_uppercase(),
                    line: d.line,
                }
            })?;
            Ok((d.name, found))
        })
        .collect()
}

/// `source` (a family's file) with the default of every weight it declares set to its value in
/// `weights`, and the names of those weights in the order of the file. Only the defaults
/// change; a table too long for one line of 100 characters is written in rows of eight pairs
/// (a rank of a piece-square table, with its name in a comment). Every other character stays.
///
/// ```
/// use minkowski::eval::base::TEMPO;
/// use minkowski::eval::score::S;
/// use minkowski::eval::weights::Weights;
/// use minkowski::tune::rewrite_defaults;
/// let source = "declare_weights! {\n    /// Doc.\n    TEMPO = S(54, 21); // after\n}\n";
/// let mut fitted = Weights::default();
/// fitted[TEMPO] = S(12, -6);
/// let (text, names) = rewrite_defaults(source, &fitted).unwrap();
/// assert_eq!(text, "declare_weights! {\n    /// Doc.\n    TEMPO = S(12, -6); // after\n}\n");
/// assert_eq!(names, ["tempo"]);
/// ```
///
/// # Errors
///
/// A declaration of a name that is not a weight, or whose default cannot be read or holds
/// another number of pairs than the weight.
pub fn rewrite_defaults(
    source: &str,
    weights: &Weights,
) -> Result<(String, Vec<String>), DefaultsError> {
    let mut out = String::with_capacity(source.len());
    let mut names = Vec::new();
    let mut copied = 0;
    for d in declarations(source)? {
        let (offset, spec) = Weights::fields()
            .find(|(_, spec)| spec.name == d.name)
            .expect("declarations() checks the name");
        let written = pairs(&source[d.value_start..d.value_end]);
        if written.is_none_or(|p| p.len() != spec.len()) {
            return Err(DefaultsError::Malformed {
                handle: d.name.to_ascii_uppercase(),
                line: d.line,
            });
        }
        let values: Vec<S> = (offset..offset + spec.len())
            .map(|index| weights.slot(index).unwrap_or(S::ZERO))
            .collect();
        let line = &source[d.line_start..d.value_start];
        let indent = &line[..line.len() - line.trim_start().len()];
        out.push_str(&source[copied..d.line_start]);
        out.push_str(&declaration(
            indent,
            &line[indent.len()..],
            &values,
            spec.keys,
            &source[d.value_end..d.line_end],
        ));
        copied = d.line_end;
        names.push(d.name);
    }
    out.push_str(&source[copied..]);
    Ok((out, names))
}

/// A declaration's text: `indent`, `head` (`NAME[keys] = `), the default, `tail` (the rest of
/// the line: overrides and `;`).
fn declaration(indent: &str, head: &str, values: &[S], keys: Keys, tail: &str) -> String {
    let pair = |s: &S| format!("S({}, {})", s.mg(), s.eg());
    if keys == Keys::One {
        return format!("{indent}{head}{}{tail}", pair(&values[0]));
    }
    let all: Vec<String> = values.iter().map(pair).collect();
    let inline = format!("{indent}{head}[{}]{tail}", all.join(", "));
    if inline.chars().count() <= MAX_WIDTH {
        return inline;
    }
    let mut text = format!("{indent}{head}[\n");
    for (row, chunk) in all.chunks(ROW).enumerate() {
        text.push_str(&format!("{indent}    {},", chunk.join(", ")));
        if keys == Keys::RoleSquares {
            let (role, rank) = (row * ROW / 64, row % (64 / ROW) + 1);
            text.push_str(&format!(" // {} rank {rank}", ROLE_NAMES[role]));
        }
        text.push('\n');
    }
    text.push_str(&format!("{indent}]{tail}"));
    text
}
