//! The layout rules of CONTRIBUTING.md, checked on the source tree: stages
//! import only the stages above them, files stay readable in one sitting,
//! and the files of one folder do not import each other in a ring.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The stages in CONTRIBUTING's order; each may use those before it.
const STAGES: [&str; 11] = [
    "error", "output", "stats", "numfmt", "model", "ingest", "analysis", "checks", "report",
    "pipeline", "cli",
];

/// Largest file, tests included, and largest command file.
const MAX_LINES: usize = 800;
const MAX_CLI_LINES: usize = 300;

struct File {
    path: PathBuf,
    /// Module path (`["ingest", "shared", "text"]`; a folder's `mod.rs` is
    /// the folder's path).
    module: Vec<String>,
    /// The text without comments, in which paths are looked for.
    code: String,
}

fn sources() -> Vec<File> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    paths.sort();
    let comment = Regex::new(r"//[^\n]*").unwrap();
    paths
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut module: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = comment.replace_all(&text, "").into_owned();
            File { path, module, code }
        })
        .collect()
}

fn is_folder_root(f: &File) -> bool {
    matches!(
        f.path.file_name().and_then(|n| n.to_str()),
        Some("mod.rs" | "lib.rs" | "main.rs")
    )
}

/// Paths of a `use` tree: `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<Vec<String>> {
    fn go(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let mut depth = 0;
        let mut part = String::new();
        let mut parts = Vec::new();
        for ch in tree.chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if ch == ',' && depth == 0 {
                parts.push(std::mem::take(&mut part));
            } else {
                part.push(ch);
            }
        }
        parts.push(part);
        for p in parts {
            // `x as y` names x: the alias goes before the spaces do.
            let p = match p.trim().rsplit_once(" as ") {
                Some((name, _)) if !name.contains('{') => name.to_string(),
                _ => p,
            };
            let p: String = p.chars().filter(|c| !c.is_whitespace()).collect();
            if p.is_empty() {
                continue;
            }
            if let Some(i) = p.find('{') {
                let mut pre = prefix.to_vec();
                pre.extend(
                    p[..i]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(String::from),
                );
                go(&pre, &p[i + 1..p.len() - 1], out);
            } else {
                let mut full = prefix.to_vec();
                full.extend(p.split("::").filter(|s| !s.is_empty()).map(String::from));
                out.push(full);
            }
        }
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// The module path a path written in `file` starts from, or None for a
/// path into another crate.
fn absolute(file: &File, path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut base = file.module.clone();
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => {
            base.extend(path[1..].iter().cloned());
            Some(base)
        }
        "super" => {
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            Some(base)
        }
        _ => {
            let mut child = base.clone();
            child.push(first.clone());
            modules.contains(&child).then(|| {
                base.extend(path.iter().cloned());
                base
            })
        }
    }
}

/// Every module each file refers to, re-exports followed to the file that
/// defines the item.
fn edges(files: &[File]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let use_re = Regex::new(r"(?s)\buse\s+([^;]+);").unwrap();
    let pub_use = Regex::new(r"(?s)pub(?:\([a-z ]+\))?\s+use\s+([^;]+);").unwrap();
    let bare = Regex::new(
        r"(?:^|[^:\w])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+)",
    )
    .unwrap();
    let mut reexports: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| is_folder_root(f)) {
        for c in pub_use.captures_iter(&f.code) {
            for p in expand(&c[1]) {
                if let Some(a) = absolute(f, &p, &modules) {
                    if let Some(last) = a.last() {
                        reexports.insert((f.module.clone(), last.clone()), a.clone());
                    }
                }
            }
        }
    }
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let k = (1..=path.len())
                .rev()
                .find(|&k| modules.contains(&path[..k]))?;
            let module = path[..k].to_vec();
            match path
                .get(k)
                .and_then(|item| reexports.get(&(module.clone(), item.clone())))
            {
                Some(target) if *target != path => path = target.clone(),
                _ => return Some(module),
            }
        }
        None
    };
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in files {
        // `use super::*` in a test module means the file itself.
        let code = f.code.replace("use super::*;", "");
        let mut paths = Vec::new();
        for c in use_re.captures_iter(&code) {
            paths.extend(expand(&c[1]));
        }
        let body = use_re.replace_all(&code, "");
        for c in bare.captures_iter(&body) {
            paths.push(c[1].split("::").map(String::from).collect());
        }
        let set = out.entry(f.module.clone()).or_default();
        for p in paths {
            if let Some(m) = absolute(f, &p, &modules).and_then(|a| resolve(&a)) {
                if m != f.module {
                    set.insert(m);
                }
            }
        }
    }
    out
}

#[test]
fn files_are_short_enough_to_read_in_one_sitting() {
    let mut long = Vec::new();
    for f in sources() {
        let n = std::fs::read_to_string(&f.path).unwrap().lines().count();
        let cli = f.module.first().map(String::as_str) == Some("cli");
        if n > MAX_LINES || (cli && n > MAX_CLI_LINES) {
            long.push(format!("{} ({n} lines)", f.path.display()));
        }
    }
    assert!(long.is_empty(), "files over the limit: {long:?}");
}

#[test]
fn stages_import_only_the_stages_above_them() {
    let files = sources();
    let rank = |m: &str| STAGES.iter().position(|s| *s == m);
    let mut wrong = BTreeSet::new();
    for (from, tos) in edges(&files) {
        let Some(a) = from.first().and_then(|m| rank(m)) else {
            continue;
        };
        for to in tos {
            if let Some(b) = to.first().and_then(|m| rank(m)) {
                if b > a {
                    wrong.insert(format!("{} uses {}", from.join("::"), to.join("::")));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the stage order: {wrong:#?}"
    );
}

#[test]
fn analysis_and_report_never_read_inputs() {
    for f in sources() {
        let stage = f.module.first().map(String::as_str);
        if matches!(stage, Some("analysis" | "report")) {
            assert!(
                !f.code.contains("crate::ingest"),
                "{} imports crate::ingest",
                f.path.display()
            );
        }
    }
}

#[test]
fn no_ring_between_the_files_of_one_folder() {
    let files = sources();
    let edges = edges(&files);
    let folder_of = |m: &Vec<String>| m[..m.len().saturating_sub(1)].to_vec();
    // Files only: a folder's mod.rs is its face, used by its files and
    // declaring them.
    let leaf: BTreeSet<Vec<String>> = files
        .iter()
        .filter(|f| !is_folder_root(f))
        .map(|f| f.module.clone())
        .collect();
    let siblings = |m: &Vec<String>| -> Vec<Vec<String>> {
        edges
            .get(m)
            .into_iter()
            .flatten()
            .filter(|t| leaf.contains(*t) && folder_of(t) == folder_of(m))
            .cloned()
            .collect()
    };
    let mut rings = Vec::new();
    for start in &leaf {
        // A ring through `start`: a path from one of its siblings back to it.
        let mut seen = BTreeSet::new();
        let mut stack = siblings(start);
        while let Some(m) = stack.pop() {
            if &m == start {
                rings.push(start.join("::"));
                break;
            }
            if seen.insert(m.clone()) {
                stack.extend(siblings(&m));
            }
        }
    }
    assert!(rings.is_empty(), "files in a ring with siblings: {rings:?}");
}

#[test]
fn the_resolver_sees_a_ring_and_a_re_export() {
    // The rules are only as good as the resolver: it must follow a
    // re-export to the defining file and see a direct sibling path.
    let file = |module: &[&str], root: bool, code: &str| File {
        path: PathBuf::from(if root { "x/mod.rs" } else { "x/f.rs" }),
        module: module.iter().map(|s| s.to_string()).collect(),
        code: code.into(),
    };
    let files = vec![
        file(&["a"], true, "mod b; mod c; pub use b::Thing;"),
        file(&["a", "b"], false, "use super::c::helper;"),
        file(&["a", "c"], false, "use crate::a::Thing;"),
    ];
    let e = edges(&files);
    let b = vec!["a".to_string(), "b".to_string()];
    let c = vec!["a".to_string(), "c".to_string()];
    assert!(e[&b].contains(&c));
    assert!(e[&c].contains(&b), "re-export not followed: {:?}", e[&c]);
}
