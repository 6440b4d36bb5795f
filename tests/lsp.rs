//! `idemlint lsp` as an editor sees it: the real binary, spoken to in JSON-RPC over its
//! standard input and output.

mod common;
#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "../bench/spec_gen.rs"]
#[allow(dead_code)]
mod spec_gen;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use lsp_client::{Client, apply_edits, apply_workspace_edit, file_uri, utf16_len};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_idemlint");
const WAIT: Duration = Duration::from_secs(120);

/// What a client that takes versioned edits, resolves code actions and watches files says.
fn capabilities(encodings: &[&str]) -> Value {
    json!({
        "general": { "positionEncodings": encodings },
        "workspace": {
            "workspaceEdit": { "documentChanges": true },
            "didChangeWatchedFiles": { "dynamicRegistration": true },
        },
        "textDocument": {
            "codeAction": { "resolveSupport": { "properties": ["edit"] } },
        },
    })
}

fn diagnostics(publish: &Value) -> Vec<Value> {
    publish["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn code(d: &Value) -> &str {
    d["code"].as_str().unwrap_or("")
}

/// `(rule, start line, start character, end line, end character)` of each diagnostic, sorted.
fn placed(ds: &[Value]) -> Vec<(String, u64, u64, u64, u64)> {
    let mut out: Vec<_> = ds
        .iter()
        .map(|d| {
            let r = &d["range"];
            (
                code(d).to_string(),
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// A 1-based line and code-point column of `text` as an LSP position in UTF-16.
fn utf16_position(text: &str, line: u64, column: u64) -> (u64, u64) {
    let content = text.lines().nth(line as usize - 1).unwrap_or("");
    let before: String = content.chars().take(column as usize - 1).collect();
    (line - 1, utf16_len(&before) as u64)
}

/// `check --format json` of `spec`, run in its folder.
fn check_json(spec: &Path) -> Value {
    let out = Command::new(BIN)
        .current_dir(spec.parent().unwrap())
        .args(["check", "--format", "json", "--fail-on", "never"])
        .arg(spec.file_name().unwrap())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// An incremental change replacing `range` (LSP JSON) with `text`.
fn change(uri: &str, version: i32, changes: Value) -> Value {
    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
}

#[test]
fn the_adyen_spec_in_an_editor_gets_the_findings_fixes_and_docs_of_check() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let spec = corpus.join("adyen/CheckoutService-v72.yaml");
    let spec = spec.canonicalize().unwrap();
    let dir = spec.parent().unwrap();
    let text = std::fs::read_to_string(&spec).unwrap();
    let uri = file_uri(&spec);
    let mut client = Client::start(Path::new(BIN), dir, dir, capabilities(&["utf-16"]));
    assert_eq!(
        client.capabilities["capabilities"]["positionEncoding"],
        "utf-16"
    );

    // Opened: exactly the findings `check` reports, at the same places.
    client.open(&uri, &text);
    let first = client.next_publish(&uri, WAIT);
    assert_eq!(first["version"], 1);
    let shown = diagnostics(&first);
    let report = check_json(&spec);
    let mut expected: Vec<_> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let at = |l: &str, c: &str| {
                utf16_position(&text, f[l].as_u64().unwrap(), f[c].as_u64().unwrap())
            };
            let (start, end) = (at("line", "column"), at("end_line", "end_column"));
            (
                f["rule"].as_str().unwrap().to_string(),
                start.0,
                start.1,
                end.0,
                end.1,
            )
        })
        .collect();
    expected.sort();
    assert!(!expected.is_empty());
    assert_eq!(placed(&shown), expected);
    for d in &shown {
        assert_eq!(d["source"], "idemlint");
        let href = d["codeDescription"]["href"].as_str().unwrap();
        assert!(href.ends_with(&format!("rules/{}.md", code(d))), "{href}");
    }

    // Typed: POST /donations's optional key made a required one; its finding goes, the
    // others stay.
    let donations = |ds: &[Value]| {
        ds.iter()
            .filter(|d| {
                code(d) == "money-movement-optional-key"
                    && d["message"].as_str().unwrap().contains("POST /donations ")
            })
            .count()
    };
    assert_eq!(donations(&shown), 1);
    let path_line = text.lines().position(|l| l == "  /donations:").unwrap();
    let key_ref = "      - $ref: '#/components/parameters/Idempotency-Key'";
    let line = path_line
        + text
            .lines()
            .skip(path_line)
            .position(|l| l == key_ref)
            .unwrap();
    let required = "      - name: Idempotency-Key\n        in: header\n        required: true\n        \
                    schema:\n          type: string";
    let edit = json!([{
        "range": {"start": {"line": line, "character": 0},
                  "end": {"line": line, "character": key_ref.len()}},
        "text": required,
    }]);
    client.notify("textDocument/didChange", change(&uri, 2, edit.clone()));
    let edits: Vec<Value> = vec![json!({"range": edit[0]["range"], "newText": required})];
    let text = apply_edits(&text, &edits, false);
    let second = client.publish_where(&uri, WAIT, |p| p["version"] == 2);
    let after_edit = diagnostics(&second);
    assert_eq!(donations(&after_edit), 0);
    // The others are still there (the new key, which states no maximum length, brings an
    // info of its own).
    let messages = |ds: &[Value]| {
        let mut m: Vec<String> = ds.iter().map(|d| d["message"].to_string()).collect();
        m.sort();
        m
    };
    let before = messages(&shown);
    let after = messages(&after_edit);
    let gone: Vec<_> = before.iter().filter(|m| !after.contains(m)).collect();
    assert_eq!(gone.len(), 1, "{gone:?}\n{after:?}");

    // A quick fix at a finding, applied, fixes it.
    let target = after_edit
        .iter()
        .find(|d| {
            code(d) == "missing-mismatch-response"
                && d["message"].as_str().unwrap().contains("POST /sessions ")
        })
        .unwrap()
        .clone();
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": target["range"],
               "context": {"diagnostics": [target.clone()]}}),
    );
    let actions = actions.as_array().unwrap();
    let titles: Vec<&str> = actions.iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(
        titles.contains(&"Ignore missing-mismatch-response for this operation")
            && titles.contains(&"Ignore missing-mismatch-response on this line"),
        "{titles:?}"
    );
    let fix = actions
        .iter()
        .find(|a| a["kind"] == "quickfix" && !a["title"].as_str().unwrap().starts_with("Ignore"))
        .unwrap_or_else(|| panic!("a quick fix among {titles:?}"));
    let fixed = apply_workspace_edit(&text, &fix["edit"], &uri, false);
    assert_ne!(fixed, text);
    let whole = json!([{"text": fixed}]);
    client.notify("textDocument/didChange", change(&uri, 3, whole));
    let third = client.publish_where(&uri, WAIT, |p| p["version"] == 3);
    assert!(
        !diagnostics(&third)
            .iter()
            .any(|d| code(d) == "missing-mismatch-response"
                && d["message"].as_str().unwrap().contains("POST /sessions ")),
        "the fix fixed it"
    );

    // Hover on a finding: its rule's doc.
    let on = diagnostics(&third)
        .into_iter()
        .find(|d| code(d) == "money-movement-optional-key")
        .unwrap();
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": on["range"]["start"]}),
    );
    let doc = hover["contents"]["value"].as_str().unwrap();
    let explain = idemlint::catalogue::meta("money-movement-optional-key");
    assert!(doc.contains("`money-movement-optional-key`"), "{doc}");
    assert!(doc.contains(explain.body.trim()), "the whole doc: {doc}");

    // A buffer that does not parse: one diagnostic where the parser stopped, no crash.
    let broken = dir.join("broken-while-typing.yaml");
    let broken_uri = file_uri(&broken);
    client.open(
        &broken_uri,
        "openapi: 3.1.0\npaths:\n  /a: [\n    {post: \n",
    );
    let publish = client.next_publish(&broken_uri, WAIT);
    let ds = diagnostics(&publish);
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(ds[0]["severity"], 1);
    assert_eq!(code(&ds[0]), "input");

    let (status, stderr) = client.shutdown();
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

const UNICODE_SPEC: &str = "openapi: 3.1.0\n\
info: {title: Zahlungen, version: 1.0.0}\n\
paths:\n  \
/zählungen/😀: {post: {operationId: createPayment, requestBody: {content: {application/json: \
{schema: {type: object, properties: {amount: {type: integer}}}}}}, responses: {'201': \
{description: Created}}}}\n";

/// The position encodings: the finding after `ä` and `😀` on its line is at UTF-16 units or
/// UTF-8 bytes as negotiated, and an edit placed in the same units lands where it should.
#[test]
fn positions_are_utf16_by_default_and_utf8_when_offered() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let spec = dir.join("api.yaml");
    std::fs::write(&spec, UNICODE_SPEC).unwrap();
    let uri = file_uri(&spec);
    let line = UNICODE_SPEC.lines().nth(3).unwrap();
    let post = line.find("post").unwrap();
    for (offered, utf8) in [(vec![], false), (vec!["utf-8", "utf-16"], true)] {
        let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&offered));
        let negotiated = &client.capabilities["capabilities"]["positionEncoding"];
        assert_eq!(negotiated, if utf8 { "utf-8" } else { "utf-16" });
        client.open(&uri, UNICODE_SPEC);
        let ds = diagnostics(&client.next_publish(&uri, WAIT));
        let d = ds
            .iter()
            .find(|d| code(d) == "missing-idempotency-key")
            .unwrap();
        let character = |s: &str| if utf8 { s.len() } else { utf16_len(s) } as u64;
        assert_eq!(d["range"]["start"]["line"], 3);
        assert_eq!(d["range"]["start"]["character"], character(&line[..post]));
        assert_eq!(d["range"]["end"]["character"], character(&line[..post + 4]));
        // (Code points, as `check` counts them, would be neither.)
        assert_ne!(
            line[..post].chars().count() as u64,
            character(&line[..post])
        );

        // A required key typed just inside `{post: {`, placed in the negotiated units.
        let at = line.find("{post: {").unwrap() + "{post: {".len();
        let key = "parameters: [{name: Idempotency-Key, in: header, required: true, schema: \
                   {type: string}}], ";
        let pos = json!({"line": 3, "character": character(&line[..at])});
        let edit = json!([{"range": {"start": pos, "end": pos}, "text": key}]);
        client.notify("textDocument/didChange", change(&uri, 2, edit));
        let after = client.publish_where(&uri, WAIT, |p| p["version"] == 2);
        let ds = diagnostics(&after);
        assert!(
            !ds.iter()
                .any(|d| code(d) == "missing-idempotency-key" || code(d) == "input"),
            "{ds:?}"
        );
        let (status, stderr) = client.shutdown();
        assert_eq!(status, Some(0), "{stderr}");
    }
}

/// A finding inside a `$ref`'d fragment is the fragment's; editing the fragment's unsaved
/// buffer lints the root that reaches it again, and a file whose findings went away is told
/// so with an empty list.
#[test]
fn a_fragments_findings_follow_its_unsaved_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let root = dir.join("api.yaml");
    let fragment = dir.join("payments.yaml");
    std::fs::write(
        &root,
        "openapi: 3.1.0\ninfo: {title: Shop, version: 1.0.0}\npaths:\n  /payments:\n    \
         $ref: 'payments.yaml'\n",
    )
    .unwrap();
    let fragment_text = "post:\n  operationId: createPayment\n  responses:\n    '201':\n      \
                         description: Created\n";
    std::fs::write(&fragment, fragment_text).unwrap();
    let (root_uri, fragment_uri) = (file_uri(&root), file_uri(&fragment));
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&root_uri, &std::fs::read_to_string(&root).unwrap());
    let published = client.next_publish(&fragment_uri, WAIT);
    let ds = diagnostics(&published);
    assert!(
        ds.iter().any(|d| code(d) == "missing-idempotency-key"),
        "{ds:?}"
    );
    assert_eq!(
        ds[0]["range"]["start"]["line"], 0,
        "at `post:` in the fragment"
    );

    // The root broken mid-typing: its error is shown in it, and the fragment's finding stays
    // (hover still finds it).
    let root_text = std::fs::read_to_string(&root).unwrap();
    let broken = json!([{"text": format!("{root_text}  /x: [\n")}]);
    client.notify("textDocument/didChange", change(&root_uri, 2, broken));
    let errors = diagnostics(&client.publish_where(&root_uri, WAIT, |p| p["version"] == 2));
    assert_eq!(errors.len(), 1, "{errors:?}");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": fragment_uri}, "position": ds[0]["range"]["start"]}),
    );
    assert!(hover["contents"]["value"].as_str().is_some(), "{hover}");
    let restored = json!([{"text": root_text}]);
    client.notify("textDocument/didChange", change(&root_uri, 3, restored));
    let fine = client.publish_where(&root_uri, WAIT, |p| p["version"] == 3);
    assert_eq!(fine["diagnostics"], json!([]));

    client.open(&fragment_uri, fragment_text);
    let unsaved = fragment_text.replace("post:\n", "post:\n  x-idempotency: false\n");
    client.notify(
        "textDocument/didChange",
        change(&fragment_uri, 2, json!([{"text": unsaved}])),
    );
    let cleared = client.publish_where(&fragment_uri, WAIT, |p| diagnostics(p).is_empty());
    assert_eq!(cleared["diagnostics"], json!([]));
    // The file on the disk is as it was: the buffer won.
    assert_eq!(std::fs::read_to_string(&fragment).unwrap(), fragment_text);

    // The root closed, the open fragment is linted on its own (through the root on the disk),
    // and still as it is typed.
    client.notify(
        "textDocument/didChange",
        change(&fragment_uri, 3, json!([{"text": fragment_text}])),
    );
    client.publish_where(&fragment_uri, WAIT, |p| !diagnostics(p).is_empty());
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": root_uri}}),
    );
    let alone = client.publish_where(&fragment_uri, WAIT, |p| {
        diagnostics(p)
            .iter()
            .any(|d| code(d) == "missing-idempotency-key")
    });
    assert_eq!(alone["version"], 3);
    let unsaved = fragment_text.replace("post:\n", "post:\n  x-idempotency: false\n");
    client.notify(
        "textDocument/didChange",
        change(&fragment_uri, 4, json!([{"text": unsaved}])),
    );
    let cleared = client.publish_where(&fragment_uri, WAIT, |p| p["version"] == 4);
    assert_eq!(cleared["diagnostics"], json!([]));
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// A buffer that stops being an OpenAPI document (emptied, its `openapi:` line commented out)
/// shows nothing, at its new version, and hovers nothing: no finding of the last lint stays.
#[test]
fn a_document_that_is_no_spec_any_more_shows_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let spec = dir.join("api.yaml");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payments-api.yaml"),
    )
    .unwrap();
    std::fs::write(&spec, &text).unwrap();
    let uri = file_uri(&spec);
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&uri, &text);
    let first = client.publish_where(&uri, WAIT, |p| !diagnostics(p).is_empty());
    let at = diagnostics(&first)[0]["range"]["start"].clone();
    let commented = text.replacen("openapi:", "# openapi:", 1);
    // (Version 3 changes nothing shown: only a change of what is shown is published.)
    for (version, new) in [
        (2, commented.as_str()),
        (3, ""),
        (4, text.as_str()),
        (5, ""),
    ] {
        client.notify(
            "textDocument/didChange",
            change(&uri, version, json!([{ "text": new }])),
        );
        if version == 3 {
            continue;
        }
        let published = client.publish_where(&uri, WAIT, |p| p["version"] == version);
        assert_eq!(
            diagnostics(&published).is_empty(),
            version != 4,
            "version {version}: {published}"
        );
    }
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": at}),
    );
    assert_eq!(hover, Value::Null);
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// A fragment opened with no document open shows the findings of the documents under the
/// workspace that reach it; a YAML file that is no part of any API shows nothing.
#[test]
fn a_fragment_opened_alone_is_linted_through_the_documents_that_reach_it() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    std::fs::write(
        dir.join("api.yaml"),
        "openapi: 3.1.0\ninfo: {title: Shop, version: 1.0.0}\npaths:\n  /payments:\n    \
         $ref: 'payments.yaml'\n",
    )
    .unwrap();
    let fragment = dir.join("payments.yaml");
    let text = "post:\n  operationId: createPayment\n  responses:\n    '201':\n      \
                description: Created\n";
    std::fs::write(&fragment, text).unwrap();
    let workflow = dir.join("ci.yaml");
    let workflow_text = "on: push\njobs: {test: {runs-on: ubuntu-latest}}\n";
    std::fs::write(&workflow, workflow_text).unwrap();
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&file_uri(&workflow), workflow_text);
    client.open(&file_uri(&fragment), text);
    let ds = diagnostics(&client.next_publish(&file_uri(&fragment), WAIT));
    assert!(
        ds.iter().any(|d| code(d) == "missing-idempotency-key"),
        "{ds:?}"
    );
    // (The worker lints in turn, the workflow before the fragment: its publish, had there
    // been one, came first.)
    let workflow_uri = file_uri(&workflow);
    let about_workflow = client
        .drain_pending()
        .into_iter()
        .filter(|m| m["params"]["uri"] == workflow_uri.as_str())
        .collect::<Vec<_>>();
    assert!(about_workflow.is_empty(), "{about_workflow:?}");
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// The configuration's mistakes are shown in the configuration file, and fixing its buffer
/// lints the documents again under it.
#[test]
fn configuration_errors_are_shown_in_the_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let spec = dir.join("api.yaml");
    std::fs::write(&spec, UNICODE_SPEC).unwrap();
    let config = dir.join(".idemlint.yaml");
    std::fs::write(&config, "rules:\n  missing-idempotency-keys: off\n").unwrap();
    let (uri, config_uri) = (file_uri(&spec), file_uri(&config));
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&uri, UNICODE_SPEC);
    let ds = diagnostics(&client.next_publish(&config_uri, WAIT));
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(code(&ds[0]), "configuration");
    assert_eq!(ds[0]["range"]["start"]["line"], 1);

    // Corrected on the disk: the watcher's notice lints again, under the rule's new level.
    std::fs::write(&config, "rules:\n  missing-idempotency-key: warning\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": config_uri, "type": 2}]}),
    );
    let cleared = client.publish_where(&config_uri, WAIT, |p| diagnostics(p).is_empty());
    assert_eq!(cleared["diagnostics"], json!([]));
    let ds = diagnostics(&client.next_publish(&uri, WAIT));
    let d = ds
        .iter()
        .find(|d| code(d) == "missing-idempotency-key")
        .unwrap();
    assert_eq!(d["severity"], 2, "a warning now");
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// "Ignore RULE for this operation" and "… on this line", applied, silence the finding, in
/// block and in flow YAML.
#[test]
fn suppressions_from_code_actions_silence_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let block = "openapi: 3.1.0\ninfo:\n  title: Shop\n  version: 1.0.0\npaths:\n  /payments:\n    \
                 post:\n      operationId: createPayment\n      responses:\n        '201':\n          \
                 description: Created\n";
    for (name, text, title) in [
        ("block.yaml", block, "for this operation"),
        ("block-line.yaml", block, "on this line"),
        ("flow.yaml", UNICODE_SPEC, "for this operation"),
        ("flow-line.yaml", UNICODE_SPEC, "on this line"),
    ] {
        let spec = dir.join(name);
        std::fs::write(&spec, text).unwrap();
        let uri = file_uri(&spec);
        let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
        client.open(&uri, text);
        let ds = diagnostics(&client.next_publish(&uri, WAIT));
        let d = ds
            .iter()
            .find(|d| code(d) == "missing-idempotency-key")
            .unwrap();
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": d["range"],
                   "context": {"diagnostics": [d], "only": ["quickfix"]}}),
        );
        let wanted = format!("Ignore missing-idempotency-key {title}");
        let action = actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["title"] == wanted.as_str())
            .unwrap_or_else(|| panic!("{wanted} in {actions}"));
        let fixed = apply_workspace_edit(text, &action["edit"], &uri, false);
        assert!(
            fixed.contains("missing-idempotency-key: TODO say why"),
            "{fixed}"
        );
        client.notify(
            "textDocument/didChange",
            change(&uri, 2, json!([{"text": fixed}])),
        );
        let after = diagnostics(&client.publish_where(&uri, WAIT, |p| p["version"] == 2));
        assert!(
            !after
                .iter()
                .any(|d| code(d) == "missing-idempotency-key" || code(d) == "input"),
            "{name}: {after:?}\n{fixed}"
        );
        let (status, _) = client.shutdown();
        assert_eq!(status, Some(0));
    }

    // A suppression cannot silence `unused-suppression`: no action offers one.
    let stale = "openapi: 3.1.0\ninfo: {title: Shop, version: 1.0.0}\npaths:\n  /payments:\n    \
                 get:  # idemlint-ignore missing-idempotency-key: stale\n      responses:\n        \
                 '200': {description: OK}\n";
    let spec = dir.join("stale.yaml");
    std::fs::write(&spec, stale).unwrap();
    let uri = file_uri(&spec);
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&uri, stale);
    let ds = diagnostics(&client.next_publish(&uri, WAIT));
    let d = ds
        .iter()
        .find(|d| code(d) == "unused-suppression")
        .unwrap_or_else(|| panic!("{ds:?}"));
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d["range"],
               "context": {"diagnostics": [d], "only": ["quickfix"]}}),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["title"].as_str())
        .collect();
    assert!(!titles.is_empty(), "its fix, taking the comment out");
    assert!(
        titles.iter().all(|t| !t.starts_with("Ignore")),
        "{titles:?}"
    );
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// "Fix all idemlint problems" of the document `uri`, asked as an editor's format-on-save asks
/// it (`only: source.fixAll`), and resolved: the action with its edit.
fn fix_all(client: &mut Client, uri: &str) -> Value {
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
               "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "source.fixAll.idemlint")
        .unwrap_or_else(|| panic!("{actions}"))
        .clone();
    assert_eq!(action["title"], "Fix all idemlint problems");
    client.request("codeAction/resolve", action)
}

/// "Fix all idemlint problems" leaves the buffer as `check --fix` leaves the file.
#[test]
fn fix_all_equals_check_fix() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let spec = dir.join("payments-api.yaml");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payments-api.yaml");
    let text = std::fs::read_to_string(example).unwrap();
    std::fs::write(&spec, &text).unwrap();
    let uri = file_uri(&spec);
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&uri, &text);
    client.next_publish(&uri, WAIT);
    let resolved = fix_all(&mut client, &uri);
    let fixed = apply_workspace_edit(&text, &resolved["edit"], &uri, false);

    let status = Command::new(BIN)
        .current_dir(&dir)
        .args(["check", "--fix", "--fail-on", "never", "payments-api.yaml"])
        .status()
        .unwrap();
    assert!(status.success());
    let written = std::fs::read_to_string(&spec).unwrap();
    assert_ne!(written, text, "the example has safe fixes");
    assert_eq!(fixed, written);
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// "Fix all" reads the unsaved buffer of a file the document `$ref`s, and edits that file too,
/// at its buffer's version: the shared 409 of the buffer (not of the disk, which has its
/// Retry-After) gets one, as `check --fix` gives it once the buffer is saved.
#[test]
fn fix_all_fixes_a_referenced_files_unsaved_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let api = "openapi: 3.0.3
info: {title: Payouts, version: '1'}
paths:
  /payouts:
    post:
      operationId: createPayout
      parameters:
        - {name: Idempotency-Key, in: header, required: true, schema: {type: string, maxLength: 255}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {amount: {type: integer}}}
      responses:
        '201': {description: Created}
        '400': {description: The key is missing}
        '409': {$ref: 'common.yaml#/Conflict'}
        '422': {description: The key was used with another payload}
";
    let on_disk = "Conflict:
  description: A request with this key is in progress
  headers:
    Retry-After:
      schema: {type: integer}
";
    let buffer = "Conflict:
  description: A request with this key is in progress
";
    std::fs::write(dir.join("api.yaml"), api).unwrap();
    std::fs::write(dir.join("common.yaml"), on_disk).unwrap();
    let (api_uri, common_uri) = (
        file_uri(&dir.join("api.yaml")),
        file_uri(&dir.join("common.yaml")),
    );
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&api_uri, api);
    client.next_publish(&api_uri, WAIT);
    client.open(&common_uri, buffer);
    // (Found at the `$ref`, and only once the buffer without the header is open.)
    client.publish_where(&api_uri, WAIT, |p| {
        diagnostics(p)
            .iter()
            .any(|d| code(d) == "conflict-without-retry-after")
    });
    let resolved = fix_all(&mut client, &api_uri);
    let edit = &resolved["edit"];
    let of_common: Vec<&Value> = edit["documentChanges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["textDocument"]["uri"] == common_uri.as_str())
        .collect();
    assert_eq!(of_common.len(), 1, "{edit}");
    assert_eq!(
        of_common[0]["textDocument"]["version"], 1,
        "the buffer's version"
    );
    let fixed = apply_workspace_edit(buffer, edit, &common_uri, false);
    assert_eq!(apply_workspace_edit(api, edit, &api_uri, false), api);

    std::fs::write(dir.join("common.yaml"), buffer).unwrap();
    let status = Command::new(BIN)
        .current_dir(&dir)
        .args(["check", "--fix", "--fail-on", "never", "api.yaml"])
        .status()
        .unwrap();
    assert!(status.success());
    let written = std::fs::read_to_string(dir.join("common.yaml")).unwrap();
    assert_ne!(written, buffer, "the shared 409 gets a Retry-After");
    assert_eq!(fixed, written);
    let (status, _) = client.shutdown();
    assert_eq!(status, Some(0));
}

/// `exit` without `shutdown` is exit code 1 (LSP 3.17), and requests after `shutdown` are
/// refused.
#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.notify("exit", Value::Null);
    let (status, _) = client.wait();
    assert_eq!(status, Some(1));

    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    // A second `initialize` is an invalid request, not an unknown method.
    let again = client.request("initialize", json!({"capabilities": {}}));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    let refused = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": file_uri(&dir.join("a.yaml"))},
               "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(refused["error"]["code"], -32600);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait().0, Some(0));
}

/// A tiny PRNG (xorshift64*), so the edits are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// 2,000 random insertions and deletions, sent without waiting, on a 1 MB spec: the server
/// neither crashes nor panics, and every diagnostic it publishes lies inside its document (the
/// last publish inside the last text exactly, every earlier one inside the lines of its
/// version).
#[test]
fn random_edits_of_a_large_spec_never_crash_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path().canonicalize().unwrap();
    let spec = dir.join("large.yaml");
    let mut text = spec_gen::yaml(1_000_000);
    std::fs::write(&spec, &text).unwrap();
    let uri = file_uri(&spec);
    let mut client = Client::start(Path::new(BIN), &dir, &dir, capabilities(&[]));
    client.open(&uri, &text);
    let original = text.clone();
    let first = client.publish_where(&uri, WAIT, |p| p["version"] == 1);
    let mut rng = Rng(0x1de4_11a7);
    // Lines of each version (as LSP counts them: a text ending in a line end has an empty last
    // line), to check the publishes of versions since replaced.
    let mut lines = vec![0usize, text.split('\n').count()];
    let pieces = [
        "",
        "x",
        "é",
        "😀",
        ":",
        " ",
        "\n",
        "\r\n",
        "  - ",
        "{",
        "}",
        "'",
        "post:\n  ",
    ];
    for version in 2..2002 {
        // One edit in 20 at the very end of the document.
        let start = if rng.below(20) == 0 {
            text.len()
        } else {
            rng.below(text.len())
        };
        let start = (0..=start)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap();
        let len = if rng.below(2) == 0 { 0 } else { rng.below(40) };
        let end = (start + len).min(text.len());
        let end = (end..=text.len())
            .find(|&i| text.is_char_boundary(i))
            .unwrap();
        let insert = pieces[rng.below(pieces.len())];
        let position = |at: usize| {
            let before = &text[..at];
            let line = before.matches('\n').count();
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            json!({"line": line, "character": utf16_len(&text[line_start..at])})
        };
        let edit = json!([{"range": {"start": position(start), "end": position(end)},
                           "text": insert}]);
        text.replace_range(start..end, insert);
        lines.push(text.split('\n').count());
        client.notify("textDocument/didChange", change(&uri, version, edit));
    }
    // Every edit was applied as the client applied it: the last publish is of the last
    // version (whatever it found).
    let last = client.publish_where(&uri, WAIT, |p| p["version"] == 2001);
    for publish in client
        .drain_pending()
        .iter()
        .filter(|m| m["params"]["uri"] == uri.as_str())
        .map(|m| m["params"].clone())
        .chain([last.clone()])
    {
        let version = publish["version"].as_u64().unwrap() as usize;
        for d in diagnostics(&publish) {
            let end = d["range"]["end"]["line"].as_u64().unwrap() as usize;
            assert!(end < lines[version], "{d} past version {version}'s end");
        }
    }
    for d in diagnostics(&last) {
        for side in ["start", "end"] {
            let p = &d["range"][side];
            let (line, character) = (
                p["line"].as_u64().unwrap(),
                p["character"].as_u64().unwrap(),
            );
            let content = text
                .split('\n')
                .nth(line as usize)
                .unwrap_or_else(|| panic!("{d}"));
            assert!(character as usize <= utf16_len(content), "{d}");
        }
    }
    // Back to the spec as it was opened, the server shows what it showed then: nothing of the
    // 2,000 edits stays behind.
    client.notify(
        "textDocument/didChange",
        change(&uri, 2002, json!([{ "text": original }])),
    );
    let back = client.publish_where(&uri, WAIT, |p| p["version"] == 2002);
    assert_eq!(placed(&diagnostics(&back)), placed(&diagnostics(&first)));
    let (status, stderr) = client.shutdown();
    assert_eq!(status, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
