//! Material signatures such as `"KBNK"`: which pieces each side has, for looking up endgames.

use shakmaty::{Board, Color, Role};

use crate::eval::weights::role_index;

/// How many pawns, knights, bishops, rooks and queens one side has (kings are implied).
///
/// ```
/// use minkowski_core::eval::endgame::SideMaterial;
/// let m: SideMaterial = "KBN".parse().unwrap();
/// assert_eq!((m.knights(), m.bishops(), m.pawns()), (1, 1, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideMaterial {
    /// Counts indexed by [`role_index`]: pawn, knight, bishop, rook, queen.
    counts: [u8; 5],
}

impl SideMaterial {
    /// The material `color` has on `board`.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// use shakmaty::{Chess, Color, Position};
    /// let m = SideMaterial::of(Chess::default().board(), Color::White);
    /// assert_eq!((m.pawns(), m.queens()), (8, 1));
    /// ```
    #[must_use]
    pub fn of(board: &Board, color: Color) -> SideMaterial {
        let mut counts = [0u8; 5];
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            counts[role_index(role)] =
                board.by_piece(role.of(color)).count().min(u8::MAX as usize) as u8;
        }
        SideMaterial { counts }
    }

    /// Number of pawns.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert_eq!("KPPP".parse::<SideMaterial>().unwrap().pawns(), 3);
    /// ```
    #[must_use]
    pub const fn pawns(&self) -> u8 {
        self.counts[0]
    }
    /// Number of knights.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert_eq!("KNN".parse::<SideMaterial>().unwrap().knights(), 2);
    /// ```
    #[must_use]
    pub const fn knights(&self) -> u8 {
        self.counts[1]
    }
    /// Number of bishops.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert_eq!("KBN".parse::<SideMaterial>().unwrap().bishops(), 1);
    /// ```
    #[must_use]
    pub const fn bishops(&self) -> u8 {
        self.counts[2]
    }
    /// Number of rooks.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert_eq!("KRP".parse::<SideMaterial>().unwrap().rooks(), 1);
    /// ```
    #[must_use]
    pub const fn rooks(&self) -> u8 {
        self.counts[3]
    }
    /// Number of queens.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert_eq!("KQ".parse::<SideMaterial>().unwrap().queens(), 1);
    /// ```
    #[must_use]
    pub const fn queens(&self) -> u8 {
        self.counts[4]
    }
    /// Knights, bishops, rooks and queens together.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert_eq!("KQRBNP".parse::<SideMaterial>().unwrap().pieces(), 4); // pawns are not pieces
    /// ```
    #[must_use]
    pub const fn pieces(&self) -> u8 {
        self.counts[1] + self.counts[2] + self.counts[3] + self.counts[4]
    }
    /// Whether only the king is left.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::SideMaterial;
    /// assert!("K".parse::<SideMaterial>().unwrap().is_lone_king());
    /// assert!(!"KP".parse::<SideMaterial>().unwrap().is_lone_king());
    /// ```
    #[must_use]
    pub const fn is_lone_king(&self) -> bool {
        self.pawns() == 0 && self.pieces() == 0
    }
}

/// Why a signature string did not parse.
///
/// ```
/// use minkowski_core::eval::endgame::Signature;
/// let err = "KXK".parse::<Signature>().unwrap_err();
/// assert_eq!(err.0, "KXK");
/// assert!(err.to_string().contains("bad material signature"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureError(pub String);

impl std::fmt::Display for SignatureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bad material signature {:?}: expected e.g. \"KBNK\" or \"KRPKR\"",
            self.0
        )
    }
}

impl std::error::Error for SignatureError {}

impl std::str::FromStr for SideMaterial {
    type Err = SignatureError;

    /// One side: a `K` followed by any of `QRBNP`, e.g. `"KBN"`.
    fn from_str(s: &str) -> Result<SideMaterial, SignatureError> {
        let err = || SignatureError(s.to_owned());
        let rest = s.strip_prefix('K').ok_or_else(err)?;
        let mut counts = [0u8; 5];
        for c in rest.chars() {
            let i = match Role::from_char(c) {
                Some(role) if role != Role::King && c.is_ascii_uppercase() => role_index(role),
                _ => return Err(err()),
            };
            counts[i] = counts[i].checked_add(1).ok_or_else(err)?;
        }
        Ok(SideMaterial { counts })
    }
}

/// Both sides' material: the side named first ("strong") and the other ("weak"), as in `"KBNK"`.
///
/// ```
/// use minkowski_core::eval::endgame::Signature;
/// let sig: Signature = "KBNK".parse().unwrap();
/// assert_eq!(sig.strong.bishops(), 1);
/// assert!(sig.weak.is_lone_king());
/// assert!("KBN".parse::<Signature>().is_err()); // the second king is missing
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The side written first.
    pub strong: SideMaterial,
    /// The side written second.
    pub weak: SideMaterial,
}

impl Signature {
    /// The signature written as `code` (e.g. `"KBNK"`), at compile time: endgame tables hold
    /// these constants, so no string is parsed during a search. Panics (a compile error in a
    /// `const`) on a malformed code; [`str::parse`] is the fallible way.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::Signature;
    /// const KBNK: Signature = Signature::from_code("KBNK");
    /// assert_eq!(KBNK, "KBNK".parse().unwrap());
    /// ```
    #[must_use]
    pub const fn from_code(code: &str) -> Signature {
        let bytes = code.as_bytes();
        assert!(
            !bytes.is_empty() && bytes[0] == b'K',
            "a signature starts with K"
        );
        let mut sides = [[0u8; 5]; 2];
        let mut side = 0;
        let mut i = 1;
        while i < bytes.len() {
            let slot = match bytes[i] {
                b'K' => {
                    assert!(side == 0, "a signature has two kings");
                    side = 1;
                    i += 1;
                    continue;
                }
                b'P' => 0,
                b'N' => 1,
                b'B' => 2,
                b'R' => 3,
                b'Q' => 4,
                _ => panic!("a signature holds only KQRBNP"),
            };
            sides[side][slot] += 1;
            i += 1;
        }
        assert!(side == 1, "a signature has two kings");
        Signature {
            strong: SideMaterial { counts: sides[0] },
            weak: SideMaterial { counts: sides[1] },
        }
    }
}

impl std::str::FromStr for Signature {
    type Err = SignatureError;

    fn from_str(s: &str) -> Result<Signature, SignatureError> {
        let err = || SignatureError(s.to_owned());
        // The weak side starts at the second 'K'.
        let split = s
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == 'K')
            .ok_or_else(err)?
            .0;
        let strong = s[..split].parse().map_err(|_| err())?;
        let weak = s[split..].parse().map_err(|_| err())?;
        Ok(Signature { strong, weak })
    }
}
