//! The `dev` profile (what `cargo test` builds) sets every dependency to
//! opt-level 3 with its `"*"` entry, and that entry reaches proc macros too
//! (package entries override `build-override`). So each proc macro is named
//! in the root `Cargo.toml` at opt-level 0 (docs/performance.md, "Build
//! profiles, 2026-12-07"). A proc macro that a new dependency brings in and
//! that is not named there is built at opt-level 3: slower to build, nothing
//! worse. This test names it, so that the table is kept whole.

use std::path::Path;
use std::process::Command;
use toml_edit::DocumentMut;

/// The packages the `dev` profile builds at opt-level 0 in `manifest` (the
/// inline `[profile.dev.package]` table or `[profile.dev.package.NAME]`
/// tables alike).
fn unoptimised_in_dev(manifest: &str) -> Vec<String> {
    let doc: DocumentMut = manifest.parse().expect("the root Cargo.toml is TOML");
    let Some(packages) = doc["profile"]["dev"]["package"].as_table_like() else {
        return Vec::new();
    };
    packages
        .iter()
        .filter(|(_, settings)| settings["opt-level"].as_integer() == Some(0))
        .map(|(name, _)| name.to_string())
        .collect()
}

#[test]
fn the_table_reader_finds_the_entries() {
    let manifest = "[profile.dev.package]\n\"*\" = { opt-level = 3 }\nsyn = { opt-level = 0 }\n\
                    serde_derive = {opt-level=0, debug = false}\n\
                    [profile.dev.package.quote]\nopt-level = 0\n\
                    [profile.release.package]\nother = { opt-level = 0 }\n";
    assert_eq!(
        unoptimised_in_dev(manifest),
        ["syn", "serde_derive", "quote"]
    );
}

/// The proc macros `cargo test --workspace` builds on this machine's
/// platform, as `cargo tree` marks them (`serde_derive v1.0.228
/// (proc-macro)`): the graph as built, features resolved, dev-dependencies
/// included (`cargo metadata`'s graph also holds optional ones never built).
/// `Err` says why the graph could not be read.
fn proc_macros(root: &Path) -> Result<Vec<String>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root)
        .args(["tree", "--offline", "--locked", "--workspace"])
        .args(["-e", "normal,build,dev", "--prefix", "none"])
        .output()
        .map_err(|e| format!("cargo tree did not run: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo tree failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("(proc-macro)"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

#[test]
fn every_proc_macro_is_unoptimised_in_dev() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the root Cargo.toml");
    let macros = match proc_macros(&root) {
        Ok(macros) => macros,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    assert!(
        macros.iter().any(|m| m == "serde_derive"),
        "the graph's proc macros were read: {macros:?}"
    );
    let listed = unoptimised_in_dev(&manifest);
    let missing: Vec<&String> = macros.iter().filter(|m| !listed.contains(m)).collect();
    assert!(
        missing.is_empty(),
        "proc macros built at opt-level 3 by `cargo test`: add each to [profile.dev.package] in \
         the root Cargo.toml as `NAME = {{ opt-level = 0 }}`: {missing:?}"
    );
}
