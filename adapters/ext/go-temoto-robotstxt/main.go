// go-temoto-robotstxt: github.com/temoto/robotstxt v1.1.2 (the most used Go parser; colly
// uses it), through adapters/ext/go-rcproto.
//
// Profile claimed: google. The package names no specification beyond "robotstxt.org with
// various extensions"; its code quotes Google's documentation for every decision (4xx = full
// allow, 5xx = full disallow, most specific group, longest rule), so Google's reading is the
// nearer one.
//
// Input conventions:
//   - Body: FromBytes takes the raw bytes (non_utf8_bodies = true); its scanner decodes UTF-8
//     itself. An empty or whitespace-only body is "allow all".
//   - URLs: TestAgent(path, agent) takes a path: an absolute URL is cut textually to path and
//     query (fragment dropped, nothing decoded).
//   - One FromBytes per decide request, then TestAgent per URL. A ParseError (the parser
//     rejects a whole file with, e.g., an Allow or Crawl-delay line before any User-agent)
//     answers the request with an error: the parser gave no rules.
//   - sitemaps: RobotsData.Sitemaps. crawl-delay: FindGroup(agent).CrawlDelay, a
//     time.Duration that is 0 both when absent and for "Crawl-delay: 0"; 0 is reported as no
//     value (null), so an explicit zero reads as absent.
//   - fetch (live, fetch = true): the parser does no I/O, but FromResponse/FromStatusAndBytes
//     is its mapping of an HTTP answer to rules (2xx parse, 4xx allow all, 5xx disallow all,
//     anything else an "Unexpected status" error). The adapter GETs robots_url with net/http
//     as colly does (fetch.go: default redirect policy, up to 10 hops), then calls
//     FromStatusAndBytes(status, body). A network error or timeout is an error (no verdict).
//
// Known behaviour, measured with `robots-conformance matrix --adapters go-temoto-robotstxt`
// (claimed profile google: 2138 pass, 266 fail, 92 error, 6 timeout of 2723 checks):
//   - grouping, syntax, other-records (errors): one bad line rejects the whole file. An
//     Allow/Disallow/Crawl-delay before any User-agent, or a Crawl-delay value that is not a
//     number ("Crawl-delay:" empty, a typo'd key swallowing the colon), makes FromBytes return a
//     ParseError and no rules at all; a partial or doubled BOM does the same (its first line is
//     no longer a User-agent).
//   - ua-matching: agent matching is "the crawler's name starts with the group's name"
//     (strings.HasPrefix after lower-casing), so `User-agent: ExampleBot` also binds ExampleBotX
//     and Googlebot binds Googlebot-News; values with a version or "*" suffix never match.
//     A user-agent line with no rules makes no group: that crawler falls back to "*".
//   - precedence: ties go to the first rule in file order, not to Allow; a wildcard rule's
//     length is that of its compiled regexp, not of the pattern, so wildcard-vs-literal
//     precedence is often wrong; "$" in the middle of a pattern is an anchor.
//   - encoding: no percent-encoding normalisation at all (raw UTF-8 vs %-encoded, %-hex case,
//     %-encoded unreserved characters are all compared as bytes).
//   - limits: no 500 KiB cap (rules past it are obeyed); very long lines are kept whole; regexp
//     matching of thousands of wildcard rules against a 10,000-byte URL misses the deadline.
//   - fetch: 429 is a 4xx, so allow all; a status outside 2xx/4xx/5xx (600) is an error; the Go
//     client gives up after 10 redirects with an error.

package main

import (
	"github.com/temoto/robotstxt"

	"robots-conformance/rcproto"
)

const module = "github.com/temoto/robotstxt"

func decide(r *robotstxt.RobotsData, agent string, urls []string) []rcproto.Result {
	return rcproto.Each(urls, func(u string) (bool, error) {
		return r.TestAgent(rcproto.PathOf(u), agent), nil
	})
}

func main() {
	rcproto.Serve(rcproto.Adapter{
		Hello: map[string]interface{}{
			"name":     "go-temoto-robotstxt",
			"version":  "temoto/robotstxt " + rcproto.ModuleVersion(module),
			"language": "go",
			"profile":  "google",
			"body":     "raw bytes",
		},
		Decide: func(robots []byte, agent string, urls []string) ([]rcproto.Result, error) {
			r, err := robotstxt.FromBytes(robots)
			if err != nil {
				return nil, err
			}
			return decide(r, agent, urls), nil
		},
		Sitemaps: func(robots []byte) ([]string, error) {
			r, err := robotstxt.FromBytes(robots)
			if err != nil {
				return nil, err
			}
			return r.Sitemaps, nil
		},
		CrawlDelay: func(robots []byte, agent string) (*string, error) {
			r, err := robotstxt.FromBytes(robots)
			if err != nil {
				return nil, err
			}
			d := r.FindGroup(agent).CrawlDelay
			if d == 0 {
				return nil, nil
			}
			s := rcproto.NumberText(d.Seconds())
			return &s, nil
		},
		Fetch: func(robotsURL, agent string, urls []string, timeout float64) ([]rcproto.Result, error) {
			status, body, err := get(robotsURL, timeout)
			if err != nil {
				return nil, err
			}
			r, err := robotstxt.FromStatusAndBytes(status, body)
			if err != nil {
				return nil, err
			}
			return decide(r, agent, urls), nil
		},
	})
}
