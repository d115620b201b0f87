//! Build script: the version the engine names itself by (`id name`, `minkowski --version`),
//! passed to the crate as `MINKOWSKI_VERSION` and read as `minkowski::VERSION`.
//!
//! It is the package version, followed by the short commit when the crate is built from its
//! own git checkout (`0.2.0 (1a2b3c4)`), so that two builds can be told apart. Without git,
//! without a `.git` (a crates.io download, a source tarball), or inside another project's
//! repository, it is the version alone; a packager may set `MINKOWSKI_COMMIT` instead. Nothing
//! here can fail the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=MINKOWSKI_COMMIT");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let commit = std::env::var("MINKOWSKI_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| own_commit(Path::new(&manifest_dir)));
    let full = match commit {
        Some(commit) => format!("{version} ({})", commit.trim()),
        None => version,
    };
    println!("cargo:rustc-env=MINKOWSKI_VERSION={full}");
}

/// The short commit of `dir`'s checkout, if `dir` is the top of a git work tree; asks cargo to
/// rerun this script when HEAD moves (a commit, a checkout), not on every edit.
fn own_commit(dir: &Path) -> Option<String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    // A crate unpacked inside someone else's repository must not take its commit.
    if !same_dir(Path::new(&top), dir) {
        return None;
    }
    let commit = git(dir, &["rev-parse", "--short=7", "HEAD"])?;
    // HEAD itself (a checkout), the branch it points to (a commit), and packed refs (gc).
    let paths = [
        git(dir, &["rev-parse", "--git-path", "HEAD"]),
        git(dir, &["rev-parse", "--symbolic-full-name", "HEAD"])
            .filter(|r| r.starts_with("refs/"))
            .and_then(|r| git(dir, &["rev-parse", "--git-path", &r])),
        git(dir, &["rev-parse", "--git-path", "packed-refs"]),
    ];
    for path in paths.into_iter().flatten() {
        let path = dir.join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    Some(commit)
}

/// A git command's output in `dir`, trimmed; `None` if git is missing or the command fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!text.is_empty()).then_some(text)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| PathBuf::from(p));
    canonical(a) == canonical(b)
}
