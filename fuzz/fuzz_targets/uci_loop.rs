//! The whole UCI loop over arbitrary bytes (invalid UTF-8, NUL bytes, long lines, any command
//! order), as a GUI's pipe would feed it. Three kinds of line are dropped because they are
//! slow or costly by design, not by fault: `bench`, `perft` (neither is stopped by the end of
//! input) and `Hash` (a random `setoption name Hash value 30000` would really take 30 GB).
//! Searches are stopped at the end of input, so every input ends quickly.
#![no_main]

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use minkowski::config::Config;
use minkowski::uci::run_uci;

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn costly(line: &[u8]) -> bool {
    let lower = line.to_ascii_lowercase();
    [&b"bench"[..], b"perft", b"hash"]
        .iter()
        .any(|w| lower.windows(w.len()).any(|x| x == *w))
}

fuzz_target!(|data: &[u8]| {
    let mut input = Vec::with_capacity(data.len());
    for line in data.split(|&b| b == b'\n') {
        if !costly(line) {
            input.extend_from_slice(line);
            input.push(b'\n');
        }
    }
    let out = Shared::default();
    let mut config = Config::default();
    config.options.hash_mb = 1;
    run_uci(Cursor::new(input), out.clone(), &config, &[]);
    let bytes = out.0.lock().unwrap().clone();
    let text = String::from_utf8(bytes).expect("output is UTF-8");
    for line in text.lines() {
        assert!(!line.contains("internal error"), "{line}");
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
});
