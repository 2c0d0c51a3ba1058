package line

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// The simh test runs Debian's simh 3.8.1 as the far end of the line: a real
// simh terminal multiplexer, with its own telnet negotiation, banner and
// busy-line refusal, which the fake line only imitates. It is not ITS: the
// KA10 simulator and ITS disk images cannot be had offline, and Debian's
// pdp10 is a KS10. So a PDP-11 runs a small program that echoes DZ11 line 0.
//
// simh 3.8 listens on every interface, so the test re-runs itself inside a
// network namespace of its own (what unshare -n makes), where only loopback
// exists, and starts simh there under a pseudo-terminal.

// simhNetnsEnv marks the copy of the test running inside the namespace.
const simhNetnsEnv = "PIDP10_SIMH_NETNS"

// simhPort is the line's TCP port inside the namespace, the spec's default.
const simhPort = 10018

// dzEcho is the simh script: a PDP-11 with a DZ11 on simhPort and a program
// at 1000 that echoes whatever line 0 receives.
//
// DZ11 registers at 160100 (simh 3.8 prints "DZ, address=17760100-17760107"
// for `show dz`; bit layouts from the DZ11 User's Guide, EK-DZ110-UG, and
// borne out by the program echoing under Debian's simh 3.8.1):
// CSR 160100: bit 5 MSE (master scan enable), bit 7 RDONE, bit 15 TRDY.
// LPR 160102 (write): bits 2:0 line, 4:3 character length (3 = 8 bits),
// bit 12 RX ON. RBUF 160102 (read): bits 7:0 the character.
// TCR 160104: bits 7:0 transmit enable per line. TDR 160106: bits 7:0 the
// character to transmit.
//
// Instruction encodings from the PDP-11 Processor Handbook: MOV #n,@#a is
// 012737 n a; TSTB @#a 105737 a; TST @#a 005737 a; MOV @#a,R0 013700 a;
// MOVB R0,@#a 110037 a; BPL 100000+offset; BR 000400+offset, with the
// offset in words from the updated PC as an 8-bit two's complement.
const dzEcho = `set cpu 256k
set dz lines=8
d 1000 012737
d 1002 000040
d 1004 160100
d 1006 012737
d 1010 010030
d 1012 160102
d 1014 012737
d 1016 000001
d 1020 160104
d 1022 105737
d 1024 160100
d 1026 100375
d 1030 013700
d 1032 160102
d 1034 005737
d 1036 160100
d 1040 100375
d 1042 110037
d 1044 160106
d 1046 000765
attach dz %d
g 1000
`

// The program above, line by line:
//
//	1000  MOV  #40,@#160100     ; CSR: master scan enable
//	1006  MOV  #10030,@#160102  ; LPR: line 0, 8 bits, receiver on
//	1014  MOV  #1,@#160104      ; TCR: transmit on line 0
//	1022  TSTB @#160100         ; RDONE is bit 7, the sign of the low byte
//	1026  BPL  1022             ; wait for a character
//	1030  MOV  @#160102,R0      ; take it from RBUF
//	1034  TST  @#160100         ; TRDY is bit 15, the sign of the word
//	1040  BPL  1034             ; wait until the transmitter is ready
//	1042  MOVB R0,@#160106      ; echo it through TDR
//	1046  BR   1022

// dzLines is how many lines `set dz lines=8` gives; simh wants a multiple of
// eight. A ninth client is refused.
const dzLines = 8

// liveAbsent skips a live test whose outside service is missing, or fails it
// under CI=true, where .ci/run installs simh and runs as root.
func liveAbsent(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run installs simh with apt and runs as root)", why)
	}
	t.Skipf("%s: the simh test did not run", why)
}

func TestSimhDZLine(t *testing.T) {
	if os.Getenv(simhNetnsEnv) == "1" {
		simhInsideNamespace(t)
		return
	}
	if _, err := exec.LookPath("pdp11"); err != nil {
		liveAbsent(t, "simh's pdp11 is not installed (apt-get install simh)")
	}
	var out bytes.Buffer
	cmd := exec.Command(os.Args[0], "-test.run=^TestSimhDZLine$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), simhNetnsEnv+"=1")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	if err := cmd.Start(); err != nil {
		liveAbsent(t, fmt.Sprintf("cannot make a network namespace for simh: %v", err))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the simh test did not finish in two minutes:\n%s", out.String())
	}
	t.Logf("inside the namespace:\n%s", out.String())
	if err != nil {
		t.Fatalf("the simh test failed: %v", err)
	}
	if !strings.Contains(out.String(), "--- PASS: TestSimhDZLine") {
		t.Fatal("the simh test did not pass inside the namespace")
	}
}

func simhInsideNamespace(t *testing.T) {
	if err := loopbackUp(); err != nil {
		t.Fatalf("bringing up lo in the new namespace: %v", err)
	}
	console := startSimh(t)
	if err := console.waitFor(fmt.Sprintf("Listening on port %d", simhPort), patience); err != nil {
		t.Fatalf("simh: %v\nconsole:\n%s", err, console)
	}

	// The real telnet negotiation and banner come out as the banner alone.
	first := NewSession("127.0.0.1", simhPort)
	c := newClient(t, first)
	text := greeting(t, c)
	if text != banner(0) {
		t.Fatalf("open: %q, want %q", text, banner(0))
	}
	first.mu.Lock()
	raw := first.bytesIn
	first.mu.Unlock()
	if raw <= int64(len(text)) {
		t.Errorf("simh sent %d raw bytes for a %d-char banner; its telnet negotiation should have been filtered", raw, len(text))
	}

	// send with expect against the program's echo.
	text, trailer := split(t, c.call("send", map[string]any{"input": "hello, world", "expect": `world\n`, "quiet_ms": patienceMS}))
	if text != "hello, world\n" || reason(t, trailer) != ReasonMatched {
		t.Errorf("send: %q %s, want the echo", text, trailer)
	}
	text, trailer = split(t, c.call("send", map[string]any{"input": "a~tb~x41~-", "expect": "a\tbA", "quiet_ms": patienceMS}))
	if text != "a\tbA" || reason(t, trailer) != ReasonMatched {
		t.Errorf("send with escapes: %q %s", text, trailer)
	}

	// Take the DZ's other lines, so the line is the last one free...
	for i := 1; i < dzLines; i++ {
		conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", simhPort), patience)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if err := readUntil(conn, fmt.Sprintf("DZ device, line %d", i)); err != nil {
			t.Fatalf("filler connection %d: %v", i, err)
		}
	}
	// ...and a second client is refused the busy line.
	second := NewSession("127.0.0.1", simhPort)
	text, trailer = split(t, newClient(t, second).call("open", nil))
	if !strings.Contains(text, "All connections busy") || !strings.Contains(trailer, "DEAD 127.0.0.1:") {
		t.Errorf("second client's open: %q %s, want simh's refusal and a dead line", text, trailer)
	}

	// A hard close frees the line for the next open.
	if got := c.call("close", nil); !strings.Contains(got, "SO_LINGER 0") {
		t.Errorf("close: %q", got)
	}
	// simh notices the reset on its next poll of the multiplexer, which
	// on a loaded machine may come late: until it does, the line is busy.
	var c3 *client
	deadline := time.Now().Add(patience)
	for {
		c3 = newClient(t, NewSession("127.0.0.1", simhPort))
		if text = greeting(t, c3); text == banner(0) {
			break
		}
		if !strings.Contains(text, "All connections busy") || time.Now().After(deadline) {
			t.Fatalf("open after close: %q, want line 0 again", text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	text, trailer = split(t, c3.call("send", map[string]any{"input": "again", "expect": `again\n`, "quiet_ms": patienceMS}))
	if text != "again\n" || reason(t, trailer) != ReasonMatched {
		t.Errorf("send after reopening: %q %s", text, trailer)
	}
}

// banner is simh's banner on DZ line n, filtered.
func banner(n int) string {
	return fmt.Sprintf("\nConnected to the PDP-11 simulator DZ device, line %d\n", n)
}

// greeting opens the client's line and returns the greeting: what open
// collected, and, where simh's banner came after open's quiet_ms, as it
// may on a loaded machine, the rest of it, read until its end or the
// line's. Where simh refused the line, it is what simh said.
func greeting(t *testing.T, c *client) string {
	t.Helper()
	text, trailer := split(t, c.call("open", nil))
	if strings.HasSuffix(text, "\n") && strings.Contains(text, "line ") || strings.Contains(trailer, "DEAD") {
		return text
	}
	more, _ := split(t, c.call("read", map[string]any{"expect": `line \d+\n`, "quiet_ms": patienceMS, "timeout_ms": patienceMS}))
	return text + more
}

// readUntil reads conn until want has arrived.
func readUntil(conn net.Conn, want string) error {
	_ = conn.SetReadDeadline(time.Now().Add(patience))
	var got []byte
	buf := make([]byte, 512)
	for !bytes.Contains(got, []byte(want)) {
		n, err := conn.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			return fmt.Errorf("waiting for %q, got %q: %w", want, got, err)
		}
	}
	return nil
}

// loopbackUp does `ip link set lo up` with the SIOCGIFFLAGS and SIOCSIFFLAGS
// ioctls (netdevice(7)): a new network namespace starts with lo down.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	// struct ifreq: the interface name, then a union whose first member
	// here is ifr_flags, a short (netdevice(7)); 40 bytes on Linux.
	var ifr struct {
		name  [syscall.IFNAMSIZ]byte
		flags uint16
		_     [22]byte
	}
	copy(ifr.name[:], "lo")
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&ifr))); errno != 0 {
		return fmt.Errorf("SIOCGIFFLAGS: %w", errno)
	}
	ifr.flags |= syscall.IFF_UP
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr))); errno != 0 {
		return fmt.Errorf("SIOCSIFFLAGS: %w", errno)
	}
	return nil
}

// simhConsole collects what simh prints on its pseudo-terminal.
type simhConsole struct {
	mu   sync.Mutex
	text bytes.Buffer
}

func (c *simhConsole) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.text.String()
}

func (c *simhConsole) waitFor(want string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for !strings.Contains(c.String(), want) {
		if time.Now().After(deadline) {
			return fmt.Errorf("no %q on the console", want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// startSimh runs simh's pdp11 on dzEcho under a pseudo-terminal, and stops it
// by its PID when the test ends.
func startSimh(t *testing.T) *simhConsole {
	t.Helper()
	script := filepath.Join(t.TempDir(), "dzecho.ini")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(dzEcho, simhPort)), 0o644); err != nil {
		t.Fatal(err)
	}
	ptmx, tty, err := openPTY()
	if err != nil {
		t.Fatalf("pseudo-terminal: %v", err)
	}
	cmd := exec.Command("pdp11", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting pdp11: %v", err)
	}
	tty.Close()
	console := &simhConsole{}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 1024)
		for {
			n, err := ptmx.Read(buf)
			console.mu.Lock()
			console.text.Write(buf[:n])
			console.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		ptmx.Close()
		<-drained
		t.Logf("simh console:\n%s", console)
	})
	return console
}

// openPTY opens a pseudo-terminal pair (pty(7), "UNIX 98 pseudoterminals":
// open /dev/ptmx, unlock the slave, find its number).
func openPTY() (ptmx, tty *os.File, err error) {
	ptmx, err = os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		ptmx.Close()
		return nil, nil, fmt.Errorf("TIOCSPTLCK: %w", errno)
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		ptmx.Close()
		return nil, nil, fmt.Errorf("TIOCGPTN: %w", errno)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		ptmx.Close()
		return nil, nil, err
	}
	return ptmx, tty, nil
}
