//go:build js && wasm

package engine

import (
	"errors"
	"syscall/js"
)

// Await waits for a JS promise without blocking the JS event loop: the
// calling goroutine parks on a channel while JS runs.
func Await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	ok := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- result{v: arg0(a)}
		return nil
	})
	fail := js.FuncOf(func(_ js.Value, a []js.Value) any {
		ch <- result{err: jsError(arg0(a))}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	r := <-ch
	return r.v, r.err
}

func arg0(a []js.Value) js.Value {
	if len(a) == 0 {
		return js.Undefined()
	}
	return a[0]
}

// jsError turns a thrown JS value into a Go error.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject && v.Get("message").Type() == js.TypeString {
		return errors.New(v.Get("message").String())
	}
	return errors.New(v.Call("toString").String())
}

// bufferOf copies b into a new ArrayBuffer (to be transferred, not cloned).
func bufferOf(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8.Get("buffer")
}
