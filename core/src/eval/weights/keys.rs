//! How the elements of a weight are named after the weight: [`Keys`], and the name lists the
//! families' declarations share (piece kinds, ranks, files, counts).

use shakmaty::Square;

/// Names of the piece kinds as weight keys use them (index
/// [`role_index`](super::role_index)).
///
/// ```
/// assert_eq!(minkowski_core::eval::weights::ROLE_NAMES[1], "knight");
/// ```
pub const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// How the elements of one weight are named after its field name: `material.knight`,
/// `psqt.knight.e4`, `passer_caught`, `passed_pawn.free.safe.rank6`, or the bare name for a single pair. Elements without
/// a key (the king's material, a pawn's king-zone attack, ...) exist in the struct but are structure,
/// not weights: no name reaches them and a tuner leaves them alone.
///
/// ```
/// use minkowski_core::eval::weights::Keys;
/// assert_eq!(Keys::Roles(1, 4).key(2).as_deref(), Some("bishop"));
/// assert_eq!(Keys::Roles(1, 4).key(5), None); // the king: not a weight
/// assert_eq!(Keys::RoleSquares.key(64 + 28).as_deref(), Some("knight.e4"));
/// assert_eq!(Keys::RoleSquares.index("knight.e4"), Some(64 + 28));
/// assert_eq!(Keys::Ranks(1, 6).key(5).as_deref(), Some("rank6"));
/// assert_eq!(Keys::One.key(0).as_deref(), Some(""));
/// let grid = Keys::Grid(&[&["a", "b"], &["", "x", "y"]]);
/// assert_eq!(grid.key(4).as_deref(), Some("b.x"));
/// assert_eq!(grid.key(3), None); // an unnamed element: structure
/// assert_eq!(grid.index("b.y"), Some(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// A single pair, named by the field name alone.
    One,
    /// One pair per piece kind ([`ROLE_NAMES`]); only the kinds `first..=last` are weights.
    Roles(usize, usize),
    /// One pair per piece kind and square (`role * 64 + square`, a1 = 0, from White's side):
    /// `knight.e4`.
    RoleSquares,
    /// One pair per rank counted from the owner's side (index 0 = first rank); only the
    /// indices `first..=last` are weights, named `rank2` for index 1.
    Ranks(usize, usize),
    /// One pair per given name, in index order.
    Names(&'static [&'static str]),
    /// A table of any shape, indexed row-major: one list of names per dimension, outermost
    /// first; an element's key joins its names with dots (`free.safe.rank5`). An element with
    /// an empty name in any dimension is structure, not a weight (a passer on the first rank).
    Grid(&'static [&'static [&'static str]]),
}

/// Rank names for [`Keys::Grid`] tables indexed by rank counted from the owner's side, where
/// the first and last rank cannot hold a pawn (structure, no name).
pub const PAWN_RANKS: &[&str] = &["", "rank2", "rank3", "rank4", "rank5", "rank6", "rank7", ""];

/// The element count of a [`Keys::Grid`] shape (the product of its dimensions).
const fn grid_len(dims: &[&[&str]]) -> usize {
    let mut len = 1;
    let mut i = 0;
    while i < dims.len() {
        len *= dims[i].len();
        i += 1;
    }
    len
}

impl Keys {
    /// The key of element `index` (empty for [`Keys::One`]), or `None` if that element is not
    /// a weight.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Keys;
    /// assert_eq!(Keys::Names(&["near", "far"]).key(1).as_deref(), Some("far"));
    /// assert_eq!(Keys::Ranks(1, 6).key(0), None);
    /// ```
    #[must_use]
    pub fn key(self, index: usize) -> Option<String> {
        match self {
            Keys::One => (index == 0).then(String::new),
            Keys::Roles(first, last) => (first..=last)
                .contains(&index)
                .then(|| ROLE_NAMES[index].to_owned()),
            Keys::RoleSquares => {
                let (role, square) = (index / 64, index % 64);
                let square = Square::new(u32::try_from(square).ok()?);
                ROLE_NAMES.get(role).map(|r| format!("{r}.{square}"))
            }
            Keys::Ranks(first, last) => (first..=last)
                .contains(&index)
                .then(|| format!("rank{}", index + 1)),
            Keys::Names(names) => names.get(index).map(|&n| n.to_owned()),
            Keys::Grid(dims) => {
                if index >= grid_len(dims) {
                    return None;
                }
                let mut parts = Vec::with_capacity(dims.len());
                let mut rest = index;
                for dim in dims.iter().rev() {
                    let name = dim[rest % dim.len()];
                    if name.is_empty() {
                        return None;
                    }
                    parts.push(name);
                    rest /= dim.len();
                }
                parts.reverse();
                Some(parts.join("."))
            }
        }
    }

    /// The element named `key` (the part of a weight name after the field name and its dot;
    /// empty for [`Keys::One`]), if it is a weight.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Keys;
    /// assert_eq!(Keys::Roles(0, 4).index("queen"), Some(4));
    /// assert_eq!(Keys::Roles(0, 4).index("king"), None);
    /// assert_eq!(Keys::Ranks(1, 6).index("rank7"), Some(6));
    /// assert_eq!(Keys::One.index(""), Some(0));
    /// ```
    #[must_use]
    pub fn index(self, key: &str) -> Option<usize> {
        let role = |name: &str| ROLE_NAMES.iter().position(|&r| r == name);
        let index = match self {
            Keys::One => key.is_empty().then_some(0)?,
            Keys::Roles(..) => role(key)?,
            Keys::RoleSquares => {
                let (r, square) = key.split_once('.')?;
                role(r)? * 64 + square.parse::<Square>().ok()? as usize
            }
            Keys::Ranks(..) => key
                .strip_prefix("rank")?
                .parse::<usize>()
                .ok()?
                .checked_sub(1)?,
            Keys::Names(names) => names.iter().position(|&n| n == key)?,
            Keys::Grid(dims) => {
                let parts: Vec<&str> = key.split('.').collect();
                if parts.len() != dims.len() {
                    return None;
                }
                let mut index = 0;
                for (dim, part) in dims.iter().zip(parts) {
                    index = index * dim.len() + dim.iter().position(|&n| n == part)?;
                }
                index
            }
        };
        // Round trip: only an element that is a weight has a key.
        (self.key(index).as_deref() == Some(key)).then_some(index)
    }
}

/// File names folded onto a-d (the h-file counts as the a-file), for [`Keys::Grid`] tables.
pub const FOLDED_FILES: &[&str] = &["file_a", "file_b", "file_c", "file_d"];

/// Counts of mobility tables: `n0` ..= `n27`, the squares a piece reaches ([`Keys::Grid`]
/// names of the queen's table; the others take the first entries).
pub const MOBILITY_COUNTS: &[&str] = &[
    "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11", "n12", "n13", "n14",
    "n15", "n16", "n17", "n18", "n19", "n20", "n21", "n22", "n23", "n24", "n25", "n26", "n27",
];

/// Counts of the knight's mobility table: `n0` ..= `n8`.
pub const KNIGHT_COUNTS: &[&str] = MOBILITY_COUNTS.split_at(9).0;
/// Counts of the bishop's mobility table: `n0` ..= `n13`.
pub const BISHOP_COUNTS: &[&str] = MOBILITY_COUNTS.split_at(14).0;
/// Counts of the rook's mobility table: `n0` ..= `n14`.
pub const ROOK_COUNTS: &[&str] = MOBILITY_COUNTS.split_at(15).0;

/// Distances of king shelter and storm tables: 1 ..= 6 ranks, or `none` (index 7).
pub const SHELTER_DISTANCES: &[&str] = &["", "d1", "d2", "d3", "d4", "d5", "d6", "none"];

/// Closedness buckets of the closedness tables: 0 (open) ..= 8 (locked). Every knight or rook
/// is in exactly one bucket, so a value common to all buckets is the piece's material: a fit
/// may shift between the two without changing any evaluation.
pub const CLOSEDNESS_BUCKETS: &[&str] = &["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
