//! Command-line interface.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::diagnostic::Severity;
use crate::limits::{DEPTH_CEILING, Limits, MIB};
use crate::lint::{self, Options};
use crate::report::{self, Format, RenderOptions};

/// Finds the operations of an OpenAPI description that are unsafe to retry.
#[derive(Debug, Parser)]
#[command(name = "idemlint", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint OpenAPI documents (Swagger 2.0, OpenAPI 3.0 and 3.1; YAML or JSON).
    Check(CheckArgs),
    /// Answer the five retry questions for every operation of a spec, citing the spec.
    Review(ReviewArgs),
    /// Compare two versions of a document's retry contract (files, or `REV:path`): the
    /// contract-change findings of NEW against OLD.
    Diff(DiffArgs),
    /// List the rules: id, default severity, category and summary.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
    /// Show a rule's documentation: what it checks, why, an example, how to fix it.
    Explain {
        /// The rule id, e.g. `missing-idempotency-key`.
        #[arg(value_parser = Offered(rule_ids), hide_possible_values = true)]
        rule: String,
        /// When to use colour.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Test a running server's retry behaviour against what its spec promises: the same request
    /// and key twice, concurrently, with another payload and without the key. Sends real
    /// requests, only to --base-url, a loopback host unless named with --allow-host.
    Probe(ProbeArgs),
    /// Run the Language Server (LSP 3.17) on standard input and output, for editors: findings
    /// as diagnostics while you type, fixes and suppressions as code actions, rule docs on hover.
    Lsp,
    /// Print the shell's completion script (subcommands, options, rule ids and profiles).
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        shell: clap_complete::Shell,
    },
    /// Print the manual page of idemlint, or of one of its commands (`man check`), as roff.
    // Hidden: it serves packagers and the README's install steps, and `--help` lists what the
    // tool does with an API; the page itself lists the commands.
    #[command(hide = true)]
    Man {
        /// The command whose page to print (`check`, `config schema`); none: idemlint's own.
        command: Vec<String>,
    },
    /// The configuration file, `.idemlint.yaml`.
    #[command(subcommand)]
    Config(ConfigCommand),
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the JSON Schema (draft-07) of `.idemlint.yaml`, for editors that complete and check
    /// it (`schemas/idemlint.schema.json` holds the same).
    Schema,
}

/// Any text, offering the names its function lists to shell completions. Not clap's
/// `PossibleValuesParser`: that refuses an unknown name with clap's own message, before
/// idemlint's, which also knows categories and says what the closest rule or profile is.
/// `hide_possible_values` keeps the long list out of `--help` and the man page; clap still
/// lists it when the value is missing altogether (`--select` at the end of the line).
#[derive(Clone)]
struct Offered(fn() -> Vec<&'static str>);

impl clap::builder::TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.0)()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// What `--select` and `--ignore` take: every rule id, then every category.
fn selectors() -> Vec<&'static str> {
    let mut names = rule_ids();
    names.extend(crate::catalogue::categories());
    names
}

fn rule_ids() -> Vec<&'static str> {
    crate::catalogue::RuleId::ALL
        .iter()
        .map(|r| r.as_str())
        .collect()
}

fn profiles() -> Vec<&'static str> {
    crate::config::PROFILES.to_vec()
}

#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// The OpenAPI document the server implements (a file; `$ref`s are followed as `check`
    /// follows them).
    pub spec: PathBuf,
    /// The server's root, as the spec's paths hang off it (include a `servers` path prefix):
    /// `http://127.0.0.1:8080/api`. Only loopback hosts unless named with --allow-host.
    #[arg(long, value_name = "URL")]
    pub base_url: String,
    /// Let the probe send requests to HOST, a host that is not a loopback one (repeatable).
    #[arg(long, value_name = "HOST")]
    pub allow_host: Vec<String>,
    /// Only this operation: its operationId, or `METHOD PATH` (repeatable; default: every
    /// operation whose duplicates matter).
    #[arg(long, value_name = "ID|METHOD PATH")]
    pub operation: Vec<String>,
    /// A header sent with every request, `Name: value` (repeatable; credentials are masked in
    /// the evidence).
    #[arg(long, value_name = "NAME: VALUE")]
    pub header: Vec<String>,
    /// The body of an operation, `OPERATION=@file.json` or `OPERATION={...}` (repeatable),
    /// instead of one made from the spec: JSON, or a form's fields as a JSON object.
    #[arg(long, value_name = "OPERATION=@FILE")]
    pub data: Vec<String>,
    /// A JSON pointer left out when a retry's body is compared with the first (a timestamp, a
    /// request id; repeatable).
    #[arg(long, value_name = "POINTER")]
    pub ignore_field: Vec<String>,
    /// Identical requests with one key sent at the same moment.
    #[arg(long, value_name = "N", default_value_t = 5,
          value_parser = clap::value_parser!(u16).range(2..=64))]
    pub concurrency: u16,
    /// Seconds each request may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=600))]
    pub timeout: u64,
    /// Requests the run may send in all.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_requests: usize,
    /// Also send each operation without a key twice: two resources created are a
    /// `duplicate-created` finding.
    #[arg(long)]
    pub unkeyed: bool,
    /// Print the requests each check would send, with their keys, and send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Write the report to FILE (whole or not at all) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// When to use colour in text output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Configuration file (default: the spec's nearest `.idemlint.yaml`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Profile: ietf (default), stripe, zalando, google-aip or azure (the mismatch status).
    #[arg(long, value_name = "NAME", value_parser = Offered(profiles), hide_possible_values = true)]
    pub profile: Option<String>,
    /// Directory `$ref`s may read from (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Print only the findings, not the summary table.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, clap::Args)]
pub struct ReviewArgs {
    /// Files or directories to review, as `check` takes them (a section a document); `-` reads
    /// one document from standard input.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// `markdown` (a pull-request comment) or `html` (one self-contained page).
    #[arg(long, value_enum, default_value_t = ReviewFormat::Markdown)]
    pub format: ReviewFormat,
    /// Write the review to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Directory `$ref`s may read from (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Configuration file (default: the spec's nearest `.idemlint.yaml`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Profile: ietf (default), stripe, zalando, google-aip or azure.
    #[arg(long, value_name = "NAME", value_parser = Offered(profiles), hide_possible_values = true)]
    pub profile: Option<String>,
    /// For `-`: the name shown in the review, and where `$ref`s and the configuration are found
    /// from.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    /// Review the change since the git revision REF (a branch, tag, commit, or `A...B`):
    /// operations added, removed and changed, each changed one with its answers before → after,
    /// regressions first.
    #[arg(long, value_name = "REF")]
    pub base: Option<String>,
    /// Leave out the operations with nothing to say (every answer safe or not applicable).
    #[arg(long)]
    pub only_gaps: bool,
    /// Where the whole review is published (the HTML page, a CI artifact): a Markdown review too
    /// long for a comment links to it.
    #[arg(long, value_name = "URL")]
    pub details_url: Option<String>,
    /// Where the spec's files are published (`https://github.com/o/r/blob/SHA/`): the HTML
    /// review links each place it cites to `URL<file>#L<line>` (default: the file beside the
    /// page).
    #[arg(long, value_name = "URL")]
    pub source_url: Option<String>,
    /// The longest Markdown review written, in characters (a longer one shows less and links
    /// to --details-url); `0` for no limit.
    #[arg(long, value_name = "N", default_value_t = crate::review::MAX_CHARS)]
    pub max_chars: usize,
    #[command(flatten)]
    pub input: InputArgs,
}

/// What a run may read: the limits that keep a hostile file from costing the machine, and the
/// opt-ins to read beyond the project root.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Input limits")]
pub struct InputArgs {
    /// Largest file read, in MiB (at most 4095: positions are 32-bit).
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().max_file_bytes / MIB,
          value_parser = clap::value_parser!(u64).range(1..=4095))]
    pub max_file_size: u64,
    /// Deepest nesting of YAML/JSON collections.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_depth,
          value_parser = depth)]
    pub max_depth: usize,
    /// Nodes that YAML aliases may expand to in one file (guards against alias bombs).
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_alias_nodes)]
    pub max_alias_nodes: usize,
    /// Files one document may load through `$ref`s, itself included.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_ref_files,
          value_parser = at_least_one)]
    pub max_ref_files: usize,
    /// MiB of files one document may load through `$ref`s in all, itself excluded.
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().max_ref_bytes / MIB,
          value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub max_ref_size: u64,
    /// Let `$ref`s read local files outside the root (off: they are refused unread).
    #[arg(long)]
    pub allow_outside_root: bool,
    /// Fetch `$ref`s to http(s) URLs (off: idemlint opens no network connection at all).
    #[arg(long)]
    pub allow_remote_refs: bool,
}

/// The default limits, no opt-ins (what `probe` reads its spec with).
impl Default for InputArgs {
    fn default() -> Self {
        let limits = Limits::default();
        InputArgs {
            max_file_size: limits.max_file_bytes / MIB,
            max_depth: limits.max_depth,
            max_alias_nodes: limits.max_alias_nodes,
            max_ref_files: limits.max_ref_files,
            max_ref_size: limits.max_ref_bytes / MIB,
            allow_outside_root: false,
            allow_remote_refs: false,
        }
    }
}

impl InputArgs {
    /// `opts` with these limits and opt-ins.
    fn apply(&self, opts: Options) -> Options {
        Options {
            limits: self.limits(),
            allow_outside_root: self.allow_outside_root,
            allow_remote_refs: self.allow_remote_refs,
            ..opts
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            max_file_bytes: self.max_file_size * MIB,
            max_depth: self.max_depth,
            max_alias_nodes: self.max_alias_nodes,
            max_ref_files: self.max_ref_files,
            max_ref_bytes: self.max_ref_size * MIB,
        }
    }
}

fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

fn depth(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if (1..=DEPTH_CEILING).contains(&n) {
        Ok(n)
    } else {
        Err(format!("must be between 1 and {DEPTH_CEILING}"))
    }
}

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The version before: a file, or `REV:path` (the path at a git revision, e.g.
    /// `origin/main:api/openapi.yaml`).
    pub old: String,
    /// The version after: a file, or `REV:path`.
    pub new: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Directory `$ref`s may read from (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// When to use colour in text output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Configuration file (default: each file's nearest `.idemlint.yaml`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Profile: ietf (default), stripe, zalando, google-aip or azure. Wins over `extends`.
    #[arg(long, value_name = "NAME", value_parser = Offered(profiles), hide_possible_values = true)]
    pub profile: Option<String>,
    /// Only these contract-change rules (comma-separated, repeatable).
    #[arg(long, value_name = "RULES", value_delimiter = ',',
          value_parser = Offered(selectors), hide_possible_values = true)]
    pub select: Vec<String>,
    /// Not these contract-change rules (comma-separated, repeatable).
    #[arg(long, value_name = "RULES", value_delimiter = ',',
          value_parser = Offered(selectors), hide_possible_values = true)]
    pub ignore: Vec<String>,
    /// Write the report to FILE (whole or not at all) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print the findings and nothing else.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReviewFormat {
    Markdown,
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Files or directories to lint; `-` reads one document from standard input.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,

    /// Directory `$ref`s may read from (default: the current directory). Files outside it are
    /// refused, except in the folders of documents named on the command line.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// When to use colour in text output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,

    /// Configuration file for every linted file (default: each file's nearest `.idemlint.yaml`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Profile: ietf (default), stripe, zalando, google-aip or azure. Wins over `extends`.
    #[arg(long, value_name = "NAME", value_parser = Offered(profiles), hide_possible_values = true)]
    pub profile: Option<String>,

    /// Only these rules or categories (comma-separated, repeatable).
    #[arg(long, value_name = "RULES", value_delimiter = ',',
          value_parser = Offered(selectors), hide_possible_values = true)]
    pub select: Vec<String>,

    /// Not these rules or categories (comma-separated, repeatable).
    #[arg(long, value_name = "RULES", value_delimiter = ',',
          value_parser = Offered(selectors), hide_possible_values = true)]
    pub ignore: Vec<String>,

    /// Write the report to FILE (whole or not at all) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Skip named files that are not OpenAPI documents instead of reporting them (for hooks
    /// that pass every YAML and JSON file).
    #[arg(long)]
    pub skip_non_openapi: bool,

    /// Documents not to lint: globs relative to the working directory, comma-separated,
    /// repeatable (a configuration's `exclude:` adds its own).
    #[arg(long, value_name = "GLOB", value_delimiter = ',')]
    pub exclude: Vec<String>,

    /// For `-`: the file name to report and to resolve `$ref`s and find the configuration from.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,

    /// Print how many findings each rule has, most first, instead of the findings (text, or
    /// JSON with --format json).
    #[arg(long)]
    pub statistics: bool,

    /// Print the findings and nothing else: no summary line, no notes on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Report only findings that are not in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Record the current findings in FILE as a baseline (then exit 0 unless an input failed).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,

    /// Report only the findings new since the git revision REF (a branch, tag, commit, or
    /// `A...B` for their merge base), and the contract-change rules' findings against it;
    /// the summary counts the fixed and unchanged ones. The exit code comes from new findings.
    #[arg(long, value_name = "REF", conflicts_with = "write_baseline")]
    pub base: Option<String>,

    /// Apply the fixes that are safe, in place, and report what remains.
    #[arg(long, conflicts_with_all = ["base", "write_baseline"])]
    pub fix: bool,

    /// With --fix or --diff: apply unsafe fixes too (they change the contract clients see).
    #[arg(long)]
    pub unsafe_fixes: bool,

    /// Print a unified diff of what --fix would change, and change nothing (exit 1 when there
    /// is something to fix).
    #[arg(long, conflicts_with_all = ["base", "write_baseline"])]
    pub diff: bool,

    /// With --base: show the unchanged findings too, marked as such.
    #[arg(long, requires = "base")]
    pub show_unchanged: bool,

    /// Print the time of each phase (read, parse, resolve, model, rules, report) on stderr.
    #[arg(long)]
    pub timings: bool,

    /// Threads that lint files in parallel (default: one a CPU core).
    #[arg(
        long,
        short = 'j',
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub jobs: usize,

    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// Exit codes of DESIGN.md.
pub const EXIT_OK: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_ERROR: u8 = 2;

pub fn main() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_ERROR } else { EXIT_OK };
        }
    };
    // Every walk over a document recurses once a level, so the threads that parse and lint get a
    // stack sized for the nesting limit in force.
    let stack = match &cli.command {
        Command::Check(args) => args.input.limits().stack_bytes(),
        Command::Review(args) => args.input.limits().stack_bytes(),
        Command::Diff(args) => args.input.limits().stack_bytes(),
        _ => Limits::default().stack_bytes(),
    };
    // `--jobs 0` (the default) lets rayon take one thread a core.
    let jobs = match &cli.command {
        Command::Check(args) => args.jobs,
        _ => 0,
    };
    let _ = rayon::ThreadPoolBuilder::new()
        .stack_size(stack)
        .num_threads(jobs)
        .build_global();
    match std::thread::Builder::new()
        .name("idemlint".to_string())
        .stack_size(stack)
        .spawn(move || run(cli.command))
        .map(|thread| thread.join())
    {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => {
            eprintln!("error: cannot start a thread: {e}");
            EXIT_ERROR
        }
    }
}

fn run(command: Command) -> u8 {
    match command {
        Command::Check(args) => check(args),
        Command::Rules { format } => {
            let text = match format {
                ListFormat::Text => crate::explain::rules_table(),
                ListFormat::Json => crate::explain::rules_json(),
            };
            print(&text);
            EXIT_OK
        }
        Command::Explain { rule, color } => explain(&rule, color),
        Command::Review(args) => review(args),
        Command::Diff(args) => diff(args),
        Command::Lsp => crate::lsp::run(),
        Command::Probe(args) => probe(args),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            write_out(&crate::shell::completions(Cli::command(), shell))
        }
        Command::Man { command } => {
            use clap::CommandFactory;
            match crate::shell::man_page(Cli::command(), &command) {
                Ok(page) => write_out(&page),
                Err(e) => {
                    eprintln!("error: {e}");
                    EXIT_ERROR
                }
            }
        }
        Command::Config(ConfigCommand::Schema) => {
            print(&crate::config::schema_json());
            EXIT_OK
        }
    }
}

/// `bytes` on standard output; a closed pipe (`| head`) is no error worth a message.
fn write_out(bytes: &[u8]) -> u8 {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            EXIT_ERROR
        }
    }
}

/// `probe SPEC --base-url URL`: the spec loaded as `check` loads it, the runtime checks run
/// against the server while it is, their findings reported as `check` reports its own.
fn probe(args: ProbeArgs) -> u8 {
    // The base URL first: a host that may not be probed is refused before anything is read,
    // looked up or sent.
    let target = match crate::probe::http::Target::parse(&args.base_url, &args.allow_host) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    };
    if args.spec.is_dir() {
        // (One document: its operations' findings are reported at its own lines.)
        eprintln!(
            "error: {} is a folder; probe takes one OpenAPI document (the file whose `paths` \
             the server implements)",
            args.spec.display()
        );
        return EXIT_ERROR;
    }
    if args.dry_run && args.format != Format::Text {
        eprintln!(
            "error: --dry-run prints its plan as text; drop --format {} (nothing is judged, so \
             there is no report to format)",
            format!("{:?}", args.format).to_ascii_lowercase()
        );
        return EXIT_ERROR;
    }
    let mut headers = Vec::new();
    for h in &args.header {
        match h.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() => {
                let (name, value) = (name.trim(), value.trim());
                if let Some(why) = crate::probe::http::unsendable_header(name, value) {
                    eprintln!("error: --header `{h}`: {why}; nothing was sent");
                    return EXIT_ERROR;
                }
                headers.push((name.to_string(), value.to_string()))
            }
            _ => {
                eprintln!("error: --header `{h}` is not `Name: value`");
                return EXIT_ERROR;
            }
        }
    }
    let mut data = Vec::new();
    for d in &args.data {
        let Some((operation, value)) = d.split_once('=') else {
            eprintln!("error: --data `{d}` is not `OPERATION=@file.json` or `OPERATION={{...}}`");
            return EXIT_ERROR;
        };
        let text = match value.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => {
                    eprintln!("error: --data {operation}: cannot read {path}: {e}");
                    return EXIT_ERROR;
                }
            },
            None => value.to_string(),
        };
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(v) => data.push((operation.trim().to_string(), v)),
            Err(e) => {
                eprintln!("error: --data {operation}: not JSON: {e}");
                return EXIT_ERROR;
            }
        }
    }
    for pointer in &args.ignore_field {
        if !pointer.starts_with('/') {
            eprintln!("error: --ignore-field `{pointer}` is not a JSON pointer (`/created_at`)");
            return EXIT_ERROR;
        }
    }
    let Some(base) = options(
        &args.root,
        args.config.as_deref(),
        &args.profile,
        &InputArgs::default(),
    ) else {
        return EXIT_ERROR;
    };
    let rules = crate::probe::rules();
    let opts = Options {
        // Only the runtime rules, whose checks find nothing in a spec: the spec's own findings
        // are `check`'s.
        select: rules.iter().map(|r| r.to_string()).collect(),
        skip_teardown: true,
        ..base
    };
    let probe_opts = crate::probe::Options {
        base: target.base.clone(),
        headers,
        data,
        operations: args.operation.clone(),
        ignore: args.ignore_field.clone(),
        concurrency: usize::from(args.concurrency),
        unkeyed: args.unkeyed,
    };
    if !args.dry_run
        && let Err(e) = target.reachable(std::time::Duration::from_secs(args.timeout))
    {
        eprintln!("error: cannot reach {}: {e}; nothing was sent", target.base);
        return EXIT_ERROR;
    }
    let client = (!args.dry_run).then(|| {
        crate::probe::http::Client::new(
            &target,
            std::time::Duration::from_secs(args.timeout),
            args.max_requests,
        )
    });
    let (mut report, probed) = lint::run_each(
        std::slice::from_ref(&args.spec),
        &opts,
        &crate::files::Disk,
        || Ok(Vec::new()),
        &|linted| crate::probe::run(linted, &probe_opts, &opts, client.as_ref()),
    );
    if !report.errors.is_empty() || probed.is_empty() {
        for e in &report.errors {
            eprintln!("error: {}:{}:{}: {}", e.file, e.line, e.column, e.message);
        }
        for d in &report.skipped {
            eprintln!("error: {}: {}", d.file, d.reason);
        }
        if report.errors.is_empty() && report.skipped.is_empty() {
            eprintln!(
                "error: {}: no OpenAPI document to probe",
                args.spec.display()
            );
        }
        return EXIT_ERROR;
    }
    let mut probed = probed;
    let probed = probed.remove(0);
    if !probed.unmatched.is_empty() || !probed.unmatched_data.is_empty() {
        let flags = probed.unmatched.iter().map(|op| ("--operation", op));
        let data = probed.unmatched_data.iter().map(|op| ("--data", op));
        for (flag, op) in flags.chain(data) {
            let hint = crate::suggest::closest(op, probed.operations.iter().map(String::as_str))
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            eprintln!(
                "error: {flag} `{op}` names no operation of the spec{hint}; nothing was sent"
            );
        }
        return EXIT_ERROR;
    }
    if args.dry_run {
        let n = crate::probe::planned_requests(&probed.plan);
        let mut text = probed.plan.clone();
        text.push_str(&crate::probe::summary(&probed.rows, args.unkeyed));
        text.push_str(&format!(
            "Dry run: {} would be sent to {} (budget {}); nothing was sent.\n",
            report::plural(n, "request"),
            target.base,
            args.max_requests
        ));
        if n > args.max_requests {
            text.push_str(&format!(
                "Only the first {} would be sent: the checks after them would not be judged \
                 (raise --max-requests).\n",
                args.max_requests
            ));
        }
        return match emit(&text, args.output.as_deref()) {
            Ok(()) => EXIT_OK,
            Err(()) => EXIT_ERROR,
        };
    }
    if let Some(e) = &probed.unreachable {
        // Never reached: nothing was judged.
        eprintln!("error: {e}");
        return EXIT_ERROR;
    }
    report.findings = probed.findings;
    report.suppressed = probed.suppressed;
    let (judged, not_judged) = crate::probe::judged(&probed.rows);
    report.not_judged = not_judged;
    let render_opts = RenderOptions {
        quiet: args.quiet,
        color: use_color(args.color) && args.output.is_none(),
        width: terminal_width(),
    };
    let written = emit_with(args.output.as_deref(), |out| {
        if args.format == Format::Text && !args.quiet {
            out.write_all(crate::probe::summary(&probed.rows, args.unkeyed).as_bytes())?;
            out.write_all(
                format!(
                    "{} sent to {}.\n\n",
                    report::plural(probed.sent, "request"),
                    target.base
                )
                .as_bytes(),
            )?;
        }
        report::write(&report, args.format, &render_opts, out)
    });
    if written.is_err() {
        return EXIT_ERROR;
    }
    if let Some(e) = &probed.stopped {
        // The findings made before it stopped are reported; the run is not complete.
        eprintln!("error: {e}");
        return EXIT_ERROR;
    }
    if judged == 0 && not_judged > 0 {
        eprintln!(
            "error: no check could be judged ({} not judged: the summary's notes say why)",
            report::plural(not_judged, "check")
        );
        return EXIT_ERROR;
    }
    if judged == 0 {
        // (Every operation skipped, or none with a check to run: a green run would say the
        // server was tested.)
        let skipped = probed.rows.iter().filter(|r| r.skipped.is_some()).count();
        eprintln!(
            "error: nothing was probed: of {}, {skipped} skipped and {} with no check that \
             applies (the summary says which)",
            report::plural(probed.rows.len(), "operation"),
            probed.rows.len() - skipped
        );
        return EXIT_ERROR;
    }
    exit_code(&report, args.fail_on)
}

fn explain(id: &str, color: Color) -> u8 {
    match crate::rules::find(id) {
        Some(rule) => {
            let meta = rule.id.meta();
            print(&crate::explain::explain(meta, use_color(color)));
            EXIT_OK
        }
        None => {
            report_unknown_rule(id);
            EXIT_ERROR
        }
    }
}

fn review(args: ReviewArgs) -> u8 {
    let Some(base) = options(
        &args.root,
        args.config.as_deref(),
        &args.profile,
        &args.input,
    ) else {
        return EXIT_ERROR;
    };
    if !stdin_filename_fits(args.stdin_filename.as_deref(), &args.paths) {
        return EXIT_ERROR;
    }
    let opts = Options {
        skip_teardown: true,
        stdin_filename: args.stdin_filename.clone(),
        ..base
    };
    let (report, reviewed) = match &args.base {
        Some(name) => {
            let base = match crate::change::Base::open(&cwd_now(), name) {
                Ok(base) => base,
                Err(e) => {
                    eprintln!("error: --base {name}: {e}");
                    return EXIT_ERROR;
                }
            };
            let r = match crate::change::review(&args.paths, &opts, &base, || read_stdin(&opts)) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: --base {name}: {e}");
                    return EXIT_ERROR;
                }
            };
            for note in &r.notes {
                eprintln!("note: at {name}, {note}: its operations count as added");
            }
            let label = format!("{name} ({})", &base.rev.commit()[..7]);
            let change = crate::review::change::compare(label, r.before, r.after);
            (r.report, Reviewed::Change(change))
        }
        None => {
            let (report, reviews) = lint::run_each(
                &args.paths,
                &opts,
                &crate::files::Disk,
                || read_stdin(&opts),
                &crate::review::review_document,
            );
            (report, Reviewed::Plain(reviews))
        }
    };
    // What could not be reviewed is said on stderr and in the review itself, which is written
    // even when nothing could be reviewed: an old review must not pass for this run's.
    let mut not_reviewed = Vec::new();
    for e in &report.errors {
        eprintln!("error: {}:{}:{}: {}", e.file, e.line, e.column, e.message);
        not_reviewed.push(crate::review::NotReviewed {
            place: format!("{}:{}:{}", e.file, e.line, e.column),
            reason: e.message.clone(),
        });
    }
    for d in &report.skipped {
        eprintln!("note: {} not reviewed: {}", d.file, d.reason);
        not_reviewed.push(crate::review::NotReviewed {
            place: d.file.clone(),
            reason: d.reason.clone(),
        });
    }
    let md = crate::review::MarkdownOptions {
        only_gaps: args.only_gaps,
        details_url: args.details_url.as_deref(),
        max_chars: (args.max_chars > 0).then_some(args.max_chars),
    };
    let links = match &args.source_url {
        Some(url) => crate::review::Links::under(url),
        None => crate::review::Links::relative(),
    };
    let text = match (args.format, &reviewed) {
        (ReviewFormat::Markdown, Reviewed::Plain(reviews)) => {
            crate::review::markdown(reviews, &not_reviewed, &md)
        }
        (ReviewFormat::Markdown, Reviewed::Change(change)) => {
            crate::review::markdown_change(change, &not_reviewed, &md)
        }
        (ReviewFormat::Html, Reviewed::Plain(reviews)) => {
            crate::review::html(reviews, &not_reviewed, &links)
        }
        (ReviewFormat::Html, Reviewed::Change(change)) => {
            crate::review::html_change(change, &not_reviewed, &links)
        }
    };
    if emit(&text, args.output.as_deref()).is_err() {
        return EXIT_ERROR;
    }
    if report.errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_ERROR
    }
}

/// What `review` reviewed: documents, or a change to them.
enum Reviewed {
    Plain(Vec<crate::review::ApiReview>),
    Change(crate::review::change::ChangeReview),
}

/// `--stdin-filename` names the document read from `-`: without `-` it is a mistake.
fn stdin_filename_fits(name: Option<&std::path::Path>, paths: &[PathBuf]) -> bool {
    if name.is_some() && !paths.iter().any(|p| p.as_os_str() == "-") {
        eprintln!(
            "error: --stdin-filename names the document read from `-`, which is not among the paths"
        );
        return false;
    }
    true
}

/// Standard input, read up to one byte past the file size limit (so that the limit is seen).
fn read_stdin(opts: &Options) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    std::io::stdin()
        .take(opts.limits.max_file_bytes + 1)
        .read_to_end(&mut buf)?;
    Ok(buf)
}

/// The options `check` and `review` share: the root (which must be a directory), the
/// configuration and profile, and the input limits. `None` once the problem is printed.
fn options(
    root: &Option<PathBuf>,
    config: Option<&std::path::Path>,
    profile: &Option<String>,
    input: &InputArgs,
) -> Option<Options> {
    if let Some(root) = root
        && !root.is_dir()
    {
        eprintln!("error: --root {} is not a directory", root.display());
        return None;
    }
    // A mistyped profile is a usage error, reported before anything is read.
    let profile = match profile.as_deref().map(crate::config::profile_name) {
        Some(Err(message)) => {
            eprintln!("error: {message}");
            return None;
        }
        Some(Ok(name)) => Some(name.to_string()),
        None => None,
    };
    let config = config_arg(config, profile.as_deref()).ok()?;
    Some(input.apply(Options {
        root: root.clone(),
        config,
        profile,
        ..Options::default()
    }))
}

/// Says that `id` is no rule, with the closest one when there is a plausible one.
fn report_unknown_rule(id: &str) {
    let ids = crate::catalogue::RuleId::ALL.iter().map(|r| r.as_str());
    match crate::suggest::closest(id, ids) {
        Some(near) => eprintln!("error: unknown rule `{id}`; did you mean `{near}`?"),
        None => eprintln!("error: unknown rule `{id}`; `idemlint rules` lists them"),
    }
}

/// The `--config FILE` configuration, if given; its errors are printed, with their positions.
fn config_arg(path: Option<&std::path::Path>, profile: Option<&str>) -> Result<Option<Config>, ()> {
    let Some(path) = path else {
        return Ok(None);
    };
    Config::load(
        &crate::files::Disk,
        path,
        &crate::discover::display_name(path),
        profile,
    )
    .map(Some)
    .map_err(|errors| {
        for e in errors {
            eprintln!("error: {}:{}:{}: {}", e.file, e.line, e.column, e.message);
        }
    })
}

fn use_color(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// Writes `text` to `output` (whole or not at all), or to stdout.
fn emit(text: &str, output: Option<&std::path::Path>) -> Result<(), ()> {
    emit_with(output, |out| out.write_all(text.as_bytes()))
}

/// Like [`emit`], for content written piece by piece.
fn emit_with(
    output: Option<&std::path::Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), ()> {
    match output {
        Some(path) => crate::output::write_to_with(path, write).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", path.display());
        }),
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            match write(&mut out).and_then(|_| out.flush()) {
                // A closed pipe (`| head`) is not our failure.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("error: cannot write the report: {e}");
                    Err(())
                }
                _ => Ok(()),
            }
        }
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not our failure.
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

fn check(mut args: CheckArgs) -> u8 {
    let started = std::time::Instant::now();
    if !expand_selectors(&mut args.select, &mut args.ignore) {
        return EXIT_ERROR;
    }
    let Some(base) = options(
        &args.root,
        args.config.as_deref(),
        &args.profile,
        &args.input,
    ) else {
        return EXIT_ERROR;
    };
    if args.statistics && !matches!(args.format, Format::Text | Format::Concise | Format::Json) {
        eprintln!(
            "error: --statistics prints text or json, not --format {}",
            format_name(args.format)
        );
        return EXIT_ERROR;
    }
    if !stdin_filename_fits(args.stdin_filename.as_deref(), &args.paths) {
        return EXIT_ERROR;
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let exclude = match args.exclude.iter().any(|p| !p.trim().is_empty()) {
        false => None,
        true => {
            let patterns: Vec<String> = args
                .exclude
                .iter()
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            let base = std::fs::canonicalize(&cwd).unwrap_or(cwd);
            match crate::inputs::Excludes::new(base, &patterns) {
                Ok(e) => Some(e),
                Err(e) => {
                    eprintln!("error: --exclude: {e}");
                    return EXIT_ERROR;
                }
            }
        }
    };
    let opts = Options {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        skip_non_openapi: args.skip_non_openapi,
        skip_teardown: true,
        exclude,
        stdin_filename: args.stdin_filename.clone(),
        ..base
    };
    let baseline = match &args.baseline {
        Some(path) => match crate::filter::baseline::load(path) {
            Ok(baseline) => Some(std::sync::Arc::new(baseline)),
            Err(e) => {
                eprintln!("error: baseline {}: {e}", path.display());
                return EXIT_ERROR;
            }
        },
        None => None,
    };
    let opts = Options { baseline, ..opts };
    if args.fix || args.diff {
        return fix(&args, &opts, started);
    }
    let report = match &args.base {
        Some(name) => {
            let base = match crate::change::Base::open(&cwd_now(), name) {
                Ok(base) => base,
                Err(e) => {
                    eprintln!("error: --base {name}: {e}");
                    return EXIT_ERROR;
                }
            };
            match crate::change::check(
                &args.paths,
                &opts,
                &base,
                || read_stdin(&opts),
                args.show_unchanged,
            ) {
                Ok(report) => report,
                Err(e) => {
                    eprintln!("error: --base {name}: {e}");
                    return EXIT_ERROR;
                }
            }
        }
        None => lint::run(&args.paths, &opts, || read_stdin(&opts)),
    };
    if let Some(path) = &args.write_baseline {
        let findings = report.findings.iter().map(report::Finding::baseline_key);
        if let Err(e) = crate::filter::baseline::write(path, findings) {
            eprintln!("error: cannot write baseline {}: {e}", path.display());
            return EXIT_ERROR;
        }
        if !args.quiet {
            eprintln!(
                "Wrote {} finding{} to the baseline {}.",
                report.findings.len(),
                if report.findings.len() == 1 { "" } else { "s" },
                path.display()
            );
        }
        return if report.errors.is_empty() {
            EXIT_OK
        } else {
            EXIT_ERROR
        };
    }
    let color = use_color(args.color);
    let width = terminal_width();
    let report_start = std::time::Instant::now();
    let render_opts = RenderOptions {
        quiet: args.quiet,
        color: color && args.output.is_none(),
        width,
    };
    let written = emit_with(args.output.as_deref(), |out| {
        if args.statistics {
            report::statistics::write(&report, args.format == Format::Json, args.quiet, out)
        } else {
            report::write(&report, args.format, &render_opts, out)
        }
    });
    if written.is_err() {
        return EXIT_ERROR;
    }
    if let Some(outcome) = &report.base
        && !args.quiet
    {
        for note in &outcome.notes {
            eprintln!(
                "note: at {}, {note}: its findings there are unknown, so the ones now count as new",
                outcome.name
            );
        }
    }
    if let Some(outcome) = &report.baseline
        && !args.quiet
    {
        eprint!(
            "{}",
            crate::filter::baseline::notes(outcome, report.findings.len())
        );
    }
    if args.timings {
        let documents = report.documents.len();
        let table = report
            .timings
            .table(documents, report_start.elapsed(), started.elapsed());
        eprint!("{table}");
    }
    exit_code(&report, args.fail_on)
}

/// `check --fix`, `--diff` and `--fix -`: the fixes applied in passes (see `fix::run`), then
/// the diff (`--diff`), the fixed document (`-`) or the written files, and the report of what
/// remains.
fn fix(args: &CheckArgs, opts: &Options, started: std::time::Instant) -> u8 {
    let mode = crate::fix::run::FixMode {
        unsafe_fixes: args.unsafe_fixes,
        diff: args.diff,
    };
    let from_stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    let stdin = if from_stdin {
        match read_stdin(opts) {
            Ok(bytes) => Some(bytes),
            Err(e) => {
                eprintln!("error: cannot read standard input: {e}");
                return EXIT_ERROR;
            }
        }
    } else {
        None
    };
    let original = stdin.clone();
    let (mut report, mut fixed) = crate::fix::run::run(&args.paths, opts, stdin, mode);
    for (_, problem) in &fixed.broken {
        eprintln!(
            "warning: {problem}: a fix would have left the file unreadable there, so that pass \
             was undone and the file is fixed no further (a bug of idemlint's: please report it)"
        );
    }
    if args.diff {
        let start = std::time::Instant::now();
        let diff = fixed
            .diff
            .take()
            .unwrap_or_else(|| crate::fix::run::diff(&fixed.changed));
        print(&diff);
        let diff_time = start.elapsed();
        if !args.quiet {
            for note in &fixed.refused {
                eprintln!("note: {note}");
            }
            eprintln!("{}", would_fix(&fixed, &report, mode));
        }
        if args.timings {
            eprint!(
                "{}",
                crate::timings::passes(&fixed.pass_times, ("diff", diff_time))
            );
            eprintln!(
                "  {:<8} {:>10.1} ms",
                "wall",
                started.elapsed().as_secs_f64() * 1000.0
            );
        }
        return if !report.errors.is_empty() {
            EXIT_ERROR
        } else if fixed.changed.is_empty() {
            EXIT_OK
        } else {
            EXIT_FINDINGS
        };
    }
    let mut write_time = std::time::Duration::ZERO;
    if from_stdin {
        // The document, fixed or as it came, on standard output; the report on stderr.
        let original = original.unwrap_or_default();
        let text = match fixed.changed.first() {
            Some(c) => {
                // (The text read had its byte order mark taken off: it is put back.)
                let bom = if original.starts_with(b"\xEF\xBB\xBF") {
                    "\u{feff}"
                } else {
                    ""
                };
                format!("{bom}{}", c.after).into_bytes()
            }
            None => original,
        };
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&text).and_then(|_| out.flush());
    } else {
        let start = std::time::Instant::now();
        let failed = crate::fix::run::write(&fixed.changed);
        write_time = start.elapsed();
        for (name, e) in &failed {
            eprintln!("error: cannot write {name}: {e}");
        }
        if !failed.is_empty() {
            return EXIT_ERROR;
        }
    }
    report.fixes = Some(report::FixSummary {
        applied: fixed.applied,
        files: fixed.changed.len(),
        unfinished: fixed.unfinished,
    });
    let render_opts = RenderOptions {
        quiet: args.quiet,
        color: use_color(args.color) && args.output.is_none() && !from_stdin,
        width: terminal_width(),
    };
    let write = |out: &mut dyn Write| {
        if args.statistics {
            report::statistics::write(&report, args.format == Format::Json, args.quiet, out)
        } else {
            report::write(&report, args.format, &render_opts, out)
        }
    };
    let written = if from_stdin && args.output.is_none() {
        let mut err = std::io::stderr().lock();
        write(&mut err).map_err(|_| ())
    } else {
        emit_with(args.output.as_deref(), write)
    };
    if written.is_err() {
        return EXIT_ERROR;
    }
    if fixed.unfinished && !args.quiet {
        eprintln!(
            "warning: fixes were still being found after {} passes; run --fix again",
            crate::fix::run::MAX_PASSES
        );
    }
    if args.timings {
        eprint!(
            "{}",
            crate::timings::passes(&fixed.pass_times, ("write", write_time))
        );
        eprintln!(
            "  {:<8} {:>10.1} ms",
            "wall",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
    exit_code(&report, args.fail_on)
}

/// `--diff`'s closing line: what `--fix` would do.
fn would_fix(
    fixed: &crate::fix::run::Fixed,
    report: &report::Report,
    mode: crate::fix::run::FixMode,
) -> String {
    let (_, unsafe_left) = report.fixable();
    let fixes = |n: usize| {
        if n == 1 {
            "1 fix".to_string()
        } else {
            format!("{n} fixes")
        }
    };
    let mut line = if fixed.applied == 0 {
        "Nothing to fix.".to_string()
    } else {
        format!(
            "Would apply {} in {}.",
            fixes(fixed.applied),
            report::plural(fixed.changed.len(), "file")
        )
    };
    if !mode.unsafe_fixes && unsafe_left > 0 {
        line.push_str(&format!(
            " {} more with --unsafe-fixes.",
            fixes(unsafe_left)
        ));
    }
    line
}

/// `--select` and `--ignore` trimmed, with each category standing for its rules; `false` (said
/// on stderr) when one names neither a rule nor a category.
fn expand_selectors(select: &mut Vec<String>, ignore: &mut Vec<String>) -> bool {
    for list in [select, ignore] {
        let mut ids = Vec::new();
        for name in list.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
            match crate::rules::expand_selector(name) {
                Some(expanded) => ids.extend(expanded.into_iter().map(str::to_string)),
                None => {
                    eprintln!("error: {}", crate::rules::unknown_selector(name));
                    return false;
                }
            }
        }
        *list = ids;
    }
    true
}

/// `diff OLD NEW`: the contract-change rules, with OLD as the base.
fn diff(mut args: DiffArgs) -> u8 {
    if !expand_selectors(&mut args.select, &mut args.ignore) {
        return EXIT_ERROR;
    }
    let contract: Vec<String> = crate::rules::expand_selector(crate::filter::CONTRACT_CHANGE)
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    let select: Vec<String> = contract
        .into_iter()
        .filter(|id| args.select.is_empty() || args.select.contains(id))
        .collect();
    let Some(base) = options(
        &args.root,
        args.config.as_deref(),
        &args.profile,
        &args.input,
    ) else {
        return EXIT_ERROR;
    };
    let opts = Options {
        select,
        ignore: args.ignore.clone(),
        skip_teardown: true,
        ..base
    };
    let old = crate::change::Version::parse(&args.old);
    let new = crate::change::Version::parse(&args.new);
    let report = match crate::change::diff(&old, &new, &opts) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    };
    let render_opts = RenderOptions {
        quiet: args.quiet,
        color: use_color(args.color) && args.output.is_none(),
        width: terminal_width(),
    };
    let written = emit_with(args.output.as_deref(), |out| {
        report::write(&report, args.format, &render_opts, out)
    });
    if written.is_err() {
        return EXIT_ERROR;
    }
    exit_code(&report, args.fail_on)
}

/// 2 when an input could not be linted, else 1 when a finding that counts (against a base,
/// a new one) reaches `fail_on`.
fn exit_code(report: &report::Report, fail_on: FailOn) -> u8 {
    if !report.errors.is_empty() {
        return EXIT_ERROR;
    }
    match fail_on.threshold() {
        Some(t) if report.findings.iter().any(|f| f.fails() && f.severity >= t) => EXIT_FINDINGS,
        _ => EXIT_OK,
    }
}

fn cwd_now() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// `--format`'s value as the user types it.
fn format_name(format: Format) -> String {
    format
        .to_possible_value()
        .map_or_else(|| format!("{format:?}"), |v| v.get_name().to_string())
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&w: &usize| w >= 40)
        .unwrap_or(100)
}

/// The README's usage block: every subcommand with every option, as `--help` knows them, so the
/// README cannot fall behind the command line (`tests/docs.rs` compares them).
pub fn synopsis() -> String {
    use clap::CommandFactory;
    const WIDTH: usize = 100;
    let cli = Cli::command();
    let mut out = String::new();
    // A group of commands (`config`) is shown as each of its commands (`config schema`).
    let mut commands: Vec<(String, &clap::Command)> = Vec::new();
    for cmd in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        if cmd.get_name() == "help" {
            continue;
        }
        if cmd.has_subcommands() {
            for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
                commands.push((format!("{} {}", cmd.get_name(), sub.get_name()), sub));
            }
        } else {
            commands.push((cmd.get_name().to_string(), cmd));
        }
    }
    for (name, cmd) in commands {
        let lead = format!("idemlint {name} ");
        let mut words: Vec<String> = Vec::new();
        for arg in cmd.get_positionals() {
            let value = arg
                .get_value_names()
                .and_then(|v| v.first())
                .map_or_else(|| arg.get_id().to_string(), |v| v.to_string());
            let many = matches!(arg.get_num_args(), Some(r) if r.max_values() > 1);
            let word = format!("{value}{}", if many { "..." } else { "" });
            words.push(if arg.is_required_set() {
                format!("<{word}>")
            } else {
                format!("[{word}]")
            });
        }
        for arg in cmd.get_opts().chain(cmd.get_arguments().filter(|a| {
            a.get_long().is_some() && !a.get_action().takes_values() && a.get_id() != "help"
        })) {
            let Some(long) = arg.get_long() else { continue };
            if long == "help" {
                continue;
            }
            let flag = match arg.get_short() {
                Some(short) => format!("-{short}/--{long}"),
                None => format!("--{long}"),
            };
            // Rule ids and profiles are offered to completions only: they are too many to list.
            let shown = if arg.is_hide_possible_values_set() {
                Vec::new()
            } else {
                arg.get_possible_values()
            };
            let values: Vec<String> = shown
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            let word = if !arg.get_action().takes_values() {
                flag
            } else if !values.is_empty() {
                format!("{flag} {}", values.join("|"))
            } else {
                let value = arg
                    .get_value_names()
                    .and_then(|v| v.first())
                    .map_or_else(|| "VALUE".to_string(), |v| v.to_string());
                format!("{flag} {value}")
            };
            if !words.contains(&format!("[{word}]")) {
                words.push(format!("[{word}]"));
            }
        }
        let mut line = lead.clone();
        for word in words {
            if line.len() > lead.len() && line.len() + 1 + word.len() > WIDTH {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(lead.len());
            }
            line.push_str(&word);
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
