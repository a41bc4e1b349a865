//! The HTTP fixture server: serves one fetch [`Scenario`] on loopback so
//! that adapters whose parser fetches robots.txt by itself
//! (`urllib.robotparser`'s `read()`, robotparser's reqwest client, ...)
//! can be asked `fetch` requests against real HTTP.
//!
//! Built on `tiny_http` (pinned in `Cargo.toml`). Every host the scenario
//! names (`example.com`, `other.example`, ...) gets its own listener on
//! `127.0.0.1` and an ephemeral port, so a cross-host redirect really
//! changes the authority; `Location` headers are rewritten to the live
//! ports. Only `127.0.0.1` is ever bound or named.
//!
//! What each answer becomes on the wire:
//!
//! | answer | served as |
//! |---|---|
//! | a response | its status, headers (`Location` rewritten) and body, after `delay_ms` |
//! | `timeout` | the request is read and never answered (until the fixture stops) |
//! | `dropped` | the request is read and the connection ended with no response byte |
//! | `truncated` | `200`, `Content-Length: 100000`, then a few body bytes and the end |
//! | `bad-chunking` | `200`, `Transfer-Encoding: chunked`, then a chunk size that is not hex |
//! | `invalid-response` | a line that is not an HTTP status line |
//! | `refused` | every route of the host refused: the host's port has no listener (else as `dropped`) |
//! | `dns` | not served: [`Fixture::supports`] says so (a DNS failure would need a resolver) |
//!
//! `tiny_http` owns the sockets: an ended connection is closed at once
//! for clients that send `Connection: close` (Python's urllib), while a
//! keep-alive client (reqwest, requests) sees `dropped` and `truncated`
//! as a stall that its own timeout ends. Either way it is a network error.
//!
//! [`Fixture::stop`] (or drop) stops the listeners and joins every thread
//! it started; afterwards its ports refuse connections.

use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use robots_adapters::Live;
use robots_adapters::scenario::{
    Answer, NetworkError, Response, Scenario, origin,
};

/// How long an adapter's HTTP client may wait for one response. Short,
/// so that a stalled fetch ends well within the harness's own deadline
/// for the request (1 s for in-process crates).
pub const FETCH_TIMEOUT: Duration = Duration::from_millis(500);

/// The longest a `timeout` answer holds a connection, if never stopped.
const HOLD: Duration = Duration::from_secs(30);

/// One request the fixture received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The scenario URL it asked for (`http://example.com/robots.txt`).
    pub url: String,
    /// Its `User-Agent` header, if any.
    pub user_agent: Option<String>,
}

struct Host {
    /// The scenario's origin (`http://example.com`).
    origin: String,
    /// The live address.
    addr: SocketAddr,
    /// A listener serves it (else its port is closed: `refused`).
    served: bool,
}

/// A running fixture server for one scenario.
pub struct Fixture {
    hosts: Vec<Host>,
    start: String,
    stop: Arc<AtomicBool>,
    loops: Vec<JoinHandle<()>>,
    handlers: Arc<Mutex<Vec<JoinHandle<()>>>>,
    hits: Arc<Mutex<Vec<Hit>>>,
}

/// Sleeps `d`, waking early when `stop` is set.
fn nap(d: Duration, stop: &AtomicBool) {
    let until = Instant::now() + d;
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if now >= until {
            return;
        }
        thread::sleep((until - now).min(Duration::from_millis(20)));
    }
}

impl Fixture {
    /// `Err(why)` when `scenario` cannot be served live: it has a cached
    /// copy or a past outage (state only a model can hold), or a DNS
    /// failure.
    pub fn supports(scenario: &Scenario) -> Result<(), String> {
        if scenario.cached.is_some() {
            return Err("the scenario has a cached copy; only a model API \
                        can be given one"
                .into());
        }
        if scenario.unreachable_for > 0 || !scenario.site_available {
            return Err("the scenario has an outage history; only a model \
                        API can be given one"
                .into());
        }
        let dns = scenario
            .routes
            .iter()
            .any(|r| r.answer == Answer::Network(NetworkError::Dns));
        if dns {
            return Err("the fixture cannot fail DNS without querying a \
                        resolver"
                .into());
        }
        if scenario.hosts().iter().any(|h| !h.starts_with("http://")) {
            return Err("the fixture serves plain http:// only".into());
        }
        Ok(())
    }

    /// Starts serving `scenario` (see [`Fixture::supports`]).
    ///
    /// # Errors
    ///
    /// When the scenario cannot be served, or a loopback port cannot be
    /// bound.
    pub fn start(scenario: &Scenario) -> Result<Fixture, String> {
        Fixture::supports(scenario)?;
        let scenario = Arc::new(scenario.clone());
        let mut fixture = Fixture {
            hosts: Vec::new(),
            start: scenario.start.clone(),
            stop: Arc::new(AtomicBool::new(false)),
            loops: Vec::new(),
            handlers: Arc::default(),
            hits: Arc::default(),
        };
        let mut servers = Vec::new();
        for host in scenario.hosts() {
            let mine: Vec<&Answer> = scenario
                .routes
                .iter()
                .filter(|r| origin(&r.url).as_deref() == Some(host.as_str()))
                .map(|r| &r.answer)
                .collect();
            let refused = !mine.is_empty()
                && mine
                    .iter()
                    .all(|a| **a == Answer::Network(NetworkError::Refused));
            if refused {
                // A port that was free a moment ago and has no listener.
                let l = TcpListener::bind("127.0.0.1:0")
                    .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
                let addr = l.local_addr().map_err(|e| e.to_string())?;
                drop(l);
                fixture.hosts.push(Host { origin: host, addr, served: false });
                continue;
            }
            let server = tiny_http::Server::http("127.0.0.1:0")
                .map_err(|e| format!("cannot bind 127.0.0.1: {e}"))?;
            let addr = server
                .server_addr()
                .to_ip()
                .ok_or("the fixture listens on a non-IP address")?;
            fixture.hosts.push(Host {
                origin: host.clone(),
                addr,
                served: true,
            });
            servers.push((host, server));
        }
        let map: Arc<Vec<(String, String)>> = Arc::new(
            fixture
                .hosts
                .iter()
                .map(|h| (h.origin.clone(), format!("http://{}", h.addr)))
                .collect(),
        );
        for (host, server) in servers {
            let ctx = Ctx {
                host,
                scenario: scenario.clone(),
                map: map.clone(),
                stop: fixture.stop.clone(),
                hits: fixture.hits.clone(),
            };
            let handlers = fixture.handlers.clone();
            let spawned = thread::Builder::new()
                .name("robots-fixture".into())
                .spawn(move || serve(server, ctx, handlers))
                .map_err(|e| format!("cannot start a fixture thread: {e}"))?;
            fixture.loops.push(spawned);
        }
        Ok(fixture)
    }

    /// The live URL of the scenario's robots.txt.
    pub fn robots_url(&self) -> String {
        self.live_url(&self.start)
    }

    /// `url` (a path on the start's authority, or an absolute URL on a
    /// host of the scenario) on the fixture.
    pub fn live_url(&self, url: &str) -> String {
        let start = origin(&self.start).unwrap_or_default();
        let (from, rest) = if url.starts_with('/') {
            (start, url.to_string())
        } else {
            match origin(url) {
                Some(o) => {
                    let rest = after_authority(url).to_string();
                    (o, rest)
                }
                None => (start, format!("/{url}")),
            }
        };
        let rest = if rest.is_empty() { "/".to_string() } else { rest };
        match self.hosts.iter().find(|h| h.origin == from) {
            Some(h) => format!("http://{}{rest}", h.addr),
            // A host the scenario never names: the start's authority.
            None => match self.hosts.first() {
                Some(h) => format!("http://{}{rest}", h.addr),
                None => url.to_string(),
            },
        }
    }

    /// The [`Live`] target for deciding `url`.
    pub fn live(&self, url: &str) -> Live {
        Live {
            robots_url: self.robots_url(),
            url: self.live_url(url),
            timeout: FETCH_TIMEOUT,
        }
    }

    /// The live address of each host: (scenario origin, `127.0.0.1:port`).
    pub fn addresses(&self) -> Vec<(String, SocketAddr)> {
        self.hosts.iter().map(|h| (h.origin.clone(), h.addr)).collect()
    }

    /// Every request received so far, in order.
    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// Stops the listeners and joins every thread; the ports then refuse
    /// connections.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let served = !self.loops.is_empty();
        for l in self.loops.drain(..) {
            let _ = l.join();
        }
        // tiny_http closes a listener on its own accept thread: wait
        // (briefly) until every port refuses.
        let until = Instant::now() + Duration::from_secs(2);
        while served
            && Instant::now() < until
            && self.hosts.iter().filter(|h| h.served).any(|h| {
                std::net::TcpStream::connect_timeout(
                    &h.addr,
                    Duration::from_millis(100),
                )
                .is_ok()
            })
        {
            thread::sleep(Duration::from_millis(5));
        }
        let handlers: Vec<JoinHandle<()>> = self
            .handlers
            .lock()
            .map(|mut h| h.drain(..).collect())
            .unwrap_or_default();
        for h in handlers {
            let _ = h.join();
        }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The path and query of an absolute URL (empty when it has none).
fn after_authority(url: &str) -> &str {
    let url = url.split('#').next().unwrap_or_default();
    let Some(i) = url.find("://") else { return url };
    let rest = &url[i + 3..];
    &rest[rest.find(['/', '?']).unwrap_or(rest.len())..]
}

struct Ctx {
    host: String,
    scenario: Arc<Scenario>,
    map: Arc<Vec<(String, String)>>,
    stop: Arc<AtomicBool>,
    hits: Arc<Mutex<Vec<Hit>>>,
}

/// The accept loop of one host: each request on its own thread, so a
/// slow answer never holds up another.
fn serve(
    server: tiny_http::Server,
    ctx: Ctx,
    handlers: Arc<Mutex<Vec<JoinHandle<()>>>>,
) {
    let ctx = Arc::new(ctx);
    while !ctx.stop.load(Ordering::Relaxed) {
        let request = match server.recv_timeout(Duration::from_millis(20)) {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(_) => break,
        };
        let ctx = ctx.clone();
        let spawned = thread::Builder::new()
            .name("robots-fixture-request".into())
            .spawn(move || handle(request, &ctx));
        if let (Ok(h), Ok(mut list)) = (spawned, handlers.lock()) {
            list.push(h);
        }
    }
    // Dropping the server closes its listening socket.
    drop(server);
}

/// `location` with a scenario host replaced by its live address.
fn rewrite(location: &str, map: &[(String, String)]) -> String {
    let Some(o) = origin(location) else { return location.to_string() };
    match map.iter().find(|(from, _)| *from == o) {
        Some((_, live)) => format!("{live}{}", after_authority(location)),
        None => location.to_string(),
    }
}

fn header(name: &str, value: &str) -> Option<tiny_http::Header> {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn handle(request: tiny_http::Request, ctx: &Ctx) {
    let url = format!("{}{}", ctx.host, request.url());
    let user_agent = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("User-Agent"))
        .map(|h| h.value.to_string());
    if let Ok(mut hits) = ctx.hits.lock() {
        hits.push(Hit { url: url.clone(), user_agent });
    }
    match ctx.scenario.answer(&url) {
        Answer::Response(r) => respond(request, &r, ctx),
        Answer::Network(e) => fail(request, e, &ctx.stop),
    }
}

fn respond(request: tiny_http::Request, r: &Response, ctx: &Ctx) {
    nap(Duration::from_millis(r.delay_ms), &ctx.stop);
    let mut response = tiny_http::Response::from_data(r.body.to_vec())
        .with_status_code(r.status);
    for (name, value) in &r.headers {
        let value = if name.eq_ignore_ascii_case("location") {
            rewrite(value, &ctx.map)
        } else {
            value.clone()
        };
        if let Some(h) = header(name, &value) {
            response.add_header(h);
        }
    }
    let _ = request.respond(response);
}

fn fail(request: tiny_http::Request, e: NetworkError, stop: &AtomicBool) {
    if e == NetworkError::Timeout {
        nap(HOLD, stop);
    }
    let raw: &[u8] = match e {
        NetworkError::Truncated => {
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \
              100000\r\nConnection: close\r\n\r\nUser-agent: *\nDisallow: /"
        }
        NetworkError::BadChunking => {
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: \
              chunked\r\nConnection: close\r\n\r\nzz\r\nUser-agent: *\r\n"
        }
        NetworkError::InvalidResponse => b"this is not HTTP\r\n\r\n",
        _ => b"",
    };
    let mut w = request.into_writer();
    let _ = w.write_all(raw);
    let _ = w.flush();
}

#[cfg(test)]
mod tests {
    use super::*;
    use robots_adapters::scenario::{Route, Scenario};
    use std::io::Read;
    use std::net::TcpStream;

    fn get(url: &str) -> String {
        let rest = url.strip_prefix("http://").unwrap();
        let (authority, path) = rest.split_at(rest.find('/').unwrap());
        let mut s = TcpStream::connect(authority).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    #[test]
    fn serves_statuses_rewrites_locations_and_stops() {
        let mut s = Scenario::single(Answer::redirect(
            301,
            "http://other.example/robots.txt",
        ));
        s.routes.push(Route {
            url: "http://other.example/robots.txt".into(),
            answer: Answer::ok(b"User-agent: *\nDisallow: /\n"),
        });
        let f = Fixture::start(&s).unwrap();
        let addrs = f.addresses();
        assert_eq!(addrs.len(), 2);
        assert!(addrs.iter().all(|(_, a)| a.ip().is_loopback()));
        let first = get(&f.robots_url());
        assert!(first.starts_with("HTTP/1.1 301"), "{first}");
        let other = format!("http://{}/robots.txt", addrs[1].1);
        assert!(first.contains(&format!("Location: {other}")), "{first}");
        let second = get(&other);
        assert!(second.ends_with("Disallow: /\n"), "{second}");
        assert!(get(&f.live_url("/nope")).starts_with("HTTP/1.1 404"));
        assert_eq!(f.hits().len(), 3);
        f.stop();
        for (_, a) in addrs {
            assert!(TcpStream::connect(a).is_err(), "{a} still listening");
        }
    }

    #[test]
    fn network_errors() {
        let f = Fixture::start(&Scenario::single(Answer::Network(
            NetworkError::Dropped,
        )))
        .unwrap();
        assert_eq!(get(&f.robots_url()), "");
        drop(f);
        let f = Fixture::start(&Scenario::single(Answer::Network(
            NetworkError::Refused,
        )))
        .unwrap();
        let addr = f.addresses()[0].1;
        assert!(TcpStream::connect(addr).is_err());
        let s = Scenario::single(Answer::Network(NetworkError::Dns));
        assert!(Fixture::start(&s).is_err());
    }
}
