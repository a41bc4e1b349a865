// go-grobotstxt: github.com/jimsmart/grobotstxt v1.0.3 (a line-by-line Go port of Google's
// C++ robots.txt parser and matcher), through adapters/ext/go-rcproto.
//
// Profile claimed: google (it is Google's parser, ported).
//
// Input conventions:
//   - Body: AgentAllowed takes a Go string, which holds arbitrary bytes: the raw body is passed
//     untouched (non_utf8_bodies = true), as Google's C++ gets it.
//   - URLs: AgentAllowed(body, userAgent, uri) wants a URI: a path is joined textually onto
//     https://example.com. Unlike the C++, the port normalises the URI first with Go's
//     url.Parse + String() (its doc says so), so raw non-ASCII URLs are percent-encoded by the
//     parser itself (raw_non_ascii_urls = true), and a URI that url.Parse rejects (e.g. a bad
//     %-escape such as /a%zz) is answered false by the API: that is the parser's verdict, and
//     is reported as "disallowed".
//   - The agent is the caller's string; the parser extracts the product token from it (as
//     Google's ExtractUserAgent does) and matches it case-insensitively.
//   - Each URL is one AgentAllowed call (the API parses the body per call).
//   - sitemaps: grobotstxt.Sitemaps(body). It has no crawl-delay or token-validation API.
//
// Known behaviour (spec-cases, via `matrix --adapters go-grobotstxt`): see the
// adapters/ext/README.md table row for the measured failures by category.
package main

import (
	"github.com/jimsmart/grobotstxt"

	"robots-conformance/rcproto"
)

func main() {
	rcproto.Serve(rcproto.Adapter{
		Hello: map[string]interface{}{
			"name":     "go-grobotstxt",
			"version":  "jimsmart/grobotstxt " + rcproto.ModuleVersion("github.com/jimsmart/grobotstxt"),
			"language": "go",
			"profile":  "google",
			"body":     "raw bytes",
		},
		Decide: func(robots []byte, agent string, urls []string) ([]rcproto.Result, error) {
			body := string(robots)
			return rcproto.Each(urls, func(u string) (bool, error) {
				return grobotstxt.AgentAllowed(body, agent, rcproto.JoinURL(u)), nil
			}), nil
		},
		Sitemaps: func(robots []byte) ([]string, error) {
			return grobotstxt.Sitemaps(string(robots)), nil
		},
	})
}
