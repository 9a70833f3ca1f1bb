import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/demo/png.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// Nothing outside the branding directory is ever served, whatever the spelling of the name.
// Storage-free: one SQLite store holds the key.

const SECRET = 'TOP-SECRET-CONTENTS';

describe('branding images: traversal and unsafe names', () => {
  const root = mkdtempSync(join(tmpdir(), 'tb-branding-sec-'));
  const dir = join(root, 'branding');
  let store: Store;
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(dir);
    writeFileSync(join(root, 'secret.png'), SECRET);
    writeFileSync(join(root, 'secret.svg'), SECRET);
    writeFileSync(join(root, 'tickerbase.db'), SECRET);
    writeFileSync(join(dir, 'icon.png'), encodePng(2, 2, () => [0, 0, 255, 255]));
    writeFileSync(join(dir, 'notes.txt'), SECRET);
    writeFileSync(join(dir, 'data.db'), SECRET);
    mkdirSync(join(dir, 'folder.png'));
    symlinkSync(join(root, 'secret.png'), join(dir, 'evil.png'));
    symlinkSync('../secret.svg', join(dir, 'relative-evil.svg'));
    symlinkSync(root, join(dir, 'up'));
    symlinkSync('icon.png', join(dir, 'alias.png'));
    mkdirSync(join(dir, 'ZG9tYWlu'));
    symlinkSync(join(root, 'secret.png'), join(dir, 'ZG9tYWlu', 'evil.png'));
    store = await openStore({ sqliteFile: ':memory:' });
    t = await startTestApp(store, { config: { envelope: 'wrapped', brandingDir: dir } });
  });
  afterAll(async () => {
    await t.close();
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  const attempts = [
    '..%2Fsecret.png',
    '%2e%2e%2Fsecret.png',
    '%2E%2E%2fsecret.png',
    '%2e%2e',
    '..',
    '.',
    '%2Fetc%2Fpasswd',
    `${encodeURIComponent(join(root, 'secret.png'))}`,
    'icon.png%00.svg',
    'secret.png%00',
    '%00',
    '..%5Csecret.png',
    '%5C..%5Csecret.png',
    'C:%5Csecret.png',
    '%252e%252e%252fsecret.png',
    'evil.png',
    'relative-evil.svg',
    'up%2Fsecret.png',
    'folder.png',
    'notes.txt',
    'data.db',
    '.icon.png',
    '~root.png',
    'icon.png%20',
    `${'a'.repeat(200)}.png`,
    'missing.png',
  ];

  for (const kind of ['icon', 'logo']) {
    for (const name of attempts) {
      it(`404 for /${kind}/${name.slice(0, 60)}`, async () => {
        const res = await t.app.inject({ method: 'GET', url: `/v1/reference/company-branding/${kind}/${name}`, headers: { 'x-api-key': t.key } });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain(SECRET);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      });
    }
  }

  it('also refuses traversal through the raw (unnormalised) path', async () => {
    for (const url of ['/v1/reference/company-branding/icon/../../secret.png', '/v1/reference/company-branding/icon/./../secret.png', '/v1/reference/company-branding/../branding/secret.png']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.key } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(SECRET);
    }
  });

  it('refuses traversal in the upstream path form, in either segment', async () => {
    for (const [domain, file] of [['..', 'secret.png'], ['%2e%2e', 'secret.png'], ['ZG9tYWlu', 'evil.png'], ['ZG9tYWlu', '..%2F..%2Fsecret.png'], ['up', 'secret.png'], ['a%2F..', 'secret.png']]) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/reference/company-branding/${domain}/images/${file}`, headers: { 'x-api-key': t.key } });
      expect(res.statusCode, `${domain}/${file}`).toBe(404);
      expect(res.body).not.toContain(SECRET);
    }
  });

  it('serves a symlink that stays inside the directory', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/reference/company-branding/icon/alias.png', headers: { 'x-api-key': t.key } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('needs a key (401 before anything is looked up), accepted in the query for <img> tags', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/v1/reference/company-branding/icon/icon.png' });
    expect(none.statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/v1/reference/company-branding/icon/evil.png?apiKey=nope' });
    expect(wrong.statusCode).toBe(401);
    for (const p of ['apiKey', 'api_key']) {
      const ok = await t.app.inject({ method: 'GET', url: `/v1/reference/company-branding/icon/icon.png?${p}=${t.key}` });
      expect(ok.statusCode).toBe(200);
    }
  });

  it('answers 404 for every name when no branding directory is configured', async () => {
    const bare = await startTestApp(store);
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/v1/reference/company-branding/icon/icon.png', headers: { 'x-api-key': bare.key } });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
