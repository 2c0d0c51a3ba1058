package transport

import (
	"colophon/internal/quote"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// local refuses, 403 Forbidden, a request that a web page could have made
// to reach a server on this machine: one whose Origin names another host,
// or one that reached a loopback address under a Host header naming
// another, as a page does that rebinds its own DNS name to 127.0.0.1. The
// MCP transport specification asks a server to check Origin for this
// reason (Streamable HTTP, "Security Warning") and a local server to check
// Host ("Security Best Practices", "Local MCP Server Compromise"). A
// client that is not a browser sends no Origin and names the address it
// dialled.
func local(w http.ResponseWriter, r *http.Request) bool {
	if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) {
		forbid(w, fmt.Sprintf("Origin %s is not this machine's: only a page served from localhost, 127.0.0.1 or [::1] may call this server", quote.String(origin)))
		return false
	}
	if addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && loopbackHostPort(addr.String()) {
		if !loopbackHostPort(r.Host) {
			forbid(w, fmt.Sprintf("Host %s is not this machine's: the server listens on %s, and answers requests that name localhost or a loopback address", quote.String(r.Host), addr))
			return false
		}
	}
	return true
}

// Guard refuses, as the endpoint does, a request to h that a web page on
// another site could have made (see local): the window's page and its
// /alive are served beside /mcp on one port, and a page that could reach
// them could turn dev mode on.
func Guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if local(w, r) {
			h.ServeHTTP(w, r)
		}
	})
}

func forbid(w http.ResponseWriter, why string) {
	http.Error(w, "Forbidden: "+why, http.StatusForbidden)
}

// loopbackOrigin reports whether an Origin header names this machine.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return loopbackHost(u.Hostname())
}

// loopbackHostPort reports whether host, with or without its port, names
// this machine: localhost, or a loopback address. 0.0.0.0 is not one: it
// names no machine, and a request to it reached this one by accident.
func loopbackHostPort(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return loopbackHost(strings.Trim(host, "[]"))
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
