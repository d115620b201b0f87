//! engine.toml text through the configuration reader.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use minkowski::config::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Config::from_toml(text, Path::new("engine.toml")) {
        Ok(config) => {
            let _ = config.weights();
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for e in &errors {
                let _ = e.to_string();
            }
        }
    }
});
