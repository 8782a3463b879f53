//! `sowkit serve`: a local preview and play-test server (a small blocking HTTP/1.1 server on
//! `std::net`, one thread per connection).
//!
//! Safety on a shared machine:
//! * binds `127.0.0.1` only (a free port unless one is asked for);
//! * answers only requests whose `Host` header is the bound `127.0.0.1:PORT` or
//!   `localhost:PORT` (421 otherwise), so a web page from another origin that rebinds its DNS
//!   name to 127.0.0.1 gets nothing; a request-target in absolute form
//!   (`http://127.0.0.1:PORT/`) has its authority checked as well (RFC 9112 §3.2.2);
//! * serves only the kits built in memory and its own embedded assets: no part of a request
//!   path reaches the file system; it never writes a file;
//! * bounded requests (16 KiB of headers, 64 KiB of body, 10 s to send them) and at most
//!   [`MAX_CONNECTIONS`] connections at once, of which at most [`MAX_EVENT_STREAMS`] live-reload
//!   streams; `POST` bodies only as `Content-Type: application/json` with a `Content-Length`
//!   (another site's page cannot send that without a preflight, which is not answered).
//!
//! Routes: `/` (kits, or the located diagnostic of a failing check above the last good kit),
//! `/kit/ID/` (the sheets at true size), `/kit/ID/FILE` (a kit file), `/play/ID` (the play-test
//! page), `/api/ID/info` (worked examples' starts), `POST /api/ID/play` (the engine's answer, a
//! [`crate::replay`] JSON document), `/events` (server-sent events: the kit generation).

use crate::engine::Rules;
use crate::layout::phrases::Phrases;
use crate::live::{Built, Playable, Rebuild};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Connections served at once; more wait in the listen queue.
pub const MAX_CONNECTIONS: usize = 64;

/// Live-reload streams (`/events`) open at once, at most: each holds its connection for as
/// long as the page is open, so without a cap of their own they could take every one of the
/// [`MAX_CONNECTIONS`] and no other request would be answered (a break-it pass: 48 streams).
/// One more is answered 503.
pub const MAX_EVENT_STREAMS: usize = 16;

/// Event streams open now.
static EVENT_STREAMS: AtomicUsize = AtomicUsize::new(0);

/// Counts one open event stream until dropped.
struct StreamSlot;

impl StreamSlot {
    /// A slot, or `None` when [`MAX_EVENT_STREAMS`] are open.
    fn take() -> Option<StreamSlot> {
        EVENT_STREAMS
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_EVENT_STREAMS).then_some(n + 1)
            })
            .ok()
            .map(|_| StreamSlot)
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        EVENT_STREAMS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the server shows: the last good kits, the current failure (if the last rebuild failed),
/// and a generation number bumped on every rebuild (pages reload when it changes).
#[derive(Debug, Default)]
pub struct State {
    /// Bumped on every rebuild, good or bad.
    pub generation: u64,
    /// The last kits that built.
    pub kits: Vec<Built>,
    /// The diagnostic of the last rebuild, if it failed.
    pub error: Option<String>,
    /// The warnings of the last rebuild, rendered.
    pub warnings: Vec<String>,
    /// The rules of the last save of each ruleset that can be played (see
    /// [`crate::live::Playable`]): the play-test page plays these, falling back to the last
    /// good kit's rules for a ruleset whose last save cannot be played.
    pub rules: Vec<Playable>,
    /// The language of every page (`serve --lang`); `None`: each ruleset's own `lang`.
    pub lang: Option<String>,
    /// The id of every ruleset served since the server started: a play-test page left open
    /// on one whose save cannot be played, with no good kit to fall back on, is told so
    /// rather than "not found".
    pub ids: Vec<String>,
}

impl State {
    fn record(&mut self, r: Rebuild) {
        match r.kits {
            Ok(k) => {
                self.kits = k;
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
        self.warnings = r.warnings;
        self.rules = r.rules;
        let ids: Vec<String> = self
            .kits
            .iter()
            .map(|b| b.kit.id.clone())
            .chain(self.rules.iter().map(|p| p.ruleset.id.clone()))
            .collect();
        for id in ids {
            if !self.ids.contains(&id) {
                self.ids.push(id);
            }
        }
    }

    /// The rules the play-test page of `id` plays: the last save's when they can be played,
    /// else the last good kit's; and whether they are the last save's.
    fn rules_of(&self, id: &str) -> Option<(&Ruleset, bool)> {
        if let Some(p) = self.rules.iter().find(|p| p.ruleset.id == id) {
            return Some((&p.ruleset, true));
        }
        let b = self.kits.iter().find(|b| b.kit.id == id)?;
        Some((&b.ruleset, false))
    }

    /// The language of `rs`'s pages: `serve --lang`, else the ruleset's own `lang`.
    fn lang_of<'a>(&'a self, rs: &'a Ruleset) -> &'a str {
        self.lang.as_deref().unwrap_or(&rs.lang)
    }

    /// The language of the list of kits: `serve --lang`, else the language every ruleset
    /// served has, else English.
    fn index_lang(&self) -> &str {
        if let Some(l) = &self.lang {
            return l;
        }
        let mut langs = self
            .kits
            .iter()
            .map(|b| b.ruleset.lang.as_str())
            .chain(self.rules.iter().map(|p| p.ruleset.lang.as_str()));
        match langs.next() {
            Some(first) if langs.all(|l| l == first) => first,
            _ => "en",
        }
    }
}

/// The catalogue of `lang`, or the English one (the language was checked when the ruleset was
/// loaded, or by `serve --lang`; a catalogue that fails to load is a build defect).
fn phrases(lang: &str) -> Phrases {
    Phrases::load(lang)
        .or_else(|_| Phrases::load("en"))
        .unwrap_or_else(|e| panic!("the bundled English catalogue does not load: {e}"))
}

/// `rs` with its names in `lang` ([`Ruleset::in_lang`]), as the kit in that language prints
/// them; the ruleset as it is when it has no text in `lang` (its kit is then refused, and
/// the play-test page still plays it, with the names it has).
fn in_lang(rs: &Ruleset, lang: &str) -> Ruleset {
    rs.in_lang(lang).unwrap_or_else(|_| rs.clone())
}

/// The shared state plus a condition variable that wakes event streams on a rebuild.
#[derive(Debug, Default)]
pub struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    /// A new shared state holding the first build (generation 1); `lang` is `serve --lang`,
    /// the language of every page (`None`: each ruleset's own).
    pub fn new(first: Rebuild, lang: Option<String>) -> Arc<Shared> {
        let s = Arc::new(Shared::default());
        {
            let mut st = s.lock();
            st.generation = 1;
            st.lang = lang;
            st.record(first);
        }
        s
    }

    /// Records a rebuild: new kits, or a failure that keeps the last good kits; the warnings
    /// and playable rules are always the new ones.
    pub fn update(&self, rebuild: Rebuild) {
        let mut s = self.lock();
        s.record(rebuild);
        s.generation += 1;
        self.changed.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Binds `127.0.0.1:port` (0: a free port). Errors: the port is taken or not allowed.
pub fn bind(port: u16) -> std::io::Result<TcpListener> {
    TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
}

/// Serves forever on `listener`. Each connection gets a thread, at most [`MAX_CONNECTIONS`].
pub fn run(listener: TcpListener, shared: Arc<Shared>) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    let live = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        let Ok(stream) = conn else { continue };
        while live.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            std::thread::sleep(Duration::from_millis(20));
        }
        live.fetch_add(1, Ordering::SeqCst);
        let shared = shared.clone();
        let live2 = live.clone();
        std::thread::spawn(move || {
            let _ = handle(stream, addr, &shared);
            live2.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

/// A parsed request.
struct Request {
    method: String,
    /// The request line's protocol (`HTTP/1.1`).
    version: String,
    path: String,
    host: Option<String>,
    /// The `Content-Type` header's media type, lower case, without parameters.
    content_type: Option<String>,
    body: Vec<u8>,
}

/// Seconds a client has to send its whole request (head and body), however it trickles it: a
/// per-read timeout alone let 64 connections sending a header line a second hold every
/// connection for minutes (a break-it pass).
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(5);

/// A connection read against one deadline: each read waits at most until `until`, and reads
/// after it fail (`TimedOut`).
struct Deadline {
    s: TcpStream,
    until: Instant,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.s.set_read_timeout(Some(left))?;
        self.s.read(buf)
    }
}

/// Whether `v` has the form `HTTP/d.d` (a version this server does not speak is 505, not 400).
fn is_http_version(v: &str) -> bool {
    v.strip_prefix("HTTP/").is_some_and(|d| {
        let b = d.as_bytes();
        b.len() == 3 && b[0].is_ascii_digit() && b[1] == b'.' && b[2].is_ascii_digit()
    })
}

/// Whether `s` is a token (RFC 9110 §5.6.2): one or more of the characters a field name may
/// have, so no whitespace, colon or control character.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Reads one request within [`REQUEST_DEADLINE`]; `None` if it is malformed, over the limits
/// or late.
fn read_request(stream: &TcpStream) -> Option<Request> {
    const HEAD_LIMIT: u64 = 16 * 1024;
    const BODY_LIMIT: usize = 64 * 1024;
    let conn = Deadline {
        s: stream.try_clone().ok()?,
        until: Instant::now() + REQUEST_DEADLINE,
    };
    let mut r = BufReader::new(conn.take(HEAD_LIMIT));
    let mut line = String::new();
    r.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let version = parts.next()?.to_string();
    let mut host = None;
    let mut content_type = None;
    let mut len: Option<usize> = None;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            return None;
        }
        // A line that starts with a space or tab continues the field before it (obs-fold,
        // RFC 9112 §5.2: reject with 400 or unfold; `X: y` then ` Host: evil` was read as a
        // second field) or, right after the request line, hides one (§2.2): refused.
        if h.starts_with([' ', '\t']) {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        // A field name is a token, with nothing between it and the colon (RFC 9112 §5.1: a
        // server MUST answer 400; `Host : …` was read as some other field and answered 421).
        if !is_token(k) {
            return None;
        }
        let v = v.trim();
        if k.eq_ignore_ascii_case("host") {
            // Two Host headers make the request ambiguous (RFC 9112 §3.2: answer 400), and
            // a check of the first could be bypassed through the second.
            if host.is_some() {
                return None;
            }
            host = Some(v.to_string());
        } else if k.eq_ignore_ascii_case("content-length") {
            // Digits only (RFC 9110 §8.6): `+28` parsed as a number.
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // Two lengths that differ make the body's end ambiguous (RFC 9112 §6.3: answer
            // 400); one repeated is the same length.
            let n: usize = v.parse().ok()?;
            if len.is_some_and(|l| l != n) {
                return None;
            }
            len = Some(n);
        } else if k.eq_ignore_ascii_case("content-type") {
            content_type = v.split(';').next().map(|t| t.trim().to_ascii_lowercase());
        } else if k.eq_ignore_ascii_case("transfer-encoding") {
            // Only Content-Length bodies are read (a chunked body was read as empty).
            return None;
        }
    }
    let len = len.unwrap_or(0);
    if len > BODY_LIMIT {
        return None;
    }
    let mut body = vec![0; len];
    // Bytes the header reader already buffered come first.
    let buffered = r.buffer().len().min(len);
    body[..buffered].copy_from_slice(&r.buffer()[..buffered]);
    r.consume(buffered);
    r.into_inner()
        .into_inner()
        .read_exact(&mut body[buffered..])
        .ok()?;
    Some(Request {
        method,
        version,
        path,
        host,
        content_type,
        body,
    })
}

/// Where a response goes: the connection, and whether the request was `HEAD` (the headers a
/// `GET` would get, no body).
struct Out<'a> {
    s: &'a TcpStream,
    head_only: bool,
}

fn respond(o: &Out, status: &str, ctype: &str, body: &[u8]) -> std::io::Result<()> {
    respond_with(o, status, ctype, "", body)
}

/// [`respond`] with `extra` header lines (each ending `\r\n`).
fn respond_with(
    o: &Out,
    status: &str,
    ctype: &str,
    extra: &str,
    body: &[u8],
) -> std::io::Result<()> {
    let mut s = o.s;
    write!(
        s,
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    )?;
    if !o.head_only {
        s.write_all(body)?;
    }
    s.flush()
}

/// The request-target of a request line, in the forms RFC 9112 §3.2 gives it.
#[derive(Debug, PartialEq, Eq)]
enum Target<'a> {
    /// origin-form (`/kit/ID/?g=2`), or `*` (asterisk-form): the path and query.
    Origin(&'a str),
    /// absolute-form (`http://127.0.0.1:PORT/kit/ID/`, §3.2.2, which a server MUST accept):
    /// the authority when the scheme is `http` (`None` for another scheme: not a URI this
    /// server answers for), and the path and query (`/` when the path is empty).
    Absolute(Option<&'a str>, String),
    /// Any other form: authority-form (`CONNECT host:443`, §3.2.3), or none.
    Other,
}

/// Reads `target` ([`Target`]); `None` when it is an absolute-form with no authority or with
/// user information (`http://user@host/`, RFC 9110 §4.2.4: an error), which is 400.
fn target_form(target: &str) -> Option<Target<'_>> {
    if target.starts_with('/') || target == "*" {
        return Some(Target::Origin(target));
    }
    // scheme "://" (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-` and `.`).
    let Some((scheme, rest)) = target.split_once("://") else {
        return Some(Target::Other);
    };
    let mut chars = scheme.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return Some(Target::Other);
    }
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let path = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("/{path}")
    };
    let http = scheme.eq_ignore_ascii_case("http");
    Some(Target::Absolute(http.then_some(authority), path))
}

/// The methods this server takes somewhere, as an `Allow` header lists them: the answer to a
/// method it takes nowhere, or to a request for the server as a whole.
const SERVER_METHODS: &str = "GET, HEAD, POST";

/// Whether `host` names the address this server bound: `127.0.0.1:PORT` or `localhost:PORT`,
/// the name in any case (host names are case-insensitive, RFC 3986 §3.2.2).
pub fn host_allowed(host: Option<&str>, addr: SocketAddr) -> bool {
    let port = addr.port();
    host.is_some_and(|h| {
        h == format!("127.0.0.1:{port}") || h.eq_ignore_ascii_case(&format!("localhost:{port}"))
    })
}

fn handle(stream: TcpStream, addr: SocketAddr, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let plain = Out {
        s: &stream,
        head_only: false,
    };
    let began = Instant::now();
    let Some(req) = read_request(&stream) else {
        // Late (RFC 9110 §15.5.9: 408), or malformed.
        if began.elapsed() >= REQUEST_DEADLINE {
            return respond(
                &plain,
                "408 Request Timeout",
                "text/plain",
                b"the request took too long to arrive\n",
            );
        }
        return respond(&plain, "400 Bad Request", "text/plain", b"bad request\n");
    };
    // `HTTP/1.x` is answered as 1.1 (a higher minor version is compatible, RFC 9110 §2.5);
    // another major version is 505; anything else is not HTTP.
    let minor = req.version.strip_prefix("HTTP/1.");
    if minor.is_some_and(|m| m.len() != 1 || !m.as_bytes()[0].is_ascii_digit())
        || (minor.is_none() && !is_http_version(&req.version))
    {
        return respond(&plain, "400 Bad Request", "text/plain", b"bad request\n");
    }
    if minor.is_none() {
        return respond(
            &plain,
            "505 HTTP Version Not Supported",
            "text/plain",
            b"this server speaks HTTP/1.1\n",
        );
    }
    // HEAD is GET without the body (RFC 9110 §9.3.2).
    let head_only = req.method == "HEAD";
    let method = if head_only {
        "GET"
    } else {
        req.method.as_str()
    };
    let out = Out {
        s: &stream,
        head_only,
    };
    // An absolute-form target names the server itself, and its authority is checked as a Host
    // header is (RFC 9112 §3.2.2); it was answered 404. The Host header, which §3.2.2 lets a
    // server ignore then, must still name this server too: the guard against a page whose
    // name was rebound to 127.0.0.1 stays on the Host header whatever the target's form.
    let Some(target) = target_form(&req.path) else {
        return respond(&out, "400 Bad Request", "text/plain", b"bad request\n");
    };
    let (host, path) = match &target {
        Target::Origin(p) => (req.host.as_deref(), *p),
        Target::Absolute(authority, p) => (*authority, p.as_str()),
        Target::Other => (req.host.as_deref(), ""),
    };
    let header_ok = matches!(target, Target::Origin(_) | Target::Other)
        || host_allowed(req.host.as_deref(), addr);
    if !host_allowed(host, addr) || !header_ok {
        return respond(
            &out,
            "421 Misdirected Request",
            "text/plain",
            format!(
                "this server answers only to http://127.0.0.1:{}/\n",
                addr.port()
            )
            .as_bytes(),
        );
    }
    // Authority-form (`CONNECT evil.com:443`) names no resource here: a method this server
    // takes nowhere is 405 with the methods it takes (a tester's CONNECT got 404, while
    // README says other methods get 405); the methods it does take need a path (400).
    if target == Target::Other {
        if matches!(method, "GET" | "POST" | "OPTIONS") {
            return respond(&out, "400 Bad Request", "text/plain", b"bad request\n");
        }
        return respond_with(
            &out,
            "405 Method Not Allowed",
            "text/plain",
            &format!("Allow: {SERVER_METHODS}\r\n"),
            b"method not allowed\n",
        );
    }
    let path = path.split('?').next().unwrap_or("").to_string();
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let html = "text/html; charset=utf-8";
    match (method, segs.as_slice()) {
        ("GET", []) => respond(&out, "200 OK", html, index_page(shared).as_bytes()),
        ("GET", ["events"]) => events(&out, shared),
        ("GET", ["assets", "play.js"]) => respond(
            &out,
            "200 OK",
            "text/javascript; charset=utf-8",
            PLAY_JS.as_bytes(),
        ),
        ("GET", ["assets", "live.js"]) => respond(
            &out,
            "200 OK",
            "text/javascript; charset=utf-8",
            LIVE_JS.as_bytes(),
        ),
        ("GET", ["assets", "style.css"]) => respond(
            &out,
            "200 OK",
            "text/css; charset=utf-8",
            STYLE_CSS.as_bytes(),
        ),
        ("GET", ["kit", id]) => match sheets_page(shared, id) {
            Some(p) => respond(&out, "200 OK", html, p.as_bytes()),
            None => not_found(&out),
        },
        ("GET", ["kit", id, file]) => {
            let s = shared.lock();
            let f = s
                .kits
                .iter()
                .find(|b| b.kit.id == *id)
                .and_then(|b| b.kit.files.iter().find(|f| f.name == *file));
            match f {
                Some(f) => respond(&out, "200 OK", content_type(&f.name), &f.bytes),
                None => {
                    drop(s);
                    not_found(&out)
                }
            }
        }
        ("GET", ["play", id]) => match play_page(shared, id) {
            Some(p) => respond(&out, "200 OK", html, p.as_bytes()),
            None => not_found(&out),
        },
        ("GET", ["api", id, "info"]) => match info(shared, id) {
            Some(j) => respond(&out, "200 OK", "application/json", j.as_bytes()),
            None => not_found(&out),
        },
        // JSON only: a page of another site can send text/plain or a form to 127.0.0.1
        // without asking first, but not application/json (the browser asks, and is refused).
        ("POST", ["api", _, "play"]) if req.content_type.as_deref() != Some("application/json") => {
            respond(
                &out,
                "415 Unsupported Media Type",
                "text/plain",
                b"send the moves as JSON (Content-Type: application/json)\n",
            )
        }
        ("POST", ["api", id, "play"]) => {
            let (status, body) = play(shared, id, &req.body);
            respond(&out, status, "application/json", body.as_bytes())
        }
        // The server as a whole (`OPTIONS *`, RFC 9110 §9.3.7): it answers no OPTIONS, so 405
        // with every method it takes somewhere (a break-it pass got 404).
        _ if path == "*" => respond_with(
            &out,
            "405 Method Not Allowed",
            "text/plain",
            &format!("Allow: {SERVER_METHODS}\r\n"),
            b"method not allowed\n",
        ),
        // A path this server has, asked with a method it does not take there: 405 with the
        // methods it does take (RFC 9110 §15.5.6); any other path: 404.
        _ => match allowed(&segs) {
            Some(methods) => respond_with(
                &out,
                "405 Method Not Allowed",
                "text/plain",
                &format!("Allow: {methods}\r\n"),
                b"method not allowed\n",
            ),
            None => not_found(&out),
        },
    }
}

/// The methods a path of this server takes (`None`: no such path). Whether the kit or file
/// named exists is not asked: a method is allowed or not by the path's form.
fn allowed(segs: &[&str]) -> Option<&'static str> {
    match segs {
        [] | ["events"] | ["kit", _] | ["kit", _, _] | ["play", _] | ["api", _, "info"] => {
            Some("GET, HEAD")
        }
        ["assets", "play.js" | "live.js" | "style.css"] => Some("GET, HEAD"),
        ["api", _, "play"] => Some("POST"),
        _ => None,
    }
}

fn not_found(o: &Out) -> std::io::Result<()> {
    respond(o, "404 Not Found", "text/plain", b"not found\n")
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("svg") => "image/svg+xml",
        Some("pdf") => "application/pdf",
        Some("html") => "text/html; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

/// Server-sent events: `data: GENERATION` now and on every rebuild; a comment every 15 s keeps
/// the connection open. Ends within a second of the browser going away. At most
/// [`MAX_EVENT_STREAMS`] at once (503 beyond).
fn events(o: &Out, shared: &Shared) -> std::io::Result<()> {
    let mut s = o.s;
    let Some(_slot) = StreamSlot::take() else {
        return respond(
            o,
            "503 Service Unavailable",
            "text/plain",
            format!(
                "{MAX_EVENT_STREAMS} live-reload streams are open already: close a preview tab\n"
            )
            .as_bytes(),
        );
    };
    s.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n")?;
    if o.head_only {
        return s.flush();
    }
    // Once a second: a browser that went away (a read of nothing: the peer closed) gives its
    // place back at once, not at the next write.
    s.set_read_timeout(Some(Duration::from_millis(1)))?;
    let mut seen = 0;
    let mut quiet = 0;
    loop {
        let generation = {
            let st = shared.lock();
            let (st, _) = shared
                .changed
                .wait_timeout_while(st, Duration::from_secs(1), |st| st.generation == seen)
                .unwrap_or_else(|p| p.into_inner());
            st.generation
        };
        if matches!(s.peek(&mut [0u8; 1]), Ok(0)) {
            return Ok(());
        }
        if generation != seen {
            seen = generation;
            quiet = 0;
            write!(s, "data: {generation}\n\n")?;
        } else if quiet >= 15 {
            quiet = 0;
            s.write_all(b": keep-alive\n\n")?;
        } else {
            quiet += 1;
            continue;
        }
        s.flush()?;
    }
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The head of every page: an empty inline icon, so a browser does not ask for
/// `/favicon.ico` (not a file of this server: 404, a console error on every page).
fn head(title: &str, lang: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"/assets/style.css\">\n<script src=\"/assets/live.js\" defer></script>\n</head>\n<body>\n",
        esc(lang),
        esc(title)
    )
}

/// The message `key` of `ph`, escaped for HTML, with each `{name}` of `code` set as code
/// (`{check}`: `sowkit check`).
fn said(ph: &Phrases, key: &str, code: &[(&str, &str)]) -> String {
    let mut h = esc(&ph.get(key));
    for (name, c) in code {
        h = h.replace(&format!("{{{name}}}"), &format!("<code>{}</code>", esc(c)));
    }
    h
}

/// The located diagnostic of a failed rebuild and the warnings, headed in `ph`'s language
/// (the diagnostics themselves are `check`'s, in English).
fn error_banner(st: &State, ph: &Phrases) -> String {
    let mut h = match &st.error {
        None => String::new(),
        Some(e) => format!(
            "<section id=\"diagnostic\" class=\"error\"><h2>{}</h2>\n<pre>{}</pre></section>\n",
            said(ph, "serve.failed", &[("check", "check")]).replace(
                "{then}",
                &esc(&ph.get(if st.kits.is_empty() {
                    "serve.failed_none"
                } else {
                    "serve.failed_last"
                }))
            ),
            esc(e)
        ),
    };
    if !st.warnings.is_empty() {
        h.push_str(&format!(
            "<section id=\"warnings\" class=\"warning\"><h2>{}</h2>\n<pre>{}</pre></section>\n",
            // "the kit still builds" only when it did: after a failed save, plain "Warnings".
            esc(&ph.get(if st.error.is_some() {
                "serve.warnings_failed"
            } else {
                "serve.warnings"
            })),
            esc(&st.warnings.join("\n\n"))
        ));
    }
    h
}

fn index_page(shared: &Shared) -> String {
    let st = shared.lock();
    let lang = st.index_lang();
    let ph = phrases(lang);
    let mut h = head("sowkit serve", ph.lang());
    h.push_str("<h1>sowkit serve</h1>\n");
    h.push_str(&error_banner(&st, &ph));
    h.push_str(&format!(
        "<p>{}</p>\n<ul id=\"kits\">\n",
        esc(&ph.get("serve.intro"))
    ));
    let (sheets, play) = (esc(&ph.get("serve.sheets")), esc(&ph.get("serve.play")));
    // Each game by its name in the list's language (its name as it is without text in it).
    let name = |rs: &Ruleset| esc(&in_lang(rs, lang).name);
    for b in &st.kits {
        let id = esc(&b.kit.id);
        h.push_str(&format!(
            "<li><strong>{}</strong> — <a href=\"/kit/{id}/\">{sheets}</a> · <a href=\"/play/{id}\">{play}</a> · <a href=\"/kit/{id}/kit.pdf\">kit.pdf</a></li>\n",
            name(&b.ruleset)
        ));
    }
    // Rulesets with no kit yet whose rules can still be played (a worked example disagrees).
    for p in st
        .rules
        .iter()
        .filter(|p| !st.kits.iter().any(|b| b.kit.id == p.ruleset.id))
    {
        let id = esc(&p.ruleset.id);
        h.push_str(&format!(
            "<li><strong>{}</strong> — {} · <a href=\"/play/{id}\">{play}</a></li>\n",
            name(&p.ruleset),
            esc(&ph.get("serve.no_kit"))
        ));
    }
    h.push_str("</ul>\n</body>\n</html>\n");
    h
}

fn sheets_page(shared: &Shared, id: &str) -> Option<String> {
    let st = shared.lock();
    let b = st.kits.iter().find(|b| b.kit.id == id)?;
    let ph = phrases(st.lang_of(&b.ruleset));
    let name = in_lang(&b.ruleset, ph.lang()).name;
    let mut h = head(&ph.fmt("serve.sheets_title", &[("name", &name)]), ph.lang());
    h.push_str(&format!(
        "<nav><a href=\"/\">{2}</a> · <a href=\"/play/{0}\">{3}</a> · <a href=\"/kit/{0}/kit.pdf\">kit.pdf</a></nav>\n<h1>{1}</h1>\n",
        esc(id),
        esc(&name),
        esc(&ph.get("serve.all_kits")),
        esc(&ph.get("serve.play"))
    ));
    h.push_str(&error_banner(&st, &ph));
    h.push_str(&format!(
        "<p>{}</p>\n",
        said(&ph, "serve.sheets_intro", &[("pdf", "kit.pdf")])
    ));
    for f in b.kit.files.iter().filter(|f| f.name.ends_with(".svg")) {
        let n = esc(&f.name);
        h.push_str(&format!(
            "<figure><figcaption>{n}</figcaption><img class=\"sheet\" src=\"/kit/{}/{n}?g={}\" alt=\"{n}\"></figure>\n",
            esc(id),
            st.generation
        ));
    }
    h.push_str("</body>\n</html>\n");
    Some(h)
}

/// The play-test page of `id` in its language: each `{{table.key}}` of `play.html` is that
/// message of the catalogue, escaped (`{check}` in it set as code); `{{ID}}` the ruleset's
/// id, `{{LANG}}` the language code, and `{{WORDS}}` the `play` messages play.js fills in,
/// as JSON. `None`: no such ruleset.
fn play_page(shared: &Shared, id: &str) -> Option<String> {
    let st = shared.lock();
    let (rs, _) = st.rules_of(id)?;
    let ph = phrases(st.lang_of(rs));
    Some(fill_page(PLAY_HTML, id, &ph))
}

/// [`play_page`]'s filling of `template`.
fn fill_page(template: &str, id: &str, ph: &Phrases) -> String {
    let words: serde_json::Map<String, serde_json::Value> = ph
        .entries()
        .filter_map(|(k, v)| Some((k.strip_prefix("play.")?.to_string(), v.into())))
        .collect();
    // Inside <script>, `</` would end the element: every `<` is written as its JSON escape.
    let words = serde_json::Value::Object(words)
        .to_string()
        .replace('<', "\\u003c");
    let mut out = String::with_capacity(template.len() + words.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            rest = &rest[open..];
            break;
        };
        match &after[..close] {
            "ID" => out.push_str(&esc(id)),
            "LANG" => out.push_str(&esc(ph.lang())),
            "WORDS" => out.push_str(&words),
            key => out.push_str(&said(ph, key, &[("check", "sowkit check")])),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// `/api/ID/info`: the name of the ruleset played, the page's language, whether its rules are
/// the last save's, whether `check` refuses that save, the last rebuild's diagnostics, and the
/// worked examples' starts; names, titles and positions in the page's language.
fn info(shared: &Shared, id: &str) -> Option<String> {
    #[derive(Serialize)]
    struct Ex<'a> {
        title: &'a str,
        start: Option<&'a str>,
    }
    #[derive(Serialize)]
    struct Info<'a> {
        id: &'a str,
        name: &'a str,
        /// The page's language (a save that changes it reloads the page); `null` when
        /// nothing can be played.
        lang: Option<&'a str>,
        /// Some rules can be played: the last save's or the last good kit's. When not (a
        /// save whose rules cannot be played, and no kit built yet), the rest is empty but
        /// `problem`.
        playable: bool,
        /// The rules played are the last save's (else the last good kit's).
        saved: bool,
        /// The last rebuild failed its check (this ruleset's save, or another's: they are
        /// built together), so the kit was not rebuilt.
        refused: bool,
        /// The last rebuild's diagnostics, if it failed.
        problem: Option<&'a str>,
        /// A file was saved since the server started (else the rules and any problem are
        /// the first build's: nothing was saved or rebuilt yet).
        rebuilt: bool,
        /// The start of each other starting count the ruleset offers
        /// (`board.seeds_per_pit_options`): (seeds a pit, position).
        option_starts: Vec<(u16, String)>,
        /// What the page calls each of `option_starts`, in its language.
        option_titles: Vec<String>,
        examples: Vec<Ex<'a>>,
    }
    let st = shared.lock();
    let Some((rs, saved)) = st.rules_of(id) else {
        // A ruleset served before whose save cannot be played, with no good kit.
        if !st.ids.iter().any(|i| i == id) {
            return None;
        }
        let none = Info {
            id,
            name: id,
            lang: None,
            playable: false,
            saved: false,
            refused: true,
            problem: st.error.as_deref(),
            rebuilt: st.generation > 1,
            option_starts: Vec::new(),
            option_titles: Vec::new(),
            examples: Vec::new(),
        };
        return serde_json::to_string(&none).ok();
    };
    let ph = phrases(st.lang_of(rs));
    let rs = &in_lang(rs, ph.lang());
    // Refused: this ruleset's save, or the rebuild as a whole (the rulesets are built
    // together), failed its check.
    let refused = st.error.is_some() || st.rules.iter().any(|p| p.ruleset.id == id && p.refused);
    let option_starts: Vec<(u16, String)> = rs
        .board
        .seeds_per_pit_options
        .iter()
        .filter_map(|&o| {
            let mut other = rs.clone();
            other.board.seeds_per_pit = o;
            let rules = Rules::try_new(&other).ok()?;
            Some((
                o,
                crate::notation::format_position(&rules, &rules.initial()),
            ))
        })
        .collect();
    let info = Info {
        id,
        name: &rs.name,
        lang: Some(ph.lang()),
        playable: true,
        saved,
        refused,
        problem: st.error.as_deref(),
        rebuilt: st.generation > 1,
        option_titles: option_starts
            .iter()
            .map(|(n, _)| ph.count("play.start_option", u64::from(*n), &[]))
            .collect(),
        option_starts,
        examples: rs
            .examples
            .iter()
            .map(|e| Ex {
                title: &e.title,
                start: match &e.start {
                    crate::ruleset::Start::Initial => None,
                    crate::ruleset::Start::Position(p) => Some(p),
                },
            })
            .collect(),
    };
    serde_json::to_string(&info).ok()
}

/// The body of `POST /api/ID/play`.
#[derive(Deserialize)]
struct PlayRequest {
    /// Start position in notation form; `null` for the ruleset's start.
    #[serde(default)]
    from: Option<String>,
    /// Moves so far, notation form.
    #[serde(default)]
    moves: Vec<String>,
    /// A refusal is an expected answer, 200 with `{"error"}` rather than 422: the play-test
    /// page replaying its moves after a save that may make them illegal (a 422 would be a
    /// console error in the browser each time).
    #[serde(default)]
    refusal_ok: bool,
}

/// The answer of `POST /api/ID/play`: the replay (JSON shape version 1), the TOML of a
/// worked example of these moves (`null` before the first move), and in the page's language
/// what the last move did and how the game ended.
#[derive(Serialize)]
struct PlayResponse {
    replay: crate::replay::ReplayJson,
    example: Option<String>,
    /// What the last move did, a sentence each, told as the rule sheets tell a worked example
    /// ([`crate::layout::diagram::describe_parts`]) but for who moves next, the end and the
    /// score (in [`PlayResponse::result`]); empty before the first move.
    report: Vec<Said>,
    /// The end and the final score in one sentence, once the game is over.
    result: Option<String>,
}

/// One sentence of a move's report.
#[derive(Serialize)]
struct Said {
    /// What it tells: `sowed`, `relay`, `last`, `capture`, `no-capture`, `grand-slam`,
    /// `extra-turn`, `pass` or `sweep` (who moves next, the end and the score are the
    /// status and result lines').
    kind: &'static str,
    /// The sentence.
    text: String,
}

/// Plays `from` + `moves` (the request body's JSON) under `ruleset`'s rules with the engine,
/// in the ruleset's own language ([`play_json_in`]).
pub fn play_json(ruleset: &Ruleset, body: &[u8]) -> (&'static str, String) {
    play_json_in(ruleset, &ruleset.lang, body)
}

/// Plays `from` + `moves` (the request body's JSON) under `own`'s rules with the engine, with
/// the names and words of `lang`: the players, pits and stores as the kit in that language
/// prints them ([`Ruleset::in_lang`]; as they are when the ruleset has no text in it), and the
/// move's report and the result from its catalogue. The worked example is in the ruleset's
/// own names and language, ready to paste into its file. Returns the HTTP status and JSON body
/// (400 for a body that is not the JSON, 422 for a move or start the rules refuse, or 200
/// with only `{"error"}` when the request says `refusal_ok`).
pub fn play_json_in(own: &Ruleset, lang: &str, body: &[u8]) -> (&'static str, String) {
    let ph = phrases(lang);
    let local = in_lang(own, ph.lang());
    let ruleset = &local;
    let err = |status, msg: String| (status, serde_json::json!({ "error": msg }).to_string());
    let req: PlayRequest = match serde_json::from_slice(body) {
        Ok(r) => r,
        Err(e) => {
            return err(
                "400 Bad Request",
                format!("the request is not {{\"from\", \"moves\"}} JSON: {e}"),
            )
        }
    };
    if req.moves.len() > 10_000 {
        return err("400 Bad Request", "more than 10 000 moves".to_string());
    }
    // A start with the seeds of another starting count the ruleset offers plays under it.
    let refused = if req.refusal_ok {
        "200 OK"
    } else {
        "422 Unprocessable Entity"
    };
    let other = crate::replay::for_start(ruleset, req.from.as_deref());
    let ruleset = other.as_ref().unwrap_or(ruleset);
    let rules = match Rules::try_new(ruleset) {
        Ok(r) => r,
        Err(e) => return err(refused, e),
    };
    // A start with closed pits (x) is replayed on the board its next round shortens.
    let short = match crate::replay::board_for(&rules, req.from.as_deref()) {
        Ok(s) => s,
        Err(e) => return err(refused, e.message),
    };
    let rules = short.as_ref().unwrap_or(&rules);
    match crate::replay::run(rules, req.from.as_deref(), &req.moves) {
        Err(e) => err(refused, e.message),
        Ok(r) => {
            // A worked example starts with the ruleset's own seeds a pit, not an option's, and
            // is written in the file's names and language (the same moves replayed under
            // them), with an [example.text.<lang>] for each of its translations.
            let renamed = local.board.players != own.board.players
                || local.board.stores != own.board.stores
                || local.board.pit_labels != own.board.pit_labels;
            let moves: Vec<String> = req
                .moves
                .iter()
                .map(|m| own.own_notation(&local, m))
                .collect();
            let title = crate::replay::example_title(&own.lang, &moves);
            let example = if other.is_some() || r.plies.is_empty() {
                None
            } else if renamed {
                let from = req.from.as_deref().map(|f| own.own_notation(&local, f));
                example_of(own, from.as_deref(), &moves, &title)
            } else {
                r.example_toml(&title).ok()
            }
            .map(|t| t + &crate::replay::example_translations(own, &moves, None));
            let report = r.plies.last().map_or_else(Vec::new, |(_, rep, _)| {
                crate::layout::diagram::describe_parts(rules.ruleset(), rules, rep, &ph)
                    .into_iter()
                    // Who moves next is the page's status line, and the end and the score
                    // its result line.
                    .filter(|(kind, _)| !matches!(*kind, "next" | "end" | "scores"))
                    .map(|(kind, text)| Said { kind, text })
                    .collect()
            });
            let result = r.last_game().ending().map(|e| {
                let p = |i: u8| rules.player_name(i);
                let verdict = match e.scores[0].cmp(&e.scores[1]) {
                    std::cmp::Ordering::Greater => ph.fmt("play.wins", &[("player", p(0))]),
                    std::cmp::Ordering::Less => ph.fmt("play.wins", &[("player", p(1))]),
                    std::cmp::Ordering::Equal => ph.get("play.draw"),
                };
                ph.fmt(
                    "play.result",
                    &[
                        ("why", &crate::layout::diagram::end_words(e.reason, &ph)),
                        ("a", p(0)),
                        ("na", &e.scores[0].to_string()),
                        ("b", p(1)),
                        ("nb", &e.scores[1].to_string()),
                        ("verdict", &verdict),
                    ],
                )
            });
            let resp = PlayResponse {
                replay: r.json(),
                example,
                report,
                result,
            };
            match serde_json::to_string(&resp) {
                Ok(s) => ("200 OK", s),
                Err(e) => err("500 Internal Server Error", e.to_string()),
            }
        }
    }
}

/// The worked example of `moves` from `from` under `rs`'s rules, titled `title`; `None` when
/// they do not replay (they did under the same rules with other names: only a defect).
fn example_of(rs: &Ruleset, from: Option<&str>, moves: &[String], title: &str) -> Option<String> {
    let rules = Rules::try_new(rs).ok()?;
    let short = crate::replay::board_for(&rules, from).ok()?;
    let rules = short.as_ref().unwrap_or(&rules);
    crate::replay::run(rules, from, moves)
        .ok()?
        .example_toml(title)
        .ok()
}

fn play(shared: &Shared, id: &str, body: &[u8]) -> (&'static str, String) {
    // One replay at a time: each may list up to `replay::REPLAY_SOWN` sown holes (tens of MB
    // as JSON), and 64 connections at once would hold 64 of them.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let rules = {
        let st = shared.lock();
        st.rules_of(id)
            .map(|(rs, _)| (rs.clone(), st.lang_of(rs).to_string()))
    };
    match rules {
        Some((rs, lang)) => {
            let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
            play_json_in(&rs, &lang, body)
        }
        None => (
            "404 Not Found",
            serde_json::json!({ "error": format!("no kit {id:?}") }).to_string(),
        ),
    }
}

const PLAY_HTML: &str = include_str!("serve/play.html");
const PLAY_JS: &str = include_str!("serve/play.js");
const LIVE_JS: &str = include_str!("serve/live.js");
const STYLE_CSS: &str = include_str!("serve/style.css");

#[cfg(test)]
mod tests {
    use super::*;

    /// The request-target forms of RFC 9112 §3.2, each read as that section has it.
    #[test]
    fn target_forms() {
        assert_eq!(
            target_form("/kit/a/?g=1"),
            Some(Target::Origin("/kit/a/?g=1"))
        );
        assert_eq!(target_form("*"), Some(Target::Origin("*")));
        // absolute-form: the scheme in any case (RFC 3986 §3.1); an empty path is `/`.
        let abs = |a: &'static str, p: &str| Some(Target::Absolute(Some(a), p.to_string()));
        assert_eq!(
            target_form("http://127.0.0.1:80/x?y"),
            abs("127.0.0.1:80", "/x?y")
        );
        assert_eq!(target_form("HTTP://localhost:80"), abs("localhost:80", "/"));
        assert_eq!(
            target_form("http://localhost:80?q"),
            abs("localhost:80", "/?q")
        );
        // Another scheme is not this server's.
        assert_eq!(
            target_form("https://127.0.0.1:80/"),
            Some(Target::Absolute(None, "/".to_string()))
        );
        // No authority, or user information in it: malformed.
        assert_eq!(target_form("http:///x"), None);
        assert_eq!(target_form("http://"), None);
        assert_eq!(target_form("http://u@127.0.0.1:80/"), None);
        // authority-form, and what is no form.
        assert_eq!(target_form("evil.com:443"), Some(Target::Other));
        assert_eq!(target_form("kit"), Some(Target::Other));
        assert_eq!(target_form("1http://x/"), Some(Target::Other));
    }
}
