package server

const devModeDescription = `Reads or turns the window's dev mode.

The window (colophon-mcp window) runs one machine in real time before a person's eyes, and serves this MCP server beside it. The tools that only look (machine_list, inspect, peek, find, compare, monitor, screen, disassemble, journal, and this one) are always listed. The tools that change the machine (run, step, call, set, poke, type, the media tools, the state tools) are listed and served only while dev mode is on, and dev mode is off whenever the window opens; while it is off a call to one is refused, naming dev mode.

Given on, turns dev mode on (true) or off (false); the person can turn it either way with the switch on the window's page. Turning it either way tells every client the tool list changed: notifications/tools/list_changed to a session, or on a subscriptions/listen stream that asked for it; list the tools again to see them.

While dev mode is on, a run moves the machine the person sees: the real-time loop stops for it and goes on from where the run left the machine. Answers whether dev mode is on now, and the tools it lists.`

// WindowInstructions follow the server's instructions in the window: what
// is different there.
const WindowInstructions = `
THE WINDOW
This server runs in colophon-mcp's window: one machine, stood up from the window's command line and running in real time in a page a person watches and types into, at 50 or 60 frames a second as its links say. machine_list names it. Its journal holds what the person did as well: the frames run in real time are run entries by ticks, with the keys the person held, so the journal still makes the machine again.
- The tools that only look are always listed. The tools that change the machine are listed and served only while dev mode is on; it is off whenever the window opens, and dev_mode or the switch on the page turns it either way, telling every client the tool list changed.
- A request is answered between two of the machine's frames, within a frame or two. A run, a step or typing stops the real-time loop while it runs, and the loop goes on from where it leaves the machine.
- machine_open and machine_close are not served: the window's machine is the one it opened.
`

// ProxyInstructions follow the window's in colophon-mcp proxy.
const ProxyInstructions = `
THE PROXY
This server is colophon-mcp proxy: it forwards every tool call to whichever window runs on this machine, and is told when one starts, stops or is replaced by another, when the tool list changes (list the tools again). While no window runs, the tools listed are the window's watching tools, each call refused with "no window is running; start one with colophon-mcp window".
`
