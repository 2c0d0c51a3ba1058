// The launcher: finds the package that holds this platform's programs and
// starts one of them, as esbuild's own launcher does.
//
// The package colophon-mcp lists one package per platform in its
// optionalDependencies (@colophon-mcp/linux-x64, @colophon-mcp/win32-arm64,
// ...), each marked with the "os" and "cpu" it runs on, so npm installs
// only the one that fits. Each holds the programs and the firmware as the
// release archive lays them out: colophon-mcp, colophon and pidp10-mcp
// (.exe on Windows) with roms/ beside them.
//
// The program is started with the launcher's standard streams, so an MCP
// client speaks to it directly, and the launcher ends as it ends: with its
// exit code, or by the signal that ended it. A signal sent to the launcher
// is passed on to the program.
//
// Plain JavaScript with no dependencies, since it runs wherever npx does.
'use strict';

const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

// manifest is the package's own package.json, which the release writes
// with the platform packages it depends on.
const manifest = () => require('../package.json');

// LaunchError is a failure to find the program, with the message the
// launcher prints.
class LaunchError extends Error {}

// packageName is the package holding a platform's programs, named by
// process.platform and process.arch.
function packageName(platform, arch) {
  return `@colophon-mcp/${platform}-${arch}`;
}

// locate finds a program: its path, and the firmware directory beside it.
// The platform, the packages there are, and how a package is resolved are
// the running Node's unless given, so a test can ask for any platform.
function locate(program, {
  platform = process.platform,
  arch = process.arch,
  packages = Object.keys(manifest().optionalDependencies || {}),
  version = manifest().version,
  resolve = (id) => require.resolve(id),
} = {}) {
  const name = packageName(platform, arch);
  if (!packages.includes(name)) {
    const built = packages.map((p) => p.slice(p.indexOf('/') + 1).replace('-', '/')).join(', ');
    throw new LaunchError(
      `colophon-mcp: there is no build for this platform, ${platform}/${arch} (no package ${name}). ` +
      `It is built for ${built}; elsewhere, build it from its source with Go and make.`);
  }
  let dir;
  try {
    dir = path.dirname(resolve(`${name}/package.json`));
  } catch {
    throw new LaunchError(
      `colophon-mcp: the package ${name}, which holds the programs for ${platform}/${arch}, is not installed. ` +
      `npm installs it with colophon-mcp unless optional dependencies are left out: install again without ` +
      `--omit=optional or --no-optional, or install ${name}@${version} beside it.`);
  }
  const exe = platform === 'win32' ? `${program}.exe` : program;
  return { program: path.join(dir, exe), roms: path.join(dir, 'roms'), package: name };
}

// The signals passed on to the program. SIGHUP and SIGINT reach it on
// Windows too, where Node emulates them; SIGTERM is never raised there.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];

// invocation is the arguments and environment a program is started with.
// Where roms is set it is given the firmware dir: as --roms first, ahead of
// the caller's arguments, so that a --roms of the caller's, coming later,
// wins (checklist S-5); or, where the first argument names a command
// (colophon-mcp install, ...), which reads its own arguments, as
// $COLOPHON_ROMS, unless the caller has set it.
function invocation(args, dir, { roms, env }) {
  if (!roms) return { argv: args, env };
  if (args.length > 0 && !args[0].startsWith('-')) {
    return { argv: args, env: env.COLOPHON_ROMS ? env : { ...env, COLOPHON_ROMS: dir } };
  }
  return { argv: ['--roms', dir, ...args], env };
}

// main starts program with args, as invocation says. It does not return:
// the launcher ends as the program does.
function main(program, args, { roms = false } = {}) {
  let found;
  try {
    found = locate(program);
  } catch (err) {
    if (!(err instanceof LaunchError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const { argv, env } = invocation(args, found.roms, { roms, env: process.env });
  const child = spawn(found.program, argv, { stdio: 'inherit', windowsHide: true, env });

  const pass = (signal) => {
    child.kill(signal);
  };
  for (const signal of forwarded) process.on(signal, pass);

  child.on('error', (err) => {
    process.stderr.write(`colophon-mcp: cannot start ${found.program}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of forwarded) process.removeListener(s, pass);
    if (signal) {
      // End by the same signal, so that whoever started the launcher sees
      // what the program saw; if the signal does not end this process,
      // exit as a shell reports a death by signal.
      process.kill(process.pid, signal);
      setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 1000);
      return;
    }
    process.exit(code);
  });
}

module.exports = { LaunchError, invocation, locate, main, packageName };
