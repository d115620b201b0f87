//! Fitted weights as Rust source: one `pub const` per weight, in its own shape and the flat order
//! of the table. The file is the form of `core/src/eval/weights/defaults.rs`, where every
//! weight's declaration reads its default from: copying a fit's output over it makes the fit the
//! engine's defaults.

use std::fmt::Write;

use crate::eval::score::S;
use crate::eval::weights::{Keys, ROLE_NAMES, Weights};

/// `weights` as Rust source, after a comment block made of the lines of `header`.
///
/// Every weight is written, tuned or not, elements without a name (the king's material)
/// included, so that the file is complete:
///
/// ```text
/// pub const MATERIAL: [S; 6] = [S(82, 94), S(337, 281), ...];
/// pub const PSQT: [[S; 64]; 6] = [
///     // pawn
///     [
///         S(0, 0), S(0, 0), ... // rank 1 (a1 ..= h1)
/// ...
/// pub const TEMPO: S = S(12, 6);
/// ```
///
/// ```
/// use minkowski::eval::weights::Weights;
/// let text = minkowski::tune::rust_source(&Weights::default(), "hand weights");
/// assert!(text.starts_with("// hand weights\n"));
/// let tempo = Weights::default().get("tempo").unwrap();
/// assert!(text.contains(&format!("pub const TEMPO: S = S({}, {});\n", tempo.mg(), tempo.eg())));
/// assert_eq!(text.matches("S(").count(), Weights::COUNT); // every pair, named or not
/// ```
#[must_use]
pub fn rust_source(weights: &Weights, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("\nuse crate::eval::score::S;\n");
    for (offset, spec) in Weights::fields() {
        let slots: Vec<S> = (offset..offset + spec.len())
            .map(|index| weights.slot(index).unwrap_or(S::ZERO))
            .collect();
        let name = spec.name.to_uppercase();
        // The meaning of each weight is documented once, in its declaration.
        let _ = writeln!(out, "\n/// The default of `{}`.", spec.name);
        match spec.keys {
            Keys::One => {
                let _ = writeln!(out, "pub const {name}: S = {};", pair(slots[0]));
            }
            Keys::RoleSquares => {
                let _ = writeln!(out, "pub const {name}: [[S; 64]; {}] = [", slots.len() / 64);
                for (role, table) in slots.chunks(64).enumerate() {
                    let _ = writeln!(out, "    // {}\n    [", ROLE_NAMES[role]);
                    for (rank, row) in table.chunks(8).enumerate() {
                        let row: Vec<String> = row.iter().map(|&s| pair(s)).collect();
                        let _ = writeln!(out, "        {}, // rank {}", row.join(", "), rank + 1);
                    }
                    out.push_str("    ],\n");
                }
                out.push_str("];\n");
            }
            _ => {
                let all: Vec<String> = slots.iter().map(|&s| pair(s)).collect();
                let _ = writeln!(
                    out,
                    "pub const {name}: [S; {}] = [{}];",
                    slots.len(),
                    all.join(", ")
                );
            }
        }
    }
    out
}

fn pair(s: S) -> String {
    format!("S({}, {})", s.mg(), s.eg())
}
