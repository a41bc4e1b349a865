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
// Known behaviour, measured with `robots-conformance matrix --adapters go-grobotstxt` (claimed
// profile google: 2318 pass, 42 fail, 1 timeout of 2723 checks; the closest to the oracle of the
// Go and Java parsers):
//   - encoding: its url.Parse + String() normalisation changes what is matched. Go re-encodes
//     the URL, so %-hex case and reserved escapes (%2F) no longer match the rule as Google's C++
//     would, a raw non-ASCII query is left raw; and a URL with an invalid %-escape (/a%zz,
//     /100%) does not parse, which the API answers as disallowed.
//   - limits: no 500 KiB cap (rules past it are obeyed); the C++ has one, the port dropped it.
//   - ua-matching: a deliberate "bugfix" in the port: the product token is cut at the first
//     character that is not an RFC 7231 token character (letters, digits and !#$%&'*+-.^_`|~),
//     where Google's C++ keeps only [a-zA-Z_-]. So "User-agent: Bot2" and "Mail.Ru" stay whole
//     (the crawler Bot or Mail is not bound), "360Spider" matches, and "googlebot*" is not read
//     as googlebot.
//   - syntax: U+00A0 (no-break space, as UTF-8) counts as whitespace around values.

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
