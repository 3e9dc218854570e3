//go:build !wasm

package core

import "bytes"

func countNL(b []byte) int { return bytes.Count(b, []byte{'\n'}) }
