//! Times the fingerprint: `cargo run --release -p slopguard-fingerprint --example fp_bench [DIR]`.
//!
//! Without DIR it builds a synthetic 5,000-file repository (Rust workspace, a web app with
//! package.json, a Python package with pyproject and requirements, a Go module, docs) in a temp
//! directory. Prints the cold time (walk + detect + manifest parsing), the cached time (walk +
//! cache hit) and the in-memory (no walk) time, as medians over runs.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use slopguard_fingerprint::{DiskSource, FileSource, MemorySource, compute_from, compute_uncached};

fn synth(root: &Path) -> std::io::Result<()> {
    let w = |p: &str, s: &str| -> std::io::Result<()> {
        let path = root.join(p);
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        std::fs::write(path, s)
    };
    w(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/*\"]\n[workspace.dependencies]\nserde = \"1\"\ntokio = \"1\"\n",
    )?;
    w(
        "web/package.json",
        r#"{"name":"web","dependencies":{"react":"18","react-dom":"18"},"devDependencies":{"vite":"5","typescript":"5"}}"#,
    )?;
    w(
        "py/pyproject.toml",
        "[project]\nname = \"app\"\ndependencies = [\"fastapi\", \"pydantic>=2\"]\n[project.optional-dependencies]\ndev = [\"pytest\"]\n",
    )?;
    w("py/requirements.txt", "requests\n-r requirements-dev.txt\n")?;
    w("py/requirements-dev.txt", "black\n")?;
    w(
        "svc/go.mod",
        "module example.com/svc\nrequire (\n\tgithub.com/gin-gonic/gin v1.9.1\n)\n",
    )?;
    w(".github/workflows/ci.yml", "on: push\n")?;
    w(".gitignore", "target/\n")?;
    let mut n = 8;
    for c in 0..20 {
        w(
            &format!("crates/c{c}/Cargo.toml"),
            &format!(
                "[package]\nname = \"c{c}\"\n[dependencies]\nserde.workspace = true\nclap = \"4\"\n"
            ),
        )?;
        n += 1;
        for f in 0..80 {
            w(&format!("crates/c{c}/src/m{f}.rs"), "pub fn f() {}\n")?;
            n += 1;
        }
    }
    for f in 0..1400 {
        w(
            &format!("web/src/components/d{}/C{f}.tsx", f % 40),
            "export const C = () => null;\n",
        )?;
        n += 1;
    }
    for f in 0..1000 {
        w(&format!("py/app/pkg{}/mod{f}.py", f % 25), "x = 1\n")?;
        n += 1;
    }
    for f in 0..500 {
        w(&format!("svc/internal/p{}/f{f}.go", f % 20), "package p\n")?;
        n += 1;
    }
    while n < 5000 {
        w(&format!("docs/page{n}.md"), "# page\n")?;
        n += 1;
    }
    Ok(())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let arg = std::env::args().nth(1).map(PathBuf::from);
    let tmp;
    let root = match arg {
        Some(p) => p,
        None => {
            tmp = std::env::temp_dir().join(format!("sg-fp-bench-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&tmp);
            if let Err(e) = synth(&tmp) {
                eprintln!("cannot build the synthetic repo: {e}");
                return;
            }
            tmp.clone()
        }
    };
    let runs = 15;
    let mut walk = Vec::new();
    let mut cold = Vec::new();
    let mut cached = Vec::new();
    let mut files = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let Ok(src) = DiskSource::new(&root) else {
            eprintln!("cannot read {}", root.display());
            return;
        };
        walk.push(t.elapsed());
        files = src.files().len();
        let t = Instant::now();
        let fp = compute_uncached(&src);
        cold.push(walk.last().copied().unwrap_or_default() + t.elapsed());
        std::hint::black_box(fp);
        let t = Instant::now();
        let src2 = DiskSource::new(&root).expect("walk");
        std::hint::black_box(compute_from(&src2));
        cached.push(t.elapsed());
    }
    // In memory: the same paths, manifests only with content (no walk, no disk reads).
    let src = DiskSource::new(&root).expect("walk");
    let mut mem = MemorySource::new();
    for p in src.files() {
        let bytes = if slopguard_fingerprint::is_manifest(&p) {
            src.read(&p).unwrap_or_default()
        } else {
            Vec::new()
        };
        mem.insert(p, bytes);
    }
    let mut inmem = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(compute_uncached(&mem));
        inmem.push(t.elapsed());
    }
    let fp = compute_uncached(&src);
    println!(
        "root: {} ({files} files, {} manifests)",
        root.display(),
        fp.manifest_files.len()
    );
    println!("walk only          median {:?}", median(walk));
    println!("cold (walk+fp)     median {:?}", median(cold));
    println!("cached (walk+hit)  median {:?}", median(cached));
    println!("in-memory, no walk median {:?}", median(inmem));
    println!(
        "languages: {:?}",
        fp.languages
            .iter()
            .map(|l| format!("{}={}", l.name, l.files))
            .collect::<Vec<_>>()
    );
    println!("frameworks: {:?}", fp.declared_frameworks);
}
