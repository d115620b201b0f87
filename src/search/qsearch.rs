//! The quiescence search: captures and queen promotions until the position is quiet, all
//! evasions when in check, and at its first ply only, checking knight forks.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Move, Position, Role, attacks};

use super::board::CheckInfo;
use super::movepick::{MovePicker, PickerKind, see};
use super::see::captured_value;
use super::stats::Rule;
use super::tt::{PackedMove, TtBound};
use super::worker::Worker;
use crate::eval::tactics::winning_fork_squares;
use crate::geometry::knight_attacks_set;
use crate::value::{MAX_PLY, Value};

impl Worker<'_> {
    /// Quiescence search: captures and queen promotions, then, at its first ply (`qply` 0),
    /// quiet knight moves that fork the king with check and keep their gain (all evasions when
    /// in check); `in_check` must be `pos.is_check()`, `qply` counts the plies since the main
    /// search handed over.
    pub fn qsearch(
        &mut self,
        pos: &Chess,
        in_check: bool,
        ply: usize,
        qply: usize,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        self.frames.clear_pv(ply);
        if self.should_stop() {
            return Value::DRAW;
        }
        self.nodes += 1;
        self.stats.qnode();
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 2 {
            return if in_check {
                Value::DRAW
            } else {
                self.eval.evaluate_cached(
                    pos.board(),
                    pos.turn(),
                    self.frames[ply].psqt,
                    self.pawn_king,
                )
            };
        }
        let pv_node = beta.0 - alpha.0 > 1;
        let key = self.frames[ply].key;
        // Not in check, evaluate before the probe: the TT bucket, prefetched when the move was
        // made, arrives meanwhile (nine nodes in ten here miss the TT anyway). A hit's stored
        // evaluation is this same value.
        let fresh_eval = if in_check {
            -Value::INFINITE
        } else {
            self.eval.evaluate_cached(
                pos.board(),
                pos.turn(),
                self.frames[ply].psqt,
                self.pawn_king,
            )
        };
        let hit = self.tt.probe(key, ply);
        if let Some(h) = hit
            && !pv_node
            && h.cuts(alpha, beta)
        {
            return h.value;
        }
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        let (raw_eval, static_eval);
        let mut best;
        if in_check {
            raw_eval = -Value::INFINITE;
            static_eval = -Value::INFINITE;
            best = -Value::INFINITE;
        } else {
            raw_eval = hit.map_or(fresh_eval, |h| h.eval);
            static_eval =
                self.heur
                    .correction
                    .corrected(pos.turn(), &self.frames[ply].corr_keys, raw_eval);
            self.stats.record(Rule::QStandPat, static_eval >= beta);
            if static_eval >= beta {
                return static_eval;
            }
            alpha = alpha.max(static_eval);
            best = static_eval;
        }

        let kind = if in_check {
            PickerKind::Evasions
        } else {
            PickerKind::Tacticals
        };
        // Computed only when a move is about to be made: many nodes prune every capture.
        let mut checks: Option<CheckInfo> = None;
        let mut picker = MovePicker::new(pos, kind, tt_move, self.heur, ply, [None; 2]);
        let mut best_move = None;
        // Checking knight forks, generated once the tactical moves are exhausted.
        let mut forks: Option<ArrayVec<Move, 16>> = None;
        let mut next_fork = 0;
        loop {
            let (m, gives_check) =
                if let Some(picked) = picker.next(pos, self.heur, &CheckInfo::NONE) {
                    let m = picked.mv;
                    // (The picker hands out no capture that loses material.)
                    if !in_check && m.promotion().is_none() {
                        let futile =
                            static_eval.0 + captured_value(m) + self.params.delta_margin <= alpha.0;
                        self.stats.record(Rule::QDelta, futile);
                        if futile {
                            continue;
                        }
                        // Far below alpha an even trade cannot lift the score: only captures
                        // that win material (SEE ≥ 1) are searched. `picked.see` may be a lower
                        // bound.
                        let even = static_eval.0 + self.params.qsearch_see_margin <= alpha.0
                            && picked.see < 1
                            && see(pos, m) < 1;
                        self.stats.record(Rule::QSee, even);
                        if even {
                            continue;
                        }
                    }
                    let gives_check = checks
                        .get_or_insert_with(|| CheckInfo::new(pos))
                        .gives_check(pos, m);
                    (m, gives_check)
                } else if in_check || qply > 0 {
                    // Quiet checks only at the quiescence search's first ply: further down a
                    // fork, an evasion and another fork can follow each other without end.
                    break;
                } else if let Some(&m) = forks
                    .get_or_insert_with(|| {
                        if self.params.qsearch_quiet_checks > 0 {
                            quiet_checks(pos)
                        } else {
                            checking_forks(pos)
                        }
                    })
                    .get(next_fork)
                {
                    next_fork += 1;
                    (m, true)
                } else {
                    break;
                };
            let child = self.make(pos, m, ply, false);
            let v = -self.qsearch(&child, gives_check, ply + 1, qply + 1, -beta, -alpha);
            if self.stopped {
                return Value::DRAW;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    self.frames.update_pv(ply, m);
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && picker.no_legal_moves() {
            return Value::mated_in(ply);
        }
        let bound = TtBound::of(best, beta, best_move.is_some());
        let mv = best_move.map_or(PackedMove::NONE, PackedMove::pack);
        let eval_store = if in_check { Value::DRAW } else { raw_eval };
        self.tt.store(key, mv, best, eval_store, 0, bound, ply);
        best
    }
}

/// The legal quiet moves of `pos` (not in check) that give check and lose nothing by SEE:
/// the first quiescence ply's answer to a quiet mating threat (Stockfish's quiet checks at
/// depth 0), at most 16 of them.
fn quiet_checks(pos: &Chess) -> ArrayVec<Move, 16> {
    let mut moves = ArrayVec::new();
    let checks = CheckInfo::new(pos);
    for m in pos.legal_moves() {
        if m.is_capture() || m.is_promotion() || !checks.gives_check(pos, m) || see(pos, m) < 0 {
            continue;
        }
        if moves.try_push(m).is_err() {
            break;
        }
    }
    moves
}

/// The legal quiet knight moves of `pos` (not in check) that give check and fork the enemy king
/// with a queen or rook, on a square where the knight keeps the gain
/// ([`winning_fork_squares`]). Cheap when there is none: one set-wise test first.
fn checking_forks(pos: &Chess) -> ArrayVec<Move, 16> {
    let mut moves = ArrayVec::new();
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let Some(king) = board.king_of(them) else {
        return moves;
    };
    let knights = board.by_piece(Role::Knight.of(us));
    let checks = attacks::knight_attacks(king) & !board.occupied() & knight_attacks_set(knights);
    if checks.is_empty() {
        return moves;
    }
    let targets = board.by_color(them) & (board.kings() | board.queens() | board.rooks());
    let squares: Bitboard = winning_fork_squares(board, us, targets) & checks;
    for to in squares {
        for from in attacks::knight_attacks(to) & knights {
            let m = Move::Normal {
                role: Role::Knight,
                from,
                capture: None,
                to,
                promotion: None,
            };
            if pos.is_legal(m) {
                let _ = moves.try_push(m);
            }
        }
    }
    moves
}
