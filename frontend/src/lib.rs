//! The wasm entry point: hydrates the server-rendered body with [`app::App`].
//! Depends only on `app` (with its `hydrate` feature) and leptos.

#![recursion_limit = "256"]

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
