//! Prepares the web client (`web/`) for embedding, once per build instead of once per request:
//!
//! - only the files the site serves (pages, modules, styles, images, the manifest and the service
//!   worker) are kept: `web/README.md`, `web/tsconfig.json` and the like are not part of the site;
//! - every module, stylesheet and image also gets a content-hashed name (`js/dom.3fa2b1c9.js`),
//!   cached as immutable; imports between modules are rewritten to the hashed names, so that a
//!   module's hash covers the modules it loads (cycles share one hash);
//! - `index.html` gets its stylesheet inlined (no render-blocking request), hashed URLs and a
//!   `modulepreload` for every module the entry point loads statically (no import waterfall);
//!   the pages of a room and of a game of a room get their own copy (`index.room.html`,
//!   `index.game.html`) that also preloads the modules their screen loads ([`ROUTES`]), which
//!   the entry point would otherwise only ask for once it has run;
//! - `sw.js` gets the list of the app shell's URLs to precache and a version;
//! - modules and styles lose their comments and indentation (`build/minify.rs`);
//! - text files are compressed with brotli (quality 11) and gzip (level 9).
//!
//! The output is `$OUT_DIR/site.rs` (a table that `src/assets.rs` includes) and the file bodies
//! beside it.

#[path = "build/minify.rs"]
mod minify;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Extensions of the files served, with their content types.
const TYPES: &[(&str, &str)] = &[
    ("html", "text/html; charset=utf-8"),
    ("js", "text/javascript; charset=utf-8"),
    ("css", "text/css; charset=utf-8"),
    ("svg", "image/svg+xml"),
    ("png", "image/png"),
    ("ico", "image/x-icon"),
    ("webmanifest", "application/manifest+json"),
];

/// Files served under their own name only (never hashed): entry points with a fixed URL.
const FIXED: &[&str] = &["index.html", "sw.js", "manifest.webmanifest"];

fn main() {
    println!("cargo:rerun-if-changed=../../web");

    // At run time, not `env!` (compile time): a build script compiled in another checkout (a
    // copied target/) would otherwise read that checkout's web/.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let web = Path::new(&manifest).join("../../web");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let files = read_site(&web);
    let site = Site::build(files);
    site.write(&out.join("site"), &out.join("site.rs"));
}

/// The site's files by path relative to `web/` (`js/dom.js`), with their bytes.
fn read_site(web: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut dirs = vec![web.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path.strip_prefix(web).expect("inside web/");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let top = !rel.contains('/');
            if content_type(&rel).is_some() && (!top || FIXED.contains(&rel.as_str())) {
                let body = std::fs::read(&path).expect("readable web file");
                files.insert(rel.clone(), minified(&rel, body));
            }
        }
    }
    files
}

/// Comments and indentation of modules and styles removed (see `build/minify.rs`).
fn minified(path: &str, body: Vec<u8>) -> Vec<u8> {
    let text = || String::from_utf8(body.clone()).expect("UTF-8 source");
    if path.ends_with(".js") {
        minify::js(&text()).into_bytes()
    } else if path.ends_with(".css") {
        minify::css(&text()).into_bytes()
    } else {
        body
    }
}

fn content_type(path: &str) -> Option<&'static str> {
    let ext = path.rsplit('.').next()?;
    TYPES.iter().find(|(e, _)| *e == ext).map(|(_, t)| *t)
}

/// One file as served: its URL path, its hashed path (if any) and its final bytes.
struct Output {
    path: String,
    hashed: Option<String>,
    body: Vec<u8>,
}

struct Site {
    outputs: Vec<Output>,
}

impl Site {
    fn build(mut files: BTreeMap<String, Vec<u8>>) -> Self {
        let mut hashed: BTreeMap<String, String> = BTreeMap::new();
        let mut bodies: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        // Leaves first: styles and images hash their own bytes.
        for (path, body) in &files {
            if !path.ends_with(".js") && !FIXED.contains(&path.as_str()) {
                hashed.insert(path.clone(), hashed_name(path, &sha(body)));
                bodies.insert(path.clone(), body.clone());
            }
        }
        let modules: BTreeMap<String, String> = files
            .iter()
            .filter(|(p, _)| p.ends_with(".js") && !FIXED.contains(&p.as_str()))
            .map(|(p, b)| {
                (
                    p.clone(),
                    String::from_utf8(b.clone()).expect("UTF-8 module"),
                )
            })
            .collect();
        let graph = Graph::of(&modules);
        for scc in graph.components() {
            hash_component(&scc, &modules, &graph, &mut hashed, &mut bodies);
        }
        let index = String::from_utf8(files.remove("index.html").expect("web/index.html"))
            .expect("UTF-8 index.html");
        let mut variants = Vec::new();
        for (name, (file, anchor)) in ROUTES {
            let extra = route_modules(&modules[*file], file, anchor, &graph);
            let html = rewrite_index(&index, &files, &hashed, &graph, &extra);
            variants.push(Output {
                path: format!("index.{name}.html"),
                hashed: None,
                body: html.into_bytes(),
            });
        }
        let index = rewrite_index(&index, &files, &hashed, &graph, &BTreeSet::new());
        let shell = shell_urls(&hashed);
        let sw = files.remove("sw.js").expect("web/sw.js");
        let sw = fill_service_worker(&String::from_utf8(sw).expect("UTF-8 sw.js"), &shell, &index);
        let mut outputs = vec![
            Output {
                path: "index.html".into(),
                hashed: None,
                body: index.into_bytes(),
            },
            Output {
                path: "sw.js".into(),
                hashed: None,
                body: sw.into_bytes(),
            },
        ];
        outputs.extend(variants);
        if let Some(manifest) = files.remove("manifest.webmanifest") {
            let text = String::from_utf8(manifest).expect("UTF-8 manifest");
            let body = replace_urls(&text, &hashed, "\"/", '"').into_bytes();
            outputs.push(Output {
                path: "manifest.webmanifest".into(),
                hashed: None,
                body,
            });
        }
        for (path, body) in bodies {
            outputs.push(Output {
                hashed: hashed.get(&path).cloned(),
                path,
                body,
            });
        }
        Site { outputs }
    }

    /// Writes the bodies (raw, .br, .gz) under `dir` and the table to `table`.
    fn write(&self, dir: &Path, table: &Path) {
        std::fs::create_dir_all(dir).expect("create OUT_DIR/site");
        let mut rs = String::from(
            "/// The embedded site, generated by build.rs.\npub static FILES: &[Embedded] = &[\n",
        );
        for (i, o) in self.outputs.iter().enumerate() {
            let mime = content_type(&o.path).expect("known type");
            let raw = dir.join(format!("{i}"));
            std::fs::write(&raw, &o.body).expect("write body");
            let compressible = !mime.starts_with("image/png") && !mime.starts_with("image/x-icon");
            let br = compressible
                .then(|| brotli(&o.body))
                .filter(|c| worth(c, &o.body));
            let gz = compressible
                .then(|| gzip(&o.body))
                .filter(|c| worth(c, &o.body));
            let bytes = |ext: &str, data: &Option<Vec<u8>>| match data {
                Some(d) => {
                    let p = dir.join(format!("{i}.{ext}"));
                    std::fs::write(&p, d).expect("write compressed body");
                    format!("Some(include_bytes!({:?}))", p.display().to_string())
                }
                None => "None".to_owned(),
            };
            let _ = writeln!(
                rs,
                "    Embedded {{ path: {:?}, hashed: {:?}, mime: {:?}, etag: {:?}, raw: include_bytes!({:?}), br: {}, gzip: {} }},",
                format!("/{}", o.path),
                o.hashed.as_ref().map(|h| format!("/{h}")),
                mime,
                sha(&o.body)[..20].to_owned(),
                raw.display().to_string(),
                bytes("br", &br),
                bytes("gz", &gz),
            );
        }
        rs.push_str("];\n");
        std::fs::write(table, rs).expect("write site.rs");
    }
}

/// Hashes one strongly connected component of the module graph (usually one module) once all
/// the modules it imports have their hashed names, and rewrites its imports to them.
fn hash_component(
    scc: &[String],
    modules: &BTreeMap<String, String>,
    graph: &Graph,
    hashed: &mut BTreeMap<String, String>,
    bodies: &mut BTreeMap<String, Vec<u8>>,
) {
    // Imports leaving the component are known; inside a cycle, a shared hash of the members.
    let outside: Vec<String> = scc
        .iter()
        .map(|m| rewrite_imports(m, &modules[m], hashed))
        .collect();
    let group = sha(outside.concat().as_bytes());
    for m in scc {
        let h = if scc.len() == 1 && !graph.edges[m].contains(m) {
            sha(outside[0].as_bytes())
        } else {
            sha(format!("{group}{m}").as_bytes())
        };
        hashed.insert(m.clone(), hashed_name(m, &h));
    }
    for m in scc {
        let body = rewrite_imports(m, &modules[m], hashed);
        bodies.insert(m.clone(), body.into_bytes());
    }
}

/// `js/dom.js` + hash → `js/dom.3fa2b1c9.js`.
fn hashed_name(path: &str, hash: &str) -> String {
    match path.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.{}.{ext}", &hash[..10]),
        None => format!("{path}.{}", &hash[..10]),
    }
}

fn sha(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where a module names another (`from './x.js'`, `import './x.js'`, `import('./x.js')`).
const IMPORT_MARKS: &[&str] = &[
    "from '",
    "from \"",
    "import '",
    "import \"",
    "import('",
    "import(\"",
];

/// The relative module specifiers of `source`, each with its byte range and whether it is a
/// static import (loaded with the module) or a dynamic one / a JSDoc type reference.
fn specifiers(source: &str) -> Vec<(std::ops::Range<usize>, String, bool)> {
    let mut found = Vec::new();
    for mark in IMPORT_MARKS {
        let quote = mark.chars().last().expect("mark ends with a quote");
        let mut at = 0;
        while let Some(i) = source[at..].find(mark) {
            let start = at + i + mark.len();
            at = start;
            let Some(len) = source[start..].find(quote) else {
                break;
            };
            let spec = &source[start..start + len];
            if (spec.starts_with("./") || spec.starts_with("../")) && spec.ends_with(".js") {
                found.push((
                    start..start + len,
                    spec.to_owned(),
                    !mark.starts_with("import("),
                ));
            }
        }
    }
    found.sort_by_key(|(r, _, _)| r.start);
    found
}

/// `./dom.js` seen from `js/main.js` → `js/dom.js`.
fn resolve(from: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for seg in spec.split('/') {
        match seg {
            "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// `source` with each import of a module that has a hashed name pointing to that name.
fn rewrite_imports(path: &str, source: &str, hashed: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(source.len());
    let mut last = 0;
    for (range, spec, _) in specifiers(source) {
        let Some(target) = hashed.get(&resolve(path, &spec)) else {
            continue;
        };
        let file = target.rsplit('/').next().expect("a file name");
        let dir = spec.rsplit_once('/').map_or("", |(d, _)| d);
        out.push_str(&source[last..range.start]);
        let _ = write!(out, "{dir}/{file}");
        last = range.end;
    }
    out.push_str(&source[last..]);
    out
}

/// The import graph of the modules: every edge (for hashing) and the static ones (for preloading).
struct Graph {
    edges: BTreeMap<String, BTreeSet<String>>,
    statics: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    fn of(modules: &BTreeMap<String, String>) -> Self {
        let mut edges = BTreeMap::new();
        let mut statics = BTreeMap::new();
        for (path, source) in modules {
            let mut all = BTreeSet::new();
            let mut stat = BTreeSet::new();
            for (_, spec, is_static) in specifiers(source) {
                let target = resolve(path, &spec);
                if modules.contains_key(&target) {
                    if is_static {
                        stat.insert(target.clone());
                    }
                    all.insert(target);
                }
            }
            edges.insert(path.clone(), all);
            statics.insert(path.clone(), stat);
        }
        Graph { edges, statics }
    }

    /// Strongly connected components (Tarjan), each after every component it points to.
    fn components(&self) -> Vec<Vec<String>> {
        let mut t = Tarjan {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for node in self.edges.keys() {
            if !t.index.contains_key(node) {
                t.visit(node);
            }
        }
        t.out
    }

    /// Every module `entry` loads statically, `entry` excluded.
    fn static_closure(&self, entry: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![entry.to_owned()];
        while let Some(m) = todo.pop() {
            for next in self.statics.get(&m).into_iter().flatten() {
                if next != entry && seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    }
}

struct Tarjan<'a> {
    graph: &'a Graph,
    index: BTreeMap<String, usize>,
    low: BTreeMap<String, usize>,
    stack: Vec<String>,
    on: BTreeSet<String>,
    out: Vec<Vec<String>>,
}

impl Tarjan<'_> {
    fn visit(&mut self, v: &str) {
        let i = self.index.len();
        self.index.insert(v.to_owned(), i);
        self.low.insert(v.to_owned(), i);
        self.stack.push(v.to_owned());
        self.on.insert(v.to_owned());
        for w in self.graph.edges[v].clone() {
            if !self.index.contains_key(&w) {
                self.visit(&w);
                let lw = self.low[&w];
                let lv = self.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if self.on.contains(&w) {
                let iw = self.index[&w];
                let lv = self.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if self.low[v] == self.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on.remove(&w);
                let done = w == v;
                scc.push(w);
                if done {
                    break;
                }
            }
            self.out.push(scc);
        }
    }
}

/// Replaces every `{prefix}path{end}` whose path has a hashed name (`prefix` ends with `/`).
fn replace_urls(text: &str, hashed: &BTreeMap<String, String>, prefix: &str, end: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let start = i + prefix.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let len = rest.find(end).unwrap_or(0);
        if let Some(h) = hashed.get(&rest[..len]) {
            out.push_str(h);
            rest = &rest[len..];
        }
    }
    out.push_str(rest);
    out
}

/// Pages whose screen loads modules of its own once the entry point has run, each served with a
/// copy of `index.html` (`index.{name}.html`) that preloads them too: the name, and where the
/// screen's modules are asked for — the module and one module of the `Promise.all([import(…),
/// …])` that loads them together (`main.js` for a game of a room, `router.js` `loadRoom` for a
/// room). Kept in step with the client by reading those lists there, never by copying them.
const ROUTES: &[(&str, (&str, &str))] = &[
    ("room", ("js/router.js", "./room.js")),
    ("game", ("js/main.js", "./archive.js")),
];

/// The modules a screen loads (the dynamic imports asked for with `anchor` in `file`'s
/// `Promise.all([…])`, up to its first `])`) and everything they load statically.
fn route_modules(source: &str, file: &str, anchor: &str, graph: &Graph) -> BTreeSet<String> {
    let call = format!("import('{anchor}')");
    let at = source
        .find(&call)
        .unwrap_or_else(|| panic!("{file} must load {anchor} with {call} (build.rs ROUTES)"));
    let start = source[..at]
        .rfind("Promise.all([")
        .unwrap_or_else(|| panic!("{file} must load {anchor} in a Promise.all([…])"));
    let end = at + source[at..].find("])").expect("the Promise.all's end");
    let mut out = BTreeSet::new();
    for (range, spec, is_static) in specifiers(source) {
        if !is_static && range.start >= start && range.end <= end {
            let module = resolve(file, &spec);
            out.extend(graph.static_closure(&module));
            out.insert(module);
        }
    }
    assert!(out.len() > 1, "{file}: no modules found with {anchor}");
    out
}

/// `index.html` with its stylesheets inlined, hashed URLs, the entry modules' preloads and those
/// of `extra` (the modules of one page's screen).
fn rewrite_index(
    index: &str,
    files: &BTreeMap<String, Vec<u8>>,
    hashed: &BTreeMap<String, String>,
    graph: &Graph,
    extra: &BTreeSet<String>,
) -> String {
    let mut html = String::new();
    for line in index.lines() {
        let trimmed = line.trim();
        if let Some(href) = attr(trimmed, "<link rel=\"stylesheet\" href=\"/") {
            let css = String::from_utf8(files[href].clone()).expect("UTF-8 stylesheet");
            let _ = writeln!(html, "  <style>{}</style>", css.trim());
            continue;
        }
        if let Some(src) = attr(trimmed, "<script type=\"module\" src=\"/") {
            let mut preloads = graph.static_closure(src);
            preloads.extend(extra.iter().filter(|m| *m != src).cloned());
            for dep in preloads {
                let _ = writeln!(
                    html,
                    "  <link rel=\"modulepreload\" href=\"/{}\">",
                    hashed[&dep]
                );
            }
        }
        html.push_str(&replace_urls(line, hashed, "=\"/", '"'));
        html.push('\n');
    }
    html
}

/// The quoted value after `prefix` at the start of `line`.
fn attr<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(prefix)?;
    Some(&rest[..rest.find('"')?])
}

/// Modules that only work online (they talk to `/api/` and `/ws`: the room screen, looking at a
/// game again, the page of a game of a room, importing a position, the reviews page, the « Défi
/// solitaire » panel of a room) and their texts: loaded when first used and not precached, so
/// that a first visit does not pay for them.
const ONLINE_ONLY: &[&str] = &[
    // The room screen: lobby, game, boards, sharing (web/js/router.js `loadRoom`).
    "js/room.js",
    "js/game.js",
    "js/lobby.js",
    "js/share.js",
    "js/board.js",
    "js/board-cc.js",
    "js/board-draughts.js",
    "js/kinds.js",
    "js/kind-cc.js",
    "js/kind-draughts.js",
    "js/a11y.js",
    "js/delta.js",
    // Looking at games again, the page of a game of a room.
    "js/archive.js",
    "js/replay.js",
    "js/import.js",
    "js/texts-later.js",
    // « Analyser » on a finished draughts game's replay (replay.js imports it then).
    "js/analysis.js",
    "js/texts-analysis.js",
    "js/reviews.js",
    "js/solitaire.js",
    // The room screen's away players, clocks and phrases, and the public lists of « Jouer en
    // ligne » (loaded by home.js once the page is shown, from the network only).
    "js/away.js",
    "js/texts-away.js",
    "js/clock.js",
    "js/phrases.js",
    "js/public.js",
    "js/featured.js",
];

/// What the service worker precaches: the page and every hashed file but the stylesheets (inlined
/// in the page), the large icons (the browser fetches those itself when installing the app) and
/// the [`ONLINE_ONLY`] modules.
fn shell_urls(hashed: &BTreeMap<String, String>) -> Vec<String> {
    let mut urls = vec!["/".to_owned()];
    for (path, h) in hashed {
        if !path.ends_with(".png")
            && !path.ends_with(".css")
            && !ONLINE_ONLY.contains(&path.as_str())
        {
            urls.push(format!("/{h}"));
        }
    }
    urls
}

/// Fills the `SHELL` and `VERSION` placeholders of `sw.js`.
fn fill_service_worker(sw: &str, shell: &[String], index: &str) -> String {
    const SHELL: &str = "const SHELL = [];";
    const VERSION: &str = "const VERSION = 'dev';";
    assert!(
        sw.contains(SHELL) && sw.contains(VERSION),
        "sw.js must declare `{SHELL}` and `{VERSION}`"
    );
    let list = shell
        .iter()
        .map(|u| format!("'{u}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let version = &sha(format!("{index}{list}").as_bytes())[..12];
    sw.replace(SHELL, &format!("const SHELL = [{list}];"))
        .replace(VERSION, &format!("const VERSION = '{version}';"))
}

/// A compressed body is kept only if it saves something worth a header.
fn worth(compressed: &[u8], raw: &[u8]) -> bool {
    compressed.len() + 32 < raw.len()
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &data[..], &mut out, &params).expect("brotli");
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip")
}
