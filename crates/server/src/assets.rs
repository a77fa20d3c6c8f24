//! The web client (`web/`), prepared by `build.rs` and embedded in the binary: only the files the
//! site needs, each pre-compressed (brotli and gzip, chosen by `Accept-Encoding`) and, for
//! modules, styles and images, also under a content-hashed name cached as immutable. Pages and
//! other fixed URLs (`/`, `/sw.js`, `/manifest.webmanifest`) are revalidated with their ETag. The
//! client-side pages all get `index.html`: the client routes itself.

use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// One embedded file (see `build.rs`).
pub struct Embedded {
    /// URL path under its plain name (`/js/dom.js`), revalidated on each use.
    pub path: &'static str,
    /// URL path under its content-hashed name (`/js/dom.3fa2b1c9d0.js`), cached as immutable.
    pub hashed: Option<&'static str>,
    /// Content type.
    pub mime: &'static str,
    /// A hash of the body, the base of the ETags.
    pub etag: &'static str,
    /// The body.
    pub raw: &'static [u8],
    /// The body compressed with brotli, when that is smaller.
    pub br: Option<&'static [u8]>,
    /// The body compressed with gzip, when that is smaller.
    pub gzip: Option<&'static [u8]>,
}

include!(concat!(env!("OUT_DIR"), "/site.rs"));

// The minifier build.rs runs, compiled here too for its tests.
#[cfg(test)]
#[path = "../build/minify.rs"]
mod minify;

/// Page routes of the client, all answered with `index.html`, the room's with its copy that also
/// preloads the room screen's modules (`build.rs` `ROUTES`).
pub const PAGES: &[&str] = &[
    "/",
    "/cpu",
    "/rules",
    "/faq",
    "/data",
    "/games",
    "/avis",
    "/reviews",
    "/r/{code}",
];

/// The copy of `index.html` a page route is answered with.
fn page_file(route: &str) -> &'static str {
    if route == "/r/{code}" {
        "/index.room.html"
    } else {
        "/index.html"
    }
}

/// Cache policy of files under a content-hashed name: they never change.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Routes of the pages and of the static files.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for page in PAGES {
        let html = page_file(page);
        router = router.route(
            page,
            get(move |headers: HeaderMap| async move { file(html, &headers) }),
        );
    }
    // A game of a room (`/r/{CODE}/{n}`, n = 1, 2, …); any other address under a room is no page.
    router = router.route(
        "/r/{code}/{n}",
        get(|uri: Uri, headers: HeaderMap| async move {
            let n = uri.path().rsplit('/').next().unwrap_or("");
            if is_game_number(n) {
                file("/index.game.html", &headers)
            } else {
                file_or_not_found_page(uri.path(), &headers)
            }
        }),
    );
    router.fallback(|method: Method, uri: Uri, headers: HeaderMap| async move {
        // `/api` and `/api/` themselves are outside the nested API router: still the API's
        // typed error, never the site's plain 404.
        if uri.path() == "/api" || uri.path().starts_with("/api/") {
            crate::error::AppError::NotFound.into_response()
        } else if method == Method::GET || method == Method::HEAD {
            file_or_not_found_page(uri.path(), &headers)
        } else {
            StatusCode::METHOD_NOT_ALLOWED.into_response()
        }
    })
}

/// A game number in a page address: 1–9 digits, no leading zero (as the client's router reads it).
fn is_game_number(n: &str) -> bool {
    (1..=9).contains(&n.len()) && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a response is a file under its content-hashed name (never a document or a worker).
pub fn is_immutable(headers: &HeaderMap) -> bool {
    headers
        .get(header::CACHE_CONTROL)
        .is_some_and(|v| v == IMMUTABLE)
}

/// The embedded file at URL `path` and whether that is its hashed (immutable) name.
pub fn lookup(path: &str) -> Option<(&'static Embedded, bool)> {
    FILES.iter().find_map(|f| {
        if f.path == path {
            Some((f, false))
        } else if f.hashed == Some(path) {
            Some((f, true))
        } else {
            None
        }
    })
}

/// The content-hashed URL of the file at `path` (`/js/dom.js` → `/js/dom.3fa2b1c9d0.js`).
pub fn hashed_url(path: &str) -> Option<&'static str> {
    lookup(path).and_then(|(f, _)| f.hashed)
}

/// The embedded file at URL `path`; for an unknown address asked by a browser (one that accepts
/// HTML), the site's own page with status 404 — the client shows « Page introuvable » in the
/// player's language with the header and a way home; anything else gets a bare 404.
pub fn file_or_not_found_page(path: &str, headers: &HeaderMap) -> Response {
    let wants_html = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    if !wants_html || lookup(path).is_some() {
        return file(path, headers);
    }
    let mut page = file("/index.html", headers);
    if page.status() == StatusCode::OK {
        *page.status_mut() = StatusCode::NOT_FOUND;
        page.headers_mut().remove(header::ETAG);
    }
    page
}

/// The embedded file at URL `path` in the best encoding the client accepts, or 404.
pub fn file(path: &str, headers: &HeaderMap) -> Response {
    let Some((file, immutable)) = lookup(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let (encoding, body) = pick_encoding(file, headers);
    let etag = match encoding {
        Some(e) => format!("\"{}-{e}\"", file.etag),
        None => format!("\"{}\"", file.etag),
    };
    let mut response = if matches_etag(headers, file.etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, file.mime)], body).into_response()
    };
    let h = response.headers_mut();
    let cache = if immutable { IMMUTABLE } else { "no-cache" };
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Some(e) = encoding {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(e));
    }
    // A hashed URL is never revalidated: its ETag would be bytes for nothing.
    if !immutable {
        if let Ok(v) = HeaderValue::from_str(&etag) {
            h.insert(header::ETAG, v);
        }
    }
    response
}

/// The smallest body among the encodings `Accept-Encoding` allows, and the encoding's name.
fn pick_encoding(file: &Embedded, headers: &HeaderMap) -> (Option<&'static str>, &'static [u8]) {
    let accept = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if let Some(br) = file.br.filter(|_| accepts(accept, "br")) {
        return (Some("br"), br);
    }
    if let Some(gz) = file.gzip.filter(|_| accepts(accept, "gzip")) {
        return (Some("gzip"), gz);
    }
    (None, file.raw)
}

/// Whether `Accept-Encoding: accept` allows `coding` (by name or `*`, with a non-zero q-value).
pub fn accepts(accept: &str, coding: &str) -> bool {
    let mut named = None;
    let mut star = None;
    for item in accept.split(',') {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let q = parts
            .filter_map(|p| p.strip_prefix("q="))
            .find_map(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        if name.eq_ignore_ascii_case(coding) {
            named = Some(q > 0.0);
        } else if name == "*" {
            star = Some(q > 0.0);
        }
    }
    named.or(star).unwrap_or(false)
}

/// Whether `If-None-Match` names this file in any encoding (weak comparison, as for GET).
fn matches_etag(headers: &HeaderMap, base: &str) -> bool {
    let Some(value) = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    value.split(',').any(|tag| {
        let tag = tag.trim();
        let tag = tag.strip_prefix("W/").unwrap_or(tag).trim_matches('"');
        tag == "*" || tag.split('-').next() == Some(base)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_names_and_q_values() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip, deflate, br, zstd", "gzip"));
        assert!(!accepts("gzip", "br"));
        assert!(!accepts("", "gzip"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(accepts("BR;q=0.5", "br"));
        assert!(accepts("*", "br"));
        assert!(!accepts("*, br;q=0", "br"));
        assert!(!accepts("identity", "gzip"));
    }

    #[test]
    fn only_site_files_are_embedded() {
        for f in FILES {
            assert!(
                !f.path.ends_with(".md") && !f.path.ends_with(".json"),
                "{} is not part of the site",
                f.path
            );
        }
        assert!(lookup("/README.md").is_none());
        assert!(lookup("/tsconfig.json").is_none());
        assert!(lookup("/index.html").is_some());
        assert!(lookup("/sw.js").is_some_and(|(f, _)| f.hashed.is_none()));
    }

    #[test]
    fn modules_import_each_other_by_hashed_name() {
        let (main, _) = lookup("/js/main.js").expect("main.js");
        let text = std::str::from_utf8(main.raw).unwrap();
        let dom = hashed_url("/js/dom.js").expect("dom.js hashed");
        let file = dom.rsplit('/').next().unwrap();
        assert!(
            text.contains(&format!("'./{file}'")),
            "main.js imports {file}"
        );
        assert!(!text.contains("from './dom.js'"));
    }

    #[test]
    fn index_inlines_the_style_and_preloads_the_modules() {
        let (index, _) = lookup("/index.html").unwrap();
        let html = std::str::from_utf8(index.raw).unwrap();
        assert!(html.contains("<style>") && !html.contains("rel=\"stylesheet\""));
        let main = hashed_url("/js/main.js").unwrap();
        assert!(html.contains(&format!("src=\"{main}\"")));
        let home = hashed_url("/js/home.js").unwrap();
        assert!(html.contains(&format!("<link rel=\"modulepreload\" href=\"{home}\">")));
        // The room screen is loaded when a room is opened, not with the home page.
        let game = hashed_url("/js/game.js").unwrap();
        assert!(!html.contains(game));
    }

    #[test]
    fn a_room_and_a_game_of_a_room_preload_the_modules_of_their_screen() {
        let text = |path: &str| std::str::from_utf8(lookup(path).unwrap().0.raw).unwrap();
        let preloads = |html: &str, module: &str| {
            html.contains(&format!(
                "<link rel=\"modulepreload\" href=\"{}\">",
                hashed_url(module).unwrap()
            ))
        };
        let (index, room, game) = (
            text("/index.html"),
            text("/index.room.html"),
            text("/index.game.html"),
        );
        for html in [index, room, game] {
            assert!(
                preloads(html, "/js/home.js"),
                "the entry point's own modules"
            );
        }
        // The room's screen (router.js `loadRoom`): the lobby, the game, the boards, their texts.
        for module in [
            "/js/room.js",
            "/js/lobby.js",
            "/js/game.js",
            "/js/board-draughts.js",
            "/js/texts-away.js",
        ] {
            assert!(preloads(room, module), "the room's page preloads {module}");
        }
        // A game of a room (main.js): the replay and what it draws with, not the lobby.
        for module in [
            "/js/archive.js",
            "/js/replay.js",
            "/js/board-cc.js",
            "/js/texts-later.js",
        ] {
            assert!(preloads(game, module), "a game's page preloads {module}");
        }
        assert!(!preloads(game, "/js/lobby.js") && !preloads(game, "/js/room.js"));
        assert!(!preloads(index, "/js/game.js") && !preloads(index, "/js/archive.js"));
    }

    #[test]
    fn the_service_worker_knows_the_shell() {
        let (sw, _) = lookup("/sw.js").unwrap();
        let text = std::str::from_utf8(sw.raw).unwrap();
        let main = hashed_url("/js/main.js").unwrap();
        assert!(text.contains(&format!("'{main}'")));
        assert!(!text.contains("const VERSION = 'dev';"));
        // Online-only modules are not precached: a first visit does not pay for them.
        for module in ["/js/game.js", "/js/archive.js", "/js/replay.js"] {
            let hashed = hashed_url(module).unwrap();
            assert!(!text.contains(hashed), "{module} is not precached");
        }
    }

    #[test]
    fn text_is_compressed_and_smaller() {
        let (main, _) = lookup("/js/i18n.js").unwrap();
        let br = main.br.expect("brotli");
        let gz = main.gzip.expect("gzip");
        assert!(br.len() < gz.len() && gz.len() < main.raw.len() / 2);
    }
}
