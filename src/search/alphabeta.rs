//! The recursive search: principal variation search with pruning and reductions, and the
//! quiescence search. One [`Worker`] runs one search; the [`super::Searcher`] owns what
//! persists between searches and drives iterative deepening.

use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, Position};

use super::CurrentMoveInfo;
use super::board::{CheckInfo, is_tactical, prefetch_key, unpack_candidate};
use super::history::{Heuristics, Prior};
use super::movepick::{MovePicker, PickerKind};
use super::params::*;
use super::singular::Singular;
use super::tt::{PackedMove, TtBound};
use super::worker::Worker;
use crate::value::{MAX_PLY, Value};

/// Reductions by `[depth][move number]`, both capped at 63.
pub type LmrTable = [[i32; 64]; 64];

/// Build the late-move-reduction table: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR`.
#[must_use]
pub fn lmr_table() -> Box<LmrTable> {
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
            *r = v as i32;
        }
    }
    t
}

impl<'a> Worker<'a> {
    /// Whether to unwind: stop flag, node limit (over all threads) or hard time limit.
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let poll = self.nodes & (POLL_INTERVAL - 1) == 0;
        if poll {
            self.publish_nodes();
        }
        // With one thread the node limit is exact; with several it is checked at each poll.
        if self.nodes >= self.node_limit
            || (poll
                && (self.control.stop.load(Ordering::Relaxed)
                    || self.time.hard_exceeded()
                    || (self.counters.len() > 1 && self.total_nodes() >= self.node_limit)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Draw by the 50-move rule, insufficient material or any repetition since the last
    /// irreversible move (in the tree or in the game); `pos` is the node at `ply`.
    fn is_draw(&self, pos: &Chess, ply: usize) -> bool {
        let halfmoves = pos.halfmoves() as usize;
        if halfmoves >= 100 {
            // Checkmate on the hundredth half-move still counts as mate.
            return !pos.is_check() || !pos.legal_moves().is_empty();
        }
        pos.is_insufficient_material() || self.frames.repeats(ply, halfmoves)
    }

    /// The score of a drawn position: zero, give or take one centipawn by the node count, so
    /// that lines reaching the same draw by repetition do not all score alike and the search
    /// keeps looking for a way out of (or into) them.
    fn draw_score(&self) -> Value {
        if DRAW_JITTER {
            Value(1 - (self.nodes & 2) as i32)
        } else {
            Value::DRAW
        }
    }

    /// Learn from a beta cutoff by `m` at `ply`: a quiet cut move gets a history bonus and the
    /// quiets tried before it a malus, and becomes a killer and the counter-move; a tactical
    /// cut move gets a capture-history bonus; the tactical moves tried before it, which did not
    /// cut, a malus either way.
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        turn: Color,
        prior: Prior,
        ply: usize,
        depth: i32,
        m: Move,
        quiets: &[Move],
        tacticals: &[Move],
    ) {
        let bonus = Heuristics::bonus(depth);
        if is_tactical(m) {
            self.heur.update_capture(turn, m, bonus);
        } else {
            self.heur.update_history(turn, prior, m, bonus);
            for &q in quiets {
                self.heur.update_history(turn, prior, q, -bonus);
            }
            self.heur
                .store_cutoff(turn, ply, m, self.frames[ply].played);
        }
        for &t in tacticals {
            self.heur.update_capture(turn, t, -bonus);
        }
    }

    /// Principal variation search of `pos` to `depth` plies within `(alpha, beta)`;
    /// `in_check` must be `pos.is_check()` (the parent knows it); `cut_node` says the node is
    /// expected to fail high (a null-window node whose parent expects it to refute the move).
    #[allow(clippy::too_many_arguments)]
    pub fn negamax(
        &mut self,
        pos: &Chess,
        in_check: bool,
        depth: i32,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
        cut_node: bool,
    ) -> Value {
        self.frames.clear_pv(ply);
        if self.should_stop() {
            return Value::DRAW;
        }
        let root = ply == 0;
        let pv_node = beta.0 - alpha.0 > 1;
        if !root {
            if self.is_draw(pos, ply) {
                return self.draw_score();
            }
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
            // Mate distance pruning: no line from here beats a faster mate found elsewhere.
            alpha = alpha.max(Value::mated_in(ply));
            beta = beta.min(Value::mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let mut depth = depth;
        if in_check {
            depth += 1; // check extension
        }
        if depth <= 0 {
            return self.qsearch(pos, in_check, ply, 0, alpha, beta);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let key = self.frames[ply].key;

        let excluded = self.frames[ply].excluded;
        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(PackedMove::NONE, |h| h.mv);
        if let Some(h) = hit
            && excluded.is_none()
            && !pv_node
            && !root
            && h.depth >= depth
            && h.cuts(alpha, beta)
        {
            return h.value;
        }
        // Tablebases after a capture or pawn move (hook 2 of 2; never without tables).
        if !root
            && excluded.is_none()
            && let Some(v) = self.tb.probe(pos, depth, ply, alpha, beta)
        {
            return v;
        }

        // Corrected by what the search learned about similar positions (`correction.rs`).
        let (raw_eval, static_eval) = self.static_evals(pos, ply, hit, in_check);
        // The TT score is a better estimate than the static eval when its bound allows.
        let eval = match hit {
            Some(h)
                if !in_check
                    && !h.value.is_mate()
                    && match h.bound {
                        TtBound::Exact => true,
                        TtBound::Lower => h.value > static_eval,
                        TtBound::Upper => h.value < static_eval,
                    } =>
            {
                h.value
            }
            _ => static_eval,
        };
        self.frames.set_static_evals(ply, raw_eval, static_eval);
        let improving = !in_check && ply >= 2 && static_eval > self.frames[ply - 2].static_eval;
        self.heur.clear_killers(ply + 1);

        if !pv_node
            && !in_check
            && !root
            && excluded.is_none()
            && let Some(v) = self.prune_node(
                pos,
                depth,
                ply,
                beta,
                static_eval,
                eval,
                improving,
                hit,
                cut_node,
            )
        {
            return v;
        }

        // Internal iterative reduction: without a TT move this node is probably not critical.
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() {
            depth -= 1;
        }

        let turn = pos.turn();
        let checks = CheckInfo::new(pos);
        let prior = [
            self.frames[ply].played,
            ply.checked_sub(1).and_then(|p| self.frames[p].played),
        ];
        let mut picker = MovePicker::new(
            pos,
            if in_check {
                PickerKind::Evasions
            } else {
                PickerKind::All
            },
            tt_move,
            self.heur,
            ply,
            prior,
        );
        if !in_check {
            // Quiet knight forks of king, queens and rooks that keep their gain: ordered early,
            // never reduced or pruned.
            picker.find_forks();
        }
        let tt_tactical =
            unpack_candidate(pos, tt_move).is_some_and(|m| m.is_capture() || m.is_promotion());
        let mut best = -Value::INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut tacticals: ArrayVec<Move, 32> = ArrayVec::new();
        let mut searched = 0usize;

        while let Some(picked) = picker.next(pos, self.heur, &checks) {
            let m = picked.mv;
            if (root && !self.root_moves.contains(&m)) || excluded == Some(m) {
                continue;
            }
            // The child's TT bucket, fetched while this move is judged and made.
            self.tt.prefetch(prefetch_key(pos, key, m));
            let quiet = !is_tactical(m);
            let gives_check = checks.gives_check(pos, m);
            let history = if quiet {
                self.heur.quiet_score(turn, prior, m)
            } else {
                self.heur.capture_score(turn, m)
            };
            // Pruning of hopeless moves, once a move that avoids mate is known. Checking
            // moves are never pruned: mating attacks often begin with a quiet check; nor are
            // winning knight forks.
            let prune =
                !root && best.0 > -Value::MATE_BOUND.0 && !in_check && !gives_check && !picked.fork;
            if prune
                && let Some(all_quiets) = self.futile(
                    pos,
                    &picked,
                    quiet,
                    depth,
                    improving,
                    eval,
                    alpha,
                    quiets.len(),
                    history,
                )
            {
                if all_quiets {
                    picker.quiet_checks_only();
                }
                continue;
            }
            let extension = match hit {
                // Not at in-check nodes: the check extension has already added its ply there.
                Some(h)
                    if !root
                        && !in_check
                        && excluded.is_none()
                        && PackedMove::pack(m) == tt_move =>
                {
                    match self.singular_extension(pos, depth, ply, beta, m, h, pv_node, cut_node) {
                        Singular::Extend(e) => e,
                        Singular::Cut(v) => return v,
                    }
                }
                _ => 0,
            };
            let child = self.make(pos, m, ply, extension >= 2);
            searched += 1;
            if root && self.time.elapsed().as_millis() as u64 >= CURRMOVE_AFTER_MS {
                self.reporter.on_current_move(&CurrentMoveInfo {
                    depth: self.root_depth as u32,
                    mv: m,
                    number: searched,
                    time: self.time.elapsed(),
                });
            }
            let nodes_before = self.nodes;
            let new_depth = depth - 1 + extension;
            let mut v;
            if searched == 1 {
                v = -self.negamax(
                    &child,
                    gives_check,
                    new_depth,
                    ply + 1,
                    -beta,
                    -alpha,
                    !pv_node && !cut_node,
                );
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && searched > LMR_MIN_MOVES
                    && (quiet || picked.see < 0)
                    && !picked.fork
                {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)];
                    r += i32::from(!pv_node) - i32::from(pv_node);
                    r -= i32::from(improving);
                    r -= i32::from(picked.refutation);
                    r -= i32::from(gives_check);
                    // A node expected to fail high needs only one move to do it: the late
                    // ones are searched shallower still.
                    r += LMR_CUT_NODE * i32::from(cut_node);
                    // A tactical TT move is likely the best here; the quiet alternatives less so.
                    r += i32::from(tt_tactical);
                    r -= history
                        / if quiet {
                            LMR_HISTORY_DIVISOR
                        } else {
                            LMR_CAPTURE_HISTORY_DIVISOR
                        };
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let (a, b) = (-alpha - 1, -alpha);
                v = -self.negamax(
                    &child,
                    gives_check,
                    new_depth - r,
                    ply + 1,
                    a,
                    b,
                    r > 0 || !cut_node,
                );
                if v > alpha && r > 0 {
                    v = -self.negamax(&child, gives_check, new_depth, ply + 1, a, b, !cut_node);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(
                        &child,
                        gives_check,
                        new_depth,
                        ply + 1,
                        -beta,
                        -alpha,
                        false,
                    );
                }
            }
            if root {
                self.root_nodes.add(m, self.nodes - nodes_before);
            }
            if self.stopped {
                return Value::DRAW;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    self.frames.update_pv(ply, m);
                    if v >= beta {
                        self.reward_cutoff(turn, prior, ply, depth, m, &quiets, &tacticals);
                        break;
                    }
                    alpha = v;
                }
            }
            if quiet {
                let _ = quiets.try_push(m);
            } else {
                let _ = tacticals.try_push(m);
            }
        }

        if searched == 0 {
            if excluded.is_some() {
                // Only the excluded move was legal: it is singular by any measure.
                return alpha;
            }
            if picker.no_legal_moves() {
                return if in_check {
                    Value::mated_in(ply)
                } else {
                    Value::DRAW
                };
            }
            // Everything was pruned: fail low with the best guess available.
            return alpha;
        }
        let bound = TtBound::of(best, beta, best_move.is_some());
        if !in_check && excluded.is_none() {
            let quiet = best_move.is_none_or(|m| !is_tactical(m));
            self.learn_correction(pos, ply, depth, raw_eval, static_eval, best, bound, quiet);
        }
        if (!root || self.store_root) && excluded.is_none() {
            let mv = best_move.map_or(PackedMove::NONE, PackedMove::pack);
            self.tt.store(key, mv, best, raw_eval, depth, bound, ply);
        }
        best
    }
}
