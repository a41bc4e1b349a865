// go-colly: the Colly crawler framework (github.com/gocolly/colly/v2 v2.3.0, whose
// robots.txt handling parses with github.com/temoto/robotstxt v1.1.2), driven end to end:
// a fresh Collector per request with robots.txt obeyed (IgnoreRobotsTxt = false), one
// Visit per URL, over the JSON-lines protocol of adapters/PROTOCOL.md.
//
// Profile claimed: google. temoto/robotstxt cites Google's robots.txt documentation for
// its status handling and implements Google's extensions (Allow, `*`, `$`).
//
// What is observed. The verdict for a URL is whether Colly sent the request for it:
// Visit checks robots.txt (Collector.checkRobots) before its OnRequest callbacks run and
// before the page is fetched, so
//   - OnRequest fired for the URL            -> "allowed" (the page request then goes to
//     the fixture; its own status, 404 for an unscripted page, is not the verdict);
//   - Visit returned colly.ErrRobotsTxtBlocked -> "disallowed";
//   - Visit returned another error after a robots.txt request went out, and OnRequest
//     never fired (the robots.txt fetch failed or temoto could not parse the body) ->
//     "disallowed": Colly refuses the visit with that error and does not cache it, so
//     the crawler does not access the page (the error goes to stderr);
//   - an error before any robots.txt request (a URL Colly cannot parse) -> that URL's
//     error.
//
// The transport is wrapped only to see that a robots.txt request was made; requests
// themselves go through Go's http.DefaultTransport, which is what Colly uses unless told
// otherwise.
//
// Configuration: UserAgent = the check's agent (Colly matches groups against its
// User-Agent header, and sends it); SetRequestTimeout(timeout) from the request (Go's
// http.Client.Timeout: the whole response, body included); AllowURLRevisit = true. Colly
// does not retry by itself. Proxy variables are removed at start (fixture is loopback).
//
// Fetch layer, as measured against the fixture server (matrix --adapters go-colly fetch):
//
//	2xx (200, 203, 206)   body parsed (temoto FromBytes); 204 (no body) allows all; a body
//	                      temoto cannot parse is an error -> visit refused
//	3xx                   followed by Go's http.Client (301/302/303/307/308, relative
//	                      Location, across hosts, 6 hops); a loop ends after 10 with an error
//	                      -> visit refused (disallowed); meta refresh not followed
//	4xx (400..451, 401/403/429 too) allow all, rules in the body ignored
//	5xx (500..599), and a redirect to a 503   ALLOW ALL. temoto maps 5xx to its disallowAll
//	                      value, but Colly's checkRobots calls FindGroup(...).Test(path)
//	                      instead of TestAgent, and disallowAll has no groups: FindGroup
//	                      gives the empty group, which allows everything. RFC 9309 2.3.1.4
//	                      says MUST disallow; Colly crawls a site whose robots.txt is 503.
//	600                   "Unexpected status" error -> visit refused (disallowed)
//	timeout, dropped, refused, truncated, bad chunking, not HTTP -> a Go error from
//	                      Client.Do or the body read -> visit refused (disallowed), retried
//	                      on the next visit (errors are not cached)
//	HTML body, text/html, octet-stream, no Content-Type -> parsed as robots.txt
//	past 500 KiB          read whole (no cap), every rule used
//
// Decide: answered by serving the body from a loopback server of this process
// (127.0.0.1, an ephemeral port, 200 text/plain) and visiting each URL's path and query
// on it, so it is Colly's own robots.txt path end to end (including how Colly rebuilds
// the query, u.Query().Encode(), before matching).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"
)

const version = "colly v2.3.0 (temoto/robotstxt v1.1.2)"

// maxLine caps one request line (bodies past 500 KiB arrive base64'd).
const maxLine = 64 << 20

type request struct {
	ID        json.RawMessage `json:"id"`
	Op        string          `json:"op"`
	Robots    *string         `json:"robots"`
	Agent     *string         `json:"agent"`
	URLs      []string        `json:"urls"`
	RobotsURL *string         `json:"robots_url"`
	Timeout   *float64        `json:"timeout"`
}

type result map[string]string

// watch wraps a transport to see whether a robots.txt request went out.
type watch struct {
	next   http.RoundTripper
	robots atomic.Int64
}

func (w *watch) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == "/robots.txt" {
		w.robots.Add(1)
	}
	return w.next.RoundTrip(r)
}

// visitAll visits each URL with a fresh Collector and reports Colly's gate for each.
func visitAll(agent string, urls []string, timeout time.Duration) []result {
	w := &watch{next: http.DefaultTransport}
	c := colly.NewCollector(colly.UserAgent(agent), colly.AllowURLRevisit())
	c.IgnoreRobotsTxt = false
	c.WithTransport(w)
	c.SetRequestTimeout(timeout)
	var mu sync.Mutex
	reached := map[string]bool{}
	c.OnRequest(func(r *colly.Request) {
		mu.Lock()
		reached[r.Ctx.Get("rc-url")] = true
		mu.Unlock()
	})
	out := make([]result, 0, len(urls))
	for i, u := range urls {
		key := fmt.Sprint(i)
		ctx := colly.NewContext()
		ctx.Put("rc-url", key)
		before := w.robots.Load()
		err := c.Request("GET", u, nil, ctx, nil)
		mu.Lock()
		got := reached[key]
		mu.Unlock()
		switch {
		case got:
			out = append(out, result{"verdict": "allowed"})
		case errors.Is(err, colly.ErrRobotsTxtBlocked):
			out = append(out, result{"verdict": "disallowed"})
		case err != nil && w.robots.Load() > before:
			fmt.Fprintf(os.Stderr, "go-colly: %s: visit refused after the robots.txt fetch: %v\n", u, err)
			out = append(out, result{"verdict": "disallowed"})
		case err != nil:
			out = append(out, result{"error": err.Error()})
		default:
			out = append(out, result{"error": "Colly neither sent the request nor returned an error"})
		}
	}
	return out
}

// served is the loopback server decide uses: it answers /robots.txt with the body of the
// current request and every other path with 404.
type served struct {
	mu   sync.Mutex
	body []byte
	base string
}

func startServed() (*served, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &served{base: "http://" + l.Addr().String()}
	go http.Serve(l, http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(rw, r)
			return
		}
		s.mu.Lock()
		b := s.body
		s.mu.Unlock()
		rw.Header().Set("Content-Type", "text/plain")
		rw.Write(b)
	}))
	return s, nil
}

// onServer moves a URL (absolute or a path) onto the served authority, path and query kept
// as written.
func (s *served) onServer(u string) string {
	rest := u
	if i := strings.Index(u, "://"); i >= 0 {
		after := u[i+3:]
		j := strings.IndexAny(after, "/?#")
		if j < 0 {
			rest = "/"
		} else {
			rest = after[j:]
		}
	}
	if !strings.HasPrefix(rest, "/") {
		rest = "/" + rest
	}
	return s.base + rest
}

var decideMu sync.Mutex

func answer(req *request, srv *served) map[string]any {
	switch req.Op {
	case "hello":
		return map[string]any{"name": "go-colly", "version": version, "language": "go", "profile": "google"}
	case "fetch":
		if req.RobotsURL == nil || req.Agent == nil || req.URLs == nil {
			return map[string]any{"error": "bad request: fetch needs robots_url, agent and urls"}
		}
		t := 1.0
		if req.Timeout != nil {
			t = *req.Timeout
		}
		if _, err := url.Parse(*req.RobotsURL); err != nil {
			return map[string]any{"error": "bad request: robots_url: " + err.Error()}
		}
		return map[string]any{"results": visitAll(*req.Agent, req.URLs, time.Duration(t*float64(time.Second)))}
	case "decide":
		if req.Robots == nil || req.Agent == nil || req.URLs == nil {
			return map[string]any{"error": "bad request: decide needs robots, agent and urls"}
		}
		if srv == nil {
			return map[string]any{"unsupported": "no loopback server to serve the body from"}
		}
		body, err := base64.StdEncoding.DecodeString(*req.Robots)
		if err != nil {
			return map[string]any{"error": "bad request: robots is not valid base64: " + err.Error()}
		}
		decideMu.Lock()
		defer decideMu.Unlock()
		srv.mu.Lock()
		srv.body = body
		srv.mu.Unlock()
		live := make([]string, len(req.URLs))
		for i, u := range req.URLs {
			live[i] = srv.onServer(u)
		}
		return map[string]any{"results": visitAll(*req.Agent, live, 2*time.Second)}
	}
	return map[string]any{"unsupported": "op " + req.Op}
}

func main() {
	for _, k := range []string{"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"} {
		os.Unsetenv(k)
	}
	// Colly and its dependencies log to the standard logger, never to stdout; answers
	// go to a private writer.
	out := bufio.NewWriter(os.Stdout)
	srv, err := startServed()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-colly: no loopback server for decide: %v\n", err)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), maxLine)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		var req request
		var reply map[string]any
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			reply = map[string]any{"id": nil, "error": "bad request: request is not a JSON object: " + err.Error()}
		} else {
			reply = answer(&req, srv)
			if req.ID != nil {
				reply["id"] = req.ID
			} else {
				reply["id"] = nil
			}
		}
		b, _ := json.Marshal(reply)
		out.Write(b)
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "go-colly: stdin: %v\n", err)
	}
}
