// Package rcproto is the adapter protocol loop (adapters/PROTOCOL.md, version 1) for the Go
// adapters in adapters/ext/go-*/, the Go counterpart of adapters/ext/lib/rcproto.py.
//
// An adapter describes itself and hands over plain functions; everything else -- hello,
// base64, JSON, per-URL error and panic capture, unsupported operations, flushing, exit on
// EOF -- happens here. It must never interpret robots.txt: it only carries requests to the
// adapter's functions and their answers back.
//
// Stdout hygiene: Serve keeps the original stdout for answers and points os.Stdout at
// stderr first, so a library that prints with fmt.Print cannot corrupt the protocol stream.
// Request lines are capped at MaxLine bytes (a longer one is answered with an error and
// skipped), so a runaway harness cannot make the process grow without bound.
package rcproto

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Protocol is the protocol version this package speaks.
const Protocol = 1

// MaxLine caps one request line (the harness's bodies are at most a few MiB; base64 adds a third).
const MaxLine = 64 << 20

// Unsupported, returned (or wrapped) by a callback, answers the whole request with
// {"unsupported": message}.
type Unsupported struct{ Why string }

func (u Unsupported) Error() string { return u.Why }

// Result is one URL's answer: a verdict or an error.
type Result struct {
	Allowed bool
	Err     error
}

// Adapter is what an adapter hands to Serve. Every callback is optional; an operation without
// one is answered "unsupported".
type Adapter struct {
	// Hello is the hello answer (name, version, language, profile, body, ...), without id.
	Hello map[string]interface{}
	// Decide answers every URL of one decide request about one body (one parse per request).
	Decide func(robots []byte, agent string, urls []string) ([]Result, error)
	// Sitemaps lists the file's sitemap URLs.
	Sitemaps func(robots []byte) ([]string, error)
	// CrawlDelay is the agent's crawl-delay as text, or nil for none.
	CrawlDelay func(robots []byte, agent string) (*string, error)
	// Fetch fetches robotsURL (a loopback fixture URL) with an HTTP timeout of timeout seconds,
	// then answers every URL as Decide does. An error means the parser gave no verdict.
	Fetch func(robotsURL, agent string, urls []string, timeout float64) ([]Result, error)
}

// Each answers every URL with allowed(url), a panic or error becoming that URL's error.
func Each(urls []string, allowed func(url string) (bool, error)) []Result {
	out := make([]Result, len(urls))
	for i, u := range urls {
		out[i] = guard(func() (bool, error) { return allowed(u) })
	}
	return out
}

func guard(f func() (bool, error)) (r Result) {
	defer func() {
		if p := recover(); p != nil {
			r = Result{Err: fmt.Errorf("panic: %v", p)}
		}
	}()
	ok, err := f()
	return Result{Allowed: ok, Err: err}
}

type request struct {
	ID        json.RawMessage `json:"id"`
	Op        *string         `json:"op"`
	Robots    *string         `json:"robots"`
	Agent     *string         `json:"agent"`
	URLs      []string        `json:"urls"`
	RobotsURL *string         `json:"robots_url"`
	Timeout   *float64        `json:"timeout"`
}

type badRequest struct{ msg string }

func (b badRequest) Error() string { return "bad request: " + b.msg }

// Serve runs the protocol loop on stdin/stdout until stdin closes.
func Serve(a Adapter) {
	out := os.Stdout
	os.Stdout = os.Stderr
	ServeStreams(a, os.Stdin, out)
}

// ServeStreams runs the loop on the given streams (Serve uses stdin and the real stdout).
func ServeStreams(a Adapter, in io.Reader, out io.Writer) {
	r := bufio.NewReaderSize(in, 1<<16)
	w := bufio.NewWriter(out)
	for {
		line, tooLong, err := readLine(r)
		if len(line) > 0 || tooLong {
			var reply map[string]interface{}
			if tooLong {
				reply = map[string]interface{}{"id": nil, "error": fmt.Sprintf("bad request: line longer than %d bytes", MaxLine)}
			} else if strings.TrimSpace(string(line)) != "" {
				reply = answerLine(a, line)
			}
			if reply != nil {
				data, merr := json.Marshal(reply)
				if merr != nil {
					data = []byte(`{"id":null,"error":"answer not encodable"}`)
				}
				if _, werr := w.Write(append(data, '\n')); werr != nil {
					return
				}
				if werr := w.Flush(); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its newline, discarding (and flagging) lines past MaxLine.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, e := r.ReadLine()
		if !tooLong {
			if len(line)+len(chunk) > MaxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if e != nil {
			return line, tooLong, e
		}
		if !isPrefix {
			return line, tooLong, nil
		}
	}
}

func answerLine(a Adapter, line []byte) (reply map[string]interface{}) {
	var req request
	var id interface{}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "panic: %v\n%s", p, debug.Stack())
			reply = map[string]interface{}{"id": id, "error": fmt.Sprintf("panic: %v", p)}
		}
	}()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return map[string]interface{}{"id": nil, "error": "bad request: request is not a JSON object: " + err.Error()}
	}
	if raw, ok := obj["id"]; ok {
		id = raw
	}
	if err := json.Unmarshal(line, &req); err != nil {
		return map[string]interface{}{"id": id, "error": "bad request: " + err.Error()}
	}
	body, err := answer(a, &req)
	reply = map[string]interface{}{"id": id}
	var uns Unsupported
	switch {
	case errors.As(err, &uns):
		reply["unsupported"] = uns.Why
	case err != nil:
		reply["error"] = err.Error()
	default:
		for k, v := range body {
			reply[k] = v
		}
	}
	return reply
}

func need(s *string, key string) (string, error) {
	if s == nil {
		return "", badRequest{fmt.Sprintf("missing or non-string %q", key)}
	}
	return *s, nil
}

func robotsOf(req *request) ([]byte, error) {
	text, err := need(req.Robots, "robots")
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.Strict().DecodeString(text)
	if err != nil {
		return nil, badRequest{"robots is not valid base64: " + err.Error()}
	}
	return b, nil
}

func answer(a Adapter, req *request) (map[string]interface{}, error) {
	op, err := need(req.Op, "op")
	if err != nil {
		return nil, err
	}
	switch {
	case op == "hello":
		h := map[string]interface{}{"protocol": Protocol}
		for k, v := range a.Hello {
			h[k] = v
		}
		return h, nil
	case op == "decide" && a.Decide != nil:
		robots, err := robotsOf(req)
		if err != nil {
			return nil, err
		}
		agent, err := need(req.Agent, "agent")
		if err != nil {
			return nil, err
		}
		if req.URLs == nil {
			return nil, badRequest{"missing 'urls'"}
		}
		return results(a.Decide(robots, agent, req.URLs))(len(req.URLs))
	case op == "fetch" && a.Fetch != nil:
		robotsURL, err := need(req.RobotsURL, "robots_url")
		if err != nil {
			return nil, err
		}
		agent, err := need(req.Agent, "agent")
		if err != nil {
			return nil, err
		}
		if req.URLs == nil {
			return nil, badRequest{"missing 'urls'"}
		}
		timeout := 1.0
		if req.Timeout != nil {
			timeout = *req.Timeout
		}
		return results(a.Fetch(robotsURL, agent, req.URLs, timeout))(len(req.URLs))
	case op == "sitemaps" && a.Sitemaps != nil:
		robots, err := robotsOf(req)
		if err != nil {
			return nil, err
		}
		list, err := a.Sitemaps(robots)
		if err != nil {
			return nil, err
		}
		if list == nil {
			list = []string{}
		}
		return map[string]interface{}{"value": list}, nil
	case op == "crawl-delay" && a.CrawlDelay != nil:
		robots, err := robotsOf(req)
		if err != nil {
			return nil, err
		}
		agent, err := need(req.Agent, "agent")
		if err != nil {
			return nil, err
		}
		v, err := a.CrawlDelay(robots, agent)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return map[string]interface{}{"value": nil}, nil
		}
		return map[string]interface{}{"value": *v}, nil
	}
	return nil, Unsupported{"op " + op}
}

func results(rs []Result, err error) func(n int) (map[string]interface{}, error) {
	return func(n int) (map[string]interface{}, error) {
		if err != nil {
			return nil, err
		}
		if len(rs) != n {
			return nil, fmt.Errorf("adapter gave %d results for %d URLs", len(rs), n)
		}
		list := make([]map[string]string, n)
		for i, r := range rs {
			switch {
			case r.Err != nil:
				list[i] = map[string]string{"error": r.Err.Error()}
			case r.Allowed:
				list[i] = map[string]string{"verdict": "allowed"}
			default:
				list[i] = map[string]string{"verdict": "disallowed"}
			}
		}
		return map[string]interface{}{"results": list}, nil
	}
}
