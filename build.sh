#!/usr/bin/env bash
# build.sh builds the page into public/:
#   public/imas.html     one self-contained file (works from file://, offline)
#   public/index.html    the same page for hosting, with public/imas.wasm.gz
# Steps: vugugen (ui/*.vugu → ui/*_gen.go), the wasm (GOOS=js GOARCH=wasm),
# then tools/mkhtml, which inlines wasm_exec.js, the scripts, the CSS, the
# gzipped wasm and the WebAssembly SIMD kernel of the candidate scan (which
# it assembles itself, internal/wasmsimd). Idempotent: run it again after
# any change.
set -euo pipefail
cd "$(dirname "$0")"

GO=${GO:-go}
export GOFLAGS=${GOFLAGS:--buildvcs=false}
out=public
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step() { printf '>> %s\n' "$*"; }

step "vugugen ui/ (generated ui/*_gen.go, gofmt'd)"
$GO run github.com/vugu/vugu/cmd/vugugen -skip-go-mod -skip-main ./ui
gofmt -w ui/*_gen.go

step "wasm: GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' ./wasm/app"
GOOS=js GOARCH=wasm $GO build -trimpath -ldflags='-s -w' -o "$tmp/imas.wasm" ./wasm/app

# zopfli (npm's @gfx/zopfli, a dev dependency) deflates the wasm some 5 %
# smaller than Go's gzip, which keeps imas.html under its 3 MiB budget;
# without it mkhtml gzips with Go and the page works the same.
gzip_flag=()
if command -v node >/dev/null && [ -d node_modules/@gfx/zopfli ]; then
  step "wasm.gz: zopfli (tools/zopfli/gzip.mjs)"
  node tools/zopfli/gzip.mjs "$tmp/imas.wasm" "$tmp/imas.wasm.gz"
  gzip_flag=(-wasm-gzip "$tmp/imas.wasm.gz")
else
  step "wasm.gz: Go's gzip (npm install adds zopfli, for a smaller page)"
fi

wasm_exec="$($GO env GOROOT)/lib/wasm/wasm_exec.js"
step "page: tools/mkhtml (wasm_exec.js from $wasm_exec, SIMD kernel from internal/wasmsimd)"
version=$(git describe --always --dirty 2>/dev/null || echo dev)
mkdir -p "$out"
$GO run ./tools/mkhtml -wasm "$tmp/imas.wasm" "${gzip_flag[@]}" -wasm-exec "$wasm_exec" -web ui/web \
  -perfetto ui/perfetto/open.js -o "$out" -version "$version"

step "done: $(du -h "$tmp/imas.wasm" | cut -f1) wasm; open $out/imas.html in a browser"
