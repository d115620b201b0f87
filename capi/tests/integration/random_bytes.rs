//! Every C entry point fed with pseudo-random bytes (seeded, so a failure repeats): positions
//! made of random and of nearly-legal bitboards, random FEN bytes, random squares and flags.
//! Nothing may panic (it would come back as MK_ERR_INTERNAL) and every result is a value or a
//! documented code; the evaluator handle's checked call agrees with the one-shot call and its
//! trusted call with both wherever they accept the position. `fuzz/fuzz_targets/capi.rs` is the
//! coverage-guided version of this test.

use std::ffi::CString;
use std::ptr::null;

use minkowski_capi::*;

/// xorshift64*: a fixed sequence of test inputs, no dependency.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn documented(code: i32) -> bool {
    (MK_ERR_ARGUMENT..=MK_OK).contains(&code)
}

#[test]
fn random_bytes_get_values_or_documented_codes() {
    let mut rng = Bytes(0x9e37_79b9_7f4a_7c15);
    let start = {
        let mut p = MkPosition::default();
        let fen = c"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(unsafe { mk_position_from_fen(fen.as_ptr(), &mut p) }, MK_OK);
        p
    };
    let count = mk_trace_row_count();
    let mut rows = vec![MkTraceRow::default(); count as usize];
    let (mut ok, mut cases, mut handle_calls) = (0, 0, 0);
    let handle = unsafe { mk_evaluator_new(null()) };
    for round in 0..20_000 {
        // Half the positions: the start with one bit flipped in one field (mostly near-legal).
        let mut pos = start;
        let r = rng.next();
        let bit = 1u64 << (r % 64);
        match (round % 2, (r >> 8) % 12) {
            (0, 0) => pos.white ^= bit,
            (0, 1) => pos.black ^= bit,
            (0, 2) => pos.kings ^= bit,
            (0, 3) => pos.queens ^= bit,
            (0, 4) => pos.rooks ^= bit,
            (0, 5) => pos.bishops ^= bit,
            (0, 6) => pos.knights ^= bit,
            (0, 7) => pos.pawns ^= bit,
            (0, 8) => pos.castling = (r >> 16) as u32 % 32,
            (0, 9) => pos.ep = (r >> 16) as u32 % 80,
            (0, _) => pos.white_to_move = (r >> 16) as u8,
            _ => {
                let fields = [rng.next(), rng.next(), rng.next(), rng.next()];
                pos = MkPosition {
                    white: fields[0],
                    black: fields[1] & !fields[0],
                    kings: fields[2],
                    queens: fields[3],
                    rooks: rng.next(),
                    bishops: rng.next(),
                    knights: rng.next(),
                    pawns: rng.next(),
                    castling: r as u32,
                    ep: (r >> 32) as u32,
                    rule50: r as u32,
                    white_to_move: r as u8,
                }
            }
        }
        let mut cp = 0;
        let mut summary = std::mem::MaybeUninit::<MkTraceSummary>::zeroed();
        let status = unsafe { mk_evaluate(null(), &pos, &mut cp) };
        // The handle: the checked call is the one-shot call (code and value); the trusted call
        // gives a documented code or, on everything the checked call accepts, the same value.
        let (mut by_handle, mut trusted) = (i32::MIN, i32::MIN);
        let checked = unsafe { mk_evaluator_evaluate(handle, &pos, &mut by_handle) };
        let trusted_status = unsafe { mk_evaluator_evaluate_trusted(handle, &pos, &mut trusted) };
        assert_eq!(checked, status, "{pos:?}");
        assert!(documented(trusted_status), "{pos:?}: {trusted_status}");
        if status == MK_OK {
            assert_eq!(
                (by_handle, trusted_status, trusted),
                (cp, MK_OK, cp),
                "{pos:?}"
            );
        }
        handle_calls += 2;
        let traced =
            unsafe { mk_trace(null(), &pos, rows.as_mut_ptr(), count, summary.as_mut_ptr()) };
        assert!(
            documented(status) && status == traced,
            "{pos:?}: {status} {traced}"
        );
        ok += i32::from(status == MK_OK);
        // Random FEN bytes: printable noise around FEN characters.
        let alphabet = b"pnbrqkPNBRQK12345678/ -wKQkqabcdefgh0\xff";
        let len = (r >> 40) as usize % 70;
        let fen: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.next() as usize % alphabet.len()])
            .collect();
        let fen = CString::new(fen).unwrap();
        let mut back = MkPosition::default();
        assert!(documented(unsafe {
            mk_position_from_fen(fen.as_ptr(), &mut back)
        }));
        assert!(documented(unsafe {
            mk_evaluate_fen(null(), fen.as_ptr(), &mut cp)
        }));
        let sq = |shift: u32| (r >> shift) as u32 % 70;
        let mut score = MkScore::default();
        let results = [
            mk_kpk(sq(0), sq(8), sq(16), sq(24) as i32 % 2, sq(32) as i32 % 2),
            mk_knights_catch_passer(sq(0), 1, 0, rng.next()),
            mk_passer_unstoppable(sq(8), 0, 1, sq(16), rng.next()),
            mk_king_distance(sq(0), sq(8)),
            mk_knight_distance(sq(0), sq(8)),
            mk_manhattan_distance(sq(0), sq(8)),
            unsafe { mk_mop_up(null(), sq(0), sq(8), &mut score) },
            unsafe { mk_kbnk_score(null(), sq(0), sq(8), sq(16), sq(24), 1, &mut score) },
        ];
        for result in results {
            assert!(documented(result) || (0..=14).contains(&result), "{result}");
        }
        cases += 1;
    }
    unsafe { mk_evaluator_free(handle) };
    assert_eq!((cases, handle_calls), (20_000, 40_000));
    assert!(
        ok > 1000,
        "the near-legal half reaches the evaluation: {ok}"
    );
}
