//! The web client (`web/`), embedded in the binary at compile time (read from disk in debug
//! builds), served with content types, ETags and caching headers. The client-side pages all
//! get `index.html`: the client routes itself.

use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[allow_missing = true]
struct Web;

/// Page routes of the client, all answered with `index.html`.
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

/// Routes of the pages and of the static files.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new();
    for page in PAGES {
        router = router.route(
            page,
            get(|headers: HeaderMap| async move { file("index.html", &headers) }),
        );
    }
    router.fallback(|method: Method, uri: Uri, headers: HeaderMap| async move {
        if method == Method::GET || method == Method::HEAD {
            file(uri.path(), &headers)
        } else {
            StatusCode::METHOD_NOT_ALLOWED.into_response()
        }
    })
}

/// The embedded file at `path`, or 404.
pub fn file(path: &str, headers: &HeaderMap) -> Response {
    let path = path.trim_start_matches('/');
    let Some(file) = Web::get(path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let etag = format!(
        "\"{}\"",
        file.metadata
            .sha256_hash()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let cache = if path.starts_with("img/") || path.starts_with("fonts/") {
        "public, max-age=86400"
    } else {
        // Plain ES modules have no hashed names: always revalidate (cheap with the ETag).
        "no-cache"
    };
    let mut response = if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mime = file.metadata.mimetype().to_owned();
        let mime = if mime.starts_with("text/") && !mime.contains("charset") {
            format!("{mime}; charset=utf-8")
        } else {
            mime
        };
        ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response()
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    response
}
