//! The quiescence search: captures and queen promotions until the position is quiet, all
//! evasions when in check, and at its first ply only, checking knight forks.

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Move, Position, Role, attacks};

use super::board::CheckInfo;
use super::correction::Correction;
use super::movepick::{MovePicker, Picked, PickerKind, see};
use super::see::captured_value;
use super::stats::Rule;
use super::tt::{NO_EVAL, PackedMove, TtBound};
use super::worker::Worker;
use crate::eval::bounded::LazyWindow;
use crate::eval::tactics::winning_fork_squares;
use crate::geometry::knight_attacks_set;
use crate::value::{MAX_PLY, Value};

/// What the quiescence search's steps know of its node once the static evaluation is in.
#[derive(Clone, Copy)]
struct QNode {
    /// Distance from the root.
    ply: usize,
    /// Plies since the main search handed over.
    qply: usize,
    /// Whether the side to move is in check.
    in_check: bool,
    /// The upper bound of the window.
    beta: Value,
    /// The corrected static evaluation (`-INFINITE` in check): what delta and SEE pruning
    /// compare with alpha.
    static_eval: Value,
    /// The stand pat's score, where the move loop's best starts: the static evaluation, or,
    /// for a lazy estimate below the window, the estimate moved toward alpha
    /// (`lazy_shift_percent`).
    stand_pat: Value,
}

/// What the quiescence search's move loop found.
struct QMovesSearched {
    /// The best score (the stand-pat score when no move beat it; `-INFINITE` in check when no
    /// move was searched).
    best: Value,
    /// The move that raised alpha last, if any did.
    best_move: Option<Move>,
    /// In check with no legal move: mated.
    mated: bool,
}

impl Worker<'_> {
    /// Quiescence search: captures and queen promotions, then, at its first ply (`qply` 0),
    /// quiet knight moves that fork the king with check and keep their gain (all evasions when
    /// in check); `in_check` must be `pos.is_check()`, `qply` counts the plies since the main
    /// search handed over.
    ///
    /// What each step is worth (Elo against the same search without it, from our own games,
    /// as in [`Worker::negamax`]'s steps): 1, the ply limit: not measured (a safety bound); 2,
    /// TT cutoffs: not measured; 3, stand pat: not measured (without it the search would not
    /// end); 4, the moves, with delta and SEE pruning (`futile_capture`) and the checking
    /// knight forks: not measured; 5, the TT store: not measured.
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

        // Step 1: the ply limit ends the line.
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

        // Step 2: the transposition table may answer at once (not at PV nodes).
        let pv_node = beta.0 - alpha.0 > 1;
        let key = self.frames[ply].key;
        // Not in check, evaluate before the probe: the TT bucket, prefetched when the move was
        // made, arrives meanwhile (nine nodes in ten here miss the TT anyway). A hit's stored
        // evaluation is this same value. With lazy evaluation on it may be an estimate (not
        // exact), standing for the evaluation on its side of the stand pat's window.
        let fresh_eval = if in_check {
            (-Value::INFINITE, 0)
        } else {
            self.stand_pat_eval(pos, ply, alpha, beta)
        };
        let hit = self.tt.probe(key, ply);
        if let Some(h) = hit
            && !pv_node
            && h.cuts(alpha, beta)
        {
            return h.value;
        }

        // Step 3: stand pat: not in check, the side to move may decline every capture, so the
        // corrected static evaluation is a lower bound (and may cut).
        // An estimate's score is moved toward the window by `lazy_shift_percent` of its
        // margin, which keeps it outside: as far as the margin holds, at 100 % a true bound.
        let (raw_eval, eval_exact, static_eval, stand_pat) = if in_check {
            let none = -Value::INFINITE;
            (none, true, none, none)
        } else {
            let (raw, margin) = match hit {
                Some(h) if h.eval != NO_EVAL => (h.eval, 0),
                _ => fresh_eval,
            };
            let shift = margin * self.params.lazy_shift_percent / 100;
            let corr_keys = &self.frames[ply].corr_keys;
            let corrected = self.heur.correction.corrected(pos.turn(), corr_keys, raw);
            let corrected = Correction::grained(corrected, self.params.eval_grain);
            self.stats.record(Rule::QStandPat, corrected >= beta);
            if corrected >= beta {
                return Value(corrected.0 - shift);
            }
            let stand_pat = Value(corrected.0 + shift);
            alpha = alpha.max(stand_pat);
            (raw, margin == 0, corrected, stand_pat)
        };

        // Step 4: the moves (`qsearch_moves`): captures and promotions, or every evasion.
        let node = QNode {
            ply,
            qply,
            in_check,
            beta,
            static_eval,
            stand_pat,
        };
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        let Some(moves) = self.qsearch_moves(pos, &node, alpha, tt_move) else {
            return Value::DRAW;
        };

        // Step 5: mated; else what the node found goes to the TT.
        if moves.mated {
            return Value::mated_in(ply);
        }
        let best = moves.best;
        let bound = TtBound::of(best, beta, moves.best_move.is_some());
        let mv = moves.best_move.map_or(PackedMove::NONE, PackedMove::pack);
        // A lazy estimate is no evaluation to keep: the main search reads the stored one.
        let eval_store = match (in_check, eval_exact) {
            (true, _) => Value::DRAW,
            (false, true) => raw_eval,
            (false, false) => NO_EVAL,
        };
        // A quiescence result keeps the entry's ttPv bit: it says nothing about the PV.
        let pv = hit.is_some_and(|h| h.pv);
        self.tt.store(key, mv, best, eval_store, 0, bound, ply, pv);
        best
    }

    /// The raw static evaluation of the quiescence node `pos` at `ply` (not in check) for a
    /// stand pat in the window `(alpha, beta)`, and 0 if it is exact, else the margin of the
    /// estimate it is. With lazy evaluation
    /// on (`lazy_margin_early`, `lazy_margin_late`) the evaluation gets the window less the
    /// correction (the stand pat compares the corrected value) and may answer with an estimate
    /// far outside it.
    fn stand_pat_eval(
        &mut self,
        pos: &Chess,
        ply: usize,
        alpha: Value,
        beta: Value,
    ) -> (Value, i32) {
        let (board, turn, psqt) = (pos.board(), pos.turn(), self.frames[ply].psqt);
        let (early, late) = (self.params.lazy_margin_early, self.params.lazy_margin_late);
        if early <= 0 && late <= 0 {
            let exact = self.eval.evaluate_cached(board, turn, psqt, self.pawn_king);
            #[cfg(feature = "search-stats")]
            self.measure_lazy(pos, ply, exact, alpha, beta);
            return (exact, 0);
        }
        let correction = self
            .heur
            .correction
            .correction(turn, &self.frames[ply].corr_keys);
        let window = LazyWindow {
            alpha: alpha.0 - correction,
            beta: beta.0 - correction,
            early_margin: early,
            late_margin: late,
        };
        let bounded = self
            .eval
            .evaluate_within(board, turn, psqt, window, self.pawn_king);
        (bounded.value, bounded.margin)
    }

    /// The `search-stats` build's measurement of the lazy evaluation at a stand pat whose
    /// exact raw evaluation is `exact`: both estimates against the window less the correction.
    #[cfg(feature = "search-stats")]
    fn measure_lazy(&mut self, pos: &Chess, ply: usize, exact: Value, alpha: Value, beta: Value) {
        let (board, turn, psqt) = (pos.board(), pos.turn(), self.frames[ply].psqt);
        let correction = self
            .heur
            .correction
            .correction(turn, &self.frames[ply].corr_keys);
        let estimates = [
            self.eval.cheap_estimate(board, turn, psqt, self.pawn_king),
            self.eval.lazy_estimate(board, turn, psqt, self.pawn_king),
        ];
        self.stats.lazy_sample(
            exact.0,
            estimates.map(|e| e.map(|v| v.0)),
            alpha.0 - correction,
            beta.0 - correction,
        );
    }

    /// Step 4 of the quiescence search: the moves of `node` from `alpha` (its TT move
    /// `tt_move` first): in check every evasion; else the captures and queen promotions that
    /// may lift the score (`futile_capture`), then at the first ply the checking knight forks
    /// (`checking_forks`). `None` when the search stopped.
    fn qsearch_moves(
        &mut self,
        pos: &Chess,
        node: &QNode,
        mut alpha: Value,
        tt_move: PackedMove,
    ) -> Option<QMovesSearched> {
        let (ply, in_check, beta) = (node.ply, node.in_check, node.beta);
        let mut best = node.stand_pat;
        let kind = if in_check {
            PickerKind::Evasions
        } else {
            PickerKind::Tacticals
        };
        // Computed only when a move is about to be made: many nodes prune every capture.
        let mut checks: Option<CheckInfo> = None;
        let mut picker = MovePicker::new(pos, kind, tt_move, self.heur, ply, [None; 3]);
        let mut best_move = None;
        // Checking knight forks, generated once the tactical moves are exhausted.
        let mut forks: Option<ArrayVec<Move, 16>> = None;
        let mut next_fork = 0;
        loop {
            let (m, gives_check) =
                if let Some(picked) = picker.next(pos, self.heur, &CheckInfo::NONE) {
                    // (The picker hands out no capture that loses material.)
                    if !in_check && self.futile_capture(pos, picked, node.static_eval, alpha) {
                        continue;
                    }
                    let gives_check = checks
                        .get_or_insert_with(|| CheckInfo::new(pos))
                        .gives_check(pos, picked.mv);
                    (picked.mv, gives_check)
                } else if in_check || node.qply > 0 {
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
            let v = -self.qsearch(&child, gives_check, ply + 1, node.qply + 1, -beta, -alpha);
            if self.stopped {
                return None;
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
        Some(QMovesSearched {
            best,
            best_move,
            mated: in_check && picker.no_legal_moves(),
        })
    }

    /// Whether the capture `picked` of `pos` (not in check, `static_eval` its node's corrected
    /// static evaluation) is skipped: delta pruning (even winning the captured piece leaves the
    /// score below `alpha`) and, far below alpha, an even trade (SEE < 1), which cannot lift
    /// the score. Promotions are never skipped.
    #[inline]
    fn futile_capture(
        &mut self,
        pos: &Chess,
        picked: Picked,
        static_eval: Value,
        alpha: Value,
    ) -> bool {
        let m = picked.mv;
        if m.promotion().is_some() {
            return false;
        }
        let futile = static_eval.0 + captured_value(m) + self.params.delta_margin <= alpha.0;
        self.stats.record(Rule::QDelta, futile);
        if futile {
            return true;
        }
        // `picked.see` may be a lower bound; the exact exchange is computed only when needed.
        let even = static_eval.0 + self.params.qsearch_see_margin <= alpha.0
            && picked.see < 1
            && see(pos, m) < 1;
        self.stats.record(Rule::QSee, even);
        even
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
