# workerd configuration of the imas edge worker; "make worker" copies it to
# dist/worker/ next to build/ (the Go wasm and syumai/workers' JS shim).
#   node_modules/.bin/workerd serve dist/worker/config.capnp
#   node_modules/.bin/workerd serve dist/worker/config.capnp --socket-addr http=127.0.0.1:9000
# All three JS files are ES modules: worker.mjs imports ./wasm_exec.js.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .imasWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const imasWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "build/worker.mjs"),
    (name = "wasm_exec.js", esModule = embed "build/wasm_exec.js"),
    (name = "runtime.mjs", esModule = embed "build/runtime.mjs"),
    (name = "app.wasm", wasm = embed "build/app.wasm"),
  ],
  compatibilityDate = "2025-06-01",
);
