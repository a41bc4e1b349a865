package rcproto

import "runtime/debug"

// ModuleVersion is the version of module path compiled into this binary ("?" when unknown),
// so that hello names what really runs rather than what a comment says.
func ModuleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "?"
	}
	for _, m := range info.Deps {
		if m.Path == path {
			if m.Replace != nil {
				return m.Replace.Version
			}
			return m.Version
		}
	}
	return "?"
}
