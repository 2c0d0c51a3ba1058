package transport

import "testing"

func TestLoopbackOrigin(t *testing.T) {
	tests := []struct {
		origin string
		ok     bool
	}{
		{"http://127.0.0.1:8010", true},
		{"http://localhost:8010", true},
		{"https://localhost", true},
		{"http://[::1]:8010", true},
		{"http://127.9.9.9", true},
		{"http://evil.example", false},
		{"http://evil.example:8010", false},
		{"http://10.0.0.1:8010", false},
		{"http://0.0.0.0:8010", false},
		{"null", false},
		{"file://localhost", false},
		{"http://localhost.evil.example", false},
	}
	for _, tt := range tests {
		if got := loopbackOrigin(tt.origin); got != tt.ok {
			t.Errorf("loopbackOrigin(%q) = %v, want %v", tt.origin, got, tt.ok)
		}
	}
}

func TestLoopbackHostPort(t *testing.T) {
	for host, ok := range map[string]bool{
		"127.0.0.1:7637": true, "localhost:7637": true, "LOCALHOST": true, "[::1]:7637": true, "::1": true,
		"0.0.0.0:7637": false, "evil.example:7637": false, "192.168.1.2:7637": false, "": false,
	} {
		if got := loopbackHostPort(host); got != ok {
			t.Errorf("loopbackHostPort(%q) = %v, want %v", host, got, ok)
		}
	}
}
