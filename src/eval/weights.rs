//! Every number the evaluation uses, named and documented, in one [`Weights`] struct.
//!
//! The struct (rather than scattered constants) is what lets a tuner, a config file or a
//! weights-by-name API change the evaluation at run time.

use shakmaty::Role;

use super::psqt;
use super::score::S;

/// Where a piece kind sits in every per-role array (material, piece-square tables, mobility, the
/// search's exchange values): pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5. The one place
/// that turns a [`Role`] into an index.
///
/// ```
/// use minkowski::eval::weights::{MATERIAL, role_index};
/// use shakmaty::Role;
/// assert_eq!(role_index(Role::Pawn), 0);
/// assert_eq!(MATERIAL[role_index(Role::Rook)].eg(), 512);
/// ```
#[must_use]
pub const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Material values of pawn, knight, bishop, rook, queen and king (index [`role_index`]).
///
/// PeSTO's published values (see [`psqt`] for the source); the king has no material value.
///
/// ```
/// use minkowski::eval::weights::{MATERIAL, Weights, role_index};
/// use shakmaty::Role;
/// assert_eq!(MATERIAL[role_index(Role::Rook)].eg(), 512);
/// assert_eq!(Weights::default().material, MATERIAL);
/// ```
pub const MATERIAL: [S; 6] = [
    S(82, 94),
    S(337, 281),
    S(365, 297),
    S(477, 512),
    S(1025, 936),
    S(0, 0),
];

/// Contribution of each piece kind to the game phase (pawn, knight, bishop, rook, queen, king):
/// the usual 1/1/2/4 weighting, so the start position has [`super::score::MAX_PHASE`] = 24.
///
/// ```
/// use minkowski::eval::weights::PHASE_WEIGHT;
/// // 16 pieces in the start position: 4 knights, 4 bishops, 4 rooks, 2 queens.
/// assert_eq!(4 * PHASE_WEIGHT[1] + 4 * PHASE_WEIGHT[2] + 4 * PHASE_WEIGHT[3] + 2 * PHASE_WEIGHT[4], 24);
/// ```
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The evaluation's weights. `Weights::default()` is the engine's built-in evaluation.
///
/// ```
/// use minkowski::eval::weights::Weights;
/// use minkowski::eval::score::S;
/// let w = Weights::default();
/// assert_eq!(w.material[0], S(82, 94)); // a pawn
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Material per piece kind (index [`role_index`]).
    pub material: [S; 6],
    /// Piece-square bonus per piece kind and square, from White's point of view, indexed by
    /// `[role_index(role)][square]` with a1 = 0; Black uses the vertically flipped square.
    pub psqt: [[S; 64]; 6],
    /// Phase contribution per piece kind (see [`PHASE_WEIGHT`]).
    pub phase_weight: [i32; 6],
    /// Bonus for owning two or more bishops.
    pub bishop_pair: S,
    /// Bonus for a passed pawn by its rank counted from its own side (index 0 = first rank,
    /// unused; 6 = seventh rank). Added on top of the pawn's piece-square value.
    pub passed_pawn: [S; 8],
    /// Bonus per square a knight, bishop, rook or queen attacks that holds no own piece and
    /// is not attacked by an enemy pawn (index [`role_index`]; pawn and king unused).
    pub mobility: [S; 6],
    /// Bonus for a rook on a file without pawns.
    pub rook_open_file: S,
    /// Bonus for a rook on a file without own pawns but with enemy pawns.
    pub rook_semi_open_file: S,
    /// Bonus for the side to move (it gets to act first).
    pub tempo: S,
    /// Bonus per square of the enemy king's zone (the king and its neighbours) that a knight,
    /// bishop, rook or queen attacks (index [`role_index`]).
    pub king_zone_attack: [S; 6],
    /// Bonus per own pawn one rank (index 0) and two ranks (index 1) in front of the king, on
    /// its file or a neighbouring one.
    pub pawn_shield: [S; 2],
    /// Added for the strong side when it has mating material against a lone king, so that the
    /// search converts instead of trading down into a draw or shuffling.
    pub known_win: S,
    /// King and pawn against king, when the bitbase says it wins (added to [`Weights::known_win`]
    /// and the pawn): per rank the pawn has advanced (1 on its second rank ..= 6 on its seventh),
    /// so that the search pushes it once the win is safe.
    pub kpk_pawn_advance: S,
    /// Mop-up: per unit of the lone king's Manhattan distance from the centre (0..=6).
    pub mop_up_edge: S,
    /// Mop-up: per unit of closeness of the kings, `14 - manhattan(kings)` (0..=13).
    pub mop_up_close: S,
    /// Mop-up: per unit of king-distance closeness of the kings, `7 - king_distance` (0..=6).
    pub mop_up_king_close: S,
    /// KBNK: per unit of closeness of the lone king to a corner of the bishop's colour,
    /// `14 - manhattan(king, nearest such corner)` (0..=14); dominates the edge term so that
    /// a wrong corner looks worse than the right one.
    pub kbnk_corner: S,
    /// KBNK: per unit of the knight's closeness to the lone king, `6 - knight_distance`
    /// (0..=5): the knight covers the squares of the other colour near the mating corner.
    pub kbnk_knight_close: S,
    /// Mop-up with bishop and knight: per square next to the lone king that it may still step
    /// to (negative: squeezing it is progress).
    pub mop_up_king_freedom: S,
    /// A passed pawn that neither the defending king (rule of the square) nor the defending
    /// knights (knight fill against its path) can catch: worth nearly a piece.
    pub passer_unstoppable: S,
    /// A passed pawn that the defence catches in time, in a knights-against-pawns ending.
    pub passer_caught: S,
    /// The side to move has a knight move to a fork square (two valuable targets) where the
    /// fork keeps its gain: the knight cannot be taken there at a loss
    /// ([`super::tactics::knight_fork_moves`]).
    pub fork_now: S,
    /// The side not to move threatens such a knight fork.
    pub fork_threat: S,
}

impl Default for Weights {
    fn default() -> Weights {
        let mut table = [[S::ZERO; 64]; 6];
        for (role, t) in table.iter_mut().enumerate() {
            for (sq, entry) in t.iter_mut().enumerate() {
                *entry = psqt::TABLES[role][psqt::pesto_index(sq)];
            }
        }
        Weights {
            material: MATERIAL,
            psqt: table,
            phase_weight: PHASE_WEIGHT,
            bishop_pair: S(30, 50),
            passed_pawn: [
                S(0, 0),
                S(0, 5),
                S(0, 10),
                S(5, 20),
                S(15, 35),
                S(25, 60),
                S(40, 90),
                S(0, 0),
            ],
            mobility: [S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)],
            rook_open_file: S(25, 10),
            rook_semi_open_file: S(12, 8),
            tempo: S(12, 6),
            king_zone_attack: [S(0, 0), S(8, 0), S(6, 0), S(7, 0), S(10, 0), S(0, 0)],
            pawn_shield: [S(12, 0), S(6, 0)],
            known_win: S(10_000, 10_000),
            kpk_pawn_advance: S(20, 20),
            mop_up_edge: S(20, 20),
            mop_up_close: S(16, 16),
            mop_up_king_close: S(12, 12),
            kbnk_corner: S(100, 100),
            kbnk_knight_close: S(6, 6),
            mop_up_king_freedom: S(-15, -15),
            passer_unstoppable: S(0, 250),
            passer_caught: S(0, -25),
            fork_now: S(40, 40),
            fork_threat: S(8, 8),
        }
    }
}

/// Names of the piece kinds as weights use them (index [`role_index`]).
const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// A weight name that [`Weights`] does not have.
///
/// ```
/// use minkowski::eval::{score::S, weights::{UnknownWeight, Weights}};
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

impl Weights {
    /// Call `f` with every tunable weight and its name: `material.knight`, `psqt.knight.e4`,
    /// `passed_pawn.rank6`, `mobility.rook`, `king_zone_attack.queen`, `pawn_shield.near`,
    /// `bishop_pair`, `kbnk_corner`, ... (the phase weights are structure, not tunable).
    ///
    /// ```
    /// use minkowski::eval::weights::Weights;
    /// let mut w = Weights::default();
    /// let mut names = Vec::new();
    /// w.for_each_mut(|name, _| names.push(name.to_owned()));
    /// assert!(names.iter().any(|n| n == "psqt.knight.e4"));
    /// assert!(names.iter().any(|n| n == "kbnk_corner"));
    /// ```
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&str, &mut S)) {
        for (r, role) in ROLE_NAMES.iter().enumerate().take(5) {
            f(&format!("material.{role}"), &mut self.material[r]);
        }
        for (r, role) in ROLE_NAMES.iter().enumerate() {
            for (sq, s) in self.psqt[r].iter_mut().enumerate() {
                let square = shakmaty::Square::new(sq as u32);
                f(&format!("psqt.{role}.{square}"), s);
            }
        }
        for (rank, s) in self.passed_pawn.iter_mut().enumerate().skip(1).take(6) {
            f(&format!("passed_pawn.rank{}", rank + 1), s);
        }
        for (r, role) in ROLE_NAMES.iter().enumerate().take(5).skip(1) {
            f(&format!("mobility.{role}"), &mut self.mobility[r]);
            f(
                &format!("king_zone_attack.{role}"),
                &mut self.king_zone_attack[r],
            );
        }
        f("pawn_shield.near", &mut self.pawn_shield[0]);
        f("pawn_shield.far", &mut self.pawn_shield[1]);
        let named: [(&str, &mut S); 16] = [
            ("bishop_pair", &mut self.bishop_pair),
            ("rook_open_file", &mut self.rook_open_file),
            ("rook_semi_open_file", &mut self.rook_semi_open_file),
            ("tempo", &mut self.tempo),
            ("known_win", &mut self.known_win),
            ("kpk_pawn_advance", &mut self.kpk_pawn_advance),
            ("mop_up_edge", &mut self.mop_up_edge),
            ("mop_up_close", &mut self.mop_up_close),
            ("mop_up_king_close", &mut self.mop_up_king_close),
            ("kbnk_corner", &mut self.kbnk_corner),
            ("kbnk_knight_close", &mut self.kbnk_knight_close),
            ("mop_up_king_freedom", &mut self.mop_up_king_freedom),
            ("passer_unstoppable", &mut self.passer_unstoppable),
            ("passer_caught", &mut self.passer_caught),
            ("fork_now", &mut self.fork_now),
            ("fork_threat", &mut self.fork_threat),
        ];
        for (name, s) in named {
            f(name, s);
        }
    }

    /// Every weight name, in [`Weights::for_each_mut`] order.
    ///
    /// ```
    /// let names = minkowski::eval::weights::Weights::names();
    /// assert!(names.contains(&"fork_now".to_owned()));
    /// ```
    #[must_use]
    pub fn names() -> Vec<String> {
        let mut names = Vec::new();
        Weights::default().for_each_mut(|name, _| names.push(name.to_owned()));
        names
    }

    /// The weight called `name`, if there is one.
    ///
    /// ```
    /// use minkowski::eval::{weights::Weights, score::S};
    /// assert_eq!(Weights::default().get("material.pawn"), Some(S(82, 94)));
    /// assert_eq!(Weights::default().get("material.dragon"), None);
    /// ```
    #[must_use]
    pub fn get(&self, name: &str) -> Option<S> {
        let mut copy = self.clone();
        let mut found = None;
        copy.for_each_mut(|n, s| {
            if n == name {
                found = Some(*s);
            }
        });
        found
    }

    /// Set the weight called `name` (e.g. from engine.toml's `[eval]` table).
    ///
    /// ```
    /// use minkowski::eval::{weights::Weights, score::S};
    /// let mut w = Weights::default();
    /// w.set("kbnk_corner", S(30, 30)).unwrap();
    /// assert_eq!(w.kbnk_corner, S(30, 30));
    /// assert!(w.set("no_such_weight", S(1, 1)).is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: S) -> Result<(), UnknownWeight> {
        let mut found = false;
        self.for_each_mut(|n, s| {
            if n == name {
                *s = value;
                found = true;
            }
        });
        if found {
            Ok(())
        } else {
            Err(UnknownWeight(name.to_owned()))
        }
    }
}
