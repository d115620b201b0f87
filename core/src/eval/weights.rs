//! Every number the evaluation uses, named and documented, in one [`Weights`] struct.
//!
//! The struct (rather than scattered constants) is what lets a tuner, a config file or a
//! weights-by-name API change the evaluation at run time. Each weight is declared once, by its
//! family, in the file of the terms that use it (a `*_weights!` macro near the top of
//! `pawns.rs`, `passers.rs`, `king.rs`, `mobility.rs`, `threats.rs`, `pieces.rs`, `scale.rs`,
//! `endgame/mod.rs`; the base — material, piece squares, tempo and the pieces pass of
//! `eval/mod.rs` — here): its field, doc, default (read from [`defaults`], which the tuner
//! writes), element names ([`Keys`]), range and trace row. The `declare_weights!` invocation
//! below gathers the families; the struct, its `Default`, [`Field`], [`SPECS`], the names that
//! [`Weights::get`]/[`Weights::set`] and engine.toml's `[eval]` table use, and the flat index of
//! the coefficient trace ([`super::trace::Coefficients`]) all come from it. Adding a term means
//! its code and its entry in its family's file, and its default in [`defaults`].

mod declare;
/// The default of every weight, as `minkowski tune --rust` writes it: a fit's output copied over
/// this file makes it the engine's defaults. The header says which run produced the numbers.
/// Weights a fit does not touch (the endgame verdicts' mop-up, KBNK and KPK terms, whose
/// positions the tuner leaves out) pass through it unchanged from their hand values.
#[rustfmt::skip]
pub mod defaults;

use shakmaty::Role;

pub use declare::{Keys, PAWN_RANKS, ROLE_NAMES, Slots, WeightSpec};

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

use super::endgame::endgame_weights;
use super::king::king_weights;
use super::mobility::mobility_weights;
use super::passers::passer_weights;
use super::pawns::pawn_weights;
use super::pieces::piece_placement_weights;
use super::scale::drawishness_weights;
use super::score::S;
use super::threats::threat_weights;
use super::trace::Term;
use declare::declare_weights;

/// Where a piece kind sits in every per-role array (material, piece-square tables, king-zone attacks, the
/// search's exchange values): pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5. The one place
/// that turns a [`Role`] into an index.
///
/// ```
/// use minkowski_core::eval::weights::{MATERIAL, role_index};
/// use shakmaty::Role;
/// assert_eq!(role_index(Role::Pawn), 0);
/// assert!(MATERIAL[role_index(Role::Rook)].eg() > MATERIAL[role_index(Role::Bishop)].eg());
/// ```
#[must_use]
pub const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Material values of pawn, knight, bishop, rook, queen and king (index [`role_index`]), as
/// fitted (see [`defaults`]); the king has no material value.
///
/// ```
/// use minkowski_core::eval::weights::{MATERIAL, Weights, role_index};
/// use shakmaty::Role;
/// assert!(MATERIAL[role_index(Role::Rook)].eg() > MATERIAL[role_index(Role::Knight)].eg());
/// assert_eq!(MATERIAL[role_index(Role::King)].eg(), 0);
/// assert_eq!(Weights::default().material, MATERIAL);
/// ```
pub const MATERIAL: [S; 6] = defaults::MATERIAL;

/// Contribution of each piece kind to the game phase (pawn, knight, bishop, rook, queen, king):
/// the usual 1/1/2/4 weighting, so the start position has [`super::score::MAX_PHASE`] = 24.
///
/// ```
/// use minkowski_core::eval::weights::PHASE_WEIGHT;
/// // 16 pieces in the start position: 4 knights, 4 bishops, 4 rooks, 2 queens.
/// assert_eq!(4 * PHASE_WEIGHT[1] + 4 * PHASE_WEIGHT[2] + 4 * PHASE_WEIGHT[3] + 2 * PHASE_WEIGHT[4], 24);
/// ```
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The piece-square tables as fitted (see [`defaults`]), indexed for [`Weights::psqt`]:
/// `[role][square]` with a1 = 0, from White's side. A pawn never stands on the first or last
/// rank, so those entries are zero (no data reaches them).
///
/// ```
/// use minkowski_core::eval::weights::{PSQT, Weights, role_index};
/// use shakmaty::{Role, Square};
/// assert_eq!(PSQT[role_index(Role::Pawn)][Square::E1 as usize].mg(), 0);
/// assert_eq!(Weights::default().psqt, PSQT);
/// ```
pub const PSQT: [[S; 64]; 6] = defaults::PSQT;

/// This family's entries in the one weight table: the base of the evaluation — material, piece
/// squares, the side to move, and the piece terms of `eval/mod.rs`'s pieces pass (king-zone
/// attacks, pawn shield, bishop pair, rook files). `weights.rs` gathers every family's entries into
/// [`Weights`](crate::eval::weights::Weights) (the shape of an entry: `declare_weights!` in
/// `weights/declare.rs`); the names the entries use (`defaults`, `Keys`, the key lists) are read
/// there.
macro_rules! core_weights {
    ($declare:ident! { $($gathered:tt)* }) => {
        $declare! { $($gathered)*
            /// Material per piece kind (index [`role_index`]); the king's is structure (no name).
            Material material: [S; 6] = defaults::MATERIAL,
                keys Keys::Roles(0, 4), range -1000..=3000, term Material;
            /// Piece-square bonus per piece kind and square, from White's point of view, indexed by
            /// `[role_index(role)][square]` with a1 = 0; Black uses the vertically flipped square.
            Psqt psqt: [[S; 64]; 6] = defaults::PSQT,
                keys Keys::RoleSquares, range -500..=500, term Psqt;
            /// Bonus per square of the enemy king's zone (the king and its neighbours) that a
            /// knight, bishop, rook or queen attacks (index [`role_index`]).
            KingZoneAttack king_zone_attack: [S; 6] = defaults::KING_ZONE_ATTACK,
                keys Keys::Roles(1, 4), range -100..=200, term KingSafety;
            /// Bonus per own pawn one rank (index 0) and two ranks (index 1) in front of the king,
            /// on its file or a neighbouring one.
            PawnShield pawn_shield: [S; 2] = defaults::PAWN_SHIELD,
                keys Keys::Names(&["near", "far"]), range -100..=200, term KingSafety;
            /// Bonus for owning two or more bishops.
            BishopPair bishop_pair: S = defaults::BISHOP_PAIR,
                keys Keys::One, range -200..=300, term BishopPair;
            /// Bonus for a rook on a file without pawns.
            RookOpenFile rook_open_file: S = defaults::ROOK_OPEN_FILE,
                keys Keys::One, range -200..=300, term RookFiles;
            /// Bonus for a rook on a file without own pawns but with enemy pawns.
            RookSemiOpenFile rook_semi_open_file: S = defaults::ROOK_SEMI_OPEN_FILE,
                keys Keys::One, range -200..=300, term RookFiles;
            /// Bonus for the side to move (it gets to act first).
            Tempo tempo: S = defaults::TEMPO,
                keys Keys::One, range -100..=100, term Tempo;
        }
    };
}

// The one declaration of every weight, gathered from the families: each family's file declares
// its own entries (field, doc, default, element names, range, trace row) in a `*_weights!`
// macro, and this invocation collects them, in this order, into `Weights`, `Field` and `SPECS`.
// Names are `field` or `field.key` (see `Keys`); the range bounds both halves.
declare_weights! {
    fixed {
        /// Phase contribution per piece kind (see [`PHASE_WEIGHT`]): structure, not a weight.
        phase_weight: [i32; 6] = PHASE_WEIGHT;
    }
    families [
        core_weights,
        pawn_weights,
        passer_weights,
        king_weights,
        mobility_weights,
        threat_weights,
        piece_placement_weights,
        drawishness_weights,
        endgame_weights,
    ]
}

/// A weight name that [`Weights`] does not have.
///
/// ```
/// use minkowski_core::eval::{score::S, weights::{UnknownWeight, Weights}};
/// let err = Weights::default().set("material.dragon", S(1, 1)).unwrap_err();
/// assert_eq!(err, UnknownWeight("material.dragon".to_owned()));
/// assert_eq!(err.to_string(), "unknown evaluation weight \"material.dragon\"");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWeight(pub String);

impl std::fmt::Display for UnknownWeight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown evaluation weight {:?}", self.0)
    }
}

impl std::error::Error for UnknownWeight {}

impl Field {
    /// What the table says about this field.
    ///
    /// ```
    /// use minkowski_core::eval::weights::Field;
    /// assert_eq!(Field::KbnkCorner.spec().name, "kbnk_corner");
    /// assert!(Field::Tempo.spec().range.contains(&12));
    /// ```
    #[must_use]
    pub const fn spec(self) -> &'static WeightSpec {
        &SPECS[self as usize]
    }

    /// The flat index (see [`Weights::COUNT`]) of element `index` of this field.
    ///
    /// ```
    /// use minkowski_core::eval::weights::{Field, Weights};
    /// assert_eq!(Field::Material.index(0), 0);
    /// assert_eq!(Weights::index_of("material.rook"), Some(Field::Material.index(3)));
    /// ```
    #[must_use]
    pub const fn index(self, index: usize) -> usize {
        OFFSETS[self as usize] + index
    }
}

impl Weights {
    /// How many `S` pairs all weights hold together: the length of the flat vector that
    /// [`Weights::slot`], [`Weights::index_of`] and the coefficient trace index. Elements
    /// without a name (the king's material, ...) are included; [`Weights::name_of`] tells them
    /// apart.
    ///
    /// ```
    /// use minkowski_core::eval::weights::{SPECS, Weights};
    /// // Every field's pairs, named or not.
    /// assert_eq!(Weights::COUNT, SPECS.iter().map(|s| s.len).sum::<usize>());
    /// // Of those, the named ones are the weights.
    /// let named = (0..Weights::COUNT).filter(|&i| Weights::name_of(i).is_some()).count();
    /// assert_eq!(Weights::names().len(), named);
    /// assert!(named < Weights::COUNT); // the king's material, a pawn's king-zone attack, ...
    /// ```
    pub const COUNT: usize = OFFSETS[Field::ALL.len() - 1] + LENS[Field::ALL.len() - 1];

    /// The field and element of flat index `index`, if it is below [`Weights::COUNT`].
    ///
    /// ```
    /// use minkowski_core::eval::weights::{Field, Weights};
    /// assert_eq!(Weights::locate(Field::Psqt.index(70)), Some((Field::Psqt, 70)));
    /// assert_eq!(Weights::locate(Weights::COUNT), None);
    /// ```
    #[must_use]
    pub fn locate(index: usize) -> Option<(Field, usize)> {
        let field = *Field::ALL.iter().rev().find(|f| f.spec().offset <= index)?;
        let element = index - field.spec().offset;
        (element < field.spec().len).then_some((field, element))
    }

    /// The name of flat index `index`: `material.knight`, `psqt.knight.e4`, `tempo`, ...; `None`
    /// for elements that are structure rather than weights, and past [`Weights::COUNT`].
    ///
    /// ```
    /// use minkowski_core::eval::weights::{Field, Weights};
    /// assert_eq!(Weights::name_of(Field::MobilityRook.index(3)).as_deref(), Some("mobility_rook.n3"));
    /// assert_eq!(Weights::name_of(Field::KingZoneAttack.index(0)), None); // a pawn's attack
    /// ```
    #[must_use]
    pub fn name_of(index: usize) -> Option<String> {
        let (field, element) = Weights::locate(index)?;
        let spec = field.spec();
        let key = spec.keys.key(element)?;
        Some(if key.is_empty() {
            spec.name.to_owned()
        } else {
            format!("{}.{key}", spec.name)
        })
    }

    /// The flat index of the weight called `name`, if there is one.
    ///
    /// ```
    /// use minkowski_core::eval::weights::{Field, Weights};
    /// assert_eq!(Weights::index_of("kbnk_corner"), Some(Field::KbnkCorner.index(0)));
    /// assert_eq!(Weights::index_of("psqt.pawn.a1"), Some(Field::Psqt.index(0)));
    /// assert_eq!(Weights::index_of("material.king"), None); // structure, not a weight
    /// assert_eq!(Weights::index_of("material"), None);
    /// ```
    #[must_use]
    pub fn index_of(name: &str) -> Option<usize> {
        let (base, key) = name.split_once('.').unwrap_or((name, ""));
        let field = *Field::ALL.iter().find(|f| f.spec().name == base)?;
        Some(field.index(field.spec().keys.index(key)?))
    }

    /// The pair at flat index `index`, named or not.
    ///
    /// ```
    /// use minkowski_core::eval::weights::{Field, Weights};
    /// let w = Weights::default();
    /// assert_eq!(w.slot(Field::Tempo.index(0)), Some(w.tempo));
    /// assert_eq!(w.slot(Weights::COUNT), None);
    /// ```
    #[must_use]
    pub fn slot(&self, index: usize) -> Option<S> {
        let (field, element) = Weights::locate(index)?;
        self.slots(field).get(element).copied()
    }

    /// The pair at flat index `index`, mutable.
    ///
    /// ```
    /// use minkowski_core::eval::{score::S, weights::{Field, Weights}};
    /// let mut w = Weights::default();
    /// *w.slot_mut(Field::ForkNow.index(0)).unwrap() = S(50, 50);
    /// assert_eq!(w.fork_now, S(50, 50));
    /// ```
    #[must_use]
    pub fn slot_mut(&mut self, index: usize) -> Option<&mut S> {
        let (field, element) = Weights::locate(index)?;
        self.slots_mut(field).get_mut(element)
    }

    /// Call `f` with every weight and its name, in flat order: `material.knight`,
    /// `psqt.knight.e4`, `passed_pawn.free.safe.rank6`, `mobility_rook.n7`, `king_zone_attack.queen`,
    /// `pawn_shield.near`, `bishop_pair`, `kbnk_corner`, ... (structure is left out).
    ///
    /// ```
    /// use minkowski_core::eval::weights::Weights;
    /// let mut w = Weights::default();
    /// let mut names = Vec::new();
    /// w.for_each_mut(|name, _| names.push(name.to_owned()));
    /// assert!(names.iter().any(|n| n == "psqt.knight.e4"));
    /// assert!(names.iter().any(|n| n == "kbnk_corner"));
    /// ```
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&str, &mut S)) {
        for &field in Field::ALL {
            let spec = field.spec();
            for (element, s) in self.slots_mut(field).iter_mut().enumerate() {
                if let Some(name) = Weights::name_of(spec.offset + element) {
                    f(&name, s);
                }
            }
        }
    }

    /// Every weight name, in flat order ([`Weights::for_each_mut`]).
    ///
    /// ```
    /// let names = minkowski_core::eval::weights::Weights::names();
    /// assert!(names.contains(&"fork_now".to_owned()));
    /// ```
    #[must_use]
    pub fn names() -> Vec<String> {
        (0..Weights::COUNT).filter_map(Weights::name_of).collect()
    }

    /// The weight called `name`, if there is one.
    ///
    /// ```
    /// use minkowski_core::eval::weights::{MATERIAL, Weights};
    /// assert_eq!(Weights::default().get("material.pawn"), Some(MATERIAL[0]));
    /// assert_eq!(Weights::default().get("material.dragon"), None);
    /// ```
    #[must_use]
    pub fn get(&self, name: &str) -> Option<S> {
        self.slot(Weights::index_of(name)?)
    }

    /// Set the weight called `name` (e.g. from engine.toml's `[eval]` table). Its range is not
    /// checked here (engine.toml checks it).
    ///
    /// ```
    /// use minkowski_core::eval::{weights::Weights, score::S};
    /// let mut w = Weights::default();
    /// w.set("kbnk_corner", S(30, 30)).unwrap();
    /// assert_eq!(w.kbnk_corner, S(30, 30));
    /// assert!(w.set("no_such_weight", S(1, 1)).is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: S) -> Result<(), UnknownWeight> {
        let slot = Weights::index_of(name).and_then(|i| self.slot_mut(i));
        match slot {
            Some(s) => {
                *s = value;
                Ok(())
            }
            None => Err(UnknownWeight(name.to_owned())),
        }
    }
}
