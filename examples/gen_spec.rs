//! Writes a generated OpenAPI document of about N MB to standard output, for benchmarks:
//! `cargo run --release --example gen_spec -- 100 > /tmp/100mb.yaml`, or as JSON with
//! `cargo run --release --example gen_spec -- 13 json > /tmp/13mb.json`.

#[path = "../bench/spec_gen.rs"]
mod spec_gen;

use std::io::Write;

fn main() {
    let mb: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1.0);
    let bytes = (mb * 1_000_000.0) as usize;
    let text = match std::env::args().nth(2).as_deref() {
        Some("json") => spec_gen::json(bytes),
        _ => spec_gen::yaml(bytes),
    };
    std::io::stdout().lock().write_all(text.as_bytes()).unwrap();
}
