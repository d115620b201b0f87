//! The C entry points called as C calls them: results equal the Rust library's on real suites,
//! and every kind of bad input gets its documented code.

use std::ffi::{CStr, CString, c_char};
use std::path::Path;
use std::ptr::{null, null_mut};

use minkowski_capi::*;
use minkowski_core::eval::Evaluator;
use minkowski_core::eval::endgame::{KpkPosition, PasserRace};
use minkowski_core::shakmaty::fen::Fen;
use minkowski_core::shakmaty::{Bitboard, CastlingMode, Chess, Color, Square};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The FENs (first four fields) of an EPD file of the repository.
fn suite(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo().join("epd").join(name)).unwrap();
    text.lines()
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .filter(|fen| fen.split(' ').count() == 4)
        .collect()
}

fn fen_position(fen: &str) -> MkPosition {
    let text = CString::new(fen).unwrap();
    let mut pos = MkPosition::default();
    assert_eq!(
        unsafe { mk_position_from_fen(text.as_ptr(), &mut pos) },
        MK_OK,
        "{fen}"
    );
    pos
}

fn evaluate(pos: &MkPosition) -> i32 {
    let mut cp = i32::MIN;
    let status = unsafe { mk_evaluate(null(), pos, &mut cp) };
    if status == MK_OK { cp } else { status }
}

#[test]
fn the_c_calls_agree_with_the_rust_evaluation_on_wac_and_sts1() {
    let evaluator = Evaluator::default();
    let count = mk_trace_row_count() as usize;
    let mut rows = vec![MkTraceRow::default(); count];
    let mut checked = 0;
    for fen in suite("wac.epd").into_iter().chain(suite("sts1.epd")) {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        let want = evaluator.evaluate(&pos).0;
        let text = CString::new(fen.as_str()).unwrap();
        let mut by_fen = i32::MIN;
        assert_eq!(
            unsafe { mk_evaluate_fen(null(), text.as_ptr(), &mut by_fen) },
            MK_OK
        );
        assert_eq!(
            (by_fen, evaluate(&fen_position(&fen))),
            (want, want),
            "{fen}"
        );

        let mut summary = std::mem::MaybeUninit::<MkTraceSummary>::zeroed();
        let status = unsafe {
            mk_trace_fen(
                null(),
                text.as_ptr(),
                rows.as_mut_ptr(),
                count as u32,
                summary.as_mut_ptr(),
            )
        };
        assert_eq!(status, MK_OK);
        let summary = unsafe { summary.assume_init() };
        let trace = evaluator.trace(&pos);
        assert_eq!((summary.total, summary.phase), (want, trace.phase));
        // The rows add up to the trace's own table: White minus Black per row, as printed.
        let printed = trace.to_string();
        for (i, row) in rows.iter().enumerate() {
            let name = unsafe { CStr::from_ptr(mk_trace_row_name(i as u32)) }
                .to_str()
                .unwrap();
            let line = printed.lines().find(|l| l.starts_with(name)).unwrap();
            let numbers: Vec<i32> = line
                .split(['|', ' '])
                .filter_map(|w| w.parse().ok())
                .collect();
            let total = [row.white_mg - row.black_mg, row.white_eg - row.black_eg];
            let mine = [
                row.white_mg,
                row.white_eg,
                row.black_mg,
                row.black_eg,
                total[0],
                total[1],
            ];
            assert_eq!(numbers, mine, "{fen}: {name}");
        }
        checked += 1;
    }
    assert_eq!(checked, 300 + 100);
}

#[test]
fn row_names_end_where_the_count_says() {
    let count = mk_trace_row_count();
    assert!(count > 0);
    assert!(!mk_trace_row_name(count - 1).is_null());
    assert!(mk_trace_row_name(count).is_null());
    assert!(mk_trace_row_name(u32::MAX).is_null());
}

#[test]
fn kpk_and_the_passer_race_answer_as_the_rust_functions() {
    let mut wins = 0;
    for (sk, pawn, lk) in (0..64u32).flat_map(|a| (8..56u32).map(move |p| (a, p, (a * 7 + p) % 64)))
    {
        for to_move in [0, 1] {
            let got = mk_kpk(sk, pawn, lk, 1, to_move);
            let sq = Square::new;
            let distinct = sk != pawn && sk != lk && pawn != lk;
            let apart = minkowski_core::geometry::king_distance(sq(sk), sq(lk)) > 1;
            if !(distinct && apart) {
                assert_eq!(got, MK_ERR_POSITION);
                continue;
            }
            if got == MK_ERR_POSITION {
                continue; // the side not to move in check
            }
            let rust = KpkPosition {
                strong_king: sq(sk),
                pawn: sq(pawn),
                lone_king: sq(lk),
                strong_color: Color::White,
                strong_to_move: to_move != 0,
            };
            assert_eq!(got, i32::from(rust.is_win()));
            wins += got;
        }
    }
    assert!(wins > 1000);
    for pawn in 8..56u32 {
        let race = PasserRace {
            pawn: Square::new(pawn),
            pawn_color: Color::Black,
            pawn_to_move: true,
        };
        let knights = 1u64 << (pawn * 5 % 64);
        let want = i32::from(race.knights_catch(Bitboard(knights)));
        assert_eq!(mk_knights_catch_passer(pawn, 0, 1, knights), want);
        let free = i32::from(race.unstoppable(None, Bitboard(knights)));
        assert_eq!(mk_passer_unstoppable(pawn, 0, 1, 64, knights), free);
    }
}

#[test]
fn distances_and_knight_sets_match_the_geometry_module() {
    use minkowski_core::geometry::*;
    for a in 0..64u32 {
        for b in 0..64u32 {
            let (sa, sb) = (Square::new(a), Square::new(b));
            assert_eq!(mk_king_distance(a, b), king_distance(sa, sb) as i32);
            assert_eq!(
                mk_manhattan_distance(a, b),
                manhattan_distance(sa, sb) as i32
            );
            assert_eq!(mk_knight_distance(a, b), knight_distance(sa, sb) as i32);
        }
        let bb = 1u64 << a | 1 << (63 - a);
        assert_eq!(mk_knight_fill(bb), knight_fill(Bitboard(bb)).0);
        assert_eq!(
            mk_knight_fork_squares(bb),
            knight_fork_squares(Bitboard(bb)).0
        );
    }
    // c7 forks e8 and a8, reached from d5.
    assert_eq!(mk_knight_fork_jumps(1 << 35, 1 << 60 | 1 << 56, 0), 1 << 50);
}

#[test]
fn weights_from_engine_toml_change_the_evaluation() {
    let toml = CString::new("[eval]\n\"material.knight\" = [100, 100]\n").unwrap();
    let mut w: *mut MkWeights = null_mut();
    assert_eq!(
        unsafe { mk_weights_from_toml(toml.as_ptr(), &mut w) },
        MK_OK
    );
    let name = c"material.knight";
    let (mut mg, mut eg) = (0, 0);
    assert_eq!(
        unsafe { mk_weights_get(w, name.as_ptr(), &mut mg, &mut eg) },
        MK_OK
    );
    assert_eq!((mg, eg), (100, 100));
    let pos = fen_position("4k3/pp6/8/8/8/8/PP6/1N2K3 w - - 0 1");
    let (mut light, mut default) = (0, 0);
    unsafe {
        assert_eq!(mk_evaluate(w, &pos, &mut light), MK_OK);
        assert_eq!(mk_evaluate(null(), &pos, &mut default), MK_OK);
        assert_eq!(mk_weights_set(w, name.as_ptr(), 300, 310), MK_OK);
        assert_eq!(
            mk_weights_set(w, name.as_ptr(), 100_000, 0),
            MK_ERR_ARGUMENT
        );
        assert_eq!(mk_weights_set(w, c"no.such".as_ptr(), 1, 1), MK_ERR_WEIGHTS);
        mk_weights_free(w);
    }
    assert!(
        light < default,
        "a cheaper knight lowers White's score: {light} vs {default}"
    );
    let path = CString::new(repo().join("engine.toml").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { mk_weights_load(path.as_ptr(), &mut w) }, MK_OK);
    unsafe { mk_weights_free(w) };
    // One per engine.toml `[eval]` key: the named weights, not the structure slots.
    let named = minkowski_core::eval::weights::Weights::names().len();
    assert_eq!(mk_weights_count() as usize, named);
    assert!(named < minkowski_core::eval::weights::Weights::COUNT);
}

/// Every bad input of the issue, with the code the header documents for it.
#[test]
fn bad_input_gets_its_documented_code() {
    let start = fen_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let with = |f: fn(&mut MkPosition)| {
        let mut p = start;
        f(&mut p);
        evaluate(&p)
    };
    assert_eq!(with(|p| p.black |= 1 << 4), MK_ERR_BITBOARDS); // e1 both colours
    assert_eq!(with(|p| p.queens |= 1 << 4), MK_ERR_BITBOARDS); // e1 king and queen
    assert_eq!(with(|p| p.white |= 1 << 30), MK_ERR_BITBOARDS); // a white square, no piece
    assert_eq!(
        with(|p| {
            p.kings &= !(1 << 60);
            p.black &= !(1 << 60);
            p.castling = 0
        }),
        MK_ERR_POSITION
    );
    assert_eq!(
        with(|p| {
            p.pawns |= 1 << 36;
            p.white |= 1 << 36;
            p.kings |= 1 << 28;
            p.white |= 1 << 28;
        }),
        MK_ERR_POSITION
    ); // two white kings
    assert_eq!(
        with(|p| {
            p.knights &= !2;
            p.pawns |= 2
        }),
        MK_ERR_POSITION
    ); // pawn on b1
    assert_eq!(with(|p| p.castling = 16), MK_ERR_POSITION);
    assert_eq!(with(|p| p.ep = 64), MK_ERR_SQUARE);
    // Castling and en passant the score does not read: inconsistencies are dropped, not errors.
    let level = evaluate(&start);
    assert_eq!(with(|p| p.ep = 20), level); // e3 with no pawn pushed
    assert_eq!(with(|p| p.ep = 44), level); // e6 on White's move, no pawn there
    assert_eq!(
        with(|p| {
            p.rooks &= !1; // a1 rook gone, White's long castling flag still set
            p.white &= !1;
            p.castling = 15
        }),
        evaluate(&{
            let mut p = start;
            p.rooks &= !1;
            p.white &= !1;
            p.castling = 13;
            p
        })
    );
    assert_eq!(evaluate(&MkPosition::default()), MK_ERR_POSITION); // an empty board
    let fen = |s: &[u8]| {
        let text = CString::new(s).unwrap();
        let mut cp = 0;
        unsafe { mk_evaluate_fen(null(), text.as_ptr(), &mut cp) }
    };
    assert_eq!(fen(b"not a fen"), MK_ERR_FEN);
    assert_eq!(fen(b"\xff\xfe"), MK_ERR_FEN);
    assert_eq!(fen(b"8/8/8/8/8/8/8/8 w - - 0 1"), MK_ERR_POSITION);
    assert_eq!(fen(b"4k3/8/8/8/8/8/8/4K2P w - - 0 1"), MK_ERR_POSITION);
    let mut cp = 0;
    let mut w: *mut MkWeights = null_mut();
    let mut summary = std::mem::MaybeUninit::<MkTraceSummary>::zeroed();
    unsafe {
        assert_eq!(mk_evaluate(null(), null(), &mut cp), MK_ERR_NULL);
        assert_eq!(mk_evaluate(null(), &start, null_mut()), MK_ERR_NULL);
        assert_eq!(mk_evaluate_fen(null(), null(), &mut cp), MK_ERR_NULL);
        assert_eq!(
            mk_position_from_fen(c"8/8".as_ptr(), null_mut()),
            MK_ERR_FEN
        );
        assert_eq!(
            mk_trace(null(), &start, null_mut(), 0, summary.as_mut_ptr()),
            MK_ERR_BUFFER
        );
        assert_eq!(summary.assume_init().rows, mk_trace_row_count());
        assert_eq!(
            mk_trace(null(), &start, null_mut(), 99, summary.as_mut_ptr()),
            MK_ERR_NULL
        );
        assert_eq!(
            mk_trace(null(), &start, null_mut(), 99, null_mut()),
            MK_ERR_NULL
        );
        // NULL rows with a capacity below the row count: still the NULL pointer (issue 48).
        assert_eq!(
            mk_trace(null(), &start, null_mut(), 5, summary.as_mut_ptr()),
            MK_ERR_NULL
        );
        assert_eq!(mk_weights_load(null(), &mut w), MK_ERR_NULL);
        assert_eq!(
            mk_weights_load(c"/no/such/engine.toml".as_ptr(), &mut w),
            MK_ERR_WEIGHTS
        );
        let bad: [&CStr; 4] = [
            c"[eval\n",
            c"[eval]\nknight = [1, 2]\n",
            c"[eval]\ntempo = [101, 0]\n",
            c"[search]\nx = 1\n",
        ];
        for text in bad {
            assert_eq!(
                mk_weights_from_toml(text.as_ptr(), &mut w),
                MK_ERR_WEIGHTS,
                "{text:?}"
            );
        }
        assert!(w.is_null(), "no handle on error");
        mk_weights_free(null_mut());
        let mut score = MkScore::default();
        assert_eq!(mk_mop_up(null(), 64, 0, &mut score), MK_ERR_SQUARE);
        assert_eq!(mk_mop_up(null(), 0, 1, &mut score), MK_ERR_POSITION);
        assert_eq!(mk_mop_up(null(), 0, 63, null_mut()), MK_ERR_NULL);
        assert_eq!(
            mk_kbnk_score(null(), 0, 0, 5, 6, 1, &mut score),
            MK_ERR_POSITION
        );
    }
    assert_eq!(mk_king_distance(64, 0), MK_ERR_SQUARE);
    assert_eq!(mk_knight_distance(0, u32::MAX), MK_ERR_SQUARE);
    assert_eq!(mk_kpk(4, 4, 60, 1, 1), MK_ERR_POSITION); // king and pawn on one square
    assert_eq!(mk_kpk(4, 2, 60, 1, 1), MK_ERR_POSITION); // pawn on the first rank
    assert_eq!(mk_kpk(4, 12, 70, 1, 1), MK_ERR_SQUARE);
    assert_eq!(mk_passer_unstoppable(20, 1, 1, 65, 0), MK_ERR_SQUARE);
    assert_eq!(mk_knights_catch_passer(64, 1, 1, 0), MK_ERR_SQUARE);
    let name = |code| {
        unsafe { CStr::from_ptr(mk_status_name(code)) }
            .to_str()
            .unwrap()
    };
    assert_eq!(
        (name(MK_ERR_FEN), name(12345)),
        ("MK_ERR_FEN", "MK_UNKNOWN")
    );
}

/// A pawn on its first or last rank is one code from every call that can see it: the whole
/// position (mk_evaluate, mk_evaluate_fen, mk_trace), KPK and both passer calls.
#[test]
fn a_pawn_on_a_back_rank_is_the_same_error_everywhere() {
    // White pawn on a8 (56), b1 (1); black pawn on h1 (7), c8 (58).
    for (pawn, white) in [(56u32, true), (1, true), (7, false), (58, false)] {
        let mut pos = fen_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        pos.pawns |= 1 << pawn;
        if white {
            pos.white |= 1 << pawn;
        } else {
            pos.black |= 1 << pawn;
        }
        let mut summary = std::mem::MaybeUninit::<MkTraceSummary>::zeroed();
        let count = mk_trace_row_count();
        let mut rows = vec![MkTraceRow::default(); count as usize];
        let traced =
            unsafe { mk_trace(null(), &pos, rows.as_mut_ptr(), count, summary.as_mut_ptr()) };
        let side = i32::from(white);
        let codes = [
            evaluate(&pos),
            traced,
            mk_kpk(27, pawn, 36, side, 1),
            mk_knights_catch_passer(pawn, side, 1, 0),
            mk_passer_unstoppable(pawn, side, 1, 64, 0),
        ];
        assert_eq!(codes, [MK_ERR_POSITION; 5], "pawn on {pawn}");
    }
}

/// Every code the library returns has its own name.
#[test]
fn every_status_code_has_a_name() {
    let codes = [
        (MK_OK, "MK_OK"),
        (MK_ERR_NULL, "MK_ERR_NULL"),
        (MK_ERR_BITBOARDS, "MK_ERR_BITBOARDS"),
        (MK_ERR_POSITION, "MK_ERR_POSITION"),
        (MK_ERR_FEN, "MK_ERR_FEN"),
        (MK_ERR_SQUARE, "MK_ERR_SQUARE"),
        (MK_ERR_WEIGHTS, "MK_ERR_WEIGHTS"),
        (MK_ERR_BUFFER, "MK_ERR_BUFFER"),
        (MK_ERR_ARGUMENT, "MK_ERR_ARGUMENT"),
        (MK_ERR_MEMORY, "MK_ERR_MEMORY"),
        (MK_ERR_INTERNAL, "MK_ERR_INTERNAL"),
    ];
    for (code, want) in codes {
        let name = unsafe { CStr::from_ptr(mk_status_name(code)) };
        assert_eq!(name.to_str().unwrap(), want);
    }
}

#[test]
fn the_version_is_the_package_version() {
    let version = unsafe { CStr::from_ptr(mk_version()) }.to_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(mk_abi_version(), MK_ABI_VERSION);
    let _: *const c_char = mk_version();
}

/// mk_weights_name: every index's name is a key mk_weights_get knows, in engine.toml's order;
/// the size query, a buffer one byte short, NULL and an index past the end get their codes.
#[test]
fn weight_names_by_index_follow_the_buffer_conventions() {
    let count = mk_weights_count();
    assert!(count > 100);
    let names = minkowski_core::eval::weights::Weights::names();
    assert_eq!(names.len(), count as usize);
    let mut buf = [0 as c_char; 128];
    for (index, want) in (0..count).zip(&names) {
        let length = unsafe { mk_weights_name(index, null_mut(), 0) };
        assert_eq!(length, want.len() as i32);
        let written = unsafe { mk_weights_name(index, buf.as_mut_ptr(), buf.len()) };
        assert_eq!(written, length);
        let name = unsafe { CStr::from_ptr(buf.as_ptr()) };
        assert_eq!(name.to_str().unwrap(), want);
        let (mut mg, mut eg) = (0, 0);
        assert_eq!(
            unsafe { mk_weights_get(null(), name.as_ptr(), &mut mg, &mut eg) },
            MK_OK
        );
    }
    // Exactly the length plus the NUL fits; one byte less is refused and nothing is written.
    let length = unsafe { mk_weights_name(0, null_mut(), 0) } as usize;
    let mut exact = vec![b'x' as c_char; length + 1];
    assert_eq!(
        unsafe { mk_weights_name(0, exact.as_mut_ptr(), length + 1) },
        length as i32
    );
    assert_eq!(exact[length], 0);
    let mut short = vec![b'x' as c_char; length];
    assert_eq!(
        unsafe { mk_weights_name(0, short.as_mut_ptr(), length) },
        MK_ERR_BUFFER
    );
    assert!(short.iter().all(|&c| c == b'x' as c_char));
    assert_eq!(unsafe { mk_weights_name(0, null_mut(), 16) }, MK_ERR_NULL);
    assert_eq!(
        unsafe { mk_weights_name(count, buf.as_mut_ptr(), buf.len()) },
        MK_ERR_ARGUMENT
    );
    assert_eq!(
        unsafe { mk_weights_name(u32::MAX, null_mut(), 0) },
        MK_ERR_ARGUMENT
    );
}

/// The header's version macros are the package's version, which mk_version() reports.
#[test]
fn the_version_macros_are_the_package_version() {
    let macros = format!("{MK_VERSION_MAJOR}.{MK_VERSION_MINOR}.{MK_VERSION_PATCH}");
    assert_eq!(macros, env!("CARGO_PKG_VERSION"));
    let version = unsafe { CStr::from_ptr(mk_version()) }.to_str().unwrap();
    assert_eq!(version, macros);
    let header = std::fs::read_to_string(repo().join("capi/include/minkowski.h")).unwrap();
    for (name, value) in [
        ("MK_VERSION_MAJOR", MK_VERSION_MAJOR),
        ("MK_VERSION_MINOR", MK_VERSION_MINOR),
        ("MK_VERSION_PATCH", MK_VERSION_PATCH),
        ("MK_ABI_VERSION", MK_ABI_VERSION),
    ] {
        assert!(
            header.contains(&format!("#define {name} {value}")),
            "{name} in the header"
        );
    }
}

/// mk_init builds the KPK bitbase: afterwards a KPK evaluation answers at once (well under the
/// ~50 ms the build takes), and calling it again is harmless.
#[test]
fn init_builds_the_tables_so_the_first_kpk_evaluation_does_not_pause() {
    assert_eq!(mk_init(), MK_OK);
    assert_eq!(mk_init(), MK_OK);
    let pos = fen_position("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    let start = std::time::Instant::now();
    let value = evaluate(&pos);
    assert!(value.abs() <= MK_EVAL_LIMIT);
    assert!(start.elapsed() < std::time::Duration::from_millis(20));
}

/// Every C entry point runs its body behind the panic boundary: its body calls `boundary(` or
/// `status(`, or a function of this crate whose body does (read from capi/src).
#[test]
fn every_entry_point_catches_panics() {
    let sources: Vec<String> = std::fs::read_dir(repo().join("capi/src"))
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect();
    let text = sources.join("\n");
    // Every function's body: from its `fn name(` to the first line that is a lone `}`.
    let body_of = |at: usize| {
        let rest = &text[at..];
        &rest[..rest.find("\n}\n").unwrap_or(rest.len())]
    };
    let guarded = |body: &str| body.contains("boundary(") || body.contains("status(");
    let mut entry_points = 0;
    for (at, _) in text.match_indices("extern \"C\" fn mk_") {
        let body = body_of(at);
        let name = &body[14..body.find('(').unwrap()];
        entry_points += 1;
        if guarded(body) {
            continue;
        }
        // A helper it calls: `helper(` with a `fn helper(` of this crate that is guarded.
        let helper = text
            .match_indices("\nfn ")
            .chain(text.match_indices("\nunsafe fn "))
            .chain(text.match_indices("\npub(crate) unsafe fn "))
            .any(|(f, _)| {
                let helper = body_of(f + 1);
                let start = helper.find("fn ").unwrap() + 3;
                let end = start + helper[start..].find('(').unwrap();
                let helper_name = &helper[start..end];
                body.contains(&format!("{helper_name}(")) && guarded(helper)
            });
        assert!(helper, "{name} does not catch panics");
    }
    assert!(entry_points >= 42, "{entry_points} entry points found");
}
