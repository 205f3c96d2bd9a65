// Loads the isoterra WebAssembly module (built by scripts/web.sh from the C++ sources into
// src/wasm/). The page and every worker hold an instance of their own.
import createModule from './wasm/isoterra.mjs';

export async function loadCore() {
  return createModule({ print: () => {}, printErr: (text) => console.warn(text) });
}

/// Parses the JSON a core call returns; throws an Error with its one-line message when it
/// is {"error": ...}.
export function checked(json) {
  const value = JSON.parse(json);
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.error === 'string') {
    throw new Error(value.error);
  }
  return value;
}
