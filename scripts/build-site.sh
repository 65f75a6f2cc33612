#!/usr/bin/env bash
# Builds the server binary and the hydrating wasm site into $TARGET/site, the
# way cargo-leptos would: server, wasm lib, wasm-bindgen, wasm-opt, CSS, assets.
#   scripts/build-site.sh            release server (what start.sh serves)
#   scripts/build-site.sh --dev      debug server
#   scripts/build-site.sh --no-server the site only (scripts/test.sh serves
#                                     the server `cargo test` built)
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-target}"
SITE="$TARGET/site"
PKG="$SITE/pkg"
NAME=lexpilot

# Cargo names a workspace crate's artefacts by its path relative to the
# workspace, so another checkout sharing this target directory (a CI clone)
# writes the same files; when its build is newer than this checkout's
# sources, cargo counts this checkout's crates as fresh and links the other
# checkout's code (its server functions, hashed on the crate's absolute
# path, then answer 404 to this checkout's wasm). When the last build came
# from elsewhere, every workspace source is touched so that all of it
# rebuilds from here.
STAMP="$TARGET/.site-built-by"
if [ "$(cat "$STAMP" 2>/dev/null)" != "$PWD" ]; then
  find engine db services pipeline app frontend server -name '*.rs' -exec touch {} +
fi

case "${1:-}" in
  --dev) cargo build -p server ;;
  --no-server) ;;
  *) cargo build -p server --release ;;
esac

cargo build -p frontend --lib --target wasm32-unknown-unknown --profile wasm-release
rm -rf "$PKG"
mkdir -p "$PKG"
wasm-bindgen --target web --no-typescript --out-dir "$PKG" --out-name "$NAME" \
  "$TARGET/wasm32-unknown-unknown/wasm-release/frontend.wasm"
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
  "$PKG/${NAME}_bg.wasm" -o "$PKG/${NAME}_bg.wasm"
echo "$PWD" > "$STAMP"
cp style/main.css "$PKG/$NAME.css"
cp -r public/. "$SITE/"
# Gzipped copies, sent to browsers that take gzip instead of compressing the
# same bytes on every request.
for f in "$PKG"/* "$SITE"/*.js "$SITE"/*.svg; do
  case "$f" in *.gz) ;; *) gzip -9 -k -f "$f" ;; esac
done

raw=$(stat -c %s "$PKG/${NAME}_bg.wasm")
gz=$(gzip -9 -c "$PKG/${NAME}_bg.wasm" | wc -c)
echo "site built in $SITE (wasm: $raw bytes raw, $gz bytes gzip)"
