//! Encodings and line ends: positions stay exact with a BOM, CRLF and non-ASCII text.

mod common;

const SPEC: &str = "openapi: 3.1.0\ninfo:\n  title: Überweisungen — 送金 API\n  version: '1'\npaths:\n  /zahlungen:\n    description: Zahlungen für Kunden in München\n    post:\n      responses:\n        '201': {description: ok}\n";

fn lint_text(name: &str, text: &[u8]) -> (String, u32, u32) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let report = common::lint(&[path.to_str().unwrap()]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.findings.len(), 1, "{}", common::concise(&report));
    let f = &report.findings[0];
    (common::key_at(f), f.line, f.column)
}

#[test]
fn bom_crlf_and_non_ascii_keep_positions_exact() {
    let plain = lint_text("a.yaml", SPEC.as_bytes());
    assert_eq!(plain, ("post".to_string(), 8, 5));
    let bom = [b"\xEF\xBB\xBF".as_slice(), SPEC.as_bytes()].concat();
    assert_eq!(lint_text("b.yaml", &bom), plain);
    let crlf = SPEC.replace('\n', "\r\n");
    assert_eq!(lint_text("c.yaml", crlf.as_bytes()), plain);
}

#[test]
fn json_columns_count_code_points() {
    let json = "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"送金\", \"version\": \"1\"}, \"paths\": {\"/zahlungen\": {\"post\": {\"responses\": {}}}}}";
    let (key, line, column) = lint_text("d.json", json.as_bytes());
    assert_eq!((key.as_str(), line), ("post", 1));
    let byte = json.find("\"post\"").unwrap();
    assert_eq!(column as usize, json[..byte].chars().count() + 1);
    assert!(
        column as usize != byte + 1,
        "bytes and code points differ here"
    );
}

#[test]
fn non_utf8_input_is_an_error_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.yaml");
    std::fs::write(&path, b"openapi: 3.1.0\ninfo:\n  title: caf\xE9\n").unwrap();
    let report = common::lint(&[path.to_str().unwrap()]);
    assert_eq!(report.errors.len(), 1);
    let e = &report.errors[0];
    assert_eq!((e.line, e.column), (3, 13));
    assert!(e.message.contains("not UTF-8"), "{}", e.message);
}

/// A Swagger 2.0 document whose quoted scalars continue on a line at their key's column, as
/// Harbor's swagger.yaml does (`description: 'first line` under an 8-space key, the next line at
/// 8 spaces too): invalid YAML 1.2, but libyaml reads it and real specs ship it. Single and
/// double quotes, escaped quotes, at several depths; the findings come after each of them.
const CONTINUED_AT_KEY_COLUMN: &str = r#"swagger: '2.0'
info:
  title: Harbor-like API
  version: '2.0'
  description: "Descriptions that continue
  at their key's column, as Harbor's do."
definitions:
  Quota:
    type: object
    properties:
      storage_delta:
        type: integer
        description: 'Bytes to add to the quota,
        or to take off it when negative.'
      note:
        type: string
        description: "A \"note\" with a backslash \\,
        on two lines."
paths:
  /projects:
    head:
      summary: Check if the project name user provided already exists.
      description: 'This endpoint is used to check if the project name provided already exist.
      It only reads.'
      parameters:
        - name: project_name
          in: query
          type: string
          description: 'The name of the project,
          in the query.'
      responses:
        '200':
          description: 'The project exists:
          nothing to do.'
    post:
      summary: Create a new project.
      description: "This endpoint is for user to create a new project,
      it''s not a 'quoted' end."
      responses:
        '201':
          description: "Created
          at last."
  /projects/{id}/quota:
    patch:
      description: 'It''s the quota,
      changed by a delta.'
      parameters:
        - {name: id, in: path, required: true, type: string}
        - {name: quota, in: body, required: true, schema: {$ref: '#/definitions/Quota'}}
      responses:
        '200': {description: OK}
"#;

/// (line, column) of the `n`th (from 0) line equal to `line` in `text`, at its first non-space.
fn position_of(text: &str, line: &str, n: usize) -> (u32, u32) {
    let (i, l) = text
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == line)
        .nth(n)
        .unwrap_or_else(|| panic!("no {line:?}"));
    (i as u32 + 1, (l.len() - l.trim_start().len()) as u32 + 1)
}

#[test]
fn quoted_scalars_continued_at_their_key_column_are_read_and_positions_hold() {
    let text = CONTINUED_AT_KEY_COLUMN;
    assert!(
        text.contains("        description: 'Bytes to add to the quota,\n        or to take"),
        "an 8-space key whose scalar continues at 8 spaces"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swagger.yaml");
    std::fs::write(&path, text).unwrap();
    let report = common::lint(&[path.to_str().unwrap()]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let found: Vec<(&str, String, u32, u32)> = report
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), common::key_at(f), f.line, f.column))
        .collect();
    let (post_line, post_col) = position_of(text, "    post:", 0);
    let (patch_line, patch_col) = position_of(text, "    patch:", 0);
    assert_eq!(
        found,
        [
            (
                "missing-idempotency-key",
                "post".to_string(),
                post_line,
                post_col
            ),
            (
                "incremental-update",
                "patch".to_string(),
                patch_line,
                patch_col
            ),
        ],
        "{}",
        common::concise(&report)
    );
    assert_eq!((post_line, patch_line), (35, 44));
    // The relative change is a label in the definitions, after two continued scalars.
    let delta = &report.findings[1].labels[0];
    assert_eq!(
        (delta.line, delta.column),
        position_of(text, "      storage_delta:", 0)
    );
    assert_eq!((delta.line, delta.column), (11, 7));

    // The values are read as if each scalar were on one line: the same findings, the same
    // messages, as the document with its scalars joined.
    let joined = text
        .replace("\n        or to", " or to")
        .replace(",\n        on", ", on")
        .replace("exist.\n      It", "exist. It")
        .replace(",\n          in the", ", in the")
        .replace(":\n          nothing", ": nothing")
        .replace(",\n      it''s", ", it''s")
        .replace("Created\n          at", "Created at")
        .replace(",\n      changed", ", changed")
        .replace("continue\n  at", "continue at");
    assert_eq!(joined.lines().count(), text.lines().count() - 9, "{joined}");
    let one_line = dir.path().join("joined.yaml");
    std::fs::write(&one_line, &joined).unwrap();
    let joined_report = common::lint(&[one_line.to_str().unwrap()]);
    assert!(
        joined_report.errors.is_empty(),
        "{:?}",
        joined_report.errors
    );
    let messages = |r: &idemlint::report::Report| {
        r.findings
            .iter()
            .map(|f| (f.rule, f.message.clone(), f.pointer.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(messages(&report), messages(&joined_report));
}

#[test]
fn a_broken_document_is_still_invalid_yaml() {
    let broken = [
        // A quoted scalar that never ends.
        "openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\n  description: 'never\n  closed\npaths: {}\n",
        // A plain scalar continued at its key's column: libyaml refuses it too.
        "openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\n  description: first\n  second: x\n third\npaths: {}\n",
        // A continued quoted scalar, and a flow mapping left open further down.
        "openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\n  description: 'first\n  second'\npaths:\n  /a:\n    post: {responses: {'201': {description: ok}}\n  /b: x\n",
    ];
    for (n, text) in broken.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("api.yaml"), text).unwrap();
        let out = assert_cmd::Command::cargo_bin("idemlint")
            .unwrap()
            .current_dir(dir.path())
            .args(["check", "api.yaml", "--format", "concise"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{n}: {stdout}");
        assert!(
            stdout.starts_with("api.yaml:") && stdout.contains(": error[input] invalid YAML: "),
            "{n}: {stdout}"
        );
    }
}
