package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGetFollowsRedirectsAndReturnsTheFinalAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/r1", http.StatusMovedPermanently)
		case "/r1":
			http.Redirect(w, r, "/final", http.StatusFound)
		case "/final":
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("User-agent: *\nDisallow: /x\n"))
		}
	}))
	defer srv.Close()
	status, body, err := get(srv.URL+"/robots.txt", 2)
	if err != nil || status != 503 || string(body) != "User-agent: *\nDisallow: /x\n" {
		t.Fatalf("got %d %q %v", status, body, err)
	}
}

func TestGetTimesOutOnASlowAnswer(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
	}))
	defer srv.Close()
	defer close(release)
	_, _, err := get(srv.URL+"/robots.txt", 0.2)
	if err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Fatalf("want a timeout error, got %v", err)
	}
}
