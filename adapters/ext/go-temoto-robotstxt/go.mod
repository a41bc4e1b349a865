module robots-conformance/go-temoto-robotstxt

go 1.19

require (
	github.com/temoto/robotstxt v1.1.2
	robots-conformance/rcproto v0.0.0
)

replace robots-conformance/rcproto => ../go-rcproto
