//! `minkowski_chess._native`: the compiled half of the Python package. The Python half
//! (`minkowski_chess/__init__.py`) adds the `Weights` mapping, the error policy of batches and
//! the TOML files; everything that touches a position runs here, without the GIL.

use pyo3::prelude::*;

mod errors;
mod evaluator;
mod knowledge;
mod position;
mod weights;

use errors::PositionError;

/// The module: classes, the exception, the knowledge functions and the library's version.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<evaluator::Evaluator>()?;
    m.add_class::<weights::WeightTable>()?;
    m.add("PositionError", m.py().get_type::<PositionError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(knowledge::king_distance, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::manhattan_distance, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::knight_distance, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::knight_fill, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::knight_fork_squares, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::knight_fork_jumps, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::mop_up, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::kbnk_score, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::kpk, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::knights_catch_passer, m)?)?;
    m.add_function(wrap_pyfunction!(knowledge::passer_unstoppable, m)?)?;
    Ok(())
}
