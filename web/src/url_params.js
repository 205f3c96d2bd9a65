// The page's URL parameters, for links and tests: preset, seed, eye=X,Y,Z, target=X,Y,Z,
// view=M (view distance), mesher. A bad one is reported in one line and left at its default.
// The presets and meshers are the core's (builtin_names, mesher_list).

function point(text, name, problems) {
  const parts = text.split(',');
  const v = parts.map(Number);
  if (parts.length !== 3 || parts.some((p) => p.trim() === '') || v.some((x) => !Number.isFinite(x) || Math.abs(x) > 1e7)) {
    problems.push(`${name}=${excerpt(text)} must be three numbers X,Y,Z`);
    return null;
  }
  return v;
}

function excerpt(text) {
  const t = String(text).replace(/[^\x20-\x7e]/g, '?');
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

export function readParams(search, presets, meshers) {
  const q = new URLSearchParams(search);
  const problems = [];
  const out = {};
  for (const key of q.keys()) {
    if (!['preset', 'seed', 'eye', 'target', 'view', 'mesher'].includes(key)) problems.push(`unknown parameter '${excerpt(key)}'`);
  }
  if (q.has('preset')) {
    const p = q.get('preset');
    if (presets.includes(p)) out.preset = p;
    else problems.push(`preset=${excerpt(p)} is not one of ${presets.join(', ')}`);
  }
  if (q.has('seed')) {
    const s = q.get('seed');
    const n = Number(s);
    if (/^\d+$/.test(s) && n <= 4294967295) out.seed = n;
    else problems.push(`seed=${excerpt(s)} must be a whole number from 0 to 4294967295`);
  }
  if (q.has('eye')) out.eye = point(q.get('eye'), 'eye', problems) ?? undefined;
  if (q.has('target')) out.target = point(q.get('target'), 'target', problems) ?? undefined;
  if (q.has('view')) {
    const v = Number(q.get('view'));
    if (q.get('view').trim() !== '' && Number.isFinite(v) && v >= 32 && v <= 65536) out.view = v;
    else problems.push(`view=${excerpt(q.get('view'))} must be metres from 32 to 65536`);
  }
  if (q.has('mesher')) {
    const m = q.get('mesher');
    if (meshers.includes(m)) out.mesher = m;
    else problems.push(`mesher=${excerpt(m)} is not one of ${meshers.join(', ')}`);
  }
  if (out.eye && out.target && out.eye.every((x, i) => x === out.target[i])) {
    problems.push('eye and target are the same point');
    delete out.target;
  }
  return { params: out, problems };
}
