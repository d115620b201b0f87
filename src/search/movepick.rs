//! Move ordering: static exchange evaluation and a staged move picker that does as little work
//! as the node needs.
//!
//! Order: TT move, good captures and queen promotions (SEE ≥ 0, by MVV-LVA), killers, the
//! counter-move, quiet knight forks that keep their gain, the other quiet moves by history, bad
//! captures. The stages are lazy: nothing is generated
//! before the TT move has been searched, a capture's SEE is computed when the capture comes up,
//! quiet moves are scored only when the quiet stage is reached, and once the search has said
//! that only checking quiet moves still matter, the rest are neither scored nor sorted.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, attacks};

use super::board::{CheckInfo, is_tactical, tactical_moves, unpack_candidate};
use super::history::Heuristics;
use super::movegen::LegalGen;
use super::params::FORK_ORDER_BONUS;
use super::tt::PackedMove;
use crate::eval::tactics::{EXCHANGE_VALUE, winning_fork_squares};
use crate::eval::weights::role_index;

/// Piece values for exchange evaluation and MVV-LVA, indexed by [`role_index`]: the library's
/// [`EXCHANGE_VALUE`], which the fork estimate shares.
pub const SEE_VALUE: [i32; 6] = EXCHANGE_VALUE;

fn role_value(role: Role) -> i32 {
    SEE_VALUE[role_index(role)]
}

/// Value of what `m` captures (a pawn for en passant, 0 for non-captures).
#[must_use]
pub fn captured_value(m: Move) -> i32 {
    match m {
        Move::EnPassant { .. } => role_value(Role::Pawn),
        _ => m.capture().map_or(0, role_value),
    }
}

/// Static exchange evaluation of `m`: the material the side to move gains if both sides keep
/// recapturing on the target square with their least valuable piece (pins ignored).
#[must_use]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        _ => return 0,
    };
    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    if let Move::EnPassant { .. } = m {
        let victim = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from_square(victim);
    }
    // The attackers of both colours that do not slide, and the sliders by direction; the
    // sliders' reach is recomputed as pieces leave (x-rays), the rest never changes.
    let white = board.by_color(Color::White);
    let steppers = (attacks::knight_attacks(to) & board.knights())
        | (attacks::king_attacks(to) & board.kings())
        | (attacks::pawn_attacks(Color::Black, to) & board.pawns() & white)
        | (attacks::pawn_attacks(Color::White, to) & board.pawns() & !white);
    let straight = board.rooks_and_queens();
    let diagonal = board.bishops_and_queens();
    let attackers_at = |occupied: Bitboard| {
        (steppers
            | (attacks::rook_attacks(to, occupied) & straight)
            | (attacks::bishop_attacks(to, occupied) & diagonal))
            & occupied
    };
    let mut gain = [0i32; 40];
    let mut depth = 0;
    let mut on_square = m.promotion().unwrap_or(m.role());
    gain[0] = captured_value(m);
    if let Some(p) = m.promotion() {
        gain[0] += role_value(p) - role_value(Role::Pawn);
    }
    let mut side = !pos.turn();
    let mut all = attackers_at(occupied);
    while depth + 1 < gain.len() {
        let attackers = all & board.by_color(side);
        if attackers.is_empty() {
            break;
        }
        let mut picked = None;
        for role in Role::ALL {
            if let Some(sq) = (attackers & board.by_role(role)).first() {
                picked = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = picked else { break };
        if role == Role::King && (all & board.by_color(!side)).any() {
            // The king may not capture into a defended square.
            break;
        }
        depth += 1;
        gain[depth] = role_value(on_square) - gain[depth - 1];
        occupied ^= Bitboard::from_square(sq);
        all = attackers_at(occupied);
        on_square = role;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// One move handed out by the [`MovePicker`].
#[derive(Clone, Copy, Debug)]
pub struct Picked {
    /// The move.
    pub mv: Move,
    /// Its exchange value (0 for quiet moves; for a capture that cannot lose material, possibly
    /// only a lower bound ≥ 0 — every use compares it with a threshold ≤ 0).
    pub see: i32,
    /// Whether it is a killer or the counter-move.
    pub refutation: bool,
    /// Whether it is a quiet knight move to a square of the node's winning forks
    /// ([`MovePicker::set_forks`]).
    pub fork: bool,
}

/// A move with its ordering score (MVV-LVA for captures, history for quiet moves; a bad
/// capture's SEE once it has been set aside).
#[derive(Clone, Copy, Debug)]
struct ScoredMove {
    mv: Move,
    score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    Generate,
    GoodTacticals,
    GenerateQuiets,
    Killer1,
    Killer2,
    Counter,
    ScoreQuiets,
    Quiets,
    BadTacticals,
    Done,
}

/// What the picker generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickerKind {
    /// All legal moves of a position not in check (main search).
    All,
    /// All legal moves of a position in check (main search and quiescence).
    Evasions,
    /// Tactical moves only, bad captures left out (quiescence not in check).
    Tacticals,
}

/// Hands out the moves of one node best-first, stage by stage (see the module docs).
pub struct MovePicker {
    stage: Stage,
    kind: PickerKind,
    tt_packed: PackedMove,
    tt_move: Option<Move>,
    killers: [PackedMove; 2],
    counter: PackedMove,
    prev: Option<Move>,
    turn: Color,
    /// Bad captures `[0, bad_end)` (set aside in order), then the rest of the tacticals up to
    /// `tactical_end`, then the quiet moves up to the end.
    list: ArrayVec<ScoredMove, 256>,
    cur: usize,
    bad_end: usize,
    tactical_end: usize,
    checks_only: bool,
    /// Whether to look for knight forks ([`MovePicker::find_forks`]).
    find_forks: bool,
    /// Squares where a knight of the side to move forks and keeps the gain (found when the
    /// quiet moves come up).
    forks: Bitboard,
    /// Whether any legal move was found (TT move or generated).
    any_legal: bool,
    /// The generator of the quiet moves, kept from the tactical stage until they are needed.
    quiet_gen: Option<LegalGen>,
}

/// A lower bound of `see(m)` that is already ≥ 0, when the victim is worth at least the
/// capturing piece (the opponent can win back at most that piece): such a capture is good
/// without running the exchange. Every use of a good capture's SEE compares it with a threshold
/// ≤ 0, so the bound decides the same as the exact value.
fn good_capture_bound(m: Move) -> Option<i32> {
    if m.promotion().is_some() || !m.is_capture() {
        return None;
    }
    let margin = captured_value(m) - role_value(m.role());
    (margin >= 0).then_some(margin)
}

/// MVV-LVA: the most valuable victim first, the least valuable attacker among equals.
fn mvv_lva(m: Move) -> i32 {
    captured_value(m) * 16 - role_value(m.role()) / 10 + m.promotion().map_or(0, role_value)
}

impl MovePicker {
    /// A picker for `pos` with the TT move `tt_move` (matched against the legal moves, never
    /// trusted) and the killers and counter-move of `ply` after `prev`.
    #[must_use]
    pub fn new(
        pos: &Chess,
        kind: PickerKind,
        tt_move: PackedMove,
        heur: &Heuristics,
        ply: usize,
        prev: Option<Move>,
    ) -> MovePicker {
        let turn = pos.turn();
        MovePicker {
            stage: Stage::TtMove,
            kind,
            tt_packed: tt_move,
            tt_move: None,
            killers: if kind != PickerKind::Tacticals {
                heur.killers(ply)
            } else {
                [PackedMove::NONE; 2]
            },
            counter: heur.counter_move(turn, prev),
            prev,
            turn,
            list: ArrayVec::new(),
            cur: 0,
            bad_end: 0,
            tactical_end: 0,
            checks_only: false,
            find_forks: false,
            forks: Bitboard::EMPTY,
            any_legal: false,
            quiet_gen: None,
        }
    }

    /// Look for quiet knight forks of the enemy king, queens and rooks that keep their gain
    /// ([`crate::eval::tactics::winning_fork_squares`], computed once the good captures are
    /// done, so nodes that end earlier never pay for it): they come right after the counter-move,
    /// are handed out even after [`MovePicker::quiet_checks_only`], and are marked
    /// [`Picked::fork`]. (Not when in check: evasions are few and all searched.)
    pub fn find_forks(&mut self) {
        self.find_forks = true;
    }

    /// Whether `m` is a quiet knight move to one of the fork squares.
    #[inline]
    fn is_fork(&self, m: Move) -> bool {
        // Most nodes have no fork square: one test of the set, and nothing else.
        self.forks.any()
            && matches!(m, Move::Normal { role: Role::Knight, capture: None, to, .. }
                if self.forks.contains(to))
    }

    /// From now on hand out only the quiet moves that give check (the search prunes the others:
    /// late-move or futility pruning has started and stays on for the rest of the node).
    pub fn quiet_checks_only(&mut self) {
        self.checks_only = true;
    }

    /// Whether the node has no legal move (meaningful once [`MovePicker::next`] returned `None`
    /// for a picker of all moves, [`PickerKind::All`] or [`PickerKind::Evasions`]).
    #[must_use]
    pub fn no_legal_moves(&self) -> bool {
        !self.any_legal
    }

    /// The TT move, if it is legal here and of the kind this picker hands out. Not in check,
    /// legality is tested directly (and the generator kept for the later stages).
    fn legal_tt_move(&mut self, pos: &Chess) -> Option<Move> {
        let m = unpack_candidate(pos, self.tt_packed)?;
        match self.kind {
            PickerKind::Evasions => pos.is_legal(m).then_some(m),
            PickerKind::Tacticals if !is_tactical(m) => None,
            _ => {
                let g = LegalGen::new(pos)?;
                self.quiet_gen = Some(g);
                g.is_legal(pos, m).then_some(m)
            }
        }
    }

    /// The tactical moves, scored by MVV-LVA (all moves when in check, the quiet ones unscored
    /// after the tactical ones).
    fn generate(&mut self, pos: &Chess) {
        let tt = self.tt_move;
        let list = &mut self.list;
        let push = |m: Move| {
            if Some(m) != tt {
                list.push(ScoredMove {
                    mv: m,
                    score: mvv_lva(m),
                });
            }
        };
        match self.kind {
            PickerKind::Tacticals => tactical_moves(pos, push),
            PickerKind::All => {
                if self.quiet_gen.is_none() {
                    self.quiet_gen = LegalGen::new(pos);
                }
                if let Some(g) = self.quiet_gen {
                    g.tacticals(pos, push);
                }
            }
            PickerKind::Evasions => {
                let moves = pos.legal_moves();
                self.any_legal |= !moves.is_empty();
                for &m in &moves {
                    if is_tactical(m) && Some(m) != tt {
                        list.push(ScoredMove {
                            mv: m,
                            score: mvv_lva(m),
                        });
                    }
                }
                self.tactical_end = list.len();
                for &m in &moves {
                    if !is_tactical(m) && Some(m) != tt {
                        list.push(ScoredMove { mv: m, score: 0 });
                    }
                }
                return;
            }
        }
        self.tactical_end = list.len();
        self.any_legal |= !list.is_empty();
    }

    /// The quiet moves of a position not in check, appended unscored (once the tactical stage
    /// is over, so the list is laid out as if everything had been generated at once).
    fn generate_quiets(&mut self, pos: &Chess) {
        let Some(g) = self.quiet_gen.take() else {
            return;
        };
        let tt = self.tt_move;
        let list = &mut self.list;
        let before = list.len();
        g.quiets(pos, |m| {
            if Some(m) != tt {
                list.push(ScoredMove { mv: m, score: 0 });
            }
        });
        self.any_legal |= list.len() > before;
    }

    /// Move the best-scored move of `[cur, end)` to `cur` (the first of equals) and return its
    /// index.
    fn select_best(&mut self, end: usize) -> usize {
        let range = &mut self.list[self.cur..end];
        let mut best = 0;
        let mut best_score = i32::MIN;
        for (i, sm) in range.iter().enumerate() {
            if sm.score > best_score {
                best_score = sm.score;
                best = i;
            }
        }
        range.swap(0, best);
        self.cur += 1;
        self.cur - 1
    }

    /// Hand out the quiet move matching `packed` (a killer or the counter-move), if legal here.
    fn take_quiet(&mut self, packed: PackedMove) -> Option<Move> {
        if packed.is_none() {
            return None;
        }
        let i = (self.cur..self.list.len()).find(|&i| packed.matches(self.list[i].mv))?;
        self.list.swap(self.cur, i);
        self.cur += 1;
        Some(self.list[self.cur - 1].mv)
    }

    /// The next move, best first; `None` when the node is exhausted. `checks` says which quiet
    /// moves give check (used only after [`MovePicker::quiet_checks_only`]).
    pub fn next(&mut self, pos: &Chess, heur: &Heuristics, checks: &CheckInfo) -> Option<Picked> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    self.tt_move = self.legal_tt_move(pos);
                    if let Some(m) = self.tt_move {
                        self.any_legal = true;
                        let see = if is_tactical(m) {
                            good_capture_bound(m).unwrap_or_else(|| see(pos, m))
                        } else {
                            0
                        };
                        if self.kind == PickerKind::Tacticals && see < 0 {
                            continue;
                        }
                        return Some(Picked {
                            mv: m,
                            see,
                            refutation: false,
                            fork: self.is_fork(m),
                        });
                    }
                }
                Stage::Generate => {
                    self.generate(pos);
                    self.stage = Stage::GoodTacticals;
                }
                Stage::GoodTacticals => {
                    if self.cur >= self.tactical_end {
                        self.stage = if self.kind == PickerKind::Tacticals {
                            Stage::Done
                        } else {
                            Stage::GenerateQuiets
                        };
                        if self.find_forks {
                            let board = pos.board();
                            let theirs = board.by_color(!self.turn);
                            let targets = theirs & (board.kings() | board.queens() | board.rooks());
                            self.forks = winning_fork_squares(board, self.turn, targets);
                        }
                        continue;
                    }
                    let i = self.select_best(self.tactical_end);
                    let m = self.list[i].mv;
                    let s = good_capture_bound(m).unwrap_or_else(|| see(pos, m));
                    if s >= 0 {
                        return Some(Picked {
                            mv: m,
                            see: s,
                            refutation: false,
                            fork: false,
                        });
                    }
                    // Set aside, in MVV-LVA order, with its SEE.
                    self.list[i].score = s;
                    self.list.swap(self.bad_end, i);
                    self.bad_end += 1;
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos);
                    self.stage = Stage::Killer1;
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let packed = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::ScoreQuiets,
                    };
                    if let Some(m) = self.take_quiet(packed) {
                        return Some(Picked {
                            mv: m,
                            see: 0,
                            refutation: true,
                            fork: self.is_fork(m),
                        });
                    }
                }
                Stage::ScoreQuiets => {
                    if !self.checks_only {
                        for i in self.cur..self.list.len() {
                            let m = self.list[i].mv;
                            self.list[i].score = heur.quiet_score(self.turn, self.prev, m);
                        }
                        if self.forks.any() {
                            for i in self.cur..self.list.len() {
                                if self.is_fork(self.list[i].mv) {
                                    self.list[i].score += FORK_ORDER_BONUS;
                                }
                            }
                        }
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.cur >= self.list.len() {
                        self.stage = Stage::BadTacticals;
                        self.cur = 0;
                        continue;
                    }
                    let i = if self.checks_only {
                        self.cur += 1;
                        self.cur - 1
                    } else {
                        self.select_best(self.list.len())
                    };
                    let m = self.list[i].mv;
                    let fork = self.is_fork(m);
                    if self.checks_only && !fork && !checks.gives_check_quick(pos, m) {
                        continue;
                    }
                    return Some(Picked {
                        mv: m,
                        see: 0,
                        refutation: false,
                        fork,
                    });
                }
                Stage::BadTacticals => {
                    if self.cur >= self.bad_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.cur += 1;
                    let bad = self.list[self.cur - 1];
                    return Some(Picked {
                        mv: bad.mv,
                        see: bad.score,
                        refutation: false,
                        fork: false,
                    });
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exchange evaluation as first written (every attacker set recomputed from the board,
    /// an `ArrayVec` of gains): the oracle for the faster [`see`].
    fn see_reference(pos: &Chess, m: Move) -> i32 {
        let (from, to) = match m {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
            _ => return 0,
        };
        let board = pos.board();
        let mut occupied = board.occupied() ^ Bitboard::from_square(from);
        if let Move::EnPassant { .. } = m {
            let victim = shakmaty::Square::from_coords(to.file(), from.rank());
            occupied ^= Bitboard::from_square(victim);
        }
        let mut gain: ArrayVec<i32, 40> = ArrayVec::new();
        let mut on_square = m.promotion().unwrap_or(m.role());
        let mut first = captured_value(m);
        if let Some(p) = m.promotion() {
            first += role_value(p) - role_value(Role::Pawn);
        }
        gain.push(first);
        let mut side = !pos.turn();
        loop {
            let attackers = board.attacks_to(to, side, occupied) & occupied;
            if attackers.is_empty() || gain.is_full() {
                break;
            }
            let mut picked = None;
            for role in Role::ALL {
                let set = attackers & board.by_role(role);
                if let Some(sq) = set.first() {
                    picked = Some((role, sq));
                    break;
                }
            }
            let Some((role, sq)) = picked else { break };
            if role == Role::King && (board.attacks_to(to, !side, occupied) & occupied).any() {
                // The king may not capture into a defended square.
                break;
            }
            let prev = *gain.last().unwrap_or(&0);
            gain.push(role_value(on_square) - prev);
            occupied ^= Bitboard::from_square(sq);
            on_square = role;
            side = !side;
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap_or(0);
            if let Some(prev) = gain.last_mut() {
                *prev = -(-*prev).max(last);
            }
        }
        gain[0]
    }

    /// Random games: `see` equals the reference on every capture and promotion.
    #[test]
    fn see_matches_the_reference() {
        use shakmaty::{CastlingMode, fen::Fen};
        let mut seed = 0x1234_5678_9abc_def1_u64;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            for _ in 0..30 {
                let mut pos: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .unwrap();
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        assert_eq!(see(&pos, m), see_reference(&pos, m), "{m:?}");
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn see_of_a_rook_taking_a_defended_pawn_loses_the_exchange() {
        use super::see;
        use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};
        // A rook takes a pawn defended by a pawn: loses 400.
        let pos: Chess = "4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = "e1e5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(see(&pos, m), 100 - 500);
    }
}
