//! engine.toml loading (skeleton: filled in by the UCI work).
