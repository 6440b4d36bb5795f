//! Bounds on what one run reads, so that a hostile file costs an error, not the machine. Each
//! has a command-line flag to raise it; hitting one is an error for that file only.

/// The limits of a run. `Limits::default()` is what the command line uses without flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest file read, in bytes (`--max-file-size`, given in MiB). The biggest public specs
    /// are around 15 MB; a 100 MB generated spec still fits.
    pub max_file_bytes: u64,
    /// Deepest nesting of collections (`--max-depth`). Real OpenAPI documents stay below 64.
    pub max_depth: usize,
    /// Nodes that YAML aliases may expand to, over a whole file (`--max-alias-nodes`): the
    /// billion-laughs guard.
    pub max_alias_nodes: usize,
    /// Files one document may pull in through `$ref`s, itself included (`--max-ref-files`):
    /// the guard against fan-out into many tiny files, each a handle and a few allocations.
    pub max_ref_files: usize,
    /// Bytes of all the files one document pulls in through `$ref`s, itself excluded
    /// (`--max-ref-size`, given in MiB): the memory guard. What a document costs is its bytes
    /// (the tree is a few times the text), not its number of files, so a spec split into 10,000
    /// small files loads, while references fanning out to gigabytes stop at the same bound as a
    /// single file.
    pub max_ref_bytes: u64,
}

/// `--max-depth` goes no higher: every walk over the tree recurses, and the worker threads'
/// stacks are sized for this depth (see [`Limits::stack_bytes`]).
pub const DEPTH_CEILING: usize = 10_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 256 * MIB,
            max_depth: 256,
            max_alias_nodes: 1_000_000,
            max_ref_files: 100_000,
            max_ref_bytes: 256 * MIB,
        }
    }
}

pub const MIB: u64 = 1024 * 1024;

impl Limits {
    /// Stack for a thread that parses, models and lints documents this deep: the recursive
    /// walks take a few hundred bytes a level in an optimised build and more in a debug one,
    /// so allow 8 KiB a level on top of a base.
    pub fn stack_bytes(&self) -> usize {
        8 * MIB as usize + self.max_depth.min(DEPTH_CEILING) * 8 * 1024
    }

    /// "file is N bytes; idemlint reads files up to M MiB (--max-file-size)".
    pub fn too_large(&self, len: u64) -> Option<String> {
        (len > self.max_file_bytes).then(|| {
            format!(
                "file is {len} bytes, over the limit of {} (raise it with --max-file-size)",
                mib(self.max_file_bytes)
            )
        })
    }
}

/// `256 MiB`, or the exact bytes when not a whole number of MiB.
pub fn mib(bytes: u64) -> String {
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}
