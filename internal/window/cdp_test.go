package window

// A headless Chromium, driven by its DevTools protocol over a WebSocket of
// our own: the few messages the tests send (the protocol's Target, Runtime,
// Input and Page domains) need no more than RFC 6455's client side, text
// frames masked, and the answers read in order. A library for it
// (chromedp, or a WebSocket package) would be larger than this file.

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// A websocket is the client's end of one WebSocket connection (RFC 6455).
type websocket struct {
	conn net.Conn
	r    *bufio.Reader
	wmu  sync.Mutex
}

// dialWebsocket opens a WebSocket to a ws:// URL.
func dialWebsocket(ctx context.Context, raw string) (*websocket, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "ws" {
		return nil, fmt.Errorf("not a ws:// URL: %q", raw)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	rand.Read(key)
	k := base64.StdEncoding.EncodeToString(key)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, k)
	r := bufio.NewReaderSize(conn, 1<<16)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	// The server proves it read the key (RFC 6455, 4.2.2).
	sum := sha1.Sum([]byte(k + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("the WebSocket handshake was answered %s", resp.Status)
	}
	return &websocket{conn: conn, r: r}, nil
}

// write sends one text message, masked as a client's must be.
func (ws *websocket) write(msg []byte) error {
	ws.wmu.Lock()
	defer ws.wmu.Unlock()
	var h []byte
	h = append(h, 0x81) // FIN, text
	switch n := len(msg); {
	case n < 126:
		h = append(h, 0x80|byte(n))
	case n < 1<<16:
		h = append(h, 0x80|126)
		h = binary.BigEndian.AppendUint16(h, uint16(n))
	default:
		h = append(h, 0x80|127)
		h = binary.BigEndian.AppendUint64(h, uint64(n))
	}
	mask := make([]byte, 4)
	rand.Read(mask)
	h = append(h, mask...)
	body := make([]byte, len(msg))
	for i, b := range msg {
		body[i] = b ^ mask[i%4]
	}
	_, err := ws.conn.Write(append(h, body...))
	return err
}

// read reads one whole message, answering pings on the way.
func (ws *websocket) read() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(ws.r, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0F
		n := uint64(h[1] & 0x7F)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(ws.r, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(ws.r, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask []byte
		if h[1]&0x80 != 0 {
			mask = make([]byte, 4)
			if _, err := io.ReadFull(ws.r, mask); err != nil {
				return nil, err
			}
		}
		if n > 256<<20 {
			return nil, fmt.Errorf("a WebSocket frame of %d bytes", n)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(ws.r, body); err != nil {
			return nil, err
		}
		if mask != nil {
			for i := range body {
				body[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8:
			return nil, io.EOF
		case 0x9:
			ws.wmu.Lock()
			ws.conn.Write(append([]byte{0x8A, 0x80 | byte(len(body))}, append([]byte{0, 0, 0, 0}, body...)...))
			ws.wmu.Unlock()
			continue
		case 0xA:
			continue
		}
		msg = append(msg, body...)
		if fin {
			return msg, nil
		}
	}
}

// A browser is one headless Chromium and a connection to its DevTools.
type browser struct {
	cmd *exec.Cmd
	ws  *websocket

	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpAnswer
	done    chan struct{}
}

type cdpAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// chromium finds Debian's chromium, or another Chromium by its usual names.
// A test that needs one fails without it under CI=true, where .ci/run
// installs it, and is skipped anywhere else.
func chromium(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("no chromium on the PATH (CI=true, and .ci/run installs Debian's chromium)")
	}
	tb.Skip("no chromium on the PATH: install Debian's chromium to run the page's tests")
	return ""
}

var devtoolsURL = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startBrowser starts a headless Chromium of its own, in a fresh profile,
// with nothing of its own reaching the network.
func startBrowser(tb testing.TB) *browser {
	tb.Helper()
	bin := chromium(tb)
	profile := tb.TempDir()
	cmd := exec.Command(bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--force-color-profile=srgb", "--hide-scrollbars",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--window-size=1400,1000", "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var log strings.Builder
		for sc.Scan() {
			if m := devtoolsURL.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
			log.WriteString(sc.Text() + "\n")
		}
		close(found)
	}()
	var wsURL string
	select {
	case u, ok := <-found:
		if !ok {
			cmd.Wait()
			tb.Fatal("chromium ended before it listened for DevTools")
		}
		wsURL = u
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		tb.Fatal("chromium did not listen for DevTools within 30s")
	}
	ws, err := dialWebsocket(context.Background(), wsURL)
	if err != nil {
		cmd.Process.Kill()
		tb.Fatal(err)
	}
	b := &browser{cmd: cmd, ws: ws, waiting: map[int]chan cdpAnswer{}, done: make(chan struct{})}
	go b.readLoop()
	tb.Cleanup(b.close)
	return b
}

func (b *browser) readLoop() {
	defer close(b.done)
	for {
		msg, err := b.ws.read()
		if err != nil {
			return
		}
		var m struct {
			ID *int `json:"id"`
			cdpAnswer
		}
		if json.Unmarshal(msg, &m) != nil || m.ID == nil {
			continue // an event: the tests read the page instead
		}
		b.mu.Lock()
		ch := b.waiting[*m.ID]
		delete(b.waiting, *m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.cdpAnswer
		}
	}
}

// close asks Chromium to close, which it does with every process of its
// own and its profile written, so that the profile can be removed; one
// that does not within ten seconds is killed.
func (b *browser) close() {
	b.send("", "Browser.close", map[string]any{}, nil)
	exited := make(chan struct{})
	go func() {
		b.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		<-exited
	}
	b.ws.conn.Close()
}

// send sends one command, to the page whose session it names or to the
// browser, and decodes its result into out.
func (b *browser) send(session, method string, params any, out any) error {
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpAnswer, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if err := b.ws.write(data); err != nil {
		return err
	}
	select {
	case a := <-ch:
		if a.Error != nil {
			return fmt.Errorf("%s: %s (%d)", method, a.Error.Message, a.Error.Code)
		}
		if out != nil {
			return json.Unmarshal(a.Result, out)
		}
		return nil
	case <-b.done:
		return errors.New(method + ": chromium went away")
	case <-time.After(60 * time.Second):
		return errors.New(method + ": no answer in 60s")
	}
}

// A page is one tab, attached.
type page struct {
	b       *browser
	session string
}

// open opens a tab on url.
func (b *browser) open(tb testing.TB, url string) *page {
	tb.Helper()
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.send("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		tb.Fatal(err)
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.send("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		tb.Fatal(err)
	}
	p := &page{b: b, session: attached.SessionID}
	p.do(tb, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": false})
	p.do(tb, "Page.navigate", map[string]any{"url": url})
	p.until(tb, "the page is loaded and shows the machine", `window.colophon.status !== null && window.colophon.frames > 0`, 30*time.Second)
	return p
}

func (p *page) do(tb testing.TB, method string, params any) {
	tb.Helper()
	if err := p.b.send(p.session, method, params, nil); err != nil {
		tb.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page, awaiting it if it is
// a promise, and decodes its value into out.
func (p *page) eval(tb testing.TB, expr string, out any) {
	tb.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.b.send(p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		tb.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		tb.Fatalf("%s: %s %s", expr, r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if out != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			tb.Fatalf("%s: %v in %.200s", expr, err, r.Result.Value)
		}
	}
}

// until evaluates cond, a JavaScript expression, until it is true.
func (p *page) until(tb testing.TB, what, cond string, most time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(most)
	for {
		var ok bool
		p.eval(tb, "(() => { try { return !!("+cond+"); } catch (e) { return false; } })()", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("%s: not within %v (%s)", what, most, cond)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A stroke is one key as Input.dispatchKeyEvent sends it: what
// KeyboardEvent.key and .code will say, and Shift held.
type stroke struct {
	key, code string
	shift     bool
	vk        int
}

// press sends a key down and up, as a keyboard does.
func (p *page) press(tb testing.TB, s stroke) {
	tb.Helper()
	mods := 0
	if s.shift {
		mods = 8
	}
	down := map[string]any{"type": "keyDown", "key": s.key, "code": s.code, "modifiers": mods, "windowsVirtualKeyCode": s.vk}
	if len(s.key) == 1 {
		down["text"] = s.key
	}
	p.do(tb, "Input.dispatchKeyEvent", down)
	p.do(tb, "Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": s.key, "code": s.code, "modifiers": mods, "windowsVirtualKeyCode": s.vk})
}

// screenshot takes a PNG of the region of the page at the given CSS
// pixels, at one device pixel to each.
func (p *page) screenshot(tb testing.TB, x, y, w, h float64) []byte {
	tb.Helper()
	var r struct {
		Data string `json:"data"`
	}
	err := p.b.send(p.session, "Page.captureScreenshot", map[string]any{
		"format": "png", "clip": map[string]any{"x": x, "y": y, "width": w, "height": h, "scale": 1}, "captureBeyondViewport": true,
	}, &r)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// dataURL decodes a data: URL of base64.
func dataURL(tb testing.TB, u string) []byte {
	tb.Helper()
	i := strings.Index(u, ";base64,")
	if i < 0 {
		tb.Fatalf("not a base64 data URL: %.40s", u)
	}
	b, err := base64.StdEncoding.DecodeString(u[i+len(";base64,"):])
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
