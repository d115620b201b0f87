//! Move ordering: static exchange evaluation and a staged move picker that does as little work
//! as the node needs.
//!
//! Order: TT move, good captures and queen promotions (SEE ≥ 0, by MVV-LVA and capture
//! history), killers, the
//! counter-move, quiet knight forks that keep their gain, the other quiet moves by history, bad
//! captures. The stages are lazy: nothing is generated
//! before the TT move has been searched, a capture's SEE is computed when the capture comes up,
//! quiet moves are scored only when the quiet stage is reached, and once the search has said
//! that only checking quiet moves still matter, the rest are neither scored nor sorted.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Color, Move, Position, Role};

use super::board::{CheckInfo, is_tactical, tactical_moves, unpack_candidate};
use super::history::{Heuristics, Prior};
use super::lesser_threats::LesserThreats;
use super::movegen::LegalGen;
use super::params::{CAPTURE_HISTORY_ORDER_DIVISOR, FORK_ORDER_BONUS};
pub use super::see::see;
use super::see::{captured_value, role_value};
use super::tt::PackedMove;
use crate::eval::tactics::winning_fork_squares;

/// One move handed out by the [`MovePicker`].
#[derive(Clone, Copy, Debug)]
pub struct Picked {
    /// The move.
    pub mv: Move,
    /// Its exchange value (0 for quiet moves; for a capture that cannot lose material, possibly
    /// only a lower bound ≥ 0 — a use that compares it with a threshold > 0 runs the exchange).
    pub see: i32,
    /// Whether it is a killer or the counter-move.
    pub refutation: bool,
    /// Whether it is a quiet knight move to a square of the node's winning forks
    /// ([`MovePicker::set_forks`]).
    pub fork: bool,
}

/// A move with its ordering score (MVV-LVA for captures, history for quiet moves; a bad
/// capture's SEE once it has been set aside). Until the quiet moves are scored, a quiet move's
/// score holds its [`PackedMove`]: the killer and counter-move lookups, which come first, then
/// compare one integer per move instead of packing every move they pass.
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
    prior: Prior,
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
    /// The ordering bonus of a threatened piece's escape ([`MovePicker::order_threat_escapes`]).
    escape_bonus: i32,
    /// The ordering penalty of a piece put where a lesser enemy piece attacks it
    /// ([`MovePicker::demote_walk_ins`]).
    walk_in_penalty: i32,
    /// How many times the butterfly and continuation entries count in the ordering
    /// ([`MovePicker::weigh_recent_history`]).
    recent_weight: i32,
    /// The squares the enemy attacks, for the butterfly history's threat reading
    /// ([`MovePicker::read_history_with`]; empty while `history_threats` is off).
    attacked: Bitboard,
    /// The ordering bonus of a quiet check ([`MovePicker::order_quiet_checks`]).
    check_bonus: i32,
    /// What the enemy's lesser pieces attack, once the quiet moves come up (while
    /// `escape_bonus` or `walk_in_penalty` is on).
    threats: Option<LesserThreats>,
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

/// The score a quiet move carries until it is scored: its packed form (see [`ScoredMove`]).
#[inline(always)]
fn packed_score(m: Move) -> i32 {
    i32::from(PackedMove::pack(m).0)
}

/// MVV-LVA: the most valuable victim first, the least valuable attacker among equals.
fn mvv_lva(m: Move) -> i32 {
    captured_value(m) * 16 - role_value(m.role()) / 10 + m.promotion().map_or(0, role_value)
}

/// A tactical move's ordering score: MVV-LVA, shifted by how often this kind of capture (mover,
/// square, victim) has cut before — by less than the gap between two victims' values, so
/// history orders captures of similar victims and seldom overturns a clear material gain.
fn tactical_score(heur: &Heuristics, color: Color, m: Move) -> i32 {
    mvv_lva(m) + heur.capture_score(color, m) / CAPTURE_HISTORY_ORDER_DIVISOR
}

impl MovePicker {
    /// A picker for `pos` with the TT move `tt_move` (matched against the legal moves, never
    /// trusted) and the killers and counter-move of `ply` after the moves `prior`.
    #[must_use]
    pub fn new(
        pos: &Chess,
        kind: PickerKind,
        tt_move: PackedMove,
        heur: &Heuristics,
        ply: usize,
        prior: Prior,
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
            counter: heur.counter_move(turn, prior[0]),
            prior,
            turn,
            list: ArrayVec::new(),
            cur: 0,
            bad_end: 0,
            tactical_end: 0,
            checks_only: false,
            find_forks: false,
            forks: Bitboard::EMPTY,
            escape_bonus: 0,
            walk_in_penalty: 0,
            recent_weight: 1,
            attacked: Bitboard::EMPTY,
            check_bonus: 0,
            threats: None,
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

    /// Order first, among the quiet moves, those that take a piece attacked by a lesser enemy
    /// piece to a square no such piece attacks, by `bonus` (`threat_escape_bonus`; 0: off).
    pub fn order_threat_escapes(&mut self, bonus: i32) {
        self.escape_bonus = bonus;
    }

    /// Score the quiet moves with the butterfly entries of this reading of the enemy's attacks
    /// (`history_threats`; the empty set while it is off).
    pub fn read_history_with(&mut self, attacked: Bitboard) {
        self.attacked = attacked;
    }

    /// Count the butterfly and continuation entries `weight` times in the ordering of the quiet
    /// moves (`history_recent_weight`; Stockfish 15.1 counts them twice, the older
    /// continuations once).
    pub fn weigh_recent_history(&mut self, weight: i32) {
        self.recent_weight = weight;
    }

    /// Order last, among the quiet moves, those that put a piece where a lesser enemy piece
    /// attacks it, by `penalty` (`lesser_attack_penalty`; 0: off).
    pub fn demote_walk_ins(&mut self, penalty: i32) {
        self.walk_in_penalty = penalty;
    }

    /// Order first, among the quiet moves, those that give check, by `bonus`
    /// (`quiet_check_bonus`; 0: off).
    pub fn order_quiet_checks(&mut self, bonus: i32) {
        self.check_bonus = bonus;
    }

    /// Whether `m` is a quiet move that takes a threatened piece out of its lesser attackers'
    /// reach (false before the quiet moves come up, and while the bonus is off).
    #[must_use]
    pub fn is_threat_escape(&self, m: Move) -> bool {
        !is_tactical(m)
            && self
                .threats
                .as_ref()
                .is_some_and(|t| t.escape_bonus(m, 1) > 0)
    }

    /// Whether the side to move has a piece attacked by a lesser enemy piece (false before the
    /// quiet moves come up, and while the escape bonus is off).
    #[must_use]
    pub fn has_threatened_piece(&self) -> bool {
        self.threats.as_ref().is_some_and(|t| t.threatened.any())
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
    #[inline(never)]
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
    #[inline(never)]
    fn generate(&mut self, pos: &Chess, heur: &Heuristics) {
        let tt = self.tt_move;
        let turn = self.turn;
        let list = &mut self.list;
        let push = |m: Move| {
            if Some(m) != tt {
                list.push(ScoredMove {
                    mv: m,
                    score: tactical_score(heur, turn, m),
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
                            score: tactical_score(heur, turn, m),
                        });
                    }
                }
                self.tactical_end = list.len();
                for &m in &moves {
                    if !is_tactical(m) && Some(m) != tt {
                        list.push(ScoredMove {
                            mv: m,
                            score: packed_score(m),
                        });
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
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Chess) {
        let Some(g) = self.quiet_gen.take() else {
            return;
        };
        let tt = self.tt_move;
        let list = &mut self.list;
        let before = list.len();
        g.quiets(pos, |m| {
            if Some(m) != tt {
                list.push(ScoredMove {
                    mv: m,
                    score: packed_score(m),
                });
            }
        });
        self.any_legal |= list.len() > before;
    }

    /// Score the quiet moves from `cur` on by history, forks first. Kept out of line (as are
    /// the generators): each runs once per node, and [`MovePicker::next`], called once per
    /// move, stays small.
    #[inline(never)]
    fn score_quiets(&mut self, pos: &Chess, heur: &Heuristics, checks: &CheckInfo) {
        let score = heur.quiet_scorer(self.turn, self.prior, self.attacked, self.recent_weight);
        for sm in &mut self.list[self.cur..] {
            sm.score = score(sm.mv);
        }
        if let Some(threats) = self.threats.as_ref().filter(|t| t.threatened.any()) {
            for sm in &mut self.list[self.cur..] {
                sm.score += threats.escape_bonus(sm.mv, self.escape_bonus);
            }
        }
        if let Some(threats) = self.threats.as_ref().filter(|_| self.walk_in_penalty > 0) {
            for sm in &mut self.list[self.cur..] {
                sm.score -= threats.walk_in_penalty(sm.mv, self.walk_in_penalty);
            }
        }
        if self.check_bonus > 0 {
            for sm in &mut self.list[self.cur..] {
                if checks.gives_check_quick(pos, sm.mv) {
                    sm.score += self.check_bonus;
                }
            }
        }
        if self.forks.any() {
            for i in self.cur..self.list.len() {
                if self.is_fork(self.list[i].mv) {
                    self.list[i].score += FORK_ORDER_BONUS;
                }
            }
        }
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

    /// Hand out the quiet move matching `packed` (a killer or the counter-move), if legal here:
    /// the first unscored quiet move whose score, its packed form, equals `packed`
    /// ([`ScoredMove`]), the same move [`PackedMove::matches`] would find.
    fn take_quiet(&mut self, packed: PackedMove) -> Option<Move> {
        if packed.is_none() {
            return None;
        }
        let key = i32::from(packed.0);
        let i = self.cur
            + self.list[self.cur..]
                .iter()
                .position(|sm| sm.score == key)?;
        self.list.swap(self.cur, i);
        self.cur += 1;
        Some(self.list[self.cur - 1].mv)
    }

    /// When this picker looks for forks: the squares where a quiet knight move forks king,
    /// queens or rooks and keeps its gain, marked once the good tactical moves are out.
    #[inline]
    fn mark_fork_squares(&mut self, pos: &Chess) {
        if self.escape_bonus > 0 || self.walk_in_penalty > 0 {
            self.threats = Some(LesserThreats::new(pos.board(), self.turn));
        }
        if self.find_forks {
            let board = pos.board();
            let theirs = board.by_color(!self.turn);
            let targets = theirs & (board.kings() | board.queens() | board.rooks());
            self.forks = winning_fork_squares(board, self.turn, targets);
        }
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
                    self.generate(pos, heur);
                    self.stage = Stage::GoodTacticals;
                }
                Stage::GoodTacticals => {
                    if self.cur >= self.tactical_end {
                        self.stage = if self.kind == PickerKind::Tacticals {
                            Stage::Done
                        } else {
                            Stage::GenerateQuiets
                        };
                        self.mark_fork_squares(pos);
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
                        self.score_quiets(pos, heur, checks);
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
