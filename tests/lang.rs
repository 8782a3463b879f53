//! Languages: every bundled ruleset builds in every language it has text in; a Spanish kit has
//! no English word left on any page, in the host key or in index.html; plural selection; a
//! missing message is an error naming it; a ruleset without text in a language is a located
//! error; Twi letters (ɛ, ɔ) print from the bundled font.
use crate::common;

use sowkit::doc::Document;
use sowkit::layout::phrases::{plural_category, Phrases};
use sowkit::layout::{self, KitOptions, A4, LETTER};
use std::collections::BTreeSet;

/// Lower-case words (runs of letters) of `s`.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// Every word of the English catalogue's messages (placeholders and selector keys included,
/// so a leaked `{player}` or an unresolved key shows up too), at least three letters long,
/// except the few that are Spanish words as well. The exceptions were checked by hand against
/// a Spanish dictionary: each is an ordinary Spanish word with the same spelling.
fn english_words() -> BTreeSet<String> {
    const ALSO_SPANISH: &[&str] = &[
        "final", // final
        "real",  // real (tamaño real)
        "total", // total
        "extra", // extra (turno extra)
        "sowkit",
    ];
    let en = Phrases::load("en").unwrap();
    let mut set = BTreeSet::new();
    for (_, msg) in en.entries() {
        for w in words(msg) {
            if w.chars().count() >= 3 && !ALSO_SPANISH.contains(&w.as_str()) {
                set.insert(w);
            }
        }
    }
    set
}

/// All text a reader sees in a document: the title and every text item of every page.
fn all_text(doc: &Document) -> Vec<String> {
    let mut v = vec![doc.title.clone()];
    for p in &doc.pages {
        v.extend(p.texts().map(|t| t.text.clone()));
    }
    v
}

/// The text of an HTML file a reader sees: tags, attributes and the style sheet removed, and
/// file names (`kit.pdf`, `01-board.svg`: names of files, the same in every language) blanked.
fn html_text(html: &str) -> String {
    let html = match (html.find("<style>"), html.find("</style>")) {
        (Some(a), Some(b)) => format!("{}{}", &html[..a], &html[b..]),
        _ => html.to_string(),
    };
    common::strip_tags(&html)
}

/// `line` with file names (`kit.pdf`, `host-key.pdf`, `01-board.svg`) and command-line options
/// (`--child-safe`) blanked: they name files and options, typed the same in every language,
/// not words of the text.
fn without_file_names(line: &str) -> String {
    line.split(' ')
        .filter(|w| {
            let w = w.trim_end_matches([',', '.', ';', ':', ')']);
            let w = w.trim_start_matches('(');
            !(w.ends_with(".pdf") || w.ends_with(".svg") || w.starts_with("--"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Words that are usted forms wherever they stand in the Spanish text: the polite imperatives
/// (with their pronouns) that the Spanish sheets used before they spoke to players with tú,
/// and `usted` itself. A form that is also a third-person subjunctive the text needs ("como
/// haga falta", "salvo que la hoja pida más", "que le deje una semilla", "borde doble") is
/// not here: it is in [`USTED_PHRASES`] with the words that made it an order.
const USTED_WORDS: &[&str] = &[
    "usted",
    "ustedes",
    "imprima",
    "imprímala",
    "imprímalo",
    "compruebe",
    "recorte",
    "recórtelas",
    "recórtelos",
    "siga",
    "empiece",
    "anote",
    "anótela",
    "escriba",
    "sume",
    "cuente",
    "cuéntelas",
    "tache",
    "numere",
    "encontrará",
    "mueva",
    "calcule",
    "procure",
    "mantenga",
    "manténgalas",
    "juegue",
    "ponga",
    "elija",
    "tómelas",
    "siembre",
    "sáltela",
    "tome",
    "mire",
    "llévese",
    "pare",
    "vuelva",
    "prepare",
    "diga",
    "guárdela",
    "guárdelas",
    "enseñe",
    "pegue",
    "vigile",
    "coloque",
    "colóquelos",
    "téngalo",
    "utilice",
    "monte",
    "lea",
    "pruebe",
    "vea",
    "tape",
    "deshaga",
    "encaje",
    "apriete",
    "encuentre",
    "mida",
];

/// Usted phrases whose words alone can be third person: lower-case words, one space apart,
/// matched as whole words with punctuation (but `¿`) ignored.
const USTED_PHRASES: &[&str] = &[
    "le toca a usted",
    "haga la jugada",
    "haga las jugadas",
    "doble la esquina",
    "corte la hoja",
    "pida la versión",
    "si quiere",
    "si juega con",
    "¿juega con",
    "deje vacíos",
    "deje una semilla",
    "en su turno elija",
];

/// Every usted form in `text` (a catalogue value, a ruleset's note, a page's text), each as
/// "`form` in `text`"; empty when `text` speaks with tú or in the third person.
pub(crate) fn usted_forms(text: &str) -> Vec<String> {
    let spaced: String = text
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphabetic() || c == '¿' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let flat = format!(
        " {} ",
        spaced.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let mut found: Vec<String> = words(text)
        .into_iter()
        .filter(|w| USTED_WORDS.contains(&w.as_str()))
        .collect();
    found.extend(
        USTED_PHRASES
            .iter()
            .filter(|p| flat.contains(&format!(" {p} ")))
            .map(|p| p.to_string()),
    );
    found
        .into_iter()
        .map(|f| format!("{f:?} in {text:?}"))
        .collect()
}

/// The Spanish sheets speak to players with tú, as children's and family games in Spain do:
/// no usted form in any value of the Spanish catalogue (every sheet, the host key, the
/// manifest, 3d.txt, index.html and the `play`/`serve` pages of `sowkit serve`), nor in any
/// Spanish word of a bundled ruleset (name, duration, sources, players, labels, example
/// titles and notes). The Spanish kits' pages are scanned in `spanish_kits_have_no_english_word`
/// and the served play page in `serve::the_play_page_speaks_the_rulesets_language`.
#[test]
fn spanish_speaks_to_players_with_tu() {
    let es = Phrases::load("es").unwrap();
    let mut found = Vec::new();
    let mut scanned = 0;
    for (key, msg) in es.entries() {
        scanned += 1;
        found.extend(
            usted_forms(msg)
                .into_iter()
                .map(|f| format!("templates/es.toml {key}: {f}")),
        );
    }
    for rs in common::bundled() {
        let t = rs.in_lang("es").unwrap_or_else(|e| panic!("{e}"));
        let mut texts = vec![t.name.clone(), t.source.clone()];
        texts.extend(t.duration.clone());
        texts.extend(t.rule_sources.values().cloned());
        texts.extend(t.board.players.iter().cloned());
        texts.extend(t.board.stores.iter().cloned());
        for ex in t.examples.iter() {
            texts.push(ex.title.clone());
            texts.extend(ex.note.clone());
        }
        for s in &texts {
            scanned += 1;
            found.extend(
                usted_forms(s)
                    .into_iter()
                    .map(|f| format!("{}: {f}", rs.path)),
            );
        }
    }
    assert!(scanned > 400, "only {scanned} Spanish strings scanned");
    assert!(
        found.is_empty(),
        "usted forms in the Spanish text:\n{}",
        found.join("\n")
    );
}

/// The check above can fail: it finds the usted forms the Spanish sheets used to print, and
/// passes their tú wording and the third-person sentences that keep "su", "sus" and a
/// subjunctive.
#[test]
fn the_usted_check_catches_usted() {
    for usted in [
        "Ahora le toca a usted",
        "Prepare cada posición en el tablero, haga la jugada y anote dónde cae la última semilla.",
        "En su turno, elija una de sus casas que tenga semillas, tómelas todas y siembre.",
        "Entre casas y almacenes siempre hay 36 semillas; si la cuenta no cuadra, vuelva a contar.",
        "Encuentre la mejor jugada",
        "Imprima al 100\u{a0}%: la barra mide 100\u{a0}mm",
        "al final de una fila, doble la esquina directamente hacia la otra fila",
        "La hoja de anotación y un lápiz, si quiere apuntar la partida.",
    ] {
        assert!(!usted_forms(usted).is_empty(), "not caught: {usted}");
    }
    for tu in [
        "Ahora te toca a ti",
        "Prepara cada posición en el tablero, haz la jugada y anota dónde cae la última semilla.",
        "En tu turno, elige una de tus casas que tenga semillas, tómalas todas y siembra.",
        "Entre casas y almacenes siempre hay 36 semillas; si la cuenta no cuadra, vuelve a contar.",
        "Encuentra la mejor jugada",
        "Cada jugador siembra desde una de sus casas.",
        "Le toca a Sur. Juega S4: ¿dónde cae la última semilla?",
        "Imprime esta hoja tantas veces como haga falta.",
        "fichas, 1 copia por mesa, salvo que la hoja pida más.",
        "debes hacer una jugada que le deje al menos una semilla en ella",
        "las de Norte y el almacén Norte, borde doble.",
        "La hoja de anotación y un lápiz, si quieres apuntar la partida.",
    ] {
        assert_eq!(usted_forms(tu), Vec::<String>::new(), "{tu}");
    }
}

fn es() -> KitOptions {
    KitOptions {
        lang: Some("es".into()),
        ..KitOptions::new(A4)
    }
}

#[test]
fn spanish_kits_have_no_english_word() {
    let english = english_words();
    // The list must be a real list of English words, or the test proves nothing.
    for w in [
        "seeds", "store", "pit", "captures", "sow", "player", "page", "moves",
    ] {
        assert!(
            english.contains(w),
            "{w} missing from the English word list"
        );
    }
    // Default and large print: large print sets some words apart (the glue strip's letters,
    // wrapped headings), and every one of them must be Spanish too.
    for (rs, large) in common::bundled()
        .into_iter()
        .flat_map(|rs| [(rs.clone(), false), (rs, true)])
    {
        let opts = KitOptions { large, ..es() };
        let kit = sowkit::kit::make(&rs, &opts).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
        let mut lines = all_text(&kit.document);
        lines.extend(all_text(&kit.host_key));
        let html = kit.files.iter().find(|f| f.name == "index.html").unwrap();
        lines.push(html_text(std::str::from_utf8(&html.bytes).unwrap()));
        assert!(lines.len() > 100, "{}: too little text extracted", rs.id);
        let mut found = Vec::new();
        for l in &lines {
            for w in words(&without_file_names(l)) {
                if english.contains(&w) {
                    found.push(format!("{w:?} in {l:?}"));
                }
            }
            // The pages speak with tú, as the catalogue does (its words, as laid out).
            found.extend(usted_forms(l));
        }
        assert!(
            found.is_empty(),
            "{} (large print: {large}): English words or usted forms in the Spanish kit:\n{}",
            rs.id,
            found.join("\n")
        );
    }
}

/// The test above can fail: an English kit is full of English words.
#[test]
fn the_english_word_check_catches_english() {
    let english = english_words();
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    let doc = layout::kit(&rs, &KitOptions::new(A4)).unwrap();
    let hits = all_text(&doc)
        .iter()
        .flat_map(|l| words(l))
        .filter(|w| english.contains(w))
        .count();
    assert!(
        hits > 200,
        "only {hits} English words found in an English kit"
    );
}

#[test]
fn every_bundled_ruleset_builds_in_english_and_spanish_on_both_papers() {
    for rs in common::bundled() {
        assert!(
            rs.languages().contains(&"es".to_string())
                && rs.languages().contains(&"en".to_string()),
            "{}: {:?}",
            rs.id,
            rs.languages()
        );
        for lang in ["en", "es"] {
            for paper in [A4, LETTER] {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    ..KitOptions::new(paper)
                };
                let doc = layout::kit(&rs, &opts)
                    .unwrap_or_else(|e| panic!("{} [{lang}] {}: {e}", rs.id, paper.name));
                layout::host_key(&rs, &opts)
                    .unwrap_or_else(|e| panic!("{} [{lang}] {}: {e}", rs.id, paper.name));
                // The rule sheet speaks the language asked for.
                let text = all_text(&doc).join(" ");
                let marker = if lang == "es" { "semillas" } else { "seeds" };
                assert!(text.contains(marker), "{} [{lang}]", rs.id);
            }
        }
    }
}

#[test]
fn kalah_6x3_is_spanish_by_default_and_english_on_request() {
    let rs = common::load_path(&common::bundled_path("kalah-6x3"));
    assert_eq!(rs.lang, "es");
    let doc = layout::kit(&rs, &KitOptions::new(A4)).unwrap();
    let text = all_text(&doc).join(" ");
    // The source's terms.
    for w in ["casa", "almacén", "semillas", "siembra"] {
        assert!(text.contains(w), "{w} missing from the Spanish kit");
    }
    // The source's worked example, told once, in the ruleset's own words: the last seed in
    // the store gives an extra turn, and a last seed in an own empty pit takes the pit
    // opposite (3 seeds) with itself: four seeds. The engine's account of the same moves is
    // not printed as well (issue 9: every example was told twice).
    assert!(text.contains("así que Sur juega otra vez"), "{text}");
    assert!(text.contains("Sur se lleva esas tres y la suya, cuatro en total"));
    assert!(!text.contains("La última semilla cae en el almacén Sur"));
    assert!(!text.contains("Sur captura 4 semillas"));
    // Without notes, the engine's account tells the moves.
    let mut bare = rs.clone();
    for ex in std::sync::Arc::make_mut(&mut bare.examples) {
        ex.note = None;
        for t in ex.texts.values_mut() {
            t.note = None;
        }
    }
    let text = all_text(&layout::kit(&bare, &KitOptions::new(A4)).unwrap()).join(" ");
    assert!(
        text.contains("La última semilla cae en el almacén Sur"),
        "{text}"
    );
    assert!(text.contains("Sur vuelve a jugar"));
    assert!(text.contains("Sur captura 4 semillas: 3 de N3 y 1 de S4."));
    let en = KitOptions {
        lang: Some("en".into()),
        ..KitOptions::new(A4)
    };
    let text = all_text(&layout::kit(&rs, &en).unwrap()).join(" ");
    assert!(text.contains("Kalah (six pits, three seeds): how to play"));
    assert!(text.contains("South captures four and the turn ends."));
    assert!(!text.contains("semilla"));
    let text = all_text(&layout::kit(&bare, &en).unwrap()).join(" ");
    assert!(text.contains("South captures 4 seeds: 3 from N3 and 1 from S4."));
}

#[test]
fn plurals_follow_the_language() {
    let en = Phrases::load("en").unwrap();
    let es = Phrases::load("es").unwrap();
    let put =
        |ph: &Phrases, per: &str| ph.fmt("rules.setup_seeds", &[("per", per), ("total", "12")]);
    assert!(put(&en, "1").starts_with("Put 1 seed in every pit"));
    assert!(put(&en, "2").starts_with("Put 2 seeds in every pit"));
    assert!(put(&es, "1").starts_with("Pon 1 semilla en cada casa"));
    assert!(put(&es, "2").starts_with("Pon 2 semillas en cada casa"));
    let pass = |ph: &Phrases, min: &str| ph.fmt("rules.end_pass", &[("min", min)]);
    assert!(pass(&en, "1").contains("holds 1 seed or more"));
    assert!(pass(&en, "2").contains("holds 2 seeds or more"));
    assert!(pass(&es, "1").contains("tiene 1 semilla o más"));
    let cap =
        |ph: &Phrases, n: u64| ph.count("example.captured", n, &[("player", "A"), ("from", "x")]);
    assert_eq!(cap(&en, 1), "A captures 1 seed: x.");
    assert_eq!(cap(&en, 5), "A captures 5 seeds: x.");
    assert_eq!(cap(&es, 1), "A captura 1 semilla: x.");
    assert_eq!(cap(&es, 5), "A captura 5 semillas: x.");
    // CLDR categories (worked from the CLDR plural rules for en and es).
    assert_eq!(plural_category("en", "1"), Some("one"));
    assert_eq!(plural_category("en", "1.0"), Some("other"));
    assert_eq!(plural_category("en", "0"), Some("other"));
    assert_eq!(plural_category("es", "1"), Some("one"));
    assert_eq!(plural_category("es", "0"), Some("other"));
    assert_eq!(plural_category("es", "1000000"), Some("many"));
    assert_eq!(plural_category("es", "1,5"), Some("other"));
    assert_eq!(plural_category("es", "S1"), None);
}

#[test]
fn a_ruleset_with_one_seed_a_pit_says_seed() {
    let mut rs = common::load_path(&common::bundled_path("six-pit-sowing"));
    rs.board.seeds_per_pit = 1;
    rs.examples = Vec::new().into();
    for (lang, want) in [
        ("en", "Put 1 seed in every pit"),
        ("es", "Pon 1 semilla en cada casa"),
    ] {
        let opts = KitOptions {
            lang: Some(lang.into()),
            ..KitOptions::new(A4)
        };
        let text = all_text(&layout::kit(&rs, &opts).unwrap()).join("\n");
        assert!(text.contains(want), "[{lang}] {want}");
        assert!(!text.contains("1 seeds") && !text.contains("1 semillas"));
    }
}

#[test]
fn lists_numbers_and_lengths_follow_the_language() {
    let en = Phrases::load("en").unwrap();
    let es = Phrases::load("es").unwrap();
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(en.and_list(&v(&["3", "4"])), "3 and 4");
    assert_eq!(es.and_list(&v(&["3", "4"])), "3 y 4");
    assert_eq!(es.and_list(&v(&["1", "2", "3"])), "1, 2 y 3");
    // Spanish "o" becomes "u" before a word sounding /o/: "7 u 8" (ocho), "10 u 11" (once).
    assert_eq!(es.or_list(&v(&["2", "3"])), "2 o 3");
    assert_eq!(es.or_list(&v(&["7", "8"])), "7 u 8");
    assert_eq!(es.or_list(&v(&["10", "11"])), "10 u 11");
    assert_eq!(es.or_list(&v(&["10", "110"])), "10 o 110");
    assert_eq!(en.or_list(&v(&["7", "8"])), "7 or 8");
    // A store label reads with its article inside a Spanish sentence.
    assert_eq!(
        es.and_list(&v(&["S6", "almacén Sur"])),
        "S6 y el almacén Sur"
    );
    assert_eq!(en.mm(27.5), "27.5");
    assert_eq!(es.mm(27.5), "27,5");
    assert_eq!(es.mm(30.0), "30");
}

#[test]
fn a_missing_message_is_an_error_naming_it() {
    // A catalogue lacking a key the English one has is refused, naming the key.
    let es_src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/es.toml"),
    )
    .unwrap();
    let cut = es_src.replace("blank_next = \"Juega después:\"\n", "");
    assert_ne!(cut, es_src);
    let err = Phrases::from_source("es", &cut).unwrap_err();
    assert!(err.contains("practice.blank_next"), "{err}");
    assert!(err.contains("templates/es.toml"), "{err}");
    // Every bundled catalogue is complete.
    for lang in sowkit::layout::phrases::languages() {
        Phrases::load(lang).unwrap_or_else(|e| panic!("{e}"));
    }
    // A key asked for at layout time but absent is an error naming it, not a printed key.
    let ph = Phrases::load("es").unwrap();
    assert_eq!(ph.get("rules.no_such_message"), "<rules.no_such_message>");
    let err = ph.check().unwrap_err();
    assert!(
        err.contains("rules.no_such_message") && err.contains("es.toml"),
        "{err}"
    );
    // A selector without its `other` variant is refused.
    assert!(Phrases::parse("a = \"{n|one:x}\"")
        .unwrap_err()
        .contains("other"));
}

#[test]
fn a_language_the_ruleset_has_no_text_for_is_a_located_error() {
    // Without its Spanish text a ruleset refuses a Spanish kit, naming the file and the table
    // to add, instead of printing a page that mixes languages.
    let mut rs = common::load_path(&common::bundled_path("kalah-6x4"));
    rs.texts.clear();
    assert_eq!(rs.languages(), vec!["en".to_string()]);
    let err = layout::kit(&rs, &es()).unwrap_err();
    assert!(err.contains("kalah-6x4.toml"), "{err}");
    assert!(err.contains("[text.es]"), "{err}");
    // An example lacking its Spanish words is refused for a Spanish kit, at its line.
    let src = std::fs::read_to_string(common::bundled_path("kalah-6x4")).unwrap();
    let at = src.find("[example.text.es]").unwrap();
    let end = at + src[at..].find("\n\n").unwrap();
    let cut = format!("{}{}", &src[..at], &src[end..]);
    let rs = sowkit::ruleset::load_str("rulesets/kalah-6x4.toml", &cut)
        .unwrap_or_else(|d| panic!("{}", d[0].rendered));
    let line = src[..src.find("[[example]]").unwrap()].lines().count() + 1;
    let err = layout::kit(&rs, &es()).unwrap_err();
    assert!(
        err.contains(&format!("rulesets/kalah-6x4.toml:{line}:"))
            && err.contains("[example.text.es]"),
        "{err}"
    );
    // The English kit of that ruleset is still fine.
    layout::kit(&rs, &KitOptions::new(A4)).unwrap();
    // `build --lang es` says just that: not "cannot lay out the kit", and no advice on
    // papers or sizes, which cannot help.
    let dir = std::env::temp_dir().join(format!("sowkit-lang-cut-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.toml"), &cut).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sowkit"))
        .current_dir(&dir)
        .args(["build", "k.toml", "--lang", "es", "-o", "out", "-q"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("k.toml:{line}: example")), "{err}");
    assert!(
        !err.contains("cannot lay out") && !err.contains("help:"),
        "{err}"
    );
    assert!(!dir.join("out").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn twi_letters_print_from_the_bundled_font() {
    use sowkit::doc::Weight;
    for w in [Weight::Regular, Weight::Bold] {
        for g in sowkit::text::glyphs("ɛɔƐƆ", w) {
            assert_ne!(g.gid, 0, "{:?} missing from the font ({w:?})", g.ch);
        }
    }
    // A ruleset whose own text is Twi-flavoured (player names and notes with ɛ and ɔ) loads,
    // passes the printable-character check and builds, the letters on the pages.
    let src = std::fs::read_to_string(common::bundled_path("six-pit-sowing"))
        .unwrap()
        .replacen("name = \"Six-pit sowing\"", "name = \"Ɔware ketewa\"", 1)
        .replacen(
            "note = \"The three seeds",
            "note = \"Kɔfi nsɛm: the three seeds",
            1,
        );
    let rs = sowkit::ruleset::load_str("twi.toml", &src);
    let rs = match rs {
        Ok(rs) => rs,
        Err(d) => panic!("{}", d[0].rendered),
    };
    let kit = sowkit::kit::make(&rs, &KitOptions::new(A4)).unwrap();
    let text = all_text(&kit.document).join(" ");
    assert!(text.contains("Ɔware ketewa") && text.contains("Kɔfi nsɛm"));
    // The PDF embeds the glyphs: the ToUnicode maps of its subset fonts map glyphs back to
    // U+0254 (ɔ), U+025B (ɛ) and U+0186 (Ɔ).
    let pdf = &kit
        .files
        .iter()
        .find(|f| f.name == "kit.pdf")
        .unwrap()
        .bytes;
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut maps = String::new();
    for obj in doc.objects.values() {
        if let Ok(s) = obj.as_stream() {
            let mut s = s.clone();
            let _ = s.decompress();
            let t = String::from_utf8_lossy(&s.content).to_string();
            if t.contains("beginbfchar") || t.contains("beginbfrange") {
                maps.push_str(&t);
            }
        }
    }
    assert!(!maps.is_empty(), "no ToUnicode map in the PDF");
    for code in ["0254", "025B", "0186"] {
        assert!(
            maps.to_uppercase().contains(&format!("<{code}>")),
            "U+{code} not embedded"
        );
    }
}

#[test]
fn support_notes_come_from_the_ruleset() {
    let six = common::load_path(&common::bundled_path("six-pit-sowing"));
    assert!(six.support.helper && six.support.bowls && six.support.small_children);
    for (lang, heading, helper, bowls, small) in [
        (
            "en",
            "Help at the table",
            "A helper may move the seeds",
            "the labels sheet has one label per bowl",
            "cannot be swallowed",
        ),
        (
            "es",
            "Ayudas en la mesa",
            "Una persona de apoyo puede manejar las semillas",
            "la hoja de etiquetas trae una etiqueta por cuenco",
            "que no se puedan tragar",
        ),
    ] {
        let opts = KitOptions {
            lang: Some(lang.into()),
            ..KitOptions::new(A4)
        };
        let text = all_text(&layout::kit(&six, &opts).unwrap()).join(" ");
        for want in [heading, helper, bowls, small] {
            assert!(text.contains(want), "[{lang}] {want}");
        }
    }
    // Without [support] the section is not printed; each option prints only its own note.
    let mut rs = six.clone();
    rs.support = Default::default();
    let text = all_text(&layout::kit(&rs, &KitOptions::new(A4)).unwrap()).join(" ");
    assert!(!text.contains("Help at the table"));
    rs.support.bowls = true;
    let text = all_text(&layout::kit(&rs, &KitOptions::new(A4)).unwrap()).join(" ");
    assert!(text.contains("Help at the table") && text.contains("labels sheet"));
    assert!(!text.contains("A helper may move") && !text.contains("cannot be swallowed"));
}

/// `manifest.txt` and the 3D kit's `3d.txt` follow the kit's language too: no English word in
/// a Spanish kit's (file names, page names such as `board-map`, which name the SVG files,
/// "STL", "sha256" and "bytes", the same in both languages, aside),
/// and the English ones still say what they said.
#[test]
fn manifest_and_3d_notes_are_in_the_kit_language() {
    let english = english_words();
    let neutral = ["bytes", "sha", "stl", "sowkit"];
    let rs = common::load_path(&common::bundled_path("oware-abapa"));
    let text_of = |files: &[sowkit::kit::File], name: &str| {
        let f = files.iter().find(|f| f.name == name).unwrap();
        String::from_utf8(f.bytes.clone()).unwrap()
    };
    let kit = sowkit::kit::make(&rs, &es()).unwrap();
    let manifest = text_of(&kit.files, "manifest.txt");
    let three_d =
        sowkit::mesh::kit_files_in(&rs, false, sowkit::mesh::Bed::DEFAULT, Some("es")).unwrap();
    let notes = text_of(&three_d, "3d.txt");
    assert!(manifest.contains("idioma: es") && manifest.contains("archivos:"));
    assert!(notes.contains("semillas en total"));
    for text in [&manifest, &notes] {
        for line in text.lines() {
            let line: String = line
                .split(' ')
                .filter(|w| {
                    let name = w.trim_end_matches([',', ';']);
                    // The print style as `--style` takes it (`default`, `large,contrast`) and
                    // the option itself are typed the same in every language (in lower case:
                    // `--style` reads any case, and `Large` would be an English word).
                    let option = w.trim_matches(['(', ')']);
                    let style = |s: &str| {
                        s == s.to_ascii_lowercase() && sowkit::layout::style::Look::parse(s).is_ok()
                    };
                    !(style(name)
                        || style(option)
                        || option.starts_with("--")
                        || option.ends_with(".pdf")
                        || option.ends_with(".svg")
                        || option.ends_with(".stl")
                        || option.ends_with(".png")
                        || option.ends_with(".html")
                        || option.ends_with(".toml"))
                })
                .collect::<Vec<_>>()
                .join(" ");
            for w in words(&line) {
                assert!(
                    neutral.contains(&w.as_str()) || !english.contains(&w),
                    "English {w:?} in {line:?}"
                );
            }
            // Sheets are named in words, never by their internal page names (`board-map`).
            for p in &kit.document.pages {
                assert!(
                    !line.split([' ', ',', ';']).any(|w| w == p.name),
                    "page name {:?} in {line:?}",
                    p.name
                );
            }
        }
    }
    // In English the notes read as before.
    let en =
        sowkit::mesh::kit_files_in(&rs, false, sowkit::mesh::Bed::DEFAULT, Some("en")).unwrap();
    let en_notes = text_of(&en, "3d.txt");
    assert!(en_notes.contains("seeds in all") && en_notes.contains("bed: 200 x 200 mm"));
    // The board engraves its store labels in the kit's language too ("South's captures" in
    // English, "almacén Sur" in Spanish: different letters, so different meshes), exactly as
    // a ruleset written in Spanish engraves them (new-user pass: a Spanish 3D kit had English
    // on its board).
    let board = |files: &[sowkit::kit::File]| {
        files
            .iter()
            .find(|f| f.name == "board-1.stl")
            .unwrap()
            .bytes
            .clone()
    };
    assert_ne!(
        board(&three_d),
        board(&en),
        "the same board in both languages"
    );
    let spanish = rs.in_lang("es").unwrap();
    assert_eq!(spanish.board.stores[0], "almacén Sur");
    let own =
        sowkit::mesh::kit_files_in(&spanish, false, sowkit::mesh::Bed::DEFAULT, None).unwrap();
    assert_eq!(
        board(&three_d),
        board(&own),
        "--lang es engraves other words than a Spanish ruleset"
    );
}

/// The counters sheet's small-parts note says the same four things in English and Spanish:
/// a choking hazard, not for children under three, young children only with an adult
/// watching, and the kit's child-safe version with counters too large to swallow, said in
/// players' words (no command-line option: the sheet is for players, not whoever builds the
/// kit). Read from the printed counters page of a normal (not child-safe) kit, so the note
/// really is the one printed.
#[test]
fn small_parts_note_says_the_same_in_both_languages() {
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    // (language, [(what it must say, the words that say it)]).
    type Says<'a> = [(&'a str, &'a [&'a str]); 4];
    let must: [(&str, Says); 2] = [
        (
            "en",
            [
                ("choking hazard", &["choking hazard", "swallow"]),
                ("under three", &["children under three"]),
                ("adult supervision", &["adult watching"]),
                (
                    "the child-safe version",
                    &["child-safe version", "32\u{a0}mm"],
                ),
            ],
        ),
        (
            "es",
            [
                ("choking hazard", &["peligro de asfixia", "tragar"]),
                ("under three", &["menores de tres años"]),
                ("adult supervision", &["con un adulto pendiente"]),
                (
                    "the child-safe version",
                    &["versión para niños", "32\u{a0}mm"],
                ),
            ],
        ),
    ];
    for (lang, said) in must {
        let opts = KitOptions {
            lang: Some(lang.into()),
            ..KitOptions::new(A4)
        };
        let doc = layout::kit(&rs, &opts).unwrap();
        let page = doc
            .pages
            .iter()
            .find(|p| p.name == "counters-1")
            .expect("a counters sheet");
        let text = page
            .texts()
            .map(|t| t.text.clone())
            .collect::<Vec<_>>()
            .join(" ");
        for (what, phrases) in said {
            for p in phrases {
                assert!(text.contains(p), "{lang}: {what}: {p:?} not in {text:?}");
            }
        }
        assert!(
            !text.contains("--"),
            "{lang}: a command-line option in {text:?}"
        );
    }
}

/// The printed text of the page `name` of `rs`'s kit in `lang`, its text items joined by
/// single spaces (so a sentence wrapped over lines reads as one).
fn page_text(rs: &sowkit::ruleset::Ruleset, lang: &str, name: &str) -> String {
    let opts = KitOptions {
        lang: Some(lang.into()),
        ..KitOptions::new(A4)
    };
    let doc = layout::kit(rs, &opts).unwrap();
    let page = doc
        .pages
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no page {name}"));
    page.texts()
        .map(|t| t.text.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

/// On the bowl-labels sheet each player's sowing route starts at that player's own first pit
/// and comes back to it: in Kalah (each player skips the other's store) South's route is
/// S1 … S6, South's store, N1 … N6, North's store skipped, back to S1, and North's is
/// N1 … N6, North's store, S1 … S6, South's store skipped, back to N1 (worked by hand from
/// the counter-clockwise circuit), in both languages.
#[test]
fn each_players_bowl_route_starts_at_their_own_first_pit() {
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    let s = "S1 → S2 → S3 → S4 → S5 → S6";
    let n = "N1 → N2 → N3 → N4 → N5 → N6";
    for (lang, south, north) in [
        (
            "en",
            format!("South sows: {s} → South store → {n} → (skip North store) → back to S1."),
            format!("North sows: {n} → North store → {s} → (skip South store) → back to N1."),
        ),
        (
            "es",
            format!(
                "Sur siembra: {s} → almacén Sur → {n} → (se salta el almacén Norte) → de vuelta a S1."
            ),
            format!(
                "Norte siembra: {n} → almacén Norte → {s} → (se salta el almacén Sur) → de vuelta a N1."
            ),
        ),
    ] {
        let text = page_text(&rs, lang, "labels-1");
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains(&south), "{lang}: {south:?} not in {text:?}");
        assert!(text.contains(&north), "{lang}: {north:?} not in {text:?}");
    }
}

/// A length on a sheet keeps its number and unit together: the board map's glue-strip width
/// ("12 mm") is joined by a no-break space in both languages, and no printed line of any
/// page of a tiled kit ends in a number whose unit starts the next line.
#[test]
fn a_number_and_its_unit_never_split_over_lines() {
    let rs = common::load_path(&common::bundled_path("kalah-6x3"));
    for lang in ["en", "es"] {
        let text = page_text(&rs, lang, "board-map");
        assert!(
            text.contains("(12\u{a0}mm"),
            "{lang}: no '12\\u{{a0}}mm' in {text:?}"
        );
        for large in [false, true] {
            let opts = KitOptions {
                lang: Some(lang.into()),
                large,
                ..KitOptions::new(A4)
            };
            let doc = layout::kit(&rs, &opts).unwrap();
            for p in &doc.pages {
                let lines: Vec<String> = p.texts().map(|t| t.text.clone()).collect();
                for w in lines.windows(2) {
                    let ends_in_number = w[0].trim_end().ends_with(|c: char| c.is_ascii_digit());
                    let starts_with_unit = w[1].starts_with("mm") || w[1].starts_with('%');
                    assert!(
                        !(ends_in_number && starts_with_unit),
                        "{lang} {}: {:?} / {:?}",
                        p.name,
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }
}

/// A host-key answer to a question that asks who plays next names the next player even when
/// the ruleset's own note does not. Kalah 6×3's exercise "no capture when the opposite pit is
/// empty": North sows N3's three seeds into N4, N5 and N6; the last lands in a pit, not North's
/// store, so there is no extra turn and South moves next (worked by hand; the ruleset's
/// `expect.next` says the same). The rule sheet's worked examples, all with notes, are told
/// by their notes alone (each example told once), so no "moves next" sentence is added there.
#[test]
fn a_host_key_answer_names_the_next_player_after_the_rulesets_note() {
    let rs = common::load_path(&common::bundled_path("kalah-6x3"));
    for (lang, note, next, other) in [
        (
            "es",
            "La última semilla de Norte cae en N6, una casa suya vacía, pero S1, enfrente, no tiene semillas: no hay captura.",
            "Juega Sur.",
            "Juega Norte.",
        ),
        (
            "en",
            "North's last seed lands in its empty pit N6, but S1 opposite is empty: nothing is captured.",
            "South moves next.",
            "North moves next.",
        ),
    ] {
        let opts = KitOptions {
            lang: Some(lang.into()),
            ..KitOptions::new(A4)
        };
        let key = layout::host_key(&rs, &opts).unwrap();
        let text = all_text(&key).join(" ");
        assert!(
            text.contains(&format!("{note} {next}")),
            "{lang}: the host key's answer does not go on to {next:?}"
        );
        assert!(rs.examples.iter().all(|e| e.note.is_some()));
        let kit = layout::kit(&rs, &opts).unwrap();
        let sheets = kit
            .pages
            .iter()
            .filter(|p| p.name.starts_with("rules"))
            .flat_map(|p| p.texts().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(sheets.contains("Sur") || sheets.contains("South"));
        for s in [next, other] {
            assert!(!sheets.contains(s), "{lang}: the rule sheet tells {s:?}");
        }
    }
}

#[test]
fn a_host_key_answer_whose_note_names_the_next_player_does_not_name_it_again() {
    // Kalah 6x4's first example: S5's one seed ends in S6 (empty) with N1 opposite empty, so
    // nothing is captured and North plays; its note says so itself.
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    for (lang, note, next) in [
        (
            "es",
            "La única semilla de S5 cae en S6, vacía, pero N1, enfrente, también está vacía: no se captura nada y juega Norte.",
            "Juega Norte.",
        ),
        (
            "en",
            "S5's single seed lands in the empty pit S6, but N1 across from it is empty, so nothing is captured and North moves next.",
            "North moves next.",
        ),
    ] {
        let opts = KitOptions {
            lang: Some(lang.into()),
            ..KitOptions::new(A4)
        };
        let text = all_text(&layout::host_key(&rs, &opts).unwrap()).join(" ");
        assert!(text.contains(note), "{lang}: no {note:?} in the host key");
        assert!(
            !text.contains(&format!("{note} {next}")),
            "{lang}: the host key says {next:?} twice"
        );
    }
}

#[test]
fn long_sheet_titles_break_between_their_parts_not_inside_a_name() {
    // "Kalah (seis casas, cuatro semillas)" is long enough that the host key's and the
    // counters sheet's titles take two lines on A4. The break falls between the ruleset's name
    // and the sheet's ("…semillas):" / "hoja de soluciones — guárdala aparte"), or before
    // the sheet's parenthesis, never inside "hoja de soluciones" or "(48 para jugar y 5 de
    // repuesto)", and never next to the dash (it broke "…: fichas —" / "53 para recortar").
    let rs = common::load_path(&common::bundled_path("kalah-6x4"));
    let opts = KitOptions {
        lang: Some("es".into()),
        ..KitOptions::new(A4)
    };
    // The bold lines at the top of a page, top down, until the first regular text.
    let title = |p: &sowkit::doc::Page| -> Vec<String> {
        let mut t: Vec<_> = p.texts().collect();
        t.sort_by(|a, b| a.y.total_cmp(&b.y));
        t.iter()
            .take_while(|t| t.weight == sowkit::doc::Weight::Bold)
            .map(|t| t.text.clone())
            .collect()
    };
    let key = layout::host_key(&rs, &opts).unwrap();
    assert_eq!(
        title(&key.pages[0]),
        [
            "Kalah (seis casas, cuatro semillas):",
            "hoja de soluciones — guárdala aparte"
        ]
    );
    let kit = layout::kit(&rs, &opts).unwrap();
    let counters = kit
        .pages
        .iter()
        .find(|p| p.name.starts_with("counters"))
        .unwrap();
    let lines = title(counters);
    assert!(lines.len() <= 3, "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| !l.ends_with('—') && !l.starts_with('—')),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("fichas — 53 para recortar")),
        "{lines:?}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("(48 para jugar y 5 de repuesto)"),
        "{lines:?}"
    );
}

/// Large print on Letter, a break-it look at the rendered sheets: the counters title broke
/// right after its dash ("Giuthi: counters —" / "53 to cut (…)"). Every page of every bundled
/// kit and host key, in English and Spanish: no title line (the bold lines at the top) ends
/// or starts with a dash.
#[test]
fn large_print_letter_titles_break_sensibly() {
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            let opts = KitOptions {
                lang: Some(lang.into()),
                large: true,
                ..KitOptions::new(LETTER)
            };
            let kit = layout::kit(&rs, &opts).unwrap();
            let key = layout::host_key(&rs, &opts).unwrap();
            for p in kit.pages.iter().chain(&key.pages) {
                let mut t: Vec<_> = p.texts().collect();
                t.sort_by(|a, b| a.y.total_cmp(&b.y));
                let title: Vec<&str> = t
                    .iter()
                    .take_while(|t| t.weight == sowkit::doc::Weight::Bold)
                    .map(|t| t.text.as_str())
                    .collect();
                assert!(
                    title
                        .iter()
                        .all(|l| !l.ends_with('—') && !l.starts_with('—')),
                    "{} {lang} {}: {title:?}",
                    rs.id,
                    p.name
                );
            }
        }
    }
}

#[test]
fn practice_answer_blanks_print_their_whole_label() {
    // The labels of the answer blanks come from the catalogue; a label longer than its slot
    // used to print only its first wrapped line ("Resultado (quién gana y por cuántas" with
    // the rest dropped). Each must appear whole on the practice pages, its lines joined by a
    // space, in every bundled ruleset, both languages, normal and large print, on A4 and on
    // a 140 mm wide paper (narrow slots) where the kit lays out there.
    let mut checked = 0;
    for id in [
        "six-pit-sowing",
        "kalah-6x4",
        "kalah-6x3",
        "oware-abapa",
        "giuthi",
    ] {
        let rs = common::load_path(&common::bundled_path(id));
        let captures = rs.capture.kind != sowkit::ruleset::CaptureKind::None;
        for lang in ["en", "es"] {
            let ph = Phrases::load(lang).unwrap();
            for (paper, large) in [
                (A4, false),
                (A4, true),
                (sowkit::paper::Paper::parse("140x400mm").unwrap(), false),
            ] {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    large,
                    ..KitOptions::new(paper)
                };
                let Ok(kit) = layout::kit(&rs, &opts) else {
                    continue;
                };
                let text = kit
                    .pages
                    .iter()
                    .filter(|p| p.name.starts_with("practice"))
                    .flat_map(|p| p.texts().map(|t| t.text.clone()))
                    .collect::<Vec<_>>()
                    .join(" ");
                // Every exercise has the last-seed and next-player blanks, the capture
                // blank when the rules capture, and a "find the best move" exercise (its
                // heading printed) the best-move blanks.
                let mut want = vec!["practice.blank_last", "practice.blank_next"];
                if captures {
                    want.push("practice.blank_captured");
                }
                if text.contains(&ph.get("best.kind")) {
                    want.extend(["best.blank_move", "best.blank_result"]);
                }
                for k in want {
                    let label = ph.get(k);
                    assert!(
                        text.contains(&label),
                        "{id} {lang} {}{}: {label:?} is not printed whole",
                        paper.name,
                        if large { " large" } else { "" }
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 40, "only {checked} labels seen whole");
}

/// The words of every rule sheet page (`rules-…`) and host key page of `rs` in `lang`, one
/// string a page, lines joined by spaces.
fn sheet_pages(rs: &sowkit::ruleset::Ruleset, lang: &str) -> Vec<(String, String)> {
    let opts = KitOptions {
        lang: Some(lang.into()),
        ..KitOptions::new(A4)
    };
    let kit = layout::kit(rs, &opts).unwrap();
    let key = layout::host_key(rs, &opts).unwrap();
    kit.pages
        .iter()
        .chain(&key.pages)
        .filter(|p| !p.name.starts_with("board"))
        .map(|p| {
            let t: Vec<String> = p.texts().map(|t| t.text.clone()).collect();
            (p.name.clone(), t.join(" "))
        })
        .collect()
}

/// Issue 9, a Spanish reader's pass: (1) a one-seed handful is told as one seed dropped into
/// the next hole ("Sur toma la única semilla de S1 y la deja en S2"), never as a sowing "in a
/// way into" a one-hole list ("vacía S1 (1 semilla) y siembra en sentido antihorario en
/// S2", "lifts 1 from S1 and sows counter-clockwise into S2"); the bundled kits have such
/// moves in both languages. (2) The note that the sheets are sowkit's own words stands with
/// the credits: on the page of the sources heading, right after the sentence naming the
/// source, never at the top of the rules (six-pit, large print, had it under the title).
#[test]
fn one_seed_sowing_and_the_own_words_note_read_naturally() {
    let mut singles = [0, 0];
    for rs in common::bundled() {
        for (k, lang) in ["en", "es"].into_iter().enumerate() {
            let ph = Phrases::load(lang).unwrap();
            let (local, _) = KitOptions {
                lang: Some(lang.into()),
                ..KitOptions::new(A4)
            }
            .localise(&rs)
            .unwrap();
            let pages = sheet_pages(&rs, lang);
            let odd = if lang == "en" {
                " lifts 1 from "
            } else {
                " (1 semilla) y siembra "
            };
            let single = if lang == "en" {
                "lifts the one seed in"
            } else {
                "toma la única semilla de"
            };
            for (name, text) in &pages {
                assert!(!text.contains(odd), "{} [{lang}] {name}: {text}", rs.id);
                singles[k] += text.matches(single).count();
            }
            for large in [false, true] {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    large,
                    ..KitOptions::new(A4)
                };
                let kit = layout::kit(&rs, &opts).unwrap();
                let rules: Vec<&sowkit::doc::Page> = kit
                    .pages
                    .iter()
                    .filter(|p| p.name.starts_with("rules-"))
                    .collect();
                let heading = ph.get("rules.h.sources");
                let own_first = ph.get("rules.own_words");
                let own_first = own_first
                    .split_whitespace()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" ");
                let joined: Vec<String> = rules
                    .iter()
                    .map(|p| {
                        p.texts()
                            .map(|t| t.text.clone())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                let at = |needle: &str| joined.iter().position(|t| t.contains(needle));
                let head_page = at(&heading).expect("a sources heading");
                let own_page = at(&own_first).unwrap_or_else(|| {
                    panic!("{} [{lang}] large {large}: no own-words note", rs.id)
                });
                assert!(
                    own_page >= head_page && own_page <= head_page + 1,
                    "{} [{lang}] large {large}: the own-words note is on rules-{}, the sources on rules-{}",
                    rs.id,
                    own_page + 1,
                    head_page + 1
                );
                // Right after the source sentence: the note follows the source's name.
                let all: String = joined[head_page..].join(" ");
                let src_end = local.source.split_whitespace().last().unwrap().to_string();
                let a = all
                    .find(&format!("{src_end}."))
                    .expect("the source sentence");
                let b = all.find(&own_first).unwrap();
                assert!(
                    b > a && all[a..b].split_whitespace().count() == 1,
                    "{} [{lang}]: the note does not follow the source: {}",
                    rs.id,
                    &all[a..b.min(a + 200)]
                );
            }
        }
    }
    assert!(
        singles[0] > 0 && singles[1] > 0,
        "no one-seed move told: {singles:?}"
    );
}

#[test]
fn a_worked_example_that_fits_a_page_keeps_its_caption_on_the_page_of_its_boards() {
    // A Spanish reader's pass found two Oware examples in large print on A3 whose captions
    // stood alone at the top of the next page. Each example is two mini-boards and a
    // two-line caption, far less than an A3 page, so title and caption share a page.
    let rs = common::load_path(&common::bundled_path("oware-abapa"));
    let opts = KitOptions {
        lang: Some("es".into()),
        large: true,
        ..KitOptions::new(sowkit::layout::A3)
    };
    let kit = layout::kit(&rs, &opts).unwrap();
    let page_of = |s: &str| {
        kit.pages
            .iter()
            .position(|p| {
                p.texts()
                    .map(|t| t.text.clone())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .contains(s)
            })
            .unwrap_or_else(|| panic!("{s:?} is not printed"))
    };
    for (title, caption_start) in [
        ("Captura total: no se captura nada", "S6 deja N1 con 2"),
        (
            "Con veinticinco se gana",
            "Sur captura las dos semillas de N3",
        ),
    ] {
        assert_eq!(
            page_of(title),
            page_of(caption_start),
            "{title:?}: its caption is on another page"
        );
    }
}

/// The setup paragraph of the rule sheet (the one saying who owns which store).
fn setup_sides(rs: &sowkit::ruleset::Ruleset, lang: &str) -> String {
    let ph = Phrases::load(lang).unwrap();
    let rs = rs.in_lang(lang).unwrap();
    sowkit::layout::rules::blocks(&rs, &ph)
        .into_iter()
        .find_map(|b| match b {
            sowkit::layout::rules::Block::Para(p)
                if p.contains(&rs.board.stores[0]) && p.contains(&rs.board.pit_labels[0][0]) =>
            {
                Some(p)
            }
            _ => None,
        })
        .expect("a setup paragraph naming the first store and pit")
}

#[test]
fn a_store_not_named_a_store_is_introduced_as_one() {
    // Oware names its stores "South's captures" and "North's captures", while every later
    // sentence says "store": the setup says which store is whose. "South store" and
    // "almacén Sur" already say it, so nothing is added.
    let oware = common::load_path(&common::bundled_path("oware-abapa"));
    let en = setup_sides(&oware, "en");
    assert!(en.contains("owns South's captures, their store;"), "{en}");
    assert!(en.contains("owns North's captures, their store."), "{en}");
    let es = setup_sides(&oware, "es");
    assert!(es.contains("es dueño del almacén Sur;"), "{es}");
    assert!(!es.contains("su almacén"), "{es}");
    let kalah = common::load_path(&common::bundled_path("kalah-6x4"));
    let en = setup_sides(&kalah, "en");
    assert!(en.contains("owns South store;"), "{en}");
    assert!(!en.contains("their store"), "{en}");
    // A Spanish name without the word: "capturas de Sur, su almacén".
    let mut own = oware.in_lang("es").unwrap();
    own.board.stores = ["capturas de Sur".into(), "capturas de Norte".into()];
    let ph = Phrases::load("es").unwrap();
    let text: Vec<String> = sowkit::layout::rules::blocks(&own, &ph)
        .into_iter()
        .filter_map(|b| match b {
            sowkit::layout::rules::Block::Para(p) => Some(p),
            _ => None,
        })
        .collect();
    assert!(
        text.iter()
            .any(|p| p.contains("es dueño de capturas de Sur, su almacén;")),
        "{text:?}"
    );
}

/// Every text of `doc`'s pages, one string a page, its texts joined by spaces.
fn page_texts(doc: &Document) -> Vec<String> {
    doc.pages
        .iter()
        .map(|p| {
            sowkit::doc::leaves(&p.items)
                .into_iter()
                .filter_map(|i| match i {
                    sowkit::doc::Item::Text(t) => Some(t.text.clone()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// A child-safe kit tells the players to bring its own large counters, not seeds or beans,
/// and the how-to sheet speaks of the counters sheets in the plural when there are several
/// (Oware's 53 counters of 32 mm take three A4 sheets; a teacher read "the counters sheet").
#[test]
fn a_child_safe_kit_speaks_of_its_counters() {
    let oware = common::load_path(&common::bundled_path("oware-abapa"));
    for (lang, bring, glue, seeds) in [
        (
            "en",
            "48 of the kit's paper counters, 32\u{a0}mm across, too big to swallow",
            "Glue the counters sheets onto card",
            "48 seeds, beans or counters",
        ),
        (
            "es",
            "48 de las fichas de papel del juego, de 32\u{a0}mm de diámetro",
            "Pega las hojas de fichas sobre cartulina",
            "48 semillas, garbanzos o fichas",
        ),
    ] {
        let opts = KitOptions {
            child_safe: true,
            lang: Some(lang.into()),
            ..KitOptions::new(A4)
        };
        let doc = layout::kit(&oware, &opts).unwrap();
        let counters = doc
            .pages
            .iter()
            .filter(|p| p.name.starts_with("counters"))
            .count();
        assert_eq!(counters, 3, "{lang}");
        let all = page_texts(&doc).join("\n");
        assert!(all.contains(bring), "{lang}");
        assert!(all.contains(glue), "{lang}");
        assert!(!all.contains(seeds), "{lang}");
        // Without --child-safe: seeds or beans, and the one counters sheet.
        let doc = layout::kit(
            &oware,
            &KitOptions {
                lang: Some(lang.into()),
                ..KitOptions::new(A4)
            },
        )
        .unwrap();
        let all = page_texts(&doc).join("\n");
        assert!(all.contains(seeds), "{lang}");
    }
}

/// The how-to sheet's copy counts are per table for the board and counters, as for the rules
/// (a teacher with twelve tables read "the board, 1 copy" and printed one board).
#[test]
fn howto_counts_copies_per_table() {
    for rs in common::bundled() {
        for (lang, per_table, board, counters) in [
            ("en", "per table", "the board", "counters,"),
            ("es", "por mesa", "el tablero", "fichas,"),
        ] {
            let Ok(rs) = rs.in_lang(lang) else { continue };
            let opts = KitOptions {
                lang: Some(lang.into()),
                ..KitOptions::new(A4)
            };
            let doc = layout::kit(&rs, &opts).unwrap();
            let howto = &page_texts(&doc)[0];
            for what in [board, counters] {
                let row = howto
                    .split('•')
                    .find(|s| s.contains(what))
                    .unwrap_or_else(|| panic!("{} {lang}: no row for {what}: {howto}", rs.id));
                assert!(row.contains(per_table), "{} {lang}: {row:?}", rs.id);
            }
        }
    }
}

/// Large print on Letter (and A4): the footer wrapped its print check inside ("Giuthi · Print
/// at 100% (actual size) — check the bar" / "measures 100 mm"; "… (actual size)" / "— check
/// the bar …"). Every page of every bundled kit and host key, in English and Spanish, on
/// Letter and A4: the footer (the text under the calibration bar) holds the print check
/// whole on one line, and its other line (if any) is the kit's name beside the page number.
#[test]
fn large_print_footers_keep_the_print_check_whole() {
    let sz = sowkit::layout::style::Sizes::new(true);
    for rs in common::bundled() {
        for lang in ["en", "es"] {
            let check = Phrases::load(lang).unwrap().get("page.print_check");
            let name = rs.in_lang(lang).unwrap().name;
            for paper in [LETTER, A4] {
                let opts = KitOptions {
                    lang: Some(lang.into()),
                    large: true,
                    ..KitOptions::new(paper)
                };
                let kit = layout::kit(&rs, &opts).unwrap();
                let key = layout::host_key(&rs, &opts).unwrap();
                for p in kit.pages.iter().chain(&key.pages) {
                    let (_, bar_y, _, bar_h) = sowkit::layout::page::bar_rect(p.height, &sz);
                    let mut footer: Vec<_> =
                        p.texts().filter(|t| t.y > bar_y + bar_h + 0.5).collect();
                    footer.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
                    let lines: Vec<&str> = footer.iter().map(|t| t.text.as_str()).collect();
                    let one_line = format!("{name} · {check}");
                    // "name · check" beside the page number; or the name beside it and the
                    // check under them.
                    let ok = match lines.as_slice() {
                        [first, _page] => *first == one_line,
                        [first, _page, second] => *first == name && *second == check,
                        _ => false,
                    };
                    assert!(ok, "{} {lang} {} {}: {lines:?}", rs.id, paper.name, p.name);
                }
            }
        }
    }
}

/// Large print in Spanish on portrait paper 200 mm wide or narrower: where the long print
/// check could only be broken between words, the footer broke it ("… · Imprime al" / "100 %
/// (tamaño real) y comprueba…") rather than try the short form of the check, which fits whole.
/// Every page's footer now has a line that is a whole print check (long or short), alone or
/// after the kit's name and " · ".
#[test]
fn narrow_large_print_footers_take_the_short_check_before_breaking_one() {
    let sz = sowkit::layout::style::Sizes::new(true);
    let rs = common::load_path(&common::bundled_path("kalah-6x3"));
    let ph = Phrases::load("es").unwrap();
    let forms = [ph.get("page.print_check"), ph.get("page.print_check_short")];
    for size in ["200x280mm", "190x280mm", "200x250mm"] {
        let paper = sowkit::layout::Paper::parse(size).unwrap();
        let opts = KitOptions {
            lang: Some("es".into()),
            large: true,
            ..KitOptions::new(paper)
        };
        let kit = layout::kit(&rs, &opts).unwrap();
        for p in &kit.pages {
            let (_, bar_y, _, bar_h) = sowkit::layout::page::bar_rect(p.height, &sz);
            let mut footer: Vec<_> = p.texts().filter(|t| t.y > bar_y + bar_h + 0.5).collect();
            footer.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
            let lines: Vec<&str> = footer.iter().map(|t| t.text.as_str()).collect();
            let whole = lines.iter().any(|l| {
                forms
                    .iter()
                    .any(|c| *l == c.as_str() || l.ends_with(&format!(" · {c}")))
            });
            assert!(whole, "{size} {}: {lines:?}", p.name);
        }
    }
}
