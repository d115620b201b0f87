//! Syzygy probing on known positions (wins, draws, losses; cursed wins and blessed losses under
//! the 50-move rule), damaged tables that must not crash, the root filter converting won KRK and
//! KBNK positions against a perfect defender, and nothing changing without tables.

use crate::common::{Rng, play_out, random_win, tables};
use minkowski::search::tb::{Tablebases, TbConfig};
use minkowski::search::{Limits, SearchControl, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::Wdl;

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

#[test]
fn known_positions() {
    let t = tables();
    let wdl = |fen: &str| t.outcome(&pos(fen)).map(|o| o.wdl);
    assert_eq!(wdl("8/8/8/4k3/8/8/8/KR6 w - - 0 1"), Some(Wdl::Win));
    assert_eq!(wdl("8/8/8/4k3/8/8/8/KR6 b - - 0 1"), Some(Wdl::Loss));
    assert_eq!(wdl("8/8/8/4k3/8/8/8/KN6 w - - 0 1"), Some(Wdl::Draw)); // KNK
    assert_eq!(wdl("8/8/8/4k3/8/8/8/KNN5 w - - 0 1"), Some(Wdl::Draw)); // KNNK
    assert_eq!(wdl("8/k7/8/8/3p4/8/6K1/8 b - - 0 1"), Some(Wdl::Draw)); // the KPK
    assert_eq!(wdl("8/8/8/8/8/2K5/1r6/7k w - - 0 1"), Some(Wdl::Draw)); // Kxb2 saves it
    assert_eq!(wdl("8/8/8/8/8/2K5/1r6/7k b - - 0 1"), Some(Wdl::Win)); // KRK for Black
    // Mate in one: DTZ 1.
    assert_eq!(
        t.outcome(&pos("k7/8/1K6/8/8/8/8/7R w - - 0 1"))
            .unwrap()
            .dtz,
        Some(1)
    );
    // Not in 3-4-piece tables.
    assert_eq!(t.outcome(&Chess::default()), None);
}

#[test]
fn cursed_wins_and_blessed_losses_follow_the_halfmove_clock() {
    let t = tables();
    // KRK with the rook far away: a win in about 30 plies to zeroing (the mate).
    let fresh = t.outcome(&pos("8/8/8/4k3/8/8/8/KR6 w - - 0 1")).unwrap();
    let dtz = fresh.dtz.unwrap();
    assert!(dtz > 20 && dtz < 40, "{dtz}");
    // With the clock so far on that the mate comes after the 100th half-move: cursed, and for
    // the defender blessed.
    let late = 100 - dtz + 2;
    let cursed = t
        .outcome(&pos(&format!("8/8/8/4k3/8/8/8/KR6 w - - {late} 80")))
        .unwrap();
    assert_eq!(cursed.wdl, Wdl::CursedWin);
    let blessed = t
        .outcome(&pos(&format!("8/8/8/4k3/8/8/8/1R4K1 b - - {late} 80")))
        .unwrap();
    assert_eq!(blessed.wdl, Wdl::BlessedLoss);
    // With the 50-move rule the root filter treats the cursed win like a draw... but still
    // keeps only the quickest moves (a chance if the defender errs); without it, every win.
    let p = pos(&format!("8/8/8/4k3/8/8/8/KR6 w - - {late} 80"));
    let strict = t
        .filter_root_moves(&p, &shakmaty::Position::legal_moves(&p), true)
        .unwrap();
    let loose = t
        .filter_root_moves(&p, &shakmaty::Position::legal_moves(&p), false)
        .unwrap();
    assert!(
        strict.len() < loose.len(),
        "{} vs {}",
        strict.len(),
        loose.len()
    );
}

/// A copy of the tables with damaged files, in a fresh temporary folder.
fn damaged_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("minkowski-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
    for f in [
        "KRvK.rtbw",
        "KRvK.rtbz",
        "KQvKR.rtbz",
        "KQvK.rtbw",
        "KQvK.rtbz",
        "KRvKP.rtbw",
    ] {
        std::fs::copy(format!("{src}/{f}"), dir.join(f)).unwrap();
    }
    // Truncated to a size that still looks right (64k + 16 bytes): refused only when probed.
    let full = std::fs::read(format!("{src}/KQvKR.rtbw")).unwrap();
    std::fs::write(dir.join("KQvKR.rtbw"), &full[..16 + 64 * 4]).unwrap();
    // Garbage of a plausible size.
    std::fs::write(dir.join("KBNvK.rtbw"), vec![0xAB; 16 + 64 * 8]).unwrap();
    // Truncated to a size no table has: refused when loading.
    std::fs::write(dir.join("KRvKP.rtbz"), &full[..1000]).unwrap();
    dir
}

#[test]
fn damaged_tables_never_crash() {
    let dir = damaged_folder("damaged");
    let path = format!("/no/such/folder:{}", dir.display());
    let (t, problems) = Tablebases::open(&path);
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|p| p.contains("/no/such/folder")),
        "{text:?}"
    );
    assert!(text.iter().any(|p| p.contains("KRvKP.rtbz")), "{text:?}");
    // The good tables still work.
    assert_eq!(
        t.outcome(&pos("8/8/8/4k3/8/8/8/KR6 w - - 0 1"))
            .unwrap()
            .wdl,
        Wdl::Win
    );
    // The damaged ones answer nothing, without a panic.
    assert_eq!(
        t.wdl_after_zeroing(&pos("8/8/8/4k3/8/8/8/KBN5 w - - 0 1")),
        None
    );
    let kqkr = pos("3r4/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    assert_eq!(t.wdl_after_zeroing(&kqkr), None);
    // A search over them plays on.
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(TbConfig {
        tables: Some(t.into()),
        ..TbConfig::default()
    });
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    for p in [&kqkr, &pos("8/8/8/4k3/8/8/8/KBN5 w - - 0 1")] {
        let r = searcher.search(p, &[], &limits, &SearchControl::default(), &mut ());
        assert!(r.best_move.is_some());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_root_filter_converts_krk_and_kbnk() {
    let t = tables();
    let mut rng = Rng(0xC0FF_EE00_1234_5678);
    use shakmaty::Role::{Bishop, Knight, Rook};
    for (pieces, dark) in [
        (&[Rook][..], None),
        (&[Bishop, Knight][..], Some(true)),
        (&[Bishop, Knight][..], Some(false)),
    ] {
        for _ in 0..3 {
            let start = random_win(&mut rng, &t, pieces, dark);
            // A tiny budget: the tables at the root must do the converting.
            let game = play_out(&start, &t, 2_000, Some(tables()));
            assert!(
                game.mated,
                "{pieces:?} from {}",
                Fen::from_position(&start, shakmaty::EnPassantMode::Legal)
            );
        }
    }
}

#[test]
fn nothing_changes_without_tables() {
    let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let krk = pos("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    for position in [&p, &krk] {
        let plain =
            Searcher::new(1).search(position, &[], &limits, &SearchControl::default(), &mut ());
        let mut empty = Searcher::new(1);
        let (none, problems) = Tablebases::open("");
        assert!(problems.is_empty() && none.is_empty());
        empty.set_tablebases(TbConfig {
            tables: Some(none.into()),
            ..TbConfig::default()
        });
        let r = empty.search(position, &[], &limits, &SearchControl::default(), &mut ());
        assert_eq!(
            (r.nodes, r.best_move, r.score, r.tbhits),
            (plain.nodes, plain.best_move, plain.score, 0)
        );
    }
}

#[test]
fn wdl_only_tables_still_keep_the_right_moves() {
    let dir = std::env::temp_dir().join(format!("minkowski-tb-wdl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy");
    for f in ["KRvK.rtbw", "KQvK.rtbw", "KPvK.rtbw"] {
        std::fs::copy(format!("{src}/{f}"), dir.join(f)).unwrap();
    }
    let (t, problems) = Tablebases::open(dir.to_str().unwrap());
    assert!(problems.is_empty());
    // No DTZ: the position's WDL is still known, its DTZ is not.
    let krk = pos("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    let o = t.outcome(&krk).unwrap();
    assert_eq!((o.wdl, o.dtz), (Wdl::Win, None));
    // The root keeps the moves of the best WDL: here only the capture that saves the draw.
    let p = pos("8/8/8/8/8/2K5/1r6/7k w - - 0 1");
    let keep = t
        .filter_root_moves(&p, &shakmaty::Position::legal_moves(&p), true)
        .unwrap();
    assert_eq!(
        keep.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["Kc3xb2"]
    );
    // In KRK every rook move that does not hang the rook is kept; a hanging one is not.
    let hang = pos("8/8/8/4k3/8/8/8/K2R4 w - - 0 1");
    let keep = t
        .filter_root_moves(&hang, &shakmaty::Position::legal_moves(&hang), true)
        .unwrap();
    assert!(
        !keep
            .iter()
            .any(|m| m.to().to_string() == "e4" || m.to().to_string() == "e6")
    );
    assert!(keep.len() > 10);
    let _ = std::fs::remove_dir_all(&dir);
}
