#![deny(missing_docs)]
// The item docs become the C header's comments (cbindgen), so they are written as plain C prose:
// each unsafe function's contract is a "Safety:" paragraph, not a rustdoc "# Safety" heading.
#![allow(clippy::missing_safety_doc)]
//! # Minkowski's evaluation as a C library
//!
//! The evaluation of the Minkowski chess engine, and its distance-based endgame knowledge on its
//! own, behind a C ABI: `libminkowski_capi.so` (or `.dylib`, `.dll`) and `libminkowski_capi.a`
//! with one header, `include/minkowski.h`, generated from this crate by cbindgen.
//!
//! Conventions are those of the Syzygy probers many engines already embed (Fathom, Pyrrhic):
//! a position is eight bitboards (white, black, kings, queens, rooks, bishops, knights, pawns),
//! square a1 = 0 … h8 = 63, bit `i` = square `i`, plus side to move, castling, en passant and
//! the fifty-move counter ([`MkPosition`]). Every function returns plain integers: a status
//! (`MK_OK` = 0, a negative `MK_ERR_*` code on bad input) or a value whose negative range is the
//! error codes. No Rust panic ever crosses the boundary: every entry point runs behind
//! `catch_unwind` and reports `MK_ERR_INTERNAL` if the library itself fails.
//!
//! The trace is generic: the number of rows, each row's name and each row's numbers are read at
//! run time ([`mk_trace_row_count`], [`mk_trace_row_name`], [`mk_trace`]), so a new evaluation
//! term needs no change in a C or Python caller.
//!
//! Thread safety: every function may be called from any number of threads at once, except that a
//! weights handle must not be freed while another thread uses it.
//!
//! Licence: GPL-3.0-or-later. A program that links this library (statically or dynamically) is a
//! combined work with it, and distributing that program is allowed only under the GPL
//! (version 3 or later) as a whole, with its source.
//!
//! ```
//! use minkowski_capi::*;
//! use std::ffi::CString;
//!
//! let fen = CString::new("8/8/8/4k3/8/8/8/KBN5 w - - 0 1").unwrap();
//! let mut cp = 0;
//! // NULL weights: the built-in defaults.
//! let status = unsafe { mk_evaluate_fen(std::ptr::null(), fen.as_ptr(), &mut cp) };
//! assert_eq!(status, MK_OK);
//! assert!(cp > 10_000); // bishop and knight mate: a known win
//! assert_eq!(mk_king_distance(0, 63), 7); // a1 to h8
//! ```

mod errors;
mod evaluate;
mod handle;
mod knowledge;
mod position;
mod search_calls;
mod weights;

pub use errors::*;
pub use evaluate::*;
pub use handle::*;
pub use knowledge::*;
pub use position::*;
pub use search_calls::*;
pub use weights::*;

use std::ffi::{CStr, c_char};

use errors::{boundary, status};

/// This library's version, e.g. "0.2.0", as a NUL-terminated string owned by the library
/// (never free it): the version of the library loaded at run time, where MK_VERSION_MAJOR,
/// MK_VERSION_MINOR and MK_VERSION_PATCH are those of the header a host was compiled with.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_version() -> *const c_char {
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(version) => version,
            Err(_) => panic!("the package version contains a NUL byte"),
        };
    boundary(std::ptr::null(), || VERSION.as_ptr())
}

/// The version of the C interface (the header's MK_ABI_VERSION): a host built against one
/// header checks at load time that the library it loaded has the same.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_abi_version() -> u32 {
    boundary(0, || MK_ABI_VERSION)
}

/// Builds now the tables the library otherwise builds on first use (the KPK bitbase of the
/// evaluation and of mk_kpk: about 50 ms, once per process), so that no later call pauses for
/// them. Optional: values never depend on it, and mk_evaluator_new does the same. Idempotent
/// (later calls return at once). Returns MK_OK (MK_ERR_INTERNAL only if the library fails).
///
/// Thread safety: safe to call from any number of threads at once (one builds, the others
/// wait for it).
#[unsafe(no_mangle)]
pub extern "C" fn mk_init() -> i32 {
    status(|| {
        minkowski_core::prepare_tables();
        Ok(())
    })
}

/// The version of the C interface this header describes; mk_abi_version() returns it. It
/// changes whenever a host compiled against the previous header could misbehave with this
/// library: a function removed or renamed, a parameter, return type or struct layout changed,
/// a constant's value or a documented meaning changed incompatibly. Additions (a new function,
/// constant or status code) and accepting inputs that used to be refused do not change it; a
/// host that calls a function added later checks mk_version() against the MK_VERSION_* it needs.
pub const MK_ABI_VERSION: u32 = 1;

/// The library's major version (the header's; mk_version() gives the loaded library's).
pub const MK_VERSION_MAJOR: u32 = 0;

/// The library's minor version (the header's; mk_version() gives the loaded library's).
pub const MK_VERSION_MINOR: u32 = 2;

/// The library's patch version (the header's; mk_version() gives the loaded library's).
pub const MK_VERSION_PATCH: u32 = 0;

/// A decimal number written in Cargo's version fields, at compile time.
const fn parse_version(text: &str) -> u32 {
    let bytes = text.as_bytes();
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i].is_ascii_digit(), "a version field is a number");
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

// The header's version numbers are the package's: a version bump in Cargo.toml without them
// (cbindgen writes only literals into the header) does not compile.
const _: () = {
    assert!(MK_VERSION_MAJOR == parse_version(env!("CARGO_PKG_VERSION_MAJOR")));
    assert!(MK_VERSION_MINOR == parse_version(env!("CARGO_PKG_VERSION_MINOR")));
    assert!(MK_VERSION_PATCH == parse_version(env!("CARGO_PKG_VERSION_PATCH")));
};
