#![deny(missing_docs)]
//! # Minkowski
//!
//! A chess engine whose evaluation thinks in square distances. This crate is both the engine
//! (behind the default `engine` feature: UCI, EPD runner, config) and a library with no I/O that
//! other engines reuse: distance tables and set-wise knight patterns ([`geometry`]), the
//! evaluation and its endgame terms ([`eval`]), and the search ([`search`]).

pub mod eval;
pub mod geometry;
pub mod perft;
pub mod search;

#[cfg(feature = "engine")]
pub mod config;
#[cfg(feature = "engine")]
pub mod epd;
#[cfg(feature = "engine")]
pub mod uci;
