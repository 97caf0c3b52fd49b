//! Data formats, each checked with its real parser and converted to a JSON value.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::ts::line_col;
use crate::{DataFormat, SyntaxError};

/// See [`crate::parse_data`].
pub(crate) fn parse_data(format: DataFormat, source: &str) -> Result<Value, SyntaxError> {
    match format {
        DataFormat::Json => parse_json(source),
        DataFormat::Jsonc => parse_json(&strip_jsonc(source)),
        DataFormat::Toml => parse_toml(source),
        DataFormat::Yaml => parse_yaml(source),
        DataFormat::Ini => parse_ini(source),
    }
}

// -------------------------------------------------------------------- JSON

fn parse_json(source: &str) -> Result<Value, SyntaxError> {
    // A UTF-8 BOM is tolerated by most JSON readers (and by editors that write it).
    let text = source.strip_prefix('\u{feff}').unwrap_or(source);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = StrictValue
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            let msg = e.to_string();
            // serde_json appends " at line L column C"; keep the message short.
            let msg = match msg.rfind(" at line ") {
                Some(i) => msg[..i].to_owned(),
                None => msg,
            };
            SyntaxError::new(
                u32::try_from(e.line().max(1)).unwrap_or(u32::MAX),
                u32::try_from(e.column().max(1)).unwrap_or(u32::MAX),
                msg,
            )
        })?;
    Ok(value)
}

/// Deserializes a `serde_json::Value`, rejecting duplicate object keys (serde_json's own
/// `Value` keeps the last one silently).
struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        StrictValue.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element_seed(StrictValue)? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if m.contains_key(&k) {
                return Err(A::Error::custom(format!("duplicate key `{k}`")));
            }
            let v = map.next_value_seed(StrictValue)?;
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }
}

/// Turns JSON-with-comments into JSON: `//` and `/* */` comments become spaces (newlines are
/// kept so error positions still match the source) and trailing commas before `]` or `}` are
/// removed. String-aware.
pub(crate) fn strip_jsonc(src: &str) -> String {
    let b = src.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    // Index in `out` of the last comma seen outside strings with only whitespace/comments
    // after it.
    let mut pending_comma: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        match c {
            b'"' => {
                pending_comma = None;
                out.push(c);
                i += 1;
                while i < b.len() {
                    let d = b[i];
                    out.push(d);
                    i += 1;
                    if d == b'\\' {
                        if let Some(&e) = b.get(i) {
                            out.push(e);
                            i += 1;
                        }
                    } else if d == b'"' || d == b'\n' {
                        break;
                    }
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out.push(if b[i] == b'\t' { b'\t' } else { b' ' });
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.extend_from_slice(b"  ");
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
                if i < b.len() {
                    out.extend_from_slice(b"  ");
                    i += 2;
                }
            }
            b',' => {
                pending_comma = Some(out.len());
                out.push(c);
                i += 1;
            }
            b']' | b'}' => {
                if let Some(p) = pending_comma.take()
                    && let Some(slot) = out.get_mut(p)
                {
                    *slot = b' ';
                }
                out.push(c);
                i += 1;
            }
            _ => {
                if !c.is_ascii_whitespace() {
                    pending_comma = None;
                }
                out.push(c);
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes, and multi-byte sequences copied whole.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

// -------------------------------------------------------------------- TOML

fn parse_toml(source: &str) -> Result<Value, SyntaxError> {
    match toml::from_str::<toml::Table>(source) {
        Ok(t) => Ok(toml_to_json(toml::Value::Table(t))),
        Err(e) => {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(source, s.start));
            let msg = e.message().trim().to_owned();
            Err(SyntaxError::new(line, column, msg))
        }
    }
}

fn toml_to_json(v: toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::Number(i.into()),
        toml::Value::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => {
            Value::Object(t.into_iter().map(|(k, v)| (k, toml_to_json(v))).collect())
        }
    }
}

// -------------------------------------------------------------------- YAML

fn parse_yaml(source: &str) -> Result<Value, SyntaxError> {
    let mut opts = serde_saphyr::Options::default();
    opts.strict_booleans = true;
    opts.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    opts.with_snippet = false;
    opts.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::AsString;
    let docs = serde_saphyr::from_multiple_with_options::<Value>(source, opts).map_err(|e| {
        let (line, column) = e
            .location()
            .map_or((1, 1), |l| (l.line().max(1), l.column().max(1)));
        let msg = e.to_string();
        let mut msg = msg
            .lines()
            .next()
            .unwrap_or("invalid YAML")
            .trim()
            .to_owned();
        if let Some(i) = msg.rfind(" at line ") {
            msg.truncate(i);
        }
        let msg = msg.replace(", set DuplicateKeyPolicy in Options if acceptable", "");
        SyntaxError::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
            msg,
        )
    })?;
    let mut docs = docs;
    Ok(match docs.len() {
        0 => Value::Null,
        1 => docs.pop().unwrap_or(Value::Null),
        _ => Value::Array(docs),
    })
}

// -------------------------------------------------------------------- INI

/// INI with configparser semantics where it matters: `;`/`#` comments, `key = value` or
/// `key: value`, indented continuation lines, values taken literally (no quote or escape
/// processing). Keys before the first section go to the top level. Duplicate keys within a
/// section and duplicate sections are errors (Python's configparser rejects both).
fn parse_ini(source: &str) -> Result<Value, SyntaxError> {
    let text = source.strip_prefix('\u{feff}').unwrap_or(source);
    let opt = ini::ParseOption {
        enabled_quote: false,
        enabled_escape: false,
        enabled_indented_mutiline_value: true,
        enabled_preserve_key_leading_whitespace: false,
    };
    let parsed = ini::Ini::load_from_str_opt(text, opt).map_err(|e| {
        SyntaxError::new(
            u32::try_from(e.line.max(1)).unwrap_or(u32::MAX),
            u32::try_from(e.col.max(1)).unwrap_or(u32::MAX),
            e.msg.to_string(),
        )
    })?;
    let mut root = Map::new();
    let mut seen_sections: Vec<String> = Vec::new();
    for (section, props) in parsed.iter() {
        let mut obj = Map::new();
        for (k, v) in props.iter() {
            if obj.contains_key(k) {
                let (line, col) = find_ini_key(text, section, k);
                return Err(SyntaxError::new(
                    line,
                    col,
                    match section {
                        Some(s) => format!("duplicate key `{k}` in section `[{s}]`"),
                        None => format!("duplicate key `{k}`"),
                    },
                ));
            }
            obj.insert(k.to_owned(), Value::String(v.to_owned()));
        }
        match section {
            None => root.extend(obj),
            Some(s) => {
                if seen_sections.iter().any(|x| x == s) {
                    let (line, col) = find_ini_section(text, s, 2);
                    return Err(SyntaxError::new(
                        line,
                        col,
                        format!("duplicate section `[{s}]`"),
                    ));
                }
                seen_sections.push(s.to_owned());
                root.insert(s.to_owned(), Value::Object(obj));
            }
        }
    }
    Ok(Value::Object(root))
}

/// 1-based position of the `nth` header line of a section.
fn find_ini_section(text: &str, section: &str, nth: usize) -> (u32, u32) {
    let mut count = 0;
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.starts_with('[') && t.trim_start_matches('[').trim_end_matches(']').trim() == section {
            count += 1;
            if count == nth {
                return (u32::try_from(i + 1).unwrap_or(u32::MAX), 1);
            }
        }
    }
    (1, 1)
}

/// 1-based position of the second definition of `key` in `section`.
fn find_ini_key(text: &str, section: Option<&str>, key: &str) -> (u32, u32) {
    let mut current: Option<String> = None;
    let mut count = 0;
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.starts_with('[') {
            current = Some(
                t.trim_start_matches('[')
                    .trim_end_matches(']')
                    .trim()
                    .to_owned(),
            );
            continue;
        }
        if current.as_deref() != section || l.starts_with([' ', '\t']) {
            continue;
        }
        let k = t.split(['=', ':']).next().unwrap_or("").trim();
        if k == key {
            count += 1;
            if count == 2 {
                return (u32::try_from(i + 1).unwrap_or(u32::MAX), 1);
            }
        }
    }
    (1, 1)
}
