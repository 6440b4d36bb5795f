//! The lint worker: one thread that lints the units the server hands it, off the main loop, so
//! hover and code actions are answered while a large spec is linted. It lints each unit of a job
//! against the buffers as they were when the job was made and sends each result as it is done;
//! the server drops the results of units that changed in the meantime.

use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};

use super::diagnostics::{self, UnitResult};
use super::documents::{self, Snapshot};
use super::position::Encoding;
use crate::lint::Options;

/// Units to lint against one state of the buffers.
pub struct Job {
    /// The buffers' edit count when the job was made.
    pub edits: u64,
    pub units: Vec<PathBuf>,
    pub buffers: Vec<Snapshot>,
    pub opts: Arc<Options>,
}

pub enum Done {
    /// One unit's result, as of the job's edit count.
    Unit { edits: u64, result: UnitResult },
    /// The job is done: the worker takes the next.
    Idle,
}

/// Starts the worker; it ends when `jobs` is closed.
pub fn spawn(
    enc: Encoding,
    jobs: Receiver<Job>,
    done: Sender<Done>,
) -> std::thread::JoinHandle<()> {
    std::thread::Builder::new()
        .name("idemlint-lint".to_string())
        .stack_size(crate::limits::Limits::default().stack_bytes())
        .spawn(move || {
            let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
            for job in jobs {
                let overlay = documents::overlay(&job.buffers);
                // A fragment's documents are looked for as a hook looks for them: a YAML
                // file that no document reaches (a CI workflow, a Helm chart) is no error.
                let for_fragments = Options {
                    skip_non_openapi: true,
                    ..(*job.opts).clone()
                };
                for unit in job.units {
                    let root = match job.buffers.iter().find(|b| b.path == unit) {
                        Some(b) => crate::discover::looks_like_root(b.text.as_bytes()),
                        None => {
                            std::fs::read(&unit).is_ok_and(|t| crate::discover::looks_like_root(&t))
                        }
                    };
                    // A bug of idemlint's on one unit leaves that unit's last findings shown
                    // (its message is on standard error, for a report), not the server dead.
                    let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let (report, _) = crate::lint::run_each(
                            std::slice::from_ref(&unit),
                            if root { &job.opts } else { &for_fragments },
                            &overlay,
                            || Err(std::io::Error::other("no standard input in the editor")),
                            &|_| (),
                        );
                        diagnostics::convert(unit.clone(), report, &job.buffers, enc, &cwd)
                    }));
                    let Ok(result) = linted else { continue };
                    let edits = job.edits;
                    if done.send(Done::Unit { edits, result }).is_err() {
                        return;
                    }
                }
                if done.send(Done::Idle).is_err() {
                    return;
                }
            }
        })
        .expect("a thread can be started")
}
