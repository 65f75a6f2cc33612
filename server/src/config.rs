//! Site options. The compiled site (wasm, JS, CSS, public files) is read from
//! `target/site` unless `LEPTOS_SITE_ROOT` says otherwise.

use std::net::SocketAddr;

use leptos::config::LeptosOptions;

/// The name of the compiled wasm/JS/CSS files under `<site root>/pkg/`.
pub const OUTPUT_NAME: &str = "lexpilot";

pub fn site_root() -> String {
    std::env::var("LEPTOS_SITE_ROOT").unwrap_or_else(|_| "target/site".to_owned())
}

pub fn leptos_options(addr: SocketAddr) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name(OUTPUT_NAME)
        .site_root(site_root())
        .site_pkg_dir("pkg")
        .site_addr(addr)
        .build()
}
