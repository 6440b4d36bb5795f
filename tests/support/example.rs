//! `examples/payments-api.yaml` as the tests of baselines, report formats and `review` read it.
//!
//! Those tests need a finding of each severity and count five, so here the example's
//! PATCH /customers/{customerId} (a body whose shape is not described: `unprotected-patch`) is
//! marked `deprecated: true`, which makes its finding an info. Every other line is the
//! example's own, at its own line: positions hold.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Where the example lives, relative to the package; reports name it so.
pub const EXAMPLE: &str = "examples/payments-api.yaml";

/// The example's text, with the PATCH described above.
pub fn text() -> String {
    let original = std::fs::read_to_string(EXAMPLE).unwrap();
    let marked =
        "      # DELIBERATE: neither an idempotency key nor If-Match (unprotected-patch).\n";
    let patch = original
        .find("      operationId: updateCustomer\n")
        .unwrap();
    let (before, after) = original.split_at(patch);
    assert!(before.ends_with(marked), "the example's PATCH moved");
    let text = format!(
        "{}      deprecated: true # DELIBERATE: an info, whatever the rule (unprotected-patch).\n{}",
        &before[..before.len() - marked.len()],
        after
    );
    assert_eq!(text.lines().count(), original.lines().count());
    text
}

/// Writes [`text`] to `dir/examples/payments-api.yaml` and returns that path.
pub fn write(dir: &Path) -> PathBuf {
    let path = dir.join(EXAMPLE);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text()).unwrap();
    path
}
