//! The weights handle: the built-in weights, or an engine.toml `[eval]` table applied to them.

use std::ffi::{CStr, c_char};
use std::sync::LazyLock;

use minkowski_core::eval::Evaluator;
use minkowski_core::eval::score::S;
use minkowski_core::eval::weights::Weights;
use minkowski_core::weights_file::{WeightValueError, WeightsFile, check_weight};

use crate::errors::{
    MK_ERR_ARGUMENT, MK_ERR_BUFFER, MK_ERR_INTERNAL, MK_ERR_NULL, MK_ERR_WEIGHTS, boundary, status,
};

/// An evaluation's weights (opaque). Make one with mk_weights_new() or mk_weights_load(),
/// pass it to the evaluation functions (or pass NULL there for the built-in weights), and
/// release it with mk_weights_free().
pub struct MkWeights {
    pub(crate) evaluator: Evaluator,
}

/// Every weight's name, in index order (mk_weights_name), made once.
static NAMES: LazyLock<Vec<String>> = LazyLock::new(Weights::names);

/// The built-in evaluation, shared by every call that passes NULL weights.
static DEFAULT: LazyLock<Evaluator> = LazyLock::new(Evaluator::default);

/// The evaluator of a handle, or the built-in one for NULL.
///
/// Safety: weights is NULL or a live handle from this library.
pub(crate) unsafe fn evaluator<'a>(weights: *const MkWeights) -> &'a Evaluator {
    // SAFETY: the caller's contract (documented on every entry point that takes weights).
    match unsafe { weights.as_ref() } {
        Some(w) => &w.evaluator,
        None => &DEFAULT,
    }
}

/// A new handle holding the built-in weights; NULL only if the library fails internally.
/// Free it with mk_weights_free().
///
/// Thread safety: safe to call from any number of threads at once.
#[unsafe(no_mangle)]
pub extern "C" fn mk_weights_new() -> *mut MkWeights {
    boundary(std::ptr::null_mut(), || {
        Box::into_raw(Box::new(MkWeights {
            evaluator: Evaluator::default(),
        }))
    })
}

/// Reads an engine.toml file (the engine's own format; only its eval table matters here:
/// weight name = pair of mg and eg, each checked against the weight's range) and stores a new handle
/// with the built-in weights plus that table in *out. Returns MK_OK, MK_ERR_NULL, or
/// MK_ERR_WEIGHTS (unreadable file, not TOML, an unknown table or weight, a value out of range
/// or not UTF-8 path); on error *out is left unchanged.
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: path is NULL or a NUL-terminated string; out is NULL or points to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_weights_load(path: *const c_char, out: *mut *mut MkWeights) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (path, out) = unsafe { (text(path)?, out.as_mut().ok_or(MK_ERR_NULL)?) };
        let toml = std::fs::read_to_string(path).map_err(|_| MK_ERR_WEIGHTS)?;
        *out = from_toml(&toml)?;
        Ok(())
    })
}

/// As mk_weights_load(), from the text of an engine.toml file rather than its path.
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: toml is NULL or a NUL-terminated string; out is NULL or points to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_weights_from_toml(
    toml: *const c_char,
    out: *mut *mut MkWeights,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (toml, out) = unsafe { (text(toml)?, out.as_mut().ok_or(MK_ERR_NULL)?) };
        *out = from_toml(toml)?;
        Ok(())
    })
}

/// Releases a handle. NULL is allowed (nothing happens); a handle must be freed once only, and
/// not while another thread uses it.
///
/// Thread safety: not while any other call uses the same handle.
///
/// Safety: weights is NULL or a handle from this library not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_weights_free(weights: *mut MkWeights) {
    boundary((), || {
        if !weights.is_null() {
            // SAFETY: made by Box::into_raw in this library and not freed yet (caller's contract).
            drop(unsafe { Box::from_raw(weights) });
        }
    });
}

/// The number of named weights (the keys of engine.toml's eval table); mk_weights_name gives
/// each one's name by index, 0 .. mk_weights_count() - 1.
///
/// Thread safety: safe to call from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn mk_weights_count() -> u32 {
    // COUNT would also count the structure slots (the king's material, ...), which have no name.
    boundary(0, || u32::try_from(NAMES.len()).unwrap_or(0))
}

/// The name of weight index (0 .. mk_weights_count() - 1, in the order of engine.toml's eval
/// table, e.g. "material.pawn"), the key mk_weights_get and mk_weights_set take, written with
/// its terminating NUL into name, which holds capacity bytes. Returns the name's length in
/// bytes without the NUL (at least 1); MK_ERR_ARGUMENT if index >= mk_weights_count();
/// MK_ERR_NULL if name is NULL and capacity is not 0; MK_ERR_BUFFER if capacity <= the length
/// (nothing is written). With name NULL and capacity 0 nothing is written and the length is
/// returned: a buffer of length + 1 bytes then holds the name. Names are ASCII.
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: name is NULL or points to capacity writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_weights_name(index: u32, name: *mut c_char, capacity: usize) -> i32 {
    boundary(MK_ERR_INTERNAL, || {
        let Some(text) = usize::try_from(index).ok().and_then(|i| NAMES.get(i)) else {
            return MK_ERR_ARGUMENT;
        };
        let Ok(length) = i32::try_from(text.len()) else {
            return MK_ERR_INTERNAL;
        };
        if name.is_null() {
            return if capacity == 0 { length } else { MK_ERR_NULL };
        }
        if capacity <= text.len() {
            return MK_ERR_BUFFER;
        }
        // SAFETY: name holds capacity > text.len() writable bytes (the caller's contract), and
        // a Rust string never overlaps a caller's buffer.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), name.cast::<u8>(), text.len());
            name.add(text.len()).write(0);
        }
        length
    })
}

/// Reads weight name (an engine.toml eval-table key such as "material.knight") of weights
/// (NULL: the built-in weights) into *mg and *eg. Returns MK_OK, MK_ERR_NULL (name or an
/// output), or MK_ERR_WEIGHTS (no such weight).
///
/// Thread safety: safe to call from any number of threads at once.
///
/// Safety: weights is NULL or a live handle; name is NULL or a NUL-terminated string; mg and eg
/// are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_weights_get(
    weights: *const MkWeights,
    name: *const c_char,
    mg: *mut i32,
    eg: *mut i32,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (w, name) = unsafe { (evaluator(weights).weights(), text(name)?) };
        // SAFETY: the caller's contract above.
        let (mg, eg) = unsafe { (mg.as_mut(), eg.as_mut()) };
        let (mg, eg) = mg.zip(eg).ok_or(MK_ERR_NULL)?;
        let value = w.get(name).ok_or(MK_ERR_WEIGHTS)?;
        (*mg, *eg) = (value.mg(), value.eg());
        Ok(())
    })
}

/// Sets weight name of the handle to (mg, eg). Returns MK_OK, MK_ERR_NULL,
/// MK_ERR_WEIGHTS (no such weight) or MK_ERR_ARGUMENT (outside the weight's range, as
/// engine.toml would reject it).
///
/// Thread safety: not while another call uses the same handle.
///
/// Safety: weights is NULL or a live handle; name is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mk_weights_set(
    weights: *mut MkWeights,
    name: *const c_char,
    mg: i32,
    eg: i32,
) -> i32 {
    status(|| {
        // SAFETY: the caller's contract above.
        let (w, name) = unsafe { (weights.as_mut().ok_or(MK_ERR_NULL)?, text(name)?) };
        // The range check is engine.toml's own (the weight file reader's check).
        match check_weight(name, [mg, eg]) {
            Ok(()) => {}
            Err(WeightValueError::UnknownName) => return Err(MK_ERR_WEIGHTS),
            Err(_) => return Err(MK_ERR_ARGUMENT),
        }
        w.evaluator
            .weights_mut()
            .set(name, S(mg, eg))
            .map_err(|_| MK_ERR_WEIGHTS)
    })
}

/// A caller's NUL-terminated UTF-8 string.
///
/// Safety: ptr is NULL or a NUL-terminated string.
unsafe fn text<'a>(ptr: *const c_char) -> Result<&'a str, i32> {
    if ptr.is_null() {
        return Err(MK_ERR_NULL);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    unsafe { CStr::from_ptr(ptr) }
        .to_str()
        .map_err(|_| MK_ERR_WEIGHTS)
}

/// A new handle from engine.toml text.
fn from_toml(toml: &str) -> Result<*mut MkWeights, i32> {
    let file = WeightsFile::parse(toml).map_err(|_| MK_ERR_WEIGHTS)?;
    Ok(Box::into_raw(Box::new(MkWeights {
        evaluator: Evaluator::new(file.weights()),
    })))
}
