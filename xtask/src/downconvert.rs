//! Down-conversion of an OpenAPI 3.1 document (as utoipa 6 writes it) into OpenAPI 3.0.3, the
//! only version progenitor reads.
//!
//! The walk follows the structure of the document (paths, operations, parameters, request
//! bodies, responses, headers, components, callbacks and every nested schema) rather than
//! rewriting every JSON object it meets, so example values and property *names* such as
//! `"const"` or `"type"` are left exactly as they are.
//!
//! Rules applied to every schema:
//! - `type: [T, "null"]` becomes `type: T, nullable: true`;
//! - `oneOf`/`anyOf` with a `{"type": "null"}` member loses that member and gains
//!   `nullable: true`; a single remaining `$ref` becomes `allOf: [{$ref}]`;
//! - keys beside a `$ref` are dropped (also in parameters, responses and other references);
//! - `propertyNames` is dropped;
//! - `const` becomes a one-value `enum`;
//! - `examples` becomes `example` (its first value);
//! - numeric `exclusiveMinimum`/`exclusiveMaximum` become `minimum`/`maximum` plus the boolean
//!   3.0 form;
//! - formats written `u-int64`, `u-int32`, ... become `uint64`, `uint32`, ...;
//! - a boolean schema becomes `{}` (`true`) or `{"not": {}}` (`false`), except for
//!   `additionalProperties`, where 3.0 allows booleans.
//!
//! Rules for the rest of the document: `openapi` becomes `"3.0.3"`, `info.license.identifier`,
//! `info.summary`, `jsonSchemaDialect`, `webhooks` and `components.pathItems` (3.1 only) are
//! dropped, and a response without a `description` gets one (openapiv3 requires it).

use serde_json::{Map, Value};

/// The OpenAPI version written into the converted document.
pub const TARGET_VERSION: &str = "3.0.3";

/// HTTP methods that may hold an operation in a path item.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Why a document could not be down-converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// The document is not a JSON object.
    #[error("the OpenAPI document is not a JSON object")]
    NotAnObject,
    /// The document does not declare an OpenAPI 3.1.x version.
    #[error(
        "the document declares `openapi: {found}`; only OpenAPI 3.1.x documents are converted"
    )]
    UnsupportedVersion {
        /// The value of the `openapi` field, or `(missing)`.
        found: String,
    },
    /// A schema's `type` lists more than one non-null type, which 3.0 cannot say.
    #[error(
        "{pointer}: `type` lists several non-null types ({types}); OpenAPI 3.0 cannot express that"
    )]
    SeveralTypes {
        /// JSON pointer to the schema.
        pointer: String,
        /// The non-null types, comma separated.
        types: String,
    },
    /// A part of the document does not have the shape OpenAPI 3.1 gives it.
    #[error("{pointer}: {reason}")]
    Malformed {
        /// JSON pointer to the offending value.
        pointer: String,
        /// What was expected there.
        reason: &'static str,
    },
}

/// Converts an OpenAPI 3.1 document into an OpenAPI 3.0.3 document that progenitor accepts.
///
/// # Errors
/// Returns [`ConvertError`] when the input is not a 3.1.x document, when a schema uses a 3.1
/// construct without a 3.0 equivalent (several non-null types in `type`), or when a part of the
/// document is not of the shape the specification gives it (for example `properties` that is
/// not an object).
///
/// # Examples
/// ```
/// use serde_json::json;
/// let spec = json!({
///     "openapi": "3.1.0",
///     "info": {"title": "t", "version": "1", "license": {"name": "MIT", "identifier": "MIT"}},
///     "paths": {},
///     "components": {"schemas": {"Name": {"type": ["string", "null"]}}}
/// });
/// let converted = xtask::downconvert::downconvert(spec)?;
/// assert_eq!(converted["openapi"], "3.0.3");
/// assert_eq!(converted["info"]["license"], json!({"name": "MIT"}));
/// assert_eq!(
///     converted["components"]["schemas"]["Name"],
///     json!({"type": "string", "nullable": true})
/// );
/// # Ok::<(), xtask::downconvert::ConvertError>(())
/// ```
pub fn downconvert(spec: Value) -> Result<Value, ConvertError> {
    let Value::Object(mut doc) = spec else {
        return Err(ConvertError::NotAnObject);
    };
    match doc.get("openapi") {
        Some(Value::String(version)) if version.starts_with("3.1.") => {}
        Some(Value::String(version)) => {
            return Err(ConvertError::UnsupportedVersion {
                found: version.clone(),
            });
        }
        Some(other) => {
            return Err(ConvertError::UnsupportedVersion {
                found: other.to_string(),
            });
        }
        None => {
            return Err(ConvertError::UnsupportedVersion {
                found: "(missing)".to_owned(),
            });
        }
    }
    doc.insert("openapi".to_owned(), Value::from(TARGET_VERSION));
    doc.remove("jsonSchemaDialect");
    doc.remove("webhooks");

    if let Some(info) = doc.get_mut("info") {
        let info = as_object(info, "/info")?;
        info.remove("summary");
        if let Some(license) = info.get_mut("license") {
            as_object(license, "/info/license")?.remove("identifier");
        }
    }
    if let Some(paths) = doc.get_mut("paths") {
        for (path, item) in as_object(paths, "/paths")? {
            path_item(item, &child("/paths", path))?;
        }
    }
    if let Some(components) = doc.get_mut("components") {
        self::components(components)?;
    }
    Ok(Value::Object(doc))
}

/// Appends `key` to a JSON pointer, escaped as RFC 6901 requires.
fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

fn as_object<'a>(
    value: &'a mut Value,
    pointer: &str,
) -> Result<&'a mut Map<String, Value>, ConvertError> {
    value
        .as_object_mut()
        .ok_or_else(|| ConvertError::Malformed {
            pointer: pointer.to_owned(),
            reason: "expected a JSON object",
        })
}

fn as_array<'a>(value: &'a mut Value, pointer: &str) -> Result<&'a mut Vec<Value>, ConvertError> {
    value.as_array_mut().ok_or_else(|| ConvertError::Malformed {
        pointer: pointer.to_owned(),
        reason: "expected a JSON array",
    })
}

/// Applies `convert` to every value of the object stored under `key`, if there is one.
fn each_entry(
    object: &mut Map<String, Value>,
    key: &str,
    pointer: &str,
    convert: fn(&mut Value, &str) -> Result<(), ConvertError>,
) -> Result<(), ConvertError> {
    if let Some(entries) = object.get_mut(key) {
        let pointer = child(pointer, key);
        for (name, value) in as_object(entries, &pointer)? {
            convert(value, &child(&pointer, name))?;
        }
    }
    Ok(())
}

/// If `object` is a Reference Object, drops every key beside `$ref` and returns `true`.
fn strip_reference(object: &mut Map<String, Value>) -> bool {
    if object.contains_key("$ref") {
        object.retain(|key, _| key == "$ref");
        true
    } else {
        false
    }
}

fn components(value: &mut Value) -> Result<(), ConvertError> {
    let pointer = "/components";
    let components = as_object(value, pointer)?;
    components.remove("pathItems");
    each_entry(components, "schemas", pointer, schema)?;
    each_entry(components, "parameters", pointer, parameter)?;
    each_entry(components, "headers", pointer, parameter)?;
    each_entry(components, "requestBodies", pointer, request_body)?;
    each_entry(components, "callbacks", pointer, callback)?;
    if let Some(responses) = components.get_mut("responses") {
        let pointer = child(pointer, "responses");
        for (name, value) in as_object(responses, &pointer)? {
            response(value, &child(&pointer, name), name)?;
        }
    }
    Ok(())
}

fn path_item(value: &mut Value, pointer: &str) -> Result<(), ConvertError> {
    let item = as_object(value, pointer)?;
    if strip_reference(item) {
        return Ok(());
    }
    parameter_list(item, pointer)?;
    for method in METHODS {
        if let Some(op) = item.get_mut(method) {
            operation(op, &child(pointer, method))?;
        }
    }
    Ok(())
}

fn callback(value: &mut Value, pointer: &str) -> Result<(), ConvertError> {
    let callback = as_object(value, pointer)?;
    if strip_reference(callback) {
        return Ok(());
    }
    for (expression, item) in callback.iter_mut() {
        path_item(item, &child(pointer, expression))?;
    }
    Ok(())
}

fn parameter_list(object: &mut Map<String, Value>, pointer: &str) -> Result<(), ConvertError> {
    if let Some(parameters) = object.get_mut("parameters") {
        let pointer = child(pointer, "parameters");
        for (index, value) in as_array(parameters, &pointer)?.iter_mut().enumerate() {
            parameter(value, &child(&pointer, &index.to_string()))?;
        }
    }
    Ok(())
}

fn operation(value: &mut Value, pointer: &str) -> Result<(), ConvertError> {
    let op = as_object(value, pointer)?;
    parameter_list(op, pointer)?;
    if let Some(body) = op.get_mut("requestBody") {
        request_body(body, &child(pointer, "requestBody"))?;
    }
    if let Some(responses) = op.get_mut("responses") {
        let pointer = child(pointer, "responses");
        for (status, value) in as_object(responses, &pointer)? {
            response(value, &child(&pointer, status), status)?;
        }
    }
    each_entry(op, "callbacks", pointer, callback)
}

/// Converts a Parameter Object or a Header Object (the two share `schema` and `content`).
fn parameter(value: &mut Value, pointer: &str) -> Result<(), ConvertError> {
    let param = as_object(value, pointer)?;
    if strip_reference(param) {
        return Ok(());
    }
    if let Some(value) = param.get_mut("schema") {
        schema(value, &child(pointer, "schema"))?;
    }
    content(param, pointer)
}

fn request_body(value: &mut Value, pointer: &str) -> Result<(), ConvertError> {
    let body = as_object(value, pointer)?;
    if strip_reference(body) {
        return Ok(());
    }
    content(body, pointer)
}

fn response(value: &mut Value, pointer: &str, status: &str) -> Result<(), ConvertError> {
    let resp = as_object(value, pointer)?;
    if strip_reference(resp) {
        return Ok(());
    }
    if !resp.get("description").is_some_and(Value::is_string) {
        resp.insert(
            "description".to_owned(),
            Value::from(default_description(status)),
        );
    }
    each_entry(resp, "headers", pointer, parameter)?;
    content(resp, pointer)
}

/// A description for a response that has none: the status's reason phrase where known.
fn default_description(status: &str) -> String {
    let phrase = match status {
        "default" => "Default response",
        "200" => "OK",
        "201" => "Created",
        "202" => "Accepted",
        "204" => "No Content",
        "304" => "Not Modified",
        "400" => "Bad Request",
        "401" => "Unauthorized",
        "403" => "Forbidden",
        "404" => "Not Found",
        "409" => "Conflict",
        "412" => "Precondition Failed",
        "422" => "Unprocessable Content",
        "428" => "Precondition Required",
        "429" => "Too Many Requests",
        "500" => "Internal Server Error",
        "503" => "Service Unavailable",
        other => return format!("Response with status {other}"),
    };
    phrase.to_owned()
}

/// Converts the `content` map (media types) of a parameter, header, request body or response.
fn content(object: &mut Map<String, Value>, pointer: &str) -> Result<(), ConvertError> {
    let Some(content) = object.get_mut("content") else {
        return Ok(());
    };
    let pointer = child(pointer, "content");
    for (media_type, value) in as_object(content, &pointer)? {
        let pointer = child(&pointer, media_type);
        let media = as_object(value, &pointer)?;
        if let Some(value) = media.get_mut("schema") {
            schema(value, &child(&pointer, "schema"))?;
        }
        if let Some(encodings) = media.get_mut("encoding") {
            let pointer = child(&pointer, "encoding");
            for (property, encoding) in as_object(encodings, &pointer)? {
                let pointer = child(&pointer, property);
                each_entry(
                    as_object(encoding, &pointer)?,
                    "headers",
                    &pointer,
                    parameter,
                )?;
            }
        }
    }
    Ok(())
}

/// Is this schema exactly "the null type" (`{"type": "null"}` or `{"type": ["null"]}`)?
fn is_null_schema(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    let null_type = match object.get("type") {
        Some(Value::String(name)) => name == "null",
        Some(Value::Array(names)) => names.len() == 1 && names[0] == "null",
        _ => false,
    };
    null_type
        && object
            .keys()
            .all(|key| matches!(key.as_str(), "type" | "title" | "description"))
}

/// Converts one schema, in place, and every schema nested in it.
fn schema(value: &mut Value, pointer: &str) -> Result<(), ConvertError> {
    let object = match value {
        Value::Object(object) => object,
        Value::Bool(true) => {
            *value = Value::Object(Map::new());
            return Ok(());
        }
        Value::Bool(false) => {
            let mut never = Map::new();
            never.insert("not".to_owned(), Value::Object(Map::new()));
            *value = Value::Object(never);
            return Ok(());
        }
        _ => {
            return Err(ConvertError::Malformed {
                pointer: pointer.to_owned(),
                reason: "expected a schema (an object or a boolean)",
            });
        }
    };
    if strip_reference(object) {
        return Ok(());
    }
    object.remove("propertyNames");

    // Null alternatives first: a merged inline member then goes through the other rules too.
    let mut nullable = null_alternatives(object, pointer)?;
    nullable |= object.get("nullable") == Some(&Value::Bool(true));
    nullable |= type_list(object, pointer)?;
    const_to_enum(object);
    examples_to_example(object);
    exclusive_bound(
        object,
        pointer,
        "exclusiveMinimum",
        "minimum",
        |excl, incl| excl >= incl,
    )?;
    exclusive_bound(
        object,
        pointer,
        "exclusiveMaximum",
        "maximum",
        |excl, incl| excl <= incl,
    )?;
    if let Some(Value::String(format)) = object.get_mut("format") {
        if let Some(bits) = format.strip_prefix("u-int") {
            *format = format!("uint{bits}");
        }
    }

    if let Some(properties) = object.get_mut("properties") {
        let pointer = child(pointer, "properties");
        for (name, value) in as_object(properties, &pointer)? {
            schema(value, &child(&pointer, name))?;
        }
    }
    if let Some(additional) = object.get_mut("additionalProperties") {
        if !additional.is_boolean() {
            schema(additional, &child(pointer, "additionalProperties"))?;
        }
    }
    for key in ["items", "not"] {
        if let Some(value) = object.get_mut(key) {
            schema(value, &child(pointer, key))?;
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(list) = object.get_mut(key) {
            let pointer = child(pointer, key);
            for (index, value) in as_array(list, &pointer)?.iter_mut().enumerate() {
                schema(value, &child(&pointer, &index.to_string()))?;
            }
        }
    }

    if nullable {
        object.insert("nullable".to_owned(), Value::Bool(true));
    }
    Ok(())
}

/// Rewrites a 3.1 type list; returns whether it allowed `null`.
fn type_list(object: &mut Map<String, Value>, pointer: &str) -> Result<bool, ConvertError> {
    let names = match object.get("type") {
        Some(Value::Array(names)) => names.clone(),
        Some(Value::String(name)) if name == "null" => vec![Value::from("null")],
        _ => return Ok(false),
    };
    let mut has_null = false;
    let mut others = Vec::new();
    for name in names {
        match name {
            Value::String(name) if name == "null" => has_null = true,
            Value::String(name) => others.push(name),
            _ => {
                return Err(ConvertError::Malformed {
                    pointer: child(pointer, "type"),
                    reason: "a type list may hold only strings",
                });
            }
        }
    }
    match others.as_slice() {
        [] => {
            // Only `null` is allowed: 3.0 says that with a nullable schema whose only value is null.
            object.remove("type");
            object
                .entry("enum")
                .or_insert_with(|| Value::Array(vec![Value::Null]));
        }
        [single] => {
            object.insert("type".to_owned(), Value::from(single.as_str()));
        }
        several => {
            return Err(ConvertError::SeveralTypes {
                pointer: pointer.to_owned(),
                types: several.join(", "),
            });
        }
    }
    Ok(has_null)
}

/// Removes `{"type": "null"}` members of `oneOf`/`anyOf`; returns whether there was one.
///
/// A single remaining `$ref` member becomes `allOf: [{$ref}]` (the 3.0 way of making a
/// reference nullable); a single remaining inline schema is merged into this schema when no key
/// clashes, and is kept as `allOf: [schema]` otherwise.
fn null_alternatives(object: &mut Map<String, Value>, pointer: &str) -> Result<bool, ConvertError> {
    let mut found_null = false;
    for key in ["oneOf", "anyOf"] {
        let Some(list) = object.get_mut(key) else {
            continue;
        };
        let members = as_array(list, &child(pointer, key))?;
        let before = members.len();
        members.retain(|member| !is_null_schema(member));
        if members.len() == before {
            continue;
        }
        found_null = true;
        match members.len() {
            0 => {
                object.remove(key);
                object
                    .entry("enum")
                    .or_insert_with(|| Value::Array(vec![Value::Null]));
            }
            1 => {
                let Some(Value::Array(mut members)) = object.remove(key) else {
                    continue;
                };
                let member = members.remove(0);
                let mergeable = match &member {
                    Value::Object(inner) if !inner.contains_key("$ref") => {
                        inner.keys().all(|k| !object.contains_key(k))
                    }
                    _ => false,
                };
                match member {
                    Value::Object(inner) if mergeable => object.extend(inner),
                    member => match object.get_mut("allOf") {
                        Some(Value::Array(all_of)) => all_of.push(member),
                        _ => {
                            object.insert("allOf".to_owned(), Value::Array(vec![member]));
                        }
                    },
                }
            }
            _ => {}
        }
    }
    Ok(found_null)
}

fn const_to_enum(object: &mut Map<String, Value>) {
    if let Some(value) = object.remove("const") {
        object
            .entry("enum")
            .or_insert_with(|| Value::Array(vec![value]));
    }
}

fn examples_to_example(object: &mut Map<String, Value>) {
    // `examples` goes whatever its form; a 3.1 schema's is an array.
    if let Some(Value::Array(mut examples)) = object.remove("examples") {
        if !examples.is_empty() && !object.contains_key("example") {
            object.insert("example".to_owned(), examples.swap_remove(0));
        }
    }
}

/// Turns a numeric 3.1 `exclusive` bound into the 3.0 form: the bound moves to `inclusive`
/// (`minimum`/`maximum`) and `exclusive` becomes `true`. When an inclusive bound is also present,
/// the stricter of the two wins; `stricter(excl, incl)` says whether the exclusive one is.
fn exclusive_bound(
    object: &mut Map<String, Value>,
    pointer: &str,
    exclusive: &str,
    inclusive: &str,
    stricter: fn(f64, f64) -> bool,
) -> Result<(), ConvertError> {
    let bound = match object.get(exclusive) {
        None | Some(Value::Bool(_)) => return Ok(()),
        Some(Value::Number(bound)) => bound.clone(),
        Some(_) => {
            return Err(ConvertError::Malformed {
                pointer: child(pointer, exclusive),
                reason: "an exclusive bound must be a number (3.1) or a boolean (3.0)",
            });
        }
    };
    let replaces_inclusive = match object.get(inclusive).and_then(Value::as_f64) {
        None => true,
        Some(incl) => bound.as_f64().is_some_and(|excl| stricter(excl, incl)),
    };
    if replaces_inclusive {
        object.insert(inclusive.to_owned(), Value::Number(bound));
        object.insert(exclusive.to_owned(), Value::Bool(true));
    } else {
        object.remove(exclusive);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
