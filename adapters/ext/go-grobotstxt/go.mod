module robots-conformance/go-grobotstxt

go 1.19

require (
	github.com/jimsmart/grobotstxt v1.0.3
	robots-conformance/rcproto v0.0.0
)

replace robots-conformance/rcproto => ../go-rcproto
