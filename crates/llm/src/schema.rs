//! A small JSON Schema checker for the subset slopguard's prompts use.
//!
//! Supported keywords: `type` (string or list), `properties`, `required`,
//! `additionalProperties: false`, `items`, `minItems`, `maxItems`, `minLength`, `maxLength`,
//! `enum`, `minimum`, `maximum`. Unknown keywords are ignored. The same schema is sent to the
//! server as `response_format.json_schema`, so it doubles as the model's output contract.

use serde_json::Value;

/// One violation: a JSON pointer-like path and a message written for the model's correction
/// turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Where, e.g. `/tasks/0/subtasks/1/title`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "{path}: {}", self.message)
    }
}

/// Checks `value` against `schema`; returns every violation found (at most 20).
pub fn validate(schema: &Value, value: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    check(schema, value, String::new(), &mut out);
    out.truncate(20);
    out
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_matches(expected: &str, v: &Value) -> bool {
    let actual = type_name(v);
    actual == expected || (expected == "number" && actual == "integer")
}

fn check(schema: &Value, value: &Value, path: String, out: &mut Vec<Violation>) {
    if out.len() >= 20 {
        return;
    }
    let Some(s) = schema.as_object() else {
        return;
    };
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_matches(t, value),
            Value::Array(ts) => ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, value)),
            _ => true,
        };
        if !ok {
            out.push(Violation {
                path,
                message: format!("expected {t}, found {}", type_name(value)),
            });
            return;
        }
    }
    if let Some(Value::Array(allowed)) = s.get("enum")
        && !allowed.contains(value)
    {
        out.push(Violation {
            path: path.clone(),
            message: format!("must be one of {}", Value::Array(allowed.clone())),
        });
    }
    match value {
        Value::Object(map) => {
            if let Some(Value::Array(req)) = s.get("required") {
                for key in req.iter().filter_map(Value::as_str) {
                    if !map.contains_key(key) {
                        out.push(Violation {
                            path: path.clone(),
                            message: format!("missing required field \"{key}\""),
                        });
                    }
                }
            }
            let props = s.get("properties").and_then(Value::as_object);
            for (k, v) in map {
                match props.and_then(|p| p.get(k)) {
                    Some(sub) => check(sub, v, format!("{path}/{k}"), out),
                    None => {
                        if s.get("additionalProperties") == Some(&Value::Bool(false)) {
                            out.push(Violation {
                                path: path.clone(),
                                message: format!("unexpected field \"{k}\""),
                            });
                        }
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(min) = s.get("minItems").and_then(Value::as_u64)
                && (items.len() as u64) < min
            {
                out.push(Violation {
                    path: path.clone(),
                    message: format!("needs at least {min} items, has {}", items.len()),
                });
            }
            if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
                && (items.len() as u64) > max
            {
                out.push(Violation {
                    path: path.clone(),
                    message: format!("allows at most {max} items, has {}", items.len()),
                });
            }
            if let Some(item_schema) = s.get("items") {
                for (i, item) in items.iter().enumerate() {
                    check(item_schema, item, format!("{path}/{i}"), out);
                }
            }
        }
        Value::String(text) => {
            let n = text.chars().count() as u64;
            if let Some(min) = s.get("minLength").and_then(Value::as_u64)
                && n < min
            {
                out.push(Violation {
                    path: path.clone(),
                    message: format!("must be at least {min} characters"),
                });
            }
            if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
                && n > max
            {
                out.push(Violation {
                    path: path.clone(),
                    message: format!("must be at most {max} characters, has {n}"),
                });
            }
        }
        Value::Number(num) => {
            if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), num.as_f64())
                && x < min
            {
                out.push(Violation {
                    path: path.clone(),
                    message: format!("must be >= {min}"),
                });
            }
            if let (Some(max), Some(x)) = (s.get("maximum").and_then(Value::as_f64), num.as_f64())
                && x > max
            {
                out.push(Violation {
                    path,
                    message: format!("must be <= {max}"),
                });
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "required": ["tasks"],
            "additionalProperties": false,
            "properties": {
                "tasks": {"type": "array", "maxItems": 2, "items": {
                    "type": "object", "required": ["id", "action"],
                    "properties": {
                        "id": {"type": "string", "maxLength": 5},
                        "action": {"enum": ["modify", "create"]},
                        "priority": {"type": "integer", "minimum": 1}
                    }
                }}
            }
        })
    }

    #[test]
    fn valid_value_has_no_violation() {
        let v = json!({"tasks": [{"id": "T001", "action": "modify", "priority": 1}]});
        assert!(validate(&schema(), &v).is_empty());
    }

    #[test]
    fn reports_each_violation_with_path() {
        let v = json!({"tasks": [{"id": "T000001", "action": "rewrite", "priority": 0}, {}, {}], "x": 1});
        let msgs: Vec<String> = validate(&schema(), &v)
            .iter()
            .map(|v| v.to_string())
            .collect();
        assert!(
            msgs.contains(&"/: unexpected field \"x\"".to_string()),
            "{msgs:?}"
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("/tasks: allows at most 2"))
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("/tasks/0/id: must be at most 5"))
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("/tasks/0/action: must be one of"))
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("/tasks/0/priority: must be >= 1"))
        );
        assert!(
            msgs.iter()
                .any(|m| m == "/tasks/1: missing required field \"id\"")
        );
    }

    #[test]
    fn wrong_type_stops_descent() {
        let v = json!({"tasks": "none"});
        let out = validate(&schema(), &v);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].message, "expected \"array\", found string");
    }
}
