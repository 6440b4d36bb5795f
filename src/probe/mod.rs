//! `idemlint probe`: a conformance test of a running server's retry behaviour against what its
//! spec promises. For each operation whose duplicates matter, requests are made from the model
//! (`plan.rs`, values from `generate.rs`), sent only to the base URL (`http.rs`), and judged by
//! the runtime rules (`checks/`); their verdicts are `Diagnostic`s at the operation's place in
//! the spec, turned into findings by the engine's filter, so every report format shows them.
//! The probe runs while the engine has the spec loaded (`lint::run_each`'s `each`).

pub mod checks;
pub mod generate;
pub mod http;
pub mod plan;

use serde_json::Value;

use crate::catalogue::RuleId;
use crate::diagnostic::Diagnostic;
use crate::engine::Linted;
use crate::report::{Finding, Suppressed};

use checks::{CHECKS, Verdict};
use http::{Client, Exchange, Failure};
use plan::KeyPlace;

/// What a probe is asked.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The checked base URL ([`http::Target::base`]).
    pub base: String,
    /// `--header`s, sent with every request.
    pub headers: Vec<(String, String)>,
    /// `--data`: bodies by operation (operationId or `METHOD PATH`).
    pub data: Vec<(String, Value)>,
    /// `--operation`: only these (none: every operation whose duplicates matter).
    pub operations: Vec<String>,
    /// `--ignore-field`: JSON pointers left out when a replay's body is compared.
    pub ignore: Vec<String>,
    pub concurrency: usize,
    pub unkeyed: bool,
}

/// The runtime rules, in the order of their checks.
pub fn rules() -> Vec<RuleId> {
    CHECKS.iter().map(|c| c.rule).collect()
}

/// What a check came to on one operation.
#[derive(Debug, Clone)]
pub enum Cell {
    Pass,
    Finding,
    /// A finding, suppressed in the spec or by the baseline: not reported.
    Suppressed,
    /// It does not apply to the operation.
    NotApplicable(String),
    /// It ran but could not judge.
    NotJudged(String),
    /// It was not run.
    NotRun(String),
    /// `--dry-run`: its requests were planned.
    Planned,
}

impl Cell {
    fn word(&self) -> &'static str {
        match self {
            Cell::Pass => "ok",
            Cell::Finding => "FINDING",
            Cell::Suppressed => "suppressed",
            Cell::NotApplicable(_) => "-",
            Cell::NotJudged(_) => "not judged",
            Cell::NotRun(_) => "not run",
            Cell::Planned => "planned",
        }
    }
}

/// One operation of the summary.
#[derive(Debug, Clone)]
pub struct Row {
    /// `POST /orders (createOrder)`.
    pub operation: String,
    /// Why it was not probed at all.
    pub skipped: Option<String>,
    pub cells: Vec<(RuleId, Cell)>,
}

/// What probing one document gave.
#[derive(Default)]
pub struct Probed {
    pub rows: Vec<Row>,
    pub findings: Vec<Finding>,
    pub suppressed: Vec<Suppressed>,
    /// The server could not be reached at all: the probe stopped there, nothing judged.
    pub unreachable: Option<String>,
    /// The server answered, then stopped answering: the probe stopped there, and what was
    /// judged before stands.
    pub stopped: Option<String>,
    /// `--dry-run`: the requests each check would send.
    pub plan: String,
    /// `--operation`s that name no operation of the spec.
    pub unmatched: Vec<String>,
    /// `--data`s whose operation is none of the spec's.
    pub unmatched_data: Vec<String>,
    /// The spec's operations as `--operation` names them (operationIds, `METHOD PATH`s), for a
    /// "did you mean".
    pub operations: Vec<String>,
    /// Requests sent.
    pub sent: usize,
}

/// Probes the operations of a loaded document: through `client`, or, without one
/// (`--dry-run`), only plans the requests.
pub fn run(
    linted: &Linted<'_>,
    opts: &Options,
    lint_opts: &crate::options::Options,
    client: Option<&Client>,
) -> Probed {
    let mut out = Probed::default();
    let api = linted.api;
    let settings = checks::Settings {
        ignore: &opts.ignore,
        concurrency: opts.concurrency,
        unkeyed: opts.unkeyed,
    };
    out.unmatched = opts
        .operations
        .iter()
        .filter(|s| !api.operations.iter().any(|op| plan::selects(s, op)))
        .cloned()
        .collect();
    out.unmatched_data = opts
        .data
        .iter()
        .map(|(s, _)| s)
        .filter(|s| !api.operations.iter().any(|op| plan::selects(s, op)))
        .cloned()
        .collect();
    out.operations = api
        .operations
        .iter()
        .flat_map(|op| {
            op.operation_id
                .map(|id| id.to_string())
                .into_iter()
                .chain([format!("{} {}", op.method.upper(), op.path)])
        })
        .collect();
    let chosen = api.operations.iter().filter(|op| {
        if opts.operations.is_empty() {
            linted.facts.of(op).duplicates_matter()
        } else {
            opts.operations.iter().any(|s| plan::selects(s, op))
        }
    });
    let mut diagnostics = Vec::new();
    // Each finding's row, rule and message, to mark the suppressed ones in the summary.
    let mut made: Vec<(usize, RuleId, String)> = Vec::new();
    // The last request that got a response, and its status, and how many did.
    let mut last: Option<(String, u16)> = None;
    let mut answered_n = 0usize;
    'operations: for op in chosen {
        let operation = match op.operation_id {
            Some(id) => format!("{} ({id})", op.display()),
            None => op.display(),
        };
        let planned = plan::plan(
            linted.bundle,
            linted.facts,
            &linted.config.settings,
            op,
            opts,
        );
        let plan = match planned {
            Ok(plan) => plan,
            Err(reason) => {
                out.rows.push(Row {
                    operation,
                    skipped: Some(reason),
                    cells: Vec::new(),
                });
                continue;
            }
        };
        let key_header = match &plan.key {
            Some(KeyPlace::Header(h)) => Some(h.as_str()),
            _ => None,
        };
        let mut row = Row {
            operation,
            skipped: None,
            cells: Vec::new(),
        };
        let mut key_ignored = false;
        for check in CHECKS {
            if check.rule == RuleId::DuplicateCreated && !opts.unkeyed {
                continue;
            }
            // (A rule turned off sends nothing: its requests are real writes.)
            if linted.config.levels.get(check.rule.as_str()) == Some(&crate::config::Level::Off) {
                row.cells.push((
                    check.rule,
                    Cell::NotApplicable("turned off in the configuration".into()),
                ));
                continue;
            }
            // (Its own fresh `format: uuid` body fields.)
            let plan = plan.for_check();
            let batches = match (check.batches)(&plan, &settings) {
                Ok(b) => b,
                Err(reason) => {
                    row.cells.push((check.rule, Cell::NotApplicable(reason)));
                    continue;
                }
            };
            if key_ignored
                && matches!(
                    check.rule,
                    RuleId::ConcurrentRetryMishandled | RuleId::KeyReuseAccepted
                )
            {
                row.cells.push((
                    check.rule,
                    Cell::NotRun(
                        "the replay created a second resource: the key is not honoured at all"
                            .into(),
                    ),
                ));
                continue;
            }
            let Some(client) = client else {
                if !row.cells.iter().any(|(_, c)| matches!(c, Cell::Planned)) {
                    out.plan.push_str(&format!("{}\n", row.operation));
                }
                out.plan
                    .push_str(&describe(check.rule, &batches, key_header));
                row.cells.push((check.rule, Cell::Planned));
                continue;
            };
            let mut exchanges: Vec<Vec<Exchange>> = Vec::new();
            for batch in batches {
                let answered = if batch.len() == 1 {
                    batch.into_iter().map(|r| client.send(r)).collect()
                } else {
                    client.send_together(batch)
                };
                for x in &answered {
                    if let Ok(r) = &x.response {
                        answered_n += 1;
                        last = Some((format!("{} {}", x.request.method, x.request.url), r.status));
                    }
                }
                if let Some(e) = answered.iter().find_map(|x| match &x.response {
                    Err(Failure::Unreachable(e)) => Some(e.clone()),
                    _ => None,
                }) {
                    match &last {
                        None => out.unreachable = Some(format!("cannot reach {}: {e}", opts.base)),
                        Some((request, status)) => {
                            out.stopped = Some(format!(
                                "{} stopped answering after {} (last: {request} got {status}): \
                                 {e}; the checks after it were not run",
                                opts.base,
                                crate::report::plural(answered_n, "response")
                            ))
                        }
                    }
                    row.cells.push((
                        check.rule,
                        Cell::NotJudged("the server stopped answering".into()),
                    ));
                    out.rows.push(row);
                    break 'operations;
                }
                exchanges.push(answered);
            }
            let cell = match (check.judge)(&plan, &settings, &exchanges) {
                Verdict::Pass => Cell::Pass,
                Verdict::NotJudged(reason) => Cell::NotJudged(reason),
                Verdict::Finding {
                    message,
                    second_resource,
                } => {
                    key_ignored |= second_resource;
                    let all: Vec<&Exchange> = exchanges.iter().flatten().collect();
                    let d = Diagnostic::new(
                        check.rule,
                        check.rule.meta().severity,
                        op.key,
                        format!("{}: {message}", op.display()),
                    )
                    .with_operation(op)
                    .with_evidence(http::evidence(&all, key_header));
                    made.push((out.rows.len(), check.rule, d.message.clone()));
                    diagnostics.push(d);
                    Cell::Finding
                }
            };
            row.cells.push((check.rule, cell));
        }
        out.rows.push(row);
    }
    out.sent = client.map_or(0, Client::sent);
    let (findings, suppressed) = crate::engine::rows_of(linted, lint_opts, diagnostics, &rules());
    for (row, rule, message) in made {
        let silenced = suppressed
            .iter()
            .any(|s| s.finding.rule == rule && s.finding.message == message);
        if silenced
            && let Some(cell) = out
                .rows
                .get_mut(row)
                .and_then(|r| r.cells.iter_mut().find(|(r, _)| *r == rule))
        {
            cell.1 = Cell::Suppressed;
        }
    }
    out.findings = findings;
    out.suppressed = suppressed;
    out
}

/// A check's planned requests, for `--dry-run`.
fn describe(rule: RuleId, batches: &[Vec<http::Request>], key_header: Option<&str>) -> String {
    let mut out = format!("  {rule}\n");
    for batch in batches {
        let Some(r) = batch.first() else { continue };
        let times = if batch.len() > 1 {
            format!("{} at once: ", batch.len())
        } else {
            String::new()
        };
        let mut line = format!("    {times}{} {}", r.method, r.url);
        for (name, value) in &r.headers {
            let value = if http::is_secret(name, key_header) {
                "****"
            } else {
                value
            };
            line.push_str(&format!("  {name}: {value}"));
        }
        if let Some(body) = &r.body {
            line.push_str(&format!("  {}", http::body_text(body)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Checks that judged (passed or found), and those that ran or were meant to and did not
/// judge (not judged, not run), over `rows`.
pub fn judged(rows: &[Row]) -> (usize, usize) {
    let cells = || rows.iter().flat_map(|r| &r.cells).map(|(_, c)| c);
    (
        cells()
            .filter(|c| matches!(c, Cell::Pass | Cell::Finding | Cell::Suppressed))
            .count(),
        cells()
            .filter(|c| matches!(c, Cell::NotJudged(_) | Cell::NotRun(_)))
            .count(),
    )
}

/// The number of requests a dry run's plan holds.
pub fn planned_requests(plan: &str) -> usize {
    plan.lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| {
            l.trim_start()
                .split_once(" at once: ")
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or(1)
        })
        .sum()
}

/// The summary table, one operation a row, one check a column, and below it why a check did
/// not judge or an operation was not probed.
pub fn summary(rows: &[Row], unkeyed: bool) -> String {
    let columns: Vec<(RuleId, &str)> = [
        (RuleId::ReplayNotIdempotent, "replay"),
        (RuleId::ConcurrentRetryMishandled, "concurrent"),
        (RuleId::KeyReuseAccepted, "key reuse"),
        (RuleId::MissingKeyAccepted, "missing key"),
        (RuleId::DuplicateCreated, "unkeyed twice"),
    ]
    .into_iter()
    .filter(|(r, _)| unkeyed || *r != RuleId::DuplicateCreated)
    .collect();
    if rows.is_empty() {
        return "No operation to probe: none whose duplicates matter (name one with \
                --operation).\n"
            .to_string();
    }
    let width = rows
        .iter()
        .map(|r| r.operation.chars().count())
        .max()
        .unwrap_or(0)
        .max("operation".len());
    let mut out = format!("{:<width$}", "operation");
    for (_, title) in &columns {
        out.push_str(&format!("  {title:<11}"));
    }
    out = out.trim_end().to_string();
    out.push('\n');
    let mut notes = Vec::new();
    for row in rows {
        let mut line = format!("{:<width$}", row.operation);
        if let Some(reason) = &row.skipped {
            line.push_str("  skipped");
            notes.push(format!("{}: not probed: {reason}", row.operation));
        }
        for (rule, title) in &columns {
            if row.skipped.is_some() {
                break;
            }
            let cell = row.cells.iter().find(|(r, _)| r == rule).map(|(_, c)| c);
            line.push_str(&format!("  {:<11}", cell.map_or("", Cell::word)));
            match cell {
                Some(Cell::NotJudged(reason)) => {
                    notes.push(format!("{}: {title} not judged: {reason}", row.operation))
                }
                Some(Cell::NotRun(reason)) => {
                    notes.push(format!("{}: {title} not run: {reason}", row.operation))
                }
                _ => {}
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for note in notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out
}
