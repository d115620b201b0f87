//! Changing the evaluator between searches leaves no trace of the old one: after
//! `Searcher::set_evaluator` or a change through `Searcher::evaluator_mut`, a search finds what a
//! new searcher with the new weights finds (the oracle), move, score, line and node count. The
//! weights changed are the ones the pawn-king cache keeps the sums of (pawn structure, shelter,
//! storm), so a stale cache entry or TT score would show.

use minkowski::eval::Evaluator;
use minkowski::eval::score::S;
use minkowski::eval::weights::Weights;
use minkowski::search::{Limits, SearchControl, SearchResult, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Middlegames and an ending with pawn structure to speak of.
const FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QK2R w KQ - 0 8",
    "8/5pk1/6p1/p1p4p/P1P4P/1P3PP1/6K1/8 w - - 0 40",
];

/// The defaults with every pawn-and-king weight pushed far from them.
fn other_weights() -> Weights {
    let mut w = Weights::default();
    w.for_each_mut(|name, s| {
        if name.starts_with("pawn_") || name.starts_with("king_") {
            *s = S(s.mg() * 3 + 40, s.eg() * 3 - 40);
        }
    });
    w
}

fn search(searcher: &mut Searcher, pos: &Chess, depth: u32) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.search(pos, &[], &limits, &SearchControl::default(), &mut ())
}

fn same(a: &SearchResult, b: &SearchResult) -> bool {
    (a.best_move, a.score, &a.pv, a.nodes) == (b.best_move, b.score, &b.pv, b.nodes)
}

#[test]
fn a_search_after_new_weights_is_a_new_searchers() {
    let new = other_weights();
    assert_ne!(new, Weights::default());
    for fen in FENS {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal test position");
        for depth in [1, 4, 7] {
            let mut fresh = Searcher::new(4);
            fresh.set_evaluator(Evaluator::new(new.clone()));
            let oracle = search(&mut fresh, &pos, depth);

            // The same weights by `set_evaluator` after a search with the defaults.
            let mut replaced = Searcher::new(4);
            let _ = search(&mut replaced, &pos, depth);
            replaced.set_evaluator(Evaluator::new(new.clone()));
            let r = search(&mut replaced, &pos, depth);
            assert!(
                same(&r, &oracle),
                "{fen} depth {depth}: {r:?} against {oracle:?}"
            );

            // ... and by `evaluator_mut`.
            let mut changed = Searcher::new(4);
            let _ = search(&mut changed, &pos, depth);
            *changed.evaluator_mut().weights_mut() = new.clone();
            let r = search(&mut changed, &pos, depth);
            assert!(
                same(&r, &oracle),
                "{fen} depth {depth}: {r:?} against {oracle:?}"
            );

            // The old weights differ on this position: the check has something to catch.
            let mut default = Searcher::new(4);
            let before = search(&mut default, &pos, depth);
            assert!(
                !same(&before, &oracle),
                "{fen} depth {depth}: the weights do not matter"
            );
        }
    }
}
