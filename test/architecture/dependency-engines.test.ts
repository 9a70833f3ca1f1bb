import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// `npm ci` on the oldest Node the project declares installs without EBADENGINE: every package of
// the lockfile that npm installs (optional ones failing their engines are skipped quietly) admits
// that Node. cookie 2 and content-disposition 3 declared Node >= 22; they are overridden to
// versions with the same API that declare Node >= 18.

const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

describe('dependency engines', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
  const floor = semver.minVersion(pkg.engines.node)!.version;

  it(`every installed package of the lockfile supports Node ${floor}, the declared floor`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => !p.optional && p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(floor, p.engines.node))
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
