//! Turns Kafka's vendored message schemas (`messages/*.json`, see `messages/PROVENANCE`) into
//! static tables (`$OUT_DIR/messages.rs`, included by `src/message/schema.rs`), so the core needs
//! no JSON parser at run time and stays `no_std`. The schema language is Kafka's own
//! (`generator/src/main/java/org/apache/kafka/message/{MessageSpec,FieldSpec,Versions,FieldType}.java`):
//! whole-line `//` comments, "versions"/"nullableVersions"/"taggedVersions"/"flexibleVersions" as
//! `N`, `N+`, `N-M` or `none`, struct types defined inline or in "commonStructs".
use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("messages");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("crate/core/messages")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    let mut out = String::from("&[\n");
    for path in &names {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(path).expect("read schema");
        // Kafka's schemas carry whole-line `//` comments (MessageGenerator strips them the same way:
        // its JSON reader is configured with ALLOW_COMMENTS).
        let json: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let common: Vec<Value> = v.get("commonStructs").and_then(Value::as_array).cloned().unwrap_or_default();
        let kind = match v["type"].as_str() {
            Some("request") => "Kind::Request",
            Some("response") => "Kind::Response",
            Some("header") => "Kind::Header",
            other => panic!("{}: type {other:?}", path.display()),
        };
        let name = v["name"].as_str().expect("name");
        let api_key = v.get("apiKey").and_then(Value::as_i64).unwrap_or(-1);
        let mut fields = String::new();
        emit_fields(&mut fields, v["fields"].as_array().expect("fields"), &common, name, 1);
        writeln!(
            out,
            "  MessageDef {{ name: {name:?}, api_key: {api_key}, kind: {kind}, valid: {}, flexible: {}, fields: {fields} }},",
            versions(v["validVersions"].as_str().expect("validVersions")),
            versions(v["flexibleVersions"].as_str().unwrap_or("none")),
        )
        .unwrap();
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("messages.rs");
    std::fs::write(dest, out).expect("write messages.rs");
}

/// `Versions.parse`: "none", "N", "N+", "N-M".
fn versions(s: &str) -> String {
    let s = s.trim();
    let (lo, hi) = if s == "none" {
        (1, 0)
    } else if let Some(n) = s.strip_suffix('+') {
        (n.parse().expect("N+"), i16::MAX)
    } else if let Some((a, b)) = s.split_once('-') {
        (a.parse().expect("N-M"), b.parse().expect("N-M"))
    } else {
        let n: i16 = s.parse().expect("N");
        (n, n)
    };
    format!("Versions {{ lo: {lo}, hi: {hi} }}")
}

/// `FieldSpec.camelCaseName`: the name with its first letter lower-cased (the JSON converters' key).
fn camel(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

fn emit_fields(out: &mut String, fields: &[Value], common: &[Value], ctx: &str, depth: usize) {
    assert!(depth < 16, "{ctx}: struct nesting too deep");
    out.push_str("&[");
    for f in fields {
        let name = f["name"].as_str().expect("field name");
        let ty = f["type"].as_str().expect("field type").trim();
        let (array, elem) = match ty.strip_prefix("[]") {
            Some(e) => (true, e),
            None => (false, ty),
        };
        let prim = match elem {
            "bool" => Some("Bool"),
            "int8" => Some("Int8"),
            "int16" => Some("Int16"),
            "uint16" => Some("Uint16"),
            "int32" => Some("Int32"),
            "uint32" => Some("Uint32"),
            "int64" => Some("Int64"),
            "float64" => Some("Float64"),
            "uuid" => Some("Uuid"),
            "string" => Some("String"),
            "bytes" => Some("Bytes"),
            "records" => Some("Records"),
            _ => None,
        };
        let mut sub = String::from("&[]");
        let struct_name = if prim.is_some() { "" } else { elem };
        let t = match prim {
            Some(p) => p,
            None => {
                let def = match f.get("fields").and_then(Value::as_array) {
                    Some(fs) => fs.clone(),
                    None => common
                        .iter()
                        .find(|c| c["name"].as_str() == Some(elem))
                        .and_then(|c| c["fields"].as_array().cloned())
                        .unwrap_or_else(|| panic!("{ctx}.{name}: unknown type {elem}")),
                };
                sub.clear();
                emit_fields(&mut sub, &def, common, &format!("{ctx}.{name}"), depth + 1);
                "Struct"
            }
        };
        let tag = f.get("tag").and_then(Value::as_u64).map_or(u32::MAX, |t| t as u32);
        let flexible = match f.get("flexibleVersions").and_then(Value::as_str) {
            Some(s) => format!("Some({})", versions(s)),
            None => String::from("None"),
        };
        write!(
            out,
            "FieldDef {{ name: {:?}, ty: Type::{t}, array: {array}, versions: {}, nullable: {}, tagged: {}, tag: {tag}, flexible: {flexible}, struct_name: {struct_name:?}, fields: {sub} }},",
            camel(name),
            versions(f["versions"].as_str().expect("versions")),
            versions(f.get("nullableVersions").and_then(Value::as_str).unwrap_or("none")),
            versions(f.get("taggedVersions").and_then(Value::as_str).unwrap_or("none")),
        )
        .unwrap();
    }
    out.push(']');
}
