//! Accounts over HTTP: sign-in and out, wrong passwords, throttling, sessions
//! in the database, role checks on the server, cross-site writes refused.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{form, TestApp};
use engine::accounts::Role;

#[tokio::test]
async fn signing_in_sets_a_session_the_pages_recognise() {
    let app = TestApp::with_demo().await;
    app.user("王律师", Role::Expert, "expert-pass-1").await;
    let cookie = app.sign_in("王律师", "expert-pass-1").await;
    let page = app.get_with_cookie("/", Some(&cookie)).await;
    assert!(page.body.contains("王律师"), "header names the user");
    assert!(page.body.contains("expert"), "header names the role");
    let anonymous = app.get("/").await;
    assert!(!anonymous.body.contains("王律师"));
}

#[tokio::test]
async fn a_wrong_password_is_refused_without_a_session() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    let res = app
        .post_form(
            "/auth/signin",
            &form(&[("name", "admin"), ("password", "wrong-pass")]),
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    assert_eq!(res.location(), Some("/signin?error=invalid"));
    assert_eq!(res.session_cookie(), None);
    let unknown = app
        .post_form(
            "/auth/signin",
            &form(&[("name", "nobody"), ("password", "whatever1")]),
            None,
        )
        .await;
    assert_eq!(
        unknown.location(),
        Some("/signin?error=invalid"),
        "unknown names look the same"
    );
    let empty = app.post_form("/auth/signin", "name=&password=", None).await;
    assert_eq!(empty.location(), Some("/signin?error=missing"));
}

#[tokio::test]
async fn repeated_failures_throttle_even_the_right_password() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    for _ in 0..db::sessions::MAX_FAILURES {
        let res = app
            .post_form(
                "/auth/signin",
                &form(&[("name", "admin"), ("password", "guess-guess")]),
                None,
            )
            .await;
        assert_eq!(res.location(), Some("/signin?error=invalid"));
    }
    let res = app
        .post_form(
            "/auth/signin",
            &form(&[("name", "admin"), ("password", "admin-pass-1")]),
            None,
        )
        .await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers.contains_key(axum::http::header::RETRY_AFTER));
    assert!(
        res.body.contains("Too many failed attempts"),
        "{}",
        res.body
    );
    assert_eq!(res.session_cookie(), None);
}

#[tokio::test]
async fn signing_out_ends_the_session_in_the_database() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    let cookie = app.sign_in("admin", "admin-pass-1").await;
    assert_eq!(
        app.get_with_cookie("/api/users", Some(&cookie))
            .await
            .status,
        StatusCode::OK
    );
    let res = app.post_form("/auth/signout", "", Some(&cookie)).await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    // The old token no longer works even if a browser kept it.
    assert_eq!(
        app.get_with_cookie("/api/users", Some(&cookie))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn passwords_are_stored_as_argon2_hashes() {
    let app = TestApp::empty().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE name = 'admin'")
        .fetch_one(app.db.pool())
        .await
        .expect("stored");
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(!hash.contains("admin-pass-1"));
}

#[tokio::test]
async fn role_checks_happen_on_the_server() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    app.user("expert", Role::Expert, "expert-pass-1").await;
    app.user("researcher", Role::Researcher, "research-pass-1")
        .await;
    assert_eq!(app.get("/api/users").await.status, StatusCode::UNAUTHORIZED);
    for (name, password) in [
        ("expert", "expert-pass-1"),
        ("researcher", "research-pass-1"),
    ] {
        let cookie = app.sign_in(name, password).await;
        assert_eq!(
            app.get_with_cookie("/api/users", Some(&cookie))
                .await
                .status,
            StatusCode::FORBIDDEN
        );
    }
    let admin = app.sign_in("admin", "admin-pass-1").await;
    let res = app.get_with_cookie("/api/users", Some(&admin)).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.json().as_array().map(Vec::len), Some(3));
}

/// The server function behind the accounts form, called directly as a script
/// would: only an admin's call creates an account.
#[tokio::test]
async fn only_admins_can_create_accounts_through_the_server_function() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    app.user("expert", Role::Expert, "expert-pass-1").await;
    let path = <app::server_fns::users::CreateUser as leptos::server_fn::ServerFn>::PATH;
    let body = form(&[
        ("name", "new-user"),
        ("role", "admin"),
        ("password", "new-pass-123"),
    ]);

    let anonymous = app.post_form(path, &body, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let expert = app.sign_in("expert", "expert-pass-1").await;
    let refused = app.post_form(path, &body, Some(&expert)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(db::users::by_name(&app.db, "new-user")
        .await
        .expect("query")
        .is_none());

    let admin = app.sign_in("admin", "admin-pass-1").await;
    let created = app.post_form(path, &body, Some(&admin)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let user = db::users::by_name(&app.db, "new-user")
        .await
        .expect("query")
        .expect("created");
    assert_eq!(user.role, Role::Admin);
}

#[tokio::test]
async fn cross_site_form_posts_are_refused() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    let req = Request::post("/auth/signin")
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::ORIGIN, "https://evil.example")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form(&[
            ("name", "admin"),
            ("password", "admin-pass-1"),
        ])))
        .expect("request");
    let res = app.send(req).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert_eq!(res.session_cookie(), None);
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let app = TestApp::with_demo().await;
    let huge = "x".repeat(server::auth::MAX_FORM_BYTES + 1);
    let res = app
        .post_form("/auth/signin", &format!("name=a&password={huge}"), None)
        .await;
    assert_eq!(res.status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn api_tokens_act_for_their_account_and_role() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "admin-pass-1").await;
    app.user("expert", Role::Expert, "expert-pass-1").await;
    let token_of = |name: &'static str| {
        let db = app.db.clone();
        async move {
            let user = db::users::by_name(&db, name)
                .await
                .expect("query")
                .expect("user");
            db::tokens::create(&db, &user).await.expect("token")
        }
    };
    let get = |token: String| {
        Request::get("/api/users")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .expect("request")
    };
    let admin = token_of("admin").await;
    assert!(admin.starts_with(db::tokens::TOKEN_PREFIX));
    assert_eq!(app.send(get(admin.clone())).await.status, StatusCode::OK);
    assert_eq!(
        app.send(get(token_of("expert").await)).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.send(get("lpt_not-a-token".into())).await.status,
        StatusCode::UNAUTHORIZED
    );
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM api_tokens")
        .fetch_all(app.db.pool())
        .await
        .expect("tokens");
    assert!(!stored.contains(&admin), "only the hash is stored");
}
