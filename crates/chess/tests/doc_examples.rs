//! Every public type of the crate has a runnable example in its doc comment
//! (issue 11: `cargo doc` shows one on each). Fails naming the file, line and
//! type of each one that lacks it.

#[test]
fn every_public_type_has_a_doc_example() {
    arbiter_testkit::doc_examples::assert_all_documented(env!("CARGO_MANIFEST_DIR"));
}
