//! The transposition table: buckets of four 16-byte entries, replacement by depth and age.
//!
//! Moves are stored as 2-byte [`PackedMove`]s. A stored move is never played directly: the
//! move picker only *matches* it against the freshly generated legal moves, so a stale or
//! colliding entry can reorder moves but never produce an illegal one.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use shakmaty::{Move, Role, Square};

use crate::value::Value;

/// A move in 2 bytes: `from | to << 6 | promotion << 12` (castling: king square to rook
/// square, as shakmaty's `Move::to()`). 0 means "no move".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedMove(pub u16);

impl TtHit {
    /// Whether the stored score settles a node searched within `(alpha, beta)` (the caller
    /// checks the depth): an exact score, a lower bound at or above beta, or an upper bound at
    /// or below alpha.
    #[must_use]
    pub fn cuts(&self, alpha: Value, beta: Value) -> bool {
        match self.bound {
            TtBound::Exact => true,
            TtBound::Lower => self.value >= beta,
            TtBound::Upper => self.value <= alpha,
        }
    }
}

impl PackedMove {
    /// No move.
    pub const NONE: PackedMove = PackedMove(0);

    /// Pack a move.
    #[must_use]
    pub fn pack(m: Move) -> PackedMove {
        let from = m.from().map_or(0, |s: Square| s as u16);
        let to = m.to() as u16;
        let promo = m.promotion().map_or(0, |r: Role| r as u16);
        PackedMove(from | (to << 6) | (promo << 12))
    }

    /// Whether `m` is the packed move.
    #[must_use]
    pub fn matches(self, m: Move) -> bool {
        // The target square first: a cheap test that rejects nearly every other move before
        // the whole move is packed (the killer and counter-move lookups scan every quiet move).
        self.0 != 0 && u16::from(m.to()) == (self.0 >> 6) & 63 && PackedMove::pack(m) == self
    }

    /// Whether no move is stored.
    #[must_use]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Kind of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The score is exact.
    Exact,
    /// The score is a lower bound (the node failed high).
    Lower,
    /// The score is an upper bound (the node failed low).
    Upper,
}

impl TtBound {
    /// The bound of a fail-soft search result `best` within `(alpha, beta)`: a fail high is a
    /// lower bound, a fail low (no move raised alpha: `raised_alpha` false) an upper bound.
    #[must_use]
    pub fn of(best: Value, beta: Value, raised_alpha: bool) -> TtBound {
        if best >= beta {
            TtBound::Lower
        } else if raised_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        }
    }
}

/// The static evaluation an entry stores when it has none: in check (the main search's
/// `-INFINITE`), or where the quiescence search's stand pat had only a lazy estimate
/// (`eval::bounded`). No evaluation reaches it (they stay within `EVAL_LIMIT`).
pub const NO_EVAL: Value = Value(-Value::INFINITE.0);

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best (or refuting) move, possibly none.
    pub mv: PackedMove,
    /// Score, already converted back to root-relative mate distances.
    pub value: Value,
    /// Static evaluation stored with the entry ([`NO_EVAL`] when it has none).
    pub eval: Value,
    /// Remaining depth the score was searched with.
    pub depth: i32,
    /// What `value` means.
    pub bound: TtBound,
    /// Whether the position is or was on a principal variation when it was stored (the
    /// ttPv bit: such nodes are reduced and pruned less, `reductions.rs`).
    pub pv: bool,
}

/// One slot: two atomic words. `data` packs the entry (see [`Data`]); `check` holds
/// `key ^ data`. Threads read and write slots with relaxed atomics and no lock: a reader that
/// sees one word from one writer and the other word from another gets `check ^ data != key`
/// and treats the slot as a miss (the lock-less XOR scheme). A wrong hit would need a
/// 64-bit key collision; a torn slot can only reorder moves, never produce an illegal one
/// (moves are matched against the legal moves) or a memory error (no `unsafe` here).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// An entry's fields packed in one word: `mv | value << 16 | eval << 32 | depth_pv << 48 |
/// gen_bound << 56`, with the depth in the lower 7 bits of `depth_pv` and the ttPv bit in its
/// top bit, the generation in the upper 6 bits of `gen_bound` and the bound in the lower 2
/// (0 = empty slot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Data {
    mv: u16,
    value: i16,
    eval: i16,
    depth_pv: u8,
    gen_bound: u8,
}

/// The largest depth an entry holds (7 bits: deeper results are stored as this deep; the
/// search never reaches it, `MAX_PLY` being 128 plies of which the depth is a part).
const MAX_STORED_DEPTH: i32 = 0x7f;
/// The ttPv bit of `Data::depth_pv`.
const PV_BIT: u8 = 0x80;

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.value as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth_pv) << 48
            | u64::from(self.gen_bound) << 56
    }

    fn unpack(word: u64) -> Data {
        Data {
            mv: word as u16,
            value: (word >> 16) as u16 as i16,
            eval: (word >> 32) as u16 as i16,
            depth_pv: (word >> 48) as u8,
            gen_bound: (word >> 56) as u8,
        }
    }

    /// The stored depth.
    fn depth(self) -> i32 {
        i32::from(self.depth_pv & !PV_BIT)
    }

    /// The ttPv bit.
    fn pv(self) -> bool {
        self.depth_pv & PV_BIT != 0
    }
}

impl Slot {
    /// The slot's key and entry, as one consistent pair (a torn pair reads as a foreign key).
    fn load(&self) -> (u64, Data) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data, Data::unpack(data))
    }

    fn save(&self, key: u64, entry: Data) {
        let data = entry.pack();
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

const BUCKET_SIZE: usize = 4;

#[derive(Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; BUCKET_SIZE],
}

/// Asks Linux to back the reserved (not yet touched) memory of `buckets` with 2 MB pages where
/// it can. Nearly every probe of a large table misses the cache, and with 4 KB pages it misses
/// the TLB as well: a page walk before the load (or the prefetch) can even start. Huge pages
/// cut that walk; `minkowski bench` measured the gain (see the commit). A refusal (huge pages
/// off, an old kernel) leaves ordinary pages: the advice is only a hint.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &mut Vec<Bucket>) {
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    /// `MADV_HUGEPAGE` of Linux's `<sys/mman.h>`, the same value on every architecture.
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 2 << 20;
    let start = buckets.as_mut_ptr();
    let bytes = buckets.capacity() * size_of::<Bucket>();
    // Only whole huge pages inside the allocation are advised.
    let skip = (start as usize).next_multiple_of(HUGE_PAGE) - start as usize;
    let len = bytes.saturating_sub(skip) / HUGE_PAGE * HUGE_PAGE;
    if len > 0 {
        // SAFETY: the range `start + skip .. + len` lies inside the allocation `buckets` owns
        // (its capacity), is page-aligned (a multiple of 2 MB), and MADV_HUGEPAGE changes only
        // how the kernel backs those pages, never their contents or who may access them; the
        // call reads and writes no memory of ours. Its result is ignored on purpose (a hint).
        unsafe {
            madvise(
                start.cast::<u8>().wrapping_add(skip).cast(),
                len,
                MADV_HUGEPAGE,
            );
        }
    }
}

/// Elsewhere the table keeps ordinary pages.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_buckets: &mut Vec<Bucket>) {}

/// The transposition table, shared by every search thread (all methods take `&self`).
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). If the memory cannot be had, the
    /// size is halved until it can: a GUI's oversized `Hash` must not abort the engine.
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        let mut count = (mb.max(1).saturating_mul(1024 * 1024) / size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        while buckets.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        // Before the first write touches a page: huge pages must back the table from the start.
        advise_huge_pages(&mut buckets);
        buckets.resize_with(count.min(buckets.capacity()).max(1), Bucket::default);
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// The table's actual size in megabytes (smaller than asked if memory was short).
    #[must_use]
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empty every entry (no search may be running).
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flat_map(|b| b.slots.iter_mut()) {
            *slot = Slot::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 0x3f, Ordering::Relaxed);
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Start loading the bucket of `key` into the cache: the child's key is known a little
    /// before its probe, and nearly every probe of a large table misses the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let bucket: *const Bucket = &self.buckets[self.index(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 CPU has (it is part of the
        // x86-64 baseline). A prefetch is only a hint: it never faults, reads nothing into the
        // program and writes nothing, and `bucket` points into our own live allocation anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Look `key` up; `ply` converts mate scores.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let bucket = &self.buckets[self.index(key)];
        let generation = self.generation.load(Ordering::Relaxed);
        bucket
            .slots
            .iter()
            .find_map(|slot| {
                let (k, e) = slot.load();
                if k != key || e.gen_bound & 3 == 0 {
                    return None;
                }
                // A probe from this search refreshes the entry's age: it is still in use, so
                // replacement should not treat it as stale.
                if e.gen_bound >> 2 != generation {
                    let refreshed = Data {
                        gen_bound: (generation << 2) | (e.gen_bound & 3),
                        ..e
                    };
                    slot.save(key, refreshed);
                }
                Some(e)
            })
            .map(|e| TtHit {
                mv: PackedMove(e.mv),
                value: Value(i32::from(e.value)).from_tt(ply),
                eval: Value(i32::from(e.eval)),
                depth: e.depth(),
                bound: match e.gen_bound & 3 {
                    1 => TtBound::Exact,
                    2 => TtBound::Lower,
                    _ => TtBound::Upper,
                },
                pv: e.pv(),
            })
    }

    /// Store a search result; `pv` is the node's ttPv bit. Depth is clamped to 0..=127; a
    /// missing move keeps the old one.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: PackedMove,
        value: Value,
        eval: Value,
        depth: i32,
        bound: TtBound,
        ply: usize,
        pv: bool,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = &self.buckets[self.index(key)];
        let entries: [(u64, Data); BUCKET_SIZE] = std::array::from_fn(|i| bucket.slots[i].load());
        // Same position: replace it (unless the old entry is much deeper and the new one is
        // only a bound). Otherwise the victim is the shallowest, oldest entry.
        let slot = match entries.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let mut victim = 0;
                let mut worst = i32::MAX;
                for (i, (_, e)) in entries.iter().enumerate() {
                    if e.gen_bound & 3 == 0 {
                        victim = i;
                        break;
                    }
                    let age = i32::from((generation + 64 - (e.gen_bound >> 2)) & 0x3f);
                    let worth = e.depth() - 8 * age;
                    if worth < worst {
                        worst = worth;
                        victim = i;
                    }
                }
                victim
            }
        };
        let (old_key, old) = entries[slot];
        let depth = depth.clamp(0, MAX_STORED_DEPTH);
        if old_key == key
            && bound != TtBound::Exact
            && old.depth() > depth + 3
            && old.gen_bound >> 2 == generation
        {
            return;
        }
        let keep_move = old_key == key && mv.is_none();
        let bound_bits = match bound {
            TtBound::Exact => 1,
            TtBound::Lower => 2,
            TtBound::Upper => 3,
        };
        bucket.slots[slot].save(
            key,
            Data {
                mv: if keep_move { old.mv } else { mv.0 },
                value: value.to_tt(ply).0 as i16,
                eval: eval.0 as i16,
                depth_pv: depth as u8 | if pv { PV_BIT } else { 0 },
                gen_bound: (generation << 2) | bound_bits,
            },
        );
    }

    /// Permille of a sample of entries filled in the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.slots.iter().map(Slot::load))
            .filter(|(_, e)| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == generation)
            .count();
        (used * 1000 / (sample * BUCKET_SIZE)) as u32
    }
}

#[cfg(test)]
mod tests;
