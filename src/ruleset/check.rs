//! Everything sowkit says about one ruleset text, in one run and in file order: the loader's
//! errors, the worked examples replayed by the engine (even when only words, labels or sizes
//! are wrong), the sanity playouts, and the warnings. `check`, `build`, `serve`, `watch` and
//! `replay` all use [`check_source`], so they report the same problems and warnings.

use super::load::{self, line_span, Diagnostic};
use super::Ruleset;

/// The result of checking one ruleset text.
#[derive(Debug)]
pub struct Checked {
    /// The ruleset, when it has no error at all.
    pub ruleset: Option<Ruleset>,
    /// Every error, sorted by place in the file.
    pub errors: Vec<Diagnostic>,
    /// Every warning (the ruleset still builds), sorted by place in the file.
    pub warnings: Vec<Diagnostic>,
    /// The ruleset whenever its rules can be played and its pits keep their own labels, even
    /// if a worked example disagrees with the engine or a word or size is wrong: what
    /// `replay` and the play-test page of `serve` play, so that the tools for mending worked
    /// examples work while they are wrong. `None` when a rule, the board's players, pit
    /// labels or stores, or the text itself is wrong.
    pub playable: Option<Ruleset>,
    /// When several worked examples disagree with the engine, the line said after the errors:
    /// how many of how many, the likely cause when it is known, and the `sowkit replay …
    /// --emit-example` command that rewrites one ([`crate::examples::summary`]). Not a
    /// problem of its own: the file's problem count is that of [`Checked::errors`].
    pub summary: Option<String>,
}

/// The 1-based example number a diagnostic's field names (`example[3].expect.next` → 3).
fn example_of(field: &str) -> Option<usize> {
    field
        .strip_prefix("example[")?
        .split(']')
        .next()?
        .parse()
        .ok()
}

/// Loads `src` (`path` is for messages), replays its worked examples when its rules can be
/// played, and collects every error and warning (see [`Checked`]).
pub fn check_source(path: &str, src: &str) -> Checked {
    let p = load::load_partial(path, src);
    let mut errors = p.errors;
    let mut warnings = p.warnings;
    // Labels in error are the loader's defaults: a replay would name other pits.
    let names_in_error = |errors: &[Diagnostic]| {
        errors.iter().any(|d| {
            ["board.players", "board.pit_labels", "board.stores"]
                .iter()
                .any(|list| load::in_list(&d.field, list))
        })
    };
    let labels_kept = !names_in_error(&errors);
    // The rules compiled once: whether they can be played is asked four times below.
    let rules = p
        .ruleset
        .as_ref()
        .and_then(|rs| crate::engine::Rules::try_new(rs).ok());
    let mut summary = None;
    if let Some(rs) = &p.ruleset {
        if rules.is_some() {
            // An example with a problem of its own is not replayed: that would only repeat it.
            let mut replayed: Vec<Diagnostic> = crate::examples::check(rs, src)
                .into_iter()
                .filter(|d| example_of(&d.field).is_none_or(|n| !p.examples_in_error.contains(&n)))
                .collect();
            if !labels_kept {
                // With the board's names in error the defaults stand in ("A", "A1"), and an
                // example naming the file's own players or pits cannot be read: each such
                // example is left out (its errors would all repeat the first), and counted.
                let unreadable: Vec<usize> = replayed
                    .iter()
                    .filter(|d| {
                        [
                            "cannot be read",
                            "is not a player",
                            "is not a pit or store label",
                            "are not pit or store labels",
                            "is not a move",
                            "are not moves",
                        ]
                        .iter()
                        .any(|m| d.message.contains(m))
                    })
                    .filter_map(|d| example_of(&d.field))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                if !unreadable.is_empty() {
                    replayed
                        .retain(|d| example_of(&d.field).is_none_or(|n| !unreadable.contains(&n)));
                    // A warning, as for examples not replayed behind a rule in error: a
                    // consequence of the names' errors, not a problem of its own.
                    warnings.push(Diagnostic::whole_file_warning(
                        path,
                        &format!(
                            "{} worked example(s) not checked: they name players, pits or stores the board does not have while its names are in error above; mend those first",
                            unreadable.len()
                        ),
                    ));
                }
            }
            let disagreeing: Vec<usize> = replayed
                .iter()
                .filter_map(|d| example_of(&d.field))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            summary = crate::examples::summary(rs, &disagreeing);
            errors.extend(replayed);
            errors.extend(crate::examples::sanity(rs, src));
        }
        warnings.extend(translation_warnings(rs, src));
        if errors.is_empty() {
            warnings.extend(crate::examples::endless(rs, src));
        }
    }
    let replayed = rules.is_some();
    if !replayed && !errors.is_empty() {
        // A rule in error: no example can be replayed. Said, so that fixing the rule and seeing
        // new errors from the examples is no surprise (a threshold out of range hid two wrong
        // examples without a word). Not said again where an error already says it.
        // The worked examples, counted and the first located in one parse of the file (as
        // TOML reads it: no header inside a multi-line string, CRLF lines counted right).
        let (examples, first) = toml::de::DeTable::parse(src)
            .ok()
            .and_then(
                |doc| match doc.get_ref().get("example").map(|e| e.get_ref()) {
                    Some(toml::de::DeValue::Array(items)) => {
                        Some((items.len(), items.first().map(|i| i.span())))
                    }
                    _ => None,
                },
            )
            .unwrap_or((0, None));
        let said = errors
            .iter()
            .any(|d| d.message.contains("worked examples are not replayed"));
        if let (true, false, Some(span)) = (examples > 0, said, first) {
            // A warning, not a problem of its own: the file's problem count stays that of
            // the errors.
            warnings.push(Diagnostic::warning_at(
                path,
                src,
                span,
                "example",
                &format!(
                    "{examples} worked example(s) not checked: they are replayed once the errors in this file are mended"
                ),
            ));
        }
    }
    load::sort_by_place(&mut errors);
    load::sort_by_place(&mut warnings);
    let playable = p.ruleset.clone().filter(|_| labels_kept && rules.is_some());
    // Moves are read whatever their case ("n2"); the sheets print each as its pit is labelled
    // ("N2"), not as typed.
    let ruleset = p.ruleset.filter(|_| errors.is_empty()).map(|mut rs| {
        if let Some(rules) = &rules {
            let canonical: Vec<Vec<String>> = rs
                .examples
                .iter()
                .map(|ex| {
                    ex.moves
                        .iter()
                        .map(|m| {
                            crate::notation::parse_move(rules, m).map_or_else(
                                |_| m.clone(),
                                |mv| crate::notation::format_move(rules, mv),
                            )
                        })
                        .collect()
                })
                .collect();
            for (ex, moves) in std::sync::Arc::make_mut(&mut rs.examples)
                .iter_mut()
                .zip(canonical)
            {
                ex.moves = moves;
            }
        }
        rs
    });
    Checked {
        ruleset,
        errors,
        warnings,
        playable,
        summary,
    }
}

/// A worked example without words in one of the ruleset's other languages: `build --lang`
/// refuses the ruleset in that language (`Ruleset::in_lang`), so say so at the example.
fn translation_warnings(rs: &Ruleset, src: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for lang in rs.languages().into_iter().filter(|l| *l != rs.lang) {
        for (i, ex) in rs.examples.iter().enumerate() {
            if !ex.texts.contains_key(&lang) {
                out.push(Diagnostic::warning_at(
                    &rs.path,
                    src,
                    line_span(src, ex.line),
                    &format!("example[{}].text.{lang}", i + 1),
                    &format!(
                        "this example has no [example.text.{lang}] title: `build --lang {lang}` will refuse this ruleset; add the table after [example.expect] with title (and note) in {lang:?} (README, \"Languages\")"
                    ),
                ));
            }
        }
    }
    out
}
