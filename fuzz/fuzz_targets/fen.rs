//! A FEN through `position fen`, and when the engine accepts it, the evaluation and a short
//! search of it: positions no game reaches (nine queens, kings side by side in the corner,
//! pawns everywhere) must not break the evaluation either.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;
use minkowski::eval::Evaluator;
use minkowski::search::{Limits, SearchControl, Searcher};
use minkowski::uci::command::PositionSpec;
use minkowski::uci::game::Game;
use shakmaty::Position;

thread_local! {
    static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::new(1));
}

fuzz_target!(|data: &[u8]| {
    let Ok(fen) = std::str::from_utf8(data) else {
        return;
    };
    let spec = PositionSpec {
        fen: Some(fen.to_owned()),
        moves: Vec::new(),
    };
    let Ok((game, _)) = Game::from_spec(&spec) else {
        return;
    };
    let _ = Evaluator::default().evaluate(&game.pos);
    let limits = Limits {
        nodes: Some(300),
        ..Limits::default()
    };
    SEARCHER.with(|s| {
        let result = s.borrow_mut().search(
            &game.pos,
            &game.history,
            &limits,
            &SearchControl::default(),
            &mut (),
        );
        if let Some(m) = result.best_move {
            assert!(game.pos.is_legal(m), "illegal best move {m:?}");
        }
    });
});
