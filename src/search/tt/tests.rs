//! The transposition table's tests: packing, probing, replacement, the lock-less slots.
#[test]
fn a_packed_move_matches_itself_and_none_matches_nothing() {
    use super::PackedMove;
    use shakmaty::{Chess, Position};
    let pos = Chess::default();
    let m = pos.legal_moves()[0];
    assert!(PackedMove::pack(m).matches(m));
    assert!(!PackedMove::NONE.matches(m));
}

#[test]
fn a_stored_entry_is_found_under_its_key_only() {
    use super::{PackedMove, TranspositionTable, TtBound};
    use crate::value::Value;
    let tt = TranspositionTable::new(1);
    tt.store(
        42,
        PackedMove::NONE,
        Value(17),
        Value(5),
        3,
        TtBound::Exact,
        0,
        false,
    );
    let hit = tt.probe(42, 0).unwrap();
    assert_eq!(
        (hit.value, hit.depth, hit.bound),
        (Value(17), 3, TtBound::Exact)
    );
    assert!(tt.probe(43, 0).is_none());
}

#[test]
fn a_probe_refreshes_the_age_of_an_entry_from_an_earlier_search() {
    use super::{PackedMove, TranspositionTable, TtBound};
    use crate::value::Value;
    let tt = TranspositionTable::new(1);
    // Key 42 lands in the first bucket, which `hashfull` samples.
    tt.store(
        42,
        PackedMove::NONE,
        Value(1),
        Value(0),
        5,
        TtBound::Lower,
        0,
        false,
    );
    assert_eq!(tt.hashfull(), 1);
    tt.new_search();
    assert_eq!(tt.hashfull(), 0, "the entry belongs to the previous search");
    let hit = tt.probe(42, 0).unwrap();
    assert_eq!((hit.depth, hit.bound), (5, TtBound::Lower));
    assert_eq!(tt.hashfull(), 1, "the probe made it current again");
    assert_eq!(
        tt.probe(42, 0),
        Some(hit),
        "refreshing keeps the entry's contents"
    );
}

#[test]
fn cutoff_test_and_stored_bound_agree() {
    use super::{PackedMove, TtBound, TtHit};
    use crate::value::Value;
    let (alpha, beta) = (Value(-10), Value(10));
    let hit = |value, bound| TtHit {
        mv: PackedMove::NONE,
        value: Value(value),
        eval: Value(0),
        depth: 1,
        bound,
        pv: false,
    };
    // Every result stored for this window settles a later probe with the same window
    // exactly when it was outside it or exact.
    for (best, raised) in [
        (-50, false),
        (-10, false),
        (0, true),
        (10, true),
        (40, false),
    ] {
        let bound = TtBound::of(Value(best), beta, raised);
        let expected = match best {
            b if b >= 10 => TtBound::Lower,
            _ if raised => TtBound::Exact,
            _ => TtBound::Upper,
        };
        assert_eq!(bound, expected, "{best}");
        assert!(hit(best, bound).cuts(alpha, beta), "{best}");
    }
    assert!(!hit(5, TtBound::Lower).cuts(alpha, beta));
    assert!(!hit(-5, TtBound::Upper).cuts(alpha, beta));
}

/// The ttPv bit shares a byte with the depth: each must come back as stored, whatever
/// the other, and a depth past the seven bits is clamped, never spilling into the bit.
#[test]
fn the_pv_bit_and_the_depth_round_trip_independently() {
    use super::{MAX_STORED_DEPTH, PackedMove, TranspositionTable, TtBound};
    use crate::value::Value;
    let tt = TranspositionTable::new(1);
    for (key, depth, pv) in [(1, 0, true), (2, 0, false), (3, 127, false), (4, 127, true)] {
        let (mv, bound) = (PackedMove(77), TtBound::Upper);
        tt.store(key, mv, Value(-3), Value(9), depth, bound, 0, pv);
        let hit = tt.probe(key, 0).unwrap();
        assert_eq!((hit.depth, hit.pv, hit.bound), (depth, pv, bound), "{key}");
    }
    tt.store(
        5,
        PackedMove::NONE,
        Value(0),
        Value(0),
        300,
        TtBound::Lower,
        0,
        false,
    );
    let hit = tt.probe(5, 0).unwrap();
    assert_eq!((hit.depth, hit.pv), (MAX_STORED_DEPTH, false));
    // A new store under the same key replaces the bit (a PV node that fell off the PV).
    tt.store(
        4,
        PackedMove::NONE,
        Value(0),
        Value(0),
        127,
        TtBound::Exact,
        0,
        false,
    );
    assert!(!tt.probe(4, 0).unwrap().pv);
}

#[test]
fn a_torn_slot_reads_as_a_miss() {
    use super::{Data, Slot};
    let slot = Slot::default();
    let a = Data {
        mv: 1,
        value: 2,
        eval: 3,
        depth_pv: 4,
        gen_bound: 1,
    };
    let b = Data {
        mv: 9,
        value: -8,
        eval: 7,
        depth_pv: 6,
        gen_bound: 2,
    };
    slot.save(42, a);
    assert_eq!(slot.load(), (42, a));
    // Another thread wrote b's check word under key 43, but its data word has not landed.
    slot.check
        .store(43 ^ b.pack(), std::sync::atomic::Ordering::Relaxed);
    let (key, _) = slot.load();
    assert!(key != 42 && key != 43, "a torn slot must match neither key");
}

#[test]
fn packing_round_trips_extreme_fields() {
    use super::Data;
    for d in [
        Data {
            mv: u16::MAX,
            value: i16::MIN,
            eval: i16::MAX,
            depth_pv: 255,
            gen_bound: 255,
        },
        Data {
            mv: 0,
            value: -1,
            eval: -1,
            depth_pv: 0,
            gen_bound: 1,
        },
    ] {
        assert_eq!(Data::unpack(d.pack()), d);
    }
}

/// Four threads store and probe keys crowded into a few buckets; every hit must carry the
/// fields its own key implies (none may mix two writers' entries). Real tears are rare, so
/// this is a smoke test under true concurrency; `a_torn_slot_reads_as_a_miss` proves the
/// detection itself deterministically.
#[test]
fn concurrent_writers_never_produce_a_mixed_entry() {
    use super::{PackedMove, TranspositionTable, TtBound};
    use crate::search::test_support::XorShift64;
    use crate::value::Value;
    let tt = TranspositionTable::new(1);
    let fields = |key: u64| {
        let v = (key % 2000) as i32 - 1000;
        (
            PackedMove((key >> 11) as u16 | 1),
            Value(v),
            Value(-v),
            (key % 60) as i32,
        )
    };
    let hits = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (tt, hits) = (&tt, &hits);
            s.spawn(move || {
                let mut rng = XorShift64(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(t + 1));
                for _ in 0..1_000_000 {
                    let x = rng.next();
                    // 64 keys whose top bits (which choose the bucket) take three values:
                    // 64 positions fight over 12 slots.
                    let id = (x >> 20) % 64;
                    let key = id.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 2 | (id % 3) << 62;
                    let (mv, value, eval, depth) = fields(key);
                    if x & 1 == 0 {
                        tt.store(key, mv, value, eval, depth, TtBound::Exact, 0, false);
                    } else if let Some(hit) = tt.probe(key, 0) {
                        assert_eq!(
                            (hit.mv, hit.value, hit.eval, hit.depth),
                            (mv, value, eval, depth)
                        );
                        hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert!(hits.into_inner() > 0, "the test must exercise hits");
}
