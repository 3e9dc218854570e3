//go:build js && wasm

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"syscall/js"
)

// Client is the page's side of the engine: it sends requests to the worker
// (or in-page port) and hands binary results to the page's JavaScript
// (memory map, downloads) without bringing them into the UI's Go heap.
type Client struct {
	port    js.Value
	ready   chan struct{}
	mu      sync.Mutex
	next    int
	pending map[int]*call
	inbox   []js.Value // replies not yet dispatched, in arrival order
	wake    chan struct{}
}

type call struct {
	done     chan reply
	progress func([]byte)
}

type reply struct {
	json []byte
	buf  js.Value
	err  error
}

// NewClient talks to the engine listening on port.
func NewClient(port js.Value) *Client {
	c := &Client{port: port, ready: make(chan struct{}), pending: map[int]*call{}, wake: make(chan struct{}, 1)}
	port.Set("onmessage", js.FuncOf(func(_ js.Value, a []js.Value) any {
		// Never block a JS callback: queue, and let dispatch run the Go side.
		c.mu.Lock()
		c.inbox = append(c.inbox, a[0].Get("data"))
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
		return nil
	}))
	if port.Get("start").Type() == js.TypeFunction {
		port.Call("start")
	}
	go c.dispatch()
	return c
}

func (c *Client) dispatch() {
	for range c.wake {
		c.mu.Lock()
		msgs := c.inbox
		c.inbox = nil
		c.mu.Unlock()
		for _, m := range msgs {
			kind := m.Get("kind").String()
			if kind == "ready" {
				close(c.ready)
				continue
			}
			id := m.Get("id").Int()
			c.mu.Lock()
			cl := c.pending[id]
			if kind != "progress" {
				delete(c.pending, id)
			}
			c.mu.Unlock()
			if cl == nil {
				continue
			}
			text := []byte(m.Get("json").String())
			switch kind {
			case "progress":
				if cl.progress != nil {
					cl.progress(text)
				}
			case "error":
				var msg string
				if json.Unmarshal(text, &msg) != nil {
					msg = string(text)
				}
				cl.done <- reply{err: errors.New(msg)}
			default:
				cl.done <- reply{json: text, buf: m.Get("buf")}
			}
		}
	}
}

// call sends a request and waits for its reply; cancelling ctx asks the
// engine to stop (only analyses listen).
func (c *Client) call(ctx context.Context, op string, arg any, files js.Value, progress func([]byte)) (reply, error) {
	<-c.ready
	text, err := json.Marshal(arg)
	if err != nil {
		return reply{}, err
	}
	cl := &call{done: make(chan reply, 1), progress: progress}
	c.mu.Lock()
	c.next++
	id := c.next
	c.pending[id] = cl
	c.mu.Unlock()
	msg := map[string]any{"id": id, "op": op, "arg": string(text)}
	if files.Truthy() {
		msg["files"] = files
	}
	c.port.Call("postMessage", msg)
	select {
	case r := <-cl.done:
		return r, r.err
	case <-ctx.Done():
		c.port.Call("postMessage", map[string]any{"id": 0, "op": "cancel", "arg": `{"target":` + strconv.Itoa(id) + `}`})
		// The engine answers a cancelled analysis with an error, or with
		// its result if it finished first: then the result stands, as the
		// engine has installed it.
		r := <-cl.done
		if r.err == nil {
			return r, nil
		}
		return r, ctx.Err()
	}
}

// Query sends a request with a JSON argument and decodes the JSON answer
// into out.
func (c *Client) Query(op string, arg, out any) error {
	r, err := c.call(context.Background(), op, arg, js.Undefined(), nil)
	if err != nil {
		return err
	}
	return json.Unmarshal(r.json, out)
}

// Analyze reads files (a JS array of {file, name}) into slot and returns
// the View as JSON.
func (c *Client) Analyze(ctx context.Context, slot string, files js.Value, progress func(Progress)) ([]byte, error) {
	r, err := c.call(ctx, "analyze", map[string]string{"slot": slot}, files, func(b []byte) {
		var p Progress
		if json.Unmarshal(b, &p) == nil {
			progress(p)
		}
	})
	return r.json, err
}

// WarmUp asks the engine to run its hot paths on a synthetic log of size
// bytes (see WarmUp), and returns, when it finished or an analysis stopped
// it, what it did as JSON ({"bytes", "seconds", "stopped", "sample"}: the
// last piece's Sample, with table pages of pageSize rows). The page calls
// it once at start.
func (c *Client) WarmUp(size, pageSize int) ([]byte, error) {
	r, err := c.call(context.Background(), "warmup", map[string]int{"size": size, "page_size": pageSize}, js.Undefined(), nil)
	return r.json, err
}

// Binary sends a request whose answer carries a buffer, and returns the
// JSON part and the buffer (an ArrayBuffer, left in JS).
func (c *Client) Binary(op string, arg any) ([]byte, js.Value, error) {
	r, err := c.call(context.Background(), op, arg, js.Undefined(), nil)
	return r.json, r.buf, err
}
