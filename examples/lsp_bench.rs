//! Times `idemlint lsp` as an editor feels it, for `bench/lsp.sh`: the time from a
//! `didChange` to the `publishDiagnostics` of that version (20 isolated edits, each after a
//! pause longer than the debounce), and the server's resident memory after the first edit and
//! after 1,000 (sent in bursts of ten, each burst waited for).
//!
//! `cargo run --release --example lsp_bench -- target/release/idemlint SPEC [EDITS] [MEMORY_EDITS]`

#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;

use std::path::Path;
use std::time::{Duration, Instant};

use lsp_client::{Client, file_uri, utf16_len};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(300);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let binary = Path::new(&args[1]).canonicalize().unwrap();
    let spec = Path::new(&args[2]).canonicalize().unwrap();
    let edits: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20);
    let memory_edits: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let dir = spec.parent().unwrap();
    let text = std::fs::read_to_string(&spec).unwrap();
    let uri = file_uri(&spec);
    let mut client = Client::start(&binary, dir, dir, json!({}));

    let start = Instant::now();
    client.open(&uri, &text);
    let first = client.next_publish(&uri, WAIT);
    let opened = start.elapsed();
    let findings = first["diagnostics"].as_array().map_or(0, Vec::len);

    // Each edit types or deletes one character in the API's title: the findings stay, and
    // every version is published.
    let title = text.find("title: ").expect("a title") + "title: ".len();
    let line = text[..title].matches('\n').count();
    let line_start = text[..title].rfind('\n').map_or(0, |i| i + 1);
    let character = utf16_len(&text[line_start..title]);
    let at = json!({"line": line, "character": character});
    let after = json!({"line": line, "character": character + 1});
    let mut version = 1;
    let mut edit = |client: &mut Client| {
        version += 1;
        let change = if version % 2 == 0 {
            json!({"range": {"start": at, "end": at}, "text": "x"})
        } else {
            json!({"range": {"start": at, "end": after}, "text": ""})
        };
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        );
        version
    };
    let wait_for = |client: &mut Client, v: i32| {
        client.publish_where(&uri, WAIT, |p: &Value| p["version"] == v);
    };

    let v = edit(&mut client);
    wait_for(&mut client, v);
    let rss_first = rss_kib(client.pid());

    let mut times = Vec::new();
    for _ in 0..edits {
        // A pause longer than the debounce: the edit is linted at once.
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        let v = edit(&mut client);
        wait_for(&mut client, v);
        times.push(start.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;

    let mut sent = 1 + edits;
    while sent < memory_edits {
        let mut last = 0;
        for _ in 0..10.min(memory_edits - sent) {
            last = edit(&mut client);
            sent += 1;
        }
        wait_for(&mut client, last);
    }
    let rss_last = rss_kib(client.pid());
    let name = spec.file_name().unwrap().to_string_lossy();
    println!(
        "{name}: open → first publish {:.0} ms ({findings} diagnostics)",
        ms(opened)
    );
    println!(
        "{name}: didChange → publishDiagnostics over {} edits: median {:.1} ms (min {:.1}, max {:.1})",
        times.len(),
        ms(times[times.len() / 2]),
        ms(times[0]),
        ms(times[times.len() - 1])
    );
    println!(
        "{name}: resident memory after the first edit {} MiB, after {sent} edits {} MiB ({:+.1}%)",
        rss_first / 1024,
        rss_last / 1024,
        (rss_last as f64 / rss_first as f64 - 1.0) * 100.0
    );
    let (status, stderr) = client.shutdown();
    assert_eq!(status, Some(0), "{stderr}");
}

/// The resident set of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
