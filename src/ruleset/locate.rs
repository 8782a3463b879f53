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

#[cfg(test)]
mod tests {
    use super::field_at;

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
}
