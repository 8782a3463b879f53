//! No word is ever broken inside: every line of text laid out on every page of every bundled
//! kit and host key, in English and Spanish, on A4 and Letter, in normal and large print, is
//! made of whole words of the messages it was set from. A word that does not fit its column
//! makes the layout choose a smaller legal size, an abbreviation or a wider column, never a
//! break between two of its letters ("jugad" / "or", "Almacé" / "n").
use crate::common;

use sowkit::doc::Document;
use sowkit::layout::phrases::Phrases;
use sowkit::layout::{self, KitOptions, A4, LETTER};
use std::collections::BTreeSet;

/// `s` in lower case without the punctuation around it (quotes, brackets, commas, arrows).
fn core(s: &str) -> String {
    s.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The text of a catalogue message with its placeholders blanked and every variant of its
/// selectors spelt out (`{per|one:seed|other:seeds}` gives " seed seeds "), so its words
/// are all there.
fn message_words(msg: &str) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        let inner = &after[..close];
        out.push(' ');
        for variant in inner.split('|').skip(1) {
            out.push_str(variant.split_once(':').map_or("", |(_, t)| t));
            out.push(' ');
        }
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Every word a kit in `lang` may print: the words of the catalogue's messages and of the
/// ruleset files (names, labels, players, notes in every language they carry).
fn vocabulary(lang: &str) -> BTreeSet<String> {
    let ph = Phrases::load(lang).unwrap();
    let mut words = BTreeSet::new();
    for (_, msg) in ph.entries() {
        for w in message_words(msg).split_whitespace() {
            words.insert(core(w));
        }
    }
    for p in common::bundled_paths() {
        let src = std::fs::read_to_string(p).unwrap();
        for w in src.split(|c: char| c.is_whitespace() || "\"[]=,{}".contains(c)) {
            words.insert(core(w));
        }
    }
    words.remove("");
    words
}

/// Whether `token` (one space-separated piece of a laid-out line) is whole: without its
/// punctuation, a word of `vocab`, a number or notation (any digit), or words of `vocab` joined
/// by punctuation the messages glue on ("South's", "5–6", "A1>").
fn is_whole(token: &str, vocab: &BTreeSet<String>) -> bool {
    let c = core(token);
    if c.is_empty() || c.chars().any(|ch| ch.is_ascii_digit()) || vocab.contains(&c) {
        return true;
    }
    // Pieces between punctuation, each a word.
    c.split(|ch: char| !ch.is_alphanumeric())
        .filter(|p| !p.is_empty())
        .all(|p| vocab.contains(p))
        && c.contains(|ch: char| !ch.is_alphanumeric())
}

/// Every token of every text item of `doc` that is not a whole word: (page, line, token).
fn broken(doc: &Document, vocab: &BTreeSet<String>) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for p in &doc.pages {
        for t in p.texts() {
            for tok in t.text.split_whitespace() {
                if !is_whole(tok, vocab) {
                    out.push((p.name.clone(), t.text.clone(), tok.to_string()));
                }
            }
        }
    }
    out
}

/// The check finds a broken word: "jugad" + "or" and "Almacé" + "n" are caught, the whole
/// words pass.
#[test]
fn the_check_catches_a_word_broken_inside() {
    let vocab = vocabulary("es");
    for whole in ["jugador", "Almacén", "Sur", "(48)", "casa,", "«pegar»"] {
        assert!(is_whole(whole, &vocab), "{whole}");
    }
    for part in ["jugad", "Almacé", "ugador"] {
        assert!(!is_whole(part, &vocab), "{part}");
    }
    let mut doc = Document {
        title: String::new(),
        pages: vec![sowkit::doc::Page::new("log", 100.0, 100.0)],
    };
    doc.pages[0].text(10.0, 10.0, 10.0, sowkit::doc::Weight::Bold, "Jugad");
    doc.pages[0].text(10.0, 15.0, 10.0, sowkit::doc::Weight::Bold, "or");
    assert_eq!(broken(&doc, &vocab).len(), 1);
}

#[test]
fn no_laid_out_line_breaks_a_word() {
    let vocab: Vec<(&str, BTreeSet<String>)> = ["en", "es"]
        .into_iter()
        .map(|l| (l, vocabulary(l)))
        .collect();
    let mut found = Vec::new();
    for rs in common::bundled() {
        for (lang, vocab) in &vocab {
            for paper in [A4, LETTER] {
                for large in [false, true] {
                    let opts = KitOptions {
                        lang: Some(lang.to_string()),
                        large,
                        ..KitOptions::new(paper)
                    };
                    for doc in [
                        layout::kit(&rs, &opts).unwrap(),
                        layout::host_key(&rs, &opts).unwrap(),
                    ] {
                        for (page, line, tok) in broken(&doc, vocab) {
                            found.push(format!(
                                "{} [{lang}] {} large {large}: {page}: {tok:?} in {line:?}",
                                rs.id, paper.name
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "words broken inside:\n{}",
        found.join("\n")
    );
}
