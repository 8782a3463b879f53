//! Loading a ruleset from TOML: schema (unknown keys rejected), semantic checks, diagnostics.
//!
//! Every error names the file, line, column and field, says what is wrong and what would be
//! right, and comes with a rendered source snippet (annotate-snippets, rustc style).

use super::model::*;
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;

/// Largest supported number of pits in a row.
pub const MAX_PITS_PER_SIDE: usize = 16;
/// Largest supported number of seeds in a pit at the start.
pub const MAX_SEEDS_PER_PIT: u16 = 50;
/// Largest supported number of moves in one worked example.
pub const MAX_EXAMPLE_MOVES: usize = 500;
/// Largest ruleset file read, bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Most worked examples in one ruleset (each becomes a diagram on the rule sheets).
pub const MAX_EXAMPLES: usize = 40;
/// Most moves in all worked examples of one ruleset together (each is replayed by the engine).
pub const MAX_TOTAL_MOVES: usize = 2000;
/// Longest example note, in characters (about a third of a rule sheet).
pub const MAX_NOTE_CHARS: usize = 600;
/// Longest example title, in characters.
pub const MAX_TITLE_CHARS: usize = 100;
/// Longest `source` citation (the ruleset's or a table's), in characters.
pub const MAX_SOURCE_CHARS: usize = 400;
/// Longest `duration`, in characters.
pub const MAX_DURATION_CHARS: usize = 40;
/// Longest list of numbers or names a ruleset may give for one key (counts, options, moves in
/// an `expect` list).
pub const MAX_LIST_ITEMS: usize = 64;
/// Most problems reported for one file; the rest are counted, not rendered.
pub const MAX_DIAGNOSTICS: usize = 50;
/// Characters no pit or store label may hold: the move and position notation uses them
/// (`( )` around a store's count, `/` between the sides, `;` before the player to move, `< >`
/// after a move for its direction, `[ ]` and `,` in lists of moves, `"` around a position or a
/// move). An apostrophe is allowed: a prime (`A'`) is a natural label.
pub const LABEL_NOTATION_CHARS: &str = "()/;<>[],\"";

/// A problem in an input file, with where it is. `line`/`column` are 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as given by the user.
    pub path: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// The field, e.g. `board.pits_per_side` or `example[2].expect.position`.
    pub field: String,
    /// What is wrong and what would be right.
    pub message: String,
    /// The rendered report with a source snippet (what the CLI prints).
    pub rendered: String,
    /// A warning (the ruleset still builds) rather than an error.
    pub warning: bool,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.rendered)
    }
}

impl Diagnostic {
    /// Builds a diagnostic for the byte range `span` of `src`, rendering a snippet.
    pub fn at(path: &str, src: &str, span: Range<usize>, field: &str, message: &str) -> Diagnostic {
        let span = clamp_span(src, span);
        let (line, column) = line_col(src, span.start);
        let title = if field.is_empty() {
            message.to_string()
        } else {
            format!("{field}: {message}")
        };
        let rendered = render_snippet(path, src, span, &title, false);
        Diagnostic {
            path: path.to_string(),
            line,
            column,
            field: field.to_string(),
            message: message.to_string(),
            rendered,
            warning: false,
        }
    }

    /// A warning for the byte range `span` of `src`: the ruleset still builds, but something
    /// probably needs the author's attention (rendered as `warning: …`).
    pub fn warning_at(
        path: &str,
        src: &str,
        span: Range<usize>,
        field: &str,
        message: &str,
    ) -> Diagnostic {
        let span = clamp_span(src, span);
        let mut d = Diagnostic::at(path, src, span.clone(), field, message);
        d.rendered = render_snippet(path, src, span, &format!("{field}: {message}"), true);
        d.warning = true;
        d
    }

    /// A diagnostic with no position in the file (e.g. the file cannot be read).
    pub fn whole_file(path: &str, message: &str) -> Diagnostic {
        Diagnostic {
            path: path.to_string(),
            line: 0,
            column: 0,
            field: String::new(),
            message: message.to_string(),
            rendered: format!("error: {path}: {message}"),
            warning: false,
        }
    }

    /// [`Diagnostic::whole_file`] as a warning: said, but not a problem of its own (the
    /// file's problem count is that of its errors).
    pub fn whole_file_warning(path: &str, message: &str) -> Diagnostic {
        Diagnostic {
            rendered: format!("warning: {path}: {message}"),
            warning: true,
            ..Diagnostic::whole_file(path, message)
        }
    }

    /// One-line form: `path:line:column: field: message` (`…: warning: field: …` for a
    /// warning).
    pub fn short(&self) -> String {
        let mut field = if self.field.is_empty() {
            String::new()
        } else {
            format!("{}: ", self.field)
        };
        if self.warning {
            field.insert_str(0, "warning: ");
        }
        if self.line == 0 {
            format!("{}: {}{}", self.path, field, self.message)
        } else {
            format!(
                "{}:{}:{}: {}{}",
                self.path, self.line, self.column, field, self.message
            )
        }
    }
}

fn clamp_span(src: &str, span: Range<usize>) -> Range<usize> {
    let mut s = span.start.min(src.len());
    let mut e = span.end.min(src.len()).max(s);
    while s > 0 && !src.is_char_boundary(s) {
        s -= 1;
    }
    while e < src.len() && !src.is_char_boundary(e) {
        e += 1;
    }
    s..e
}

/// Sheet text is set as flowing paragraphs: a TOML multi-line string's line breaks and tabs
/// become single spaces (a printed `\n` would be an empty box). In the name and titles a
/// control character is an error (they are one line, [`Validator::line`]); any other run of
/// whitespace in them (no-break spaces, say) still becomes one space.
fn one_line_texts(rs: &mut Ruleset) {
    let one = |s: &mut String| *s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    one(&mut rs.name);
    one(&mut rs.source);
    if let Some(d) = rs.duration.as_mut() {
        one(d);
    }
    for v in rs.rule_sources.values_mut() {
        one(v);
    }
    for ex in std::sync::Arc::make_mut(&mut rs.examples) {
        one(&mut ex.title);
        if let Some(n) = ex.note.as_mut() {
            one(n);
        }
    }
}

/// A number as a person would write it back: plain when ordinary, scientific when huge or tiny.
fn short_number(x: f64) -> String {
    if x.is_finite() && (x == 0.0 || (1e-3..1e7).contains(&x.abs())) {
        format!("{}", (x * 1000.0).round() / 1000.0)
    } else {
        format!("{x:e}")
    }
}

/// Whether `c` prints as nothing or reorders the text around it: a bidirectional control
/// (Unicode Bidi_Control) or a default-ignorable code point (Unicode
/// Default_Ignorable_Code_Point, DerivedCoreProperties.txt, Unicode 15). Returns what it is.
pub fn invisible(c: char) -> Option<&'static str> {
    let u = c as u32;
    if matches!(u, 0x061C | 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069) {
        return Some("a bidirectional control");
    }
    let ignorable = matches!(
        u,
        0x00AD
            | 0x034F
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200D
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    );
    ignorable.then_some("an invisible (default-ignorable) character")
}

/// The characters of `t` the bundled font (DejaVu Sans, both weights) cannot print, each
/// once in the order they first appear, with the message `check` gives for it: a character
/// with no glyph (it would print as an empty box), one whose glyph is blank (U+2800, the
/// blank Braille pattern, would leave a pit label empty) or one of a right-to-left script
/// (which needs shaping and reordering that sowkit does not do). Whitespace, controls and
/// invisible characters are left to [`unprintable`]. `check` applies it to every text a kit prints;
/// `sowkit new` (through `check`) and `replay --title` refuse the same characters.
pub fn font_missing(t: &str) -> Vec<(char, String)> {
    let mut out: Vec<(char, String)> = Vec::new();
    for w in [crate::doc::Weight::Regular, crate::doc::Weight::Bold] {
        for g in crate::text::glyph_iter(t, w) {
            // Right-to-left scripts need shaping and reordering that sowkit does not do.
            let rtl = matches!(g.ch as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF);
            // Controls and invisible characters are reported where they are read.
            let reported = g.ch.is_control() || invisible(g.ch).is_some();
            if g.ch.is_whitespace() || reported || out.iter().any(|(c, _)| *c == g.ch) {
                continue;
            }
            let why = if g.gid == 0 || rtl {
                "it is missing from the bundled font (DejaVu Sans) or needs right-to-left shaping, which sowkit does not do yet"
            } else if crate::text::draws_nothing(w, g.gid) {
                "its glyph in the bundled font (DejaVu Sans) is blank, so it would print as nothing"
            } else {
                continue;
            };
            let k = t.chars().position(|c| c == g.ch).unwrap_or(0) + 1;
            out.push((
                g.ch,
                format!(
                    "character {k} of {t:?}, {:?} (U+{:04X}), cannot be printed: {why}; use another character or spell it out",
                    g.ch,
                    g.ch as u32
                ),
            ));
        }
    }
    out
}

/// Whether `name` neither starts nor ends with a space (any white space but a control
/// character or a line or paragraph separator, which [`unprintable`] names as such).
fn trimmed_of_spaces(name: &str) -> bool {
    let space = |c: char| c.is_whitespace() && !c.is_control() && !line_separator(c);
    name.trim_matches(space) == name
}

/// U+2028 or U+2029: white space that breaks the line as a line feed does.
fn line_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether the field `field` is the list `list` or lies in it (`board.stores[2]`,
/// `board.pit_labels[2][3]`): a wrong type in a list is named by its item's place.
pub(crate) fn in_list(field: &str, list: &str) -> bool {
    field
        .strip_prefix(list)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
}

/// The first character of `t` that would not print as it reads: a control character (other
/// than those in `allowed`), an invisible (default-ignorable) code point or a bidirectional
/// control; with the message `check` gives for it. `replay --title` uses the same rule as
/// an example's `title` (no control character allowed).
pub fn unprintable(t: &str, allowed: &[char]) -> Option<(char, String)> {
    for (k, c) in t.chars().enumerate() {
        let what = if c.is_control() && !allowed.contains(&c) {
            "a control character"
        } else if line_separator(c) && !allowed.contains(&'\n') {
            // Breaks the line as a line feed does, where only a one-line text may stand.
            "a line or paragraph separator"
        } else if let Some(w) = invisible(c) {
            w
        } else {
            continue;
        };
        return Some((
            c,
            format!(
                "character {} of {t:?} is U+{:04X}, {what}: it would not print as it reads; remove it",
                k + 1,
                c as u32
            ),
        ));
    }
    // A combining mark left over after Unicode NFC has no letter with it built in: the sheets
    // set each character by its advance, with no mark placement, so "n" + U+0303 + U+0308
    // printed as a plain "ñ" (a second break-it pass), the same as the label "ñ". A mark that
    // composes ("e" + U+0301 → "é") prints as the composed letter.
    if t.chars()
        .any(unicode_normalization::char::is_combining_mark)
    {
        use unicode_normalization::UnicodeNormalization;
        if let Some(m) = t
            .nfc()
            .find(|&c| unicode_normalization::char::is_combining_mark(c))
        {
            let k = t.chars().position(|c| c == m).unwrap_or(0);
            return Some((
                m,
                format!(
                    "character {} of {t:?} is U+{:04X}, a combining mark with no letter it \
                     composes with here (Unicode NFC leaves it apart): it would not print as it \
                     reads; use a letter with its mark built in, or remove it",
                    k + 1,
                    m as u32
                ),
            ));
        }
    }
    None
}

/// A label as a reader tells labels apart: Unicode NFC, then full case folding (Unicode's
/// CaseFolding.txt, statuses C and F: `ß` and `SS` both fold to `ss`, the long `ſ` to `s`, the
/// ligature `ﬁ` to `fi`; lower-casing alone leaves those apart), then NFC again so that
/// folding cannot leave a decomposed form.
pub fn fold(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let nfc: String = s.nfc().collect();
    caseless::default_case_fold_str(&nfc).nfc().collect()
}

/// Windows device names (any case, with or without an extension) that no file or folder may
/// have there: `con`, `prn`, `aux`, `nul`, `com0`-`com9`, `lpt0`-`lpt9`.
pub fn windows_reserved(id: &str) -> bool {
    let stem = id.split('.').next().unwrap_or(id).to_ascii_lowercase();
    matches!(stem.as_str(), "con" | "prn" | "aux" | "nul")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit())
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Byte range of character `c` inside the string literal at `span` of `src` (the literal
/// with its quotes, or what is written between them): where it is written as itself or as a
/// TOML escape (`\t`, `\n`, `\xHH`, `\uXXXX`, `\UXXXXXXXX`…; none in a `'…'` literal
/// string); the span's start if it is not there. One pass over the span.
fn locate_char(src: &str, span: Range<usize>, c: char) -> Range<usize> {
    let span = clamp_span(src, span);
    let lit = &src[span.clone()];
    // Between the quotes (a quote just before the span: an item's literal, whose text may
    // itself start with a quote), or the literal with its quotes, skipped. A literal string
    // ('…', '\'\'\'…') has no escapes.
    let is_quote = |q: &char| matches!(q, '"' | '\'');
    let (quote, mut i) = match src[..span.start].chars().next_back().filter(is_quote) {
        Some(q) => (Some(q), 0),
        None => {
            let q = lit.chars().next().filter(is_quote);
            let skip = if lit.starts_with("\"\"\"") || lit.starts_with("'''") {
                3
            } else {
                usize::from(q.is_some())
            };
            (q, skip)
        }
    };
    let escapes = quote != Some('\'');
    while let Some(ch) = lit[i..].chars().next() {
        if escapes && ch == '\\' {
            let (decoded, len) = toml_escape(&lit[i..]);
            if decoded == Some(c) {
                return span.start + i..span.start + i + len;
            }
            i += len;
            continue;
        }
        if ch == c {
            return span.start + i..span.start + i + ch.len_utf8();
        }
        i += ch.len_utf8();
    }
    span.start..span.start
}

/// The escape at the start of `s` (which starts with a backslash) in a TOML basic string:
/// the character it stands for (`None` for a line-ending backslash, which stands for nothing,
/// or a malformed escape) and its length in bytes (at least 1, on a character boundary).
fn toml_escape(s: &str) -> (Option<char>, usize) {
    let hex = |digits: usize| -> (Option<char>, usize) {
        let code = s
            .get(2..2 + digits)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match code {
            Some(v) => (char::from_u32(v), 2 + digits),
            None => (None, 1),
        }
    };
    match s.as_bytes().get(1) {
        Some(b'b') => (Some('\u{8}'), 2),
        Some(b't') => (Some('\t'), 2),
        Some(b'n') => (Some('\n'), 2),
        Some(b'f') => (Some('\u{c}'), 2),
        Some(b'r') => (Some('\r'), 2),
        Some(b'e') => (Some('\u{1b}'), 2),
        Some(b'"') => (Some('"'), 2),
        Some(b'\\') => (Some('\\'), 2),
        Some(b'x') => hex(2),
        Some(b'u') => hex(4),
        Some(b'U') => hex(8),
        Some(b' ' | b'\t' | b'\r' | b'\n') => {
            // A line-ending backslash: it and the whitespace after it stand for nothing.
            let rest = s[1..].trim_start_matches([' ', '\t', '\r', '\n']);
            (None, s.len() - rest.len())
        }
        _ => (None, 1),
    }
}

/// The strings of a list as [`string_items`] reads them: each one's text and the byte range
/// of what is written between its quotes.
type ListStrings = Vec<(String, Range<usize>)>;

/// Every string in the TOML value written at `span` of `src` (a list, or a list of lists), in
/// file order, as the TOML parser reads it: its text (escapes decoded) and the byte range of
/// what is written between its quotes. Empty when `span` does not hold one TOML value.
fn string_items(src: &str, span: Range<usize>) -> ListStrings {
    let span = clamp_span(src, span);
    let Ok(value) = toml::de::DeValue::parse(&src[span.clone()]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Depth first, last item pushed first so that items come out in file order; a stack,
    // not recursion, however deeply the lists nest.
    let mut stack = vec![&value];
    while let Some(v) = stack.pop() {
        match v.get_ref() {
            toml::de::DeValue::Array(items) => stack.extend(items.iter().rev()),
            toml::de::DeValue::Table(t) => stack.extend(t.values().rev()),
            toml::de::DeValue::String(text) => {
                let r = v.span();
                let Some(written) = src.get(span.start + r.start..span.start + r.end) else {
                    continue;
                };
                let quote = if written.starts_with("\"\"\"") || written.starts_with("'''") {
                    3
                } else {
                    1
                };
                // The quotes are ASCII: the range between them starts and ends on character
                // boundaries.
                if written.len() >= 2 * quote {
                    let start = span.start + r.start + quote;
                    let end = span.start + r.end - quote;
                    out.push((text.to_string(), start..end));
                }
            }
            _ => {}
        }
    }
    out
}

/// Byte range of the text `t` inside its string literal within `span` of `src` (one item of
/// a list, such as a pit label), given `items`, the list's [`string_items`]: what is written
/// between the quotes of the first string there that reads as `t`, however it is written
/// (with TOML escapes such as `\u2800` or `\t`, as a literal `'…'` string, on a line of a
/// multi-line list); all of `span` when no string there reads as `t`.
fn locate_literal(
    src: &str,
    span: Range<usize>,
    items: &[(String, Range<usize>)],
    t: &str,
) -> Range<usize> {
    let span = clamp_span(src, span);
    if let Some((_, at)) = items.iter().find(|(text, _)| text == t) {
        return clamp_span(src, at.clone());
    }
    // Not read as a TOML value: the first `"t"` written there, if it needs no escape.
    if t.is_empty() || t.contains(['"', '\\']) || t.chars().any(char::is_control) {
        return span;
    }
    let quoted = format!("\"{t}\"");
    match src[span.clone()].find(&quoted) {
        Some(i) => span.start + i + 1..span.start + i + 1 + t.len(),
        None => span,
    }
}

/// 1-based line and column (in characters) of byte `offset` in `src`.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let mut col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    // A byte-order mark opening the file is no character of its first line.
    if line == 1 && before.starts_with('\u{feff}') {
        col -= 1;
    }
    (line, col)
}

/// Line starts of a text, for turning many byte offsets into lines without rescanning.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 1-based line of byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// Byte offset where 1-based `line` starts (end of `src` when out of range).
pub fn line_start(src: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    let mut n = 1;
    for (i, c) in src.char_indices() {
        if c == '\n' {
            n += 1;
            if n == line {
                return i + 1;
            }
        }
    }
    src.len()
}

/// Byte range of 1-based `line` without its newline.
pub fn line_span(src: &str, line: usize) -> Range<usize> {
    let s = line_start(src, line);
    let e = src[s..].find('\n').map_or(src.len(), |i| s + i);
    s..e
}

fn render_snippet(path: &str, src: &str, span: Range<usize>, title: &str, warning: bool) -> String {
    use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
    // An empty span still needs something to point at: widen to one character when possible.
    let span = if span.is_empty() && span.end < src.len() {
        let next = src[span.start..].chars().next().map_or(1, |c| c.len_utf8());
        span.start..span.start + next
    } else {
        span
    };
    let level = if warning {
        Level::WARNING
    } else {
        Level::ERROR
    };
    let report = &[level.primary_title(title).element(
        Snippet::source(src)
            .path(path)
            .annotation(AnnotationKind::Primary.span(span).label("here")),
    )];
    Renderer::plain().render(report).to_string()
}

/// Dotted name of the key at byte `offset`: the nearest table header above plus the key on
/// that line (`board.pits_per_side`, `example[2].expect.position`).
fn field_at(src: &str, offset: usize) -> String {
    let offset = offset.min(src.len());
    let mut table = String::new();
    let mut example_index = 0usize;
    let mut key = String::new();
    let (line_no, _) = line_col(src, offset);
    for (i, raw) in src.lines().enumerate() {
        let l = raw.trim();
        if i + 1 > line_no {
            break;
        }
        if l.starts_with("[[") {
            let name = l
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim();
            if name == "example" {
                example_index += 1;
                table = format!("example[{example_index}]");
            } else {
                table = name.to_string();
            }
            key.clear();
        } else if l.starts_with('[') {
            let name = l
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim();
            table = match name.strip_prefix("example.") {
                Some(rest) if example_index > 0 => format!("example[{example_index}].{rest}"),
                _ => name.to_string(),
            };
            key.clear();
        } else if let Some((k, _)) = l.split_once('=') {
            if i + 1 == line_no {
                key = k.trim().trim_matches('"').to_string();
            }
        }
    }
    match (table.is_empty(), key.is_empty()) {
        (true, _) => key,
        (false, true) => table,
        (false, false) => format!("{table}.{key}"),
    }
}

// ---------------------------------------------------------------- raw schema (serde)
// (A missing `Option` field is `None`; `#[serde(default)]` is only needed on the others.)

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleset {
    id: Spanned<String>,
    name: Spanned<String>,
    duration: Option<Spanned<String>>,
    lang: Option<Spanned<String>>,
    source: Spanned<String>,
    players: Option<Spanned<i64>>,
    board: Spanned<RawBoard>,
    sowing: Spanned<RawSowing>,
    extra_turn: Option<Spanned<RawExtraTurn>>,
    capture: Option<Spanned<RawCapture>>,
    grand_slam: Option<RawGrandSlam>,
    feeding: Option<RawFeeding>,
    end: Spanned<RawEnd>,
    layout: Option<RawLayout>,
    next_round: Option<Spanned<RawNextRound>>,
    #[serde(default, rename = "example")]
    examples: Vec<Spanned<RawExample>>,
    /// `[text.<lang>]`: the ruleset's words in other languages. (Not `[lang.<code>]`: `lang`
    /// is already the ruleset's own language code.)
    text: Option<BTreeMap<String, Spanned<RawLangText>>>,
    support: Option<RawSupport>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLangText {
    name: Spanned<String>,
    duration: Option<Spanned<String>>,
    source: Spanned<String>,
    /// Per-table citations in this language, by table name (`sowing = "…"`).
    sources: Option<Spanned<BTreeMap<String, String>>>,
    players: Spanned<Vec<String>>,
    pit_labels: Option<Spanned<Vec<Vec<String>>>>,
    stores: Option<Spanned<Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExampleText {
    title: Spanned<String>,
    note: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSupport {
    #[serde(default)]
    helper: bool,
    #[serde(default)]
    bowls: bool,
    #[serde(default)]
    small_children: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    pits_per_side: Spanned<i64>,
    seeds_per_pit: Spanned<i64>,
    seeds_per_pit_options: Option<Spanned<Vec<i64>>>,
    players: Spanned<Vec<String>>,
    pit_labels: Option<Spanned<Vec<Vec<String>>>>,
    stores: Option<Spanned<Vec<String>>>,
    next_game_first: Option<RawNextGame>,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawNextGame {
    Winner,
    Loser,
    Alternate,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNextRound {
    lays_out: RawLaysOut,
    arrangement: RawArrangement,
    all_seeds: bool,
    shorten_below: Option<Spanned<i64>>,
    min_pits: Option<Spanned<i64>>,
    opposite: RawOpposite,
    other_readings: Option<Vec<Spanned<RawOtherReading>>>,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawLaysOut {
    FewerSeeds,
    MoreSeeds,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawArrangement {
    Free,
    Even,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawOpposite {
    Equal,
    Double,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum RawOtherReading {
    NotAllSeeds,
    DoubleWhenShort,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawDirection {
    Counterclockwise,
    Clockwise,
    Either,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum RawInclude {
    Sow,
    Skip,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawRelay {
    None,
    Reverse,
    Same,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSowing {
    direction: RawDirection,
    own_store: Spanned<RawInclude>,
    opponent_store: RawInclude,
    origin_on_lap: Option<RawInclude>,
    min_seeds: Option<Spanned<i64>>,
    relay: Option<RawRelay>,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum RawExtraOn {
    LastInOwnStore,
    EmptyPitBeforeCrossing,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawExtraTurn {
    #[serde(default)]
    on: Vec<Spanned<RawExtraOn>>,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum RawCaptureKind {
    None,
    Opposite,
    Count,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawSide {
    Own,
    Opponent,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum RawChain {
    None,
    Backward,
    FollowingEmpty,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawCrossing {
    Sown,
    Landed,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCapture {
    kind: Spanned<RawCaptureKind>,
    side: Option<Spanned<RawSide>>,
    last_pit_was_empty: Option<Spanned<bool>>,
    opposite_must_have_seeds: Option<Spanned<bool>>,
    take_capturing_seed: Option<Spanned<bool>>,
    counts: Option<Spanned<Vec<i64>>>,
    chain: Option<Spanned<RawChain>>,
    after_crossing_only: Option<Spanned<bool>>,
    crossing: Option<Spanned<RawCrossing>>,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawGrandSlamPolicy {
    CaptureAll,
    NoCapture,
    Illegal,
    IllegalUnlessOnly,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrandSlam {
    policy: RawGrandSlamPolicy,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFeeding {
    must_feed: Spanned<bool>,
    source: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum RawWhen {
    EitherSideEmpty,
    Threshold,
    Repetition,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawNoMove {
    End,
    Pass,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawRemaining {
    Owner,
    Mover,
    Opponent,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnd {
    when: Spanned<Vec<Spanned<RawWhen>>>,
    threshold: Option<Spanned<i64>>,
    no_legal_move: Option<RawNoMove>,
    remaining_seeds: Option<RawRemaining>,
    source: Option<Spanned<String>>,
}

/// Default gap between neighbouring pits, mm: a DIY Kalah board has 1¾ in (44.5 mm) holes
/// 2¼ in (57.2 mm) apart, a gap of 12.7 mm; 12 mm also leaves a free band either side of a row
/// arrow's number, where a tile seam can fall.
pub const DEFAULT_PIT_GAP: f64 = 12.0;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLayout {
    pit_diameter: Option<Spanned<f64>>,
    pit_gap: Option<Spanned<f64>>,
    store_length: Option<Spanned<f64>>,
    counter_diameter: Option<Spanned<f64>>,
    paper: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExample {
    title: Spanned<String>,
    note: Option<Spanned<String>>,
    start: Spanned<String>,
    moves: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    exercise: bool,
    expect: Spanned<RawExpect>,
    text: Option<BTreeMap<String, Spanned<RawExampleText>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    position: Option<Spanned<String>>,
    next: Option<Spanned<String>>,
    extra_turn: Option<Spanned<bool>>,
    captured: Option<Spanned<i64>>,
    game_over: Option<Spanned<bool>>,
    scores: Option<Spanned<Vec<i64>>>,
    last: Option<Spanned<String>>,
    sown: Option<Spanned<Vec<String>>>,
    legal: Option<Spanned<Vec<String>>>,
    grand_slam: Option<Spanned<bool>>,
    passed: Option<Spanned<Vec<String>>>,
}

// ---------------------------------------------------------------- loading

/// Reads a ruleset file's text: regular files only (not folders, devices or pipes), at most
/// [`MAX_FILE_BYTES`] read however large the file claims to be, UTF-8 only.
/// Errors name the file and say what is wrong.
pub fn read_source(path: &std::path::Path) -> Result<String, Diagnostic> {
    use std::io::Read;
    let shown = path.display().to_string();
    let cannot =
        |e: std::io::Error| Diagnostic::whole_file(&shown, &format!("cannot read the file: {e}"));
    let meta = std::fs::metadata(path).map_err(|e| {
        // A link to nothing (or round in a loop) is said to be one: "No such file" read as
        // if the link itself were missing.
        if path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            let why = crate::kitdir::explain_missing(path, &e);
            let why = why
                .strip_prefix(&format!("{shown} "))
                .map_or(why.clone(), |r| format!("the file {r}"));
            Diagnostic::whole_file(&shown, &why)
        } else {
            cannot(e)
        }
    })?;
    if !meta.is_file() {
        return Err(Diagnostic::whole_file(
            &shown,
            "not a regular file: give a ruleset .toml file or a folder of them",
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Diagnostic::whole_file(
            &shown,
            "the file is larger than 1 MiB; a ruleset is a small text file",
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::whole_file(
            &shown,
            &format!(
                "the file is not UTF-8 text (bad byte at offset {}); save it as UTF-8",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// The JSON Schema of the ruleset format, traced from the loader's own types (see
/// [`super::schema`]): what `sowkit schema` prints, for Taplo / Even Better TOML.
pub fn json_schema() -> serde_json::Value {
    schema_once().clone()
}

/// [`json_schema`], traced once per process: every text that fails to load is walked against
/// it (`locate::unknown_in`), and tracing it each time made a failed load about 5 ms (the
/// loader fuzz target fell from 7,500 to 210 execs a second).
fn schema_once() -> &'static serde_json::Value {
    static SCHEMA: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    SCHEMA.get_or_init(|| super::schema::of::<RawRuleset>("sowkit ruleset"))
}

/// Reads and validates a ruleset file (see [`read_source`] and [`load_str`]).
pub fn load_file(path: &std::path::Path) -> Result<Ruleset, Vec<Diagnostic>> {
    let src = read_source(path).map_err(|d| vec![d])?;
    load_str(&path.display().to_string(), &src)
}

/// Parses and validates a ruleset from `src`; `path` is used in messages only.
/// Returns every problem found (at least one) on failure, in file order.
pub fn load_str(path: &str, src: &str) -> Result<Ruleset, Vec<Diagnostic>> {
    let p = load_partial(path, src);
    match p.ruleset {
        Some(rs) if p.errors.is_empty() => Ok(rs),
        _ => Err(p.errors),
    }
}

/// What loading a ruleset text found: the ruleset when its rules can be played, even if some
/// of its words, labels or sizes are wrong (so the worked examples can still be checked in the
/// same run), every error, and the warnings.
#[derive(Debug)]
pub struct Partial {
    /// The ruleset, `None` when the text does not parse or a rule (board size, sowing,
    /// capture, end …) is wrong. With errors, labels and sizes in error are the defaults.
    pub ruleset: Option<Ruleset>,
    /// Every problem, sorted by place in the file ([`sort_by_place`]).
    pub errors: Vec<Diagnostic>,
    /// Warnings (the ruleset still builds), sorted by place.
    pub warnings: Vec<Diagnostic>,
    /// The worked examples (1-based) that have a problem of their own: replaying them would
    /// only repeat it.
    pub examples_in_error: Vec<usize>,
}

/// How many problems `diags` stand for: one each, except the closing "N more problem(s) not
/// shown" note, which stands for N (300 unknown keys were summed up as "51 problem(s)").
pub fn count_problems(diags: &[Diagnostic]) -> usize {
    diags.iter().map(|d| more_not_shown(d).unwrap_or(1)).sum()
}

/// The closing note for `more` problems left out of a report ([`more_not_shown`] reads it).
fn more_problems(path: &str, more: usize) -> Diagnostic {
    Diagnostic::whole_file(
        path,
        &format!(
            "{more} more problem(s) not shown (at most {MAX_DIAGNOSTICS} are reported): fix these first"
        ),
    )
}

/// `all` cut to [`MAX_DIAGNOSTICS`], with the closing note counting what was cut.
fn capped(path: &str, mut all: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if all.len() > MAX_DIAGNOSTICS {
        let more = all.len() - MAX_DIAGNOSTICS;
        all.truncate(MAX_DIAGNOSTICS);
        all.push(more_problems(path, more));
    }
    all
}

/// N, when `d` is the closing "N more problem(s) not shown" note.
fn more_not_shown(d: &Diagnostic) -> Option<usize> {
    d.message
        .strip_suffix(&format!(
            " more problem(s) not shown (at most {MAX_DIAGNOSTICS} are reported): fix these first"
        ))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|_| d.line == 0)
}

/// Sorts diagnostics by place in the file (line, then column); those with no place (the whole
/// file, or the "more problems" count) last. Stable, so one place keeps its order.
pub fn sort_by_place(d: &mut [Diagnostic]) {
    d.sort_by_key(|d| (d.line == 0, d.line, d.column));
}

/// Whether an error in `field` leaves the rules playable: a word, label, citation, size or a
/// worked example's own problem (the engine's defaults stand in for what is wrong).
fn leaves_rules_playable(field: &str) -> bool {
    let top = field.split(['.', '[']).next().unwrap_or("");
    matches!(
        top,
        "id" | "name" | "source" | "duration" | "lang" | "text" | "layout" | "support" | "example"
    ) || field.ends_with(".source")
        || matches!(field, "board.players" | "board.pit_labels" | "board.stores")
}

/// Whether `key`, an unknown top-level key, is close enough to `rule`, a key of a table that
/// holds rules, to be a slip of it. Compared ignoring case, `-` and `_`: equal, or, for a rule
/// key of at least 3 characters, at most 1 edit apart when the rule key has up to 5
/// characters and at most 2 when it is longer. A rule key of 1 or 2 characters (`on`) is
/// near only the same key: any short key is within two edits of it.
fn near_rule_key(key: &str, rule: &str) -> bool {
    let norm = |s: &str| s.to_lowercase().replace(['-', '_'], "");
    let (k, r) = (norm(key), norm(rule));
    let len = r.chars().count();
    k == r || (len >= 3 && edit_distance(&k, &r) <= if len <= 5 { 1 } else { 2 })
}

/// The rule an unknown top-level `key = value` in `d` may be a slip of, as it is written in a
/// message (`[sowing] min_seeds`, a table `[capture]`, the top level's `players`), the nearest
/// first; `None` when `d` is no such key or is near no rule key (see [`near_rule_key`]). The
/// tables are those holding rules (`[board]`, `[sowing]`, `[capture]` …: see
/// `leaves_rules_playable`); their `source` citations are no rule.
fn rule_key_slip(d: &Diagnostic) -> Option<String> {
    if d.field.contains(['.', '[']) || !d.message.starts_with("unknown field `") {
        return None;
    }
    let schema = schema_once();
    // (key, as named in a message) for the tables whose errors keep the rules from being
    // played, their keys, and the top level's own keys that are not words.
    let mut rule_keys: Vec<(String, String)> = Vec::new();
    for (table, value) in schema
        .get("properties")
        .and_then(|p| p.as_object())
        .into_iter()
        .flatten()
    {
        if leaves_rules_playable(table) {
            continue;
        }
        match value.get("properties").and_then(|p| p.as_object()) {
            Some(keys) => {
                rule_keys.push((table.clone(), format!("[{table}]")));
                rule_keys.extend(
                    keys.keys()
                        .filter(|k| *k != "source")
                        .map(|k| (k.clone(), format!("[{table}] {k}"))),
                );
            }
            None => rule_keys.push((table.clone(), table.clone())),
        }
    }
    let norm = |s: &str| s.to_lowercase().replace(['-', '_'], "");
    rule_keys
        .into_iter()
        .filter(|(k, _)| near_rule_key(&d.field, k))
        .min_by_key(|(k, _)| edit_distance(&norm(&d.field), &norm(k)))
        .map(|(_, shown)| shown)
}

/// Whether `d` is an unknown top-level `key = value` that cannot be a rule: its key is not,
/// and is not close to (see [`near_rule_key`]), a key of any table that holds rules. A stray
/// `colour = "red"` is not played, so the worked examples are still replayed; a
/// `min_seed = 2` written above `[sowing]` would be played as `min_seeds`' default, so it
/// keeps them from being replayed.
fn unknown_key_outside_rules(d: &Diagnostic) -> bool {
    !d.field.contains(['.', '['])
        && d.message.starts_with("unknown field `")
        && rule_key_slip(d).is_none()
}

/// `d` (an unknown top-level key that may be a slip of `rule`, see [`rule_key_slip`]) saying
/// that the worked examples wait for it, and which rule it may be.
fn say_examples_wait(d: &mut Diagnostic, rule: &str) {
    let old = format!("{}: {}", d.field, d.message);
    // Said once: the unknown-field message may already ask after the same key.
    let bare = rule.trim_start_matches('[').trim_end_matches(']');
    let asked = d.message.contains(&format!("did you mean `{bare}`?"));
    let ask = if asked {
        String::new()
    } else {
        format!(" (did you mean {rule}?)")
    };
    d.message = format!(
        "{}; the worked examples are not replayed until this is fixed, as it may be a rule{ask}",
        d.message
    );
    d.rendered = d
        .rendered
        .replacen(&old, &format!("{}: {}", d.field, d.message), 1);
}

/// Parses and validates a ruleset from `src` (see [`Partial`]); `path` is used in messages.
pub fn load_partial(path: &str, src: &str) -> Partial {
    let (ruleset, errors, warnings) = match load_unsorted(path, src, true) {
        Err(e) => (None, e, Vec::new()),
        Ok(x) => x,
    };
    let mut errors = errors;
    let mut warnings = warnings;
    let mut examples_in_error: Vec<usize> = errors
        .iter()
        // A worked example's title or note in another language is no problem a replay
        // would repeat.
        .filter(|d| translation_lang(&d.field).is_none())
        .filter_map(|d| {
            let rest = d.field.strip_prefix("example[")?;
            rest.split(']').next()?.parse().ok()
        })
        .collect();
    examples_in_error.dedup();
    let playable = errors
        .iter()
        .all(|d| leaves_rules_playable(&d.field) || unknown_key_outside_rules(d));
    // Only unknown keys keep the examples from being replayed: each that may be a rule says
    // so (with other errors in the rules, those say why).
    if !playable
        && errors
            .iter()
            .all(|d| leaves_rules_playable(&d.field) || rule_key_slip(d).is_some())
    {
        for d in errors.iter_mut() {
            if let Some(rule) = rule_key_slip(d) {
                say_examples_wait(d, &rule);
            }
        }
    }
    sort_by_place(&mut errors);
    sort_by_place(&mut warnings);
    Partial {
        ruleset: ruleset.filter(|_| playable),
        errors,
        warnings,
        examples_in_error,
    }
}

type Loaded = (Option<Ruleset>, Vec<Diagnostic>, Vec<Diagnostic>);

/// `past_translations`: when every problem the reading finds is in one language's words (a
/// `[text.<lang>]` or `[example.text.<lang>]` table missing a key, say), read on without that
/// language ([`read_past_broken_translations`]).
fn load_unsorted(
    path: &str,
    src: &str,
    past_translations: bool,
) -> Result<Loaded, Vec<Diagnostic>> {
    if src.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(vec![Diagnostic::whole_file(
            path,
            "the file is empty: a ruleset needs at least id, name, source, [board], [sowing] and [end] (see rulesets/six-pit-sowing.toml)",
        )]);
    }
    // serde stops at its first wrong type: every one is found from the format's schema and
    // replaced by a stand-in the checks below refuse (see `locate::wrong_types_in`), and the
    // text is read again, so one run of `check` names every problem, not the first wrong type.
    // The same for keys missing from a translation's table: each is found from the schema and
    // read as a stand-in (see `locate::missing_in`), and the checks say which are missing.
    let mut wrong: Vec<super::locate::WrongType> = Vec::new();
    let mut missing: Vec<super::locate::Missing> = Vec::new();
    let parsed: Result<RawRuleset, _> = toml::from_str(src).or_else(|e| {
        let Ok(mut doc) = toml::de::DeTable::parse(src) else {
            return Err(e);
        };
        wrong = super::locate::wrong_types_in(doc.get_mut(), schema_once());
        missing = super::locate::missing_in(doc.get_mut(), schema_once(), &|table| {
            translation_lang(table).is_some_and(|l| table.ends_with(&format!(".{l}")))
        });
        if wrong.is_empty() && missing.is_empty() {
            return Err(e);
        }
        RawRuleset::deserialize(toml::de::Deserializer::from(doc))
    });
    // Each wrong type, explained; the fields whose stand-in is read on (their own checks are
    // left out: the wrong type says what is wrong with them).
    let wrong_diags: Vec<(Diagnostic, bool)> = wrong
        .iter()
        .take(MAX_DIAGNOSTICS)
        .map(|w| {
            let msg = explain_value_error(src, w.span.clone(), &w.field, &w.message);
            (
                Diagnostic::at(path, src, w.span.clone(), &w.field, &msg),
                w.replaced,
            )
        })
        .collect();
    let wrong_more = wrong.len() - wrong_diags.len();
    // Borrowed from `wrong` where it can be: a hostile file's one list of 260,000 wrong-typed
    // items is as many fields, each named by its place (a copy of each was 16 MB more).
    let stand_ins: std::collections::BTreeSet<Cow<'_, str>> = wrong
        .iter()
        .filter(|w| w.replaced)
        .map(|w| Cow::Borrowed(w.field.as_str()))
        .chain(
            missing
                .iter()
                .map(|m| Cow::Owned(format!("{}.{}", m.table, m.key))),
        )
        .collect();
    let raw = parsed.map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        // A list or inline table left open: the parser stops where the text stops making sense
        // (often the next table header, read as an item); point at where it was opened.
        // Not when the parser stopped on the bracket's own line for want of a `=` before it
        // (`when ["a"`): the missing `=` is the mistake, and a `]` alone would not mend it.
        let no_equals = e.message().contains("expected `=`");
        if let Some(open) = super::locate::unclosed_bracket(src).filter(|&o| {
            o <= span.start && !(no_equals && line_col(src, o).0 == line_col(src, span.start).0)
        }) {
            let field = field_at(src, open);
            let what = if src[open..].starts_with('{') {
                ("inline table { … }", '}')
            } else {
                ("list [ … ]", ']')
            };
            let (stop, _) = line_col(src, span.start);
            let (opened, _) = line_col(src, open);
            let msg = format!(
                "this {} is never closed: add `{}` after its last item on line {opened} (the TOML parser read on to line {stop}: {})",
                what.0,
                what.1,
                e.message().trim()
            );
            return (
                vec![Diagnostic::at(path, src, open..open + 1, &field, &msg)],
                None,
            );
        }
        // The parser's own spans first; the line scan only for a document that does not parse.
        let mut field =
            super::locate::field_at(src, span.start).unwrap_or_else(|| field_at(src, span.start));
        // A missing key is reported on its table (the whole file for a top-level key, whose
        // first key the field used to name): name the missing key itself.
        if let Some(missing) = e
            .message()
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next())
        {
            let table = src
                .get(clamp_span(src, span.clone()))
                .and_then(|t| t.trim_start().strip_prefix('['))
                .and_then(|h| h.split(']').next())
                .map(str::trim)
                .filter(|t| !t.is_empty() && !t.starts_with('['));
            field = match table {
                Some(t) => format!("{t}.{missing}"),
                None => missing.to_string(),
            };
        }
        let mut msg = explain_value_error(src, span.clone(), &field, e.message());
        // `when ["a"]`: the key as written on its line, with the `=` it lacks.
        if e.message().starts_with("key with no value") {
            let at = span.start.min(src.len());
            let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
            // `when: [...]` (a colon for the `=`) is the same slip.
            let key = src.get(line_start..at).unwrap_or("").trim();
            let key = key.strip_suffix(':').unwrap_or(key).trim_end();
            // The value as typed, without a comment after it, and with a list left open closed
            // (`when ["a"`: the line as it should read).
            let line = src[at..].lines().next().unwrap_or("");
            let value = without_comment(line).trim();
            let value = value.strip_prefix(':').unwrap_or(value).trim_start();
            let open = value.matches('[').count().saturating_sub(value.matches(']').count());
            let value = format!("{value}{}", "]".repeat(open.min(4)));
            let plain = key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !key.is_empty() && key.len() <= 40 && plain {
                // The field as far as the key (`when {a = 1}` was named `end.when {a`).
                if let Some(cut) = field.find(char::is_whitespace) {
                    field.truncate(cut);
                }
                let shown: String = value.chars().take(40).collect();
                let more = if shown.len() < value.len() { " …" } else { "" };
                msg = if shown.is_empty() {
                    format!("{msg}: write {key} = and its value")
                } else {
                    format!("{msg}: write {key} = {shown}{more}")
                };
            }
        }
        let mut span = span;
        // A missing top-level key is said where it goes: above the first table (serde points
        // at the file's first character, often a comment), with what it holds.
        if let Some(what) = e
            .message()
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next())
            .filter(|k| *k == field)
            .and_then(top_level_key_help)
        {
            msg = format!("{msg}: {what}");
            if let Some(at) = first_table_header(src) {
                let end = src[at..].find('\n').map_or(src.len(), |e| at + e);
                span = at..end;
                msg.push_str(" (top-level keys go above the first [table])");
            }
        }
        // serde stops at its first problem: every unknown key or choice, and every table
        // written as a list of tables or the other way round, is found from the format's
        // schema, so one run of `check` names every slip.
        let found = super::locate::unknown_in(src, schema_once());
        // A key of another table, said where it belongs rather than as a misspelling.
        if let Some(u) = found
            .iter()
            .find(|u| u.span.start == span.start && u.message.ends_with("; move the line there"))
        {
            msg = u.message.clone();
        }
        let first = Diagnostic::at(path, src, span.clone(), &field, &msg);
        // What `read_past_unknown_keys` blanks: every unknown plain `key = value`, or nothing.
        let entries: Option<Vec<std::ops::Range<usize>>> =
            found.iter().map(|u| u.entry.clone()).collect();
        // Inside a table of the wrong shape, serde's message is beside the point ("board[1]:
        // invalid type: a table, expected a whole number" for `[[board]]`).
        let inside_wrong_shape = found.iter().any(|u| {
            u.shape
                && (field == u.field
                    || field.starts_with(&format!("{}[", u.field))
                    || field.starts_with(&format!("{}.", u.field)))
        });
        let mut all = if inside_wrong_shape { Vec::new() } else { vec![first] };
        let others: Vec<_> = found
            .into_iter()
            .filter(|u| u.span.start != span.start || inside_wrong_shape)
            .collect();
        let more = others.len().saturating_sub(MAX_DIAGNOSTICS - 1);
        for u in others.into_iter().take(MAX_DIAGNOSTICS - 1) {
            let msg = if u.shape {
                u.message.clone()
            } else {
                with_did_you_mean(&u.message, explain_toml_error(&u.message))
            };
            all.push(Diagnostic::at(path, src, u.span, &u.field, &msg));
        }
        sort_by_place(&mut all);
        if more > 0 {
            all.push(more_problems(path, more));
        }
        (all, entries)
    });
    let raw = match raw {
        Ok(raw) => raw,
        Err((diags, entries)) => {
            // Every wrong type, said as the schema walk says it (serde's first problem may be
            // one of them, said less well: "wanted string or table" for a choice).
            let placed = |d: &Diagnostic| (d.line, d.column);
            let wrong: Vec<Diagnostic> = wrong_diags.into_iter().map(|(d, _)| d).collect();
            let diags: Vec<Diagnostic> = diags
                .into_iter()
                .filter(|d| !wrong.iter().any(|w| placed(w) == placed(d)))
                .collect();
            let read = if wrong.is_empty() && wrong_more == 0 {
                read_past_unknown_keys(path, src, diags, entries)
            } else {
                // Read on past the unknown keys (that reading finds the wrong types again),
                // or say every problem found so far.
                read_past_unknown_keys(path, src, diags, entries).map_err(|diags| {
                    let total = count_problems(&diags) + wrong.len() + wrong_more;
                    let mut all: Vec<Diagnostic> = diags
                        .into_iter()
                        .chain(wrong)
                        .filter(|d| more_not_shown(d).is_none())
                        .collect();
                    sort_by_place(&mut all);
                    all.truncate(MAX_DIAGNOSTICS);
                    let more = total - all.len();
                    if more > 0 {
                        all.push(more_problems(path, more));
                    }
                    all
                })
            };
            return match read {
                Err(diags) if past_translations => read_past_broken_translations(path, src, diags),
                read => read,
            };
        }
    };
    validate(
        path,
        src,
        raw,
        wrong_diags.into_iter().map(|(d, _)| d).collect(),
        wrong_more,
        stand_ins,
        missing,
    )
}

/// Checks `raw`, read from `src`, and makes the ruleset: `errs` are the problems found so far
/// (wrong types, `more` more of them not shown), `stand_ins` the fields read as stand-ins,
/// `missing` the keys missing from translations' tables (read as stand-ins too).
fn validate(
    path: &str,
    src: &str,
    raw: RawRuleset,
    errs: Vec<Diagnostic>,
    more: usize,
    stand_ins: std::collections::BTreeSet<Cow<'_, str>>,
    missing: Vec<super::locate::Missing>,
) -> Result<Loaded, Vec<Diagnostic>> {
    let mut v = Validator {
        path,
        src,
        lines: LineIndex::new(src),
        errs,
        more,
        stand_ins,
        missing,
        broken_langs: Default::default(),
        left_out: 0,
        texts: Vec::new(),
        warns: Vec::new(),
        list_strings: None,
    };
    let mut rs = v.ruleset(raw);
    rs.sha256 = sha256_hex(src.as_bytes());
    // Any missing key not said where its table was read is said here.
    for m in std::mem::take(&mut v.missing) {
        v.say_missing(m, "");
    }
    // A language with a key missing is not played with its stand-ins: its words are left out
    // (the file's own are played), as when the table could not be read at all.
    for lang in &v.broken_langs {
        rs.texts.remove(lang);
        for ex in std::sync::Arc::make_mut(&mut rs.examples) {
            ex.texts.remove(lang);
        }
    }
    v.printable();
    one_line_texts(&mut rs);
    if v.more > 0 {
        v.errs.push(more_problems(path, v.more));
    }
    Ok((Some(rs), v.errs, v.warns))
}

/// The language whose words `field` is in: `es` for `text.es.players`, `example[3].text.es.title`
/// or `example.text.es`; `None` for any other field.
fn translation_lang(field: &str) -> Option<&str> {
    let rest = field.strip_prefix("text.").or_else(|| {
        let r = field.strip_prefix("example")?;
        let r = match r.strip_prefix('[') {
            Some(r) => r.split_once(']')?.1,
            None => r,
        };
        r.strip_prefix(".text.")
    })?;
    rest.split(['.', '[']).next().filter(|l| !l.is_empty())
}

/// A file whose only problems are in the words of other languages (`diags`: every one in a
/// `[text.<lang>]` or `[example.text.<lang>]` table, see [`translation_lang`]) is read again
/// without those languages' tables, so its rules and its own language's words are checked and
/// can be played (a designer mid-way through a translation still play-tests the rules). The
/// problems stay errors: `check` and `build` refuse the file as before. Anything else (a
/// problem outside a translation, more problems than are shown, or a second reading that
/// still fails) leaves `diags` as they are.
fn read_past_broken_translations(
    path: &str,
    src: &str,
    diags: Vec<Diagnostic>,
) -> Result<Loaded, Vec<Diagnostic>> {
    let langs: Option<std::collections::BTreeSet<String>> = diags
        .iter()
        .map(|d| translation_lang(&d.field).map(str::to_string))
        .collect();
    let Some(langs) = langs.filter(|l| !l.is_empty()) else {
        return Err(diags);
    };
    let Ok(mut doc) = toml::de::DeTable::parse(src) else {
        return Err(diags);
    };
    let drop_langs = |t: &mut toml::de::DeTable<'_>| {
        if let Some(toml::de::DeValue::Table(text)) = t.get_mut("text").map(|v| v.get_mut()) {
            let gone: Vec<String> = text
                .keys()
                .map(|k| k.get_ref().to_string())
                .filter(|k| langs.contains(k))
                .collect();
            for k in gone {
                text.remove(k.as_str());
            }
        }
    };
    drop_langs(doc.get_mut());
    if let Some(toml::de::DeValue::Array(items)) =
        doc.get_mut().get_mut("example").map(|v| v.get_mut())
    {
        for item in items.iter_mut() {
            if let toml::de::DeValue::Table(t) = item.get_mut() {
                drop_langs(t);
            }
        }
    }
    let Ok(raw) = RawRuleset::deserialize(toml::de::Deserializer::from(doc)) else {
        return Err(diags);
    };
    match validate(
        path,
        src,
        raw,
        Vec::new(),
        0,
        Default::default(),
        Vec::new(),
    ) {
        Ok((rs, errs, warns)) => {
            let mut all = diags;
            all.extend(errs);
            Ok((rs, capped(path, all), warns))
        }
        Err(_) => Err(diags),
    }
}

/// serde stops at the first unknown key, so a file with a misspelt key had nothing else
/// checked: a wrong value or a worked example the engine disagrees with took a second run of
/// `check`. When every problem `diags` reports is an unknown `key = value` (`entries`: their
/// spans, as the schema walk found them; `None` if one is not plain), the file is read
/// again with those entries blanked out (spaces, so every other line and column stays where
/// it was), and what that reading finds is added. The unknown keys' own errors keep the rules
/// from being played unless they are in a part that leaves them playable (a word, a size: see
/// `leaves_rules_playable`), so the engine's defaults never stand in for a misspelt rule.
/// Anything else (an unknown choice, a table of the wrong shape, a key whose value is a table,
/// or a second reading that still fails) leaves `diags` as they are.
fn read_past_unknown_keys(
    path: &str,
    src: &str,
    diags: Vec<Diagnostic>,
    entries: Option<Vec<std::ops::Range<usize>>>,
) -> Result<Loaded, Vec<Diagnostic>> {
    // Each unknown key gave one diagnostic, serde's first error among them.
    let Some(entries) =
        entries.filter(|e| !e.is_empty() && diags.len() == e.len() && e.len() < MAX_DIAGNOSTICS)
    else {
        return Err(diags);
    };
    let mut bytes = src.as_bytes().to_vec();
    for r in entries {
        for b in bytes.get_mut(r).into_iter().flatten() {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    let Ok(rest) = String::from_utf8(bytes) else {
        return Err(diags);
    };
    // Not past broken translations: their problems were already said here, and a
    // translation's misspelt key would be said again as the key it misses.
    match load_unsorted(path, &rest, false) {
        Ok((mut rs, errs, warns)) => {
            if let Some(rs) = rs.as_mut() {
                rs.sha256 = sha256_hex(src.as_bytes());
            }
            // A misspelt key (`storse`) leaves its table without the key it meant (`stores`):
            // that the key is missing follows from the slip already said.
            let meant: Vec<String> = diags.iter().filter_map(meant_by_slip).collect();
            let mut all = diags;
            all.extend(errs.into_iter().filter(|d| !meant.contains(&d.field)));
            Ok((rs, capped(path, all), warns))
        }
        Err(_) => Err(diags),
    }
}

/// The field an unknown key in `d` is a slip of: `text.es.stores` for
/// `text.es.storse: unknown field \`storse\`; did you mean \`stores\`? …`; `None` when `d` is
/// no unknown key or suggests no key.
fn meant_by_slip(d: &Diagnostic) -> Option<String> {
    if !d.message.starts_with("unknown field `") {
        return None;
    }
    let key = d
        .message
        .split("did you mean `")
        .nth(1)?
        .split('`')
        .next()?;
    Some(match d.field.rsplit_once('.') {
        Some((table, _)) => format!("{table}.{key}"),
        None => key.to_string(),
    })
}

/// serde's message `raw` about the value at byte range `span` of `src` (in `field`), in the
/// ruleset author's words: an unquoted date read as one, a number past 64 bits with the
/// field's range, the likely slip for an unknown name.
fn explain_value_error(src: &str, span: Range<usize>, field: &str, raw: &str) -> String {
    let mut msg = explain_toml_error(raw);
    let written = src.get(clamp_span(src, span)).unwrap_or("");
    if msg.contains("invalid type: a table") && looks_like_datetime(written) {
        msg = msg.replace("a table", "a date or time")
            + " (TOML reads an unquoted date or time as one; put text in quotes)";
    }
    // A number past 64 bits reaches serde as an i128 ("invalid type: integer `…` as
    // i128"): said in the author's words, with the field's range.
    if msg.contains("invalid type: integer") && msg.contains(" as i128") {
        let number = msg
            .split('`')
            .nth(1)
            .filter(|n| n.len() <= 40)
            .unwrap_or("this number")
            .to_string();
        let range = whole_number_range(field);
        let advice = range
            .strip_prefix("the number is far too large; ")
            .unwrap_or(&range);
        msg = format!("{number} is far too large; {advice}");
    } else if msg.contains("invalid value: integer") {
        msg = format!("{msg}: {}", whole_number_range(field));
    }
    // A number in quotes (`pits_per_side = "5"`) is text to TOML: say how to write it, as TOML
    // reads it ("06" is written 6: TOML refuses a leading zero).
    if msg.starts_with("invalid type: string") {
        let inner = written.trim().trim_matches(['"', '\'']).trim();
        let plain = !inner.chars().any(char::is_alphabetic);
        let hint = if msg.ends_with("expected a whole number") {
            inner.parse::<i64>().ok().map(|n| n.to_string())
        } else if msg.ends_with("expected a number") && plain {
            inner
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(|v| v.to_string())
        } else {
            None
        };
        let key = field_key(field);
        if let Some(n) = hint {
            msg = format!("{msg}; write the number without quotes: {n}");
        } else if let Some(h) = number_with_unit_hint(field, inner, msg.ends_with("a whole number"))
        {
            msg = format!("{msg}; {h}");
        } else if msg.ends_with("expected a boolean") {
            // `extra_turn = "true"`: TOML's true and false are written bare.
            msg = match inner.to_ascii_lowercase().as_str() {
                b @ ("true" | "false") => format!("{msg}; write {key} = {b}, without quotes"),
                _ => format!("{msg}; write {key} = true or {key} = false, without quotes"),
            };
        } else if msg.ends_with("expected a list [ … ]") && !inner.is_empty() && inner.len() <= 40
        {
            // `moves = "S3"`: one item is still a list; `"S3, S4"` is two items.
            // Commas part the items; with none, spaces do (`"S3 S4"` is two moves).
            let sep: &[char] = if inner.contains(',') {
                &[',']
            } else {
                &[' ', '\t']
            };
            let items: Vec<String> = inner
                .split(sep)
                .map(str::trim)
                .filter(|i| !i.is_empty())
                .map(|i| format!("{i:?}"))
                .collect();
            let one = if items.len() == 1 {
                ", even for one item"
            } else {
                ""
            };
            msg = format!(
                "{msg}; write it in brackets{one}: {key} = [{}]",
                items.join(", ")
            );
        } else if msg.ends_with("expected a list [ … ]") && inner.is_empty() {
            // `moves = ""`: a list is written in brackets, each item in quotes.
            msg = format!("{msg}; write it in brackets, each item in quotes: {key} = [\"…\"]");
        }
    }
    // `seeds_per_pit = 4.5`: the two whole numbers either side, in the field's own words.
    if msg.starts_with("invalid type: a decimal number") && msg.ends_with("expected a whole number")
    {
        let typed = written.trim();
        let near = typed
            .replace('_', "")
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && v.abs() < 1e15);
        if let Some(v) = near {
            let key = field_key(field);
            let counts =
                field_unit(field).map_or(String::new(), |u| format!(" ({key} counts {u})"));
            // Only whole numbers the field takes are offered (0.5 seeds a pit: 1, not 0 or 1).
            let (least, most) = whole_bounds(key).unwrap_or((i64::MIN, None));
            let ok = |n: i64| n >= least && most.is_none_or(|m| n <= m);
            let (lo, hi) = (v.floor() as i64, v.ceil() as i64);
            // Quoted as typed: serde shows 4.999999999999999999 as `5.0`.
            if let Some(shown) = msg.split('`').nth(1).map(str::to_string) {
                msg = msg.replacen(&format!("`{shown}`"), &format!("`{typed}`"), 1);
            }
            msg = match (ok(lo), ok(hi)) {
                _ if lo == hi && ok(lo) => {
                    format!("{msg}{counts}; write it without a decimal point: {key} = {lo}")
                }
                (true, true) => format!("{msg}{counts}; write {key} = {lo} or {key} = {hi}"),
                (true, false) => format!("{msg}{counts}; write {key} = {lo}"),
                (false, true) => format!("{msg}{counts}; write {key} = {hi}"),
                (false, false) => {
                    let range = whole_number_range(field);
                    let range = range
                        .strip_prefix("the number is far too large; ")
                        .unwrap_or(&range);
                    format!("{msg}{counts}; {range}")
                }
            };
        }
    }
    with_did_you_mean(raw, cut_quoted(msg))
}

/// The key a field path ends in, without its list index (`layout.pit_diameter` →
/// `pit_diameter`, `example[2].counts[0]` → `counts`).
fn field_key(field: &str) -> &str {
    let key = field.rsplit('.').next().unwrap_or(field);
    key.split('[').next().unwrap_or(key)
}

/// What the number of `field` is written in: millimetres for the `[layout]` sizes, else what
/// the whole number counts (`None` for a field that is not a number).
fn field_unit(field: &str) -> Option<&'static str> {
    let key = field_key(field);
    Some(match key {
        "pit_diameter" | "pit_gap" | "store_length" | "counter_diameter" => "millimetres",
        "pits_per_side" | "min_pits" => "pits",
        "seeds_per_pit"
        | "seeds_per_pit_options"
        | "min_seeds"
        | "threshold"
        | "counts"
        | "captured"
        | "scores" => "seeds",
        "players" => "players",
        "shorten_below" => "per cent",
        _ => return None,
    })
}

/// The hint for a number written in quotes with a unit (`pit_diameter = "40 mm"`,
/// `pits_per_side = "6 pits"`): the line to write, in the field's own unit, without quotes or
/// unit (centimetres and inches converted to millimetres). `whole`: the field takes a whole
/// number. `None` when `inner` (the text in the quotes) is not a number and a unit.
fn number_with_unit_hint(field: &str, inner: &str, whole: bool) -> Option<String> {
    let unit_of_field = field_unit(field)?;
    let split = inner.find(|c: char| !(c.is_ascii_digit() || ".+-_ ".contains(c)))?;
    let (number, unit) = (inner[..split].trim(), inner[split..].trim());
    if number.is_empty() || unit.is_empty() || unit.chars().count() > 20 {
        return None;
    }
    let key = field_key(field);
    // A list's item (`counts = ["2 seeds"]`) is written as the number alone.
    let list = ["seeds_per_pit_options", "counts", "scores"].contains(&key);
    let write = |n: &str| {
        if list {
            n.to_string()
        } else {
            format!("{key} = {n}")
        }
    };
    if whole {
        let n: i64 = number.parse().ok()?;
        return Some(format!(
            "write {} (a number of {unit_of_field}, without quotes or unit)",
            write(&n.to_string())
        ));
    }
    let x: f64 = number.parse().ok().filter(|x: &f64| x.is_finite())?;
    if unit_of_field != "millimetres" {
        return None;
    }
    let u = unit.trim_end_matches('.').to_lowercase();
    let per_unit = match u.as_str() {
        "mm" | "millimetre" | "millimetres" | "millimeter" | "millimeters" => 1.0,
        "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => 10.0,
        "in" | "inch" | "inches" | "\"" => 25.4,
        _ => {
            return Some(format!(
                "write {key} as a number of millimetres, without quotes or unit ({unit:?} is not a unit sowkit converts: mm, cm or in)"
            ))
        }
    };
    // To a tenth of a millimetre, as written (40.0 is 40).
    let mm = (x * per_unit * 10.0).round() / 10.0;
    let converted = if per_unit == 1.0 {
        String::new()
    } else {
        format!(": {number} {u} is {mm} mm")
    };
    Some(format!(
        "write {} (millimetres, without quotes or unit{converted})",
        write(&mm.to_string())
    ))
}

/// `msg` with the text it quotes from the file (`invalid type: string "…", expected …`) cut to
/// 40 characters and "…": a value of a million characters was quoted whole.
fn cut_quoted(msg: String) -> String {
    const KEEP: usize = 40;
    let Some(start) = msg.find("string \"").map(|i| i + "string \"".len()) else {
        return msg;
    };
    let Some(len) = msg[start..].rfind("\", expected") else {
        return msg;
    };
    let quoted = &msg[start..start + len];
    if quoted.chars().count() <= KEEP {
        return msg;
    }
    let cut: String = quoted.chars().take(KEEP).collect();
    format!("{}{cut}…{}", &msg[..start], &msg[start + len..])
}

/// What a required top-level key of a ruleset holds and how to write it, for the error that
/// says it is missing.
fn top_level_key_help(key: &str) -> Option<&'static str> {
    Some(match key {
        "id" => "add id = \"my-game\" (lower-case letters, digits and hyphens: the kit's folder name)",
        "name" => "add name = \"My game\" (the game's name as the sheets print it)",
        "source" => "add source = \"…\": where the rules come from, which the rule sheets cite (a book, a web page, or \"house rules\")",
        _ => return None,
    })
}

/// Byte offset of the first line of `src` that starts a table (`[name]` or `[[name]]`),
/// outside multi-line strings as far as a line scan can tell.
fn first_table_header(src: &str) -> Option<usize> {
    let mut at = 0;
    for line in src.split_inclusive('\n') {
        if line.trim_start().starts_with('[') && !line.contains("\"\"\"") {
            return Some(at + (line.len() - line.trim_start().len()));
        }
        if line.contains("\"\"\"") || line.contains("\'\'\'") {
            // A multi-line string may hold a line starting with `[`: not a header; stop
            // guessing (the error stays at serde's place).
            return None;
        }
        at += line.len();
    }
    None
}

/// Edit distance between `a` and `b` (Levenshtein, with a swap of two neighbours counting
/// as one edit), in characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, x) in d[0].iter_mut().enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut x = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                x = x.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = x;
        }
    }
    d[a.len()][b.len()]
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (or "unknown variant"): the known
/// name nearest to `x` when it is a likely slip (at most a third of its letters differ, at least
/// one edit allowed), else `None`. Keys and values are compared ignoring case, `-` and `_`.
pub(crate) fn did_you_mean(msg: &str) -> Option<String> {
    let rest = msg
        .strip_prefix("unknown field `")
        .or_else(|| msg.strip_prefix("unknown variant `"))?;
    let (given, rest) = rest.split_once('`')?;
    let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    let norm = |s: &str| s.to_lowercase().replace(['-', '_'], "");
    let g = norm(given);
    known
        .iter()
        .map(|k| (edit_distance(&g, &norm(k)), *k))
        .filter(|&(d, k)| d <= (k.chars().count() / 3).max(1))
        .min()
        .map(|(_, k)| k.to_string())
}

/// `msg` (serde's `raw` message, explained) with the likely slip named: "unknown field `x`;
/// did you mean `y`? (expected one of …)", when [`did_you_mean`] finds one.
fn with_did_you_mean(raw: &str, msg: String) -> String {
    let Some(better) = did_you_mean(raw) else {
        return msg;
    };
    match msg.split_once(", expected") {
        Some((head, tail)) => {
            let tail = tail.split(" (unknown keys").next().unwrap_or(tail);
            format!("{head}; did you mean `{better}`? (expected{tail})")
        }
        None => format!("{msg}; did you mean `{better}`?"),
    }
}

/// The error for a language `code` sowkit has no catalogue for (`lang`, a `[text.<lang>]` or an
/// `[example.text.<lang>]`): the languages it has, and when `code` is one of them in other
/// case (`"EN"`), that codes are written in lower case.
/// The catalogue language of a regional tag whose language is written in lower case
/// (`es-MX`, `es_419`: README "Languages"), or `None` (a plain code such as `ES` is left to
/// [`no_catalogue`], which says to write it in lower case).
fn regional_language(tag: &str) -> Option<&'static str> {
    let (primary, _) = tag.split_once(['-', '_'])?;
    crate::layout::phrases::catalogue_language(tag).filter(|l| *l == primary)
}

fn no_catalogue(code: &str) -> String {
    let lower = code.to_ascii_lowercase();
    // The language in lower case: `ES` → "es", `ES-MX` → "es-MX" (the region as typed).
    let (primary, rest) = code
        .find(['-', '_'])
        .map_or((code, ""), |at| (&code[..at], &code[at..]));
    let written = format!("{}{rest}", primary.to_ascii_lowercase());
    let case = if lower != code
        && primary != primary.to_ascii_lowercase()
        && crate::layout::phrases::catalogue_language(code).is_some()
    {
        format!("language codes are written in lower case: {written:?}; ")
    } else {
        String::new()
    };
    format!(
        "language {code:?} has no message catalogue: {case}{}",
        crate::layout::phrases::no_catalogue_advice()
    )
}

/// "a", "a and b", "a, b and c" (English, as every loader message is).
pub(crate) fn join_and(items: &[String]) -> String {
    join_with(items, "and")
}

/// "a", "a or b", "a, b or c".
pub(crate) fn join_or(items: &[String]) -> String {
    join_with(items, "or")
}

fn join_with(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// Whether TOML text is a date, time or date-time literal (`1979-05-27`, `07:32:00`, …).
fn looks_like_datetime(t: &str) -> bool {
    let b = t.trim().as_bytes();
    let date = b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    let time = b.len() >= 5 && b[..2].iter().all(u8::is_ascii_digit) && b[2] == b':';
    date || time
}

/// `line` up to a `#` comment outside quoted text (TOML's basic and literal strings).
fn without_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some('"') if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return &line[..i],
            None => {}
        }
    }
    line
}

/// The least and (where there is one) the most whole number the field `key` takes, the one
/// table of them for the messages about a number out of range or written with a decimal
/// point (no most: up to the number of seeds in play). `None` for a key not listed.
fn whole_bounds(key: &str) -> Option<(i64, Option<i64>)> {
    Some(match key {
        "pits_per_side" => (1, Some(MAX_PITS_PER_SIDE as i64)),
        "seeds_per_pit" | "seeds_per_pit_options" => (1, Some(MAX_SEEDS_PER_PIT as i64)),
        "min_seeds" | "threshold" => (1, None),
        "counts" => (1, Some(1000)),
        "captured" | "scores" => (0, None),
        "shorten_below" => (0, Some(100)),
        "players" => (2, Some(2)),
        _ => return None,
    })
}

/// What a whole number in `field` may be, for a number too large to read.
fn whole_number_range(field: &str) -> String {
    let key = field.rsplit('.').next().unwrap_or(field);
    if let Some((lo, most)) = whole_bounds(key) {
        let range = match most {
            Some(hi) if hi == lo => lo.to_string(),
            Some(hi) => format!("{lo} to {hi}"),
            None => format!("{lo} to the number of seeds in play"),
        };
        return format!("the number is far too large; use a whole number from {range}");
    }
    match key {
        // Millimetres ([layout]), with the ranges `mm_in` checks.
        "pit_diameter" | "pit_gap" | "store_length" | "counter_diameter" => {
            let (lo, hi) = match key {
                "pit_diameter" => crate::geometry::PIT_DIAMETER_RANGE,
                "store_length" => crate::geometry::STORE_LENGTH_RANGE,
                "pit_gap" => crate::geometry::PIT_GAP_RANGE,
                _ => crate::geometry::COUNTER_DIAMETER_RANGE,
            };
            format!("the number is far too large; use a size in millimetres from {lo} to {hi}")
        }
        _ => "the number is far too large; use a small whole number".to_string(),
    }
}

fn explain_toml_error(msg: &str) -> String {
    // Serde speaks Rust; say it in the ruleset author's words.
    let msg = msg
        .trim()
        .replace("expected i64", "expected a whole number")
        .replace("expected i128", "expected a whole number")
        .replace("expected u64", "expected a whole number")
        .replace(
            "invalid type: floating point",
            "invalid type: a decimal number",
        )
        .replace("expected f64", "expected a number")
        .replace("expected a sequence", "expected a list [ … ]")
        .replace("invalid type: sequence", "invalid type: a list")
        .replace("invalid type: map", "invalid type: a table")
        .replace("expected a map", "expected a table");
    // serde names the loader's own types ("expected struct RawExtraTurn"): a table to the
    // ruleset author.
    let msg = match msg.find("expected struct Raw") {
        Some(i) => {
            let end = msg[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == ' ' || c == '_'))
                .map_or(msg.len(), |e| i + e);
            format!("{}expected a table{}", &msg[..i], &msg[end..])
        }
        None => msg,
    };
    // The known names in alphabetical order, whoever listed them (serde lists a table's keys
    // in the loader's field order, the schema walk alphabetically: one run of `check` gave
    // both orders).
    let msg = match msg.split_once("expected one of ") {
        Some((head, list)) if msg.starts_with("unknown ") => {
            let (names, tail) = match list.find(|c: char| {
                c != '`'
                    && c != ','
                    && c != ' '
                    && !c.is_alphanumeric()
                    && c != '_'
                    && c != '-'
                    && c != '.'
            }) {
                Some(i) => (&list[..i], &list[i..]),
                None => (list, ""),
            };
            let mut v: Vec<&str> = names
                .split(", ")
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect();
            v.sort_unstable_by_key(|n| n.trim_matches('`'));
            format!("{head}expected one of {}{tail}", v.join(", "))
        }
        _ => msg,
    };
    let msg = msg.as_str();
    if msg.starts_with("unknown field") {
        format!(
            "{msg} (unknown keys are errors: check the spelling, see README \"Ruleset format\")"
        )
    } else {
        msg.to_string()
    }
}

struct Validator<'a> {
    path: &'a str,
    src: &'a str,
    lines: LineIndex,
    errs: Vec<Diagnostic>,
    /// Problems found beyond [`MAX_DIAGNOSTICS`].
    more: usize,
    /// Fields whose value had the wrong type and was read as a stand-in the checks refuse
    /// (`locate::wrong_types_in`): their wrong type is reported, so what the checks say of
    /// the stand-in is left out.
    stand_ins: std::collections::BTreeSet<Cow<'a, str>>,
    /// Keys missing from translations' tables, read as stand-ins (`locate::missing_in`):
    /// each is said where its table is checked, unless the whole table is refused (a
    /// language with no message catalogue, or the file's own), which says all there is to say.
    missing: Vec<super::locate::Missing>,
    /// The languages of the translations said to miss a key: left out of the ruleset.
    broken_langs: std::collections::BTreeSet<String>,
    /// Errors left out because they were about a stand-in: counted, so that checks which
    /// depend on a field in error (the board's size) are skipped as for any other error.
    left_out: usize,
    /// Every printed text read so far: field, byte range of its value (or of the list or
    /// table it is an item of, with its index there: [`Validator::item_at`]), value.
    texts: Vec<(String, Range<usize>, String, Option<usize>)>,
    /// Warnings: the ruleset still builds.
    warns: Vec<Diagnostic>,
    /// The last list an item was looked for in ([`Validator::item_at`]): its byte range and
    /// its [`string_items`].
    list_strings: Option<(Range<usize>, ListStrings)>,
}

impl Validator<'_> {
    /// Every character a kit would print must exist in the bundled font (DejaVu Sans, both
    /// weights); otherwise the page would show an empty box. Reports each missing character
    /// once, at its first place in the file, naming the field and the character's position.
    fn printable(&mut self) {
        let mut missing: Vec<char> = Vec::new();
        let texts = std::mem::take(&mut self.texts);
        for (field, span, t, item) in &texts {
            for (c, msg) in font_missing(t) {
                if !missing.contains(&c) {
                    missing.push(c);
                    let at = self.char_at(span.clone(), t, *item, c);
                    self.err(at, field, msg);
                }
            }
        }
        self.texts = texts;
    }

    /// The keys missing from the table `table` (`text.es`, `example[2].text.es`), taken out
    /// of those still to say.
    fn take_missing(&mut self, table: &str) -> Vec<super::locate::Missing> {
        let (these, rest) = std::mem::take(&mut self.missing)
            .into_iter()
            .partition(|m| m.table == table);
        self.missing = rest;
        these
    }

    /// Says that the key `m` is missing from its table (`head`: what goes before, such as
    /// `example 2 "Title": `), as serde says it for any other table, and marks its language
    /// as left out of the ruleset.
    fn say_missing(&mut self, m: super::locate::Missing, head: &str) {
        if let Some(lang) = translation_lang(&m.table) {
            self.broken_langs.insert(lang.to_string());
        }
        let field = format!("{}.{}", m.table, m.key);
        // Said even though the field is a stand-in: this is what is wrong with it.
        if self.errs.len() >= MAX_DIAGNOSTICS {
            self.more += 1;
            return;
        }
        let d = Diagnostic::at(
            self.path,
            self.src,
            m.span,
            &field,
            &format!("{head}missing field `{}`", m.key),
        );
        self.errs.push(d);
    }

    /// Whether `field` is read as a stand-in for a value of the wrong type. A list counts as
    /// read as a stand-in when an item of it is ([`in_list`]).
    fn stand_in(&self, field: &str) -> bool {
        // The set is sorted: the list and its items come first among the fields from it on.
        self.stand_ins
            .range::<str, _>((std::ops::Bound::Included(field), std::ops::Bound::Unbounded))
            .take_while(|k| k.starts_with(field))
            .any(|k| in_list(k, field))
    }

    /// How many errors were found so far, reported or not.
    fn errors_so_far(&self) -> usize {
        self.errs.len() + self.more + self.left_out
    }

    fn warn(&mut self, span: Range<usize>, field: &str, msg: impl Into<String>) {
        if self.stand_in(field) {
            return;
        }
        if self.warns.len() < MAX_DIAGNOSTICS {
            let d = Diagnostic::warning_at(self.path, self.src, span, field, &msg.into());
            self.warns.push(d);
        }
    }

    fn err(&mut self, span: Range<usize>, field: &str, msg: impl Into<String>) {
        if self.stand_in(field) {
            self.left_out += 1;
            return;
        }
        // Rendering a snippet costs time in the file's size: bound the work on hostile files.
        if self.errs.len() >= MAX_DIAGNOSTICS {
            self.more += 1;
            return;
        }
        let d = Diagnostic::at(self.path, self.src, span, field, &msg.into());
        self.errs.push(d);
    }

    /// Checks a free text the sheets print (length, control, invisible and bidi-control
    /// characters) and remembers where it stands for the font check. Returns its value.
    fn text(&mut self, field: &str, v: &Spanned<String>, max_chars: usize) -> String {
        self.text_allowing(field, v, max_chars, &['\n', '\t', '\r'])
    }

    /// As [`Validator::text`] for a one-line text (the game's name, an example's title): no
    /// control character at all, not even a newline or tab, as in a pit label, store label or
    /// player name.
    fn line(&mut self, field: &str, v: &Spanned<String>, max_chars: usize) -> String {
        self.text_allowing(field, v, max_chars, &[])
    }

    fn text_allowing(
        &mut self,
        field: &str,
        v: &Spanned<String>,
        max_chars: usize,
        allowed: &[char],
    ) -> String {
        let t = v.get_ref();
        let n = t.chars().count();
        if n > max_chars {
            self.err(
                v.span(),
                field,
                format!("{n} characters: at most {max_chars} are allowed here (limit for {field}); shorten it"),
            );
        }
        // An over-long text is not read further: that bounds the work on hostile files.
        if n <= max_chars && self.bad_chars(t, v.span(), None, field, allowed) {
            self.texts
                .push((field.to_string(), v.span(), t.clone(), None));
        }
        t.clone()
    }

    /// Reports the first character of `t` (at byte range `span` of the file, or item `item`
    /// of the list or table there: [`Validator::item_at`]) that would not print as it reads:
    /// a control character (other than those in `allowed`), an invisible (default-ignorable)
    /// code point, or a bidirectional control.
    fn bad_chars(
        &mut self,
        t: &str,
        span: Range<usize>,
        item: Option<usize>,
        field: &str,
        allowed: &[char],
    ) -> bool {
        match unprintable(t, allowed) {
            Some((c, msg)) => {
                let at = self.char_at(span, t, item, c);
                self.err(at, field, msg);
                false
            }
            None => true,
        }
    }

    /// Where character `c` of text `t` is written, `t` being the value at `span` or item
    /// `item` of the list or table there ([`Validator::item_at`], [`locate_char`]). Only
    /// while errors are still rendered ([`MAX_DIAGNOSTICS`]; `span` after that): each search
    /// reads the text's whole literal, and a hostile list holds thousands.
    fn char_at(
        &mut self,
        span: Range<usize>,
        t: &str,
        item: Option<usize>,
        c: char,
    ) -> Range<usize> {
        if self.errs.len() >= MAX_DIAGNOSTICS {
            return span;
        }
        let within = match item {
            Some(i) => self.item_at(span, i, t),
            None => span,
        };
        locate_char(self.src, within, c)
    }

    /// Where item `index` (in file order), `t` (a pit or store label, a player name, a
    /// source), stands in the list or table at `span`, for an error about it: that string's
    /// literal, or the first reading as `t` when item `index` is not `t` ([`locate_literal`]:
    /// a table's values come in key order). The list's strings are read once for all its
    /// items, and not at all once no more errors are rendered ([`MAX_DIAGNOSTICS`]): a
    /// hostile file's list may hold many thousand unusable items.
    fn item_at(&mut self, span: Range<usize>, index: usize, t: &str) -> Range<usize> {
        if self.errs.len() >= MAX_DIAGNOSTICS {
            return span;
        }
        let span = clamp_span(self.src, span);
        if self.list_strings.as_ref().is_none_or(|(s, _)| *s != span) {
            self.list_strings = Some((span.clone(), string_items(self.src, span.clone())));
        }
        let items = self.list_strings.as_ref().map_or(&[][..], |(_, v)| &v[..]);
        // Item `index` when it reads as `t` (composed: a player name is read so).
        let composed = |x: &str| {
            use unicode_normalization::UnicodeNormalization;
            x.nfc().eq(t.chars())
        };
        match items.get(index) {
            Some((text, at)) if text == t || composed(text) => clamp_span(self.src, at.clone()),
            _ => locate_literal(self.src, span, items, t),
        }
    }

    /// Reports a list longer than [`MAX_LIST_ITEMS`].
    fn list_len(&mut self, span: Range<usize>, field: &str, len: usize) {
        if len > MAX_LIST_ITEMS {
            self.err(
                span,
                field,
                format!("{len} items: a list here may have at most {MAX_LIST_ITEMS} (limit for {field})"),
            );
        }
    }

    fn int_in(&mut self, v: &Spanned<i64>, field: &str, lo: i64, hi: i64) -> i64 {
        let x = *v.get_ref();
        if x < lo || x > hi {
            // An upper bound of u16::MAX is the integer type's (a game's total when the board
            // is in error), not one a player would aim for: said the same way below and above
            // the range, the game's lower bound first and the type's limit only in brackets.
            let range = if hi >= i64::from(u16::MAX) {
                format!("of at least {lo} (at most {hi})")
            } else {
                format!("from {lo} to {hi}")
            };
            self.err(
                v.span(),
                field,
                format!("{x} is out of range: use a whole number {range}"),
            );
            return lo;
        }
        x
    }

    fn mm_in(
        &mut self,
        v: &Option<Spanned<f64>>,
        field: &str,
        lo: f64,
        hi: f64,
        default: f64,
    ) -> f64 {
        match v {
            None => default,
            Some(s) => {
                let x = *s.get_ref();
                if !(x.is_finite() && x >= lo && x <= hi) {
                    // The number as written: rounded, 80.0001 read "80 mm is out of range".
                    let written = self
                        .src
                        .get(s.span())
                        .map(str::trim)
                        .filter(|t| !t.is_empty() && t.len() <= 40)
                        .map_or_else(|| short_number(x), str::to_string);
                    self.err(
                        s.span(),
                        field,
                        format!("{written} mm is out of range: use {lo} to {hi} mm"),
                    );
                    default
                } else {
                    x
                }
            }
        }
    }

    /// Whether `label` is a usable pit label (`allow_space` false, at most 12 characters) or
    /// store label (at most 24), recording an error naming the rule if not.
    fn label_ok(
        &mut self,
        label: &str,
        (span, index): (Range<usize>, usize),
        field: &str,
        allow_space: bool,
    ) -> bool {
        // Pit labels are printed inside the pits, store labels inside the stores.
        let max = if allow_space { 24 } else { 12 };
        if !self.bad_chars(label, span.clone(), Some(index), field, &[]) {
            return false;
        }
        self.texts.push((
            field.to_string(),
            span.clone(),
            label.to_string(),
            Some(index),
        ));
        let bad = label.trim().is_empty()
            || label.trim() != label
            || label.chars().count() > max
            || label.chars().any(|c| {
                c.is_control()
                    || LABEL_NOTATION_CHARS.contains(c)
                    || (!allow_space && c.is_whitespace())
            });
        if bad {
            // The characters named from the same list the rule uses, so the two agree; an
            // apostrophe (a prime, as in A') is allowed.
            let marks = LABEL_NOTATION_CHARS
                .chars()
                .filter(|c| *c != '"')
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ");
            let what = if allow_space {
                format!("1 to 24 characters, no {marks} or double quotes (\"), no leading or trailing spaces")
            } else {
                format!("1 to 12 characters (it is printed inside the pit) without spaces or {marks} and double quotes (\"), e.g. \"A1\" or \"A1'\"")
            };
            let at = self.item_at(span, index, label);
            self.err(
                at,
                field,
                format!("label {label:?} is not usable: a label needs {what}"),
            );
            false
        } else {
            true
        }
    }

    /// Checks a table's player names, pit labels and store labels (`table` is `board` or
    /// `text.<lang>`, for messages); returns them, with defaults (`A`/`B`, the name and a
    /// number, `store <name>`) where a value is missing or unusable (an error is recorded).
    #[allow(clippy::too_many_arguments)]
    fn names(
        &mut self,
        n: usize,
        pits_ok: bool,
        players_raw: &Spanned<Vec<String>>,
        pit_labels_raw: Option<&Spanned<Vec<Vec<String>>>>,
        stores_raw: Option<&Spanned<Vec<String>>>,
        table_span: Range<usize>,
        table: &str,
    ) -> ([String; 2], [Vec<String>; 2], [String; 2]) {
        let f_players = format!("{table}.players");
        let f_labels = format!("{table}.pit_labels");
        let f_stores = format!("{table}.stores");
        // A list holding a value of the wrong type (said already, and read as a stand-in) is
        // not checked further, and its defaults are used: the stand-in is no name or label.
        let (players_in, labels_in, stores_in) = (
            self.stand_in(&f_players),
            self.stand_in(&f_labels),
            self.stand_in(&f_stores),
        );
        // players
        let mut players = [String::from("A"), String::from("B")];
        if players_in {
            // The defaults (a stand-in is no name).
        } else if players_raw.get_ref().len() != 2 {
            self.err(players_raw.span(), &f_players, format!("{} names given: list exactly two player names, the first moves first, e.g. [\"A\", \"B\"]", players_raw.get_ref().len()));
        } else {
            for (i, raw) in players_raw.get_ref().iter().enumerate() {
                // Composed (NFC): "Cafe" with a combining acute accent is the one word "Café",
                // as a keyboard types it in a position.
                let name: String = {
                    use unicode_normalization::UnicodeNormalization;
                    raw.nfc().collect()
                };
                let reserved = ["none", "pass", "initial"]
                    .iter()
                    .any(|r| name.eq_ignore_ascii_case(r));
                let ok = !reserved
                    && !name.is_empty()
                    && name.chars().count() <= 10
                    && name.chars().next().is_some_and(|c| c.is_alphabetic())
                    && name.chars().all(|c| c.is_alphanumeric());
                if !ok {
                    let at = self.item_at(players_raw.span(), i, raw);
                    self.err(at, &f_players, format!("player name {name:?} is not usable: use one word of letters and digits starting with a letter, at most 10 characters (pit labels default to the name and a number), other than none, pass or initial"));
                } else {
                    players[i] = name.clone();
                    self.texts
                        .push((f_players.clone(), players_raw.span(), name, Some(i)));
                }
            }
            if fold(&players[0]) == fold(&players[1]) {
                self.err(
                    players_raw.span(),
                    &f_players,
                    "the two player names are the same: give each player a different name",
                );
            }
        }
        // labels
        let mut pit_labels: [Vec<String>; 2] = [
            (1..=n).map(|i| format!("{}{}", players[0], i)).collect(),
            (1..=n).map(|i| format!("{}{}", players[1], i)).collect(),
        ];
        if let Some(pl) = pit_labels_raw.filter(|_| !labels_in) {
            if pl.get_ref().len() != 2 {
                self.err(
                    pl.span(),
                    &f_labels,
                    "give two lists of labels, one per side, each in that side's sowing order",
                );
            } else {
                for side in 0..2 {
                    let labels = &pl.get_ref()[side];
                    if pits_ok && labels.len() != n {
                        self.err(pl.span(), &f_labels, format!("side {} has {} labels but board.pits_per_side is {n}: give exactly {n}", players[side], labels.len()));
                    }
                    let mut all_ok = true;
                    // Item indices in the whole list: the first side's labels, then the other's.
                    let before = if side == 0 { 0 } else { pl.get_ref()[0].len() };
                    for (i, l) in labels.iter().enumerate() {
                        all_ok &= self.label_ok(l, (pl.span(), before + i), &f_labels, false);
                    }
                    if all_ok {
                        // With a wrong count the worked examples are still checked: with the
                        // labels given as far as they go, then the defaults.
                        let mut v: Vec<String> = labels.iter().take(n).cloned().collect();
                        while v.len() < n {
                            v.push(format!("{}{}", players[side], v.len() + 1));
                        }
                        pit_labels[side] = v;
                    }
                }
            }
        }
        let mut stores = [
            format!("store {}", players[0]),
            format!("store {}", players[1]),
        ];
        if let Some(st) = stores_raw.filter(|_| !stores_in) {
            if st.get_ref().len() != 2 {
                self.err(st.span(), &f_stores, "give two store labels, the first for the first player, e.g. [\"store A\", \"store B\"]");
            } else {
                let mut ok = true;
                for (i, l) in st.get_ref().iter().enumerate() {
                    ok &= self.label_ok(l, (st.span(), i), &f_stores, true);
                }
                if ok {
                    stores = [st.get_ref()[0].clone(), st.get_ref()[1].clone()];
                }
            }
        }
        {
            let n_pits = pit_labels[0].len() + pit_labels[1].len();
            // Where the `k`th label (pit labels, then the stores) is written: its literal when
            // it was read from the file, else the table.
            let raw_first = pit_labels_raw.map_or(0, |x| x.get_ref().first().map_or(0, Vec::len));
            let first = pit_labels[0].len();
            let place = |v: &mut Self, k: usize, l: &str| -> (Range<usize>, String) {
                if k >= n_pits {
                    let at = match stores_raw {
                        Some(st) => v.item_at(st.span(), k - n_pits, l),
                        None => table_span.clone(),
                    };
                    (at, f_stores.clone())
                } else {
                    let at = match pit_labels_raw {
                        Some(pl) => {
                            let i = if k < first { k } else { raw_first + k - first };
                            v.item_at(pl.span(), i, l)
                        }
                        None => table_span.clone(),
                    };
                    (at, f_labels.clone())
                }
            };
            // Every repeat, with the label it repeats; said in one error at the first repeat
            // (a side lettered a–f against A–F repeated six labels, six errors).
            let mut first_of = std::collections::BTreeMap::new();
            let mut repeats: Vec<(usize, &String, &String)> = Vec::new();
            for (k, l) in pit_labels.iter().flatten().chain(stores.iter()).enumerate() {
                let f = fold(l);
                match first_of.get(&f) {
                    Some(&earlier) => repeats.push((k, l, earlier)),
                    None => {
                        first_of.insert(f, l);
                    }
                }
            }
            if let Some(&(k, l, _)) = repeats.first() {
                let (at, field) = place(self, k, l);
                let names: Vec<String> = repeats.iter().map(|(_, l, _)| format!("{l:?}")).collect();
                let what = if names.len() == 1 {
                    format!("label {} is used twice", names[0])
                } else {
                    format!("labels {} are each used twice", join_and(&names))
                };
                // "a" against "A": the sides cannot be told apart by case alone.
                let by_case = repeats
                    .iter()
                    .find(|(_, l, earlier)| l != earlier)
                    .map(|(_, l, earlier)| {
                        format!("; {earlier:?} and {l:?} differ only in case, which counts as the same label")
                    })
                    .unwrap_or_default();
                self.err(
                    at,
                    &field,
                    format!(
                        "{what} (labels are compared after Unicode normalisation and ignoring case){by_case}: every pit and store needs its own label"
                    ),
                );
            }
            for (k, l) in pit_labels.iter().flatten().enumerate() {
                if l.eq_ignore_ascii_case("initial")
                    || l.eq_ignore_ascii_case("none")
                    || l.eq_ignore_ascii_case("pass")
                {
                    let (at, field) = place(self, k, l);
                    self.err(
                        at,
                        &field,
                        format!("label {l:?} is a reserved word: choose another pit label"),
                    );
                }
            }
        }
        (players, pit_labels, stores)
    }

    fn ruleset(&mut self, raw: RawRuleset) -> Ruleset {
        // identity
        let id = raw.id.get_ref().clone();
        if id.is_empty()
            || id.len() > 64
            || !id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            || id.starts_with('-')
        {
            self.err(
                raw.id.span(),
                "id",
                format!("{id:?} is not a valid id: use 1 to 64 of a-z, 0-9 and '-', not starting with '-', e.g. \"kalah-6x4\" (it names the output folder)"),
            );
        } else if windows_reserved(&id) {
            self.err(
                raw.id.span(),
                "id",
                format!("{id:?} is a device name on Windows (con, prn, aux, nul, com1-com9, lpt1-lpt9), so no folder can have it there: choose another id, e.g. \"{id}-game\""),
            );
        }
        // The name is a heading (page titles, footers): one line, like an example's title.
        self.line("name", &raw.name, usize::MAX);
        self.text("source", &raw.source, MAX_SOURCE_CHARS);
        if let Some(d) = &raw.duration {
            self.text("duration", d, MAX_DURATION_CHARS);
        }
        if raw.name.get_ref().chars().count() > 80 {
            self.err(
                raw.name.span(),
                "name",
                "the name is longer than 80 characters: it has to fit page titles and footers; shorten it",
            );
        }
        if !trimmed_of_spaces(raw.name.get_ref()) {
            self.err(
                raw.name.span(),
                "name",
                "the name starts or ends with a space: remove it",
            );
        }
        if let Some(d) = raw
            .duration
            .as_ref()
            .filter(|d| d.get_ref().trim().is_empty())
        {
            self.err(
                d.span(),
                "duration",
                "duration is empty: give a playing time such as \"15–25 minutes\", or leave the key out",
            );
        }
        if raw.name.get_ref().trim().is_empty() {
            self.err(
                raw.name.span(),
                "name",
                "the name is empty: give the game's display name",
            );
        }
        if raw.source.get_ref().trim().is_empty() {
            self.err(
                raw.source.span(),
                "source",
                "the source is empty: cite where the rules come from",
            );
        }
        let have = crate::layout::phrases::languages();
        let errs_before_lang = self.errors_so_far();
        let lang = match &raw.lang {
            None => "en".to_string(),
            Some(l) => {
                let tag = l.get_ref().as_str();
                if have.contains(&tag) {
                    tag.to_string()
                } else if let Some(primary) = regional_language(tag) {
                    // `es-MX` or `es_MX`: the catalogues are by language.
                    primary.to_string()
                } else {
                    self.err(l.span(), "lang", no_catalogue(tag));
                    "en".to_string()
                }
            }
        };
        // With `lang` in error "en" stands in for it: a [text.en] table is then no repeat of
        // the ruleset's own language, and is read like any other.
        let lang_ok = self.errors_so_far() == errs_before_lang;
        if let Some(p) = &raw.players {
            if *p.get_ref() != 2 {
                self.err(
                    p.span(),
                    "players",
                    format!(
                        "{} players is not supported: sowkit rulesets are for 2 players",
                        p.get_ref()
                    ),
                );
            }
        }

        let mut rule_sources = BTreeMap::new();
        let board_span = raw.board.span();
        let b = raw.board.into_inner();
        if let Some(s) = &b.source {
            rule_sources.insert(
                "board".to_string(),
                self.text("board.source", s, MAX_SOURCE_CHARS),
            );
        }
        let errs_before_board = self.errors_so_far();
        let n = self.int_in(
            &b.pits_per_side,
            "board.pits_per_side",
            1,
            MAX_PITS_PER_SIDE as i64,
        ) as usize;
        // The pit count alone decides how many labels a side needs: a wrong seed count does
        // not hide a wrong number of labels (found by a helper: one mistake hid the other).
        let pits_ok = self.errors_so_far() == errs_before_board;
        let seeds = self.int_in(
            &b.seeds_per_pit,
            "board.seeds_per_pit",
            1,
            MAX_SEEDS_PER_PIT as i64,
        ) as u16;
        // When the board size itself is wrong, checks that depend on it would only repeat the
        // error with a made-up number: skip them.
        let board_ok = self.errors_so_far() == errs_before_board;
        let mut options = Vec::new();
        if let Some(o) = &b.seeds_per_pit_options {
            self.list_len(o.span(), "board.seeds_per_pit_options", o.get_ref().len());
            for &x in o.get_ref().iter().take(MAX_LIST_ITEMS) {
                if x < 1 || x > MAX_SEEDS_PER_PIT as i64 {
                    self.err(
                        o.span(),
                        "board.seeds_per_pit_options",
                        format!(
                            "{x} is out of range: each option must be 1 to {MAX_SEEDS_PER_PIT}"
                        ),
                    );
                } else if x == i64::from(seeds) {
                    // The sheets offer the options as a different start ("for example 6 × 4")
                    // and would offer the usual one.
                    self.warn(o.span(), "board.seeds_per_pit_options", format!("{x} is board.seeds_per_pit itself: the options are the other numbers of seeds a game may start with; remove {x} from the list"));
                } else if options.contains(&(x as u16)) {
                    self.warn(
                        o.span(),
                        "board.seeds_per_pit_options",
                        format!("{x} is listed twice: give each option once"),
                    );
                } else {
                    options.push(x as u16);
                }
            }
            options.sort_unstable();
        }
        let (players, pit_labels, stores) = self.names(
            n,
            pits_ok,
            &b.players,
            b.pit_labels.as_ref(),
            b.stores.as_ref(),
            board_span.clone(),
            "board",
        );
        let board = Board {
            pits_per_side: n,
            seeds_per_pit: seeds,
            seeds_per_pit_options: options,
            players,
            pit_labels,
            stores,
            next_game_first: b.next_game_first.map(|g| match g {
                RawNextGame::Winner => NextGame::Winner,
                RawNextGame::Loser => NextGame::Loser,
                RawNextGame::Alternate => NextGame::Alternate,
            }),
        };

        // sowing
        let s = raw.sowing.into_inner();
        if let Some(src) = &s.source {
            rule_sources.insert(
                "sowing".to_string(),
                self.text("sowing.source", src, MAX_SOURCE_CHARS),
            );
        }
        let inc = |i: RawInclude| match i {
            RawInclude::Sow => Include::Sow,
            RawInclude::Skip => Include::Skip,
        };
        let min_seeds = match &s.min_seeds {
            None => 1,
            Some(m) => {
                // A pit can never hold more than every seed in play.
                let most = if board_ok {
                    (n * 2 * seeds as usize) as i64
                } else {
                    i64::from(u16::MAX)
                };
                let v = self.int_in(m, "sowing.min_seeds", 1, most) as u16;
                if board_ok && v > seeds {
                    self.err(
                        m.span(),
                        "sowing.min_seeds",
                        format!("no move is ever possible: every pit starts with {seeds} seed(s) (board.seeds_per_pit) but a pit needs {v} to be played, and without a move no pit ever gains a seed; lower min_seeds to at most {seeds} or raise seeds_per_pit"),
                    );
                }
                // A start the sheets offer must be playable too.
                let unplayable: Vec<String> = board
                    .seeds_per_pit_options
                    .iter()
                    .filter(|&&o| o < v)
                    .map(u16::to_string)
                    .collect();
                if let (true, false, Some(o)) =
                    (board_ok, unplayable.is_empty(), &b.seeds_per_pit_options)
                {
                    let (list, them) = if unplayable.len() == 1 {
                        (unplayable[0].clone(), "it")
                    } else {
                        (join_and(&unplayable), "them")
                    };
                    let seeds_word = if list == "1" { "seed" } else { "seeds" };
                    self.err(
                        o.span(),
                        "board.seeds_per_pit_options",
                        format!("no move is ever possible starting with {list} {seeds_word} a pit: a pit needs {v} to be played (sowing.min_seeds), and without a move no pit ever gains a seed; remove {them} from the list"),
                    );
                }
                v
            }
        };
        let sowing = Sowing {
            direction: match s.direction {
                RawDirection::Counterclockwise => Direction::Counterclockwise,
                RawDirection::Clockwise => Direction::Clockwise,
                RawDirection::Either => Direction::Either,
            },
            own_store: inc(*s.own_store.get_ref()),
            opponent_store: inc(s.opponent_store),
            origin_on_lap: inc(s.origin_on_lap.unwrap_or(RawInclude::Sow)),
            min_seeds,
            relay: match s.relay.unwrap_or(RawRelay::None) {
                RawRelay::None => Relay::None,
                RawRelay::Reverse => Relay::Reverse,
                RawRelay::Same => Relay::Same,
            },
        };

        // extra turn
        let mut extra_turn = ExtraTurn::default();
        if let Some(et) = raw.extra_turn {
            let et = et.into_inner();
            if let Some(src) = &et.source {
                rule_sources.insert(
                    "extra_turn".to_string(),
                    self.text("extra_turn.source", src, MAX_SOURCE_CHARS),
                );
            }
            for on in &et.on {
                match on.get_ref() {
                    RawExtraOn::LastInOwnStore => {
                        if extra_turn.last_in_own_store {
                            self.err(
                                on.span(),
                                "extra_turn.on",
                                "listed twice: give each trigger once",
                            );
                        }
                        if sowing.own_store == Include::Skip {
                            self.err(on.span(), "extra_turn.on", "\"last-in-own-store\" can never happen because sowing.own_store = \"skip\": set own_store = \"sow\" or remove this trigger");
                        }
                        extra_turn.last_in_own_store = true;
                    }
                    RawExtraOn::EmptyPitBeforeCrossing => {
                        if extra_turn.empty_pit_before_crossing {
                            self.err(
                                on.span(),
                                "extra_turn.on",
                                "listed twice: give each trigger once",
                            );
                        }
                        extra_turn.empty_pit_before_crossing = true;
                    }
                }
            }
        }

        // capture
        // Where capture.counts is written, for the warning about counts past the seeds in play.
        let mut counts_span: Option<Range<usize>> = None;
        let capture = match raw.capture {
            None => Capture {
                kind: CaptureKind::None,
                side: RowSide::Own,
                last_pit_was_empty: false,
                opposite_must_have_seeds: true,
                take_capturing_seed: false,
                counts: Vec::new(),
                chain: Chain::None,
                after_crossing_only: false,
                crossing: Crossing::Sown,
            },
            Some(c) => {
                let c = c.into_inner();
                if let Some(src) = &c.source {
                    rule_sources.insert(
                        "capture".to_string(),
                        self.text("capture.source", src, MAX_SOURCE_CHARS),
                    );
                }
                let kind = match c.kind.get_ref() {
                    RawCaptureKind::None => CaptureKind::None,
                    RawCaptureKind::Opposite => CaptureKind::Opposite,
                    RawCaptureKind::Count => CaptureKind::Count,
                };
                let mut counts = Vec::new();
                counts_span = c.counts.as_ref().map(|x| x.span());
                if let Some(cs) = &c.counts {
                    self.list_len(cs.span(), "capture.counts", cs.get_ref().len());
                    for &x in cs.get_ref().iter().take(MAX_LIST_ITEMS) {
                        if !(1..=1000).contains(&x) {
                            self.err(cs.span(), "capture.counts", format!("{x} cannot be a capturing count: use whole numbers from 1 to 1000"));
                        } else if !counts.contains(&(x as u16)) {
                            counts.push(x as u16);
                        }
                    }
                    counts.sort_unstable();
                }
                if kind == CaptureKind::Count && counts.is_empty() {
                    self.err(
                        c.kind.span(),
                        "capture.counts",
                        "kind = \"count\" needs the counts that capture, e.g. counts = [2, 3]",
                    );
                }
                // Relay sowing ends a move only when its last seed lands in an empty pit (which
                // then holds 1) or a store: counts without 1 never capture.
                if kind == CaptureKind::Count
                    && sowing.relay != Relay::None
                    && !counts.is_empty()
                    && !counts.contains(&1)
                {
                    let sp = c.counts.as_ref().map_or(c.kind.span(), |x| x.span());
                    self.err(sp, "capture.counts", "these counts can never capture: with relay sowing (sowing.relay) a move ends only when its last seed lands in an empty pit, which then holds 1, or in a store; add 1 to counts, use kind = \"opposite\", or set relay = \"none\"");
                }
                if kind != CaptureKind::Count && c.counts.is_some() {
                    let sp = c.counts.as_ref().map(|x| x.span()).unwrap_or(0..0);
                    self.err(
                        sp,
                        "capture.counts",
                        "counts only apply to kind = \"count\": remove them or change the kind",
                    );
                }
                // What an opposite capture looks at: a count capture takes the whole pit its
                // last seed made the count in, that seed with it, needs no empty pit and looks at
                // no pit across (`Rules` reads these three only for kind = "opposite"). A value
                // saying otherwise would print nothing and change nothing: said, not refused.
                if kind == CaptureKind::Count {
                    for (name, v, takes) in [
                        ("last_pit_was_empty", &c.last_pit_was_empty, false),
                        (
                            "opposite_must_have_seeds",
                            &c.opposite_must_have_seeds,
                            false,
                        ),
                        ("take_capturing_seed", &c.take_capturing_seed, true),
                    ] {
                        if let Some(v) = v.as_ref().filter(|v| *v.get_ref() != takes) {
                            let why = match name {
                                "take_capturing_seed" => "the pit the last seed brings to a capturing count is taken whole, that seed with it",
                                "last_pit_was_empty" => "a count capture looks only at how many seeds the last pit holds once the seed is in",
                                _ => "a count capture takes from the pit the last seed lands in, not from the pit across",
                            };
                            self.warn(
                                v.span(),
                                &format!("capture.{name}"),
                                format!("{name} = {} has no effect with kind = \"count\" (it only applies to kind = \"opposite\"): {why}; remove it", v.get_ref()),
                            );
                        }
                    }
                }
                // kind = "none": every other key of the table describes a capture that never
                // happens. Each is said where it stands (counts and chains other than "none"
                // are errors of their own above and below; chain = "none" says no more than the kind).
                if kind == CaptureKind::None {
                    let left: [(&str, Option<Range<usize>>); 6] = [
                        ("side", c.side.as_ref().map(|x| x.span())),
                        (
                            "last_pit_was_empty",
                            c.last_pit_was_empty.as_ref().map(|x| x.span()),
                        ),
                        (
                            "opposite_must_have_seeds",
                            c.opposite_must_have_seeds.as_ref().map(|x| x.span()),
                        ),
                        (
                            "take_capturing_seed",
                            c.take_capturing_seed.as_ref().map(|x| x.span()),
                        ),
                        (
                            "after_crossing_only",
                            c.after_crossing_only.as_ref().map(|x| x.span()),
                        ),
                        ("crossing", c.crossing.as_ref().map(|x| x.span())),
                    ];
                    for (name, span) in left {
                        if let Some(span) = span {
                            // The kinds the key applies under: a count capture looks at no
                            // empty pit and no pit across, and always takes the last seed (the
                            // count warnings above), so those three are only an opposite's.
                            let kinds = match name {
                                "last_pit_was_empty"
                                | "opposite_must_have_seeds"
                                | "take_capturing_seed" => {
                                    "set kind = \"opposite\" (the only kind it applies to)"
                                }
                                _ => "set kind = \"opposite\" or \"count\"",
                            };
                            self.warn(
                                span,
                                &format!("capture.{name}"),
                                format!("{name} has no effect with kind = \"none\": no move ever captures; remove it, or {kinds} for the capture it describes"),
                            );
                        }
                    }
                }
                let chain = match c.chain.as_ref().map(|x| *x.get_ref()) {
                    None | Some(RawChain::None) => Chain::None,
                    Some(RawChain::Backward) => Chain::Backward,
                    Some(RawChain::FollowingEmpty) => Chain::FollowingEmpty,
                };
                if let Some(ch) = &c.chain {
                    if chain == Chain::Backward && kind != CaptureKind::Count {
                        self.err(
                            ch.span(),
                            "capture.chain",
                            "chain = \"backward\" needs kind = \"count\" (Oware-style 2-3 chains)",
                        );
                    }
                    if chain == Chain::FollowingEmpty && kind != CaptureKind::Opposite {
                        self.err(
                            ch.span(),
                            "capture.chain",
                            "chain = \"following-empty\" needs kind = \"opposite\"",
                        );
                    }
                }
                Capture {
                    kind,
                    side: match c.side.as_ref().map(|x| *x.get_ref()).unwrap_or(
                        if kind == CaptureKind::Count {
                            RawSide::Opponent
                        } else {
                            RawSide::Own
                        },
                    ) {
                        RawSide::Own => RowSide::Own,
                        RawSide::Opponent => RowSide::Opponent,
                    },
                    last_pit_was_empty: c
                        .last_pit_was_empty
                        .as_ref()
                        .map_or(kind == CaptureKind::Opposite, |x| *x.get_ref()),
                    opposite_must_have_seeds: c
                        .opposite_must_have_seeds
                        .as_ref()
                        .is_none_or(|x| *x.get_ref()),
                    take_capturing_seed: c
                        .take_capturing_seed
                        .as_ref()
                        .map_or(kind != CaptureKind::None, |x| *x.get_ref()),
                    counts,
                    chain,
                    after_crossing_only: c
                        .after_crossing_only
                        .as_ref()
                        .is_some_and(|x| *x.get_ref()),
                    crossing: match c
                        .crossing
                        .as_ref()
                        .map_or(RawCrossing::Sown, |x| *x.get_ref())
                    {
                        RawCrossing::Sown => Crossing::Sown,
                        RawCrossing::Landed => Crossing::Landed,
                    },
                }
            }
        };

        let grand_slam = match raw.grand_slam {
            None => GrandSlam::CaptureAll,
            Some(g) => {
                if let Some(src) = &g.source {
                    rule_sources.insert(
                        "grand_slam".to_string(),
                        self.text("grand_slam.source", src, MAX_SOURCE_CHARS),
                    );
                }
                match g.policy {
                    RawGrandSlamPolicy::CaptureAll => GrandSlam::CaptureAll,
                    RawGrandSlamPolicy::NoCapture => GrandSlam::NoCapture,
                    RawGrandSlamPolicy::Illegal => GrandSlam::Illegal,
                    RawGrandSlamPolicy::IllegalUnlessOnly => GrandSlam::IllegalUnlessOnly,
                }
            }
        };
        // Where must_feed = true is written, for the warning when it can never apply.
        let mut feed_span: Option<Range<usize>> = None;
        let feeding = match raw.feeding {
            None => Feeding::default(),
            Some(f) => {
                if let Some(src) = &f.source {
                    rule_sources.insert(
                        "feeding".to_string(),
                        self.text("feeding.source", src, MAX_SOURCE_CHARS),
                    );
                }
                if *f.must_feed.get_ref() {
                    feed_span = Some(f.must_feed.span());
                }
                Feeding {
                    must_feed: *f.must_feed.get_ref(),
                }
            }
        };

        let next_round = raw
            .next_round
            .map(|r| self.next_round(r, &mut rule_sources, &board, board_ok));

        // end
        let e = raw.end.into_inner();
        if let Some(src) = &e.source {
            rule_sources.insert(
                "end".to_string(),
                self.text("end.source", src, MAX_SOURCE_CHARS),
            );
        }
        let mut end = End {
            either_side_empty: false,
            threshold: None,
            repetition: false,
            no_legal_move: match e.no_legal_move.unwrap_or(RawNoMove::End) {
                RawNoMove::End => NoLegalMove::End,
                RawNoMove::Pass => NoLegalMove::Pass,
            },
            remaining_seeds: match e.remaining_seeds.unwrap_or(RawRemaining::Owner) {
                RawRemaining::Owner => Remaining::Owner,
                RawRemaining::Mover => Remaining::Mover,
                RawRemaining::Opponent => Remaining::Opponent,
            },
        };
        let mut wants_threshold = false;
        let mut seen_when = Vec::new();
        self.list_len(e.when.span(), "end.when", e.when.get_ref().len());
        for w in e.when.get_ref().iter().take(MAX_LIST_ITEMS) {
            if seen_when.contains(w.get_ref()) {
                self.err(
                    w.span(),
                    "end.when",
                    "listed twice: give each end condition once",
                );
            }
            seen_when.push(*w.get_ref());
            match w.get_ref() {
                RawWhen::EitherSideEmpty => end.either_side_empty = true,
                RawWhen::Repetition => end.repetition = true,
                RawWhen::Threshold => wants_threshold = true,
            }
        }
        // With a wrong board size there is no real total to check against.
        let total = if board_ok {
            n as i64 * 2 * seeds as i64
        } else {
            i64::from(u16::MAX)
        };
        // A count past every seed in play is never made (pits hold at most all of them).
        if let Some(sp) = counts_span.clone().filter(|_| board_ok) {
            // The most seeds any start puts in play (board.seeds_per_pit_options included).
            let most = board
                .seeds_per_pit_options
                .iter()
                .map(|&o| n as i64 * 2 * i64::from(o))
                .fold(total, i64::max);
            let total = most;
            let never: Vec<String> = capture
                .counts
                .iter()
                .filter(|&&c| i64::from(c) > total)
                .map(|c| c.to_string())
                .collect();
            if !never.is_empty() {
                let (is, it) = if never.len() == 1 {
                    ("is", "it never captures")
                } else {
                    ("are", "they never capture")
                };
                self.warn(sp, "capture.counts", format!("{} {is} more than the {total} seeds in the game: no pit ever holds that many, so {it}; use counts up to {total}", join_and(&never)));
            }
        }
        // Feeding applies when the opponent's row is empty at your turn; with the
        // either-side-empty end the game is over by then.
        if let Some(sp) = feed_span.clone().filter(|_| end.either_side_empty) {
            self.warn(sp, "feeding.must_feed", "feeding never applies: it is for a turn when your opponent's row is empty, and end.when has \"either-side-empty\", so the game ends as soon as a row is empty; remove must_feed, or \"either-side-empty\" from end.when");
        }
        match (&e.threshold, wants_threshold) {
            (Some(t), true) => {
                let v = self.int_in(t, "end.threshold", 1, total.max(1));
                end.threshold = Some(v as u16);
            }
            (None, true) => self.err(e.when.span(), "end.threshold", format!("\"threshold\" is listed in end.when but end.threshold is missing: add e.g. threshold = {} (more than half of {total})", total / 2 + 1)),
            (Some(t), false) => self.err(t.span(), "end.threshold", "end.threshold is given but \"threshold\" is not in end.when: add it there or remove this key"),
            (None, false) => {}
        }
        // A threshold that stays fixed while the options change the seeds in play: one that a
        // store can never reach, or (where the sheets call it more than half the seeds) one
        // that is no longer a majority.
        if let (Some(t), true, Some(ts)) = (end.threshold, board_ok, e.threshold.as_ref()) {
            let t = u32::from(t);
            let base = 2 * n as u32 * u32::from(seeds);
            let in_play = |o: u16| 2 * n as u32 * u32::from(o);
            let never: Vec<String> = board
                .seeds_per_pit_options
                .iter()
                .filter(|&&o| in_play(o) < t)
                .map(|o| o.to_string())
                .collect();
            if !never.is_empty() {
                self.warn(ts.span(), "end.threshold", format!("starting with {} a pit (board.seeds_per_pit_options), fewer than {t} seeds are in play, so no store ever reaches the threshold and only the other end rules end the game; remove those options or lower the threshold", join_and(&never)));
            }
            let minority: Vec<String> = board
                .seeds_per_pit_options
                .iter()
                .filter(|&&o| in_play(o) >= t && 2 * t <= in_play(o))
                .map(|o| o.to_string())
                .collect();
            if 2 * t > base && !minority.is_empty() {
                self.warn(ts.span(), "end.threshold", format!("starting with {} a pit (board.seeds_per_pit_options), {t} is not more than half of the seeds in play, so reaching it no longer wins outright as it does with {seeds}; remove those options, or expect the final count to decide", join_and(&minority)));
            }
        }
        // Seeds reach a store only by being sown into one or by a capture. Without either, a
        // threshold end can never be met, and with no other end condition a game ends only
        // when a player cannot move (a break-it pass built such a ruleset without a word; its
        // playouts all ran to the move cap).
        let no_store = super::model::no_seed_reaches_a_store(&sowing, &capture);
        if !wants_threshold && !end.either_side_empty && !end.repetition && no_store {
            self.warn(
                e.when.span(),
                "end.when",
                "no seed ever reaches a store (sowing.own_store and sowing.opponent_store are \"skip\" and capture.kind is \"none\"), and end.when has neither \"either-side-empty\" nor \"repetition\", so a game ends only when a player cannot move: it may never end; add one of them to end.when, or let seeds reach a store",
            );
        }
        if wants_threshold && !end.either_side_empty && !end.repetition && no_store {
            self.warn(
                e.when.span(),
                "end.when",
                "no seed ever reaches a store (sowing.own_store and sowing.opponent_store are \"skip\" and capture.kind is \"none\"), so the threshold is never reached and a game ends only when a player cannot move: it may never end; add \"either-side-empty\" or \"repetition\" to end.when, or let seeds reach a store",
            );
        }

        let lay = raw.layout;
        // Play sizes by default (see crate::geometry): pits for the seeds a pit holds, stores for
        // half the seeds, counters seven to a pit; sizes the ruleset gives are kept exactly.
        let pit_diameter = self.mm_in(
            &lay.as_ref().and_then(|l| l.pit_diameter.clone()),
            "layout.pit_diameter",
            crate::geometry::PIT_DIAMETER_RANGE.0,
            crate::geometry::PIT_DIAMETER_RANGE.1,
            crate::geometry::play_pit_diameter(board.seeds_per_pit),
        );
        let pit_gap = self.mm_in(
            &lay.as_ref().and_then(|l| l.pit_gap.clone()),
            "layout.pit_gap",
            crate::geometry::PIT_GAP_RANGE.0,
            crate::geometry::PIT_GAP_RANGE.1,
            DEFAULT_PIT_GAP,
        );
        let total_seeds = 2 * board.pits_per_side as u32 * u32::from(board.seeds_per_pit);
        let store_length = self.mm_in(
            &lay.as_ref().and_then(|l| l.store_length.clone()),
            "layout.store_length",
            crate::geometry::STORE_LENGTH_RANGE.0,
            crate::geometry::STORE_LENGTH_RANGE.1,
            crate::geometry::play_store_length(total_seeds, pit_diameter, pit_gap),
        );
        let counter_diameter = self.mm_in(
            &lay.as_ref().and_then(|l| l.counter_diameter.clone()),
            "layout.counter_diameter",
            crate::geometry::COUNTER_DIAMETER_RANGE.0,
            crate::geometry::COUNTER_DIAMETER_RANGE.1,
            crate::geometry::play_counter_diameter(pit_diameter),
        );
        let paper = match lay.as_ref().and_then(|l| l.paper.as_ref()) {
            None => None,
            Some(p) => match crate::paper::Paper::parse(p.get_ref()) {
                Ok(p) => Some(p),
                Err(e) => {
                    self.err(p.span(), "layout.paper", e);
                    None
                }
            },
        };
        // Sizes copied from another ruleset (`sowkit new --from`) may no longer hold the seeds.
        if board_ok {
            let play_pit = crate::geometry::play_pit_diameter(board.seeds_per_pit);
            if let Some(p) = lay.as_ref().and_then(|l| l.pit_diameter.as_ref()) {
                if pit_diameter < play_pit {
                    self.warn(p.span(), "layout.pit_diameter", format!("{} mm pits are smaller than the play size for {} seeds a pit ({} mm, README \"Sizes\"): the seeds will not lie flat; use pit_diameter = {}, or remove the key to get play sizes", short_number(pit_diameter), board.seeds_per_pit, short_number(play_pit), short_number(play_pit)));
                }
            }
            let play_store = crate::geometry::play_store_length(total_seeds, pit_diameter, pit_gap);
            if let Some(st) = lay.as_ref().and_then(|l| l.store_length.as_ref()) {
                if store_length < play_store {
                    // The length advised holds the seeds with the pits as they are and with
                    // the pits the warning above advises (both are in range: the play sizes
                    // are), so following either warning or both leaves no store warning.
                    let advised = play_store.max(crate::geometry::play_store_length(
                        total_seeds,
                        pit_diameter.max(play_pit),
                        pit_gap,
                    ));
                    let also = if advised > play_store {
                        format!(
                            " (long enough with the {} mm pits advised too)",
                            short_number(play_pit)
                        )
                    } else {
                        String::new()
                    };
                    // Why: half the seeds do not fit, or (with seeds to spare) the store does
                    // not reach across both rows of pits, which is all it must do then.
                    let why = if store_length
                        < crate::geometry::store_length_for_seeds(total_seeds, pit_diameter)
                    {
                        "half the seeds will not fit in a store".to_string()
                    } else {
                        format!(
                            "a store must reach across both rows of pits (2 × {} mm pits + {} mm between the rows), though half the seeds fit in it",
                            short_number(pit_diameter),
                            short_number(crate::geometry::row_gap(pit_gap))
                        )
                    };
                    self.warn(st.span(), "layout.store_length", format!("{} mm stores are shorter than the play size for {total_seeds} seeds in play ({} mm, README \"Sizes\"): {why}; use store_length = {}{also}, or remove the key to get play sizes", short_number(store_length), short_number(play_store), short_number(advised)));
                }
            }
        }
        let layout = LayoutPrefs {
            pit_diameter,
            pit_gap,
            store_length,
            counter_diameter,
            paper,
            child_safe: false,
        };

        // the ruleset's words in other languages
        let mut texts = BTreeMap::new();
        // A `[text.<lang>]` in the ruleset's own language, refused below: the examples'
        // `[example.text.<lang>]` tables are not then each told that there is no such table
        // (`lang` switched to "es" with its `[text.es]` kept gave seven errors for one slip).
        let mut own_text_refused = false;
        // Languages with a `[text.<lang>]` table, whether read or refused.
        let mut text_tables = std::collections::BTreeSet::new();
        for (code, t) in raw.text.into_iter().flatten() {
            text_tables.insert(code.clone());
            let span = t.span();
            let line = line_col(self.src, span.start).0;
            let t = t.into_inner();
            let table = format!("text.{code}");
            // A table refused whole says nothing of the keys it misses.
            let missing = self.take_missing(&table);
            if code == lang && lang_ok {
                self.err(span.clone(), &table, format!("the ruleset's own text is already in {code:?} (its `lang`): remove this table, or change `lang`"));
                own_text_refused = true;
                continue;
            }
            if !have.contains(&code.as_str()) {
                self.err(span.clone(), &table, no_catalogue(&code));
                continue;
            }
            for m in missing {
                self.say_missing(m, "");
            }
            // Free texts: checked like the ruleset's own, and for the font.
            self.line(&format!("{table}.name"), &t.name, 80);
            self.text(&format!("{table}.source"), &t.source, MAX_SOURCE_CHARS);
            if let Some(d) = &t.duration {
                self.text(&format!("{table}.duration"), d, MAX_DURATION_CHARS);
            }
            if let Some(ss) = &t.sources {
                for (i, (k, v)) in ss.get_ref().iter().enumerate() {
                    let f = format!("{table}.sources.{k}");
                    // In key order, which may not be the file's: [`Validator::item_at`] then
                    // finds the text instead.
                    self.bad_chars(v, ss.span(), Some(i), &f, &['\n', '\t', '\r']);
                    self.texts.push((f, ss.span(), v.clone(), Some(i)));
                }
            }
            // A translated name copied with a bundled ruleset (`sowkit new --from`) names that
            // game, not this one.
            let quoted = format!("name = {:?}", t.name.get_ref());
            if let Some(b) = crate::bundled::ALL
                .iter()
                .find(|b| b.id != id && b.source.contains(&quoted))
            {
                if !b
                    .source
                    .contains(&format!("name = {:?}", raw.name.get_ref()))
                {
                    self.warn(t.name.span(), &format!("{table}.name"), format!("this is the {code:?} name of the bundled ruleset {:?}, copied with it: give this ruleset's own name ({:?}) in {code:?}", b.id, raw.name.get_ref()));
                }
            }
            if t.name.get_ref().trim().is_empty() {
                self.err(
                    t.name.span(),
                    &format!("{table}.name"),
                    "the name is empty: give the game's name in this language",
                );
            } else if !trimmed_of_spaces(t.name.get_ref()) {
                // As the ruleset's own name (it was not checked here).
                self.err(
                    t.name.span(),
                    &format!("{table}.name"),
                    "the name starts or ends with a space: remove it",
                );
            }
            if t.source.get_ref().trim().is_empty() {
                self.err(
                    t.source.span(),
                    &format!("{table}.source"),
                    "the source is empty: cite the source in this language",
                );
            }
            let duration = match (&raw.duration, &t.duration) {
                (Some(_), None) => {
                    let eg = if code == "es" {
                        "10–20 minutos"
                    } else {
                        "10–20 minutes"
                    };
                    self.err(span.clone(), &format!("{table}.duration"), format!("the ruleset gives a duration: give it in this language too, e.g. duration = \"{eg}\""));
                    None
                }
                (None, Some(d)) => {
                    self.err(d.span(), &format!("{table}.duration"), "the ruleset gives no duration in its own language: add one there, or remove this");
                    None
                }
                (_, d) => d.as_ref().map(|d| d.get_ref().clone()),
            };
            let sources = t
                .sources
                .as_ref()
                .map(|s| s.get_ref().clone())
                .unwrap_or_default();
            let want: Vec<&String> = rule_sources.keys().collect();
            let got: Vec<&String> = sources.keys().collect();
            if want != got {
                let at = t.sources.as_ref().map_or(span.clone(), |s| s.span());
                // Which keys are wrong, not only the whole list (a break-it pass deleted
                // `sowing` and was shown all eight keys).
                let lacking: Vec<String> = want
                    .iter()
                    .filter(|k| !got.contains(k))
                    .map(|k| format!("`{k}`"))
                    .collect();
                let extra: Vec<String> = got
                    .iter()
                    .filter(|k| !want.contains(k))
                    .map(|k| format!("`{k}`"))
                    .collect();
                let mut which = Vec::new();
                if !lacking.is_empty() {
                    which.push(format!("{} missing", join_and(&lacking)));
                }
                if !extra.is_empty() {
                    let verb = if extra.len() == 1 {
                        "is not a table that cites a source"
                    } else {
                        "are not tables that cite a source"
                    };
                    which.push(format!("{} {verb}", join_and(&extra)));
                }
                self.err(at, &format!("{table}.sources"), format!("{}: give the per-table citations in this language for exactly the tables that cite a source: sources = {{ {} }}", which.join("; "), want.iter().map(|k| format!("{k} = \"…\"")).collect::<Vec<_>>().join(", ")));
            }
            let (players, mut pit_labels, stores) = self.names(
                n,
                board_ok,
                &t.players,
                t.pit_labels.as_ref(),
                t.stores.as_ref(),
                span.clone(),
                &table,
            );
            if t.pit_labels.is_none() {
                // Labels such as "A1" read the same in every language.
                pit_labels = board.pit_labels.clone();
            }
            if t.stores.is_none() {
                // The example in the table's own language (a break-it pass read Spanish store
                // names offered for a `[text.en]`).
                let eg = if code == "es" { "almacén" } else { "store" };
                self.err(span.clone(), &format!("{table}.stores"), format!("give the two store labels in this language, e.g. stores = [\"{eg} A\", \"{eg} B\"]"));
            }
            texts.insert(
                code,
                LangText {
                    name: t.name.into_inner(),
                    duration,
                    source: t.source.into_inner(),
                    rule_sources: sources,
                    players,
                    pit_labels,
                    stores,
                    line,
                },
            );
        }
        let support = raw
            .support
            .map(|s| Support {
                helper: s.helper,
                bowls: s.bowls,
                small_children: s.small_children,
            })
            .unwrap_or_default();

        // examples
        let mut examples = Vec::new();
        let mut total_moves = 0usize;
        for (i, ex) in raw.examples.into_iter().enumerate() {
            let span = ex.span();
            let tag = format!("example[{}]", i + 1);
            if i == MAX_EXAMPLES {
                let line = self.lines.line_of(span.start);
                let sp = line_span(self.src, line);
                self.err(
                    sp,
                    &tag,
                    format!("more than {MAX_EXAMPLES} worked examples (limit {MAX_EXAMPLES}): keep the ones that teach a rule, or split the ruleset"),
                );
                break;
            }
            let line = example_header_line(self.src, &self.lines, span.start);
            let ex = ex.into_inner();
            total_moves += ex.moves.get_ref().len();
            if total_moves > MAX_TOTAL_MOVES
                && total_moves - ex.moves.get_ref().len() <= MAX_TOTAL_MOVES
            {
                self.err(
                    ex.moves.span(),
                    &format!("{tag}.moves"),
                    format!("the worked examples up to here have {total_moves} moves in all: at most {MAX_TOTAL_MOVES} are allowed (limit for all examples together); shorten the examples"),
                );
            }
            self.line(&format!("{tag}.title"), &ex.title, MAX_TITLE_CHARS);
            let note = ex
                .note
                .as_ref()
                .map(|n| self.text(&format!("{tag}.note"), n, MAX_NOTE_CHARS));
            if ex.title.get_ref().trim().is_empty() {
                self.err(
                    ex.title.span(),
                    &format!("{tag}.title"),
                    "the title is empty: give each example a short title",
                );
            }
            if ex.moves.get_ref().is_empty() {
                self.err(
                    ex.moves.span(),
                    &format!("{tag}.moves"),
                    "no moves: a worked example shows at least one move, e.g. moves = [\"A1\"]",
                );
            }
            if ex.moves.get_ref().len() > MAX_EXAMPLE_MOVES {
                self.err(
                    ex.moves.span(),
                    &format!("{tag}.moves"),
                    format!(
                        "{} moves: an example may have at most {MAX_EXAMPLE_MOVES}",
                        ex.moves.get_ref().len()
                    ),
                );
            }
            let start = if ex.start.get_ref().trim() == "initial" {
                Start::Initial
            } else {
                Start::Position(ex.start.get_ref().clone())
            };
            let mut field_lines = BTreeMap::new();
            let lines = std::mem::replace(&mut self.lines, LineIndex { starts: Vec::new() });
            let mut mark = |name: &str, sp: Range<usize>| {
                field_lines.insert(name.to_string(), lines.line_of(sp.start));
            };
            mark("start", ex.start.span());
            mark("moves", ex.moves.span());
            for (k, m) in ex.moves.get_ref().iter().enumerate() {
                mark(&format!("moves[{}]", k + 1), m.span());
            }
            mark("expect", ex.expect.span());
            let x = ex.expect.into_inner();
            // "States nothing" only when no expectation was given at all, not when the only
            // ones given were wrong (each already has its own error).
            let errs_before = self.errors_so_far();
            let mut expect = Expect::default();
            // Fields taken as written: remember each one's line for diagnostics.
            macro_rules! take {
                ($($f:ident),*) => {$(
                    if let Some(v) = x.$f {
                        mark(stringify!($f), v.span());
                        expect.$f = Some(v.into_inner());
                    }
                )*};
            }
            for (name, list) in [
                ("sown", &x.sown),
                ("legal", &x.legal),
                ("passed", &x.passed),
            ] {
                if let Some(l) = list {
                    self.list_len(l.span(), &format!("{tag}.expect.{name}"), l.get_ref().len());
                }
            }
            take!(position, next, extra_turn, game_over, last, sown, legal, grand_slam, passed);
            if let Some(v) = x.captured {
                mark("captured", v.span());
                let c = self.int_in(
                    &v,
                    &format!("{tag}.expect.captured"),
                    0,
                    total.min(i64::from(u16::MAX)),
                );
                expect.captured = Some(c as u16);
            }
            if let Some(v) = x.scores {
                mark("scores", v.span());
                let sc = v.get_ref();
                if sc.len() != 2 || sc.iter().any(|&s| s < 0 || s > total) {
                    self.err(v.span(), &format!("{tag}.expect.scores"), format!("give two final scores from 0 to {total}, first player first, e.g. [10, 8]"));
                } else {
                    expect.scores = Some([sc[0] as u16, sc[1] as u16]);
                }
            }
            if expect == Expect::default() && self.errors_so_far() == errs_before {
                self.err(span.clone(), &format!("{tag}.expect"), "expect states nothing: give at least one of position, next, extra_turn, captured, game_over, scores, last, sown, legal, grand_slam, passed");
            }
            self.lines = lines;
            let mut ex_texts = BTreeMap::new();
            let move_names: Vec<String> = ex
                .moves
                .get_ref()
                .iter()
                .map(|m| m.get_ref().clone())
                .collect();
            // Whether the example's own title was given (`--title`), not the one
            // `replay --emit-example` makes up: then a translation still titled with the made-up
            // one is a placeholder left to translate.
            let own_title_given = !crate::replay::is_example_title_placeholder(
                &lang,
                ex.title.get_ref(),
                &move_names,
            );
            for (code, et) in ex.text.into_iter().flatten() {
                let at = et.span();
                let et = et.into_inner();
                let f = format!("{tag}.text.{code}");
                let missing = self.take_missing(&f);
                // A table in a language no translation can be in is refused whole, once, and
                // says nothing of its keys (a break-it pass: `[example.text.en]` in an English
                // file was told to add a `[text.en]`, which is then refused as the file's own
                // language; `[example.text.fr]` got three errors). Where the `[text.<lang>]`
                // table itself was refused for it, that error says it all.
                if code == lang && lang_ok {
                    if !own_text_refused {
                        self.err(at.clone(), &f, format!("the ruleset's own text is already in {code:?} (its `lang`): the example's own title and note are in it; remove this table, or change `lang`"));
                    }
                    continue;
                }
                if !have.contains(&code.as_str()) {
                    if !text_tables.contains(&code) {
                        self.err(at.clone(), &f, no_catalogue(&code));
                    }
                    continue;
                }
                for m in missing {
                    let head = format!("example {} \"{}\": ", i + 1, ex.title.get_ref());
                    self.say_missing(m, &head);
                }
                let title = self.line(&format!("{f}.title"), &et.title, MAX_TITLE_CHARS);
                let note = et
                    .note
                    .as_ref()
                    .map(|n| self.text(&format!("{f}.note"), n, MAX_NOTE_CHARS));
                if !(texts.contains_key(&code) || (own_text_refused && code == lang)) {
                    self.err(at.clone(), &f, format!("there is no [text.{code}] table: add one with the ruleset's name, source, players and stores in {code:?}"));
                }
                if title.trim().is_empty() {
                    self.err(
                        at.clone(),
                        &format!("{f}.title"),
                        "the title is empty: give the example's title in this language",
                    );
                }
                // The placeholder `replay --emit-example --title …` writes in each translation
                // (with the title to translate in an `# UPDATE` comment, which TOML does not
                // keep): recognised as the title it makes up from the example's moves.
                if own_title_given
                    && crate::replay::is_example_title_placeholder(&code, &title, &move_names)
                {
                    self.warn(
                        et.title.span(),
                        &format!("{f}.title"),
                        format!(
                            "{title:?} is the placeholder `sowkit replay --emit-example` wrote, not a translation: a kit in {code:?} prints it as this example's heading; translate the example's title {:?} into {code:?} here",
                            ex.title.get_ref()
                        ),
                    );
                }
                if ex.note.is_some() != note.is_some() {
                    // Said as the mend: the note to add here, or the one to remove.
                    let msg = if ex.note.is_some() {
                        format!("the example has a note in {lang:?}: add note = \"…\" to this [example.text.{code}] table with that note in {code:?} (every language's kit prints it), or remove the note")
                    } else {
                        format!("the example has no note in {lang:?}: remove this note, or give the example a note in {lang:?} too (every language's kit prints it)")
                    };
                    self.err(at.clone(), &format!("{f}.note"), msg);
                }
                ex_texts.insert(code, ExampleText { title, note });
            }
            // An example without words in one of the ruleset's languages is refused when a kit in
            // that language is made (`Ruleset::in_lang`, naming this line), not here: a ruleset
            // being written in one language stays usable in it.
            examples.push(Example {
                texts: ex_texts,
                title: ex.title.into_inner(),
                note,
                start,
                moves: ex
                    .moves
                    .into_inner()
                    .into_iter()
                    .map(|m| m.into_inner())
                    .collect(),
                expect,
                exercise: ex.exercise,
                line,
                field_lines,
            });
        }

        Ruleset {
            id,
            name: raw.name.into_inner(),
            duration: raw.duration.map(|d| d.into_inner()),
            lang,
            texts,
            support,
            source: raw.source.into_inner(),
            rule_sources,
            board,
            sowing,
            extra_turn,
            capture,
            grand_slam,
            feeding,
            end,
            layout,
            next_round,
            examples: examples.into(),
            path: self.path.to_string(),
            sha256: String::new(),
        }
    }

    /// `[next_round]`: ranges and consistency, each problem at its key.
    fn next_round(
        &mut self,
        raw: Spanned<RawNextRound>,
        rule_sources: &mut BTreeMap<String, String>,
        board: &Board,
        board_ok: bool,
    ) -> NextRound {
        let span = raw.span();
        let r = raw.into_inner();
        if let Some(src) = &r.source {
            rule_sources.insert(
                "next_round".to_string(),
                self.text("next_round.source", src, MAX_SOURCE_CHARS),
            );
        }
        if board.next_game_first.is_none() {
            self.err(
                span.clone(),
                "next_round",
                "a next round needs its first player: set board.next_game_first (\"winner\", \"loser\" or \"alternate\")",
            );
        }
        let n = if board_ok { board.pits_per_side } else { 1 };
        // With the board in error its size is not known: any row length the format allows.
        let most_pits = if board_ok {
            board.pits_per_side
        } else {
            MAX_PITS_PER_SIDE
        };
        let errs_before = self.errors_so_far();
        let shorten_below = match &r.shorten_below {
            None => 0,
            Some(v) => self.int_in(v, "next_round.shorten_below", 0, 100) as u8,
        };
        // 0 read in place of a shorten_below in error says nothing of the board's shortening.
        let never_shortened = shorten_below == 0 && self.errors_so_far() == errs_before;
        let min_pits = match &r.min_pits {
            None => n,
            Some(v) => {
                if never_shortened {
                    self.err(
                        v.span(),
                        "next_round.min_pits",
                        "min_pits is the shortest a shortened row may be, but shorten_below is 0 (the board is never shortened): set shorten_below (a percentage, e.g. 50) or remove min_pits",
                    );
                }
                self.int_in(v, "next_round.min_pits", 1, most_pits as i64) as usize
            }
        };
        if shorten_below > 0 && r.min_pits.is_none() {
            self.err(
                span.clone(),
                "next_round.min_pits",
                format!("the board may be shortened (shorten_below = {shorten_below}): give the fewest pits a row may keep, min_pits = 1 to {most_pits}"),
            );
        }
        let opposite = match r.opposite {
            RawOpposite::Equal => Opposite::Equal,
            RawOpposite::Double => Opposite::Double,
        };
        let mut other_readings = Vec::new();
        for o in r.other_readings.iter().flatten() {
            let v = match o.get_ref() {
                RawOtherReading::NotAllSeeds => OtherReading::NotAllSeeds,
                RawOtherReading::DoubleWhenShort => OtherReading::DoubleWhenShort,
            };
            let clash = match v {
                _ if other_readings.contains(&v) => Some("listed twice: give each reading once"),
                OtherReading::NotAllSeeds if !r.all_seeds => {
                    Some("\"not-all-seeds\" is already the rule here (all_seeds = false): list only readings the ruleset does not follow")
                }
                OtherReading::DoubleWhenShort if opposite == Opposite::Double => {
                    Some("\"double-when-short\" is already the rule here (opposite = \"double\"): list only readings the ruleset does not follow")
                }
                OtherReading::DoubleWhenShort if never_shortened => {
                    Some("\"double-when-short\" doubles when the one laying out holds less than shorten_below percent, but shorten_below is 0: set it")
                }
                _ => None,
            };
            if let Some(m) = clash {
                self.err(o.span(), "next_round.other_readings", m);
            }
            other_readings.push(v);
        }
        NextRound {
            lays_out: match r.lays_out {
                RawLaysOut::FewerSeeds => LaysOut::FewerSeeds,
                RawLaysOut::MoreSeeds => LaysOut::MoreSeeds,
            },
            arrangement: match r.arrangement {
                RawArrangement::Free => Arrangement::Free,
                RawArrangement::Even => Arrangement::Even,
            },
            all_seeds: r.all_seeds,
            shorten_below,
            min_pits,
            opposite,
            other_readings,
        }
    }
}

/// Line of the `[[example]]` header that owns byte `offset` (searching upward).
fn example_header_line(src: &str, lines: &LineIndex, offset: usize) -> usize {
    let mut line = lines.line_of(offset.min(src.len()));
    let first = line;
    while line > 1 {
        let sp = line_span(src, line);
        if src[sp].trim_start().starts_with("[[example]]") {
            return line;
        }
        line -= 1;
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = include_str!("../../rulesets/six-pit-sowing.toml");

    #[test]
    fn bundled_six_pit_loads_with_its_parameters() {
        let rs = load_str("six-pit-sowing.toml", GOOD).expect("loads");
        assert_eq!(rs.id, "six-pit-sowing");
        assert_eq!(rs.board.pits_per_side, 3);
        assert_eq!(rs.total_seeds(), 18);
        assert_eq!(rs.board.pit_labels[1], vec!["B1", "B2", "B3"]);
        assert_eq!(rs.sowing.opponent_store, Include::Skip);
        assert!(rs.extra_turn.last_in_own_store);
        assert_eq!(rs.capture.kind, CaptureKind::Opposite);
        assert!(rs.end.either_side_empty);
    }

    #[test]
    fn every_bundled_ruleset_loads() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                let rs = load_file(&p).unwrap_or_else(|d| panic!("{}", d[0].rendered));
                assert!(
                    rs.examples.len() >= 5,
                    "{}: only {} examples",
                    p.display(),
                    rs.examples.len()
                );
                n += 1;
            }
        }
        assert!(n >= 5);
    }

    #[test]
    fn unknown_key_names_line_column_and_field() {
        let src = GOOD.replace("min_seeds = 1", "min_seed = 1");
        let errs = load_str("x.toml", &src).unwrap_err();
        let d = &errs[0];
        let expected_line = src
            .lines()
            .position(|l| l.starts_with("min_seed "))
            .unwrap()
            + 1;
        assert_eq!(d.line, expected_line);
        assert_eq!(d.column, 1);
        assert_eq!(d.field, "sowing.min_seed");
        assert!(
            d.message.contains("unknown field `min_seed`"),
            "{}",
            d.message
        );
        assert!(d.rendered.contains("x.toml"), "{}", d.rendered);
    }

    #[test]
    fn out_of_range_value_says_what_is_right() {
        let src = GOOD.replace("pits_per_side = 3", "pits_per_side = 40");
        let errs = load_str("x.toml", &src).unwrap_err();
        let d = errs
            .iter()
            .find(|d| d.field == "board.pits_per_side")
            .expect("pits error");
        assert!(d.message.contains("1 to 16"), "{}", d.message);
        let expected_line = src
            .lines()
            .position(|l| l.starts_with("pits_per_side"))
            .unwrap()
            + 1;
        assert_eq!(d.line, expected_line);
        assert_eq!(d.column, "pits_per_side = ".len() + 1);
    }

    #[test]
    fn wrong_type_and_bad_variant_are_reported() {
        let src = GOOD.replace("seeds_per_pit = 3", "seeds_per_pit = \"three\"");
        let d = &load_str("x.toml", &src).unwrap_err()[0];
        assert_eq!(d.field, "board.seeds_per_pit");
        let src = GOOD.replace("relay = \"none\"", "relay = \"sideways\"");
        let d = &load_str("x.toml", &src).unwrap_err()[0];
        assert_eq!(d.field, "sowing.relay");
        assert!(d.message.contains("sideways"), "{}", d.message);
    }

    #[test]
    fn duplicate_labels_and_impossible_extra_turn_rejected() {
        let src = GOOD.replace("[\"B1\", \"B2\", \"B3\"]", "[\"B1\", \"B1\", \"B3\"]");
        let errs = load_str("x.toml", &src).unwrap_err();
        assert!(errs.iter().any(|d| d.message.contains("used twice")));
        let src = GOOD.replace("own_store = \"sow\"", "own_store = \"skip\"");
        let errs = load_str("x.toml", &src).unwrap_err();
        assert!(errs.iter().any(|d| d.field == "extra_turn.on"));
    }

    #[test]
    fn syntax_error_is_a_diagnostic_not_a_panic() {
        for src in [
            "",
            "=",
            "[board",
            "id = ",
            "\u{0}",
            "[[example]]\nmoves = 3",
            "id = \"x\"\n[board]\npits_per_side = 1e400",
        ] {
            let errs = load_str("x.toml", src).unwrap_err();
            assert!(!errs.is_empty());
        }
    }

    #[test]
    fn impossible_min_seeds_is_rejected_with_the_total() {
        // 3 pits × 2 × 3 seeds = 18 seeds in play: no pit can ever hold 19.
        let src = GOOD.replace("min_seeds = 1", "min_seeds = 19");
        let errs = load_str("x.toml", &src).unwrap_err();
        let d = errs
            .iter()
            .find(|d| d.field == "sowing.min_seeds")
            .expect("min_seeds error");
        assert!(d.message.contains("from 1 to 18"), "{}", d.message);
    }

    #[test]
    fn a_wrong_board_size_does_not_cascade_into_made_up_errors() {
        let src = GOOD.replace("pits_per_side = 3", "pits_per_side = 0");
        let errs = load_str("x.toml", &src).unwrap_err();
        assert_eq!(
            errs.len(),
            1,
            "{:?}",
            errs.iter().map(|d| d.short()).collect::<Vec<_>>()
        );
        assert_eq!(errs[0].field, "board.pits_per_side");
    }

    #[test]
    fn empty_file_and_type_errors_speak_plainly() {
        let d = &load_str("x.toml", "  \n").unwrap_err()[0];
        assert!(d.message.contains("the file is empty"), "{}", d.message);
        let src = GOOD.replace("pits_per_side = 3", "pits_per_side = \"3\"");
        let d = &load_str("x.toml", &src).unwrap_err()[0];
        assert!(
            d.message.contains("expected a whole number"),
            "{}",
            d.message
        );
    }

    #[test]
    fn characters_the_font_lacks_are_rejected_where_they_stand() {
        // U+963F (CJK) is not in DejaVu Sans; U+0628 (Arabic) needs right-to-left shaping.
        for c in ['\u{963F}', '\u{0628}'] {
            let src = GOOD.replace(
                "name = \"Six-pit sowing\"",
                &format!("name = \"Six-pit {c}\""),
            );
            let errs = load_str("x.toml", &src).unwrap_err();
            let d = &errs[0];
            assert_eq!(d.field, "name");
            let line = src.lines().position(|l| l.starts_with("name =")).unwrap() + 1;
            assert_eq!(d.line, line);
            assert!(
                d.message.contains(&format!("U+{:04X}", c as u32)),
                "{}",
                d.message
            );
        }
        // Accented Latin, Twi and arrows are in the font.
        let src = GOOD.replace("name = \"Six-pit sowing\"", "name = \"Siembra ñ ɛ ɔ →\"");
        assert!(load_str("x.toml", &src).is_ok());
    }

    #[test]
    fn multi_line_notes_become_one_paragraph() {
        let head = &GOOD[..GOOD.find("[[example]]").unwrap()];
        // A multi-line note with a real line break and tab is folded into one paragraph.
        let src = format!(
            "{head}[[example]]\ntitle = \"Two lines\"\nnote = \"\"\"First line,\n\tsecond line.\"\"\"\nstart = \"initial\"\nmoves = [\"A1\"]\n[example.expect]\nnext = \"A\"\n"
        );
        let rs = load_str("x.toml", &src).unwrap_or_else(|d| panic!("{}", d[0].rendered));
        assert_eq!(rs.examples[0].title, "Two lines");
        assert_eq!(
            rs.examples[0].note.as_deref(),
            Some("First line, second line.")
        );
        // A title is one line: a TOML escape `\n` in it is refused at the title's line.
        let bad = src.replace("title = \"Two lines\"", "title = \"Two\\nlines\"");
        let line = bad
            .lines()
            .position(|l| l.starts_with("title = \"Two\\n"))
            .unwrap()
            + 1;
        let d = load_str("x.toml", &bad).expect_err("a newline in a title is refused");
        assert!(
            d[0].rendered.contains("example[1].title")
                && d[0].rendered.contains("U+000A")
                && d[0].rendered.contains(&format!("x.toml:{line}:")),
            "{}",
            d[0].rendered
        );
    }

    /// [`locate_literal`] with the list's strings read from `span`, as the validator does.
    fn locate(src: &str, span: Range<usize>, t: &str) -> Range<usize> {
        locate_literal(src, span.clone(), &string_items(src, span), t)
    }

    #[test]
    fn a_list_item_is_found_however_it_is_written() {
        // A comment naming a label is no label; each label is found in its own literal,
        // escaped or not, in a list of lists too: the range is what stands between its quotes.
        let src = "x = [\"a\", # \"b c\" in a comment\n  \"b\\u0020c\", 'd e', \"\"\"f\\tg\"\"\", '''h\"i''', [\"\\\"j\", \"\u{e9}\\\\\"]]\n";
        let list = src.find('[').unwrap()..src.len() - 1;
        let written = |w: &str| {
            let i = src.find(w).unwrap();
            i..i + w.len()
        };
        for (label, w) in [
            ("a", "a"),
            ("b c", "b\\u0020c"),
            ("d e", "d e"),
            ("f\tg", "f\\tg"),
            ("h\"i", "h\"i"),
            ("\"j", "\\\"j"),
            ("\u{e9}\\", "\u{e9}\\\\"),
        ] {
            assert_eq!(locate(src, list.clone(), label), written(w), "{label:?}");
        }
        // Not there: the whole list.
        assert_eq!(locate(src, list.clone(), "z"), list);
        // An empty label: inside its empty literal (bytes 0-9 are `x = ["a",`, 10 is `"`).
        let src = "x = [\"a\", \"\"]";
        assert_eq!(locate(src, 4..src.len(), ""), 11..11);
    }

    /// Calls `find` with every range of `src`, ends past its end included, and checks that
    /// each range it gives lies in `src` on character boundaries.
    fn on_every_range(src: &str, find: impl Fn(Range<usize>) -> Range<usize>) {
        for start in 0..=src.len() + 2 {
            for end in 0..=src.len() + 2 {
                let r = find(start..end);
                assert!(r.start <= r.end && r.end <= src.len(), "{start}..{end}");
                assert!(src.is_char_boundary(r.start) && src.is_char_boundary(r.end));
            }
        }
    }

    #[test]
    fn locating_a_list_item_never_panics_and_stays_on_characters() {
        let src = "x = [\"\u{e9}\u{2800}\", '\u{1F980}', \"\\u00e9\", [\"\\U0001F980\"]] # \u{e9}";
        for t in ["\u{e9}\u{2800}", "\u{1F980}", "\u{e9}", "", "x"] {
            on_every_range(src, |r| locate(src, r, t));
        }
    }

    /// [`locate_char`] finds a character where it is written, as itself or as any TOML
    /// escape of it, and not inside another escape (`\\t` is a backslash and a `t`) or in a
    /// literal string, where a backslash is itself.
    #[test]
    fn a_character_is_found_however_it_is_escaped() {
        fn at(src: &str, span: Range<usize>, c: char) -> &str {
            &src[locate_char(src, span, c)]
        }
        let all = |src: &str| 0..src.len();
        for (src, c, want) in [
            (r#""a\tb""#, '\t', r"\t"),
            (r#""a\\tb\tc""#, '\t', r"\t"),
            (r#""a\\tb\tc""#, '\\', r"\\"),
            (r#""a\nb""#, '\n', r"\n"),
            (r#""a\rb""#, '\r', r"\r"),
            (r#""a\bb""#, '\u{8}', r"\b"),
            (r#""a\fb""#, '\u{c}', r"\f"),
            (r#""a\eb""#, '\u{1b}', r"\e"),
            (r#""a\x09b""#, '\t', r"\x09"),
            (r#""a\u0009b""#, '\t', r"\u0009"),
            (r#""a\U00002800b""#, '\u{2800}', r"\U00002800"),
            (r#""a\u2800b""#, '\u{2800}', r"\u2800"),
            (r#""a\"b""#, '"', r#"\""#),
            ("\"a\u{2800}b\"", '\u{2800}', "\u{2800}"),
            // A line-ending backslash stands for nothing, not for the line break after it.
            ("\"\"\"a \\\n  b\\nc\"\"\"", '\n', r"\n"),
        ] {
            assert_eq!(at(src, all(src), c), want, "{src:?} {c:?}");
        }
        // In a literal string a backslash is itself: no tab there, the span's start.
        let src = r"'a\tb'";
        assert_eq!(locate_char(src, all(src), '\t'), 0..0);
        assert_eq!(at(src, all(src), '\\'), "\\");
        // Between the quotes of a literal string (its quote just before the span): the same.
        assert_eq!(locate_char(src, 1..5, '\t'), 1..1);
        // Between quotes, a text that starts with the other quote: the quote before the span
        // says which kind of string it is (`'"a\tb'` holds no tab, `"'a\tb"` one).
        let src = r#"x = ['"a\tb', "'a\tb"]"#;
        assert_eq!(locate_char(src, 6..11, '\t'), 6..6);
        assert_eq!(at(src, 15..20, '\t'), r"\t");
        // Never off a character, from any start to any end.
        let src = "\"\u{e9}\\u00e9\\t\u{2800}\\\" '\\x\"";
        for c in ['\u{e9}', '\t', '\u{2800}', '"', 'x'] {
            on_every_range(src, |r| locate_char(src, r, c));
        }
    }

    #[test]
    fn field_at_finds_nested_example_fields() {
        let src =
            "id = 1\n[[example]]\ntitle = \"a\"\n[[example]]\n[example.expect]\nposition = 3\n";
        let off = src.find("position").unwrap();
        assert_eq!(field_at(src, off), "example[2].expect.position");
    }
}
