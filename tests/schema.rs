//! `sowkit schema`: the JSON Schema traced from the loader's types accepts every bundled
//! ruleset and rejects what the loader rejects for shape (unknown keys, wrong types, missing
//! required keys, unknown enum words).
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn schema() -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .arg("schema")
        .output()
        .unwrap();
    assert!(o.status.success());
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The subset of JSON Schema the traced schema uses: type, enum, properties, required,
/// additionalProperties (false, or the schema of every value of a table whose keys are the
/// user's, as `[text.<lang>]`), items. Returns the paths that fail.
fn validate(s: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            "boolean" => v.is_boolean(),
            _ => false,
        };
        if !ok {
            errs.push(format!("{at}: not {t}"));
            return;
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errs.push(format!("{at}: {v} not in {e:?}"));
        }
    }
    if let (Some(props), Some(obj)) = (
        s.get("properties").and_then(Value::as_object),
        v.as_object(),
    ) {
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !obj.contains_key(r.as_str().unwrap()) {
                errs.push(format!("{at}: missing {r}"));
            }
        }
        for (k, val) in obj {
            match props.get(k) {
                Some(ps) => validate(ps, val, &format!("{at}.{k}"), errs),
                None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errs.push(format!("{at}: unknown key {k}"))
                }
                None => {}
            }
        }
    }
    // A table of the user's keys: no `properties`, each value checked against one schema.
    if let (None, Some(ap @ Value::Object(_)), Some(obj)) = (
        s.get("properties"),
        s.get("additionalProperties"),
        v.as_object(),
    ) {
        for (k, val) in obj {
            validate(ap, val, &format!("{at}.{k}"), errs);
        }
    }
    if let (Some(items), Some(arr)) = (s.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            validate(items, x, &format!("{at}[{i}]"), errs);
        }
    }
}

fn toml_json(src: &str) -> Value {
    let t: toml::Value = toml::from_str(src).unwrap();
    serde_json::to_value(t).unwrap()
}

fn errors(s: &Value, src: &str) -> Vec<String> {
    let mut e = Vec::new();
    validate(s, &toml_json(src), "", &mut e);
    e
}

#[test]
fn every_bundled_ruleset_matches_the_schema() {
    let s = schema();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            let src = std::fs::read_to_string(&p).unwrap();
            assert_eq!(errors(&s, &src), Vec::<String>::new(), "{}", p.display());
            n += 1;
        }
    }
    assert!(n >= 5);
    // The worked examples are an array of tables with their expectations.
    let ex = &s["properties"]["example"];
    assert_eq!(ex["type"], "array");
    assert_eq!(
        ex["items"]["properties"]["expect"]["properties"]["scores"]["type"],
        "array"
    );
    assert_eq!(
        s["properties"]["sowing"]["properties"]["direction"]["enum"],
        serde_json::json!(["counterclockwise", "clockwise", "either"])
    );
}

#[test]
fn the_schema_rejects_what_the_loader_rejects_for_shape() {
    let s = schema();
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml"),
    )
    .unwrap();
    for (from, to, why) in [
        (
            "pits_per_side = 3",
            "pits_per_side = \"3\"",
            "board.pits_per_side: not integer",
        ),
        (
            "direction = \"counterclockwise\"",
            "direction = \"sunwise\"",
            "sowing.direction",
        ),
        (
            "[board]\n",
            "colour = \"red\"\n[board]\n",
            "unknown key colour",
        ),
        ("id = \"six-pit-sowing\"\n", "", "missing \"id\""),
        // A language table needs its name, source and players (the break-it pass found the
        // schema marked none of them required, so an editor passed what `check` refuses),
        // and knows no other keys.
        (
            "name = \"Siembra en seis casas\"\n",
            "",
            "text.es: missing \"name\"",
        ),
        (
            "[text.es]\n",
            "[text.es]\ncolour = \"red\"\n",
            "text.es: unknown key colour",
        ),
    ] {
        let bad = src.replacen(from, to, 1);
        assert_ne!(bad, src, "{from}");
        let e = errors(&s, &bad);
        assert!(e.iter().any(|x| x.contains(why)), "{why}: {e:?}");
        // The loader refuses the same file.
        assert!(sowkit::ruleset::load_str("x.toml", &bad).is_err(), "{why}");
    }
}

#[test]
fn a_schema_comment_line_is_accepted() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/six-pit-sowing.toml"),
    )
    .unwrap();
    let with = format!("#:schema ./sowkit.schema.json\n{src}");
    assert!(sowkit::ruleset::load_str("x.toml", &with).is_ok());
}

/// Every property of the schema, by dotted path (`example[].expect.next`), with its schema.
fn properties(s: &Value, at: &str, out: &mut Vec<(String, Value)>) {
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            let p = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            out.push((p.clone(), v.clone()));
            properties(v, &p, out);
        }
    }
    if let Some(items) = s.get("items") {
        properties(items, &format!("{at}[]"), out);
    }
}

#[test]
fn every_field_has_the_readme_description_for_editors() {
    let s = schema();
    let mut props = Vec::new();
    properties(&s, "", &mut props);
    assert!(props.len() > 70, "{}", props.len());
    let missing: Vec<&String> = props
        .iter()
        .filter(|(_, v)| {
            v.get("description")
                .and_then(Value::as_str)
                .is_none_or(|d| d.trim().is_empty())
        })
        .map(|(p, _)| p)
        .collect();
    assert!(missing.is_empty(), "no description: {missing:?}");
    let desc = |path: &str| {
        props.iter().find(|(p, _)| p == path).unwrap().1["description"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // The README row "| `[board]` `pits_per_side` (1–16), … | board size, starting seeds, … |".
    assert_eq!(desc("board.pits_per_side"), "[board] pits_per_side (1–16), seeds_per_pit (1–50), seeds_per_pit_options: board size, starting seeds, other starting counts offered");
    assert!(desc("example[].expect.next")
        .ends_with(": who moves next: a player name, or \"none\" once the game is over"));
    assert!(desc("capture.source")
        .ends_with(": which source that table's choices follow (for disputed rules)"));
    // No README row describes a key the loader does not have.
    let docs = sowkit::ruleset::schema::readme_docs();
    for k in docs.keys().filter(|k| *k != "*.source") {
        assert!(
            props.iter().any(|(p, _)| p == k),
            "README describes {k:?}, not a field"
        );
    }
}
