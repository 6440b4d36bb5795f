//! The report formats alone, on findings at arbitrary spans with labels (same file or another)
//! over text with lines up to megabytes long: no format may panic, whatever the columns. The
//! bytes become a report as in the seeded loop of `tests/render.rs`, so a crash found here
//! replays there.
#![no_main]

use idemlint::report::{self, Format, RenderOptions};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/span_findings.rs"]
mod span_findings;

fuzz_target!(|data: &[u8]| {
    let report = span_findings::report(&mut span_findings::Bytes::new(data));
    for color in [false, true] {
        let opts = RenderOptions {
            color,
            quiet: false,
            width: 100,
        };
        for format in [
            Format::Text,
            Format::Concise,
            Format::Json,
            Format::Sarif,
            Format::Github,
            Format::Junit,
            Format::Gitlab,
        ] {
            let _ = report::render(&report, format, &opts);
        }
    }
});
