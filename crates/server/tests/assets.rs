//! The embedded web client over real HTTP: only the site's files, the encoding chosen by
//! `Accept-Encoding`, hashed URLs cached as immutable, pages revalidated by ETag.

mod common;

use common::Server;
use reqwest::header::{ACCEPT_ENCODING, IF_NONE_MATCH};

/// `GET path` with an `Accept-Encoding`.
async fn get(server: &Server, path: &str, accept: &str) -> reqwest::Response {
    server
        .client()
        .http
        .get(format!("{}{path}", server.base))
        .header(ACCEPT_ENCODING, accept)
        .send()
        .await
        .unwrap()
}

/// The first hashed module URL named in the page (`src="/js/main.…js"`).
async fn main_module(server: &Server) -> String {
    let html = get(server, "/", "identity").await.text().await.unwrap();
    let start = html.find("src=\"/js/main.").expect("the entry module") + 5;
    html[start..start + html[start..].find('"').unwrap()].to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_site_is_served() {
    let server = Server::start().await;
    for path in [
        "/README.md",
        "/tsconfig.json",
        "/js/../README.md",
        "/.git/config",
    ] {
        assert_eq!(get(&server, path, "br").await.status(), 404, "{path}");
    }
    for path in [
        "/sw.js",
        "/manifest.webmanifest",
        "/js/main.js",
        "/img/favicon.svg",
    ] {
        assert_eq!(get(&server, path, "br").await.status(), 200, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoding_follows_accept_encoding() {
    let server = Server::start().await;
    let main = main_module(&server).await;
    let plain = get(&server, &main, "identity").await;
    assert!(plain.headers().get("content-encoding").is_none());
    let plain = plain.bytes().await.unwrap();
    for (accept, expected) in [
        ("gzip, deflate, br, zstd", Some("br")),
        ("gzip", Some("gzip")),
        ("br;q=0, gzip", Some("gzip")),
        ("identity", None),
        ("", None),
    ] {
        let res = get(&server, &main, accept).await;
        let enc = res
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(enc.as_deref(), expected, "Accept-Encoding: {accept}");
        assert_eq!(res.headers()["vary"], "Accept-Encoding");
        let body = res.bytes().await.unwrap();
        if expected.is_some() {
            assert!(body.len() < plain.len() / 2, "{accept}: compressed");
        } else {
            assert_eq!(body, plain);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hashed_files_are_immutable_pages_are_revalidated() {
    let server = Server::start().await;
    let main = main_module(&server).await;
    let res = get(&server, &main, "br").await;
    assert_eq!(
        res.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    // Not a document: none of the document-only headers, but still nosniff.
    assert!(res.headers().get("content-security-policy").is_none());
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");

    for path in [
        "/",
        "/rules",
        "/sw.js",
        "/manifest.webmanifest",
        "/js/main.js",
    ] {
        let res = get(&server, path, "br").await;
        assert_eq!(res.headers()["cache-control"], "no-cache", "{path}");
        let etag = res.headers()["etag"].to_str().unwrap().to_owned();
        // The ETag of any encoding validates the file (the browser may have switched).
        for (accept, tag) in [("gzip", etag.clone()), ("br", etag.replace("-br", "-gzip"))] {
            let again = server
                .client()
                .http
                .get(format!("{}{path}", server.base))
                .header(ACCEPT_ENCODING, accept)
                .header(IF_NONE_MATCH, tag)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), 304, "{path} {accept}");
        }
    }
    let page = get(&server, "/", "br").await;
    assert!(page.headers().get("content-security-policy").is_some());
}
