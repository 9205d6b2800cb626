//! Which public types of a crate have no example in their documentation.
//!
//! Stable `rustdoc` has no machine-readable output, so the sources are read
//! instead: every `pub struct`, `pub enum`, `pub trait`, `pub type` and
//! `pub union` (not `pub(crate)`, not inside a `#[cfg(test)]` module) must
//! have a fenced code block (a doctest) in the doc comment above it. Doc
//! lines, attributes (also those spanning several lines) and plain comments
//! may stand between the doc comment and the item. A block marked `text`,
//! `ignore` or `no_run` is not run, so it does not count.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// A public type whose doc comment has no example.
///
/// ```
/// let src = "/// A colour.\npub enum Color { White, Black }\n";
/// let missing = arbiter_testkit::doc_examples::scan_source(src);
/// assert_eq!(missing, vec![(2, "Color".to_owned())]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The source file.
    pub file: PathBuf,
    /// The 1-based line of the type's definition.
    pub line: usize,
    /// The type's name.
    pub name: String,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: `{}` has no example (a ``` block) in its doc comment",
            self.file.display(),
            self.line,
            self.name
        )
    }
}

/// `true` for the info string of a fenced block rustdoc runs as a test
/// (` ``` `, ` ```rust `, ` ```should_panic `); not `text`, `ignore` or
/// `no_run`.
fn is_doctest(info: &str) -> bool {
    info.split(',')
        .map(str::trim)
        .all(|t| matches!(t, "" | "rust" | "should_panic") || t.starts_with("edition"))
}

/// The name of the public type defined on `line`, if it defines one.
fn public_type(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("pub ")?;
    let rest = ["struct ", "enum ", "trait ", "type ", "union "]
        .iter()
        .find_map(|kw| rest.strip_prefix(kw))?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The public types in one file's text without an example, as (1-based
/// line, name). Scanning stops at a `#[cfg(test)]` module.
///
/// ```
/// use arbiter_testkit::doc_examples::scan_source;
/// let src = r#"
/// /// A square.
/// ///
/// /// ```
/// /// assert!(true);
/// /// ```
/// #[derive(Copy, Clone,
///     Debug)]
/// pub struct Square(u8);
///
/// /// A move.
/// #[derive(Copy, Clone)]
/// pub struct Move;
///
/// pub(crate) struct Hidden;
/// "#;
/// assert_eq!(scan_source(src), vec![(13, "Move".to_owned())]);
/// ```
pub fn scan_source(text: &str) -> Vec<(usize, String)> {
    let mut missing = Vec::new();
    let mut has_example = false;
    let mut in_block = false;
    let mut in_attribute = false;
    let mut cfg_test = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if in_attribute {
            in_attribute = !line.ends_with(']');
            continue;
        }
        if let Some(doc) = line.strip_prefix("///") {
            if let Some(info) = doc.trim_start().strip_prefix("```") {
                // An opening fence names the block's kind; a closing one is bare.
                has_example |= !in_block && is_doctest(info);
                in_block = !in_block;
            }
            continue;
        }
        if line.starts_with("#[") {
            cfg_test |= line.starts_with("#[cfg(test)]");
            in_attribute = !line.ends_with(']');
            continue;
        }
        if line.starts_with("//") {
            continue;
        }
        if cfg_test && line.starts_with("mod ") {
            break;
        }
        if let Some(name) = public_type(line) {
            if !has_example {
                missing.push((i + 1, name.to_owned()));
            }
        }
        has_example = false;
        in_block = false;
        cfg_test = false;
    }
    missing
}

/// The public types without an example in every `.rs` file under `src`, in
/// file order.
///
/// ```
/// let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
/// assert_eq!(arbiter_testkit::doc_examples::scan_dir(&src)?, vec![]);
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn scan_dir(src: &Path) -> io::Result<Vec<Missing>> {
    let mut files = Vec::new();
    collect(src, &mut files)?;
    files.sort();
    let mut missing = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file)?;
        for (line, name) in scan_source(&text) {
            missing.push(Missing {
                file: file.clone(),
                line,
                name,
            });
        }
    }
    Ok(missing)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    Ok(())
}

/// Panics, listing them, if any public type under the crate's `src/` has no
/// example: the body of a crate's `tests/doc_examples.rs`.
///
/// ```
/// arbiter_testkit::doc_examples::assert_all_documented(env!("CARGO_MANIFEST_DIR"));
/// ```
pub fn assert_all_documented(manifest_dir: &str) {
    let src = Path::new(manifest_dir).join("src");
    let missing = scan_dir(&src).unwrap_or_else(|e| panic!("reading {}: {e}", src.display()));
    let list: Vec<String> = missing.iter().map(ToString::to_string).collect();
    assert!(
        list.is_empty(),
        "{} public type(s) without a doc example:\n{}",
        list.len(),
        list.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_public_type_is_found() {
        let src = "pub struct A;\npub enum B {}\npub trait C {}\npub type D = u8;\npub union E { x: u8 }\n    pub struct Inner<T>(T);\n";
        let names: Vec<String> = scan_source(src).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["A", "B", "C", "D", "E", "Inner"]);
    }

    #[test]
    fn an_example_belongs_to_the_next_item_only() {
        let src = "/// ```\n/// ```\npub fn f() {}\npub struct A;\n";
        assert_eq!(scan_source(src), vec![(4, "A".to_owned())]);
    }

    #[test]
    fn a_multi_line_attribute_does_not_end_the_doc_comment() {
        let src = "/// ```\n/// ```\n#[error(\"{a}\",\n    .b)]\npub struct E;\n";
        assert!(scan_source(src).is_empty());
    }

    #[test]
    fn a_block_that_is_not_run_is_no_example() {
        let src = "/// ```text\n/// ```\npub struct A;\n/// ```no_run\n/// ```\npub struct B;\n/// ```rust\n/// ```\npub struct C;\n";
        let names: Vec<String> = scan_source(src).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["A", "B"]);
    }

    #[test]
    fn restricted_visibility_and_test_modules_are_skipped() {
        let src = "pub(crate) struct A;\n#[cfg(test)]\nmod tests {\n    pub struct Helper;\n}\n";
        assert!(scan_source(src).is_empty());
    }
}
