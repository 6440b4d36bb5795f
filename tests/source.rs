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
