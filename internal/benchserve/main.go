// Command benchserve measures the memory of "imas serve" under concurrent
// uploads (make bench-serve; not part of make test). For each input and
// each budget it starts a fresh server with that -budget, posts the same
// upload from several clients at once, and prints the server's peak RSS
// (VmHWM) beside the budget. With -alone it first posts each input once to
// a server whose budget admits it, and prints the peak per byte of body:
// the figure the server's admission charge (server.BodyMemoryFactor) must
// cover.
//
// Each input is a directory of plogs (an imas-gen output), sent as one
// uncompressed tar body with its Content-Length, so that the server charges
// exactly its size; the tar is written once beside the directory.
package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"imas/internal/size"
)

func main() {
	imas := flag.String("imas", "bin/imas", "the imas binary")
	inputs := flag.String("inputs", "", "comma-separated mix=DIR: plog directories to upload")
	budgets := flag.String("budgets", "1GiB", "comma-separated -budget values of the servers")
	clients := flag.Int("clients", 8, "uploads sent at once")
	route := flag.String("route", "/api/report", "API route posted to")
	alone := flag.Bool("alone", true, "first measure each input posted alone (peak RSS per body byte)")
	timeout := flag.Duration("timeout", 30*time.Minute, "the servers' -timeout")
	flag.Parse()
	if *inputs == "" {
		fail("-inputs: want mix=DIR,...")
	}
	var budgetList []int64
	for _, b := range strings.Split(*budgets, ",") {
		if b == "" {
			continue
		}
		n, err := size.Parse(strings.TrimSpace(b))
		if err != nil || n <= 0 {
			fail("-budgets %q: %v", b, err)
		}
		budgetList = append(budgetList, n)
	}
	fmt.Printf("machine: %s, %d CPUs\n", cpuModel(), cpuCount())
	fmt.Printf("%-12s %9s %9s %7s %-22s %8s %10s %9s %s\n",
		"mix", "body MiB", "budget", "clients", "statuses", "wall s", "idle MiB", "peak MiB", "peak/budget")
	for _, in := range strings.Split(*inputs, ",") {
		mix, dir, ok := strings.Cut(in, "=")
		if !ok {
			fail("-inputs %q: want mix=DIR", in)
		}
		body := tarOf(dir)
		st, err := os.Stat(body)
		if err != nil {
			fail("%v", err)
		}
		n := st.Size()
		if *alone {
			// A budget that admits the body at once, whatever it is charged.
			r := run(*imas, body, n, 1<<50, 1, *route, *timeout)
			r.print(mix, n, 0, 1)
			fmt.Printf("%-12s peak above idle per body byte: %.2f\n", mix, float64(r.peak-r.idle)/float64(n))
		}
		for _, b := range budgetList {
			r := run(*imas, body, n, b, *clients, *route, *timeout)
			r.print(mix, n, b, *clients)
			if r.peak > b {
				fmt.Printf("%-12s OVER BUDGET by %s\n", mix, mib(r.peak-b))
			}
		}
	}
}

type result struct {
	statuses   map[int]int
	wall       float64
	idle, peak int64 // bytes: RSS after start-up, VmHWM after the uploads
}

// print writes one row; budget 0 is the run alone, unbounded.
func (r result) print(mix string, body, budget int64, clients int) {
	codes := make([]int, 0, len(r.statuses))
	for c := range r.statuses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var st []string
	for _, c := range codes {
		st = append(st, fmt.Sprintf("%d×%d", r.statuses[c], c))
	}
	label, ratio := "alone", "-"
	if budget > 0 {
		label, ratio = mib(budget), fmt.Sprintf("%.2f", float64(r.peak)/float64(budget))
	}
	fmt.Printf("%-12s %9.0f %9s %7d %-22s %8.1f %10.0f %9.0f %s\n",
		mix, float64(body)/(1<<20), label, clients, strings.Join(st, " "), r.wall,
		float64(r.idle)/(1<<20), float64(r.peak)/(1<<20), ratio)
}

// run starts "imas serve" with budget, posts body from clients goroutines
// at once, waits for every answer and reads the server's peak RSS.
func run(imas, body string, n, budget int64, clients int, route string, timeout time.Duration) result {
	addr := freeAddr()
	cmd := exec.Command(imas, "serve", "-addr", addr, "-budget", strconv.FormatInt(budget, 10),
		"-max-body", strconv.FormatInt(n+1<<20, 10), "-timeout", timeout.String())
	var log bytes.Buffer
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		fail("%v", err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	base := "http://" + addr
	waitUp(base, &log)
	idle := procStatus(cmd.Process.Pid, "VmRSS")
	res := result{statuses: map[int]int{}, idle: idle}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Go(func() {
			code := post(base+route, body, n)
			mu.Lock()
			res.statuses[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	res.wall = time.Since(start).Seconds()
	res.peak = procStatus(cmd.Process.Pid, "VmHWM")
	return res
}

// post sends the file body with its length and drains the answer; 0 is a
// transport error.
func post(url, body string, n int64) int {
	f, err := os.Open(body)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	req, err := http.NewRequest(http.MethodPost, url, f)
	if err != nil {
		fail("%v", err)
	}
	req.ContentLength = n
	req.Header.Set("Content-Type", "application/x-tar")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchserve:", err)
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func waitUp(base string, log *bytes.Buffer) {
	for range 200 {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fail("imas serve did not start: %s", log.String())
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail("%v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// procStatus reads a "kB" field of /proc/PID/status, in bytes.
func procStatus(pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				fail("/proc/%d/status %s: %v", pid, field, err)
			}
			return kb << 10
		}
	}
	fail("/proc/%d/status has no %s", pid, field)
	return 0
}

// tarOf returns DIR.tar holding the .log files of dir, writing it when it
// is missing or older than the directory.
func tarOf(dir string) string {
	dir = filepath.Clean(dir)
	out := dir + ".tar"
	di, err := os.Stat(dir)
	if err != nil {
		fail("%v", err)
	}
	if ti, err := os.Stat(out); err == nil && !ti.ModTime().Before(di.ModTime()) {
		return out
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) == 0 {
		fail("%s: no .log files", dir)
	}
	sort.Strings(files)
	f, err := os.Create(out + ".tmp")
	if err != nil {
		fail("%v", err)
	}
	tw := tar.NewWriter(f)
	for _, p := range files {
		if err := addFile(tw, p); err != nil {
			fail("%v", err)
		}
	}
	if err := errors.Join(tw.Close(), f.Close()); err != nil {
		fail("%v", err)
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		fail("%v", err)
	}
	return out
}

func addFile(tw *tar.Writer, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: "plog/" + filepath.Base(p), Mode: 0o644, Size: st.Size(), ModTime: st.ModTime()}); err != nil {
		return err
	}
	_, err = io.Copy(tw, f)
	return err
}

func mib(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "unknown CPU"
}

func cpuCount() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "processor\t:")
}

func fail(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "benchserve: "+f+"\n", a...)
	os.Exit(1)
}
