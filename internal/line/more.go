package line

import "strings"

// The pager prompt ITS prints when a page of output is full, in its long form
// as the spec quotes it (spec/pidp10-mcp.md, "How send and read decide to
// return"), and the short form that begins it.
const (
	morePrompt     = "--More--"
	morePromptLong = "--More-- (Space=yes, Rubout=no)"
)

// maxMorePages is how many --More-- prompts one call answers before it
// returns with reason more_limit (spec: "up to 20 pages").
const maxMorePages = 20

// trailingPrompt finds a --More-- prompt at the very end of text, ignoring
// trailing spaces and tabs. It returns where the prompt starts and ends in
// text, and whether it is complete: the long form is, while the short form
// may still be followed by the rest of the long one.
func trailingPrompt(text string) (start, end int, complete, ok bool) {
	trimmed := strings.TrimRight(text, " \t")
	switch {
	case strings.HasSuffix(trimmed, morePromptLong):
		return len(trimmed) - len(morePromptLong), len(trimmed), true, true
	case strings.HasSuffix(trimmed, morePrompt):
		return len(trimmed) - len(morePrompt), len(trimmed), false, true
	}
	return 0, 0, false, false
}
