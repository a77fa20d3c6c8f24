//! The HTTP edge: extractors shared by the handlers (JSON bodies with typed errors, the
//! caller's identity from cookies and headers), the client cookie middleware, and the router.

pub mod analysis;
pub mod events;
pub mod games;
pub mod me;
pub mod middleware;
pub mod pools;
pub mod public;
pub mod reports;
pub mod reviews;
pub mod rooms;
pub mod transfer;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request, State};
use axum::http::{header, request::Parts, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use serde::de::DeserializeOwned;

use crate::error::{AppError, RoomError};
use crate::state::AppState;
use dames_room::token;

/// The routes under `/api`: rooms, then "my games", push subscriptions, reviews and requests.
pub fn router() -> axum::Router<AppState> {
    rooms::router()
        .merge(me::router())
        .merge(events::router())
        .merge(transfer::router())
        .merge(reviews::router())
        .merge(games::router())
        .merge(analysis::router())
        .merge(pools::router())
        .merge(public::router())
        .merge(reports::router())
}

/// Largest request body accepted.
pub const MAX_BODY: usize = 16 * 1024;

/// Longest wait for a request body once its head has arrived (a slow body is refused with
/// `timeout`; the head has its own limit, crate::net::limits).
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether the request says `Content-Type: application/json` (parameters such as `charset`
/// allowed).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
}

/// A JSON body read with the protocol's errors (`bad_json`, `too_large`, `not_json` when it is
/// not declared `application/json`, `timeout`). An empty body reads as `{}`.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let json = is_json(req.headers());
        let read = axum::body::Bytes::from_request(req, state);
        let bytes = tokio::time::timeout(BODY_TIMEOUT, read)
            .await
            .map_err(|_| AppError::Timeout)?
            .map_err(|rej| {
                if rej.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::TooLarge
                } else {
                    AppError::Room(RoomError::BadJson(rej.body_text()))
                }
            })?;
        let bytes = if bytes.iter().all(u8::is_ascii_whitespace) {
            &b"{}"[..]
        } else if !json {
            // A form or a text/plain body: what a cross-site page can send without asking.
            return Err(AppError::NotJson);
        } else {
            &bytes[..]
        };
        serde_json::from_slice(bytes)
            .map(JsonBody)
            .map_err(|e| AppError::Room(RoomError::BadJson(e.to_string())))
    }
}

/// The `dames_client` id of the caller (set by [`client_cookie`] when missing), and whether the
/// cookies' names carry the `__Host-` prefix ([`cookie_name`]).
#[derive(Clone, Debug)]
pub struct ClientId(pub String, pub bool);

/// Who is calling: address, browser identity and the raw headers (for seat tokens).
#[derive(Clone, Debug)]
pub struct Caller {
    /// The client's IP address: the peer's, or the one a trusted proxy forwarded for (the
    /// rate-limit key with the client id, per /64 for IPv6).
    pub ip: IpAddr,
    /// The `dames_client` id (the cookie's value without its signature).
    pub client: String,
    /// Whether cookies are named with the `__Host-` prefix (served over https).
    secure: bool,
    headers: HeaderMap,
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        // Behind a trusted proxy, the address it forwarded for (crate::net::client_ip).
        let ip = parts
            .extensions
            .get::<crate::net::client_ip::ClientIp>()
            .map_or(peer, |c| c.0);
        let (client, secure) = parts
            .extensions
            .get::<ClientId>()
            .map(|c| (c.0.clone(), c.1))
            .unwrap_or_default();
        Ok(Self {
            ip,
            client,
            secure,
            headers: parts.headers.clone(),
        })
    }
}

impl Caller {
    /// A caller from its address, browser identity and headers (what the extractor reads).
    pub fn new(ip: IpAddr, client: String, headers: HeaderMap) -> Self {
        Self {
            ip,
            client,
            secure: false,
            headers,
        }
    }

    /// The seat token the caller presents for room `code`: the `dames_seat_{CODE}` cookie or
    /// the `Authorization: Bearer` header.
    ///
    /// # Errors
    /// `token_mismatch` if both are present and differ.
    pub fn seat_token(&self, code: &str) -> Result<Option<String>, AppError> {
        // Seats taken before the `__Host-` names keep working: a seat token cannot be chosen
        // by anyone, so the old name is still read (the browser id's is not: `client_cookie`).
        let cookie = cookie(&self.headers, &seat_cookie_name(code, self.secure)).or_else(|| {
            self.secure
                .then(|| cookie(&self.headers, &seat_cookie_name(code, false)))?
        });
        let bearer = self
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(|t| t.trim().to_owned());
        match (cookie, bearer) {
            (Some(c), Some(b)) if c != b => Err(AppError::TokenMismatch),
            (c, b) => Ok(b.or(c)),
        }
    }

    /// Whether the caller presents a seat token in the `Authorization` header (a script that
    /// knows its token), rather than only the HttpOnly cookie.
    pub fn by_header(&self) -> bool {
        self.headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("Bearer "))
    }

    /// The request headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }
}

/// The name of cookie `name` as set: with the `__Host-` prefix when served over https
/// (`secure`), which browsers accept only from this very host, `Secure`, with `Path=/` and no
/// `Domain`, so that no sibling subdomain can plant or overwrite it (docs/security.md).
pub fn cookie_name(name: &str, secure: bool) -> String {
    if secure {
        format!("__Host-{name}")
    } else {
        name.to_owned()
    }
}

/// Name of the seat cookie of room `code` ([`cookie_name`]).
pub fn seat_cookie_name(code: &str, secure: bool) -> String {
    cookie_name(&format!("dames_seat_{code}"), secure)
}

/// The value of cookie `name`, if sent.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim().to_owned())
}

const YEAR: u32 = 365 * 24 * 3600;

/// A `Set-Cookie` value for an HttpOnly cookie (`max_age` 0 deletes it).
pub fn set_cookie(name: &str, value: &str, max_age: u32, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let cookie =
        format!("{name}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&cookie).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The value of the `dames_client` cookie of browser id `id` under the server's `key`
/// ([`AppState::client_key`]): what [`client_cookie`] sets and recognises.
pub fn client_cookie_value(key: &str, id: &str) -> String {
    token::signed_client_id(key, id)
}

/// Middleware: gives every browser a `dames_client` cookie (a 128-bit random id, signed with
/// the server's key: `token::signed_client_id`) on the first response that lacks one. A
/// value the server did not sign — planted, forged, or from before ids were signed — is
/// ignored and replaced by a fresh id: nobody can choose the id of another's browser.
pub async fn client_cookie(
    State(state): State<AppState>,
    mut req: Request,
    next: Next,
) -> Response {
    let secure = state.secure_cookies();
    let name = cookie_name("dames_client", secure);
    let sent = cookie(req.headers(), &name)
        .and_then(|value| token::verified_client_id(&state.client_key, &value));
    let id = sent.clone().unwrap_or_else(token::random_hex128);
    req.extensions_mut().insert(ClientId(id.clone(), secure));
    let mut response = next.run(req).await;
    if sent.is_none() {
        let value = client_cookie_value(&state.client_key, &id);
        response
            .headers_mut()
            .append(header::SET_COOKIE, set_cookie(&name, &value, YEAR, secure));
    }
    response
}
