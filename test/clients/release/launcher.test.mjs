// The npm launcher's choice of program, for every platform it is built for
// and for one it is not (issue 17): the package named by process.platform
// and process.arch, the program with .exe on win32, the firmware beside it,
// and a refusal that names what is missing. The platform is given, so each
// is simulated here; internal/release's Go test runs the installed
// launcher whole, on this machine and as a machine it is not built for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { LaunchError, invocation, locate, packageName } = require('../../../npm/colophon-mcp/lib/launch.js');

// The packages a release lists, as internal/release names them.
const packages = [
  '@colophon-mcp/linux-x64', '@colophon-mcp/linux-arm64',
  '@colophon-mcp/darwin-x64', '@colophon-mcp/darwin-arm64',
  '@colophon-mcp/win32-x64', '@colophon-mcp/win32-arm64',
];

// installed resolves a package's package.json as though every package were
// installed under root.
const installed = (root) => (id) => path.join(root, 'node_modules', id);

test('each platform finds its own package, and .exe on win32', () => {
  for (const platform of ['linux', 'darwin', 'win32']) {
    for (const arch of ['x64', 'arm64']) {
      const root = path.join(path.sep, 'g');
      const got = locate('colophon-mcp', { platform, arch, packages, version: '0.0.0', resolve: installed(root) });
      const dir = path.join(root, 'node_modules', '@colophon-mcp', `${platform}-${arch}`);
      assert.equal(got.package, packageName(platform, arch));
      assert.equal(got.program, path.join(dir, platform === 'win32' ? 'colophon-mcp.exe' : 'colophon-mcp'));
      assert.equal(got.roms, path.join(dir, 'roms'));
      const pidp = locate('pidp10-mcp', { platform, arch, packages, version: '0.0.0', resolve: installed(root) });
      assert.equal(path.basename(pidp.program), platform === 'win32' ? 'pidp10-mcp.exe' : 'pidp10-mcp');
    }
  }
});

test('a platform with no build is refused, naming it and the ones there are', () => {
  for (const [platform, arch] of [['freebsd', 'x64'], ['linux', 'ia32'], ['win32', 'ia32'], ['aix', 'ppc64']]) {
    assert.throws(
      () => locate('colophon-mcp', { platform, arch, packages, version: '0.0.0', resolve: () => assert.fail('resolved') }),
      (err) => {
        assert.ok(err instanceof LaunchError);
        assert.match(err.message, new RegExp(`no build for this platform, ${platform}/${arch} \\(no package @colophon-mcp/${platform}-${arch}\\)`));
        assert.match(err.message, /built for linux\/x64, linux\/arm64, darwin\/x64, darwin\/arm64, win32\/x64, win32\/arm64;/);
        return true;
      });
  }
});

test('a platform whose package npm left out is refused, naming the package', () => {
  const missing = () => {
    throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' });
  };
  assert.throws(
    () => locate('colophon-mcp', { platform: 'darwin', arch: 'arm64', packages, version: '1.2.3', resolve: missing }),
    (err) => {
      assert.ok(err instanceof LaunchError);
      assert.match(err.message, /the package @colophon-mcp\/darwin-arm64, which holds the programs for darwin\/arm64, is not installed/);
      assert.match(err.message, /--omit=optional/);
      assert.match(err.message, /@colophon-mcp\/darwin-arm64@1\.2\.3/);
      return true;
    });
});

test('the server is given the package\'s firmware, and a command finds it in the environment', () => {
  const env = { PATH: '/bin' };
  assert.deepEqual(invocation([], '/p/roms', { roms: true, env }), { argv: ['--roms', '/p/roms'], env });
  assert.deepEqual(invocation(['--roms', '/mine'], '/p/roms', { roms: true, env }),
    { argv: ['--roms', '/p/roms', '--roms', '/mine'], env }, 'the caller\'s --roms comes last, and wins');
  assert.deepEqual(invocation(['--version'], '/p/roms', { roms: true, env }), { argv: ['--roms', '/p/roms', '--version'], env });
  assert.deepEqual(invocation(['install', '--client', 'zed'], '/p/roms', { roms: true, env }),
    { argv: ['install', '--client', 'zed'], env: { PATH: '/bin', COLOPHON_ROMS: '/p/roms' } });
  const mine = { PATH: '/bin', COLOPHON_ROMS: '/mine' };
  assert.deepEqual(invocation(['install'], '/p/roms', { roms: true, env: mine }), { argv: ['install'], env: mine });
  assert.deepEqual(invocation(['--host', 'h'], '/p/roms', { roms: false, env }), { argv: ['--host', 'h'], env }, 'pidp10-mcp takes no firmware');
});
