//! EPD suites (skeleton: filled in by the EPD work).
