//! The search's tunable constants (`SearchParams`): every name round-trips through the struct
//! and the option model, a refused value leaves the old one, a changed constant changes the
//! search (so it is wired), and the defaults — also after a round trip through other values,
//! which rebuilds the reduction table — are the pinned search.

use std::path::Path;

use minkowski::config::Config;
use minkowski::options::{
    EngineOptions, OptionId, OptionValue, SEARCH_PARAM_OPTIONS, all_options, find_option,
};
use minkowski::search::bench::{BENCH_POSITIONS, run_bench};
use minkowski::search::{Limits, ParamError, SearchControl, SearchParams, Searcher};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Nodes of a fixed-depth search of a middlegame (Kiwipete) with `params`.
fn nodes_with(params: SearchParams, depth: u32) -> u64 {
    let pos: Chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut searcher = Searcher::new(16);
    searcher.set_search_params(params);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    searcher
        .search(&pos, &[], &limits, &SearchControl::default(), &mut ())
        .nodes
}

#[test]
fn every_name_round_trips_and_bad_values_keep_the_old_one() {
    let specs = SearchParams::SPECS;
    assert!(specs.len() >= 40, "{} parameters", specs.len());
    let defaults = SearchParams::default();
    for (i, spec) in specs.iter().enumerate() {
        assert!(
            spec.min <= spec.default && spec.default <= spec.max,
            "{}",
            spec.name
        );
        assert!(spec.c_end > 0.0 && !spec.doc.is_empty(), "{}", spec.name);
        assert_eq!(defaults.get(spec.name), Some(spec.default), "{}", spec.name);
        assert!(
            specs[..i].iter().all(|s| s.name != spec.name),
            "{} twice",
            spec.name
        );
        let mut p = SearchParams::default();
        for value in [spec.min, spec.max] {
            p.set(spec.name, i64::from(value)).unwrap();
            assert_eq!(p.get(spec.name), Some(value));
        }
        let kept = p;
        for bad in [i64::from(spec.min) - 1, i64::from(spec.max) + 1, i64::MAX] {
            let e = p.set(spec.name, bad).unwrap_err();
            assert!(matches!(e, ParamError::OutOfRange { .. }));
            assert!(e.to_string().contains(spec.name), "{e}");
            assert_eq!(p, kept);
        }
        // The same through the option model (the rows a tuning build declares).
        let row = &SEARCH_PARAM_OPTIONS[i];
        assert_eq!((row.id, row.name), (OptionId::SearchParam(i), spec.name));
        let mut o = EngineOptions::default();
        o.set(row, OptionValue::Int(i64::from(spec.max))).unwrap();
        assert_eq!(o.get(row.id), OptionValue::Int(i64::from(spec.max)));
        assert_eq!(o.search.get(spec.name), Some(spec.max));
        let e = o
            .set(row, OptionValue::Int(i64::from(spec.max) + 1))
            .unwrap_err();
        assert!(e.to_string().contains("must be from"), "{e}");
        assert!(o.set(row, OptionValue::Bool(true)).is_err());
        assert_eq!(o.search.get(spec.name), Some(spec.max));
    }
    let mut p = SearchParams::default();
    assert_eq!(
        p.set("no_such", 1),
        Err(ParamError::Unknown("no_such".into()))
    );
    assert_eq!(
        p.set("RFP_MARGIN", 90),
        Err(ParamError::Unknown("RFP_MARGIN".into()))
    );
    assert_eq!(p, SearchParams::default());
    assert_eq!(
        SearchParams::spec("history_bonus_max").map(|s| s.max),
        Some(8000),
        "the history tables' i16 headroom (params.rs: HISTORY_BONUS_LIMIT)"
    );
}

/// Only a tuning build declares the constants: a GUI sees the usual options.
#[test]
fn options_and_engine_toml_follow_the_build() {
    let tuning = cfg!(feature = "tune-search");
    assert_eq!(find_option("rfp_margin").is_some(), tuning);
    assert_eq!(
        all_options().count(),
        16 + if tuning {
            SEARCH_PARAM_OPTIONS.len()
        } else {
            0
        }
    );
    let mut o = EngineOptions::default();
    let set = o.set_from_text("RFP_Margin", Some("95"));
    assert_eq!(set.is_ok(), tuning);
    let config = Config::from_toml("[uci]\nlmr_base_x100 = 80\n", Path::new("e.toml"));
    assert_eq!(config.is_ok(), tuning);
    if tuning {
        assert_eq!(o.search.rfp_margin, 95);
        for bad in ["abc", "19", "251", "1e3", ""] {
            let e = o.set_from_text("rfp_margin", Some(bad)).unwrap_err();
            assert!(e.to_string().contains("rfp_margin"), "{e}");
        }
        assert_eq!(o.search.rfp_margin, 95);
        assert_eq!(config.unwrap().options.search.lmr_base_x100, 80);
        let e = Config::from_toml("[uci]\nlmr_base_x100 = 201\n", Path::new("e.toml")).unwrap_err();
        assert!(e[0].to_string().contains("from 0 to 200"), "{}", e[0]);
    }
}

/// A constant at its extreme changes the tree: the option reaches the search. The reduction
/// parameters rebuild the table (their change is seen at all only through it).
#[test]
fn changed_constants_change_the_search() {
    let base = nodes_with(SearchParams::default(), 8);
    for (name, value) in [
        ("rfp_margin", 20),
        ("rfp_margin", 250),
        ("lmr_base_x100", 200),
        ("lmr_divisor_x100", 100),
        ("futility_margin", 30),
        ("history_bonus_per_ply", 1000),
        ("aspiration_window", 5),
    ] {
        let mut p = SearchParams::default();
        p.set(name, value).unwrap();
        assert_ne!(nodes_with(p, 8), base, "{name} = {value}");
    }
}

/// The defaults are the pinned search: set explicitly, and again after other values were in
/// force on the same searcher (the reduction table rebuilt twice), the bench positions give
/// `run_bench`'s count, which tests/integration/search.rs pins.
#[test]
fn defaults_reproduce_the_bench() {
    let mut searcher = Searcher::new(16);
    let mut other = SearchParams::default();
    other.set("lmr_base_x100", 150).unwrap();
    other.set("rfp_margin", 120).unwrap();
    searcher.set_search_params(other);
    assert_eq!(searcher.search_params(), &other);
    searcher.set_search_params(SearchParams::default());
    searcher.clear();
    let limits = Limits {
        depth: Some(10),
        ..Default::default()
    };
    let nodes: u64 = BENCH_POSITIONS
        .iter()
        .map(|fen| {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap();
            searcher
                .search(&pos, &[], &limits, &SearchControl::default(), &mut ())
                .nodes
        })
        .sum();
    assert_eq!(nodes, 712_289);
    assert_eq!(nodes, run_bench(10).nodes);
}
