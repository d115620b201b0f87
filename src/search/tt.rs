//! The transposition table: buckets of four 16-byte entries, replacement by depth and age.
//!
//! Moves are stored as 2-byte [`PackedMove`]s. A stored move is never played directly: the
//! move picker only *matches* it against the freshly generated legal moves, so a stale or
//! colliding entry can reorder moves but never produce an illegal one.

use shakmaty::{Move, Role, Square};

use crate::value::Value;

/// A move in 2 bytes: `from | to << 6 | promotion << 12` (castling: king square to rook
/// square, as shakmaty's `Move::to()`). 0 means "no move".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedMove(pub u16);

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

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best (or refuting) move, possibly none.
    pub mv: PackedMove,
    /// Score, already converted back to root-relative mate distances.
    pub value: Value,
    /// Static evaluation stored with the entry.
    pub eval: Value,
    /// Remaining depth the score was searched with.
    pub depth: i32,
    /// What `value` means.
    pub bound: TtBound,
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    value: i16,
    eval: i16,
    depth: u8,
    /// Generation in the upper 6 bits, bound in the lower 2 (0 = empty slot).
    gen_bound: u8,
}

const BUCKET_SIZE: usize = 4;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [Entry; BUCKET_SIZE],
}

/// The transposition table.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
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
        buckets.resize(count.min(buckets.capacity()).max(1), Bucket::default());
        TranspositionTable {
            buckets,
            generation: 0,
        }
    }

    /// The table's actual size in megabytes (smaller than asked if memory was short).
    #[must_use]
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empty every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
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
        bucket
            .entries
            .iter()
            .find(|e| e.key == key && e.gen_bound & 3 != 0)
            .map(|e| TtHit {
                mv: PackedMove(e.mv),
                value: Value(i32::from(e.value)).from_tt(ply),
                eval: Value(i32::from(e.eval)),
                depth: i32::from(e.depth),
                bound: match e.gen_bound & 3 {
                    1 => TtBound::Exact,
                    2 => TtBound::Lower,
                    _ => TtBound::Upper,
                },
            })
    }

    /// Store a search result. Depth is clamped to 0..=255; a missing move keeps the old one.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        mv: PackedMove,
        value: Value,
        eval: Value,
        depth: i32,
        bound: TtBound,
        ply: usize,
    ) {
        let generation = self.generation;
        let index = self.index(key);
        let bucket = &mut self.buckets[index];
        // Same position: replace it (unless the old entry is much deeper and the new one is
        // only a bound). Otherwise the victim is the shallowest, oldest entry.
        let slot = match bucket.entries.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let mut victim = 0;
                let mut worst = i32::MAX;
                for (i, e) in bucket.entries.iter().enumerate() {
                    if e.gen_bound & 3 == 0 {
                        victim = i;
                        break;
                    }
                    let age = i32::from((generation + 64 - (e.gen_bound >> 2)) & 0x3f);
                    let worth = i32::from(e.depth) - 8 * age;
                    if worth < worst {
                        worst = worth;
                        victim = i;
                    }
                }
                victim
            }
        };
        let e = &mut bucket.entries[slot];
        let depth = depth.clamp(0, 255);
        if e.key == key
            && bound != TtBound::Exact
            && i32::from(e.depth) > depth + 3
            && e.gen_bound >> 2 == generation
        {
            return;
        }
        let keep_move = e.key == key && mv.is_none();
        let bound_bits = match bound {
            TtBound::Exact => 1,
            TtBound::Lower => 2,
            TtBound::Upper => 3,
        };
        *e = Entry {
            key,
            mv: if keep_move { e.mv } else { mv.0 },
            value: value.to_tt(ply).0 as i16,
            eval: eval.0 as i16,
            depth: depth as u8,
            gen_bound: (generation << 2) | bound_bits,
        };
    }

    /// Permille of a sample of entries filled in the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.entries.iter())
            .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation)
            .count();
        (used * 1000 / (sample * BUCKET_SIZE)) as u32
    }
}

#[cfg(test)]
mod tests {
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
        let mut tt = TranspositionTable::new(1);
        tt.store(
            42,
            PackedMove::NONE,
            Value(17),
            Value(5),
            3,
            TtBound::Exact,
            0,
        );
        let hit = tt.probe(42, 0).unwrap();
        assert_eq!(
            (hit.value, hit.depth, hit.bound),
            (Value(17), 3, TtBound::Exact)
        );
        assert!(tt.probe(43, 0).is_none());
    }
}
