package rcproto

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func serve(t *testing.T, a Adapter, in string) []string {
	t.Helper()
	var out bytes.Buffer
	ServeStreams(a, strings.NewReader(in), &out)
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

func TestLoop(t *testing.T) {
	a := Adapter{
		Hello: map[string]interface{}{"name": "go-test"},
		Decide: func(robots []byte, agent string, urls []string) ([]Result, error) {
			if string(robots) != "User-agent: *\nDisallow: /x\n" {
				return nil, errors.New("body mangled")
			}
			return Each(urls, func(u string) (bool, error) {
				if u == "/panic" {
					panic("boom")
				}
				return !strings.HasPrefix(u, "/x"), nil
			}), nil
		},
	}
	got := serve(t, a, `{"id":0,"op":"hello","protocol":1}
{"id":1,"op":"decide","robots":"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3gK","agent":"FooBot","urls":["/x","/y","/panic"]}

garbage
{"id":2,"op":"sitemaps","robots":""}
{"id":3,"op":"decide","robots":"!!","agent":"a","urls":[]}
{"id":4,"op":"decide","agent":"a","urls":[]}
`)
	want := []string{
		`{"id":0,"name":"go-test","protocol":1}`,
		`{"id":1,"results":[{"verdict":"disallowed"},{"verdict":"allowed"},{"error":"panic: boom"}]}`,
		`{"error":"bad request: request is not a JSON object: invalid character 'g' looking for beginning of value","id":null}`,
		`{"id":2,"unsupported":"op sitemaps"}`,
	}
	if len(got) != 6 {
		t.Fatalf("want 6 lines, got %d: %q", len(got), got)
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], w)
		}
	}
	for i := 4; i < 6; i++ {
		if !strings.Contains(got[i], `"error":"bad request:`) {
			t.Errorf("line %d should be a bad request: %s", i, got[i])
		}
	}
}

func TestURLs(t *testing.T) {
	cases := map[string][2]string{
		"/a?b":                      {"https://example.com/a?b", "/a?b"},
		"a":                         {"https://example.com/a", "/a"},
		"https://h.example":         {"https://h.example", "/"},
		"https://h.example?q#f":     {"https://h.example?q#f", "/?q"},
		"http://h:8/p/%2F?x=1#frag": {"http://h:8/p/%2F?x=1#frag", "/p/%2F?x=1"},
	}
	for in, w := range cases {
		if g := JoinURL(in); g != w[0] {
			t.Errorf("JoinURL(%q) = %q, want %q", in, g, w[0])
		}
		if g := PathOf(in); g != w[1] {
			t.Errorf("PathOf(%q) = %q, want %q", in, g, w[1])
		}
	}
	for x, w := range map[float64]string{5: "5", 0.5: "0.5", 1e21: "1000000000000000000000"} {
		if g := NumberText(x); g != w {
			t.Errorf("NumberText(%v) = %q, want %q", x, g, w)
		}
	}
}
