//! A generated OpenAPI 3.0 document of about a given size, for benchmarks and the bounded-memory
//! test: realistic operations (a keyed POST with a request body, a GET, a PATCH without a key),
//! shared components reached through `$ref`, descriptions of ordinary length. Deterministic, so
//! runs compare.

use std::fmt::Write as _;

/// YAML of about `target_bytes` bytes; each resource adds about 2.3 KB and 3 operations.
pub fn yaml(target_bytes: usize) -> String {
    let mut out = String::with_capacity(target_bytes + 8192);
    out.push_str(
        "openapi: 3.0.3\ninfo:\n  title: Generated API\n  version: 1.0.0\n  description: \
         Idempotency keys are kept for 24 hours.\npaths:\n",
    );
    let mut i = 0usize;
    let components = COMPONENTS.len();
    while out.len() + components < target_bytes || i == 0 {
        let _ = write!(
            out,
            r#"  /resources{i}:
    post:
      operationId: createResource{i}
      summary: Create a resource of kind {i}
      description: Creates the resource. Retries with the same Idempotency-Key return the original response.
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Resource'
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Resource'
        '409':
          $ref: '#/components/responses/Conflict'
        '422':
          description: The key was reused with a different payload
    get:
      operationId: listResources{i}
      summary: List resources of kind {i}
      parameters:
        - name: limit
          in: query
          schema: {{type: integer, minimum: 1, maximum: 100}}
      responses:
        '200':
          description: A page of resources
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Resource'
        '400':
          description: The limit is out of range
  /resources{i}/{{id}}:
    patch:
      operationId: updateResource{i}
      summary: Update a resource of kind {i}
      parameters:
        - name: id
          in: path
          required: true
          schema: {{type: string}}
      requestBody:
        content:
          application/merge-patch+json:
            schema:
              type: object
              properties:
                name: {{type: string, maxLength: 200}}
                quantity_change: {{type: integer, description: Added to the current quantity}}
      responses:
        '200':
          description: Updated
        '404':
          description: Not found
"#
        );
        i += 1;
    }
    out.push_str(COMPONENTS);
    out
}

const COMPONENTS: &str = r#"components:
  parameters:
    IdempotencyKey:
      name: Idempotency-Key
      in: header
      required: true
      description: A unique key per request; kept for 24 hours.
      schema: {type: string, format: uuid, maxLength: 64}
  responses:
    Conflict:
      description: A request with the same key is in progress
      headers:
        Retry-After:
          schema: {type: integer}
  schemas:
    Resource:
      type: object
      required: [name, amount, currency]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string, maxLength: 200}
        amount: {type: integer, minimum: 0}
        currency: {type: string, pattern: '^[A-Z]{3}$'}
        metadata:
          type: object
          additionalProperties: {type: string}
"#;

/// The same document as [`yaml`], as one line of JSON (the shape of GitHub's REST description).
pub fn json(target_bytes: usize) -> String {
    use serde_json::json;
    let mut out = String::with_capacity(target_bytes + 8192);
    out.push_str(
        r#"{"openapi":"3.0.3","info":{"title":"Generated API","version":"1.0.0","description":"Idempotency keys are kept for 24 hours."},"paths":{"#,
    );
    let components = json!({
        "parameters": {"IdempotencyKey": {"name": "Idempotency-Key", "in": "header", "required": true,
            "description": "A unique key per request; kept for 24 hours.",
            "schema": {"type": "string", "format": "uuid", "maxLength": 64}}},
        "responses": {"Conflict": {"description": "A request with the same key is in progress",
            "headers": {"Retry-After": {"schema": {"type": "integer"}}}}},
        "schemas": {"Resource": {"type": "object", "required": ["name", "amount", "currency"],
            "properties": {"id": {"type": "string", "readOnly": true},
                "name": {"type": "string", "maxLength": 200},
                "amount": {"type": "integer", "minimum": 0},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}}}
    })
    .to_string();
    let resource = |r: &str| json!({"$ref": format!("#/components/{r}")});
    let mut i = 0usize;
    while out.len() + components.len() < target_bytes || i == 0 {
        if i > 0 {
            out.push(',');
        }
        let collection = json!({
            "post": {
                "operationId": format!("createResource{i}"),
                "summary": format!("Create a resource of kind {i}"),
                "description": "Creates the resource. Retries with the same Idempotency-Key return the original response.",
                "parameters": [resource("parameters/IdempotencyKey")],
                "requestBody": {"required": true, "content": {"application/json": {"schema": resource("schemas/Resource")}}},
                "responses": {
                    "201": {"description": "Created", "content": {"application/json": {"schema": resource("schemas/Resource")}}},
                    "409": resource("responses/Conflict"),
                    "422": {"description": "The key was reused with a different payload"}
                }
            },
            "get": {
                "operationId": format!("listResources{i}"),
                "summary": format!("List resources of kind {i}"),
                "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}}],
                "responses": {"200": {"description": "A page of resources", "content": {"application/json":
                    {"schema": {"type": "array", "items": resource("schemas/Resource")}}}},
                    "400": {"description": "The limit is out of range"}}
            }
        });
        let item = json!({
            "patch": {
                "operationId": format!("updateResource{i}"),
                "summary": format!("Update a resource of kind {i}"),
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "requestBody": {"content": {"application/merge-patch+json": {"schema": {"type": "object", "properties": {
                    "name": {"type": "string", "maxLength": 200},
                    "quantity_change": {"type": "integer", "description": "Added to the current quantity"}}}}}},
                "responses": {"200": {"description": "Updated"}, "404": {"description": "Not found"}}
            }
        });
        out.push_str(&format!(
            "\"/resources{i}\":{collection},\"/resources{i}/{{id}}\":{item}"
        ));
        i += 1;
    }
    out.push_str("},\"components\":");
    out.push_str(&components);
    out.push('}');
    out
}
