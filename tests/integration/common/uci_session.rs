//! The UCI loop in-process, as the tests that read its transcript drive it: a writer they read
//! back after the loop ends ([`Shared`]), and command lines run one after another with the
//! built-in defaults ([`run_commands`]).

use std::io::Write;
use std::sync::{Arc, Mutex};

use minkowski::config::Config;
use minkowski::uci::run_uci_commands;

/// A writer the test reads back after the loop ends (clones share one buffer).
#[derive(Clone, Default)]
pub struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    /// Everything written so far (panics on output that is not UTF-8).
    pub fn text(&self) -> String {
        let bytes = self.0.lock().expect("not poisoned").clone();
        String::from_utf8(bytes).expect("UTF-8 output")
    }

    /// Everything written so far, line by line.
    pub fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_owned).collect()
    }
}

/// The engine's output for `lines` (built-in options, no engine.toml), each run after the job
/// before it has finished ([`run_uci_commands`]).
pub fn run_commands(lines: &[&str]) -> Vec<String> {
    let out = Shared::default();
    let lines: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    run_uci_commands(&lines, out.clone(), &Config::default(), &[]);
    out.lines()
}
