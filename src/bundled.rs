//! The bundled rulesets, compiled into the binary so an installed `sowkit` works in any folder
//! (`sowkit list`, `sowkit build --bundled ID`, `sowkit new NAME --from ID`).

/// One bundled ruleset: its id (the kit folder name), its file name under `rulesets/`, and its
/// full TOML text as shipped.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    /// Ruleset id, e.g. `kalah-6x4`.
    pub id: &'static str,
    /// File name in the repository's `rulesets/` folder.
    pub file: &'static str,
    /// The ruleset's TOML text.
    pub source: &'static str,
}

macro_rules! bundled {
    ($($id:literal),* $(,)?) => {
        /// Every bundled ruleset, sorted by id.
        pub const ALL: &[Bundled] = &[$(Bundled {
            id: $id,
            file: concat!($id, ".toml"),
            source: include_str!(concat!("../rulesets/", $id, ".toml")),
        }),*];
    };
}

bundled!(
    "giuthi",
    "kalah-6x3",
    "kalah-6x4",
    "oware-abapa",
    "six-pit-sowing"
);

/// The bundled ruleset with this id, if any.
pub fn get(id: &str) -> Option<&'static Bundled> {
    ALL.iter().find(|b| b.id == id)
}

/// The ids of every bundled ruleset, comma-separated (for messages).
pub fn ids() -> String {
    ALL.iter().map(|b| b.id).collect::<Vec<_>>().join(", ")
}

/// The display path of a bundled ruleset in diagnostics: `<bundled>/ID.toml`.
pub fn display_path(b: &Bundled) -> String {
    format!("<bundled>/{}", b.file)
}

/// The name of a copy of `b` that `sowkit new NAME --from ID` can write in `folder`:
/// `my-ID.toml`, or, when something already has that name there (`new` never overwrites),
/// the first free one of `my-ID-2.toml`, `my-ID-3.toml`, … Advice that names the command uses
/// it, so the command it gives works.
pub fn free_copy_name(b: &Bundled, folder: &std::path::Path) -> String {
    let taken = |name: &str| folder.join(name).symlink_metadata().is_ok();
    let first = format!("my-{}.toml", b.id);
    if !taken(&first) {
        return first;
    }
    (2u64..)
        .map(|n| format!("my-{}-{n}.toml", b.id))
        .find(|name| !taken(name))
        .expect("a folder holds finitely many files")
}
