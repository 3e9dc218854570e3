package server

import (
	"context"
	"math"
	"net/http"
	"sync"
)

// Memory budget of the analyses in flight. An analysis holds memory in
// proportion to the log it reads, so the server charges each request the
// memory its body is expected to need (charge, below): analyses run while
// the charges admitted stay within the budget, later requests wait in
// arrival order while the charges waiting stay within the queue, and beyond
// that a request is turned away at once with 503 and a Retry-After.

// Defaults of the budget (Config.Budget, Config.ChargePerByte).
const (
	DefaultBudget = 4 * DefaultMaxBody
	// DefaultChargePerByte is the memory an analysis is charged per byte
	// of log. make bench-serve measures the peak per body byte of the
	// generated mixes: the most, many small graphs, is below 0.9 when the
	// garbage collector keeps up, 1.2-1.5 when it does not. With the
	// server's memory limit at the budget (cmd/imas serve), 1.5 leaves
	// about 40% of the budget for garbage, buffers and stacks.
	DefaultChargePerByte = 1.5
)

// retryRate is the analysis speed Retry-After assumes for the bytes of log
// ahead of a refused request (a slow machine's, so that retries are not
// early).
const retryRate = 20 << 20 // bytes of log a second

// budget admits requests by their cost in bytes of memory. It holds
// counters only.
type budget struct {
	mu       sync.Mutex
	limit    int64   // bytes admitted at once
	queueCap int64   // bytes waiting at once (0: no waiting)
	drain    float64 // bytes of charge analysed a second, for Retry-After
	inFlight int64
	queued   int64
	waiters  []*waiter

	// Observed by tests: the most bytes in flight at once, the bytes
	// admitted in all, and a hook run on every admission.
	peak     int64
	admitted int64
	onAdmit  func(cost int64)
}

type waiter struct {
	cost  int64
	ready chan struct{} // closed when admitted
	in    bool          // admitted (under mu)
}

// newBudget bounds the charges in flight to limit and those waiting to
// queue; perByte is the charge of one byte of log.
func newBudget(limit, queue int64, perByte float64) *budget {
	return &budget{limit: limit, queueCap: queue, drain: retryRate * perByte}
}

// cost is what a request expected to need mem bytes is charged: at least 1
// and at most the whole budget, so a request bigger than the budget runs
// alone instead of never.
func (b *budget) cost(mem int64) int64 {
	return min(max(mem, 1), b.limit)
}

// admit waits until cost bytes fit in the budget, or refuses: at once when
// the queue is full, or when ctx ends first. The caller must call release.
func (b *budget) admit(ctx context.Context, cost int64) (release func(), e *apiError) {
	b.mu.Lock()
	if len(b.waiters) == 0 && b.inFlight+cost <= b.limit {
		b.take(cost)
		b.mu.Unlock()
		return b.admitted1(cost), nil
	}
	if b.queued+cost > b.queueCap {
		ahead := b.inFlight + b.queued
		b.mu.Unlock()
		return nil, b.busy(ahead, "server busy: uploads charged %d bytes of memory are being analysed or waiting (budget %d, queue %d); retry later")
	}
	w := &waiter{cost: cost, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.queued += cost
	b.mu.Unlock()
	select {
	case <-w.ready:
		return b.admitted1(cost), nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	if w.in { // admitted while giving up: hand the bytes back
		b.inFlight -= cost
	} else {
		for i, x := range b.waiters {
			if x == w {
				b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
				break
			}
		}
		b.queued -= cost
	}
	b.wake()
	ahead := b.inFlight + b.queued
	b.mu.Unlock()
	return nil, b.busy(ahead, "server busy: waited the time limit behind uploads charged %d bytes of memory (budget %d, queue %d); retry later")
}

func (b *budget) busy(ahead int64, format string) *apiError {
	e := errorf(http.StatusServiceUnavailable, format, ahead, b.limit, b.queueCap)
	e.retryAfter = max(1, int(math.Ceil(float64(ahead)/b.drain)))
	return e
}

// take counts cost bytes in flight (under mu).
func (b *budget) take(cost int64) {
	b.inFlight += cost
	b.admitted += cost
	b.peak = max(b.peak, b.inFlight)
}

// wake admits waiters from the head of the queue while they fit (under
// mu); a big request at the head is not overtaken by smaller ones.
func (b *budget) wake() {
	for len(b.waiters) > 0 && b.inFlight+b.waiters[0].cost <= b.limit {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.queued -= w.cost
		b.take(w.cost)
		w.in = true
		close(w.ready)
	}
}

func (b *budget) admitted1(cost int64) func() {
	if b.onAdmit != nil {
		b.onAdmit(cost)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.inFlight -= cost
			b.wake()
			b.mu.Unlock()
		})
	}
}
