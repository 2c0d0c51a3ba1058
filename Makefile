# colophon: the README's two commands are `make demo` and `make test`.
#
#   make build   the programs under cmd/, into bin/, each stamped with its
#                build name (internal/build)
#   make test    go vet, then every test; what .ci/run runs
#   make demo    build, fetch the firmware, and talk to the MCP server
#   make roms    fetch the five firmware images into $(ROMS), pinned by hash
#   make bench   the benchmarks
#   make clean   remove bin/

GO   ?= go
BIN  := bin
# The firmware directory: ./roms, as the programs find it by default.
ROMS ?= roms

# Every program under cmd/, so a new one is built without a change here.
CMDS := $(notdir $(wildcard cmd/*))

.PHONY: all build test demo roms bench clean $(addprefix $(BIN)/,$(CMDS))

all: build

build: $(addprefix $(BIN)/,$(CMDS))

# go build knows what is stale, so each program's rule always runs. The
# stamp names the build from git: the commit, and .dirty where a file the
# program compiles differs from it (spec, "The name of the build").
$(addprefix $(BIN)/,$(CMDS)): $(BIN)/%:
	@mkdir -p $(BIN)
	@flags="$$($(GO) run ./internal/build/stamp ./cmd/$*)" && \
	echo "$(GO) build -trimpath -ldflags '$$flags' -o $@ ./cmd/$*" && \
	$(GO) build -trimpath -ldflags "$$flags" -o $@ ./cmd/$*

test:
	$(GO) vet ./...
	$(GO) test -timeout 45m ./...

roms: $(BIN)/colophon
	$(BIN)/colophon roms fetch --dir $(ROMS)

# One initialize and one ping, written to the server's standard input as a
# client would write them, and its answers as it gives them.
INITIALIZE := {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"make demo","version":"0"}}}
INITIALIZED := {"jsonrpc":"2.0","method":"notifications/initialized"}
PING := {"jsonrpc":"2.0","id":2,"method":"ping"}

demo: build roms
	@echo
	@echo "== the build"
	$(BIN)/colophon-mcp --version
	@echo
	@echo "== colophon-mcp over stdio: initialize, then ping"
	@printf '%s\n' '$(INITIALIZE)' '$(INITIALIZED)' '$(PING)' | sed 's/^/-> /'
	@printf '%s\n' '$(INITIALIZE)' '$(INITIALIZED)' '$(PING)' | $(BIN)/colophon-mcp --roms $(ROMS) | sed 's/^/<- /'

# Only the packages that have benchmarks, so the rest are not compiled for
# nothing.
BENCH_PKGS = $(patsubst %/,%,$(sort $(dir $(shell grep -rl --include='*_test.go' --exclude-dir=testdata '^func Benchmark' cmd internal 2>/dev/null))))

bench:
	@if [ -z "$(BENCH_PKGS)" ]; then echo "no benchmarks yet"; \
	else echo "$(GO) test -run '^$$' -bench . -benchmem $(addprefix ./,$(BENCH_PKGS))"; \
	$(GO) test -run '^$$' -bench . -benchmem $(addprefix ./,$(BENCH_PKGS)); fi

clean:
	rm -rf $(BIN)
