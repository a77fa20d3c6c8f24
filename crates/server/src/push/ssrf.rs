//! Where the push worker may connect (docs/security.md, "Push endpoints"): a subscription's
//! endpoint is a URL chosen by whoever holds a seat, and the server opens a TLS connection to it.
//! Without these checks it could be made to reach this machine, its private network or a cloud
//! metadata service (server-side request forgery).
//!
//! - At subscription and again before each delivery, [`check_endpoint`]: https only, no
//!   credentials, a host name with at least two labels and no trailing dot, none of the
//!   special-use names (`localhost`, `.local`, `.internal`…), an IP literal only if public
//!   ([`forbidden`]), and, if the operator set one, a host on the allow-list.
//! - At connection time, [`GuardedResolver`] is the HTTP client's DNS resolver: it resolves the
//!   name (static entries first, then the system) and refuses the connection if **any**
//!   address is not public, so a name that resolves to 127.0.0.1 or is rebound between two
//!   lookups never gets a connection. IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6
//!   addresses are judged by the IPv4 address they carry.
//!
//! The test flag `allow_loopback_http` lets `http://` endpoints on loopback addresses through
//! (a push service in the tests), nothing else.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::Url;

use crate::error::AppError;
use crate::options::Push;

/// Longest subscription endpoint accepted.
pub const MAX_ENDPOINT: usize = 1024;

/// Top-level names that never reach a public push service (RFC 6761, RFC 6762, RFC 8375, and
/// the usual private ones).
const PRIVATE_TLDS: &[&str] = &[
    "localhost",
    "local",
    "localdomain",
    "internal",
    "intranet",
    "lan",
    "home",
    "corp",
    "private",
    "test",
    "invalid",
    "example",
    "onion",
    "arpa",
    "alt",
];

/// Known push services, for `--push-allow-host known`.
pub const KNOWN_PUSH_SERVICES: &[&str] = &[
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
];

/// Why an IPv4 address is not public, if it is not.
fn forbidden_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, ..) => "unspecified (0.0.0.0/8)",
        (10, ..) => "private (10.0.0.0/8)",
        (100, 64..=127, _) => "shared address space, CGNAT (100.64.0.0/10)",
        (127, ..) => "loopback (127.0.0.0/8)",
        (169, 254, _) => "link-local (169.254.0.0/16)",
        (172, 16..=31, _) => "private (172.16.0.0/12)",
        (192, 0, 0) => "IETF protocol assignments (192.0.0.0/24)",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
        (192, 88, 99) => "6to4 relay (192.88.99.0/24)",
        (192, 168, _) => "private (192.168.0.0/16)",
        (198, 18..=19, _) => "benchmarking (198.18.0.0/15)",
        (224..=239, ..) => "multicast (224.0.0.0/4)",
        (240..=255, ..) => "reserved or broadcast (240.0.0.0/4)",
        _ => return None,
    })
}

/// The IPv4 address an IPv6 address stands for: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
/// `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` (RFC 6052), 6to4 `2002:AABB:CCDD::/48` (RFC 3056).
pub fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let low = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    match s {
        [0, 0, 0, 0, 0, 0xffff, ..] => Some(low),
        [0, 0, 0, 0, 0, 0, ..] if u128::from(ip) > 1 => Some(low),
        [0x64, 0xff9b, 0, 0, 0, 0, ..] => Some(low),
        [0x2002, hi, lo, ..] => Some(Ipv4Addr::new(
            (hi >> 8) as u8,
            hi as u8,
            (lo >> 8) as u8,
            lo as u8,
        )),
        _ => None,
    }
}

/// Why an address may not be connected to, or `None` if it is a public unicast address.
pub fn forbidden(ip: IpAddr) -> Option<&'static str> {
    let v6 = match ip {
        IpAddr::V4(v4) => return forbidden_v4(v4),
        IpAddr::V6(v6) => v6,
    };
    if let Some(v4) = embedded_v4(v6) {
        return forbidden_v4(v4);
    }
    let s = v6.segments();
    Some(match s[0] {
        _ if v6.is_unspecified() => "unspecified (::)",
        _ if v6.is_loopback() => "loopback (::1)",
        0x64 if s[1] == 0xff9b => "local-use NAT64 (64:ff9b:1::/48)",
        0xfc00..=0xfdff => "unique local (fc00::/7)",
        0xfe80..=0xfebf => "link-local (fe80::/10)",
        0xfec0..=0xfeff => "site-local (fec0::/10)",
        0xff00..=0xffff => "multicast (ff00::/8)",
        0x2001 if s[1] < 0x200 => "IETF protocol assignments, Teredo (2001::/23)",
        0x2001 if s[1] == 0xdb8 => "documentation (2001:db8::/32)",
        0x3fff if s[1] < 0x1000 => "documentation (3fff::/20)",
        0x2000..=0x3fff => return None,
        _ => "not global unicast (outside 2000::/3)",
    })
}

/// The push settings that decide where deliveries may go.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// `http://` to loopback addresses allowed (tests).
    pub allow_loopback_http: bool,
    /// Host names (and their subdomains) allowed; empty: any public host.
    pub allowed_hosts: Vec<String>,
    /// Names resolved to these addresses without asking DNS (still checked).
    pub static_hosts: Vec<(String, IpAddr)>,
}

impl Policy {
    /// The policy of the push settings.
    pub fn of(push: &Push) -> Self {
        let allowed_hosts = push
            .allowed_hosts
            .iter()
            .flat_map(|h| match h.as_str() {
                "known" => KNOWN_PUSH_SERVICES
                    .iter()
                    .map(|k| (*k).to_owned())
                    .collect(),
                other => vec![other.trim_matches('.').to_ascii_lowercase()],
            })
            .collect();
        Self {
            allow_loopback_http: push.allow_loopback_http,
            allowed_hosts,
            static_hosts: push.static_hosts.clone(),
        }
    }

    /// Why a connection to `ip` is refused, if it is.
    fn refuses(&self, ip: IpAddr) -> Option<&'static str> {
        let loopback = match ip {
            IpAddr::V4(v4) => v4.is_loopback(),
            IpAddr::V6(v6) => {
                v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            }
        };
        if self.allow_loopback_http && loopback {
            return None;
        }
        forbidden(ip)
    }

    /// Why a host name is refused, if it is.
    fn refuses_name(&self, host: &str) -> Option<String> {
        let host = host.to_ascii_lowercase();
        if host.ends_with('.') {
            return Some("a host name may not end with a dot".into());
        }
        let labels: Vec<&str> = host.split('.').collect();
        if labels.len() < 2 || labels.iter().any(|l| l.is_empty()) {
            return Some("a host name needs a domain (no single-label names)".into());
        }
        if labels.last().is_some_and(|tld| PRIVATE_TLDS.contains(tld)) {
            return Some("a special-use or private domain".into());
        }
        let listed = self
            .allowed_hosts
            .iter()
            .any(|a| host == *a || host.ends_with(&format!(".{a}")));
        if !self.allowed_hosts.is_empty() && !listed {
            return Some("not one of the allowed push services".into());
        }
        None
    }
}

/// The host of an endpoint, for logs (the rest of the URL is a per-subscription secret).
pub fn host_of(endpoint: &str) -> String {
    Url::parse(endpoint)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| "(unreadable endpoint)".into())
}

/// Checks a subscription endpoint against `policy`.
///
/// # Errors
/// `invalid_input` saying why.
pub fn check_endpoint(endpoint: &str, policy: &Policy) -> Result<(), AppError> {
    let bad = |why: &str| Err(AppError::Invalid(format!("endpoint: {why}")));
    if endpoint.len() > MAX_ENDPOINT {
        return bad("too long");
    }
    let Ok(url) = Url::parse(endpoint) else {
        return bad("not a URL");
    };
    if !url.username().is_empty() || url.password().is_some() {
        return bad("no credentials");
    }
    let ip = match url.host() {
        Some(url::Host::Ipv4(v4)) => Some(IpAddr::V4(v4)),
        Some(url::Host::Ipv6(v6)) => Some(IpAddr::V6(v6)),
        Some(url::Host::Domain(_)) => None,
        None => return bad("no host"),
    };
    match (url.scheme(), ip) {
        ("http", Some(ip)) if policy.allow_loopback_http && ip.is_loopback() => Ok(()),
        ("https", Some(ip)) => match forbidden(ip) {
            Some(why) if !(policy.allow_loopback_http && ip.is_loopback()) => {
                bad(&format!("not a public address: {why}"))
            }
            _ => Ok(()),
        },
        ("https", None) => match policy.refuses_name(url.host_str().unwrap_or("")) {
            Some(why) => bad(&why),
            None => Ok(()),
        },
        _ => bad("must be https"),
    }
}

/// The resolver refused a name: it is not public, or one of its addresses is not.
#[derive(Debug)]
pub struct Refused {
    /// The host name.
    pub host: String,
    /// Why.
    pub why: String,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "push host {} refused: {}", self.host, self.why)
    }
}

impl std::error::Error for Refused {}

/// The push client's DNS resolver: every address it gives is public (see the module doc).
#[derive(Clone, Debug)]
pub struct GuardedResolver {
    policy: Arc<Policy>,
}

impl GuardedResolver {
    /// A resolver applying `policy`.
    pub fn new(policy: Arc<Policy>) -> Self {
        Self { policy }
    }

    /// The addresses of `host`, all allowed, or why not.
    ///
    /// # Errors
    /// [`Refused`] (boxed) for a refused name or address; the lookup's error if it failed.
    pub async fn lookup(
        &self,
        host: &str,
    ) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
        let refused = |why: String| {
            Box::new(Refused {
                host: host.to_owned(),
                why,
            })
        };
        if let Some(why) = self.policy.refuses_name(host) {
            return Err(refused(why));
        }
        let pinned: Vec<SocketAddr> = self
            .policy
            .static_hosts
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case(host))
            .map(|(_, ip)| SocketAddr::new(*ip, 0))
            .collect();
        let addrs = if pinned.is_empty() {
            tokio::net::lookup_host((host, 0)).await?.collect()
        } else {
            pinned
        };
        if addrs.is_empty() {
            return Err(refused("no address".into()));
        }
        // One bad address refuses them all: a name that mixes public and private addresses is
        // an attack on whichever the client would try first.
        if let Some(why) = addrs.iter().find_map(|a| self.policy.refuses(a.ip())) {
            return Err(refused(format!("it resolves to an address that is {why}")));
        }
        Ok(addrs)
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let this = self.clone();
        Box::pin(async move {
            let addrs = this.lookup(name.as_str()).await?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// Whether `err` (a delivery's error) is the resolver's refusal.
pub fn is_refused(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(err);
    while let Some(e) = source {
        if e.downcast_ref::<Refused>().is_some() {
            return true;
        }
        source = e.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy::default()
    }

    #[test]
    fn non_public_addresses_are_refused_in_every_disguise() {
        for ip in [
            "127.0.0.1",
            "127.1.2.3",
            "0.0.0.0",
            "10.0.0.1",
            "100.64.0.1",
            "169.254.169.254",
            "172.31.255.255",
            "192.168.1.1",
            "192.0.0.8",
            "192.0.2.1",
            "198.18.0.1",
            "198.51.100.1",
            "203.0.113.1",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::7f00:1",
            "64:ff9b:1::1",
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::",
            "2001::1",
            "2001:db8::1",
            "3fff::1",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "100::1",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert!(forbidden(ip).is_some(), "{ip} must be refused");
        }
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "2a00:1450::1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            let ip: IpAddr = ip.parse().unwrap();
            assert_eq!(forbidden(ip), None, "{ip} is public");
        }
    }

    #[test]
    fn endpoints_must_be_https_to_public_named_hosts() {
        let p = policy();
        assert!(check_endpoint("https://fcm.googleapis.com/fcm/send/abc", &p).is_ok());
        assert!(check_endpoint("https://8.8.8.8/x", &p).is_ok());
        for bad in [
            "http://push.example.net/x",
            "https://user:pw@push.example.net/x",
            "ftp://push.example.net/x",
            "not a url",
            "https://localhost/x",
            "https://localhost./x",
            "https://push.example.net./x",
            "https://pushhost/x",
            "https://a.localhost/x",
            "https://printer.local/x",
            "https://metadata.google.internal/x",
            "https://127.1/x",
            "https://0x7f000001/x",
            "https://2130706433/x",
            "https://[::ffff:127.0.0.1]:8443/x",
            "https://[::ffff:169.254.169.254]/x",
            "https://[::ffff:10.0.0.1]/x",
            "https://[fe80::1]/x",
            "https://100.64.0.1/x",
            "https://[64:ff9b::a9fe:a9fe]/x",
            "http://127.0.0.1:9/x",
        ] {
            assert!(check_endpoint(bad, &p).is_err(), "{bad} must be refused");
        }
        let long = format!("https://push.example.net/{}", "a".repeat(1100));
        assert!(check_endpoint(&long, &p).is_err());
    }

    #[test]
    fn the_test_flag_lets_only_loopback_http_through() {
        let p = Policy {
            allow_loopback_http: true,
            ..policy()
        };
        assert!(check_endpoint("http://127.0.0.1:9/x", &p).is_ok());
        assert!(check_endpoint("http://[::1]:9/x", &p).is_ok());
        assert!(check_endpoint("http://push.example.net/x", &p).is_err());
        assert!(check_endpoint("https://192.168.1.2/x", &p).is_err());
        assert!(check_endpoint("http://10.0.0.1/x", &p).is_err());
    }

    #[test]
    fn an_allow_list_keeps_only_its_hosts_and_their_subdomains() {
        let p = Policy::of(&Push {
            allowed_hosts: vec!["known".into(), "push.example.org".into()],
            ..Push::default()
        });
        assert!(check_endpoint("https://fcm.googleapis.com/fcm/send/x", &p).is_ok());
        assert!(check_endpoint("https://wns2-par02p.notify.windows.com/w/x", &p).is_ok());
        assert!(check_endpoint("https://push.example.org/x", &p).is_ok());
        assert!(check_endpoint("https://evil.com/x", &p).is_err());
        assert!(check_endpoint("https://notfcm.googleapis.com.evil.com/x", &p).is_err());
        assert!(
            check_endpoint("https://8.8.8.8/x", &p).is_ok(),
            "IPs: by address"
        );
    }

    #[tokio::test]
    async fn the_resolver_refuses_names_with_any_private_address() {
        let resolver = GuardedResolver::new(Arc::new(Policy {
            static_hosts: vec![
                ("rebind.example.net".into(), "8.8.8.8".parse().unwrap()),
                ("rebind.example.net".into(), "127.0.0.1".parse().unwrap()),
                (
                    "mapped.example.net".into(),
                    "::ffff:10.1.2.3".parse().unwrap(),
                ),
                ("good.example.net".into(), "8.8.4.4".parse().unwrap()),
            ],
            ..policy()
        }));
        for host in [
            "rebind.example.net",
            "mapped.example.net",
            "localhost",
            "x.localhost",
        ] {
            let err = resolver.lookup(host).await.unwrap_err();
            assert!(is_refused(err.as_ref()), "{host}: {err}");
        }
        let good = resolver.lookup("good.example.net").await.unwrap();
        assert_eq!(good[0].ip(), "8.8.4.4".parse::<IpAddr>().unwrap());
    }
}
