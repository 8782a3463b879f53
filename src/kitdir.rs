//! Crash-safe kit folders: each `<out>/<id>/` is, at every instant, either the complete old kit
//! or the complete new one, even if the process is killed or the machine loses power.
//!
//! How: [`Output::open`] takes an exclusive lock on the output folder (so two builds never
//! interleave; names need no PID or random part) and tidies what a killed run left. Each kit is
//! [staged](Output::stage) in full in the hidden sibling `.sowkit-new.<id>/`, every file and the
//! folder fsynced (on a disk in the background, while the build lays out its next kits).
//! [`Output::commit`] waits for every flush, then switches each kit in with one atomic step:
//! on Linux `renameat2(RENAME_EXCHANGE)` swaps the staged folder and the old kit, elsewhere (or
//! on a file system without exchange) the old kit is renamed to `.sowkit-old.<id>/` and the new
//! one renamed into place; the next run restores a `.sowkit-old.<id>` whose kit is missing. Only
//! when every kit is switched are the old kits deleted (their files from several threads). Any
//! error undoes every switch and removes every staged folder, so a failed build leaves nothing
//! new.
//!
//! An `-o` folder that does not exist yet is never created before the commit, so even a killed
//! build (which cannot clean up) leaves no empty or half-filled `-o` folder. Its outermost
//! missing folder `<parent>/<name>` is staged as the hidden sibling
//! `<parent>/.sowkit-new-out.<name>/` (with any inner missing folders inside it), the kits are
//! staged and switched in there, and the commit renames the whole tree to `<parent>/<name>` in
//! one atomic step. The next build into the same `-o` clears what a killed run left there.
//!
//! With the portable switch there is one instant per kit, between its two renames, when
//! `<id>/` is missing and the complete old kit is `.sowkit-old.<id>/`; the next run (or any
//! reader who looks there) finds it whole.
//!
//! Across several kits a build promises: on success every kit is new; on an error every kit is
//! old; if killed, each kit is complete (old or new) and the next build finishes the job.
//!
//! Test hooks (for `tests/kill.rs`; no effect unless set): `SOWKIT_TEST_PAUSE_AT=<step>` makes
//! the process print `sowkit: paused at <step>` and sleep at that step; `SOWKIT_TEST_FAIL_AT=<step>`
//! makes that step fail as a full disk would; `SOWKIT_TEST_NO_EXCHANGE=1` uses the portable
//! switch. Steps: `locked`, `staging:<id>` (first file written), `staged:<id>` (files and
//! folder flushed; on a disk reached on the kit's flush thread), `switching:<id>` (portable
//! switch only, old kit moved aside), `switched:<id>`, `revealing` (only when `-o` did not
//! exist: every kit switched in the hidden tree, not yet renamed into place), `committed`
//! (pause only: every kit is new there, nothing can fail).

use std::fs;
use std::io::{self, Error, ErrorKind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Prefix of a staged kit folder (or, after an exchange, of the old kit awaiting deletion).
const NEW: &str = ".sowkit-new.";
/// Prefix of an old kit moved aside by the portable switch.
const OLD: &str = ".sowkit-old.";
/// Prefix of the hidden sibling that stages an `-o` folder which did not exist.
const NEW_OUT: &str = ".sowkit-new-out.";

/// An I/O error that names the path and what was being done to it.
pub fn at_path(what: &str, path: &Path, e: Error) -> Error {
    Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

/// Why `path` cannot be used, in words: names symbolic-link loops and dangling links, which
/// `Path::exists` reports as "does not exist".
pub fn explain_missing(path: &Path, e: &Error) -> String {
    let shown = path.display();
    if let Ok(m) = fs::symlink_metadata(path) {
        if m.file_type().is_symlink() {
            let target = fs::read_link(path)
                .map(|t| t.display().to_string())
                .unwrap_or_default();
            if e.raw_os_error() == Some(40) || e.to_string().contains("levels of symbolic links") {
                return format!("{shown} is a symbolic link that leads round in a loop (via {target}): point it at a real file or folder");
            }
            if e.kind() == ErrorKind::NotFound {
                return format!("{shown} is a symbolic link to {target}, which does not exist: fix or remove the link");
            }
        }
    }
    if e.kind() == ErrorKind::NotFound {
        format!("{shown} does not exist")
    } else {
        format!("cannot use {shown}: {e}")
    }
}

/// Test hook at `step` (see the module docs): pause forever when asked to pause there.
fn pause_at(step: &str) {
    if hook("pause") == Some(step) {
        eprintln!("sowkit: paused at {step}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

fn hook(name: &str) -> Option<&'static str> {
    static PAUSE: OnceLock<Option<String>> = OnceLock::new();
    static FAIL: OnceLock<Option<String>> = OnceLock::new();
    let cell = if name == "pause" { &PAUSE } else { &FAIL };
    let var = if name == "pause" {
        "SOWKIT_TEST_PAUSE_AT"
    } else {
        "SOWKIT_TEST_FAIL_AT"
    };
    cell.get_or_init(|| std::env::var(var).ok()).as_deref()
}

/// Test hook at `step` (see the module docs): pause forever, or fail as a full disk would.
fn step(step: &str) -> io::Result<()> {
    pause_at(step);
    if hook("fail") == Some(step) {
        return Err(Error::new(
            ErrorKind::StorageFull,
            format!("No space left on device (test hook at {step})"),
        ));
    }
    Ok(())
}

/// Threads that flush a kit's files at once ([`sync_all_at_once`]).
const SYNC_THREADS: usize = 8;

/// Flushes every file in `files` to disk, from up to [`SYNC_THREADS`] threads at once (not the
/// machine's cores: a flush waits on the disk, not the processor, and the more flushes wait
/// together the more of them one journal commit serves). Measured on this project's machines
/// (ext4, Kalah 6×4's 25 files; writing, flushing and the folder's flush, median of 15 builds
/// in each of 4 alternating rounds): 7.6, 8.0, 10.1, 11.7 ms from the 2 threads of the
/// machine's cores, 6.2, 6.4, 7.6, 10.8 ms from 8. On a file system kept in memory
/// (`memory_fs`, as [`in_memory`] tells: tmpfs, ramfs) a flush waits on nothing, so the files
/// are flushed on the calling thread, one after another, rather than from threads started for
/// nothing (0.4 ms of a Kalah 6×4 kit's 17 on tmpfs). Each file is opened again to be flushed
/// (for writing: some systems flush only such handles) and closed after, so a build holds no
/// more files open than it flushes at once, however many kits wait for their flush. Errors:
/// the first failed flush, naming its file.
fn sync_all_at_once(files: &[PathBuf], memory_fs: bool) -> io::Result<()> {
    let flush = |p: &PathBuf| {
        fs::OpenOptions::new()
            .write(true)
            .open(p)
            .and_then(|f| f.sync_all())
            .map_err(|e| at_path("cannot write", p, e))
    };
    if memory_fs {
        return files.iter().try_for_each(flush);
    }
    let threads = SYNC_THREADS.min(files.len());
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || files.iter().skip(t).step_by(threads).try_for_each(flush)))
            .collect();
        // Every thread is waited for; the first error (in thread order) is returned.
        let results: Vec<io::Result<()>> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::other("a file flush panicked")))
            })
            .collect();
        results.into_iter().collect()
    })
}

/// Threads that remove the old kits' files after a commit, at most ([`remove_all`]).
const REMOVERS: usize = 4;

/// Kits whose flushes go on at once in the background, at most ([`Output::stage`]): each
/// takes up to [`SYNC_THREADS`] threads, so a build of many kits holds a bounded number.
const FLUSHES_AT_ONCE: usize = 4;

/// One kit's flush under way on a thread of its own ([`Output::stage`]).
struct Flush(std::thread::JoinHandle<io::Result<()>>);

impl Flush {
    /// Runs `flush` on a new thread. Errors: the thread cannot be started.
    fn start(flush: impl FnOnce() -> io::Result<()> + Send + 'static) -> io::Result<Flush> {
        std::thread::Builder::new()
            .name("sowkit-flush".into())
            .spawn(flush)
            .map(Flush)
    }

    /// Waits for the flush to end: its result.
    fn wait(self) -> io::Result<()> {
        self.0
            .join()
            .unwrap_or_else(|_| Err(Error::other("a kit's flush panicked")))
    }
}

/// Whether `file` lies on a file system kept in memory (tmpfs or ramfs, by `fstatfs`), where
/// flushing writes nothing to a device. `false` where that cannot be told (other systems, or
/// the call failing).
fn in_memory(file: &fs::File) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let mut st = std::mem::MaybeUninit::<libc::statfs>::zeroed();
        // SAFETY: `st` is a writable `statfs` and the descriptor is open for `file`'s lifetime.
        if unsafe { libc::fstatfs(file.as_raw_fd(), st.as_mut_ptr()) } != 0 {
            return false;
        }
        // SAFETY: fstatfs returned 0, so it filled `st`.
        // The magic numbers of linux/magic.h (TMPFS_MAGIC, RAMFS_MAGIC; `f_type`'s width and
        // sign vary by platform, the low 32 bits are the number).
        let kind = unsafe { st.assume_init() }.f_type as u64 & 0xFFFF_FFFF;
        kind == 0x0102_1994 || kind == 0x8584_58f6
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        false
    }
}

/// [`in_memory`] for the file system that holds the folder `dir` (`false` if it cannot be
/// opened).
fn folder_in_memory(dir: &Path) -> bool {
    fs::File::open(dir).is_ok_and(|d| in_memory(&d))
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| at_path("cannot flush folder", dir, e))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Swaps two existing paths atomically. `Ok(false)` when this system or file system cannot.
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    if std::env::var_os("SOWKIT_TEST_NO_EXCHANGE").is_some() {
        return Ok(false);
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let ca = CString::new(a.as_os_str().as_bytes())?;
        let cb = CString::new(b.as_os_str().as_bytes())?;
        // SAFETY: both pointers are valid NUL-terminated strings for the duration of the call.
        let r = unsafe {
            libc::syscall(
                libc::SYS_renameat2,
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(true);
        }
        let e = Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EPERM) => Ok(false),
            _ => Err(e),
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = (a, b);
        Ok(false)
    }
}

/// How one kit was switched in, so it can be undone.
enum Switched {
    /// There was no old kit.
    Fresh,
    /// Exchanged: the staged folder now holds the old kit.
    Exchanged,
    /// Portable: the old kit is in `.sowkit-old.<id>`.
    MovedAside,
}

/// An output folder locked for one build. Dropping it without [`Output::commit`] undoes
/// everything it did (staged folders removed, a staged `-o` tree too).
pub struct Output {
    /// The `-o` folder, where the kits end up.
    out: PathBuf,
    /// Where kits are staged and switched: `out` when it existed, else its place inside the
    /// hidden staging tree.
    root: PathBuf,
    /// When `out` did not exist: the hidden staging folder and the outermost missing folder it
    /// becomes at the commit.
    fresh: Option<(PathBuf, PathBuf)>,
    /// Kits staged so far (ids).
    staged: std::sync::Mutex<Vec<String>>,
    /// Flushes of staged kits still under way ([`Output::stage`] on a disk), oldest first:
    /// every one is waited for before the commit, and before a drop removes anything.
    flushes: std::sync::Mutex<Vec<Flush>>,
    committed: bool,
    _lock: fs::File,
}

impl Output {
    /// Checks and locks `out`, waiting for another build that holds it, then tidies what a
    /// killed run left (see the module docs). A missing `out` is not created here: it is
    /// staged as a hidden sibling and appears only at [`Output::commit`].
    /// Errors: `out` is a file or a dangling link, or I/O; messages name the path.
    pub fn open(out: &Path) -> io::Result<Output> {
        loop {
            if let Ok(m) = fs::symlink_metadata(out) {
                match fs::metadata(out) {
                    Err(e) => {
                        return Err(Error::new(
                            ErrorKind::InvalidInput,
                            format!("-o {}", explain_missing(out, &e)),
                        ))
                    }
                    Ok(t) if !t.is_dir() => {
                        let _ = m;
                        return Err(Error::new(
                            ErrorKind::AlreadyExists,
                            format!(
                                "{} is a file, not a folder: give -o a folder (it is created if missing)",
                                out.display()
                            ),
                        ));
                    }
                    Ok(_) => {}
                }
                let o = Output {
                    out: out.to_path_buf(),
                    root: out.to_path_buf(),
                    fresh: None,
                    staged: std::sync::Mutex::new(Vec::new()),
                    flushes: std::sync::Mutex::new(Vec::new()),
                    committed: false,
                    _lock: lock(out)?,
                };
                o.tidy()?;
                step("locked")?;
                return Ok(o);
            }
            if let Some(o) = Output::open_fresh(out)? {
                step("locked")?;
                return Ok(o);
            }
            // Another build held the staging folder; it has finished: look again.
        }
    }

    /// [`Output::open`] for a missing `out`: creates and locks the hidden staging tree (see
    /// the module docs), clearing what a killed run left in it. `None` when another build was
    /// staging the same folder (waited for; the caller looks again).
    fn open_fresh(given: &Path) -> io::Result<Option<Output>> {
        // `..` and `.` in the missing part (`a/b/../b/c` with `a/b` missing) taken away first:
        // the staging folder is found from the path's parts, and `a/.sowkit-new-out.b/../b/c`
        // would lead out of it.
        let resolved = without_dots_in_missing_part(given);
        let out = resolved.as_deref().unwrap_or(given);
        // The outermost missing folder.
        let mut top = out.to_path_buf();
        while let Some(p) = top.parent() {
            if p.as_os_str().is_empty() || fs::symlink_metadata(p).is_ok() {
                break;
            }
            top = p.to_path_buf();
        }
        let Some(name) = top.file_name() else {
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!("-o {}: cannot create this folder", out.display()),
            ));
        };
        let parent = match top.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut hidden = std::ffi::OsString::from(NEW_OUT);
        hidden.push(name);
        let stage_top = parent.join(hidden);
        match fs::create_dir(&stage_top) {
            Ok(()) => {}
            // Left by a killed run, or another build is staging there now (the lock tells).
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(at_path("cannot create folder", &top, e)),
        }
        let f = match fs::File::open(&stage_top) {
            Ok(f) => f,
            // Another build has just renamed its staging folder into place: look again.
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(at_path("cannot open folder", &stage_top, e)),
        };
        if lock_or_wait(&f, out, &stage_top)? {
            return Ok(None);
        }
        // The folder locked must still be the staging folder (not one another build has
        // just committed as `top`), and `out` still missing.
        if !same_folder(&f, &stage_top) {
            return Ok(None);
        }
        if fs::symlink_metadata(out).is_ok() {
            // Another build made `out` meanwhile: this staging folder (locked here, so no
            // build is using it) would be left behind, beside a folder no build stages again.
            let _ = remove_tree(&stage_top);
            return Ok(None);
        }
        #[cfg(not(unix))]
        let f = {
            drop(f);
            lock(&stage_top)?
        };
        // What a killed run left (the lock file of other systems stays).
        let rd =
            fs::read_dir(&stage_top).map_err(|e| at_path("cannot read folder", &stage_top, e))?;
        for e in rd.filter_map(|e| e.ok()) {
            if e.file_name() != ".sowkit.lock" {
                remove_tree(&e.path())?;
            }
        }
        let inner = out.strip_prefix(&top).unwrap_or(Path::new(""));
        let root = stage_top.join(inner);
        let o = Output {
            out: given.to_path_buf(),
            root: root.clone(),
            fresh: Some((stage_top, top)),
            staged: std::sync::Mutex::new(Vec::new()),
            flushes: std::sync::Mutex::new(Vec::new()),
            committed: false,
            _lock: f,
        };
        fs::create_dir_all(&root).map_err(|e| at_path("cannot create folder", &root, e))?;
        Ok(Some(o))
    }

    /// Removes staged folders and old kits left by killed runs; restores an old kit whose
    /// folder is missing (killed between the two renames of the portable switch). Also
    /// tidies the `.<id>.tmp-<pid>` / `.<id>.old-<pid>` folders of sowkit before 0.2.
    fn tidy(&self) -> io::Result<()> {
        let rd =
            fs::read_dir(&self.root).map_err(|e| at_path("cannot read folder", &self.root, e))?;
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        let mut changed = false;
        for name in names {
            let path = self.root.join(&name);
            let old_id = name
                .strip_prefix(OLD)
                .map(str::to_string)
                .or_else(|| legacy(&name, ".old-"));
            if let Some(id) = old_id {
                let fin = self.root.join(&id);
                changed = true;
                if fs::symlink_metadata(&fin).is_err() {
                    fs::rename(&path, &fin)
                        .map_err(|e| at_path("cannot restore old kit", &path, e))?;
                    continue;
                }
                remove_tree(&path)?;
            } else if name.starts_with(NEW) || legacy(&name, ".tmp-").is_some() {
                changed = true;
                remove_tree(&path)?;
            }
        }
        // Flushed only when something was restored or removed (a restored kit must stay put).
        if changed {
            sync_dir(&self.root)?;
        }
        Ok(())
    }

    /// The folder kit `id` is staged in.
    fn stage_dir(&self, id: &str) -> PathBuf {
        self.root.join(format!("{NEW}{id}"))
    }

    /// Writes one kit's files to its staging folder, each fsynced, then the folder fsynced.
    /// On a disk the flushes go on in the background ([`FLUSHES_AT_ONCE`] kits at most) and
    /// this returns once the files are written, so a build's threads lay out the next kit
    /// while the disk works; [`Output::commit`] waits for every flush first (a flush error
    /// is its error). Safe to call from several threads for different ids. Errors: `id`
    /// would leave the output folder or is taken by a file, or I/O (naming the path).
    pub fn stage(&self, id: &str, files: &[crate::kit::File]) -> io::Result<()> {
        use std::io::Write;
        if id.is_empty() || id.contains(['/', '\\']) || id.starts_with('.') {
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!("{id:?} cannot be a kit folder name"),
            ));
        }
        let fin = self.root.join(id);
        may_replace(&fin)?;
        let dir = self.stage_dir(id);
        if fs::symlink_metadata(&dir).is_ok() {
            remove_tree(&dir)?;
        }
        fs::create_dir(&dir).map_err(|e| at_path("cannot create folder", &dir, e))?;
        self.staged
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(id.to_string());
        // Every file written first, then all fsynced together (in parallel): the disk flushes
        // the later files while the earlier ones are still being written, and the syncs wait
        // on one another's journal commits instead of one after another.
        let mut written = Vec::with_capacity(files.len());
        for (k, f) in files.iter().enumerate() {
            let p = dir.join(&f.name);
            let mut file = fs::File::create(&p).map_err(|e| at_path("cannot create", &p, e))?;
            file.write_all(&f.bytes)
                .map_err(|e| at_path("cannot write", &p, e))?;
            // Closed now (flushed through a handle of its own, [`sync_all_at_once`]).
            drop(file);
            written.push(p);
            if k == 0 {
                step(&format!("staging:{id}"))?;
            }
        }
        // In memory (tmpfs) a flush waits on nothing: done here, no thread started.
        let in_memory = folder_in_memory(&dir);
        let flush = {
            let id = id.to_string();
            move || {
                sync_all_at_once(&written, in_memory)?;
                sync_dir(&dir)?;
                step(&format!("staged:{id}"))
            }
        };
        if in_memory {
            return flush();
        }
        let mut flushes = self.flushes.lock().unwrap_or_else(|p| p.into_inner());
        if flushes.len() >= FLUSHES_AT_ONCE {
            // The oldest first: at most that many kits' flushes (and their threads) at once.
            flushes.remove(0).wait()?;
        }
        flushes.push(Flush::start(flush)?);
        Ok(())
    }

    /// Waits for every flush [`Output::stage`] left under way; the first error (oldest
    /// first), after all have ended.
    fn wait_flushed(&self) -> io::Result<()> {
        let flushes = std::mem::take(&mut *self.flushes.lock().unwrap_or_else(|p| p.into_inner()));
        // Every one waited for, then the first error.
        let ended: Vec<io::Result<()>> = flushes.into_iter().map(Flush::wait).collect();
        ended.into_iter().collect()
    }

    /// Switches every staged kit in (in `ids` order), then deletes the old kits. On an error
    /// every switch is undone and nothing new is left. Returns the kit folders in order.
    pub fn commit(mut self, ids: &[String]) -> io::Result<Vec<PathBuf>> {
        // Every kit on disk before any is switched in (a failed flush: nothing new is left).
        self.wait_flushed()?;
        let mut done: Vec<(String, Switched)> = Vec::new();
        let mut result = Ok(());
        for id in ids {
            match self.switch(id) {
                Ok(s) => done.push((id.clone(), s)),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            if let Err(e) = step(&format!("switched:{id}")) {
                result = Err(e);
                break;
            }
        }
        let result = result
            .and_then(|_| sync_dir(&self.root))
            .and_then(|_| self.reveal());
        if let Err(e) = result {
            for (id, s) in done.iter().rev() {
                let fin = self.root.join(id);
                let _ = match s {
                    Switched::Fresh => fs::rename(&fin, self.stage_dir(id)),
                    Switched::Exchanged => exchange(&self.stage_dir(id), &fin).map(|_| ()),
                    Switched::MovedAside => fs::rename(&fin, self.stage_dir(id))
                        .and_then(|_| fs::rename(self.root.join(format!("{OLD}{id}")), &fin)),
                };
            }
            let _ = sync_dir(&self.root);
            return Err(e); // Drop removes the staged folders (and a staged `-o` tree).
        }
        self.committed = true;
        // Pause only: nothing can fail here, every kit is new (a failure hook would report
        // "nothing was changed" and skip the tidying).
        pause_at("committed");
        // The new kits are in place; deleting the old ones is tidying (the next run retries).
        let old: Vec<PathBuf> = done
            .iter()
            .filter_map(|(id, s)| match s {
                Switched::Fresh => None,
                Switched::Exchanged => Some(self.stage_dir(id)),
                Switched::MovedAside => Some(self.root.join(format!("{OLD}{id}"))),
            })
            .collect();
        for e in remove_all(&old) {
            eprintln!(
                "warning: {e}; the next build into this folder tries again (if it cannot \
                 either, remove that folder by hand)"
            );
        }
        // The removals are not flushed: the new kits are already on disk (flushed before the
        // reveal), and an old kit that a crash brings back is removed by the next build.
        Ok(ids.iter().map(|id| self.out.join(id)).collect())
    }

    /// For an `-o` folder that did not exist: renames the staged tree into place, the one
    /// step that makes it appear. Nothing to do otherwise.
    fn reveal(&mut self) -> io::Result<()> {
        let Some((stage_top, top)) = &self.fresh else {
            return Ok(());
        };
        step("revealing")?;
        // A folder made there meanwhile (by someone else) is not replaced.
        if fs::symlink_metadata(top).is_ok() {
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                format!(
                    "{} was created by someone else during the build: build again",
                    top.display()
                ),
            ));
        }
        fs::rename(stage_top, top).map_err(|e| at_path("cannot rename into place", top, e))?;
        if let Some(p) = top.parent().filter(|p| !p.as_os_str().is_empty()) {
            let _ = sync_dir(p);
        }
        self.fresh = None;
        self.root = self.out.clone();
        Ok(())
    }

    fn switch(&self, id: &str) -> io::Result<Switched> {
        let new = self.stage_dir(id);
        let fin = self.root.join(id);
        if fs::symlink_metadata(&fin).is_err() {
            fs::rename(&new, &fin).map_err(|e| at_path("cannot rename into place", &fin, e))?;
            return Ok(Switched::Fresh);
        }
        if exchange(&new, &fin).map_err(|e| at_path("cannot switch in", &fin, e))? {
            return Ok(Switched::Exchanged);
        }
        let old = self.root.join(format!("{OLD}{id}"));
        fs::rename(&fin, &old).map_err(|e| at_path("cannot move aside", &fin, e))?;
        // A failure from here on puts the old kit back.
        let into_place = step(&format!("switching:{id}")).and_then(|_| {
            fs::rename(&new, &fin).map_err(|e| at_path("cannot rename into place", &fin, e))
        });
        if let Err(e) = into_place {
            let _ = fs::rename(&old, &fin);
            return Err(e);
        }
        Ok(Switched::MovedAside)
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if self.committed {
            return;
        }
        // No flush may still be working on what is removed below.
        let _ = self.wait_flushed();
        if let Some((stage_top, _)) = &self.fresh {
            let _ = fs::remove_dir_all(stage_top);
            return;
        }
        for id in self.staged.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = fs::remove_dir_all(self.stage_dir(id));
        }
    }
}

/// `path` with the `.` and `..` of its missing part worked out, when it has any (else `None`):
/// the longest part that exists is kept as it is (a `..` that leads above it goes to its
/// resolved parent, since it may be a symbolic link); what follows does not exist, so it holds
/// no link and its `..` simply drops the name before it.
fn without_dots_in_missing_part(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut base = path.to_path_buf();
    let mut missing = Vec::new();
    while !base.as_os_str().is_empty() && fs::symlink_metadata(&base).is_err() {
        let name = base.components().next_back()?;
        missing.push(name.as_os_str().to_os_string());
        if !base.pop() {
            break;
        }
    }
    missing.reverse();
    let dotted = |c: &std::ffi::OsString| c == "." || c == "..";
    if !missing.iter().any(dotted) {
        return None;
    }
    let mut tail: Vec<std::ffi::OsString> = Vec::new();
    for c in missing {
        match Path::new(&c).components().next() {
            Some(Component::CurDir) => {}
            Some(Component::ParentDir) => {
                if tail.pop().is_none() {
                    let here = if base.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        &base
                    };
                    base = fs::canonicalize(here).ok()?.parent()?.to_path_buf();
                }
            }
            _ => tail.push(c),
        }
    }
    Some(tail.iter().fold(base, |p, c| p.join(c)))
}

/// Whether the open folder `f` is the one at `path` now (on Unix by device and inode; on other
/// systems assumed).
fn same_folder(f: &fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        fs::symlink_metadata(path).is_ok()
    }
}

/// Whether `build` may put a kit at `fin`: nothing is there, or a kit folder it wrote (or an
/// empty folder). Errors (the message `build` and `build --check` give): a symbolic link, a
/// file, or a folder that is not a kit ([`ours_to_replace`]); I/O naming the path.
pub fn may_replace(fin: &Path) -> io::Result<()> {
    let Ok(m) = fs::symlink_metadata(fin) else {
        return Ok(());
    };
    let what = if m.file_type().is_symlink() {
        Some("a symbolic link")
    } else if !m.is_dir() {
        Some("a file")
    } else {
        None
    };
    if let Some(what) = what {
        return Err(Error::new(
            ErrorKind::AlreadyExists,
            format!(
                "{} is {what}, not a kit folder: move it away or choose another -o",
                fin.display()
            ),
        ));
    }
    ours_to_replace(fin)
}

/// `Ok` when the folder `dir` may be written over as a kit: it is empty or [a kit sowkit
/// wrote](is_kit_folder). A kit folder is replaced whole (`build`) or has the files its kit
/// does not make removed (`watch`), so a folder of someone else's that has a kit's id is never
/// taken for one. Errors: `AlreadyExists` naming it, or I/O reading it.
pub fn ours_to_replace(dir: &Path) -> io::Result<()> {
    let empty = fs::read_dir(dir)
        .map_err(|e| at_path("cannot read folder", dir, e))?
        .next()
        .is_none();
    if empty || is_kit_folder(dir) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::AlreadyExists,
        format!(
            "{} already exists and is not a kit (it has no manifest.txt written by sowkit), \
             and its files would be replaced: move that folder away, change the ruleset's id, \
             or choose another -o",
            dir.display()
        ),
    ))
}

/// The kit folder `<out>/<id>/` (for an id of `ids`, a folder sowkit wrote: [`is_kit_folder`])
/// that holds the file `file`, as the path to report; `None` when it is in none of them (or
/// either path cannot be resolved: a file
/// that does not exist, a bundled ruleset, an `out` not made yet). Paths are compared resolved
/// (`..` and symbolic links followed), so a link into a kit folder counts as inside it.
/// A kit folder is replaced whole (`build`) or loses the files its kit does not make
/// (`watch`): a ruleset kept in its own kit folder would be deleted by building it.
pub fn kit_folder_holding(file: &Path, out: &Path, ids: &[&str]) -> Option<PathBuf> {
    let file = fs::canonicalize(file).ok()?;
    let root = fs::canonicalize(out).ok()?;
    // A folder that is not a kit is never replaced ([`may_replace`] says so, in its words).
    ids.iter()
        .find(|id| file.starts_with(root.join(id)) && is_kit_folder(&root.join(id)))
        .map(|id| out.join(id))
}

/// The error [`kit_folder_holding`] leads to: the ruleset `file` lies in kit folder `dir`,
/// which writing the kit would replace. `InvalidInput`, saying what to do.
pub fn ruleset_in_kit_folder(file: &Path, dir: &Path) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!(
            "the ruleset {} is inside the kit folder {}, which is replaced whole when the kit \
             is written (a file kept there goes with the old kit): move the ruleset out of \
             that folder, or choose another -o",
            file.display(),
            dir.display()
        ),
    )
}

/// Whether `dir` is a kit folder sowkit wrote: it holds a `manifest.txt` whose first line is
/// the manifest heading of one of the compiled-in catalogues (`sowkit kit` in English; see
/// `manifest.head` in `templates/<lang>.toml`). Reads at most the manifest's first 4 KB.
pub fn is_kit_folder(dir: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let read =
        fs::File::open(dir.join("manifest.txt")).and_then(|f| f.take(4096).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    let first = head.split(|&b| b == b'\n').next().unwrap_or_default();
    crate::layout::phrases::languages().into_iter().any(|lang| {
        crate::layout::phrases::Phrases::load(lang)
            .is_ok_and(|ph| ph.get("manifest.head").as_bytes() == first)
    })
}

/// Removes the folders `dirs` (old kits): first the files right inside them, spread over
/// up to [`REMOVERS`] threads (on a disk each removal waits on the file system's journal, not
/// the processor), then each folder with whatever is left ([`remove_tree`], which also deals
/// with read-only folders). The errors, in the order of `dirs`, for the caller to report.
fn remove_all(dirs: &[PathBuf]) -> Vec<Error> {
    let files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| fs::read_dir(d).ok())
        .flat_map(|rd| rd.filter_map(|e| e.ok()))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .collect();
    // In memory (tmpfs) a removal waits on nothing: no threads started for it.
    let on_disk = dirs.first().is_some_and(|d| !folder_in_memory(d));
    let threads = REMOVERS.min(files.len());
    if on_disk && threads > 1 {
        std::thread::scope(|s| {
            for t in 0..threads {
                let files = &files;
                // A file that cannot be removed here is left to `remove_tree`, which says why.
                s.spawn(move || {
                    for f in files.iter().skip(t).step_by(threads) {
                        let _ = fs::remove_file(f);
                    }
                });
            }
        });
    }
    dirs.iter().filter_map(|d| remove_tree(d).err()).collect()
}

/// Removes `p` (a folder with everything in it, or a file). A leftover can be an old kit whose
/// folders its owner made read-only (after an exchange the old kit is the hidden folder to
/// delete): on "permission denied" the folders are made writable by their owner (never
/// following a symbolic link) and the removal tried once more. Errors: I/O, naming `p`.
fn remove_tree(p: &Path) -> io::Result<()> {
    let once = || {
        let is_dir = fs::symlink_metadata(p).is_ok_and(|m| m.is_dir());
        if is_dir {
            fs::remove_dir_all(p)
        } else {
            fs::remove_file(p)
        }
    };
    match once() {
        Err(e) if e.kind() == ErrorKind::PermissionDenied && owner_writable(p) => once(),
        r => r,
    }
    .map_err(|e| at_path("cannot remove", p, e))
}

/// Gives the owner write and search permission on `dir` and every folder below it (symbolic
/// links are not followed). Whether any folder's permissions changed.
fn owner_writable(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut changed = false;
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            let Ok(m) = fs::symlink_metadata(&d) else {
                continue;
            };
            if !m.is_dir() {
                continue;
            }
            let mode = m.permissions().mode();
            if mode & 0o700 != 0o700 {
                changed |=
                    fs::set_permissions(&d, fs::Permissions::from_mode(mode | 0o700)).is_ok();
            }
            if let Ok(rd) = fs::read_dir(&d) {
                stack.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()));
            }
        }
        changed
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        false
    }
}

/// `Some(id)` for `.<id><tag><digits>` (the leftover names of sowkit before 0.2).
fn legacy(name: &str, tag: &str) -> Option<String> {
    let rest = name.strip_prefix('.')?;
    let (id, pid) = rest.rsplit_once(tag)?;
    (!id.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        .then(|| id.to_string())
}

/// An exclusive lock on the output folder for the life of the returned handle (on Unix the
/// folder itself is locked; elsewhere a `.sowkit.lock` file in it).
fn lock(out: &Path) -> io::Result<fs::File> {
    #[cfg(unix)]
    let f = fs::File::open(out).map_err(|e| at_path("cannot open folder", out, e))?;
    #[cfg(not(unix))]
    let f = {
        let p = out.join(".sowkit.lock");
        fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&p)
            .map_err(|e| at_path("cannot open lock file", &p, e))?
    };
    lock_or_wait(&f, out, out)?;
    Ok(f)
}

/// Takes the exclusive lock on `f` (the lock of folder `locked`), waiting, with a line on
/// stderr naming `out`, while another build holds it. Returns whether it had to wait. Errors:
/// the lock cannot be taken (the message names `locked`).
fn lock_or_wait(f: &fs::File, out: &Path, locked: &Path) -> io::Result<bool> {
    match f.try_lock() {
        Ok(()) => Ok(false),
        Err(fs::TryLockError::WouldBlock) => {
            eprintln!(
                "waiting: another sowkit build is writing to {}",
                out.display()
            );
            f.lock()
                .map_err(|e| at_path("cannot lock folder", locked, e))?;
            Ok(true)
        }
        Err(fs::TryLockError::Error(e)) => Err(at_path("cannot lock folder", locked, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file system type of `path` as the kernel's mount table names it: the entry of
    /// `/proc/self/mountinfo` with the longest mount point that contains `path`.
    fn mount_type(path: &Path) -> Option<String> {
        let info = fs::read_to_string("/proc/self/mountinfo").ok()?;
        let path = fs::canonicalize(path).ok()?;
        info.lines()
            .filter_map(|l| {
                // "id parent major:minor root mount-point options ... - type source ..."
                let (pre, post) = l.split_once(" - ")?;
                let point = pre.split(' ').nth(4)?;
                let kind = post.split(' ').next()?;
                Some((PathBuf::from(point), kind.to_string()))
            })
            .filter(|(point, _)| path.starts_with(point))
            .max_by_key(|(point, _)| point.components().count())
            .map(|(_, kind)| kind)
    }

    /// `in_memory` agrees with the mount table for a file in each writable folder at hand
    /// (on this project's machines /dev/shm is tmpfs and the build folder is on ext4, so both
    /// answers are seen).
    #[test]
    fn in_memory_agrees_with_the_mount_table() {
        let mut checked = 0;
        let here = std::env::current_dir().expect("current folder");
        for dir in [PathBuf::from("/dev/shm"), std::env::temp_dir(), here] {
            let Some(kind) = mount_type(&dir) else {
                continue;
            };
            let p = dir.join(format!("sowkit-in-memory-{}", std::process::id()));
            let Ok(f) = fs::File::create(&p) else {
                continue;
            };
            let want = cfg!(target_os = "linux") && (kind == "tmpfs" || kind == "ramfs");
            let got = in_memory(&f);
            let _ = fs::remove_file(&p);
            assert_eq!(got, want, "{} is on {kind}", dir.display());
            checked += 1;
        }
        if cfg!(target_os = "linux") {
            assert!(checked > 0, "no folder could be checked");
        }
    }

    /// A flush's result comes back from its thread: an error as it was, a panic as an error;
    /// `wait_flushed` waits for every flush (the slowest is the last) and returns the oldest
    /// error.
    #[test]
    fn a_flush_reports_its_error_and_every_flush_is_waited_for() {
        assert!(Flush::start(|| Ok(())).unwrap().wait().is_ok());
        let e = Flush::start(|| Err(Error::other("disk full at a.pdf")))
            .unwrap()
            .wait()
            .unwrap_err();
        assert_eq!(e.to_string(), "disk full at a.pdf");
        let e = Flush::start(|| -> io::Result<()> { panic!("boom") })
            .unwrap()
            .wait()
            .unwrap_err();
        assert!(e.to_string().contains("panicked"), "{e}");

        let dir = std::env::temp_dir().join(format!("sowkit-flushes-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let out = Output::open(&dir).expect("open");
        let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        {
            let mut flushes = out.flushes.lock().unwrap();
            for k in 0..3 {
                let done = done.clone();
                flushes.push(
                    Flush::start(move || {
                        std::thread::sleep(std::time::Duration::from_millis(20 * (k + 1)));
                        done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if k == 0 {
                            Ok(())
                        } else {
                            Err(Error::other(format!("flush {k} failed")))
                        }
                    })
                    .unwrap(),
                );
            }
        }
        let e = out.wait_flushed().unwrap_err();
        assert_eq!(e.to_string(), "flush 1 failed");
        assert_eq!(done.load(std::sync::atomic::Ordering::SeqCst), 3);
        assert!(out.flushes.lock().unwrap().is_empty());
        drop(out);
        let _ = fs::remove_dir_all(&dir);
    }

    /// `remove_all` removes every folder given, with the files in it, a subfolder and a
    /// read-only subfolder, and reports nothing.
    #[test]
    fn remove_all_removes_every_old_kit_whole() {
        let base = std::env::temp_dir().join(format!("sowkit-remove-all-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let dirs: Vec<PathBuf> = (0..3).map(|k| base.join(format!("kit-{k}"))).collect();
        for d in &dirs {
            fs::create_dir_all(d.join("sub")).unwrap();
            for f in 0..12 {
                fs::write(d.join(format!("{f:02}.svg")), b"<svg/>").unwrap();
            }
            fs::write(d.join("sub/inner.txt"), b"x").unwrap();
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let ro = dirs[1].join("sub");
            fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
        }
        let errors = remove_all(&dirs);
        assert!(errors.is_empty(), "{errors:?}");
        for d in &dirs {
            assert!(fs::symlink_metadata(d).is_err(), "{} left", d.display());
        }
        let _ = fs::remove_dir_all(&base);
    }
}
