//! The main search: principal variation search of one node in named steps ([`Worker::negamax`])
//! and its move loop. The steps that decide from the node's context live beside it: whole-node
//! and per-move pruning (`pruning.rs`, `probcut.rs`), the TT move's extension (`singular.rs`),
//! late move reductions (`reductions.rs`), the static evaluation (`static_eval.rs`) and the
//! quiescence search at the horizon (`qsearch.rs`). One [`Worker`] runs one search; the
//! [`super::Searcher`] owns what persists between searches and drives iterative deepening.

use std::ops::ControlFlow;

use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Move, Position};

use super::board::{CheckInfo, is_tactical, prefetch_key};
use super::history::{Heuristics, Prior};
use super::lesser_threats::enemy_attacks;
use super::movepick::{MovePicker, Picked};
use super::node::{Candidate, Node, RootContext};
use super::params::{CURRMOVE_AFTER_MS, DRAW_JITTER};
use super::reductions::late_move_reduction;
use super::stats::Rule;
use super::tt::{PackedMove, TtBound, TtHit};
use super::types::CurrentMoveInfo;
use super::worker::Worker;
use crate::value::{MAX_PLY, Value};

/// What the move loop of a node found.
struct MovesSearched {
    /// The best score (`-INFINITE` when no move was searched).
    best: Value,
    /// The move that raised alpha last, if any did.
    best_move: Option<Move>,
    /// Moves searched (not pruned, not skipped).
    searched: usize,
    /// Whether the node has no legal move at all (asked only when none was searched).
    no_legal_moves: bool,
}

impl Worker<'_> {
    /// Principal variation search of `pos`, a node below the root, to `depth` plies within
    /// `(alpha, beta)`; `in_check` must be `pos.is_check()` (the parent knows it); `cut_node`
    /// says the node is expected to fail high (a null-window node whose parent expects it to
    /// refute the move).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn negamax(
        &mut self,
        pos: &Chess,
        in_check: bool,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
        cut_node: bool,
    ) -> Value {
        self.search_node(pos, in_check, depth, ply, (alpha, beta), cut_node, None)
    }

    /// The search of the root `pos` to `depth` plies within `(alpha, beta)`: the steps of
    /// [`Worker::negamax`], with what only the root needs (`root`: the moves of this pass,
    /// whether the TT may keep the root, the iteration's depth for reports, and the nodes
    /// under each move, counted here).
    pub(super) fn search_root(
        &mut self,
        pos: &Chess,
        root: &mut RootContext,
        depth: i32,
        alpha: Value,
        beta: Value,
    ) -> Value {
        let window = (alpha, beta);
        self.search_node(pos, pos.is_check(), depth, 0, window, false, Some(root))
    }

    /// One node of the main search in named steps, for [`Worker::negamax`] (`root` `None`) and
    /// [`Worker::search_root`] (`root` given, at ply 0).
    ///
    /// What each step is worth, as Stockfish's and Ethereal's search comments give it: Elo
    /// against the same search without the step, from our own games (docs/results.md,
    /// docs/selectivity-log.md), or "not measured". No step has been ablated yet; where a
    /// change to a step was measured, that figure follows, marked as such.
    /// 1. The end of the line (draw, ply limit, mate distance): not measured.
    /// 2. The check extension, the quiescence search at the horizon: not measured. (A change:
    ///    extending in check only from depth 9, −13.9 ± 37.1 at 20,000 nodes a move, 200 games.)
    /// 3. TT cutoffs and tablebase probes: not measured.
    /// 4. The static evaluation and its correction: not measured.
    /// 5. Reverse futility, null move, ProbCut: not measured. (A change: the null move's
    ///    reduction 4 + d/3 instead of 3 + d/4, +22.6 ± 31.7 at 20,000 nodes a move, 200 games.)
    /// 6. Internal iterative reduction: not measured.
    /// 7. The moves' pruning, extensions and reductions: not measured. (A change: pruning on
    ///    the reduced depth, move-count pruning over every move and reductions from 1.5 plies,
    ///    build C, +31.4 ± 36.9 at 20,000 nodes a move, 200 games; with step 5's change, build
    ///    F, +23.9 ± 17.0 at 10+0.1, 600 games.)
    /// 8. Mate and stalemate: not measured (the rules).
    /// 9. The correction history and the TT store: not measured.
    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        pos: &Chess,
        in_check: bool,
        depth: i32,
        ply: usize,
        (mut alpha, mut beta): (Value, Value),
        cut_node: bool,
        mut root: Option<&mut RootContext>,
    ) -> Value {
        self.frames.clear_pv(ply);
        if self.should_stop() {
            return Value::DRAW;
        }
        let pv_node = beta.0 - alpha.0 > 1;

        // Step 1: a draw, the ply limit or a shorter mate elsewhere ends the line here.
        if ply > 0 {
            if let Some(v) = self.end_of_line(pos, in_check, ply) {
                return v;
            }
            // Mate distance pruning: no line from here beats a faster mate found elsewhere.
            alpha = alpha.max(Value::mated_in(ply));
            beta = beta.min(Value::mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 2: the check extension; at the horizon, the quiescence search.
        let min_ext = self.params.check_ext_min_depth;
        let depth = depth + i32::from(in_check && (min_ext == 0 || depth >= min_ext));
        if depth <= 0 {
            return self.qsearch(pos, in_check, ply, 0, alpha, beta);
        }
        self.nodes += 1;
        self.stats.main_node(depth, in_check);
        self.seldepth = self.seldepth.max(ply);

        // Step 3: the transposition table and the tablebases may answer at once (never for a
        // singular verification search, which asks about the node without its TT move).
        let key = self.frames[ply].key;
        let excluded = self.frames[ply].excluded;
        let hit = self.tt.probe(key, ply);
        if excluded.is_none() && !pv_node && ply > 0 {
            self.stats.tried(Rule::TtCut);
        }
        if let Some(h) = hit
            && excluded.is_none()
            && !pv_node
            && ply > 0
            && h.depth >= depth
            && h.cuts(alpha, beta)
        {
            self.stats.fired(Rule::TtCut);
            return h.value;
        }
        // Tablebases after a capture or pawn move (hook 2 of 2; never without tables).
        if ply > 0
            && excluded.is_none()
            && let Some(v) = self.tb.probe(pos, depth, ply, alpha, beta)
        {
            return v;
        }

        // Step 4: the static evaluation (`static_eval.rs`); the children's killers start fresh.
        let eval = self.evaluate_node(pos, ply, hit, in_check);
        self.heur.clear_killers(ply + 1);
        self.frames.clear_grandchild_cutoffs(ply);
        let mut node = Node {
            ply,
            depth,
            beta,
            in_check,
            pv_node,
            cut_node,
            excluded,
            key,
            hit,
            eval,
            bare_king: !pos.board().white().more_than_one() || !pos.board().black().more_than_one(),
            tt_pv: self.on_pv(ply, pv_node, excluded.is_some(), hit),
            parent_move: ply.checked_sub(1).map_or(0, |p| self.frames[p].move_number),
        };

        // Step 5: whole-node pruning: reverse futility, null move, ProbCut (`pruning.rs`).
        if !pv_node
            && !in_check
            && ply > 0
            && excluded.is_none()
            && let Some(v) = self.prune_node(pos, &node)
        {
            return v;
        }

        // Step 6: internal iterative reduction: without a TT move this node is probably not
        // critical.
        if node.depth >= self.params.iir_min_depth {
            let no_tt_move = node.tt_move().is_none();
            self.stats.record(Rule::Iir, no_tt_move);
            if no_tt_move {
                node.depth -= 1;
            }
        }

        // Step 7: the moves.
        let moves = match self.search_moves(pos, &node, alpha, root.as_deref_mut()) {
            ControlFlow::Break(v) => return v,
            ControlFlow::Continue(moves) => moves,
        };

        // Step 8: no move searched: mate, stalemate, or nothing left after pruning.
        if moves.searched == 0 {
            return if excluded.is_none() && moves.no_legal_moves {
                if in_check {
                    Value::mated_in(ply)
                } else {
                    Value::DRAW
                }
            } else {
                // Only the excluded move was legal (it is singular by any measure), or
                // everything was pruned: fail low with the best guess available.
                alpha
            };
        }

        // Step 9: what the node learned goes to the histories, the correction history and the TT.
        self.store_node(pos, &node, &moves, root.is_none_or(|r| r.store));
        moves.best
    }

    /// Whether the node at `ply` is or was on a principal variation (ttPv), recorded in its
    /// frame: a PV node, or one whose TT entry carries the bit; a verification search
    /// (`excluded`) keeps the node's own.
    fn on_pv(&mut self, ply: usize, pv_node: bool, excluded: bool, hit: Option<TtHit>) -> bool {
        if excluded {
            return self.frames[ply].tt_pv;
        }
        let tt_pv = pv_node || hit.is_some_and(|h| h.pv);
        self.frames.set_tt_pv(ply, tt_pv);
        tt_pv
    }

    /// Step 1 of a non-root node: its score when the line ends here (a draw, or the ply limit
    /// reached), else `None`.
    fn end_of_line(&mut self, pos: &Chess, in_check: bool, ply: usize) -> Option<Value> {
        if self.is_draw(pos, ply) {
            return Some(self.draw_score());
        }
        if ply >= MAX_PLY - 2 {
            return Some(if in_check {
                Value::DRAW
            } else {
                let psqt = self.frames[ply].psqt;
                self.eval
                    .evaluate_cached(pos.board(), pos.turn(), psqt, self.pawn_king)
            });
        }
        None
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

    /// Step 7: search the moves of `node` from `alpha`, best first, pruning hopeless ones
    /// (`futile`), extending the TT move (`extension`) and reducing late ones
    /// (`late_move_reduction`). `Break` carries the node's score when it ends early (a
    /// multi-cut, or the search stopped). At the root (`root` given) only `root`'s moves are
    /// searched, each reported and its nodes counted.
    fn search_moves(
        &mut self,
        pos: &Chess,
        node: &Node,
        mut alpha: Value,
        mut root: Option<&mut RootContext>,
    ) -> ControlFlow<Value, MovesSearched> {
        let ply = node.ply;
        let turn = pos.turn();
        let checks = CheckInfo::new(pos);
        let (prior, kind) = (self.prior(ply), node.picker_kind());
        let mut picker = MovePicker::new(pos, kind, node.tt_move(), self.heur, ply, prior);
        if !node.in_check {
            picker.find_forks();
            picker.order_threat_escapes(self.params.threat_escape_bonus);
            picker.demote_walk_ins(self.params.lesser_attack_penalty);
            picker.order_quiet_checks(self.params.quiet_check_bonus);
        }
        let attacked = if self.params.history_threats > 0 {
            enemy_attacks(pos.board(), turn)
        } else {
            Bitboard::EMPTY
        };
        picker.read_history_with(attacked);
        picker.weigh_recent_history(self.params.history_recent_weight);
        let tt_tactical = node.tt_move_is_tactical(pos);
        let mut best = -Value::INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut tacticals: ArrayVec<Move, 32> = ArrayVec::new();
        let mut searched = 0usize;
        // Moves considered so far, pruned or searched.
        let mut seen = 0usize;
        while let Some(picked) = picker.next(pos, self.heur, &checks) {
            let m = picked.mv;
            let outside_root = root.as_ref().is_some_and(|r| !r.moves.contains(&m));
            if outside_root || node.excluded == Some(m) {
                continue;
            }
            seen += 1;
            // The child's TT bucket, fetched while this move is judged and made.
            self.tt.prefetch(prefetch_key(pos, node.key, m));
            let escape = picker.is_threat_escape(picked.mv);
            let mut candidate =
                self.candidate(pos, (ply, &checks), (prior, attacked), (picked, escape));
            // Only asked while the rule is on: most nodes never use it.
            candidate.ignores_threat = self.params.lmr_ignores_threat > 0
                && candidate.quiet
                && !escape
                && !candidate.gives_check
                && picker.has_threatened_piece();
            if self.skip_move(
                pos,
                node,
                &candidate,
                &mut picker,
                (alpha, best),
                (searched, seen),
                tt_tactical,
            ) {
                continue;
            }
            let extension = self.extension(pos, node, m)?;
            let child = self.make(pos, m, ply, extension >= 2);
            searched += 1;
            self.frames.set_move_number(ply, seen);
            if let Some(root) = &root {
                self.report_current_move(root.depth, m, searched);
            }
            let nodes_before = self.nodes;
            let new_depth = node.depth - 1 + extension;
            let reduction = (searched > 1).then(|| {
                late_move_reduction(
                    self.lmr,
                    &self.params,
                    node,
                    &candidate,
                    searched,
                    new_depth,
                    tt_tactical,
                )
            });
            if let Some(r) = reduction {
                self.stats.reduction(r);
            }
            let v = self.search_child(
                &child,
                node,
                &candidate,
                new_depth,
                reduction,
                (alpha, best),
            );
            if let Some(root) = root.as_deref_mut() {
                root.nodes.add(m, self.nodes - nodes_before);
            }
            if self.stopped {
                return ControlFlow::Break(Value::DRAW);
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    self.frames.update_pv(ply, m);
                    if v >= node.beta {
                        self.reward_cutoff(node, turn, (prior, attacked), m, &quiets, &tacticals);
                        self.frames.count_cutoff(ply);
                        break;
                    }
                    alpha = v;
                }
            }
            if candidate.quiet {
                let _ = quiets.try_push(m);
            } else {
                let _ = tacticals.try_push(m);
            }
        }
        // (A move loop that ends here cut off exactly when its best move reached beta.)
        self.stats
            .move_loop(node.depth, searched, searched > 0 && best >= node.beta);
        ControlFlow::Continue(MovesSearched {
            best,
            best_move,
            searched,
            no_legal_moves: searched == 0 && picker.no_legal_moves(),
        })
    }

    /// The moves that led to the node at `ply`, for the histories: the last two, and the
    /// side's own move four plies back when `continuation_ply4` is on.
    #[inline]
    pub(super) fn prior(&self, ply: usize) -> Prior {
        let ply4 = self.params.continuation_ply4 > 0;
        [
            self.frames[ply].played,
            ply.checked_sub(1).and_then(|p| self.frames[p].played),
            ply.checked_sub(3)
                .filter(|_| ply4)
                .and_then(|p| self.frames[p].played),
        ]
    }

    /// What the move loop knows of `picked`, a move of `pos`, before playing it: whether it is
    /// quiet, whether it gives check, its history score.
    fn candidate(
        &self,
        pos: &Chess,
        (ply, checks): (usize, &CheckInfo),
        (prior, attacked): (Prior, Bitboard),
        (picked, escape): (Picked, bool),
    ) -> Candidate {
        let m = picked.mv;
        let quiet = !is_tactical(m);
        Candidate {
            picked,
            quiet,
            gives_check: checks.gives_check(pos, m),
            history: if quiet {
                self.heur.quiet_score(pos.turn(), prior, attacked, m)
            } else {
                self.heur.capture_score(pos.turn(), m)
            },
            child_cutoffs: self.frames[ply + 1].cutoffs,
            escape,
            ignores_threat: false,
        }
    }

    /// Principal variation search of `child`, the position after the move `mv` of `node`, to
    /// `new_depth` plies, with the loop's `(alpha, best)`. The first move (`reduction` `None`)
    /// gets the full window; a later one a null window at `reduction` plies less, then again at
    /// full depth (`research_depth`) if it beat alpha reduced, and with the full window if it
    /// still beats alpha.
    fn search_child(
        &mut self,
        child: &Chess,
        node: &Node,
        mv: &Candidate,
        new_depth: i32,
        reduction: Option<i32>,
        (alpha, best): (Value, Value),
    ) -> Value {
        let (ply, beta, gives_check) = (node.ply + 1, node.beta, mv.gives_check);
        let Some(r) = reduction else {
            let cut = !node.pv_node && !node.cut_node;
            return -self.negamax(child, gives_check, new_depth, ply, -beta, -alpha, cut);
        };
        let (a, b) = (-alpha - 1, -alpha);
        let cut = r > 0 || !node.cut_node;
        let mut v = -self.negamax(child, gives_check, new_depth - r, ply, a, b, cut);
        let mut depth = new_depth;
        if r > 0 {
            self.stats.record(Rule::LmrResearch, v > alpha);
        }
        if v > alpha && r > 0 {
            depth = self.research_depth(new_depth, r, v, (alpha, best));
            if depth > new_depth - r {
                v = -self.negamax(child, gives_check, depth, ply, a, b, !node.cut_node);
            }
            self.stats.record(Rule::LmrResearchHeld, v > alpha);
            if self.params.lmr_research_history > 0 && mv.quiet {
                // What the full-depth search says of the move teaches its continuations.
                let bonus = Heuristics::bonus(&self.params, depth);
                let bonus = if v > alpha { bonus } else { -bonus };
                let prior = self.prior(node.ply);
                self.heur
                    .update_continuations(!child.turn(), prior, mv.picked.mv, bonus);
            }
        }
        if v > alpha && v < beta {
            v = -self.negamax(child, gives_check, depth, ply, -beta, -alpha, false);
        }
        v
    }

    /// The depth of the full-depth re-search of a move reduced by `r` plies from `new_depth`
    /// whose reduced search scored `v` above alpha (`(alpha, best)` of the loop): with
    /// `lmr_research_adjust`, a ply deeper when `v` is far above alpha (the move may be much
    /// better than it looked), a ply shallower when it is barely above the best score so far.
    fn research_depth(
        &self,
        new_depth: i32,
        r: i32,
        v: Value,
        (alpha, best): (Value, Value),
    ) -> i32 {
        let p = &self.params;
        if p.lmr_research_adjust == 0 {
            return new_depth;
        }
        let deeper = v.0 > alpha.0 + p.lmr_deeper_margin + p.lmr_deeper_per_ply * r;
        let shallower = v.0 < best.0 + new_depth;
        new_depth + i32::from(deeper) - i32::from(shallower)
    }

    /// Tell the reporter which root move is being searched in the iteration at `depth` (only
    /// in long searches).
    fn report_current_move(&mut self, depth: i32, m: Move, number: usize) {
        if self.time.elapsed().as_millis() as u64 >= CURRMOVE_AFTER_MS {
            self.reporter.on_current_move(&CurrentMoveInfo {
                depth: depth as u32,
                mv: m,
                number,
                time: self.time.elapsed(),
            });
        }
    }

    /// Step 9: a searched `node` (some move searched) teaches the correction history (not in
    /// check, not a verification search) and is stored in the TT (the root only when
    /// `store_root`).
    fn store_node(&mut self, pos: &Chess, node: &Node, moves: &MovesSearched, store_root: bool) {
        // A fail low is a node where no move beat alpha (the loop sets a best move only then).
        let failed_low = moves.best_move.is_none();
        self.judge_prior_move(pos, node, moves.best, failed_low);
        let bound = TtBound::of(moves.best, node.beta, moves.best_move.is_some());
        // A fail low below a node on the PV: the parent's move is probably good, and this
        // node joins the PV's tree.
        let parent_pv = node.ply > 0 && self.frames[node.ply - 1].tt_pv;
        let tt_pv = node.tt_pv || (bound == TtBound::Upper && parent_pv && node.depth > 3);
        if !node.in_check && node.excluded.is_none() {
            let quiet = moves.best_move.is_none_or(|m| !is_tactical(m));
            self.learn_correction(pos, node, moves.best, bound, quiet);
        }
        if (!node.is_root() || store_root) && node.excluded.is_none() {
            let mv = moves.best_move.map_or(PackedMove::NONE, PackedMove::pack);
            let (best, raw) = (moves.best, node.eval.raw);
            self.tt
                .store(node.key, mv, best, raw, node.depth, bound, node.ply, tt_pv);
        }
    }
}
