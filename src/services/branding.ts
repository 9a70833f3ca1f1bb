import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { ApiError, notFound } from '../domain/errors.js';

// Branding images are served from one directory and nothing else: a name must match a strict
// pattern (no separators, no '..', no NUL), carry an image extension, and its real path (after
// following any symlink) must still lie inside the directory's real path.

export const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** The upstream path's base64url domain segment, e.g. d3d3LmFwcGxlLmNvbQ. */
export const DOMAIN_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_BYTES = 8 * 1024 * 1024;

export const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
};

const NOT_FOUND_MESSAGE = 'Branding image not found.';

export interface ServedFile {
  bytes: Buffer;
  etag: string;
  contentType: string;
}

function safeName(name: string, pattern: RegExp): boolean {
  return pattern.test(name) && !name.includes('..');
}

/**
 * Reads `<dir>/<segments...>` when every segment is a safe name and the file's real path stays
 * inside the directory's real path; otherwise (or when absent) throws 404.
 */
export async function readBrandingFile(dir: string | undefined, segments: { value: string; pattern: RegExp }[]): Promise<ServedFile> {
  if (!dir) throw notFound(NOT_FOUND_MESSAGE);
  for (const s of segments) if (!safeName(s.value, s.pattern)) throw notFound(NOT_FOUND_MESSAGE);
  const name = segments[segments.length - 1]!.value;
  const contentType = IMAGE_TYPES[extname(name).toLowerCase()];
  if (!contentType) throw notFound(NOT_FOUND_MESSAGE);
  let file: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const root = await realpath(dir);
    const real = await realpath(join(root, ...segments.map((s) => s.value)));
    if (!real.startsWith(root + sep)) throw notFound(NOT_FOUND_MESSAGE);
    // O_NOFOLLOW: the resolved path must not have become a symlink since it was checked.
    file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    const st = await file.stat();
    if (!st.isFile() || st.size > MAX_BYTES) throw notFound(NOT_FOUND_MESSAGE);
    const bytes = await file.readFile();
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
    return { bytes, etag, contentType };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // ENOENT, ENOTDIR, ELOOP, EACCES...: the caller learns only that there is no such image.
    throw notFound(NOT_FOUND_MESSAGE);
  } finally {
    await file?.close();
  }
}

/** The company logos and icons of one branding directory (absent: none is served). */
export class BrandingService {
  constructor(private readonly dir: string | undefined) {}

  /** `<dir>/<filename>` (the logo and icon paths). */
  file(filename: string): Promise<ServedFile> {
    return readBrandingFile(this.dir, [{ value: filename, pattern: FILE_NAME }]);
  }

  /** `<dir>/<domain>/<file>` (upstream's path, with the base64url company domain). */
  domainFile(domain: string, file: string): Promise<ServedFile> {
    return readBrandingFile(this.dir, [
      { value: domain, pattern: DOMAIN_SEGMENT },
      { value: file, pattern: FILE_NAME },
    ]);
  }
}
