//! Fixes of the details of a key a spec already declares: its schema's `type` and `maxLength`
//! (`idempotency-key-schema`), a fixed `default`, `enum` or `const` (`idempotency-key-fixed-value`),
//! and `required: true` on a key clients may leave out (`idempotency-key-optional`,
//! `money-movement-optional-key`). Each edits the node where the key is defined, which several
//! operations may share through `$ref`: the same edit built for each of them is written once.

use super::editor::{Editor, Refusal};
use super::value::Value;
use super::{Edit, Fix};
use crate::idempotency::KeyCarrier;
use crate::resolve::{At, Location};
use crate::source::{Node, Span};

/// What the key's schema is called in a fix's title: the 2.0 parameter itself carries `type`
/// and `maxLength`, a 3.x parameter its `schema`.
fn schema_name(key: &str, schema: At<'_>, parameter: At<'_>) -> String {
    if schema.location() == parameter.location() {
        format!("the `{key}` parameter")
    } else {
        format!("the schema of `{key}`")
    }
}

/// Keywords that describe a value of another type than a string, or its format: with one of
/// them, changing `type` alone would leave a schema that says two things. (A schema's
/// `required` list is one too, but a Swagger 2.0 parameter's `required: true` is not.)
const TYPED_KEYWORDS: &[&str] = &[
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "collectionFormat",
    "properties",
    "additionalProperties",
    "minProperties",
    "maxProperties",
];

/// The fix of a key whose schema (`schema`, resolved; the parameter itself in Swagger 2.0) is
/// not `type: string`: `type: string` added when there is no `type` (safe: a header is text on
/// the wire, and the schema said nothing else); an existing single type changed to `string`
/// (unsafe: clients generated from the spec change the type they send), unless other keywords
/// describe that type (`format: int64`, `minimum`), which the user must decide on; no fix for a
/// list of types.
pub fn declare_string(
    editor: &Editor<'_>,
    key: &str,
    schema: At<'_>,
    parameter: At<'_>,
) -> Result<Fix, Refusal> {
    let name = schema_name(key, schema, parameter);
    let string = Value::str("string");
    let Some(ty) = schema.get("type") else {
        let edit = editor.add_entry(schema, "type", &string)?;
        return Ok(Fix::safe(
            format!("Add `type: string` to {name}"),
            vec![edit],
        ));
    };
    let Some(old) = ty.node.scalar_text() else {
        return Err("its `type` is not one name: choose `string` by hand".into());
    };
    let list_of_required = || {
        schema
            .node
            .get("required")
            .is_some_and(|r| r.as_seq().is_some())
            .then_some(&"required")
    };
    if let Some(other) = TYPED_KEYWORDS
        .iter()
        .find(|k| schema.node.get_entry(k).is_some())
        .or_else(list_of_required)
    {
        return Err(format!(
            "its `{other}` describes the `{old}` it is now: change the type and `{other}` by hand"
        )
        .into());
    }
    let edit = editor.replace_scalar(ty, &string)?;
    Ok(Fix::unsafe_(
        format!("Change the type of {name} from `{old}` to `string`"),
        vec![edit],
    ))
}

/// The length a key gets when nothing says otherwise: Stripe's, and long enough for any key
/// scheme in use (a UUID is 36 characters).
pub const DEFAULT_MAX_LENGTH: i64 = 255;

/// The fix of a key whose schema has no `maxLength`: `maxLength: <length>` added, the length the
/// description states, else [`DEFAULT_MAX_LENGTH`]. Safe: keys are short, client-made strings.
pub fn declare_max_length(
    editor: &Editor<'_>,
    key: &str,
    schema: At<'_>,
    parameter: At<'_>,
    length: i64,
) -> Result<Fix, Refusal> {
    let name = schema_name(key, schema, parameter);
    let edit = editor.add_entry(schema, "maxLength", &Value::Int(length))?;
    Ok(Fix::safe(
        format!("Add `maxLength: {length}` to {name}"),
        vec![edit],
    ))
}

/// The fix of a key with a fixed value: the `keyword` (`default`, `enum`, `const`) taken out of
/// `at` (the key's schema, or the parameter). Unsafe: clients that relied on the value must
/// now make a key of their own.
pub fn remove_fixed_value(
    editor: &Editor<'_>,
    key: &str,
    at: At<'_>,
    keyword: &str,
) -> Result<Fix, Refusal> {
    if at.node.entries().len() == 1 {
        // (A block mapping cannot be left empty: it would read as a null.)
        let text = &editor.bundle().file(at.file).source.text;
        if text.as_bytes().get(at.node.span.start as usize) != Some(&b'{') {
            return Err(format!(
                "`{keyword}` is the only keyword of its schema, which would be left empty: \
                 write what the key is instead (`type: string`) by hand"
            )
            .into());
        }
    }
    let edit = editor.remove_entry(at, keyword)?;
    Ok(Fix::unsafe_(
        format!("Remove the fixed `{keyword}` of `{key}`"),
        vec![edit],
    ))
}

/// The fix of a key clients may leave out: `required: true` on the header parameter (replacing
/// `required: false`), on a Swagger 2.0 form field, or the field's name added to the `required`
/// list of the object schema whose `properties` define it (the list created when there is none).
/// Unsafe: clients that do not send the key yet are refused.
pub fn require_key(editor: &Editor<'_>, carrier: &KeyCarrier<'_>) -> Result<Fix, Refusal> {
    let yes = Value::Bool(true);
    match carrier {
        KeyCarrier::Header(p) => {
            let edit = editor.set_entry(p.node, "required", &yes)?;
            Ok(Fix::unsafe_(
                format!("Require the `{}` header", p.name),
                vec![edit],
            ))
        }
        KeyCarrier::BodyField(p) => {
            // A Swagger 2.0 form field is a parameter: its `name` is where the field is.
            let form_field = p.schema.node.get("in").and_then(Node::as_str) == Some("formData")
                && p.schema.key_location("name") == Some(p.key);
            if form_field {
                let edit = editor.set_entry(p.schema, "required", &yes)?;
                return Ok(Fix::unsafe_(
                    format!("Require the form field `{}`", p.name),
                    vec![edit],
                ));
            }
            let edit = list_as_required(editor, p.key, p.name)?;
            Ok(Fix::unsafe_(
                format!("Require the body field `{}`", p.name),
                vec![edit],
            ))
        }
        KeyCarrier::Extension { .. } => {
            Err("`x-idempotency` names the key but does not say where it is defined".into())
        }
    }
}

/// The edit that lists `name` (the property whose key is at `key`) in the `required` of the
/// object schema whose `properties` hold it.
fn list_as_required(editor: &Editor<'_>, key: Location, name: &str) -> Result<Edit, Refusal> {
    let root = &editor.bundle().file(key.file).root;
    let object = object_holding(root, key.span)
        .ok_or("the schema that defines the field was not found where its name is")?;
    let object = At {
        file: key.file,
        node: object,
    };
    let name = Value::str(name);
    match object.get("required") {
        None => editor.add_entry(object, "required", &Value::Seq(vec![name])),
        Some(list) if list.node.as_seq().is_some() => editor.add_item(list, &name),
        Some(_) => Err("its schema's `required` is not a list of names".into()),
    }
}

/// The mapping under `root` whose `properties` has the entry whose key is at `key`.
fn object_holding(root: &Node, key: Span) -> Option<&Node> {
    let mut node = root;
    loop {
        match &node.value {
            crate::source::Value::Map(entries) => {
                let holds = entries.iter().any(|e| {
                    &*e.key.text == "properties"
                        && e.value.entries().iter().any(|p| p.key.span == key)
                });
                if holds {
                    return Some(node);
                }
                node = &entries.iter().find(|e| e.value.span.contains(key))?.value;
            }
            crate::source::Value::Seq(items) => {
                node = items.iter().find(|i| i.span.contains(key))?;
            }
            crate::source::Value::Scalar(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::fix::{Applicability, Edit, Fix, apply, plan};
    use crate::lint::{Options, run};
    use crate::resolve::FileId;
    use crate::source::Span;

    /// `text` (a spec read as `-`) with the fixes of `rule`'s findings applied as `--fix` does:
    /// in passes, linting again between them, until none is left; unsafe fixes too when
    /// `unsafe_fixes`. Every pass must leave a document that loads without errors.
    fn fixed_by(text: &str, rule: &str, unsafe_fixes: bool) -> String {
        let mut text = text.to_string();
        for _ in 0..10 {
            let report = lint(&text, rule);
            assert!(report.errors.is_empty(), "{:?}\n{text}", report.errors);
            let fixes: Vec<Fix> = report
                .findings
                .iter()
                .filter(|f| f.rule.as_str() == rule)
                .filter_map(|f| f.fix.as_ref())
                .map(|f| Fix {
                    title: f.title.clone(),
                    applicability: f.applicability,
                    edits: f
                        .edits
                        .iter()
                        .map(|e| Edit {
                            file: FileId(0),
                            span: e.span,
                            text: e.text.clone(),
                        })
                        .collect(),
                })
                .collect();
            let allowed = |f: &Fix| unsafe_fixes || f.applicability == Applicability::Safe;
            let plan = plan(&fixes, allowed, |_| Some(text.as_str()));
            assert!(plan.invalid.is_empty(), "invalid fixes: {fixes:#?}");
            if plan.taken.is_empty() {
                return text;
            }
            let edits: Vec<&Edit> = plan.taken.iter().flat_map(|&at| &fixes[at].edits).collect();
            text = apply(&text, &edits).expect("the taken edits apply");
        }
        panic!("fixes still left after 10 passes:\n{text}");
    }

    /// The findings of `rule` in `text`, read as `-`.
    fn lint(text: &str, rule: &str) -> crate::report::Report {
        let bytes = text.as_bytes().to_vec();
        run(
            &[PathBuf::from("-")],
            &Options {
                select: vec![rule.to_string()],
                ..Options::default()
            },
            || Ok(bytes),
        )
    }

    /// The fix titles (with their applicability) and no-fix reasons of `rule`'s findings in
    /// `text`, one a finding.
    fn fixes_of(text: &str, rule: &str) -> Vec<String> {
        lint(text, rule)
            .findings
            .iter()
            .filter(|f| f.rule.as_str() == rule)
            .map(|f| match (&f.fix, &f.no_fix) {
                (Some(fix), _) => format!("{}: {}", fix.applicability.code(), fix.title),
                (None, Some(why)) => format!("no fix: {why}"),
                (None, None) => "none".to_string(),
            })
            .collect()
    }

    const RESPONSES: &str = "      responses:\n        '201': {description: Created}\n        \
                             '409':\n          description: Busy.\n          headers:\n            \
                             Retry-After: {schema: {type: integer}}\n        '422': {description: \
                             Reused.}\n";

    /// An OpenAPI 3.0 spec whose `POST /orders` lists `parameters` (indented lines) and whose
    /// body is `body` (a schema, flow style).
    fn oas30(parameters: &str, body: &str) -> String {
        format!(
            "openapi: 3.0.3\ninfo:\n  title: Shop\n  version: 1.0.0\n  description: Keys are \
             kept for 24 hours.\npaths:\n  /orders:\n    post:\n      parameters:\n{parameters}\
             {body}{RESPONSES}"
        )
    }

    fn json_body(schema: &str) -> String {
        format!(
            "      requestBody:\n        content:\n          application/json:\n            \
             schema: {schema}\n"
        )
    }

    const SCHEMA: &str = "idempotency-key-schema";
    const FIXED: &str = "idempotency-key-fixed-value";
    const OPTIONAL: &str = "idempotency-key-optional";
    const MONEY: &str = "money-movement-optional-key";

    const KEY_BLOCK: &str = "        - name: Idempotency-Key\n          in: header\n          \
                             required: true\n          schema:\n            type: string   \
                             # any string\n";

    #[test]
    fn max_length_goes_after_the_last_keyword_its_comment_kept() {
        let text = oas30(KEY_BLOCK, "");
        assert_eq!(
            fixes_of(&text, SCHEMA),
            ["safe: Add `maxLength: 255` to the schema of `Idempotency-Key`"]
        );
        assert_eq!(
            fixed_by(&text, SCHEMA, false),
            text.replace(
                "# any string\n",
                "# any string\n            maxLength: 255\n"
            )
        );
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(
            fixed_by(&crlf, SCHEMA, false),
            crlf.replace(
                "# any string\r\n",
                "# any string\r\n            maxLength: 255\r\n"
            )
        );
    }

    #[test]
    fn a_flow_schema_gets_type_and_max_length_in_two_passes() {
        let text = oas30(
            "        - {name: Idempotency-Key, in: header, required: true, schema: {format: uuid}}\n",
            "",
        );
        assert_eq!(
            fixes_of(&text, SCHEMA),
            [
                "safe: Add `maxLength: 255` to the schema of `Idempotency-Key`",
                "safe: Add `type: string` to the schema of `Idempotency-Key`"
            ]
        );
        assert_eq!(
            fixed_by(&text, SCHEMA, false),
            text.replace(
                "{format: uuid}",
                "{format: uuid, maxLength: 255, type: string}"
            )
        );
    }

    #[test]
    fn a_length_stated_in_prose_is_the_one_declared() {
        let text = oas30(
            "        - name: Idempotency-Key\n          in: header\n          required: true\n          \
             description: Up to 128 characters.\n          schema: {type: string}\n",
            "",
        );
        assert_eq!(
            fixed_by(&text, SCHEMA, false),
            text.replace("{type: string}", "{type: string, maxLength: 128}")
        );
    }

    #[test]
    fn another_type_is_changed_only_unsafely_and_not_beside_its_format() {
        let text = oas30(
            "        - {name: Idempotency-Key, in: header, required: true, schema: {type: integer}}\n",
            "",
        );
        assert_eq!(
            fixes_of(&text, SCHEMA),
            [
                "safe: Add `maxLength: 255` to the schema of `Idempotency-Key`",
                "unsafe: Change the type of the schema of `Idempotency-Key` from `integer` to `string`",
            ]
        );
        let key = "true, schema: {type: integer}";
        assert_eq!(
            fixed_by(&text, SCHEMA, false),
            text.replace(key, "true, schema: {type: integer, maxLength: 255}")
        );
        assert_eq!(
            fixed_by(&text, SCHEMA, true),
            text.replace(key, "true, schema: {type: string, maxLength: 255}")
        );
        let formatted = text.replace(key, "true, schema: {type: integer, format: int64}");
        assert_eq!(
            fixes_of(&formatted, SCHEMA)[1],
            "no fix: its `format` describes the `integer` it is now: change the type and \
             `format` by hand"
        );
    }

    #[test]
    fn json_and_swagger_2() {
        let json = "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\"title\": \"Orders\", \"version\": \
                    \"1.0.0\", \"description\": \"Keys are kept for 7 days.\"},\n  \"paths\": {\n    \
                    \"/orders\": {\n      \"post\": {\n        \"parameters\": [\n          {\n            \
                    \"name\": \"X-Idempotency-Key\",\n            \"in\": \"header\",\n            \
                    \"required\": true,\n            \"schema\": {\"maxLength\": 64}\n          }\n        \
                    ],\n        \"responses\": {\"201\": {\"description\": \"Created\"}}\n      }\n    }\n  \
                    }\n}\n";
        assert_eq!(
            fixed_by(json, SCHEMA, false),
            json.replace(
                "{\"maxLength\": 64}",
                "{\"maxLength\": 64, \"type\": \"string\"}"
            )
        );
        let crlf = json.replace('\n', "\r\n");
        assert_eq!(
            fixed_by(&crlf, SCHEMA, false),
            crlf.replace(
                "{\"maxLength\": 64}",
                "{\"maxLength\": 64, \"type\": \"string\"}"
            )
        );
        let swagger = "swagger: '2.0'\ninfo: {title: Charges, version: '1.0', description: Keys \
                       are kept for 24 hours.}\npaths:\n  /charges:\n    post:\n      parameters:\n        \
                       - name: Idempotency-Key\n          in: header\n          required: true\n          \
                       type: string\n          format: uuid\n      responses:\n        '201': \
                       {description: Created}\n";
        assert_eq!(
            fixes_of(swagger, SCHEMA),
            ["safe: Add `maxLength: 255` to the `Idempotency-Key` parameter"]
        );
        assert_eq!(
            fixed_by(swagger, SCHEMA, false),
            swagger.replace("format: uuid\n", "format: uuid\n          maxLength: 255\n")
        );
        // (A 2.0 parameter's `required: true` is no keyword of another type.)
        let integer = swagger.replace("type: string\n          format: uuid", "type: integer");
        assert_eq!(
            fixed_by(&integer, SCHEMA, true),
            integer.replace(
                "type: integer\n",
                "type: string\n          maxLength: 255\n"
            )
        );
    }

    #[test]
    fn a_shared_schema_is_edited_once_and_an_anchored_one_not_at_all() {
        let text = "openapi: 3.0.3\ninfo: {title: Shop, version: 1.0.0, description: Keys are \
                    kept for 24 hours.}\npaths:\n  /orders:\n    post:\n      parameters:\n        \
                    - {name: Idempotency-Key, in: header, required: true, schema: {$ref: \
                    '#/components/schemas/Key'}}\n      responses: {'201': {description: ok}}\n  \
                    /refunds:\n    post:\n      parameters:\n        - {name: Idempotency-Key, in: \
                    header, required: true, schema: {$ref: '#/components/schemas/Key'}}\n      \
                    responses: {'201': {description: ok}}\ncomponents:\n  schemas:\n    Key:\n      \
                    type: string\n";
        assert_eq!(fixes_of(text, SCHEMA).len(), 2);
        assert_eq!(
            fixed_by(text, SCHEMA, false),
            format!("{text}      maxLength: 255\n")
        );
        let anchored = "openapi: 3.0.3\ninfo: {title: Shop, version: 1.0.0, description: Keys \
                        are kept for 24 hours.}\nx-key: &key\n  name: Idempotency-Key\n  in: \
                        header\n  required: true\n  schema: {type: string}\npaths:\n  /orders:\n    \
                        post:\n      parameters:\n        - *key\n      responses: {'201': \
                        {description: ok}}\n";
        let why = fixes_of(anchored, SCHEMA);
        assert!(
            why.len() == 1
                && why[0].starts_with("no fix: it is shared through the YAML anchor `&key`"),
            "{why:?}"
        );
    }

    #[test]
    fn fixed_values_are_taken_out_unsafely() {
        let text = oas30(
            "        - name: Idempotency-Key\n          in: header\n          required: true\n          \
             schema:\n            type: string\n            maxLength: 64\n            default: abc   \
             # the console's\n            enum:\n              - abc\n            example: abc\n",
            "",
        );
        assert_eq!(
            fixes_of(&text, FIXED),
            [
                "unsafe: Remove the fixed `default` of `Idempotency-Key`",
                "unsafe: Remove the fixed `enum` of `Idempotency-Key`",
                format!("no fix: {}", "an example shows readers what a key looks like: rewrite it by hand (a placeholder, or words saying each request needs a new key) rather than lose it").as_str(),
            ]
        );
        assert_eq!(fixed_by(&text, FIXED, false), text);
        assert_eq!(
            fixed_by(&text, FIXED, true),
            text.replace(
                "            default: abc   # the console's\n            enum:\n              - abc\n",
                ""
            )
        );
        let flow = oas30(
            "        - {name: Idempotency-Key, in: header, required: true, schema: {enum: [abc]}}\n",
            "",
        );
        assert_eq!(
            fixed_by(&flow, FIXED, true),
            flow.replace("{enum: [abc]}", "{}")
        );
        let only = oas30(
            "        - name: Idempotency-Key\n          in: header\n          required: true\n          \
             schema:\n            const: abc\n",
            "",
        );
        assert_eq!(
            fixes_of(&only, FIXED),
            [
                "no fix: `const` is the only keyword of its schema, which would be left empty: \
              write what the key is instead (`type: string`) by hand"
            ]
        );
        let swagger = "{\n  \"swagger\": \"2.0\",\n  \"info\": {\"title\": \"Charges\", \
                       \"version\": \"1.0\"},\n  \"paths\": {\n    \"/charges\": {\n      \"post\": \
                       {\n        \"parameters\": [\n          {\n            \"name\": \
                       \"Idempotency-Key\",\n            \"in\": \"header\",\n            \"type\": \
                       \"string\",\n            \"default\": \"b1946ac9\"\n          }\n        ],\n        \
                       \"responses\": {\"201\": {\"description\": \"Created\"}}\n      }\n    }\n  }\n}\n";
        assert_eq!(
            fixed_by(swagger, FIXED, true),
            swagger.replace(",\n            \"default\": \"b1946ac9\"", "")
        );
    }

    #[test]
    fn an_optional_header_is_made_required() {
        let block = oas30(
            "        - name: Idempotency-Key\n          in: header\n          required: false   \
             # for now\n          schema: {type: string, maxLength: 64}\n",
            &json_body("{type: object, properties: {sku: {type: string}}}"),
        );
        assert_eq!(
            fixes_of(&block, OPTIONAL),
            ["unsafe: Require the `Idempotency-Key` header"]
        );
        assert_eq!(fixed_by(&block, OPTIONAL, false), block);
        assert_eq!(
            fixed_by(&block, OPTIONAL, true),
            block.replace("required: false   # for now", "required: true   # for now")
        );
        let crlf = block.replace('\n', "\r\n");
        assert_eq!(
            fixed_by(&crlf, OPTIONAL, true),
            crlf.replace("required: false", "required: true")
        );
        let flow = oas30(
            "        - {name: Idempotency-Key, in: header, schema: {type: string, maxLength: 64}}\n",
            &json_body("{type: object, properties: {sku: {type: string}}}"),
        );
        assert_eq!(
            fixed_by(&flow, OPTIONAL, true),
            flow.replace("maxLength: 64}}", "maxLength: 64}, required: true}")
        );
    }

    #[test]
    fn a_shared_swagger_2_parameter_is_required_once() {
        let text = "swagger: '2.0'\ninfo:\n  title: Shop\n  version: '1.0'\nparameters:\n  \
                    IdempotencyKey:\n    name: Idempotency-Key\n    in: header\n    description: A \
                    client-generated UUID v4. Keys are kept for 24 hours.\n    type: string\n    \
                    maxLength: 36\npaths:\n  /orders:\n    post:\n      parameters:\n        - $ref: \
                    '#/parameters/IdempotencyKey'\n      responses: {'201': {description: Created}}\n  \
                    /orders/{orderId}/notes:\n    post:\n      parameters:\n        - {name: orderId, \
                    in: path, required: true, type: string}\n        - $ref: \
                    '#/parameters/IdempotencyKey'\n      responses: {'201': {description: Created}}\n";
        assert_eq!(fixes_of(text, OPTIONAL).len(), 2);
        assert_eq!(
            fixed_by(text, OPTIONAL, true),
            text.replace("maxLength: 36\n", "maxLength: 36\n    required: true\n")
        );
    }

    #[test]
    fn a_body_field_is_listed_in_its_schemas_required() {
        let json = "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {\"title\": \"Compute\", \"version\": \
                    \"1.0.0\", \"description\": \"Request ids are kept for 24 hours.\"},\n  \"paths\": \
                    {\n    \"/projects/{projectId}/instances\": {\n      \"post\": {\n        \
                    \"parameters\": [{\"name\": \"projectId\", \"in\": \"path\", \"required\": true, \
                    \"schema\": {\"type\": \"string\"}}],\n        \"requestBody\": {\"content\": \
                    {\"application/json\": {\"schema\": {\"$ref\": \
                    \"#/components/schemas/Create\"}}}},\n        \"responses\": {\"200\": \
                    {\"description\": \"The operation\"}}\n      }\n    }\n  },\n  \"components\": {\n    \
                    \"schemas\": {\n      \"Create\": {\n        \"type\": \"object\",\n        \
                    \"required\": [\"machineType\"],\n        \"properties\": {\n          \
                    \"machineType\": {\"type\": \"string\"},\n          \"requestId\": {\"type\": \
                    \"string\", \"description\": \"Optional. A UUID4 that makes a retry safe.\"}\n        \
                    }\n      }\n    }\n  }\n}\n";
        assert_eq!(
            fixes_of(json, OPTIONAL),
            ["unsafe: Require the body field `requestId`"]
        );
        assert_eq!(
            fixed_by(json, OPTIONAL, true),
            json.replace("[\"machineType\"]", "[\"machineType\", \"requestId\"]")
        );
        let unlisted = json.replace("        \"required\": [\"machineType\"],\n", "");
        assert_eq!(
            fixed_by(&unlisted, OPTIONAL, true),
            unlisted.replace(
                "safe.\"}\n        }\n",
                "safe.\"}\n        },\n        \"required\": [\n          \"requestId\"\n        ]\n"
            )
        );
    }

    #[test]
    fn money_movement_keys_are_made_required_in_headers_and_bodies() {
        let text = "openapi: 3.0.3\ninfo:\n  title: Settlements\n  version: 1.0.0\n  description: \
                    Idempotency keys are kept for 24 hours.\npaths:\n  /payments:\n    post:\n      \
                    parameters:\n        - name: Idempotency-Key\n          in: header\n          \
                    schema: {type: string, maxLength: 36}\n      responses: {'201': {description: \
                    Created}}\n  /orders/{orderId}/settlements:\n    post:\n      parameters:\n        \
                    - {name: orderId, in: path, required: true, schema: {type: string}}\n      \
                    requestBody:\n        content:\n          application/json:\n            schema:\n              \
                    allOf:\n                - $ref: '#/components/schemas/Money'\n                - type: \
                    object\n                  properties:\n                    idempotency_key: {type: \
                    string, maxLength: 45}  # Square's\n      responses: {'201': {description: \
                    Settled}}\n  /charges:\n    post:\n      responses: {'201': {description: \
                    Charged}}\ncomponents:\n  schemas:\n    Money:\n      type: object\n      required: \
                    [amount, currency]\n      properties:\n        amount: {type: integer}\n        \
                    currency: {type: string}\n";
        let titles = fixes_of(text, MONEY);
        assert_eq!(
            titles,
            [
                "unsafe: Require the `Idempotency-Key` header",
                "unsafe: Require the body field `idempotency_key`",
                "no fix: there is no key to require: declare one (the fix of \
                 `missing-idempotency-key` adds a required `Idempotency-Key` header)",
            ]
        );
        assert_eq!(
            fixed_by(text, MONEY, true),
            text.replace(
                "maxLength: 36}\n",
                "maxLength: 36}\n          required: true\n"
            )
            .replace(
                "# Square's\n",
                "# Square's\n                  required:\n                    - idempotency_key\n"
            )
        );
    }

    #[test]
    fn a_swagger_2_form_field_is_required_on_its_parameter() {
        let text = "swagger: '2.0'\ninfo: {title: Payouts, version: '1.0', description: Keys are \
                    kept for 24 hours.}\npaths:\n  /payouts:\n    post:\n      consumes: \
                    [application/x-www-form-urlencoded]\n      parameters:\n        - {name: amount, \
                    in: formData, type: integer}\n        - {name: currency, in: formData, type: \
                    string}\n        - {name: idempotency_key, in: formData, type: string}\n      \
                    responses: {'201': {description: Created}}\n";
        assert_eq!(
            fixes_of(text, MONEY),
            ["unsafe: Require the form field `idempotency_key`"]
        );
        assert_eq!(
            fixed_by(text, MONEY, true),
            text.replace(
                "idempotency_key, in: formData, type: string}",
                "idempotency_key, in: formData, type: string, required: true}"
            )
        );
    }

    #[test]
    fn the_object_holding_a_property_is_found_by_the_key_span() {
        let text = "a:\n  - b:\n      properties:\n        k: {type: string}\n";
        let root = crate::source::SourceFile::new(
            "t".into(),
            "t".into(),
            text.into(),
            crate::source::Format::Yaml,
        )
        .parse(&crate::limits::Limits::default())
        .unwrap()
        .root;
        let at = text.find("k:").unwrap();
        let object = super::object_holding(&root, Span::new(at, at + 1)).unwrap();
        assert!(object.get("properties").is_some());
        assert!(super::object_holding(&root, Span::new(0, 1)).is_none());
    }
}
