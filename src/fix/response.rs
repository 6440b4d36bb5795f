//! Fixes that declare what an operation answers: a `Retry-After` header on a response
//! (`conflict-without-retry-after`, `retry-after-missing`), and a whole response under a status
//! the operation does not declare (`missing-conflict-response`, `missing-mismatch-response`,
//! `missing-missing-key-response`).
//!
//! A header goes into the response object itself, in whatever file it lives: a response shared
//! through `$ref` gets it once, where it is defined, and every finding about an operation that
//! shares it builds the very same edit (which the planner writes once).
//!
//! A response is declared the way the API already declares it elsewhere, when it does:
//! - the `$ref` that the API's other operations use most for that status (written relative to
//!   the file edited);
//! - else a response component (`components/responses` in 3.x, top-level `responses` in 2.0)
//!   whose name or description fits the status (`Conflict` for a 409);
//! - else an inline response whose description states what it answers.
//!
//! A 409 for a request still in progress carries a `Retry-After` header: written inline, or
//! added to the reused component when it has none.

use std::collections::HashMap;

use super::editor::{Editor, Refusal};
use super::value::Value;
use super::{Edit, Fix};
use crate::model::{Api, Operation, SpecVersion};
use crate::resolve::{At, FileId};

/// What the Retry-After of a 409 that answers a request still in progress says.
pub const RETRY_AFTER_IN_PROGRESS: &str = "Seconds to wait before retrying with the same key.";
/// What the Retry-After of a 429 says.
pub const RETRY_AFTER_RATE_LIMITED: &str = "Seconds to wait before sending another request.";
/// What the Retry-After of a 503 (or any other status) says.
pub const RETRY_AFTER_UNAVAILABLE: &str = "Seconds to wait before retrying.";

/// The Retry-After description for a response of `status`.
pub fn retry_after_description(status: &str) -> &'static str {
    match status {
        "429" => RETRY_AFTER_RATE_LIMITED,
        "409" => RETRY_AFTER_IN_PROGRESS,
        _ => RETRY_AFTER_UNAVAILABLE,
    }
}

/// A `Retry-After` header object of integer seconds: `{description, schema: {type: integer}}`
/// in 3.x, `{description, type: integer}` in Swagger 2.0 (whose headers carry their type).
pub fn retry_after_header(version: SpecVersion, description: &str) -> Value {
    let description = ("description", Value::str(description));
    match version {
        SpecVersion::Swagger2 => Value::map([description, ("type", Value::str("integer"))]),
        SpecVersion::OpenApi30 | SpecVersion::OpenApi31 => Value::map([
            description,
            ("schema", Value::map([("type", Value::str("integer"))])),
        ]),
    }
}

/// The edit that adds a `Retry-After` header to `response` (the response object, resolved):
/// an entry of its `headers`, or a `headers` mapping of its own when it has none.
pub fn add_retry_after(
    editor: &Editor<'_>,
    version: SpecVersion,
    response: At<'_>,
    description: &str,
) -> Result<Edit, Refusal> {
    if response.node.as_map().is_none() {
        return Err("the response is not a mapping written out".into());
    }
    if response.node.get("$ref").is_some() {
        return Err("the response is a `$ref` that could not be followed".into());
    }
    let header = retry_after_header(version, description);
    match response.get("headers") {
        Some(headers) if headers.node.get("$ref").is_some() => {
            Err("its `headers` is a `$ref`, which OpenAPI does not allow there".into())
        }
        Some(headers) => editor.add_entry(headers, "Retry-After", &header),
        None => editor.add_entry(response, "headers", &Value::map([("Retry-After", header)])),
    }
}

/// The fix of a `status` response (`response`, resolved) that has no `Retry-After`.
pub fn retry_after_fix(
    editor: &Editor<'_>,
    version: SpecVersion,
    status: &str,
    response: At<'_>,
) -> Result<Fix, Refusal> {
    let edit = add_retry_after(editor, version, response, retry_after_description(status))?;
    Ok(Fix::safe(
        format!("Add a Retry-After header to the {status} response"),
        vec![edit],
    ))
}

/// What a declared response answers: its inline description, and whether it tells when to
/// retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A request whose key is the key of one still being processed (a 409): with Retry-After.
    InProgress,
    /// A request without its idempotency key, or with a malformed one (a 400).
    MissingKey,
    /// A key used before with another payload (a 422, or the profile's status).
    Mismatch,
}

impl Answer {
    /// The description of an inline response for this answer.
    pub fn description(self) -> &'static str {
        match self {
            Answer::InProgress => {
                "A request with the same idempotency key is still being processed; retry after \
                 Retry-After seconds."
            }
            Answer::MissingKey => "The idempotency key is missing or malformed.",
            Answer::Mismatch => {
                "The idempotency key was already used with a different request payload."
            }
        }
    }

    /// Words that, in a component's name or description (letters and digits only, in lower
    /// case), fit a response of this answer whatever its status; the status's reason phrase
    /// fits too (`conflict` for a 409).
    fn words(self) -> &'static [&'static str] {
        match self {
            Answer::InProgress => &["inprogress", "stillprocessing", "concurrent"],
            Answer::MissingKey => &["invalidrequest", "malformed", "missingkey"],
            Answer::Mismatch => &["keyreused", "mismatch", "reusedkey"],
        }
    }
}

/// A response the API already has, which a declaration refers to.
#[derive(Debug, Clone)]
struct Shared<'a> {
    /// The file it is in and its JSON pointer there (`/components/responses/Conflict`, as
    /// written: escaped; empty for a whole file).
    file: FileId,
    pointer: String,
    /// The response, every `$ref` followed.
    node: At<'a>,
}

/// Builds the fixes that declare a response on operations of one API. What it reuses is looked
/// for once a status, however many operations need it.
pub struct Declare<'e, 'a> {
    editor: &'e Editor<'a>,
    api: &'e Api<'a>,
    answer: Answer,
    chosen: std::cell::RefCell<HashMap<String, Option<Shared<'a>>>>,
}

impl<'e, 'a> Declare<'e, 'a> {
    pub fn new(editor: &'e Editor<'a>, api: &'e Api<'a>, answer: Answer) -> Self {
        Declare {
            editor,
            api,
            answer,
            chosen: Default::default(),
        }
    }

    /// The fix that adds a `status` response to `op`'s `responses` (made when it has none).
    pub fn fix(&self, op: &Operation<'a>, status: &str) -> Result<Fix, Refusal> {
        let bundle = self.editor.bundle();
        let shared = self
            .chosen
            .borrow_mut()
            .entry(status.to_string())
            .or_insert_with(|| self.reused(status))
            .clone();
        let responses = op.node.get("responses").map(|r| bundle.deref(r));
        // (The file the response is written into, which a `$ref` is relative to.)
        let file = responses.map_or(op.node.file, |r| r.file);
        let version = self.api.version;
        let mut edits = Vec::new();
        let (value, title) = match &shared {
            Some(shared) => {
                // (A file fetched from a URL is named by its URL: no path leads there.)
                let to = bundle.file(shared.file).source.path.to_str();
                let mut target = match to.filter(|p| crate::fetch::is_http(p)) {
                    Some(url) if shared.file != file => format!("{url}#{}", shared.pointer),
                    _ => self.editor.reference(file, shared.file, &shared.pointer),
                };
                if shared.pointer.is_empty() {
                    target.pop(); // (A whole file: `conflict.yaml`, not `conflict.yaml#`.)
                }
                let mut title =
                    format!("Declare a {status} response through `{}`", name_of(&target));
                if self.answer == Answer::InProgress && !has_retry_after(shared.node) {
                    // (Refused there, the response is declared all the same: a later pass
                    // reports its missing header, and why it cannot be added.)
                    if let Ok(edit) =
                        add_retry_after(self.editor, version, shared.node, RETRY_AFTER_IN_PROGRESS)
                    {
                        edits.push(edit);
                        title.push_str(" with Retry-After");
                    }
                }
                (Value::reference(target), title)
            }
            None => {
                let mut entries = vec![("description", Value::str(self.answer.description()))];
                let mut title = format!("Declare a {status} response");
                if self.answer == Answer::InProgress {
                    entries.push((
                        "headers",
                        Value::map([(
                            "Retry-After",
                            retry_after_header(version, RETRY_AFTER_IN_PROGRESS),
                        )]),
                    ));
                    title.push_str(" with Retry-After");
                }
                (Value::map(entries), title)
            }
        };
        let declare = match responses {
            Some(responses) => self.editor.add_entry(responses, status, &value)?,
            None => self
                .editor
                .add_entry(op.node, "responses", &Value::map([(status, value)]))?,
        };
        edits.insert(0, declare);
        Ok(Fix::safe(title, edits))
    }

    /// The response the API already has for `status`, if any fits: the most used `$ref` of the
    /// other operations' `status` responses, else a component whose name or description fits.
    fn reused(&self, status: &str) -> Option<Shared<'a>> {
        let bundle = self.editor.bundle();
        // (By target: how often used, and in what order first met.)
        let mut counted: Vec<(Shared<'a>, usize)> = Vec::new();
        for op in &self.api.operations {
            for r in &op.responses {
                if r.status != status || r.node.location() == r.declared {
                    continue;
                }
                let Some(reference) = op
                    .node
                    .get("responses")
                    .map(|rs| bundle.deref(rs))
                    .and_then(|rs| rs.get(r.status))
                    .filter(|d| d.location() == r.declared)
                else {
                    continue;
                };
                let Some(target) = reference.node.get("$ref").and_then(|t| t.as_str()) else {
                    continue;
                };
                let Some(hop) = bundle.one_hop(reference.file, target) else {
                    continue;
                };
                let pointer = target.split_once('#').map_or("", |(_, p)| p);
                if (pointer.is_empty() && hop.file == reference.file) || !self.fits_use(r.node) {
                    continue;
                }
                match counted
                    .iter_mut()
                    .find(|(s, _)| s.file == hop.file && s.pointer == pointer)
                {
                    Some((_, n)) => *n += 1,
                    None => counted.push((
                        Shared {
                            file: hop.file,
                            pointer: pointer.to_string(),
                            node: r.node,
                        },
                        1,
                    )),
                }
            }
        }
        // (The first of the most used: `max_by_key` would take the last.)
        let mut best: Option<(Shared<'a>, usize)> = None;
        for (shared, n) in counted {
            if best.as_ref().is_none_or(|(_, most)| n > *most) {
                best = Some((shared, n));
            }
        }
        if let Some((shared, _)) = best {
            return Some(shared);
        }
        self.component(status)
    }

    /// A response component of the root document whose name or description fits `status`.
    fn component(&self, status: &str) -> Option<Shared<'a>> {
        let bundle = self.editor.bundle();
        let root = bundle.root();
        let (components, prefix) = match self.api.version {
            SpecVersion::Swagger2 => (root.get("responses")?, "/responses"),
            _ => (
                root.get("components")?.get("responses")?,
                "/components/responses",
            ),
        };
        let phrase = reason_phrase(status);
        components.node.entries().iter().find_map(|e| {
            let node = bundle.deref(components.with(&e.value));
            let name = squeezed(&e.key.text);
            let described = node.node.get("description").and_then(|d| d.as_str());
            let fits = |text: &str| {
                (!phrase.is_empty() && text.contains(phrase))
                    || self.answer.words().iter().any(|w| text.contains(w))
            };
            // (A mismatch is said in many ways: "used before with a different payload".)
            let said = |d: &str| {
                fits(&squeezed(d))
                    || (self.answer == Answer::Mismatch
                        && crate::idempotency::mismatch_wording(d).is_some())
            };
            let named = fits(&name) || name.contains(status);
            (node.node.as_map().is_some()
                && (named || described.is_some_and(said))
                && self.fits_use(node))
            .then(|| Shared {
                file: root.file,
                pointer: format!("{prefix}/{}", escape(&e.key.text)),
                node,
            })
        })
    }

    /// Whether the response `node` may answer what this declaration answers: a 409 that
    /// speaks of the resource's state ("already exists") answers no request in progress.
    fn fits_use(&self, node: At<'_>) -> bool {
        if self.answer != Answer::InProgress {
            return true;
        }
        let said = node
            .node
            .get("description")
            .and_then(|d| d.as_str())
            .map(|d| crate::heuristics::words(crate::idempotency::short(d)))
            .unwrap_or_default();
        let business = said
            .iter()
            .any(|w| ["already", "exists", "status", "duplicate"].contains(&w.as_str()));
        !business || crate::idempotency::speaks_of_progress(&said)
    }
}

/// Whether the response `node` declares a `Retry-After` header (in any case).
fn has_retry_after(node: At<'_>) -> bool {
    node.node.get("headers").is_some_and(|h| {
        h.entries()
            .iter()
            .any(|e| e.key.text.eq_ignore_ascii_case("Retry-After"))
    })
}

/// The name a `$ref` gives its target: the last token of its pointer, else its file's name.
fn name_of(target: &str) -> String {
    let (file, pointer) = target.split_once('#').unwrap_or((target, ""));
    match pointer.rsplit('/').next().filter(|t| !t.is_empty()) {
        Some(token) => token.replace("~1", "/").replace("~0", "~"),
        None => file.rsplit('/').next().unwrap_or(file).to_string(),
    }
}

/// `token` as a JSON pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `text` in lower case without anything but letters and digits: `Bad_Request` → `badrequest`.
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The reason phrase of `status`, squeezed (`409` → `conflict`); empty for one not listed.
fn reason_phrase(status: &str) -> &'static str {
    match status {
        "400" => "badrequest",
        "403" => "forbidden",
        "409" => "conflict",
        "412" => "preconditionfailed",
        "422" => "unprocessable",
        "423" => "locked",
        "425" => "tooearly",
        "428" => "preconditionrequired",
        "429" => "toomanyrequests",
        "503" => "serviceunavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::Overlay;
    use crate::fix::apply;
    use crate::limits::Limits;
    use crate::resolve::{Bundle, ResolveOptions};
    use crate::source::{Format, SourceFile};

    /// The bundle of `files` (path, text; the first is the root), kept in memory.
    fn bundle(files: &[(&str, &str)]) -> Bundle {
        let mut overlay = Overlay::new(Box::new(crate::files::Disk));
        for (path, text) in files {
            overlay.set(format!("/virtual/{path}").into(), *text);
        }
        let (path, text) = files[0];
        let format = if path.ends_with(".json") {
            Format::Json
        } else {
            Format::Yaml
        };
        let root = SourceFile::new(
            format!("/virtual/{path}").into(),
            path.to_string(),
            text.to_string(),
            format,
        );
        let loaded = root.parse(&Limits::default()).expect("parses");
        let opts = ResolveOptions {
            outside_root: true,
            ..ResolveOptions::default()
        };
        let bundle = Bundle::load(root, loaded.root, loaded.duplicates, &overlay, &opts);
        assert!(bundle.ref_problems.is_empty(), "{:?}", bundle.ref_problems);
        bundle
    }

    /// Each file's text once `fix` is applied, by the name given.
    fn fixed(bundle: &Bundle, fix: &Fix) -> Vec<String> {
        (0..bundle.files.len())
            .map(|i| {
                let file = FileId(i as u32);
                let edits: Vec<&Edit> = fix.edits.iter().filter(|e| e.file == file).collect();
                let text = &bundle.file(file).source.text;
                let out = apply(text, &edits).expect("applies");
                // What was written still parses.
                let format = bundle.file(file).source.format;
                SourceFile::new("t".into(), "t".into(), out.clone(), format)
                    .parse(&Limits::default())
                    .unwrap_or_else(|e| panic!("{out}\n{e:?}"));
                out
            })
            .collect()
    }

    /// The fix declaring `status` on the operation at `path` (its only one, or `post`).
    fn declared(
        files: &[(&str, &str)],
        path: &str,
        status: &str,
        answer: Answer,
    ) -> (Fix, Vec<String>) {
        let bundle = bundle(files);
        let api = crate::model::build(&bundle).expect("an API");
        let editor = Editor::new(&bundle);
        let op = api
            .operations
            .iter()
            .find(|o| o.path.as_str() == path)
            .expect("the operation");
        let fix = Declare::new(&editor, &api, answer)
            .fix(op, status)
            .expect("a fix");
        let out = fixed(&bundle, &fix);
        (fix, out)
    }

    /// The fix adding Retry-After to the `status` response of the operation at `path`.
    fn retried(files: &[(&str, &str)], path: &str, status: &str) -> (Fix, Vec<String>) {
        let bundle = bundle(files);
        let api = crate::model::build(&bundle).expect("an API");
        let editor = Editor::new(&bundle);
        let op = api
            .operations
            .iter()
            .find(|o| o.path.as_str() == path)
            .expect("the operation");
        let r = op.response(status).expect("the response");
        let fix = retry_after_fix(&editor, api.version, status, r.node).expect("a fix");
        let out = fixed(&bundle, &fix);
        (fix, out)
    }

    const OAS30_BLOCK: &str = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    \
        post:\n      responses:\n        '201':\n          description: ok # made\n        \
        '409':\n          description: busy\n";

    #[test]
    fn a_block_response_gets_headers_with_retry_after() {
        let (fix, out) = retried(&[("api.yaml", OAS30_BLOCK)], "/a", "409");
        assert_eq!(fix.title, "Add a Retry-After header to the 409 response");
        assert_eq!(fix.applicability, crate::fix::Applicability::Safe);
        assert_eq!(
            out[0],
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
             responses:\n        '201':\n          description: ok # made\n        '409':\n          \
             description: busy\n          headers:\n            Retry-After:\n              \
             description: Seconds to wait before retrying with the same key.\n              \
             schema:\n                type: integer\n"
        );
    }

    #[test]
    fn existing_headers_get_an_entry_in_flow_style_and_crlf_is_kept() {
        let text = "swagger: '2.0'\r\ninfo: {title: t, version: '1'}\r\npaths:\r\n  /a:\r\n    \
                    get:\r\n      responses:\r\n        429: {description: slow down, headers: \
                    {X-Id: {type: string}}}\r\n";
        let (_, out) = retried(&[("api.yaml", text)], "/a", "429");
        assert_eq!(
            out[0],
            "swagger: '2.0'\r\ninfo: {title: t, version: '1'}\r\npaths:\r\n  /a:\r\n    \
             get:\r\n      responses:\r\n        429: {description: slow down, headers: {X-Id: \
             {type: string}, Retry-After: {description: Seconds to wait before sending another \
             request., type: integer}}}\r\n"
        );
    }

    #[test]
    fn a_shared_json_component_gets_the_header_where_it_is_defined() {
        let text = "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\"title\": \"t\", \"version\": \
                    \"1\"},\n  \"paths\": {\n    \"/a\": {\n      \"post\": {\n        \
                    \"responses\": {\n          \"503\": {\"$ref\": \
                    \"#/components/responses/Down\"}\n        }\n      }\n    }\n  },\n  \
                    \"components\": {\n    \"responses\": {\n      \"Down\": {\n        \
                    \"description\": \"down\"\n      }\n    }\n  }\n}\n";
        let (_, out) = retried(&[("api.json", text)], "/a", "503");
        assert_eq!(
            out[0],
            text.replace(
                "\"description\": \"down\"\n",
                "\"description\": \"down\",\n        \"headers\": {\n          \"Retry-After\": \
                 {\n            \"description\": \"Seconds to wait before \
                 retrying.\",\n            \"schema\": {\n              \"type\": \"integer\"\n            \
                 }\n          }\n        }\n"
            )
        );
    }

    #[test]
    fn a_response_in_another_file_is_edited_there() {
        let root = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses:\n        '409': {$ref: 'common/responses.yaml#/Conflict'}\n";
        let common = "Conflict:\n  description: in progress\n";
        let (_, out) = retried(
            &[("api.yaml", root), ("common/responses.yaml", common)],
            "/a",
            "409",
        );
        assert_eq!(out[0], root);
        assert_eq!(
            out[1],
            "Conflict:\n  description: in progress\n  headers:\n    Retry-After:\n      \
             description: Seconds to wait before retrying with the same key.\n      schema:\n        \
             type: integer\n"
        );
    }

    #[test]
    fn a_response_shared_through_an_anchor_is_refused() {
        let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nx-defs:\n  c: &c {description: \
                    busy}\npaths:\n  /a:\n    post:\n      responses:\n        '409': *c\n";
        let bundle = bundle(&[("api.yaml", text)]);
        let api = crate::model::build(&bundle).unwrap();
        let editor = Editor::new(&bundle);
        let r = api.operations[0].response("409").unwrap();
        let why = retry_after_fix(&editor, api.version, "409", r.node).unwrap_err();
        assert!(why.contains("anchor `&c`"), "{why}");
    }

    #[test]
    fn an_inline_409_is_declared_with_retry_after_after_a_comment() {
        let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses:\n        \"201\":\n          description: ok\n        # errors \
                    follow\nx-end: 1\n";
        let (fix, out) = declared(&[("api.yaml", text)], "/a", "409", Answer::InProgress);
        assert_eq!(fix.title, "Declare a 409 response with Retry-After");
        assert_eq!(
            out[0],
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
             responses:\n        \"201\":\n          description: ok\n        \"409\":\n          \
             description: A request with the same idempotency key is still being processed; retry \
             after Retry-After seconds.\n          headers:\n            Retry-After:\n              \
             description: Seconds to wait before retrying with the same key.\n              \
             schema:\n                type: integer\n        # errors follow\nx-end: 1\n"
        );
    }

    #[test]
    fn swagger2_json_without_responses_gets_them() {
        let text = "{\n    \"swagger\": \"2.0\",\n    \"info\": {\"title\": \"t\", \"version\": \
                    \"1\"},\n    \"paths\": {\n        \"/a\": {\n            \"post\": {\n                \
                    \"operationId\": \"a\"\n            }\n        }\n    }\n}";
        let (fix, out) = declared(&[("api.json", text)], "/a", "400", Answer::MissingKey);
        assert_eq!(fix.title, "Declare a 400 response");
        assert_eq!(
            out[0],
            "{\n    \"swagger\": \"2.0\",\n    \"info\": {\"title\": \"t\", \"version\": \
             \"1\"},\n    \"paths\": {\n        \"/a\": {\n            \"post\": {\n                \
             \"operationId\": \"a\",\n                \"responses\": {\n                    \
             \"400\": {\n                        \"description\": \"The idempotency key is \
             missing or malformed.\"\n                    }\n                }\n            }\n        \
             }\n    }\n}"
        );
    }

    #[test]
    fn swagger2_inline_409_header_carries_its_type() {
        let text = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses: {201: {description: ok}}\n";
        let (_, out) = declared(&[("api.yaml", text)], "/a", "409", Answer::InProgress);
        assert_eq!(
            out[0],
            "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
             responses: {201: {description: ok}, '409': {description: A request with the same \
             idempotency key is still being processed; retry after Retry-After seconds., headers: \
             {Retry-After: {description: Seconds to wait before retrying with the same key., type: \
             integer}}}}\n"
        );
    }

    #[test]
    fn the_most_used_ref_is_reused_and_written_relative_to_the_file_edited() {
        let root = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses:\n        '422': {$ref: '#/components/responses/Invalid'}\n  /b:\n    \
                    post:\n      responses:\n        '422': {$ref: '#/components/responses/Reused'}\n  \
                    /c:\n    post:\n      responses:\n        '422': {$ref: \
                    '#/components/responses/Reused'}\n  /d:\n    $ref: 'paths/d.yaml'\n\
                    components:\n  responses:\n    Invalid: {description: invalid}\n    Reused: \
                    {description: reused}\n";
        let d = "post:\n  responses:\n    '201': {description: ok}\n";
        let (fix, out) = declared(
            &[("api.yaml", root), ("paths/d.yaml", d)],
            "/d",
            "422",
            Answer::Mismatch,
        );
        assert_eq!(fix.title, "Declare a 422 response through `Reused`");
        assert_eq!(out[0], root);
        assert_eq!(
            out[1],
            "post:\n  responses:\n    '201': {description: ok}\n    '422':\n      $ref: \
             ../api.yaml#/components/responses/Reused\n"
        );
    }

    #[test]
    fn a_fitting_component_is_reused_and_given_retry_after() {
        let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses:\n        '201': {description: ok}\ncomponents:\n  responses:\n    \
                    Gone: {description: gone}\n    AlreadyExists: {description: 'Conflict: the \
                    resource already exists'}\n    Conflict:\n      description: A conflict\n";
        let (fix, out) = declared(&[("api.yaml", text)], "/a", "409", Answer::InProgress);
        assert_eq!(
            fix.title,
            "Declare a 409 response through `Conflict` with Retry-After"
        );
        assert_eq!(
            out[0],
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
             responses:\n        '201': {description: ok}\n        '409':\n          $ref: \
             '#/components/responses/Conflict'\ncomponents:\n  responses:\n    Gone: \
             {description: gone}\n    AlreadyExists: {description: 'Conflict: the resource already \
             exists'}\n    Conflict:\n      description: A conflict\n      headers:\n        \
             Retry-After:\n          description: Seconds to wait before retrying with the same \
             key.\n          schema:\n            type: integer\n"
        );
    }

    #[test]
    fn a_swagger2_component_is_found_under_top_level_responses() {
        let text = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses:\n        200: {description: ok}\nresponses:\n  Error400: \
                    {description: The request was invalid}\n";
        let (fix, out) = declared(&[("api.yaml", text)], "/a", "400", Answer::MissingKey);
        assert_eq!(fix.title, "Declare a 400 response through `Error400`");
        assert!(
            out[0].contains("        200: {description: ok}\n        400:\n          $ref: '#/responses/Error400'\n"),
            "{}",
            out[0]
        );
    }

    #[test]
    fn nothing_fitting_means_inline_and_names_are_read_back() {
        assert_eq!(name_of("#/components/responses/A~1B"), "A/B");
        assert_eq!(name_of("../common/conflict.yaml"), "conflict.yaml");
        assert_eq!(squeezed("Bad_Request"), "badrequest");
        assert_eq!(escape("a/b~"), "a~1b~0");
        let text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses: {'201': {description: ok}}\ncomponents:\n  responses:\n    NotFound: \
                    {description: missing}\n";
        let (fix, out) = declared(&[("api.yaml", text)], "/a", "422", Answer::Mismatch);
        assert_eq!(fix.title, "Declare a 422 response");
        assert!(
            out[0].contains("'422': {description: The idempotency key was already used with a different request payload.}}"),
            "{}",
            out[0]
        );
    }

    #[test]
    fn a_component_fits_by_what_it_says_and_not_by_another_status_name() {
        let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                    responses: {'201': {description: ok}}\ncomponents:\n  responses:\n    Conflict: \
                    {description: A conflict}\n    Reuse: {description: The key was used before with \
                    a different payload}\n";
        // A 425 (the status `x-idempotency` may give for concurrency) is no `Conflict`.
        let (fix, _) = declared(&[("api.yaml", text)], "/a", "425", Answer::InProgress);
        assert_eq!(fix.title, "Declare a 425 response with Retry-After");
        let (fix, _) = declared(&[("api.yaml", text)], "/a", "422", Answer::Mismatch);
        assert_eq!(fix.title, "Declare a 422 response through `Reuse`");
    }
}
