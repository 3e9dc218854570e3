package engine

import "imas/core"

// The page and the engine exchange plain objects over postMessage:
//
//	request  {id, op, arg: JSON text, files?: [{file: File, name}]}
//	reply    {id, kind: "progress" | "done" | "error", json: JSON text, buf?: ArrayBuffer}
//
// ops: analyze (files into arg.slot; progress replies, the last one with the
// final counts, then a View), cancel
// (arg.target: the analyze request), view, graph, tensors (arg.query), tensor,
// find, diff, map and poolmap (JSON MapMeta + buffer), and output (JSON
// mime + buffer). The
// engine first posts {kind: "ready"}. Buffers are transferred, not copied.

// Progress is what an analysis reports while it reads.
type Progress struct {
	core.Progress
	Read    int64   `json:"read"`  // input bytes consumed (as given, before decompression)
	Total   int64   `json:"total"` // input bytes in all files
	Seconds float64 `json:"seconds"`
	// Inputs counts the files chosen and InputsDone those wholly read;
	// Input is the one read last (the first of those still being read,
	// when several are read side by side), with its bytes read so far
	// and its size (as given).
	// Rate is the read rate over the last RateWindow seconds, in input
	// bytes a second: the time left is what remains at this rate.
	Rate       float64 `json:"rate"`
	Inputs     int     `json:"inputs"`
	InputsDone int     `json:"inputs_done"`
	Input      string  `json:"input,omitempty"`
	InputRead  int64   `json:"input_read"`
	InputSize  int64   `json:"input_size"`
	// Inflated is the text of .gz inputs that the browser decompressed (in
	// the reader worker); the rest of any .gz was inflated in wasm.
	Inflated int64 `json:"inflated"`
	// Parsed counts the chunks of this analysis each parse worker parsed
	// (none: every chunk was parsed in the engine's thread).
	Parsed []int64 `json:"parsed,omitempty"`
	// GoSys is the memory the engine's Go runtime holds (MemStats.Sys),
	// in the last message only: in wasm the memory never shrinks, so it
	// is about the analysis' peak.
	GoSys uint64 `json:"go_sys,omitempty"`
	// Stalled counts the parse workers given up during this analysis
	// because they held chunks and answered none in time (page.js's
	// watchdog): the engine parsed those chunks itself.
	Stalled int `json:"stalled,omitempty"`
	// ReaderStalled: the reader worker did not answer in time, and the
	// engine reads the Files itself from then on (page.js's watchdog).
	ReaderStalled bool `json:"reader_stalled,omitempty"`
	// Early is the graphs finished so far, in a message when it changed
	// (at most every EarlyEvery): the page shows them while it reads.
	Early *Early `json:"early,omitempty"`
}
