//! Status codes, and the boundary that turns a panic into one.

use std::ffi::{CStr, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Success.
pub const MK_OK: i32 = 0;
/// A pointer the function needs (position, FEN, output, handle, buffer) is NULL.
pub const MK_ERR_NULL: i32 = -1;
/// The eight bitboards are inconsistent: White and Black overlap, two piece kinds share a
/// square, or the union of the piece kinds differs from the union of the colours.
pub const MK_ERR_BITBOARDS: i32 = -2;
/// Not a legal chess position: a missing or extra king, a pawn on the first or last rank, the
/// side not to move in check, impossible checks, too much material, castling bits above the four
/// flags. Also from the calls that take pieces as square numbers (mk_kpk, mk_kbnk_score,
/// mk_mop_up, mk_knights_catch_passer, mk_passer_unstoppable): two pieces on one square, kings
/// in contact, a pawn on its first or last rank. General rule: a number that is no square is
/// MK_ERR_SQUARE; squares that are real but cannot hold those pieces are MK_ERR_POSITION.
pub const MK_ERR_POSITION: i32 = -3;
/// The FEN text is not valid UTF-8 or not a FEN.
pub const MK_ERR_FEN: i32 = -4;
/// A square number outside 0..=63 (an argument, or the en passant field of a position). A pawn on
/// a real square of its first or last rank is MK_ERR_POSITION, from every call.
pub const MK_ERR_SQUARE: i32 = -5;
/// A weights file that cannot be read, is not TOML, or has an unknown weight or a value out of
/// range in its eval table (the rules of engine.toml); or an unknown weight name.
pub const MK_ERR_WEIGHTS: i32 = -6;
/// The caller's buffer is too small (the number needed is reported where documented).
pub const MK_ERR_BUFFER: i32 = -7;
/// Another argument out of its documented range (an index, a flag).
pub const MK_ERR_ARGUMENT: i32 = -8;
/// Memory could not be allocated (an evaluation cache of the size asked for).
pub const MK_ERR_MEMORY: i32 = -9;
/// The library failed internally (a caught panic). Never expected; please report it.
pub const MK_ERR_INTERNAL: i32 = -99;

/// The name of a status code ("MK_ERR_FEN"), or "MK_UNKNOWN" for a number that is none;
/// a NUL-terminated string owned by the library (never free it).
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_status_name(status: i32) -> *const c_char {
    boundary(std::ptr::null(), || name_of(status).as_ptr())
}

/// The name of a status code, for mk_status_name.
fn name_of(status: i32) -> &'static CStr {
    match status {
        MK_OK => c"MK_OK",
        MK_ERR_NULL => c"MK_ERR_NULL",
        MK_ERR_BITBOARDS => c"MK_ERR_BITBOARDS",
        MK_ERR_POSITION => c"MK_ERR_POSITION",
        MK_ERR_FEN => c"MK_ERR_FEN",
        MK_ERR_SQUARE => c"MK_ERR_SQUARE",
        MK_ERR_WEIGHTS => c"MK_ERR_WEIGHTS",
        MK_ERR_BUFFER => c"MK_ERR_BUFFER",
        MK_ERR_ARGUMENT => c"MK_ERR_ARGUMENT",
        MK_ERR_MEMORY => c"MK_ERR_MEMORY",
        MK_ERR_INTERNAL => c"MK_ERR_INTERNAL",
        _ => c"MK_UNKNOWN",
    }
}

/// Runs an entry point's body; a panic becomes on_panic instead of unwinding into C (which
/// would abort the host). Bodies only touch their own locals, immutable shared data and, for an
/// evaluator, its pawn-king cache, whose entries are written whole and checked against their
/// full key before use: no broken invariant can be observed after a caught panic, so
/// AssertUnwindSafe is sound here.
pub(crate) fn boundary<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(on_panic)
}

/// A status body: Err(code) and Ok(()) both become the returned integer.
pub(crate) fn status(body: impl FnOnce() -> Result<(), i32>) -> i32 {
    boundary(MK_ERR_INTERNAL, || match body() {
        Ok(()) => MK_OK,
        Err(code) => code,
    })
}
