package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// maxBody caps what one fetch reads: far past anything the fixture serves (a body past
// 500 KiB is its largest), so the parser still sees every byte it would.
const maxBody = 32 << 20

// get fetches url the way a Go crawler does with net/http (colly, which uses this parser,
// hands the *http.Response to robotstxt.FromResponse): no proxy, Go's default redirect policy
// (up to 10), one connection per fetch. timeout bounds the connect and the wait for each
// response's headers; three times it bounds the whole exchange, redirects and body included.
func get(url string, timeout float64) (status int, body []byte, err error) {
	d := time.Duration(timeout * float64(time.Second))
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: d}).DialContext,
		ResponseHeaderTimeout: d,
		DisableKeepAlives:     true,
	}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 3 * d}
	ctx, cancel := context.WithTimeout(context.Background(), 3*d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err = io.ReadAll(io.LimitReader(res.Body, maxBody+1))
	if err != nil {
		return 0, nil, err
	}
	if len(body) > maxBody {
		return 0, nil, errors.New(fmt.Sprint("body longer than the adapter's cap of ", maxBody, " bytes"))
	}
	return res.StatusCode, body, nil
}
