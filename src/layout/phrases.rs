//! The message catalogue: every word of the kit comes from `templates/<lang>.toml`, so a new
//! language is a new file (plus its plural rule in [`plural_category`], if it is not already
//! there). Messages are looked up by dotted key (`rules.setup_seeds`) and may hold:
//!
//! - `{name}` placeholders, filled by [`Phrases::fmt`];
//! - selectors `{name|one:seed|other:seeds}`: the variant whose key equals the value of `name`
//!   (e.g. `0:`), else the one whose key is the value's first word in lower case (the head
//!   noun of a label, which decides gender and article: `{store|almacén:el |other:}{store}`
//!   gives "el almacén Sur"), else the variant named by the value's
//!   plural category in this language (CLDR: `one`, `many`, `other`, …), else `other`, which
//!   every selector must have. This is the power of Fluent's select expressions, in a format the
//!   TOML catalogues already used.
//!
//! Every language's catalogue must have exactly the keys of the English one: [`Phrases::load`]
//! refuses a catalogue lacking any key, naming each, and the unit tests check every bundled
//! catalogue, so `cargo test` fails on a missing message.
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The catalogues compiled into the binary: (language code, language name, TOML text). English
/// is the reference: every other catalogue must have the same keys.
const CATALOGUES: &[(&str, &str, &str)] = &[
    ("en", "English", include_str!("../../templates/en.toml")),
    ("es", "español", include_str!("../../templates/es.toml")),
];

/// The language codes with a catalogue, English first.
pub fn languages() -> Vec<&'static str> {
    CATALOGUES.iter().map(|(l, _, _)| *l).collect()
}

/// The catalogue language a language tag names, if this sowkit has one: the tag itself
/// (any case, `_` read as `-`), or for a regional tag with no catalogue of its own
/// (`es-MX`, `es_419`, `en-GB`) its primary language. Subtags are 1 to 8 letters or digits
/// (BCP 47), so `es-` and `es--` name nothing. `None` when no catalogue serves the tag.
pub fn catalogue_language(tag: &str) -> Option<&'static str> {
    let tag = tag.to_ascii_lowercase().replace('_', "-");
    let have = languages();
    if let Some(l) = have.iter().find(|l| **l == tag) {
        return Some(l);
    }
    let (primary, rest) = tag.split_once('-')?;
    let subtags_ok = rest
        .split('-')
        .all(|t| (1..=8).contains(&t.len()) && t.chars().all(|c| c.is_ascii_alphanumeric()));
    have.into_iter()
        .find(|l| *l == primary)
        .filter(|_| subtags_ok)
}

/// What to do about a language with no catalogue, after "no message catalogue for …": the
/// languages this sowkit has, and that the catalogues are compiled into the binary, so another
/// one takes a sowkit built with it (README "Languages", "Adding a language").
pub fn no_catalogue_advice() -> String {
    format!(
        "this sowkit has {} (its catalogues are compiled into it); use one of those, or build sowkit from its source with a new templates/<lang>.toml added (README \"Languages\", \"Adding a language\")",
        languages().join(" and ")
    )
}

/// The CLDR plural category (`one`, `many` or `other`) of the number written `value` in
/// `lang`, or `None` if `value` is not a plain decimal number. Rules (CLDR 44, integers and
/// decimals written with `.` or `,`):
/// - `en`: `one` for exactly 1 with no decimals, else `other`;
/// - `es`: `one` for exactly 1 with no decimals; `many` for a non-zero multiple of 1 000 000
///   with no decimals; else `other`.
///
/// A language not listed uses `other` for every number (add its rule here with its catalogue).
pub fn plural_category(lang: &str, value: &str) -> Option<&'static str> {
    let v = value.trim();
    let (int, frac) = match v.find(['.', ',']) {
        Some(i) => (&v[..i], &v[i + 1..]),
        None => (v, ""),
    };
    let int = int.strip_prefix('-').unwrap_or(int);
    if int.is_empty()
        || !int.bytes().all(|c| c.is_ascii_digit())
        || !frac.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let has_frac = !frac.is_empty();
    let i: u128 = int.parse().ok()?;
    Some(match lang {
        "en" if i == 1 && !has_frac => "one",
        "en" => "other",
        "es" => {
            if i == 1 && !has_frac {
                "one"
            } else if !has_frac && i != 0 && i.is_multiple_of(1_000_000) {
                "many"
            } else {
                "other"
            }
        }
        _ => "other",
    })
}

/// A loaded message catalogue. Missing keys do not panic: they are recorded and reported by
/// [`Phrases::check`], which [`super::kit`] calls before returning.
#[derive(Debug)]
pub struct Phrases {
    lang: String,
    /// Dotted key to message; shared by every [`Phrases::load`] of one bundled language.
    map: std::sync::Arc<BTreeMap<String, String>>,
    missing: RefCell<Vec<String>>,
}

impl Phrases {
    /// Loads the catalogue for `lang`. Errors: no catalogue for that language; a catalogue that
    /// is not valid TOML of strings, or has a selector without an `other` variant; a catalogue
    /// lacking keys the English one has (each named).
    ///
    /// A bundled catalogue is parsed and checked once per process ([`crate::memo::Memo`]);
    /// every later load shares its messages (a kit loads its catalogue several times: layout,
    /// host key, preview).
    pub fn load(lang: &str) -> Result<Phrases, String> {
        type Loaded = Result<std::sync::Arc<BTreeMap<String, String>>, String>;
        static LOADED: crate::memo::Memo<&'static str, Loaded> =
            crate::memo::Memo::new(CATALOGUES.len());
        let (code, src) = CATALOGUES
            .iter()
            .find(|(l, _, _)| *l == lang)
            .map(|(l, _, s)| (*l, *s))
            .ok_or_else(|| {
                format!(
                    "no message catalogue for language `{lang}`: {}",
                    no_catalogue_advice()
                )
            })?;
        let map = if code == "en" {
            LOADED.get_or_compute(code, || Phrases::from_source(code, src).map(|ph| ph.map))?
        } else {
            // The English catalogue first, through the memo and outside this language's
            // computation (which waits on nothing, so no rayon worker waits inside a cell on
            // another), then this one checked against its keys: English is parsed once per
            // process, not again for each language (a Spanish load parsed it a second time,
            // 4.4 M instructions).
            let en = Phrases::load("en")?;
            LOADED.get_or_compute(code, || {
                Phrases::checked_against(code, src, &en.map).map(|ph| ph.map)
            })?
        };
        Ok(Phrases {
            lang: code.to_string(),
            map,
            missing: RefCell::new(Vec::new()),
        })
    }

    /// Parses the catalogue text `src` of `templates/<lang>.toml` and checks it has every key
    /// of the English catalogue. Errors: as [`Phrases::load`], naming the file.
    pub fn from_source(lang: &str, src: &str) -> Result<Phrases, String> {
        if lang == "en" {
            return Phrases::parse_lang(lang, src)
                .map_err(|e| format!("templates/{lang}.toml: {e}"));
        }
        let en = Phrases::parse_lang("en", CATALOGUES[0].2)?;
        Phrases::checked_against(lang, src, &en.map)
    }

    /// [`Phrases::from_source`] for a language other than English, given the English
    /// messages `en`. Errors: as [`Phrases::load`], naming the file.
    fn checked_against(
        lang: &str,
        src: &str,
        en: &BTreeMap<String, String>,
    ) -> Result<Phrases, String> {
        let ph =
            Phrases::parse_lang(lang, src).map_err(|e| format!("templates/{lang}.toml: {e}"))?;
        let lacks: Vec<&str> = en
            .keys()
            .filter(|k| !ph.map.contains_key(*k))
            .map(|k| k.as_str())
            .collect();
        if !lacks.is_empty() {
            return Err(format!(
                "templates/{lang}.toml lacks {} message(s) that templates/en.toml has: {}",
                lacks.len(),
                lacks.join(", ")
            ));
        }
        Ok(ph)
    }

    /// Parses an English catalogue from TOML text: tables of strings, flattened to dotted keys.
    pub fn parse(src: &str) -> Result<Phrases, String> {
        Phrases::parse_lang("en", src)
    }

    /// Parses a catalogue for `lang` from TOML text. Errors: not TOML, a value that is not a
    /// string, a selector with no `other` variant (each names the key).
    pub fn parse_lang(lang: &str, src: &str) -> Result<Phrases, String> {
        let table: toml::Table = src
            .parse()
            .map_err(|e| format!("message catalogue is not valid TOML: {e}"))?;
        let mut map = BTreeMap::new();
        flatten("", &table, &mut map)?;
        for (k, v) in &map {
            check_selectors(v).map_err(|e| format!("message `{k}`: {e}"))?;
        }
        Ok(Phrases {
            lang: lang.to_string(),
            map: std::sync::Arc::new(map),
            missing: RefCell::new(Vec::new()),
        })
    }

    /// The language code of this catalogue (`en`, `es`).
    pub fn lang(&self) -> &str {
        &self.lang
    }

    /// The message for `key` with no arguments (selectors take their `other` variant), or the
    /// key in angle brackets (recorded as missing).
    pub fn get(&self, key: &str) -> String {
        self.fmt(key, &[])
    }

    /// The raw message for `key`, recording it as missing if absent.
    fn raw(&self, key: &str) -> Option<&String> {
        let r = self.map.get(key);
        if r.is_none() {
            self.missing.borrow_mut().push(key.to_string());
        }
        r
    }

    /// Whether the catalogue has `key`.
    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// The message for `key` with each `{name}` replaced by its value from `args` and each
    /// selector `{name|…}` resolved (see the module doc).
    pub fn fmt(&self, key: &str, args: &[(&str, &str)]) -> String {
        let Some(template) = self.raw(key) else {
            return format!("<{key}>");
        };
        // One pass over the template: text put in (a game's name, a label) is never scanned
        // again, so a name like "X {check}" prints as written.
        let mut out = String::with_capacity(template.len());
        let mut rest = template.as_str();
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) => {
                    let inner = &after[..close];
                    match inner.split_once('|') {
                        Some((name, variants)) => {
                            let value = args.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
                            out.push_str(self.select(value, variants));
                        }
                        None => match args.iter().find(|(k, _)| *k == inner) {
                            Some((_, v)) => out.push_str(v),
                            None => {
                                out.push('{');
                                out.push_str(inner);
                                out.push('}');
                            }
                        },
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

    /// `fmt` with the count `n` given as the argument `n` (so `{n}` and `{n|one:…|other:…}`
    /// use it), written as this language writes numbers.
    pub fn count(&self, key: &str, n: u64, args: &[(&str, &str)]) -> String {
        let n = self.int(n);
        let mut all: Vec<(&str, &str)> = vec![("n", n.as_str())];
        all.extend_from_slice(args);
        self.fmt(key, &all)
    }

    /// The variant of `variants` (`key:text|key:text|…`) for `value`: exact key, then plural
    /// category, then `other`.
    fn select<'a>(&self, value: Option<&str>, variants: &'a str) -> &'a str {
        let list: Vec<(&str, &str)> = variants
            .split('|')
            .filter_map(|v| v.split_once(':'))
            .map(|(k, t)| (k.trim(), t))
            .collect();
        let find = |k: &str| list.iter().find(|(kk, _)| *kk == k).map(|(_, t)| *t);
        if let Some(v) = value {
            if let Some(t) = find(v.trim()) {
                return t;
            }
            // The first word of a label or name is its head noun in Spanish ("almacén Sur"),
            // which decides its article: `{store|almacén:el |other:}{store}`.
            let head = v.split_whitespace().next().unwrap_or("").to_lowercase();
            if let Some(t) = find(&head) {
                return t;
            }
            if let Some(t) = plural_category(&self.lang, v).and_then(find) {
                return t;
            }
        }
        find("other").unwrap_or("")
    }

    /// An integer written as this language writes it. Both English and Spanish print the small
    /// counts of a kit (below 10 000) with no grouping; larger ones are grouped in threes with
    /// the catalogue's `number.group` (a thin space in Spanish, as the RAE recommends).
    pub fn int(&self, n: u64) -> String {
        let digits = n.to_string();
        if digits.len() <= 4 {
            return digits;
        }
        let sep = self
            .map
            .get("number.group")
            .map(String::as_str)
            .unwrap_or(",");
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push_str(sep);
            }
            out.push(c);
        }
        out
    }

    /// A length in millimetres with at most one decimal, no trailing zero, and the language's
    /// decimal sign (`number.decimal`: `.` in English, `,` in Spanish).
    pub fn mm(&self, v: f64) -> String {
        let r = (v * 10.0).round() / 10.0;
        if (r - r.round()).abs() < 1e-9 {
            format!("{}", r.round() as i64)
        } else {
            let sep = self
                .map
                .get("number.decimal")
                .map(String::as_str)
                .unwrap_or(".");
            format!("{r:.1}").replace('.', sep)
        }
    }

    /// Joins items as "a, b and c" in this language ("a, b y c"; Spanish writes "e" before a
    /// word sounding /i/, as "3 y 4" but "x e Iván").
    pub fn and_list(&self, items: &[String]) -> String {
        self.list(items, "word.and")
    }

    /// Joins items as "a, b or c" in this language ("7 u 8": Spanish writes "u" before a word
    /// sounding /o/, including the numbers 8, 11 and 80–89).
    pub fn or_list(&self, items: &[String]) -> String {
        self.list(items, "word.or")
    }

    fn list(&self, items: &[String], key: &str) -> String {
        // Each item as it reads inside a sentence (`word.in_text`: Spanish puts the article
        // before a store label, "S6 y el almacén Sur").
        let items: Vec<String> = items.iter().map(|i| self.in_text(i)).collect();
        match items.len() {
            0 => String::new(),
            1 => items[0].clone(),
            n => {
                let word = self.get(key);
                let word = if self.lang == "es" {
                    spanish_conjunction(&word, &items[n - 1])
                } else {
                    word
                };
                format!("{} {} {}", items[..n - 1].join(", "), word, items[n - 1])
            }
        }
    }

    /// A label or name as it reads inside a sentence, from the message `word.in_text` with the
    /// item as `{x}` (English: unchanged; Spanish: `almacén Sur` becomes `el almacén Sur`).
    pub fn in_text(&self, item: &str) -> String {
        self.fmt("word.in_text", &[("x", item)])
    }

    /// Errors naming every key that was asked for but is not in the catalogue.
    pub fn check(&self) -> Result<(), String> {
        let mut m = self.missing.borrow().clone();
        m.sort();
        m.dedup();
        if m.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "message catalogue templates/{}.toml lacks: {}",
                self.lang,
                m.join(", ")
            ))
        }
    }

    /// A paper's name as this language prints it: the message `paper.<name in lower case>`, or
    /// the name itself when the catalogue has no such key (a new paper size works at once in
    /// every language whose name for it is the same).
    pub fn paper(&self, name: &str) -> String {
        let key = format!("paper.{}", name.to_lowercase());
        match self.map.get(&key) {
            Some(s) => s.clone(),
            None => name.to_string(),
        }
    }

    /// Every (key, message) of the catalogue, in key order (for tests and tools).
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.map.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// Spanish "y" becomes "e" before a word starting with the sound /i/ (i-, hi- but not hie-,
/// hia-), and "o" becomes "u" before /o/ (o-, ho-, and the numbers 8, 11, 80–89, 8xx…).
fn spanish_conjunction(word: &str, next: &str) -> String {
    let n = next.trim_start().to_lowercase();
    match word {
        "y" if (n.starts_with('i') || n.starts_with('í') || n.starts_with("hi"))
            && !n.starts_with("hie")
            && !n.starts_with("hia") =>
        {
            "e".to_string()
        }
        "o" if n.starts_with('o')
            || n.starts_with('ó')
            || n.starts_with("ho")
            || n.starts_with('8')
            || (n.starts_with("11") && !n[2..].starts_with(|c: char| c.is_ascii_digit())) =>
        {
            "u".to_string()
        }
        _ => word.to_string(),
    }
}

/// Checks every selector in `msg` has an `other` variant and `key:text` variants.
fn check_selectors(msg: &str) -> Result<(), String> {
    let mut rest = msg;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let inner = &after[..close];
        if let Some(nested) = after.find('{').filter(|&i| i < close) {
            return Err(format!(
                "`{{` inside `{{{}…}}`: a selector's variants are plain text; write the placeholder beside the selector",
                &after[..nested]
            ));
        }
        if let Some((name, variants)) = inner.split_once('|') {
            let mut has_other = false;
            for v in variants.split('|') {
                match v.split_once(':') {
                    Some((k, _)) if k.trim() == "other" => has_other = true,
                    Some(_) => {}
                    None => {
                        return Err(format!(
                            "selector {{{name}|…}} has a variant `{v}` without `key:`"
                        ))
                    }
                }
            }
            if !has_other {
                return Err(format!(
                    "selector {{{name}|…}} needs an `other:` variant, used when no other fits"
                ));
            }
        }
        rest = &after[close + 1..];
    }
    Ok(())
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
            _ => return Err(format!("message `{key}` must be a string")),
        }
    }
    Ok(())
}

/// Joins items as "a, b and c" in the catalogue's language (see [`Phrases::and_list`]).
pub fn join_and(ph: &Phrases, items: &[String]) -> String {
    ph.and_list(items)
}

/// Joins items as "a, b or c" in the catalogue's language (see [`Phrases::or_list`]).
pub fn join_or(ph: &Phrases, items: &[String]) -> String {
    ph.or_list(items)
}
