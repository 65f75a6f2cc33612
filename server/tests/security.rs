//! The findings of the security and reliability probe (issue 10), each held
//! by a test: stored names never become markup in any page's head, every
//! script a page carries is the render's own (CSP nonce), security headers
//! on every response, sign-in throttled per client address with 429, CSV
//! cells that cannot run as formulas, role-only pages refused to others,
//! unreadable server-function input answered 400/413, names validated, and
//! concurrent uploads that never answer 500.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use common::{enc, form, TestApp, TestResponse};
use engine::accounts::Role;
use server::demo::{DEMO_DATASET, DEMO_RUNS};

const PASSWORD: &str = "a-long-password";
/// A name that closes the title and opens a script, as the probe stored it.
const HOSTILE: &str = "</title><script>alert('pwned')</script><img src=x onerror=alert(1)>";
/// The same as a case id, which cannot hold `/` (it is one part of a page
/// address).
const HOSTILE_ID: &str = "<title><script>alert('pwned')<img src=x onerror=alert(1)>";

/// A demo run re-labelled as `model`'s run `n` (`model` JSON-escaped).
fn run_file(model: &str, n: u32) -> String {
    let name = serde_json::to_string(model).expect("a JSON string");
    DEMO_RUNS[6]
        .1
        .replacen("\"Sim-Frontier-2 (simulated)\"", &name, 1)
        .replacen("\"run\": 1,", &format!("\"run\": {n},"), 1)
}

async fn token(app: &TestApp, name: &str, role: Role) -> String {
    app.user(name, role, PASSWORD).await;
    let user = db::users::by_name(&app.db, name)
        .await
        .expect("query")
        .expect("user");
    db::tokens::create(&app.db, &user).await.expect("token")
}

fn upload_request(token: &str, body: String, query: &str) -> Request<Body> {
    Request::post(format!("/api/runs{query}"))
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::from(body))
        .expect("request")
}

/// The nonce of the page's Content-Security-Policy.
fn csp_nonce(res: &TestResponse) -> String {
    let policy = res
        .headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no CSP on the page: {:?}", res.headers));
    let start = policy.find("'nonce-").expect("a nonce in the CSP") + "'nonce-".len();
    let end = policy[start..].find('\'').expect("the nonce ends") + start;
    policy[start..end].to_owned()
}

/// The `script-src` directive of the page's Content-Security-Policy.
fn script_src(res: &TestResponse) -> String {
    let policy = res
        .headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no CSP on the page: {:?}", res.headers));
    policy
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src "))
        .unwrap_or_else(|| panic!("no script-src: {policy}"))
        .to_owned()
}

/// The page's head holds one title and no markup from stored text, and no
/// script could run but the app's own: on a page that hydrates every script
/// element carries the CSP nonce of this response; a reading page allows
/// only the site's own script files and carries no inline script.
fn assert_markup_is_the_apps_own(res: &TestResponse, what: &str) {
    let body = &res.body;
    let head = &body[..body
        .find("</head>")
        .unwrap_or_else(|| panic!("{what}: no head"))];
    assert_eq!(head.matches("<title>").count(), 1, "{what}: {head}");
    assert_eq!(head.matches("</title>").count(), 1, "{what}: {head}");
    assert!(
        !body.contains("<script>alert"),
        "{what}: the stored script is in the page"
    );
    assert!(
        !body.contains("<img src=x"),
        "{what}: the stored image is in the page"
    );
    if script_src(res) == "script-src 'self'" {
        for (at, _) in body.match_indices("<script") {
            let tag = &body[at..at + body[at..].find('>').expect("a tag ends")];
            assert!(tag.contains(" src=\"/"), "{what}: an inline script: {tag}");
            assert!(
                body[at..].starts_with(&format!("{tag}></script>")),
                "{what}: a script with content: {tag}"
            );
        }
        return;
    }
    let nonce = format!("nonce=\"{}\"", csp_nonce(res));
    for (at, _) in body.match_indices("<script") {
        let tag = &body[at..at + body[at..].find('>').expect("a tag ends")];
        assert!(
            tag.contains(&nonce),
            "{what}: a script without the nonce: {tag}"
        );
    }
}

#[tokio::test]
async fn stored_model_names_and_case_ids_never_become_markup() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let res = app
        .send(upload_request(&researcher, run_file(HOSTILE, 1), ""))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);

    let model = enc(HOSTILE);
    for uri in [
        format!("/models/{model}"),
        format!("/leaderboard/items?model={model}&task=lca"),
        format!("/leaderboard/items?model={model}&task=ljp&setup=gold&class=family"),
        "/leaderboard".to_owned(),
        "/leaderboard?task=dcg".to_owned(),
    ] {
        let res = app.get_with_cookie(&uri, Some(&admin)).await;
        assert_eq!(res.status, StatusCode::OK, "{uri}: {}", res.body);
        assert_markup_is_the_apps_own(&res, &uri);
    }
    let page = app.get(&format!("/models/{model}")).await;
    assert!(
        page.body.contains("<title>&lt;/title&gt;&lt;script&gt;"),
        "the title shows the name as text"
    );

    // A dataset whose case id is the same kind of text.
    let dataset = DEMO_DATASET.replacen(
        "\"DEMO-0001\"",
        &serde_json::to_string(HOSTILE_ID).expect("JSON"),
        1,
    );
    let cases = engine::lexpilot::dataset::parse_dataset(&dataset).expect("the dataset is valid");
    let src = db::datasets::ImportSource {
        name: "hostile",
        source: "test",
        synthetic: true,
    };
    db::datasets::import(&app.db, src, &cases)
        .await
        .expect("import");
    let id = enc(HOSTILE_ID);
    for uri in [
        format!("/cases/{id}"),
        format!("/cases/{id}/edit"),
        "/cases".to_owned(),
    ] {
        let res = app.get_with_cookie(&uri, Some(&admin)).await;
        assert_eq!(res.status, StatusCode::OK, "{uri}: {}", res.body);
        assert_markup_is_the_apps_own(&res, &uri);
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::with_demo().await;
    for uri in [
        "/",
        "/cases/DEMO-0001",
        "/no/such/page",
        "/api/stats",
        "/api/cases/NOPE",
        "/favicon.svg",
    ] {
        let res = app.get(uri).await;
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "same-origin"),
        ] {
            assert_eq!(
                res.headers.get(name).and_then(|v| v.to_str().ok()),
                Some(value),
                "{uri}: {name}"
            );
        }
        let csp = res
            .headers
            .get(header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_else(|| panic!("{uri}: no CSP"));
        assert!(csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
    }
    // A page that hydrates runs its render's scripts alone.
    let page = app.get("/signin").await;
    let scripts = script_src(&page);
    assert!(scripts.contains("'nonce-"), "{scripts}");
    assert!(
        !scripts.contains("unsafe-inline"),
        "no inline scripts: {scripts}"
    );
    assert_markup_is_the_apps_own(&page, "/signin");
    // Each render has a nonce of its own.
    assert_ne!(csp_nonce(&page), csp_nonce(&app.get("/signin").await));
    // A reading page runs the site's own files alone, and none inline.
    let page = app.get("/").await;
    assert_eq!(script_src(&page), "script-src 'self'");
    assert_markup_is_the_apps_own(&page, "/");
}

/// A sign-in form post from `address`.
async fn sign_in_from(app: &TestApp, address: &str, name: &str, password: &str) -> TestResponse {
    let addr: SocketAddr = format!("{address}:40000").parse().expect("address");
    let mut req = Request::post("/auth/signin")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ORIGIN, "http://127.0.0.1:3000")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form(&[("name", name), ("password", password)])))
        .expect("request");
    req.extensions_mut().insert(ConnectInfo(addr));
    app.send(req).await
}

#[tokio::test]
async fn sign_in_is_throttled_per_client_address_with_429() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    // One client guessing across many names: refused past the per-address
    // limit, even for a name it has not tried yet.
    for n in 0..db::sessions::MAX_FAILURES_PER_ADDRESS {
        let res = sign_in_from(&app, "10.0.0.1", &format!("user-{n}"), "wrong-guess").await;
        assert_eq!(res.location(), Some("/signin?error=invalid"), "attempt {n}");
    }
    let refused = sign_in_from(&app, "10.0.0.1", "admin", PASSWORD).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: i64 = refused
        .headers
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!((1..=db::sessions::THROTTLE_WINDOW_MINUTES * 60).contains(&wait));
    assert_eq!(refused.session_cookie(), None);

    // Another client is not held back, and the owner is not locked out by
    // someone else's failures for their name.
    for _ in 0..db::sessions::MAX_FAILURES {
        sign_in_from(&app, "10.0.0.2", "admin", "wrong-guess").await;
    }
    assert_eq!(
        sign_in_from(&app, "10.0.0.2", "admin", PASSWORD)
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
    let owner = sign_in_from(&app, "10.0.0.3", "admin", PASSWORD).await;
    assert_eq!(owner.location(), Some("/"));
    assert!(owner.session_cookie().is_some());
}

#[tokio::test]
async fn behind_a_proxy_the_forwarded_address_is_the_client() {
    let app = TestApp::with_network(server::Network {
        secure_cookies: false,
        behind_proxy: true,
    })
    .await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let from = |client: &str, password: &str| {
        let mut req = Request::post("/auth/signin")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, "http://127.0.0.1:3000")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header("x-forwarded-for", format!("203.0.113.7, {client}"))
            .header("x-forwarded-proto", "https")
            .body(Body::from(form(&[
                ("name", "admin"),
                ("password", password),
            ])))
            .expect("request");
        // Every request reaches the server from the proxy's address.
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        req
    };
    for _ in 0..db::sessions::MAX_FAILURES {
        app.send(from("198.51.100.1", "wrong-guess")).await;
    }
    let refused = app.send(from("198.51.100.1", PASSWORD)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    let other = app.send(from("198.51.100.2", PASSWORD)).await;
    assert_eq!(
        other.location(),
        Some("/"),
        "another client behind the same proxy"
    );
    let cookie = other
        .headers
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(
        cookie.ends_with("; Secure"),
        "the proxy said https: {cookie}"
    );
}

#[tokio::test]
async fn sign_in_takes_as_long_for_unknown_names_as_for_wrong_passwords() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, PASSWORD).await;
    // Warm up (the unknown-name hash is made on first use).
    sign_in_from(&app, "10.1.0.1", "nobody", "wrong-guess").await;
    // Attempts alternate between the two names, each from an address of its
    // own (no throttle is reached), and the fastest of each kind is compared:
    // the least disturbed by whatever else the machine is doing.
    let (mut known, mut unknown) = (f64::INFINITY, f64::INFINITY);
    for i in 0..5 {
        for (name, fastest) in [("admin", &mut known), ("nobody", &mut unknown)] {
            let address = format!("10.1.{}.{i}", if name == "admin" { 2 } else { 3 });
            let start = std::time::Instant::now();
            sign_in_from(&app, &address, name, "wrong-guess").await;
            *fastest = fastest.min(start.elapsed().as_secs_f64());
        }
    }
    // Both run one argon2 check per attempt; without the dummy check an
    // unknown name answered about ten times faster.
    assert!(
        unknown > known * 0.5,
        "unknown {unknown:.3}s vs known {known:.3}s"
    );
}

#[tokio::test]
async fn the_session_cookie_is_secure_when_asked() {
    let app = TestApp::with_network(server::Network {
        secure_cookies: true,
        behind_proxy: false,
    })
    .await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let res = app
        .post_form(
            "/auth/signin",
            &form(&[("name", "admin"), ("password", PASSWORD)]),
            None,
        )
        .await;
    let cookie = res
        .headers
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(cookie.ends_with("; Secure"), "{cookie}");

    let plain = TestApp::with_demo().await;
    plain.user("admin", Role::Admin, PASSWORD).await;
    let res = plain
        .post_form(
            "/auth/signin",
            &form(&[("name", "admin"), ("password", PASSWORD)]),
            None,
        )
        .await;
    let cookie = res
        .headers
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(!cookie.contains("Secure"), "{cookie}");
}

#[tokio::test]
async fn csv_exports_never_carry_a_live_formula() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let formula = "=HYPERLINK(\"http://evil.example\",\"click\")";
    let res = app
        .send(upload_request(&researcher, run_file(formula, 1), ""))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{}", res.body);
    let csv = app.get("/api/leaderboard/export?task=ljp&format=csv").await;
    assert_eq!(csv.status, StatusCode::OK);
    let mut reader = csv::Reader::from_reader(csv.body.as_bytes());
    let models: Vec<String> = reader
        .records()
        .map(|r| r.expect("a CSV record")[0].to_owned())
        .collect();
    assert!(models.contains(&format!("'{formula}")), "{models:?}");
    assert!(models.iter().all(|m| !m.starts_with(['=', '+', '-', '@'])));
}

#[tokio::test]
async fn role_only_pages_refuse_everyone_else() {
    let app = TestApp::with_demo().await;
    app.user("expert", Role::Expert, PASSWORD).await;
    app.user("admin", Role::Admin, PASSWORD).await;
    let expert = app.sign_in("expert", PASSWORD).await;
    let admin = app.sign_in("admin", PASSWORD).await;
    for uri in [
        "/review/manage",
        "/cases/DEMO-0001/edit",
        "/admin/users",
        "/runs/upload",
        "/review/adjudication?lang=en",
    ] {
        // Anonymous visitors are sent to sign in, and back here after.
        let anonymous = app.get(uri).await;
        assert_eq!(anonymous.status, StatusCode::SEE_OTHER, "{uri}");
        assert_eq!(
            anonymous.location(),
            Some(format!("/signin?next={}", enc(uri)).as_str()),
            "{uri}"
        );
        let expert = app.get_with_cookie(uri, Some(&expert)).await;
        assert_eq!(expert.status, StatusCode::FORBIDDEN, "{uri}");
        assert!(
            expert.body.contains("data-testid=\"access-refused\""),
            "{uri}"
        );
        assert!(!expert.body.contains("<form"), "{uri}: a form");
        let admin = app.get_with_cookie(uri, Some(&admin)).await;
        assert_eq!(admin.status, StatusCode::OK, "{uri}: {}", admin.body);
        assert!(!admin.body.contains("access-refused"), "{uri}");
    }
    // Signing in from there goes back to the page; never to another site.
    for (next, to) in [
        ("/review/manage", "/review/manage"),
        ("//evil.example/x", "/"),
    ] {
        let res = app
            .post_form(
                "/auth/signin",
                &form(&[("name", "admin"), ("password", PASSWORD), ("next", next)]),
                None,
            )
            .await;
        assert_eq!(res.location(), Some(to), "{next}");
    }
    let page = app.get("/signin?next=%2Freview%2Fmanage").await;
    assert!(
        page.body.contains("name=\"next\" value=\"/review/manage\""),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn unreadable_server_function_input_is_a_400_and_too_much_a_413() {
    use app::server_fns::review::SubmitReview;
    use app::server_fns::runs::CheckRuns;
    use leptos::server_fn::ServerFn;

    let app = TestApp::with_demo().await;
    app.user("expert", Role::Expert, PASSWORD).await;
    let expert = app.sign_in("expert", PASSWORD).await;
    for (body, what) in [
        ("id=abc&label=ask&comment=", "a number that is not one"),
        ("label=ask", "missing fields"),
    ] {
        let res = app.post_form(SubmitReview::PATH, body, Some(&expert)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{what}: {}", res.body);
        assert!(res.body.contains("cannot be read"), "{what}: {}", res.body);
    }
    let json = |body: Body, length: Option<usize>| {
        let mut req = Request::post(CheckRuns::PATH)
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::ORIGIN, "http://127.0.0.1:3000")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::COOKIE, &expert);
        if let Some(length) = length {
            req = req.header(header::CONTENT_LENGTH, length);
        }
        req.body(body).expect("request")
    };
    let res = app.send(json(Body::from("{\"files\": [tru"), None)).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    let huge = vec![b' '; 33 * 1024 * 1024];
    let res = app
        .send(json(Body::from(huge.clone()), Some(huge.len())))
        .await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", res.body);
    // Without a declared length (a chunked body), the limit still answers 413.
    let stream = futures_util::stream::iter(
        huge.chunks(1024 * 1024)
            .map(|c| Ok::<_, std::io::Error>(axum::body::Bytes::copy_from_slice(c)))
            .collect::<Vec<_>>(),
    );
    let res = app.send(json(Body::from_stream(stream), None)).await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", res.body);
}

#[tokio::test]
async fn model_names_with_control_characters_or_too_long_are_refused() {
    let app = TestApp::with_demo().await;
    let researcher = token(&app, "researcher", Role::Researcher).await;
    for (name, message) in [
        ("bad\u{0}name".to_owned(), "control character U+0000"),
        ("m".repeat(100_000), "a name has at most 200"),
        ("  ".to_owned(), "must not be empty"),
    ] {
        let res = app
            .send(upload_request(&researcher, run_file(&name, 1), ""))
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
        let errors = res.json()["errors"].clone();
        assert_eq!(errors[0]["field"], "model", "{errors}");
        assert_eq!(errors[0]["line"], 1, "{errors}");
        assert!(
            errors[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains(message)),
            "{errors}"
        );
    }
    let runs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE benchmark = 'lexpilot'")
        .fetch_one(app.db.pool())
        .await
        .expect("count");
    assert_eq!(runs, 9, "only the demo runs");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_uploads_all_succeed_and_parallel_replacements_never_fail() {
    let app = Arc::new(TestApp::with_demo().await);
    let researcher = token(&app, "researcher", Role::Researcher).await;
    let parallel = |query: &'static str, models: Vec<String>| {
        let app = Arc::clone(&app);
        let researcher = researcher.clone();
        async move {
            let tasks: Vec<_> = models
                .into_iter()
                .map(|model| {
                    let app = Arc::clone(&app);
                    let req = upload_request(&researcher, run_file(&model, 1), query);
                    tokio::spawn(async move { app.send(req).await })
                })
                .collect();
            let mut statuses = Vec::new();
            for task in tasks {
                let res = task.await.expect("the upload task");
                assert_ne!(
                    res.status,
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "{}",
                    res.body
                );
                statuses.push(res.status);
            }
            statuses
        }
    };
    let models: Vec<String> = (0..10).map(|n| format!("Parallel-{n}")).collect();
    let statuses = parallel("", models.clone()).await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::CREATED),
        "{statuses:?}"
    );
    let statuses = parallel("?replace=true", models).await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::CREATED),
        "{statuses:?}"
    );
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM runs WHERE model LIKE 'Parallel-%'")
        .fetch_one(app.db.pool())
        .await
        .expect("count");
    assert_eq!(stored, 10);
}
