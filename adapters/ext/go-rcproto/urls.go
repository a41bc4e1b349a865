package rcproto

import (
	"strconv"
	"strings"
)

// Base is where paths are joined for parsers that need an absolute URL.
const Base = "https://example.com"

// schemeEnd is the index just past "scheme://" of an absolute URL, or -1.
func schemeEnd(url string) int {
	i := strings.Index(url, "://")
	if i <= 0 {
		return -1
	}
	for j := 0; j < i; j++ {
		c := url[j]
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(alpha || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return -1
		}
	}
	return i + 3
}

// IsAbsolute reports whether url has a scheme.
func IsAbsolute(url string) bool { return schemeEnd(url) >= 0 }

// JoinURL is url itself if absolute, else Base + the path (textually, no normalisation).
func JoinURL(url string) string {
	if IsAbsolute(url) {
		return url
	}
	if !strings.HasPrefix(url, "/") {
		url = "/" + url
	}
	return Base + url
}

// PathOf is the path and query of url (absolute or a path), fragment cut, textually: no
// decoding, no normalisation. An empty path becomes "/".
func PathOf(url string) string {
	rest := url
	if e := schemeEnd(url); e >= 0 {
		j := e
		for j < len(url) && !strings.ContainsRune("/?#", rune(url[j])) {
			j++
		}
		rest = url[j:]
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	if !strings.HasPrefix(rest, "/") {
		rest = "/" + rest
	}
	return rest
}

// NumberText writes a crawl-delay number the way Rust's f64 Display does ("5", "0.5").
func NumberText(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}
