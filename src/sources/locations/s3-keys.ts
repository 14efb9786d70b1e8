/**
 * Object keys as paths: a feed's S3 glob (`exports/acme/bank-*.csv`) is matched against keys
 * segment by segment, `/` separating segments as on a disk, so `*` never reaches into a "folder"
 * such as `processed/`. Pure functions: no client, no I/O.
 */

const WILDCARD = /[*?]/;

/** Where to start listing: the glob's text before its first wildcard (all of it when it has none). */
export function listingPrefix(glob: string): string {
  const at = glob.search(WILDCARD);
  return at < 0 ? glob : glob.slice(0, at);
}

/**
 * Whether every match lies directly under the listing prefix (no `/` after the first wildcard), so
 * a listing with delimiter `/` suffices and the keys of sub-folders (`processed/`, thousands of
 * them after a while) are never fetched.
 */
export function matchesStayInPrefixFolder(glob: string): boolean {
  return !glob.slice(listingPrefix(glob).length).includes('/');
}

/**
 * The key a file gets when moved into `folder`, keeping its name. A folder starting with `/` is
 * counted from the bucket's root (`/archive/acme` → `archive/acme/<name>`); any other is relative
 * to the key's own folder (`processed` moves `exports/acme/a.csv` to `exports/acme/processed/a.csv`).
 */
export function movedKey(key: string, folder: string): string {
  const folders = key.split('/');
  const name = folders.pop() as string;
  const segments = folder.split('/').filter((segment) => segment !== '');
  const bad = segments.find((segment) => segment === '.' || segment === '..');
  if (bad !== undefined)
    throw new Error(`folder "${folder}": "${bad}" is not allowed in an S3 folder (keys have no . or ..)`);
  const target = [...(folder.startsWith('/') ? [] : folders), ...segments, name].join('/');
  if (target === key) throw new Error(`folder "${folder}": moving ${key} there leaves it where it is`);
  return target;
}

/**
 * CopyObject's `x-amz-copy-source`: bucket and key, URL-encoded as S3 requires, each key segment
 * on its own so the `/` separators stay literal.
 */
export function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}
