//! The README's page counts against the kits the library builds: every claim of the form
//! "KIT in STYLE on PAPER: N pages and a host key of M" (optionally followed by "against N and
//! M in normal print"), and "the five kits in normal print on A4, N pages with their host
//! keys", is read out of README.md and compared with the page counts of the kit and host key
//! built for that bundled ruleset, paper and print style (in the ruleset's own language, as
//! `sowkit build` makes them).
use crate::common;

use sowkit::layout::{self, KitOptions, Paper, A4, LETTER};
use sowkit::ruleset::Ruleset;

/// The names the README calls the bundled kits by, with their ids.
const KITS: [(&str, &str); 5] = [
    ("Giuthi", "giuthi"),
    ("Kalah 6×4", "kalah-6x4"),
    ("Kalah 6×3", "kalah-6x3"),
    ("Oware", "oware-abapa"),
    ("Six-pit sowing", "six-pit-sowing"),
];

/// README.md with every run of whitespace (line breaks too) made one space.
fn readme() -> String {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    src.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The whole number `s` starts with, and the rest of `s`.
fn number(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// `N pages and a host key of M` at the start of `s`: (N, M) and the rest.
fn pages_and_key(s: &str) -> Option<((usize, usize), &str)> {
    let (n, rest) = number(s)?;
    let rest = rest.strip_prefix(" pages and a host key of ")?;
    let (m, rest) = number(rest)?;
    Some(((n, m), rest))
}

/// Kit and host-key page counts of bundled `id` on `paper`, large print or not.
fn built(rs: &Ruleset, paper: Paper, large: bool) -> (usize, usize) {
    let opts = KitOptions {
        large,
        ..KitOptions::new(paper)
    };
    let kit = layout::kit(rs, &opts).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    let key = layout::host_key(rs, &opts).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
    (kit.pages.len(), key.pages.len())
}

/// One claim: what it is about, what the README says, what the build gives.
type Claim = (String, (usize, usize), (usize, usize));

#[test]
fn readme_page_counts_are_the_built_kits() {
    let text = readme();
    let bundled = common::bundled();
    let rs = |id: &str| bundled.iter().find(|r| r.id == id).unwrap();
    let mut claims: Vec<Claim> = Vec::new();
    for (name, id) in KITS {
        for (style, large) in [("large print", true), ("normal print", false)] {
            for (pname, paper) in [("A4", A4), ("Letter", LETTER)] {
                let head = format!("{name} in {style} on {pname}: ");
                for (at, _) in text.match_indices(&head) {
                    let after = &text[at + head.len()..];
                    let (said, rest) = pages_and_key(after).unwrap_or_else(|| {
                        panic!(
                            "{head:?} is not followed by \"N pages and a host key of M\": {:?}",
                            &after[..80.min(after.len())]
                        )
                    });
                    claims.push((head.clone(), said, built(rs(id), paper, large)));
                    // ", against N and M in normal print": the same kit and paper.
                    if let Some(r) = rest.strip_prefix(", against ") {
                        let (n, r) = number(r).expect("against N");
                        let r = r.strip_prefix(" and ").expect("against N and M");
                        let (m, r) = number(r).expect("against N and M");
                        assert!(r.starts_with(" in normal print"), "{r:?}");
                        claims.push((
                            format!("{head} against … in normal print"),
                            (n, m),
                            built(rs(id), paper, false),
                        ));
                    }
                }
            }
        }
    }
    // "the five kits in normal print on A4, N pages with their host keys".
    let head = "the five kits in normal print on A4, ";
    for (at, _) in text.match_indices(head) {
        let (n, rest) = number(&text[at + head.len()..]).expect("N pages");
        assert!(rest.starts_with(" pages with their host keys"), "{rest:?}");
        let all: usize = bundled
            .iter()
            .map(|r| {
                let (k, h) = built(r, A4, false);
                k + h
            })
            .sum();
        claims.push((head.to_string(), (n, 0), (all, 0)));
    }
    // The README states at least these four (a reworded claim must be found again).
    assert!(claims.len() >= 4, "{claims:?}");
    let wrong: Vec<&Claim> = claims.iter().filter(|c| c.1 != c.2).collect();
    assert!(
        wrong.is_empty(),
        "README page counts (said, built) that differ: {wrong:?}"
    );
}
