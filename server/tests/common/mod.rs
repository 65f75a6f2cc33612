//! `TestApp`: the whole router on a fresh, migrated database per test (a
//! SQLite file, or a new PostgreSQL database when `LEXPILOT_TEST_PG` is
//! set), called through `oneshot` (no port).

#![allow(dead_code)]

pub mod cli;
pub mod evalscope;
pub mod json;
pub mod process;

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use db::Db;
use engine::accounts::Role;
use http_body_util::BodyExt;
use serde_json::Value;
use server::{config, router, AppState};
use tower::ServiceExt;

/// One multi-threaded runtime per test binary that every router runs on, as
/// the server's one runtime does: renders, the tasks Leptos spawns for them
/// and the requests' database work live there, not on the test's own
/// runtime, which ends with the test.
pub fn server_runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("the server runtime")
    })
}

pub struct TestApp {
    pub db: Db,
    /// The app's job runner.
    pub jobs: services::jobs::JobManager,
    /// The app's bound on evalscope imports at once.
    pub imports: services::evalscope::ImportGate,
    /// The app's read models (their counters show what a request built).
    pub read: services::read::ReadModels,
    router: Router,
    pages: services::pages::PageCache,
    _dir: tempfile::TempDir,
}

pub struct TestResponse {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl TestResponse {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn location(&self) -> Option<&str> {
        self.headers
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
    }

    /// The `name=value` of the session cookie this response sets.
    pub fn session_cookie(&self) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with(app::ssr::SESSION_COOKIE))
            .and_then(|c| c.split(';').next())
            .map(str::to_owned)
    }
}

impl TestApp {
    /// A fresh database with the demo dataset loaded, as on a first start.
    pub async fn with_demo() -> TestApp {
        let app = TestApp::empty().await;
        server::demo::ensure_loaded(&app.db)
            .await
            .expect("demo loads");
        app
    }

    /// A fresh, migrated database with nothing in it.
    pub async fn empty() -> TestApp {
        TestApp::with_network_empty(server::Network::default()).await
    }

    /// The demo app, served as `network` says (secure cookies, a proxy in front).
    pub async fn with_network(network: server::Network) -> TestApp {
        let app = TestApp::with_network_empty(network).await;
        server::demo::ensure_loaded(&app.db)
            .await
            .expect("demo loads");
        app
    }

    /// The app on the database file at `path` (migrated on open), as
    /// `lexpilot serve --db PATH` would serve it.
    pub async fn on_database(path: &std::path::Path) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Db::open(path).await.expect("database opens");
        TestApp::serving(db, dir, server::Network::default())
    }

    async fn with_network_empty(network: server::Network) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Db::open_for_test(Some(&dir.path().join("test.db")))
            .await
            .expect("database opens");
        TestApp::serving(db, dir, network)
    }

    fn serving(db: Db, dir: tempfile::TempDir, network: server::Network) -> TestApp {
        let addr: SocketAddr = "127.0.0.1:3000".parse().expect("address");
        let state = AppState::new(services::Shared {
            leptos_options: config::leptos_options(addr),
            db: db.clone(),
            jobs: services::jobs::JobManager::new(dir.path().join("data")),
            network,
            read: services::read::ReadModels::default(),
            statutes: services::statutes::StatuteCache::default(),
            assets: services::pages::Assets::default(),
            pages: services::pages::PageCache::following(&db),
            imports: services::evalscope::ImportGate::default(),
        });
        TestApp {
            db,
            jobs: state.jobs.clone(),
            imports: state.imports.clone(),
            read: state.read.clone(),
            pages: state.pages.clone(),
            router: router(state),
            _dir: dir,
        }
    }

    /// The test's temporary directory: the database file and the jobs' data dir.
    pub fn dir(&self) -> &std::path::Path {
        self._dir.path()
    }

    pub async fn user(&self, name: &str, role: Role, password: &str) {
        db::users::create(&self.db, name, role, password)
            .await
            .expect("user created");
    }

    /// An API token of a new account `name` with `role`.
    pub async fn token(&self, name: &str, role: Role) -> String {
        self.user(name, role, "a-long-password").await;
        let user = db::users::by_name(&self.db, name)
            .await
            .expect("query")
            .expect("user");
        db::tokens::create(&self.db, &user).await.expect("token")
    }

    /// The cache of reading pages the app serves anonymous visitors from.
    pub fn state_pages(&self) -> &services::pages::PageCache {
        &self.pages
    }

    /// Sends `req` through the router; the response's status, headers and
    /// body bytes as sent (not decoded).
    pub async fn send_raw(
        &self,
        req: Request<Body>,
    ) -> (StatusCode, axum::http::HeaderMap, axum::body::Bytes) {
        let router = self.router.clone();
        server_runtime()
            .spawn(async move {
                let res = router.oneshot(req).await.expect("router answers");
                let status = res.status();
                let headers = res.headers().clone();
                let bytes = res.into_body().collect().await.expect("body").to_bytes();
                (status, headers, bytes)
            })
            .await
            .expect("the request task")
    }

    /// Sends `req` through the router and reads the whole response. The
    /// router runs on the server runtime ([`server_runtime`]), as under
    /// `lexpilot serve`, never on the test's own.
    pub async fn send(&self, req: Request<Body>) -> TestResponse {
        let router = self.router.clone();
        server_runtime()
            .spawn(async move {
                let res = router.oneshot(req).await.expect("router answers");
                let status = res.status();
                let headers = res.headers().clone();
                let bytes = res.into_body().collect().await.expect("body").to_bytes();
                TestResponse {
                    status,
                    headers,
                    body: String::from_utf8_lossy(&bytes).into_owned(),
                }
            })
            .await
            .expect("the request task")
    }

    /// The response to a GET whose body is left unread (for streams).
    pub async fn open_stream(&self, uri: &str) -> axum::response::Response {
        let req = Request::get(uri)
            .header(header::HOST, "127.0.0.1:3000")
            .body(Body::empty())
            .expect("request");
        let router = self.router.clone();
        server_runtime()
            .spawn(async move { router.oneshot(req).await.expect("router answers") })
            .await
            .expect("the request task")
    }

    pub async fn get(&self, uri: &str) -> TestResponse {
        self.get_with_cookie(uri, None).await
    }

    /// GET `uri` until `holds` of the response, for at most two seconds;
    /// the last response. For pages read after another process (the
    /// command line) wrote to the database: a cached reading page sees such
    /// a write within [`db::events::POLL`].
    pub async fn get_when(&self, uri: &str, holds: impl Fn(&TestResponse) -> bool) -> TestResponse {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        loop {
            let res = self.get(uri).await;
            if holds(&res) || std::time::Instant::now() > deadline {
                return res;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    pub async fn get_with_cookie(&self, uri: &str, cookie: Option<&str>) -> TestResponse {
        let mut req = Request::get(uri).header(header::HOST, "127.0.0.1:3000");
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        self.send(req.body(Body::empty()).expect("request")).await
    }

    /// A same-origin urlencoded form post, as a browser sends it.
    pub async fn post_form(&self, uri: &str, form: &str, cookie: Option<&str>) -> TestResponse {
        let mut req = Request::post(uri)
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, "http://127.0.0.1:3000")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        self.send(req.body(Body::from(form.to_owned())).expect("request"))
            .await
    }

    /// Calls server function `F` with a url-encoded body, as a form or the
    /// hydrated page does. Keys go as they are, so that a list can be sent
    /// as `experts[0]=…&experts[1]=…`; values are percent-encoded.
    pub async fn call<F: leptos::server_fn::ServerFn>(
        &self,
        cookie: Option<&str>,
        pairs: &[(&str, &str)],
    ) -> TestResponse {
        let body = pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", enc(v)))
            .collect::<Vec<_>>()
            .join("&");
        self.post_form(F::PATH, &body, cookie).await
    }

    /// The JSON of a server function call that must succeed (`null` for an
    /// empty or non-JSON reply).
    pub async fn ok<F: leptos::server_fn::ServerFn>(
        &self,
        cookie: Option<&str>,
        pairs: &[(&str, &str)],
    ) -> Value {
        let res = self.call::<F>(cookie, pairs).await;
        assert_eq!(res.status, StatusCode::OK, "{}: {}", F::PATH, res.body);
        serde_json::from_str(&res.body).unwrap_or(Value::Null)
    }

    /// A same-origin JSON post (as the upload page and the job estimate
    /// call their server functions), acting through `auth`: a session
    /// cookie, an API token or no one.
    pub async fn post_json(&self, path: &str, auth: Auth<'_>, body: Value) -> TestResponse {
        let req = Request::post(path)
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, "http://127.0.0.1:3000")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json");
        let req = match auth {
            Auth::Cookie(c) => req.header(header::COOKIE, c),
            Auth::Token(t) => req.header(header::AUTHORIZATION, format!("Bearer {t}")),
            Auth::Anonymous => req,
        };
        self.send(req.body(Body::from(body.to_string())).expect("request"))
            .await
    }

    /// Signs in through the form and returns the session cookie.
    pub async fn sign_in(&self, name: &str, password: &str) -> String {
        let res = self
            .post_form(
                "/auth/signin",
                &form(&[("name", name), ("password", password)]),
                None,
            )
            .await;
        res.session_cookie()
            .filter(|c| !c.ends_with('='))
            .expect("signed in")
    }
}

/// Who a request acts for.
#[derive(Clone, Copy)]
pub enum Auth<'a> {
    Cookie(&'a str),
    Token(&'a str),
    Anonymous,
}

/// The demo app with an admin, two experts and a researcher, signed in.
pub struct Team {
    pub app: TestApp,
    pub admin: String,
    pub expert_a: String,
    pub expert_b: String,
    pub researcher: String,
}

impl Team {
    pub const PASSWORD: &'static str = "a-long-password";

    pub async fn demo() -> Team {
        let app = TestApp::with_demo().await;
        for (name, role) in [
            ("admin", Role::Admin),
            ("expert-a", Role::Expert),
            ("expert-b", Role::Expert),
            ("researcher", Role::Researcher),
        ] {
            app.user(name, role, Self::PASSWORD).await;
        }
        Team {
            admin: app.sign_in("admin", Self::PASSWORD).await,
            expert_a: app.sign_in("expert-a", Self::PASSWORD).await,
            expert_b: app.sign_in("expert-b", Self::PASSWORD).await,
            researcher: app.sign_in("researcher", Self::PASSWORD).await,
            app,
        }
    }
}

/// The first link in `body` whose address starts with `prefix`, with its
/// `&amp;` read back as `&`.
pub fn first_link(body: &str, prefix: &str) -> String {
    let at = body
        .find(&format!("href=\"{prefix}"))
        .unwrap_or_else(|| panic!("a link to {prefix}"));
    let rest = &body[at + 6..];
    rest[..rest.find('"').expect("the link ends")].replace("&amp;", "&")
}

/// `POST /api/runs{query}` of the run file `body`, with API token `token`.
pub fn upload(token: &str, body: String, query: &str) -> Request<Body> {
    Request::post(format!("/api/runs{query}"))
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from(body))
        .expect("request")
}

/// Demo run `index` (of `server::demo::DEMO_RUNS`) with the header fields `set`.
pub fn demo_run_with_header(index: usize, set: &[(&str, Value)]) -> String {
    let (_, text) = server::demo::DEMO_RUNS[index];
    let header_end = text.find('\n').expect("a header line");
    let mut header: Value = serde_json::from_str(&text[..header_end]).expect("a JSON header");
    for (field, value) in set {
        header[*field] = value.clone();
    }
    format!("{header}{}", &text[header_end..])
}

/// Demo run `index` re-labelled as `model`'s run 1.
pub fn demo_run_as(index: usize, model: &str) -> String {
    demo_run_with_header(index, &[("model", model.into()), ("run", 1.into())])
}

/// `application/x-www-form-urlencoded` for `pairs` (UTF-8, percent-encoded).
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
