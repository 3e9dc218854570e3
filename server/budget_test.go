package server

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"imas/core/input"
)

// gatedServer is a server whose admitted analyses wait for the gate to
// open, so a test sees the budget with its requests held in it.
func gatedServer(cfg Config) (s *server, admitted chan int64, open func()) {
	s = newServer(cfg)
	admitted = make(chan int64, 64)
	gate := make(chan struct{})
	s.budget.onAdmit = func(cost int64) {
		admitted <- cost
		<-gate
	}
	var once sync.Once
	return s, admitted, func() { once.Do(func() { close(gate) }) }
}

// waitFor polls the budget's counters until cond holds or the test's own
// bound ends (the counters, not the clock, are what is checked).
func waitFor(t *testing.T, ctx context.Context, b *budget, cond func(inFlight, queued int64) bool) {
	t.Helper()
	for {
		b.mu.Lock()
		ok := cond(b.inFlight, b.queued)
		b.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			b.mu.Lock()
			defer b.mu.Unlock()
			t.Fatalf("budget never reached the expected state: %d in flight, %d queued", b.inFlight, b.queued)
		case <-time.After(time.Millisecond):
		}
	}
}

type answer struct {
	code       int
	retryAfter string
	body       string
}

// recv takes the next answer, or fails the test when its bound ends first.
func recv(t *testing.T, ctx context.Context, answers <-chan answer) answer {
	t.Helper()
	select {
	case a := <-answers:
		return a
	case <-ctx.Done():
		t.Fatal("no answer: a request is still held")
		return answer{}
	}
}

// postAsync posts body to /api/total on h from its own goroutine.
func postAsync(h http.Handler, body []byte, out chan<- answer) {
	go func() {
		w := do(h, "POST", "/api/total", "application/octet-stream", bytes.NewReader(body))
		out <- answer{w.Code, w.Header().Get("Retry-After"), w.Body.String()}
	}()
}

// TestBudgetHoldsUnderConcurrentUploads: eight uploads at once, a budget
// of three bodies and room for the five others in the queue. Three are
// analysed at a time, the others wait, and every one is answered in full.
func TestBudgetHoldsUnderConcurrentUploads(t *testing.T) {
	body := basicLog(t)
	_, want := coreAnswer(t, []namedLog{{"body", body}})
	n := int64(len(body))
	s, admitted, open := gatedServer(Config{Budget: 3 * n, ChargePerByte: 1, QueueBytes: 5 * n, MaxConcurrent: 8})
	defer open()
	h := s.handler()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	answers := make(chan answer, 8)
	for range 8 {
		postAsync(h, body, answers)
	}
	waitFor(t, ctx, s.budget, func(inFlight, queued int64) bool { return inFlight == 3*n && queued == 5*n })
	if got := len(admitted); got != 3 {
		t.Fatalf("%d analyses admitted with a budget of three bodies", got)
	}
	open()
	for range 8 {
		a := recv(t, ctx, answers)
		if a.code != http.StatusOK || a.body != want {
			t.Errorf("status %d: %.200s", a.code, a.body)
		}
	}
	b := s.budget
	if b.peak > b.limit || b.peak != 3*n || b.admitted != 8*n || b.inFlight != 0 || b.queued != 0 {
		t.Errorf("peak %d (budget %d), admitted %d of %d, left %d in flight, %d queued", b.peak, b.limit, b.admitted, 8*n, b.inFlight, b.queued)
	}
}

// TestBudgetRefusesBeyondQueue: a budget of one body and a queue of two:
// of eight uploads at once, five are refused at once with 503 and a
// Retry-After, while the other three are still held.
func TestBudgetRefusesBeyondQueue(t *testing.T) {
	body := basicLog(t)
	n := int64(len(body))
	s, admitted, open := gatedServer(Config{Budget: n, ChargePerByte: 1, QueueBytes: 2 * n})
	defer open()
	h := s.handler()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	answers := make(chan answer, 8)
	for range 8 {
		postAsync(h, body, answers)
	}
	for range 5 {
		a := recv(t, ctx, answers) // the gate is closed: only refusals can arrive
		secs, err := strconv.Atoi(a.retryAfter)
		if a.code != http.StatusServiceUnavailable || err != nil || secs < 1 {
			t.Errorf("status %d, Retry-After %q: %.200s", a.code, a.retryAfter, a.body)
		}
	}
	if s.budget.inFlight != n || s.budget.queued != 2*n || len(admitted) != 1 {
		t.Errorf("%d in flight, %d queued, %d admitted", s.budget.inFlight, s.budget.queued, len(admitted))
	}
	open()
	for range 3 {
		if a := recv(t, ctx, answers); a.code != http.StatusOK {
			t.Errorf("status %d: %.200s", a.code, a.body)
		}
	}
	if s.budget.peak != n || s.budget.admitted != 3*n {
		t.Errorf("peak %d, admitted %d", s.budget.peak, s.budget.admitted)
	}
}

// TestBudgetWaiters covers the queue itself: arrival order (a big request
// is not overtaken), a waiter that gives up, and requests bigger than the
// budget.
func TestBudgetWaiters(t *testing.T) {
	b := newBudget(100, 1000, 1)
	if c := b.cost(500); c != 100 {
		t.Errorf("a request above the budget costs %d, want the whole budget", c)
	}
	if c := b.cost(0); c != 1 {
		t.Errorf("an empty request costs %d, want 1", c)
	}
	ctx := context.Background()
	r60, e := b.admit(ctx, 60)
	if e != nil {
		t.Fatal(e)
	}
	got := make(chan int64, 3)
	wait := func(ctx context.Context, cost int64) {
		go func() {
			release, e := b.admit(ctx, cost)
			if e != nil {
				got <- -cost
				return
			}
			got <- cost
			release()
		}()
	}
	gaveUp, cancel := context.WithCancel(ctx)
	wait(gaveUp, 30) // fits, but arrives after nothing: admitted at once
	if c := <-got; c != 30 {
		t.Fatalf("got %d", c)
	}
	wait(ctx, 90) // must wait for the 60
	waitFor(t, ctx, b, func(_, queued int64) bool { return queued == 90 })
	wait(gaveUp, 10) // fits now, but the 90 is ahead of it
	waitFor(t, ctx, b, func(_, queued int64) bool { return queued == 100 })
	cancel()
	if c := <-got; c != -10 {
		t.Fatalf("the waiter that gave up got %d", c)
	}
	r60()
	if c := <-got; c != 90 {
		t.Fatalf("got %d after the release", c)
	}
	waitFor(t, ctx, b, func(inFlight, queued int64) bool { return inFlight == 0 && queued == 0 })
}

// TestCharge: what each kind of upload is charged, in bytes of memory.
func TestCharge(t *testing.T) {
	basic := basicLog(t)
	n := int64(len(basic))
	mp, mpType := multipartOf("file", namedLog{"a.log", basic})
	const budget = 64 << 20
	for _, tc := range []struct {
		name    string
		ctype   string
		body    io.Reader
		length  int64 // Content-Length; -1: unknown (chunked)
		perByte float64
		want    int64
	}{
		{"log", "", bytes.NewReader(basic), n, 1.5, (3*n + 1) / 2},
		{"log, one byte per byte", "", bytes.NewReader(basic), n, 1, n},
		{"tar: its length", "", bytes.NewReader(tarOf(namedLog{"a.log", basic})), -2, 2, -2},
		{"unknown length: the body limit", "", streamed{bytes.NewReader(basic)}, -1, 1.5, 3 << 20},
		{"gzip: the whole budget", "", bytes.NewReader(gzipOf(basic)), 0, 1.5, budget},
		{"zip: the whole budget", "", bytes.NewReader(zipOf(namedLog{"a.log", basic})), 0, 1.5, budget},
		{"multipart: its length", mpType, bytes.NewReader(mp), int64(len(mp)), 2, 2 * int64(len(mp))},
		{"above the budget: the budget", "", bytes.NewReader(basic), n, budget, budget},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(Config{Budget: budget, ChargePerByte: tc.perByte, MaxBody: 2 << 20})
			r := httptest.NewRequest("POST", "/api/total", tc.body)
			want := tc.want
			switch tc.length {
			case -2: // as the body is, charged per byte
				want = int64(math.Ceil(float64(r.ContentLength) * tc.perByte))
			case 0:
			default:
				r.ContentLength = tc.length
			}
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			u, e := s.open(httptest.NewRecorder(), r, false)
			if e != nil {
				t.Fatal(e)
			}
			if got := s.charge(u); got != want {
				t.Errorf("charged %d, want %d", got, want)
			}
		})
	}
}

// TestLimitsFor: every input may expand to what the budget can analyse,
// less what a zip body holds in memory itself; a smaller configured limit
// stays.
func TestLimitsFor(t *testing.T) {
	basic := basicLog(t)
	zip := zipOf(namedLog{"a.log", basic})
	const budget = 64 << 20
	for _, tc := range []struct {
		name string
		cfg  input.Limits
		body []byte
		want int64
	}{
		{"log", input.Limits{}, basic, budget / 2},
		{"gzip", input.Limits{}, gzipOf(basic), budget / 2},
		{"zip: less the body held", input.Limits{}, zip, (budget - int64(len(zip))) / 2},
		{"smaller limit configured", input.Limits{MaxExpanded: 1 << 20}, gzipOf(basic), 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(Config{Budget: budget, ChargePerByte: 2, Limits: tc.cfg})
			r := httptest.NewRequest("POST", "/api/total", bytes.NewReader(tc.body))
			u, e := s.open(httptest.NewRecorder(), r, false)
			if e != nil {
				t.Fatal(e)
			}
			if got := s.limitsFor(u).MaxExpanded; got != tc.want {
				t.Errorf("MaxExpanded %d, want %d", got, tc.want)
			}
		})
	}
}
