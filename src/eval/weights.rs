//! Every number the evaluation uses, named and documented, in one [`Weights`] struct.
//!
//! The struct (rather than scattered constants) is what lets a tuner, a config file or a
//! weights-by-name API change the evaluation at run time.

use super::psqt;
use super::score::S;

/// Material values of pawn, knight, bishop, rook, queen and king (index `Role as usize - 1`).
///
/// PeSTO's published values (see [`psqt`] for the source); the king has no material value.
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
    /// Material per piece kind (index `Role as usize - 1`).
    pub material: [S; 6],
    /// Piece-square bonus per piece kind and square, from White's point of view, indexed by
    /// `[Role as usize - 1][square]` with a1 = 0; Black uses the vertically flipped square.
    pub psqt: [[S; 64]; 6],
    /// Phase contribution per piece kind (see [`PHASE_WEIGHT`]).
    pub phase_weight: [i32; 6],
    /// Bonus for owning two or more bishops.
    pub bishop_pair: S,
    /// Bonus for a passed pawn by its rank counted from its own side (index 0 = first rank,
    /// unused; 6 = seventh rank). Added on top of the pawn's piece-square value.
    pub passed_pawn: [S; 8],
    /// Bonus per square a knight, bishop, rook or queen attacks that holds no own piece and
    /// is not attacked by an enemy pawn (index `Role as usize - 1`; pawn and king unused).
    pub mobility: [S; 6],
    /// Bonus for a rook on a file without pawns.
    pub rook_open_file: S,
    /// Bonus for a rook on a file without own pawns but with enemy pawns.
    pub rook_semi_open_file: S,
    /// Bonus for the side to move (it gets to act first).
    pub tempo: S,
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
        }
    }
}
