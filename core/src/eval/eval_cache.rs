//! The evaluation cache: whole evaluations kept by position, for a host whose search evaluates
//! the same positions again (iterative deepening re-searching the top of its tree, transpositions)
//! and keeps no evaluation of its own in a transposition table.
//!
//! An entry is found by a 64-bit key and verified by a second, 47-bit check: both are computed
//! by [`PositionHash::of_bitboards`] from the position (the eight bitboards and the side to
//! move) through a 128-bit intermediate, or the key is the host's own Zobrist key
//! ([`PositionHash::with_key`]) and the check still the library's. A lookup answers only when
//! the entry's key and check both equal the position's, so two positions share a value only if
//! both numbers collide: for keys the library computes, about one chance in 2^111 per lookup of
//! a position the table does not hold. With a host key, the host's key must collide (its own
//! Zobrist odds) and the check too (2^-47), whatever the quality of the host's key.
//!
//! The values depend on the weights: the cache records the [`WeightsStamp`] of the evaluator
//! whose values it holds and empties itself when asked with another one, as the pawn-king
//! cache does.

use shakmaty::{Board, Color};

use super::stamp::WeightsStamp;
use crate::value::Value;

/// The 64-bit key and the 47-bit check of a position (see the module's documentation).
///
/// ```
/// use minkowski_core::eval::eval_cache::PositionHash;
/// use shakmaty::{Chess, Color, Position};
/// let board = Chess::default().board().clone();
/// let white = PositionHash::of_board(&board, Color::White);
/// assert_ne!(white, PositionHash::of_board(&board, Color::Black));
/// assert!(white.check < 1 << 47);
/// assert_eq!(white.with_key(7).key, 7);
/// assert_eq!(white.with_key(7).check, white.check);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionHash {
    /// Chooses the entry and must match it.
    pub key: u64,
    /// Must match the entry too: below 2^47.
    pub check: u64,
}

/// Random odd numbers (each bit pattern with about half its bits set) for the hash's first
/// round, one per bitboard, then the side to move and the two finishing rounds.
const SECRET: [u64; 13] = [
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
    0x8ebc_6af0_9c88_c6e3,
    0x5899_65cc_7537_4cc3,
    0x1d8e_4e27_c47d_124f,
    0x72b2_2b4d_bd06_95c9,
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
    0x27d4_eb2f_1656_67c5,
    0x94d0_49bb_1331_11eb,
    0xbf58_476d_1ce4_e5b9,
    0xd6e8_feb8_6659_fd93,
];

/// The 128-bit product of `a` and `b`, its halves folded together (wyhash's mixing step).
#[inline(always)]
fn mum(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

impl PositionHash {
    /// The hash of the eight bitboards (white, black, kings, queens, rooks, bishops, knights,
    /// pawns: any fixed order works, as long as every caller of one cache uses the same) and
    /// the side to move.
    #[inline]
    #[must_use]
    pub fn of_bitboards(bitboards: [u64; 8], white_to_move: bool) -> PositionHash {
        let b = bitboards;
        let s = &SECRET;
        let turn = if white_to_move { s[8] } else { !s[8] };
        // Four products of two bitboards each, folded into a 128-bit intermediate (x, y): two
        // positions reach the same one with odds of about 2^-128.
        let x = mum(b[0] ^ s[0], b[1] ^ s[1]) ^ mum(b[2] ^ s[2], b[3] ^ s[3]) ^ turn;
        let y = mum(b[4] ^ s[4], b[5] ^ s[5]) ^ mum(b[6] ^ s[6], b[7] ^ s[7]);
        PositionHash {
            key: mum(x ^ s[9], y ^ s[10]),
            check: mum(x ^ s[11], y ^ s[12]) >> 17,
        }
    }

    /// [`PositionHash::of_bitboards`] of a board's pieces (in the order white, black, kings,
    /// queens, rooks, bishops, knights, pawns) with `turn` to move.
    #[must_use]
    pub fn of_board(board: &Board, turn: Color) -> PositionHash {
        PositionHash::of_bitboards(
            [
                board.white().0,
                board.black().0,
                board.kings().0,
                board.queens().0,
                board.rooks().0,
                board.bishops().0,
                board.knights().0,
                board.pawns().0,
            ],
            turn == Color::White,
        )
    }

    /// The same check with the host's own `key` (e.g. its Zobrist key of the position).
    #[must_use]
    pub fn with_key(self, key: u64) -> PositionHash {
        PositionHash { key, ..self }
    }
}

/// One position's evaluation: its key, and its check, a mark that the entry is in use and the
/// value (an `i16`: evaluations lie within ±20,000) packed in one word. 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Entry {
    key: u64,
    /// `check << 17 | 1 << 16 | value as u16`; 0 marks an empty entry.
    data: u64,
}

const _: () = assert!(size_of::<Entry>() == 16);

/// The bit that marks an entry in use.
const USED: u64 = 1 << 16;

/// A fixed-size table of evaluations, replaced always, of the weights of one [`WeightsStamp`]
/// at a time.
///
/// ```
/// use minkowski_core::eval::{Evaluator, Value, eval_cache::{EvalCache, PositionHash}};
/// use shakmaty::{Chess, Color, Position};
/// let (e, pos) = (Evaluator::default(), Chess::default());
/// let mut cache = EvalCache::with_kib(64);
/// let hash = PositionHash::of_board(pos.board(), pos.turn());
/// assert_eq!(cache.probe(e.stamp(), hash), None);
/// cache.store(e.stamp(), hash, e.evaluate(&pos));
/// assert_eq!(cache.probe(e.stamp(), hash), Some(e.evaluate(&pos)));
/// // Another position, or the same key with another check: no value.
/// let black = PositionHash::of_board(pos.board(), Color::Black);
/// assert_eq!(cache.probe(e.stamp(), black), None);
/// assert_eq!(cache.probe(e.stamp(), black.with_key(hash.key)), None);
/// // Other weights: the cache forgets.
/// assert_eq!(cache.probe(Evaluator::default().stamp(), hash), None);
/// assert_eq!((cache.probes(), cache.hits()), (5, 1));
/// ```
#[derive(Clone, Debug)]
pub struct EvalCache {
    entries: Vec<Entry>,
    /// The weights whose values the entries hold.
    stamp: WeightsStamp,
    /// The size asked for, in KiB (the table itself is rounded down to a power of two).
    kib: usize,
    probes: u64,
    hits: u64,
}

impl Default for EvalCache {
    /// [`EvalCache::DEFAULT_KIB`] of entries.
    fn default() -> EvalCache {
        EvalCache::with_kib(EvalCache::DEFAULT_KIB)
    }
}

impl EvalCache {
    /// The default size: 256 KiB, 16,384 entries. In a small engine's search (the C library's
    /// `host_search` example, depth 5) it finds 23 % of its lookups and saves 9 % of the
    /// search's time; 1 MiB finds 29 % and saves as much, 4 MiB finds 33 % and saves nothing:
    /// its entries no longer stay in the CPU's caches (docs/embedding.md).
    pub const DEFAULT_KIB: usize = 256;

    /// A cache of about `kib` KiB (at least one entry, rounded down to a power of two).
    /// Panics (or aborts) only if the memory cannot be had: see [`EvalCache::try_with_kib`].
    ///
    /// ```
    /// use minkowski_core::eval::eval_cache::EvalCache;
    /// assert_eq!(EvalCache::with_kib(1024).len(), 65_536);
    /// assert_eq!(EvalCache::with_kib(0).len(), 1);
    /// ```
    #[must_use]
    pub fn with_kib(kib: usize) -> EvalCache {
        EvalCache::try_with_kib(kib).expect("memory for the evaluation cache")
    }

    /// [`EvalCache::with_kib`], or `None` if the memory cannot be allocated.
    ///
    /// ```
    /// use minkowski_core::eval::eval_cache::EvalCache;
    /// assert_eq!(EvalCache::try_with_kib(16).unwrap().kib(), 16);
    /// assert!(EvalCache::try_with_kib(usize::MAX / 1024).is_none());
    /// ```
    #[must_use]
    pub fn try_with_kib(kib: usize) -> Option<EvalCache> {
        let wanted = kib.checked_mul(1024)? / size_of::<Entry>();
        let len = if wanted <= 1 {
            1
        } else {
            1 << (usize::BITS - 1 - wanted.leading_zeros())
        };
        let mut entries = Vec::new();
        entries.try_reserve_exact(len).ok()?;
        entries.resize(len, Entry::default());
        Some(EvalCache {
            entries,
            stamp: WeightsStamp::NONE,
            kib,
            probes: 0,
            hits: 0,
        })
    }

    /// The size asked for, in KiB.
    #[must_use]
    pub fn kib(&self) -> usize {
        self.kib
    }

    /// How many entries it has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entries (never: at least one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Lookups so far.
    #[must_use]
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// Lookups that found their position.
    #[must_use]
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Forgets every entry and the counts.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.stamp = WeightsStamp::NONE;
        self.probes = 0;
        self.hits = 0;
    }

    /// Starts loading the entry of `key` into the CPU cache: a caller with other work to do
    /// before [`EvalCache::probe`] (checking the position) hides the load's latency behind it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let entry: *const Entry = &self.entries[self.slot(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` needs SSE, part of the x86-64 baseline. A prefetch is only a
        // hint: it never faults, reads nothing into the program and writes nothing, and `entry`
        // points into this cache's own live allocation anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(entry.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = entry;
    }

    /// The value of the position of `hash`, evaluated with the weights of `stamp`, if the
    /// cache holds it. A cache that holds another stamp's values forgets them first.
    #[inline]
    pub fn probe(&mut self, stamp: WeightsStamp, hash: PositionHash) -> Option<Value> {
        self.bind(stamp);
        self.probes += 1;
        let entry = self.entries[self.slot(hash.key)];
        let found = entry.key == hash.key && entry.data >> 17 == hash.check && entry.data != 0;
        found.then(|| {
            self.hits += 1;
            Value(i32::from(entry.data as u16 as i16))
        })
    }

    /// Keeps `value`, the evaluation with the weights of `stamp` of the position of `hash`
    /// (replacing whatever its entry held). A value that does not fit an `i16` is not kept (no
    /// evaluation is one: they lie within ±20,000).
    #[inline]
    pub fn store(&mut self, stamp: WeightsStamp, hash: PositionHash, value: Value) {
        let Ok(value) = i16::try_from(value.0) else {
            return;
        };
        self.bind(stamp);
        let slot = self.slot(hash.key);
        self.entries[slot] = Entry {
            key: hash.key,
            data: (hash.check & ((1 << 47) - 1)) << 17 | USED | u64::from(value as u16),
        };
    }

    /// Makes the cache hold values of the weights of `stamp`: every entry is forgotten when it
    /// held another's.
    #[inline]
    fn bind(&mut self, stamp: WeightsStamp) {
        if self.stamp != stamp {
            if self.stamp != WeightsStamp::NONE {
                self.entries.fill(Entry::default());
            }
            self.stamp = stamp;
        }
    }

    /// The entry of `key`: mixed first, so that a host key whose bits are not all random (a
    /// counter, a multiplicative hash good in its top bits only) still spreads over the table.
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        let mixed = (key ^ (key >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (mixed >> 32) as usize & (self.entries.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values at the ends of the range survive the packing, and the check cannot spill into
    /// the mark or the value.
    #[test]
    fn values_and_checks_survive_the_packing() {
        let stamp = WeightsStamp::new();
        let mut cache = EvalCache::with_kib(1);
        for (i, value) in [-20_000, -1, 0, 1, 20_000].into_iter().enumerate() {
            let hash = PositionHash {
                key: i as u64,
                check: (1 << 47) - 1 - i as u64,
            };
            cache.store(stamp, hash, Value(value));
            assert_eq!(cache.probe(stamp, hash), Some(Value(value)));
        }
        // A value no evaluation has is not kept.
        let hash = PositionHash { key: 9, check: 9 };
        cache.store(stamp, hash, Value(40_000));
        assert_eq!(cache.probe(stamp, hash), None);
    }

    /// Every bitboard and the side to move change both numbers.
    #[test]
    fn every_input_word_changes_key_and_check() {
        let base = [1u64, 2, 4, 8, 16, 32, 64, 128];
        let h = PositionHash::of_bitboards(base, true);
        for i in 0..8 {
            let mut other = base;
            other[i] ^= 1 << 40;
            let o = PositionHash::of_bitboards(other, true);
            assert!(o.key != h.key && o.check != h.check, "word {i}");
        }
        let o = PositionHash::of_bitboards(base, false);
        assert!(o.key != h.key && o.check != h.check);
    }
}
