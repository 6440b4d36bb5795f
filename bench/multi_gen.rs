//! A generated multi-file OpenAPI 3.0 description, laid out like the large public ones that split
//! one file per operation: a root `openapi.yaml` whose paths `$ref` operation files under
//! `resources/<name>/`, shared `shared/parameters.yml` and `shared/responses.yml`, a model and
//! response files per resource, and `x-codeSamples` and response `examples` that `$ref` sample
//! files no rule needs (so they must not be loaded, nor count against the `$ref` budget).
//!
//! Each resource has a GET (list) and a POST (create). Every POST takes the shared
//! `Idempotency-Key` with its whole contract (409 with Retry-After, 422, 400, a documented key
//! lifetime), except every tenth resource's, which has no key: those are the only findings.
//! Deterministic, so tests can state the exact findings and benchmarks compare.

use std::fmt::Write as _;
use std::path::Path;

/// Files written for each resource: the two operation files, a model, two response files, three
/// code samples and one response example.
pub const FILES_PER_RESOURCE: usize = 9;

/// What a generated spec should give.
pub struct Generated {
    /// Files written, the root included.
    pub files: usize,
    pub operations: usize,
    /// Files a full load reads: the root, the shared files, and five per resource.
    pub loaded: usize,
    /// `(line, path)` of each POST whose operation has no key: its `post:` key in the root,
    /// column 5.
    pub unkeyed_posts: Vec<(u32, String)>,
}

/// Whether resource `i`'s POST goes without an idempotency key.
pub fn unkeyed(i: usize) -> bool {
    i.is_multiple_of(10)
}

/// Writes a spec of `resources` resources under `dir` (created if needed).
pub fn write(dir: &Path, resources: usize) -> std::io::Result<Generated> {
    let put = |rel: &str, text: &str| -> std::io::Result<()> {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a file under dir"))?;
        std::fs::write(path, text)
    };
    let mut root = String::from(
        "openapi: 3.0.3\ninfo:\n  title: Generated multi-file API\n  version: 1.0.0\n  \
         description: Idempotency keys are kept for 24 hours.\npaths:\n",
    );
    let mut line = root.lines().count() as u32;
    let mut unkeyed_posts = Vec::new();
    for i in 0..resources {
        let name = format!("r{i}");
        let _ = write!(
            root,
            "  /v2/{name}:\n    get:\n      $ref: 'resources/{name}/{name}_list.yml'\n    post:\n      \
             $ref: 'resources/{name}/{name}_create.yml'\n"
        );
        if unkeyed(i) {
            unkeyed_posts.push((line + 4, format!("/v2/{name}")));
        }
        line += 5;
        put(&format!("resources/{name}/{name}_list.yml"), &list(&name))?;
        put(
            &format!("resources/{name}/{name}_create.yml"),
            &create(&name, i),
        )?;
        put(
            &format!("resources/{name}/models/{name}.yml"),
            &model(&name),
        )?;
        put(
            &format!("resources/{name}/responses/list.yml"),
            &list_response(&name),
        )?;
        put(
            &format!("resources/{name}/responses/created.yml"),
            &created(&name),
        )?;
        for (sample, lang) in [
            ("curl/list", "cURL"),
            ("curl/create", "cURL"),
            ("python/create", "Python"),
        ] {
            put(
                &format!("resources/{name}/examples/{sample}.yml"),
                &format!(
                    "lang: {lang}\nsource: |-\n  # {sample} for {name}\n  client.{name}.call()\n"
                ),
            )?;
        }
        put(
            &format!("resources/{name}/examples/list.json"),
            &format!("{{\"items\": [{{\"id\": \"{name}-1\"}}]}}\n"),
        )?;
    }
    put("openapi.yaml", &root)?;
    put("shared/parameters.yml", PARAMETERS)?;
    put("shared/responses.yml", RESPONSES)?;
    Ok(Generated {
        files: 3 + resources * FILES_PER_RESOURCE,
        operations: 2 * resources,
        loaded: 3 + resources * 5,
        unkeyed_posts,
    })
}

fn list(name: &str) -> String {
    format!(
        "operationId: {name}_list\nsummary: List all {name}\ntags: [{name}]\nparameters:\n  \
         - $ref: '../../shared/parameters.yml#/per_page'\nresponses:\n  '200':\n    \
         $ref: 'responses/list.yml'\n  '429':\n    $ref: '../../shared/responses.yml#/too_many_requests'\n\
         x-codeSamples:\n  - $ref: 'examples/curl/list.yml'\n"
    )
}

fn create(name: &str, i: usize) -> String {
    let key = if unkeyed(i) {
        ""
    } else {
        "parameters:\n  - $ref: '../../shared/parameters.yml#/idempotency_key'\n"
    };
    format!(
        "operationId: {name}_create\nsummary: Create a new {name}\ntags: [{name}]\n{key}\
         requestBody:\n  required: true\n  content:\n    application/json:\n      schema:\n        \
         $ref: 'models/{name}.yml'\nresponses:\n  '201':\n    $ref: 'responses/created.yml'\n  \
         '400':\n    $ref: '../../shared/responses.yml#/bad_request'\n  '409':\n    \
         $ref: '../../shared/responses.yml#/conflict'\n  '422':\n    \
         $ref: '../../shared/responses.yml#/mismatch'\nx-codeSamples:\n  \
         - $ref: 'examples/curl/create.yml'\n  - $ref: 'examples/python/create.yml'\n"
    )
}

fn model(name: &str) -> String {
    format!(
        "type: object\nrequired: [name]\nproperties:\n  id:\n    type: string\n    readOnly: true\n  \
         name:\n    type: string\n    description: The name of the {name}.\n  region:\n    \
         type: string\n    example: nyc3\n"
    )
}

fn list_response(name: &str) -> String {
    format!(
        "description: The {name} list.\ncontent:\n  application/json:\n    schema:\n      \
         type: object\n      properties:\n        items:\n          type: array\n          \
         items: {{$ref: '../models/{name}.yml'}}\n    examples:\n      all:\n        \
         $ref: '../examples/list.json'\n"
    )
}

fn created(name: &str) -> String {
    format!(
        "description: The new {name}.\ncontent:\n  application/json:\n    schema:\n      \
         $ref: '../models/{name}.yml'\n"
    )
}

const PARAMETERS: &str = "\
idempotency_key:
  name: Idempotency-Key
  in: header
  required: true
  description: >-
    A client-generated UUID. A retry with the same key gets the original response; keys are
    kept for 24 hours.
  schema:
    type: string
    format: uuid
    maxLength: 64
per_page:
  name: per_page
  in: query
  schema:
    type: integer
    maximum: 200
";

const RESPONSES: &str = "\
bad_request:
  description: The request has no Idempotency-Key.
conflict:
  description: A request with the same Idempotency-Key is still in progress; retry later.
  headers:
    Retry-After:
      schema:
        type: integer
mismatch:
  description: The Idempotency-Key was used before with a different request body.
too_many_requests:
  description: Too many requests.
  headers:
    Retry-After:
      schema:
        type: integer
";
