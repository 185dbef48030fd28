// Tests may unwrap: a failure is the report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};

use super::{downconvert, ConvertError};

/// A minimal 3.1 document holding `schema` as `components.schemas.S`.
fn doc_with_schema(schema: Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": {"S": schema}}
    })
}

/// Down-converts a document holding `schema` and returns the converted schema.
fn convert_schema(schema: Value) -> Value {
    let converted = downconvert(doc_with_schema(schema)).unwrap();
    converted["components"]["schemas"]["S"].clone()
}

#[test]
fn sets_version_3_0_3() {
    let converted = downconvert(doc_with_schema(json!({"type": "string"}))).unwrap();
    assert_eq!(converted["openapi"], "3.0.3");
}

#[test]
fn rejects_documents_that_are_not_3_1() {
    let mut doc = doc_with_schema(json!({}));
    doc["openapi"] = json!("3.0.3");
    assert_eq!(
        downconvert(doc),
        Err(ConvertError::UnsupportedVersion {
            found: "3.0.3".to_owned()
        })
    );
    let mut doc = doc_with_schema(json!({}));
    doc.as_object_mut().unwrap().remove("openapi");
    assert!(matches!(
        downconvert(doc),
        Err(ConvertError::UnsupportedVersion { found }) if found == "(missing)"
    ));
    assert_eq!(downconvert(json!([1, 2])), Err(ConvertError::NotAnObject));
}

#[test]
fn drops_license_identifier_and_other_3_1_only_fields() {
    let doc = json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "info": {
            "title": "t", "version": "1", "summary": "short",
            "license": {"name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0"}
        },
        "paths": {},
        "webhooks": {"ping": {"post": {"responses": {"200": {"description": "ok"}}}}},
        "components": {"pathItems": {"P": {}}, "schemas": {}}
    });
    let converted = downconvert(doc).unwrap();
    assert_eq!(
        converted["info"],
        json!({"title": "t", "version": "1", "license": {"name": "MIT OR Apache-2.0"}})
    );
    for key in ["jsonSchemaDialect", "webhooks"] {
        assert!(converted.get(key).is_none(), "{key} kept");
    }
    assert!(converted["components"].get("pathItems").is_none());
}

#[test]
fn type_list_with_null_becomes_nullable() {
    assert_eq!(
        convert_schema(json!({"type": ["string", "null"], "description": "d"})),
        json!({"type": "string", "nullable": true, "description": "d"})
    );
    // The order of the list does not matter.
    assert_eq!(
        convert_schema(json!({"type": ["null", "integer"], "format": "int32"})),
        json!({"type": "integer", "format": "int32", "nullable": true})
    );
}

#[test]
fn type_list_without_null_becomes_a_single_type() {
    assert_eq!(
        convert_schema(json!({"type": ["boolean"]})),
        json!({"type": "boolean"})
    );
}

#[test]
fn type_list_with_only_null_becomes_a_nullable_null_enum() {
    assert_eq!(
        convert_schema(json!({"type": ["null"]})),
        json!({"enum": [null], "nullable": true})
    );
    assert_eq!(
        convert_schema(json!({"type": "null"})),
        json!({"enum": [null], "nullable": true})
    );
}

#[test]
fn type_list_with_several_types_is_an_error() {
    let err = downconvert(doc_with_schema(json!({
        "type": "object",
        "properties": {"v": {"type": ["string", "integer", "null"]}}
    })))
    .unwrap_err();
    assert_eq!(
        err,
        ConvertError::SeveralTypes {
            pointer: "/components/schemas/S/properties/v".to_owned(),
            types: "string, integer".to_owned()
        }
    );
    assert!(err
        .to_string()
        .contains("/components/schemas/S/properties/v"));
}

#[test]
fn one_of_ref_and_null_becomes_nullable_all_of() {
    let expected = json!({
        "allOf": [{"$ref": "#/components/schemas/Player"}],
        "nullable": true,
        "description": "The winner, once there is one."
    });
    // utoipa writes the null member first; other writers put it last.
    assert_eq!(
        convert_schema(json!({
            "oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Player"}],
            "description": "The winner, once there is one."
        })),
        expected
    );
    assert_eq!(
        convert_schema(json!({
            "oneOf": [{"$ref": "#/components/schemas/Player"}, {"type": "null"}],
            "description": "The winner, once there is one."
        })),
        expected
    );
}

#[test]
fn any_of_ref_and_null_becomes_nullable_all_of() {
    assert_eq!(
        convert_schema(json!({"anyOf": [{"$ref": "#/components/schemas/A"}, {"type": "null"}]})),
        json!({"allOf": [{"$ref": "#/components/schemas/A"}], "nullable": true})
    );
}

#[test]
fn one_of_inline_and_null_is_merged_and_converted() {
    assert_eq!(
        convert_schema(json!({
            "oneOf": [{"type": "null"}, {"type": "integer", "format": "u-int32"}],
            "description": "d"
        })),
        json!({"type": "integer", "format": "uint32", "nullable": true, "description": "d"})
    );
}

#[test]
fn one_of_several_members_and_null_keeps_the_others() {
    assert_eq!(
        convert_schema(json!({
            "oneOf": [
                {"$ref": "#/components/schemas/A"},
                {"$ref": "#/components/schemas/B"},
                {"type": "null"}
            ]
        })),
        json!({
            "oneOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}],
            "nullable": true
        })
    );
}

#[test]
fn one_of_without_null_is_left_alone() {
    let schema = json!({
        "oneOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}],
        "discriminator": {"propertyName": "kind"}
    });
    assert_eq!(convert_schema(schema.clone()), schema);
}

#[test]
fn keys_beside_a_ref_are_dropped() {
    assert_eq!(
        convert_schema(json!({
            "type": "object",
            "properties": {
                "board": {"$ref": "#/components/schemas/Board", "description": "d", "default": 1}
            }
        })),
        json!({
            "type": "object",
            "properties": {"board": {"$ref": "#/components/schemas/Board"}}
        })
    );
}

#[test]
fn property_names_is_dropped() {
    assert_eq!(
        convert_schema(json!({
            "type": "object",
            "additionalProperties": {"type": "integer"},
            "propertyNames": {"type": "string"}
        })),
        json!({"type": "object", "additionalProperties": {"type": "integer"}})
    );
}

#[test]
fn const_becomes_a_one_value_enum() {
    assert_eq!(
        convert_schema(json!({"type": "string", "const": "star"})),
        json!({"type": "string", "enum": ["star"]})
    );
}

#[test]
fn examples_become_example() {
    assert_eq!(
        convert_schema(json!({"type": "integer", "examples": [3, 4]})),
        json!({"type": "integer", "example": 3})
    );
    // An existing `example` wins.
    assert_eq!(
        convert_schema(json!({"type": "integer", "example": 1, "examples": [3]})),
        json!({"type": "integer", "example": 1})
    );
}

#[test]
fn numeric_exclusive_bounds_become_the_boolean_form() {
    assert_eq!(
        convert_schema(json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5})),
        json!({
            "type": "number",
            "minimum": 0, "exclusiveMinimum": true,
            "maximum": 1.5, "exclusiveMaximum": true
        })
    );
}

#[test]
fn exclusive_bound_next_to_an_inclusive_one_keeps_the_stricter() {
    // exclusiveMinimum 5 is stricter than minimum 2; maximum 7 is stricter than exclusiveMaximum 9.
    assert_eq!(
        convert_schema(json!({
            "type": "integer",
            "minimum": 2, "exclusiveMinimum": 5,
            "maximum": 7, "exclusiveMaximum": 9
        })),
        json!({"type": "integer", "minimum": 5, "exclusiveMinimum": true, "maximum": 7})
    );
}

#[test]
fn boolean_exclusive_bounds_are_kept() {
    let schema = json!({"type": "integer", "minimum": 0, "exclusiveMinimum": false});
    assert_eq!(convert_schema(schema.clone()), schema);
}

#[test]
fn malformed_exclusive_bound_is_an_error() {
    let err = downconvert(doc_with_schema(json!({"exclusiveMinimum": "0"}))).unwrap_err();
    assert!(matches!(
        err,
        ConvertError::Malformed { ref pointer, .. } if pointer == "/components/schemas/S/exclusiveMinimum"
    ));
}

#[test]
fn unsigned_formats_are_renamed() {
    for (from, to) in [
        ("u-int8", "uint8"),
        ("u-int16", "uint16"),
        ("u-int32", "uint32"),
        ("u-int64", "uint64"),
    ] {
        assert_eq!(
            convert_schema(json!({"type": "integer", "format": from, "minimum": 0})),
            json!({"type": "integer", "format": to, "minimum": 0})
        );
    }
    // Other formats stay.
    assert_eq!(
        convert_schema(json!({"type": "integer", "format": "int64"})),
        json!({"type": "integer", "format": "int64"})
    );
}

#[test]
fn boolean_schemas_become_objects_but_additional_properties_keeps_booleans() {
    assert_eq!(
        convert_schema(json!({
            "type": "object",
            "properties": {"anything": true, "nothing": false},
            "additionalProperties": false
        })),
        json!({
            "type": "object",
            "properties": {"anything": {}, "nothing": {"not": {}}},
            "additionalProperties": false
        })
    );
}

#[test]
fn recursion_reaches_every_nested_schema_position() {
    let marker = json!({"type": ["integer", "null"], "format": "u-int64"});
    let expected = json!({"type": "integer", "format": "uint64", "nullable": true});
    let converted = convert_schema(json!({
        "type": "object",
        "properties": {
            "p": marker,
            "deep": {"type": "object", "properties": {"q": marker}}
        },
        "additionalProperties": marker,
        "allOf": [marker],
        "anyOf": [marker, {"type": "string"}],
        "oneOf": [marker, {"type": "string"}],
        "not": marker,
        "items": {"type": "array", "items": marker}
    }));
    for pointer in [
        "/properties/p",
        "/properties/deep/properties/q",
        "/additionalProperties",
        "/allOf/0",
        "/anyOf/0",
        "/oneOf/0",
        "/not",
        "/items/items",
    ] {
        assert_eq!(converted.pointer(pointer), Some(&expected), "at {pointer}");
    }
}

#[test]
fn recursion_reaches_paths_parameters_bodies_responses_and_headers() {
    let marker = json!({"type": ["string", "null"], "const": "x"});
    let expected = json!({"type": "string", "enum": ["x"], "nullable": true});
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/games/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": marker}],
                "post": {
                    "operationId": "op",
                    "parameters": [
                        {"name": "If-Match", "in": "header", "schema": marker},
                        {"name": "q", "in": "query", "content": {"application/json": {"schema": marker}}}
                    ],
                    "requestBody": {"content": {"application/json": {
                        "schema": marker,
                        "encoding": {"f": {"headers": {"X-E": {"schema": marker}}}}
                    }}},
                    "responses": {
                        "200": {
                            "description": "ok",
                            "headers": {"ETag": {"schema": marker}},
                            "content": {"application/json": {"schema": marker}}
                        }
                    },
                    "callbacks": {"done": {"{$request.body#/url}": {"post": {
                        "requestBody": {"content": {"application/json": {"schema": marker}}},
                        "responses": {"200": {"description": "ok"}}
                    }}}}
                }
            }
        },
        "components": {
            "parameters": {"P": {"name": "p", "in": "query", "schema": marker}},
            "headers": {"H": {"schema": marker}},
            "requestBodies": {"B": {"content": {"application/json": {"schema": marker}}}},
            "responses": {"R": {"description": "r", "content": {"application/json": {"schema": marker}}}},
            "callbacks": {"C": {"{$url}": {"get": {"parameters": [{"name": "c", "in": "query", "schema": marker}]}}}}
        }
    });
    let converted = downconvert(doc).unwrap();
    let op = "/paths/~1games~1{id}/post";
    for pointer in [
        "/paths/~1games~1{id}/parameters/0/schema".to_owned(),
        format!("{op}/parameters/0/schema"),
        format!("{op}/parameters/1/content/application~1json/schema"),
        format!("{op}/requestBody/content/application~1json/schema"),
        format!("{op}/requestBody/content/application~1json/encoding/f/headers/X-E/schema"),
        format!("{op}/responses/200/headers/ETag/schema"),
        format!("{op}/responses/200/content/application~1json/schema"),
        format!(
            "{op}/callbacks/done/{{$request.body#~1url}}/post/requestBody/content/application~1json/schema"
        ),
        "/components/parameters/P/schema".to_owned(),
        "/components/headers/H/schema".to_owned(),
        "/components/requestBodies/B/content/application~1json/schema".to_owned(),
        "/components/responses/R/content/application~1json/schema".to_owned(),
        "/components/callbacks/C/{$url}/get/parameters/0/schema".to_owned(),
    ] {
        assert_eq!(converted.pointer(&pointer), Some(&expected), "at {pointer}");
    }
}

#[test]
fn responses_without_description_get_one() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/games/{id}": {"delete": {
            "operationId": "delete_game",
            "responses": {
                "204": {},
                "418": {"content": {}},
                "default": {"content": {}},
                "404": {"description": "No such game"}
            }
        }}}
    });
    let converted = downconvert(doc).unwrap();
    let responses = &converted["paths"]["/games/{id}"]["delete"]["responses"];
    assert_eq!(responses["204"]["description"], "No Content");
    assert_eq!(responses["418"]["description"], "Response with status 418");
    assert_eq!(responses["default"]["description"], "Default response");
    assert_eq!(responses["404"]["description"], "No such game");
}

#[test]
fn siblings_of_references_outside_schemas_are_dropped() {
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/games": {"get": {
            "operationId": "list",
            "parameters": [{"$ref": "#/components/parameters/P", "description": "d"}],
            "responses": {"404": {"$ref": "#/components/responses/NotFound", "summary": "s"}}
        }}}
    });
    let converted = downconvert(doc).unwrap();
    let op = &converted["paths"]["/games"]["get"];
    assert_eq!(
        op["parameters"][0],
        json!({"$ref": "#/components/parameters/P"})
    );
    // A referenced response gets no description: it is not a Response Object.
    assert_eq!(
        op["responses"]["404"],
        json!({"$ref": "#/components/responses/NotFound"})
    );
}

#[test]
fn examples_and_property_names_that_look_like_keywords_are_untouched() {
    let schema = json!({
        "type": "object",
        "properties": {
            "const": {"type": "string"},
            "type": {"type": "string"},
            "$ref": {"type": "string"}
        },
        "example": {"type": ["a", "null"], "const": 1, "format": "u-int64"}
    });
    assert_eq!(convert_schema(schema.clone()), schema);

    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"post": {
            "operationId": "x",
            "requestBody": {"content": {"application/json": {
                "schema": {"type": "object"},
                "examples": {"one": {"value": {"examples": [1], "type": ["string", "null"]}}}
            }}},
            "responses": {"200": {"description": "ok"}}
        }}}
    });
    let converted = downconvert(doc.clone()).unwrap();
    let media = "/paths/~1x/post/requestBody/content/application~1json/examples";
    assert_eq!(converted.pointer(media), doc.pointer(media));
}

#[test]
fn malformed_structure_is_reported_with_its_pointer() {
    let err = downconvert(doc_with_schema(
        json!({"type": "object", "properties": [1]}),
    ))
    .unwrap_err();
    assert_eq!(
        err,
        ConvertError::Malformed {
            pointer: "/components/schemas/S/properties".to_owned(),
            reason: "expected a JSON object"
        }
    );
}
