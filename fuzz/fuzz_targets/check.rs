//! The whole `check` pipeline on one document read from "stdin": load, resolve, model, every
//! rule, suppressions, and each report format.
#![no_main]

use std::path::PathBuf;

use idemlint::lint::{self, Options};
use idemlint::report;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // `$ref`s may only lead into this empty folder, so a run never reads the machine's files.
    let root = std::env::temp_dir().join("idemlint-fuzz-root");
    let _ = std::fs::create_dir_all(&root);
    let opts = Options {
        root: Some(root),
        ..Options::default()
    };
    let bytes = data.to_vec();
    let r = lint::run(&[PathBuf::from("-")], &opts, move || Ok(bytes));
    use report::Format::*;
    let opts = report::RenderOptions {
        color: true,
        quiet: false,
        width: 100,
    };
    for format in [Text, Concise, Json, Sarif, Github, Junit, Gitlab] {
        let _ = report::render(&r, format, &opts);
    }
});
