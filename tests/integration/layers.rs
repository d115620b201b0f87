//! `cargo test` enforces the layer rule of src/lib.rs: it runs `.ci/check-layers.sh` (which CI
//! also runs on its own), so an upward import fails the tests, not just CI.

use std::path::Path;
use std::process::Command;

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("bash")
        .arg(root.join(".ci").join("check-layers.sh"))
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.starts_with("layers: ok"), "{stdout}");
}
