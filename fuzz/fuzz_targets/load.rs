//! The loader alone: bytes → decode → YAML or JSON → span tree, as both formats.
#![no_main]

use std::path::PathBuf;

use idemlint::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for name in ["fuzz.yaml", "fuzz.json", "fuzz"] {
        let Ok(file) = SourceFile::decode(
            PathBuf::from("/fuzz").join(name),
            name.into(),
            data.to_vec(),
        ) else {
            return;
        };
        if let Ok(loaded) = file.parse(&idemlint::limits::Limits::default()) {
            // Spans must land on the text: the line index is asked for every one of them.
            let _ = file.line_col(file.text.len());
            let _ = loaded.root;
        }
    }
});
