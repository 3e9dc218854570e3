// Package perfetto holds open.js, the page's "Open in Perfetto" helper
// (docs/perfetto.md), and its browser tests. Pages that inline their
// scripts into one HTML file take it from OpenJS.
package perfetto

import _ "embed"

// OpenJS is the source of open.js: it defines the global function
// imasOpenPerfetto(buffer, title, fileName[, options]).
//
//go:embed open.js
var OpenJS string
