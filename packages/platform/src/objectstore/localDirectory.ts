import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import {
  access,
  mkdir,
  open,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DEFAULT_CONTENT_TYPE,
  InvalidObjectKeyError,
  ObjectNotFoundError,
  ObjectTooLargeError,
  compareObjectKeys,
  errorCode,
  readStreamToBuffer,
  validateObjectKey,
  validateObjectPrefix,
} from './objectStore.js';
import type { ObjectBody, ObjectInfo, ObjectStore } from './objectStore.js';

/** Contents of a metadata sidecar file. */
interface Sidecar {
  contentType: string | null;
}

/** The path, or one of its parents, does not exist or is not a directory. */
function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Object store over a local directory, for development and single-node deployments.
 *
 * Layout under `root`:
 * - `objects/<key>`: the object bytes, one plain file per key;
 * - `meta/<key>`: a JSON sidecar with the content type, in a parallel tree so that no key can
 *   collide with a sidecar name and `list` only has to walk `objects/`;
 * - `.tmp/<uuid>`: uploads in progress, renamed into place when complete (same filesystem, so
 *   `rename` is atomic and readers never see a partial file).
 *
 * Because keys map onto paths, a key cannot also be a "folder" of another key (`a/b` and `a/b/c`
 * cannot coexist); S3 allows that, but this project's key scheme never produces it.
 */
export class LocalDirectoryObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly root: string;
  private readonly objectsDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    if (!isAbsolute(root)) {
      throw new Error(
        `local object store root must be an absolute path, got ${JSON.stringify(root)}`,
      );
    }
    this.root = resolve(root);
    this.objectsDir = join(this.root, 'objects');
    this.metaDir = join(this.root, 'meta');
    this.tmpDir = join(this.root, '.tmp');
  }

  async ensureReady(): Promise<void> {
    await mkdir(this.objectsDir, { recursive: true });
    await mkdir(this.metaDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  async ping(): Promise<void> {
    await access(this.objectsDir, constants.R_OK | constants.W_OK);
    await access(this.tmpDir, constants.R_OK | constants.W_OK);
  }

  async put(key: string, body: ObjectBody, opts?: { contentType?: string }): Promise<ObjectInfo> {
    validateObjectKey(key);
    const target = this.pathIn(this.objectsDir, key);
    const metaTarget = this.pathIn(this.metaDir, key);
    const contentType = opts?.contentType ?? DEFAULT_CONTENT_TYPE;
    const id = randomUUID();
    const tmpData = join(this.tmpDir, id);
    const tmpMeta = join(this.tmpDir, `${id}.meta`);
    try {
      await mkdir(this.tmpDir, { recursive: true });
      if (Buffer.isBuffer(body)) {
        await writeFile(tmpData, body, { flag: 'wx' });
      } else {
        await pipeline(body, createWriteStream(tmpData, { flags: 'wx' }));
      }
      const { size } = await stat(tmpData);
      const sidecar: Sidecar = { contentType };
      await writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      // Sidecar first, bytes last: the object exists exactly when its bytes file does, so a crash
      // in between leaves at worst an orphan sidecar, never bytes without their content type.
      await this.moveIntoPlace(key, tmpMeta, metaTarget);
      await this.moveIntoPlace(key, tmpData, target);
      return { size, contentType };
    } catch (err) {
      await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    validateObjectKey(key);
    const handle = await this.openObject(key);
    return handle.createReadStream();
  }

  async getBuffer(key: string, opts?: { maxBytes?: number }): Promise<Buffer> {
    validateObjectKey(key);
    const handle = await this.openObject(key);
    const maxBytes = opts?.maxBytes;
    if (maxBytes !== undefined) {
      let size: number;
      try {
        ({ size } = await handle.stat());
      } catch (err) {
        await handle.close();
        throw err;
      }
      if (size > maxBytes) {
        await handle.close();
        throw new ObjectTooLargeError(key, maxBytes);
      }
    }
    // Still bounded while reading, in case the file grows underneath us.
    return readStreamToBuffer(handle.createReadStream(), key, maxBytes);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    validateObjectKey(key);
    let size: number;
    try {
      const st = await stat(this.pathIn(this.objectsDir, key));
      if (!st.isFile()) return null;
      size = st.size;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    return { size, contentType: await this.readContentType(key) };
  }

  async delete(key: string): Promise<void> {
    validateObjectKey(key);
    // Bytes first: once they are gone the object is gone, whatever happens to the sidecar.
    await this.unlinkIfFile(this.pathIn(this.objectsDir, key));
    await this.unlinkIfFile(this.pathIn(this.metaDir, key));
  }

  async list(prefix: string): Promise<string[]> {
    validateObjectPrefix(prefix);
    // Walk only the deepest directory the prefix fully names, then filter by string prefix.
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash === -1 ? '' : prefix.slice(0, slash);
    const start = dirKey === '' ? this.objectsDir : this.pathIn(this.objectsDir, dirKey);
    const keys: string[] = [];
    const pending: { dir: string; keyPrefix: string }[] = [
      { dir: start, keyPrefix: dirKey === '' ? '' : `${dirKey}/` },
    ];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      let entries;
      try {
        entries = await readdir(next.dir, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) continue;
        throw err;
      }
      for (const entry of entries) {
        const key = next.keyPrefix + entry.name;
        if (entry.isDirectory()) {
          pending.push({ dir: join(next.dir, entry.name), keyPrefix: `${key}/` });
        } else if (entry.isFile() && key.startsWith(prefix)) {
          keys.push(key);
        }
      }
    }
    return keys.sort(compareObjectKeys);
  }

  /**
   * Maps a validated key to a path under `base`. Rechecks containment as a second line of defence
   * behind validateObjectKey, so a future change to the key rules cannot open a traversal.
   */
  private pathIn(base: string, key: string): string {
    const resolved = resolve(base, ...key.split('/'));
    if (!resolved.startsWith(base + sep)) {
      throw new InvalidObjectKeyError(key, 'resolves outside the object store root');
    }
    return resolved;
  }

  private async moveIntoPlace(key: string, from: string, to: string): Promise<void> {
    try {
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
    } catch (err) {
      const code = errorCode(err);
      if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
        throw new Error(
          `cannot store ${JSON.stringify(key)}: it collides with another key used as a folder (or the reverse), ` +
            'which the local directory object store cannot represent',
          { cause: err },
        );
      }
      throw err;
    }
  }

  private async openObject(key: string): Promise<FileHandle> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathIn(this.objectsDir, key), 'r');
    } catch (err) {
      if (isMissing(err)) throw new ObjectNotFoundError(key, { cause: err });
      throw err;
    }
    try {
      // Opening a directory succeeds on Linux; a "folder" is not an object.
      if (!(await handle.stat()).isFile()) throw new ObjectNotFoundError(key);
      return handle;
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  private async readContentType(key: string): Promise<string | null> {
    let text: string;
    try {
      text = await readFile(this.pathIn(this.metaDir, key), 'utf8');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const parsed: unknown = JSON.parse(text);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'contentType' in parsed &&
      typeof parsed.contentType === 'string'
    ) {
      return parsed.contentType;
    }
    return null;
  }

  private async unlinkIfFile(path: string): Promise<void> {
    try {
      await unlink(path);
    } catch (err) {
      if (isMissing(err)) return;
      // unlink of a directory fails with EISDIR (EPERM on macOS): the key names a "folder" of other
      // keys, which is not an object, so there is nothing to delete.
      const code = errorCode(err);
      if ((code === 'EISDIR' || code === 'EPERM') && (await stat(path)).isDirectory()) return;
      throw err;
    }
  }
}
