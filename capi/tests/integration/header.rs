//! include/minkowski.h is cbindgen's output for the current source: regenerated in memory and
//! compared byte for byte. `MINKOWSKI_BLESS_HEADER=1` rewrites the file instead (then commit it).

use std::path::Path;

#[test]
fn the_committed_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("capi/cbindgen.toml is readable");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen parses capi/src");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let header = crate_dir.join("include/minkowski.h");
    if std::env::var_os("MINKOWSKI_BLESS_HEADER").is_some() {
        std::fs::write(&header, &generated).expect("include/minkowski.h is writable");
        return;
    }
    let committed = std::fs::read(&header).unwrap_or_default();
    assert!(
        committed == generated,
        "include/minkowski.h is out of date: run\n  MINKOWSKI_BLESS_HEADER=1 cargo test -p \
         minkowski-chess-capi --test integration header::\nand commit the result"
    );
}

#[test]
fn every_function_in_the_header_states_its_thread_safety() {
    let header =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/minkowski.h"))
            .expect("include/minkowski.h is readable");
    let mut comment = String::new();
    let mut functions = 0;
    for line in header.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("/*") || trimmed.starts_with('*') {
            comment.push_str(trimmed);
        } else if line.contains(" mk_") || line.contains("*mk_") {
            if line.contains('(') {
                functions += 1;
                assert!(
                    comment.contains("Thread safety:"),
                    "no thread-safety line before {line}"
                );
            }
            comment.clear();
        } else if !line.starts_with(' ') {
            comment.clear();
        }
    }
    assert!(functions >= 35, "{functions} functions found");
}

#[test]
fn the_header_is_plain_c() {
    let header =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/minkowski.h"))
            .expect("include/minkowski.h is readable");
    for (n, line) in header.lines().enumerate() {
        // C89 comments only (C++-style // only in cbindgen's extern "C" guard lines), and no
        // rustdoc syntax (links, code spans, headings).
        let guard = line.contains("__cplusplus") || line.starts_with('}');
        assert!(!line.contains("//") || guard, "line {}: {line}", n + 1);
        assert!(
            !line.contains('`') && !line.contains("# Safety"),
            "line {}: {line}",
            n + 1
        );
    }
    // Named tags, so that C++ can forward-declare: `struct MkPosition;`.
    for name in [
        "MkPosition",
        "MkTraceRow",
        "MkTraceSummary",
        "MkScore",
        "MkScoreBounds",
    ] {
        assert!(
            header.contains(&format!("typedef struct {name} {{")),
            "{name}"
        );
    }
}
