//! The version the engine names itself by (build.rs): the package version, and the short commit
//! of the checkout it was built from, so that two builds can be told apart.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// `git rev-parse --short=7 HEAD` in the crate's checkout, if git and the checkout are there
/// (a source tarball has neither; then only the version is checked).
fn checkout_commit() -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = |args: &[&str]| {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let top = run(&["rev-parse", "--show-toplevel"])?;
    let same = Path::new(&top).canonicalize().ok()? == root.canonicalize().ok()?;
    same.then(|| run(&["rev-parse", "--short=7", "HEAD"]))?
}

#[test]
fn version_is_the_package_version_and_the_commit_when_there_is_one() {
    let version = minkowski::VERSION;
    let package = env!("CARGO_PKG_VERSION");
    match checkout_commit() {
        // build.rs reran when HEAD moved, so the commit is the one being tested.
        Some(commit) if std::env::var_os("MINKOWSKI_COMMIT").is_none() => {
            assert_eq!(version, format!("{package} ({commit})"));
        }
        _ => assert!(version.starts_with(package), "{version}"),
    }
}

#[test]
fn the_binary_shows_it_in_id_name_and_version() {
    let bin = env!("CARGO_BIN_EXE_minkowski");
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(b"uci\nquit\n")
        .expect("written");
    let out = child.wait_with_output().expect("ends");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or_default();
    assert_eq!(first, format!("id name Minkowski {}", minkowski::VERSION));
    let out = Command::new(bin).arg("--version").output().expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("minkowski {}", minkowski::VERSION)
    );
}
