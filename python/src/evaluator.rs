//! The evaluator: fixed weights, a pool of pawn-king caches, and batches spread over threads
//! with the GIL released.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use minkowski_core::eval::Evaluator as Evaluation;
use minkowski_core::eval::pawn_king::PawnKingCache;
use minkowski_core::eval::score::MAX_PHASE;
use minkowski_core::eval::trace::Term;
use minkowski_core::shakmaty::{Chess, Color, Position};
use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::PositionError;
use crate::position::{Input, type_name};
use crate::weights::WeightTable;

/// Below this many positions per thread, starting a thread costs more than it saves (a thread
/// start is some tens of microseconds, a position a microsecond or two).
const MIN_PER_THREAD: usize = 512;

/// The positions a batch could not evaluate: their indices and what was wrong, in index order.
type Failures = (Vec<usize>, Vec<String>);

/// One trace as Python sees it: rows (name, white mg, white eg, black mg, black eg), phase,
/// the phase of the full material, total, White to move, the endgame evaluator's code or None.
type TraceTuple = (
    Vec<(&'static str, i32, i32, i32, i32)>,
    i32,
    i32,
    i32,
    bool,
    Option<&'static str>,
);

/// Values as an array, failed indices, their messages.
type Values<'py> = (Bound<'py, PyArray1<i32>>, Vec<usize>, Vec<String>);

/// Traces as arrays: terms, phase, total, endgame codes, failed indices, their messages.
type TraceArrays<'py> = (
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    Vec<&'static str>,
    Vec<usize>,
    Vec<String>,
);

/// Minkowski's evaluation with one set of weights (copied when it is made, so changing a
/// `Weights` afterwards never changes an evaluator) and pawn-king caches (one per thread at
/// work, kept between calls in a pool behind a lock taken only to hand a cache out or back).
/// Every method may be called from many threads at once.
#[pyclass(frozen, module = "minkowski_chess._native")]
pub struct Evaluator {
    evaluation: Evaluation,
    cache_kib: usize,
    caches: Mutex<Vec<PawnKingCache>>,
}

impl Evaluator {
    /// A cache from the pool, or a new one; `None` when caching is off.
    fn take_cache(&self) -> Option<PawnKingCache> {
        if self.cache_kib == 0 {
            return None;
        }
        // A poisoned lock only means another thread panicked while holding it: the Vec is fine.
        let mut pool = self.caches.lock().unwrap_or_else(|e| e.into_inner());
        Some(
            pool.pop()
                .unwrap_or_else(|| PawnKingCache::with_kib(self.cache_kib)),
        )
    }

    fn give_back(&self, cache: Option<PawnKingCache>) {
        if let Some(cache) = cache {
            let mut pool = self.caches.lock().unwrap_or_else(|e| e.into_inner());
            pool.push(cache);
        }
    }

    /// The value of one position (side to move's view), through the cache when there is one:
    /// the evaluation of its pieces and side to move (the position was checked when it was
    /// built).
    fn value(&self, pos: &Chess, cache: Option<&mut PawnKingCache>) -> i32 {
        let e = &self.evaluation;
        let (board, turn) = (pos.board(), pos.turn());
        match cache {
            Some(cache) => {
                e.evaluate_cached(board, turn, e.material_psqt(board), cache)
                    .0
            }
            None => e.evaluate_board(board, turn).0,
        }
    }

    /// `work` over every input, on up to `threads` threads (the caller has released the GIL).
    /// A position that is not one, or whose evaluation panics, is recorded in the failures with
    /// its message and keeps `T::default()`; the others are unaffected.
    fn run<T, F>(&self, inputs: &[Input], threads: usize, work: F) -> (Vec<T>, Failures)
    where
        T: Default + Clone + Send,
        F: Fn(&Chess, Option<&mut PawnKingCache>) -> T + Sync,
    {
        let mut out = vec![T::default(); inputs.len()];
        let workers = threads.min(inputs.len().div_ceil(MIN_PER_THREAD)).max(1);
        let chunk = inputs.len().div_ceil(workers).max(1);
        let one = |offset: usize, inputs: &[Input], out: &mut [T]| {
            let mut cache = self.take_cache();
            let mut failed = Vec::new();
            for (i, (input, slot)) in inputs.iter().zip(out.iter_mut()).enumerate() {
                // A panic in the library must not take down the interpreter nor the batch: it
                // becomes this position's error. The cache may be half written then: drop it.
                let result = catch_unwind(AssertUnwindSafe(|| {
                    input.to_chess().map(|pos| work(&pos, cache.as_mut()))
                }));
                match result {
                    Ok(Ok(value)) => *slot = value,
                    Ok(Err(message)) => failed.push((offset + i, message)),
                    Err(panic) => {
                        cache = self.take_cache();
                        failed.push((offset + i, panic_message(&*panic)));
                    }
                }
            }
            self.give_back(cache);
            failed
        };
        let one = &one;
        let failed: Vec<(usize, String)> = if workers == 1 {
            one(0, inputs, &mut out)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = inputs
                    .chunks(chunk)
                    .zip(out.chunks_mut(chunk))
                    .enumerate()
                    .map(|(n, (inputs, out))| scope.spawn(move || one(n * chunk, inputs, out)))
                    .collect();
                // `one` catches every panic of the evaluation, so a join fails only if the
                // bookkeeping itself panicked: then no value of the chunk can be trusted.
                let len = inputs.len();
                handles
                    .into_iter()
                    .enumerate()
                    .flat_map(|(n, h)| {
                        h.join().unwrap_or_else(|panic| {
                            let message = panic_message(&*panic);
                            (n * chunk..len.min((n + 1) * chunk))
                                .map(|i| (i, message.clone()))
                                .collect()
                        })
                    })
                    .collect()
            })
        };
        (out, failed.into_iter().unzip())
    }
}

#[pymethods]
impl Evaluator {
    /// An evaluator with `weights` (a `Weights`' table; None: the built-in weights) and
    /// pawn-king caches of `cache_kib` KiB each (0: no cache).
    #[new]
    #[pyo3(signature = (weights = None, cache_kib = PawnKingCache::DEFAULT_KIB))]
    fn new(weights: Option<PyRef<'_, WeightTable>>, cache_kib: usize) -> PyResult<Evaluator> {
        if cache_kib > 1 << 20 {
            return Err(PyValueError::new_err(format!(
                "cache_kib {cache_kib} is above 1048576 (1 GiB per thread)"
            )));
        }
        Ok(Evaluator {
            evaluation: Evaluation::new(weights.map(|w| w.weights.clone()).unwrap_or_default()),
            cache_kib,
            caches: Mutex::new(Vec::new()),
        })
    }

    /// The size of each pawn-king cache in KiB (0: none).
    #[getter]
    fn cache_kib(&self) -> usize {
        self.cache_kib
    }

    /// A copy of the weights this evaluator uses.
    fn weight_table(&self) -> WeightTable {
        WeightTable {
            weights: self.evaluation.weights().clone(),
        }
    }

    /// Centipawns, side to move's view; PositionError if `position` is not a legal position.
    fn evaluate(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<i32> {
        let input = [Input::read(position)?];
        let (values, (_, messages)) = py.detach(|| self.run(&input, 1, |p, c| self.value(p, c)));
        match messages.into_iter().next() {
            None => Ok(values[0]),
            Some(message) => Err(PositionError::new_err(message)),
        }
    }

    /// The values of many positions as an int32 array, and the failures (indices, messages);
    /// a failed position's value is 0.
    #[pyo3(signature = (positions, threads = None))]
    fn evaluate_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<Values<'py>> {
        let inputs = read_all(positions)?;
        let threads = thread_count(threads)?;
        let (values, (indices, messages)) =
            py.detach(|| self.run(&inputs, threads, |p, c| self.value(p, c)));
        Ok((PyArray1::from_vec(py, values), indices, messages))
    }

    /// The evaluation term by term (see the Python wrapper's `Trace`).
    fn trace(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<TraceTuple> {
        let pos = Input::read(position)?;
        let result = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                pos.to_chess().map(|pos| self.evaluation.trace(&pos))
            }))
            .unwrap_or_else(|panic| Err(panic_message(&*panic)))
        });
        let trace = result.map_err(PositionError::new_err)?;
        let rows = Term::ALL
            .iter()
            .map(|&term| {
                let [white, black] = trace.terms[term as usize];
                (term.name(), white.mg(), white.eg(), black.mg(), black.eg())
            })
            .collect();
        Ok((
            rows,
            trace.phase,
            MAX_PHASE,
            trace.total.0,
            trace.side_to_move != Some(Color::Black),
            trace.endgame.map(|(code, _, _)| code),
        ))
    }

    /// Traces of many positions as arrays: terms (n × rows × 4: white mg, white eg, black mg,
    /// black eg, flattened), phase, total, endgame codes ("" for none), then the failures.
    #[pyo3(signature = (positions, threads = None))]
    fn trace_many<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<TraceArrays<'py>> {
        let inputs = read_all(positions)?;
        let threads = thread_count(threads)?;
        type Row = (Vec<i32>, i32, i32, &'static str);
        let (rows, (indices, messages)) = py.detach(|| {
            self.run(&inputs, threads, |pos, _| -> Row {
                let trace = self.evaluation.trace(pos);
                let terms = trace
                    .terms
                    .iter()
                    .flat_map(|[w, b]| [w.mg(), w.eg(), b.mg(), b.eg()])
                    .collect();
                let code = trace.endgame.map_or("", |(code, _, _)| code);
                (terms, trace.phase, trace.total.0, code)
            })
        });
        let width = Term::ALL.len() * 4;
        let mut terms = Vec::with_capacity(rows.len() * width);
        let (mut phase, mut total, mut codes) = (Vec::new(), Vec::new(), Vec::new());
        for (t, p, v, code) in rows {
            if t.is_empty() {
                terms.extend(std::iter::repeat_n(0, width)); // a failed position
            } else {
                terms.extend(t);
            }
            phase.push(p);
            total.push(v);
            codes.push(code);
        }
        Ok((
            PyArray1::from_vec(py, terms),
            PyArray1::from_vec(py, phase),
            PyArray1::from_vec(py, total),
            codes,
            indices,
            messages,
        ))
    }

    /// The names of the trace rows, in the order of `trace` and `trace_many`.
    #[staticmethod]
    fn trace_rows() -> Vec<&'static str> {
        Term::ALL.iter().map(|t| t.name()).collect()
    }
}

/// Every position of an iterable, read with the GIL held. A single string is refused: iterating
/// it would give its characters, never what the caller meant.
fn read_all(positions: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    if positions.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "positions is one string: pass a list of FENs (or use evaluate for one position)",
        ));
    }
    let iter = positions.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "positions must be an iterable of FENs or boards, not {}",
            type_name(positions)
        ))
    })?;
    let mut inputs = Vec::with_capacity(positions.len().unwrap_or(0));
    for (index, item) in iter.enumerate() {
        let item = item?;
        inputs.push(Input::read(&item).map_err(|e| {
            if e.is_instance_of::<PyTypeError>(item.py()) {
                PyTypeError::new_err(format!("positions[{index}]: {}", e.value(item.py())))
            } else {
                e
            }
        })?);
    }
    Ok(inputs)
}

/// `threads`, or every core the process may use; at least 1.
fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n.min(1024)),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The text of a panic, as the library would have printed it.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".to_owned());
    format!("internal error in the evaluation (please report): {text}")
}
