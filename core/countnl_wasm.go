//go:build wasm

package core

func countNL(b []byte) int { return countNLWords(b) }
