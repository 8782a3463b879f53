//! How diagnostics and progress lines are printed: `--format human|short|json` (on `check` and
//! `build`), `--color auto|always|never` (honouring `NO_COLOR`), `-q` / `-v`. All on standard
//! error, so standard output keeps only what a command produces.

use sowkit::ruleset::Diagnostic;
use std::io::IsTerminal;
use std::sync::OnceLock;

/// The form of each diagnostic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiagFormat {
    /// The message with a source snippet and a caret under the place.
    #[default]
    Human,
    /// One line: `path:line:column: field: message` (editors, grep).
    Short,
    /// One JSON object a line (JSON Lines): `{"severity", "path", "line", "column", "field",
    /// "message"}`; line and column are 1-based, 0 when unknown (CI annotations).
    Json,
}

/// When to colour the human form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When standard error is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always (even with `NO_COLOR`).
    Always,
    /// Never.
    Never,
}

/// The settings for this run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    /// Diagnostic form.
    pub format: DiagFormat,
    /// Colour the human form.
    pub color: bool,
    /// `-q`: errors only (no `ok:` lines, no warnings).
    pub quiet: bool,
    /// `-v`: also each worked example checked.
    pub verbose: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Sets the run's settings once, at start-up; `NO_COLOR` (any non-empty value) turns `auto`
/// colour off.
pub fn init(format: DiagFormat, color: ColorChoice, quiet: bool, verbose: bool) {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let color = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !no_color && std::io::stderr().is_terminal(),
    };
    let _ = SETTINGS.set(Settings {
        format,
        color,
        quiet,
        verbose,
    });
}

/// The run's settings (defaults if [`init`] was not called).
pub fn settings() -> Settings {
    SETTINGS.get().copied().unwrap_or_default()
}

/// Prints one diagnostic in the chosen form.
pub fn error(d: &Diagnostic) {
    eprintln!("{}", format(d, &settings()));
}

/// Prints one warning in the chosen form; not with `-q`.
pub fn warning(d: &Diagnostic) {
    let s = settings();
    if !s.quiet {
        eprintln!("{}", format(d, &s));
    }
}

/// One diagnostic in the form `s` asks for (no trailing newline except the human form's
/// blank separator line).
pub fn format(d: &Diagnostic, s: &Settings) -> String {
    match s.format {
        // `path:line:column: error: field: message`, as compilers write it (editors' problem
        // matchers read the severity there); warnings carry `warning:` from `short` itself.
        DiagFormat::Short if d.warning => d.short(),
        DiagFormat::Short => Diagnostic {
            field: if d.field.is_empty() {
                "error".to_string()
            } else {
                format!("error: {}", d.field)
            },
            ..d.clone()
        }
        .short(),
        DiagFormat::Json => serde_json::json!({
            "severity": if d.warning { "warning" } else { "error" },
            "path": d.path,
            "line": d.line,
            "column": d.column,
            "field": d.field,
            "message": d.message,
        })
        .to_string(),
        DiagFormat::Human if s.color => colorize(&d.rendered) + "\n",
        DiagFormat::Human => format!("{}\n", d.rendered),
    }
}

/// ANSI colour for the human form: `error` red and bold, the `-->` location and the gutter blue.
fn colorize(r: &str) -> String {
    const RED: &str = "\x1b[1;31m";
    const YELLOW: &str = "\x1b[1;33m";
    const BLUE: &str = "\x1b[1;34m";
    const BOLD: &str = "\x1b[1m";
    const RESET: &str = "\x1b[0m";
    r.lines()
        .map(|l| {
            if let Some(rest) = l.strip_prefix("error") {
                format!("{RED}error{RESET}{BOLD}{rest}{RESET}")
            } else if let Some(rest) = l.strip_prefix("warning") {
                format!("{YELLOW}warning{RESET}{BOLD}{rest}{RESET}")
            } else if let Some((gutter, code)) = l.split_once('|') {
                format!("{BLUE}{gutter}|{RESET}{code}")
            } else if l.trim_start().starts_with("-->") {
                format!("{BLUE}{l}{RESET}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `-q` asked for errors only.
pub fn quiet() -> bool {
    settings().quiet
}

/// A progress or summary line (`ok: …`, `warning: …`); not with `-q`, nor in JSON form.
pub fn info(msg: &str) {
    let s = settings();
    if !s.quiet && s.format != DiagFormat::Json {
        eprintln!("{msg}");
    }
}

/// A closing summary (`2 of 5 ruleset(s) failed`): shown even with `-q`, not in JSON form.
pub fn summary(msg: &str) {
    if settings().format != DiagFormat::Json {
        eprintln!("{msg}");
    }
}

/// A line shown only with `-v`.
pub fn verbose(msg: &str) {
    let s = settings();
    if s.verbose && s.format != DiagFormat::Json {
        eprintln!("{msg}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag() -> Diagnostic {
        Diagnostic::at(
            "g.toml",
            "id = \"g\"\nname = 5\n",
            16..17,
            "name",
            "expected a string",
        )
    }

    #[test]
    fn forms() {
        let d = diag();
        let s = |format, color| Settings {
            format,
            color,
            quiet: false,
            verbose: false,
        };
        assert_eq!(
            format(&d, &s(DiagFormat::Short, false)),
            "g.toml:2:8: error: name: expected a string"
        );
        let j: serde_json::Value =
            serde_json::from_str(&format(&d, &s(DiagFormat::Json, false))).unwrap();
        assert_eq!(j["line"], 2);
        assert_eq!(j["column"], 8);
        assert_eq!(j["field"], "name");
        let plain = format(&d, &s(DiagFormat::Human, false));
        assert!(!plain.contains('\x1b') && plain.contains("g.toml:2:8"));
        let colored = format(&d, &s(DiagFormat::Human, true));
        assert!(colored.starts_with("\x1b[1;31merror\x1b[0m"));
    }
}
