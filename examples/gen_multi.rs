//! Writes a generated multi-file OpenAPI description (one file per operation, shared parameters
//! and responses, code samples) into a directory, for benchmarks:
//! `cargo run --release --example gen_multi -- /tmp/multi 1112` writes about 10,000 files.

#[path = "../bench/multi_gen.rs"]
mod multi_gen;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: gen_multi DIR [RESOURCES]");
    let resources: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(334);
    let generated = multi_gen::write(std::path::Path::new(&dir), resources).expect("writable DIR");
    eprintln!(
        "{} files, {} operations ({} POSTs without a key), {} files loaded through $ref",
        generated.files,
        generated.operations,
        generated.unkeyed_posts.len(),
        generated.loaded
    );
}
