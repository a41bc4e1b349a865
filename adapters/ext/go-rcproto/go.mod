module robots-conformance/rcproto

go 1.19
