//! Who the client is behind a reverse proxy, and the address rate limits count against
//! (docs/security.md, "Behind a reverse proxy").
//!
//! The peer of the TCP connection is the client, unless it is one of the `--trusted-proxy`
//! networks: then the `Forwarded` header (RFC 7239), or else `X-Forwarded-For`, is read from the
//! right — each proxy appends the address it received from — skipping trusted proxies, and the
//! first address that is not one of them is the client. Headers from any other peer are ignored
//! (anyone can write them). IPv6 clients are counted per /64 ([`limit_key`]): one home or one
//! server usually gets a whole /64, and its owner can use any address in it.

use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

use axum::http::HeaderMap;

/// The client's address as found by [`resolve`], set on each request by [`layer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// An IP network such as `10.0.0.0/8` or `fd00::/8` (a bare address is a /32 or /128).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("not an IP network: {text:?} (e.g. 10.0.0.0/8, ::1)");
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p.parse::<u8>().map_err(|_| bad())?)),
            None => (text.trim(), None),
        };
        let addr = canonical(addr.parse::<IpAddr>().map_err(|_| bad())?);
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        if prefix > max {
            return Err(bad());
        }
        Ok(Self {
            addr: mask(addr, prefix),
            prefix,
        })
    }
}

impl Cidr {
    /// Whether `ip` is in this network (an IPv4-mapped IPv6 address counts as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        ip.is_ipv4() == self.addr.is_ipv4() && mask(ip, self.prefix) == self.addr
    }
}

/// `::ffff:a.b.c.d` as `a.b.c.d`; anything else unchanged.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

fn mask(ip: IpAddr, prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let bits = u32::from(v4) & u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V4(bits.into())
        }
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
    }
}

/// The key rate limits and connection caps count against: the IPv4 address, or the /64 of an
/// IPv6 address.
pub fn limit_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => mask(IpAddr::V6(v6), 64),
        v4 => v4,
    }
}

/// One address of a forwarding header: `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`,
/// `[2001:db8::1]:80`, quoted or not; `unknown` and obfuscated names are `None`.
fn parse_hop(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    text.parse().ok().or_else(|| {
        text.rsplit_once(':')?
            .0
            .parse::<std::net::Ipv4Addr>()
            .ok()
            .map(IpAddr::V4)
    })
}

/// The `for=` addresses of `Forwarded` headers, in order, or `None` if there is none.
fn forwarded(headers: &HeaderMap) -> Option<Vec<Option<IpAddr>>> {
    let mut hops = Vec::new();
    for value in headers.get_all("forwarded") {
        let value = value.to_str().ok()?;
        for element in value.split(',') {
            let node = element.split(';').find_map(|pair| {
                let (k, v) = pair.split_once('=')?;
                k.trim().eq_ignore_ascii_case("for").then_some(v)
            });
            hops.push(node.and_then(parse_hop));
        }
    }
    (!hops.is_empty()).then_some(hops)
}

fn x_forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("?").split(','))
        .map(parse_hop)
        .collect()
}

/// The client's address: `peer`, or what the trusted proxies in front of us say it is.
pub fn resolve(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    let mut client = canonical(peer);
    if !is_trusted(client) {
        let forwarded =
            headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded");
        if forwarded && is_local(client) {
            warn_untrusted_proxy(client);
        }
        return client;
    }
    let hops = forwarded(headers).unwrap_or_else(|| x_forwarded_for(headers));
    for hop in hops.into_iter().rev() {
        // A hop we cannot read: the proxy that wrote it is the last address we can vouch for.
        let Some(ip) = hop else { break };
        client = canonical(ip);
        if !is_trusted(client) {
            break;
        }
    }
    client
}

fn is_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private(),
        IpAddr::V6(v6) => v6.is_loopback() || (v6.segments()[0] & 0xfe00) == 0xfc00,
    }
}

/// Once per run: a local peer sends forwarding headers, so this server is probably behind a
/// proxy that nobody declared; every client then shares the proxy's limits.
fn warn_untrusted_proxy(peer: IpAddr) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        tracing::warn!(
            "{peer} sends X-Forwarded-For/Forwarded but is not a --trusted-proxy: every client \
             behind it shares its rate limits and connection caps; add --trusted-proxy {peer}"
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn networks_parse_and_contain() {
        let net: Cidr = "10.1.0.0/16".parse().unwrap();
        assert!(net.contains(ip("10.1.200.3")));
        assert!(net.contains(ip("::ffff:10.1.0.1")));
        assert!(!net.contains(ip("10.2.0.1")));
        let host: Cidr = "::1".parse().unwrap();
        assert!(host.contains(ip("::1")) && !host.contains(ip("::2")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")) && !all.contains(ip("2001:db8::1")));
        for bad in ["10.0.0.0/33", "::/129", "ten", "10.0.0.0/x", ""] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarding_headers_count_only_from_trusted_proxies() {
        let trusted: Vec<Cidr> = vec!["127.0.0.1".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
        let h = headers(&[("x-forwarded-for", "198.51.100.7, 203.0.113.5, 10.0.0.2")]);
        // From the proxy: the rightmost address that is not a trusted proxy.
        assert_eq!(resolve(ip("127.0.0.1"), &h, &trusted), ip("203.0.113.5"));
        // From anyone else: the header is ignored.
        assert_eq!(resolve(ip("192.0.2.1"), &h, &trusted), ip("192.0.2.1"));
        assert_eq!(resolve(ip("127.0.0.1"), &h, &[]), ip("127.0.0.1"));
        // Forwarded wins over X-Forwarded-For; ports and quotes and brackets are read.
        let h = headers(&[
            (
                "forwarded",
                "for=198.51.100.7;proto=https, for=\"[2001:db8::9]:4711\"",
            ),
            ("x-forwarded-for", "192.0.2.200"),
        ]);
        assert_eq!(resolve(ip("10.1.1.1"), &h, &trusted), ip("2001:db8::9"));
        let h = headers(&[("x-forwarded-for", "198.51.100.7:5555")]);
        assert_eq!(resolve(ip("127.0.0.1"), &h, &trusted), ip("198.51.100.7"));
        // Garbage stops the walk at the proxy that wrote it.
        let h = headers(&[("x-forwarded-for", "198.51.100.7, junk")]);
        assert_eq!(resolve(ip("127.0.0.1"), &h, &trusted), ip("127.0.0.1"));
        let h = headers(&[("forwarded", "for=unknown")]);
        assert_eq!(resolve(ip("127.0.0.1"), &h, &trusted), ip("127.0.0.1"));
        // Only proxies in the chain: the first one.
        let h = headers(&[("x-forwarded-for", "10.0.0.3, 10.0.0.2")]);
        assert_eq!(resolve(ip("127.0.0.1"), &h, &trusted), ip("10.0.0.3"));
    }

    #[test]
    fn ipv6_clients_are_counted_per_64() {
        assert_eq!(limit_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            limit_key(ip("2001:db8:1:2:ffff::9")),
            limit_key(ip("2001:db8:1:2::1"))
        );
        assert_ne!(
            limit_key(ip("2001:db8:1:3::1")),
            limit_key(ip("2001:db8:1:2::1"))
        );
        assert_eq!(limit_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(limit_key(ip("192.0.2.1")), ip("192.0.2.1"));
    }
}
