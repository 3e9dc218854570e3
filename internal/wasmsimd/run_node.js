// run_node.js runs a GOOS=js GOARCH=wasm program (a test binary, say) under
// Node as Go's lib/wasm/wasm_exec_node.js does, but first instantiates the
// kernel named by $IMAS_VECTOR_KERNEL (go run ./internal/wasmsimd/cmd/simdkernel)
// against the program's memory and puts its filter on globalThis.imasVector,
// as page.js does in the page. Without the variable it runs the program alone.
//
//   IMAS_VECTOR_KERNEL=k.wasm node --stack-size=8192 run_node.js prog.wasm [args]
//   go test -exec 'node --stack-size=8192 /abs/run_node.js' (GOOS=js GOARCH=wasm)
'use strict';

const fs = require('fs');
const path = require('path');
const {execFileSync} = require('child_process');

if (process.argv.length < 3) {
  console.error('usage: run_node.js PROGRAM.wasm [args]');
  process.exit(1);
}

globalThis.require = require;
globalThis.fs = fs;
globalThis.path = path;
globalThis.TextEncoder = require('util').TextEncoder;
globalThis.TextDecoder = require('util').TextDecoder;
globalThis.performance ??= require('perf_hooks').performance;
globalThis.crypto ??= require('crypto');

const goroot = process.env.GOROOT || execFileSync('go', ['env', 'GOROOT']).toString().trim();
require(path.join(goroot, 'lib', 'wasm', 'wasm_exec.js'));

async function main() {
  const go = new Go();
  go.argv = process.argv.slice(2);
  go.env = Object.assign({TMPDIR: require('os').tmpdir()}, process.env);
  go.exit = process.exit;
  const {instance} = await WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject);
  const kernel = process.env.IMAS_VECTOR_KERNEL;
  if (kernel) {
    const k = await WebAssembly.instantiate(fs.readFileSync(kernel), {env: {mem: instance.exports.mem}});
    globalThis.imasVector = k.instance.exports.filter;
  }
  process.on('exit', (code) => { // Node exits when no event is pending: a deadlock
    if (code === 0 && !go.exited) {
      go._pendingEvent = {id: 0};
      go._resume();
    }
  });
  await go.run(instance);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
