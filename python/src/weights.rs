//! The weight table by name: what the Python `Weights` mapping stores its numbers in.
//!
//! Names, ranges and docs are the library's own ([`Weights::names`], [`WeightSpec`]): the
//! same names as engine.toml's `[eval]` table, checked against the same ranges.

use minkowski_core::eval::score::S;
use minkowski_core::eval::weights::{WeightSpec, Weights};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;

/// Every named weight of the evaluation, each an (mg, eg) pair of centipawns.
#[pyclass(module = "minkowski_chess._native", from_py_object)]
#[derive(Clone)]
pub struct WeightTable {
    pub(crate) weights: Weights,
}

/// The declaration of weight `name`, or KeyError.
fn spec(name: &str) -> PyResult<&'static WeightSpec> {
    Weights::index_of(name)
        .and_then(Weights::locate)
        .map(|(spec, _)| spec)
        .ok_or_else(|| PyKeyError::new_err(name.to_owned()))
}

#[pymethods]
impl WeightTable {
    /// The built-in weights.
    #[new]
    fn new() -> WeightTable {
        WeightTable {
            weights: Weights::default(),
        }
    }

    /// Every weight name, in the library's order (engine.toml's order).
    #[staticmethod]
    fn names() -> Vec<String> {
        Weights::names()
    }

    /// The (mg, eg) pair of `name`; KeyError if there is no such weight.
    fn get(&self, name: &str) -> PyResult<(i32, i32)> {
        self.weights
            .get(name)
            .map(|s| (s.mg(), s.eg()))
            .ok_or_else(|| PyKeyError::new_err(name.to_owned()))
    }

    /// Sets `name` to (mg, eg): KeyError if there is no such weight, ValueError if a half lies
    /// outside the weight's range (the check engine.toml gets).
    fn set(&mut self, name: &str, mg: i64, eg: i64) -> PyResult<()> {
        let range = &spec(name)?.range;
        let inside = |v: i64| i32::try_from(v).ok().filter(|v| range.contains(v));
        match (inside(mg), inside(eg)) {
            (Some(mg), Some(eg)) => self
                .weights
                .set(name, S(mg, eg))
                .map_err(|e| PyKeyError::new_err(e.0)),
            _ => Err(PyValueError::new_err(format!(
                "{name}: [{mg}, {eg}] is out of range: mg and eg must be from {} to {}",
                range.start(),
                range.end()
            ))),
        }
    }

    /// The built-in (mg, eg) of `name`.
    #[staticmethod]
    fn default(name: &str) -> PyResult<(i32, i32)> {
        WeightTable::new().get(name)
    }

    /// (lowest, highest, the doc's first sentence, trace row) of weight `name`.
    #[staticmethod]
    fn describe(name: &str) -> PyResult<(i32, i32, String, &'static str)> {
        let spec = spec(name)?;
        let doc = spec.summary().to_owned();
        Ok((
            *spec.range.start(),
            *spec.range.end(),
            doc,
            spec.term.name(),
        ))
    }

    /// Every pair in the order of `names()`, flattened: [mg0, eg0, mg1, eg1, ...].
    fn values(&self) -> Vec<i32> {
        let mut copy = self.weights.clone();
        let mut out = Vec::new();
        copy.for_each_mut(|_, s| out.extend([s.mg(), s.eg()]));
        out
    }

    /// A copy.
    fn copy(&self) -> WeightTable {
        self.clone()
    }

    fn __eq__(&self, other: PyRef<'_, WeightTable>) -> bool {
        self.weights == other.weights
    }
}
