package toolsdoc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A step of the first session: what it does, and the request.
type step struct {
	say  string
	tool string
	args string // JSON, its fields in the order the request gives them
}

// firstSession is what an agent might do first: stand a 6128 up, type a
// program, read it off the screen and find it in RAM, read the firmware's
// TXT OUTPUT, keep a state, run the program, and put the state back.
var firstSession = []step{
	{"Stand a CPC 6128 up. The answer names the handle every other tool takes, and the firmware files it was built from.",
		"machine_open", `{"machine":"cpc6128"}`},
	{"Let the firmware start: it takes no key for its first 78 frames.",
		"run", `{"handle":"m1","frames":78}`},
	{"Type a program at BASIC, key by key.",
		"type", `{"handle":"m1","text":"10 PRINT \"HELLO\";\n20 GOTO 10\n"}`},
	{"Read the screen as text (the answer also carries the picture as a PNG, left out here).",
		"monitor", `{"handle":"m1","text":true}`},
	{"Look for the program where BASIC keeps it, from &0170. Through the banking the lower ROM answers there, and the answer's rom says so.",
		"peek", `{"handle":"m1","address":"&0170","length":8}`},
	{"So read the RAM itself: the line's length, its number (10), PRINT's token (&BF) and the text.",
		"peek", `{"handle":"m1","address":"&0170","length":16,"ram":true}`},
	{"Or search the RAM for the text.",
		"find", `{"handle":"m1","text":"HELLO","ram":true}`},
	{"Read the firmware's TXT OUTPUT entry in the main jumpblock: a LOW JUMP, whose target says where it goes.",
		"disassemble", `{"handle":"m1","address":"&BB5A","count":1}`},
	{"And the routine itself, in the lower ROM, whatever the Gate Array has enabled.",
		"disassemble", `{"handle":"m1","address":"&13FE","count":6,"rom":"lower"}`},
	{"Keep the machine as it stands, to come back to.",
		"state_keep", `{"handle":"m1"}`},
	{"Run the program for a second, stopping outside any interrupt handler so that a call could follow.",
		"type", `{"handle":"m1","text":"RUN\n"}`},
	{"",
		"run", `{"handle":"m1","frames":50,"clean":true}`},
	{"",
		"monitor", `{"handle":"m1","text":true}`},
	{"Put the machine back as it was kept: the program typed, not yet run.",
		"state_restore", `{"handle":"m1","state":"s1"}`},
	{"",
		"monitor", `{"handle":"m1","text":true}`},
	{"The journal is the way from the machine's opening to where it stands, to make the finding again.",
		"journal", `{"handle":"m1"}`},
}

// session runs the first session on the server and writes it out, each
// request and the server's answer to it.
func session(ctx context.Context, cs *mcp.ClientSession, b *bytes.Buffer, roms string) error {
	b.WriteString("\n## A first session\n\nEach request is what a client sends as a tool's arguments, and each answer the JSON the server answers with, here run on a real cpc6128.\n")
	for i, s := range firstSession {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: json.RawMessage(s.args)})
		if err != nil {
			return fmt.Errorf("toolsdoc: step %d, %s: %w", i+1, s.tool, err)
		}
		if res.IsError {
			return fmt.Errorf("toolsdoc: step %d, %s was refused: %v", i+1, s.tool, text(res))
		}
		if s.say != "" {
			fmt.Fprintf(b, "\n%s\n", s.say)
		}
		fmt.Fprintf(b, "\n`%s` `%s`\n\n```json\n%s\n```\n", s.tool, s.args, indent(text(res), roms))
	}
	return nil
}

func text(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// indent writes an answer's JSON indented, with the firmware's directory
// written as it would be anywhere.
func indent(answer, roms string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(answer), "", "  "); err != nil {
		return answer
	}
	return strings.ReplaceAll(b.String(), roms+"/", "/path/to/roms/")
}
