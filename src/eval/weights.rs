//! Every number the evaluation uses, named and documented, in one [`Weights`] struct.
//!
//! The struct (rather than scattered constants) is what lets a tuner, a config file or a
//! weights-by-name API change the evaluation at run time. Each weight is declared once, in the
//! `declare_weights!` table below: its field, doc, default (read from [`defaults`], which the
//! tuner writes), element names ([`Keys`]), range and trace row. The struct, its `Default`,
//! [`Field`], [`SPECS`], the names that [`Weights::get`]/[`Weights::set`] and engine.toml's
//! `[eval]` table use, and the flat index of the coefficient trace
//! ([`super::trace::Coefficients`]) all come from that table.

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

use super::score::S;
use super::trace::Term;
use declare::declare_weights;

/// Where a piece kind sits in every per-role array (material, piece-square tables, king-zone attacks, the
/// search's exchange values): pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5. The one place
/// that turns a [`Role`] into an index.
///
/// ```
/// use minkowski::eval::weights::{MATERIAL, role_index};
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
/// use minkowski::eval::weights::{MATERIAL, Weights, role_index};
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
/// use minkowski::eval::weights::PHASE_WEIGHT;
/// // 16 pieces in the start position: 4 knights, 4 bishops, 4 rooks, 2 queens.
/// assert_eq!(4 * PHASE_WEIGHT[1] + 4 * PHASE_WEIGHT[2] + 4 * PHASE_WEIGHT[3] + 2 * PHASE_WEIGHT[4], 24);
/// ```
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The piece-square tables as fitted (see [`defaults`]), indexed for [`Weights::psqt`]:
/// `[role][square]` with a1 = 0, from White's side. A pawn never stands on the first or last
/// rank, so those entries are zero (no data reaches them).
///
/// ```
/// use minkowski::eval::weights::{PSQT, Weights, role_index};
/// use shakmaty::{Role, Square};
/// assert_eq!(PSQT[role_index(Role::Pawn)][Square::E1 as usize].mg(), 0);
/// assert_eq!(Weights::default().psqt, PSQT);
/// ```
pub const PSQT: [[S; 64]; 6] = defaults::PSQT;

// The one declaration of every weight: its field (with its doc), default, element names, range
// and trace row. Names are `field` or `field.key` (see `Keys`); the range bounds both halves.
declare_weights! {
    fixed {
        /// Phase contribution per piece kind (see [`PHASE_WEIGHT`]): structure, not a weight.
        phase_weight: [i32; 6] = PHASE_WEIGHT;
    }
    /// Material per piece kind (index [`role_index`]); the king's is structure (no name).
    Material material: [S; 6] = defaults::MATERIAL,
        keys Keys::Roles(0, 4), range -1000..=3000, term Material;
    /// Piece-square bonus per piece kind and square, from White's point of view, indexed by
    /// `[role_index(role)][square]` with a1 = 0; Black uses the vertically flipped square.
    Psqt psqt: [[S; 64]; 6] = defaults::PSQT,
        keys Keys::RoleSquares, range -500..=500, term Psqt;
    /// Bonus for a passed pawn, on top of its piece-square value, by whether the square in
    /// front of it is empty (`free`) and not attacked by the enemy (`safe`), and by its rank
    /// counted from its own side: index `free × 16 + safe × 8 + rank` ([`super::passers`]).
    PassedPawn passed_pawn: [S; 32] = defaults::PASSED_PAWN,
        keys Keys::Grid(&[&["blocked", "free"], &["unsafe", "safe"], PAWN_RANKS]),
        range -200..=600, term PassedPawns;
    /// Per square of king distance (Chebyshev) from the passer's own king (`own`) or the enemy
    /// king (`enemy`) to the square in front of the passer, by the passer's rank: index
    /// `enemy × 8 + rank`. Near its own king and far from the enemy's, a passer runs.
    PassedKingDistance passed_king_distance: [S; 16] = defaults::PASSED_KING_DISTANCE,
        keys Keys::Grid(&[&["own", "enemy"], PAWN_RANKS]), range -100..=100, term PassedPawns;
    /// A passed pawn whose whole way to promotion holds no enemy piece and no square the enemy
    /// attacks.
    PassedSafePath passed_safe_path: S = defaults::PASSED_SAFE_PATH,
        keys Keys::One, range -200..=400, term PassedPawns;
    /// A passed pawn with another own pawn in front of it on its file, by its rank.
    PassedStacked passed_stacked: [S; 8] = defaults::PASSED_STACKED,
        keys Keys::Grid(&[PAWN_RANKS]), range -200..=200, term PassedPawns;
    /// A passer that the enemy king cannot catch (the rule of the square) when the enemy has
    /// only king and pawns, with nothing in front of it, while the enemy has no such passer:
    /// nearly a queen.
    PassedUnstoppable passed_unstoppable: S = defaults::PASSED_UNSTOPPABLE,
        keys Keys::One, range 0..=1000, term PassedPawns;
    /// An isolated pawn: no own pawn on a neighbouring file, and no capture by an own pawn onto
    /// a neighbouring file that could give it one ([`super::pawns`]).
    PawnIsolated pawn_isolated: S = defaults::PAWN_ISOLATED,
        keys Keys::One, range -200..=100, term PawnStructure;
    /// A pawn with another own pawn in front of it on its file, by whether a pawn of that file
    /// can capture (and so unstack) now: index 0 `stuck`, 1 `can_unstack`.
    PawnStacked pawn_stacked: [S; 2] = defaults::PAWN_STACKED,
        keys Keys::Names(&["stuck", "can_unstack"]), range -200..=100, term PawnStructure;
    /// A backward pawn (its neighbours are all in front of it and an enemy pawn guards the
    /// square in front of it), by whether an enemy pawn stands in front of it on its file and
    /// by its rank: index `opposed × 8 + rank`.
    PawnBackward pawn_backward: [S; 16] = defaults::PAWN_BACKWARD,
        keys Keys::Grid(&[&["unopposed", "opposed"], PAWN_RANKS]), range -200..=100,
        term PawnStructure;
    /// A connected pawn (an own pawn beside it or guarding it), by its rank.
    PawnConnected pawn_connected: [S; 8] = defaults::PAWN_CONNECTED,
        keys Keys::Grid(&[PAWN_RANKS]), range -100..=300, term PawnStructure;
    /// A candidate passer: not passed, no enemy pawn in front of it on its file, and at least
    /// as many own pawns beside or behind it on the neighbouring files as enemy pawns that
    /// guard its way; by its rank.
    PawnCandidate pawn_candidate: [S; 8] = defaults::PAWN_CANDIDATE,
        keys Keys::Grid(&[PAWN_RANKS]), range -100..=300, term PawnStructure;
    /// Knight mobility by the number of squares of its mobility area it attacks (`n0` ..=
    /// `n8`): not attacked by an enemy pawn, not the own king, not an own blocked pawn
    /// ([`super::mobility`]).
    MobilityKnight mobility_knight: [S; 9] = defaults::MOBILITY_KNIGHT,
        keys Keys::Grid(&[KNIGHT_COUNTS]), range -300..=300, term Mobility;
    /// Bishop mobility by count (`n0` ..= `n13`), seeing through its own bishops and queens.
    MobilityBishop mobility_bishop: [S; 14] = defaults::MOBILITY_BISHOP,
        keys Keys::Grid(&[BISHOP_COUNTS]), range -300..=300, term Mobility;
    /// Rook mobility by count (`n0` ..= `n14`), seeing through its own rooks and queens.
    MobilityRook mobility_rook: [S; 15] = defaults::MOBILITY_ROOK,
        keys Keys::Grid(&[ROOK_COUNTS]), range -300..=300, term Mobility;
    /// Queen mobility by count (`n0` ..= `n27`).
    MobilityQueen mobility_queen: [S; 28] = defaults::MOBILITY_QUEEN,
        keys Keys::Grid(&[MOBILITY_COUNTS]), range -300..=300, term Mobility;
    /// Per own pawn that enemy pieces win: not attacked by an enemy pawn, and poorly defended
    /// (attacked and not defended, or attacked twice and defended at most once, by no pawn;
    /// [`super::threats`]).
    ThreatWeakPawn threat_weak_pawn: S = defaults::THREAT_WEAK_PAWN,
        keys Keys::One, range -300..=300, term Threats;
    /// Per own knight or bishop attacked by an enemy pawn.
    ThreatMinorByPawn threat_minor_by_pawn: S = defaults::THREAT_MINOR_BY_PAWN,
        keys Keys::One, range -300..=300, term Threats;
    /// Per own knight or bishop attacked by an enemy knight or bishop.
    ThreatMinorByMinor threat_minor_by_minor: S = defaults::THREAT_MINOR_BY_MINOR,
        keys Keys::One, range -300..=300, term Threats;
    /// Per own knight or bishop attacked by an enemy rook or queen and poorly defended.
    ThreatMinorByMajor threat_minor_by_major: S = defaults::THREAT_MINOR_BY_MAJOR,
        keys Keys::One, range -300..=300, term Threats;
    /// Per own rook attacked by an enemy pawn, knight or bishop.
    ThreatRookByLesser threat_rook_by_lesser: S = defaults::THREAT_ROOK_BY_LESSER,
        keys Keys::One, range -300..=300, term Threats;
    /// Per own poorly defended knight or bishop (`minor`) or rook (`rook`) that the enemy king
    /// attacks.
    ThreatByKing threat_by_king: [S; 2] = defaults::THREAT_BY_KING,
        keys Keys::Names(&["minor", "rook"]), range -300..=300, term Threats;
    /// Per own queen attacked by anything.
    ThreatQueenAttacked threat_queen_attacked: S = defaults::THREAT_QUEEN_ATTACKED,
        keys Keys::One, range -300..=300, term Threats;
    /// Per own knight, bishop, rook or queen attacked exactly once and defended exactly once:
    /// its one defender is tied to it.
    ThreatOverloaded threat_overloaded: S = defaults::THREAT_OVERLOADED,
        keys Keys::One, range -300..=300, term Threats;
    /// Per enemy knight, bishop, rook or queen that one of our safe pawn pushes would attack
    /// (and no pawn of ours attacks yet).
    ThreatPawnPush threat_pawn_push: S = defaults::THREAT_PAWN_PUSH,
        keys Keys::One, range -300..=300, term Threats;
    /// Bonus per square of the enemy king's zone (the king and its neighbours) that a knight,
    /// bishop, rook or queen attacks (index [`role_index`]).
    KingZoneAttack king_zone_attack: [S; 6] = defaults::KING_ZONE_ATTACK,
        keys Keys::Roles(1, 4), range -100..=200, term KingSafety;
    /// Bonus per own pawn one rank (index 0) and two ranks (index 1) in front of the king, on
    /// its file or a neighbouring one.
    PawnShield pawn_shield: [S; 2] = defaults::PAWN_SHIELD,
        keys Keys::Names(&["near", "far"]), range -100..=200, term KingSafety;
    /// King shelter, for each of the king's file and its neighbours: the rank distance from the
    /// king to the nearest own pawn in front of it on that file (`d1` .. `d6`, `none`), by
    /// whether it is the king's file and by the file folded onto a-d: index
    /// `king_file × 32 + folded_file × 8 + distance` ([`super::king`]).
    KingShelter king_shelter: [S; 64] = defaults::KING_SHELTER,
        keys Keys::Grid(&[&["side", "king"], FOLDED_FILES, SHELTER_DISTANCES]),
        range -200..=200, term KingShelter;
    /// Pawn storm, for each of the king's file and its neighbours: the rank distance from the
    /// king to the nearest enemy pawn in front of it on that file, by whether an own pawn
    /// blocks that enemy pawn and by the file folded onto a-d: index
    /// `blocked × 32 + folded_file × 8 + distance`.
    KingStorm king_storm: [S; 64] = defaults::KING_STORM,
        keys Keys::Grid(&[&["free", "blocked"], FOLDED_FILES, SHELTER_DISTANCES]),
        range -200..=200, term KingShelter;
    /// The king's distance (Chebyshev) to the nearest pawn of either colour (index 0: no pawn
    /// left): in the endgame the king belongs near the pawns.
    KingPawnDistance king_pawn_distance: [S; 8] = defaults::KING_PAWN_DISTANCE,
        keys Keys::Grid(&[&["none", "d1", "d2", "d3", "d4", "d5", "d6", "d7"]]),
        range -200..=200, term KingShelter;
    /// King danger units per piece (knight, bishop, rook, queen; index [`role_index`]) that
    /// attacks the enemy king's area. Danger units of one side add up and go through one
    /// curve ([`super::acc::danger_score`]): squared in the middlegame, linear in the endgame.
    DangerAttacker danger_attacker: [S; 6] = defaults::DANGER_ATTACKER,
        keys Keys::Roles(1, 4), range -500..=500, term KingDanger;
    /// King danger units per attack on a square of the enemy king's area.
    DangerAreaAttack danger_area_attack: S = defaults::DANGER_AREA_ATTACK,
        keys Keys::One, range -500..=500, term KingDanger;
    /// King danger units per weak square of the enemy king's area: attacked by us, defended
    /// at most once and only by the king or queen.
    DangerWeakSquare danger_weak_square: S = defaults::DANGER_WEAK_SQUARE,
        keys Keys::One, range -500..=500, term KingDanger;
    /// King danger units per safe check square by piece (knight, bishop, rook, queen): a
    /// square from which it would give check, that it reaches, and where the enemy cannot take
    /// it (unguarded, or weak and attacked twice by us).
    DangerSafeCheck danger_safe_check: [S; 6] = defaults::DANGER_SAFE_CHECK,
        keys Keys::Roles(1, 4), range -500..=500, term KingDanger;
    /// King danger units per enemy pawn in the enemy king's area.
    DangerDefendingPawn danger_defending_pawn: S = defaults::DANGER_DEFENDING_PAWN,
        keys Keys::One, range -500..=500, term KingDanger;
    /// King danger units when the attacker has no queen.
    DangerNoQueen danger_no_queen: S = defaults::DANGER_NO_QUEEN,
        keys Keys::One, range -1000..=500, term KingDanger;
    /// King danger units added once to every attack that counts.
    DangerBase danger_base: S = defaults::DANGER_BASE,
        keys Keys::One, range -500..=500, term KingDanger;
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
    /// Added for the strong side when it has mating material against a lone king, so that the
    /// search converts instead of trading down into a draw or shuffling.
    KnownWin known_win: S = defaults::KNOWN_WIN,
        keys Keys::One, range 0..=15_000, term Endgame;
    /// King and pawn against king, when the bitbase says it wins (added to [`Weights::known_win`]
    /// and the pawn): per rank the pawn has advanced (1 on its second rank ..= 6 on its seventh),
    /// so that the search pushes it once the win is safe.
    KpkPawnAdvance kpk_pawn_advance: S = defaults::KPK_PAWN_ADVANCE,
        keys Keys::One, range -200..=500, term Endgame;
    /// Mop-up: per unit of the lone king's Manhattan distance from the centre (0..=6).
    MopUpEdge mop_up_edge: S = defaults::MOP_UP_EDGE,
        keys Keys::One, range -500..=1000, term Endgame;
    /// Mop-up: per unit of closeness of the kings, `14 - manhattan(kings)` (0..=13).
    MopUpClose mop_up_close: S = defaults::MOP_UP_CLOSE,
        keys Keys::One, range -500..=1000, term Endgame;
    /// Mop-up: per unit of king-distance closeness of the kings, `7 - king_distance` (0..=6).
    /// Twice the old 12: at 12 the KBNK mate drills (40k nodes a move) missed about one start
    /// in a hundred, the lone king shuffling on an edge next to a wrong corner while the strong
    /// king stayed away; at 24 every drill mates, with and without the issue 16 candidates.
    MopUpKingClose mop_up_king_close: S = defaults::MOP_UP_KING_CLOSE,
        keys Keys::One, range -500..=1000, term Endgame;
    /// KBNK: per unit of closeness of the lone king to a corner of the bishop's colour,
    /// `14 - manhattan(king, nearest such corner)` (0..=14); dominates the edge term so that
    /// a wrong corner looks worse than the right one.
    KbnkCorner kbnk_corner: S = defaults::KBNK_CORNER,
        keys Keys::One, range -500..=1000, term Endgame;
    /// KBNK: per unit of the knight's closeness to the lone king, `6 - knight_distance`
    /// (0..=5): the knight covers the squares of the other colour near the mating corner.
    KbnkKnightClose kbnk_knight_close: S = defaults::KBNK_KNIGHT_CLOSE,
        keys Keys::One, range -500..=1000, term Endgame;
    /// Mop-up with bishop and knight: per square next to the lone king that it may still step
    /// to (negative: squeezing it is progress).
    MopUpKingFreedom mop_up_king_freedom: S = defaults::MOP_UP_KING_FREEDOM,
        keys Keys::One, range -500..=1000, term Endgame;
    /// A passed pawn that neither the defending king (rule of the square) nor the defending
    /// knights (knight fill against its path) can catch: worth nearly a piece.
    PasserUnstoppable passer_unstoppable: S = defaults::PASSER_UNSTOPPABLE,
        keys Keys::One, range -1000..=1000, term Endgame;
    /// A passed pawn that the defence catches in time, in a knights-against-pawns ending.
    PasserCaught passer_caught: S = defaults::PASSER_CAUGHT,
        keys Keys::One, range -1000..=1000, term Endgame;
    /// The side to move has a knight move to a fork square (two valuable targets) where the
    /// fork keeps its gain: the knight cannot be taken there at a loss
    /// ([`super::tactics::knight_fork_moves`]).
    ForkNow fork_now: S = defaults::FORK_NOW,
        keys Keys::One, range -300..=500, term KnightForks;
    /// The side not to move threatens such a knight fork.
    ForkThreat fork_threat: S = defaults::FORK_THREAT,
        keys Keys::One, range -300..=500, term KnightForks;
    /// A knight on an outpost (its fourth to sixth rank, where no enemy pawn can ever attack
    /// it), by whether it stands on the a- or h-file and whether an own pawn defends it: index
    /// `edge × 2 + defended` ([`super::pieces`]).
    KnightOutpost knight_outpost: [S; 4] = defaults::KNIGHT_OUTPOST,
        keys Keys::Grid(&[&["inner", "edge"], &["open", "defended"]]), range -200..=200,
        term PiecePlacement;
    /// A bishop on an outpost, indexed as [`Weights::knight_outpost`].
    BishopOutpost bishop_outpost: [S; 4] = defaults::BISHOP_OUTPOST,
        keys Keys::Grid(&[&["inner", "edge"], &["open", "defended"]]), range -200..=200,
        term PiecePlacement;
    /// A knight (index 0) or bishop (1) with a pawn of either colour right in front of it:
    /// shielded from the front, and the pawn covered.
    MinorBehindPawn minor_behind_pawn: [S; 2] = defaults::MINOR_BEHIND_PAWN,
        keys Keys::Names(&["knight", "bishop"]), range -200..=200, term PiecePlacement;
    /// A knight "in Siberia": four or more squares (king distance) from both kings, where it
    /// neither attacks nor defends; by that distance, 4 ..= 7.
    KnightSiberia knight_siberia: [S; 4] = defaults::KNIGHT_SIBERIA,
        keys Keys::Names(&["d4", "d5", "d6", "d7"]), range -200..=200, term PiecePlacement;
    /// Per square of king distance (Chebyshev) from a knight (index 0) or bishop (1) to its
    /// own king: minors near the king guard it.
    MinorKingDistance minor_king_distance: [S; 2] = defaults::MINOR_KING_DISTANCE,
        keys Keys::Names(&["knight", "bishop"]), range -100..=100, term PiecePlacement;
    /// Per own pawn on squares of a bishop's colour: they block it and leave the other colour
    /// weak.
    BishopPawnsOnColour bishop_pawns_on_colour: S = defaults::BISHOP_PAWNS_ON_COLOUR,
        keys Keys::One, range -100..=100, term PiecePlacement;
    /// Per own rammed pawn (an enemy pawn right in front of it) on squares of a bishop's
    /// colour, on top of [`Weights::bishop_pawns_on_colour`]: those never move out of its way.
    BishopRammedPawns bishop_rammed_pawns: S = defaults::BISHOP_RAMMED_PAWNS,
        keys Keys::One, range -100..=100, term PiecePlacement;
    /// A bishop on a long diagonal (not on a centre square) that sees both centre squares of
    /// it through everything but pawns.
    BishopLongDiagonal bishop_long_diagonal: S = defaults::BISHOP_LONG_DIAGONAL,
        keys Keys::One, range -200..=200, term PiecePlacement;
    /// A rook on its seventh rank while the enemy king is on its seventh or eighth.
    RookOnSeventh rook_on_seventh: S = defaults::ROOK_ON_SEVENTH,
        keys Keys::One, range -200..=200, term PiecePlacement;
    /// Space: per central square (files c-f) on the own second to fourth rank that holds no own
    /// pawn and no enemy pawn attacks, counted twice when it lies up to three squares behind an
    /// own pawn and the enemy does not attack it at all.
    Space space: S = defaults::SPACE,
        keys Keys::One, range -50..=50, term PiecePlacement;
    /// Per knight, by how closed the pawns are ([`super::pieces::closedness`], 0 open ..= 8
    /// locked): knights like closed positions.
    ClosednessKnight closedness_knight: [S; 9] = defaults::CLOSEDNESS_KNIGHT,
        keys Keys::Grid(&[CLOSEDNESS_BUCKETS]), range -200..=200, term PiecePlacement;
    /// Per rook, by how closed the pawns are: rooks like open positions.
    ClosednessRook closedness_rook: [S; 9] = defaults::CLOSEDNESS_ROOK,
        keys Keys::Grid(&[CLOSEDNESS_BUCKETS]), range -200..=200, term PiecePlacement;
    /// Complexity, endgame half only (the middlegame half is unused): per pawn on the board
    /// (`pawns`), for pawns on both flanks (`both_flanks`), for a pure pawn ending
    /// (`pawn_ending`) and always (`base`). Their sum moves the endgame half of the score away
    /// from zero (positive) or toward it, never past it ([`super::scale`]); fitted through
    /// that formula.
    Complexity complexity: [S; 4] = defaults::COMPLEXITY,
        keys Keys::Names(&["pawns", "both_flanks", "pawn_ending", "base"]), range -500..=500,
        term Drawishness;
}

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

impl Field {
    /// What the table says about this field.
    ///
    /// ```
    /// use minkowski::eval::weights::Field;
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
    /// use minkowski::eval::weights::{Field, Weights};
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
    /// use minkowski::eval::weights::{SPECS, Weights};
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
    /// use minkowski::eval::weights::{Field, Weights};
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
    /// use minkowski::eval::weights::{Field, Weights};
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
    /// use minkowski::eval::weights::{Field, Weights};
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
    /// use minkowski::eval::weights::{Field, Weights};
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
    /// use minkowski::eval::{score::S, weights::{Field, Weights}};
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
    /// use minkowski::eval::weights::Weights;
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
    /// let names = minkowski::eval::weights::Weights::names();
    /// assert!(names.contains(&"fork_now".to_owned()));
    /// ```
    #[must_use]
    pub fn names() -> Vec<String> {
        (0..Weights::COUNT).filter_map(Weights::name_of).collect()
    }

    /// The weight called `name`, if there is one.
    ///
    /// ```
    /// use minkowski::eval::weights::{MATERIAL, Weights};
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
    /// use minkowski::eval::{weights::Weights, score::S};
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
