//! An evaluator handle's calls for a host's search: through the evaluation cache (keyed by the
//! library's hash or by the host's own key), and bounded by a window (lazy evaluation); the
//! cache's size and counts.

use minkowski_core::eval::Value;
use minkowski_core::eval::eval_cache::{EvalCache, PositionHash};

use crate::errors::{MK_ERR_ARGUMENT, MK_ERR_MEMORY, MK_ERR_NULL, status};
use crate::handle::{MkEvaluator, evaluate_with};
use crate::position::MkPosition;

/// The size of a new evaluator's evaluation cache, in KiB: 256 KiB, 16,384 positions (16 bytes
/// each). It is allocated on the first call of mk_evaluator_evaluate_cached or _keyed.
pub const MK_EVAL_CACHE_DEFAULT_KIB: u32 = 256;

/// The largest evaluation cache mk_evaluator_set_cache_size accepts, in KiB (1 GiB).
pub const MK_EVAL_CACHE_MAX_KIB: u32 = 1 << 20;

// The header's default is the core crate's.
const _: () = assert!(MK_EVAL_CACHE_DEFAULT_KIB as usize == EvalCache::DEFAULT_KIB);

/// An evaluator's cache counts since it was made, cleared or resized (mk_evaluator_cache_stats).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MkCacheStats {
    /// Lookups in the evaluation cache (mk_evaluator_evaluate_cached and _keyed).
    pub eval_probes: u64,
    /// Of those, the ones that found their position.
    pub eval_hits: u64,
    /// Positions the evaluation cache holds at most (0 when it is not allocated yet or off).
    pub eval_entries: u64,
    /// Lookups in the pawn-king cache: one per evaluation the evaluator computes (bounded
    /// calls included; an evaluation-cache hit makes none).
    pub pawn_king_probes: u64,
    /// Of those, the ones that found their pawns and kings.
    pub pawn_king_hits: u64,
}

impl MkEvaluator {
    /// The value of `pos` through the evaluation cache, after the trusted call's checks: a hit
    /// returns the value kept for the position whose key and check it has; a miss evaluates
    /// the position and keeps the value. `key`: the host's key, or None for the library's own.
    fn cached(&mut self, pos: &MkPosition, key: Option<u64>) -> Result<i32, i32> {
        if self.values_kib == 0 {
            let (board, turn) = pos.to_board_trusted()?;
            return Ok(self.evaluate(&board, turn));
        }
        let hash = PositionHash::of_bitboards(pos.bitboards(), pos.white_to_move != 0);
        let hash = key.map_or(hash, |key| hash.with_key(key));
        let stamp = self.evaluator.stamp();
        if self.values.is_none() {
            self.values = Some(EvalCache::try_with_kib(self.values_kib).ok_or(MK_ERR_MEMORY)?);
        }
        // The checks run while the entry loads.
        if let Some(values) = &self.values {
            values.prefetch(hash.key);
        }
        let (board, turn) = pos.to_board_trusted()?;
        if let Some(value) = self.values.as_mut().and_then(|v| v.probe(stamp, hash)) {
            return Ok(value.0);
        }
        let value = self.evaluate(&board, turn);
        if let Some(values) = &mut self.values {
            values.store(stamp, hash, Value(value));
        }
        Ok(value)
    }
}

/// The trusted call through the evaluator's evaluation cache, keyed by the library: the same
/// checks, codes and value as mk_evaluator_evaluate_trusted. A position met before (the same
/// eight bitboards and side to move) is answered from the cache without evaluating it again
/// (about 50 ns instead of 380). The key is a 64-bit hash of the bitboards and the
/// side to move, and every entry also keeps a second, 47-bit check of them: a position the
/// cache does not hold gets another's value only if both collide, about one chance in 2^111
/// per lookup. The cache keeps one position per slot, the newest; its size is
/// MK_EVAL_CACHE_DEFAULT_KIB unless set by mk_evaluator_set_cache_size (0: no cache, every call
/// evaluates), it is allocated on the first cached call (MK_ERR_MEMORY if that fails) and
/// holds values of the evaluator's own weights only. A search that keeps its evaluations in
/// its own transposition table gains little from it: measure (docs/embedding.md).
///
/// Thread safety: as mk_evaluator_evaluate (one thread at a time per evaluator).
///
/// Safety: as mk_evaluator_evaluate.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_evaluate_cached(
    evaluator: *mut MkEvaluator,
    pos: *const MkPosition,
    cp: *mut i32,
) -> i32 {
    // SAFETY: the caller's contract above, passed on unchanged.
    unsafe { evaluate_with(evaluator, pos, cp, |ev, p| ev.cached(p, None)) }
}

/// As mk_evaluator_evaluate_cached, with the host's own 64-bit key of the position (e.g. its
/// Zobrist key) choosing the entry instead of the library's hash. Any key works as long as
/// one position always gets the same one; the library still computes and compares its own
/// 47-bit check of the bitboards and side to move, so a position gets another's value only if
/// the host's keys of the two collide and the check too (2^-47 for each such collision; a
/// good 64-bit Zobrist key collides about once in 2^64 lookups). The key may include what the
/// evaluation does not read (castling, en passant, the move counters): positions that differ
/// only there are then kept apart, each evaluated once. Do not mix the library's keys and your
/// own in one evaluator's cache (they would only miss each other).
///
/// Thread safety: as mk_evaluator_evaluate (one thread at a time per evaluator).
///
/// Safety: as mk_evaluator_evaluate.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_evaluate_keyed(
    evaluator: *mut MkEvaluator,
    pos: *const MkPosition,
    key: u64,
    cp: *mut i32,
) -> i32 {
    // SAFETY: the caller's contract above, passed on unchanged.
    unsafe { evaluate_with(evaluator, pos, cp, |ev, p| ev.cached(p, Some(key))) }
}

/// The bounded call (lazy evaluation), for a search that only needs to know on which side of
/// its window (alpha, beta) the value lies, with the checks of mk_evaluator_evaluate_trusted.
/// If the exact value v (that of mk_evaluator_evaluate_trusted) lies inside, alpha < v < beta,
/// *cp is v, bit for bit. Otherwise *cp may be an estimate instead, at one of two points of
/// the evaluation: first the cheap estimate (material, piece squares, the pawn-and-king terms
/// and the tempo bonus), returned only when it lies more than MK_LAZY_MARGIN_EARLY outside the
/// window; then the late estimate (everything but threats and piece placement), returned only
/// when it lies more than MK_LAZY_MARGIN outside. Either way *cp >= beta + MK_LAZY_MARGIN,
/// meaning v >= beta, or *cp <= alpha - MK_LAZY_MARGIN, meaning v <= alpha; treat it as a
/// bound (fail high, fail low), not as the value. The meaning holds wherever the terms an
/// estimate leaves out add less than its margin: on the measured positions (docs/embedding.md)
/// no bound was on the wrong side of its window, but it is not proven for every position. A
/// position with specialised endgame knowledge is
/// always evaluated exactly. Returns MK_OK, MK_ERR_ARGUMENT if alpha >= beta, or the trusted
/// call's codes. The evaluation cache is not used.
///
/// Thread safety: as mk_evaluator_evaluate (one thread at a time per evaluator).
///
/// Safety: as mk_evaluator_evaluate.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_evaluate_bounded(
    evaluator: *mut MkEvaluator,
    pos: *const MkPosition,
    alpha: i32,
    beta: i32,
    cp: *mut i32,
) -> i32 {
    // SAFETY: the caller's contract above, passed on unchanged.
    unsafe {
        evaluate_with(evaluator, pos, cp, |ev, p| {
            if alpha >= beta {
                return Err(MK_ERR_ARGUMENT);
            }
            let (board, turn) = p.to_board_trusted()?;
            let sum = ev.evaluator.material_psqt(&board);
            let (alpha, beta) = (Value(alpha), Value(beta));
            let value =
                ev.evaluator
                    .evaluate_bounded(&board, turn, sum, alpha, beta, &mut ev.cache);
            Ok(value.0)
        })
    }
}

/// How far outside its window the bounded call's estimate must lie before it answers with it
/// (centipawns): see mk_evaluator_evaluate_bounded.
pub const MK_LAZY_MARGIN: i32 = 500;

/// How far outside its window the bounded call's cheap estimate must lie before it answers
/// with it (centipawns, at least MK_LAZY_MARGIN): see mk_evaluator_evaluate_bounded.
pub const MK_LAZY_MARGIN_EARLY: i32 = 4500;

// The header's margins are the core crate's.
const _: () = assert!(MK_LAZY_MARGIN == minkowski_core::eval::bounded::LAZY_MARGIN);
const _: () = assert!(MK_LAZY_MARGIN_EARLY == minkowski_core::eval::bounded::LAZY_MARGIN_EARLY);
const _: () = assert!(MK_LAZY_MARGIN_EARLY >= MK_LAZY_MARGIN);

/// Sets the size of the evaluator's evaluation cache to about kib KiB (16 bytes a position,
/// rounded down to a power of two positions), emptying it and its counts; 0 turns it off (the
/// cached calls then evaluate every position). The new table is allocated now. Returns MK_OK;
/// MK_ERR_NULL; MK_ERR_ARGUMENT if kib > MK_EVAL_CACHE_MAX_KIB; MK_ERR_MEMORY if the memory
/// cannot be had (the old cache is kept then).
///
/// Thread safety: as mk_evaluator_evaluate (one thread at a time per evaluator).
///
/// Safety: evaluator is NULL or a live evaluator used by no other thread during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_set_cache_size(evaluator: *mut MkEvaluator, kib: u32) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let ev = unsafe { evaluator.as_mut() }.ok_or(MK_ERR_NULL)?;
        if kib > MK_EVAL_CACHE_MAX_KIB {
            return Err(MK_ERR_ARGUMENT);
        }
        let kib = kib as usize;
        ev.values = match kib {
            0 => None,
            _ => Some(EvalCache::try_with_kib(kib).ok_or(MK_ERR_MEMORY)?),
        };
        ev.values_kib = kib;
        Ok(())
    })
}

/// The evaluator's cache counts into *out (see MkCacheStats). Returns MK_OK or MK_ERR_NULL.
///
/// Thread safety: as mk_evaluator_evaluate (one thread at a time per evaluator).
///
/// Safety: evaluator is NULL or a live evaluator used by no other thread during the call; out
/// is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_evaluator_cache_stats(
    evaluator: *const MkEvaluator,
    out: *mut MkCacheStats,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (ev, out) = unsafe {
            (
                evaluator.as_ref().ok_or(MK_ERR_NULL)?,
                out.as_mut().ok_or(MK_ERR_NULL)?,
            )
        };
        let values = ev.values.as_ref();
        *out = MkCacheStats {
            eval_probes: values.map_or(0, EvalCache::probes),
            eval_hits: values.map_or(0, EvalCache::hits),
            eval_entries: values.map_or(0, |v| v.len() as u64),
            pawn_king_probes: ev.cache.probes(),
            pawn_king_hits: ev.cache.hits(),
        };
        Ok(())
    })
}
