//! Knight(s) and king against a passed pawn: does the defence catch the pawn in time?
//!
//! Two independent catchers are checked, each by pure square geometry:
//!
//! * the **king**, by the rule of the square: it catches the pawn when its king distance to the
//!   promotion square is at most the pawn's remaining moves, plus one when the defence moves
//!   first;
//! * the **knights**, by knight fill: after `j` defending moves a knight can stand anywhere in
//!   `fill^j(knights)`; it catches the pawn when that set meets what is left of the pawn's path at
//!   that moment — the pawn's own square (a capture) or a square still ahead of it, up to and
//!   including the promotion square (a blockade, or the capture of the new queen).
//!
//! Why filling is exact for knights: the set of path squares that still count only shrinks as the
//! pawn walks, so reaching a square sooner is never worse (hence "at most `j` moves" equals
//! "exactly `j` moves"); and a double step from the second rank only shrinks that set faster, so
//! the pawn always takes it. `tests` check this against an exhaustive race search.

use shakmaty::{Bitboard, Board, Color, Rank, Role, Square, attacks};

use super::kpk::KpkPosition;
use super::verdict_weights::{PASSER_CAUGHT, PASSER_UNSTOPPABLE, WeightSum};
use crate::eval::pawns::is_passed;
use crate::eval::to_move::SideToMove;
use crate::eval::tracer::Tracer;
use crate::eval::tracer::Verdict;
use crate::eval::weights::Weights;
use crate::geometry::{file_mask, king_distance, knight_attacks_set, knight_fill};

/// A passed pawn racing to promote, with everything the race depends on: three plain values,
/// so any engine can ask "is this passer caught?" with its own squares (`Square::new(index)`,
/// a1 = 0 … h8 = 63) and knight bitboard (`Bitboard(u64)`).
///
/// The race assumes the pawn's path is free and counts only the defending king and knights;
/// Minkowski applies it to passed pawns whose path is empty, in endings of king and pawns
/// against king and knights ([`super::is_knights_vs_passers`]).
///
/// ```
/// use minkowski_core::eval::endgame::PasserRace;
/// use shakmaty::{Bitboard, Color, Square};
///
/// // A white pawn on b6, White to move; the black knight on h8 and the king on f4.
/// let race = PasserRace { pawn: Square::B6, pawn_color: Color::White, pawn_to_move: true };
/// assert!(!race.knights_catch(Bitboard::from(Square::H8)));
/// assert!(!race.king_catches(Square::F4));
/// assert!(race.unstoppable(Some(Square::F4), Bitboard::from(Square::H8)));
/// // After b7, a knight on c5 takes the pawn; one on d5 is a move too slow.
/// assert!(race.knights_catch(Bitboard::from(Square::C5)));
/// assert!(!race.knights_catch(Bitboard::from(Square::D5)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasserRace {
    /// The pawn's square.
    pub pawn: Square,
    /// The pawn's colour (it moves towards the opponent's back rank).
    pub pawn_color: Color,
    /// Whether the pawn's side moves next.
    pub pawn_to_move: bool,
}

impl PasserRace {
    /// Pawn moves still needed to promote (a pawn on its second rank double-steps).
    ///
    /// ```
    /// use minkowski_core::eval::endgame::PasserRace;
    /// use shakmaty::{Color, Square};
    /// let race = |pawn, pawn_color| PasserRace { pawn, pawn_color, pawn_to_move: true };
    /// assert_eq!(race(Square::E2, Color::White).moves_to_promote(), 5); // e2-e4 first
    /// assert_eq!(race(Square::E3, Color::White).moves_to_promote(), 5);
    /// assert_eq!(race(Square::E2, Color::Black).moves_to_promote(), 1);
    /// ```
    #[must_use]
    pub const fn moves_to_promote(&self) -> u32 {
        let rank = self.relative_rank();
        if rank == 1 { 5 } else { 7 - rank }
    }

    /// The square the pawn promotes on.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::PasserRace;
    /// use shakmaty::{Color, Square};
    /// let race = PasserRace { pawn: Square::C5, pawn_color: Color::Black, pawn_to_move: false };
    /// assert_eq!(race.promotion_square(), Square::C1);
    /// ```
    #[must_use]
    pub const fn promotion_square(&self) -> Square {
        let file = self.pawn.to_u32() & 7;
        match self.pawn_color {
            Color::White => Square::new(56 + file),
            Color::Black => Square::new(file),
        }
    }

    /// Whether the defending king on `king` catches the pawn by the rule of the square: its king
    /// distance to the promotion square is at most the pawn's remaining moves, plus one when the
    /// defence moves first. (Only the distance counts; blocking pieces are not considered.)
    ///
    /// ```
    /// use minkowski_core::eval::endgame::PasserRace;
    /// use shakmaty::{Color, Square};
    /// // White pawn on a5, three moves from a8; the black king on d6 is three king moves away.
    /// let race = PasserRace { pawn: Square::A5, pawn_color: Color::White, pawn_to_move: true };
    /// assert!(race.king_catches(Square::D6));
    /// assert!(!race.king_catches(Square::E6)); // four moves away
    /// let defence_first = PasserRace { pawn_to_move: false, ..race };
    /// assert!(defence_first.king_catches(Square::E6)); // the tempo makes up for it
    /// ```
    #[must_use]
    pub const fn king_catches(&self, king: Square) -> bool {
        let tempo = if self.pawn_to_move { 0 } else { 1 };
        king_distance(king, self.promotion_square()) <= self.moves_to_promote() + tempo
    }

    /// Whether defending knights on `knights` catch the pawn (capture it, stand on its path, or
    /// take the new queen at once), by knight fill: after `j` defending moves a knight can stand
    /// anywhere in `fill^j(knights)`, and it is in time if that meets what is left of the path.
    ///
    /// ```
    /// use minkowski_core::eval::endgame::PasserRace;
    /// use shakmaty::{Bitboard, Color, Square};
    /// // White pawn on g6, White to move: g7 and g8 are two moves away.
    /// let race = PasserRace { pawn: Square::G6, pawn_color: Color::White, pawn_to_move: true };
    /// assert!(race.knights_catch(Bitboard::from(Square::E7))); // after g7, Ng8 blockades
    /// assert!(!race.knights_catch(Bitboard::from(Square::A1)));
    /// assert!(!race.knights_catch(Bitboard::EMPTY));
    /// // Knights are any set: a1 alone is too far, but a second one on h6 (Ng8) is in time.
    /// assert!(race.knights_catch(Bitboard(1 << 0 | 1 << 47))); // a1 = 0, h6 = 47
    /// ```
    #[must_use]
    pub const fn knights_catch(&self, knights: Bitboard) -> bool {
        if knights.0 == 0 {
            return false;
        }
        let moves = self.moves_to_promote();
        // Already standing ahead of the pawn: a blockade.
        if knights.0 & self.path_after(0) != 0 {
            return true;
        }
        let mut reach = knights;
        // Knight move `j` is answered by the pawn's move `j` when the defence moves first; when
        // the pawn moves first, the pawn has made `j` moves before knight move `j`.
        let lag = if self.pawn_to_move { 0 } else { 1 };
        let mut j = 1;
        while j <= moves + lag {
            reach = knight_fill(reach);
            let pawn_moves_made = j - lag;
            if reach.0 & self.remaining_path(pawn_moves_made) != 0 {
                return true;
            }
            j += 1;
        }
        false
    }

    /// Whether neither the king (if any) nor the knights stop the pawn: what the evaluation
    /// rewards with [`PASSER_UNSTOPPABLE`](crate::eval::endgame::PASSER_UNSTOPPABLE) (and otherwise [`PASSER_CAUGHT`](crate::eval::endgame::PASSER_CAUGHT)).
    ///
    /// ```
    /// use minkowski_core::eval::endgame::PasserRace;
    /// use shakmaty::{Bitboard, Color, Square};
    /// let race = PasserRace { pawn: Square::H3, pawn_color: Color::Black, pawn_to_move: true };
    /// assert!(race.unstoppable(None, Bitboard::EMPTY));
    /// assert!(race.unstoppable(Some(Square::E4), Bitboard::EMPTY)); // three moves from h1
    /// assert!(!race.unstoppable(Some(Square::F3), Bitboard::EMPTY)); // two: in the square
    /// assert!(!race.unstoppable(None, Bitboard::from(Square::F3))); // after h2, Nxh2
    /// ```
    #[must_use]
    pub const fn unstoppable(&self, king: Option<Square>, knights: Bitboard) -> bool {
        let king_catches = match king {
            Some(k) => self.king_catches(k),
            None => false,
        };
        !king_catches && !self.knights_catch(knights)
    }

    const fn relative_rank(&self) -> u32 {
        let rank = self.pawn.to_u32() >> 3;
        match self.pawn_color {
            Color::White => rank,
            Color::Black => 7 - rank,
        }
    }

    /// The pawn's square after `made` moves, as a relative rank.
    const fn rank_after(&self, made: u32) -> u32 {
        let rank = self.relative_rank();
        if made == 0 {
            rank
        } else if rank == 1 {
            rank + 1 + made
        } else {
            rank + made
        }
    }

    /// Squares strictly ahead of the pawn after `made` moves, up to the promotion square.
    const fn path_after(&self, made: u32) -> u64 {
        let file_mask = file_mask(self.pawn.to_u32());
        let rank = self.rank_after(made);
        // Relative ranks above `rank`, as a mask of absolute ranks.
        let ahead_relative: u64 = if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        };
        let ahead = match self.pawn_color {
            Color::White => ahead_relative,
            Color::Black => ahead_relative.swap_bytes(),
        };
        ahead & file_mask
    }

    /// The pawn's square after `made` moves plus everything still ahead of it.
    const fn remaining_path(&self, made: u32) -> u64 {
        let file = self.pawn.to_u32() & 7;
        let rank = self.rank_after(made);
        let abs_rank = match self.pawn_color {
            Color::White => rank,
            Color::Black => 7 - rank,
        };
        (1u64 << (abs_rank * 8 + file)) | self.path_after(made)
    }
}

/// The kings' layer on top of the pure race: a knight check costs the pawn's side a tempo.
///
/// The race counts moves as if the pawn's side always pushes; but a king in check must step
/// first. Checked against the tables over every KNvKP position
/// (tests/integration/knight_vs_passer_tables.rs), the largest group of "runs through" verdicts
/// that were wrong is exactly this: the pawn's side is in check now, or the knight side, to move,
/// has a knight check. Then the race is run again with the defence a tempo ahead (from the checking
/// square, for a check still to be given). A check by a knight standing where the pawn can take it
/// costs nothing and is ignored.
fn check_costs_the_race(
    board: &Board,
    to_move: SideToMove,
    strong: Color,
    race: PasserRace,
    defending_king: Option<Square>,
    knights: Bitboard,
) -> bool {
    let Some(our_king) = board.king_of(strong) else {
        return false;
    };
    let pawn_takes = shakmaty::attacks::pawn_attacks(strong, race.pawn);
    let late = PasserRace {
        pawn_to_move: false,
        ..race
    };
    let late_caught = |knights: Bitboard| !late.unstoppable(defending_king, knights);
    if to_move.color() == strong {
        // In check by a knight that the pawn cannot take: the king must move first.
        let checkers = knights & shakmaty::attacks::knight_attacks(our_king);
        return checkers.any() && (checkers & pawn_takes).is_empty() && late_caught(knights);
    }
    // The knight side to move: a check from a square the pawn does not cover.
    let checking = shakmaty::attacks::knight_attacks(our_king) & !pawn_takes & !board.occupied();
    knights.into_iter().any(|n| {
        (shakmaty::attacks::knight_attacks(n) & checking)
            .into_iter()
            .any(|to| late_caught((knights ^ Bitboard::from(n)) | Bitboard::from(to)))
    })
}

/// The race term: each passed pawn of `strong` (the side with only pawns) whose path is free is
/// worth [`PASSER_UNSTOPPABLE`](crate::eval::endgame::PASSER_UNSTOPPABLE) if neither the defending king nor the knights catch it,
/// and [`PASSER_CAUGHT`](crate::eval::endgame::PASSER_CAUGHT) otherwise. One knight against one pawn (KNvKP) is decided by
/// [`OneKnightOnePawn`], with both kings; more material by the pure race and the check layer.
pub(super) fn evaluate(
    board: &Board,
    to_move: SideToMove,
    strong: Color,
    w: &Weights,
    tracer: &mut dyn Tracer,
) -> Verdict {
    let knights = board.by_piece(Role::Knight.of(!strong));
    let defending_king = board.king_of(!strong);
    let our_king = board.king_of(strong);
    let our_pawns = board.by_piece(Role::Pawn.of(strong));
    let their_pawns = board.by_piece(Role::Pawn.of(!strong));
    let mut bonus = WeightSum::new(w, tracer);
    let single = knights.count() == 1 && our_pawns.count() == 1 && their_pawns.is_empty();
    for pawn in our_pawns {
        let race = PasserRace {
            pawn,
            pawn_color: strong,
            pawn_to_move: to_move.color() == strong,
        };
        let front = Bitboard(race.path_after(0));
        let runs = match (single, our_king, defending_king, knights.first()) {
            (true, Some(king), Some(defender), Some(knight)) => {
                let kings = OneKnightOnePawn {
                    race,
                    pawn_king: king,
                    defending_king: defender,
                    knight,
                };
                match kings.verdict() {
                    Some(runs) => runs,
                    None => continue,
                }
            }
            _ => {
                if !is_passed(pawn, strong, their_pawns) || (front & board.occupied()).any() {
                    continue;
                }
                race.unstoppable(defending_king, knights)
                    && !check_costs_the_race(board, to_move, strong, race, defending_king, knights)
            }
        };
        let weight = if runs {
            PASSER_UNSTOPPABLE
        } else {
            PASSER_CAUGHT
        };
        bonus.add(weight, 1);
    }
    Verdict::Adjust(bonus.sum)
}

/// King, knight and king against king and pawn (KNvKP), with both kings; the pure race
/// ([`PasserRace`]) ignores the pawn's king, which the tables (`KNvKP.rtbw`) show to be the
/// largest source of wrong verdicts. Checked against the tables on every 61st KNvKP position
/// (tests/integration/knight_vs_passer_tables.rs), the layers below take the agreement from 93.2 %
/// to about 97 %; each fixes a class of misses found there:
///
/// * **the pawn side takes the knight** (its king, or the pawn) and the KPK left is won;
/// * **the lone-king ending decides the kings**: the defending king holds if and only if it holds
///   in KPK without the knight (the exact bitbase instead of the rule of the square: the pawn's
///   king escorts, shoulders, or stands in front and steps aside);
/// * **the knight may not land next to the pawn's king** unless its own king guards the square
///   (it would be taken), except to take the pawn or the new queen (a trade is still a draw);
/// * **a knight check costs the pawn a tempo** (once; after it the pawn's king may have stepped
///   anywhere near, so the knight then also avoids every square within two king steps of it);
/// * **the knight forks the new queen and the king** from a square neither attacks.
#[derive(Clone, Copy, Debug)]
struct OneKnightOnePawn {
    race: PasserRace,
    pawn_king: Square,
    defending_king: Square,
    knight: Square,
}

impl OneKnightOnePawn {
    /// Whether the pawn side wins (`Some(true)`), is held (`Some(false)`), or, with an enemy
    /// piece standing in front of the pawn, no verdict (`None`).
    fn verdict(&self) -> Option<bool> {
        if self.takes_the_knight_and_wins() {
            return Some(true);
        }
        let enemies = Bitboard::from(self.defending_king) | Bitboard::from(self.knight);
        if (Bitboard(self.race.path_after(0)) & enemies).any() {
            return None;
        }
        let kpk = KpkPosition {
            strong_king: self.pawn_king,
            pawn: self.race.pawn,
            lone_king: self.defending_king,
            strong_color: self.race.pawn_color,
            strong_to_move: self.race.pawn_to_move,
        };
        Some(kpk.is_win() && !self.knight_holds())
    }

    /// The pawn side, to move, takes the knight with its king (the knight unguarded) or with the
    /// pawn, and the king-and-pawn ending left is a win.
    fn takes_the_knight_and_wins(&self) -> bool {
        let race = self.race;
        if !race.pawn_to_move {
            return false;
        }
        let knight = self.knight;
        let defended = attacks::king_attacks(self.defending_king).contains(knight);
        let after = |strong_king, pawn| KpkPosition {
            strong_king,
            pawn,
            lone_king: self.defending_king,
            strong_color: race.pawn_color,
            strong_to_move: false,
        };
        if attacks::king_attacks(self.pawn_king).contains(knight)
            && !defended
            && after(knight, race.pawn).is_win()
        {
            return true;
        }
        if attacks::pawn_attacks(race.pawn_color, race.pawn).contains(knight) {
            if knight.rank() == Rank::First || knight.rank() == Rank::Eighth {
                // A new queen that the lone king cannot take.
                return !defended || attacks::king_attacks(self.pawn_king).contains(knight);
            }
            return after(self.pawn_king, knight).is_win();
        }
        false
    }

    /// Whether the knight stops the pawn, in a race over (knight square, pawn moves made, check
    /// given) where the pawn's king stays put: see the type's notes.
    fn knight_holds(&self) -> bool {
        let race = self.race;
        let moves = race.moves_to_promote() as usize;
        let promotion = race.promotion_square();
        let covered = attacks::king_attacks(self.defending_king);
        let near = attacks::king_attacks(self.pawn_king) & !covered;
        let within_two = king_fill(attacks::king_attacks(self.pawn_king));
        let wide = within_two & !covered;
        let kings = Bitboard::from(self.pawn_king) | Bitboard::from(self.defending_king);
        let checks_king = attacks::knight_attacks(self.pawn_king);
        if Bitboard(race.path_after(0)).contains(self.knight) {
            return true;
        }
        // The pawn side moves first and pushes, unless a knight check it cannot answer by
        // taking the checker makes its king move first.
        let in_check = checks_king.contains(self.knight)
            && !(near | attacks::pawn_attacks(race.pawn_color, race.pawn)).contains(self.knight);
        let start = usize::from(race.pawn_to_move && !in_check);
        // frontier[check given][pawn moves made]: where the knight may stand.
        let mut frontier = [[Bitboard::EMPTY; 8]; 2];
        frontier[0][start] = Bitboard::from(self.knight);
        let mut seen = frontier;
        for _ in 0..moves + 4 {
            let mut next = [[Bitboard::EMPTY; 8]; 2];
            for (checked, by_made) in frontier.iter().enumerate() {
                for (made, &from) in by_made.iter().enumerate() {
                    if from.is_empty() {
                        continue;
                    }
                    let to = knight_attacks_set(from);
                    let shown = made.min(moves) as u32;
                    let ahead = Bitboard(race.path_after(shown));
                    let pawn_now = Bitboard(race.remaining_path(shown)) & !ahead;
                    if (to & pawn_now).any() {
                        return true; // takes the pawn, or the new queen
                    }
                    let guarded = if checked == 1 { wide } else { near };
                    if made >= moves {
                        // Promoted: a fork of king and queen, from a square neither takes.
                        let forks = to
                            & checks_king
                            & attacks::knight_attacks(promotion)
                            & !guarded
                            & !attacks::queen_attacks(promotion, Bitboard::from(self.pawn_king));
                        if checked == 0 && forks.any() {
                            return true;
                        }
                        continue;
                    }
                    let land = to & !guarded & !kings;
                    if (land & ahead).any() {
                        return true; // a blockade
                    }
                    let pawn_takes = pawn_now.first().map_or(Bitboard::EMPTY, |p| {
                        attacks::pawn_attacks(race.pawn_color, p)
                    });
                    if checked == 0 {
                        let checking = land & checks_king & !pawn_takes;
                        next[1][made] |= checking;
                        next[0][made + 1] |= land & !checking;
                    } else {
                        next[1][made + 1] |= land;
                    }
                }
            }
            let mut any = false;
            for (n, s) in next.iter_mut().flatten().zip(seen.iter_mut().flatten()) {
                *n &= !*s;
                *s |= *n;
                any |= n.any();
            }
            if !any {
                break;
            }
            frontier = next;
        }
        false
    }
}

/// The squares of `set` and every square next to one.
fn king_fill(set: Bitboard) -> Bitboard {
    set.into_iter()
        .fold(set, |acc, sq| acc | attacks::king_attacks(sq))
}
