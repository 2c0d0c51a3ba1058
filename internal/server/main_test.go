package server

import (
	"os"
	"testing"
)

// TestMain holds every answer the tests are given to its tool's output
// schema (checkAnswers), before any server is built.
func TestMain(m *testing.M) {
	checkAnswers = true
	os.Exit(m.Run())
}
