//! A JSON Schema of the ruleset format, derived from the loader's own serde types (not written
//! by hand): their `Deserialize` implementations are run against a tracing deserializer that
//! records each field's name and shape, every enum's (renamed) variants, which fields may be
//! left out (a run without the field still succeeds) and which tables refuse unknown keys (a
//! run with an extra key fails). `toml::Spanned` wrappers are transparent. Each field carries
//! a `description` from the README's "Ruleset format" table ([`readme_docs`]), for editor hovers.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

type Error = de::value::Error;

/// The shape recorded at one path.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Bool,
    Int,
    Float,
    Str,
    Any,
    Seq,
    Enum(Vec<String>),
    Struct(Vec<String>),
    /// A table whose keys are the user's (`[text.<lang>]`): its values are traced at `path.*`.
    Map,
}

#[derive(Default)]
struct Rec {
    kinds: BTreeMap<String, Kind>,
    /// Full path of a field to leave out in this run.
    skip: Option<String>,
    /// Path of a table to give an unknown key in this run.
    probe: Option<String>,
}

const SPANNED: &str = "$__serde_spanned_private_Spanned";
const PROBE_KEY: &str = "zz-not-a-sowkit-key";
/// The key a traced map's one entry has; its value's path ends in `.*`.
const MAP_KEY: &str = "*";

#[derive(Clone)]
struct Tracer {
    path: String,
    rec: Rc<RefCell<Rec>>,
}

impl Tracer {
    fn record(&self, k: Kind) {
        self.rec
            .borrow_mut()
            .kinds
            .entry(self.path.clone())
            .or_insert(k);
    }
    fn at(&self, path: String) -> Tracer {
        Tracer {
            path,
            rec: self.rec.clone(),
        }
    }
    fn field(&self, f: &str) -> String {
        if self.path.is_empty() {
            f.to_string()
        } else {
            format!("{}.{f}", self.path)
        }
    }
}

macro_rules! ints {
    ($($m:ident),*) => {$(
        fn $m<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            self.record(Kind::Int);
            v.visit_u64(0)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Tracer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Any);
        v.visit_unit()
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Bool);
        v.visit_bool(false)
    }
    ints!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64
    );
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Float);
        v.visit_f64(0.0)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Float);
        v.visit_f64(0.0)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Str);
        v.visit_char('a')
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Str);
        v.visit_str("")
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_any(v)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_any(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_some(self)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_any(v)
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_any(v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.record(Kind::Seq);
        let item = self.at(format!("{}[]", self.path));
        v.visit_seq(OneItem(Some(item)))
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        // One entry, under the key `*`, so that the values' shape is traced at `path.*`.
        self.record(Kind::Map);
        v.visit_map(Fields {
            keys: vec![MAP_KEY],
            next: 0,
            tracer: self,
            spanned: false,
        })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        if name == SPANNED {
            // toml::Spanned<T>: start and end are positions; the value is T at this path.
            return v.visit_map(Fields {
                keys: fields.to_vec(),
                next: 0,
                tracer: self,
                spanned: true,
            });
        }
        self.record(Kind::Struct(fields.iter().map(|f| f.to_string()).collect()));
        let (skip, probe) = {
            let r = self.rec.borrow();
            (r.skip.clone(), r.probe.clone())
        };
        let mut keys: Vec<&'static str> = fields
            .iter()
            .copied()
            .filter(|f| skip.as_deref() != Some(self.field(f).as_str()))
            .collect();
        if probe.as_deref() == Some(self.path.as_str()) {
            keys.push(PROBE_KEY);
        }
        v.visit_map(Fields {
            keys,
            next: 0,
            tracer: self,
            spanned: false,
        })
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.record(Kind::Enum(variants.iter().map(|s| s.to_string()).collect()));
        let first = variants.first().copied().unwrap_or("");
        v.visit_enum(OneVariant {
            name: first,
            tracer: self,
        })
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_str(v)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
}

/// A sequence of exactly one traced item.
struct OneItem(Option<Tracer>);

impl<'de> de::SeqAccess<'de> for OneItem {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.0.take() {
            Some(t) => seed.deserialize(t).map(Some),
            None => Ok(None),
        }
    }
}

/// The keys of a table, each value traced at `path.key`.
struct Fields {
    keys: Vec<&'static str>,
    next: usize,
    tracer: Tracer,
    spanned: bool,
}

impl<'de> de::MapAccess<'de> for Fields {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some(k) = self.keys.get(self.next) else {
            return Ok(None);
        };
        seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(k))
            .map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let k = self.keys[self.next];
        self.next += 1;
        if self.spanned {
            if k.ends_with("value") {
                seed.deserialize(self.tracer.clone())
            } else {
                seed.deserialize(0u64.into_deserializer())
            }
        } else {
            seed.deserialize(self.tracer.at(self.tracer.field(k)))
        }
    }
}

/// An enum read as its first variant.
struct OneVariant {
    name: &'static str,
    tracer: Tracer,
}

impl<'de> de::EnumAccess<'de> for OneVariant {
    type Error = Error;
    type Variant = Tracer;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Tracer), Error> {
        let d = de::value::BorrowedStrDeserializer::<Error>::new(self.name);
        Ok((seed.deserialize(d)?, self.tracer))
    }
}

impl<'de> de::VariantAccess<'de> for Tracer {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(self, v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(self, "", fields, v)
    }
}

/// Runs `T`'s deserializer once against the tracer.
fn run<T: for<'de> Deserialize<'de>>(
    skip: Option<String>,
    probe: Option<String>,
) -> (Result<(), String>, Rec) {
    let rec = Rc::new(RefCell::new(Rec {
        skip,
        probe,
        ..Rec::default()
    }));
    let ok = T::deserialize(Tracer {
        path: String::new(),
        rec: rec.clone(),
    })
    .map(|_| ())
    .map_err(|e| e.to_string());
    let rec = Rc::try_unwrap(rec).map_or_else(|rc| rc.replace(Rec::default()), |c| c.into_inner());
    (ok, rec)
}

/// The README's "Ruleset format" table, the one place the format's keys are described:
/// schema path (`board.pits_per_side`, `example[].expect.next`; `*.source` for "any table's
/// `source`") → the row's meaning. A row's first cell names an optional table in backticks
/// (`[board]`, `[[example]]`, `[example.expect]`) then the keys it describes.
pub fn readme_docs() -> BTreeMap<String, String> {
    let readme = include_str!("../../README.md");
    let mut docs = BTreeMap::new();
    let Some(start) = readme.find("## Ruleset format") else {
        return docs;
    };
    for line in readme[start..].lines().skip(1) {
        if line.starts_with("## ") || line.starts_with("### ") {
            break;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        if cells.len() != 2 || cells[0] == "key" || cells[0].starts_with("---") {
            continue;
        }
        // The key cell too: it holds the ranges and examples (`pits_per_side` (1–16)).
        let meaning = format!(
            "{}: {}",
            cells[0].replace('`', ""),
            cells[1].replace('`', "")
        );
        let mut table = String::new();
        let ticked: Vec<&str> = cells[0].split('`').skip(1).step_by(2).collect();
        if cells[0].starts_with("any table's") {
            docs.insert("*.source".to_string(), meaning.clone());
            continue;
        }
        for t in ticked {
            if let Some(name) = t.strip_prefix("[[").and_then(|t| t.strip_suffix("]]")) {
                table = format!("{name}[]");
            } else if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                table = name.replacen("example.", "example[].", 1);
            } else {
                let key = t.split(['=', ' ']).next().unwrap_or("");
                if key.is_empty() || !key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                    continue;
                }
                let path = if table.is_empty() {
                    key.to_string()
                } else {
                    format!("{table}.{key}")
                };
                docs.entry(path).or_insert_with(|| meaning.clone());
            }
        }
    }
    docs
}

/// The description of the field at schema path `path` (README "Ruleset format"); a table
/// without its own row is described by name.
fn describe(path: &str, is_table: bool, docs: &BTreeMap<String, String>) -> Option<String> {
    if let Some(d) = docs.get(path) {
        return Some(d.clone());
    }
    if path.ends_with(".source") {
        return docs.get("*.source").cloned();
    }
    is_table.then(|| {
        let shown = path.replace("[]", "");
        let brackets = if path.ends_with("[]") || path == "example" {
            format!("[[{shown}]]")
        } else {
            format!("[{shown}]")
        };
        format!("the {brackets} table (README \"Ruleset format\")")
    })
}

/// The JSON Schema (draft 2020-12) of the TOML documents `T` deserializes from.
/// Panics only if `T` cannot be traced at all (a bug in the types, found by the tests).
pub fn of<T: for<'de> Deserialize<'de>>(title: &str) -> Value {
    let (ok, rec) = run::<T>(None, None);
    if let Err(e) = ok {
        panic!("the ruleset types cannot be traced: {e}");
    }
    let kinds = rec.kinds;
    let mut optional = BTreeSet::new();
    let mut open = BTreeSet::new();
    for (path, kind) in &kinds {
        if let Kind::Struct(fields) = kind {
            for f in fields {
                let fp = if path.is_empty() {
                    f.clone()
                } else {
                    format!("{path}.{f}")
                };
                if run::<T>(Some(fp.clone()), None).0.is_ok() {
                    optional.insert(fp);
                }
            }
            if run::<T>(None, Some(path.clone())).0.is_ok() {
                open.insert(path.clone());
            }
        }
    }
    let docs = readme_docs();
    let mut root = build("", &kinds, &optional, &open, &docs);
    if let Value::Object(m) = &mut root {
        let mut head = Map::new();
        head.insert(
            "$schema".into(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        head.insert("title".into(), json!(title));
        head.append(m);
        return Value::Object(head);
    }
    root
}

fn build(
    path: &str,
    kinds: &BTreeMap<String, Kind>,
    optional: &BTreeSet<String>,
    open: &BTreeSet<String>,
    docs: &BTreeMap<String, String>,
) -> Value {
    match kinds.get(path) {
        None | Some(Kind::Any) => json!({}),
        Some(Kind::Bool) => json!({"type": "boolean"}),
        Some(Kind::Int) => json!({"type": "integer"}),
        Some(Kind::Float) => json!({"type": "number"}),
        Some(Kind::Str) => json!({"type": "string"}),
        Some(Kind::Enum(v)) => json!({"type": "string", "enum": v}),
        Some(Kind::Seq) => {
            json!({"type": "array", "items": build(&format!("{path}[]"), kinds, optional, open, docs)})
        }
        Some(Kind::Map) => {
            json!({"type": "object", "additionalProperties": build(&format!("{path}.{MAP_KEY}"), kinds, optional, open, docs)})
        }
        Some(Kind::Struct(fields)) => {
            let mut props = Map::new();
            let mut required = Vec::new();
            for f in fields {
                let fp = if path.is_empty() {
                    f.clone()
                } else {
                    format!("{path}.{f}")
                };
                let mut v = build(&fp, kinds, optional, open, docs);
                let is_table = matches!(kinds.get(&fp), Some(Kind::Struct(_)))
                    || matches!(kinds.get(&format!("{fp}[]")), Some(Kind::Struct(_)));
                if let (Value::Object(m), Some(d)) = (&mut v, describe(&fp, is_table, docs)) {
                    m.insert("description".into(), json!(d));
                }
                props.insert(f.clone(), v);
                if !optional.contains(&fp) {
                    required.push(f.clone());
                }
            }
            let mut o = Map::new();
            o.insert("type".into(), json!("object"));
            o.insert("properties".into(), Value::Object(props));
            if !required.is_empty() {
                o.insert("required".into(), json!(required));
            }
            if !open.contains(path) {
                o.insert("additionalProperties".into(), json!(false));
            }
            Value::Object(o)
        }
    }
}
