//! Cross-site requests (docs/security.md, "Cross-site requests"): a page of another site must not
//! act for a player whose browser carries our cookies. `SameSite=Lax` alone is not enough, since
//! sibling subdomains and other ports of the same host count as the same *site*; so every
//! state-changing request (any method but GET, HEAD, OPTIONS) and every WebSocket upgrade is
//! refused with `cross_site` (403) when
//! - `Sec-Fetch-Site` says `cross-site` or `same-site` (only `same-origin` and `none` pass), or
//! - `Origin` is present and is not this site: the `--public-url` origin, or the scheme, host
//!   and port of the request's own `Host` header (an `http` page of an `https` public URL is
//!   refused).
//!
//! Requests without either header come from scripts, not browsers (every browser sends `Origin`
//! with a POST and a WebSocket upgrade): they pass, and their seat tokens are their own. JSON
//! bodies must also say `Content-Type: application/json` ([`crate::http::JsonBody`]), which a
//! form or a `no-cors` fetch cannot send without a preflight that this server never answers.

use axum::http::{header, HeaderMap, Method};

use crate::error::AppError;

/// Whether a request can change something: any method but GET/HEAD/OPTIONS, or an upgrade.
pub fn changes_state(method: &Method, headers: &HeaderMap) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
        || headers.contains_key(header::UPGRADE)
}

/// Checks `Sec-Fetch-Site` and `Origin` against this site.
///
/// # Errors
/// `cross_site` when the request comes from another site (or another origin of this site).
pub fn check(public_url: Option<&str>, headers: &HeaderMap) -> Result<(), AppError> {
    let fetch_site = headers
        .get("sec-fetch-site")
        .map(|v| v.to_str().unwrap_or("cross-site").to_ascii_lowercase());
    if fetch_site.is_some_and(|s| s != "same-origin" && s != "none") {
        return Err(AppError::CrossSite);
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().ok().and_then(Origin::parse);
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let explicit_port =
        host.is_some_and(|h| h.rsplit_once(':').is_some_and(|(_, p)| !p.contains(']')));
    let host = host.and_then(|h| Origin::parse(&format!("http://{h}")));
    let public = public_url.and_then(Origin::parse);
    let allowed = origin.is_some_and(|origin| {
        let is_public = public.as_ref() == Some(&origin);
        let downgrade = public
            .as_ref()
            .is_some_and(|p| p.scheme == "https" && origin.scheme == "http");
        // A Host without a port names the default port of whichever scheme the browser used.
        let same_host = host.as_ref().is_some_and(|h| {
            h.host == origin.host
                && (!explicit_port || h.port == origin.port)
                && (explicit_port || origin.port == origin.default_port())
        });
        is_public || (same_host && !downgrade)
    });
    if allowed {
        Ok(())
    } else {
        Err(AppError::CrossSite)
    }
}

/// A web origin: scheme, lower-case host and port (the scheme's default when not written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// `http` or `https`.
    pub scheme: String,
    /// Host name or IP literal (IPv6 with brackets), lower case.
    pub host: String,
    /// Port number.
    pub port: u16,
}

impl Origin {
    /// Parses `scheme://host[:port]` (a path, if any, is ignored); `None` for `null`, other
    /// schemes, credentials or anything malformed.
    pub fn parse(text: &str) -> Option<Self> {
        let (scheme, rest) = text.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        let authority = rest.split(['/', '?', '#']).next()?;
        if authority.is_empty() || authority.contains('@') {
            return None;
        }
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !p.contains(']') => (
                h,
                if p.is_empty() {
                    default
                } else {
                    p.parse().ok()?
                },
            ),
            _ => (authority, default),
        };
        let host = host.to_ascii_lowercase();
        let valid = !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._[]:".contains(&b));
        valid.then_some(Self { scheme, host, port })
    }

    /// 80 for http, 443 for https.
    pub fn default_port(&self) -> u16 {
        if self.scheme == "https" {
            443
        } else {
            80
        }
    }

    /// `host:port`, whatever the scheme.
    pub fn authority(&self) -> (&str, u16) {
        (self.host.as_str(), self.port)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn same_origin_and_scripts_pass() {
        let ok = [
            headers(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:8080"),
            ]),
            headers(&[
                ("host", "dames.example"),
                ("origin", "https://dames.example"),
            ]),
            headers(&[
                ("host", "DAMES.example:80"),
                ("origin", "http://dames.example"),
            ]),
            headers(&[("host", "dames.example"), ("sec-fetch-site", "same-origin")]),
            headers(&[("host", "dames.example")]),
        ];
        for h in &ok {
            assert!(check(None, h).is_ok(), "{h:?}");
        }
        let behind_proxy = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "https://dames.example"),
        ]);
        assert!(check(Some("https://dames.example/"), &behind_proxy).is_ok());
    }

    #[test]
    fn other_sites_subdomains_ports_and_downgrades_are_refused() {
        let refused = [
            headers(&[
                ("host", "dames.example"),
                ("origin", "https://evil.example"),
            ]),
            headers(&[
                ("host", "dames.example"),
                ("origin", "https://a.dames.example"),
            ]),
            headers(&[
                ("host", "dames.example:8080"),
                ("origin", "http://dames.example:8081"),
            ]),
            headers(&[("host", "dames.example"), ("origin", "null")]),
            headers(&[("host", "dames.example"), ("sec-fetch-site", "cross-site")]),
            headers(&[("host", "dames.example"), ("sec-fetch-site", "same-site")]),
            headers(&[("origin", "http://dames.example")]),
        ];
        for h in &refused {
            assert!(check(None, h).is_err(), "{h:?}");
        }
        let downgrade = headers(&[
            ("host", "dames.example"),
            ("origin", "http://dames.example"),
        ]);
        assert!(check(Some("https://dames.example"), &downgrade).is_err());
    }

    #[test]
    fn origins_parse_with_default_ports() {
        let o = Origin::parse("HTTPS://Dames.Example").unwrap();
        assert_eq!(
            (o.scheme.as_str(), o.host.as_str(), o.port),
            ("https", "dames.example", 443)
        );
        assert_eq!(
            Origin::parse("http://[::1]:8080").unwrap().authority(),
            ("[::1]", 8080)
        );
        assert_eq!(
            Origin::parse("http://[::1]").unwrap().authority(),
            ("[::1]", 80)
        );
        for bad in [
            "null",
            "file://x",
            "http://",
            "http://a@b",
            "http://a:99999",
            "ftp://a",
        ] {
            assert!(Origin::parse(bad).is_none(), "{bad}");
        }
    }
}
