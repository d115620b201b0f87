//! The package's exception, raised by the evaluator and registered by the module (`lib.rs`).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    minkowski_chess,
    PositionError,
    PyValueError,
    "A FEN or board that is not a legal chess position (batches: .indices, .messages, .values)."
);
