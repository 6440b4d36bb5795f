//! `--timings`: where a run's time goes, phase by phase, so that a slow spec can be understood.
//! The per-document phases run on several threads at once, so they are summed over documents
//! (thread time, not wall time); the wall time of the whole run is shown beside them.

use std::fmt::Write as _;
use std::ops::AddAssign;
use std::time::{Duration, Instant};

/// Time spent in each phase of linting, summed over documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timings {
    /// Finding files and reading their bytes (and standard input): wall time, as files are
    /// read in parallel.
    pub read: Duration,
    /// YAML/JSON into node trees (root documents; referenced files count under `resolve`).
    pub parse: Duration,
    /// Loading the files `$ref`s reach and checking every `$ref`.
    pub resolve: Duration,
    /// Building operations, parameters and responses from the tree.
    pub model: Duration,
    /// Running the rules, suppressions, severities and locations of findings.
    pub rules: Duration,
}

impl AddAssign for Timings {
    fn add_assign(&mut self, other: Timings) {
        self.read += other.read;
        self.parse += other.parse;
        self.resolve += other.resolve;
        self.model += other.model;
        self.rules += other.rules;
    }
}

/// Runs `f`, adding its duration to `slot`.
pub fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    *slot += start.elapsed();
    out
}

impl Timings {
    /// The table `--timings` prints on standard error.
    pub fn table(&self, documents: usize, report: Duration, wall: Duration) -> String {
        let mut out = format!(
            "Timings ({documents} document{}; phases summed over threads):\n",
            if documents == 1 { "" } else { "s" }
        );
        for (name, d) in [
            ("read", self.read),
            ("parse", self.parse),
            ("resolve", self.resolve),
            ("model", self.model),
            ("rules", self.rules),
            ("report", report),
        ] {
            let _ = writeln!(out, "  {name:<8} {:>10.1} ms", d.as_secs_f64() * 1000.0);
        }
        let _ = writeln!(
            out,
            "  {:<8} {:>10.1} ms",
            "wall",
            wall.as_secs_f64() * 1000.0
        );
        out
    }
}

/// `--timings` of `--fix` and `--diff`: each pass (a lint of every document, the choice of the
/// fixes, their application), then the diff or the writes.
pub fn passes(passes: &[crate::fix::run::PassTime], output: (&str, Duration)) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut out = String::from("Fix passes (each lints every document again):\n");
    for (i, p) in passes.iter().enumerate() {
        let _ = writeln!(
            out,
            "  pass {:<3} lint {:>8.1} ms  plan {:>6.1} ms  apply {:>6.1} ms  ({} fixed)",
            i + 1,
            ms(p.lint),
            ms(p.plan),
            ms(p.apply),
            p.applied
        );
    }
    let _ = writeln!(out, "  {:<8} {:>10.1} ms", output.0, ms(output.1));
    out
}
