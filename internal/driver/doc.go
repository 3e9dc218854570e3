// Package driver is what every front door of imas shares, like pprof's
// internal/driver: the CLI (cmd/imas), the HTTP server and edge worker
// (server), and the page (wasm/engine, ui) are thin adapters over it, so the
// same request gives the same text everywhere. It owns
//
//   - loading a run: logs, or a saved report.json, told apart by one rule
//     (IsSavedReport) whatever the input's name;
//   - explaining a run without a record (Explain, Unusable), built from the
//     markers the parsers look for and the diagnostics table (core/diag);
//   - the analyses each command runs (Command: Total, Report, Diff);
//   - sizes typed by users (ParseSize; units in docs/sizes.md);
//   - what the binary is (BuildInfo).
//
// It builds for js/wasm too: no os/exec, no syscall/js.
package driver
