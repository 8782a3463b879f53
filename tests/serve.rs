//! `sowkit serve` and `sowkit watch` as processes: the server's safety rules and JSON API, and
//! watch rewriting only what changed. (The browser side is tools/e2e/play.mjs.)
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn sowkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sowkit"))
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sowkit-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A child process killed (by its own handle) when dropped.
struct Running(Child);
impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Lines of a child's pipe, read on a thread.
fn lines(r: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(r).lines() {
            let Ok(l) = l else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits (at most 120 s: a debug build lays out slowly) for a line containing `what`.
fn wait_for(rx: &mpsc::Receiver<String>, what: &str) -> String {
    loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(l) if l.contains(what) => return l,
            Ok(_) => {}
            Err(e) => panic!("no line with {what:?}: {e}"),
        }
    }
}

/// Sends `text` as it is (a request [`request`] cannot write) and returns the whole response.
fn raw_request(port: u16, text: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(text.as_bytes()).unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    resp
}

/// One raw HTTP/1.1 request; returns (status code, body).
fn request(port: u16, method: &str, path: &str, host: Option<&str>, body: &str) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\n");
    if let Some(h) = host {
        req.push_str(&format!("Host: {h}\r\n"));
    }
    if method == "POST" {
        req.push_str("Content-Type: application/json\r\n");
    }
    req.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let split = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&resp[..split]).into_owned();
    let code = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (code, resp[split + 4..].to_vec())
}

/// The port of serve's "serving http://127.0.0.1:PORT/" line.
fn port_of(line: &str) -> u16 {
    line.trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

fn start_server() -> (Running, u16) {
    let mut child = sowkit()
        .args(["serve", "--bundled", "six-pit-sowing"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = lines(child.stdout.take().unwrap());
    let running = Running(child);
    let line = wait_for(&out, "serving http://127.0.0.1:");
    let port = port_of(&line);
    (running, port)
}

#[test]
fn serve_is_loopback_only_checks_host_and_serves_only_the_kit() {
    let (_server, port) = start_server();
    let good = format!("127.0.0.1:{port}");
    assert_eq!(request(port, "GET", "/", Some(&good), "").0, 200);
    assert_eq!(
        request(port, "GET", "/", Some(&format!("localhost:{port}")), "").0,
        200
    );
    // DNS rebinding: a page from another name that resolves to 127.0.0.1 sends its own Host.
    for bad in [
        format!("attacker.example:{port}"),
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
    ] {
        assert_eq!(request(port, "GET", "/", Some(&bad), "").0, 421, "{bad}");
    }
    assert_eq!(request(port, "GET", "/", None, "").0, 421);
    // Host names are case-insensitive.
    assert_eq!(
        request(port, "GET", "/", Some(&format!("LocalHost:{port}")), "").0,
        200
    );
    // Two Host headers, the first one good: ambiguous, so refused (400), whatever the second.
    for second in [good.clone(), format!("attacker.example:{port}")] {
        let resp = raw_request(
            port,
            &format!(
                "GET / HTTP/1.1\r\nHost: {good}\r\nHost: {second}\r\nConnection: close\r\n\r\n"
            ),
        );
        assert!(resp.starts_with("HTTP/1.1 400"), "{second}: {resp}");
    }
    // Two Content-Length headers that differ: where the body ends is ambiguous, so refused
    // (400). The same length twice is one length: answered as usual.
    let two = |a: &str, b: &str| {
        raw_request(
            port,
            &format!(
                "GET / HTTP/1.1\r\nHost: {good}\r\nContent-Length: {a}\r\nContent-Length: {b}\r\nConnection: close\r\n\r\n"
            ),
        )
    };
    let resp = two("0", "5");
    assert!(resp.starts_with("HTTP/1.1 400"), "{resp}");
    let resp = two("0", "0");
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    // No request path reaches the file system.
    for p in [
        "/kit/six-pit-sowing/../../Cargo.toml",
        "/kit/six-pit-sowing/..%2f..%2fCargo.toml",
        "/kit/..%2fCargo.toml/x",
        "/assets/../Cargo.toml",
        "/Cargo.toml",
        "//etc/passwd",
    ] {
        assert_eq!(request(port, "GET", p, Some(&good), "").0, 404, "{p}");
    }
    assert_eq!(request(port, "DELETE", "/", Some(&good), "").0, 405);
    // The kit served is the kit `build` writes.
    let d = scratch("same-kit");
    let o = sowkit()
        .args(["build", "--bundled", "six-pit-sowing", "-o"])
        .arg(&d)
        .output()
        .unwrap();
    assert!(o.status.success());
    let built = d.join("six-pit-sowing");
    let names: Vec<String> = std::fs::read_dir(&built)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.len() > 5 && names.iter().any(|n| n == "kit.pdf"));
    for f in &names {
        let (code, body) = request(
            port,
            "GET",
            &format!("/kit/six-pit-sowing/{f}"),
            Some(&good),
            "",
        );
        assert_eq!(code, 200);
        assert_eq!(
            body,
            std::fs::read(d.join("six-pit-sowing").join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn play_api_answers_with_the_engine() {
    let (_server, port) = start_server();
    let host = format!("127.0.0.1:{port}");
    // Worked by hand (tests/loop.rs, MOVES): A1 A2 B1 → A 1 0 5 (2) / B 0 5 4 (1), A to move.
    let (code, body) = request(
        port,
        "POST",
        "/api/six-pit-sowing/play",
        Some(&host),
        r#"{"from": null, "moves": ["A1", "A2", "B1"]}"#,
    );
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let f = &v["replay"]["final"];
    assert_eq!(f["pits"], serde_json::json!([[1, 0, 5], [0, 5, 4]]));
    assert_eq!(f["stores"], serde_json::json!([2, 1]));
    assert_eq!(f["next"], "A");
    assert_eq!(f["legal"], serde_json::json!(["A1", "A3"]));
    let ex = v["example"].as_str().unwrap();
    assert!(
        ex.contains("position = \"A 1 0 5 (2) / B 0 5 4 (1)\"\n"),
        "{ex}"
    );
    // Titled by its moves (it was "Play-test"), with the title of the ruleset's Spanish
    // translation, so pasted in it neither warns nor stops `build --lang es`.
    assert!(ex.contains("title = \"Replay of A1 A2 B1\"\n"), "{ex}");
    assert!(
        ex.ends_with("[example.text.es]\ntitle = \"Jugadas A1 A2 B1\"\n"),
        "{ex}"
    );
    // An illegal move is refused with the engine's reason; nothing else changes.
    let (code, body) = request(
        port,
        "POST",
        "/api/six-pit-sowing/play",
        Some(&host),
        r#"{"moves": ["A1", "A1"]}"#,
    );
    assert_eq!(code, 422);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("move 2 \"A1\""),
        "{v}"
    );
    // The same, asked by the page replaying its moves after a save (a refusal expected): 200
    // with only the error, so the browser logs no failed request.
    let (code, body) = request(
        port,
        "POST",
        "/api/six-pit-sowing/play",
        Some(&host),
        r#"{"moves": ["A1", "A1"], "refusal_ok": true}"#,
    );
    assert_eq!(code, 200);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("move 2 \"A1\""),
        "{v}"
    );
    assert!(v.get("replay").is_none(), "{v}");
    assert_eq!(
        request(
            port,
            "POST",
            "/api/six-pit-sowing/play",
            Some(&host),
            "not json"
        )
        .0,
        400
    );
    assert_eq!(
        request(port, "POST", "/api/no-such-kit/play", Some(&host), "{}").0,
        404
    );
    // Only JSON is taken (another site's page can post text/plain or a form without a
    // preflight), and a chunked body, which is not read, is refused rather than read as empty.
    let raw = |extra: &str, body: &str| {
        raw_request(
            port,
            &format!("POST /api/six-pit-sowing/play HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n{body}"),
        )
    };
    let moves = r#"{"moves": ["A1"]}"#;
    for ct in ["text/plain", "application/x-www-form-urlencoded"] {
        let resp = raw(
            &format!("Content-Type: {ct}\r\nContent-Length: {}\r\n", moves.len()),
            moves,
        );
        assert!(resp.starts_with("HTTP/1.1 415"), "{ct}: {resp}");
    }
    let resp = raw(
        &format!(
            "Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n",
            moves.len()
        ),
        moves,
    );
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    let resp = raw(
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
        &format!("{:x}\r\n{moves}\r\n0\r\n\r\n", moves.len()),
    );
    assert!(resp.starts_with("HTTP/1.1 400"), "{resp}");
}

/// Every file of `dir` with its bytes and modification time.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
                std::fs::metadata(&p).unwrap().modified().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// `sowkit COMMAND ARGS` started in `dir`: its stdout and stderr lines, and the running
/// process (stopped when dropped).
fn spawn_in(
    command: &str,
    dir: &Path,
    args: &[&str],
) -> (mpsc::Receiver<String>, mpsc::Receiver<String>, Running) {
    let mut child = sowkit()
        .arg(command)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = lines(child.stdout.take().unwrap());
    let err = lines(child.stderr.take().unwrap());
    (out, err, Running(child))
}

/// `sowkit watch ARGS` started in `dir` (see [`spawn_in`]).
fn spawn_watch(
    dir: &Path,
    args: &[&str],
) -> (mpsc::Receiver<String>, mpsc::Receiver<String>, Running) {
    spawn_in("watch", dir, args)
}

#[test]
fn watch_rewrites_only_changed_files_and_keeps_the_kit_on_a_failing_check() {
    let d = scratch("watch");
    let file = d.join("six-pit-sowing.toml");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    std::fs::write(&file, &src).unwrap();
    let (out, err, _running) = spawn_watch(&d, &["six-pit-sowing.toml", "-o", "out"]);
    let first = wait_for(&out, "rebuilt 1 kit(s)");
    wait_for(&err, "watching 1 file(s)");
    let kit = d.join("out/six-pit-sowing");
    let before = tree(&kit);
    // The new kit's files are counted one by one (it read "1 file(s) written").
    assert!(
        first.contains(&format!(": {} file(s) written, 0 removed", before.len())),
        "{first}"
    );
    // Different modification times need a visible gap on coarse file systems.
    std::thread::sleep(Duration::from_millis(1100));

    // A new playing time: printed on some sheets, not on others.
    let edited = src.replacen(
        "duration = \"15–25 minutes\"",
        "duration = \"20 minutes\"",
        1,
    );
    assert_ne!(edited, src);
    std::fs::write(&file, &edited).unwrap();
    let rebuilt = wait_for(&out, "rebuilt 1 kit(s)");
    assert!(rebuilt.contains("file(s) written, 0 removed"), "{rebuilt}");
    // Each file is named with what was done to it (not `build --check`'s "would change").
    let first = wait_for(&out, "  ");
    assert!(
        first.starts_with("  rewrote ") && first.contains("six-pit-sowing"),
        "{first}"
    );
    let after = tree(&kit);
    assert_eq!(
        before.iter().map(|f| &f.0).collect::<Vec<_>>(),
        after.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let (mut same, mut changed) = (0, 0);
    for (b, a) in before.iter().zip(&after) {
        if b.1 == a.1 {
            assert_eq!(b.2, a.2, "{} has the same bytes but was rewritten", b.0);
            same += 1;
        } else {
            assert_ne!(b.2, a.2, "{}", b.0);
            changed += 1;
        }
    }
    assert!(changed > 0 && same > 0, "changed {changed}, same {same}");
    let o = sowkit()
        .args(["build", "--check", "-o", "out", "six-pit-sowing.toml"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "the watched kit is what build writes");

    // A failing check: the diagnostic names the line; the kit stays as it was.
    let broken = edited.replacen("seeds_per_pit = 3", "seeds_per_pit = \"three\"", 1);
    assert_ne!(broken, edited);
    std::fs::write(&file, &broken).unwrap();
    let line = broken
        .lines()
        .position(|l| l.starts_with("seeds_per_pit"))
        .unwrap()
        + 1;
    wait_for(&err, &format!("six-pit-sowing.toml:{line}:"));
    wait_for(&err, "left untouched");
    assert_eq!(tree(&kit), after);
}

/// `watch` of a folder follows the folder: a ruleset removed from it is dropped (it used to
/// stop every later rebuild with "cannot read the file"), one added is built, and a ruleset
/// given through a symbolic link is rebuilt when the file it leads to is saved (it never was).
#[test]
fn watch_follows_a_folder_and_symbolic_links() {
    let d = scratch("watch-folder");
    let rs = d.join("rs");
    std::fs::create_dir_all(&rs).unwrap();
    let six = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let kalah = std::fs::read_to_string(repo("rulesets/kalah-6x4.toml")).unwrap();
    std::fs::write(rs.join("a.toml"), &six).unwrap();
    std::fs::write(rs.join("b.toml"), &kalah).unwrap();
    let (out, err, running) = spawn_watch(&d, &["rs", "-o", "out"]);
    wait_for(&out, "rebuilt 2 kit(s)");
    wait_for(&err, "watching 2 file(s)");
    let name = |id: &str| {
        std::fs::read_to_string(d.join("out").join(id).join("manifest.txt"))
            .unwrap()
            .lines()
            .find(|l| l.starts_with("ruleset: "))
            .unwrap()
            .to_string()
    };
    // Removed: dropped, and the other ruleset's next save is built.
    std::fs::remove_file(rs.join("a.toml")).unwrap();
    wait_for(&out, "no longer building rs/a.toml");
    wait_for(&out, "rebuilt 1 kit(s)");
    std::fs::write(
        rs.join("b.toml"),
        kalah.replacen("name = \"", "name = \"Edited ", 1),
    )
    .unwrap();
    wait_for(&out, "rebuilt 1 kit(s)");
    assert!(
        name("kalah-6x4").contains("Edited "),
        "{}",
        name("kalah-6x4")
    );
    // Added: built.
    std::fs::write(rs.join("c.toml"), &six).unwrap();
    wait_for(&out, "added rs/c.toml");
    wait_for(&out, "rebuilt 2 kit(s)");
    // The folder renamed away and made again: the new one is watched (it never was).
    std::fs::rename(&rs, d.join("rs.old")).unwrap();
    std::fs::create_dir(&rs).unwrap();
    std::fs::write(
        rs.join("a.toml"),
        six.replacen("name = \"", "name = \"Again ", 1),
    )
    .unwrap();
    loop {
        wait_for(&out, "rebuilt 1 kit(s)");
        if name("six-pit-sowing").contains("Again ") {
            break;
        }
    }
    drop(running);

    // A ruleset given through a symbolic link: a save of its target is a save.
    #[cfg(unix)]
    {
        let t = d.join("t.toml");
        std::fs::write(&t, &six).unwrap();
        std::os::unix::fs::symlink("t.toml", d.join("link.toml")).unwrap();
        let (out, err, _running) = spawn_watch(&d, &["link.toml", "-o", "out2"]);
        wait_for(&out, "rebuilt 1 kit(s)");
        wait_for(&err, "watching 1 file(s)");
        std::fs::write(&t, six.replacen("name = \"", "name = \"Linked ", 1)).unwrap();
        wait_for(&out, "rebuilt 1 kit(s)");
        let m = std::fs::read_to_string(d.join("out2/six-pit-sowing/manifest.txt")).unwrap();
        assert!(m.contains("ruleset: Linked "), "{m}");
        // The link pointed elsewhere: rebuilt from the new target, and its saves are seen.
        let u = d.join("u.toml");
        std::fs::write(&u, six.replacen("name = \"", "name = \"Other ", 1)).unwrap();
        std::fs::remove_file(d.join("link.toml")).unwrap();
        std::os::unix::fs::symlink("u.toml", d.join("link.toml")).unwrap();
        wait_for(&out, "rebuilt 1 kit(s)");
        std::fs::write(&u, six.replacen("name = \"", "name = \"Other saved ", 1)).unwrap();
        let manifest =
            || std::fs::read_to_string(d.join("out2/six-pit-sowing/manifest.txt")).unwrap();
        while !manifest().contains("ruleset: Other saved ") {
            wait_for(&out, "rebuilt 1 kit(s)");
        }
    }
}

/// Live-reload streams hold their connections for as long as a page is open: past
/// `MAX_EVENT_STREAMS` of them a new one is refused (503) and the other routes still answer
/// (a break-it pass held 48 streams open and every other request timed out).
#[test]
fn event_streams_cannot_take_every_connection() {
    let (_server, port) = start_server();
    let host = format!("127.0.0.1:{port}");
    let open_stream = || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
        // The status line arrives at once (the stream then waits for rebuilds).
        let mut r = BufReader::new(s);
        let mut status = String::new();
        r.read_line(&mut status).unwrap();
        (r, status)
    };
    let mut held = Vec::new();
    for _ in 0..sowkit::serve::MAX_EVENT_STREAMS {
        let (r, status) = open_stream();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        held.push(r);
    }
    let (_, status) = open_stream();
    assert!(status.starts_with("HTTP/1.1 503"), "{status}");
    assert_eq!(request(port, "GET", "/", Some(&host), "").0, 200);
    // A stream closed frees its place.
    drop(held.pop());
    let mut again = None;
    for _ in 0..100 {
        let (r, status) = open_stream();
        if status.starts_with("HTTP/1.1 200") {
            again = Some(r);
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(again.is_some(), "a closed stream's place was not freed");
}

/// HEAD is GET without the body (RFC 9110 §9.3.2; it was 405), a 405 names the methods in
/// `Allow`, an unknown protocol version is 505 (HTTP/9.9 was answered 200), and a request head
/// trickled a line at a time is cut at the request deadline (a connection sending a header
/// line a second was held for minutes: 64 of them locked every other request out): 408.
#[test]
fn head_allow_versions_and_the_request_deadline() {
    let (_server, port) = start_server();
    let host = format!("127.0.0.1:{port}");
    let get = raw_request(port, &format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    let head = raw_request(port, &format!("HEAD / HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    let (get_head, get_body) = get.split_once("\r\n\r\n").unwrap();
    assert!(get_head.starts_with("HTTP/1.1 200 OK"), "{get_head}");
    assert!(!get_body.is_empty());
    // The same status and headers, Content-Length the GET body's, and nothing after them.
    assert_eq!(head, format!("{get_head}\r\n\r\n"));
    assert!(head.contains(&format!("Content-Length: {}\r\n", get_body.len())));
    let put = raw_request(port, &format!("PUT / HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    assert!(put.starts_with("HTTP/1.1 405 "), "{put}");
    assert!(put.contains("\r\nAllow: GET, HEAD\r\n"), "{put}");
    // Each path says its own methods: the play API takes POST only; an unknown path is 404
    // whatever the method.
    let get_play = raw_request(
        port,
        &format!("GET /api/six-pit-sowing/play HTTP/1.1\r\nHost: {host}\r\n\r\n"),
    );
    assert!(get_play.starts_with("HTTP/1.1 405 "), "{get_play}");
    assert!(get_play.contains("\r\nAllow: POST\r\n"), "{get_play}");
    let post_root = raw_request(
        port,
        &format!("POST / HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n"),
    );
    assert!(
        post_root.contains("\r\nAllow: GET, HEAD\r\n"),
        "{post_root}"
    );
    let nowhere = raw_request(
        port,
        &format!("PUT /nowhere HTTP/1.1\r\nHost: {host}\r\n\r\n"),
    );
    assert!(nowhere.starts_with("HTTP/1.1 404 "), "{nowhere}");
    // The server as a whole: every method it takes somewhere.
    let star = raw_request(port, &format!("OPTIONS * HTTP/1.1\r\nHost: {host}\r\n\r\n"));
    assert!(star.starts_with("HTTP/1.1 405 "), "{star}");
    assert!(star.contains("\r\nAllow: GET, HEAD, POST\r\n"), "{star}");
    let v = raw_request(port, &format!("GET / HTTP/9.9\r\nHost: {host}\r\n\r\n"));
    assert!(v.starts_with("HTTP/1.1 505 "), "{v}");
    // HTTP/1.2 is HTTP/1 (answered as 1.1); what is not a version at all is 400; a
    // Content-Length is digits only.
    let v = raw_request(port, &format!("GET / HTTP/1.2\r\nHost: {host}\r\n\r\n"));
    assert!(v.starts_with("HTTP/1.1 200 "), "{v}");
    for bad in ["FOO", "HTTP/1.1x", "HTTP/11"] {
        let v = raw_request(port, &format!("GET / {bad}\r\nHost: {host}\r\n\r\n"));
        assert!(v.starts_with("HTTP/1.1 400 "), "{bad}: {v}");
    }
    let v = raw_request(
        port,
        &format!("POST /api/six-pit-sowing/play HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: +2\r\n\r\n{{}}"),
    );
    assert!(v.starts_with("HTTP/1.1 400 "), "{v}");
    // A head that never ends, one line every 300 ms: answered 408 and closed once the
    // deadline passes, while the lines still come.
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let t = std::time::Instant::now();
    let mut sent = 0;
    while t.elapsed() < Duration::from_secs(60) {
        if s.write_all(b"X-A: b\r\n").is_err() {
            break;
        }
        sent += 1;
        s.set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut all = buf[..n].to_vec();
                s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                let _ = s.read_to_end(&mut all);
                let all = String::from_utf8_lossy(&all);
                assert!(all.starts_with("HTTP/1.1 408 "), "{all}");
                break;
            }
            Err(_) => {}
        }
    }
    let took = t.elapsed();
    assert!(
        took < Duration::from_secs(30),
        "still open after {took:?} ({sent} lines)"
    );
    assert!(
        took >= sowkit::serve::REQUEST_DEADLINE,
        "cut early: {took:?}"
    );
}

/// `watch DIR DIR/a.toml` names the same file twice: said so, as `build` says it (it said
/// the file and itself "both have id").
#[test]
fn watch_says_a_file_given_twice() {
    let d = scratch("watch-twice");
    std::fs::create_dir_all(d.join("w")).unwrap();
    std::fs::copy(repo("rulesets/six-pit-sowing.toml"), d.join("w/a.toml")).unwrap();
    let (_out, err, _running) = spawn_watch(&d, &["w", "w/a.toml", "-o", "out"]);
    let l = wait_for(&err, "w/a.toml");
    assert!(l.contains("w/a.toml is given twice"), "{l}");
}

/// `serve ARGS` started in `dir`: the port and the running process (stopped when dropped).
fn serve_in(dir: &Path, args: &[&str]) -> (Running, u16, mpsc::Receiver<String>) {
    let (out, err, running) = spawn_in("serve", dir, args);
    let line = wait_for(&out, "serving http://127.0.0.1:");
    let port = port_of(&line);
    (running, port, err)
}

/// While `check` refuses a save for its worked examples, the play-test page plays the rules
/// as saved (a designer mends the examples with it), the pages say there is no kit yet, and
/// the warnings `check` prints are on the pages and on stderr.
#[test]
fn serve_plays_the_saved_rules_while_check_refuses_them() {
    let d = scratch("refused");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    // Five seeds a pit: the examples (written for three) disagree, and the 40 mm pits are
    // below the play size for five seeds (a warning).
    let five = src.replacen("seeds_per_pit = 3", "seeds_per_pit = 5", 1);
    assert_ne!(five, src);
    std::fs::write(d.join("five.toml"), &five).unwrap();
    let (_server, port, err) = serve_in(&d, &["five.toml"]);
    wait_for(&err, "warning: layout.pit_diameter");
    let host = format!("127.0.0.1:{port}");
    let (code, body) = request(port, "GET", "/", Some(&host), "");
    let index = String::from_utf8_lossy(&body).into_owned();
    assert_eq!(code, 200);
    assert!(index.contains("no kit has built yet"), "{index}");
    assert!(index.contains("error: example[1]"), "{index}");
    assert!(index.contains("id=\"warnings\""), "{index}");
    assert!(index.contains("layout.pit_diameter"), "{index}");
    assert!(index.contains("href=\"/play/six-pit-sowing\""), "{index}");
    assert_eq!(
        request(port, "GET", "/play/six-pit-sowing", Some(&host), "").0,
        200
    );
    let (code, body) = request(port, "GET", "/api/six-pit-sowing/info", Some(&host), "");
    assert_eq!(code, 200);
    let info: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(info["saved"], true);
    assert_eq!(info["refused"], true);
    // The first build: the page says the file's check failed, not a rebuild's.
    assert_eq!(info["rebuilt"], false);
    assert!(info["problem"].as_str().unwrap().contains("example[1]"));
    // Worked by hand: A1's 5 seeds go to A2, A3, store A, B1, B2: A 0 6 6 (1) / B 6 6 5 (0),
    // B to move.
    let (code, body) = request(
        port,
        "POST",
        "/api/six-pit-sowing/play",
        Some(&host),
        r#"{"moves": ["A1"]}"#,
    );
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let f = &v["replay"]["final"];
    assert_eq!(f["pits"], serde_json::json!([[0, 6, 6], [6, 6, 5]]));
    assert_eq!(f["stores"], serde_json::json!([1, 0]));
    assert_eq!(f["next"], "B");
    // Mended: the kit builds, the diagnostic goes, the play-test page plays the same rules.
    std::fs::write(d.join("five.toml"), &src).unwrap();
    let mut index = String::new();
    for _ in 0..600 {
        index = String::from_utf8_lossy(&request(port, "GET", "/", Some(&host), "").1).into_owned();
        if !index.contains("id=\"diagnostic\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!index.contains("id=\"diagnostic\""), "{index}");
    assert!(!index.contains("id=\"warnings\""), "{index}");
    assert!(index.contains("href=\"/kit/six-pit-sowing/\""), "{index}");
    let (_, body) = request(port, "GET", "/api/six-pit-sowing/info", Some(&host), "");
    let info: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        (&info["saved"], &info["refused"], &info["rebuilt"]),
        (
            &serde_json::json!(true),
            &serde_json::json!(false),
            &serde_json::json!(true)
        )
    );
}

/// `watch` prints the warnings `check` prints, at every rebuild; the same warnings again are
/// only counted.
#[test]
fn watch_prints_warnings() {
    let d = scratch("watch-warnings");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    // 30 mm pits: below the play size for three seeds (a warning; the kit still builds).
    let small = src.replacen("pit_diameter = 40", "pit_diameter = 30", 1);
    assert_ne!(small, src);
    let file = d.join("six-pit-sowing.toml");
    std::fs::write(&file, &small).unwrap();
    let (out, err, _running) = spawn_watch(&d, &["six-pit-sowing.toml", "-o", "out"]);
    wait_for(&err, "warning: layout.pit_diameter: 30 mm pits");
    wait_for(&out, "rebuilt 1 kit(s)");
    wait_for(&err, "watching 1 file(s)");
    std::fs::write(
        &file,
        small.replacen(
            "duration = \"15–25 minutes\"",
            "duration = \"20 minutes\"",
            1,
        ),
    )
    .unwrap();
    wait_for(&err, "1 warning(s), as at the last rebuild");
    wait_for(&out, "rebuilt 1 kit(s)");
}

/// Two files with one id are said at once, even when one of them is refused for a worked
/// example (the play-test page played one and said nothing); the first one's rules are kept.
#[test]
fn two_files_with_one_id_are_said_even_when_one_is_refused() {
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let wrong = src.replacen("seeds_per_pit = 3", "seeds_per_pit = 5", 1);
    let r = sowkit::live::build_sources(
        &[("a.toml".into(), src.clone()), ("b.toml".into(), wrong)],
        None,
        None,
    );
    let e = r.kits.expect_err("two rulesets with one id");
    assert!(
        e.contains("a.toml and b.toml both have id \"six-pit-sowing\""),
        "{e}"
    );
    assert_eq!(r.rules.len(), 1);
    assert_eq!(r.rules[0].ruleset.board.seeds_per_pit, 3);
}

/// The play-test page is laid out for the device it is on (a phone laid it out 980 px wide and
/// shrank it), has an icon of its own (no /favicon.ico 404) and explains the marks on its
/// board. (The sizes themselves are measured in a
/// browser: tools/e2e/board.mjs.)
#[test]
fn play_page_has_a_viewport_an_icon_and_a_legend() {
    let (_server, port) = start_server();
    let host = format!("127.0.0.1:{port}");
    let (code, body) = request(port, "GET", "/play/six-pit-sowing", Some(&host), "");
    assert_eq!(code, 200);
    let page = String::from_utf8(body).unwrap();
    assert!(
        page.contains(r#"<meta name="viewport" content="width=device-width, initial-scale=1">"#),
        "{page}"
    );
    // An inline icon on every page, so no browser asks for /favicon.ico, which stays
    // unserved (only the server's own files).
    for p in ["/play/six-pit-sowing", "/", "/kit/six-pit-sowing/"] {
        let (code, body) = request(port, "GET", p, Some(&host), "");
        assert_eq!(code, 200, "{p}");
        assert!(
            String::from_utf8_lossy(&body).contains(r#"<link rel="icon" href="data:,">"#),
            "{p}"
        );
    }
    assert_eq!(request(port, "GET", "/favicon.ico", Some(&host), "").0, 404);
    // One legend item a mark: green ring, blue fill with its order, blue ring, dashed ring,
    // red fill.
    let legend = &page[page.find("class=\"legend\"").expect("a legend")..];
    let legend = &legend[..legend.find("</ul>").unwrap()];
    for (mark, says) in [
        ("swatch legal", "can be played"),
        ("swatch sown", "sown by the last move"),
        ("swatch last", "last seed fell here"),
        ("swatch from", "a handful was lifted here"),
        ("swatch captured", "captured"),
    ] {
        let item = legend
            .split("<li>")
            .find(|li| li.contains(mark))
            .unwrap_or_else(|| panic!("no legend item for {mark}: {legend}"));
        assert!(item.contains(says), "{item}");
    }
}

/// Lines of `rx` up to and including the first containing `what` (at most 120 s).
fn lines_until(rx: &mpsc::Receiver<String>, what: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(l) => {
                let done = l.contains(what);
                seen.push(l);
                if done {
                    return seen;
                }
            }
            Err(e) => panic!("no line with {what:?} after {seen:?}: {e}"),
        }
    }
}

/// `-q` (errors only, as `check -q`): `watch` and `serve` print no warning and no progress
/// line on stderr, but still every error; watch still lists what it wrote, and the server's
/// pages still show the warnings.
#[test]
fn quiet_watch_and_serve_print_errors_only() {
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    // 30 mm pits: a warning (the kit still builds); then a save check refuses.
    let small = src.replacen("pit_diameter = 40", "pit_diameter = 30", 1);
    let broken = small.replacen("pits_per_side = 3", "pits_per_side = \"three\"", 1);
    assert!(small != src && broken != small);

    let d = scratch("quiet-watch");
    let file = d.join("six-pit-sowing.toml");
    std::fs::write(&file, &small).unwrap();
    let (out, err, _watch) = spawn_in("watch", &d, &["-q", "six-pit-sowing.toml", "-o", "out"]);
    wait_for(&out, "rebuilt 1 kit(s)");
    std::fs::write(&file, &broken).unwrap();
    // Standard error is one stream: every line before the error is every line printed.
    let said = lines_until(&err, "error:");
    assert!(
        said.iter()
            .all(|l| !l.contains("warning") && !l.contains("watching")),
        "{said:#?}"
    );

    let d = scratch("quiet-serve");
    let file = d.join("six-pit-sowing.toml");
    std::fs::write(&file, &small).unwrap();
    let (_server, port, err) = serve_in(&d, &["-q", "six-pit-sowing.toml"]);
    let host = format!("127.0.0.1:{port}");
    let index = String::from_utf8(request(port, "GET", "/", Some(&host), "").1).unwrap();
    assert!(index.contains("layout.pit_diameter"), "{index}");
    // The server prints its address only once it follows saves: one save, made at once, is
    // seen (it used to start watching just after, and a save at once could be missed).
    std::fs::write(&file, &broken).unwrap();
    let said = lines_until(&err, "error:");
    assert!(
        said.iter()
            .all(|l| !l.contains("warning") && !l.contains("rebuilt")),
        "{said:#?}"
    );
}

/// The words of `s` (runs of letters, lower case), `{placeholders}` left out.
fn words_of(s: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// What a reader of a served page sees: its text without tags, and the messages play.js
/// fills in (the values of the `words` script; its keys are no text).
fn page_words(page: &str) -> Vec<String> {
    let (mut html, mut json) = (page.to_string(), String::new());
    if let (Some(a), Some(b)) = (page.find("<script id=\"words\""), page.find("</script>")) {
        let open = a + page[a..].find('>').unwrap() + 1;
        json = page[open..b].to_string();
        html = format!("{}{}", &page[..a], &page[b..]);
    }
    let text = crate::common::strip_tags(&html);
    // File names (`01-board.svg`, `kit.pdf`) are the same in every language.
    let text: Vec<&str> = text
        .split_whitespace()
        .filter(|t| !(t.ends_with(".svg") || t.ends_with(".pdf")))
        .collect();
    let mut w = words_of(&text.join(" "));
    if !json.is_empty() {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        for m in v.as_object().unwrap().values() {
            w.extend(words_of(m.as_str().unwrap()));
        }
    }
    w
}

/// The English words of the play-test page and the pages around the kit: every word of four
/// letters or more of the English catalogue's `play` and `serve` messages, and of the strings
/// the page had before it spoke other languages.
fn english_page_words() -> std::collections::BTreeSet<String> {
    let en = sowkit::layout::phrases::Phrases::load("en").unwrap();
    let mut set: std::collections::BTreeSet<String> = en
        .entries()
        .filter(|(k, _)| k.starts_with("play.") || k.starts_with("serve."))
        .flat_map(|(_, m)| words_of(m))
        .chain(
            [
                "Play-test",
                "New game",
                "Undo",
                "to move",
                "played",
                "sowed",
                "last seed in",
                "Relay sowing",
                "handfuls",
                "Grand slam",
                "moves again",
                "extra turn",
                "passes",
                "Sweep",
                "Game over",
                "wins",
                "a draw",
                "The game is over",
                "none yet",
            ]
            .iter()
            .flat_map(|s| words_of(s)),
        )
        .filter(|w| w.chars().count() >= 4)
        .collect();
    // Words that are the same in the Spanish page: the program and its command.
    for same in ["sowkit", "check"] {
        set.remove(same);
    }
    set
}

/// A served page or answer in `lang`: English words found in it.
fn english_in(page_or_text: &str) -> Vec<String> {
    let english = english_page_words();
    page_words(page_or_text)
        .into_iter()
        .filter(|w| english.contains(w))
        .collect()
}

fn post_play(port: u16, id: &str, body: &str) -> serde_json::Value {
    let host = format!("127.0.0.1:{port}");
    let (code, resp) = request(port, "POST", &format!("/api/{id}/play"), Some(&host), body);
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&resp));
    serde_json::from_slice(&resp).unwrap()
}

/// The report lines of a play answer: (kind, sentence).
fn report(v: &serde_json::Value) -> Vec<(String, String)> {
    v["report"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().unwrap().to_string(),
                s["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A Spanish ruleset (kalah-6x3: `lang = "es"`) gets a Spanish play-test page, index and
/// sheets page: its words, its `<html lang>`, the move report and the result from the Spanish
/// catalogue, with no word of the English page left.
#[test]
fn the_play_page_speaks_the_rulesets_language() {
    let (_server, port, _err) = serve_in(&scratch("es-page"), &["--bundled", "kalah-6x3"]);
    let host = format!("127.0.0.1:{port}");
    let get = |p: &str| {
        let (code, body) = request(port, "GET", p, Some(&host), "");
        assert_eq!(code, 200, "{p}");
        String::from_utf8(body).unwrap()
    };
    let page = get("/play/kalah-6x3");
    assert!(page.contains("<html lang=\"es\">"), "{page}");
    for es in [
        "<button id=\"restart\">Nueva partida</button>",
        "<button id=\"undo\">Deshacer</button>",
        "<button id=\"copy\">Copiar como ejemplo resuelto</button>",
        "aria-label=\"Qué significan las marcas del tablero\"",
        "se puede jugar",
        "aquí cayó la última semilla",
        "<code>sowkit check</code>",
        "\"to_move\":\"Le toca a {player}.\"",
    ] {
        assert!(page.contains(es), "{es} not in {page}");
    }
    // Every placeholder filled with a message there is.
    assert!(
        !page.contains("{{") && !page.contains("&lt;play."),
        "{page}"
    );
    let found = english_in(&page);
    assert!(found.is_empty(), "English on the Spanish page: {found:?}");
    // It speaks to the players with tú, as the Spanish sheets do.
    let usted = crate::lang::usted_forms(&page);
    assert!(usted.is_empty(), "usted on the Spanish page: {usted:?}");
    for p in ["/", "/kit/kalah-6x3/"] {
        let other = get(p);
        assert!(other.contains("<html lang=\"es\">"), "{p}: {other}");
        let found = english_in(&other);
        assert!(found.is_empty(), "{p}: English: {found:?}\n{other}");
        let usted = crate::lang::usted_forms(&other);
        assert!(usted.is_empty(), "{p}: usted: {usted:?}");
    }
    assert!(get("/").contains("partida de prueba</a>"));
    let info: serde_json::Value =
        serde_json::from_slice(&request(port, "GET", "/api/kalah-6x3/info", Some(&host), "").1)
            .unwrap();
    assert_eq!(info["lang"], "es");
    assert_eq!(info["name"], "Kalah (seis casas, tres semillas)");
    // Worked by hand (opposite pits S4/N3): S4's 3 seeds go to S5, S6 and Sur's store, an
    // extra turn; S1's 3 go to S2, S3 and the emptied S4, which takes itself and N3's 3.
    let v = post_play(port, "kalah-6x3", r#"{"moves": ["S4"]}"#);
    assert_eq!(
        report(&v),
        [
            ("sowed", "Sur vacía S4 (3 semillas) y siembra en sentido antihorario en S5, S6 y el almacén Sur."),
            ("last", "La última semilla cae en el almacén Sur."),
            ("extra-turn", "Es su propio almacén, así que Sur vuelve a jugar."),
        ]
        .map(|(k, t)| (k.to_string(), t.to_string()))
    );
    let v = post_play(port, "kalah-6x3", r#"{"moves": ["S4", "S1"]}"#);
    assert_eq!(
        report(&v),
        [
            (
                "sowed",
                "Sur vacía S1 (3 semillas) y siembra en sentido antihorario en S2, S3 y S4."
            ),
            ("last", "La última semilla cae en S4."),
            ("capture", "Sur captura 4 semillas: 3 de N3 y 1 de S4."),
        ]
        .map(|(k, t)| (k.to_string(), t.to_string()))
    );
    assert_eq!(v["result"], serde_json::Value::Null);
    assert!(v["example"]
        .as_str()
        .unwrap()
        .contains("title = \"Jugadas S4 S1\""));
    // The game's last move, worked by hand: S3's one seed falls in the empty S4 and takes
    // N3's 3 (Sur 15 + 4 = 19); Norte's row is empty, so the game ends and Sur's S5 (2)
    // goes to Sur: 21 to 15.
    let v = post_play(
        port,
        "kalah-6x3",
        r#"{"from": "Sur 0 0 1 0 2 0 (15) / Norte 0 0 3 0 0 0 (15); Sur", "moves": ["S3"]}"#,
    );
    assert_eq!(
        v["result"],
        "Fin de la partida (una fila está vacía): Sur 21, Norte 15; gana Sur."
    );
    let said: Vec<(String, String)> = report(&v);
    assert!(
        said.contains(&(
            "sweep".to_string(),
            "Las semillas que quedan en las casas son para sus dueños (Sur 2, Norte 0)."
                .to_string()
        )),
        "{said:?}"
    );
    let all: String = said.iter().map(|(_, t)| format!("{t} ")).collect();
    let found = english_in(&format!("<p>{all} {}</p>", v["result"].as_str().unwrap()));
    assert!(found.is_empty(), "English in the report: {found:?}");
}

/// `serve --lang en` on the Spanish ruleset: the pages and the report in English, with the
/// names of its `[text.en]` table (as `build --lang en` prints them); the worked example to
/// copy stays in the file's own names and language, so `check` takes it.
#[test]
fn serve_lang_en_gives_the_spanish_ruleset_an_english_page() {
    let (_server, port, _err) = serve_in(
        &scratch("en-page"),
        &["--bundled", "kalah-6x3", "--lang", "en"],
    );
    let host = format!("127.0.0.1:{port}");
    let (_, page) = request(port, "GET", "/play/kalah-6x3", Some(&host), "");
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains("<html lang=\"en\">"), "{page}");
    assert!(
        page.contains("<button id=\"restart\">New game</button>"),
        "{page}"
    );
    assert!(!page.contains("Nueva partida"), "{page}");
    let (_, index) = request(port, "GET", "/", Some(&host), "");
    let index = String::from_utf8(index).unwrap();
    assert!(index.contains("<html lang=\"en\">"), "{index}");
    assert!(index.contains("Kalah (six pits, three seeds)"), "{index}");
    let v = post_play(port, "kalah-6x3", r#"{"moves": ["S4"]}"#);
    assert_eq!(
        report(&v),
        [
            (
                "sowed",
                "South lifts 3 from S4 and sows counter-clockwise into S5, S6 and South store."
            ),
            ("last", "The last seed lands in South store."),
            (
                "extra-turn",
                "That is South's own store, so South moves again."
            ),
        ]
        .map(|(k, t)| (k.to_string(), t.to_string()))
    );
    assert_eq!(v["replay"]["final"]["next"], "South");
    let ex = v["example"].as_str().unwrap();
    assert!(
        ex.contains("next = \"Sur\"") && ex.contains("last = \"almacén Sur\""),
        "{ex}"
    );
    // The example passes `check` appended to the file.
    let d = scratch("en-page-check");
    let src = sowkit::bundled::ALL
        .iter()
        .find(|b| b.id == "kalah-6x3")
        .unwrap()
        .source;
    std::fs::write(d.join("k.toml"), format!("{src}\n{ex}")).unwrap();
    let o = sowkit()
        .args(["check", "k.toml"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The same option text and checks as `build --lang`.
    let o = sowkit()
        .args(["serve", "--bundled", "kalah-6x3", "--lang", "fr"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--lang fr: there is no message catalogue for \"fr\""),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The messages play.js fills in take `{name}` placeholders only (it has no plural rules);
/// the one with a plural is made on the server.
#[test]
fn the_play_pages_script_messages_have_no_selectors() {
    for lang in sowkit::layout::phrases::languages() {
        let ph = sowkit::layout::phrases::Phrases::load(lang).unwrap();
        for (k, m) in ph.entries().filter(|(k, _)| k.starts_with("play.")) {
            if k != "play.start_option" {
                assert!(!m.contains('|'), "{lang}: {k} = {m:?}");
            }
        }
    }
}

/// After a save that fails its check, the sheets page heads the warnings plainly: "Warnings
/// (the kit still builds)" stood under "showing the last good kit", though no kit was built
/// from that save. Six-pit sowing with 30 mm pits (a warning), then `kind = "opposit"`.
#[test]
fn warnings_after_a_failed_save_do_not_say_the_kit_builds() {
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    let small = src.replacen("pit_diameter = 40", "pit_diameter = 30", 1);
    let broken = small.replacen("kind = \"opposite\"", "kind = \"opposit\"", 1);
    assert!(small != src && broken != small);
    let d = scratch("warn-after-fail");
    let file = d.join("six-pit-sowing.toml");
    std::fs::write(&file, &small).unwrap();
    let (_server, port, _err) = serve_in(&d, &["six-pit-sowing.toml"]);
    let host = format!("127.0.0.1:{port}");
    let index = || String::from_utf8(request(port, "GET", "/", Some(&host), "").1).unwrap();
    let good = index();
    assert!(good.contains("Warnings (the kit still builds)"), "{good}");
    std::fs::write(&file, &broken).unwrap();
    let start = std::time::Instant::now();
    let failed = loop {
        let page = index();
        if page.contains("id=\"diagnostic\"") {
            break page;
        }
        assert!(start.elapsed().as_secs() < 20, "no diagnostic: {page}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(failed.contains("<h2>Warnings</h2>"), "{failed}");
    assert!(!failed.contains("the kit still builds"), "{failed}");
}

/// A designer mid-way through translating still play-tests the rules: with a key missing
/// from `[text.es]` (Oware abapa's `players`, line 62 of its table at line 58), or one
/// misspelt in an `[example.text.es]` (`titel`, line 82), `check` refuses the file, the
/// pages say where, and the game is listed with its play-test page, which plays the rules: in
/// the file's own language, and with `serve --lang es` in Spanish words with the names the
/// file gives (its Spanish ones are what is broken). Mended, the kit builds.
#[test]
fn serve_plays_the_rules_while_a_translation_is_broken() {
    let d = scratch("translation");
    let src = std::fs::read_to_string(repo("rulesets/oware-abapa.toml")).unwrap();
    let no_players = src.replacen("players = [\"Sur\", \"Norte\"]\n", "", 1);
    let titel = src.replacen("title = \"Catorce", "titel = \"Catorce", 1);
    assert!(no_players != src && titel != src);
    let cases = [
        (
            &no_players,
            &[][..],
            "en",
            "text.es.players: missing field `players`",
            "oware.toml:58:1",
        ),
        (
            &titel,
            &["--lang", "es"][..],
            "es",
            "example[1].text.es.titel: unknown field `titel`",
            "oware.toml:82:1",
        ),
    ];
    for (broken, extra, lang, error, place) in cases {
        std::fs::write(d.join("oware.toml"), broken).unwrap();
        let out = sowkit()
            .args(["check", "oware.toml"])
            .current_dir(&d)
            .output()
            .unwrap();
        assert!(!out.status.success(), "check must refuse it: {error}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(error) && said.contains(place), "{said}");
        let mut args = vec!["oware.toml"];
        args.extend_from_slice(extra);
        let (_server, port, _err) = serve_in(&d, &args);
        let host = format!("127.0.0.1:{port}");
        let (code, body) = request(port, "GET", "/", Some(&host), "");
        let index = String::from_utf8_lossy(&body).into_owned();
        assert_eq!(code, 200);
        assert!(index.contains("id=\"diagnostic\""), "{index}");
        assert!(index.contains(error) && index.contains(place), "{index}");
        assert!(index.contains("href=\"/play/oware-abapa\""), "{index}");
        let (code, body) = request(port, "GET", "/play/oware-abapa", Some(&host), "");
        let page = String::from_utf8_lossy(&body).into_owned();
        assert_eq!(code, 200, "{page}");
        assert!(page.contains(&format!("<html lang=\"{lang}\">")), "{page}");
        let (code, body) = request(port, "GET", "/api/oware-abapa/info", Some(&host), "");
        assert_eq!(code, 200);
        let info: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            (&info["saved"], &info["refused"]),
            (&true.into(), &true.into())
        );
        let problem = info["problem"].as_str().unwrap();
        assert!(
            problem.contains(error) && problem.contains(place),
            "{problem}"
        );
        // Worked by hand: S1's 4 seeds go to S2, S3, S4 and S5; North to move.
        let v = post_play(port, "oware-abapa", r#"{"moves": ["S1"]}"#);
        let f = &v["replay"]["final"];
        assert_eq!(
            f["pits"],
            serde_json::json!([[0, 5, 5, 5, 5, 4], [4, 4, 4, 4, 4, 4]])
        );
        assert_eq!(f["next"], "North");
        assert_eq!(
            v["replay"]["players"],
            serde_json::json!(["South", "North"])
        );
        assert!(v["example"].as_str().unwrap().contains("moves = [\"S1\"]"));
    }
    // Mended while serving: the kit builds and the error goes.
    let (_server, port, _err) = serve_in(&d, &["oware.toml"]);
    let host = format!("127.0.0.1:{port}");
    std::fs::write(d.join("oware.toml"), &src).unwrap();
    let mut index = String::new();
    for _ in 0..600 {
        index = String::from_utf8_lossy(&request(port, "GET", "/", Some(&host), "").1).into_owned();
        if !index.contains("id=\"diagnostic\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(index.contains("href=\"/kit/oware-abapa/\""), "{index}");
}

/// A play-test page opened while `check` refused the file (no kit yet) and left open through
/// a save whose rules cannot be played has nothing to play: its info says so, with the
/// located problem, rather than answering "not found" (the page showed the old diagnostic,
/// a script error, and `no kit "six-pit-sowing"` as the reason its moves no longer replay).
/// A ruleset never served is still not found.
#[test]
fn a_page_left_open_is_told_when_nothing_can_be_played() {
    let d = scratch("nothing");
    let src = std::fs::read_to_string(repo("rulesets/six-pit-sowing.toml")).unwrap();
    // Five seeds a pit: the worked examples disagree (no kit), the rules play.
    let five = src.replacen("seeds_per_pit = 3", "seeds_per_pit = 5", 1);
    std::fs::write(d.join("five.toml"), &five).unwrap();
    let (_server, port, _err) = serve_in(&d, &["five.toml"]);
    let host = format!("127.0.0.1:{port}");
    let info = |id: &str| {
        let (code, body) = request(port, "GET", &format!("/api/{id}/info"), Some(&host), "");
        (
            code,
            serde_json::from_slice::<serde_json::Value>(&body).ok(),
        )
    };
    let (code, first) = info("six-pit-sowing");
    assert_eq!(code, 200);
    assert_eq!(first.unwrap()["playable"], true);
    // Half-typed: the value of seeds_per_pit not written yet.
    let half = five.replacen("seeds_per_pit = 5", "seeds_per_pit = ", 1);
    let line = half
        .lines()
        .position(|l| l.starts_with("seeds_per_pit"))
        .unwrap()
        + 1;
    std::fs::write(d.join("five.toml"), &half).unwrap();
    let mut now = serde_json::Value::Null;
    for _ in 0..600 {
        let (code, v) = info("six-pit-sowing");
        assert_eq!(code, 200, "a ruleset served before is not \"not found\"");
        now = v.unwrap();
        if now["playable"] == false {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(now["playable"], false, "{now}");
    assert_eq!(now["lang"], serde_json::Value::Null, "{now}");
    assert_eq!(now["examples"], serde_json::json!([]), "{now}");
    let problem = now["problem"].as_str().unwrap();
    assert!(
        problem.contains(&format!("five.toml:{line}:")) && problem.contains("seeds_per_pit"),
        "{problem}"
    );
    assert_eq!(info("no-such-game").0, 404);
}

/// The request head's syntax as RFC 9112 has a server read it (a tester's pass): whitespace
/// between a field name and its colon is 400 (§5.1: "MUST reject … with a response status
/// code of 400"; `Host : …` was answered 421), and so is a line folded onto the one before it
/// (obs-fold, §5.2: reject with 400 or unfold; a folded ` Host: evil.com` was taken silently)
/// or a line starting with whitespace right after the request line (§2.2).
#[test]
fn request_head_syntax_follows_rfc_9112() {
    let (_server, port) = start_server();
    let host = format!("127.0.0.1:{port}");
    let status = |text: &str| {
        let resp = raw_request(port, text);
        resp.split_whitespace().nth(1).unwrap_or("").to_string()
    };
    // The same request with the fields written as they should be is answered.
    assert_eq!(
        status(&format!(
            "GET / HTTP/1.1\r\nHost: {host}\r\nX: y\r\nConnection: close\r\n\r\n"
        )),
        "200"
    );
    for name in ["Host ", "Host\t", "Host  "] {
        let text = format!("GET / HTTP/1.1\r\n{name}: {host}\r\nConnection: close\r\n\r\n");
        assert_eq!(status(&text), "400", "{text:?}");
    }
    // Whitespace before the colon of another field is refused as well, with Host good.
    let text = format!("GET / HTTP/1.1\r\nHost: {host}\r\nX-A : b\r\nConnection: close\r\n\r\n");
    assert_eq!(status(&text), "400", "{text:?}");
    for fold in [" ", "\t", "  \t"] {
        // Folded after a field, with the good Host before or after it.
        for text in [
            format!("GET / HTTP/1.1\r\nX: y\r\n{fold}Host: evil.com\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nX: y\r\n{fold}z\r\nConnection: close\r\n\r\n"),
            // Right after the request line.
            format!("GET / HTTP/1.1\r\n{fold}Host: evil.com\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        ] {
            assert_eq!(status(&text), "400", "{text:?}");
        }
    }
}

/// The request-target forms of RFC 9112 §3.2 (a tester's pass): the absolute form
/// (`GET http://127.0.0.1:PORT/ HTTP/1.1`), which a server MUST accept (§3.2.2), is answered as
/// its path is (it was 404), its authority checked as a Host header is (421 for another, 400
/// when it has none or has user information, RFC 9110 §4.2.4), and the Host header still
/// checked (§3.2.2 lets a server ignore it; this one keeps its DNS-rebinding guard there);
/// `CONNECT host:port` (authority-form, §3.2.3) is a method this server takes
/// nowhere: 405 with every method it takes (README: other methods 405 with `Allow`; it was 404).
#[test]
fn absolute_form_targets_and_connect() {
    let (_server, port) = start_server();
    let host = format!("127.0.0.1:{port}");
    // The whole response, a kit's PDF included (lossy: compared with another read so).
    let send = |method: &str, target: &str, host: &str| {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            s,
            "{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut resp = Vec::new();
        s.read_to_end(&mut resp).unwrap();
        String::from_utf8_lossy(&resp).into_owned()
    };
    let origin = send("GET", "/", &host);
    assert!(origin.starts_with("HTTP/1.1 200 "), "{origin}");
    // The same page, whichever allowed authority names it, in any case (RFC 3986 §3.1 and
    // §3.2.2), and with no path (an empty path is `/`, RFC 9110 §4.2.3).
    for target in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        format!("HTTP://LocalHost:{port}/"),
        format!("http://127.0.0.1:{port}"),
        format!("http://127.0.0.1:{port}?g=1"),
    ] {
        assert_eq!(send("GET", &target, &host), origin, "{target}");
    }
    // The Host header must name the server too: a rebound page's Host is refused whatever the
    // target's form (the guard stays on the Host header).
    let abs = format!("http://127.0.0.1:{port}/");
    let r = send("GET", &abs, &format!("attacker.example:{port}"));
    assert!(r.starts_with("HTTP/1.1 421 "), "{r}");
    // A kit file, HEAD, a path the server has not, and a method a path does not take: as in
    // origin form.
    for (method, path) in [
        ("GET", "/kit/six-pit-sowing/kit.pdf"),
        ("HEAD", "/kit/six-pit-sowing/"),
        ("GET", "/nowhere"),
        ("PUT", "/"),
        ("GET", "/api/six-pit-sowing/play"),
    ] {
        let want = send(method, path, &host);
        let got = send(method, &format!("http://localhost:{port}{path}"), &host);
        assert_eq!(got, want, "{method} {path}");
    }
    // Another authority, or a scheme this server does not answer for: 421, as a wrong Host.
    for target in [
        format!("http://attacker.example:{port}/"),
        format!("http://127.0.0.1:{}/", port.wrapping_add(1)),
        "http://127.0.0.1/".to_string(),
        format!("https://127.0.0.1:{port}/"),
    ] {
        let resp = send("GET", &target, &host);
        assert!(resp.starts_with("HTTP/1.1 421 "), "{target}: {resp}");
    }
    // No authority, or user information in it: 400.
    for target in [
        "http:///".to_string(),
        format!("http://me@127.0.0.1:{port}/"),
    ] {
        let resp = send("GET", &target, &host);
        assert!(resp.starts_with("HTTP/1.1 400 "), "{target}: {resp}");
    }
    // CONNECT, and any method this server takes nowhere, on an authority: 405 with the methods
    // it takes; GET, POST or OPTIONS need a path there (400).
    for (method, target) in [
        ("CONNECT", "evil.com:443".to_string()),
        ("CONNECT", host.clone()),
        ("PUT", "evil.com:443".to_string()),
    ] {
        let resp = send(method, &target, &host);
        assert!(
            resp.starts_with("HTTP/1.1 405 "),
            "{method} {target}: {resp}"
        );
        assert!(
            resp.contains("\r\nAllow: GET, HEAD, POST\r\n"),
            "{method} {target}: {resp}"
        );
    }
    for method in ["GET", "HEAD", "POST", "OPTIONS"] {
        let resp = send(method, "evil.com:443", &host);
        assert!(resp.starts_with("HTTP/1.1 400 "), "{method}: {resp}");
    }
    // A CONNECT is still asked of this server by its Host first.
    let resp = send("CONNECT", "evil.com:443", "evil.com:443");
    assert!(resp.starts_with("HTTP/1.1 421 "), "{resp}");
}
