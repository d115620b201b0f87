//! The evaluation (skeleton: filled in by the engine-core work).
