//! Which field a byte offset of a ruleset file belongs to, from the TOML parser's own spans
//! (`board.pit_labels`, `example[2].expect.position`), so a multi-line array whose lines start
//! with `[` is not mistaken for a table header.

use toml::de::{DeTable, DeValue};

/// Dotted name of the key whose key or value holds byte `offset` of `src`: tables by name,
/// arrays of tables by 1-based index (`example[2]`), a value inside an array by its key.
/// `None` when the document does not parse (a syntax error) or no key holds the offset.
pub fn field_at(src: &str, offset: usize) -> Option<String> {
    let doc = DeTable::parse(src).ok()?;
    find(doc.get_ref(), offset, "")
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn find(table: &DeTable<'_>, offset: usize, prefix: &str) -> Option<String> {
    for (k, v) in table.iter() {
        let path = join(prefix, k.get_ref());
        match v.get_ref() {
            DeValue::Table(t) => {
                if let Some(p) = find(t, offset, &path) {
                    return Some(p);
                }
                if k.span().contains(&offset) {
                    return Some(path);
                }
            }
            DeValue::Array(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|i| matches!(i.get_ref(), DeValue::Table(_))) =>
            {
                for (n, item) in items.iter().enumerate() {
                    if let DeValue::Table(t) = item.get_ref() {
                        let p = format!("{path}[{}]", n + 1);
                        if let Some(found) = find(t, offset, &p) {
                            return Some(found);
                        }
                        if item.span().contains(&offset) {
                            return Some(p);
                        }
                    }
                }
                if k.span().contains(&offset) {
                    return Some(path);
                }
            }
            _ => {
                if k.span().contains(&offset) || v.span().contains(&offset) {
                    return Some(path);
                }
            }
        }
    }
    None
}

/// Byte offset of the first array `[` or inline table `{` of a value that is never closed in
/// `src` (a scan that knows strings, comments and table headers). `None` when every bracket of
/// every value is closed. The TOML parser stops only where the text stops making sense, often
/// at the next table header, which reads as an array item; this is where the user must look.
pub fn unclosed_bracket(src: &str) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = 0;
    // Open brackets of the value being read: (offset, byte).
    let mut stack: Vec<(usize, u8)> = Vec::new();
    // At the start of a line outside a value, `[` begins a table header.
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let triple = b[i..].starts_with(if c == b'"' { b"\"\"\"" } else { b"\'\'\'" });
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if c == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if !triple && b[i] == b'\n' {
                        break;
                    }
                    if b[i] == c && (!triple || b[i..].starts_with(&[c, c, c])) {
                        i += if triple { 3 } else { 1 };
                        // A closing triple quote may be followed by up to two more quotes.
                        while triple && i < b.len() && b[i] == c {
                            i += 1;
                        }
                        break;
                    }
                    i += 1;
                }
            }
            b'[' if stack.is_empty() && line_start => {
                // A table header: skip the line.
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'[' | b'{' => {
                stack.push((i, c));
                i += 1;
            }
            b']' | b'}' => {
                let want = if c == b']' { b'[' } else { b'{' };
                if stack.last().is_some_and(|&(_, o)| o == want) {
                    stack.pop();
                }
                i += 1;
            }
            _ => i += 1,
        }
        line_start = false;
    }
    stack.first().map(|&(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::{field_at, unclosed_bracket};

    fn at(src: &str, needle: &str) -> Option<String> {
        field_at(src, src.find(needle).unwrap())
    }

    #[test]
    fn multi_line_array_lines_starting_with_a_bracket_are_values_not_headers() {
        let src = "id = \"g\"\n[board]\npits_per_side = 3\npit_labels = [\n  [\"A1\", \"A2\", \"A3\"],\n  [\"B1\", \"B2\", 7],\n]\nstores = [\"a\", \"b\"]\n";
        assert_eq!(at(src, "7]").as_deref(), Some("board.pit_labels"));
        assert_eq!(at(src, "\"a\"").as_deref(), Some("board.stores"));
        assert_eq!(at(src, "3\n").as_deref(), Some("board.pits_per_side"));
    }

    #[test]
    fn arrays_of_tables_are_numbered_from_one() {
        let src = "[[example]]\ntitle = \"one\"\n[example.expect]\nnext = \"A\"\n\n[[example]]\ntitle = \"two\"\n[example.expect]\nposition = \"x\"\n";
        assert_eq!(at(src, "\"one\"").as_deref(), Some("example[1].title"));
        assert_eq!(
            at(src, "\"x\"").as_deref(),
            Some("example[2].expect.position")
        );
        assert_eq!(at(src, "next").as_deref(), Some("example[1].expect.next"));
    }

    #[test]
    fn comments_and_syntax_errors_have_no_field() {
        assert_eq!(field_at("# a comment\nid = \"g\"\n", 3), None);
        assert_eq!(field_at("id = \n", 2), None);
    }

    #[test]
    fn an_unclosed_array_is_found_where_it_opens() {
        let src =
            "[[example]]\nmoves = [\"S1\",\n[example.expect]\nnext = \"A\"\nsown = [\"x\"] # ]\n";
        assert_eq!(unclosed_bracket(src), src.find("[\"S1"));
        let closed = "a = [ # [\n  \"]\", '[', \"\"\"[\"\"\" ]\n[t]\nb = { c = [1] }\n";
        assert_eq!(unclosed_bracket(closed), None);
        assert_eq!(unclosed_bracket("a = { b = 1\n"), Some(4));
    }
}

/// A value whose TOML type is not the one the ruleset format has for its key (`pits_per_side =
/// "5"`, `pit_diameter = "40 mm"`, `extra_turn = 5`).
#[derive(Clone, Debug, PartialEq)]
pub struct WrongType {
    /// Byte span of the value in the text.
    pub span: std::ops::Range<usize>,
    /// Dotted name of the field (as [`field_at`] names it: a value inside a list by the
    /// list's key, a table of a list of tables by its 1-based index, `example[2].title`).
    pub field: String,
    /// What serde says of it ("invalid type: string \"5\", expected i64"); the loader
    /// explains it in the ruleset author's words.
    pub message: String,
    /// Whether the value was replaced, in the document walked, by a stand-in of the right
    /// type that the loader's own checks refuse (a whole number, a number or a free text: see
    /// [`wrong_types_in`]), so the rest of the file can be read and checked. `false` for a
    /// choice, a yes/no, a list or a table, whose stand-in would be a made-up rule.
    pub replaced: bool,
}

/// Every value of `doc` whose type is not the one `schema` (the JSON Schema of the format,
/// [`super::load::json_schema`]) gives its key, in file order: serde stops at the first, so a
/// file with a string for a number hid every other problem until that one was mended.
///
/// Each wrong whole number, number or free text (not a choice) is replaced in `doc`, keeping
/// its span, by a stand-in the loader's own checks refuse: the smallest 64-bit whole number
/// (below every range), NaN, or the empty text (`id`, `name`, labels and the like refuse it;
/// any other check on it is of the same field, whose error the loader leaves out as the wrong
/// type says it already). `doc` then reads with serde when nothing else is wrong, and the
/// rest of the file is checked. Keys the schema does not have, and tables written as lists
/// of tables or the other way round, are left to [`unknown_in`].
pub fn wrong_types_in(doc: &mut DeTable<'_>, schema: &serde_json::Value) -> Vec<WrongType> {
    let mut out = Vec::new();
    types_in_table(doc, schema, "", &mut out);
    out.sort_by_key(|w| w.span.start);
    out
}

fn types_in_table(
    table: &mut DeTable<'_>,
    schema: &serde_json::Value,
    prefix: &str,
    out: &mut Vec<WrongType>,
) {
    let props = schema.get("properties").and_then(|p| p.as_object());
    let extra = schema.get("additionalProperties").filter(|e| e.is_object());
    for (k, v) in table.iter_mut() {
        let path = join(prefix, k.get_ref());
        if let Some(sub) = props.and_then(|p| p.get(k.get_ref().as_ref())).or(extra) {
            types_in_value(v, sub, &path, out);
        }
    }
}

fn types_in_value(
    v: &mut toml::Spanned<DeValue<'_>>,
    schema: &serde_json::Value,
    path: &str,
    out: &mut Vec<WrongType>,
) {
    use serde::de::{Deserialize, IgnoredAny};
    use std::collections::BTreeMap;
    let Some(kind) = schema.get("type").and_then(|t| t.as_str()) else {
        return;
    };
    let item_kind = schema
        .get("items")
        .and_then(|i| i.get("type"))
        .and_then(|t| t.as_str());
    let probe = |v: &toml::Spanned<DeValue<'_>>| -> Option<String> {
        let de = toml::de::ValueDeserializer::from(v.clone());
        let r = match kind {
            "integer" => i64::deserialize(de).map(|_| ()),
            "number" => f64::deserialize(de).map(|_| ()),
            "string" => String::deserialize(de).map(|_| ()),
            "boolean" => bool::deserialize(de).map(|_| ()),
            "array" => Vec::<IgnoredAny>::deserialize(de).map(|_| ()),
            "object" => BTreeMap::<String, IgnoredAny>::deserialize(de).map(|_| ()),
            _ => Ok(()),
        };
        r.err().map(|e| e.message().to_string())
    };
    let span = v.span();
    match (kind, v.get_mut()) {
        ("object", DeValue::Table(t)) => types_in_table(t, schema, path, out),
        // `[[board]]` for `[board]`: a shape `unknown_in` names at the header.
        ("object", DeValue::Array(items))
            if !items.is_empty()
                && items
                    .iter()
                    .all(|i| matches!(i.get_ref(), DeValue::Table(_))) => {}
        // `[example]` for `[[example]]`: the same.
        ("array", DeValue::Table(_)) if item_kind == Some("object") => {}
        ("array", DeValue::Array(items)) => {
            let Some(item_schema) = schema.get("items") else {
                return;
            };
            for (n, item) in items.iter_mut().enumerate() {
                // Each item is named by its place, 1-based (an array of tables as `field_at`
                // names it; `board.stores[2]`, `board.pit_labels[2][3]`: the second side's
                // third label).
                let p = format!("{path}[{}]", n + 1);
                types_in_value(item, item_schema, &p, out);
            }
        }
        _ => {
            let Some(mut message) = probe(v) else {
                return;
            };
            // A choice: say which words it may be.
            if let Some(words) = schema.get("enum").and_then(|e| e.as_array()) {
                let words: Vec<String> = words
                    .iter()
                    .filter_map(|w| w.as_str().map(|w| format!("{w:?}")))
                    .collect();
                if let Some(head) = message.strip_suffix("expected a string") {
                    message = format!(
                        "{head}expected one of {} (a word in quotes)",
                        words.join(", ")
                    );
                }
            }
            let stand_in = match kind {
                _ if schema.get("enum").is_some() => None,
                "integer" => Some("-9223372036854775808"),
                "number" => Some("nan"),
                "string" => Some("\"\""),
                _ => None,
            };
            let replaced = match stand_in.map(DeValue::parse) {
                Some(Ok(s)) => {
                    *v.get_mut() = s.into_inner();
                    true
                }
                _ => false,
            };
            out.push(WrongType {
                span,
                field: path.to_string(),
                message,
                replaced,
            });
        }
    }
}

/// A key, or a word of a choice, that the ruleset format does not have.
#[derive(Clone, Debug, PartialEq)]
pub struct Unknown {
    /// Byte span of the key or value in the text.
    pub span: std::ops::Range<usize>,
    /// Dotted name of the field (as [`field_at`] names it): the key itself for a key.
    pub field: String,
    /// What serde would say of it: "unknown field `x`, expected one of `a`, `b`" or
    /// "unknown variant `x`, expected …" (the loader explains it further); or, for a table
    /// written as an array of tables or the other way round, the whole message.
    pub message: String,
    /// A table written as an array of tables (`[[board]]`) or the other way round
    /// (`[example]`): serde's own message about anything inside it is then beside the point.
    pub shape: bool,
    /// For an unknown key written `key = value` (the value neither a table nor a list of
    /// tables): the byte span from the key to the end of its value, which can be blanked out
    /// to read the rest of the file without it. `None` otherwise.
    pub entry: Option<std::ops::Range<usize>>,
}

/// serde's list of what was expected: "expected `a`", "expected `a` or `b`", "expected one of
/// `a`, `b`, `c`" (as `serde::de::Error::unknown_field` words it).
fn expected(known: &[String]) -> String {
    match known {
        [] => "there are no fields".to_string(),
        [a] => format!("expected `{a}`"),
        [a, b] => format!("expected `{a}` or `{b}`"),
        _ => format!(
            "expected one of {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Every key of `src` that `schema` (the JSON Schema of the format, [`super::load::json_schema`])
/// does not have, and every string that is not one of its field's choices (`enum`), in file
/// order: serde stops at the first, so a file with three slips needed three runs of `check`.
/// Empty when the text is not TOML.
pub fn unknown_in(src: &str, schema: &serde_json::Value) -> Vec<Unknown> {
    let Ok(doc) = DeTable::parse(src) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk_table(doc.get_ref(), schema, "", &mut out);
    out.sort_by_key(|u| u.span.start);
    // Only those a `check` can show (a hostile file's 60,000 unknown keys each asked about
    // took a second).
    for u in out.iter_mut().take(super::load::MAX_DIAGNOSTICS) {
        moved_key(u, schema);
    }
    out
}

/// An unknown key that is a key of another table (`exercise` under `[example.expect]`, where
/// it belongs to the `[[example]]` above): said so, with where it goes, instead of "check the
/// spelling". Left as it is when a key of its own table is a likely slip of it (the loader
/// then suggests that one), when no other table (or more than three) has it, and for a
/// top-level key.
fn moved_key(u: &mut Unknown, schema: &serde_json::Value) {
    let Some(key) = u
        .message
        .strip_prefix("unknown field `")
        .and_then(|r| r.split('`').next())
        .map(str::to_string)
    else {
        return;
    };
    let table = toml_header(u.field.rsplit_once('.').map_or("", |(t, _)| t));
    // A top-level key is the loader's to explain: it may be a rule written above its table,
    // which keeps the worked examples from being replayed (`load::rule_key_slip`).
    if u.shape || table.is_empty() {
        return;
    }
    let mut homes = Vec::new();
    homes_of(schema, "", false, &key, &mut homes);
    homes.retain(|(inner, _)| *inner != table);
    if homes.is_empty() || homes.len() > 3 || super::load::did_you_mean(&u.message).is_some() {
        return;
    }
    let there: Vec<String> = homes.into_iter().map(|(_, h)| h).collect();
    u.message = format!(
        "`{key}` is not a key of [{table}]: it belongs {}; move the line there",
        super::load::join_or(&there)
    );
}

/// The tables of `schema` (under `prefix`; `array`: a list of tables) that have the key
/// `key`: each as (its dotted name, where that is: `in [board]`, `in [[example]]`, `at the
/// top of the file, …`, `in [text.<lang>]` for a table named by its language).
fn homes_of(
    schema: &serde_json::Value,
    prefix: &str,
    array: bool,
    key: &str,
    out: &mut Vec<(String, String)>,
) {
    let Some(props) = schema.get("properties").and_then(|p| p.as_object()) else {
        return;
    };
    if props.contains_key(key) {
        let header = match (prefix.is_empty(), array) {
            (true, _) => "at the top of the file, above the first [table]".to_string(),
            (false, true) => format!("in [[{prefix}]]"),
            (false, false) => format!("in [{prefix}]"),
        };
        out.push((prefix.to_string(), header));
    }
    for (name, sub) in props {
        let p = join(prefix, name);
        let object = |v: &serde_json::Value| v.get("properties").is_some();
        if object(sub) {
            homes_of(sub, &p, false, key, out);
        } else if let Some(items) = sub.get("items").filter(|i| object(i)) {
            homes_of(items, &p, true, key, out);
        } else if let Some(each) = sub.get("additionalProperties").filter(|e| object(e)) {
            homes_of(each, &format!("{p}.<lang>"), false, key, out);
        }
    }
}

fn walk_table(
    table: &DeTable<'_>,
    schema: &serde_json::Value,
    prefix: &str,
    out: &mut Vec<Unknown>,
) {
    let props = schema.get("properties").and_then(|p| p.as_object());
    let extra = schema.get("additionalProperties");
    for (k, v) in table.iter() {
        let path = join(prefix, k.get_ref());
        let sub = props
            .and_then(|p| p.get(k.get_ref().as_ref()))
            .or_else(|| extra.filter(|e| e.is_object()));
        let kind = |t: &str| sub.and_then(|s| s.get("type")).and_then(|x| x.as_str()) == Some(t);
        let tables = |items: &[toml::Spanned<DeValue<'_>>]| {
            !items.is_empty()
                && items
                    .iter()
                    .all(|i| matches!(i.get_ref(), DeValue::Table(_)))
        };
        match (sub, v.get_ref()) {
            // `[[board]]` for `[board]`, and `[example]` for `[[example]]`.
            (Some(_), DeValue::Array(items)) if kind("object") && tables(items) => {
                // A header names no element: `[example.text.es]` under the example it
                // follows, not `[example[1].text.es]` (which is not TOML).
                let header = toml_header(&path);
                out.push(Unknown {
                    span: k.span(),
                    field: path.clone(),
                    message: format!(
                        "`{path}` is one table: write its header [{header}], not [[{header}]]"
                    ),
                    shape: true,
                    entry: None,
                });
            }
            (Some(sub), DeValue::Table(_))
                if kind("array")
                    && sub
                        .get("items")
                        .and_then(|i| i.get("type"))
                        .and_then(|t| t.as_str())
                        == Some("object") =>
            {
                out.push(Unknown {
                    span: k.span(),
                    field: path.clone(),
                    message: format!("`{path}` is a list of tables: write each one's header [[{path}]], not [{path}]"),
                    shape: true,
                    entry: None,
                });
            }
            (Some(sub), _) => walk_value(v.get_ref(), v.span(), sub, &path, out),
            (None, _) if extra == Some(&serde_json::Value::Bool(false)) => {
                let known: Vec<String> = props
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                let plain = match v.get_ref() {
                    DeValue::Table(_) => false,
                    DeValue::Array(items) => !tables(items),
                    _ => true,
                };
                out.push(Unknown {
                    span: k.span(),
                    field: path,
                    message: format!("unknown field `{}`, {}", k.get_ref(), expected(&known)),
                    shape: false,
                    entry: plain.then(|| k.span().start..v.span().end),
                });
            }
            (None, _) => {}
        }
    }
}

fn walk_value(
    v: &DeValue<'_>,
    span: std::ops::Range<usize>,
    schema: &serde_json::Value,
    path: &str,
    out: &mut Vec<Unknown>,
) {
    match v {
        DeValue::Table(t) => walk_table(t, schema, path, out),
        DeValue::Array(items) => {
            let Some(item_schema) = schema.get("items") else {
                return;
            };
            for (n, item) in items.iter().enumerate() {
                // An array of tables is named by index, as `field_at` names it.
                let p = match item.get_ref() {
                    DeValue::Table(_) => format!("{path}[{}]", n + 1),
                    _ => path.to_string(),
                };
                walk_value(item.get_ref(), item.span(), item_schema, &p, out);
            }
        }
        DeValue::String(s) => {
            let Some(choices) = schema.get("enum").and_then(|e| e.as_array()) else {
                return;
            };
            let known: Vec<String> = choices
                .iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect();
            if !known.iter().any(|c| c == s.as_ref()) {
                out.push(Unknown {
                    span,
                    field: path.to_string(),
                    message: format!("unknown variant `{s}`, {}", expected(&known)),
                    shape: false,
                    entry: None,
                });
            }
        }
        _ => {}
    }
}

/// A key the ruleset format requires that a table of the file lacks (`name` in a
/// `[text.fr]` holding only `source`), found by [`missing_in`].
#[derive(Clone, Debug, PartialEq)]
pub struct Missing {
    /// Byte span of the table that lacks the key (its header, for a `[table]`).
    pub span: std::ops::Range<usize>,
    /// Dotted name of that table, as [`field_at`] names it (`text.fr`, `example[2].text.es`).
    pub table: String,
    /// The key it lacks (`name`).
    pub key: String,
}

/// Every required key (the schema's `required`) that a table of `doc` for which `within`
/// holds (given the table's dotted name) lacks, in file order: serde stops at the first, so a
/// translation begun with only its name took one run of `check` per key.
///
/// Each missing key whose value is a free text or a list is added to `doc`, at the table's
/// span, as a stand-in: the empty text or the empty list, so the rest of the file can be read
/// and checked (the loader reports the missing key and leaves out what its checks say of the
/// stand-in). A key of any other kind is left missing, and serde says so as before.
pub fn missing_in(
    doc: &mut DeTable<'_>,
    schema: &serde_json::Value,
    within: &dyn Fn(&str) -> bool,
) -> Vec<Missing> {
    let mut out = Vec::new();
    missing_in_table(doc, None, schema, "", within, &mut out);
    out.sort_by_key(|m| m.span.start);
    out
}

fn missing_in_table(
    table: &mut DeTable<'_>,
    span: Option<std::ops::Range<usize>>,
    schema: &serde_json::Value,
    prefix: &str,
    within: &dyn Fn(&str) -> bool,
    out: &mut Vec<Missing>,
) {
    let props = schema.get("properties").and_then(|p| p.as_object());
    let extra = schema.get("additionalProperties").filter(|e| e.is_object());
    if let (Some(span), true) = (span, within(prefix)) {
        let required = schema
            .get("required")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
            .filter_map(|k| k.as_str());
        for key in required {
            if table.contains_key(key) {
                continue;
            }
            let kind = props
                .and_then(|p| p.get(key))
                .and_then(|s| s.get("type"))
                .and_then(|t| t.as_str());
            let stand_in = match kind {
                Some("string") => "\"\"",
                Some("array") => "[]",
                _ => continue,
            };
            let Ok(v) = DeValue::parse(stand_in) else {
                continue;
            };
            table.insert(
                toml::Spanned::new(span.clone(), std::borrow::Cow::Owned(key.to_string())),
                toml::Spanned::new(span.clone(), v.into_inner()),
            );
            out.push(Missing {
                span: span.clone(),
                table: prefix.to_string(),
                key: key.to_string(),
            });
        }
    }
    for (k, v) in table.iter_mut() {
        let path = join(prefix, k.get_ref());
        let Some(sub) = props.and_then(|p| p.get(k.get_ref().as_ref())).or(extra) else {
            continue;
        };
        let item_schema = sub.get("items");
        let span = v.span();
        match v.get_mut() {
            DeValue::Table(t) => missing_in_table(t, Some(span), sub, &path, within, out),
            DeValue::Array(items) => {
                let Some(item_schema) = item_schema else {
                    continue;
                };
                for (n, item) in items.iter_mut().enumerate() {
                    let span = item.span();
                    if let DeValue::Table(t) = item.get_mut() {
                        let p = format!("{path}[{}]", n + 1);
                        missing_in_table(t, Some(span), item_schema, &p, within, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The TOML header of a table at `path` (`example[1].text.es` → `example.text.es`): the
/// element indices a field path carries are left out, since a header under `[[example]]` names
/// the last example.
fn toml_header(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut skip = false;
    for c in path.chars() {
        match c {
            '[' => skip = true,
            ']' => skip = false,
            _ if !skip => out.push(c),
            _ => {}
        }
    }
    out
}
