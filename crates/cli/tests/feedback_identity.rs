//! One repository identity across the gateway, the CLI and the store: an item sent to
//! `slopguard serve`'s `POST /feedback` naming a clone by its path, a subdirectory of it or its
//! `origin` URL is the item `slopguard feedback show` and `list` find from that clone.
#![allow(
    clippy::unwrap_used,
    reason = "a test fails loudly on what it did not expect"
)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A running `slopguard serve` over one SQLite store, killed when dropped.
struct Gateway {
    child: Child,
    addr: String,
}

impl Gateway {
    fn start(db: &str, root: &Path) -> Gateway {
        let mut child = Command::new(common::bin())
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db, "--root"])
            .arg(root)
            .current_dir(root)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("serve printed its address before exiting")
                .expect("stderr line");
            if let Some(rest) = line.split("listening on http://").nth(1) {
                break rest.split([' ', ',']).next().unwrap().to_string();
            }
        };
        Gateway { child, addr }
    }

    /// `POST /feedback` with `body`; the new item's id.
    fn post_feedback(&self, body: &Value) -> i64 {
        let body = body.to_string();
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        write!(
            stream,
            "POST /feedback HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        let json: Value = serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap())
            .unwrap_or_else(|e| panic!("{e}: {response}"));
        json["id"].as_i64().expect("an id")
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `slopguard feedback show ID --repo REPO --db DB --format json`: exit code and JSON.
fn show(repo: &Path, db: &str, id: i64) -> (i32, Value) {
    let out = common::slopguard(
        repo,
        &[
            "feedback",
            "show",
            &id.to_string(),
            "--repo",
            repo.to_str().unwrap(),
            "--db",
            db,
            "--format",
            "json",
        ],
    );
    let code = out.status.code().unwrap_or(-1);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (code, json)
}

#[test]
fn a_clones_path_and_its_origin_url_are_one_repository_for_the_gateway_and_the_cli() {
    let repo = common::Repo::new();
    repo.write("src/app.py", "x = 1\n");
    repo.commit("init");
    repo.git(&[
        "remote",
        "add",
        "origin",
        "https://example.invalid/o/app.git",
    ]);
    let store = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", store.path().join("s.db").display());
    let gw = Gateway::start(&db, repo.path());

    let by_path = gw.post_feedback(&json!({"repo": repo.path(), "text": "by path"}));
    let by_subdir = gw.post_feedback(&json!({"repo": "src", "text": "by a subdirectory"}));
    let by_url =
        gw.post_feedback(&json!({"repo": "https://example.invalid/o/app.git", "text": "by url"}));

    for (id, text) in [
        (by_path, "by path"),
        (by_subdir, "by a subdirectory"),
        (by_url, "by url"),
    ] {
        let (code, item) = show(repo.path(), &db, id);
        assert_eq!(code, 0, "item {id} ({text}) is not the clone's: {item}");
        assert_eq!(item["item"]["body"]["text"], text);
    }
    let out = common::slopguard(
        store.path(),
        &[
            "feedback",
            "list",
            "-C",
            repo.path().join("src").to_str().unwrap(),
            "--db",
            &db,
            "--format",
            "json",
        ],
    );
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut texts: Vec<&str> = listed
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|i| i["body"]["text"].as_str())
        .collect();
    texts.sort_unstable();
    assert_eq!(
        texts,
        ["by a subdirectory", "by path", "by url"],
        "{listed}"
    );
}

#[test]
fn without_an_origin_a_subdirectory_names_the_work_trees_top_and_another_repository_stays_apart() {
    let repo = common::Repo::new();
    repo.write("pkg/mod.py", "y = 2\n");
    repo.commit("init");
    let other = common::Repo::new();
    let store = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", store.path().join("s.db").display());
    let gw = Gateway::start(&db, repo.path());

    let id = gw.post_feedback(&json!({"repo": repo.path().join("pkg"), "text": "in pkg"}));
    let (code, item) = show(repo.path(), &db, id);
    assert_eq!(code, 0, "{item}");
    assert_eq!(item["item"]["body"]["text"], "in pkg");
    let (code, _) = show(other.path(), &db, id);
    assert_eq!(code, 2, "another repository must not see the item");
}
