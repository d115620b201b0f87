//! The pawn-king cache: the terms that depend only on pawns and kings (pawn structure, shelter
//! and storm, the king's distance to the pawns) and the passed-pawn set, kept per pawn-and-king
//! configuration. Pawns and kings move rarely, so most evaluations in a search find their
//! configuration here and skip those terms.
//!
//! Each entry holds its full key (both pawn sets and both king squares), so a hit is exact:
//! two configurations never share an entry's value. The sums depend on the weights too: the
//! cache records the [`WeightsStamp`] of the evaluator that filled it and is emptied when an
//! evaluator with another stamp uses it. The cache belongs to one searcher (no sharing, no
//! locks); an evaluation that traces bypasses it.

use shakmaty::{Bitboard, Color};

use super::eval_cache::{EvalCache, PositionHash};
use super::info::Info;
use super::score::S;
/// Which weights filled a cache (defined with the caches' common parts, kept here by its old path).
pub use super::stamp::WeightsStamp;
use crate::value::Value;

/// One configuration's pawn-and-king terms (White's point of view) and passed pawns, in 32
/// bytes aligned to 32: an entry never straddles two cache lines, so one load (and one
/// prefetch) brings it in.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct Entry {
    /// White's and Black's pawns.
    pawns: [u64; 2],
    passed: u64,
    /// The score's middlegame and endgame halves (a score that does not fit is not stored).
    score: [i16; 2],
    /// White's king square plus 64 times Black's; 0 (both on a1) marks an empty entry.
    kings: u16,
}

const _: () = assert!(size_of::<Entry>() == 32);

/// A fixed-size table of pawn-king entries, replaced always, of the weights of one
/// [`WeightsStamp`] at a time.
///
/// ```
/// use minkowski_core::eval::{Evaluator, pawn_king::PawnKingCache};
/// use shakmaty::{Chess, Position};
/// let (e, pos) = (Evaluator::default(), Chess::default());
/// let mut cache = PawnKingCache::new(64);
/// let (board, turn, sum) = (pos.board(), pos.turn(), e.material_psqt(pos.board()));
/// assert_eq!(e.evaluate_cached(board, turn, sum, &mut cache), e.evaluate(&pos));
/// assert_eq!(e.evaluate_cached(board, turn, sum, &mut cache), e.evaluate(&pos)); // a hit
/// assert_eq!(cache.value_hits(), 1);
/// // 1. Nf3: the same pawns and kings, another position.
/// let nf3 = shakmaty::uci::UciMove::from_ascii(b"g1f3").unwrap().to_move(&pos).unwrap();
/// let pos = pos.play(nf3).unwrap();
/// let (board, turn, sum) = (pos.board(), pos.turn(), e.material_psqt(pos.board()));
/// assert_eq!(e.evaluate_cached(board, turn, sum, &mut cache), e.evaluate(&pos));
/// assert_eq!(cache.hits(), 1);
/// assert_eq!(cache.stamp(), e.stamp());
/// ```
#[derive(Clone, Debug)]
pub struct PawnKingCache {
    entries: Vec<Entry>,
    /// The weights whose sums the entries hold.
    stamp: WeightsStamp,
    /// The size asked for, in KiB (the table itself is rounded down to a power of two).
    kib: usize,
    probes: u64,
    hits: u64,
    /// Whole evaluations by position, an eighth as many KiB as the entries (small enough to
    /// stay in the CPU's cache): a search meets many positions again soon (re-searches, the
    /// quiescence search evaluating before it asks the transposition table) where its
    /// transposition table kept no value.
    values: EvalCache,
}

impl Default for PawnKingCache {
    /// [`PawnKingCache::DEFAULT_KIB`] of entries.
    fn default() -> PawnKingCache {
        PawnKingCache::with_kib(PawnKingCache::DEFAULT_KIB)
    }
}

impl PawnKingCache {
    /// The default size: 512 KiB, 16,384 entries, enough for a search to find almost
    /// every configuration it has met.
    pub const DEFAULT_KIB: usize = 512;

    /// A cache of at least one and at most `entries` entries, rounded down to a power of two.
    #[must_use]
    pub fn new(entries: usize) -> PawnKingCache {
        let entries = if entries <= 1 {
            1
        } else {
            1 << (usize::BITS - 1 - entries.leading_zeros())
        };
        PawnKingCache {
            entries: vec![Entry::default(); entries],
            stamp: WeightsStamp::NONE,
            kib: (entries * size_of::<Entry>()).div_ceil(1024),
            probes: 0,
            hits: 0,
            values: EvalCache::with_kib((entries * size_of::<Entry>()) / 1024 / 8),
        }
    }

    /// A cache of about `kib` KiB (at least one entry).
    ///
    /// ```
    /// use minkowski_core::eval::pawn_king::PawnKingCache;
    /// assert!(PawnKingCache::with_kib(1024).len() >= 16_384);
    /// assert_eq!(PawnKingCache::with_kib(0).len(), 1);
    /// ```
    #[must_use]
    pub fn with_kib(kib: usize) -> PawnKingCache {
        PawnKingCache {
            kib,
            values: EvalCache::with_kib(kib / 8),
            ..PawnKingCache::new(kib.saturating_mul(1024) / size_of::<Entry>())
        }
    }

    /// The size asked for, in KiB ([`PawnKingCache::with_kib`]).
    ///
    /// ```
    /// use minkowski_core::eval::pawn_king::PawnKingCache;
    /// assert_eq!(PawnKingCache::with_kib(100).kib(), 100);
    /// ```
    #[must_use]
    pub fn kib(&self) -> usize {
        self.kib
    }

    /// The share of lookups that found their configuration, in percent (0 before any lookup).
    ///
    /// ```
    /// use minkowski_core::eval::pawn_king::PawnKingCache;
    /// assert_eq!(PawnKingCache::default().hit_rate_percent(), 0.0);
    /// ```
    #[must_use]
    pub fn hit_rate_percent(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 * 100.0 / self.probes as f64
        }
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

    /// Forgets every entry (a new game) and the hit counts.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.stamp = WeightsStamp::NONE;
        self.probes = 0;
        self.hits = 0;
        self.values.clear();
    }

    /// The stamp of the weights whose sums it holds ([`WeightsStamp::NONE`] when new or
    /// cleared).
    #[must_use]
    pub fn stamp(&self) -> WeightsStamp {
        self.stamp
    }

    /// Makes the cache hold sums of the weights of `stamp`: nothing changes when it already
    /// does; otherwise every entry is forgotten (the hit counts are kept) and `stamp` recorded.
    /// The evaluation calls this before it reads or writes an entry.
    #[inline]
    pub(super) fn bind(&mut self, stamp: WeightsStamp) {
        if self.stamp != stamp {
            if self.stamp != WeightsStamp::NONE {
                self.entries.fill(Entry::default());
            }
            self.stamp = stamp;
        }
    }

    /// Lookups so far.
    #[must_use]
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// Lookups that found their configuration.
    #[must_use]
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Lookups of whole evaluations so far (every [`Evaluator::evaluate_cached`] makes one;
    /// the pawn-king table is asked only when it misses).
    ///
    /// [`Evaluator::evaluate_cached`]: super::Evaluator::evaluate_cached
    #[must_use]
    pub fn value_probes(&self) -> u64 {
        self.values.probes()
    }

    /// Lookups of whole evaluations that found the position's value.
    #[must_use]
    pub fn value_hits(&self) -> u64 {
        self.values.hits()
    }

    /// The value of the position of `hash` if the table of whole evaluations holds it (of
    /// the weights of `stamp`: a table of other weights is emptied first).
    #[inline]
    pub(super) fn probe_value(&mut self, stamp: WeightsStamp, hash: PositionHash) -> Option<Value> {
        self.values.probe(stamp, hash)
    }

    /// Keeps the value of the position of `hash`, evaluated with the weights of `stamp`.
    #[inline]
    pub(super) fn store_value(&mut self, stamp: WeightsStamp, hash: PositionHash, value: Value) {
        self.values.store(stamp, hash, value);
    }

    /// Starts loading the entry of `info`'s configuration into the CPU cache. The evaluation
    /// asks for it once the pieces' pass is done, and the table is too large to stay cached: a
    /// load issued at the start overlaps with that pass instead of stalling after it.
    #[inline]
    pub(super) fn prefetch(&self, info: &Info) {
        let (pawns, kings) = key(info);
        let entry: *const Entry = &self.entries[self.slot(pawns, kings)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` needs SSE, part of the x86-64 baseline every such CPU has. A
        // prefetch is only a hint: it never faults, reads nothing into the program and writes
        // nothing, and `entry` points into this cache's own live allocation anyway. An entry
        // lies within one cache line (32 bytes, aligned to 32).
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(entry.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = entry;
    }

    /// The cached score and passed pawns of `info`'s configuration, if present.
    pub(super) fn probe(&mut self, info: &Info) -> Option<(S, Bitboard)> {
        self.probes += 1;
        let (pawns, kings) = key(info);
        let entry = &self.entries[self.slot(pawns, kings)];
        (entry.pawns == pawns && entry.kings == kings).then(|| {
            self.hits += 1;
            (
                S(i32::from(entry.score[0]), i32::from(entry.score[1])),
                Bitboard(entry.passed),
            )
        })
    }

    /// Keeps `score` and `passed` for `info`'s configuration, or nothing when a half of `score` does not
    /// fit an `i16` (no real configuration comes near; the cache stays exact all the same).
    pub(super) fn store(&mut self, info: &Info, score: S, passed: Bitboard) {
        let (Ok(mg), Ok(eg)) = (i16::try_from(score.mg()), i16::try_from(score.eg())) else {
            return;
        };
        let (pawns, kings) = key(info);
        let slot = self.slot(pawns, kings);
        self.entries[slot] = Entry {
            pawns,
            passed: passed.0,
            score: [mg, eg],
            kings,
        };
    }

    fn slot(&self, pawns: [u64; 2], kings: u16) -> usize {
        // A multiply-xorshift mix of the three parts; the top bits index the table.
        let mut h = pawns[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ pawns[1].rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ u64::from(kings).wrapping_mul(0x1656_67B1_9E37_79F9);
        h ^= h >> 31;
        (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (self.entries.len() - 1)
    }
}

/// The exact key of `info`'s pawn-and-king configuration.
fn key(info: &Info) -> ([u64; 2], u16) {
    let square = |c: Color| info.king.get(c).map_or(0, |k| k as u16);
    (
        [info.pawns.white.0, info.pawns.black.0],
        square(Color::White) + 64 * square(Color::Black),
    )
}
