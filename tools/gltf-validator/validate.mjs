// Validates glTF files with the Khronos validator; prints one JSON line per file with the
// counts, and exits 1 if any file has an error or a warning.
// Run: node tools/gltf-validator/validate.mjs FILE...
import { readFileSync } from 'node:fs';
import validator from 'gltf-validator';

let bad = 0;
for (const path of process.argv.slice(2)) {
  const report = await validator.validateBytes(new Uint8Array(readFileSync(path)), { uri: path, maxIssues: 50 });
  const { numErrors, numWarnings, numInfos, messages } = report.issues;
  console.log(JSON.stringify({ path, numErrors, numWarnings, numInfos, first: messages.slice(0, 5).map((m) => `${m.code}: ${m.message}`) }));
  if (numErrors > 0 || numWarnings > 0) bad += 1;
}
process.exit(bad ? 1 : 0);
