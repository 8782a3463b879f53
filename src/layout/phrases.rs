//! The phrase catalogue: every sentence of the kit comes from `templates/<lang>.toml`, so a new
//! language is a new file. Phrases are looked up by dotted key (`rules.setup`) and may hold
//! `{name}` placeholders, filled by [`Phrases::fmt`].
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The catalogues compiled into the binary: (language code, TOML text).
const CATALOGUES: &[(&str, &str)] = &[("en", include_str!("../../templates/en.toml"))];

/// A loaded phrase catalogue. Missing keys do not panic: they are recorded and reported by
/// [`Phrases::check`], which [`super::kit`] calls before returning.
#[derive(Debug)]
pub struct Phrases {
    map: BTreeMap<String, String>,
    missing: RefCell<Vec<String>>,
}

impl Phrases {
    /// Loads the catalogue for `lang`. Errors: no catalogue for that language, or a catalogue
    /// that is not valid TOML of strings (a message saying which).
    pub fn load(lang: &str) -> Result<Phrases, String> {
        let src = CATALOGUES
            .iter()
            .find(|(l, _)| *l == lang)
            .map(|(_, s)| *s)
            .ok_or_else(|| {
                let have: Vec<&str> = CATALOGUES.iter().map(|(l, _)| *l).collect();
                format!(
                    "no phrase catalogue for language `{lang}` (have: {}); add templates/{lang}.toml",
                    have.join(", ")
                )
            })?;
        Phrases::parse(src)
    }

    /// Parses a catalogue from TOML text: tables of strings, flattened to dotted keys.
    pub fn parse(src: &str) -> Result<Phrases, String> {
        let table: toml::Table = src
            .parse()
            .map_err(|e| format!("phrase catalogue is not valid TOML: {e}"))?;
        let mut map = BTreeMap::new();
        flatten("", &table, &mut map)?;
        Ok(Phrases {
            map,
            missing: RefCell::new(Vec::new()),
        })
    }

    /// The phrase for `key`, or the key in angle brackets (recorded as missing).
    pub fn get(&self, key: &str) -> String {
        match self.map.get(key) {
            Some(s) => s.clone(),
            None => {
                self.missing.borrow_mut().push(key.to_string());
                format!("<{key}>")
            }
        }
    }

    /// Whether the catalogue has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// The phrase for `key` with each `{name}` replaced by its value from `args`.
    pub fn fmt(&self, key: &str, args: &[(&str, &str)]) -> String {
        let template = self.get(key);
        // One pass over the template: text put in (a game's name, a label) is never scanned
        // again, so a name like "X {check}" prints as written.
        let mut out = String::with_capacity(template.len());
        let mut rest = template.as_str();
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) => {
                    let name = &after[..close];
                    match args.iter().find(|(k, _)| *k == name) {
                        Some((_, v)) => out.push_str(v),
                        None => {
                            out.push('{');
                            out.push_str(name);
                            out.push('}');
                        }
                    }
                    rest = &after[close + 1..];
                }
                None => {
                    out.push_str(&rest[open..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// Errors naming every key that was asked for but is not in the catalogue.
    pub fn check(&self) -> Result<(), String> {
        let mut m = self.missing.borrow().clone();
        m.sort();
        m.dedup();
        if m.is_empty() {
            Ok(())
        } else {
            Err(format!("phrase catalogue lacks: {}", m.join(", ")))
        }
    }
}

fn flatten(
    prefix: &str,
    t: &toml::Table,
    out: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::String(s) => {
                out.insert(key, s.clone());
            }
            toml::Value::Table(sub) => flatten(&key, sub, out)?,
            _ => return Err(format!("phrase `{key}` must be a string")),
        }
    }
    Ok(())
}

/// Joins items as "a, b and c" with the catalogue's word for "and".
pub fn join_and(ph: &Phrases, items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!(
            "{} {} {}",
            items[..n - 1].join(", "),
            ph.get("word.and"),
            items[n - 1]
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn values_are_not_scanned_for_placeholders() {
        let ph = Phrases::load("en").unwrap();
        // log.title = "{name}: score log"
        let t = ph.fmt("log.title", &[("name", "X {check} {name}")]);
        assert_eq!(t, "X {check} {name}: score log");
    }

    use super::*;

    #[test]
    fn english_loads_and_fills_placeholders() {
        let p = Phrases::parse("[a]\nb = \"{x} and {y}\"\n").unwrap();
        assert_eq!(p.fmt("a.b", &[("x", "1"), ("y", "2")]), "1 and 2");
        assert!(p.check().is_ok());
        assert!(Phrases::load("en").is_ok());
    }

    #[test]
    fn missing_key_and_language_are_errors() {
        let p = Phrases::parse("a = \"x\"").unwrap();
        assert_eq!(p.get("nope"), "<nope>");
        assert!(p.check().unwrap_err().contains("nope"));
        assert!(Phrases::load("xx")
            .unwrap_err()
            .contains("templates/xx.toml"));
        assert!(Phrases::parse("a = 3").is_err());
    }
}
