//! The rows of the evaluation trace: every weight belongs to one [`Term`], the row of
//! [`super::trace::EvalTrace`] its share of the score is shown in. At the bottom of the
//! evaluation's layers, since each weight's declaration names its row.

/// Declares [`Term`] from one list: each row's variant (with its doc) and its name in the
/// trace; [`Term::ALL`] and [`Term::name`] follow from it, so a new row is one line here.
macro_rules! declare_terms {
    ($( $(#[doc = $doc:literal])* $term:ident => $name:literal, )*) => {
        /// The evaluation terms, in the order the trace prints them.
        ///
        /// ```
        /// use minkowski_core::eval::Evaluator;
        /// use minkowski_core::eval::trace::Term;
        /// let trace = Evaluator::default().trace(&shakmaty::Chess::default());
        /// let row = Term::ALL.iter().position(|&t| t == Term::Material).unwrap();
        /// let [white, black] = trace.terms[row];
        /// assert_eq!(white, black); // White and Black have the same material
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Term {
            $( $(#[doc = $doc])* $term, )*
        }

        impl Term {
            /// Every term, in trace order (the order of the rows of [`super::trace::EvalTrace`]).
            ///
            /// ```
            /// use minkowski_core::eval::trace::Term;
            /// assert_eq!(Term::ALL.first(), Some(&Term::Material));
            /// assert!(Term::ALL.iter().enumerate().all(|(i, &t)| t as usize == i));
            /// ```
            pub const ALL: &[Term] = &[ $( Term::$term, )* ];

            /// The term's name in the trace.
            ///
            /// ```
            /// assert_eq!(minkowski_core::eval::trace::Term::KnightForks.name(), "Knight forks");
            /// ```
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $( Term::$term => $name, )*
                }
            }
        }
    };
}

declare_terms! {
    /// Material.
    Material => "Material",
    /// Piece-square tables.
    Psqt => "Piece squares",
    /// Mobility of knights, bishops, rooks and queens.
    Mobility => "Mobility",
    /// Pawn structure: isolated, stacked, backward, connected pawns and candidate passers.
    PawnStructure => "Pawn structure",
    /// Passed pawns: by rank and push square, king distances, free path, stacked, unstoppable.
    PassedPawns => "Passed pawns",
    /// Bishop pair.
    BishopPair => "Bishop pair",
    /// Rooks on open and semi-open files.
    RookFiles => "Rook files",
    /// King safety: pawn shield and attacks on the king zone.
    KingSafety => "King safety",
    /// King shelter and pawn storm by rank distance, and the king's distance to the pawns.
    KingShelter => "Shelter/storm",
    /// King danger: the attack on the enemy king through the non-linear curve.
    KingDanger => "King danger",
    /// Threats: pieces attacked by cheaper ones or poorly defended, overloaded pieces, pawn
    /// pushes that attack a piece.
    Threats => "Threats",
    /// Threat targets: pieces attacked, by attacker and victim; hanging pieces, a safe pawn's
    /// threats, contested squares, the queen's guard duties and exposure.
    Targets => "Threat targets",
    /// King attack outside the danger curve: attacks on the king's flank, a pawnless flank,
    /// the king's file.
    KingAttack => "King attack",
    /// Knight forks available (or threatened).
    KnightForks => "Knight forks",
    /// Side to move bonus.
    Tempo => "Tempo",
    /// An endgame evaluator's adjustment (the knight-versus-passer race).
    Endgame => "Endgame",
    /// Piece placement: outposts, minors behind pawns, knights far from the kings, minors'
    /// distance to their king, bishops and their pawns, long diagonals, rooks on the seventh,
    /// space and closedness.
    PiecePlacement => "Piece placement",
    /// Piece lines: rooks on closed files or trapped, bishops x-raying pawns, bishops and rooks
    /// lined up with the enemy king's area.
    PieceLines => "Piece lines",
    /// Drawishness: what complexity and the endgame scale factor change in the endgame half.
    Drawishness => "Drawishness",
}
