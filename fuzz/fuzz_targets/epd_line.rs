//! EPD text through the suite parser (every line: a record, an error or blank).
#![no_main]

use libfuzzer_sys::fuzz_target;
use minkowski::epd::Suite;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let suite = Suite::parse("fuzz.epd", text);
    let lines = text.lines().count();
    assert!(suite.records.len() + suite.errors.len() <= lines);
    for record in &suite.records {
        let _ = record.id();
        let _ = record.perft_counts();
        let _ = record.move_points();
    }
});
