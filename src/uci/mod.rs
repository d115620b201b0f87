//! The UCI protocol loop (skeleton: filled in by the UCI work).
