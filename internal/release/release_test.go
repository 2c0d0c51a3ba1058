package release

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"colophon/internal/build"
	"colophon/internal/firmware"
	"colophon/internal/shared"
)

// root is the module's root, where make runs.
var root = filepath.Join("..", "..")

// clientsDir holds the real-client tests and the npm packages they pin;
// releaseTests the release's own, run here and not by TestRealClients.
var (
	clientsDir   = filepath.Join(root, "test", "clients")
	releaseTests = filepath.Join(clientsDir, "release")
)

// need finds a program on PATH, failing under CI=true, where .ci/run
// promises it, and skipping elsewhere.
func need(t *testing.T, program string) string {
	t.Helper()
	p, err := exec.LookPath(program)
	if err != nil {
		unavailable(t, program+" is not on PATH")
	}
	return p
}

func unavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true, so the release test must run)", why)
	}
	t.Skipf("%s; the release test needs it", why)
}

// needClients checks that npm ci has installed the TypeScript SDK's
// clients the Node tests drive.
func needClients(t *testing.T) {
	t.Helper()
	for _, pkg := range []string{"sdk", "client"} {
		if _, err := os.Stat(filepath.Join(clientsDir, "node_modules", "@modelcontextprotocol", pkg, "package.json")); err != nil {
			unavailable(t, "@modelcontextprotocol/"+pkg+" is not installed: run npm ci in test/clients")
		}
	}
}

// nodeTest runs a file of test/clients/release with node --test, in dir,
// with env added.
func nodeTest(t *testing.T, node, file, dir string, env ...string) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(releaseTests, file))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--test", "--test-reporter=spec", abs)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %s: %v\n%s", file, err, out)
	}
	t.Logf("node --test %s:\n%s", file, out)
}

// TestLauncherChoosesItsPackage runs the launcher's own tests: the package
// and program for each of the six platforms, .exe on win32, and the
// refusals where there is no build or no package (launcher.test.mjs).
func TestLauncherChoosesItsPackage(t *testing.T) {
	node := need(t, "node")
	nodeTest(t, node, "launcher.test.mjs", releaseTests)
}

// host is the platform of the machine the tests run on, whose archive is
// unpacked and run; the test is skipped on a machine no release is built
// for.
func host(t *testing.T) Platform {
	p := Platform{runtime.GOOS, runtime.GOARCH}
	if !slices.Contains(Platforms, p) || p.Windows() {
		t.Skipf("no release archive runs here (%s), so there is none to unpack and start", p)
	}
	return p
}

// makeIn runs make in the module's root with the variables given, and
// env added to its environment.
func makeIn(t *testing.T, env []string, vars ...string) time.Duration {
	t.Helper()
	start := time.Now()
	cmd := exec.Command("make", vars...)
	cmd.Dir = root
	// Not the make that runs the tests, if one does: its variables and
	// flags would be this one's too.
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); k != "MAKEFLAGS" && k != "MFLAGS" && k != "MAKELEVEL" && k != "MAKEOVERRIDES" {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(vars, " "), err, out)
	}
	t.Logf("make %s (%.1fs):\n%s", strings.Join(vars, " "), time.Since(start).Seconds(), out)
	return time.Since(start)
}

// stampName is the build name make gives a program: what the archives'
// programs must name themselves.
func stampName(t *testing.T, program string) string {
	t.Helper()
	cmd := exec.Command("go", "run", "./internal/build/stamp", "-name", "./cmd/"+program)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("stamp -name ./cmd/%s: %v", program, err)
	}
	return strings.TrimSpace(string(out))
}

// TestS3_Release makes the release as a person would, make npm, which
// makes the archives for all six platforms first (checklist S-3; issue 17),
// and then holds it to what the issue asks:
//
//   - an archive per platform, each with the three programs built for it,
//     the firmware with its pinned hashes and its copyright notice, the
//     README and the licence, and SHA256SUMS over them;
//   - this machine's archive, unpacked into an empty folder, runs
//     ./colophon-mcp --roms roms for the TypeScript SDK's clients, which
//     open, type and look (S-6);
//   - a second build is byte for byte the first;
//   - the npm packages, installed from their packed files into an empty
//     prefix with no registry, run as npx -y colophon-mcp for the same
//     clients, the launcher passing the package's firmware (S-5, S-11),
//     exit codes and signals; and refusing a platform with no build.
//
// The repository holds no LICENSE yet, so the test gives make one of its
// own, as LICENSE=FILE.
func TestS3_Release(t *testing.T) {
	if testing.Short() {
		t.Skip("builds six platforms; not in -short")
	}
	hp := host(t)
	need(t, "make")
	need(t, "git")
	node := need(t, "node")
	npm := need(t, "npm")
	npx := need(t, "npx")
	needClients(t)
	roms := shared.TestPath(t, "roms")

	tmp := t.TempDir()
	license := filepath.Join(tmp, "LICENSE")
	if err := os.WriteFile(license, []byte("The licence of this test's release.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(tmp, "dist")
	took := makeIn(t, nil, "npm", "ROMS="+roms, "DIST="+dist, "LICENSE="+license)
	t.Logf("make npm for all six platforms took %.1fs", took.Seconds())

	version := build.Version
	// The programs that name their build, as make stamps it; pidp10-mcp
	// names none, and answers initialize instead (pidp10Answers).
	names := map[string]string{}
	for _, prog := range []string{"colophon-mcp", "colophon"} {
		names[prog] = stampName(t, prog)
	}

	t.Run("archives", func(t *testing.T) {
		checkArchives(t, dist, version, license, names)
	})

	// This machine's archive, unpacked by tar into an empty folder.
	unpacked := filepath.Join(tmp, "unpacked")
	if err := os.Mkdir(unpacked, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("tar", "-xzf", filepath.Join(dist, hp.Archive(version)), "-C", unpacked).CombinedOutput(); err != nil {
		t.Fatalf("tar -xzf: %v\n%s", err, out)
	}
	folder := filepath.Join(unpacked, hp.Folder(version))

	t.Run("S6_unpacked", func(t *testing.T) {
		for prog, flag := range map[string]string{"colophon-mcp": "--version", "colophon": "version"} {
			out, err := exec.Command(filepath.Join(folder, prog), flag).Output()
			if err != nil || !strings.Contains(string(out), names[prog]) {
				t.Errorf("./%s %s: %q, %v; want the build's name %s", prog, flag, out, err, names[prog])
			}
		}
		pidp10Answers(t, filepath.Join(folder, "pidp10-mcp"))
		nodeTest(t, node, "archive.test.mjs", folder,
			"COLOPHON_MCP=./colophon-mcp", "COLOPHON=./colophon", "COLOPHON_ROMS=roms",
			"COLOPHON_MCP_BUILD="+names["colophon-mcp"])
	})

	t.Run("reproducible", func(t *testing.T) {
		// Built again from nothing: another build cache, so that every
		// package is compiled afresh and not taken from the first build.
		again := filepath.Join(tmp, "again")
		makeIn(t, []string{"GOCACHE=" + filepath.Join(tmp, "gocache")}, "release", "ROMS="+roms, "DIST="+again, "LICENSE="+license, "PLATFORMS="+hp.String())
		a := readFile(t, filepath.Join(dist, hp.Archive(version)))
		b := readFile(t, filepath.Join(again, hp.Archive(version)))
		if !bytes.Equal(a, b) {
			t.Fatalf("two builds of %s differ: %d and %d bytes", hp.Archive(version), len(a), len(b))
		}
		// Nothing of the builder's disc is in the programs (-trimpath).
		abs, _ := filepath.Abs(root)
		for _, prog := range Programs {
			data := readFile(t, filepath.Join(folder, prog))
			for _, p := range []string{abs, tmp, os.TempDir() + "/colophon-release-"} {
				if bytes.Contains(data, []byte(p)) {
					t.Errorf("%s holds the path %s", prog, p)
				}
			}
		}
	})

	t.Run("npm", func(t *testing.T) {
		checkNPM(t, dist, version, hp, node, npm, npx, folder, names)
	})
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkArchives holds every archive to its contents and SHA256SUMS to the
// archives.
func checkArchives(t *testing.T, dist, version, license string, names map[string]string) {
	var want []string
	for _, p := range Platforms {
		want = append(want, p.Archive(version))
	}
	sums, err := Sums(dist, want)
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dist, "SHA256SUMS")); !bytes.Equal(got, sums) {
		t.Errorf("SHA256SUMS:\n%s\nwant\n%s", got, sums)
	}
	if len(bytes.Split(bytes.TrimSpace(sums), []byte("\n"))) != 6 {
		t.Errorf("SHA256SUMS names %q, want the six archives", sums)
	}
	readme := readFile(t, filepath.Join(root, "README.md"))
	lic := readFile(t, license)
	for _, p := range Platforms {
		name := p.Archive(version)
		folder, files, err := ReadArchive(name, readFile(t, filepath.Join(dist, name)))
		if err != nil {
			t.Fatal(err)
		}
		if folder != p.Folder(version) {
			t.Errorf("%s unpacks into %q", name, folder)
		}
		byName := map[string]File{}
		var got []string
		for _, f := range files {
			byName[f.Name] = f
			got = append(got, f.Name)
		}
		wantFiles := []string{"LICENSE", "README.md"}
		for _, prog := range Programs {
			wantFiles = append(wantFiles, p.Exe(prog))
		}
		wantFiles = append(wantFiles, "roms/COPYRIGHT.txt")
		for _, im := range firmware.Images {
			wantFiles = append(wantFiles, "roms/"+im.Name)
		}
		slices.Sort(wantFiles)
		if !slices.Equal(got, wantFiles) {
			t.Errorf("%s holds %q, want %q", name, got, wantFiles)
			continue
		}
		if !bytes.Equal(byName["README.md"].Data, readme) || !bytes.Equal(byName["LICENSE"].Data, lic) ||
			!bytes.Equal(byName["roms/COPYRIGHT.txt"].Data, FirmwareCopyright) {
			t.Errorf("%s: README.md, LICENSE or roms/COPYRIGHT.txt is not the repository's", name)
		}
		for _, im := range firmware.Images {
			sum := sha256.Sum256(byName["roms/"+im.Name].Data)
			if hex.EncodeToString(sum[:]) != im.SHA256 {
				t.Errorf("%s: roms/%s is not the pinned image", name, im.Name)
			}
		}
		for _, prog := range Programs {
			f := byName[p.Exe(prog)]
			if f.Mode != 0o755 {
				t.Errorf("%s: %s has mode %v", name, f.Name, f.Mode)
			}
			if err := checkExecutable(f.Data, p); err != nil {
				t.Errorf("%s: %s: %v", name, f.Name, err)
			}
			// The name is made at run time from its two parts, which
			// make sets with -X: the binary holds them.
			if n, ok := names[prog]; ok {
				part := strings.TrimPrefix(strings.Split(n, ".emulator.")[0], version+"+mcp.")
				if !bytes.Contains(f.Data, []byte(part)) {
					t.Errorf("%s: %s does not hold its build's part %s", name, f.Name, part)
				}
			}
		}
	}
}

// checkExecutable holds a program to the format and processor of its
// platform, by the headers Go's own debug packages read: ELF for Linux,
// Mach-O for macOS, PE for Windows (which cannot be run here, so that this
// and the build are what is tested of them).
func checkExecutable(data []byte, p Platform) error {
	r := bytes.NewReader(data)
	switch p.GOOS {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			return err
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.GOARCH]
		if f.Machine != want || f.Type != elf.ET_EXEC {
			return fmt.Errorf("ELF %v %v, want %v ET_EXEC", f.Machine, f.Type, want)
		}
		if f.Section(".interp") != nil {
			return errors.New("it asks for a dynamic loader: built with cgo")
		}
	case "darwin":
		f, err := macho.NewFile(r)
		if err != nil {
			return err
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.GOARCH]
		if f.Cpu != want || f.Type != macho.TypeExec {
			return fmt.Errorf("Mach-O %v %v, want %v executable", f.Cpu, f.Type, want)
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			return err
		}
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[p.GOARCH]
		if f.Machine != want || f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 {
			return fmt.Errorf("PE machine %#x characteristics %#x, want %#x executable", f.Machine, f.Characteristics, want)
		}
		if oh, ok := f.OptionalHeader.(*pe.OptionalHeader64); !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
			return errors.New("not a 64-bit console program")
		}
	}
	return nil
}

// npmEnv is an npm that knows no registry: its cache and configuration are
// the test's own, and it is offline.
func npmEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "npm_config_cache="+filepath.Join(home, "cache"),
		"npm_config_offline=true", "npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false",
		"npm_config_userconfig="+filepath.Join(home, ".npmrc"))
}

// checkNPM installs the packed packages into an empty prefix and runs them.
func checkNPM(t *testing.T, dist, version string, hp Platform, node, npm, npx, folder string, names map[string]string) {
	npmDir := filepath.Join(dist, "npm")
	mainTgz := filepath.Join(npmDir, NPMMain+"-"+version+".tgz")
	var platTgz []string
	for _, p := range Platforms {
		f := filepath.Join(npmDir, strings.ReplaceAll(strings.TrimPrefix(p.NPMPackage(), "@"), "/", "-")+"-"+version+".tgz")
		if _, err := os.Stat(f); err != nil {
			t.Errorf("no packed package for %s: %v", p, err)
		}
		platTgz = append(platTgz, f)
	}

	// The launcher's package.json lists every platform package at this
	// version, and the launcher's two commands.
	var m mainManifest
	if err := json.Unmarshal(readFile(t, filepath.Join(npmDir, NPMMain, "package.json")), &m); err != nil {
		t.Fatal(err)
	}
	var wantDeps deps
	for _, p := range Platforms {
		wantDeps = append(wantDeps, dep{p.NPMPackage(), version})
	}
	if !slices.Equal(m.OptionalDependencies, wantDeps) || m.Version != version ||
		m.Bin["colophon-mcp"] != "bin/colophon-mcp.js" || m.Bin["pidp10-mcp"] != "bin/pidp10-mcp.js" {
		t.Errorf("colophon-mcp's package.json: %+v, want the optionalDependencies %v", m, wantDeps)
	}

	// Installed as npm i -g installs, into an empty prefix, with no
	// registry: the launcher and this machine's package. npm tries the
	// other platforms' packages, finds no registry, and, since they are
	// optional, goes on without them.
	home := t.TempDir()
	prefix := filepath.Join(home, "prefix")
	env := npmEnv(home)
	hostTgz := platTgz[slices.Index(Platforms, hp)]
	install := exec.Command(npm, "i", "-g", "--prefix", prefix, "./"+filepath.Base(mainTgz), "./"+filepath.Base(hostTgz))
	install.Dir = npmDir
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm i -g: %v\n%s", err, out)
	}
	bin := filepath.Join(prefix, "bin")
	pkgDir, err := filepath.EvalSymlinks(filepath.Join(prefix, "lib", "node_modules", filepath.FromSlash(hp.NPMPackage())))
	if err != nil {
		t.Fatalf("npm did not install %s: %v", hp.NPMPackage(), err)
	}
	launcher := filepath.Join(prefix, "lib", "node_modules", NPMMain, "bin", "colophon-mcp.js")

	t.Run("commands", func(t *testing.T) {
		out, err := exec.Command(filepath.Join(bin, "colophon-mcp"), "--version").Output()
		if err != nil || strings.TrimSpace(string(out)) != names["colophon-mcp"] {
			t.Errorf("colophon-mcp --version through the launcher: %q, %v; want %s", out, err, names["colophon-mcp"])
		}
		pidp10Answers(t, filepath.Join(bin, "pidp10-mcp"))
		// Installed by npm, the server gives clients npx (S-11).
		out, err = exec.Command(filepath.Join(bin, "colophon-mcp"), "install", "--client", "claude-code").Output()
		if err != nil || !strings.Contains(string(out), "\nclaude mcp add colophon -- npx -y colophon-mcp\n") {
			t.Errorf("colophon-mcp install --client claude-code through the launcher: %q, %v", out, err)
		}
		// The exit code comes back, and the caller's --roms, after the
		// launcher's, wins.
		cmd := exec.Command(filepath.Join(bin, "colophon-mcp"), "--bogus")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err = cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), "-bogus") {
			t.Errorf("colophon-mcp --bogus: %v, stderr %q; want exit status 2", err, stderr.String())
		}
		if line := firmwareLine(t, filepath.Join(bin, "colophon-mcp")); !strings.Contains(line, "firmware from "+filepath.Join(pkgDir, "roms")+"\n") {
			t.Errorf("the launcher gave the server other firmware: %q, want %s", line, filepath.Join(pkgDir, "roms"))
		}
		other := t.TempDir()
		if line := firmwareLine(t, filepath.Join(bin, "colophon-mcp"), "--roms", other); !strings.Contains(line, "firmware from "+other+"\n") {
			t.Errorf("--roms %s given to the launcher: %q", other, line)
		}
	})

	t.Run("signals", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("finds the server's process through /proc")
		}
		// SIGTERM to the launcher reaches the server, which ends as it
		// does on SIGTERM, with status 0, and the launcher with it.
		cmd, child := startLauncher(t, filepath.Join(bin, "colophon-mcp"))
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := wait(cmd); err != nil {
			t.Errorf("the launcher, sent SIGTERM: %v; want the server's status 0", err)
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", child)); err == nil {
			t.Errorf("the server, pid %d, outlived the launcher", child)
		}
		// A server killed by a signal has the launcher end by it.
		cmd, child = startLauncher(t, filepath.Join(bin, "colophon-mcp"))
		if err := syscall.Kill(child, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := wait(cmd)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Errorf("the launcher, its server killed: %v; want it ended by SIGKILL", err)
		}
	})

	t.Run("unsupported", func(t *testing.T) {
		preload, _ := filepath.Abs(filepath.Join(releaseTests, "fake-platform.cjs"))
		other := Platform{hp.GOOS, map[string]string{"amd64": "arm64", "arm64": "amd64"}[hp.GOARCH]}
		for _, tc := range []struct{ platform, arch, want string }{
			{"freebsd", "x64", "there is no build for this platform, freebsd/x64 (no package @colophon-mcp/freebsd-x64). It is built for linux/x64, linux/arm64, darwin/x64, darwin/arm64, win32/x64, win32/arm64;"},
			{"linux", "ia32", "there is no build for this platform, linux/ia32"},
			{other.NodeOS(), other.NodeCPU(), "the package " + other.NPMPackage() + ", which holds the programs for " + other.NodeOS() + "/" + other.NodeCPU() + ", is not installed"},
		} {
			cmd := exec.Command(node, "--require", preload, launcher, "--version")
			cmd.Env = append(os.Environ(), "FAKE_PLATFORM="+tc.platform, "FAKE_ARCH="+tc.arch)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
				t.Errorf("the launcher as %s/%s: %v, stdout %q, stderr %q; want status 1 and %q", tc.platform, tc.arch, err, stdout.String(), stderr.String(), tc.want)
			}
		}
	})

	t.Run("S11_npx", func(t *testing.T) {
		// npx finds the global install where npm's prefix is the one it
		// went into, and never asks a registry: the user's npm
		// configuration, in a home of the test's own, which the SDK's
		// client passes on to npx as it passes HOME and PATH.
		rc := fmt.Sprintf("prefix=%s\ncache=%s\noffline=true\nupdate-notifier=false\nfund=false\naudit=false\n",
			prefix, filepath.Join(home, "cache"))
		if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		path := bin + string(os.PathListSeparator) + filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH")
		out, err := runWith(npx, []string{"-y", "colophon-mcp", "--version"}, "HOME="+home, "PATH="+path)
		if err != nil || strings.TrimSpace(out) != names["colophon-mcp"] {
			t.Fatalf("npx -y colophon-mcp --version: %q, %v", out, err)
		}
		nodeTest(t, node, "npx.test.mjs", t.TempDir(),
			"HOME="+home, "PATH="+path, "COLOPHON_MCP="+npx,
			"COLOPHON="+filepath.Join(folder, "colophon"), "COLOPHON_ROMS="+filepath.Join(folder, "roms"),
			"COLOPHON_MCP_BUILD="+names["colophon-mcp"], "NPM_ROMS="+filepath.Join(pkgDir, "roms"))
	})
}

// pidp10Answers starts pidp10-mcp, sends it initialize, reads its answer
// and ends its input, as a client would, and holds it to answering as
// pidp10-mcp and then ending; it opens no line until asked.
func pidp10Answers(t *testing.T, program string) {
	t.Helper()
	cmd := exec.Command(program)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release-test","version":"1"}}}`+"\n")
	line := make(chan []byte, 1)
	go func() {
		b, _ := bufio.NewReader(stdout).ReadBytes('\n')
		line <- b
	}()
	var out []byte
	select {
	case out = <-line:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not answer initialize in 30s", program)
	}
	var answer struct {
		Result struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
		} `json:"result"`
	}
	if json.Unmarshal(out, &answer) != nil || answer.Result.ServerInfo.Name != "pidp10-mcp" {
		t.Errorf("%s answered initialize with %q", program, out)
	}
	stdin.Close()
	if err := wait(cmd); err != nil {
		t.Errorf("%s, its input ended: %v", program, err)
	}
}

// runWith runs a program with env added and returns its standard output.
func runWith(program string, args []string, env ...string) (string, error) {
	cmd := exec.Command(program, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%w: %s", err, stderr.String())
	}
	return string(out), nil
}

// firmwareLine starts the server through the launcher with its standard
// input closed, so that it ends at once, and returns the line where it says
// where its firmware comes from.
func firmwareLine(t *testing.T, program string, args ...string) string {
	t.Helper()
	cmd := exec.Command(program, args...)
	cmd.Stdin = strings.NewReader("")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s with no input: %v\n%s", program, err, stderr.String())
	}
	for line := range strings.Lines(stderr.String()) {
		if strings.Contains(line, "firmware from") {
			return line
		}
	}
	t.Fatalf("%s said nothing of its firmware: %q", program, stderr.String())
	return ""
}

// startLauncher starts a launcher whose server waits on its open standard
// input, and returns it with the server's pid, once the server has said it
// is up.
func startLauncher(t *testing.T, program string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command(program)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	up := &watch{line: "firmware from", seen: make(chan struct{})}
	cmd.Stderr = up
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case <-up.seen:
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not come up in 30s: %q", up.text())
	}
	children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	var child int
	if _, err := fmt.Sscan(string(children), &child); err != nil {
		t.Fatalf("the launcher, pid %d, has no child: %q", cmd.Process.Pid, children)
	}
	return cmd, child
}

// watch is a writer that closes seen once what is written to it holds
// line.
type watch struct {
	mu   sync.Mutex
	b    bytes.Buffer
	line string
	seen chan struct{}
	once sync.Once
}

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.line) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watch) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// wait waits for a command, at most 30 seconds.
func wait(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return errors.New("still running after 30s")
	}
}
