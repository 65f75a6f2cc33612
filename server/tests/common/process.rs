//! Real `lexpilot serve` processes for tests that kill or run several of
//! them ([`Server`]), and HTTP to them as the browser and scripts send it
//! ([`Http`]).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use app::server_fns::jobs::{GetJob, SaveEndpoint, StartJob};
use leptos::server_fn::ServerFn;
use serde_json::Value;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

use super::form;

/// The password of the accounts [`Server::add_user`] makes.
pub const PASSWORD: &str = "a-long-password";

// ---------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------

/// A `lexpilot serve` process on a database (a temporary SQLite file
/// unless given) and a temporary data dir, started, killed and restarted on
/// the same files.
pub struct Server {
    dir: tempfile::TempDir,
    db: String,
    port: u16,
    child: Option<Child>,
    env: Vec<(String, String)>,
}

impl Server {
    /// A server on a new SQLite file.
    pub fn new() -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir
            .path()
            .join("lexpilot.db")
            .to_string_lossy()
            .into_owned();
        Server {
            dir,
            db,
            port: free_port(),
            child: None,
            env: Vec::new(),
        }
    }

    /// A server on database `location` (a SQLite path or a PostgreSQL URL).
    pub fn on(location: &str) -> Server {
        let mut server = Server::new();
        server.db = location.to_owned();
        server
    }

    /// The same server with environment variable `name` set to `value`.
    pub fn with_env(mut self, name: &str, value: &str) -> Server {
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Its database: a SQLite path or a PostgreSQL URL.
    pub fn db(&self) -> &str {
        &self.db
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn log(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Runs a `lexpilot` subcommand on this server's database; its stdout.
    pub fn cli(&self, args: &[&str], stdin: Option<&str>) -> String {
        let db = self.db.clone();
        let mut all = args.to_vec();
        all.extend(["--db", db.as_str()]);
        let out = super::cli::lexpilot(&all, stdin);
        assert!(
            out.status.success(),
            "lexpilot {args:?}: {}",
            super::cli::text(&out.stderr)
        );
        super::cli::text(&out.stdout)
    }

    pub fn add_user(&self, name: &str, role: &str) {
        self.cli(
            &["user", "add", "--name", name, "--role", role],
            Some(PASSWORD),
        );
    }

    pub fn token(&self, name: &str) -> String {
        self.cli(&["token", "create", "--user", name], None)
            .lines()
            .last()
            .expect("the token on the last line")
            .trim()
            .to_owned()
    }

    /// Starts `lexpilot serve` and waits until `GET /api/stats` answers.
    pub async fn start(&mut self) {
        assert!(self.child.is_none(), "the server runs already");
        for _ in 0..3 {
            let log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(self.log())
                .expect("log file");
            let addr = format!("127.0.0.1:{}", self.port);
            let child = Command::new(env!("CARGO_BIN_EXE_lexpilot"))
                .args(["serve", "--addr", &addr, "--db"])
                .arg(&self.db)
                .envs(self.env.iter().map(|(k, v)| (k, v)))
                .arg("--data-dir")
                .arg(self.data_dir())
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null())
                .stdout(log.try_clone().expect("log file"))
                .stderr(log)
                .spawn()
                .expect("lexpilot serve starts");
            self.child = Some(child);
            if self.wait_until_up().await {
                return;
            }
            // It exited: only a port taken in the meantime is worth a retry.
            self.child = None;
            let log = std::fs::read_to_string(self.log()).unwrap_or_default();
            assert!(
                log.contains("cannot listen"),
                "lexpilot serve exited:\n{}",
                tail(&log)
            );
            self.port = free_port();
        }
        panic!("lexpilot serve found no port to listen on");
    }

    /// `true` once `GET /api/stats` answers 200; `false` if the process exits first.
    pub async fn wait_until_up(&mut self) -> bool {
        let client = client();
        let url = format!("{}/api/stats", self.origin());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().expect("process status"))
            {
                eprintln!("lexpilot serve exited with {status}");
                return false;
            }
            if let Ok(res) = client.get(&url).send().await {
                if res.status().is_success() {
                    return true;
                }
            }
            assert!(
                Instant::now() < deadline,
                "the server did not answer within 60 s:\n{}",
                tail(&std::fs::read_to_string(self.log()).unwrap_or_default())
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL, and wait for the process to be gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("the killed process is reaped");
        }
    }

    /// The database, read-only; open it only while no server runs.
    pub async fn read_only(&self) -> SqlitePool {
        let options = SqliteConnectOptions::new()
            .filename(&self.db)
            .read_only(true);
        SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .expect("the database opens read-only")
    }

    pub fn http(&self) -> Http {
        Http {
            client: client(),
            origin: self.origin(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

pub fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(60))
        .build()
        .expect("HTTP client")
}

// ---------------------------------------------------------------------------
// HTTP as the browser and scripts send it
// ---------------------------------------------------------------------------

/// A status and body, or `Err` when the connection broke (the outcome is
/// unknown: the kill may have come before or after the commit).
pub type Reply = Result<(u16, String), reqwest::Error>;

#[derive(Clone)]
pub struct Http {
    pub client: reqwest::Client,
    pub origin: String,
}

impl Http {
    pub async fn reply(req: reqwest::RequestBuilder) -> Reply {
        let res = req.send().await?;
        let status = res.status().as_u16();
        Ok((status, res.text().await?))
    }

    /// Signs in through the form; the `lexpilot_session=…` cookie.
    pub async fn sign_in(&self, name: &str) -> String {
        let res = self
            .client
            .post(format!("{}/auth/signin", self.origin))
            .header("Origin", &self.origin)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(form(&[("name", name), ("password", PASSWORD)]))
            .send()
            .await
            .expect("sign-in answers");
        res.headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with(app::ssr::SESSION_COOKIE))
            .and_then(|c| c.split(';').next())
            .filter(|c| !c.ends_with('='))
            .unwrap_or_else(|| panic!("{name} signed in"))
            .to_owned()
    }

    /// Server function `F` with a url-encoded body, same-origin, as signed in.
    pub async fn call<F: ServerFn>(&self, cookie: &str, pairs: &[(&str, &str)]) -> Reply {
        Http::reply(
            self.client
                .post(format!("{}{}", self.origin, F::PATH))
                .header("Origin", &self.origin)
                .header("Cookie", cookie)
                .header("Accept", "application/json")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(form(pairs)),
        )
        .await
    }

    /// Server function `F` with a JSON body (the `input = Json` ones).
    pub async fn call_json<F: ServerFn>(&self, cookie: &str, body: &Value) -> Reply {
        Http::reply(
            self.client
                .post(format!("{}{}", self.origin, F::PATH))
                .header("Origin", &self.origin)
                .header("Cookie", cookie)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .body(body.to_string()),
        )
        .await
    }

    /// The JSON of a call that must succeed.
    pub async fn ok<F: ServerFn>(&self, cookie: &str, pairs: &[(&str, &str)]) -> Value {
        let (status, body) = self
            .call::<F>(cookie, pairs)
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", F::PATH));
        assert_eq!(status, 200, "{}: {body}", F::PATH);
        serde_json::from_str(&body).unwrap_or(Value::Null)
    }

    /// `POST /api/runs` with an API token.
    pub async fn upload(&self, token: &str, body: String) -> Reply {
        Http::reply(
            self.client
                .post(format!("{}/api/runs", self.origin))
                .header("Authorization", format!("Bearer {token}"))
                .body(body),
        )
        .await
    }

    pub async fn get(&self, path: &str) -> Reply {
        Http::reply(self.client.get(format!("{}{path}", self.origin))).await
    }

    /// Model, user and judge endpoints on `base_url` (no key), named after
    /// `model`; their ids.
    pub async fn endpoints(&self, admin: &str, base_url: &str, model: &str) -> [String; 3] {
        let mut ids = Vec::new();
        for (name, served) in [
            (format!("{model}-model"), model),
            (format!("{model}-user"), "Test-User"),
            (format!("{model}-judge"), "Test-Judge"),
        ] {
            let saved = self
                .ok::<SaveEndpoint>(
                    admin,
                    &[
                        ("name", &name),
                        ("base_url", base_url),
                        ("model", served),
                        ("key_env", ""),
                        ("vendor", "acme"),
                    ],
                )
                .await;
            ids.push(saved["id"].to_string());
        }
        ids.try_into().expect("three ids")
    }

    /// Starts a LexPilot job of every task, one run, on the first `limit`
    /// cases; its id.
    pub async fn start_job(
        &self,
        admin: &str,
        [model, user, judge]: &[String; 3],
        concurrency: &str,
        limit: &str,
    ) -> i64 {
        let job = self
            .ok::<StartJob>(
                admin,
                &[
                    ("model", model),
                    ("user", user),
                    ("judges[0]", judge),
                    ("tasks[0]", "lca"),
                    ("tasks[1]", "dcg"),
                    ("tasks[2]", "ljp:direct"),
                    ("tasks[3]", "ljp:interaction"),
                    ("tasks[4]", "ljp:gold"),
                    ("runs", "1"),
                    ("concurrency", concurrency),
                    ("user_condition", "standard"),
                    ("limit", limit),
                    ("family", "open"),
                ],
            )
            .await;
        job["id"].as_i64().expect("job id")
    }

    /// Job `id` as the page reads it.
    pub async fn job(&self, admin: &str, id: i64) -> Value {
        self.ok::<GetJob>(admin, &[("id", &id.to_string())]).await
    }

    /// Job `id` once it is no longer active (two minutes at most).
    pub async fn until_stopped(&self, admin: &str, id: i64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let job = self.job(admin, id).await;
            if job["active"] == false {
                return job;
            }
            assert!(Instant::now() < deadline, "job {id} still runs: {job}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
