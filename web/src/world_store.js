// The page's world files, kept in the browser (IndexedDB) across reloads: one per terrain,
// the bytes of the SQLite world file that `isoterra --world` reads, and which was open last.
const kDatabase = 'isoterra';
const kWorlds = 'worlds';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(kDatabase, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(kWorlds);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function run(mode, action) {
  return open().then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(kWorlds, mode);
    const request = action(tx.objectStore(kWorlds));
    tx.oncomplete = () => { db.close(); resolve(request.result); };
    tx.onerror = () => { db.close(); reject(tx.error); };
    tx.onabort = () => { db.close(); reject(tx.error || new Error('the browser refused to store the world')); };
  }));
}

/// The bytes stored for `key`, or undefined.
export const loadWorld = (key) => run('readonly', (s) => s.get(`file:${key}`));
/// Stores a world file's bytes under `key` (and resolves once they are on disk).
export const saveWorld = (key, bytes) => run('readwrite', (s) => s.put(bytes, `file:${key}`));
/// What was open last: { key, terrain } (terrain: a dropped file's text, or null for a built-in).
export const loadLast = () => run('readonly', (s) => s.get('last'));
export const saveLast = (last) => run('readwrite', (s) => s.put(last, 'last'));
