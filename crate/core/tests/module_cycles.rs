//! No module cycles in `eoslab-core`: the `crate::…` and `super::…` paths of every
//! source file, outside its tests, make a graph between modules; the test fails on any cycle and names it.
//!
//! A node is a module two levels deep at most (`wire::batch`, `read::report`, `input`,
//! `model::txn`, `spec`): a folder module deeper than that (`read::report::{build, legacy}`,
//! `wire::compression::gzip`) is one unit with its children, which use each other through
//! `super::`. The flat re-exports of `lib.rs` (`crate::batch` = `crate::wire::batch`, …) are
//! resolved to the module they name. Test code (`tests.rs`, `#[cfg(test)] mod tests { … }`) is
//! left out: a test may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file: `wire/batch.rs` → [wire, batch], `read/mod.rs` → [read].
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The source without test code: from a `#[cfg(test)]` line on, every line up to the end of
/// the item that follows it (tracked by braces) is dropped.
fn without_tests(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    let mut depth: i64 = 0;
    let mut opened = false;
    for line in text.lines() {
        if !skipping && line.trim_start().starts_with("#[cfg(test)]") {
            skipping = true;
            depth = 0;
            opened = false;
            continue;
        }
        if skipping {
            for c in line.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            // `mod tests;` (a file) or a one-line item ends at its `;`.
            if (opened && depth <= 0) || (!opened && line.trim_end().ends_with(';')) {
                skipping = false;
            }
            continue;
        }
        // Comments (docs name modules in prose and links) are not uses.
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The first `max` segments of the path `s` starts with (`a::b::c(…` → `[a, b]` for 2).
fn segments(s: &str, max: usize) -> Vec<String> {
    let mut segs = Vec::new();
    let mut s = s;
    while segs.len() < max {
        let n = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
        if n == 0 {
            break;
        }
        segs.push(s[..n].to_string());
        if !s[n..].starts_with("::") {
            break;
        }
        s = &s[n + 2..];
    }
    segs
}

/// `crate::a::b::{c, d}` → the first two segments after `crate::` (`[a, b]`), for every
/// occurrence; a `{` group right after `crate::` gives each of its first segments.
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    crate_paths_to(code, 2)
}

/// [`crate_paths`] with up to `depth` segments after `crate::`.
fn crate_paths_to(code: &str, depth: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + 7..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `eoslab_crate::`
        }
        let ident = |s: &str| segments(s, depth);
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let segs = ident(item.trim());
                if !segs.is_empty() {
                    out.push(segs);
                }
            }
        } else {
            let segs = ident(rest);
            if !segs.is_empty() {
                out.push(segs);
            }
        }
    }
    out
}

/// `super::a::b` and `super::super::a` paths of a file in module `module`, made absolute
/// (`module` without its last segment, once per `super`), for every occurrence. A name its parent
/// module imported from its own parent (`use super::{txn, …}` in `txn_scenario/mod.rs`, so that
/// `super::txn::World` in `txn_scenario/run.rs` is `model::txn`) is followed through `imports`.
fn super_paths(code: &str, module: &[String], imports: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>) -> Vec<Vec<String>> {
    super_paths_to(code, module, imports, 3, false)
}

/// [`super_paths`] with up to `depth` segments after the `super::`s; with `glob`, a
/// `super::*` is a use of the parent module itself.
fn super_paths_to(code: &str, module: &[String], imports: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>, depth: usize, glob: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("super::") {
        let before = rest[..i].chars().last();
        rest = &rest[i..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            rest = &rest[7..];
            continue; // the tail of a longer path (`super::super::`: counted from its first)
        }
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            up += 1;
            rest = r;
        }
        if up > module.len() {
            continue;
        }
        let base: Vec<String> = module[..module.len() - up].to_vec();
        let mut names: Vec<Vec<String>> = Vec::new();
        let ident = |s: &str| segments(s, depth);
        if glob && rest.starts_with('*') {
            out.push(base.clone());
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                names.push(ident(item.trim()));
            }
        } else {
            names.push(ident(rest));
        }
        for segs in names.into_iter().filter(|s| !s.is_empty()) {
            let full = match imports.get(&base).and_then(|m| m.get(&segs[0])) {
                Some(target) => target.iter().cloned().chain(segs[1..].iter().cloned()).collect(),
                None => base.iter().cloned().chain(segs).collect(),
            };
            out.push(full);
        }
    }
    out
}

/// Per module, the modules it imports from its parent by name (`use super::{a, b};`,
/// `use super::a;`): name → module path.
fn parent_imports(files: &[PathBuf], modules: &BTreeSet<Vec<String>>) -> BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> {
    let mut out: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for f in files {
        let m = module_of(f);
        if m.is_empty() {
            continue;
        }
        let parent = &m[..m.len() - 1];
        let code = without_tests(&std::fs::read_to_string(f).unwrap());
        for line in code.lines().map(str::trim).filter(|l| l.starts_with("use super::") || l.starts_with("pub use super::") || l.starts_with("pub(crate) use super::")) {
            let body = line.split_once("use super::").unwrap().1.trim_end_matches(';');
            let items: Vec<&str> = match body.strip_prefix('{') {
                Some(g) => g.trim_end_matches('}').split(',').map(str::trim).collect(),
                None => vec![body],
            };
            for it in items {
                let name = it.split("::").next().unwrap_or("");
                let target: Vec<String> = parent.iter().cloned().chain([name.to_string()]).collect();
                if !name.is_empty() && !it.contains("::") && modules.contains(&target) {
                    out.entry(m.clone()).or_default().insert(name.to_string(), target);
                }
            }
        }
    }
    out
}

type Graph = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

/// The cycles of `edges`: every back edge of a depth-first search closes one.
fn find_cycles(edges: &Graph) -> Vec<Vec<Vec<String>>> {
    fn dfs(
        n: &Vec<String>,
        edges: &Graph,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
        cycles: &mut Vec<Vec<Vec<String>>>,
    ) {
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in edges.get(n).into_iter().flatten() {
            match state.get(m).copied().unwrap_or(0) {
                0 => dfs(m, edges, state, stack, cycles),
                1 => {
                    let i = stack.iter().position(|x| x == m).unwrap();
                    let mut c = stack[i..].to_vec();
                    c.push(m.clone());
                    cycles.push(c);
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
    }
    let mut state = BTreeMap::new();
    let mut cycles = Vec::new();
    for n in edges.keys() {
        if state.get(n).copied().unwrap_or(0) == 0 {
            dfs(n, edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    cycles
}

/// The graph between modules (two levels deep), with one `file uses crate::path` witness per edge.
fn module_graph() -> (Graph, BTreeMap<(Vec<String>, Vec<String>), String>) {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();

    let alias = lib_aliases(&modules);

    // A module path (after alias resolution), cut to the node it belongs to.
    let node = |p: &[String]| -> Vec<String> {
        let mut full = resolve(&alias, &modules, p);
        full.truncate(2);
        full
    };

    let imports = parent_imports(&files, &modules);
    let mut edges = Graph::new();
    let mut witness: BTreeMap<(Vec<String>, Vec<String>), String> = BTreeMap::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name == "lib.rs" {
            continue;
        }
        let module = module_of(f);
        let from = node(&module);
        let code = without_tests(&std::fs::read_to_string(f).unwrap());
        let crate_uses = crate_paths(&code).into_iter().map(|p| (p, "crate::"));
        let super_uses = super_paths(&code, &module, &imports).into_iter().map(|p| (p, "super:: → crate::"));
        for (p, how) in crate_uses.chain(super_uses) {
            let to = node(&p);
            if to.is_empty() || to == from || from.starts_with(&to) || to.starts_with(&from) {
                continue; // the crate root, itself, or its own parent/child (one unit)
            }
            witness.entry((from.clone(), to.clone())).or_insert_with(|| {
                format!("{} uses {how}{}", f.strip_prefix(src()).unwrap().display(), p.join("::"))
            });
            edges.entry(from.clone()).or_default().insert(to);
        }
    }
    assert!(edges.len() > 10, "too few modules with uses: {edges:?}");
    (edges, witness)
}

/// A module path with lib.rs's aliases resolved, cut to the longest prefix that is a module
/// (a path to an item ends at the module that holds it).
fn resolve(alias: &BTreeMap<String, Vec<String>>, modules: &BTreeSet<Vec<String>>, p: &[String]) -> Vec<String> {
    let mut full: Vec<String> = match alias.get(&p[0]) {
        Some(t) => t.iter().cloned().chain(p[1..].iter().cloned()).collect(),
        None => p.to_vec(),
    };
    while !full.is_empty() && !modules.contains(&full) {
        full.pop();
    }
    full
}

/// lib.rs's flat re-exports: `pub use wire::{batch, …}`, `pub use read::view;`, `pub use x as y;`:
/// name → the module it is, or the module that defines the item it is.
fn lib_aliases(modules: &BTreeSet<Vec<String>>) -> BTreeMap<String, Vec<String>> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut alias: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in lib.lines().filter(|l| l.starts_with("pub use ")) {
        let body = line.trim_start_matches("pub use ").trim_end_matches(';');
        if let Some((path, names)) = body.split_once("::{") {
            for n in names.trim_end_matches('}').split(',') {
                let n = n.trim();
                let target: Vec<String> = path.split("::").map(String::from).chain([n.to_string()]).collect();
                if modules.contains(&target) {
                    alias.insert(n.to_string(), target);
                } else if let Some(m) = alias.get(path).cloned().or_else(|| modules.contains(&vec![path.to_string()]).then(|| vec![path.to_string()])) {
                    // an item (`pub use decode::{decode_bytes, …}`): the module that defines it
                    alias.entry(n.to_string()).or_insert(m);
                }
            }
        } else {
            let (path, name) = match body.split_once(" as ") {
                Some((p, n)) => (p, n.to_string()),
                None => (body, body.rsplit("::").next().unwrap().to_string()),
            };
            let target: Vec<String> = path.split("::").map(String::from).collect();
            if modules.contains(&target) {
                alias.insert(name, target);
            } else if let Some((m, _)) = path.rsplit_once("::").filter(|(m, _)| modules.contains(&vec![m.to_string()])) {
                // an item (`pub use report::Report;`): the module that defines it
                alias.insert(name, vec![m.to_string()]);
            }
        }
    }
    assert!(
        alias.contains_key("batch") && alias.contains_key("decode") && alias.contains_key("decode_bytes") && alias.contains_key("Report"),
        "lib.rs re-exports not understood: {alias:?}"
    );
    alias
}

#[test]
fn no_cycles_between_modules() {
    let (edges, witness) = module_graph();
    let cycles = find_cycles(&edges);
    let shown: Vec<String> = cycles
        .iter()
        .map(|c| {
            let names: Vec<String> = c.iter().map(|m| m.join("::")).collect();
            let why: Vec<String> = c.windows(2).map(|w| witness[&(w[0].clone(), w[1].clone())].clone()).collect();
            format!("{}\n      {}", names.join(" -> "), why.join("\n      "))
        })
        .collect();
    assert!(shown.is_empty(), "module cycles in crate/core/src:\n  {}", shown.join("\n  "));
}

/// The checker itself: it reads uses outside tests, and finds a cycle when there is one.
#[test]
fn the_checker_sees_uses() {
    let code = without_tests("use crate::wire::batch::X;\nuse crate::{decode, view::Y};\n#[cfg(test)]\nmod tests {\n use crate::model::x;\n}\nfn f() { crate::read::report::build::decode(); }\n");
    let paths: Vec<String> = crate_paths(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["wire::batch", "decode", "view::Y", "read::report"]);
    // `super::` paths are made absolute from the file's module, through its parent's imports.
    let module: Vec<String> = ["m", "n", "k"].map(String::from).to_vec();
    let mut imports = BTreeMap::new();
    imports.insert(vec![String::from("m"), String::from("n")], BTreeMap::from([(String::from("a"), vec![String::from("m"), String::from("a")])]));
    let code = without_tests("use super::{a::X, b::C};\nfn f() { super::super::x::y(); }\n");
    let paths: Vec<String> = super_paths(&code, &module, &imports).iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["m::a::X", "m::n::b::C", "m::x::y"]);
    let m = |s: &str| vec![s.to_string()];
    let mut g = Graph::new();
    g.entry(m("a")).or_default().insert(m("b"));
    g.entry(m("b")).or_default().insert(m("c"));
    assert!(find_cycles(&g).is_empty());
    g.entry(m("c")).or_default().insert(m("a"));
    assert_eq!(find_cycles(&g), [vec![m("a"), m("b"), m("c"), m("a")]]);
}

/// The top-level modules follow the layering order that `lib.rs` states in its docs (the line
/// `Layering order, bottom up: a, b, …`, up to a `(` or `.`): each uses only modules before it (so no cycle
/// between them either), and the order names every top-level module.
#[test]
fn top_level_modules_follow_the_stated_layers() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let line = lib.lines().find_map(|l| l.strip_prefix("//! Layering order, bottom up:")).expect("lib.rs states its layering order");
    let line = line.split(['(', '.']).next().unwrap();
    let order: Vec<String> = line.trim().split(',').map(|s| s.trim().trim_matches('`').to_string()).collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let tops: BTreeSet<String> = files.iter().filter_map(|f| module_of(f).first().cloned()).collect();
    assert_eq!(order.iter().cloned().collect::<BTreeSet<_>>(), tops, "the stated order names each top-level module once: {order:?}");
    assert_eq!(order.len(), tops.len(), "{order:?}");
    let rank = |m: &str| order.iter().position(|x| x == m).unwrap();
    let (edges, witness) = module_graph();
    let mut wrong = Vec::new();
    let mut top_edges = Graph::new();
    for (from, tos) in &edges {
        for to in tos {
            if from[0] == to[0] {
                continue;
            }
            top_edges.entry(vec![from[0].clone()]).or_default().insert(vec![to[0].clone()]);
            if rank(&to[0]) > rank(&from[0]) {
                wrong.push(witness[&(from.clone(), to.clone())].clone());
            }
        }
    }
    let shown: Vec<String> = top_edges.iter().map(|(f, t)| format!("{} -> {:?}", f[0], t.iter().map(|m| &m[0]).collect::<Vec<_>>())).collect();
    assert!(wrong.is_empty(), "uses against the layering order {order:?}:\n  {}\n(top-level uses: {shown:#?})", wrong.join("\n  "));
    assert!(find_cycles(&top_edges).is_empty());
    if std::env::var_os("SHOW_LAYERS").is_some() {
        eprintln!("{shown:#?}");
    }
}

/// Paths into a child module of `module` written from it without `crate::` or `super::`
/// (`use child::X;`, `pub use child::*;`, `self::child::f()`, `child::f()`): made absolute.
fn child_paths(code: &str, module: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let code = code.replace("self::", "");
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if is_ident(bytes[i]) && (i == 0 || !(is_ident(bytes[i - 1]) || bytes[i - 1] == b':')) {
            let segs = segments(&code[i..], 8);
            let mut n = i;
            while n < bytes.len() && is_ident(bytes[n]) {
                n += 1;
            }
            let child: Vec<String> = module.iter().cloned().chain([segs[0].clone()]).collect();
            if code[n..].starts_with("::") && modules.contains(&child) {
                out.push(module.iter().cloned().chain(segs).collect());
            }
            i = n;
        } else {
            i += 1;
        }
    }
    out
}

/// The graph between source files: a node per file (`model/txn/send.rs`), an edge for every
/// `crate::…`, `super::…` (a `super::*` is a use of the parent's file) and child-module path
/// outside tests, to the file of the deepest module the path names; one witness per edge.
fn file_graph() -> (Graph, BTreeMap<(Vec<String>, Vec<String>), String>) {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let file_of: BTreeMap<Vec<String>, String> = files.iter().map(|f| (module_of(f), f.strip_prefix(src()).unwrap().display().to_string())).collect();
    let alias = lib_aliases(&modules);
    let imports = parent_imports(&files, &modules);
    let mut edges = Graph::new();
    let mut witness: BTreeMap<(Vec<String>, Vec<String>), String> = BTreeMap::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name == "lib.rs" {
            continue;
        }
        let module = module_of(f);
        let from = vec![file_of[&module].clone()];
        let code = without_tests(&std::fs::read_to_string(f).unwrap());
        let crate_uses = crate_paths_to(&code, 8).into_iter().map(|p| (p, "crate::"));
        let super_uses = super_paths_to(&code, &module, &imports, 8, true).into_iter().map(|p| (p, "super:: → crate::"));
        let child_uses = child_paths(&code, &module, &modules).into_iter().map(|p| (p, "its child → crate::"));
        for (p, how) in crate_uses.chain(super_uses).chain(child_uses) {
            if p.is_empty() {
                continue;
            }
            let target = resolve(&alias, &modules, &p);
            if target.is_empty() {
                continue; // the crate root
            }
            let to = vec![file_of[&target].clone()];
            if to == from {
                continue;
            }
            witness.entry((from.clone(), to.clone())).or_insert_with(|| format!("{} uses {how}{}", from[0], p.join("::")));
            edges.entry(from.clone()).or_default().insert(to);
        }
    }
    assert!(edges.len() > 50, "too few files with uses: {}", edges.len());
    (edges, witness)
}

/// The strongly connected components of `edges` with more than one node (the files that lie
/// on a cycle), each sorted, in order.
fn tangles(edges: &Graph) -> Vec<Vec<Vec<String>>> {
    let reach = |from: &Vec<String>| -> BTreeSet<Vec<String>> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<Vec<String>> = edges.iter().flat_map(|(f, t)| core::iter::once(f.clone()).chain(t.iter().cloned())).collect();
    let reaches: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = nodes.iter().map(|n| (n.clone(), reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(n) || !reaches[n].contains(n) {
            continue;
        }
        let scc: Vec<Vec<String>> = nodes.iter().filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n)).cloned().collect();
        done.extend(scc.iter().cloned());
        out.push(scc);
    }
    out
}

/// How many source files lie on a cycle between files today, each cycle inside one split
/// module: its parent file re-exports its children's items (`pub use child::…`) while they use
/// `super::`. The count may only go down; lower it when it does.
const FILES_ON_CYCLES: usize = 49;

/// Cycles at any depth, file by file: the files on each cycle are listed (run with
/// `--nocapture` to see them with a witness per edge) and their count is held to
/// [`FILES_ON_CYCLES`].
#[test]
fn file_level_cycles_only_go_down() {
    let (edges, witness) = file_graph();
    let groups = tangles(&edges);
    let mut shown = Vec::new();
    let witness = &witness;
    for t in &groups {
        let names: Vec<String> = t.iter().map(|m| m[0].clone()).collect();
        let inside: Vec<String> = t
            .iter()
            .flat_map(|f| edges[f].iter().filter(|to| t.contains(to)).map(move |to| witness[&(f.clone(), to.clone())].clone()))
            .collect();
        shown.push(format!("{}\n      {}", names.join(", "), inside.join("\n      ")));
    }
    let count: usize = groups.iter().map(Vec::len).sum();
    eprintln!("{} files on cycles, in {} groups:\n  {}", count, groups.len(), shown.join("\n  "));
    assert!(count <= FILES_ON_CYCLES, "more files on cycles than the {FILES_ON_CYCLES} known:\n  {}", shown.join("\n  "));
    // Each group is one split module: a parent file and its own children, never files of two
    // modules apart.
    for t in &groups {
        let mods: Vec<Vec<String>> = t.iter().map(|f| module_of(&src().join(&f[0]))).collect();
        let root = mods.iter().min_by_key(|m| m.len()).unwrap();
        let apart: Vec<&Vec<String>> = mods.iter().filter(|m| *m != root && !(m.starts_with(root) && m.len() == root.len() + 1)).collect();
        assert!(apart.is_empty(), "a cycle between files of modules apart ({apart:?} and {root:?}):\n  {}", shown.join("\n  "));
    }
    // The checker sees cycles: two files using each other are one group.
    let m = |s: &str| vec![s.to_string()];
    let mut g = Graph::new();
    g.entry(m("a")).or_default().insert(m("b"));
    g.entry(m("b")).or_default().insert(m("c"));
    assert!(tangles(&g).is_empty());
    g.entry(m("c")).or_default().insert(m("b"));
    assert_eq!(tangles(&g), [vec![m("b"), m("c")]]);
    let code = without_tests("use super::*;\npub use child::X;\nfn f() { self::kid::g(); other::h(); }\n");
    let module: Vec<String> = ["m", "n"].map(String::from).to_vec();
    let modules: BTreeSet<Vec<String>> = [vec!["m", "n", "child"], vec!["m", "n", "kid"]].iter().map(|v| v.iter().map(|s| s.to_string()).collect()).collect();
    let paths: Vec<String> = child_paths(&code, &module, &modules).iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["m::n::child::X", "m::n::kid::g"]);
    let paths: Vec<String> = super_paths_to(&code, &module, &BTreeMap::new(), 8, true).iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["m"]);
}
