//! Which weights a tuning run may change: all of them, or those whose names match glob patterns
//! (`mop_up_*`, `psqt.knight.*`, `material.?ook`). The sizes of rule verdicts
//! ([`RULE_WEIGHTS`]) are left alone unless a pattern names one exactly.

use crate::eval::weights::Weights;

/// Whether `name` matches the glob `pattern`: `*` stands for any run of characters (dots
/// included), `?` for one character, anything else for itself.
///
/// ```
/// use minkowski::tune::glob_match;
/// assert!(glob_match("mop_up_*", "mop_up_edge"));
/// assert!(glob_match("psqt.knight.*", "psqt.knight.e4"));
/// assert!(glob_match("*.e4", "psqt.queen.e4"));
/// assert!(glob_match("material.?ook", "material.rook"));
/// assert!(!glob_match("psqt.knight.*", "psqt.bishop.e4"));
/// assert!(!glob_match("tempo", "tempo2"));
/// ```
#[must_use]
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Greedy matching with backtracking to the last `*`: linear in practice.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
            }
            Some(&c) if c == '?' || c == n[ni] => {
                pi += 1;
                ni += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Weights that size the verdict of an exact or table-checked rule, not a statistic of games: the
/// knight-against-passer race's "the pawn runs through" and "it is caught"
/// ([`PASSER_UNSTOPPABLE`](crate::eval::endgame::PASSER_UNSTOPPABLE), [`PASSER_CAUGHT`](crate::eval::endgame::PASSER_CAUGHT)), whose sign must say what the
/// rule decided (checked against the KNvKP tables in
/// `tests/integration/knight_vs_passer_tables.rs`). Self-play data holds few such endings and the
/// fit moves these weights on noise (the fitted pair once read those endings worse than the hand
/// pair), so [`Selection::all`] and wildcard patterns leave them out; a pattern equal to the name
/// still selects one, on purpose.
///
/// ```
/// use minkowski::tune::{RULE_WEIGHTS, Selection};
/// use minkowski::eval::weights::Weights;
/// let rule = Weights::index_of(RULE_WEIGHTS[0]).unwrap();
/// assert!(!Selection::all().contains(rule));
/// assert!(!Selection::matching(&["pass*"]).unwrap().contains(rule)); // passed_pawn, ... only
/// assert!(Selection::matching(&[RULE_WEIGHTS[0]]).unwrap().contains(rule));
/// ```
pub const RULE_WEIGHTS: &[&str] = &["passer_unstoppable", "passer_caught"];

/// Whether a pattern selects weight `name`: it matches, and a rule weight only by its exact name.
fn selects(pattern: &str, name: &str) -> bool {
    if RULE_WEIGHTS.contains(&name) {
        pattern == name
    } else {
        glob_match(pattern, name)
    }
}

/// The set of flat indices a run tunes: named weights only (structure such as the king's
/// material never moves), and the [`RULE_WEIGHTS`] only when named exactly.
///
/// ```
/// use minkowski::tune::Selection;
/// use minkowski::eval::weights::Weights;
/// let all = Selection::all();
/// assert_eq!(all.len(), Weights::names().len() - minkowski::tune::RULE_WEIGHTS.len());
/// let knights = Selection::matching(&["psqt.knight.*", "material.knight"]).unwrap();
/// assert_eq!(knights.len(), 65);
/// assert!(knights.contains(Weights::index_of("psqt.knight.e4").unwrap()));
/// assert!(!knights.contains(Weights::index_of("psqt.bishop.e4").unwrap()));
/// assert_eq!(Selection::matching(&["knight"]).unwrap_err(), "knight");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    tuned: Vec<bool>,
}

impl Selection {
    /// Every named weight but the [`RULE_WEIGHTS`].
    #[must_use]
    pub fn all() -> Selection {
        Selection {
            tuned: (0..Weights::COUNT)
                .map(|i| Weights::name_of(i).is_some_and(|n| !RULE_WEIGHTS.contains(&n.as_str())))
                .collect(),
        }
    }

    /// The named weights that match at least one of `patterns` ([`glob_match`]); a rule weight
    /// ([`RULE_WEIGHTS`]) only by its exact name.
    ///
    /// # Errors
    ///
    /// The first pattern that matches no weight name (a typo would otherwise tune nothing).
    pub fn matching<S: AsRef<str>>(patterns: &[S]) -> Result<Selection, String> {
        let names: Vec<Option<String>> = (0..Weights::COUNT).map(Weights::name_of).collect();
        let mut tuned = vec![false; Weights::COUNT];
        for pattern in patterns {
            let pattern = pattern.as_ref();
            let mut any = false;
            for (t, name) in tuned.iter_mut().zip(&names) {
                if name.as_deref().is_some_and(|n| selects(pattern, n)) {
                    *t = true;
                    any = true;
                }
            }
            if !any {
                return Err(pattern.to_owned());
            }
        }
        Ok(Selection { tuned })
    }

    /// Whether flat index `index` is tuned.
    #[must_use]
    pub fn contains(&self, index: usize) -> bool {
        self.tuned.get(index).copied().unwrap_or(false)
    }

    /// How many weights are tuned.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tuned.iter().filter(|&&t| t).count()
    }

    /// Whether no weight is tuned.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
